//! GENERIC type-bound procedures: named generics called through the object, operators
//! and assignment resolved by the operands' types wherever the type goes, printed back
//! as written; what adgen refuses.

use super::tests::where_;
use crate::diag::Diagnostic;

const TEXT: &str = "\
module pts
  implicit none
  private
  public :: pt
  type :: pt
    real(8) :: a, b
  contains
    procedure :: scale_r, scale_i
    procedure, private :: add_pp, dot_pp, set_r
    generic :: scale => scale_r, scale_i
    generic :: operator(+) => add_pp
    generic, public :: operator(.dot.) => dot_pp
    generic :: assignment(=) => set_r
  end type pt
contains
  subroutine scale_r(p, s)
    class(pt), intent(inout) :: p
    real(8), intent(in) :: s
    p%a = s*p%a
    p%b = s*p%b
  end subroutine scale_r
  subroutine scale_i(p, k)
    class(pt), intent(inout) :: p
    integer, intent(in) :: k
    p%a = k*p%a
  end subroutine scale_i
  type(pt) function add_pp(p, q)
    class(pt), intent(in) :: p, q
    add_pp%a = p%a + q%a
    add_pp%b = p%b + q%b
  end function add_pp
  real(8) function dot_pp(p, q)
    class(pt), intent(in) :: p, q
    dot_pp = p%a*q%a + p%b*q%b
  end function dot_pp
  subroutine set_r(p, s)
    class(pt), intent(inout) :: p
    real(8), intent(in) :: s
    p%a = s
    p%b = s
  end subroutine set_r
end module pts

module use_pts
  use pts, only: pt
  implicit none
contains
  subroutine use_it(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    type(pt) :: p, q
    p = x
    q = 2.0d0
    call p%scale(3.0d0)
    call q%scale(2)
    y = (p + q) .dot. q
  end subroutine use_it
end module use_pts
";

fn parse(text: &str) -> Result<crate::il::Program, Vec<Diagnostic>> {
    let mut map = crate::diag::SourceMap::default();
    crate::parse_sources(&[crate::SourceInput::new("t.f90", text)], &mut map)
}

#[test]
fn generic_bindings_resolve_by_type_and_print_as_written() {
    let program = parse(TEXT).expect("parses");
    let unit = program.unit("use_it").expect("unit");
    let called = crate::il::visit::called_names(unit);
    assert_eq!(
        called,
        ["set_r", "set_r", "scale_r", "scale_i", "dot_pp", "add_pp"]
    );
    assert!(unit.deferred.is_empty(), "{:?}", unit.deferred);
    let out = crate::back::fortran::write_file(&program.files[0]);
    for line in [
        "p = x",
        "call p%scale(3.0d0)",
        "call q%scale(2)",
        "y = (((p + q)) .dot. q)",
        "generic :: scale => scale_r, scale_i",
        "generic, public :: operator(.dot.) => dot_pp",
        "generic :: assignment(=) => set_r",
    ] {
        assert!(out.contains(line), "{line}:\n{out}");
    }
}

#[test]
fn generic_binding_without_a_fitting_specific_is_refused() {
    let bad = TEXT.replace("call q%scale(2)", "call q%scale(.true.)");
    let program = parse(&bad).expect("deferred to the roots that reach it");
    let errs = &program.unit("use_it").expect("unit").deferred;
    assert_eq!(where_(&bad, errs), vec![("E0429", 55, 5)]);
    assert!(errs[0].message.contains("`scale`"), "{}", errs[0].message);
}

#[test]
fn generic_binding_passing_the_object_two_ways_is_refused_where_called() {
    let two = TEXT
        .replace(
            "    procedure :: scale_r, scale_i\n",
            "    procedure :: scale_r\n    procedure, pass(p) :: scale_i\n",
        )
        .replace("subroutine scale_i(p, k)", "subroutine scale_i(k, p)");
    let program = parse(&two).expect("deferred to the roots that reach it");
    let unit = program.unit("use_it").expect("unit");
    assert_eq!(where_(&two, &unit.deferred), vec![("E0405", 55, 5)]);
}

#[test]
fn malformed_generic_statement_is_one_refusal_at_the_type() {
    let bad = TEXT.replace(
        "generic :: operator(+) => add_pp",
        "generic :: operator(+) add_pp",
    );
    let program = parse(&bad).expect("deferred to the roots that use the type");
    let d: Vec<&Diagnostic> = program
        .units()
        .flat_map(|u| {
            u.deferred
                .iter()
                .chain(u.deferred_entities.iter().map(|(_, d)| d))
        })
        .collect();
    // The refusal is what a root reaching `use_it` is told (`prepare` says refusals,
    // E04xx, not the semantic errors beside them).
    // (each once: `prepare` says a refusal once however many units repeat it).
    let mut refusals: Vec<&&Diagnostic> = d.iter().filter(|d| d.code.starts_with("E04")).collect();
    refusals.dedup_by_key(|d| d.identity());
    assert_eq!(refusals.len(), 1, "{d:?}");
    assert!(refusals[0].message.contains("GENERIC"), "{d:?}");
}
