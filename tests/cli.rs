//! The `adgen` binary as users run it: exit codes, diagnostics on stderr, and the output
//! directory left alone on errors.

use std::path::Path;
use std::process::{Command, Output};

fn adgen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adgen"))
        .args(args)
        .current_dir(dir)
        .env_remove("ADGEN_DEBUG_PANIC")
        .output()
        .expect("the adgen binary runs")
}

/// A temporary project: `ad.toml` with `manifest`, and a small Fortran source.
fn project(manifest: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ad.toml"), manifest).unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("src/f.f90"),
        "subroutine f(x, y)\n  real(8) :: x, y\n  y = x * x\nend subroutine f\n",
    )
    .unwrap();
    dir
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `adgen diff` on a bad manifest and checks: exit 1, each expected
/// `ad.toml:line:col: error[code]` exactly once, and no output directory.
fn assert_user_error(manifest: &str, expected: &[(&str, &str)]) {
    let dir = project(manifest);
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "stderr:\n{text}");
    for (place, code) in expected {
        let needle = format!("ad.toml:{place}: error[{code}]");
        assert_eq!(
            text.matches(&needle).count(),
            1,
            "`{needle}` not reported exactly once in:\n{text}"
        );
    }
    let reported = text.matches(": error[").count();
    assert_eq!(reported, expected.len(), "unexpected diagnostics:\n{text}");
    assert!(
        !dir.path().join("adgen-out").exists(),
        "output directory created"
    );
}

const ROOT: &str = "[[root]]\nname = \"f\"\nindependents = [\"x\"]\ndependents = [\"y\"]\n";

#[test]
fn unknown_key() {
    let manifest = format!("sources = [\"src/*.f90\"]\nsource = [\"x\"]\n{ROOT}");
    assert_user_error(&manifest, &[("2:1", "E0102")]);
    let dir = project(&manifest);
    let text = stderr(&adgen(dir.path(), &["diff"]));
    assert!(text.contains("unknown key `source`"), "{text}");
    assert!(text.contains("did you mean `sources`?"), "{text}");
}

#[test]
fn bad_globs() {
    let manifest = format!("sources = [\"src/*.f90\", \"lib/*.f90\", \"src/[.f90\"]\n{ROOT}");
    assert_user_error(&manifest, &[("1:25", "E0106"), ("1:38", "E0105")]);
}

#[test]
fn missing_root_name() {
    let manifest = "sources = [\"src/*.f90\"]\n[[root]]\nindependents = [\"x\"]\n";
    assert_user_error(manifest, &[("2:1", "E0109")]);
}

#[test]
fn unknown_mode() {
    let manifest = format!("sources = [\"src/*.f90\"]\n[options]\nmodes = [\"adjiont\"]\n{ROOT}");
    assert_user_error(&manifest, &[("3:10", "E0107")]);
    let dir = project(&manifest);
    let text = stderr(&adgen(dir.path(), &["diff"]));
    assert!(text.contains("did you mean `adjoint`?"), "{text}");
}

#[test]
fn every_problem_in_one_run() {
    let manifest = "sources = [\"nothing/*.f90\"]\nmax-directions = 0\n\
                    fixed-line-length = 60\n\
                    [options]\nmodes = [\"tangent-vector\"]\ndisable = [\"tbr\", \"tbrr\"]\n\
                    [[root]]\nname = \"f\"\nhead = \"f(y)/(x)\"\n\
                    [[root]]\nname = \"g\"\nindependents = [\"x\"]\ndependents = [\"y\"]\ncolor = 1\n";
    assert_user_error(
        manifest,
        &[
            ("1:12", "E0106"),
            ("2:18", "E0114"),
            ("3:21", "E0127"),
            ("5:10", "E0115"),
            ("6:19", "E0108"),
            ("9:8", "E0109"),
            ("14:1", "E0102"),
        ],
    );
}

#[test]
fn missing_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let output = adgen(dir.path(), &["diff"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("error[E0100]"),
        "{}",
        stderr(&output)
    );
    assert!(!dir.path().join("adgen-out").exists());
}

#[test]
fn good_manifest_writes_outputs() {
    let dir = project(&format!("sources = [\"src/*.f90\"]\n{ROOT}"));
    let output = adgen(dir.path(), &["diff", "--out-dir", "gen"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(dir.path().join("gen/adgen-outputs.txt").is_file());
}

#[test]
fn version_and_help() {
    let dir = tempfile::tempdir().unwrap();
    let output = adgen(dir.path(), &["--version"]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with(&format!("adgen {}", env!("CARGO_PKG_VERSION"))),
        "{stdout}"
    );
    let output = adgen(dir.path(), &["--help"]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("diff") && stdout.contains("-head"),
        "{stdout}"
    );
    let output = adgen(dir.path(), &["-help"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("-outputdirectory"));
}

#[test]
fn bad_arguments_are_user_errors() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(adgen(dir.path(), &[]).status.code(), Some(1));
    assert_eq!(
        adgen(dir.path(), &["diff", "--bogus"]).status.code(),
        Some(1)
    );
    assert_eq!(adgen(dir.path(), &["frobnicate"]).status.code(), Some(1));
}

#[test]
fn tapenade_form() {
    let dir = project("");
    // Good arguments: the sources are read and differentiated into -O.
    let output = adgen(
        dir.path(),
        &["-b", "-d", "-head", "f(y)/(x)", "-O", "tap", "src/f.f90"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(dir.path().join("tap/adgen-outputs.txt").is_file());

    let cases: &[(&[&str], &str)] = &[
        (
            &["-b", "-vector", "-head", "f(y)/(x)", "src/f.f90"],
            "E0115",
        ),
        (&["-b", "-head", "f(y)/(x)"], "no source files"),
        (&["-b", "src/f.f90"], "no root"),
        (&["-b", "-head", "f(y)(x)", "src/f.f90"], "invalid -head"),
        (
            &["-b", "-haed", "f(y)/(x)", "src/f.f90"],
            "did you mean `-head`?",
        ),
        (
            &["-b", "-head", "f(y)/(x)", "-O", "nowhere", "missing.f90"],
            "cannot read source",
        ),
    ];
    for (args, expected) in cases {
        let output = adgen(dir.path(), args);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {text}");
        assert!(
            text.contains(expected),
            "{args:?}: expected `{expected}` in:\n{text}"
        );
    }
    assert!(!dir.path().join("nowhere").exists());
}

#[test]
fn panics_are_internal_errors() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_adgen"))
        .arg("--version")
        .current_dir(dir.path())
        .env("ADGEN_DEBUG_PANIC", "1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("internal error"));
}

#[test]
fn unchanged_outputs_are_not_rewritten() {
    let dir = project(&format!("sources = [\"src/*.f90\"]\n{ROOT}"));
    assert!(adgen(dir.path(), &["diff"]).status.success());
    let list = dir.path().join("adgen-out/adgen-outputs.txt");
    let before = std::fs::metadata(&list).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(adgen(dir.path(), &["diff"]).status.success());
    assert_eq!(
        std::fs::metadata(&list).unwrap().modified().unwrap(),
        before
    );
}

/// Runs `adgen diff` on `source` with `manifest` and checks: exit 1, the expected
/// located diagnostic, and an existing output directory left exactly as it was.
fn assert_source_error(source: &str, manifest: &str, expected: &str) {
    let dir = project(manifest);
    std::fs::write(dir.path().join("src/f.f90"), source).unwrap();
    let out = dir.path().join("adgen-out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "from an earlier run").unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "stderr:\n{text}");
    assert!(text.contains(expected), "`{expected}` not in:\n{text}");
    let entries: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        entries,
        vec![std::ffi::OsString::from("keep.txt")],
        "output directory changed"
    );
}

const GOOD_F: &str = "subroutine f(x, y)\n  real(8) :: x, y\n  y = x * x\nend subroutine f\n";

#[test]
fn fortran_syntax_error_is_located() {
    let source = "subroutine f(x, y)\n  real(8) :: x, y\n  y = x * * x\nend subroutine f\n";
    assert_source_error(
        source,
        &format!("sources = [\"src/*.f90\"]\n{ROOT}"),
        "src/f.f90:3:",
    );
}

#[test]
fn unsupported_statement_is_located() {
    let source =
        "subroutine f(x, y)\n  real(8) :: x, y\n  entry g(x, y)\n  y = x * x\nend subroutine f\n";
    assert_source_error(
        source,
        &format!("sources = [\"src/*.f90\"]\n{ROOT}"),
        "src/f.f90:3:3: error[E0401]",
    );
}

#[test]
fn unknown_root_is_located_in_the_manifest() {
    let manifest = "sources = [\"src/*.f90\"]\n[[root]]\nname = \"g\"\nindependents = [\"x\"]\ndependents = [\"y\"]\n";
    assert_source_error(
        GOOD_F,
        manifest,
        "ad.toml:3:8: error[E0120]: root `g` is not defined",
    );
}

#[test]
fn independent_that_is_not_an_argument() {
    let manifest = "sources = [\"src/*.f90\"]\n[[root]]\nname = \"f\"\nindependents = [\"z\"]\ndependents = [\"y\"]\n";
    assert_source_error(
        GOOD_F,
        manifest,
        "ad.toml:4:17: error[E0121]: independent `z` of root `f` is not one of its arguments\n  |\n4 | independents = [\"z\"]\n  |                 ^\n",
    );
}

/// The component paths of a root's structures (INTERFACE.md §1): each wrong one is one
/// error at its entry, all in one run, and a right one (`s%u`, a module variable's
/// `g%k`) is taken.
#[test]
fn component_paths_are_checked_at_their_entries() {
    let source = "module m\n  type t\n    real(8) :: u(2), k\n    integer :: n\n  end type t\n  \
                  type(t) :: g\ncontains\n  subroutine f(s, x, y)\n    type(t), intent(inout) :: s\n    \
                  real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    \
                  y = s%k*sum(s%u)*x*s%n + g%k\n  end subroutine f\nend module m\n";
    let manifest = "sources = [\"src/*.f90\"]\n[[root]]\nname = \"f\"\n\
                    independents = [\"s%w\", \"s%u%z\", \"x%a\", \"s%n\", \"q%u\", \"s%k\", \"g%k\"]\n\
                    dependents = [\"y\"]\n";
    let dir = project(manifest);
    std::fs::write(dir.path().join("src/f.f90"), source).unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "stderr:\n{text}");
    for expected in [
        "ad.toml:4:17: error[E0130]: `s` has no component `w`",
        "ad.toml:4:24: error[E0130]: `s%u` is not a structure, so it has no component `z`",
        "ad.toml:4:33: error[E0130]: `x` is not a structure, so it has no component `a`",
        "ad.toml:4:40: error[E0122]: independent `s%n` of root `f` is not real",
        "ad.toml:4:47: error[E0121]: independent `q%u` of root `f` is not one of its arguments",
    ] {
        assert!(text.contains(expected), "`{expected}` not in:\n{text}");
    }
    assert_eq!(text.matches("error[").count(), 5, "{text}");
    assert!(!text.contains("s%k`") && !text.contains("g%k`"), "{text}");

    // The right ones alone: accepted, both active (a module variable's path too).
    let manifest = "sources = [\"src/*.f90\"]\n[[root]]\nname = \"f\"\n\
                    independents = [\"s%k\", \"g%k\"]\ndependents = [\"y\"]\n";
    std::fs::write(dir.path().join("ad.toml"), manifest).unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "stderr:\n{text}");
    assert!(!text.contains("W0201"), "{text}");
}

/// A warning about one independent is located at its entry in the list.
#[test]
fn inactive_independent_is_located_at_its_entry() {
    let dir = project(
        "sources = [\"src/*.f90\"]\n[[root]]\nname = \"f\"\n\
         independents = [\n  \"x\",\n  \"z\",\n]\ndependents = [\"y\"]\n",
    );
    std::fs::write(
        dir.path().join("src/f.f90"),
        "subroutine f(x, z, y)\n  real(8), intent(in) :: x, z\n  real(8), intent(out) :: y\n  \
         y = x*x + floor(z)\nend subroutine f\n",
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        text.contains("ad.toml:6:3: warning[W0201]: independent `z`"),
        "{text}"
    );
    // A warning shows the manifest line, as an error does.
    assert!(text.contains("6 |   \"z\",\n  |   ^\n"), "{text}");
}

/// Problems that only the sources reveal (a root no source defines, an independent that
/// is not an input) come out in the same run as the manifest's own problems, each at the
/// value it is about.
#[test]
fn root_problems_come_with_manifest_problems() {
    let dir = project(
        "sources = [\"src/*.f90\"]\nsourcse = 1\n[[root]]\nname = \"g\"\n\
         independents = [\"x\"]\ndependents = [\"y\"]\n[[root]]\nname = \"h\"\n\
         independents = [\"y\"]\ndependents = [\"z\"]\n",
    );
    std::fs::write(
        dir.path().join("src/h.f90"),
        "subroutine h(y, z)\n  real(8), intent(out) :: y\n  real(8), intent(out) :: z\n  \
         y = 1\n  z = 2\nend subroutine h\n",
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    for needle in [
        "ad.toml:2:1: error[E0102]",
        "ad.toml:4:8: error[E0120]",
        "ad.toml:9:17: error[E0123]",
    ] {
        assert_eq!(text.matches(needle).count(), 1, "`{needle}` in:\n{text}");
    }
    assert_eq!(text.matches(": error[").count(), 3, "{text}");
}

/// `--list-sources` and `--list-outputs` print paths and write nothing; `--depfile`
/// writes `OUT/adgen-outputs.txt: manifest sources...`; `--modes` overrides the modes.
#[test]
fn build_system_flags() {
    let dir = project(&format!("sources = [\"src/*.f90\"]\n{ROOT}"));
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let stdout = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    let output = adgen(&root, &["diff", "--list-sources"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), format!("{}/src/f.f90\n", root.display()));

    let output = adgen(&root, &["diff", "--list-outputs", "--modes", "adjoint"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let listed = stdout(&output);
    let out = root.join("adgen-out");
    assert!(
        listed.starts_with(&format!("{}/adgen-outputs.txt\n", out.display())),
        "{listed}"
    );
    assert!(
        listed.contains("/src/f_b.f90\n") && !listed.contains("f_d.f90"),
        "{listed}"
    );
    assert!(!out.exists(), "--list-outputs wrote files");

    let output = adgen(
        &root,
        &["diff", "--depfile", "deps/ad.d", "--modes", "adjoint"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let depfile = std::fs::read_to_string(root.join("deps/ad.d")).unwrap();
    assert_eq!(
        depfile,
        format!(
            "{}/adgen-outputs.txt: \\\n  {r}/ad.toml \\\n  {r}/src/f.f90\n",
            out.display(),
            r = root.display()
        )
    );
    let written: Vec<String> = listed
        .lines()
        .map(|l| {
            l.strip_prefix(&format!("{}/", out.display()))
                .unwrap()
                .to_string()
        })
        .collect();
    for file in &written {
        assert!(out.join(file).is_file(), "`{file}` listed but not written");
    }
    let output = adgen(&root, &["diff", "--modes", "tangnet"]);
    assert_eq!(output.status.code(), Some(1));
}

/// A crate with an `ad.toml`, for `cargo adgen`: `[package.metadata.adgen]` names a
/// manifest when `metadata_manifest` is given.
fn crate_with_manifest(manifest_name: &str, manifest: &str) -> tempfile::TempDir {
    let dir = project(manifest);
    if manifest_name != "ad.toml" {
        std::fs::rename(dir.path().join("ad.toml"), dir.path().join(manifest_name)).unwrap();
    }
    let metadata = if manifest_name == "ad.toml" {
        String::new()
    } else {
        format!("\n[package.metadata.adgen]\nmanifest = \"{manifest_name}\"\n")
    };
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            "[package]\nname = \"ad-crate\"\nversion = \"0.1.0\"\nedition = \"2024\"\n{metadata}\n[workspace]\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
    dir
}

fn cargo_adgen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-adgen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cargo-adgen runs")
}

/// `cargo adgen expand` prints the derivatives of the crate in the current directory and
/// `cargo adgen check` reports problems with exit status 1, finding the manifest through
/// `cargo metadata`.
#[test]
fn cargo_subcommand_expand_and_check() {
    let dir = crate_with_manifest("ad.toml", &format!("sources = [\"src/*.f90\"]\n{ROOT}"));
    let output = cargo_adgen(dir.path(), &["adgen", "expand"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout.contains("! ===== src/f_d.f90 ====="), "{stdout}");
    assert!(stdout.contains("subroutine f_b(x, xb, y, yb)"), "{stdout}");
    assert!(!stdout.contains("adgen_runtime"), "{stdout}");
    let output = cargo_adgen(&dir.path().join("src"), &["expand", "--bindings"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("pub fn f_b("), "{stdout}");

    let output = cargo_adgen(dir.path(), &["adgen", "check"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("ad.toml ok"),
        "{}",
        stderr(&output)
    );

    // A manifest named in [package.metadata.adgen], with a root no source defines.
    let dir = crate_with_manifest(
        "derivatives.toml",
        "sources = [\"src/*.f90\"]\n[[root]]\nname = \"g\"\nindependents = [\"x\"]\ndependents = [\"y\"]\n",
    );
    let output = cargo_adgen(dir.path(), &["adgen", "check"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("derivatives.toml:3:8: error[E0120]"),
        "{text}"
    );
    let output = cargo_adgen(dir.path(), &["adgen", "check", "-p", "nothing"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("package `nothing`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn explain_annotates_statements() {
    let dir = project(&format!("sources = [\"src/*.f90\"]\n{ROOT}"));
    let output = adgen(dir.path(), &["explain"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        text.starts_with(
            "f:\n  variables with derivatives: x, y\n  \
             adjoint-out (arguments its adjoint leaves changed): y\n  y = x*x\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("! active before: x; active after: y\n"),
        "{text}"
    );
}

/// `[sizes.PROCEDURE]` (Tapenade's DIFFSIZES): every problem at once, each at its value;
/// a good hint lets the tangent zero a derivative of an array that arrives as `double *`.
#[test]
fn size_hints_are_checked_against_the_sources() {
    let dir = project(
        "sources = [\"src/*.c\"]\n[[root]]\nname = \"acc\"\nindependents = [\"x\"]\n\
         dependents = [\"y\"]\n[sizes.acc]\ny = \"n +\"\nx = \"m*m\"\nn = \"n\"\nz = \"n\"\n\
         [sizes.nowhere]\nv = \"n\"\n",
    );
    std::fs::write(
        dir.path().join("src/acc.c"),
        "void acc(int n, const double *x, double *y)\n{\n    for (int i = 0; i < n; i++)\n        \
         y[i] += x[i] * x[i];\n}\n",
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    for needle in [
        "ad.toml:7:5: error[E0118]: `sizes.acc.y` = \"n +\" is not a size",
        "ad.toml:8:5: error[E0119]: `sizes.acc.x`: the size uses `m`",
        "ad.toml:9:5: error[E0119]: `sizes.acc.n`: `n` is not an assumed-size array",
        "ad.toml:10:5: error[E0119]: `sizes.acc.z`: `acc` has no argument `z`",
        "ad.toml:12:5: error[E0119]: `sizes.nowhere`: no source defines `nowhere`",
    ] {
        assert_eq!(text.matches(needle).count(), 1, "`{needle}` in:\n{text}");
    }
    assert_eq!(text.matches(": error[").count(), 5, "{text}");
    assert!(!dir.path().join("adgen-out").exists());

    // Without a size, `y` (read before it is written) cannot be zeroed: E0504 names the cure.
    let manifest = "sources = [\"src/*.c\"]\n[[root]]\nname = \"acc\"\nindependents = [\"x\"]\n\
                    dependents = [\"y\"]\n";
    std::fs::write(dir.path().join("ad.toml"), manifest).unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("error[E0504]"), "{text}");
    assert!(text.contains("`[sizes.acc]` then `y = \"n\"`"), "{text}");
    std::fs::write(
        dir.path().join("ad.toml"),
        format!("{manifest}[sizes.acc]\ny = \"n\"\nx = \"n\"\n"),
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(!text.contains("W0501"), "{text}");
    let tangent = std::fs::read_to_string(dir.path().join("adgen-out/src/acc_d.c")).unwrap();
    assert!(tangent.contains("yd[adgen_i1_0] = 0.0;"), "{tangent}");
}

/// A successful `adgen diff` ends with one summary line on stderr (roots and modes,
/// files written and unchanged, time); `-v` lists each file, `-q` prints nothing.
#[test]
fn diff_prints_a_summary_that_q_silences_and_v_details() {
    let dir = project(
        "sources = [\"src/*.f90\"]\n[[root]]\nname = \"f\"\nindependents = [\"x\"]\n\
         dependents = [\"y\"]\nmodes = [\"adjoint\"]\n",
    );
    let first = adgen(dir.path(), &["diff"]);
    let text = stderr(&first);
    assert!(first.status.success(), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with(
            "adgen: differentiated f (adjoint) into adgen-out: 2 files written, 0 unchanged ("
        ),
        "{text}"
    );
    let again = adgen(dir.path(), &["diff", "-v"]);
    let text = stderr(&again);
    assert!(text.contains(": 0 files written, 2 unchanged ("), "{text}");
    assert!(text.contains("\n  unchanged  src/f_b.f90\n"), "{text}");
    assert!(
        text.contains("\n  unchanged  adgen-outputs.txt\n"),
        "{text}"
    );
    let quiet = adgen(dir.path(), &["diff", "-q"]);
    assert!(quiet.status.success());
    assert_eq!(stderr(&quiet), "");
}

/// `adgen init` proposes the template's heat model as a root with its real inputs and
/// outputs; the manifest it writes differentiates unchanged; it never overwrites one.
#[test]
fn init_writes_a_manifest_that_differentiates_the_template() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::copy(
        repo.join("template-project/src/heat.f90"),
        dir.path().join("src/heat.f90"),
    )
    .unwrap();
    let init = adgen(dir.path(), &["init"]);
    assert!(init.status.success(), "{}", stderr(&init));
    let manifest = std::fs::read_to_string(dir.path().join("ad.toml")).unwrap();
    assert!(
        manifest.contains("sources = [\"src/heat.f90\"]\n"),
        "{manifest}"
    );
    assert!(
        manifest.contains(
            "[[root]]\nname = \"heat\"\nindependents = [\"u0\", \"k\", \"target\"]\n\
             dependents = [\"j\"]\n"
        ),
        "{manifest}"
    );
    let diff = adgen(dir.path(), &["diff"]);
    assert!(diff.status.success(), "{}", stderr(&diff));
    assert!(dir.path().join("adgen-out/src/heat_b.f90").is_file());
    let again = adgen(dir.path(), &["init"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("error[E0905]: `ad.toml` already exists"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("ad.toml")).unwrap(),
        manifest
    );
    // Sources named explicitly, the manifest in another folder: paths relative to it.
    let config = dir.path().join("config");
    std::fs::create_dir(&config).unwrap();
    let init = adgen(
        dir.path(),
        &["init", "src/heat.f90", "--manifest", "config/ad.toml"],
    );
    assert!(init.status.success(), "{}", stderr(&init));
    let manifest = std::fs::read_to_string(config.join("ad.toml")).unwrap();
    assert!(
        manifest.contains("sources = [\"../src/heat.f90\"]\n"),
        "{manifest}"
    );
    let diff = adgen(&config, &["diff"]);
    assert!(diff.status.success(), "{}", stderr(&diff));
    assert!(config.join("adgen-out/_parent/src/heat_b.f90").is_file());
}

/// A model kept in module variables, with a debugging `#ifdef` in a `.f95` (as Kämpf's
/// shallow-water model is written): `adgen init` reads it as gfortran's -cpp would and
/// says so in the manifest (`preprocess = true`), and proposes for a root without
/// arguments the module variables it reads before writing and those it writes; the
/// manifest it writes differentiates as it is.
#[test]
fn init_reads_directives_and_proposes_module_variables_for_a_root_without_arguments() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("model.f95"),
        "module state\n  real :: eta(10), etan(10), dt = 0.1, work\nend module state\n\
         module steps\n  use state\ncontains\n  subroutine step\n    integer :: k\n    \
         do k = 2, 9\n      work = eta(k+1) - eta(k-1)\n      etan(k) = eta(k) - dt*work\n\
         #ifdef DBG\n      print *, k, etan(k)\n#endif\n    end do\n  end subroutine step\n\
         end module steps\n",
    )
    .unwrap();
    let init = adgen(dir.path(), &["init"]);
    assert!(init.status.success(), "{}", stderr(&init));
    let manifest = std::fs::read_to_string(dir.path().join("ad.toml")).unwrap();
    assert!(manifest.contains("\npreprocess = true\n"), "{manifest}");
    assert!(
        manifest.contains(
            "[[root]]\nname = \"step\"\nindependents = [\"eta\", \"dt\"]\n\
             dependents = [\"work\", \"etan\"]\n"
        ),
        "{manifest}"
    );
    let diff = adgen(dir.path(), &["diff"]);
    assert!(diff.status.success(), "{}", stderr(&diff));
}

/// A TOML syntax error is one error at its cause: a missing `]` is reported at the `[`
/// it leaves open (the parser's own report was seven errors, from the next line on).
#[test]
fn a_toml_syntax_error_is_one_error_at_its_cause() {
    for (manifest, expected) in [
        (
            "sources = [\"src/*.f90\"\n[[root]]\nname = \"f\"\nindependents = [\"x\"]\n\
             dependents = [\"y\"]\n",
            "ad.toml:1:11: error[E0101]: invalid TOML: this `[` is not closed",
        ),
        (
            "sources = [\"src/*.f90\"] # a [ in a comment\n[[root]\nname = \"f\"\n",
            "ad.toml:2:8: error[E0101]: invalid TOML: unclosed array table",
        ),
        (
            "sources = [\"src/[ab].f90\"]\nx = = 3\n",
            "ad.toml:2:5: error[E0101]: invalid TOML: extra `=`",
        ),
    ] {
        let dir = project(manifest);
        let output = adgen(dir.path(), &["diff"]);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{text}");
        assert_eq!(text.matches("error[").count(), 1, "{text}");
        assert!(text.starts_with(expected), "{text}");
    }
}

/// A size hint for a Fortran procedure that no root reaches is accepted (the procedure
/// is checked before unreached ones are dropped); `a(lda, *)` takes it in its last
/// dimension.
#[test]
fn size_hint_of_an_unreached_fortran_procedure() {
    let dir = project(
        "sources = [\"src/*.f90\"]\n[[root]]\nname = \"f\"\nindependents = [\"x\"]\n\
         dependents = [\"y\"]\n[sizes.g]\na = \"n\"\n",
    );
    std::fs::write(
        dir.path().join("src/g.f90"),
        "subroutine g(lda, n, a)\n  integer :: lda, n\n  real(8) :: a(lda, *)\n  \
         a(1, n) = 0\nend subroutine g\n",
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff", "-q"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

/// Diagnostics are bounded per cause (issue 16): a list of 2,000 bad entries gives three
/// errors and one that counts the rest, and long lines are shown as a window around the
/// column (it was 4,000 errors, each quoting the whole line: 143 MB of stderr).
#[test]
fn many_bad_entries_are_a_bounded_report() {
    let globs: Vec<String> = (0..2000).map(|i| format!("\"x{i}/*.f90\"")).collect();
    let names: Vec<String> = (0..2000).map(|i| format!("\"1a{i}\"")).collect();
    let dir = project(&format!(
        "sources = [{}]\n[[root]]\nname = \"f\"\nindependents = [{}]\ndependents = [\"y\"]\n",
        globs.join(", "),
        names.join(", ")
    ));
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(text.len() < 10_000, "{} bytes", text.len());
    assert_eq!(text.matches("error[E0106]").count(), 4, "{text}");
    assert_eq!(text.matches("error[E0111]").count(), 4, "{text}");
    assert!(text.contains("error[E0106]: and 1997 more errors like these on line 1"));
    assert!(text.contains("error[E0111]: and 1997 more errors like these on line 4"));
}

/// Sources anywhere: an absolute path, a symlinked folder, and two sources with one file
/// name in different folders; every derivative stays inside `--out-dir`, apart from the
/// others, and a second run writes nothing new.
#[cfg(unix)]
#[test]
fn sources_by_absolute_path_symlink_and_same_name() {
    let elsewhere = tempfile::tempdir().unwrap();
    let far = elsewhere.path().join("model.f90");
    std::fs::write(
        &far,
        "subroutine g(x, y)\n  real(8) :: x, y\n  y = 2 * x\nend subroutine g\n",
    )
    .unwrap();
    let dir = project("");
    std::fs::create_dir_all(dir.path().join("real/lib")).unwrap();
    std::fs::write(
        dir.path().join("real/lib/model.f90"),
        "subroutine h(x, y)\n  real(8) :: x, y\n  y = 3 * x\nend subroutine h\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("linked")).unwrap();
    std::fs::write(
        dir.path().join("ad.toml"),
        format!(
            "sources = [\"{}\", \"linked/lib/*.f90\", \"src/*.f90\"]\n{ROOT}\
             [[root]]\nname = \"g\"\nindependents = [\"x\"]\ndependents = [\"y\"]\n\
             [[root]]\nname = \"h\"\nindependents = [\"x\"]\ndependents = [\"y\"]\n",
            far.display()
        ),
    )
    .unwrap();
    let first = adgen(dir.path(), &["diff", "-v"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let list = std::fs::read_to_string(dir.path().join("adgen-out/adgen-outputs.txt")).unwrap();
    let far_stem = format!("_root{}", elsewhere.path().join("model_b.f90").display());
    for expected in ["linked/lib/model_b.f90", "src/f_b.f90", far_stem.as_str()] {
        assert!(
            list.lines().any(|l| l == expected),
            "{expected} not in:\n{list}"
        );
        assert!(dir.path().join("adgen-out").join(expected).is_file());
    }
    let again = adgen(dir.path(), &["diff", "-v"]);
    assert!(
        stderr(&again).contains(": 0 files written,"),
        "{}",
        stderr(&again)
    );
}

/// An option accepted but without effect yet is a warning at its value, never ignored
/// silently.
#[test]
fn max_directions_without_vector_modes_is_warned_of() {
    let dir = project(&format!(
        "sources = [\"src/*.f90\"]\nmax-directions = 4\n{ROOT}"
    ));
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        text.contains("ad.toml:2:18: warning[W0105]: `max-directions` has no effect yet"),
        "{text}"
    );
}

/// An array of structs that arrives as a pointer (`struct pt *p`) is sized by its name:
/// E0507 names `p` once (not each member `p%x`), and `[sizes.f] p = "n"` sizes every
/// member's save.
#[test]
fn an_array_of_structs_is_sized_by_its_name() {
    let manifest = "sources = [\"src/*.c\"]\n[[root]]\nname = \"run\"\nindependents = [\"p\"]\n\
                    dependents = [\"p\"]\nmodes = [\"adjoint\"]\n";
    let dir = project(manifest);
    std::fs::write(
        dir.path().join("src/pts.c"),
        "struct pt { double x, v; };\n\
         static void step(int n, struct pt *p)\n{\n    for (int i = 0; i < n; i++) {\n        \
         struct pt *b = &p[i];\n        b->v -= sin(b->x);\n        b->x += b->v * b->v;\n    }\n}\n\
         void run(int n, struct pt *p)\n{\n    for (int k = 0; k < 3; k++)\n        step(n, p);\n}\n",
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert_eq!(text.matches("error[E0507]").count(), 1, "{text}");
    assert!(text.contains("`[sizes.run]` then `p = \"n\"`"), "{text}");
    std::fs::write(
        dir.path().join("ad.toml"),
        format!("{manifest}[sizes.run]\np = \"n\"\n"),
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let b = std::fs::read_to_string(dir.path().join("adgen-out/src/pts_b.c")).unwrap();
    // `run` saves every member of `p`'s elements before each call of `step`.
    let run = &b[b
        .find("void run_b(int n, struct pt *p, struct pt_b *pb) {")
        .unwrap()..];
    assert!(
        run.contains("].x);") && run.contains("].v);") && run.contains("n - 1"),
        "{b}"
    );
}

/// A matrix of row pointers (`double **a`) is sized by its rows and row length: the
/// advice says so, a pair is refused for a plain array, and a local `double **` is one
/// clear refusal.
#[test]
fn a_matrix_of_row_pointers_is_sized_by_rows_and_row_length() {
    let manifest = "sources = [\"src/*.c\"]\n[[root]]\nname = \"run\"\nindependents = [\"a\"]\n\
                    dependents = [\"y\"]\nmodes = [\"adjoint\"]\n";
    let dir = project(manifest);
    std::fs::write(
        dir.path().join("src/m.c"),
        "void run(int n, int m, double **a, double *y)\n{\n    \
         for (int i = 0; i < n; i++)\n        for (int j = 0; j < m; j++)\n            \
         y[i] += a[i][j] * a[i][j];\n}\n",
    )
    .unwrap();
    // The root's input: its adjoint is added to, which W0501 says, with both sizes.
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(text.contains("warning[W0501]"), "{text}");
    assert!(
        text.contains("`[sizes.run]` then a = [\"...\", \"...\"]"),
        "{text}"
    );
    let sized = |hint: &str| {
        std::fs::write(
            dir.path().join("ad.toml"),
            format!("{manifest}[sizes.run]\n{hint}\n"),
        )
        .unwrap();
        adgen(dir.path(), &["diff"])
    };
    let output = sized("a = [\"n\", \"m\"]\ny = [\"n\", \"m\"]");
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("error[E0119]") && text.contains("not a matrix of row pointers"),
        "{text}"
    );
    let output = sized("a = [\"n\", \"m\"]");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stderr(&output).contains("W0501"), "{}", stderr(&output));
    let b = std::fs::read_to_string(dir.path().join("adgen-out/src/m_b.c")).unwrap();
    // Zeroed row by row: `n` rows of `m`.
    let zero = b
        .lines()
        .position(|l| l.contains("ab[adgen_i") && l.ends_with("= 0.0;"));
    let lines: Vec<&str> = b.lines().collect();
    let zero = zero.expect("ab is zeroed");
    assert!(
        lines[zero - 2].contains("<= n - 1;") && lines[zero - 1].contains("<= m - 1;"),
        "{b}"
    );
    assert!(
        b.contains("void run_b(int n, int m, double **a, double **ab, double *y, double *yb)"),
        "{b}"
    );
    assert!(b.contains("ab[i][j] = ab[i][j] + "), "{b}");
    std::fs::write(
        dir.path().join("src/m.c"),
        "void run(int n, int m, double **a, double *y)\n{\n    double **w = a;\n    \
         *y = w[0][0] * a[n - 1][m - 1];\n}\n",
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert_eq!(text.matches("error[").count(), 1, "{text}");
    assert!(text.contains("m.c:3:"), "{text}");
}

/// A `.f90` source written for `gfortran -cpp` (model codes select their physics with
/// `#ifdef` and `#if`): `preprocess = true` reads it as gfortran does, with the
/// manifest's `defines` as `-D`; the derivative is that of the branches kept, compiled
/// and checked against the exact derivative. Without `preprocess`, one error says what
/// to add; a malformed define is an error at its entry.
#[test]
fn preprocess_and_defines_select_the_branches() {
    let source = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n\
#ifdef CUBIC\n  y = x**3\n#else\n  y = x**2\n#endif\n\
#if SCALE == 2\n  y = 2*y\n#endif\n  y = y + SHIFT*x\nend subroutine f\n";
    let manifest = |extra: &str| {
        format!(
            "sources = [\"src/*.f90\"]\n{extra}\n[[root]]\nname = \"f\"\n\
             independents = [\"x\"]\ndependents = [\"y\"]\n"
        )
    };
    // Not preprocessed: one error, with the key to add.
    let dir = project(&manifest(""));
    std::fs::write(dir.path().join("src/f.f90"), source).unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("error[E0201]"), "{text}");
    assert!(text.contains("`preprocess = true`"), "{text}");

    // A define that is not NAME or NAME=VALUE.
    std::fs::write(
        dir.path().join("ad.toml"),
        manifest("preprocess = true\ndefines = [\"CUBIC\", \"2X=1\"]"),
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff"]);
    let text = stderr(&output);
    assert!(
        text.contains("ad.toml:3:21: error[E0131]: `defines` entry `2X=1`"),
        "{text}"
    );

    // Both branches chosen by the defines, and a macro read as it expands (W0405):
    // y = 2*x**3 + 0.5*x, dy/dx = 6*x**2 + 0.5.
    std::fs::write(
        dir.path().join("ad.toml"),
        manifest("preprocess = true\ndefines = [\"CUBIC\", \"SCALE=2\", \"SHIFT=0.5d0\"]"),
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff", "--modes", "tangent"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("src/f.f90:12:1: warning[W0405]"),
        "{}",
        stderr(&output)
    );
    let out = dir.path().join("adgen-out");
    let tangent = std::fs::read_to_string(out.join("src/f_d.f90")).unwrap();
    assert!(
        tangent.contains("y = x**3") && !tangent.contains("y = x**2"),
        "{tangent}"
    );
    assert!(tangent.contains("y = 2*y"), "{tangent}");
    assert!(tangent.contains("0.5d0*x"), "{tangent}");
    std::fs::write(
        dir.path().join("main.f90"),
        "program main\n  real(8) :: x, xd, y, yd\n  x = 1.5d0\n  xd = 1d0\n  \
         call f_d(x, xd, y, yd)\n  print '(2es24.16)', y, yd\nend program main\n",
    )
    .unwrap();
    let built = Command::new("gfortran")
        .current_dir(dir.path())
        .args([
            "-Wall",
            "-cpp",
            "-DCUBIC",
            "-DSCALE=2",
            "-DSHIFT=0.5d0",
            "src/f.f90",
        ])
        .arg("adgen-out/src/f_d.f90")
        .args(["main.f90", "-o", "main"])
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    let run = Command::new(dir.path().join("main")).output().unwrap();
    let printed = String::from_utf8_lossy(&run.stdout);
    let values: Vec<f64> = printed
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(
        (values[0] - (2.0 * 1.5f64.powi(3) + 0.75)).abs() < 1e-12,
        "{printed}"
    );
    assert!(
        (values[1] - (6.0 * 1.5f64.powi(2) + 0.5)).abs() < 1e-12,
        "{printed}"
    );
}

/// A library written once and included per kind (jacobwilliams/quadpack's
/// `quadpack_double.F90`: `#define MOD_INCLUDE` then `#include "quadpack_generic.F90"`,
/// whose own `#ifndef MOD_INCLUDE` drops its MODULE lines): the included file's
/// directives are the preprocessor's, with the macros defined where it is included. Its
/// diagnostics point into it, at its own lines.
#[test]
fn an_included_file_with_directives_is_preprocessed_where_it_is_included() {
    let manifest = "sources = [\"src/scale_double.F90\"]\n[[root]]\nname = \"scale2\"\n\
                    independents = [\"x\"]\ndependents = [\"y\"]\n";
    let dir = project(manifest);
    std::fs::write(
        dir.path().join("src/scale_double.F90"),
        "module scale_double\n  implicit none\n  integer, parameter :: wp = kind(1.0d0)\n\
         #define MOD_INCLUDE\n#include \"scale_generic.inc\"\nend module scale_double\n",
    )
    .unwrap();
    let generic = "#ifndef MOD_INCLUDE\nmodule scale_generic\n  implicit none\n  \
                   integer, parameter :: wp = kind(1.0)\n#endif\ncontains\n  \
                   subroutine scale2(x, y)\n    real(wp), intent(in) :: x\n    \
                   real(wp), intent(out) :: y\n    y = 3*x**2\n  end subroutine scale2\n\
                   #ifndef MOD_INCLUDE\nend module scale_generic\n#endif\n";
    std::fs::write(dir.path().join("src/scale_generic.inc"), generic).unwrap();
    let output = adgen(dir.path(), &["diff", "--modes", "tangent"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let tangent =
        std::fs::read_to_string(dir.path().join("adgen-out/src/scale_double_d.f90")).unwrap();
    assert!(tangent.contains("subroutine scale2_d"), "{tangent}");
    assert!(!tangent.contains("scale_generic"), "{tangent}");
    // An error in the included file is said at its line there.
    std::fs::write(
        dir.path().join("src/scale_generic.inc"),
        generic.replace("y = 3*x**2", "y = 3*z**2"),
    )
    .unwrap();
    let output = adgen(dir.path(), &["diff", "--modes", "tangent"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("scale_generic.inc:10:11: error[E0301]"),
        "{text}"
    );
}
