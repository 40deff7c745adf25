! Finite-volume viscous Burgers on a periodic-free interval, written in array notation:
! ghost cells copied with sections, Rusanov fluxes at the n+1 faces computed on whole
! sections, the update u(1:n) = u(1:n) - r*(f(1:n) - f(0:n-1)), and a final one-sided
! filter u(2:n) = (u(2:n) + u(1:n-1))/2 that reads the elements it overwrites (so it
! must run from the top down). The cost is a weighted energy.
! Features: sections with offsets, whole-array assignment and broadcast, MAX/ABS on
! sections, SUM of an expression, DOT_PRODUCT, an explicit-shape work array.
subroutine fv_burgers(n, nsteps, nu, u0, w, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: nu
  real(8), intent(in) :: u0(n), w(n)
  real(8), intent(out) :: cost
  real(8) :: u(0:n+1), flux(0:n), speed(0:n)
  real(8) :: dx, dt, r
  integer :: step

  dx = 1.0d0 / dble(n)
  dt = 0.2d0 * dx
  r = dt / dx
  u(1:n) = u0
  do step = 1, nsteps
    ! Reflecting ghost cells.
    u(0) = u(1)
    u(n+1) = u(n)
    speed = max(abs(u(0:n)), abs(u(1:n+1)))
    flux = 0.25d0 * (u(0:n)**2 + u(1:n+1)**2) - 0.5d0 * speed * (u(1:n+1) - u(0:n)) &
         - nu / dx * (u(1:n+1) - u(0:n))
    u(1:n) = u(1:n) - r * (flux(1:n) - flux(0:n-1))
  end do
  u(2:n) = 0.5d0 * (u(2:n) + u(1:n-1))
  cost = 0.5d0 * sum(w * u(1:n)**2) + dx * dot_product(u(1:n), u(1:n))
end subroutine fv_burgers
