! Run the batch reactor; outputs the mass yield of C and D and the final temperature.
! Features: a module root, the mechanism built from an array of Arrhenius data,
! a read-only module table (molar masses) in the output.
module rx_batch
  use rx_data, only: dp, molar_mass
  use rx_model
  implicit none
contains
  subroutine batch(nsteps, dt, arr, c0, t0, yield, tfinal)
    integer, intent(in) :: nsteps
    real(dp), intent(in) :: dt, arr(3, 3), c0(4), t0
    real(dp), intent(out) :: yield, tfinal
    type(reactor) :: r
    integer :: step
    r%mech%fwd%a = 2.0_dp * arr(1, 1)
    r%mech%fwd%ea = 5.0e3_dp * arr(2, 1)
    r%mech%fwd%n = 0.5_dp * arr(3, 1)
    r%mech%rev%a = 0.5_dp * arr(1, 2)
    r%mech%rev%ea = 8.0e3_dp * arr(2, 2)
    r%mech%rev%n = 0.0_dp
    r%mech%decay%a = 0.3_dp * arr(1, 3)
    r%mech%decay%ea = 6.0e3_dp * arr(2, 3)
    r%mech%decay%n = arr(3, 3)
    r%c = c0
    r%temp = t0
    r%cp = 4.0e5_dp
    do step = 1, nsteps
      call euler_step(r, dt)
    end do
    yield = molar_mass(3) * r%c(3) + molar_mass(4) * r%c(4)
    tfinal = r%temp
  end subroutine batch
end module rx_batch
