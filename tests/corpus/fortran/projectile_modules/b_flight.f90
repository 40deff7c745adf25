! Projectile flight with altitude-dependent drag: semi-implicit Euler steps until
! the time budget is spent; the cost is the horizontal range and the final height.
! Features: module procedures as root and callees (host association), USE with ONLY
! and a rename, a module function called in an expression, an external procedure
! calling a module procedure.
module flight
  use kinds_and_constants, only: wp => dp, g0
  use drag_model
  implicit none

contains

  subroutine fly(nsteps, dt, cd, v0, angle, range_x, height)
    integer, intent(in) :: nsteps
    real(wp), intent(in) :: dt, cd, v0, angle
    real(wp), intent(out) :: range_x, height
    real(wp) :: x, z, vx, vz, ax, az
    integer :: step
    x = 0.0_wp
    z = 1.0_wp
    vx = v0 * cos(angle)
    vz = v0 * sin(angle)
    do step = 1, nsteps
      call drag(cd, z, vx, vz, ax, az)
      vx = vx + dt * ax
      vz = vz + dt * (az - g0)
      x = x + dt * vx
      z = z + dt * vz
    end do
    range_x = x
    height = z + 0.01_wp * density(z)
  end subroutine fly
end module flight

! A weighted cost of one flight, outside any module.
subroutine flight_cost(nsteps, dt, params, cost)
  use flight, only: fly
  use kinds_and_constants, only: dp
  implicit none
  integer, intent(in) :: nsteps
  real(dp), intent(in) :: dt, params(3)
  real(dp), intent(out) :: cost
  real(dp) :: r, h
  call fly(nsteps, dt, params(1), params(2), params(3), r, h)
  cost = (r - 150.0_dp)**2 + 0.5_dp * h**2
end subroutine flight_cost
