! The root: three cells relaxed nsteps times; the outputs are the total mass and a
! work-like combination that also reads passive components, from a whole copy too.
module cell_evolve
  use cell_types
  implicit none
contains
  subroutine evolve(nsteps, dt, rho0, u0, visc, mass, work)
    integer, intent(in) :: nsteps
    real(dp), intent(in) :: dt, rho0, u0, visc
    real(dp), intent(out) :: mass, work
    type(cell_t) :: a, b, c, saved
    integer :: s
    call set_params(visc)
    call init_cell(a, 0, rho0, u0)
    call init_cell(b, 1, rho0, u0)
    call init_cell(c, 2, rho0, u0)
    do s = 1, nsteps
      call relax(a, b, dt)
      call relax(b, c, dt)
      call relax(c, a, dt)
    end do
    saved = c
    mass = a%rho + b%rho + saved%rho
    work = a%mom * b%mom + pressure(saved) + saved%xc * a%rho / (1.0_dp + a%nupd) &
      + a%pr%val * (1.0_dp + b%tag%stamp)
  end subroutine evolve
end module cell_evolve
