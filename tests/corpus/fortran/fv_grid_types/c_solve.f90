! Time stepping of the periodic Burgers-advection problem; outputs are the
! centroid of the final field and its discrete energy.
! The root takes the cell count as an argument (the test driver declares its
! arrays from the root's own bounds) and checks it against the module's.
! Features: an external root using two modules (one with ONLY), local type(...)
! variables, calls passing them to module procedures, a time step from the grid.
subroutine advect(nsteps, nc, length, speed, u0, centre, energy)
  use fv_kinds, only: wp, ncell, cfl
  use fv_grid
  implicit none
  integer, intent(in) :: nsteps, nc
  real(wp), intent(in) :: length, speed, u0(nc)
  real(wp), intent(out) :: centre, energy
  type(grid_t) :: g
  type(field_t) :: f
  real(wp) :: dt
  integer :: step
  if (nc /= ncell) return
  call make_grid(length, g)
  f%u = u0
  f%flux = 0.0_wp
  dt = cfl * g%dx / (abs(speed) + 2.0_wp)
  do step = 1, nsteps
    call rusanov_fluxes(g, f, speed)
    call update(g, f, dt)
  end do
  centre = centroid(g, f)
  energy = 0.5_wp * g%dx * sum(f%u**2)
end subroutine advect
