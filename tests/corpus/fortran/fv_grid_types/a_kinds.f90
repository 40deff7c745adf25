! Kinds and sizes of the finite-volume model.
! Features: a module of PARAMETERs only, used whole and with ONLY.
module fv_kinds
  implicit none
  integer, parameter :: wp = kind(1.0d0)
  integer, parameter :: ncell = 24
  real(wp), parameter :: half = 0.5_wp
  real(wp), parameter :: cfl = 0.4_wp
end module fv_kinds
