! A chain of masses joined by springs, fixed to walls at both ends.
! Features: a module of kinds, sizes and types; a params type with array components
! (springs one more than masses), a state type nesting nothing but arrays and a scalar.
module chain_types
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nmass = 5
  integer, parameter :: nspring = nmass + 1

  type :: chain_params
    real(dp) :: k(nspring)     ! spring stiffnesses, wall to wall
    real(dp) :: m(nmass)       ! masses
    real(dp) :: damping        ! viscous, same for every mass
  end type chain_params

  type :: chain_state
    real(dp) :: x(nmass)       ! displacements
    real(dp) :: v(nmass)       ! velocities
    real(dp) :: time
  end type chain_state
end module chain_types
