! A constant-velocity tracker: Gaussian belief and linear model as derived types.
! Features: 2-D array components, a model type nesting a noise type, module PARAMETERs.
module kf_types
  implicit none
  integer, parameter :: rk = kind(1.0d0)
  integer, parameter :: ns = 2            ! position, velocity
  real(rk), parameter :: two_pi = 6.283185307179586_rk

  type :: gaussian
    real(rk) :: mean(ns)
    real(rk) :: cov(ns, ns)
  end type gaussian

  type :: noise_t
    real(rk) :: q(ns, ns)                 ! process noise covariance
    real(rk) :: r                         ! measurement noise variance
  end type noise_t

  type :: model_t
    real(rk) :: f(ns, ns)                 ! transition
    real(rk) :: h(ns)                     ! observation row
    type(noise_t) :: noise
  end type model_t
end module kf_types
