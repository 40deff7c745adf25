! A module array passed to a procedure that also reads it through its module: the
! dummy and the module variable are one storage inside `step`.
module state
  implicit none
  real(8) :: u(4)
  real(8) :: w(4)
  real(8) :: c
end module state

subroutine step(v, dt)
  use state
  implicit none
  real(8), intent(inout) :: v(4)
  real(8), intent(in) :: dt
  integer :: i
  ! Writes u through v: the next loops read the new values through the module.
  do i = 1, 4
    v(i) = v(i) + dt*c*u(i)**2
  end do
  do i = 1, 4
    w(i) = w(i) + u(i)*v(i)
  end do
  do i = 1, 4
    v(i) = sin(v(i)) + 0.1d0*u(i)
  end do
end subroutine step

subroutine relax(x, p, y)
  use state
  implicit none
  real(8), intent(in) :: x(4), p
  real(8), intent(out) :: y
  u = x
  w = 0
  c = p
  call step(u, 0.1d0)
  call step(u(1:4), 0.2d0)
  y = sum(u**2) + sum(w)
end subroutine relax
