! Thomas algorithm for a diagonally dominant tridiagonal system, then a weighted sum
! of the solution. Sub-, main and super-diagonals and right-hand side are inputs.
! Features: assumed-size arrays, DOUBLE PRECISION, PARAMETER bounding work arrays,
! a negative-step DO loop (back substitution).
subroutine thomas(n, a, b, c, d, x, s)
  implicit none
  integer, parameter :: nmax = 200
  integer, intent(in) :: n
  double precision, intent(in) :: a(*), b(*), c(*), d(*)
  double precision, intent(out) :: x(*)
  double precision, intent(out) :: s
  double precision :: cp(nmax), dp(nmax), denom
  integer :: i
  cp(1) = c(1) / b(1)
  dp(1) = d(1) / b(1)
  do i = 2, n
    denom = b(i) - a(i) * cp(i - 1)
    cp(i) = c(i) / denom
    dp(i) = (d(i) - a(i) * dp(i - 1)) / denom
  end do
  x(n) = dp(n)
  do i = n - 1, 1, -1
    x(i) = dp(i) - cp(i) * x(i + 1)
  end do
  s = 0.0d0
  do i = n, 1, -2
    s = s + dble(i) * x(i)
  end do
end subroutine thomas
