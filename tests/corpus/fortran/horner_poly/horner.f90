! Evaluates a polynomial and its derivative at many points by Horner's rule, with the
! coefficients c(0:deg) passed as an assumed-size array with lower bound 0.
! Features: assumed-size array with lower bound 0 (c(0:*)), negative-step DO loop,
! a function called in a loop, REAL(8) and DOUBLE PRECISION mixed. The same function
! also evaluates fixed tables (a PARAMETER of a module, a local PARAMETER, a local array
! of constants), which have no derivative: it gets a zero one.
module poly_tables
  implicit none
  real(8), parameter :: damping(0:2) = [1.0d0, -0.5d0, 0.125d0]
end module poly_tables

subroutine poly_eval(deg, c, m, x, p, dp)
  use poly_tables, only: damping
  implicit none
  integer, intent(in) :: deg, m
  real(8), intent(in) :: c(0:*)
  double precision, intent(in) :: x(m)
  double precision, intent(out) :: p(m), dp(m)
  double precision :: horner
  double precision :: b, db
  real(8), parameter :: tilt(0:1) = [0.5d0, 0.25d0]
  real(8) :: bump(0:3)
  integer :: i, k
  bump = [0.0d0, 0.0d0, 1.0d0, -0.1d0]
  do i = 1, m
    p(i) = horner(deg, c, x(i))*horner(2, damping, x(i)) + horner(1, tilt, x(i)) &
           + horner(3, bump, x(i))
    b = c(deg)
    db = 0.0d0
    do k = deg - 1, 0, -1
      db = db * x(i) + b
      b = b * x(i) + c(k)
    end do
    dp(i) = db
  end do
end subroutine poly_eval

double precision function horner(deg, c, t)
  implicit none
  integer, intent(in) :: deg
  real(8), intent(in) :: c(0:deg)
  double precision, intent(in) :: t
  integer :: k
  horner = c(deg)
  do k = deg - 1, 0, -1
    horner = horner * t + c(k)
  end do
end function horner
