//! ELEMENTAL functions on whole arrays of a derived type, behind defined operators
//! (issue 13): `q = p + 0.5d0*p` with `p`, `q` arrays of `type(pt)`. Generic resolution
//! takes an elemental specific for conformable arrays; the adjoint of `q(i) = padd(...)`
//! resets the adjoint of that element only (it reset the whole array `qb` before: a
//! silently wrong adjoint). With every optimization off the statement is refused
//! (E0506, an element of derived type saved whole), so this is not a corpus program,
//! which runs both ways. A hand-written driver checks the tangent against central
//! differences and the adjoint against the tangent.

#[allow(dead_code)]
#[path = "support/toolchain.rs"]
mod toolchain;

#[path = "support/hand_driver.rs"]
mod hand_driver;

const MODEL: &str = "\
module dual_ops
  implicit none
  type pt
    real(8) :: x, y
  end type pt
  interface operator(+)
    module procedure padd
  end interface
  interface operator(*)
    module procedure pscale
  end interface
contains
  elemental function padd(a, b) result(c)
    type(pt), intent(in) :: a, b
    type(pt) :: c
    c%x = a%x + b%x
    c%y = a%y + b%y
  end function padd
  elemental function pscale(s, a) result(c)
    real(8), intent(in) :: s
    type(pt), intent(in) :: a
    type(pt) :: c
    c%x = s*a%x
    c%y = s*a%y*a%x
  end function pscale
  subroutine root(n, u, y)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    real(8), intent(out) :: y
    type(pt) :: p(n), q(n)
    integer :: i
    do i = 1, n
      p(i)%x = u(i)
      p(i)%y = u(i)**2
    end do
    q = p + 0.5d0*p
    y = 0
    do i = 1, n
      y = y + q(i)%x*q(i)%y
    end do
  end subroutine root
end module dual_ops
";

const DRIVER: &str = "\
program driver
  use dual_ops
  use dual_ops_d
  use dual_ops_b
  implicit none
  integer, parameter :: n = 4
  real(8) :: u(n), du(n), ud(n), ub(n), y, yp, ym, yd, yb, h
  integer :: k
  do k = 1, n
    u(k) = 0.3d0 + 0.2d0*k
    du(k) = cos(1.1d0*k)
  end do
  h = 1d-6
  call root(n, u + h*du, yp)
  call root(n, u - h*du, ym)
  ud = du
  call root_d(n, u, ud, y, yd)
  write (*, '(a, 2es25.16)') 'y', (yp - ym)/(2*h), yd
  ub = 0
  yb = 1.7d0
  call root_b(n, u, ub, y, yb)
  write (*, '(a, 2es25.16)') 'dot', 1.7d0*yd, sum(ub*du)
end program driver
";

#[test]
fn elemental_operators_on_arrays_of_a_derived_type() {
    let request = hand_driver::request("root", &["u"], &["y"]);
    hand_driver::check(MODEL, DRIVER, &request, 2);
}
