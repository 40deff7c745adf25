! The Rosenbrock function in n dimensions:
!   f(x) = sum over i < n of 100 (x(i+1) - x(i)**2)**2 + (1 - x(i))**2.
! adgen differentiates it with respect to x (see ../ad.toml).
subroutine rosenbrock(n, x, f)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: f
  integer :: i

  f = 0.0d0
  do i = 1, n - 1
    f = f + 100.0d0 * (x(i + 1) - x(i)**2)**2 + (1.0d0 - x(i))**2
  end do
end subroutine rosenbrock
