! Trajectory of a projectile with quadratic drag in an exponential atmosphere,
! integrated by semi-implicit Euler until it lands or the step budget is spent.
! Features: nested user-function calls in expressions (drag_accel(cd, density(y), s)),
! functions of several arguments, a LOGICAL local in a DO WHILE condition with .and.
! and .not., MAX as a running peak, a passive integer output (steps taken).
subroutine trajectory(nmax, dt, v0, angle, cd, range_x, peak_y, nsteps)
  implicit none
  integer, intent(in) :: nmax
  real(8), intent(in) :: dt, v0, angle, cd
  real(8), intent(out) :: range_x, peak_y
  integer, intent(out) :: nsteps
  real(8) :: x, y, vx, vy, ax, ay, s, f
  real(8) :: speed, density, drag_accel
  logical :: airborne
  x = 0.0d0
  y = 0.0d0
  vx = v0 * cos(angle)
  vy = v0 * sin(angle)
  peak_y = 0.0d0
  airborne = .true.
  nsteps = 0
  do while (airborne .and. nsteps < nmax)
    s = speed(vx, vy)
    f = drag_accel(cd, density(y), s)
    ax = -f * vx / s
    ay = -9.81d0 - f * vy / s
    vx = vx + dt * ax
    vy = vy + dt * ay
    x = x + dt * vx
    y = y + dt * vy
    peak_y = max(peak_y, y)
    nsteps = nsteps + 1
    if (.not. (y > 0.0d0)) airborne = .false.
  end do
  range_x = x
end subroutine trajectory

real(8) function speed(vx, vy)
  implicit none
  real(8), intent(in) :: vx, vy
  speed = sqrt(vx * vx + vy * vy)
end function speed

real(8) function density(h)
  implicit none
  real(8), intent(in) :: h
  density = 1.225d0 * exp(-h / 8500.0d0)
end function density

real(8) function drag_accel(cd, rho, s)
  implicit none
  real(8), intent(in) :: cd, rho, s
  real(8), parameter :: area = 4.0d-3, mass = 0.2d0
  drag_accel = 0.5d0 * rho * cd * area * s**2 / mass
end function drag_accel
