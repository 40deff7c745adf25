//! Warnings that in-out analysis makes possible (issue 4): a scalar read before it is
//! set (W0301 on some path, W0303 on every path), one variable passed twice to a procedure
//! that overwrites one of them (W0302, or E0508 when it has a derivative), a module
//! variable passed to a procedure that also uses it (W0304), and independents that turn
//! out inactive.

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

fn warnings_of(source: &str, root: &str, independents: &[&str], dependents: &[&str]) -> String {
    warnings_in("w.f90", source, root, independents, dependents)
}

fn warnings_in(
    path: &str,
    source: &str,
    root: &str,
    independents: &[&str],
    dependents: &[&str],
) -> String {
    let input = adgen::SourceInput::new(path, source);
    match adgen::differentiate(&[input], &request(root, independents, dependents)) {
        Ok(out) => out.warnings,
        Err(e) => panic!("{}", e.rendered),
    }
}

/// The rendered errors of a run that must fail.
fn errors_of(source: &str, root: &str, independents: &[&str], dependents: &[&str]) -> String {
    let input = adgen::SourceInput::new("w.f90", source);
    let mut req = request(root, independents, dependents);
    // Tangent alone: the refusal must not depend on the adjoint's own check.
    req.roots[0].modes = BTreeSet::from([adgen::Mode::Tangent]);
    adgen::differentiate(&[input], &req)
        .expect_err("refused")
        .rendered
}

#[test]
fn scalar_read_before_set() {
    let text = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                real(8) :: t\n  if (x > 0) t = x\n  y = t*x\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f90:6:3: warning[W0301]: `t` may be used before it is set"),
        "{w}"
    );
    let clean = text.replace("  if (x > 0) t = x\n", "  t = x\n");
    assert!(!warnings_of(&clean, "f", &["x"], &["y"]).contains("W0301"));
}

/// A READ sets its implied DO's index and a count it reads first before it subscripts
/// with them: neither is used before it is set (W0303 was said of both).
#[test]
fn a_read_subscripting_with_what_it_sets_reads_nothing_unset() {
    let text = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                character(len=20) :: line\n  integer :: i, k, m(3)\n  line = '2 4 5'\n  \
                read (line, *) k, (m(i), i = 1, k)\n  y = x*m(1)\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(!w.contains("W030"), "{w}");
    // A subscript the statement does not set is still read.
    let unset = text.replace("(m(i), i = 1, k)", "m(i)");
    let w = warnings_of(&unset, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f90:7:3: warning[W0303]: `i` is used before it is set"),
        "{w}"
    );
}

#[test]
fn same_variable_passed_twice() {
    let text = "subroutine g(a, b)\n  real(8), intent(in) :: a\n  real(8), intent(inout) :: b\n  \
                b = b + a*a\nend subroutine g\n\nsubroutine f(x, y)\n  real(8), intent(inout) :: x\n  \
                real(8), intent(out) :: y\n  call g(x, x)\n  y = x\nend subroutine f\n";
    // Active: g's analyses see `a` and `b` as one storage (as ODEPACK's YH and YH1), so
    // its derivatives hold; the warning about the original program stays.
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f90:10:3: warning[W0302]: `x` is passed twice to `g`"),
        "{w}"
    );
    // Passive (x carries no derivative): a warning about the original program.
    let passive = text
        .replace("subroutine f(x, y)", "subroutine f(x, z, y)")
        .replace(
            "real(8), intent(out) :: y",
            "real(8), intent(out) :: y\n  real(8), intent(in) :: z",
        )
        .replace("  y = x\n", "  y = z*z + x\n");
    let w = warnings_of(&passive, "f", &["z"], &["y"]);
    assert!(
        w.contains("warning[W0302]: `x` is passed twice to `g`"),
        "{w}"
    );
}

#[test]
fn inactive_independent() {
    let text = "subroutine f(x, z, y)\n  real(8), intent(in) :: x, z\n  real(8), intent(out) :: y\n  \
                y = x*x + floor(z)\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x", "z"], &["y"]);
    assert!(
        w.contains("warning[W0201]: independent `z` of root `f` is not active"),
        "{w}"
    );
    assert!(!w.contains("independent `x`"), "{w}");
}

#[test]
fn scalar_read_before_any_set() {
    let text = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                real(8) :: t\n  y = t*x\n  t = x\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f90:5:3: warning[W0303]: `t` is used before it is set, on every path"),
        "{w}"
    );
    assert!(!w.contains("W0301"), "{w}");
}

#[test]
fn loops_calls_and_must_written_sets() {
    // A loop may run zero times; `sometimes` sets its second argument on one path only;
    // `always` on every path; `bump` reads its argument before setting it.
    let text = "subroutine always(p, q)\n  real(8) :: p, q\n  q = p\nend subroutine always\n\
                subroutine sometimes(p, q)\n  real(8) :: p, q\n  if (p > 0) q = p\nend subroutine sometimes\n\
                subroutine bump(q)\n  real(8) :: q\n  q = q + 1\nend subroutine bump\n\
                subroutine f(n, x, y)\n  integer :: n, i\n  real(8) :: x, y, s, u, v, w\n  \
                do i = 1, n\n    s = x\n  end do\n  call always(x, u)\n  call sometimes(x, v)\n  \
                call bump(w)\n  y = s + u + v + w\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains(
            "w.f90:21:3: warning[W0303]: `w` is used before it is set: it is passed to `bump`, \
             which may read it, and no path to this call sets it"
        ),
        "{w}"
    );
    assert!(
        w.contains("w.f90:22:3: warning[W0301]: `s` may be used before it is set"),
        "{w}"
    );
    assert!(
        w.contains("w.f90:22:3: warning[W0301]: `v` may be used before it is set"),
        "{w}"
    );
    assert!(!w.contains("`u`"), "{w}");
    assert_eq!(w.matches("warning[W030").count(), 3, "{w}");
}

#[test]
fn c_scalar_read_before_set() {
    let text = "void f(double x, double *y)\n{\n    double t;\n    if (x > 0)\n        t = x;\n    \
                *y = t * x;\n}\n";
    let w = warnings_in("w.c", text, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.c:6:5: warning[W0301]: `t` may be used before it is set"),
        "{w}"
    );
}

/// The first-iteration flag of a `do { } while (c)`, tested before `c`, guards the reads
/// of `c`: no warning. Same for a Fortran flag tested in an IF.
#[test]
fn flags_guard_first_iterations() {
    let c = "#include <math.h>\nvoid f(double x, double *y)\n{\n    double d;\n    int k = 0;\n    \
             do {\n        d = 0.5 * (*y - x);\n        *y = *y - d;\n        k++;\n    \
             } while (fabs(d) > 1e-12 && k < 50);\n}\n";
    let w = warnings_in("w.c", c, "f", &["x"], &["y"]);
    assert!(!w.contains("W030"), "{w}");
    let f = "subroutine f(x, y)\n  real(8) :: x, y, d\n  logical :: first\n  first = .true.\n  \
             do while (first .or. abs(d) > 1d-12)\n    if (.not. first) y = y - d\n    \
             first = .false.\n    d = 0.5d0*(y - x)\n  end do\nend subroutine f\n";
    let w = warnings_of(f, "f", &["x"], &["y"]);
    assert!(!w.contains("W030"), "{w}");
    // Without the flag, the first test reads `d` unset.
    let unguarded = f.replace("first .or. abs(d)", "abs(d)");
    let w = warnings_of(&unguarded, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f90:5:3: warning[W0301]: `d` may be used before it is set"),
        "{w}"
    );
}

#[test]
fn array_and_element_passed_together() {
    let text = "subroutine g(a, b)\n  real(8), intent(inout) :: a(3)\n  real(8), intent(in) :: b\n  \
                a(1) = a(2) + b\nend subroutine g\n\
                subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                real(8) :: w(3)\n  w = 1\n  call g(w, w(3))\n  call g(w, w(1) + 0)\n  y = x*w(1)\n\
                end subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f90:11:3: warning[W0302]: `w` is passed twice to `g`"),
        "{w}"
    );
    // An expression is a copy: no alias.
    assert_eq!(w.matches("W0302").count(), 1, "{w}");
}

/// With a derivative, aliased arguments are refused in tangent mode too: the callee's
/// derivative was computed assuming distinct dummies.
#[test]
fn active_aliasing_shares_the_callee_storage() {
    // `call g(x, x)`: g's derivative treats `a` and `b` as one storage, the caller passes
    // the one derivative twice (`aliased_history_f77` checks the numbers).
    let text = "subroutine g(a, b)\n  real(8), intent(in) :: a\n  real(8), intent(inout) :: b\n  \
                b = b + a*a\nend subroutine g\n\nsubroutine f(x, y)\n  real(8), intent(inout) :: x\n  \
                real(8), intent(out) :: y\n  call g(x, x)\n  y = x\nend subroutine f\n";
    let input = adgen::SourceInput::new("w.f90", text);
    let out =
        adgen::differentiate(&[input], &request("f", &["x"], &["y"])).expect("differentiates");
    let all: String = out.files.iter().map(|f| f.contents.as_str()).collect();
    assert!(all.contains("call g_d(x, xd, x, xd)"), "{all}");
    assert!(all.contains("call g_b(x, xb, x, xb)"), "{all}");
    // The adjoint of `b = b + a*a` takes `bb` before it adds to `ab`, its own storage.
    assert!(
        all.contains("tempb = bb\n  bb = 0.0d0\n  bb = bb + tempb\n"),
        "{all}"
    );
}

/// One array passed as two kinds of real: not one storage the analyses could give
/// derivatives, so one E0508 at the call that says why, and no error about the callee's
/// variables. (As a real and as an integer work array, DLSODES's `RWORK(LWM)` as `WK`
/// and `IWK`, it is accepted: `corpus/fortran/typed_work_views_f77`.)
#[test]
fn active_storage_passed_as_two_kinds_of_real_is_one_error() {
    let text = "      SUBROUTINE G(WK, SK, N)\n      INTEGER N, I\n      REAL SK(*)\n      \
                DOUBLE PRECISION WK(*)\n      SK(1) = N\n      DO 10 I = 2, N\n      \
                WK(I) = WK(I)*WK(I-1)\n   10 CONTINUE\n      END\n\n      \
                SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, W(10)\n      W(2) = X\n      \
                W(3) = X\n      CALL G(W, W, 3)\n      Y = W(3)\n      END\n";
    let input = adgen::SourceInput::new("w.f", text);
    let e = adgen::differentiate(&[input], &request("f", &["x"], &["y"]))
        .expect_err("refused")
        .rendered;
    assert!(
        e.contains("w.f:15:7: error[E0508]: `W` is passed both as `WK` and as `SK` of `G`"),
        "{e}"
    );
    assert!(e.contains("sees the storage as real(8)"), "{e}");
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// A module variable passed to a procedure that also uses it: a warning (the standard
/// forbids it), and accepted when active, the dummy being the variable in the callee's
/// analyses (`corpus/fortran/module_var_as_argument` checks the derivatives). Where the
/// callee reaches the variable only through a procedure it calls, still refused.
#[test]
fn module_variable_passed_to_its_own_user() {
    let text = "module m\n  real(8) :: u\nend module m\n\
                subroutine g(a, c)\n  use m\n  real(8) :: a, c\n  u = 2*c\n  c = c + a\nend subroutine g\n\
                subroutine f(x, y)\n  use m\n  real(8) :: x, y, z\n  z = 1\n  u = 3\n  call g(u, z)\n  \
                y = x*z\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f90:15:3: warning[W0304]: module variable `u` is passed as `a` of `g`"),
        "{w}"
    );
    let active = text
        .replace("u = 3\n", "u = x\n")
        .replace("y = x*z", "y = x*z + u");
    let w = warnings_of(&active, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f90:15:3: warning[W0304]: module variable `u` is passed as `a` of `g`"),
        "{w}"
    );
    // `g` writes `u` only through `h`: its dummy is the variable there too
    // (`corpus/fortran/module_var_through_callees` checks the derivatives).
    let hidden = active
        .replace(
            "  use m\n  real(8) :: a, c\n  u = 2*c\n",
            "  real(8) :: a, c\n  call h(c)\n",
        )
        .replace(
            "subroutine g(",
            "subroutine h(c)\n  use m\n  real(8) :: c\n  u = 2*c\nend subroutine h\nsubroutine g(",
        );
    let w = warnings_of(&hidden, "f", &["x"], &["y"]);
    assert!(
        w.contains(
            "warning[W0304]: module variable `u` is passed as `a` of `g`, which also reaches \
             it through the procedures it calls"
        ),
        "{w}"
    );
    // Only part of the variable passed: what `g` saves of its dummy would not be all
    // that `h` changes. Refused.
    let part = hidden
        .replace("real(8) :: u\n", "real(8) :: u(2)\n")
        .replace("u = x\n", "u = x\n  u(2) = 1\n")
        .replace("call g(u, z)", "call g(u(1), z)")
        .replace("y = x*z + u", "y = x*z + u(1)")
        .replace("u = 2*c", "u(1) = 2*c");
    let e = errors_of(&part, "f", &["x"], &["y"]);
    assert!(
        e.contains("error[E0508]: module variable `u` is passed as `a` of `g`"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// One W0302 per call and storage, however many pairs of arguments share it (DLSODES
/// passes a work array and four parts of its integer view to `ODRV`), and once however
/// many copies of the procedure adgen makes for its procedure arguments.
#[test]
fn storage_passed_many_times_is_said_once_per_call() {
    let text = "      SUBROUTINE G(A, P, Q, N)\n      INTEGER N, P(*), Q(*)\n      \
                DOUBLE PRECISION A(*)\n      P(1) = N\n      Q(1) = N\n      A(N) = A(1)*2\n      \
                END\n\n      SUBROUTINE H(FN, X, Y)\n      EXTERNAL FN\n      \
                DOUBLE PRECISION X, Y, W(10)\n      INTEGER IW(20)\n      EQUIVALENCE (W, IW)\n      \
                W(1) = X\n      CALL G(W, IW(5), IW(7), 2)\n      CALL FN(W(2), Y)\n      END\n\n      \
                SUBROUTINE S1(A, B)\n      DOUBLE PRECISION A, B\n      B = A*A\n      END\n\n      \
                SUBROUTINE S2(A, B)\n      DOUBLE PRECISION A, B\n      B = SIN(A)\n      END\n\n      \
                SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, Z\n      EXTERNAL S1, S2\n      \
                CALL H(S1, X, Z)\n      CALL H(S2, Z, Y)\n      END\n";
    let w = warnings_in("w.f", text, "f", &["x"], &["y"]);
    assert_eq!(w.matches("warning[W0302]").count(), 1, "{w}");
    assert!(
        w.contains("w.f:15:7: warning[W0302]: `W` (EQUIVALENCEd with `IW`) is passed twice to `G`"),
        "{w}"
    );
}

/// The same with a COMMON block: said so.
#[test]
fn common_variable_passed_to_a_user_of_its_block() {
    let text = "      SUBROUTINE G(A, C)\n      DOUBLE PRECISION A, C, U\n      COMMON /M/ U\n      \
                U = 2*C\n      C = C + A\n      END\n\n      SUBROUTINE F(X, Y)\n      \
                DOUBLE PRECISION X, Y, Z, U\n      COMMON /M/ U\n      Z = 1\n      U = 3\n      \
                CALL G(U, Z)\n      Y = X*Z\n      END\n";
    let w = warnings_in("w.f", text, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f:13:7: warning[W0304]: variable `U` of COMMON /M/ is passed as `A` of `G`, which also reaches it through the block"),
        "{w}"
    );
}

/// Crossing backward GO TOs (FFTPACK's factorization in `rffti1`) need a dispatcher; a
/// variable set before the first jumped-to label is set on every path into it, and no
/// W0301 says otherwise.
#[test]
fn a_variable_set_before_a_dispatched_loop_is_set() {
    let text = "      SUBROUTINE F(N, X, Y)\n      INTEGER N, J, NL, NQ, NR, NF, NTRY, NTRYH(4)\n      \
                DOUBLE PRECISION X, Y\n      DATA NTRYH /4, 2, 3, 5/\n      NL = N\n      NF = 0\n      \
                J = 0\n      NTRY = 0\n      Y = X\n  100 J = J + 1\n      IF (J .LE. 4) THEN\n         \
                NTRY = NTRYH(J)\n      ELSE\n         NTRY = NTRY + 2\n      END IF\n  \
                200 NQ = NL/NTRY\n      NR = NL - NTRY*NQ\n      IF (NR .NE. 0) GO TO 100\n      \
                NF = NF + 1\n      Y = Y*X + NTRY\n      NL = NQ\n      IF (NL .NE. 1) GO TO 200\n      END\n";
    let w = warnings_in("w.f", text, "f", &["x"], &["y"]);
    assert!(!w.contains("W0301"), "{w}");
}

/// Clean code: initialized locals, SAVE and DATA, loops that set before they read,
/// calls that set their arguments, distinct arguments: no warning at all.
#[test]
fn no_warning_on_clean_code() {
    let text = "subroutine init(q)\n  real(8), intent(out) :: q\n  q = 0\nend subroutine init\n\
                subroutine g(a, b)\n  real(8), intent(in) :: a\n  real(8), intent(inout) :: b\n  \
                b = b + a\nend subroutine g\n\
                subroutine f(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(in) :: x(n)\n  \
                real(8), intent(out) :: y\n  real(8) :: s, t, w(n)\n  real(8) :: c = 2\n  integer :: i, ncall\n  \
                save ncall\n  data ncall /0/\n  ncall = ncall + 1\n  call init(s)\n  do i = 1, n\n    \
                w(i) = x(i)\n    t = w(i)*c\n    call g(t, s)\n  end do\n  if (n > 0) then\n    \
                t = s\n  else\n    t = 1\n  end if\n  y = t + w(1)\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(!w.contains("warning"), "{w}");
    let c = "static void init(double *q) { *q = 0.0; }\n\
             void f(int n, const double *x, double *y)\n{\n    double s, t;\n    init(&s);\n    \
             for (int i = 0; i < n; i++) {\n        t = x[i] * x[i];\n        s += t;\n    }\n    \
             *y = s;\n}\n";
    let w = warnings_in("w.c", c, "f", &["x"], &["y"]);
    assert!(!w.contains("W030"), "{w}");
}

/// `explain` shows the must-written set after each statement: why W0301 fires.
#[test]
fn explain_shows_must_written_sets() {
    let text = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                real(8) :: t\n  if (x > 0) t = x\n  y = t*x\nend subroutine f\n";
    let input = adgen::SourceInput::new("w.f90", text);
    let listing = adgen::explain(&[input], &request("f", &["x"], &["y"])).expect("explains");
    let notes = |stmt: &str| -> String {
        let i = listing
            .find(stmt)
            .unwrap_or_else(|| panic!("`{stmt}` not in\n{listing}"));
        listing[i..].lines().take(4).collect::<Vec<_>>().join("\n")
    };
    assert!(
        notes("  t = x\n").ends_with("! written on every path from the entry to after it: t"),
        "{listing}"
    );
    assert!(
        notes("y = t*x").ends_with("! written on every path from the entry to after it: y"),
        "{listing}"
    );
}

/// Arrays: only one that nothing may have written yet is reported; one filled in a loop
/// (which might run zero times) is not.
#[test]
fn arrays_never_written() {
    let text = "subroutine f(n, x, y)\n  integer :: n, i\n  real(8) :: x, y, a(3), b(3)\n  \
                do i = 1, n\n    b(i) = x\n  end do\n  y = a(2)*x + b(1)\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f90:7:3: warning[W0303]: `a` is used before it is set"),
        "{w}"
    );
    assert!(!w.contains("`b`"), "{w}");
}

/// A procedure no root reaches had its I/O stripped before analysis: its READ's variables
/// must not look unset.
#[test]
fn no_warning_where_no_root_reaches() {
    let text = "subroutine f(x, y)\n  real(8) :: x, y\n  y = x*x\nend subroutine f\n\n\
                subroutine driver()\n  real(8) :: a, b\n  integer :: n\n  read(*, *) n, a\n  \
                call f(a, b)\n  print *, b, n\nend subroutine driver\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(!w.contains("warning"), "{w}");
}

#[test]
fn intent_in_overwritten_through_a_call() {
    let text = "subroutine scale(q)\n  real(8) :: q\n  q = 2*q\nend subroutine scale\n\n\
                subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                call scale(x)\n  y = x\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains(
            "w.f90:9:3: warning[W0305]: `x` is declared INTENT(IN) in `f`, but `scale` may \
             overwrite it here"
        ),
        "{w}"
    );
}

#[test]
fn c_aliasing() {
    let text = "static void g(double *a, double *b)\n{\n    *b = *b + *a;\n}\n\n\
                void f(double x, double *y)\n{\n    double t = 1.0;\n    double s = x;\n    \
                g(&t, &t);\n    *y = x * t;\n    g(&s, &s);\n    *y = *y + s;\n}\n";
    let passive = text.replace("    g(&s, &s);\n", "");
    let w = warnings_in("w.c", &passive, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.c:10:5: warning[W0302]: `t` is passed twice to `g`"),
        "{w}"
    );
    // Active: legal C, and g's derivative sees `a` and `b` as one storage.
    let w = warnings_in("w.c", text, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.c:12:5: warning[W0302]: `s` is passed twice to `g`"),
        "{w}"
    );
}

/// EQUIVALENCE: a write through one member sets the others (no W0301), and two members
/// passed to one call share storage (W0302).
#[test]
fn equivalence_members() {
    let text = "subroutine g(a, b)\n  real(8), intent(in) :: a\n  real(8), intent(inout) :: b\n  \
                b = b + a\nend subroutine g\n\n\
                subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                real(8) :: t, u\n  equivalence (t, u)\n  u = 2\n  y = t*x\n  call g(t, u)\n\
                end subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(!w.contains("before it is set"), "{w}");
    assert!(
        w.contains(
            "w.f90:14:3: warning[W0302]: `t` (EQUIVALENCEd with `u`) is passed twice to `g`"
        ),
        "{w}"
    );
}

/// `$AD` directives (INTERFACE.md §6) are never ignored silently: each known one that
/// adgen does not honour yet is W0401 at its comment, a misspelled one W0402; in
/// Fortran (fixed and free form) and C comments alike.
#[test]
fn directives_are_reported_not_ignored() {
    let text = "subroutine f(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(in) :: x(n)\n  \
                real(8), intent(out) :: y\n  integer :: i\n  y = 0\n  !$AD BINOMIAL-CKP 10 2 1\n  \
                do i = 1, n\n    y = y + x(i)**2\n  end do\n  !$ad nochekpoint\n  ! $ADDED is no directive\n\
                end subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    // BINOMIAL-CKP before a DO loop is honoured (`tests/binomial.rs`): nothing to say.
    assert!(
        w.contains("w.f90:11:3: warning[W0402]: unknown directive `$AD nochekpoint` is ignored"),
        "{w}"
    );
    assert!(w.contains("did you mean `$AD NOCHECKPOINT`?"), "{w}");
    assert_eq!(w.matches("warning[W04").count(), 1, "{w}");

    // Before no loop, or before a loop it cannot reverse from snapshots: said, where it
    // is, and why.
    let text = "subroutine f(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(in) :: x(n)\n  \
                real(8), intent(out) :: y\n  integer :: i\n  !$AD BINOMIAL-CKP\n  y = 0\n  \
                !$AD BINOMIAL-CKP 10 2\n  do i = 1, n\n    if (x(i) < 0) exit\n    y = y + x(i)**2\n  \
                end do\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains(
            "w.f90:6:3: warning[W0401]: the directive `$AD BINOMIAL-CKP` is not honoured here: \
             it applies to the loop right after it, and none follows"
        ),
        "{w}"
    );
    assert!(
        w.contains(
            "w.f90:8:3: warning[W0401]: the directive `$AD BINOMIAL-CKP` is not honoured on this \
             loop: the loop is left early (EXIT, CYCLE or RETURN); its adjoint stores every iteration"
        ),
        "{w}"
    );
    assert_eq!(w.matches("warning[W04").count(), 2, "{w}");

    // A region opened and never closed in its block; one that leaves its loop.
    let text = "subroutine f(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(in) :: x(n)\n  \
                real(8), intent(out) :: y\n  integer :: i\n  y = 0\n  do i = 1, n\n    \
                !$AD CHECKPOINT-START\n    if (x(i) < 0) exit\n    y = y + x(i)**2\n    \
                !$AD CHECKPOINT-END\n  end do\n  !$AD CHECKPOINT-START\n  y = y*2\nend subroutine f\n";
    let w = warnings_of(text, "f", &["x"], &["y"]);
    assert!(
        w.contains(
            "w.f90:8:5: warning[W0401]: the directive `$AD CHECKPOINT-START` is not honoured on \
             this region: it leaves a loop around it (EXIT or CYCLE); its adjoint keeps the \
             region's tape"
        ),
        "{w}"
    );
    assert!(
        w.contains(
            "w.f90:13:3: warning[W0401]: the directive `$AD CHECKPOINT-START` is not honoured \
             here: it opens a region closed by the next CHECKPOINT-END of its block, and none \
             follows"
        ),
        "{w}"
    );
    assert_eq!(w.matches("warning[W04").count(), 2, "{w}");

    let fixed = "      SUBROUTINE F(N, X, Y)\n      INTEGER N, I\n      DOUBLE PRECISION X(N), Y\n      \
                 Y = 0\nC$AD II-LOOP\n      DO 10 I = 1, N\n         Y = Y + X(I)**2\n   10 CONTINUE\n      END\n";
    let w = warnings_in("w.f", fixed, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f:5:1: warning[W0401]: the directive `$AD II-LOOP` is not honoured yet"),
        "{w}"
    );

    let c = "void f(int n, const double x[8], double *y) {\n  *y = 0;\n  /* $AD FP-LOOP */\n  \
             for (int i = 0; i < n; i++) *y += x[i] * x[i];\n}\n";
    let w = warnings_in("w.c", c, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.c:3:3: warning[W0401]: the directive `$AD FP-LOOP` is not honoured yet"),
        "{w}"
    );
}

/// A construct adgen cannot handle (here an ENTRY statement) in a
/// procedure that no root reaches does not block the roots; made a root, it is refused.
#[test]
fn an_unreached_procedure_never_blocks_a_root() {
    let text = "subroutine tangled(x)\n  real(8) :: x\n  x = x*2\n  entry other(x)\n  \
                x = x + 1\nend subroutine tangled\n\n\
                subroutine root(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                y = x**2\nend subroutine root\n";
    let w = warnings_of(text, "root", &["x"], &["y"]);
    assert!(w.is_empty(), "{w}");
    let e = errors_of(text, "tangled", &["x"], &["x"]);
    assert!(e.contains("error[E0401]"), "{e}");
}

/// What adgen does not support yet (a procedure argument called with active arguments
/// by the root itself, a main PROGRAM) blocks only the roots that reach it: modern libraries
/// declare abstract interfaces for their drivers' callbacks, which a root computing one
/// kernel never calls, and files of procedures often hold their main program too. ERROR STOP and IMPORT are read and kept as written.
#[test]
fn unsupported_constructs_block_only_the_roots_that_reach_them() {
    let text = "\
module kernels
  use iso_fortran_env, only: wp => real64
  implicit none
  abstract interface
    subroutine func(n, x, f)
      import :: wp
      implicit none
      integer, intent(in) :: n
      real(wp), intent(in) :: x(n)
      real(wp), intent(out) :: f !! a comment line after the last declaration
                                 !! that continues on the next line
    end subroutine func
  end interface
contains
  subroutine solve(fcn, n, x, f)
    procedure(func) :: fcn
    integer, intent(in) :: n
    real(wp), intent(inout) :: x(n)
    real(wp), intent(out) :: f
    if (n < 1) error stop 'solve: n < 1'
    block
      integer :: k
      do k = 1, 3
        call fcn(n, x, f)
      end do
    end block
  end subroutine solve
  subroutine outer(x)
    real(wp), intent(inout) :: x
    x = twice(x)
  contains
    real(wp) function twice(y)
      real(wp), intent(in) :: y
      twice = 2*y
    end function twice
  end subroutine outer
  subroutine root(n, x, y)
    integer, intent(in) :: n
    real(wp), intent(in) :: x(n)
    real(wp), intent(out) :: y
    y = sum(x**2)
  end subroutine root
end module kernels

program demo
  use kernels
  implicit none
  real(wp) :: x(3), y
  integer :: n
  n = iargc()
  x = [1.0_wp, 2.0_wp, 3.0_wp]
  call root(3, x, y)
  print *, y, n
end program demo
";
    let w = warnings_of(text, "root", &["x"], &["y"]);
    assert!(!w.contains("error"), "{w}");
    // `procedure(func) :: fcn` is read (typed by the abstract interface), and so is the
    // BLOCK; a procedure argument is differentiated only through a caller naming it.
    let e = errors_of(text, "solve", &["x"], &["f"]);
    assert!(
        e.contains("w.f90:24:9: error[E0503]: `fcn`, a procedure argument of `solve`, is called with active arguments"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // Internal procedures are lifted out of their host (they were refused before).
    let w = warnings_of(text, "outer", &["x"], &["x"]);
    assert!(!w.contains("error"), "{w}");
    // A main program is read (its calls are known) and never differentiated.
    let e = errors_of(text, "demo", &["x"], &["y"]);
    assert!(
        e.contains(
            "w.f90:45:1: error[E0402]: `demo` is a main PROGRAM, which cannot be differentiated"
        ),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// Pointer arguments of unknown size: one W0501 per root, for both modes, naming every
/// derivative the caller must set (not one warning per argument and mode).
#[test]
fn unsized_pointer_arguments_are_one_warning_per_root() {
    let source = "void sq(int n, const double *x, const double *w, double *y, double *z)\n{\n    \
                  for (int i = 0; i < n; i++) {\n        y[i] = x[i] * w[i];\n        \
                  z[i] = x[i] + w[i];\n    }\n}\n";
    let text = warnings_in("sq.c", source, "sq", &["x", "w"], &["y", "z"]);
    assert_eq!(text.matches("warning[").count(), 1, "{text}");
    assert!(
        text.contains(
            "root `sq`: the sizes of `x`, `w`, `y`, `z` are unknown, so adgen does not zero \
             their derivatives: `sq_d` sets `yd`, `zd` only where `sq` writes (set the rest to \
             zero); `sq_b` adds to `xb`, `wb` (set them to zero before the call)"
        ),
        "{text}"
    );
    assert!(text.contains("`[sizes.sq]`"), "{text}");
}

/// A call of a procedure without source is one error, not one per mode.
#[test]
fn missing_source_is_said_once_for_both_modes() {
    let text = "subroutine top(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(in) :: x(n)\n  \
                real(8), intent(out) :: y\n  real(8) :: s\n  external :: ext_norm\n  \
                call ext_norm(n, x, s)\n  y = s*s\nend subroutine top\n";
    let input = adgen::SourceInput::new("w.f90", text);
    let e = adgen::differentiate(&[input], &request("top", &["x"], &["y"]))
        .expect_err("refused")
        .rendered;
    assert_eq!(e.matches("E0503").count(), 1, "{e}");
    assert!(e.contains("w.f90:7:3: error[E0503]"), "{e}");
}

/// Structure constructors are split by component as the right-hand side of an
/// assignment; the forms that cannot be are refused where they stand.
#[test]
fn structure_constructor_refusals() {
    let module = "module m\n  type pt\n    real(8) :: x, y\n  end type\ncontains\n  subroutine f(c, y)\n    real(8), intent(in) :: c\n    real(8), intent(out) :: y\n    type(pt) :: p\n";
    let end = "    y = p%x*p%y\n  end subroutine\n  subroutine g(q)\n    type(pt) :: q\n    q%x = 1\n  end subroutine\nend module\n";
    let run = |body: &str| errors_of(&format!("{module}{body}{end}"), "f", &["c"], &["y"]);
    let e = run("    p = pt(c, c)\n    p = pt(p%y, p%x)\n");
    assert!(
        e.contains("w.f90:11:5: error[E0414]: the structure constructor reads `p`"),
        "{e}"
    );
    let e = run("    p = pt(c)\n");
    assert!(
        e.contains("error[E0404]") && e.contains("no value for component `y`"),
        "{e}"
    );
    let e = run("    p = pt(c, c)\n    call g(pt(c, c))\n");
    assert!(
        e.contains("w.f90:11:12: error[E0404]: the structure constructor `pt(...)` is supported only as the whole right-hand side"),
        "{e}"
    );
    let e = run("    p = pt(c, z=c)\n");
    assert!(e.contains("error[E0310]") && e.contains("names `z`"), "{e}");
}

/// A root that reads its input keeps the READ in tangent mode (it runs once); its
/// adjoint, which cannot restore what the READ overwrites yet, is refused.
#[test]
fn input_in_a_root_is_read_once_in_both_modes() {
    let text = "subroutine r(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
                real(8) :: c\n  character(len=8) :: line\n  line = '2.5'\n  read(line, *) c\n  \
                y = c*x\nend subroutine r\n";
    let input = adgen::SourceInput::new("w.f90", text);
    let req = request("r", &["x"], &["y"]);
    let out = adgen::differentiate(&[input], &req).expect("both modes accepted");
    for f in out.files.iter().filter(|f| f.path.starts_with("w_")) {
        assert_eq!(
            f.contents.matches("read(line, *) c").count(),
            1,
            "{}",
            f.contents
        );
    }
}

/// Internal procedures of two files may share a name: each is renamed after its host,
/// and each host calls its own.
#[test]
fn internal_procedures_of_two_files_keep_their_own_meaning() {
    let host = |h: &str, body: &str| {
        format!(
            "subroutine {h}(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
             y = f(x)\ncontains\n  real(8) function f(t)\n    real(8), intent(in) :: t\n    \
             f = {body}\n  end function\nend subroutine\n"
        )
    };
    let inputs = [
        adgen::SourceInput::new("a.f90", host("h1", "t**2")),
        adgen::SourceInput::new("b.f90", host("h2", "3*t")),
    ];
    let mut req = request("h1", &["x"], &["y"]);
    let mut second = req.roots[0].clone();
    second.name = "h2".into();
    req.roots.push(second);
    req.roots
        .iter_mut()
        .for_each(|r| r.modes = BTreeSet::from([adgen::Mode::Tangent]));
    let out = adgen::differentiate(&inputs, &req).expect("accepted");
    let text = |p: &str| {
        out.files
            .iter()
            .find(|f| f.path == p)
            .map(|f| f.contents.clone())
            .unwrap_or_default()
    };
    let (a, b) = (text("a_d.f90"), text("b_d.f90"));
    assert!(
        a.contains("h1_f_d(x, xd, y)") && a.contains("fd = 2*t*td"),
        "{a}"
    );
    assert!(
        b.contains("h2_f_d(x, xd, y)") && b.contains("fd = 3*td"),
        "{b}"
    );
}

#[test]
fn unsupported_module_declarations_block_only_the_procedures_that_use_them() {
    // A polymorphic variable, a type with a scalar POINTER component and a POINTER variable:
    // `scale` uses none, `count_args` uses the type, `wrap` a type holding it, `rot`
    // the polymorphic variable, `keep` the pointer.
    let text = "\
module args
  implicit none
  class(*), allocatable :: gain
  type parsed
    real(8), pointer :: weight
    integer :: n
  end type parsed
  type holder
    type(parsed) :: inner
  end type holder
contains
  subroutine scale(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = 3*x
  end subroutine scale
  subroutine count_args(p, x, y)
    type(parsed), intent(in) :: p
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = p%n*x
  end subroutine count_args
  subroutine wrap(h, x, y)
    type(holder), intent(in) :: h
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x
  end subroutine wrap
  subroutine rot(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x
    if (allocated(gain)) y = 2*x
  end subroutine rot
end module args
";
    let w = warnings_of(text, "scale", &["x"], &["y"]);
    assert!(!w.contains("error"), "{w}");
    for root in ["count_args", "wrap"] {
        let e = errors_of(text, root, &["x"], &["y"]);
        assert!(
            e.contains("w.f90:5:5: error[E0405]: this POINTER component is not supported yet"),
            "{root}: {e}"
        );
        assert_eq!(e.matches("error[").count(), 1, "{root}: {e}");
    }
    // The variable's declaration was refused: `rot` hears of that, not of an
    // undeclared `gain`.
    let e = errors_of(text, "rot", &["x"], &["y"]);
    assert!(
        e.contains(
            "w.f90:3:3: error[E0405]: an unlimited polymorphic declaration (CLASS(*)) is not supported yet"
        ),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // A module's POINTER variable associated with `=>` with a TARGET of its module is
    // followed (one that only owns its memory is read as ALLOCATABLE); associated
    // with anything else anywhere, it blocks every procedure that names it, and only
    // those.
    let text = text
        .replace(
            "  class(*), allocatable :: gain\n",
            "  class(*), allocatable :: gain\n  real(8), pointer :: cache(:)\n  \
             real(8), target :: store(4)\n",
        )
        .replace(
            "end module args",
            "  subroutine keep(x, y)\n    real(8), intent(in) :: x\n    \
             real(8), intent(out) :: y\n    y = x + cache(1)\n  end subroutine keep\n  \
             subroutine bind()\n    cache => store\n  end subroutine bind\n\
             end module args",
        );
    let w = warnings_of(&text, "scale", &["x"], &["y"]);
    assert!(!w.contains("error"), "{w}");
    let w = warnings_of(&text, "keep", &["x"], &["y"]);
    assert!(!w.contains("error"), "{w}");
    let text = text.replace(
        "end module args",
        "  subroutine part()\n    cache => store(2:3)\n  end subroutine part\nend module args",
    );
    let w = warnings_of(&text, "scale", &["x"], &["y"]);
    assert!(!w.contains("error"), "{w}");
    let e = errors_of(&text, "keep", &["x"], &["y"]);
    let line = text.lines().position(|l| l.contains("store(2:3)")).unwrap() + 1;
    assert!(
        e.contains(&format!(
            "w.f90:{line}:5: error[E0401]: adgen follows the module's pointer `cache` among its module's TARGET variables of its type and rank (`store`)"
        )),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// An array of structures with an ALLOCATABLE component is refused once, where it is
/// declared: its procedures' uses of the component (allocated, subscripted) are the
/// refusal's consequences, not more errors.
#[test]
fn a_refused_module_array_of_structures_is_one_error() {
    let text = "module m
  implicit none
  type t
    real(8), allocatable :: arr(:)
  \
        end type t
  type(t), allocatable :: obj(:)
contains
  subroutine init(n)
    \
        integer, intent(in) :: n
    allocate(obj(2))
    allocate(obj(1)%arr(n))
  \
        end subroutine init
  subroutine run(n, x, y)
    integer, intent(in) :: n
    \
        real(8), intent(in) :: x
    real(8), intent(out) :: y
    integer :: i
    \
        y = 0
    do i = 1, n
      y = y + obj(1)%arr(i)*x
    end do
  \
        end subroutine run
end module m
";
    let e = errors_of(text, "run", &["x"], &["y"]);
    assert!(
        e.contains("w.f90:6:27: error[E0405]: an array of type `t`, whose component `arr` is ALLOCATABLE, is not supported yet"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// A BLOCK construct's declarations are hoisted into the procedure (the corpus runs
/// them); what its scope would change is one refusal where it is declared.
#[test]
fn block_declarations_adgen_cannot_hoist_are_one_error_each() {
    let head = "subroutine s(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
        real(8) :: t\n  t = x\n  block\n";
    let tail = "  end block\n  y = t\nend subroutine s\n";
    let cases = [
        (
            "    real(8) :: c = 2.0d0\n    t = c*t\n",
            "w.f90:7:5: error[E0401]: an initialized variable in a BLOCK is saved between its entries",
        ),
        (
            "    real(8), allocatable :: w(:)\n    allocate(w(2))\n    w = t\n    t = w(1)\n",
            "w.f90:7:5: error[E0401]: an ALLOCATABLE, POINTER or SAVE variable in a BLOCK is not supported yet",
        ),
    ];
    for (body, expected) in cases {
        let text = format!("{head}{body}{tail}");
        let e = errors_of(&text, "s", &["x"], &["y"]);
        assert!(e.contains(expected), "{body}\n{e}");
        assert_eq!(e.matches("error[").count(), 1, "{body}\n{e}");
    }
}

/// One error per unsupported construct: a `PROCEDURE(iface) :: f` dummy is typed by its
/// interface, so a root that takes it hears only that no caller names the procedure
/// (never "the function `f` has no type"); a procedure pointer is one refusal; an
/// interface that is not declared is one error.
#[test]
fn a_refused_procedure_declaration_is_one_error() {
    let text = "module integ\n  implicit none\n  abstract interface\n    \
        function rhs(y) result(dy)\n      real(8), intent(in) :: y\n      real(8) :: dy\n    \
        end function rhs\n  end interface\ncontains\n  subroutine euler(f, h, y)\n    \
        procedure(rhs) :: f\n    real(8), intent(in) :: h\n    real(8), intent(inout) :: y\n    \
        y = y + h*f(y)\n  end subroutine euler\nend module integ\n";
    let e = errors_of(text, "euler", &["h", "y"], &["y"]);
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    assert!(
        e.contains("w.f90:14:15: error[E0503]: `f`, a procedure argument of `euler`"),
        "{e}"
    );
    let pointer = text.replace("procedure(rhs) :: f", "procedure(rhs), pointer :: f");
    let e = errors_of(&pointer, "euler", &["h", "y"], &["y"]);
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    assert!(
        e.contains("w.f90:11:21: error[E0405]: a procedure declared with the POINTER attribute is not supported yet"),
        "{e}"
    );
    let unknown = text.replace("procedure(rhs) :: f", "procedure(rhs2) :: f");
    let e = errors_of(&unknown, "euler", &["h", "y"], &["y"]);
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    assert!(
        e.contains("w.f90:11:5: error[E0301]: the interface `rhs2` is not declared"),
        "{e}"
    );
}

/// In C too, a function adgen cannot lower (`main(int argc, char **argv)`) and a global it
/// cannot declare (an array of structs with an initializer) block only the roots that
/// reach them: the Benchmarks Game's n-body holds both beside its kernels. A root that
/// reaches one gets its refusal once, at its cause, not "`g` is not a variable".
#[test]
fn unsupported_c_blocks_only_the_roots_that_reach_it() {
    let c = "struct pt { double x, m; };\n\
             struct pt g_start[2] = {{1.0, 2.0}, {3.0, 4.0}};\n\
             void kernel(const double x[4], double *y) {\n  *y = x[0] * x[1];\n}\n\
             double first(void) {\n  return g_start[0].x;\n}\n\
             int main(int argc, char **argv) {\n  (void)argv;\n  return argc + (int)first();\n}\n";
    let w = warnings_in("m.c", c, "kernel", &["x"], &["y"]);
    assert!(w.is_empty(), "{w}");
    let input = adgen::SourceInput::new("m.c", c);
    let e = adgen::differentiate(&[input], &request("main", &[], &[]))
        .expect_err("refused")
        .rendered;
    assert!(e.contains("m.c:9:20: error[E0603]"), "{e}");
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    let input = adgen::SourceInput::new("m.c", c);
    let e = adgen::differentiate(&[input], &request("first", &[], &["first"]))
        .expect_err("refused")
        .rendered;
    assert!(
        e.contains("m.c:2:22: error[E0615]: the initializer of the global `g_start`"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // A prototype adgen cannot state (a function returning a pointer, as jburkardt's
    // black_scholes.h declares beside `bsf`) blocks only the functions that call it.
    let c = "double *path(int n);\ndouble bsf(double s) {\n  return s * s;\n}\n\
             double last(int n) {\n  path(n);\n  return 1.0 * n;\n}\n";
    let w = warnings_in("m.c", c, "bsf", &["s"], &["bsf"]);
    assert!(w.is_empty(), "{w}");
    let input = adgen::SourceInput::new("m.c", c);
    let e = adgen::differentiate(&[input], &request("last", &[], &["last"]))
        .expect_err("refused")
        .rendered;
    assert!(
        e.contains("m.c:1:8: error[E0603]: the prototype of `path`"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// A front-end's warning on a file it accepts reaches the run's warnings: fixed-form
/// text past column 72 is ignored, as gfortran ignores it, and adgen says so (it was
/// dropped whenever the file had no error).
#[test]
fn a_front_end_warning_on_an_accepted_file_is_said() {
    let source = "      subroutine f(x, y)\n      real*8 x, y\n      y = x*x                                                           + 1.0d0*x\n      end\n";
    let w = warnings_in("w.f", source, "f", &["x"], &["y"]);
    assert!(
        w.contains("w.f:3:73: warning[W0202]") && w.contains("after column 72"),
        "{w}"
    );
}

/// An operator on a derived type that no `interface operator` defines, and a named
/// operator that is not declared, are one located error each (never differentiated as
/// arithmetic on the components).
#[test]
fn an_undefined_operator_is_one_error() {
    let text = "module m\n  implicit none\n  type v\n    real(8) :: x\n  end type\n  \
        interface operator(+)\n    module procedure vadd\n  end interface\ncontains\n  \
        function vadd(a, b) result(c)\n    type(v), intent(in) :: a, b\n    type(v) :: c\n    \
        c%x = a%x + b%x\n  end function vadd\n  subroutine f(a, b, y)\n    \
        real(8), intent(in) :: a, b\n    real(8), intent(out) :: y\n    type(v) :: p, q\n    \
        p%x = a\n    q%x = b\n    p = p + q\n    p = p*q\n    y = p%x\n  end subroutine f\nend module m\n";
    let e = errors_of(text, "f", &["a", "b"], &["y"]);
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    assert!(
        e.contains("w.f90:22:9: error[E0429]: the operator `*` is not defined for `type(v)` here"),
        "{e}"
    );
    let named = text.replace("p = p*q", "y = p%x .foo. q%x");
    let e = errors_of(&named, "f", &["a", "b"], &["y"]);
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    assert!(
        e.contains("w.f90:22:9: error[E0302]: the operator `.foo.` is not defined here"),
        "{e}"
    );
}

/// ALLOCATABLE components: of a local structure, allocated where it is declared; an
/// array of such a type, or an ALLOCATE of a dummy structure's component, is one
/// refusal each, where it is written.
#[test]
fn allocatable_components_refused_where_adgen_cannot_follow_them() {
    let text = "module m\n  implicit none\n  type field\n    real(8), allocatable :: h(:)\n  \
        end type field\ncontains\n  subroutine init(f, n)\n    type(field), intent(inout) :: f\n    \
        integer, intent(in) :: n\n    allocate(f%h(n))\n    f%h = 1\n  end subroutine init\n  \
        subroutine many(n, x, y)\n    integer, intent(in) :: n\n    real(8), intent(in) :: x\n    \
        real(8), intent(out) :: y\n    type(field) :: fs(3)\n    y = x\n  end subroutine many\n\
        end module m\n";
    let e = errors_of(text, "many", &["x"], &["y"]);
    assert!(
        e.contains("w.f90:17:20: error[E0405]: an array of type `field`, whose component `h` is ALLOCATABLE, is not supported yet"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // A component of a dummy structure: allocated once at the top level for the
    // caller, it is followed; freed, or allocated in a branch, it is refused.
    let module = |body: &str| {
        format!(
            "module m\n  implicit none\n  type field\n    real(8), allocatable :: h(:)\n  \
             end type field\ncontains\n  subroutine init(f, n, x)\n    \
             type(field), intent(inout) :: f\n    integer, intent(in) :: n\n    \
             real(8), intent(in) :: x\n{body}  end subroutine init\nend module m\n"
        )
    };
    let e = errors_of(
        &module("    allocate(f%h(n))\n    f%h = x\n    deallocate(f%h)\n"),
        "init",
        &["x"],
        &["f"],
    );
    assert!(
        e.contains("w.f90:13:5: error[E0414]: the ALLOCATABLE component `f%h` of the dummy argument `f` is freed here after this procedure allocates it"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    let e = errors_of(
        &module("    if (n > 0) allocate(f%h(n))\n    f%h = x\n"),
        "init",
        &["x"],
        &["f"],
    );
    assert!(
        e.contains("w.f90:11:16: error[E0414]: the ALLOCATABLE component `f%h` of the dummy argument `f` is allocated in a loop, in some branches of an IF but not all, or more than once"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // The caller that declares the structure hears why it cannot use a component
    // nothing allocates.
    let caller = module("    f%h = x\n").replace(
        "end module m\n",
        "  subroutine run(n, x, y)\n    integer, intent(in) :: n\n    real(8), intent(in) :: x\n    \
         real(8), intent(out) :: y\n    type(field) :: f\n    call init(f, n, x)\n    \
         y = sum(f%h)\n  end subroutine run\nend module m\n",
    );
    let e = errors_of(&caller, "run", &["x"], &["y"]);
    assert!(
        e.contains(
            "error[E0545]: `f%h` is used here, but neither this procedure nor a subroutine it calls with `f` as an argument allocates it first"
        ),
        "{e}"
    );
}

/// The checks of calls between Fortran and C are said for the procedures a root reaches
/// only: a PNG writer beside the solver, with its renaming BIND(C) interface, blocks
/// nothing until a root calls it.
#[test]
fn language_boundary_problems_of_unreached_procedures_block_nothing() {
    let text = "module io\n  implicit none\ncontains\n  subroutine save(d)\n    \
        real(8), intent(in) :: d(:)\n    interface\n      subroutine save_c(d, n) bind(C, name=\"save_png\")\n        \
        use, intrinsic :: iso_c_binding\n        real(c_double) :: d(*)\n        \
        integer(c_int), value :: n\n      end subroutine save_c\n    end interface\n    \
        call save_c(d, size(d))\n  end subroutine save\nend module io\n\
        subroutine root(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
        y = 2*x\nend subroutine root\n";
    assert_eq!(warnings_of(text, "root", &["x"], &["y"]), "");
    let reached = text.replace(
        "  y = 2*x\n",
        "  real(8) :: d(2)\n  d = x\n  call save(d)\n  y = 2*x\n",
    );
    let reached = reached.replace(
        "subroutine root(x, y)\n",
        "subroutine root(x, y)\n  use io\n",
    );
    let e = errors_of(&reached, "root", &["x"], &["y"]);
    assert!(
        e.contains("error[E0415]: BIND(C, NAME=\"save_png\") renames `save_c`"),
        "{e}"
    );
}

/// An ALLOCATABLE dummy the procedure allocates for its caller is followed when it is
/// allocated once, at the top level, before any use; every other way is one refusal.
#[test]
fn allocations_for_the_caller_adgen_cannot_follow_are_one_error_each() {
    let head = "module m\n  implicit none\ncontains\n  subroutine make(w, n, x)\n    \
        real(8), allocatable, intent(out) :: w(:)\n    integer, intent(in) :: n\n    \
        real(8), intent(in) :: x\n";
    let tail = "  end subroutine make\n  subroutine fill(w, n, x)\n    \
        real(8), allocatable, intent(inout) :: w(:)\n    integer, intent(in) :: n\n    \
        real(8), intent(in) :: x\n    allocate(w(n))\n    w = x\n  end subroutine fill\n\
        end module m\n";
    let cases = [
        (
            "    w(1) = x\n",
            "w.f90:5:42: error[E0414]: the ALLOCATABLE dummy argument `w` is INTENT(OUT), so freed on entry, but never allocated here",
        ),
        (
            "    if (n < 1) return\n    allocate(w(n))\n    w = x\n",
            "w.f90:8:16: error[E0414]: the ALLOCATABLE dummy argument `w` may be left unallocated by this jump before its ALLOCATE",
        ),
        (
            "    allocate(w(n))\n    w = x\n    allocate(w(n))\n",
            "w.f90:10:5: error[E0414]: the ALLOCATABLE dummy argument `w` is allocated in a loop, in some branches of an IF but not all, or more than once",
        ),
        (
            "    if (n > 1) then\n      call fill(w, n, x)\n    end if\n",
            "w.f90:9:7: error[E0414]: the ALLOCATABLE dummy argument `w` is allocated in a loop, in some branches of an IF but not all, or more than once",
        ),
        (
            "    if (n > 1) then\n      w(1) = x\n      call fill(w, n, x)\n    else\n      allocate(w(n))\n    end if\n",
            "w.f90:10:7: error[E0414]: the ALLOCATABLE dummy argument `w` is allocated in a loop, in some branches of an IF but not all, or more than once",
        ),
    ];
    // Allocated through a call, or in every branch of an IF: followed.
    for body in [
        "    call fill(w, n, x)\n",
        "    if (n > 1) then\n      call fill(w, n, x)\n    else\n      allocate(w(1))\n      w = x\n    end if\n",
    ] {
        let text = format!("{head}{body}{tail}");
        let input = adgen::SourceInput::new("w.f90", &text);
        let r = adgen::differentiate(&[input], &request("make", &["x"], &["w"]));
        assert!(
            r.is_ok(),
            "{body}\n{}",
            r.err().map(|e| e.rendered).unwrap_or_default()
        );
    }
    // Freed for good, or freed and allocated again: the caller passes it allocated.
    let inout = head.replace("intent(out) :: w(:)", "intent(inout) :: w(:)");
    let freeing = [
        (
            "    w(1) = x\n    if (n > 1) deallocate(w)\n",
            "w.f90:9:16: error[E0414]: the ALLOCATABLE dummy argument `w` is freed in a loop or a branch, or more than once",
        ),
        (
            "    deallocate(w)\n    w(1) = x\n",
            "w.f90:8:5: error[E0414]: the ALLOCATABLE dummy argument `w` is used after this DEALLOCATE",
        ),
        (
            "    deallocate(w)\n    if (n > 1) allocate(w(n))\n",
            "w.f90:9:5: error[E0414]: the ALLOCATABLE dummy argument `w` is allocated in this loop or branch and not freed in it",
        ),
    ];
    for (body, expected) in freeing {
        let text = format!("{inout}{body}{tail}");
        let e = errors_of(&text, "make", &["x"], &["w"]);
        assert!(e.contains(expected), "{body}\n{e}");
        assert_eq!(e.matches("error[").count(), 1, "{body}\n{e}");
    }
    for (body, expected) in cases {
        let text = format!("{head}{body}{tail}");
        let e = errors_of(&text, "make", &["x"], &["w"]);
        assert!(e.contains(expected), "{body}\n{e}");
        assert_eq!(e.matches("error[").count(), 1, "{body}\n{e}");
    }
}

/// Local pointers are replaced by their targets; what cannot be replaced exactly is one
/// refusal where it is written, and a pointer dummy one refusal of its declaration.
#[test]
fn pointers_adgen_cannot_replace_are_one_error_each() {
    let head = "subroutine s(n, a, b, y)\n  integer, intent(in) :: n\n  \
        real(8), target, intent(inout) :: a(n), b(n)\n  real(8), intent(out) :: y\n  \
        real(8), pointer :: p(:), q(:), t(:)\n  integer :: i, m\n";
    let cases = [
        // A target that depends on the path is followed by a selector among whole
        // variables only, in a procedure without GO TO, and a statement that uses it is
        // written once per target, so it cannot hold a label.
        (
            "  p => a\n  if (n > 2) p => b(1:2)\n  y = p(1)\n",
            "w.f90:8:14: error[E0401]: the target of the pointer `p` depends on the path, and adgen follows such a pointer only among whole variables, but here it is associated with part of one",
        ),
        (
            "  p => a\n  if (n > 2) p => b\n  if (n > 3) go to 10\n  y = p(1)\n10 continue\n",
            "error[E0401]: the target of the pointer `p` depends on the path, which adgen follows only in a procedure without GO TO",
        ),
        (
            "  p => a\n  if (n > 2) p => b\n  do i = 1, 2\n    y = p(i)\n    write(*, 20) y\n20  format(f8.3)\n  end do\n",
            "w.f90:9:3: error[E0401]: the targets of the pointers `p` depend on the path, and adgen writes this statement once for each of their combinations, but a statement label inside it would be defined twice",
        ),
        // A DO WHILE condition sees the association its body makes.
        (
            "  p => a\n  do while (p(1) < 5)\n    p(1) = p(1) + 1\n    p => b\n  end do\n",
            "w.f90:8:13: error[E0401]: adgen cannot tell which target the pointer `p` has here",
        ),
        (
            "  y = p(1)\n  p => a\n",
            "w.f90:7:7: error[E0401]: the pointer `p` is used where it is not associated",
        ),
        (
            "  p => a\n  y = p(1)\n  p => null()\n  y = p(2)\n",
            "w.f90:10:7: error[E0401]: the pointer `p` is used where it is not associated",
        ),
        (
            "  m = 2\n  p => a(m:n)\n  m = 3\n  y = p(1)\n",
            "w.f90:9:3: error[E0401]: `m` changes here while the pointer `p` is associated",
        ),
    ];
    for (body, expected) in cases {
        let text = format!("{head}{body}  y = y + a(1)\nend subroutine s\n");
        let e = errors_of(&text, "s", &["a", "b"], &["y"]);
        assert!(e.contains(expected), "{body}\n{e}");
        assert_eq!(e.matches("error[").count(), 1, "{body}\n{e}");
    }
    // A pointer initialized in its declaration keeps its association between calls:
    // where it may still have the last call's target, no selector can tell it.
    let text = "subroutine s(n, a, b, y)\n  integer, intent(in) :: n\n  \
        real(8), target, intent(inout) :: a(n), b(n)\n  real(8), intent(out) :: y\n  \
        real(8), pointer :: p(:) => null()\n  if (n > 2) p => b\n  if (n > 3) p => a\n  \
        y = p(1)\nend subroutine s\n";
    let e = errors_of(text, "s", &["a", "b"], &["y"]);
    assert!(
        e.contains("w.f90:8:3: error[E0401]: the target of the pointer `p` depends on the path, and it keeps its association between calls"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // Three targets for each of two pointers chosen apart: nine copies are too many.
    let text = "subroutine s(n, a, b, c, y)\n  integer, intent(in) :: n\n  \
        real(8), target, intent(inout) :: a(n), b(n), c(n)\n  real(8), intent(out) :: y\n  \
        real(8), pointer :: p(:), q(:)\n  p => a\n  q => a\n  if (n > 2) p => b\n  \
        if (n > 3) p => c\n  if (n > 4) q => b\n  if (n > 5) q => c\n  y = p(1)*q(2)\n\
        end subroutine s\n";
    let e = errors_of(text, "s", &["a", "b", "c"], &["y"]);
    assert!(
        e.contains("w.f90:12:3: error[E0401]: the targets of the pointers `p`, `q` depend on the path, and this statement would be written 9 times"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // A host's pointer used in an internal procedure.
    let text = "subroutine s(n, a, y)\n  integer, intent(in) :: n\n  real(8), target, intent(in) :: a(n)\n  \
        real(8), intent(out) :: y\n  real(8), pointer :: p(:)\n  p => a\n  y = first()\ncontains\n  \
        real(8) function first()\n    first = p(1)\n  end function first\nend subroutine s\n";
    let e = errors_of(text, "s", &["a"], &["y"]);
    assert!(
        e.contains(
            "w.f90:9:3: error[E0401]: the host's pointer `p` is used in this internal procedure"
        ),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // A POINTER dummy associated with `=>` (one that only owns its memory is read as
    // ALLOCATABLE: the corpus runs those).
    let text = "subroutine s(p, a, y)\n  real(8), pointer :: p(:)\n  real(8), target, intent(in) :: a(:)\n  \
        real(8), intent(out) :: y\n  p => a\n  y = p(1)\nend subroutine s\n";
    let e = errors_of(text, "s", &["a"], &["y"]);
    assert!(
        e.contains("w.f90:2:3: error[E0405]: this POINTER is not supported yet"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// ALLOCATE with SOURCE= or MOLD= of an array the procedure declares is followed (the
/// corpus runs it); any other source is one refusal that says how to write it.
#[test]
fn allocate_with_a_source_of_unknown_shape_says_how_to_write_it() {
    let text = "subroutine run(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(in) :: x(n)\n  \
        real(8), intent(out) :: y\n  real(8), allocatable :: buf(:)\n  allocate(buf, source=2*x)\n  \
        y = sum(buf)\nend subroutine run\n";
    // An elementwise expression of arrays is shaped by them (the corpus runs one).
    assert_eq!(warnings_of(text, "run", &["x"], &["y"]), "");
    let text = text.replace("source=2*x", "source=x(2:n)");
    let e = errors_of(&text, "run", &["x"], &["y"]);
    assert!(
        e.contains(
            "w.f90:6:24: error[E0404]: this SOURCE= is not an array this procedure declares"
        ),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    let two = text.replace(
        "allocate(buf, source=x(2:n))",
        "allocate(buf, buf2, source=x)",
    );
    let two = two.replace("allocatable :: buf(:)", "allocatable :: buf(:), buf2(:)");
    let e = errors_of(&two, "run", &["x"], &["y"]);
    assert!(
        e.contains("error[E0404]: `source=` in ALLOCATE is not supported yet"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    let ok = text.replace("source=x(2:n)", "source=x");
    assert_eq!(warnings_of(&ok, "run", &["x"], &["y"]), "");
}

/// A module array whose allocation a reached procedure changes (by ALLOCATE or
/// DEALLOCATE, POINTER or ALLOCATABLE, or through a CALL to a procedure that allocates
/// its dummy) is followed (`il::heap_globals`, `diff::heap`); refused before (E0545).
/// A caller that does not see the array names it as its module does; one with its own
/// entity of that name cannot, and the call is one E0545: the caller's adjoint could
/// not restore the array.
#[test]
fn a_module_array_allocated_by_a_reached_procedure_is_followed() {
    let text = "module arr
  implicit none
  double precision, allocatable :: xs(:)
  double precision, pointer :: ws(:)
contains
  subroutine initial_array(x, n)
    double precision, allocatable, intent(inout) :: x(:)
    integer, intent(in) :: n
    allocate(x(n))
  end subroutine initial_array
  subroutine gen_mesh(n, dl)
    integer, intent(in) :: n
    double precision, intent(in) :: dl
    integer :: i
    call initial_array(xs, n)
    do i = 1, n
      xs(i) = (i - 1)*dl
    end do
  end subroutine gen_mesh
  subroutine set_weights(n)
    integer, intent(in) :: n
    allocate(ws(n))
    ws = 1.0d0/n
  end subroutine set_weights
end module arr
subroutine total(n, dl, s)
  use arr
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: dl
  double precision, intent(out) :: s
  call gen_mesh(n, dl)
  s = sum(xs**2)
  deallocate(xs)
end subroutine total
subroutine weighted(n, dl, s)
  use arr
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: dl
  double precision, intent(out) :: s
  call set_weights(n)
  s = dl*sum(ws)
  deallocate(ws)
end subroutine weighted
subroutine reads(n, dl, s)
  use arr
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: dl
  double precision, intent(out) :: s
  s = dl*sum(ws(1:n))
end subroutine reads
";
    assert_eq!(warnings_of(text, "total", &["dl"], &["s"]), "");
    assert_eq!(warnings_of(text, "weighted", &["dl"], &["s"]), "");
    // Allocated by the driver, a module array (POINTER or not) is read and written.
    assert_eq!(warnings_of(text, "reads", &["dl"], &["s"]), "");
    // The caller does not use the module whose array the call allocates: its
    // derivatives import it. One with a local of the array's name cannot.
    let hidden = "module store
  implicit none
  double precision, allocatable :: g(:)
contains
  subroutine fill(n, a)
    integer, intent(in) :: n
    double precision, intent(in) :: a
    allocate(g(n))
    g = a
  end subroutine fill
  double precision function total_of()
    total_of = sum(g**2)
  end function total_of
end module store
subroutine hidden(n, a, s)
  use store, only: fill, total_of
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: a
  double precision, intent(out) :: s
  call fill(n, a)
  s = total_of()
end subroutine hidden
";
    assert_eq!(warnings_of(hidden, "hidden", &["a"], &["s"]), "");
    let shadowed = hidden.replace(
        "  double precision, intent(out) :: s\n  call fill",
        "  double precision, intent(out) :: s\n  double precision :: g\n  g = 1\n  call fill",
    );
    let e = errors_of(&shadowed, "hidden", &["a"], &["s"]);
    assert!(
        e.contains("w.f90:23:3: error[E0545]: `fill` allocates the module array `g` of module `store`, which `hidden` cannot name"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// A CLASS(t) dummy is read as TYPE(t) only while no type of the sources extends `t`:
/// with an extension (refused where it is defined, and used by no reached procedure),
/// the dummy may hold one whose bindings run other procedures, so the procedure that
/// declares it is refused at the declaration. Without one, it is accepted.
#[test]
fn a_class_dummy_of_an_extended_type_is_refused() {
    let text = "module shapes
  implicit none
  type box
    real(8) :: w
  contains
    procedure :: area
  end type box
contains
  real(8) function area(b)
    class(box), intent(in) :: b
    area = b%w**2
  end function area
  subroutine measure(b, y)
    class(box), intent(in) :: b
    real(8), intent(out) :: y
    y = b%area()
  end subroutine measure
end module shapes
";
    assert_eq!(warnings_of(text, "measure", &["b"], &["y"]), "");
    let extended = format!(
        "{text}module cubes
  use shapes
  implicit none
  type, extends(box) :: cube
    real(8) :: h
  end type cube
end module cubes
"
    );
    let e = errors_of(&extended, "measure", &["b"], &["y"]);
    assert!(
        e.contains(
            "w.f90:14:31: error[E0405]: `b` is CLASS(box), and a type of the sources extends `box`"
        ),
        "{e}"
    );
}

/// A type whose type-bound procedure part has what adgen does not take (a GENERIC
/// binding) is one refusal, at its TYPE line, for the procedures that use the type;
/// before, its bindings and END TYPE were four errors for every root. (Specific
/// bindings, NOPASS, PASS(arg) and FINAL are followed: corpus `type_bound_swarm`.)
#[test]
fn a_type_bound_procedure_part_is_one_error_for_the_users_of_the_type() {
    let text = "module shapes
  implicit none
  type box
    real(8) :: w, h
  contains
    procedure, nopass :: area
    procedure(area), deferred, nopass :: size
    final :: drop
  end type box
contains
  real(8) function area(w, h)
    real(8), intent(in) :: w, h
    area = w*h
  end function area
  subroutine drop(b)
    type(box) :: b
    b%w = 0
  end subroutine drop
  subroutine plain(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = area(x, 2*x)
  end subroutine plain
  subroutine uses(b, x, y)
    type(box), intent(in) :: b
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x*b%w
  end subroutine uses
end module shapes
";
    assert_eq!(warnings_of(text, "plain", &["x"], &["y"]), "");
    let e = errors_of(text, "uses", &["x"], &["y"]);
    assert!(
        e.contains("w.f90:3:3: error[E0405]: type-bound procedures with an interface name (`PROCEDURE(iface)`) (in type `box`) are not supported yet"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// A procedure that USEs a module the sources lack blocks only the roots that reach it,
/// with one error: the names it would have brought (`mpivar%glob_id`) are not declared,
/// but that is the same problem. Before, every root of the file got all of them.
#[test]
fn a_missing_module_blocks_only_the_procedure_that_uses_it() {
    let text = "module tools
  implicit none
contains
  subroutine scale(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = 3*x
  end subroutine scale
  subroutine dump(x, y)
    use mpi_omp
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x
    write (*, *) mpivar%glob_id, x
  end subroutine dump
end module tools
";
    assert_eq!(warnings_of(text, "scale", &["x"], &["y"]), "");
    let e = errors_of(text, "dump", &["x"], &["y"]);
    assert!(
        e.contains("w.f90:10:5: error[E0313]: module `mpi_omp` is not defined in the sources"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// A local pointer replaced by its target cannot be passed to a POINTER dummy whose
/// allocation the callee changes: the original changes the pointer's association and
/// leaves the target alone. One that the callee only reads and writes can.
#[test]
fn an_alias_passed_to_a_procedure_that_allocates_its_pointer_dummy_is_one_error() {
    let text = "module rm
  implicit none
  type box
    double precision, pointer :: x(:) => null()
  end type box
contains
  subroutine renew(w, n)
    double precision, pointer :: w(:)
    integer, intent(in) :: n
    allocate(w(n))
    w = 1.0d0
  end subroutine renew
  subroutine scale2(w)
    double precision, pointer :: w(:)
    w = 2*w
  end subroutine scale2
  subroutine run(n, a, e)
    integer, intent(in) :: n
    double precision, intent(in) :: a
    double precision, intent(out) :: e
    type(box) :: b
    double precision, pointer :: p(:)
    allocate(b%x(n))
    b%x = a
    p => b%x
    call scale2(p)
    e = sum(b%x)
    call renew(p, n)
    e = e + sum(p)
    deallocate(b%x)
  end subroutine run
end module rm
";
    let e = errors_of(text, "run", &["a"], &["e"]);
    assert!(
        e.contains("w.f90:28:5: error[E0401]: the pointer `p` is passed to `renew`, which allocates or frees its POINTER dummy"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    let text = text.replace("    call renew(p, n)\n", "");
    assert_eq!(warnings_of(&text, "run", &["a"], &["e"]), "");
}

/// Files are lowered in the manifest's order, a file waiting for the modules of later
/// ones. A module whose own module comes from a later file (`const` uses `precision`,
/// which renames `iso_fortran_env`'s kinds) was seen half-made by the files using it:
/// every `real(dp)` was an error (51 in a real Saint-Venant code). And a procedure that
/// USEs a module of a later file is not refused for it.
#[test]
fn modules_defined_in_later_files_are_waited_for() {
    let precision = "module precision
  use, intrinsic :: iso_fortran_env, di => int32, dp => real64
  implicit none
end module precision
";
    let constants = "module const
  use precision
  implicit none
  real(kind=dp), parameter :: two = 2.0_dp
end module const
";
    let root = "subroutine sq(x, y)
  use const
  implicit none
  real(dp), intent(in) :: x
  real(dp), intent(out) :: y
  integer(kind=di) :: k
  k = 2
  y = two*x**k
end subroutine sq
";
    let differentiate = |inputs: &[adgen::SourceInput]| match adgen::differentiate(
        inputs,
        &request("sq", &["x"], &["y"]),
    ) {
        Ok(out) => assert_eq!(out.warnings, ""),
        Err(e) => panic!("{}", e.rendered),
    };
    differentiate(&[
        adgen::SourceInput::new("a_const.f90", constants),
        adgen::SourceInput::new("b_precision.f90", precision),
        adgen::SourceInput::new("c_sq.f90", root),
    ]);
    let root = "subroutine sq(x, y)
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  y = x + late(x)
contains
  real(8) function late(z)
    use later
    real(8), intent(in) :: z
    late = z*gain
  end function late
end subroutine sq
";
    let later = "module later
  implicit none
  real(8), parameter :: gain = 3.0d0
end module later
";
    differentiate(&[
        adgen::SourceInput::new("a_sq.f90", root),
        adgen::SourceInput::new("b_later.f90", later),
    ]);
}

/// A module's POINTER array that its own file only allocates is read as ALLOCATABLE;
/// associated with `=>` in another file (refused there), it may alias other data: every
/// procedure a root reaches that names it is blocked by that refusal, not only the one
/// that associates it (which no root may reach).
#[test]
fn a_module_pointer_associated_in_another_file_blocks_its_users() {
    let state = "module state
  implicit none
  double precision, pointer :: u(:) => null()
  double precision, target :: storage(10)
end module state
";
    let setup = "subroutine bind()
  use state
  implicit none
  u => storage(1:5)
end subroutine bind
";
    let roots = "subroutine uses_u(x, y)
  use state
  implicit none
  double precision, intent(in) :: x
  double precision, intent(out) :: y
  u(1) = x
  storage(1) = 2*x
  y = u(1)
end subroutine uses_u
subroutine plain(x, y)
  implicit none
  double precision, intent(in) :: x
  double precision, intent(out) :: y
  y = 3*x
end subroutine plain
";
    let inputs = [
        adgen::SourceInput::new("a_state.f90", state),
        adgen::SourceInput::new("b_setup.f90", setup),
        adgen::SourceInput::new("c_roots.f90", roots),
    ];
    let mut req = request("uses_u", &["x"], &["y"]);
    req.roots[0].modes = BTreeSet::from([adgen::Mode::Tangent]);
    let e = adgen::differentiate(&inputs, &req)
        .expect_err("refused")
        .rendered;
    assert!(
        e.contains("b_setup.f90:4:3: error[E0401]: unsupported statement: pointer assignment (`=>`) of `u` is not supported yet"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    match adgen::differentiate(&inputs, &request("plain", &["x"], &["y"])) {
        Ok(out) => assert_eq!(out.warnings, ""),
        Err(e) => panic!("{}", e.rendered),
    }
}

/// A call of a generic that no specific takes blocks only the roots that reach the
/// procedure making it: one E0429 for those, nothing for the others (it was an error of
/// the whole program before, whatever the roots).
#[test]
fn an_unresolvable_generic_call_blocks_only_the_roots_that_reach_it() {
    let text = "module mags
  implicit none
  interface mag
    module procedure mag_r, mag_v
  end interface mag
contains
  real(8) function mag_r(x)
    real(8), intent(in) :: x
    mag_r = abs(x)
  end function mag_r
  real(8) function mag_v(x)
    real(8), intent(in) :: x(:)
    mag_v = sum(abs(x))
  end function mag_v
  subroutine good(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = mag(x)*x
  end subroutine good
  subroutine bad(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x
    if (mag(.true.) > 0) y = 2*x
  end subroutine bad
end module mags
";
    assert_eq!(warnings_of(text, "good", &["x"], &["y"]), "");
    let e = errors_of(text, "bad", &["x"], &["y"]);
    assert!(
        e.contains("w.f90:24:9: error[E0429]: no specific procedure of the generic `mag` takes these arguments"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}

/// An internal procedure that calls its host's procedure argument by host association
/// takes it as an argument of its own once lifted, and is specialized with its host: no
/// refusal, no warning (it was E0403; numbers in the corpus, `host_procedure_argument`);
/// a root elsewhere in the file is differentiated as before.
#[test]
fn an_internal_procedure_calling_the_hosts_procedure_argument_is_differentiated() {
    let text = "module quad
  implicit none
  abstract interface
    real(8) function func(x)
      real(8), intent(in) :: x
    end function func
  end interface
contains
  subroutine rule(f, a, b, s)
    procedure(func) :: f
    real(8), intent(in) :: a, b
    real(8), intent(out) :: s
    s = (b - a)*mid(0.5d0*(a + b))
  contains
    real(8) function mid(x)
      real(8), intent(in) :: x
      mid = f(x)
    end function mid
  end subroutine rule
  real(8) function sq(x)
    real(8), intent(in) :: x
    sq = x*x
  end function sq
  subroutine area(a, b, s)
    real(8), intent(in) :: a, b
    real(8), intent(out) :: s
    call rule(sq, a, b, s)
  end subroutine area
  subroutine other(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = sq(x)
  end subroutine other
end module quad
";
    assert_eq!(warnings_of(text, "other", &["x"], &["y"]), "");
    assert_eq!(warnings_of(text, "area", &["a"], &["s"]), "");
}

/// EXIT may leave a named BLOCK; an EXIT or CYCLE without a name inside such a block,
/// of a loop around it, is refused where it is (running the block as a loop of its own
/// would capture it).
#[test]
fn exit_of_a_named_block_and_its_one_refusal() {
    let text = "subroutine f(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  integer :: i
  y = x
  do i = 1, n
    main: block
      if (y > 10) exit main
      y = 2*y
      if (y > 5) cycle
      y = y + x
    end block main
  end do
end subroutine f
";
    let e = errors_of(text, "f", &["x"], &["y"]);
    assert!(e.contains("w.f90:11:18: error[E0401]"), "{e}");
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    let named = text
        .replace("  do i = 1, n\n", "  steps: do i = 1, n\n")
        .replace("cycle\n", "cycle steps\n")
        .replace("  end do\n", "  end do steps\n");
    assert_eq!(warnings_of(&named, "f", &["x"], &["y"]), "");
}

/// SELECT TYPE is one refusal for the roots that reach it, its inside skipped to its
/// own END SELECT (a SELECT CASE inside it included); before, a procedure with one
/// failed every root of the program with a cascade of errors about its inside.
#[test]
fn select_type_is_one_refusal_for_the_roots_that_reach_it() {
    let text = "module m
  implicit none
contains
  subroutine show(a, k)
    class(*), intent(in) :: a
    integer, intent(in) :: k
    select type (a)
    type is (real(8))
      select case (k)
      case (1)
        print *, a
      end select
    class default
      print *, k
    end select
    print *, 'done'
  end subroutine show
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x*x
  end subroutine f
  subroutine g(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x*x
    call show(y, 1)
  end subroutine g
end module m
";
    assert_eq!(warnings_of(text, "f", &["x"], &["y"]), "");
    let e = errors_of(text, "g", &["x"], &["y"]);
    assert!(
        e.contains(
            "w.f90:7:5: error[E0401]: unsupported statement: SELECT TYPE is not supported yet"
        ),
        "{e}"
    );
    assert!(!e.contains("E0202") && !e.contains("E0301"), "{e}");
}

/// A PRIVATE module variable that the adjoint of an external root must save and restore
/// (an error routine that sets it and returns) is one E0512 where it is declared, not
/// code that does not compile; the same routine ending in STOP never returns, so
/// nothing is saved for it and the root is accepted.
#[test]
fn a_private_variable_the_adjoint_restores_is_one_error() {
    let text = "module params
  implicit none
  private
  character(len=20) :: caller = ''
  double precision, public :: visc = 0.1d0
  public :: note
contains
  subroutine note(where)
    character(len=*), intent(in) :: where
    caller = where
    write (*, *) trim(caller)
    return
  end subroutine note
end module params

subroutine relax(u, mode)
  use params
  implicit none
  double precision, intent(inout) :: u
  integer, intent(in) :: mode
  if (mode == 1) then
    u = u - visc * u * u
  else
    call note('relax')
  end if
end subroutine relax

subroutine run(x, mode, y)
  implicit none
  double precision, intent(in) :: x
  integer, intent(in) :: mode
  double precision, intent(out) :: y
  integer :: it
  y = x
  do it = 1, 3
    call relax(y, mode)
  end do
end subroutine run
";
    let input = adgen::SourceInput::new("w.f90", text);
    let mut req = request("run", &["x"], &["y"]);
    req.roots[0].modes = BTreeSet::from([adgen::Mode::Adjoint]);
    let e = adgen::differentiate(&[input], &req)
        .expect_err("refused")
        .rendered;
    assert!(
        e.contains(
            "w.f90:4:24: error[E0512]: derivative code needs `caller`, which is PRIVATE in module `params`\n"
        ),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    let stops = text.replace("    return\n", "    stop\n");
    let input = adgen::SourceInput::new("w.f90", &stops);
    adgen::differentiate(&[input], &req).expect("accepted");
}
