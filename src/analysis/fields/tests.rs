//! The varied-fields analysis on small programs: which (type, field) pairs it keeps.

use std::collections::BTreeSet;

use crate::analysis::analyze;
use crate::ir::Ir;
use crate::{Request, RootRequest, SourceInput, SourceMap};

const TYPES: &str = "module m\n  implicit none\n  type :: inner\n    real(8) :: a, b\n  end type inner\n  type :: t\n    real(8) :: u, p, c\n    integer :: n\n    type(inner) :: in\n  end type t\n  type(t) :: g\nend module m\n";

/// The fields kept, as `type%field`, for root `f` with `independents` → `y`.
fn kept(source: &str, independents: &[&str], disabled: &[&str]) -> Vec<String> {
    let request = Request {
        roots: vec![RootRequest {
            name: "f".into(),
            independents: independents.iter().map(|s| s.to_string()).collect(),
            dependents: vec!["y".into()],
            modes: BTreeSet::from([crate::Mode::Tangent]),
            origin: None,
            entry_origins: Vec::new(),
        }],
        sizes: Vec::new(),
        black_boxes: Vec::new(),
        checkpoint_calls: true,
        naming: Default::default(),
        layout: Default::default(),
        option_warnings: Vec::new(),
        disabled: disabled.iter().map(|s| s.to_string()).collect(),
    };
    let mut sources = SourceMap::default();
    let text = format!("{TYPES}{source}");
    let inputs = [SourceInput::new("t.f90", &text)];
    let program = crate::parse_sources(&inputs, &mut sources).expect("the test parses");
    let program = crate::prepare::scalarize::scalarize(program).expect("scalarizes");
    let program = crate::prepare::normalize::normalize(program);
    let ir = Ir::build(&program, &request).expect("builds");
    let analyses = analyze(&program, &ir, &request);
    let mut out = Vec::new();
    for (ty, fields) in [
        ("inner", &["a", "b"][..]),
        ("t", &["u", "p", "c", "in"][..]),
    ] {
        for f in fields {
            if analyses.fields.keeps(ty, f) {
                out.push(format!("{ty}%{f}"));
            }
        }
    }
    out
}

#[test]
fn constants_counters_and_integers_are_dropped() {
    let src = "subroutine f(x, y)\n  use m\n  real(8) :: x, y\n  type(t) :: s\n  s%u = 2.0d0 * x\n  s%p = 3.0d0\n  s%c = 0.0d0\n  s%c = s%c + 1.0d0\n  s%n = 4\n  s%in%a = s%u * s%p\n  s%in%b = s%p + s%c\n  y = s%u * s%in%a + s%p * s%c + s%in%b\nend subroutine f\n";
    assert_eq!(kept(src, &["x"], &[]), ["inner%a", "t%u", "t%in"]);
}

#[test]
fn activity_off_keeps_every_field() {
    let src = "subroutine f(x, y)\n  use m\n  real(8) :: x, y\n  type(t) :: s\n  s%u = x\n  s%p = 3.0d0\n  y = s%u * s%p\nend subroutine f\n";
    assert_eq!(
        kept(src, &["x"], &["activity"]),
        ["inner%a", "inner%b", "t%u", "t%p", "t%c", "t%in"]
    );
}

#[test]
fn a_type_with_no_varied_field_keeps_its_first_and_is_not_nested() {
    let src = "subroutine f(x, y)\n  use m\n  real(8) :: x, y\n  type(t) :: s\n  s%u = x\n  s%in%a = 1.0d0\n  y = s%u + s%in%a\nend subroutine f\n";
    assert_eq!(kept(src, &["x"], &[]), ["inner%a", "t%u"]);
}

#[test]
fn a_callee_writing_an_actual_component() {
    // `set` gives its dummy a value from `x`; `count` only from the dummy's own value.
    let src = "subroutine set(v, w)\n  real(8) :: v, w\n  v = 2.0d0 * w\nend subroutine set\nsubroutine count(v)\n  real(8) :: v\n  v = 0.5d0 * v + 1.0d0\nend subroutine count\nsubroutine f(x, y)\n  use m\n  real(8) :: x, y\n  type(t) :: s\n  s%p = 1.0d0\n  s%c = 1.0d0\n  call set(s%u, x)\n  call count(s%c)\n  call set(s%in%b, s%p)\n  y = s%u * s%c + s%in%b\nend subroutine f\n";
    assert_eq!(kept(src, &["x"], &[]), ["inner%a", "t%u"]);
}

#[test]
fn a_callee_writing_a_whole_dummy_and_a_module_variable() {
    let src = "subroutine fill(s, w)\n  use m\n  type(t) :: s\n  real(8) :: w\n  s%c = w\n  s%p = 1.0d0\nend subroutine fill\nsubroutine put(w)\n  use m\n  real(8) :: w\n  g%in%b = w\nend subroutine put\nsubroutine f(x, y)\n  use m\n  real(8) :: x, y\n  type(t) :: s\n  call fill(s, x)\n  call put(x)\n  y = s%c + s%p + g%in%b\nend subroutine f\n";
    assert_eq!(kept(src, &["x"], &[]), ["inner%b", "t%c", "t%in"]);
}

#[test]
fn a_whole_structure_to_an_unknown_procedure_keeps_every_field() {
    let src = "subroutine f(x, y)\n  use m\n  real(8) :: x, y\n  type(t) :: s\n  s%p = 1.0d0\n  call mystery(s, x)\n  y = s%p * x\nend subroutine f\n";
    assert_eq!(
        kept(src, &["x"], &[]),
        ["inner%a", "inner%b", "t%u", "t%p", "t%c", "t%in"]
    );
}

#[test]
fn a_whole_structure_independent_keeps_every_field() {
    let whole = "subroutine f(s, y)\n  use m\n  type(t) :: s\n  real(8) :: y\n  y = s%u\nend subroutine f\n";
    assert_eq!(
        kept(whole, &["s"], &[]),
        ["inner%a", "inner%b", "t%u", "t%p", "t%c", "t%in"]
    );
}

#[test]
fn a_copy_of_a_structure_adds_nothing() {
    let src = "subroutine f(x, y)\n  use m\n  real(8) :: x, y\n  type(t) :: s, r\n  s%u = x\n  s%p = 1.0d0\n  r = s\n  y = r%u * r%p\nend subroutine f\n";
    assert_eq!(kept(src, &["x"], &[]), ["inner%a", "t%u"]);
}

/// With activity analysis off, a structure of a type holding no real value (integer
/// counters) passed to a differentiated call stays passive: no derivative argument
/// that nothing uses (`-Wall -Werror` refuses one).
#[test]
fn activity_off_leaves_valueless_structures_passive() {
    let text = "module tmod\n  implicit none\n  type :: tlog\n    integer :: n = 0\n  end type\n\
                contains\n  subroutine g(x, y, log)\n    real(8), intent(in) :: x\n    \
                real(8), intent(out) :: y\n    type(tlog), intent(inout) :: log\n    \
                log%n = log%n + 1\n    y = 2*x\n  end subroutine\nend module\n\n\
                subroutine f(x, y)\n  use tmod\n  implicit none\n  real(8) :: x, y\n  \
                type(tlog) :: log\n  call g(x, y, log)\nend subroutine\n";
    let request = Request {
        roots: vec![RootRequest {
            name: "f".into(),
            independents: vec!["x".into()],
            dependents: vec!["y".into()],
            modes: BTreeSet::from([crate::Mode::Tangent, crate::Mode::Adjoint]),
            origin: None,
            entry_origins: Vec::new(),
        }],
        checkpoint_calls: true,
        disabled: BTreeSet::from(["activity".to_string()]),
        ..Default::default()
    };
    let g = crate::differentiate(&[SourceInput::new("t.f90", text)], &request).expect("runs");
    for f in &g.files {
        assert!(!f.contents.contains("logd"), "{}", f.contents);
        assert!(!f.contents.contains("logb"), "{}", f.contents);
    }
    assert!(
        g.files
            .iter()
            .any(|f| f.contents.contains("subroutine g_d(x, xd, y, yd, log)"))
    );
}
