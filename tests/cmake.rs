//! The CMake package (`cmake/adgenConfig.cmake`) end to end: the CMake template
//! (`template-project/cmake/`) configures, builds and passes `ctest` with Ninja and with
//! Unix Makefiles; a no-change rebuild does not run adgen; touching the Fortran source, a
//! file in an include directory or the manifest does; the manifest's `preprocess` and
//! `defines` reach the compilation of the sources. Each test works on a copy of the template in a temporary directory.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn show(output: &Output) -> String {
    format!(
        "status: {}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn run(cmd: &mut Command) -> Output {
    let output = cmd.output().expect("the command runs");
    assert!(output.status.success(), "{cmd:?}\n{}", show(&output));
    output
}

/// Copies `template-project/cmake` into a new temporary directory.
fn copy_template() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = repo().join("template-project/cmake");
    for entry in walkdir::WalkDir::new(&from).sort_by_file_name() {
        let entry = entry.unwrap();
        let dest = dir
            .path()
            .join("project")
            .join(entry.path().strip_prefix(&from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
    dir
}

/// `cmake -S source -B build -G generator` with adgen's executable.
fn configure(source: &Path, build: &Path, generator: &str) -> Command {
    let mut cmd = Command::new("cmake");
    cmd.arg("-S")
        .arg(source)
        .arg("-B")
        .arg(build)
        .args(["-G", generator])
        .arg(format!(
            "-DADGEN_EXECUTABLE={}",
            env!("CARGO_BIN_EXE_adgen")
        ));
    cmd
}

/// `-Dadgen_DIR=...`: where `find_package(adgen)` finds the package.
fn package_dir() -> String {
    format!("-Dadgen_DIR={}", repo().join("cmake").display())
}

fn touch(path: &Path) {
    let file = std::fs::File::options().append(true).open(path).unwrap();
    file.set_modified(std::time::SystemTime::now()).unwrap();
}

/// Configures, builds and tests the template with `generator`, then checks what a
/// rebuild runs.
fn template_with(generator: &str) {
    let dir = copy_template();
    let source = dir.path().join("project");
    let build = dir.path().join("build");
    // An include directory: a change in it must rerun adgen (through the DEPFILE).
    std::fs::create_dir_all(source.join("include")).unwrap();
    std::fs::write(source.join("include/constants.inc"), "! constants\n").unwrap();
    // The manifest's `preprocess` and `defines` reach the compilation of the user's
    // source (a source compiled without them stops at its `#error`).
    let manifest = std::fs::read_to_string(source.join("ad.toml")).unwrap();
    std::fs::write(
        source.join("ad.toml"),
        format!(
            "include-dirs = [\"include\"]\npreprocess = true\ndefines = [\"ADGEN_TEMPLATE=1\"]\n\
             {manifest}"
        ),
    )
    .unwrap();
    let model = std::fs::read_to_string(source.join("src/rosenbrock.f90")).unwrap();
    std::fs::write(
        source.join("src/rosenbrock.f90"),
        format!("#if ADGEN_TEMPLATE != 1\n#error \"compiled without the manifest's defines\"\n#endif\n{model}"),
    )
    .unwrap();
    let adgen = env!("CARGO_BIN_EXE_adgen");
    run(configure(&source, &build, generator).arg(package_dir()));
    let build_verbose = || {
        let output = run(Command::new("cmake").arg("--build").arg(&build).arg("-v"));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let ran_adgen = |log: &str| {
        log.lines()
            .any(|l| l.contains(adgen) && l.contains(" diff "))
    };
    let log = build_verbose();
    assert!(ran_adgen(&log), "first build:\n{log}");
    let output = run(Command::new("ctest")
        .arg("--test-dir")
        .arg(&build)
        .arg("--output-on-failure"));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("100% tests passed"), "{text}");

    let log = build_verbose();
    assert!(!ran_adgen(&log), "no-change rebuild ran adgen:\n{log}");
    for input in ["src/rosenbrock.f90", "include/constants.inc", "ad.toml"] {
        std::thread::sleep(std::time::Duration::from_millis(50));
        touch(&source.join(input));
        let log = build_verbose();
        assert!(ran_adgen(&log), "after touching {input}:\n{log}");
        let log = build_verbose();
        assert!(
            !ran_adgen(&log),
            "second rebuild after touching {input}:\n{log}"
        );
    }
    run(Command::new("ctest").arg("--test-dir").arg(&build));
}

#[test]
fn cmake_template_with_ninja() {
    template_with("Ninja");
}

#[test]
fn cmake_template_with_makefiles() {
    template_with("Unix Makefiles");
}

/// `add_subdirectory(adgen)` works like `find_package`; MODES and OUTPUT_DIR are obeyed.
#[test]
fn add_subdirectory_with_modes_and_output_dir() {
    let dir = copy_template();
    let source = dir.path().join("project");
    let repo_path = repo().display().to_string().replace('\\', "/");
    std::fs::write(
        source.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.20)\nproject(p LANGUAGES C Fortran)\n\
             add_subdirectory(\"{repo_path}\" adgen)\n\
             add_ad_library(adjoint_only MANIFEST ad.toml MODES adjoint OUTPUT_DIR generated)\n"
        ),
    )
    .unwrap();
    let build = dir.path().join("build");
    run(&mut configure(&source, &build, "Ninja"));
    run(Command::new("cmake").arg("--build").arg(&build));
    let generated = build.join("generated");
    assert!(generated.join("src/rosenbrock_b.f90").is_file());
    assert!(!generated.join("src/rosenbrock_d.f90").exists());
    assert!(generated.join("mod/adgen_runtime.mod").is_file());
    assert!(build.join("libadjoint_only.a").is_file());
}

/// A missing MANIFEST stops the configuration with a message naming it.
#[test]
fn add_subdirectory_and_missing_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("project");
    std::fs::create_dir_all(&source).unwrap();
    let repo_path = repo().display().to_string().replace('\\', "/");
    std::fs::write(
        source.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.20)\nproject(p LANGUAGES C Fortran)\n\
             add_subdirectory(\"{repo_path}\" adgen)\n\
             if(NOT TARGET adgen::adgen OR NOT COMMAND add_ad_library)\n  \
             message(FATAL_ERROR \"adgen not set up\")\nendif()\n\
             add_ad_library(derivatives MODES adjoint)\n"
        ),
    )
    .unwrap();
    let output = configure(&source, &dir.path().join("build"), "Ninja")
        .output()
        .unwrap();
    let text = show(&output);
    assert!(!output.status.success(), "{text}");
    assert!(
        text.contains("add_ad_library(derivatives): missing required argument MANIFEST"),
        "{text}"
    );
}

/// A manifest in a configuration folder naming sources outside it (`../src/*.f90`, the
/// usual layout): the derivatives are written inside the output directory and build.
#[test]
fn manifest_in_a_subfolder_with_parent_sources() {
    let dir = copy_template();
    let source = dir.path().join("project");
    std::fs::create_dir_all(source.join("config")).unwrap();
    let manifest = std::fs::read_to_string(source.join("ad.toml"))
        .unwrap()
        .replace("sources = [\"src/*.f90\"]", "sources = [\"../src/*.f90\"]");
    assert!(manifest.contains("../src/*.f90"), "{manifest}");
    std::fs::write(source.join("config/ad.toml"), manifest).unwrap();
    std::fs::remove_file(source.join("ad.toml")).unwrap();
    let cmake_lists = std::fs::read_to_string(source.join("CMakeLists.txt"))
        .unwrap()
        .replace("MANIFEST ad.toml", "MANIFEST config/ad.toml");
    std::fs::write(source.join("CMakeLists.txt"), cmake_lists).unwrap();
    let build = dir.path().join("build");
    run(configure(&source, &build, "Ninja").arg(package_dir()));
    run(Command::new("cmake").arg("--build").arg(&build));
    run(Command::new("ctest").arg("--test-dir").arg(&build));
}

/// A diagnostic at configure time reaches the terminal as adgen prints it (its source
/// snippet and caret intact, not re-wrapped by `message()`), and CMake stops with a
/// one-line summary.
#[test]
fn configure_errors_reach_the_user_intact() {
    let dir = copy_template();
    let source = dir.path().join("project");
    let model = source.join("src/rosenbrock.f90");
    let text = std::fs::read_to_string(&model)
        .unwrap()
        .replace("  f = 0.0d0\n", "  f = 0.0d0 +\n\n  f = (f\n");
    std::fs::write(&model, text).unwrap();
    let build = dir.path().join("build");
    let output = configure(&source, &build, "Ninja")
        .arg(package_dir())
        .output()
        .unwrap();
    assert!(!output.status.success(), "{}", show(&output));
    let printed = String::from_utf8_lossy(&output.stderr);

    // The same run by hand, from the same directory.
    let direct = Command::new(env!("CARGO_BIN_EXE_adgen"))
        .arg("diff")
        .arg("--manifest")
        .arg(source.join("ad.toml"))
        .arg("--out-dir")
        .arg(dir.path().join("by-hand"))
        .arg("--list-outputs")
        .output()
        .unwrap();
    assert_eq!(direct.status.code(), Some(1));
    let expected = String::from_utf8_lossy(&direct.stderr);
    assert!(
        expected.contains("error[") && expected.contains('^'),
        "{expected}"
    );
    assert!(
        printed.contains(expected.as_ref()),
        "adgen's diagnostic:\n{expected}\nis not intact in CMake's output:\n{printed}"
    );
    let summary: Vec<&str> = printed
        .lines()
        .filter(|l| l.contains("its diagnostics are above"))
        .collect();
    assert_eq!(summary.len(), 1, "{printed}");
}

/// A C-only project (`LANGUAGES C`: CMake looks for no Fortran compiler) differentiates
/// and builds a C model, and its driver runs.
#[test]
fn c_only_project_needs_no_fortran() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("project");
    std::fs::create_dir_all(source.join("src")).unwrap();
    std::fs::write(
        source.join("src/cube.c"),
        "void cube(const double *x, double *y)\n{\n    *y = x[0] * x[0] * x[1];\n}\n",
    )
    .unwrap();
    std::fs::write(
        source.join("ad.toml"),
        "sources = [\"src/*.c\"]\n[options]\nmodes = [\"adjoint\"]\n[[root]]\nname = \"cube\"\n\
         independents = [\"x\"]\ndependents = [\"y\"]\n",
    )
    .unwrap();
    std::fs::write(
        source.join("main.c"),
        "#include <stdio.h>\n#include \"src/cube_b.h\"\nint main(void)\n{\n    \
         double x[2] = {2.0, 3.0}, xb[2] = {0.0, 0.0}, y, yb = 1.0;\n    \
         cube_b(x, xb, &y, &yb);\n    printf(\"gradient %g %g\\n\", xb[0], xb[1]);\n    \
         return xb[0] == 12.0 && xb[1] == 4.0 ? 0 : 1;\n}\n",
    )
    .unwrap();
    std::fs::write(
        source.join("CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.20)\nproject(c_only LANGUAGES C)\n\
         find_package(adgen CONFIG REQUIRED)\n\
         add_ad_library(cube_ad MANIFEST ad.toml)\n\
         add_executable(check main.c)\ntarget_link_libraries(check PRIVATE cube_ad)\n",
    )
    .unwrap();
    let build = dir.path().join("build");
    let configured = run(configure(&source, &build, "Ninja").arg(package_dir()));
    assert!(
        !show(&configured).contains("Fortran"),
        "{}",
        show(&configured)
    );
    run(Command::new("cmake").arg("--build").arg(&build));
    let output = run(&mut Command::new(build.join("check")));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("gradient 12 4"),
        "{}",
        show(&output)
    );
}
