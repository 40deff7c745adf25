//! FORTRAN 77 storage and I/O (issue 3): COMMON, DATA, SAVE, INCLUDE and I/O statements
//! are kept, passive uses differentiate, SAVEd state a rerun changes gets a module
//! (`tests/saved_state.rs`), and what cannot be differentiated correctly (active COMMON
//! data declared two ways, input in differentiated code) is refused at its location.

use std::collections::BTreeSet;

fn request(root: &str, independents: &[&str], dependents: &[&str]) -> adgen::Request {
    adgen::Request {
        roots: vec![adgen::RootRequest {
            name: root.to_string(),
            independents: independents.iter().map(|s| s.to_string()).collect(),
            dependents: dependents.iter().map(|s| s.to_string()).collect(),
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

fn run(path: &str, text: &str) -> Result<adgen::Generated, adgen::Failure> {
    adgen::differentiate(
        &[adgen::SourceInput::new(path, text)],
        &request("f", &["x"], &["y"]),
    )
}

/// The generated module file of SAVE state (`prepare::saved_state`).
fn saved(g: &adgen::Generated) -> &str {
    g.files
        .iter()
        .find(|f| f.path == "adgen_saved.f90")
        .map_or("", |f| f.contents.as_str())
}

fn generated_paths(g: &adgen::Generated) -> Vec<&str> {
    g.files.iter().map(|f| f.path.as_str()).collect()
}

fn refused(path: &str, text: &str) -> String {
    match run(path, text) {
        Ok(_) => panic!("differentiated, should be refused:\n{text}"),
        Err(e) => e.rendered,
    }
}

#[test]
fn passive_common_is_kept_in_the_derivatives() {
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, C, D\n      COMMON /PAR/ C, D\n      \
                CALL INIT\n      Y = C * X**2 + D\n      END\n\n      SUBROUTINE INIT\n      \
                DOUBLE PRECISION A, B\n      COMMON /PAR/ A, B\n      A = 2.0D0\n      B = 1.0D0\n      END\n";
    let g = run("t.f", text).expect("differentiates");
    let adjoint = g
        .files
        .iter()
        .find(|f| f.path.contains("_b"))
        .expect("adjoint file");
    assert!(
        adjoint.contents.contains("common /PAR/ C, D"),
        "{}",
        adjoint.contents
    );
    // INIT sets what the adjoint reads: it stays in the forward sweep.
    assert!(
        adjoint.contents.contains("call INIT"),
        "{}",
        adjoint.contents
    );
}

#[test]
fn active_common_declared_two_ways() {
    // The root stores an active value in COMMON; another unit names the slot W: one
    // storage under two names, the derivative block alike (`common_views_f77` checks
    // the numbers of a bigger case).
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, S\n      COMMON /WORK/ S\n      \
                S = X * 2.0D0\n      CALL G(Y)\n      END\n\n      SUBROUTINE G(Y)\n      \
                DOUBLE PRECISION Y, W\n      COMMON /WORK/ W\n      Y = W * W\n      END\n";
    let out = run("t.f", text).expect("differentiated");
    let tangent = &out
        .files
        .iter()
        .find(|f| f.path.ends_with("_d.f90"))
        .unwrap()
        .contents;
    assert!(tangent.contains("common /WORK_d/ Sd"), "{tangent}");
    assert!(tangent.contains("equivalence (W, S)"), "{tangent}");
    assert!(tangent.contains("equivalence (Wd, Sd)"), "{tangent}");
    // Refused where one storage holds values of two types (a DOUBLE PRECISION in one
    // unit, two INTEGERs in the other), blank COMMON.
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      CALL PUT(X)\n      \
                CALL GET(Y)\n      END\n\n      SUBROUTINE PUT(A)\n      DOUBLE PRECISION A, T\n      \
                COMMON T\n      T = A\n      END\n\n      SUBROUTINE GET(B)\n      DOUBLE PRECISION B\n      \
                INTEGER I, J\n      COMMON // I, J\n      B = I + J\n      END\n";
    let r = refused("t.f", text);
    assert!(r.contains("error[E0511]: COMMON // variable `T`"), "{r}");
}

#[test]
fn output_is_dropped_input_refused() {
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      Y = X**2\n      \
                WRITE (6, 100) X, Y\n      PRINT *, 'Y =', Y\n  100 FORMAT (2F10.4)\n      END\n";
    let g = run("t.f", text).expect("differentiates");
    for f in g.files.iter().filter(|f| f.path.starts_with("f_")) {
        assert!(!f.contents.contains("WRITE"), "{}", f.contents);
    }
    // Input in a procedure a root calls (the root's own is read once, tests/read_input.rs).
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      CALL G(X, Y)\n      \
                END\n      SUBROUTINE G(X, Y)\n      DOUBLE PRECISION X, Y, Z\n      \
                READ (5, *) Z\n      Y = X * Z\n      END\n";
    let r = refused("t.f", text);
    assert!(r.contains("t.f:7:7: error[E0513]"), "{r}");
    // STOP is kept: the derivatives stop where the primal does, with the messages
    // written just before it, except those that need a FORMAT (FORMATs are dropped).
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      \
                IF (X .LT. 0.0D0) THEN\n      WRITE (6, 100) X\n      \
                WRITE (6, *) 'F: X < 0'\n      STOP 'NEGATIVE'\n      END IF\n      \
                Y = SQRT(X)\n  100 FORMAT (F10.4)\n      END\n";
    let g = run("t.f", text).expect("differentiates");
    for f in g.files.iter().filter(|f| f.path.starts_with("t_")) {
        assert!(f.contents.contains("STOP 'NEGATIVE'"), "{}", f.contents);
        assert!(
            f.contents.contains("WRITE (6, *) 'F: X < 0'"),
            "{}",
            f.contents
        );
        assert!(!f.contents.contains("100"), "{}", f.contents);
    }
}

#[test]
fn include_reads_the_file_next_to_the_source() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("par.inc"),
        "      DOUBLE PRECISION C\n      COMMON /PAR/ C\n",
    )
    .unwrap();
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      INCLUDE 'par.inc'\n      \
                Y = C * X\n      END\n";
    let mut input = adgen::SourceInput::new("t.f", text);
    input.dir = Some(dir.path().to_path_buf());
    let g = adgen::differentiate(std::slice::from_ref(&input), &request("f", &["x"], &["y"]))
        .expect("differentiates");
    assert!(
        g.files
            .iter()
            .any(|f| f.contents.contains("common /PAR/ C"))
    );
    // A mistake in the included file is reported there.
    std::fs::write(
        dir.path().join("par.inc"),
        "      DOUBLE PRECISION C\n      COMMON /PAR/ C,\n",
    )
    .unwrap();
    let err = adgen::differentiate(&[input], &request("f", &["x"], &["y"])).expect_err("refused");
    assert!(err.rendered.contains("par.inc:2:"), "{}", err.rendered);
    // No directory to look in: said so.
    let r = refused("t.f", text);
    assert!(
        r.contains("t.f:3:7: error[E0412]: cannot include 'par.inc'"),
        "{r}"
    );
}

#[test]
fn cpp_include_in_a_preprocessed_source() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("par.h"),
        "      DOUBLE PRECISION C\n      COMMON /PAR/ C\n",
    )
    .unwrap();
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n#include \"par.h\"\n\
                #ifdef NOT_DEFINED\n#include \"missing.h\"\n#endif\n      Y = C * X\n      END\n";
    let mut input = adgen::SourceInput::new("t.F", text);
    input.include_dirs = vec![dir.path().to_path_buf()];
    let g = adgen::differentiate(std::slice::from_ref(&input), &request("f", &["x"], &["y"]))
        .expect("differentiates");
    assert!(
        g.files
            .iter()
            .any(|f| f.contents.contains("common /PAR/ C"))
    );
    // Found nowhere: located at the directive.
    input.include_dirs.clear();
    let err = adgen::differentiate(&[input], &request("f", &["x"], &["y"])).expect_err("refused");
    assert!(
        err.rendered
            .contains("t.F:3:1: error[E0412]: cannot include 'par.h'"),
        "{}",
        err.rendered
    );
}

#[test]
fn a_common_variable_is_an_independent() {
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, C\n      COMMON /PAR/ C\n      \
                Y = C * X\n      END\n";
    let g = adgen::differentiate(
        &[adgen::SourceInput::new("t.f", text)],
        &request("f", &["x", "c"], &["y"]),
    )
    .unwrap_or_else(|f| panic!("{f}"));
    // Its derivative is in the derivative block, which the root's tangent does not
    // zero (the caller seeds it there).
    let tangent = g
        .files
        .iter()
        .find(|f| f.path.contains("_d"))
        .expect("tangent");
    assert!(
        tangent.contents.contains("common /PAR_d/ Cd"),
        "{}",
        tangent.contents
    );
    assert!(!tangent.contents.contains("Cd = 0"), "{}", tangent.contents);
}

/// A DATA constant that a procedure passes on to one that only reads it (MINPACK's
/// `hybrd1` passing `factor` to `hybrd`) is not state a rerun changes; passed to one that
/// writes it, it is.
#[test]
fn a_saved_constant_passed_to_a_reader_is_not_changed() {
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      CALL G(X, Y)\n      END\n\n      \
                SUBROUTINE G(A, B)\n      DOUBLE PRECISION A, B, FACTOR\n      \
                DATA FACTOR /1.0D2/\n      CALL H(A, B, FACTOR)\n      IF (FACTOR .GT. 0) B = 2*B\n      END\n\n      \
                SUBROUTINE H(A, B, S)\n      DOUBLE PRECISION A, B, S\n      B = S*A\n      END\n";
    run("t.f", text).expect("a constant only read differentiates");
    let writes = text.replace("      B = S*A\n", "      B = S*A\n      S = S + 1\n");
    // Then it is state of `G` a rerun changes: it goes to a module of its own.
    let g = run("t.f", &writes).expect("a constant changed differentiates");
    assert!(saved(&g).contains("module g_saved\n"), "{}", saved(&g));
    assert!(saved(&g).contains("FACTOR"), "{}", saved(&g));
}

#[test]
fn state_only_a_message_routine_reads_is_accepted() {
    // ODEPACK's IXSAV: the message unit, SAVEd, set on first use or on request. Only
    // the message routine (output, dropped) asks for it: what a rerun changes there
    // changes nothing the derivatives compute.
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      CALL G(X, Y)\n      END\n\n      \
                SUBROUTINE G(A, B)\n      DOUBLE PRECISION A, B\n      B = 2.0D0 * A\n      \
                IF (B .GT. 1.0D3) CALL MSG(B)\n      END\n\n      SUBROUTINE MSG(R)\n      \
                DOUBLE PRECISION R\n      INTEGER IXS, LUN\n      LUN = IXS(0, .FALSE.)\n      \
                WRITE (LUN, *) R\n      END\n\n      INTEGER FUNCTION IXS(IVAL, ISET)\n      \
                INTEGER IVAL, LUNIT\n      LOGICAL ISET\n      SAVE LUNIT\n      DATA LUNIT /-1/\n      \
                IF (LUNIT .EQ. -1) LUNIT = 6\n      IXS = LUNIT\n      IF (ISET) LUNIT = IVAL\n      END\n";
    run("t.f", text).expect("state only a message routine reads differentiates");
    // When G itself uses the value (a branch on it), it is refused.
    let used = text.replace(
        "      B = 2.0D0 * A\n",
        "      B = 2.0D0 * A\n      IF (IXS(0, .TRUE.) .EQ. 6) B = 3.0D0 * A\n",
    );
    let used = used.replace(
        "      DOUBLE PRECISION A, B\n      B",
        "      DOUBLE PRECISION A, B\n      INTEGER IXS\n      B",
    );
    // When G itself uses the value (a branch on it), the state goes to a module.
    let g = run("t.f", &used).expect("differentiates");
    assert!(saved(&g).contains("module ixs_saved\n"), "{}", saved(&g));
}

#[test]
fn state_a_rerun_would_change_is_restored() {
    // G counts its calls in a SAVEd local and branches on it: the adjoint's second run
    // of G would take the other branch, unless the count is restored before it, as a
    // module variable is (`corpus/fortran/saved_step_control_f77` checks the numbers).
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      CALL G(X, Y)\n      END\n\n      \
                SUBROUTINE G(A, B)\n      DOUBLE PRECISION A, B\n      INTEGER N\n      SAVE N\n      \
                DATA N /0/\n      N = N + 1\n      IF (N .EQ. 1) THEN\n         B = 2.0D0 * A\n      \
                ELSE\n         B = 3.0D0 * A\n      END IF\n      END\n";
    let g = run("t.f", text).expect("differentiates");
    assert!(saved(&g).contains("module g_saved\n"), "{}", saved(&g));
    // A count that decides only whether to call a report (output, dropped) is accepted
    // (the corpus runs it); one that decides a call changing a value is refused.
    let report = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      CALL G(X, Y)\n      END\n\n      \
                SUBROUTINE G(A, B)\n      DOUBLE PRECISION A, B\n      INTEGER N\n      SAVE N\n      \
                DATA N /0/\n      N = N + 1\n      IF (N .EQ. 1) CALL SHOW(A, B)\n      B = 2.0D0 * A\n      \
                END\n\n      SUBROUTINE SHOW(A, B)\n      DOUBLE PRECISION A, B\n      \
                WRITE (*, *) A, B\n      END\n";
    run("t.f", report).expect("a count deciding output only differentiates");
    assert!(!generated_paths(&run("t.f", report).unwrap()).contains(&"adgen_saved.f90"));
    let changing = report.replace("WRITE (*, *) A, B\n", "B = A\n");
    let g = run("t.f", &changing).expect("differentiates");
    assert!(saved(&g).contains("module g_saved\n"), "{}", saved(&g));
    // A cache filled on the first call (DLAMCH's pattern) is what a rerun finds: accepted
    // (the corpus runs it). But a flag the block may raise again (DLAMC2's warning
    // path) could make a rerun fill it again: refused, once for all its variables.
    let cache = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      CALL G(X, Y)\n      END\n\n      \
                SUBROUTINE G(A, B)\n      DOUBLE PRECISION A, B, S\n      LOGICAL FIRST\n      \
                SAVE FIRST, S\n      DATA FIRST /.TRUE./\n      IF (FIRST) THEN\n         \
                FIRST = .FALSE.\n         S = 2.0D0\n      END IF\n      B = S * A\n      END\n";
    run("t.f", cache).expect("a first-call cache differentiates");
    let again = cache.replace(
        "         S = 2.0D0\n",
        "         S = 2.0D0\n         IF (A .LT. 0) FIRST = .TRUE.\n",
    );
    let g = run("t.f", &again).expect("differentiates");
    assert!(saved(&g).contains("logical :: FIRST"), "{}", saved(&g));
    // The same count in a COMMON block the caller does not declare: its adjoint
    // declares the block to save and restore it.
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      CALL G(X, Y)\n      END\n\n      \
                SUBROUTINE G(A, B)\n      DOUBLE PRECISION A, B\n      INTEGER N\n      COMMON /CNT/ N\n      \
                N = N + 1\n      B = DBLE(N) * A\n      END\n";
    let g = run("t.f", text).expect("differentiates");
    let adjoint = g
        .files
        .iter()
        .find(|f| f.path.contains("_b"))
        .expect("adjoint");
    let f_b = &adjoint.contents[adjoint.contents.find("subroutine F_b").expect("F_b")..];
    assert!(f_b.contains("common /CNT/ N"), "{f_b}");
    assert!(f_b.contains("call pushinteger4(N)"), "{f_b}");
    // Unless another procedure the root reaches declares the block otherwise: then
    // it is refused.
    let other = format!(
        "{text}\n      SUBROUTINE H\n      REAL R\n      COMMON /CNT/ R\n      R = 0.0\n      END\n"
    )
    .replace("CALL G(X, Y)\n", "CALL G(X, Y)\n      CALL H\n");
    let r = refused("t.f", &other);
    assert!(
        r.contains("t.f:3:7: error[E0514]: `G` (or a procedure it calls) changes COMMON block /cnt/, which `F` does not declare"),
        "{r}"
    );
    // Declared by the caller: saved and restored around the call.
    let declared = text.replace(
        "      DOUBLE PRECISION X, Y\n      CALL G",
        "      DOUBLE PRECISION X, Y\n      INTEGER M\n      COMMON /CNT/ M\n      CALL G",
    );
    run("t.f", &declared).expect("differentiates");
}

/// An integer EQUIVALENCEd onto active real storage is a view without derivative (F77
/// work arrays reused for integers; `corpus/fortran/typed_work_views_f77` checks the
/// numbers); two kinds of real are refused: the bits of one are not a value of the other.
#[test]
fn active_equivalence_with_an_integer_is_accepted_two_real_kinds_refused() {
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, T\n      INTEGER K\n      \
                EQUIVALENCE (T, K)\n      T = X*X\n      Y = T\n      K = 3\n      END\n";
    let g = run("t.f", text).expect("differentiates");
    let adjoint = g
        .files
        .iter()
        .find(|f| f.path.contains("_b"))
        .expect("adjoint file");
    assert!(adjoint.contents.contains("Tb"), "{}", adjoint.contents);
    assert!(!adjoint.contents.contains("Kb"), "{}", adjoint.contents);
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, T\n      REAL Q\n      \
                EQUIVALENCE (T, Q)\n      T = X*X\n      Y = T\n      END\n";
    let rendered = refused("t.f", text);
    assert!(rendered.contains("error[E0525]"), "{rendered}");
    assert!(rendered.contains("t.f:3:"), "{rendered}");
}

#[test]
fn equivalenced_derivatives_share_storage_like_their_primals() {
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, S, T\n      \
                EQUIVALENCE (S, T)\n      S = X*X\n      Y = T\n      END\n";
    let g = run("t.f", text).expect("differentiates");
    for (file, d) in [("t_d.f90", "d"), ("t_b.f90", "b")] {
        let text = &g
            .files
            .iter()
            .find(|f| f.path == file)
            .expect(file)
            .contents;
        assert!(
            text.contains(&format!("equivalence (S{d}, T{d})")),
            "{text}"
        );
    }
}

/// An initializer saves its own variable only: `t`, declared beside an initialized `c`,
/// is an ordinary local that may be active.
#[test]
fn an_initializer_saves_only_its_own_variable() {
    let text = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                real(8) :: t, c = 2.0d0\n  t = c*x*x\n  y = t\nend subroutine f\n";
    let g = run("t.f90", text).expect("differentiates");
    let tangent = &g
        .files
        .iter()
        .find(|f| f.path == "t_d.f90")
        .expect("tangent")
        .contents;
    assert!(tangent.contains("real(8), save :: c = 2.0d0"), "{tangent}");
    assert!(tangent.contains("td = "), "{tangent}");
}
