//! Procedure arguments (issue 13): a call that passes procedures by name is a call of a
//! copy of the callee specialized to them (`prepare::specialize`). The numbers are
//! checked by the corpus program `procedure_arguments`; here: the names of the copies'
//! derivatives, primal calls written back as the originals, and the refusal of a
//! procedure argument that no caller names.

use std::collections::BTreeSet;

fn request(root: &str, ind: &[&str], dep: &[&str]) -> adgen::Request {
    adgen::Request {
        roots: vec![adgen::RootRequest {
            name: root.to_string(),
            independents: ind.iter().map(|s| s.to_string()).collect(),
            dependents: dep.iter().map(|s| s.to_string()).collect(),
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

const ODE: &str = "subroutine rhs(y, dy)\n  real(8), intent(in) :: y\n  real(8), intent(out) :: dy\n  \
    dy = -y*y\nend subroutine rhs\n\
    subroutine lin(y, dy)\n  real(8), intent(in) :: y\n  real(8), intent(out) :: dy\n  \
    dy = -2*y\nend subroutine lin\n\
    subroutine step(f, h, y)\n  external f\n  real(8), intent(in) :: h\n  \
    real(8), intent(inout) :: y\n  real(8) :: dy\n  call f(y, dy)\n  y = y + h*dy\nend subroutine step\n\
    subroutine run(h, y)\n  real(8), intent(in) :: h\n  real(8), intent(inout) :: y\n  \
    external rhs, lin\n  call step(rhs, h, y)\n  call step(lin, h, y)\n  y = y*y\nend subroutine run\n";

#[test]
fn each_procedure_passed_makes_a_copy_whose_primal_calls_are_the_original() {
    let g = adgen::differentiate(
        &[adgen::SourceInput::new("o.f90", ODE)],
        &request("run", &["h", "y"], &["y"]),
    )
    .unwrap();
    let d = &g
        .files
        .iter()
        .find(|f| f.path == "o_d.f90")
        .unwrap()
        .contents;
    assert!(
        d.contains("call step_rhs_d(h, hd, y, yd)") && d.contains("call step_lin_d(h, hd, y, yd)"),
        "{d}"
    );
    assert!(
        d.contains("subroutine step_rhs_d(h, hd, y, yd)")
            && d.contains("call rhs_d(y, yd, dy, dyd)"),
        "{d}"
    );
    let b = &g
        .files
        .iter()
        .find(|f| f.path == "o_b.f90")
        .unwrap()
        .contents;
    // The forward sweep runs the first step's primal: the original, with `rhs` put back.
    assert!(
        b.contains("call step(rhs, h, y)") && !b.contains("call step_rhs("),
        "{b}"
    );
    assert!(b.contains("call step_lin_b(h, hb, y, yb)"), "{b}");
}

#[test]
fn a_procedure_argument_that_no_caller_names_is_refused_as_one() {
    let e = adgen::differentiate(
        &[adgen::SourceInput::new("o.f90", ODE)],
        &request("step", &["h", "y"], &["y"]),
    )
    .unwrap_err();
    assert_eq!(e.diagnostics.len(), 1, "{}", e.rendered);
    assert!(
        e.rendered
            .contains("o.f90:16:3: error[E0503]: `f`, a procedure argument of `step`"),
        "{}",
        e.rendered
    );
}

/// A module procedure of another module passed to a module procedure: the specialized
/// copy cannot stay in the callee's module, which does not see the procedure (and whose
/// derivative module would then use the caller's). It becomes a procedure of the
/// caller's module, with `use` statements for what it took from its own module. The
/// numbers are checked by the corpus program `procedure_iface_dummies`.
const TWO_MODULES: &str = "module integ\n  implicit none\n  real(8) :: weight = 1d0\n\
    contains\n  subroutine euler(f, n, h, y)\n    \
    real(8), external :: f\n    integer, intent(in) :: n\n    real(8), intent(in) :: h\n    \
    real(8), intent(inout) :: y\n    integer :: i\n    do i = 1, n\n      \
    y = y + weight*h*f(y)\n    end do\n  end subroutine euler\nend module integ\n\
    module model\n  implicit none\ncontains\n  function decay(y) result(dy)\n    \
    real(8), intent(in) :: y\n    real(8) :: dy\n    dy = -y*y\n  end function decay\n  \
    subroutine run(h, y)\n    use integ\n    real(8), intent(in) :: h\n    \
    real(8), intent(inout) :: y\n    call euler(decay, 20, h, y)\n  end subroutine run\n\
    end module model\n";

#[test]
fn a_procedure_of_another_module_makes_a_copy_in_the_callers_module() {
    let g = adgen::differentiate(
        &[adgen::SourceInput::new("m.f90", TWO_MODULES)],
        &request("run", &["h", "y"], &["y"]),
    )
    .unwrap_or_else(|f| panic!("{}", f.rendered));
    for (path, suffix) in [("m_d.f90", "d"), ("m_b.f90", "b")] {
        let text = &g.files.iter().find(|f| f.path == path).unwrap().contents;
        let model = text.find(&format!("module model_{suffix}")).expect(text);
        let copy = text
            .find(&format!("subroutine euler_decay_{suffix}("))
            .expect(text);
        assert!(copy > model, "the copy is in the caller's module:\n{text}");
        assert!(text[copy..].contains("use integ, only: weight"), "{text}");
    }
}

/// A copy that needs a PRIVATE name of the callee's module cannot live elsewhere: the
/// call is left unspecialized and refused (E0503) where the procedure argument is called
/// with active arguments, never written with a zero derivative.
#[test]
fn a_copy_that_needs_a_private_name_is_refused_not_miscompiled() {
    let text = TWO_MODULES.replace(
        "  real(8) :: weight = 1d0\n",
        "  real(8), private :: weight = 1d0\n",
    );
    let failure = adgen::differentiate(
        &[adgen::SourceInput::new("m.f90", &text)],
        &request("run", &["h", "y"], &["y"]),
    )
    .unwrap_err();
    // Derivative code of `integ` itself cannot reach `weight` either (E0512).
    let codes: Vec<_> = failure.errors().map(|d| d.code).collect();
    assert_eq!(codes, ["E0503", "E0512"], "{}", failure.rendered);
    assert!(
        failure.rendered.contains("a procedure argument of `euler`"),
        "{}",
        failure.rendered
    );
}

/// The same, with a model that reads a module variable the root sets from an
/// independent: the refusal inside `euler` would never come (`f(y)` is not called with
/// an active argument when only `rate` is active), and the derivative through `rate`
/// would be silently zero. The call that stays unspecialized is refused itself (E0503),
/// saying which PRIVATE name stopped the copy.
#[test]
fn an_unspecialized_call_of_a_model_using_module_variables_is_refused() {
    let text = TWO_MODULES
        .replace(
            "  real(8) :: weight = 1d0\n",
            "  real(8), private :: weight = 1d0\n",
        )
        .replace(
            "module model\n  implicit none\n",
            "module model\n  implicit none\n  real(8) :: rate = 1d0\n",
        )
        .replace("dy = -y*y", "dy = -rate*y")
        .replace("subroutine run(h, y)", "subroutine run(h, r, y)")
        .replace(
            "    call euler(decay, 20, h, y)\n",
            "    real(8), intent(in) :: r\n    rate = r\n    call euler(decay, 20, h, y)\n",
        );
    let failure = adgen::differentiate(
        &[adgen::SourceInput::new("m.f90", &text)],
        &request("run", &["r"], &["y"]),
    )
    .unwrap_err();
    let codes: Vec<_> = failure.errors().map(|d| d.code).collect();
    assert_eq!(codes, ["E0503"], "{}", failure.rendered);
    assert!(
        failure.rendered.contains(
            "adgen cannot make a copy of `euler` specialized to `decay` (the copy, in the \
             caller's module, would need `weight`, PRIVATE in `integ`), and `decay` uses `rate`"
        ) && failure
            .rendered
            .contains("help: make `weight` PUBLIC in `integ`"),
        "{}",
        failure.rendered
    );
    // The procedure passed by keyword, out of order (`weight` public): never
    // specialized, refused the same way.
    let keyword = text
        .replace(
            "  real(8), private :: weight = 1d0\n",
            "  real(8) :: weight = 1d0\n",
        )
        .replace(
            "call euler(decay, 20, h, y)",
            "call euler(n=20, h=h, y=y, f=decay)",
        );
    let failure = adgen::differentiate(
        &[adgen::SourceInput::new("m.f90", &keyword)],
        &request("run", &["r"], &["y"]),
    )
    .unwrap_err();
    assert!(
        failure
            .rendered
            .contains("specialized to `decay` (it is passed by keyword)"),
        "{}",
        failure.rendered
    );
}

/// An internal procedure passed to an integrator reads its host's variables (lifted,
/// they are extra arguments the integrator cannot pass): never specialized, its call is
/// refused rather than differentiated as if `kk` played no part. The same procedure
/// without host variables is not refused for it.
#[test]
fn an_internal_procedure_using_its_host_passed_on_is_refused() {
    let text = "module quad\n  implicit none\ncontains\n  subroutine integrate(f, a, b, n, r)\n    \
        real(8), external :: f\n    real(8), intent(in) :: a, b\n    integer, intent(in) :: n\n    \
        real(8), intent(out) :: r\n    integer :: i\n    real(8) :: h\n    h = (b - a)/n\n    \
        r = 0\n    do i = 1, n\n      r = r + h*f(a + (i - 0.5d0)*h)\n    end do\n  \
        end subroutine integrate\nend module quad\n\
        subroutine cost(kk, x0, r)\n  use quad\n  implicit none\n  real(8), intent(in) :: kk, x0\n  \
        real(8), intent(out) :: r\n  call integrate(g, x0, 1d0, 10, r)\ncontains\n  \
        real(8) function g(x)\n    real(8), intent(in) :: x\n    g = exp(-kk*x)\n  \
        end function g\nend subroutine cost\n";
    let failure = adgen::differentiate(
        &[adgen::SourceInput::new("m.f90", text)],
        &request("cost", &["kk", "x0"], &["r"]),
    )
    .unwrap_err();
    let codes: Vec<_> = failure.errors().map(|d| d.code).collect();
    assert_eq!(codes, ["E0503"], "{}", failure.rendered);
    assert!(
        failure
            .rendered
            .contains("`g` uses the variables of its host `cost`"),
        "{}",
        failure.rendered
    );
    // (Here nothing active reaches `f`: an active `x0` would be E0503 in `integrate`,
    // which is never specialized to an internal procedure.)
    let pure = text.replace("g = exp(-kk*x)", "g = exp(-x)");
    let r = adgen::differentiate(
        &[adgen::SourceInput::new("m.f90", &pure)],
        &request("cost", &["kk"], &["r"]),
    );
    assert!(
        r.is_ok(),
        "{}",
        r.err().map(|f| f.rendered).unwrap_or_default()
    );
}

/// Derivative code gets copies of what other modules keep PRIVATE only for the names
/// its procedures refer to: a local `n` of `scale` is not `quad`'s PRIVATE `n` (which
/// every symbol table of `model` also holds, seen through `use quad`), and is no E0512.
#[test]
fn a_local_named_like_another_modules_private_variable_is_not_refused() {
    let text = "module quad\n\
  implicit none\n\
  private\n\
  public :: integrate\n\
  integer :: n = 0\n\
contains\n\
  subroutine integrate(f, a, b, r)\n\
    real(8), external :: f\n\
    real(8), intent(in) :: a, b\n\
    real(8), intent(out) :: r\n\
    n = n + 1\n\
    r = (b - a)*f((a + b)/2)\n\
  end subroutine integrate\n\
end module quad\n\
\n\
module model\n\
  use quad\n\
  implicit none\n\
  real(8) :: k = 1d0\n\
contains\n\
  real(8) function g(x)\n\
    real(8), intent(in) :: x\n\
    g = exp(-k*x)\n\
  end function g\n\
\n\
  subroutine scale(x, y)\n\
    real(8), intent(in) :: x\n\
    real(8), intent(out) :: y\n\
    integer :: n\n\
    y = 0\n\
    do n = 1, 3\n\
      y = y + x\n\
    end do\n\
  end subroutine scale\n\
\n\
  subroutine cost(kk, r)\n\
    real(8), intent(in) :: kk\n\
    real(8), intent(out) :: r\n\
    k = kk\n\
    call scale(kk, r)\n\
  end subroutine cost\n\
end module model\n\
";
    let r = adgen::differentiate(
        &[adgen::SourceInput::new("m.f90", text)],
        &request("cost", &["kk"], &["r"]),
    );
    assert!(
        r.is_ok(),
        "{}",
        r.err().map(|f| f.rendered).unwrap_or_default()
    );
}
