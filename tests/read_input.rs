//! READ in the code to differentiate (issue 13): a root that no procedure calls reads its
//! input once in both modes, and so does a procedure without derivatives that the adjoint
//! never runs again (a set-up routine); the values read are inputs (zero derivatives, and
//! the adjoint reads nothing again). The numbers are checked by the corpus programs
//! `read_coefficients` and `setup_reads_parameters`; here: where the READ stands in the
//! adjoint, and the refusals.

use std::collections::BTreeSet;

fn request(root: &str, modes: &[adgen::Mode]) -> adgen::Request {
    adgen::Request {
        roots: vec![adgen::RootRequest {
            name: root.to_string(),
            independents: vec!["x".into()],
            dependents: vec!["y".into()],
            modes: modes.iter().copied().collect::<BTreeSet<_>>(),
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

fn run(text: &str, modes: &[adgen::Mode]) -> Result<adgen::Generated, adgen::Failure> {
    adgen::differentiate(
        &[adgen::SourceInput::new("r.f90", text)],
        &request("f", modes),
    )
}

#[test]
fn the_adjoint_reads_once_saving_what_the_read_overwrites_and_zeroes_the_adjoints_read() {
    let text = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
        real(8) :: c\n  c = x*x\n  y = c*c\n  read (*, *) c\n  y = y + c*x\nend subroutine f\n";
    let g = run(text, &[adgen::Mode::Adjoint]).unwrap();
    let b = &g
        .files
        .iter()
        .find(|f| f.path == "r_b.f90")
        .unwrap()
        .contents;
    assert_eq!(
        b.matches("read (").count() + b.matches("read(").count(),
        1,
        "{b}"
    );
    let (push, read, pop) = (
        b.find("call pushreal8(c)").expect(b),
        b.find("read").expect(b),
        b.find("call popreal8(c)").expect(b),
    );
    assert!(push < read && read < pop, "{b}");
}

#[test]
fn a_read_element_by_element_into_an_active_array_is_refused_in_both_modes() {
    let text = "subroutine f(n, x, y)\n  integer, intent(in) :: n\n  real(8), intent(in) :: x(n)\n  \
        real(8), intent(out) :: y\n  real(8) :: w(n)\n  integer :: j\n  w = x\n  \
        read (*, *) (w(j), j = 1, n)\n  y = sum(w*x)\nend subroutine f\n";
    for mode in [adgen::Mode::Tangent, adgen::Mode::Adjoint] {
        let e = run(text, &[mode]).unwrap_err();
        assert_eq!(e.diagnostics.len(), 1, "{}", e.rendered);
        assert!(
            e.rendered.contains(
                "r.f90:8:3: error[E0513]: `w`, which has a derivative, is read element by element"
            ),
            "{}",
            e.rendered
        );
    }
}

#[test]
fn a_read_in_a_procedure_a_root_calls_is_still_refused() {
    let text = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
        call g(x, y)\nend subroutine f\nsubroutine g(x, y)\n  real(8), intent(in) :: x\n  \
        real(8), intent(out) :: y\n  real(8) :: c\n  read (*, *) c\n  y = c*x\nend subroutine g\n";
    let e = run(text, &[adgen::Mode::Adjoint]).unwrap_err();
    assert!(
        e.rendered.contains("r.f90:10:3: error[E0513]"),
        "{}",
        e.rendered
    );
    // The tangent runs it once: the value read is a constant of the derivative.
    let g = run(text, &[adgen::Mode::Tangent]).unwrap();
    let d = file(&g, "r_d.f90");
    assert_eq!(d.matches("read (*, *) c").count(), 1, "{d}");
    assert!(d.contains("yd = c*xd"), "{d}");
}

fn file<'g>(g: &'g adgen::Generated, path: &str) -> &'g str {
    &g.files
        .iter()
        .find(|f| f.path == path)
        .expect(path)
        .contents
}

const SET_UP: &str = "subroutine setup(c)\n  real(8), intent(out) :: c\n  \
    character(len=8) :: line\n  line = '2.5'\n  read (line, *) c\nend subroutine setup\n";

#[test]
fn a_set_up_routine_without_derivatives_reads_once_and_the_adjoint_does_not_run_it_again() {
    let text = format!(
        "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
         real(8) :: c\n  call setup(c)\n  y = c*x\n  y = y*c\nend subroutine f\n{SET_UP}"
    );
    let g = run(&text, &[adgen::Mode::Tangent, adgen::Mode::Adjoint]).unwrap();
    let (d, b) = (file(&g, "r_d.f90"), file(&g, "r_b.f90"));
    assert!(d.contains("call setup(c)") && !d.contains("setup_d"), "{d}");
    // Called once, as written; nothing saved for a rerun; the value read is a constant
    // of the derivative (`xb = c*yb`, not `2*x*yb`).
    assert_eq!(b.matches("call setup(c)").count(), 1, "{b}");
    assert!(!b.contains("setup_b") && !b.contains("pushreal8(c)"), "{b}");
    assert!(!b.contains("cb"), "{b}");
}

#[test]
fn a_set_up_routine_that_overwrites_an_active_value_has_derivatives_and_is_refused() {
    // `setup` must reset the derivative of `c`, so the adjoint would run it (and read)
    // again.
    let text = format!(
        "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
         real(8) :: c\n  c = x\n  call setup(c)\n  y = c*x\nend subroutine f\n{SET_UP}"
    );
    let e = run(&text, &[adgen::Mode::Adjoint]).unwrap_err();
    assert_eq!(e.diagnostics.len(), 1, "{}", e.rendered);
    assert!(
        e.rendered.contains("r.f90:13:3: error[E0513]")
            && e.rendered.contains("`setup` has derivatives to compute"),
        "{}",
        e.rendered
    );
}

#[test]
fn a_read_the_adjoint_would_run_again_is_refused_naming_the_procedure_that_reruns_it() {
    let text = format!(
        "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
         call g(x, y)\nend subroutine f\nsubroutine g(x, y)\n  real(8), intent(in) :: x\n  \
         real(8), intent(out) :: y\n  real(8) :: c\n  call setup(c)\n  y = c*x\n\
         end subroutine g\n{SET_UP}"
    );
    let e = run(&text, &[adgen::Mode::Adjoint]).unwrap_err();
    assert_eq!(e.diagnostics.len(), 1, "{}", e.rendered);
    assert!(
        e.rendered.contains("r.f90:17:3: error[E0513]")
            && e.rendered
                .contains("the adjoint runs it a second time, as part of `g`"),
        "{}",
        e.rendered
    );
    // The tangent runs everything once.
    run(&text, &[adgen::Mode::Tangent]).unwrap();
}

#[test]
fn a_call_that_reaches_input_stays_in_the_forward_sweep_though_nothing_needs_its_values() {
    let text = format!(
        "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
         real(8) :: c\n  call setup(c)\n  y = x*x\nend subroutine f\n{SET_UP}"
    );
    let g = run(&text, &[adgen::Mode::Adjoint]).unwrap();
    let b = file(&g, "r_b.f90");
    assert_eq!(b.matches("call setup(c)").count(), 1, "{b}");
}
