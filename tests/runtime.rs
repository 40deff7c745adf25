//! The bundled runtime, compiled by the real gcc and gfortran from the files adgen
//! writes (`adgen::runtime::runtime_files`), and exercised by the test programs in
//! `build-support/runtime/tests/`: every push/pop/look routine from Fortran in LIFO
//! order, repeated access, growth, statistics, two threads at once from C, the abort on
//! underflow, and the push/pop matching of `-DADGEN_TAPE_CHECK`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TAPE_TEST: &str = include_str!("../build-support/runtime/tests/tape_test.f90");
const THREADS_TEST: &str = include_str!("../build-support/runtime/tests/threads_test.c");
const UNDERFLOW_TEST: &str = include_str!("../build-support/runtime/tests/underflow_test.c");
const CHECK_MODE_TEST: &str = include_str!("../build-support/runtime/tests/check_mode_test.c");

/// Strict flags: the runtime must compile without a single warning.
const C_FLAGS: &[&str] = &["-Wall", "-Wextra", "-pedantic", "-Werror", "-O2"];
const FORTRAN_FLAGS: &[&str] = &["-Wall", "-Wextra", "-Werror", "-O2"];

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

fn run(dir: &Path, program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
}

fn run_ok(dir: &Path, program: &str, args: &[&str]) -> String {
    let output = run(dir, program, args);
    assert!(
        output.status.success(),
        "{program} {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("the test programs print ASCII")
}

/// Writes the runtime files into a fresh directory and compiles the C part with
/// `-std=<c_std>`. The object files get distinct names: `adgen_runtime.c` and
/// `adgen_runtime.f90` would both default to `adgen_runtime.o`.
fn runtime_dir(c_std: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let files = adgen::runtime::runtime_files(true);
    assert_eq!(files.len(), 3);
    for file in &files {
        std::fs::write(dir.path().join(&file.path), &file.contents).expect("write runtime");
    }
    let mut args = vec![format!("-std={c_std}")];
    args.extend(C_FLAGS.iter().map(|s| s.to_string()));
    args.extend(["-c", "adgen_runtime.c", "-o", "runtime_c.o"].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_ok(dir.path(), "gcc", &args);
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write test program");
    path
}

#[test]
fn fortran_program_uses_every_routine() {
    if !have("gcc") || !have("gfortran") {
        eprintln!("gcc or gfortran not found: skipping");
        return;
    }
    for c_std in ["c99", "c11"] {
        let dir = runtime_dir(c_std);
        let path = dir.path();
        write(path, "tape_test.f90", TAPE_TEST);
        let compile = |source: &str, object: &str| {
            let mut args = FORTRAN_FLAGS.to_vec();
            args.extend(["-c", source, "-o", object]);
            run_ok(path, "gfortran", &args);
        };
        compile("adgen_runtime.f90", "runtime_f.o");
        compile("tape_test.f90", "tape_test.o");
        run_ok(
            path,
            "gfortran",
            &[
                "tape_test.o",
                "runtime_f.o",
                "runtime_c.o",
                "-o",
                "tape_test",
            ],
        );
        let stdout = run_ok(path, "./tape_test", &[]);
        assert_eq!(
            stdout,
            "\
size after pushes: 96
look integer4 (array top): 40, size 96
integer4 array: 10 20 30 40
real4 array: -1.0  0.0  1.0
real8 array:  0.25  0.50  0.75  1.00  1.25
look control: 255
control: 255
control: 3
look boolean: F
boolean: F
boolean: T
integer8: 1099511627776
integer4: -7
real4:  2.5
look real8: 1.50
real8: 1.50
size 0, peak 96, traffic 96
repeat 1: 8.0 7.0, size 0
repeat 2: 8.0 7.0, size 0
repeat 3: 8.0 7.0, size 0
after repeat: 1 8.0 7.0, size 0
growth: wrong 0, peak 8001000, size 0
",
            "with the C runtime compiled as {c_std}"
        );
    }
}

#[test]
fn each_thread_has_its_own_tape() {
    if !have("gcc") {
        eprintln!("gcc not found: skipping");
        return;
    }
    let dir = runtime_dir("c11");
    let path = dir.path();
    write(path, "threads_test.c", THREADS_TEST);
    let mut args = vec!["-std=c11"];
    args.extend(C_FLAGS);
    args.extend([
        "-pthread",
        "-I.",
        "threads_test.c",
        "runtime_c.o",
        "-o",
        "threads_test",
    ]);
    run_ok(path, "gcc", &args);
    let stdout = run_ok(path, "./threads_test", &[]);
    // 200000 reals (8 bytes) and 200000 control bytes per thread; nothing on main's tape.
    assert_eq!(
        stdout,
        "\
thread 1: wrong 0, peak 1800000, traffic 1800000, size 0
thread 2: wrong 0, peak 1800000, traffic 1800000, size 0
main thread: peak 0, traffic 0
"
    );
}

#[test]
fn popping_an_empty_tape_aborts_with_a_message() {
    if !have("gcc") {
        eprintln!("gcc not found: skipping");
        return;
    }
    let dir = runtime_dir("c99");
    let path = dir.path();
    write(path, "underflow_test.c", UNDERFLOW_TEST);
    let mut args = vec!["-std=c99"];
    args.extend(C_FLAGS);
    args.extend([
        "-I.",
        "underflow_test.c",
        "runtime_c.o",
        "-o",
        "underflow_test",
    ]);
    run_ok(path, "gcc", &args);
    let output = run(path, "./underflow_test", &[]);
    assert!(!output.status.success());
    assert!(
        output.stdout.is_empty(),
        "the program went on after the bad pop"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "adgen runtime: look or pop past the bottom of the tape (real8, 8 bytes; \
             the tape holds 0 bytes)"
        ),
        "{stderr}"
    );
}

#[test]
fn check_mode_names_a_mismatched_pop() {
    if !have("gcc") {
        eprintln!("gcc not found: skipping");
        return;
    }
    let dir = runtime_dir("c99");
    let path = dir.path();
    write(path, "check_mode_test.c", CHECK_MODE_TEST);
    let mut args = vec!["-std=c99", "-DADGEN_TAPE_CHECK"];
    args.extend(C_FLAGS);
    args.extend([
        "-I.",
        "check_mode_test.c",
        "adgen_runtime.c",
        "-o",
        "check_mode_test",
    ]);
    run_ok(path, "gcc", &args);
    let output = run(path, "./check_mode_test", &[]);
    assert!(!output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), "control 2\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "look or pop does not match the last push (integer4, 4 bytes; the tape holds 17 \
             bytes; its top entry is a real8 of 8 bytes)"
        ),
        "{stderr}"
    );
}
