! Damped, driven oscillators described by derived types.
! Features: derived types in a module (real, integer and array components, a nested
! type), type(...) dummies INTENT(IN)/INOUT, component references s%x, s%hist(i),
! s%par%k, module procedures taking and updating derived-type arguments, a module
! function of a derived type.
module oscillator_types
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nhist = 8

  type :: coefficients
    real(dp) :: k        ! stiffness
    real(dp) :: c        ! damping
    real(dp) :: m        ! mass
  end type coefficients

  type :: state
    real(dp) :: x, v
    real(dp) :: hist(nhist)
    integer :: steps
    type(coefficients) :: par
  end type state

contains

  ! Total mechanical energy of the oscillator.
  function energy(s) result(e)
    type(state), intent(in) :: s
    real(dp) :: e
    e = 0.5_dp * s%par%m * s%v**2 + 0.5_dp * s%par%k * s%x**2
  end function energy

  ! One semi-implicit Euler step under the force f; records x every step in a ring.
  subroutine advance(s, f, dt)
    type(state), intent(inout) :: s
    real(dp), intent(in) :: f, dt
    real(dp) :: acc
    integer :: slot
    acc = (f - s%par%k * s%x - s%par%c * s%v) / s%par%m
    s%v = s%v + dt * acc
    s%x = s%x + dt * s%v
    s%steps = s%steps + 1
    slot = mod(s%steps - 1, nhist) + 1
    s%hist(slot) = s%x
  end subroutine advance
end module oscillator_types
