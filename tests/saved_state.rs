//! SAVE and DATA locals that keep a value depending on the independents between calls,
//! or that a rerun changes (issue 13, `prepare::saved_state`): they become the
//! variables of a generated module, `adgen_saved.f90`, which derivative code shares
//! with the primal copies it runs (`p_nodiff`). The numbers are checked by the corpus
//! (`saved_step_control_f77`, `saved_filter_state`); these tests pin what is generated
//! and what is still refused.

use std::collections::BTreeSet;

fn request(root: &str) -> adgen::Request {
    adgen::Request {
        roots: vec![adgen::RootRequest {
            name: root.to_string(),
            independents: vec!["x".to_string()],
            dependents: vec!["y".to_string()],
            modes: BTreeSet::from([adgen::Mode::Tangent, adgen::Mode::Adjoint]),
            origin: None,
            entry_origins: Vec::new(),
        }],
        checkpoint_calls: true,
        ..Default::default()
    }
}

fn run(path: &str, text: &str) -> Result<adgen::Generated, adgen::Failure> {
    adgen::differentiate(&[adgen::SourceInput::new(path, text)], &request("f"))
}

fn file<'g>(g: &'g adgen::Generated, path: &str) -> &'g str {
    g.files
        .iter()
        .find(|f| f.path == path)
        .map(|f| f.contents.as_str())
        .unwrap_or_else(|| panic!("no {path}"))
}

#[test]
fn active_saved_locals_get_a_module() {
    for decl in [
        "      DOUBLE PRECISION ACC\n      SAVE ACC\n",
        "      DOUBLE PRECISION ACC\n      DATA ACC /0.0D0/\n",
        "      DOUBLE PRECISION ACC\n      SAVE\n",
    ] {
        let text = format!(
            "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n{decl}      ACC = ACC + X\n      Y = ACC\n      END\n"
        );
        let g = run("t.f", &text).expect("differentiates");
        let saved = file(&g, "adgen_saved.f90");
        assert!(
            saved.contains("module f_saved\n  implicit none\n  double precision :: ACC\n"),
            "{saved}"
        );
        // Its derivatives are module variables of the derivative modules.
        assert!(file(&g, "adgen_saved_d.f90").contains("double precision :: ACCd"));
        assert!(file(&g, "adgen_saved_b.f90").contains("double precision :: ACCb"));
        let tangent = file(&g, "t_d.f90");
        assert!(tangent.contains("use f_saved, only: ACC"), "{tangent}");
        assert!(!tangent.contains("SAVE"), "{tangent}");
        // The root is called by nobody: it needs no primal copy.
        assert!(!saved.contains("F_nodiff"), "{saved}");
        // The module comes before the derivative code that uses it.
        let paths: Vec<&str> = g.files.iter().map(|f| f.path.as_str()).collect();
        let at = |p: &str| paths.iter().position(|x| *x == p).unwrap();
        assert!(at("adgen_saved.f90") < at("adgen_saved_d.f90"), "{paths:?}");
        assert!(at("adgen_saved_d.f90") < at("t_d.f90"), "{paths:?}");
    }
    // An initializer implies SAVE, and stays the module variable's.
    let text = "subroutine f(x, y)\n  real(8) :: x, y\n  real(8) :: acc = 0d0\n  acc = acc + x\n  y = acc\nend\n";
    let g = run("t.f90", text).expect("differentiates");
    assert!(file(&g, "adgen_saved.f90").contains("real(8) :: acc = 0d0\n"));
}

#[test]
fn callers_of_saved_state_run_primal_copies() {
    // F calls G, which calls H, which keeps state: the adjoint's forward sweep runs
    // G's primal, which must reach H's module: it runs `G_nodiff`, which calls
    // `H_nodiff`.
    let text = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y\n      CALL G(X, Y)\n      \
                CALL G(Y, Y)\n      END\n\n      SUBROUTINE G(A, B)\n      DOUBLE PRECISION A, B\n      \
                CALL H(A, B)\n      END\n\n      SUBROUTINE H(A, B)\n      DOUBLE PRECISION A, B, S\n      \
                SAVE S\n      DATA S /1.0D0/\n      S = S*A\n      B = S\n      END\n";
    let g = run("t.f", text).expect("differentiates");
    let saved = file(&g, "adgen_saved.f90");
    assert!(saved.contains("subroutine G_nodiff(A, B)"), "{saved}");
    assert!(saved.contains("call H_nodiff(A, B)"), "{saved}");
    assert!(saved.contains("subroutine H_nodiff(A, B)"), "{saved}");
    assert!(saved.contains("data S /1.0D0/"), "{saved}");
    let adjoint = file(&g, "t_b.f90");
    let f_b = &adjoint[adjoint.find("subroutine F_b").expect("F_b")..];
    assert!(f_b.contains("call G_nodiff(X, Y)"), "{f_b}");
    // The state the first call left is restored before its adjoint runs it again.
    assert!(f_b.contains("call pushreal8(S)"), "{f_b}");
    // A unit of the module's name that the root reaches: the module takes another.
    let taken = format!(
        "{text}\n      SUBROUTINE H_SAVED(A)\n      DOUBLE PRECISION A\n      A = 2*A\n      END\n"
    )
    .replace("      B = S\n", "      B = S\n      CALL H_SAVED(B)\n");
    let g = run("t.f", &taken).expect("differentiates");
    assert!(file(&g, "adgen_saved.f90").contains("module h_saved0\n"));
    // Same input, same bytes.
    let again = run("t.f", &taken).expect("differentiates");
    let bytes = |g: &adgen::Generated| {
        g.files
            .iter()
            .map(|f| (f.path.clone(), f.contents.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(bytes(&g), bytes(&again));
}

#[test]
fn saved_state_adgen_cannot_move_is_still_refused() {
    // A module procedure's state gets a module too; a copy of it is made only where
    // something calls it (`corpus/fortran/saved_state_module_procedure` runs one).
    let module = "module acc_mod\n  implicit none\ncontains\n  subroutine f(x, y)\n    \
                  real(8) :: x, y\n    real(8), save :: acc = 0d0\n    acc = acc + x\n    \
                  y = acc\n  end subroutine\nend module\n";
    let g = run("m.f90", module).expect("differentiates");
    assert!(file(&g, "adgen_saved.f90").contains("module f_saved\n"));
    // But its copy cannot call a PRIVATE procedure of its module: refused, once.
    let private = "module acc_mod\n  implicit none\n  private\n  public :: f, g\ncontains\n  \
                   subroutine f(x, y)\n    real(8) :: x, y\n    call g(x, y)\n    call g(y, y)\n  \
                   end subroutine\n  subroutine g(x, y)\n    real(8) :: x, y\n    \
                   real(8), save :: acc = 0d0\n    acc = acc + twice(x)\n    y = acc\n  \
                   end subroutine\n  real(8) function twice(x)\n    real(8) :: x\n    \
                   twice = 2*x\n  end function\nend module\n";
    let r = run("m.f90", private).expect_err("refused").rendered;
    assert!(
        r.contains("m.f90:14:5: error[E0515]: `acc` keeps its value between calls of `g`"),
        "{r}"
    );
    assert!(r.contains("make `acc` a module variable"), "{r}");
    // (E0514 too: the adjoint of `f` runs `g` again.)
    assert!(r.matches("error[E0515]").count() == 1, "{r}");
    // A SAVEd variable that shares storage with another.
    let equivalenced = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, ACC, B\n      SAVE ACC\n      \
                        EQUIVALENCE (ACC, B)\n      ACC = ACC + X\n      Y = ACC\n      END\n";
    let r = run("e.f", equivalenced).expect_err("refused").rendered;
    assert!(r.contains("e.f:5:7: error[E0515]: `ACC`"), "{r}");
    // Passive SAVEd data needs no module.
    let passive = "      SUBROUTINE F(X, Y)\n      DOUBLE PRECISION X, Y, C(3)\n      INTEGER N\n      \
                   SAVE N\n      DATA N /0/, C /1.0D0, 2.0D0, 3.0D0/\n      N = N + 1\n      \
                   Y = C(1) + C(2) * X + C(3) * X**2\n      END\n";
    let g = run("t.f", passive).expect("passive SAVE and DATA differentiate");
    assert!(!g.files.iter().any(|f| f.path == "adgen_saved.f90"));
}

#[test]
fn module_procedure_copies_use_their_module() {
    // `g` keeps state and calls a generic of its module: its copy, in the generated
    // module of copies, uses the specific from the module; the root's adjoint uses the
    // copy from there.
    let text = "module ops\n  implicit none\n  interface scale\n    module procedure scale_r\n  \
                end interface\ncontains\n  real(8) function scale_r(x, s)\n    real(8), intent(in) :: x, s\n    \
                scale_r = x*s\n  end function\n  subroutine g(x, y, start)\n    real(8) :: x, y\n    \
                logical :: start\n    real(8), save :: acc\n    if (start) acc = 0.0d0\n    \
                acc = acc + scale(x, 2.0d0)\n    y = acc*x\n  end subroutine\nend module\n\n\
                subroutine f(x, y)\n  use ops\n  implicit none\n  real(8) :: x, y, z\n  \
                call g(x, z, .true.)\n  call g(z, y, .false.)\nend subroutine\n";
    let g = run("m.f90", text).expect("differentiates");
    let saved = file(&g, "adgen_saved.f90");
    assert!(saved.contains("module adgen_copies\n"), "{saved}");
    assert!(
        saved.contains("  subroutine g_nodiff(x, y, start)\n    use ops, only: scale_r\n"),
        "{saved}"
    );
    assert!(saved.contains("scale_r(x, 2.0d0)"), "{saved}");
    let adjoint = file(&g, "m_b.f90");
    let f_b = &adjoint[adjoint.find("subroutine f_b").expect("f_b")..];
    assert!(f_b.contains("use adgen_copies, only: g_nodiff"), "{f_b}");
    assert!(f_b.contains("call g_nodiff(x, z, .true.)"), "{f_b}");
}
