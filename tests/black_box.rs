//! Black boxes (`[black-box.NAME]` in ad.toml; issue 13): procedures whose derivatives the
//! user writes. Their numbers are checked by the corpus program `black_box_library`
//! (gfortran, central differences, dot product); here: the manifest's checks, the
//! refusals against the sources, and what the derivative code calls.

use std::collections::BTreeSet;

use adgen::request::BlackBox;

fn black_box(name: &str, arguments: &[&str], depends: &[(&str, &[&str])]) -> BlackBox {
    BlackBox {
        name: name.to_string(),
        arguments: arguments.iter().map(|s| s.to_string()).collect(),
        depends: depends
            .iter()
            .map(|(o, i)| (o.to_string(), i.iter().map(|s| s.to_string()).collect()))
            .collect(),
        tangent: None,
        adjoint: None,
        origin: Some(("ad.toml".to_string(), 7, 1)),
    }
}

fn request(root: &str, ind: &[&str], dep: &[&str], boxes: Vec<BlackBox>) -> adgen::Request {
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
        black_boxes: boxes,
        checkpoint_calls: true,
        naming: Default::default(),
        layout: Default::default(),
        option_warnings: Vec::new(),
        disabled: BTreeSet::new(),
    }
}

fn run(path: &str, source: &str, req: &adgen::Request) -> Result<adgen::Generated, adgen::Failure> {
    adgen::differentiate(&[adgen::SourceInput::new(path, source)], req)
}

fn file<'a>(g: &'a adgen::Generated, path: &str) -> &'a str {
    &g.files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("no {path}"))
        .contents
}

const CALLER: &str = "subroutine f(n, x, y)\n  integer, intent(in) :: n\n  \
    real(8), intent(in) :: x(n)\n  real(8), intent(out) :: y(n)\n  y = x\n  \
    call lib(n, x, y)\nend subroutine f\n";

#[test]
fn derivative_code_calls_the_users_derivatives_with_one_derivative_after_each_named_argument() {
    let mut b = black_box("lib", &["n", "a", "b"], &[("b", &["a", "b"])]);
    b.adjoint = Some("lib_adj".into());
    let g = run("m.f90", CALLER, &request("f", &["x"], &["y"], vec![b])).unwrap();
    let d = file(&g, "m_d.f90");
    assert!(d.contains("call lib_d(n, x, xd, y, yd)"), "{d}");
    let b = file(&g, "m_b.f90");
    // Called with the inputs `lib` had: `y` is saved before the call and restored.
    let (save, adjoint) = (
        b.find("call pushreal8array(y, n)").expect(b),
        b.find("call lib_adj(n, x, xb, y, yb)").expect(b),
    );
    assert!(save < adjoint, "{b}");
    assert!(g.warnings.is_empty(), "{}", g.warnings);
}

#[test]
fn a_black_box_that_no_active_value_reaches_is_called_as_it_is() {
    // `lib` overwrites only `y`, from `n`: nothing it computes depends on `x`.
    let text = "subroutine f(n, x, y, z)\n  integer, intent(in) :: n\n  \
        real(8), intent(in) :: x(n)\n  real(8), intent(out) :: y(n), z(n)\n  z = 2*x\n  \
        call lib(n, y)\nend subroutine f\n";
    let b = black_box("lib", &["n", "y"], &[("y", &[])]);
    let g = run("m.f90", text, &request("f", &["x"], &["z"], vec![b])).unwrap();
    let d = file(&g, "m_d.f90");
    assert!(d.contains("call lib(n, y)") && !d.contains("lib_d"), "{d}");
}

#[test]
fn a_defined_black_box_is_not_read_so_what_it_holds_cannot_block_a_root() {
    // `lib`'s body reads a file (refused where a root reaches it, E0513) and calls a
    // procedure adgen has no source for: neither matters once it is a black box.
    let text = format!(
        "{CALLER}subroutine lib(n, a, b)\n  integer, intent(in) :: n\n  \
         real(8), intent(in) :: a(n)\n  real(8), intent(inout) :: b(n)\n  \
         read (*, *) b(1)\n  call elsewhere(a, b)\nend subroutine lib\n"
    );
    let req = request("f", &["x"], &["y"], vec![]);
    let refused = run("m.f90", &text, &req).expect_err("the body is refused");
    assert!(refused.rendered.contains("E0513"), "{}", refused.rendered);
    let b = black_box("lib", &["n", "a", "b"], &[("b", &["a", "b"])]);
    let g = run("m.f90", &text, &request("f", &["x"], &["y"], vec![b])).unwrap();
    let d = file(&g, "m_d.f90");
    assert!(d.contains("call lib_d(n, x, xd, y, yd)"), "{d}");
    // No derivative of its own is written.
    assert!(!d.contains("subroutine lib_d"), "{d}");
}

#[test]
fn a_black_box_that_disagrees_with_the_sources_is_one_error_located_in_the_manifest() {
    let text = format!(
        "{CALLER}subroutine lib(n, a, b)\n  integer, intent(in) :: n\n  \
         real(8), intent(in) :: a(n)\n  real(8), intent(inout) :: b(n)\n  b = b + a\n\
         end subroutine lib\n"
    );
    let b = black_box("lib", &["n", "b", "a"], &[("b", &["a"])]);
    let e = run("m.f90", &text, &request("f", &["x"], &["y"], vec![b])).unwrap_err();
    assert_eq!(e.diagnostics.len(), 1, "{}", e.rendered);
    assert!(
        e.rendered.contains("ad.toml:7:1: error[E0129]")
            && e.rendered
                .contains("is (n, b, a), but the source defines `lib(n, a, b)`"),
        "{}",
        e.rendered
    );
    // Called with another number of arguments than the table lists: at the call.
    let b = black_box("lib", &["n", "a"], &[("a", &["a"])]);
    let e = run("m.f90", CALLER, &request("f", &["x"], &["y"], vec![b])).unwrap_err();
    assert!(
        e.rendered.contains("m.f90:6:3: error[E0129]")
            && e.rendered.contains("called with 3 arguments here"),
        "{}",
        e.rendered
    );
}

/// A black box called from C is described by its prototype (what goes by value, what by
/// address); without one the C front-end knows no such function: one error at the call.
/// A black box that a C source defines stays refused.
#[test]
fn black_boxes_of_c_callers_take_their_prototypes() {
    let text = "void lib(int n, const double *a, double *b);\n\
        void f(int n, const double x[4], double y[4]) {\n  lib(n, x, y);\n}\n";
    let b = black_box("lib", &["n", "a", "b"], &[("b", &["a", "b"])]);
    let g = run("m.c", text, &request("f", &["x"], &["y"], vec![b.clone()])).unwrap();
    let d = file(&g, "m_d.c");
    assert!(
        d.contains("void lib_d(int n, const double *a, const double *ad, double *b, double *bd);")
            && d.contains("lib_d(n, x, xd, y, yd);"),
        "{d}"
    );
    let b2 = black_box("lib", &["n", "a", "b"], &[("b", &["a", "b"])]);
    let text = "void f(int n, const double *x, double *y) {\n  lib(n, x, y);\n}\n";
    let e = run("m.c", text, &request("f", &["x"], &["y"], vec![b2])).unwrap_err();
    assert_eq!(e.diagnostics.len(), 1, "{}", e.rendered);
    assert!(
        e.rendered.contains("m.c:2:3: error[E0606]")
            && e.rendered.contains("`lib` is not a function of this file"),
        "{}",
        e.rendered
    );
    let defined = "void lib(int n, const double *a, double *b) {\n  b[0] += a[0];\n}\n\
        void f(int n, const double *x, double *y) {\n  lib(n, x, y);\n}\n";
    let e = run("m.c", defined, &request("f", &["x"], &["y"], vec![b])).unwrap_err();
    assert!(
        e.rendered.contains("error[E0129]") && e.rendered.contains("not supported yet"),
        "{}",
        e.rendered
    );
}

/// E0503's help never offers what adgen then refuses: from C, a table named after the
/// prototype's parameters; from Fortran, a table whose argument names are distinct when the same array
/// is passed twice (`call lib2(n, x, x)` would have listed `"x"` twice, which the
/// manifest refuses).
#[test]
fn the_missing_procedure_help_offers_only_what_adgen_accepts() {
    let text = "void lib(int n, const double *a, double *b);\n\
        void f(int n, const double *x, double *y) {\n  lib(n, x, y);\n}\n";
    let e = run("m.c", text, &request("f", &["x"], &["y"], vec![])).unwrap_err();
    assert!(
        e.rendered.contains("error[E0503]")
            && e.rendered.contains("add the file that defines `lib`")
            && e.rendered.contains("[black-box.lib]")
            && e.rendered.contains("arguments = [\"n\", \"a\", \"b\"]"),
        "{}",
        e.rendered
    );
    let twice = CALLER.replace(
        "call lib(n, x, y)",
        "call lib(n, x, x)\n  call lib(n, y, y)",
    );
    let e = run("m.f90", &twice, &request("f", &["x"], &["y"], vec![])).unwrap_err();
    assert!(
        e.rendered.contains("arguments = [\"n\", \"x\", \"arg3\"]"),
        "{}",
        e.rendered
    );
}

#[test]
fn an_unused_black_box_is_a_warning_and_a_missing_one_says_what_to_write() {
    let b = black_box("libb", &["n", "a", "b"], &[("b", &["a", "b"])]);
    let e = run("m.f90", CALLER, &request("f", &["x"], &["y"], vec![b])).unwrap_err();
    // E0503 gives the table to fill in, with the call's argument names.
    assert!(
        e.rendered
            .contains("error[E0503]: `lib` is called with active arguments")
            && e.rendered.contains("[black-box.lib]")
            && e.rendered.contains("arguments = [\"n\", \"x\", \"y\"]"),
        "{}",
        e.rendered
    );
    let text = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
        y = x*x\nend subroutine f\n";
    let b = black_box("libb", &["a"], &[("a", &["a"])]);
    let g = run("m.f90", text, &request("f", &["x"], &["y"], vec![b])).unwrap();
    assert!(
        g.warnings.contains("ad.toml:7:1: warning[W0104]")
            && g.warnings.contains("no source defines or calls `libb`"),
        "{}",
        g.warnings
    );
}

#[test]
fn the_manifest_reports_every_malformed_black_box_at_its_value() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.f90"), CALLER).unwrap();
    let manifest = "sources = [\"m.f90\"]\n\n[[root]]\nname = \"f\"\n\
        independents = [\"x\"]\ndependents = [\"y\"]\n\n\
        [black-box.lib]\narguments = [\"n\", \"a\", \"b\"]\ndepends = { b = [\"a\", \"c\"] }\n\
        tangnet = \"lib_t\"\n\n\
        [black-box.other]\ndepends = {}\n";
    std::fs::write(dir.path().join("ad.toml"), manifest).unwrap();
    let e = adgen::manifest::load(&dir.path().join("ad.toml")).unwrap_err();
    let r = &e.rendered;
    assert_eq!(e.diagnostics.len(), 3, "{r}");
    assert!(
        r.contains(":10:23: error[E0128]: `black-box.lib.depends` names `c`")
            && r.contains(":11:1: error[E0102]: unknown key `black-box.lib.tangnet`")
            && r.contains("error[E0104]: `black-box.other` has no `arguments`"),
        "{r}"
    );
    // A good table is read whole.
    let good = manifest
        .replace("\"c\"", "\"b\"")
        .replace("tangnet", "tangent")
        .replace("depends = {}\n", "arguments = []\ndepends = {}\n");
    std::fs::write(dir.path().join("ad.toml"), good).unwrap();
    let m = adgen::manifest::load(&dir.path().join("ad.toml")).unwrap();
    let lib = m.request.black_box("LIB").unwrap();
    assert_eq!(lib.arguments, ["n", "a", "b"]);
    assert_eq!(
        lib.depends,
        [("b".to_string(), vec!["a".to_string(), "b".to_string()])]
    );
    assert_eq!(lib.tangent.as_deref(), Some("lib_t"));
    assert_eq!(lib.differentiable(), [false, true, true]);
}

#[test]
fn an_element_passed_to_a_black_box_stands_for_the_rest_of_its_array() {
    // BLAS-style calls pass `y(2)` for the sequence y(2), y(3), ...: the adjoint saves
    // the whole array the call may overwrite, not one element.
    let text = "subroutine f(n, x, y)\n  integer, intent(in) :: n\n  \
        real(8), intent(in) :: x(n)\n  real(8), intent(inout) :: y(n)\n  \
        call lib(n - 1, x(2), y(2))\n  y = y*y\nend subroutine f\n";
    let b = black_box("lib", &["n", "a", "b"], &[("b", &["a", "b"])]);
    let g = run("m.f90", text, &request("f", &["x", "y"], &["y"], vec![b])).unwrap();
    let b = file(&g, "m_b.f90");
    assert!(
        b.contains("call pushreal8array(y, n)") && !b.contains("call pushreal8(y(2))"),
        "{b}"
    );
    assert!(
        b.contains("call lib_b(n - 1, x(2), xb(2), y(2), yb(2))"),
        "{b}"
    );
}

/// Regression (silently wrong before): a function adgen has no source for, called with
/// active arguments (`y = 2*g(x)` with `real(8), external :: g`), was given a zero
/// derivative. It is E0503 whose help gives the table for a function (its result named
/// by the function's name, from every argument); with that table, the derivative code
/// calls the user's `g_d`.
#[test]
fn an_external_function_without_source_is_refused_never_given_a_zero_derivative() {
    let text = "subroutine run(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
        real(8), external :: g\n  y = 2*g(x)\nend subroutine run\n";
    let refused = run("m.f90", text, &request("run", &["x"], &["y"], vec![])).unwrap_err();
    let errors: Vec<_> = refused.errors().collect();
    assert_eq!(errors.len(), 1, "{}", refused.rendered);
    assert_eq!(errors[0].code, "E0503", "{}", refused.rendered);
    assert!(
        refused.rendered.contains("depends = { g = [\"x\"] }"),
        "{}",
        refused.rendered
    );
    let b = black_box("g", &["x"], &[("g", &["x"])]);
    let g = run("m.f90", text, &request("run", &["x"], &["y"], vec![b])).unwrap();
    let d = file(&g, "m_d.f90");
    assert!(d.contains("resultd = g_d(x, xd, result)"), "{d}");
    // A passive use (no active argument) is called as it is.
    let passive = "subroutine run(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
        real(8), external :: g\n  y = x*g(2.0d0)\nend subroutine run\n";
    assert!(run("m.f90", passive, &request("run", &["x"], &["y"], vec![])).is_ok());
}
