! Predator-prey (Lotka-Volterra) dynamics integrated with the classical fourth-order
! Runge-Kutta scheme for nsteps steps.
! Features: time-stepping loop of 200 steps calling an integrator step that calls the
! right-hand side four times with array expressions built in local arrays; PARAMETER.
subroutine lotka(nsteps, dt, par, y0, y)
  implicit none
  integer, intent(in) :: nsteps
  real(8), intent(in) :: dt, par(4), y0(2)
  real(8), intent(out) :: y(2)
  integer :: step
  y(1) = y0(1)
  y(2) = y0(2)
  do step = 1, nsteps
    call rk4_step(y, par, dt)
  end do
end subroutine lotka

subroutine rk4_step(y, par, dt)
  implicit none
  integer, parameter :: neq = 2
  real(8), intent(inout) :: y(neq)
  real(8), intent(in) :: par(4), dt
  real(8) :: k1(neq), k2(neq), k3(neq), k4(neq), tmp(neq)
  integer :: i
  call lv_rhs(y, par, k1)
  do i = 1, neq
    tmp(i) = y(i) + 0.5d0 * dt * k1(i)
  end do
  call lv_rhs(tmp, par, k2)
  do i = 1, neq
    tmp(i) = y(i) + 0.5d0 * dt * k2(i)
  end do
  call lv_rhs(tmp, par, k3)
  do i = 1, neq
    tmp(i) = y(i) + dt * k3(i)
  end do
  call lv_rhs(tmp, par, k4)
  do i = 1, neq
    y(i) = y(i) + dt / 6.0d0 * (k1(i) + 2.0d0 * k2(i) + 2.0d0 * k3(i) + k4(i))
  end do
end subroutine rk4_step

subroutine lv_rhs(y, par, f)
  implicit none
  real(8), intent(in) :: y(2), par(4)
  real(8), intent(out) :: f(2)
  f(1) = par(1) * y(1) - par(2) * y(1) * y(2)
  f(2) = par(4) * y(1) * y(2) - par(3) * y(2)
end subroutine lv_rhs
