//! End to end: the template project builds with Cargo through `adgen::Build`, and `adgen
//! diff` gives byte-identical outputs wherever it runs.
//!
//! The nested Cargo builds share a target directory inside this repository's `target/`
//! so that CI reuses their compiled dependencies.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    // Variables of the outer build must not leak into the nested one.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_MANIFEST_DIR",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

fn show(output: &Output) -> String {
    format!(
        "status: {}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Copies a directory tree, leaving out `target/` and `adgen-out/`.
fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).sort_by_file_name() {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        if rel.starts_with("target") || rel.starts_with("adgen-out") {
            continue;
        }
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// Every file below `dir`, as (relative path, bytes), sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

// Enabled when the differentiator lands: the template's `src/main.rs` links `heat_b_`,
// which only the real tangent/adjoint stages generate.
/// The template crate, as a user would copy it: its build script differentiates the heat
/// model, and its tests check the adjoint gradient against finite differences.
#[test]
fn template_project_builds_and_passes_its_tests() {
    let output = cargo()
        .args(["test", "--release", "--manifest-path"])
        .arg(repo().join("template-project/Cargo.toml"))
        .env("CARGO_TARGET_DIR", repo().join("target/template-project"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
}

/// A package name unique to `dir`. Cargo gives packages of the same name and version in
/// different workspaces the same `OUT_DIR` in a shared target directory, so fixtures that
/// share one must have different names: otherwise concurrent builds overwrite each
/// other's outputs, and a build in a new directory may be taken as fresh.
fn unique_package_name(prefix: &str, dir: &Path) -> String {
    let suffix: String = dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    format!("{prefix}-{}", suffix.to_ascii_lowercase())
}

/// A small crate whose build.rs uses `adgen::Build`, in a temporary directory.
fn fixture(manifest: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let adgen = repo().display().to_string().replace('\\', "/");
    let name = unique_package_name("adgen-fixture", root);
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\
             publish = false\n\n[workspace]\n\n[build-dependencies]\nadgen = {{ path = \"{adgen}\" }}\n"
        ),
    )
    .unwrap();
    // The template's lock file pins the same dependency versions as adgen's own.
    std::fs::copy(
        repo().join("template-project/Cargo.lock"),
        root.join("Cargo.lock"),
    )
    .unwrap();
    std::fs::write(
        root.join("build.rs"),
        "fn main() {\n    adgen::Build::new().manifest(\"ad.toml\").compile();\n}\n",
    )
    .unwrap();
    std::fs::write(root.join("ad.toml"), manifest).unwrap();
    std::fs::create_dir_all(root.join("src/fortran")).unwrap();
    std::fs::write(
        root.join("src/fortran/square.f90"),
        "subroutine square(x, y)\n  implicit none\n  \
         real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  y = x * x\n\
         end subroutine square\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/main.rs"),
        "unsafe extern \"C\" {\n    fn square_(x: *const f64, y: *mut f64);\n    \
         fn square_d_(x: *const f64, xd: *const f64, y: *mut f64, yd: *mut f64);\n}\n\n\
         fn main() {\n    let (mut y, mut yd) = (0.0, 0.0);\n    unsafe { square_(&3.0, &mut y) };\n    \
         println!(\"square(3) = {y}\");\n    unsafe { square_d_(&3.0, &1.0, &mut y, &mut yd) };\n    \
         println!(\"dsquare(3) = {yd}\");\n}\n",
    )
    .unwrap();
    dir
}

fn run_fixture(dir: &Path) -> Output {
    fixture_command(dir).output().unwrap()
}

fn fixture_command(dir: &Path) -> Command {
    let mut cmd = cargo();
    cmd.args(["run", "--release", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", repo().join("target/build-fixture"))
        .env_remove("FC")
        .env_remove("FFLAGS");
    cmd
}

/// `adgen::Build` differentiates and compiles the user's Fortran with gfortran and links
/// the original and its tangent into the crate.
#[test]
fn build_script_compiles_and_links_fortran() {
    let dir = fixture(
        "sources = [\"src/fortran/*.f90\"]\n\n[[root]]\nname = \"square\"\n\
         independents = [\"x\"]\ndependents = [\"y\"]\n",
    );
    let output = run_fixture(dir.path());
    assert!(output.status.success(), "{}", show(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("square(3) = 9"),
        "{}",
        show(&output)
    );
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("dsquare(3) = 6"),
        "{}",
        show(&output)
    );
}

/// `preprocess = true` and `defines` reach the compilers of the user's own sources, as
/// they reached adgen's reading of them: a `.f90` with `#ifdef` compiles (gfortran
/// refuses it without `-cpp`), and the branch the define selects is the one linked and
/// differentiated.
#[test]
fn build_script_preprocesses_with_the_manifest_defines() {
    let dir = fixture(
        "sources = [\"src/fortran/*.f90\"]\npreprocess = true\ndefines = [\"SCALE=2\"]\n\n\
         [[root]]\nname = \"square\"\nindependents = [\"x\"]\ndependents = [\"y\"]\n",
    );
    std::fs::write(
        dir.path().join("src/fortran/square.f90"),
        "subroutine square(x, y)\n  implicit none\n  \
         real(8), intent(in) :: x\n  real(8), intent(out) :: y\n\
         #ifdef SCALE\n  y = 2 * x * x\n#else\n  y = x * x\n#endif\n\
         end subroutine square\n",
    )
    .unwrap();
    let output = run_fixture(dir.path());
    assert!(output.status.success(), "{}", show(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("square(3) = 18"), "{}", show(&output));
    assert!(stdout.contains("dsquare(3) = 12"), "{}", show(&output));
}

/// A C-only manifest needs no Fortran compiler: with `FC` naming one that does not exist,
/// the crate builds, links no libgfortran and runs.
#[test]
fn c_only_crate_builds_without_a_fortran_compiler() {
    let dir = fixture(
        "sources = [\"src/c/*.c\"]\n\n[[root]]\nname = \"cube\"\n\
         independents = [\"x\"]\ndependents = [\"y\"]\n",
    );
    let root = dir.path();
    std::fs::create_dir_all(root.join("src/c")).unwrap();
    std::fs::write(
        root.join("src/c/cube.c"),
        "void cube(const double *x, double *y)\n{\n    *y = x[0] * x[0] * x[1];\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/main.rs"),
        "unsafe extern \"C\" {\n    \
         fn cube_b(x: *const f64, xb: *mut f64, y: *mut f64, yb: *mut f64);\n}\n\n\
         fn main() {\n    let x = [2.0, 3.0];\n    let mut xb = [0.0; 2];\n    \
         let (mut y, mut yb) = (0.0, 1.0);\n    \
         unsafe { cube_b(x.as_ptr(), xb.as_mut_ptr(), &mut y, &mut yb) };\n    \
         println!(\"gradient {xb:?}\");\n}\n",
    )
    .unwrap();
    let output = fixture_command(root)
        .env("FC", "/nonexistent/gfortran")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("gradient [12.0, 4.0]"),
        "{}",
        show(&output)
    );
}

/// A bad manifest fails the build with its diagnostics and one `adgen:` line.
#[test]
fn build_script_reports_manifest_errors() {
    let dir = fixture("sources = [\"src/fortran/*.f90\"]\n\n[[root]]\nnmae = \"square\"\n");
    let output = run_fixture(dir.path());
    let text = show(&output);
    assert!(!output.status.success(), "{text}");
    assert!(
        text.contains("ad.toml:4:1: error[E0102]: unknown key `root.nmae`"),
        "{text}"
    );
    assert!(text.contains("adgen: invalid manifest"), "{text}");
}

/// `FC` is honoured, and compiler failures name the command and show its messages.
#[test]
fn build_script_reports_compiler_errors() {
    let manifest = "sources = [\"src/fortran/*.f90\"]\n\n[[root]]\nname = \"square\"\n\
                    independents = [\"x\"]\ndependents = [\"y\"]\n";
    let dir = fixture(manifest);
    let output = fixture_command(dir.path())
        .env("FC", "/nonexistent/gfortran")
        .output()
        .unwrap();
    let text = show(&output);
    assert!(!output.status.success(), "{text}");
    assert!(
        text.contains("adgen: running") && text.contains("/nonexistent/gfortran"),
        "{text}"
    );

    // FFLAGS reach gfortran: -Werror turns the conversion warning into an error.
    let dir = fixture(manifest);
    std::fs::write(
        dir.path().join("src/fortran/narrow.f90"),
        "subroutine narrow(x, i)\n  real(8), intent(in) :: x\n  integer, intent(out) :: i\n  \
         i = x\nend subroutine narrow\n",
    )
    .unwrap();
    let output = run_fixture(dir.path());
    assert!(output.status.success(), "{}", show(&output));
    let output = fixture_command(dir.path())
        .env("FFLAGS", "-Wconversion -Werror")
        .output()
        .unwrap();
    let text = show(&output);
    assert!(!output.status.success(), "{text}");
    assert!(
        text.contains("adgen: `") && text.contains("failed (exit status: 1)"),
        "{text}"
    );
    assert!(text.contains("narrow.f90"), "{text}");
}

/// Two runs on copies of the template in different directories, one from inside the
/// copy and one from elsewhere with absolute paths, give byte-identical output trees.
#[test]
fn outputs_are_identical_wherever_adgen_runs() {
    let template = repo().join("template-project");
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    let first_copy = first.path().join("template");
    let second_copy = second.path().join("some/deeper/place");
    copy_tree(&template, &first_copy);
    copy_tree(&template, &second_copy);

    let adgen = env!("CARGO_BIN_EXE_adgen");
    let output = Command::new(adgen)
        .args(["diff", "--out-dir", "out"])
        .current_dir(&first_copy)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    let output = Command::new(adgen)
        .arg("diff")
        .arg("--manifest")
        .arg(second_copy.join("ad.toml"))
        .arg("--out-dir")
        .arg(second_copy.join("out"))
        .current_dir(second.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));

    let one = tree(&first_copy.join("out"));
    let two = tree(&second_copy.join("out"));
    assert!(
        one.iter().any(|(p, _)| p == "adgen-outputs.txt"),
        "no outputs list"
    );
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(names(&one), names(&two));
    for ((path, a), (_, b)) in one.iter().zip(&two) {
        assert!(a == b, "`{path}` differs between the two runs");
        let text = String::from_utf8_lossy(a);
        for dir in [first.path(), second.path()] {
            assert!(
                !text.contains(&*dir.to_string_lossy()),
                "`{path}` contains the absolute path `{}`",
                dir.display()
            );
        }
    }
}

/// Copies the template crate to `to`, pointing its adgen dependency at this repository.
fn copy_template(to: &Path, name: &str) {
    copy_tree(&repo().join("template-project"), to);
    let manifest = to.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let adgen = repo().display().to_string().replace('\\', "/");
    let text = text
        .replace(
            "adgen = { path = \"..\" }",
            &format!("adgen = {{ path = \"{adgen}\" }}"),
        )
        .replace("name = \"adgen-template\"", &format!("name = \"{name}\""));
    assert!(
        text.contains(&adgen),
        "the template depends on adgen by path"
    );
    std::fs::write(manifest, text).unwrap();
}

/// The `OUT_DIR` of the build script of the package whose manifest is in `dir`, from
/// `cargo build --message-format=json`.
fn build_out_dir(output: &Output, dir: &Path) -> PathBuf {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let dir = dir.display().to_string();
    let line = stdout
        .lines()
        .find(|l| l.contains("\"build-script-executed\"") && l.contains(&dir))
        .unwrap_or_else(|| panic!("no build script of `{dir}` in:\n{}", show(output)));
    let start = line.find("\"out_dir\":\"").expect("out_dir in the message") + 11;
    let len = line[start..].find('"').expect("end of out_dir");
    PathBuf::from(&line[start..start + len])
}

/// The printable strings of a binary file (as `strings -a -n 4` finds them).
fn strings(path: &Path) -> String {
    let output = Command::new("strings")
        .args(["-a", "-n", "4"])
        .arg(path)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Reproducible builds: the template crate built in two different directories generates
/// byte-identical sources and static libraries, and the library names neither directory,
/// nor this repository, `$HOME` or `$CARGO_HOME`.
#[test]
fn template_builds_reproducibly_in_two_directories() {
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    let mut generated = Vec::new();
    let mut libraries = Vec::new();
    let mut out_dirs = Vec::new();
    for (place, base) in [("one", first.path()), ("elsewhere/two", second.path())] {
        let crate_dir = base.join(place);
        // Distinct names: a shared target directory would otherwise give both copies
        // one `OUT_DIR` and take the second build as fresh.
        copy_template(&crate_dir, &unique_package_name("adgen-template", base));
        let output = cargo()
            .args([
                "build",
                "--release",
                "--message-format=json",
                "--manifest-path",
            ])
            .arg(crate_dir.join("Cargo.toml"))
            // Shared with the other template builds, so adgen compiles once; the two
            // copies still get different `OUT_DIR`s.
            .env("CARGO_TARGET_DIR", repo().join("target/template-project"))
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", show(&output));
        let out_dir = build_out_dir(&output, &crate_dir);
        let library = out_dir.join("adgen-build/libadgen_derivatives.a");
        let text = strings(&library);
        let mut forbidden = vec![
            first.path().display().to_string(),
            second.path().display().to_string(),
            repo().display().to_string(),
        ];
        for var in ["HOME", "CARGO_HOME"] {
            if let Some(v) = std::env::var_os(var).filter(|v| v.len() > 1) {
                forbidden.push(v.to_string_lossy().into_owned());
            }
        }
        for path in &forbidden {
            assert!(
                !text.contains(path.as_str()),
                "`{}` contains `{path}`:\n{}",
                library.display(),
                text.lines()
                    .filter(|l| l.contains(path.as_str()))
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
        generated.push(tree(&out_dir.join("adgen")));
        libraries.push(std::fs::read(&library).unwrap());
        out_dirs.push(out_dir);
    }
    assert_ne!(out_dirs[0], out_dirs[1], "the two builds share one OUT_DIR");
    assert!(
        libraries[0] == libraries[1],
        "the static libraries of the two builds differ"
    );
    assert!(!generated[0].is_empty(), "nothing generated");
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(names(&generated[0]), names(&generated[1]));
    for ((path, a), (_, b)) in generated[0].iter().zip(&generated[1]) {
        assert!(a == b, "generated `{path}` differs between the two builds");
    }
}

/// Whether `cargo build -vv` ran the package's build script.
fn build_script_ran(output: &Output) -> bool {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .any(|l| l.contains("Running `") && l.contains("build-script-build"))
}

/// Sets a file's modification time to now, as `touch` does.
fn touch(path: &Path) {
    let file = std::fs::File::options().append(true).open(path).unwrap();
    file.set_modified(std::time::SystemTime::now()).unwrap();
}

/// A no-change rebuild does not rerun the build script; touching a Fortran source, a file
/// in an include directory (every one is watched until the front-end reads INCLUDE) or
/// the manifest does.
#[test]
fn rebuild_reruns_only_when_inputs_change() {
    let dir = fixture(
        "sources = [\"src/fortran/*.f90\"]\ninclude-dirs = [\"include\"]\n\n[[root]]\n\
         name = \"square\"\nindependents = [\"x\"]\ndependents = [\"y\"]\n",
    );
    std::fs::create_dir_all(dir.path().join("include")).unwrap();
    std::fs::write(dir.path().join("include/constants.inc"), "! constants\n").unwrap();
    let build = || {
        let output = cargo()
            .args(["build", "--release", "-vv", "--manifest-path"])
            .arg(dir.path().join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", repo().join("target/build-fixture"))
            .env_remove("FC")
            .env_remove("FFLAGS")
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", show(&output));
        output
    };
    assert!(build_script_ran(&build()), "first build");
    let again = build();
    assert!(
        !build_script_ran(&again),
        "no-change rebuild:\n{}",
        show(&again)
    );
    for input in ["src/fortran/square.f90", "include/constants.inc", "ad.toml"] {
        std::thread::sleep(std::time::Duration::from_millis(50));
        touch(&dir.path().join(input));
        let output = build();
        assert!(
            build_script_ran(&output),
            "after touching {input}:\n{}",
            show(&output)
        );
        assert!(!build_script_ran(&build()), "rebuild after {input}");
    }
}

/// A manifest with an unknown key, a bad glob, a root that no source defines and an
/// independent that is not an input fails the cargo build, with each problem listed
/// exactly once and located in ad.toml.
#[test]
fn build_script_reports_every_manifest_problem_once() {
    let manifest = "sources = [\"src/fortran/*.f90\", \"bad/[.f90\"]\n\
                    include = [\"inc\"]\n\n\
                    [[root]]\nname = \"cube\"\nindependents = [\"x\"]\ndependents = [\"y\"]\n\n\
                    [[root]]\nname = \"square\"\nindependents = [\"y\"]\ndependents = [\"y\"]\n";
    let dir = fixture(manifest);
    let output = run_fixture(dir.path());
    let text = show(&output);
    assert!(!output.status.success(), "{text}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    for (place, code, words) in [
        ("1:33", "E0105", "bad/[.f90"),
        ("2:1", "E0102", "include"),
        ("5:8", "E0120", "`cube` is not defined"),
        ("11:17", "E0123", "independent `y` of root `square`"),
    ] {
        let needle = format!("ad.toml:{place}: error[{code}]");
        assert_eq!(stderr.matches(&needle).count(), 1, "`{needle}`:\n{text}");
        let line = stderr.lines().find(|l| l.contains(&needle)).unwrap();
        assert!(line.contains(words), "`{needle}` says `{line}`");
    }
    assert_eq!(stderr.matches(": error[").count(), 4, "{text}");
    assert!(text.contains("adgen: invalid manifest: 4 errors"), "{text}");
}

/// `Build::bindings(true)`: the safe bindings of a subroutine root and of a function root
/// link and give the right values, and a slice of the wrong length is refused.
#[test]
fn bindings_of_subroutines_and_functions() {
    let dir = fixture(
        "sources = [\"src/fortran/*.f90\"]\n\n[[root]]\nname = \"square\"\n\
         independents = [\"x\"]\ndependents = [\"y\"]\n\n[[root]]\nname = \"norm2\"\n\
         independents = [\"v\"]\ndependents = [\"norm2\"]\n",
    );
    let root = dir.path();
    std::fs::write(
        root.join("src/fortran/norm2.f90"),
        "function norm2(n, v)\n  implicit none\n  integer, intent(in) :: n\n  \
         real(8), intent(in) :: v(n)\n  real(8) :: norm2\n  integer :: i\n  norm2 = 0.0d0\n  \
         do i = 1, n\n    norm2 = norm2 + v(i) * v(i)\n  end do\nend function norm2\n",
    )
    .unwrap();
    std::fs::write(
        root.join("build.rs"),
        "fn main() {\n    adgen::Build::new().bindings(true).compile();\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/main.rs"),
        r#"include!(concat!(env!("OUT_DIR"), "/adgen/adgen_bindings.rs"));

fn main() {
    let mut y = 0.0;
    derivatives::square(3.0, &mut y).unwrap();
    let (mut xb, mut yb) = (0.0, 1.0);
    derivatives::square_b(3.0, &mut xb, &mut y, &mut yb).unwrap();
    println!("square(3) = {y}, adjoint {xb}");
    let v = [1.0, 2.0, 3.0];
    let value = derivatives::norm2(3, &v).unwrap();
    let mut primal = 0.0;
    let tangent = derivatives::norm2_d(3, &v, &[1.0, 0.0, 0.0], &mut primal).unwrap();
    let mut vb = [0.0; 3];
    let mut weight = 1.0;
    derivatives::norm2_b(3, &v, &mut vb, &mut weight).unwrap();
    println!("norm2 = {value} {primal}, tangent {tangent}, gradient {vb:?}");
    let err = derivatives::norm2(4, &v).unwrap_err();
    println!("error: {err}");
}
"#,
    )
    .unwrap();
    let output = run_fixture(root);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", show(&output));
    assert!(stdout.contains("square(3) = 9, adjoint 6"), "{stdout}");
    assert!(
        stdout.contains("norm2 = 14 14, tangent 2, gradient [2.0, 4.0, 6.0]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("error: `norm2`: argument `v` has 3 elements, expected 4"),
        "{stdout}"
    );
}

/// A manifest in a configuration folder naming sources outside it (`../src/...`), with
/// bindings: a root whose bounds are module and local PARAMETERs gets its binding, a root
/// that cannot be bound gets one warning, and the crate builds and runs.
#[test]
fn parent_sources_and_bindings_with_constant_bounds() {
    let dir = fixture("");
    let root = dir.path();
    std::fs::remove_file(root.join("ad.toml")).unwrap();
    std::fs::create_dir_all(root.join("config")).unwrap();
    std::fs::write(
        root.join("config/ad.toml"),
        "sources = [\"../src/fortran/*.f90\"]\n\n[[root]]\nname = \"smooth\"\n\
         independents = [\"u\"]\ndependents = [\"s\"]\n\n[[root]]\nname = \"total\"\n\
         independents = [\"x\"]\ndependents = [\"t\"]\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/fortran/a_grid.f90"),
        "module grid\n  implicit none\n  integer, parameter :: nx = 3, nh = nx - 1\nend module grid\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/fortran/smooth.f90"),
        "subroutine smooth(u, s)\n  use grid\n  implicit none\n  integer, parameter :: w = 2\n  \
         real(8), intent(in) :: u(nx, w)\n  real(8), intent(out) :: s(0:nh)\n  integer :: i\n  \
         do i = 1, nx\n    s(i - 1) = u(i, 1) * u(i, 2)\n  end do\nend subroutine smooth\n\
         subroutine total(n, x, t)\n  implicit none\n  integer, intent(in) :: n\n  \
         real(8), intent(in) :: x(*)\n  real(8), intent(out) :: t\n  integer :: i\n  t = 0\n  \
         do i = 1, n\n    t = t + x(i)\n  end do\nend subroutine total\n",
    )
    .unwrap();
    std::fs::write(
        root.join("build.rs"),
        "fn main() {\n    adgen::Build::new().manifest(\"config/ad.toml\").bindings(true).compile();\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/main.rs"),
        r#"include!(concat!(env!("OUT_DIR"), "/adgen/adgen_bindings.rs"));

fn main() {
    // u(3, 2) in Fortran order: columns (1, 2, 3) and (4, 5, 6).
    let u = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let mut s = [0.0; 3];
    derivatives::smooth(&u, &mut s).unwrap();
    let mut ub = [0.0; 6];
    let mut sb = [1.0, 1.0, 1.0];
    derivatives::smooth_b(&u, &mut ub, &mut s, &mut sb).unwrap();
    println!("s = {s:?}, gradient {ub:?}");
    let err = derivatives::smooth(&u[..5], &mut s).unwrap_err();
    println!("error: {err}");
}
"#,
    )
    .unwrap();
    let output = run_fixture(root);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{}", show(&output));
    assert!(
        stdout.contains("s = [4.0, 10.0, 18.0], gradient [4.0, 5.0, 6.0, 1.0, 2.0, 3.0]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("error: `smooth`: argument `u` has 5 elements, expected 6"),
        "{stdout}"
    );
    // One warning for the root that has no binding, naming its procedures.
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("no Rust binding"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains("`total`, `total_d`, `total_b`")
            && warnings[0].contains("assumed-size"),
        "{stderr}"
    );
}

/// `fixed-line-length` reaches gfortran too: the fixed-form source's term past column 72
/// is compiled in the original as adgen differentiates it.
#[test]
fn build_script_compiles_fixed_form_with_the_manifest_line_length() {
    let dir = fixture(
        "sources = [\"src/fortran/*.f\"]\nfixed-line-length = 132\n\n[[root]]\nname = \"square\"\n\
         independents = [\"x\"]\ndependents = [\"y\"]\n",
    );
    std::fs::remove_file(dir.path().join("src/fortran/square.f90")).unwrap();
    let long = format!("      Y = X * X{:58}* 2.0D0\n", "");
    assert!(long.find("* 2.0D0").unwrap() >= 72);
    std::fs::write(
        dir.path().join("src/fortran/square.f"),
        format!("      SUBROUTINE SQUARE(X, Y)\n      DOUBLE PRECISION X, Y\n{long}      END\n"),
    )
    .unwrap();
    let output = run_fixture(dir.path());
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(output.status.success(), "{}", show(&output));
    assert!(stdout.contains("square(3) = 18"), "{}", show(&output));
    assert!(stdout.contains("dsquare(3) = 12"), "{}", show(&output));
}
