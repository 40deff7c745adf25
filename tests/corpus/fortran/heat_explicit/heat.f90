! Explicit finite differences for u_t = (kappa u_x)_x on (0,1) with fixed end values,
! run for nsteps steps; the cost is the discrete L2 energy at the final time.
! Features: time-stepping loop calling a subroutine, arrays with lower bound 0
! (u(0:n+1)), an in-place update that keeps the overwritten neighbour in a scalar.
subroutine heat(n, nsteps, kappa, u, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: kappa(n)
  real(8), intent(inout) :: u(0:n+1)
  real(8), intent(out) :: cost
  real(8) :: dx, dt
  integer :: step, i
  dx = 1.0d0 / dble(n + 1)
  dt = 0.2d0 * dx * dx
  do step = 1, nsteps
    call heat_step(n, kappa, u, dt / (dx * dx))
  end do
  cost = 0.0d0
  do i = 0, n + 1
    cost = cost + u(i)**2 * dx
  end do
end subroutine heat

subroutine heat_step(n, kappa, u, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: kappa(n), r
  real(8), intent(inout) :: u(0:n+1)
  real(8) :: left, centre
  integer :: i
  left = u(0)
  do i = 1, n
    centre = u(i)
    u(i) = centre + r * kappa(i) * (left - 2.0d0 * centre + u(i + 1))
    left = centre
  end do
end subroutine heat_step
