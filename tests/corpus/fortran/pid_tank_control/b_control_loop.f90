! Controller and plant updates.
! Features: PRIVATE by default with a PUBLIC list; private constants and a private
! smooth saturation function used by the public procedures (copied into the
! derivative modules); INTENT(INOUT) controller state across calls; a function
! with a derived-type dummy; nested components of an INTENT(INOUT) tank.
module control_loop
  use control_types
  implicit none
  private
  public :: pid_reset, pid_update, tank_step, outflow

  real(dp), parameter :: gravity = 9.81_dp
  real(dp), parameter :: min_level = 1.0e-3_dp

contains

  ! Smooth saturation to (-limit, limit).
  function soft_clip(u, limit) result(v)
    real(dp), intent(in) :: u, limit
    real(dp) :: v
    v = limit * tanh(u / limit)
  end function soft_clip

  subroutine pid_reset(c, kp, ki, kd, u_max)
    type(pid_t), intent(out) :: c
    real(dp), intent(in) :: kp, ki, kd, u_max
    c%kp = kp
    c%ki = ki
    c%kd = kd
    c%u_max = u_max
    c%integral = 0.0_dp
    c%prev_error = 0.0_dp
  end subroutine pid_reset

  subroutine pid_update(c, setpoint, measured, dt, u)
    type(pid_t), intent(inout) :: c
    real(dp), intent(in) :: setpoint, measured, dt
    real(dp), intent(out) :: u
    real(dp) :: e, de
    e = setpoint - measured
    c%integral = c%integral + e * dt
    de = (e - c%prev_error) / dt
    c%prev_error = e
    u = soft_clip(c%kp * e + c%ki * c%integral + c%kd * de, c%u_max)
  end subroutine pid_update

  ! Torricelli outflow through the valve.
  function outflow(t) result(q)
    type(tank_t), intent(in) :: t
    real(dp) :: q
    q = t%outlet%cv * t%outlet%opening * sqrt(2.0_dp * gravity * max(t%level, min_level))
  end function outflow

  subroutine tank_step(t, inflow, dt)
    type(tank_t), intent(inout) :: t
    real(dp), intent(in) :: inflow, dt
    t%level = t%level + dt * (inflow - outflow(t)) / t%area
  end subroutine tank_step
end module control_loop
