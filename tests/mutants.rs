//! Hostile input, deterministically (issue 16): a few hundred mutants of the corpus's
//! sources and manifests, each made by one small edit (a span deleted, a line dropped,
//! doubled or swapped, a token inserted, the text cut short), go through the manifest
//! checks and the whole pipeline. Each must end in generated code or in diagnostics:
//! never a panic, and never more than a few seconds (a hang). A stack overflow would
//! abort the test process, which fails the test too. The seed is fixed, so a failure
//! names a mutant that reproduces.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How many mutants of sources, and of manifests.
const SOURCE_MUTANTS: usize = 600;
const MANIFEST_MUTANTS: usize = 200;
/// Generous: the slowest corpus program differentiates in well under a second.
const LIMIT: Duration = Duration::from_secs(20);

/// xorshift64*: small, deterministic, good enough to pick edits.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    ",",
    "*",
    "=",
    "end",
    "do",
    "if",
    "{",
    "}",
    ";",
    "&",
    "!",
    "/*",
    "\"",
    "'",
    "::",
    "0",
    "1e400",
    "-",
    "+",
    "x",
    "\n",
    "[",
    "]",
    "call",
    "real(8) ::",
    "#include",
    "= \"",
    "[[root]]",
    "%",
    "->",
    ".",
    "99999999999999999999",
    "(((((",
];

/// One edit of `text`, described for the failure message.
fn mutate(text: &str, rng: &mut Rng) -> (String, String) {
    let chars: Vec<char> = text.chars().collect();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let at = rng.below(chars.len() + 1);
    match rng.below(7) {
        0 => {
            let len = 1 + rng.below(20);
            let end = (at + len).min(chars.len());
            let s: String = chars[..at].iter().chain(&chars[end..]).collect();
            (s, format!("deleted chars {at}..{end}"))
        }
        1 if !lines.is_empty() => {
            let l = rng.below(lines.len());
            let mut v = lines.clone();
            v.insert(l, lines[l]);
            (v.concat(), format!("doubled line {}", l + 1))
        }
        2 if !lines.is_empty() => {
            let l = rng.below(lines.len());
            let mut v = lines.clone();
            v.remove(l);
            (v.concat(), format!("dropped line {}", l + 1))
        }
        3 if lines.len() > 1 => {
            let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
            let mut v = lines.clone();
            v.swap(a, b);
            (v.concat(), format!("swapped lines {} and {}", a + 1, b + 1))
        }
        4 => {
            let s: String = chars[..at].iter().collect();
            (s, format!("cut at char {at}"))
        }
        5 => {
            let token = TOKENS[rng.below(TOKENS.len())].repeat(1 + rng.below(3));
            let s: String = chars[..at]
                .iter()
                .copied()
                .chain(token.chars())
                .chain(chars[at..].iter().copied())
                .collect();
            (s, format!("inserted {token:?} at char {at}"))
        }
        _ => {
            // A whole line repeated many times: long inputs, deep nesting.
            let l = rng.below(lines.len().max(1));
            let line = lines.get(l).copied().unwrap_or("(");
            let mut v = lines.clone();
            let many = line.repeat(50);
            v.insert(l.min(v.len()), &many);
            (v.concat(), format!("line {} repeated 50 times", l + 1))
        }
    }
}

fn corpus_dirs() -> Vec<PathBuf> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut dirs = Vec::new();
    for lang in ["fortran", "c"] {
        for entry in std::fs::read_dir(corpus.join(lang)).unwrap().flatten() {
            if entry.path().join("ad.toml").is_file() {
                dirs.push(entry.path());
            }
        }
    }
    dirs.sort();
    dirs
}

/// Runs `job` on its own thread (on adgen's big stack, as the binary does) and returns
/// what it returns and how long it took; fails on a panic or when it takes longer than
/// [`LIMIT`].
fn survives<T: Send + 'static>(
    what: &str,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<(T, Duration), String> {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| adgen::on_big_stack(job)));
        let _ = tx.send(outcome.ok());
    });
    match rx.recv_timeout(LIMIT) {
        Ok(Some(value)) => Ok((value, start.elapsed())),
        Ok(None) => Err(format!("{what}: panicked")),
        Err(_) => Err(format!("{what}: still running after {LIMIT:?}")),
    }
}

/// A scratch copy of corpus program `dir` with `manifest` as its ad.toml, beside its
/// sources so that the globs still match; returns the copy and the manifest's path.
fn manifest_beside_sources(dir: &Path, manifest: &str) -> (tempfile::TempDir, PathBuf) {
    let scratch = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.path().is_file() {
            std::fs::copy(entry.path(), scratch.path().join(entry.file_name())).unwrap();
        }
    }
    let path = scratch.path().join("ad.toml");
    std::fs::write(&path, manifest).unwrap();
    (scratch, path)
}

#[test]
fn mutated_sources_end_in_code_or_diagnostics() {
    let dirs = corpus_dirs();
    let loaded: Vec<adgen::manifest::LoadedManifest> = dirs
        .iter()
        .filter_map(|d| adgen::manifest::load(&d.join("ad.toml")).ok())
        .collect();
    assert!(loaded.len() > 50, "only {} corpus programs", loaded.len());
    let mut rng = Rng(0x5EED_AD6E_2026_1126);
    let mut failures = Vec::new();
    let mut slowest = Duration::ZERO;
    let mut refused = 0;
    for k in 0..SOURCE_MUTANTS {
        let program = &loaded[rng.below(loaded.len())];
        let mut inputs = program.sources.clone();
        let i = rng.below(inputs.len());
        let (text, edit) = mutate(&inputs[i].text, &mut rng);
        inputs[i].text = text;
        let what = format!("mutant {k}: {} {edit}", inputs[i].path);
        let request = program.request.clone();
        match survives(&what, move || {
            adgen::differentiate(&inputs, &request).is_ok()
        }) {
            Ok((ok, t)) => {
                slowest = slowest.max(t);
                refused += usize::from(!ok);
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The edits must reach the parsers: most mutants are refused.
    assert!(
        refused > SOURCE_MUTANTS / 4,
        "only {refused} mutants refused"
    );
    eprintln!("{SOURCE_MUTANTS} source mutants: {refused} refused, slowest {slowest:?}");
}

#[test]
fn mutated_manifests_end_in_code_or_diagnostics() {
    let dirs = corpus_dirs();
    let mut rng = Rng(0xAD_7011_2026_1126);
    let mut failures = Vec::new();
    let mut rejected = 0;
    for k in 0..MANIFEST_MUTANTS {
        let dir = &dirs[rng.below(dirs.len())];
        let text = std::fs::read_to_string(dir.join("ad.toml")).unwrap();
        let (mutant, edit) = mutate(&text, &mut rng);
        let what = format!("manifest mutant {k}: {} {edit}", dir.display());
        let (_scratch, manifest) = manifest_beside_sources(dir, &mutant);
        let result = survives(&what, move || {
            match adgen::manifest::load_checked(&manifest) {
                Ok(m) => adgen::differentiate(&m.sources, &m.request).is_ok(),
                Err(failure) => {
                    // One located diagnostic at least, and a bounded report.
                    assert!(!failure.diagnostics.is_empty());
                    assert!(failure.rendered.len() < 100_000);
                    false
                }
            }
        });
        match result {
            Ok((ok, _)) => rejected += usize::from(!ok),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        rejected > MANIFEST_MUTANTS / 4,
        "only {rejected} manifests rejected"
    );
    eprintln!("{MANIFEST_MUTANTS} manifest mutants: {rejected} rejected");
}

/// The harness itself: a panic is caught and reported, not taken for a refusal.
#[test]
fn a_panicking_job_is_a_failure() {
    let e = survives("probe", || -> () { panic!("boom") }).unwrap_err();
    assert_eq!(e, "probe: panicked");
    assert!(survives("probe", || ()).is_ok());
}

/// The fuzzing harness on stable Rust (issue 16): mutants of several stacked edits, for
/// as long as `ADGEN_FUZZ_SECONDS` says (default 60), per target: `fortran` and `c`
/// (sources of that language through the whole pipeline) and `manifest`;
/// `ADGEN_FUZZ_TARGET` picks one, `ADGEN_FUZZ_SEED` varies the run. Prints the counts;
/// fails on the first panic or hang, naming the mutant's seed and edits.
///
///     ADGEN_FUZZ_SECONDS=1800 ADGEN_FUZZ_TARGET=fortran \
///         cargo test --release --test mutants fuzz -- --ignored --nocapture
#[test]
#[ignore]
fn fuzz() {
    let seconds: u64 = std::env::var("ADGEN_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed: u64 = std::env::var("ADGEN_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let only = std::env::var("ADGEN_FUZZ_TARGET").ok();
    let dirs = corpus_dirs();
    let loaded: Vec<adgen::manifest::LoadedManifest> = dirs
        .iter()
        .filter_map(|d| adgen::manifest::load(&d.join("ad.toml")).ok())
        .collect();
    for target in ["fortran", "c", "manifest"] {
        if only.as_deref().is_some_and(|t| t != target) {
            continue;
        }
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ target.len() as u64);
        let (mut runs, mut refused, mut slowest) = (0u64, 0u64, Duration::ZERO);
        let mut slowest_what = String::new();
        while Instant::now() < deadline {
            let edits = 1 + rng.below(4);
            let (ok, what, t) = if target == "manifest" {
                let dir = &dirs[rng.below(dirs.len())];
                let mut text = std::fs::read_to_string(dir.join("ad.toml")).unwrap();
                let mut done = Vec::new();
                for _ in 0..edits {
                    let (t, e) = mutate(&text, &mut rng);
                    text = t;
                    done.push(e);
                }
                let what = format!("{target} run {runs}: {} {}", dir.display(), done.join("; "));
                let (_scratch, manifest) = manifest_beside_sources(dir, &text);
                let (ok, t) = survives(&what, move || {
                    adgen::manifest::load_checked(&manifest)
                        .is_ok_and(|m| adgen::differentiate(&m.sources, &m.request).is_ok())
                })
                .unwrap_or_else(|e| panic!("{e}"));
                (ok, what, t)
            } else {
                let ext = if target == "c" { ".c" } else { ".f" };
                let candidates: Vec<&adgen::manifest::LoadedManifest> = loaded
                    .iter()
                    .filter(|m| m.sources.iter().any(|s| s.path.contains(ext)))
                    .collect();
                let program = candidates[rng.below(candidates.len())];
                let mut inputs = program.sources.clone();
                let files: Vec<usize> = (0..inputs.len())
                    .filter(|&i| inputs[i].path.contains(ext))
                    .collect();
                let i = files[rng.below(files.len())];
                let mut done = Vec::new();
                for _ in 0..edits {
                    let (t, e) = mutate(&inputs[i].text, &mut rng);
                    inputs[i].text = t;
                    done.push(e);
                }
                let what = format!(
                    "{target} run {runs}: {} {}",
                    inputs[i].path,
                    done.join("; ")
                );
                let request = program.request.clone();
                let mutant = inputs[i].text.clone();
                let (ok, t) = survives(&what, move || {
                    adgen::differentiate(&inputs, &request).is_ok()
                })
                .unwrap_or_else(|e| {
                    // Kept for reproduction: the mutated file.
                    let keep = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failure.txt");
                    let _ = std::fs::write(&keep, &mutant);
                    panic!("{e} (the mutated file is {})", keep.display())
                });
                (ok, what, t)
            };
            runs += 1;
            refused += u64::from(!ok);
            if t > slowest {
                slowest = t;
                slowest_what = what;
            }
        }
        eprintln!(
            "fuzz {target}: {runs} mutants in {seconds} s, {refused} refused, {} accepted, \
             0 panics, 0 hangs (slowest {slowest:?}: {slowest_what})",
            runs - refused
        );
    }
}

/// Found by the fuzzer (target fortran, seed 7, run 1479): a derived type whose END TYPE
/// was lost took the rest of its module as components, variables of its own type among
/// them, and expanding `p%a%b%a...` ran for minutes; and every following statement was an
/// error of its own. Now each is one error, at once. A type containing itself through
/// ordinary components is one error too.
#[test]
fn fuzz_regression_types_without_end_or_containing_themselves() {
    let missing_end = "module shapes\n  implicit none\n  type :: vec2\n    real(8) :: x, y\n\
                       contains\n  function vdot(a, b) result(r)\n    \
                       type(vec2), intent(in) :: a, b\n    real(8) :: r\n    \
                       r = a%x * b%x + a%y * b%y\n  end function vdot\nend module shapes\n";
    let self_containing = "module shapes\n  implicit none\n  type :: node\n    real(8) :: x\n    \
                           type(node) :: left, right, up\n  end type node\nend module shapes\n";
    let user = "subroutine use_it(p, e)\n  use shapes\n  type(SHAPE), intent(in) :: p\n  \
                real(8), intent(out) :: e\n  e = p%x\nend subroutine use_it\n";
    for (module, shape, expected) in [
        (
            missing_end,
            "vec2",
            "m.f90:3:3: error[E0205]: type `vec2` has no END TYPE",
        ),
        (
            self_containing,
            "node",
            "error[E0405]: the derived type `node` contains a component of its own type",
        ),
    ] {
        let inputs = vec![
            adgen::SourceInput::new("m.f90", module),
            adgen::SourceInput::new("u.f90", user.replace("SHAPE", shape)),
        ];
        let request = adgen::Request {
            roots: vec![adgen::RootRequest {
                name: "use_it".into(),
                independents: vec!["p".into()],
                dependents: vec!["e".into()],
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
        let (result, t) = survives(shape, move || {
            adgen::differentiate(&inputs, &request).map(|_| ())
        })
        .unwrap();
        assert!(t < Duration::from_secs(2), "{shape}: {t:?}");
        let rendered = result.expect_err("refused").rendered;
        assert_eq!(rendered.matches("error[").count(), 1, "{rendered}");
        assert!(rendered.contains(expected), "{rendered}");
    }
}

/// Found by the fuzzing harness (target fortran, seed 7, run 46240): a time loop whose
/// body repeats 100 calls with array expressions as arguments (each evaluated into
/// temporaries) took 13 s: the summary's dependency analysis kept one allocation per
/// zone per node visit. Now about a second; the bound is generous for slow machines.
#[test]
fn fuzz_regression_many_calls_with_array_temporaries() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fortran/heun_array_args");
    let mut loaded = adgen::manifest::load(&dir.join("ad.toml")).unwrap();
    let source = loaded
        .sources
        .iter_mut()
        .find(|s| s.path == "heun.f90")
        .unwrap();
    let call = "    call chain_rhs(n, stiff, u + dt * ku1, v + dt * kv1, ku2, kv2)\n";
    assert!(source.text.contains(call));
    source.text = source.text.replacen(call, &call.repeat(100), 1);
    let (inputs, request) = (loaded.sources.clone(), loaded.request.clone());
    let ((), t) = survives("100 calls", move || {
        adgen::differentiate(&inputs, &request).expect("differentiates");
    })
    .unwrap();
    assert!(t < Duration::from_secs(8), "{t:?}");
}
