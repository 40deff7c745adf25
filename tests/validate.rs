//! `adgen validate` (INTERFACE.md §2) as users run it: on small projects, Fortran and C,
//! with gfortran and gcc; a wrong hand-written derivative of a black box must be caught
//! and the exit status must say so.

use std::path::Path;
use std::process::{Command, Output};

fn adgen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adgen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the adgen binary runs")
}

/// A project in a temporary directory: `(path, text)` files.
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The verdict printed for one check of a root, e.g. `tangent vs central differences`.
fn verdict<'a>(stdout: &'a str, check: &str) -> &'a str {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with(check))
        .unwrap_or_else(|| panic!("no `{check}` line in:\n{stdout}"));
    line.split_whitespace().last().unwrap()
}

/// A module used by the root, listed after it in `sources` (the validation compiles
/// the sources in whatever order builds them), and an INCLUDE file beside them.
const HEAT: &[(&str, &str)] = &[
    (
        "ad.toml",
        r#"sources = ["src/heat.f90", "src/params.f90"]

[[root]]
name = "heat"
independents = ["u", "k"]
dependents = ["cost"]

[validate]
n = 12
nsteps = 5
[validate.range]
k = [0.1, 0.3]
"#,
    ),
    (
        "src/params.f90",
        "module params\n  implicit none\n  include 'dt.inc'\nend module params\n",
    ),
    ("src/dt.inc", "real(8), parameter :: dt = 0.2d0\n"),
    (
        "src/heat.f90",
        "subroutine heat(n, nsteps, u, k, cost)
  use params, only: dt
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(inout) :: u(n)
  real(8), intent(in) :: k
  real(8), intent(out) :: cost
  real(8) :: v(n)
  integer :: i, s
  do s = 1, nsteps
    v = u
    do i = 2, n - 1
      u(i) = v(i) + dt*k*(v(i-1) - 2d0*v(i) + v(i+1)) - dt*v(i)**3
    end do
  end do
  cost = sum(u**2)
end subroutine heat
",
    ),
];

#[test]
fn a_fortran_root_validates_with_its_module_and_include_file() {
    let dir = project(HEAT);
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("root `heat`"), "{stdout}");
    assert_eq!(verdict(&stdout, "tangent vs central differences"), "ok");
    assert_eq!(verdict(&stdout, "adjoint vs tangent (dot product)"), "ok");
    assert!(
        stderr.contains("the derivatives of 1 root(s) agree"),
        "{stderr}"
    );
    // Nothing is left behind in the project.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["ad.toml", "src"]);
}

#[test]
fn an_argument_without_a_value_is_named_with_the_line_to_add() {
    let manifest = HEAT[0].1.replace("nsteps = 5\n", "");
    let mut files = HEAT.to_vec();
    files[0] = ("ad.toml", &manifest);
    let dir = project(&files);
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(
            "ad.toml [validate] gives no value for the argument `nsteps` of `heat`: add \
             `nsteps = ...` there"
        ),
        "{stdout}"
    );
}

#[test]
fn bad_settings_and_unknown_roots_are_errors() {
    let manifest = HEAT[0].1.replace("k = [0.1, 0.3]", "k = [0.3, 0.1]");
    let mut files = HEAT.to_vec();
    files[0] = ("ad.toml", &manifest);
    let dir = project(&files);
    let output = adgen(dir.path(), &["validate"]);
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error[E0906]: ad.toml [validate]: bad value for `range`"),
        "{stderr}"
    );
    let dir = project(HEAT);
    let output = adgen(dir.path(), &["validate", "--root", "cool"]);
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("`--root cool`: the manifest has no such root (its roots: heat)"),
        "{stderr}"
    );
}

/// A black box whose hand-written adjoint forgets a factor: the tangent is right, the
/// dot-product test is not.
fn black_box_project(adjoint_factor: &str) -> tempfile::TempDir {
    let lib = format!(
        "subroutine cube(x, y)
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  y = x**3
end subroutine cube
subroutine cube_d(x, xd, y, yd)
  real(8), intent(in) :: x, xd
  real(8), intent(out) :: y, yd
  y = x**3
  yd = 3d0*x**2*xd
end subroutine cube_d
subroutine cube_b(x, xb, y, yb)
  real(8), intent(in) :: x, y
  real(8), intent(inout) :: xb, yb
  xb = xb + {adjoint_factor}*x**2*yb
  yb = 0d0
end subroutine cube_b
"
    );
    let manifest = r#"sources = ["model.f90"]

[[root]]
name = "model"
independents = ["a"]
dependents = ["r"]

[black-box.cube]
arguments = ["x", "y"]
depends = { y = ["x"] }

[validate]
link = ["lib.f90"]
"#;
    let model = "subroutine model(a, r)
  real(8), intent(in) :: a
  real(8), intent(out) :: r
  real(8) :: c
  call cube(sin(a), c)
  r = c + a
end subroutine model
";
    project(&[
        ("ad.toml", manifest),
        ("model.f90", model),
        ("lib.f90", &lib),
    ])
}

#[test]
fn a_wrong_hand_written_adjoint_fails_validation() {
    let dir = black_box_project("3d0");
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(verdict(&stdout, "adjoint vs tangent (dot product)"), "ok");

    let dir = black_box_project("2d0");
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert_eq!(verdict(&stdout, "tangent vs central differences"), "ok");
    assert_eq!(
        verdict(&stdout, "adjoint vs tangent (dot product)"),
        "FAILED"
    );
    assert!(stdout.contains("error [check]: adjoint model"), "{stdout}");
}

#[test]
fn a_c_root_validates_with_its_header() {
    let dir = project(&[
        (
            "ad.toml",
            r#"sources = ["c/*.c"]

[[root]]
name = "energy"
independents = ["x"]
dependents = ["e"]

# `x` needs no `[validate.extent]`: its size is given here.
[sizes.energy]
x = "n"

[validate]
n = 7
"#,
        ),
        ("c/spring.h", "#define STIFFNESS 2.5\n"),
        (
            "c/energy.c",
            "#include <math.h>
#include \"spring.h\"
void energy(int n, const double *x, double *e) {
  *e = 0.0;
  for (int i = 1; i < n; i++) {
    double d = x[i] - x[i - 1] - 1.0;
    *e += 0.5 * STIFFNESS * d * d + cos(x[i]);
  }
}
",
        ),
    ]);
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(verdict(&stdout, "tangent vs central differences"), "ok");
    assert_eq!(verdict(&stdout, "adjoint vs tangent (dot product)"), "ok");
}

#[test]
fn fortran_and_c_roots_of_one_manifest_are_each_driven_in_their_language() {
    let dir = project(&[
        (
            "ad.toml",
            r#"sources = ["src/*.f90", "src/*.c"]

[[root]]
name = "energy"
independents = ["x"]
dependents = ["e"]

[[root]]
name = "heat"
independents = ["u", "k"]
dependents = ["cost"]

[sizes.energy]
x = "n"

[validate]
n = 6
nsteps = 3
"#,
        ),
        (
            "src/energy.c",
            "void energy(int n, const double *x, double *e) {
  *e = 0.0;
  for (int i = 0; i < n; i++) *e += x[i] * x[i] * x[i];
}
",
        ),
        ("src/params.f90", HEAT[1].1),
        ("src/dt.inc", HEAT[2].1),
        ("src/heat.f90", HEAT[3].1),
    ]);
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("root `energy`") && stdout.contains("root `heat`"),
        "{stdout}"
    );
    let ok = stdout.lines().filter(|l| l.ends_with("  ok")).count();
    assert_eq!(ok, 8, "four checks per root:\n{stdout}");
}

/// A root without arguments whose independents and dependents are module variables
/// (INTERFACE.md §1): the driver seeds and reads `ud`, `ub` of the derivative modules.
const MODULE_STATE: &[(&str, &str)] = &[
    (
        "ad.toml",
        r#"sources = ["state.f90", "run.f90"]

[[root]]
name = "run"
independents = ["u", "rate"]
dependents = ["u", "energy"]

[validate.range]
rate = [0.1, 0.2]
"#,
    ),
    (
        "state.f90",
        "module state
  implicit none
  integer, parameter :: n = 8
  real(8) :: u(0:n), rate, energy
end module state
",
    ),
    (
        "run.f90",
        "subroutine run()
  use state
  implicit none
  integer :: i, s
  real(8) :: v(0:n)
  do s = 1, 4
    v = u
    do i = 1, n - 1
      u(i) = v(i) + rate*(v(i-1) - 2d0*v(i) + v(i+1)) - 0.1d0*sin(v(i))
    end do
  end do
  energy = sum(u**2)
end subroutine run
",
    ),
];

#[test]
fn module_variables_of_a_root_without_arguments_are_seeded_through_the_derivative_modules() {
    let dir = project(MODULE_STATE);
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(verdict(&stdout, "tangent vs central differences"), "ok");
    assert_eq!(verdict(&stdout, "adjoint vs tangent (dot product)"), "ok");
}

#[test]
fn a_common_variable_of_a_root_is_refused_by_name() {
    let dir = project(&[
        (
            "ad.toml",
            r#"sources = ["run.f"]

[[root]]
name = "run"
independents = ["rate"]
dependents = ["energy"]
"#,
        ),
        (
            "run.f",
            "      SUBROUTINE RUN()
      DOUBLE PRECISION RATE, ENERGY
      COMMON /PAR/ RATE, ENERGY
      ENERGY = RATE**2
      END
",
        ),
    ]);
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(
            "`rate` of `RUN` is a COMMON variable, which the driver cannot declare: check \
             this root with a driver of your own"
        ),
        "{stdout}"
    );
}

#[test]
fn an_argument_sized_by_a_module_constant_is_allocated_with_it() {
    let dir = project(&[
        (
            "ad.toml",
            r#"sources = ["model.f90"]

[[root]]
name = "step"
independents = ["x"]
dependents = ["y"]
"#,
        ),
        (
            "model.f90",
            "module sizes
  implicit none
  integer, parameter :: nx = 5
end module sizes

module model
  use sizes, only: nx
  implicit none
contains
  subroutine step(x, y)
    real(8), intent(in) :: x(nx)
    real(8), intent(out) :: y(nx)
    y = x*exp(-x) + cshift(x, 1)**2
  end subroutine step
end module model
",
        ),
    ]);
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(verdict(&stdout, "adjoint vs tangent (dot product)"), "ok");
}

/// A dependent that does not depend on the independents: the checks compare zeros,
/// which proves nothing, and the report says so instead of `ok`.
#[test]
fn a_check_against_a_zero_reference_is_not_ok() {
    let dir = project(&[
        (
            "ad.toml",
            r#"sources = ["f.f90"]

[[root]]
name = "f"
independents = ["x"]
dependents = ["y"]
"#,
        ),
        (
            "f.f90",
            "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  y = 2d0 + 0d0*x\nend subroutine f\n",
        ),
    ]);
    let output = adgen(dir.path(), &["validate"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("tangent vs central differences")
            && stdout.contains("FAILED (zero or no reference)"),
        "{stdout}"
    );
}
