! Eccentric anomalies of a set of orbits: Kepler's equation E - e sin(E) = M solved by
! Newton's method to a tolerance, plus the total number of iterations.
! Features: DO WHILE with EXIT on convergence, logical IF, a passive integer output
! of the root, relational operators in both spellings.
subroutine kepler(n, mean_anom, ecc, tol, ea, iters)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: mean_anom(n), ecc(n), tol
  real(8), intent(out) :: ea(n)
  integer, intent(out) :: iters
  real(8) :: e, f, fp, delta
  integer :: i, k
  iters = 0
  do i = 1, n
    e = mean_anom(i) + 0.5d0 * ecc(i)
    k = 0
    do while (k < 50)
      f = e - ecc(i) * sin(e) - mean_anom(i)
      fp = 1.0d0 - ecc(i) * cos(e)
      delta = f / fp
      e = e - delta
      k = k + 1
      if (abs(delta) .le. tol) exit
    end do
    ea(i) = e
    iters = iters + k
  end do
end subroutine kepler
