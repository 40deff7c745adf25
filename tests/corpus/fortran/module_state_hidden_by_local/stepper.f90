module stepper_state
  implicit none
  real(8) :: h = 0.1d0
end module stepper_state

! A step that adapts the step size it keeps in a module.
subroutine step(y, k)
  use stepper_state, only: h
  implicit none
  real(8), intent(inout) :: y
  real(8), intent(in) :: k
  y = y - h*k*y**2
  h = h*(1.0d0 + 0.2d0*y)
end subroutine step

subroutine reset(h0)
  use stepper_state, only: h
  implicit none
  real(8), intent(in) :: h0
  h = h0
end subroutine reset

! The driver does not see the module, and has a local of the module variable's
! name: its adjoint must save and restore the module's `h` around each step it
! runs again, not this one.
subroutine run(y, k, h0, f)
  implicit none
  real(8), intent(inout) :: y
  real(8), intent(in) :: k, h0
  real(8), intent(out) :: f
  real(8) :: h
  integer :: i
  h = 2.0d0*h0
  call reset(h0)
  do i = 1, 4
    call step(y, k)
  end do
  f = y + h
end subroutine run
