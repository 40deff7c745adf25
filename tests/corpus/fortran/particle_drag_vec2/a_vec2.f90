! Plane vectors as a derived type, with the operations a particle code needs.
! Features: a small type of two reals, functions of type(vec2) dummies, a
! subroutine with an INTENT(OUT) type(vec2) result, module PARAMETERs.
module vec2_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp), parameter :: gravity = 9.81_dp

  type :: vec2
    real(dp) :: x, y
  end type vec2

contains

  function vnorm(v) result(r)
    type(vec2), intent(in) :: v
    real(dp) :: r
    r = sqrt(v%x**2 + v%y**2)
  end function vnorm

  function vdot(a, b) result(r)
    type(vec2), intent(in) :: a, b
    real(dp) :: r
    r = a%x * b%x + a%y * b%y
  end function vdot

  subroutine axpy2(alpha, a, b)
    real(dp), intent(in) :: alpha
    type(vec2), intent(in) :: a
    type(vec2), intent(inout) :: b
    b%x = b%x + alpha * a%x
    b%y = b%y + alpha * a%y
  end subroutine axpy2
end module vec2_mod
