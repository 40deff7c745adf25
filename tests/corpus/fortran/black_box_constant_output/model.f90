! The work array and the scale hold active values before the calls overwrite them:
! their derivatives must be zero after, in both modes.
subroutine misfit(n, x, r, cost)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: r(n)
  real(8), intent(out) :: cost
  real(8) :: s
  integer :: i
  r = 2.0d0*x
  s = sum(r)
  cost = s*x(1)
  call load_reference(n, r)
  call load_scale(s)
  do i = 1, n
    cost = cost + s*(x(i) - r(i))**2
  end do
end subroutine misfit
