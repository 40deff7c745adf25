//! Derivative checks of the Fortran and C corpora: see `tests/support/mod.rs`.
//!
//! `cargo test --test corpus` runs every program of `tests/corpus/fortran/` (test
//! `corpus`) and of `tests/corpus/c/` (test `corpus_c`);
//! `ADGEN_CORPUS=heat,newton` restricts the run to programs whose name contains one of
//! the words; `ADGEN_CORPUS_KEEP=1` keeps the work directories for inspection;
//! `ADGEN_CORPUS_CHECKPOINT=0` differentiates in split mode instead of joint mode and
//! `ADGEN_CORPUS_DISABLE=tbr,diff-liveness` switches optimizations off;
//! `ADGEN_CORPUS_CONTRACT=1` puts garbage where INTERFACE.md §4 says derivative
//! arguments are ignored (tangents of non-independents, adjoints of input-only
//! independents) instead of zeros.

mod support;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use support::case::{self, Failure};

fn corpus_root(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(lang)
}

/// Corpus directories of one language (`fortran`, `c`), sorted, filtered by
/// `ADGEN_CORPUS`.
fn corpus_dirs(lang: &str) -> Vec<PathBuf> {
    let filter: Vec<String> = std::env::var("ADGEN_CORPUS")
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(corpus_root(lang))
        .expect("the corpus directory exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            filter.is_empty() || filter.iter().any(|f| !f.is_empty() && name.contains(f))
        })
        .collect();
    dirs.sort();
    dirs
}

/// Runs `cases` over two threads; returns each case's failures in case order.
fn run_all(cases: &[PathBuf], disable: &[&str]) -> Vec<(String, Vec<Failure>)> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, String, Vec<Failure>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(dir) = cases.get(i) else { break };
                    let name = dir.file_name().unwrap().to_string_lossy().to_string();
                    let failures = case::run_case_with(dir, disable);
                    eprintln!(
                        "corpus: {name}: {}",
                        if failures.is_empty() { "ok" } else { "FAILED" }
                    );
                    results.lock().unwrap().push((i, name, failures));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    results.into_iter().map(|(_, n, f)| (n, f)).collect()
}

#[test]
fn corpus() {
    check_corpus("fortran", &[]);
}

/// Every optimization `disable` can switch off.
const ALL_OFF: &[&str] = &[
    "activity",
    "diff-liveness",
    "tbr",
    "snapshot",
    "implicit-zero",
];

/// With every optimization off, the derivatives must still be right (DESIGN.md §4).
#[test]
fn corpus_with_optimizations_off() {
    check_corpus("fortran", ALL_OFF);
}

#[test]
fn corpus_c() {
    check_corpus("c", &[]);
}

/// The C corpus with every optimization off: its heap arrays, optional arguments and
/// struct fields take other paths then (whole-array saves, every field kept).
#[test]
fn corpus_c_with_optimizations_off() {
    check_corpus("c", ALL_OFF);
}

fn check_corpus(lang: &str, disable: &[&str]) {
    let dirs = corpus_dirs(lang);
    if dirs.is_empty() && std::env::var_os("ADGEN_CORPUS").is_some() {
        return;
    }
    assert!(!dirs.is_empty(), "no corpus program selected");
    let results = run_all(&dirs, disable);
    let failed: Vec<&(String, Vec<Failure>)> =
        results.iter().filter(|(_, f)| !f.is_empty()).collect();
    for (_, failures) in &failed {
        for f in failures {
            eprintln!("{f}\n");
        }
    }
    let summary = format!(
        "corpus ({lang}{}): {} passed, {} failed",
        if disable.is_empty() {
            String::new()
        } else {
            format!(", off: {}", disable.join(", "))
        },
        results.len() - failed.len(),
        failed.len()
    );
    eprintln!("{summary}");
    assert!(
        failed.is_empty(),
        "{summary}: {}",
        failed
            .iter()
            .map(|(n, f)| format!(
                "{n} ({})",
                f.iter()
                    .map(|x| x.stage.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .collect::<Vec<_>>()
            .join("; ")
    );
}

/// The corpus itself is well formed: manifests and check files parse, every source is
/// valid Fortran that gfortran compiles without a warning (generated code copies it and
/// must compile with `-Wall -Werror`), and there are enough programs.
#[test]
fn corpus_is_well_formed() {
    check_well_formed("fortran", 18, &compile_fortran, &defines_fortran);
}

/// The C corpus is well formed: manifests and check files parse, every source compiles
/// with `gcc -std=c99 -Wall -Wextra -Werror`, every root is defined, and there are
/// enough programs.
#[test]
fn corpus_c_is_well_formed() {
    check_well_formed("c", 8, &compile_c, &defines_c);
}

/// Shared by both languages: at least `min` programs (unless a subset is selected),
/// every source accepted by `compile`, every root defined (`defines`) and given both
/// independents and dependents.
fn check_well_formed(
    lang: &str,
    min: usize,
    compile: &dyn Fn(&Path, &Path, &[String]) -> support::toolchain::Outcome,
    defines: &dyn Fn(&str, &str) -> bool,
) {
    let dirs = corpus_dirs(lang);
    if std::env::var_os("ADGEN_CORPUS").is_none() {
        assert!(
            dirs.len() >= min,
            "the {lang} corpus has {} programs, want {min}",
            dirs.len()
        );
    }
    let mut problems = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (manifest, check, sources) = match case::load(dir) {
            Ok(x) => x,
            Err(e) => {
                problems.push(format!("{name}: {e}"));
                continue;
            }
        };
        let work = tempfile::tempdir().unwrap();
        // Deleted FORTRAN 77 features (arithmetic IF) warn under the default standard
        // (adgen's output never contains them); a longer fixed-form line is the
        // manifest's, and gfortran must be told.
        let mut extra = Vec::new();
        if check.value_of("legacy") == Some(&support::config::Value::Bool(true)) {
            extra.push("-std=legacy".to_string());
        }
        extra.extend(support::toolchain::fixed_line_length_flag(
            manifest.fixed_line_length,
        ));
        extra.extend(support::config::cpp_flags(&manifest.preprocessor));
        for src in &sources {
            // A mixed program's sources of the other language are checked as such.
            let o = match (lang, support::toolchain::is_c(&src.path)) {
                ("c", false) => compile_fortran(&dir.join(&src.path), work.path(), &extra),
                ("fortran", true) => compile_c(&dir.join(&src.path), work.path(), &extra),
                _ => compile(&dir.join(&src.path), work.path(), &extra),
            };
            if !o.success {
                problems.push(format!("{name}: {}", o.report()));
            }
        }
        for root in &manifest.roots {
            if !sources.iter().any(|s| {
                defines(&s.text, &root.name)
                    || defines_fortran(&s.text, &root.name)
                    || defines_c(&s.text, &root.name)
            }) {
                problems.push(format!(
                    "{name}: no source defines the root `{}`",
                    root.name
                ));
            }
            if root.independents.is_empty() || root.dependents.is_empty() {
                problems.push(format!(
                    "{name}: root `{}` lacks independents or dependents",
                    root.name
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A Fortran source compiles with `gfortran -Wall -Werror` (and the `extra` flags).
fn compile_fortran(path: &Path, work: &Path, extra: &[String]) -> support::toolchain::Outcome {
    let mut args = vec![
        "-fsyntax-only".to_string(),
        "-Wall".to_string(),
        "-Werror".to_string(),
        format!("-J{}", work.display()),
        path.display().to_string(),
    ];
    args.extend(extra.iter().cloned());
    support::toolchain::run(
        &support::toolchain::fc(),
        &args,
        work,
        std::time::Duration::from_secs(60),
    )
}

/// A C source compiles with `gcc -std=c99 -Wall -Wextra -Werror`.
fn compile_c(path: &Path, work: &Path, _extra: &[String]) -> support::toolchain::Outcome {
    let mut args: Vec<String> = support::toolchain::CFLAGS
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(["-fsyntax-only".to_string(), path.display().to_string()]);
    support::toolchain::run(
        &support::toolchain::cc(),
        &args,
        work,
        std::time::Duration::from_secs(60),
    )
}

fn defines_fortran(text: &str, root: &str) -> bool {
    let text = text.to_ascii_lowercase();
    let root = root.to_ascii_lowercase();
    text.contains(&format!("subroutine {root}(")) || text.contains(&format!("function {root}("))
}

fn defines_c(text: &str, root: &str) -> bool {
    text.contains(&format!(" {root}("))
}
