//! A model differentiated by adgen and checked by a hand-written Fortran driver, for
//! what the corpus driver cannot pass (COMPLEX arguments) or the corpus cannot run both
//! ways. Included by path by the test files that use it, beside `toolchain.rs`
//! (`crate::toolchain`).
//!
//! The driver prints lines `name a1 .. ak b1 .. bk`: each pair of halves must agree,
//! to 1e-12 relative for a `dot` line (adjoint against tangent), 1e-7 otherwise (tangent
//! against central differences).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::toolchain::{self, CFLAGS, DRIVER_FFLAGS, GENERATED_FFLAGS};

/// Both modes of one root.
pub fn request(root: &str, independents: &[&str], dependents: &[&str]) -> adgen::Request {
    adgen::Request {
        roots: vec![adgen::RootRequest {
            name: root.to_string(),
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
    }
}

fn build(d: &Path, source: &str, flags: &[&str], objects: &mut Vec<PathBuf>) {
    let object = d.join(format!("{source}.o"));
    let out = toolchain::compile(&d.join(source), &object, d, flags);
    assert!(out.success, "{}", out.report());
    objects.push(object);
}

/// Differentiates `model` (`model.f90`) as `request` says, compiles it, its derivatives
/// (gfortran `-Wall -Werror`) and `driver`, runs the driver and checks its `lines`
/// lines.
pub fn check(model: &str, driver: &str, request: &adgen::Request, lines: usize) {
    check_with(model, driver, request, lines, &[]);
}

/// [`check`] with `flags` added to every Fortran compilation and to the link
/// (`-fopenmp`); returns what adgen generated, for the caller to look at.
pub fn check_with(
    model: &str,
    driver: &str,
    request: &adgen::Request,
    lines: usize,
    flags: &[&str],
) -> adgen::Generated {
    let generated = adgen::differentiate(&[adgen::SourceInput::new("model.f90", model)], request)
        .unwrap_or_else(|f| panic!("adgen refused the model:\n{f}"));
    let with = |base: &[&'static str]| -> Vec<String> {
        base.iter().chain(flags).map(|f| f.to_string()).collect()
    };
    let (generated_fflags, driver_fflags) = (with(GENERATED_FFLAGS), with(DRIVER_FFLAGS));
    let generated_fflags: Vec<&str> = generated_fflags.iter().map(String::as_str).collect();
    let driver_fflags: Vec<&str> = driver_fflags.iter().map(String::as_str).collect();
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = dir.path();
    std::fs::write(d.join("model.f90"), model).unwrap();
    std::fs::write(d.join("driver.f90"), driver).unwrap();
    let mut objects = Vec::new();
    build(d, "model.f90", &generated_fflags, &mut objects);
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
            build(d, path, &generated_fflags, &mut objects);
        }
    }
    build(d, "driver.f90", &driver_fflags, &mut objects);
    let exe = d.join("driver");
    let link = toolchain::link(&objects, &exe, d, flags);
    assert!(link.success, "{}", link.report());
    let run = toolchain::run(&exe, &[], d, Duration::from_secs(60));
    assert!(run.success, "{}", run.report());
    let text = run.stdout;
    for line in text.lines() {
        let v: Vec<f64> = line
            .split_whitespace()
            .skip(1)
            .map(|x| {
                x.parse()
                    .unwrap_or_else(|_| panic!("`{x}` is not a number: {line}\n{text}"))
            })
            .collect();
        let half = v.len() / 2;
        let (a, b) = (&v[..half], &v[half..]);
        let scale = a.iter().chain(b).fold(1e-12f64, |m, x| m.max(x.abs()));
        let err = a.iter().zip(b).fold(0f64, |m, (x, y)| m.max((x - y).abs())) / scale;
        let bound = if line.starts_with("dot") { 1e-12 } else { 1e-7 };
        assert!(err < bound, "{line}: relative error {err:e}\n{text}");
    }
    assert_eq!(text.lines().count(), lines, "{text}");
    generated
}
