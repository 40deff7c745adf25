! The experiment: the root only calls the thermal module's procedures.
module experiment
  use thermal, only: setup, step, misfit
  implicit none
contains
  subroutine run(nsteps, dt, k, boundary, bump, target, cost)
    integer, intent(in) :: nsteps
    real(8), intent(in) :: dt, k, boundary(2), bump, target
    real(8), intent(out) :: cost
    integer :: s
    call setup(k, boundary(1), boundary(2), bump)
    do s = 1, nsteps
      call step(dt)
    end do
    cost = misfit(target)
  end subroutine run
end module experiment
