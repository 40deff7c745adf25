! Throw a ball into the wind and follow it for nsteps; outputs where it is and the
! kinetic energy it has left.
! Features: external root, USE with ONLY of types from two modules, nested
! component assignments p%pos%x, an output from a nested component.
subroutine throw(nsteps, dt, v0, angle, radius, wind, xend, ekin)
  use vec2_mod, only: dp, vec2
  use particle_mod, only: particle, environment, push, kinetic_energy
  implicit none
  integer, intent(in) :: nsteps
  real(dp), intent(in) :: dt, v0, angle, radius, wind
  real(dp), intent(out) :: xend, ekin
  type(particle) :: p
  type(environment) :: env
  integer :: step
  env%rho = 1.2_dp
  env%cd = 0.47_dp
  env%wind%x = -wind
  env%wind%y = 0.0_dp
  env%restitution = 0.6_dp
  p%radius = radius
  p%mass = 800.0_dp * 4.0_dp / 3.0_dp * 3.141592653589793_dp * radius**3
  p%pos%x = 0.0_dp
  p%pos%y = 2.0_dp
  p%vel%x = v0 * cos(angle)
  p%vel%y = v0 * sin(angle)
  do step = 1, nsteps
    call push(p, env, dt)
  end do
  xend = p%pos%x
  ekin = kinetic_energy(p)
end subroutine throw
