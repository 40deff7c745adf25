! Constants and read-only tables of the A + B <-> C, C -> D mechanism.
! Features: module PARAMETERs (one an expression of others), module variables
! initialized in their declarations and never assigned (read-only tables),
! PRIVATE by default with a PUBLIC list.
module rx_data
  implicit none
  private
  public :: dp, nspec, nrxn, rgas, tref, molar_mass, heat_of_rxn
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nspec = 4, nrxn = 3
  real(dp), parameter :: rgas = 8.314_dp
  real(dp), parameter :: tref = 300.0_dp * 1.0_dp
  real(dp) :: molar_mass(nspec) = (/ 0.030_dp, 0.020_dp, 0.050_dp, 0.050_dp /)
  real(dp) :: heat_of_rxn(nrxn) = (/ -4.0e4_dp, 4.0e4_dp, -2.5e4_dp /)
end module rx_data
