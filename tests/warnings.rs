//! Warnings that in-out analysis makes possible (issue 4): a scalar read before it is
//! set, one variable passed twice to a procedure that overwrites one of them, and
//! independents that turn out inactive.

use std::collections::BTreeSet;

fn request(root: &str, independents: &[&str], dependents: &[&str]) -> adgen::Request {
    adgen::Request {
        roots: vec![adgen::RootRequest {
            name: root.to_string(),
            independents: independents.iter().map(|s| s.to_string()).collect(),
            dependents: dependents.iter().map(|s| s.to_string()).collect(),
            modes: BTreeSet::from([adgen::Mode::Tangent, adgen::Mode::Adjoint]),
            origin: None,
        }],
        checkpoint_calls: true,
        disabled: BTreeSet::new(),
    }
}

fn warnings_of(source: &str, root: &str, independents: &[&str], dependents: &[&str]) -> String {
    let input = adgen::SourceInput::new("w.f90", source);
    adgen::differentiate(&[input], &request(root, independents, dependents))
        .expect("differentiates")
        .warnings
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

#[test]
fn same_variable_passed_twice() {
    let text = "subroutine g(a, b)\n  real(8), intent(in) :: a\n  real(8), intent(inout) :: b\n  \
                b = b + a*a\nend subroutine g\n\nsubroutine f(x, y)\n  real(8), intent(inout) :: x\n  \
                real(8), intent(out) :: y\n  call g(x, x)\n  y = x\nend subroutine f\n";
    // Active: the adjoint of g would assume a and b distinct, so it is refused.
    let input = adgen::SourceInput::new("w.f90", text);
    let err = adgen::differentiate(&[input], &request("f", &["x"], &["y"])).expect_err("refused");
    assert!(
        err.rendered
            .contains("w.f90:10:3: error[E0508]: `x` is passed both as `a` and as `b` of `g`"),
        "{}",
        err.rendered
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
