//! COMPLEX independents and dependents (issue 13): a root whose inputs and outputs are
//! complex numbers, as a polynomial evaluation or a frequency response writes them. Their
//! derivatives are complex too (INTERFACE.md §4: `zd`, `zb` of the primal's type), with
//! the adjoint of the real inner product `Re(conjg(u)·v)`, as Tapenade's. A hand-written
//! driver checks, with gfortran `-Wall -Werror` on the generated code:
//! - the tangent against central differences along a complex direction;
//! - the adjoint against the tangent: `Σ Re(conjg(w)·ẏ) = Σ Re(conjg(x̄)·ẋ)`.

use adgen::validate::toolchain;

#[path = "support/hand_driver.rs"]
mod hand_driver;

const MODEL: &str = "\
module cpoly_m
  implicit none
contains
  subroutine cpoly(n, c, z, p, e, q)
    integer, intent(in) :: n
    complex(8), intent(in) :: c(n), z
    complex(8), intent(out) :: p
    real(8), intent(out) :: e
    complex(8), intent(inout) :: q(n)
    integer :: k
    p = c(n)
    do k = n - 1, 1, -1
      p = p*z + c(k)
    end do
    e = abs(p)**2 + real(conjg(z)*p, 8) + aimag(p)**3
    do k = 1, n
      q(k) = q(k)*exp(c(k)*(0d0, 0.5d0)) + conjg(q(k))*z
    end do
  end subroutine cpoly
end module cpoly_m
";

const DRIVER: &str = "\
program driver
  use cpoly_m
  use cpoly_m_d
  use cpoly_m_b
  implicit none
  integer, parameter :: n = 4
  complex(8) :: c(n), z, p, q(n), q0(n), dc(n), dz, dq(n)
  complex(8) :: pp, pm, qp(n), qm(n), pd, qd(n), cd(n), zd
  complex(8) :: cb(n), zb, pb, qb(n), wp, wq(n)
  real(8) :: e, ep, em, ed, eb, we, h, lhs, rhs
  integer :: k
  do k = 1, n
    c(k) = cmplx(0.3d0*k, 0.2d0 - 0.1d0*k, kind=8)
    dc(k) = cmplx(cos(1.3d0*k), sin(0.7d0*k), kind=8)
    q0(k) = cmplx(0.5d0 + 0.1d0*k, -0.3d0*k, kind=8)
    dq(k) = cmplx(0.2d0*k, 1d0 - 0.3d0*k, kind=8)
    wq(k) = cmplx(1d0/k, 0.4d0*k, kind=8)
  end do
  z = (0.7d0, -0.4d0)
  dz = (-0.6d0, 0.9d0)
  wp = (1.1d0, -0.7d0)
  we = 0.9d0
  h = 1d-6
  q = q0 + h*dq
  call cpoly(n, c + h*dc, z + h*dz, pp, ep, q)
  qp = q
  q = q0 - h*dq
  call cpoly(n, c - h*dc, z - h*dz, pm, em, q)
  qm = q
  q = q0
  cd = dc
  zd = dz
  qd = dq
  call cpoly_d(n, c, cd, z, zd, p, pd, e, ed, q, qd)
  write (*, '(a, 4es25.16)') 'p', (pp - pm)/(2*h), pd
  write (*, '(a, 2es25.16)') 'e', (ep - em)/(2*h), ed
  write (*, '(a, 2es25.16)') 'q', sum(abs((qp - qm)/(2*h))), sum(abs(qd))
  q = q0
  cb = (5d0, 5d0)
  zb = (-3d0, 2d0)
  pb = wp
  eb = we
  qb = wq
  call cpoly_b(n, c, cb, z, zb, p, pb, e, eb, q, qb)
  lhs = real(conjg(wp)*pd, 8) + we*ed + sum(real(conjg(wq)*qd, 8))
  rhs = sum(real(conjg(cb)*dc, 8)) + real(conjg(zb)*dz, 8) + sum(real(conjg(qb)*dq, 8))
  write (*, '(a, 2es25.16)') 'dot', lhs, rhs
end program driver
";

#[test]
fn complex_independents_and_dependents_have_complex_derivatives() {
    let request = hand_driver::request("cpoly", &["c", "z", "q"], &["p", "e", "q"]);
    hand_driver::check(MODEL, DRIVER, &request, 4);
}
