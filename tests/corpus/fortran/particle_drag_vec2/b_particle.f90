! A sphere in a horizontal wind: quadratic drag on the relative velocity, gravity,
! and a bounce off the ground with restitution.
! Features: a particle type nesting type(vec2) position and velocity, an
! environment type, nested components passed as type(vec2) actuals (p%vel),
! a local type(vec2), an IF on a nested component, a passive bounce counter.
module particle_mod
  use vec2_mod
  implicit none

  type :: particle
    type(vec2) :: pos, vel
    real(dp) :: mass, radius
  end type particle

  type :: environment
    real(dp) :: rho          ! air density
    real(dp) :: cd           ! drag coefficient
    type(vec2) :: wind
    real(dp) :: restitution
  end type environment

  integer :: bounces = 0

contains

  subroutine drag_acceleration(p, env, acc)
    type(particle), intent(in) :: p
    type(environment), intent(in) :: env
    type(vec2), intent(out) :: acc
    type(vec2) :: rel
    real(dp) :: area, k
    rel%x = p%vel%x - env%wind%x
    rel%y = p%vel%y - env%wind%y
    area = 3.141592653589793_dp * p%radius**2
    k = -0.5_dp * env%rho * env%cd * area * vnorm(rel) / p%mass
    acc%x = k * rel%x
    acc%y = k * rel%y - gravity
  end subroutine drag_acceleration

  subroutine push(p, env, dt)
    type(particle), intent(inout) :: p
    type(environment), intent(in) :: env
    real(dp), intent(in) :: dt
    type(vec2) :: acc
    call drag_acceleration(p, env, acc)
    call axpy2(dt, acc, p%vel)
    call axpy2(dt, p%vel, p%pos)
    if (p%pos%y < 0.0_dp) then
      p%pos%y = -p%pos%y
      p%vel%y = -env%restitution * p%vel%y
      bounces = bounces + 1
    end if
  end subroutine push

  function kinetic_energy(p) result(e)
    type(particle), intent(in) :: p
    real(dp) :: e
    e = 0.5_dp * p%mass * vdot(p%vel, p%vel)
  end function kinetic_energy
end module particle_mod
