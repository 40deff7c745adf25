! Three-vectors written with GENERIC type-bound procedures, as modern Fortran codes
! overload their operators: `operator(+)` with two specifics (vector + vector, vector
! + scalar), `operator(*)` whose passed object is the second operand (scalar * vector),
! a named operator `.dot.`, a defined assignment from a scalar, and a named generic
! `norm` whose specifics differ in their arguments. None of these names is imported
! by the module that uses the type: they come with the type.
module vec3_mod
  implicit none
  private
  public :: vec3, dp
  integer, parameter :: dp = kind(1.0d0)
  type :: vec3
    real(dp) :: x, y, z
  contains
    procedure, private :: add_vv, add_vs
    procedure, private, pass(v) :: scale_sv
    procedure, private :: dot_vv
    procedure, private :: assign_s
    procedure :: norm2 => norm_euclid
    procedure :: normw => norm_weighted
    generic :: operator(+) => add_vv, add_vs
    generic, public :: operator(*) => scale_sv
    generic :: operator(.dot.) => dot_vv
    generic :: assignment(=) => assign_s
    generic :: norm => norm2, normw
  end type vec3
contains
  pure function add_vv(a, b) result(c)
    class(vec3), intent(in) :: a, b
    type(vec3) :: c
    c%x = a%x + b%x
    c%y = a%y + b%y
    c%z = a%z + b%z
  end function add_vv

  pure function add_vs(a, s) result(c)
    class(vec3), intent(in) :: a
    real(dp), intent(in) :: s
    type(vec3) :: c
    c%x = a%x + s
    c%y = a%y + s
    c%z = a%z + s
  end function add_vs

  pure function scale_sv(s, v) result(c)
    real(dp), intent(in) :: s
    class(vec3), intent(in) :: v
    type(vec3) :: c
    c%x = s*v%x
    c%y = s*v%y
    c%z = s*v%z
  end function scale_sv

  pure real(dp) function dot_vv(a, b)
    class(vec3), intent(in) :: a, b
    dot_vv = a%x*b%x + a%y*b%y + a%z*b%z
  end function dot_vv

  subroutine assign_s(v, s)
    class(vec3), intent(inout) :: v
    real(dp), intent(in) :: s
    v%x = s
    v%y = s
    v%z = s
  end subroutine assign_s

  real(dp) function norm_euclid(v)
    class(vec3), intent(in) :: v
    norm_euclid = sqrt(v .dot. v)
  end function norm_euclid

  real(dp) function norm_weighted(v, w)
    class(vec3), intent(in) :: v
    real(dp), intent(in) :: w(3)
    norm_weighted = sqrt(w(1)*v%x**2 + w(2)*v%y**2 + w(3)*v%z**2)
  end function norm_weighted
end module vec3_mod

module orbit_mod
  use vec3_mod, only: vec3, dp
  implicit none
contains
  ! A particle in a central field with drag, stepped by symplectic Euler.
  subroutine orbit(r0, v0, mu, drag, w, nsteps, energy, spread)
    real(dp), intent(in) :: r0(3), v0(3), mu, drag, w(3)
    integer, intent(in) :: nsteps
    real(dp), intent(out) :: energy, spread
    type(vec3) :: r, v, a, shifted
    real(dp) :: dt, rn
    integer :: k
    dt = 0.05_dp
    r = vec3(r0(1), r0(2), r0(3))
    v = vec3(v0(1), v0(2), v0(3))
    a = 0.0_dp
    do k = 1, nsteps
      rn = r%norm()
      a = (-mu/rn**3)*r + (-drag)*v
      v = v + dt*a
      r = r + dt*v
    end do
    energy = 0.5_dp*(v .dot. v) - mu/r%norm()
    shifted = r + 1.0_dp
    spread = r%norm(w) + shifted%x*shifted%z
  end subroutine orbit
end module orbit_mod
