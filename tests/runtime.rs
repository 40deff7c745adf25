//! The bundled runtime, compiled by the real gcc and gfortran from the files adgen
//! writes (`adgen::runtime::runtime_files`), and exercised by the test programs in
//! `build-support/runtime/tests/`: every push/pop/look routine from Fortran in LIFO
//! order, repeated access, growth, statistics, two threads at once from C, the abort on
//! underflow, the push/pop matching of `-DADGEN_TAPE_CHECK`, and an adjoint printed by
//! the Fortran back-end that uses the runtime.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TAPE_TEST: &str = include_str!("../build-support/runtime/tests/tape_test.f90");
const THREADS_TEST: &str = include_str!("../build-support/runtime/tests/threads_test.c");
const UNDERFLOW_TEST: &str = include_str!("../build-support/runtime/tests/underflow_test.c");
const BINOMIAL_TEST: &str = include_str!("../build-support/runtime/tests/binomial_test.c");
const ADJOINT_DRIVER: &str = include_str!("../build-support/runtime/tests/adjoint_driver.f90");
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
pointer: T, size 0
characters: FG_LN  alpha |beta   8589934592 -5 1.25, size 0
boolean array: TFT, size 0
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

/// The binomial checkpointing schedule (`$AD BINOMIAL-CKP`), played on a simulated
/// loop with snapshots on the real tape: every step turned once, last first, from the
/// state before it; snapshots within the number asked; the fewest re-runs possible;
/// schedules nested in a turn.
#[test]
fn binomial_schedule_reverses_every_step_with_the_fewest_reruns() {
    if !have("gcc") {
        eprintln!("gcc not found: skipping");
        return;
    }
    let dir = runtime_dir("c99");
    let path = dir.path();
    write(path, "binomial_test.c", BINOMIAL_TEST);
    let mut args = vec!["-std=c99"];
    args.extend(C_FLAGS);
    args.extend([
        "-I.",
        "binomial_test.c",
        "runtime_c.o",
        "-o",
        "binomial_test",
    ]);
    run_ok(path, "gcc", &args);
    let stdout = run_ok(path, "./binomial_test", &[]);
    assert!(
        stdout.contains("binomial schedule: all checks passed"),
        "{stdout}"
    );
    // Griewank and Walther's figures: 10 steps, 3 snapshots, 15 re-runs; 1000 steps,
    // 10 snapshots, 3636.
    assert!(
        stdout.contains("steps 10 snapshots 3: 15 steps re-run"),
        "{stdout}"
    );
    assert!(
        stdout.contains("steps 1000 snapshots 10: 3636 steps re-run"),
        "{stdout}"
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

mod adjoint {
    //! A hand-built adjoint of `y = prod(abs(x))` as IL, printed by the back-end: it
    //! pushes values and branch numbers in its forward sweep and pops them backwards.

    use adgen::diag::{FileId, Span};
    use adgen::il::{
        Arg, Attr, BaseType, BinOp, Bound, Decl, DeclKind, DimSpec, Entity, Expr, File, Intent,
        Stmt, StmtKind, SymbolTable, TypeSpec, UnOp, Unit, UnitKind,
    };

    fn decl(kind: DeclKind) -> Decl {
        Decl {
            kind,
            span: Span::default(),
        }
    }

    fn var_decl(spec: TypeSpec, intent: Option<Intent>, names: &[&str], dims: bool) -> Decl {
        let entities = names
            .iter()
            .map(|name| Entity {
                name: name.to_string(),
                dims: dims.then(|| {
                    vec![DimSpec {
                        lower: None,
                        upper: Bound::Expr(Expr::var("n")),
                    }]
                }),
                init: None,
                span: Span::default(),
            })
            .collect();
        decl(DeclKind::Var {
            spec,
            attrs: intent.map(Attr::Intent).into_iter().collect(),
            entities,
        })
    }

    fn stmt(kind: StmtKind) -> Stmt {
        Stmt::generated(kind)
    }

    fn assign(lhs: Expr, rhs: Expr) -> Stmt {
        stmt(StmtKind::Assign { lhs, rhs })
    }

    fn call(name: &str, args: Vec<Expr>) -> Stmt {
        stmt(StmtKind::Call {
            name: name.to_string(),
            args: args.into_iter().map(Arg::positional).collect(),
        })
    }

    fn mul(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Mul, a, b)
    }

    fn if_else(cond: Expr, then: Vec<Stmt>, otherwise: Vec<Stmt>) -> Stmt {
        stmt(StmtKind::If {
            arms: vec![(cond, then)],
            else_body: Some(otherwise),
            logical_if: false,
            name: None,
        })
    }

    pub fn file() -> File {
        let real8 = TypeSpec {
            kind: Some(Expr::int(8)),
            ..TypeSpec::simple(BaseType::Real)
        };
        let integer = TypeSpec::simple(BaseType::Integer);
        let xi = Expr::new(adgen::il::ExprKind::Index("x".into(), vec![Expr::var("i")]));
        let xbi = Expr::new(adgen::il::ExprKind::Index(
            "xb".into(),
            vec![Expr::var("i")],
        ));
        let decls = vec![
            decl(DeclKind::Use {
                module: adgen::runtime::RUNTIME_MODULE.to_string(),
                only: None,
                renames: vec![],
            }),
            decl(DeclKind::Implicit(vec![])),
            var_decl(integer.clone(), Some(Intent::In), &["n"], false),
            var_decl(real8.clone(), Some(Intent::In), &["x"], true),
            var_decl(real8.clone(), Some(Intent::Out), &["xb"], true),
            var_decl(real8.clone(), Some(Intent::In), &["yb"], false),
            var_decl(real8, None, &["y", "ybl"], false),
            var_decl(integer, None, &["i", "branch"], false),
        ];
        let forward = stmt(StmtKind::Do {
            var: "i".into(),
            start: Box::new(Expr::int(1)),
            end: Box::new(Expr::var("n")),
            step: None,
            body: vec![
                call("pushreal8", vec![Expr::var("y")]),
                if_else(
                    Expr::binary(BinOp::Gt, xi.clone(), Expr::real("0", 8)),
                    vec![
                        assign(Expr::var("y"), mul(Expr::var("y"), xi.clone())),
                        call("pushcontrol", vec![Expr::int(1)]),
                    ],
                    vec![
                        assign(
                            Expr::var("y"),
                            Expr::unary(UnOp::Neg, mul(Expr::var("y"), xi.clone())),
                        ),
                        call("pushcontrol", vec![Expr::int(0)]),
                    ],
                ),
            ],
            name: None,
        });
        let backward = stmt(StmtKind::Do {
            var: "i".into(),
            start: Box::new(Expr::var("n")),
            end: Box::new(Expr::int(1)),
            step: Some(Box::new(Expr::unary(UnOp::Neg, Expr::int(1)))),
            body: vec![
                call("popcontrol", vec![Expr::var("branch")]),
                call("popreal8", vec![Expr::var("y")]),
                if_else(
                    Expr::binary(BinOp::Eq, Expr::var("branch"), Expr::int(1)),
                    vec![
                        assign(xbi.clone(), mul(Expr::var("y"), Expr::var("ybl"))),
                        assign(Expr::var("ybl"), mul(xi.clone(), Expr::var("ybl"))),
                    ],
                    vec![
                        assign(
                            xbi,
                            Expr::unary(UnOp::Neg, mul(Expr::var("y"), Expr::var("ybl"))),
                        ),
                        assign(
                            Expr::var("ybl"),
                            mul(Expr::unary(UnOp::Neg, xi), Expr::var("ybl")),
                        ),
                    ],
                ),
            ],
            name: None,
        });
        let body = vec![
            assign(Expr::var("y"), Expr::real("1", 8)),
            forward,
            assign(Expr::var("ybl"), Expr::var("yb")),
            backward,
        ];
        File {
            file: FileId(0),
            path: "prodabs.f90".into(),
            language: adgen::il::Language::Fortran,
            units: vec![Unit {
                kind: UnitKind::Subroutine,
                name: "prodabs_b".into(),
                args: ["n", "x", "xb", "yb"].map(String::from).to_vec(),
                result: None,
                explicit_result: false,
                prefix_type: None,
                leading_comments: vec![" adjoint of y = prod(abs(x))".into()],
                decls,
                body,
                symbols: SymbolTable::default(),
                span: Span::default(),
                host: None,
                bind: None,
                recursive: false,
                source_calls: Default::default(),
                deferred: Vec::new(),
                deferred_entities: Vec::new(),
                followed_pointers: Vec::new(),
                internal_of: None,
                elemental: false,
                specialization: None,
                external: false,
            }],
            warnings: Vec::new(),
        }
    }
}

#[test]
fn generated_adjoint_runs_on_the_runtime() {
    if !have("gcc") || !have("gfortran") {
        eprintln!("gcc or gfortran not found: skipping");
        return;
    }
    let dir = runtime_dir("c99");
    let path = dir.path();
    let adjoint = adgen::back::fortran::write_file(&adjoint::file());
    assert!(adjoint.contains("call pushcontrol(1)"), "{adjoint}");
    write(path, "prodabs.f90", &adjoint);
    write(path, "adjoint_driver.f90", ADJOINT_DRIVER);
    for (source, object) in [
        ("adgen_runtime.f90", "runtime_f.o"),
        ("prodabs.f90", "prodabs.o"),
        ("adjoint_driver.f90", "driver.o"),
    ] {
        let mut args = FORTRAN_FLAGS.to_vec();
        args.extend(["-c", source, "-o", object]);
        run_ok(path, "gfortran", &args);
    }
    let objects = ["driver.o", "prodabs.o", "runtime_f.o", "runtime_c.o"];
    let mut args = objects.to_vec();
    args.extend(["-o", "adjoint_driver"]);
    run_ok(path, "gfortran", &args);
    // d prod|x| / dx_i = prod|x| / x_i with prod|x| = 4.5; four reals and four branches.
    assert_eq!(
        run_ok(path, "./adjoint_driver", &[]),
        "gradient:   3.00   2.25  -9.00   1.50\nsize 0, peak 36, traffic 36\n"
    );
}
