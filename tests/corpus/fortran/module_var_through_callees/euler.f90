! A module array passed to a procedure that does not use the module, but whose callee
! reads the array through it: inside `euler`, the dummy is the module variable.
module state
  implicit none
  real(8) :: u(4)
end module state

subroutine rhs(f)
  use state
  implicit none
  real(8), intent(out) :: f(4)
  integer :: i
  do i = 1, 4
    f(i) = -u(i)*u(5 - i) + 0.5d0*sin(u(i))
  end do
end subroutine rhs

subroutine euler(v, dt)
  implicit none
  real(8), intent(inout) :: v(4)
  real(8), intent(in) :: dt
  real(8) :: f(4)
  integer :: k
  do k = 1, 3
    call rhs(f)
    v = v + dt*f
  end do
end subroutine euler

subroutine integrate(x, y)
  use state
  implicit none
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y
  u = x
  call euler(u, 0.1d0)
  y = sum(u**2) + u(1)*u(3)
end subroutine integrate
