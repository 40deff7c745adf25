//! Benchmark of the time-stepping corpus program (not a timed test; run on demand):
//!
//! ```text
//! cargo test --release --test bench -- --ignored --nocapture
//! ```
//!
//! Differentiates `tests/corpus/fortran/heat_explicit` through the library, writes the
//! outputs with an `adgen-outputs.txt`, and hands them to `build-support/bench/run.sh`,
//! which builds everything with `gfortran -O2` and prints R_t, R_a and the tape peak.
//! `ADGEN_BENCH_ARGS="200 2000 7"` sets N, NSTEPS and the number of samples;
//! `ADGEN_BENCH_ARGS="--instructions 100 1000 3"` also counts instructions under callgrind
//! (I_t, I_a: the ratios that do not depend on the machine's load).

// The harness modules, without the corpus self-tests.
#[path = "support"]
#[allow(dead_code, unused_imports)]
mod support {
    pub mod case;
    pub mod config;
    pub use adgen::validate::toolchain;
}

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "benchmark: run with --ignored --nocapture"]
fn heat_explicit_cost_ratios() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let case_dir = repo.join("tests/corpus/fortran/heat_explicit");
    let (manifest, _check, sources) = support::case::load(&case_dir).expect("corpus program loads");
    let generated = adgen::differentiate(&sources, &support::case::request(&manifest))
        .unwrap_or_else(|f| panic!("adgen failed on heat_explicit:\n{f}"));
    let out = tempfile::tempdir().expect("temporary directory");
    let mut listed = Vec::new();
    let mut has_list = false;
    for file in &generated.files {
        let path = out.path().join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, &file.contents).unwrap();
        has_list |= file.path == "adgen-outputs.txt";
        if support::toolchain::is_fortran(&file.path) || support::toolchain::is_c(&file.path) {
            listed.push(file.path.clone());
        }
    }
    if !has_list {
        std::fs::write(
            out.path().join("adgen-outputs.txt"),
            listed.join("\n") + "\n",
        )
        .unwrap();
    }
    let args = std::env::var("ADGEN_BENCH_ARGS").unwrap_or_default();
    let status = Command::new("bash")
        .arg(repo.join("build-support/bench/run.sh"))
        .arg("--generated")
        .arg(out.path())
        .args(args.split_whitespace())
        .status()
        .expect("bash runs");
    assert!(status.success(), "the benchmark failed");
}

/// adgen's own speed: source lines differentiated per second over the whole corpus
/// (every program, all its roots and modes), best of several rounds.
#[test]
#[ignore = "benchmark: run with --ignored --nocapture"]
fn differentiation_speed() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fortran");
    let mut dirs: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut programs = Vec::new();
    let mut lines = 0usize;
    for dir in &dirs {
        let (manifest, _check, sources) = support::case::load(dir).expect("corpus program loads");
        lines += sources
            .iter()
            .map(|s| s.text.lines().count())
            .sum::<usize>();
        programs.push((support::case::request(&manifest), sources));
    }
    let mut best = f64::INFINITY;
    let mut failed = 0;
    for _ in 0..5 {
        let start = std::time::Instant::now();
        failed = 0;
        for (request, sources) in &programs {
            if adgen::differentiate(sources, request).is_err() {
                failed += 1;
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "adgen: {} programs, {lines} lines in {best:.4} s: {:.0} lines/s ({failed} refused)",
        programs.len(),
        lines as f64 / best
    );
}
