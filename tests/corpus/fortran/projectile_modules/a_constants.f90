! Physical constants and kinds shared by the projectile model.
! Features: a module of kind and real PARAMETERs, a module with read-only module
! variables initialized in their declarations, PUBLIC/PRIVATE.
module kinds_and_constants
  implicit none
  private
  public :: dp, g0, rho_sea, scale_height
  integer, parameter :: dp = kind(1.0d0)
  real(dp), parameter :: g0 = 9.80665_dp          ! standard gravity [m/s^2]
  real(dp), parameter :: rho_sea = 1.225_dp       ! air density at sea level
  real(dp), parameter :: scale_height = 8500.0_dp ! of the isothermal atmosphere
end module kinds_and_constants

module drag_model
  use kinds_and_constants, only: dp, rho_sea, scale_height
  implicit none
  ! Read-only model data: set here, never assigned by the model.
  real(dp) :: area = 0.0314_dp
  real(dp) :: mass = 4.5_dp
  integer :: calls_made = 0

contains

  ! Air density of the isothermal atmosphere at height z.
  function density(z) result(rho)
    real(dp), intent(in) :: z
    real(dp) :: rho
    rho = rho_sea * exp(-max(z, 0.0_dp) / scale_height)
  end function density

  ! Drag deceleration components for velocity (vx, vz) at height z.
  subroutine drag(cd, z, vx, vz, ax, az)
    real(dp), intent(in) :: cd, z, vx, vz
    real(dp), intent(out) :: ax, az
    real(dp) :: speed, k
    calls_made = calls_made + 1
    speed = sqrt(vx**2 + vz**2)
    k = 0.5_dp * density(z) * cd * area / mass
    ax = -k * speed * vx
    az = -k * speed * vz
  end subroutine drag
end module drag_model
