! Types of a level-control loop: a PID controller with its memory, and a tank.
! Features: a module of kinds and types only, a controller type whose state
! components persist across calls, a plant type nesting a valve type.
module control_types
  implicit none
  integer, parameter :: dp = kind(1.0d0)

  type :: pid_t
    real(dp) :: kp, ki, kd
    real(dp) :: integral        ! running integral of the error
    real(dp) :: prev_error
    real(dp) :: u_max           ! actuator limit
  end type pid_t

  type :: valve_t
    real(dp) :: cv              ! flow coefficient
    real(dp) :: opening         ! 0..1
  end type valve_t

  type :: tank_t
    real(dp) :: area
    real(dp) :: level
    type(valve_t) :: outlet
  end type tank_t
end module control_types
