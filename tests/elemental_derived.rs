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

use std::path::{Path, PathBuf};
use std::time::Duration;
use toolchain::{CFLAGS, DRIVER_FFLAGS, GENERATED_FFLAGS};

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

fn request() -> adgen::Request {
    adgen::Request {
        roots: vec![adgen::RootRequest {
            name: "root".to_string(),
            independents: vec!["u".into()],
            dependents: vec!["y".into()],
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
fn elemental_operators_on_arrays_of_a_derived_type() {
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
    assert_eq!(text.lines().count(), 2, "{text}");
}
