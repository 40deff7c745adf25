//! Arrays of derived type: `p(i)%x(j)` parsed, checked against the declared ranks, kept
//! as the struct-of-arrays view, and printed back.

use super::lower_file;
use crate::diag::{Diagnostic, FileId, Location, SourceFile};
use crate::il::{ExprKind, File, StmtKind};

const TYPES: &str = "\
module m
  implicit none
  type t
    real(8) :: x(3)
    real(8) :: w
    integer :: id
  end type t
end module m
";

fn lower(body: &str) -> Result<File, Vec<Diagnostic>> {
    let text = format!("{TYPES}{body}");
    let source = SourceFile::new("t.f90", &text);
    let mut next = 0;
    super::tests::with_deferred(lower_file(FileId(0), &source, "t.f90", &mut next))
}

/// (code, line, col) of every diagnostic, lines counted in `body` (after the module).
fn where_(body: &str, diags: &[Diagnostic]) -> Vec<(&'static str, usize, usize)> {
    let text = format!("{TYPES}{body}");
    let source = SourceFile::new("t.f90", &text);
    let skip = TYPES.lines().count();
    diags
        .iter()
        .map(|d| match &d.location {
            Some(Location::Span(s)) => {
                let (l, c) = source.line_col(s.lo);
                (d.code, l - skip, c)
            }
            _ => (d.code, 0, 0),
        })
        .collect()
}

#[test]
fn components_of_elements_are_views_with_the_array_dims_first() {
    let body = "\
subroutine s(n, p, y)
  use m
  implicit none
  integer, intent(in) :: n
  type(t), intent(inout) :: p(n)
  real(8), intent(out) :: y
  type(t) :: q(2, 4)
  p(2)%x(3) = p(1)%w
  q(1, 4)%x = p(n)%x
  y = sum(p%w) + q(2, 1)%x(1)
end subroutine s
";
    let file = lower(body).unwrap_or_else(|d| panic!("{d:?}"));
    let u = file.units.iter().find(|u| u.name == "s").unwrap();
    assert_eq!(u.symbols.get("p%x").unwrap().rank(), 2);
    assert_eq!(u.symbols.get("p%w").unwrap().rank(), 1);
    assert_eq!(u.symbols.get("q%x").unwrap().rank(), 3);
    assert_eq!(u.symbols.get("q%id").unwrap().rank(), 2);
    let StmtKind::Assign { lhs, rhs } = &u.body[0].kind else {
        panic!()
    };
    assert!(matches!(&lhs.kind, ExprKind::Index(n, s) if n == "p%x" && s.len() == 2));
    assert!(matches!(&rhs.kind, ExprKind::Index(n, s) if n == "p%w" && s.len() == 1));
    // `q(1, 4)%x`: the component whole, a section of the view.
    let StmtKind::Assign { lhs, .. } = &u.body[1].kind else {
        panic!()
    };
    let ExprKind::Index(n, subs) = &lhs.kind else {
        panic!()
    };
    assert_eq!(n, "q%x");
    assert!(matches!(subs[2].kind, ExprKind::Range { .. }));
    // Printed back as written.
    let text = crate::back::fortran::write_file(&file);
    for want in [
        "p(2)%x(3) = p(1)%w",
        "q(1, 4)%x(:) = p(n)%x(:)",
        "sum(p%w) + q(2, 1)%x(1)",
    ] {
        assert!(text.contains(want), "{want} not in:\n{text}");
    }
}

#[test]
fn component_references_that_do_not_match_the_ranks_are_refused() {
    let head = "\
subroutine s(n, p, y)
  use m
  implicit none
  integer, intent(in) :: n
  type(t), intent(inout) :: p(n)
  real(8), intent(out) :: y
  type(t) :: r
";
    let cases: &[(&str, (&str, usize, usize))] = &[
        // Two subscripts on the rank-1 `p`.
        ("  y = p(1, 2)%w\n", ("E0421", 8, 7)),
        // A whole `p%x`: both arrays.
        ("  y = sum(p%x)\n", ("E0421", 8, 11)),
        // A component subscripted on the whole array.
        ("  y = p%x(1)\n", ("E0421", 8, 7)),
        // Too many subscripts on the component.
        ("  y = p(1)%x(1, 2)\n", ("E0421", 8, 7)),
        // An element of a scalar.
        ("  y = r(1)%w\n", ("E0421", 8, 7)),
    ];
    for (line, want) in cases {
        let body = format!("{head}{line}end subroutine s\n");
        let d = lower(&body).expect_err(&body);
        let got = where_(&body, &d);
        assert!(got.contains(want), "{body}\nwanted {want:?}, got {got:?}");
    }
    // DIMENSION after the type declaration.
    let body = "\
subroutine s(y)
  use m
  implicit none
  real(8), intent(out) :: y
  type(t) :: p
  dimension p(4)
  y = p(1)%w
end subroutine s
";
    let d = lower(body).expect_err(body);
    assert_eq!(where_(body, &d)[0], ("E0420", 6, 13));
    // A component of an element of an array component: not parsed.
    let body = "subroutine s(y)\n  real(8) :: y\n  y = a(1)%b(2)%c\nend subroutine s\n";
    let d = lower(body).expect_err(body);
    assert_eq!(d[0].code, "E0404");
}
