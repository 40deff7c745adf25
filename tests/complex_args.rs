//! COMPLEX independents and dependents (issue 13): a root whose inputs and outputs are
//! complex numbers, as a polynomial evaluation or a frequency response writes them. Their
//! derivatives are complex too (INTERFACE.md §4: `zd`, `zb` of the primal's type), with
//! the adjoint of the real inner product `Re(conjg(u)·v)`, as Tapenade's. A hand-written
//! driver checks, with gfortran `-Wall -Werror` on the generated code:
//! - the tangent against central differences along a complex direction;
//! - the adjoint against the tangent: `Σ Re(conjg(w)·ẏ) = Σ Re(conjg(x̄)·ẋ)`.

#[allow(dead_code)]
#[path = "support/toolchain.rs"]
mod toolchain;

use std::path::{Path, PathBuf};
use std::time::Duration;
use toolchain::{CFLAGS, DRIVER_FFLAGS, GENERATED_FFLAGS};

/// Horner's rule for a complex polynomial at a complex point, then a real,
/// non-holomorphic energy of the result (`abs`, `conjg`, `real`, `aimag`), and a complex
/// array output overwritten in place.
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

fn request() -> adgen::Request {
    adgen::Request {
        roots: vec![adgen::RootRequest {
            name: "cpoly".to_string(),
            independents: vec!["c".into(), "z".into(), "q".into()],
            dependents: vec!["p".into(), "e".into(), "q".into()],
            modes: [adgen::Mode::Tangent, adgen::Mode::Adjoint].into(),
            origin: None,
            entry_origins: Vec::new(),
        }],
        sizes: Vec::new(),
        black_boxes: Vec::new(),
        checkpoint_calls: true,
        naming: Default::default(),
        layout: Default::default(),
        option_warnings: Vec::new(),
        disabled: Default::default(),
    }
}

fn build(d: &Path, source: &str, flags: &[&str], objects: &mut Vec<PathBuf>) {
    let object = d.join(format!("{source}.o"));
    let out = toolchain::compile(&d.join(source), &object, d, flags);
    assert!(out.success, "{}", out.report());
    objects.push(object);
}

#[test]
fn complex_independents_and_dependents_have_complex_derivatives() {
    let generated =
        adgen::differentiate(&[adgen::SourceInput::new("model.f90", MODEL)], &request())
            .unwrap_or_else(|f| panic!("adgen refused the model:\n{f}"));
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = dir.path();
    std::fs::write(d.join("model.f90"), MODEL).unwrap();
    std::fs::write(d.join("driver.f90"), DRIVER).unwrap();
    let mut objects = Vec::new();
    build(d, "model.f90", GENERATED_FFLAGS, &mut objects);
    for f in &generated.files {
        std::fs::write(d.join(&f.path), &f.contents).unwrap();
    }
    // The runtime first (its C part, then its module), then the derivatives.
    let mut order: Vec<&str> = generated.files.iter().map(|f| f.path.as_str()).collect();
    order.sort_by_key(|p| (!p.ends_with(".c"), !p.starts_with("adgen_runtime")));
    for path in order {
        if toolchain::is_c(path) {
            build(d, path, CFLAGS, &mut objects);
        } else if toolchain::is_fortran(path) {
            build(d, path, GENERATED_FFLAGS, &mut objects);
        }
    }
    build(d, "driver.f90", DRIVER_FFLAGS, &mut objects);
    let exe = d.join("driver");
    let link = toolchain::link(&objects, &exe, d, &[]);
    assert!(link.success, "{}", link.report());
    let run = toolchain::run(&exe, &[], d, Duration::from_secs(60));
    assert!(run.success, "{}", run.report());
    let text = run.stdout;
    for line in text.lines() {
        let v: Vec<f64> = line
            .split_whitespace()
            .skip(1)
            .map(|x| x.parse().expect("a number"))
            .collect();
        let half = v.len() / 2;
        let (a, b) = (&v[..half], &v[half..]);
        let scale = a.iter().chain(b).fold(1e-12f64, |m, x| m.max(x.abs()));
        let err = a.iter().zip(b).fold(0f64, |m, (x, y)| m.max((x - y).abs())) / scale;
        let bound = if line.starts_with("dot") { 1e-12 } else { 1e-7 };
        assert!(err < bound, "{line}: relative error {err:e}\n{text}");
    }
    assert_eq!(text.lines().count(), 4, "{text}");
}
