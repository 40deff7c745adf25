! Pluck the chain and let it ring: outputs the energy left after nsteps and the
! displacement of the last mass.
! Features: root in a module, USE with ONLY of types and procedures, params built
! from plain array arguments, a scalar component from a passed scalar.
module chain_experiment
  use chain_types, only: dp, nmass, nspring, chain_params, chain_state
  use chain_dynamics, only: verlet_step, kinetic, potential, rest_state
  implicit none
contains
  subroutine simulate(nsteps, n, dt, kspr, masses, c, x0, etot, xlast)
    integer, intent(in) :: nsteps, n
    real(dp), intent(in) :: dt, kspr(n + 1), masses(n), c, x0(n)
    real(dp), intent(out) :: etot, xlast
    type(chain_params) :: p
    type(chain_state) :: s
    integer :: step, i
    if (n /= nmass) return
    do i = 1, nspring
      p%k(i) = kspr(i)
    end do
    p%m = masses
    p%damping = 0.05_dp * c
    call rest_state(s)
    do i = 1, nmass
      s%x(i) = 0.1_dp * x0(i)
    end do
    do step = 1, nsteps
      call verlet_step(p, s, dt)
    end do
    etot = kinetic(p, s) + potential(p, s)
    xlast = s%x(nmass)
  end subroutine simulate
end module chain_experiment
