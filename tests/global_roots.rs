//! Module variables as independents and dependents of a root, and roots without
//! arguments (INTERFACE.md §1, issue 13): a time-stepping model whose state lives in a
//! module and whose entry point is `subroutine integrate()`, as data-assimilation codes
//! write it. The driver seeds and reads the derivatives through the derivative modules
//! (`fieldd` in `mod_model_d`, `fieldb` in `mod_model_b`); gfortran compiles everything
//! with `-Wall`, and the numbers are checked. The state is ALLOCATABLE, as in the PDAF
//! tutorial model it imitates, so its derivatives are too: tangent against central differences,
//! adjoint against tangent by the dot-product test.

use std::path::Path;
use std::process::Command;

const MODEL: &str = "\
module mod_model
  implicit none
  integer, parameter :: nx = 6, ny = 5
  real(8), allocatable :: field(:, :)
  real(8) :: kappa = 0.1d0
  real(8) :: misfit
  integer :: total_steps = 8
end module mod_model

! Time stepping: diffusion with a cubic damping, then the misfit to zero.
subroutine integrate()
  use mod_model
  implicit none
  integer :: step, i, j
  real(8) :: lap(ny, nx)
  do step = 1, total_steps
    do j = 1, nx
      do i = 1, ny
        lap(i, j) = field(mod(i, ny) + 1, j) + field(mod(i + ny - 2, ny) + 1, j) &
          + field(i, mod(j, nx) + 1) + field(i, mod(j + nx - 2, nx) + 1) - 4d0*field(i, j)
      end do
    end do
    field = field + kappa*lap - 0.05d0*field**3
  end do
  misfit = 0.5d0*sum(field**2)
end subroutine integrate
";

/// The same model as F77 writes it: the state in COMMON /MODEL/, declared by the root,
/// which calls a step routine that declares it too. Its derivatives are the derivative
/// blocks `/model_d/` and `/model_b/` (INTERFACE.md §3), in the block's order.
const COMMON_MODEL: &str = "\
subroutine integrate()
  implicit none
  integer, parameter :: nx = 6, ny = 5
  real(8) :: field(ny, nx), kappa, misfit
  integer :: total_steps
  common /model/ field, kappa, misfit, total_steps
  integer :: step
  do step = 1, total_steps
    call diffuse()
  end do
  misfit = 0.5d0*sum(field**2)
end subroutine integrate

! One step: diffusion with a cubic damping.
subroutine diffuse()
  implicit none
  integer, parameter :: nx = 6, ny = 5
  real(8) :: field(ny, nx), kappa, misfit
  integer :: total_steps
  common /model/ field, kappa, misfit, total_steps
  integer :: i, j
  real(8) :: lap(ny, nx)
  do j = 1, nx
    do i = 1, ny
      lap(i, j) = field(mod(i, ny) + 1, j) + field(mod(i + ny - 2, ny) + 1, j) &
        + field(i, mod(j, nx) + 1) + field(i, mod(j + nx - 2, nx) + 1) - 4d0*field(i, j)
    end do
  end do
  field = field + kappa*lap - 0.05d0*field**3
end subroutine diffuse
";

/// The driver: central differences, tangent, adjoint with garbage in the adjoints of
/// input-only independents (they must be overwritten, INTERFACE.md §4). With `common`,
/// the state and its derivatives are COMMON blocks, the number of steps set here.
fn driver(field_is_dependent: bool, common: bool) -> String {
    let state = if common {
        "\
  integer, parameter :: nx = 6, ny = 5
  real(8) :: field(ny, nx), kappa, misfit, fieldd(ny, nx), kappad, misfitd
  real(8) :: fieldb(ny, nx), kappab, misfitb
  integer :: total_steps
  common /model/ field, kappa, misfit, total_steps
  common /model_d/ fieldd, kappad, misfitd
  common /model_b/ fieldb, kappab, misfitb"
    } else {
        "\
  use mod_model
  use mod_model_d, only: fieldd, kappad, misfitd
  use mod_model_b, only: fieldb, kappab, misfitb
  implicit none"
    };
    let setup = if common {
        "total_steps = 8"
    } else {
        "! The state is ALLOCATABLE: so are its derivatives, allocated alike.
  allocate (field(ny, nx), fieldd(ny, nx), fieldb(ny, nx))"
    };
    let field_weight = if field_is_dependent {
        "fieldb = wfield"
    } else {
        "fieldb = 123d0"
    };
    let field_out = if field_is_dependent {
        "sum(wfield*tf)"
    } else {
        "0d0"
    };
    format!(
        "\
program driver
{state}
  real(8) :: f0(ny, nx), df(ny, nx), wfield(ny, nx), fp(ny, nx), fm(ny, nx), tf(ny, nx)
  real(8) :: k0, dk, wmis, mp, mm, tm, h, lhs, rhs
  integer :: i, j
  external :: integrate, integrate_d, integrate_b
  {setup}
  do j = 1, nx
    do i = 1, ny
      f0(i, j) = 0.3d0*sin(1.7d0*i + 0.9d0*j)
      df(i, j) = cos(0.4d0*i*j)
      wfield(i, j) = 0.2d0 + 0.1d0*mod(i + 2*j, 5)
    end do
  end do
  k0 = 0.12d0
  dk = 0.7d0
  wmis = 1.3d0
  h = 1d-6
  field = f0 + h*df
  kappa = k0 + h*dk
  call integrate()
  fp = field
  mp = misfit
  field = f0 - h*df
  kappa = k0 - h*dk
  call integrate()
  fm = field
  mm = misfit
  field = f0
  kappa = k0
  fieldd = df
  kappad = dk
  call integrate_d()
  tf = fieldd
  tm = misfitd
  write (*, '(a, 2es25.16)') 'misfit', (mp - mm)/(2*h), tm
  write (*, '(a, 2es25.16)') 'field', sum(wfield*(fp - fm))/(2*h), sum(wfield*tf)
  field = f0
  kappa = k0
  {field_weight}
  misfitb = wmis
  kappab = -77d0
  call integrate_b()
  lhs = wmis*tm + {field_out}
  rhs = sum(fieldb*df) + kappab*dk
  write (*, '(a, 2es25.16)') 'dot', lhs, rhs
end program driver
"
    )
}

fn check(independents: &[&str], dependents: &[&str], field_is_dependent: bool, common: bool) {
    let model = if common { COMMON_MODEL } else { MODEL };
    let request = adgen::Request {
        roots: vec![adgen::RootRequest {
            name: "integrate".to_string(),
            independents: independents.iter().map(|s| s.to_string()).collect(),
            dependents: dependents.iter().map(|s| s.to_string()).collect(),
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
    };
    let generated = adgen::differentiate(&[adgen::SourceInput::new("model.f90", model)], &request)
        .unwrap_or_else(|f| panic!("adgen refused the model:\n{f}"));
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = dir.path();
    std::fs::write(d.join("model.f90"), model).unwrap();
    std::fs::write(d.join("driver.f90"), driver(field_is_dependent, common)).unwrap();
    let mut sources = vec!["model.f90".to_string()];
    for f in &generated.files {
        std::fs::write(d.join(&f.path), &f.contents).unwrap();
        if f.path.ends_with(".f90") || f.path.ends_with(".c") {
            sources.push(f.path.clone());
        }
    }
    // The runtime's C part first; then Fortran in dependency order, the driver last.
    let mut objects = Vec::new();
    let (cc, fc) = (compiler("CC", "gcc"), compiler("FC", "gfortran"));
    for s in sources.iter().filter(|s| s.ends_with(".c")) {
        compile(d, &cc, s, &mut objects);
    }
    let runtime = sources.iter().filter(|s| s.starts_with("adgen_runtime"));
    let rest = sources.iter().filter(|s| !s.starts_with("adgen_runtime"));
    for s in runtime.chain(rest).filter(|s| s.ends_with(".f90")) {
        compile(d, &fc, s, &mut objects);
    }
    compile(d, &fc, "driver.f90", &mut objects);
    let out = Command::new(&fc)
        .current_dir(d)
        .args(&objects)
        .args(["-o", "driver"])
        .output()
        .expect("gfortran runs");
    assert!(
        out.status.success(),
        "link: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(d.join("driver"))
        .output()
        .expect("driver runs");
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for line in text.lines() {
        let v: Vec<f64> = line
            .split_whitespace()
            .skip(1)
            .map(|x| x.parse().expect("a number"))
            .collect();
        let (a, b) = (v[0], v[1]);
        let err = (a - b).abs() / a.abs().max(b.abs()).max(1e-12);
        let bound = if line.starts_with("dot") { 1e-11 } else { 1e-6 };
        assert!(err < bound, "{line}: relative error {err:e}\n{text}");
    }
    assert_eq!(text.lines().count(), 3, "{text}");
}

/// The compiler the environment names (`CC`, `FC`), as the other tests take it.
fn compiler(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.to_string())
}

fn compile(dir: &Path, compiler: &str, source: &str, objects: &mut Vec<String>) {
    let object = format!("{source}.o");
    let out = Command::new(compiler)
        .current_dir(dir)
        .args(["-c", "-Wall", "-O1", source, "-o", &object])
        .output()
        .unwrap_or_else(|e| panic!("{compiler} runs: {e}"));
    assert!(
        out.status.success(),
        "{compiler} {source}:\n{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(dir.join(source)).unwrap_or_default()
    );
    objects.push(object);
}

#[test]
fn module_state_is_independent_and_dependent_of_a_root_without_arguments() {
    check(&["field", "kappa"], &["field", "misfit"], true, false);
}

#[test]
fn common_state_is_independent_and_dependent_of_a_root_without_arguments() {
    check(&["field", "kappa"], &["field", "misfit"], true, true);
    check(&["field", "kappa"], &["misfit"], false, true);
}

#[test]
fn a_module_variable_that_is_only_independent_gets_its_gradient_overwritten() {
    check(&["field", "kappa"], &["misfit"], false, false);
}

#[test]
fn common_variables_of_a_block_declared_two_ways_are_refused_as_independents() {
    // `g`, which `f` calls, sees the same storage as one array: the block cannot carry
    // derivatives.
    let text = "\
subroutine f()
  implicit none
  real(8) :: x, y
  common /state/ x, y
  y = x**2
  call g()
end subroutine f

subroutine g()
  implicit none
  real(8) :: z(2)
  common /state/ z
  z = 0
end subroutine g
";
    let request = adgen::Request {
        roots: vec![adgen::RootRequest {
            name: "f".to_string(),
            independents: vec!["x".to_string()],
            dependents: vec!["y".to_string()],
            modes: [adgen::Mode::Tangent].into(),
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
    };
    let f = adgen::differentiate(&[adgen::SourceInput::new("f.f90", text)], &request)
        .expect_err("refused");
    assert!(f.rendered.contains("error[E0125]"), "{f}");
    assert_eq!(f.diagnostics.len(), 2, "{f}");
}
