! Locates the largest sample of a spectrum, then (optionally) refines the peak by
! fitting a parabola through it and its neighbours. Returns the peak index (a passive
! integer output), the refined position and value.
! Features: passive INTEGER output of the root, LOGICAL input, argmax loop with
! logical IF, .gt. and >=, IF/ELSE, an early RETURN.
subroutine spectral_peak(n, f, refine, ipk, xpk, fpk)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: f(n)
  logical, intent(in) :: refine
  integer, intent(out) :: ipk
  real(8), intent(out) :: xpk, fpk
  real(8) :: a, b, c, denom
  integer :: i
  ipk = 1
  do i = 2, n
    if (f(i) .gt. f(ipk)) ipk = i
  end do
  xpk = dble(ipk)
  fpk = f(ipk)
  if (.not. refine) return
  if (ipk == 1 .or. ipk >= n) return
  a = f(ipk - 1)
  b = f(ipk)
  c = f(ipk + 1)
  denom = a - 2.0d0 * b + c
  if (abs(denom) > 1.0d-12) then
    xpk = dble(ipk) + 0.5d0 * (a - c) / denom
    fpk = b - 0.25d0 * (a - c) * (xpk - dble(ipk))
  else
    xpk = dble(ipk)
  end if
end subroutine spectral_peak
