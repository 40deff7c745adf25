! A batch reactor: concentrations, temperature and rate laws as derived types.
! Features: a type of three Arrhenius parameter sets nested in the reactor type,
! a function of a derived-type dummy called with nested components, rate
! evaluation with INTENT(IN) types, an explicit step on INTENT(INOUT) types,
! USE with ONLY, a passive module counter.
module rx_model
  use rx_data, only: dp, nspec, nrxn, rgas, tref, heat_of_rxn
  implicit none

  type :: arrhenius
    real(dp) :: a          ! pre-exponential factor
    real(dp) :: ea         ! activation energy
    real(dp) :: n          ! temperature exponent
  end type arrhenius

  type :: mechanism
    type(arrhenius) :: fwd, rev, decay
  end type mechanism

  type :: reactor
    real(dp) :: c(nspec)   ! concentrations
    real(dp) :: temp
    real(dp) :: cp         ! heat capacity per volume
    type(mechanism) :: mech
  end type reactor

  integer :: rate_calls = 0

contains

  function rate_constant(law, temp) result(k)
    type(arrhenius), intent(in) :: law
    real(dp), intent(in) :: temp
    real(dp) :: k
    k = law%a * (temp / tref)**law%n * exp(-law%ea / (rgas * temp))
  end function rate_constant

  subroutine reaction_rates(r, w)
    type(reactor), intent(in) :: r
    real(dp), intent(out) :: w(nrxn)
    rate_calls = rate_calls + 1
    w(1) = rate_constant(r%mech%fwd, r%temp) * r%c(1) * r%c(2)
    w(2) = rate_constant(r%mech%rev, r%temp) * r%c(3)
    w(3) = rate_constant(r%mech%decay, r%temp) * r%c(3)
  end subroutine reaction_rates

  subroutine euler_step(r, dt)
    type(reactor), intent(inout) :: r
    real(dp), intent(in) :: dt
    real(dp) :: w(nrxn), net, q
    integer :: j
    call reaction_rates(r, w)
    net = w(1) - w(2)
    r%c(1) = r%c(1) - dt * net
    r%c(2) = r%c(2) - dt * net
    r%c(3) = r%c(3) + dt * (net - w(3))
    r%c(4) = r%c(4) + dt * w(3)
    q = 0.0_dp
    do j = 1, nrxn
      q = q - heat_of_rxn(j) * w(j)
    end do
    q = q + heat_of_rxn(2) * 2.0_dp * w(2)
    r%temp = r%temp + dt * q / r%cp
  end subroutine euler_step
end module rx_model
