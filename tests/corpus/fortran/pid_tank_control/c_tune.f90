! Closed-loop step response of the tank under PID control; the cost is the
! integral of the squared error plus a control-effort penalty, which a tuner
! would minimize over the gains.
! Features: external root, USE ONLY from both modules, controller built by an
! INTENT(OUT) constructor, nested component assignment t%outlet%cv.
subroutine step_response(nsteps, dt, gains, cv, setpoint, cost, level_end)
  use control_types, only: dp, pid_t, tank_t
  use control_loop, only: pid_reset, pid_update, tank_step
  implicit none
  integer, intent(in) :: nsteps
  real(dp), intent(in) :: dt, gains(3), cv, setpoint
  real(dp), intent(out) :: cost, level_end
  type(pid_t) :: c
  type(tank_t) :: t
  real(dp) :: u, inflow
  integer :: step
  call pid_reset(c, gains(1), 0.2_dp * gains(2), 0.05_dp * gains(3), 2.0_dp)
  t%area = 1.5_dp
  t%level = 0.5_dp
  t%outlet%cv = 0.1_dp * cv
  t%outlet%opening = 0.7_dp
  cost = 0.0_dp
  do step = 1, nsteps
    call pid_update(c, setpoint, t%level, dt, u)
    inflow = 0.3_dp + u
    call tank_step(t, inflow, dt)
    cost = cost + dt * ((setpoint - t%level)**2 + 0.01_dp * u**2)
  end do
  level_end = t%level
end subroutine step_response
