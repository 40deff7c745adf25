//! Large input (issue 16): one expression of 10,000 terms, in Fortran and in C, both
//! modes. adgen must differentiate it (the passes are linear in its length; it used to
//! take time exponential in it, or overflow the stack), gfortran and gcc must compile the
//! result, and the numbers must be right: the tangent against central differences, the
//! adjoint against the tangent. Not timed: a blow-up shows as a test that never ends.
//! gfortran itself needs minutes for one 10,000-term statement (its time grows faster
//! than the square of the length), so the Fortran numbers are checked on 1,000 terms,
//! after adgen has differentiated the 10,000-term one.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const TERMS: usize = 10_000;

fn request(root: &str) -> adgen::Request {
    adgen::Request {
        roots: vec![adgen::RootRequest {
            name: root.to_string(),
            independents: vec!["x".into(), "z".into()],
            dependents: vec!["y".into()],
            modes: BTreeSet::from([adgen::Mode::Tangent, adgen::Mode::Adjoint]),
            origin: None,
            entry_origins: Vec::new(),
        }],
        sizes: Vec::new(),
        black_boxes: Vec::new(),
        checkpoint_calls: true,
        naming: Default::default(),
        layout: Default::default(),
        option_warnings: Vec::new(),
        disabled: BTreeSet::new(),
    }
}

/// `n` terms `c*x*z`, `c*x**2`, `sin(c*x)`, `c*z` in turn, with small coefficients.
fn terms(n: usize, pow: &str, sin: &str, real: &dyn Fn(f64) -> String) -> String {
    let mut out = String::from("x");
    for i in 0..n {
        let c = real(1.0 + (i % 13) as f64 / 8.0);
        let term = match i % 4 {
            0 => format!("{c}*x*z"),
            1 => format!("{c}*{}", pow.replace('#', "x")),
            2 => format!("{sin}({c}*x)"),
            _ => format!("{c}*z"),
        };
        out.push_str(if i % 5 == 4 { " - " } else { " + " });
        out.push_str(&term);
    }
    out
}

fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn write_generated(dir: &Path, generated: &adgen::Generated) {
    for f in &generated.files {
        std::fs::write(dir.join(&f.path), &f.contents).expect("write a generated file");
    }
}

/// The driver prints `tangent fd adjoint`: y's tangent along (dx, dz) = (0.3, -0.7),
/// central differences of y along it, and xb*dx + zb*dz for yb = 1.
fn check(output: &str) {
    let v: Vec<f64> = output
        .split_whitespace()
        .map(|s| s.parse().expect("a number"))
        .collect();
    let (t, fd, a) = (v[0], v[1], v[2]);
    assert!(
        (t - fd).abs() <= 1e-5 * t.abs().max(1.0),
        "tangent {t} vs fd {fd}"
    );
    assert!(
        (t - a).abs() <= 1e-10 * t.abs().max(1.0),
        "tangent {t} vs adjoint {a}"
    );
}

#[test]
fn ten_thousand_terms_in_fortran() {
    let source = |n: usize| {
        let body = terms(n, "#**2", "sin", &|v| format!("{v:?}d0"));
        format!(
            "subroutine f(x, z, y)\n  real(8), intent(in) :: x, z\n  real(8), intent(out) :: y\n  y = {body}\nend subroutine f\n"
        )
    };
    let input = |n: usize| [adgen::SourceInput::new("big.f90", source(n))];
    let big = adgen::differentiate(&input(TERMS), &request("f")).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        big.files
            .iter()
            .any(|f| f.contents.contains("subroutine f_b("))
    );
    let source = source(1000);
    let generated =
        adgen::differentiate(&input(1000), &request("f")).unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("big.f90"), &source).unwrap();
    write_generated(dir.path(), &generated);
    std::fs::write(
        dir.path().join("driver.f90"),
        "program driver\n  implicit none\n  real(8) :: x, z, y, yp, ym, yd, xb, zb, yb, h\n  \
         x = 0.37d0; z = -0.21d0; h = 1d-6\n  call f_d(x, 0.3d0, z, -0.7d0, y, yd)\n  \
         call f(x + 0.3d0*h, z - 0.7d0*h, yp)\n  call f(x - 0.3d0*h, z + 0.7d0*h, ym)\n  \
         xb = 0; zb = 0; yb = 1\n  call f_b(x, xb, z, zb, y, yb)\n  \
         print '(3es25.16)', yd, (yp - ym)/(2*h), 0.3d0*xb - 0.7d0*zb\nend program driver\n",
    )
    .unwrap();
    let d = dir.path();
    // The generated files (the runtime first, when the adjoint needs one), then ours.
    let mut sources = compiled_files(&generated, &[".c", ".f90"]);
    sources.extend(["big.f90".to_string(), "driver.f90".to_string()]);
    let mut objects = Vec::new();
    for src in &sources {
        let obj = format!("{src}.o");
        let compiler = if src.ends_with(".c") {
            "gcc"
        } else {
            "gfortran"
        };
        // Our source has the statement on one line; adgen's output must not need this.
        let long = if src == "big.f90" {
            "-ffree-line-length-none"
        } else {
            "-Wall"
        };
        run(d, compiler, &["-O0", "-Wall", long, "-c", src, "-o", &obj]);
        objects.push(obj);
    }
    let mut args: Vec<&str> = objects.iter().map(String::as_str).collect();
    args.extend(["-o", "driver"]);
    run(d, "gfortran", &args);
    check(&run(d, "./driver", &[]));
}

#[test]
fn ten_thousand_terms_in_c() {
    let body = terms(TERMS, "# * #", "sin", &|v| format!("{v:?}"));
    let source = format!(
        "#include <math.h>\nvoid f(double x, double z, double *y) {{\n  *y = {body};\n}}\n"
    );
    let generated =
        adgen::differentiate(&[adgen::SourceInput::new("big.c", &source)], &request("f"))
            .unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("big.c"), &source).unwrap();
    write_generated(dir.path(), &generated);
    let header = generated
        .files
        .iter()
        .map(|f| f.path.clone())
        .find(|p| p.ends_with(".h") && p != "adgen_runtime.h")
        .expect("a header of the generated functions");
    std::fs::write(
        dir.path().join("driver.c"),
        format!(
            "#include <stdio.h>\n#include \"{header}\"\nvoid f(double x, double z, double *y);\n\
             int main(void) {{\n  double x = 0.37, z = -0.21, y, yp, ym, yd = 0, h = 1e-6;\n  \
             double xb = 0, zb = 0, yb = 1;\n  f_d(x, 0.3, z, -0.7, &y, &yd);\n  \
             f(x + 0.3*h, z - 0.7*h, &yp);\n  f(x - 0.3*h, z + 0.7*h, &ym);\n  \
             f_b(x, &xb, z, &zb, &y, &yb);\n  \
             printf(\"%.16e %.16e %.16e\\n\", yd, (yp - ym)/(2*h), 0.3*xb - 0.7*zb);\n  return 0;\n}}\n"
        ),
    )
    .unwrap();
    let d = dir.path();
    let mut sources = compiled_files(&generated, &[".c"]);
    sources.extend(["big.c".to_string(), "driver.c".to_string()]);
    let mut args: Vec<&str> = vec!["-O0", "-Wall", "-o", "driver"];
    args.extend(sources.iter().map(String::as_str));
    args.push("-lm");
    run(d, "gcc", &args);
    check(&run(d, "./driver", &[]));
}

/// The generated files with one of these extensions, in the order adgen lists them.
fn compiled_files(generated: &adgen::Generated, extensions: &[&str]) -> Vec<String> {
    generated
        .files
        .iter()
        .map(|f| f.path.clone())
        .filter(|p| extensions.iter().any(|e| p.ends_with(e)))
        .collect()
}
