//! Tests of the Fortran front-end on whole programs: IL shape, symbols, diagnostics, and
//! that no input makes it panic.

use super::lower_file;
use crate::diag::{Diagnostic, FileId, Location, SourceFile, SourceMap};
use crate::il::{
    BaseType, BinOp, Bound, DeclKind, Expr, ExprKind, File, Intent, Intrinsic, ScalarType, Stmt,
    StmtKind, SymbolKind, UnOp, Unit,
};

/// The file, or its diagnostics: those of constructs adgen does not support included,
/// which the front-end leaves with their procedures (reported if a root reaches them).
fn lower(text: &str) -> Result<File, Vec<Diagnostic>> {
    let source = SourceFile::new("t.f90", text);
    let mut next = 0;
    with_deferred(lower_file(FileId(0), &source, "t.f90", &mut next))
}

/// A lowered file as a Result that fails on its deferred refusals too.
pub(super) fn with_deferred(
    lowered: Result<File, Vec<Diagnostic>>,
) -> Result<File, Vec<Diagnostic>> {
    let file = lowered?;
    let mut deferred: Vec<Diagnostic> = file
        .units
        .iter()
        .flat_map(|u| u.deferred.iter().cloned())
        .collect();
    if deferred.is_empty() {
        return Ok(file);
    }
    deferred.sort_by_key(|d| match &d.location {
        Some(Location::Span(s)) => s.lo,
        _ => u32::MAX,
    });
    Err(deferred)
}

fn ok(text: &str) -> File {
    match lower(text) {
        Ok(f) => {
            check_invariants(&f);
            f
        }
        Err(d) => panic!("unexpected diagnostics:\n{}", render(text, &d)),
    }
}

/// The IL's promises (il/mod.rs): every name of a body is in the unit's symbol table,
/// element references match the rank, calls name procedures, spans nest, ids are unique.
pub(super) fn check_invariants(file: &File) {
    let mut ids = std::collections::BTreeSet::new();
    for unit in &file.units {
        let symbols = &unit.symbols;
        crate::il::visit::walk_stmts(&unit.body, &mut |stmt: &Stmt| {
            assert!(ids.insert(stmt.id), "duplicate id {:?}", stmt.id);
            assert!(
                stmt.span.lo >= unit.span.lo && stmt.span.hi <= unit.span.hi,
                "statement outside its unit"
            );
            if let StmtKind::Assign { lhs, .. } = &stmt.kind {
                let name = lhs.base_name().unwrap();
                assert!(symbols.get(name).is_some_and(|s| s.is_variable()), "{name}");
            }
            if let StmtKind::Do { var, .. } = &stmt.kind {
                assert!(symbols.get(var).is_some());
            }
            let mut exprs = crate::il::visit::stmt_exprs(stmt);
            if let StmtKind::Assign { lhs, .. } = &stmt.kind {
                exprs.push(lhs);
            }
            for expr in exprs {
                assert!(expr.span.lo >= stmt.span.lo && expr.span.hi <= stmt.span.hi);
                crate::il::visit::walk_expr(expr, &mut |e| {
                    assert!(e.span.lo >= expr.span.lo && e.span.hi <= expr.span.hi);
                    match &e.kind {
                        ExprKind::Var(n) => assert!(symbols.get(n).is_some(), "{n}"),
                        ExprKind::Index(n, subs) => {
                            assert_eq!(symbols.get(n).map(|s| s.rank()), Some(subs.len()))
                        }
                        ExprKind::Call(n, _) => assert_eq!(
                            symbols.get(n).map(|s| s.kind),
                            Some(SymbolKind::Procedure),
                            "{n}"
                        ),
                        _ => {}
                    }
                });
            }
        });
        for (i, arg) in unit.args.iter().enumerate() {
            assert_eq!(symbols.get(arg).and_then(|s| s.arg_index), Some(i));
        }
        if let Some(result) = &unit.result {
            assert!(symbols.get(result).is_some_and(|s| s.is_result));
        }
    }
}

fn render(text: &str, diags: &[Diagnostic]) -> String {
    let mut map = SourceMap::default();
    map.add(SourceFile::new("t.f90", text));
    diags.iter().map(|d| d.render(&map)).collect()
}

fn errs(text: &str) -> Vec<Diagnostic> {
    match lower(text) {
        Ok(_) => panic!("expected errors for:\n{text}"),
        Err(d) => d,
    }
}

/// (code, line, col) of every diagnostic.
pub(super) fn where_(text: &str, diags: &[Diagnostic]) -> Vec<(&'static str, usize, usize)> {
    let source = SourceFile::new("t.f90", text);
    diags
        .iter()
        .map(|d| match &d.location {
            Some(Location::Span(s)) => {
                let (l, c) = source.line_col(s.lo);
                (d.code, l, c)
            }
            _ => (d.code, 0, 0),
        })
        .collect()
}

/// The right-hand side of the `n`-th statement of the first unit, an assignment.
fn rhs(unit: &Unit, n: usize) -> &Expr {
    match &unit.body[n].kind {
        StmtKind::Assign { rhs, .. } => rhs,
        other => panic!("not an assignment: {other:?}"),
    }
}

/// A compact printing of expressions, to assert structure.
fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(t) => t.clone(),
        ExprKind::Real(r) => format!("{}r{}", r.value, r.kind),
        ExprKind::Logical(b) => format!("{b}"),
        ExprKind::Str(s) => format!("'{s}'"),
        ExprKind::Var(n) => n.clone(),
        ExprKind::Index(n, subs) => format!(
            "{n}[{}]",
            subs.iter().map(show).collect::<Vec<_>>().join(",")
        ),
        ExprKind::Call(n, args) => format!(
            "call:{n}({})",
            args.iter()
                .map(|a| show(&a.value))
                .collect::<Vec<_>>()
                .join(",")
        ),
        ExprKind::Intrinsic { op, args, .. } => format!(
            "{op:?}({})",
            args.iter()
                .map(|a| show(&a.value))
                .collect::<Vec<_>>()
                .join(",")
        ),
        ExprKind::Unary(op, x) => format!("{op:?}({})", show(x)),
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => [lower, upper, stride]
            .iter()
            .map(|p| p.as_deref().map(show).unwrap_or_default())
            .collect::<Vec<_>>()
            .join(":"),
        ExprKind::ArrayCtor(items) => {
            format!("[{}]", items.iter().map(show).collect::<Vec<_>>().join(","))
        }
        ExprKind::ImpliedDo(d) => format!(
            "({}; {}={}:{}:{})",
            d.items.iter().map(show).collect::<Vec<_>>().join(","),
            d.var,
            show(&d.lower),
            show(&d.upper),
            d.stride.as_ref().map(show).unwrap_or_default()
        ),
        ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", show(a), show(b)),
        ExprKind::Paren(x) => format!("<{}>", show(x)),
        ExprKind::Substring { base, lower, upper } => format!(
            "{}{{{}:{}}}",
            show(base),
            lower.as_deref().map(show).unwrap_or_default(),
            upper.as_deref().map(show).unwrap_or_default()
        ),
    }
}

const HEAT: &str = "\
! Explicit heat equation step.
! Second line of the header comment.
subroutine heat(n, u, k, dt)
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, intent(in) :: n
  real(dp), intent(inout) :: u(0:n+1)
  real(kind=dp), intent(in) :: k, dt
  ! work array
  real(dp) :: unew(n)
  integer :: i
  ! the update
  do i = 1, n
    unew(i) = u(i) + k*dt*(u(i-1) - 2.0_dp*u(i) + u(i+1)) ! centred
  end do
  do i = n, 1, -1
    u(i) = unew(i)
  enddo
end subroutine heat

double precision function norm2s(n, x) result(s)
  integer n
  double precision x(*)
  integer i
  s = 0d0
  do i = 1, n
    s = s + x(i)**2
  end do
  s = sqrt(s)
end function
";

#[test]
fn heat_units_symbols_and_comments() {
    let file = ok(HEAT);
    assert_eq!(file.units.len(), 2);
    let heat = &file.units[0];
    assert_eq!(heat.name, "heat");
    assert_eq!(heat.args, vec!["n", "u", "k", "dt"]);
    assert_eq!(
        heat.leading_comments,
        vec![
            " Explicit heat equation step.",
            " Second line of the header comment."
        ]
    );
    assert!(
        heat.decls
            .iter()
            .any(|d| matches!(&d.kind, DeclKind::Comment(t) if t == " work array"))
    );
    assert!(matches!(&heat.body[0].kind, StmtKind::Comment(t) if t == " the update"));
    let s = &heat.symbols;
    let u = s.get("U").unwrap();
    assert_eq!(u.ty, ScalarType::Real(8));
    assert_eq!(u.arg_index, Some(1));
    assert_eq!(u.intent, Some(Intent::InOut));
    assert_eq!(u.rank(), 1);
    assert!(u.dims[0].lower.is_some());
    assert_eq!(s.get("k").unwrap().ty, ScalarType::Real(8));
    assert!(s.get("k").unwrap().type_spec.kind_keyword);
    assert_eq!(s.get("dp").unwrap().kind, SymbolKind::Constant);
    assert_eq!(s.get("unew").unwrap().arg_index, None);
    assert_eq!(s.get("i").unwrap().ty, ScalarType::Integer(4));
    assert!(!s.get("i").unwrap().implicit);
    // Loop body: element references and real literal kinds.
    let StmtKind::Do { var, body, .. } = &heat.body[1].kind else {
        panic!()
    };
    assert_eq!(var, "i");
    assert_eq!(body[0].trailing_comment.as_deref(), Some(" centred"));
    let StmtKind::Assign { lhs, rhs: value } = &body[0].kind else {
        panic!()
    };
    assert_eq!(show(lhs), "unew[i]");
    assert_eq!(
        show(value),
        "(u[i] Add ((k Mul dt) Mul <((u[(i Sub 1)] Sub (2.0r8 Mul u[i])) Add u[(i Add 1)])>))"
    );
    let StmtKind::Do { step, .. } = &heat.body[2].kind else {
        panic!()
    };
    assert_eq!(show(step.as_ref().unwrap()), "Neg(1)");

    let f = &file.units[1];
    assert!(f.is_function());
    assert_eq!(f.result.as_deref(), Some("s"));
    assert!(f.explicit_result);
    assert_eq!(
        f.prefix_type.as_ref().unwrap().base,
        BaseType::DoublePrecision
    );
    let r = f.symbols.get("s").unwrap();
    assert!(r.is_result);
    assert_eq!(r.ty, ScalarType::Real(8));
    let x = f.symbols.get("x").unwrap();
    assert!(matches!(x.dims[0].upper, Bound::Star));
    assert_eq!(show(rhs(f, 0)), "0e0r8");
    assert_eq!(show(rhs(f, 2)), "Sqrt(s)");
}

#[test]
fn statement_ids_are_unique_and_in_order() {
    let file = ok(HEAT);
    let mut ids = Vec::new();
    for unit in &file.units {
        crate::il::visit::walk_stmts(&unit.body, &mut |s: &Stmt| ids.push(s.id.0));
    }
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len());
    assert_eq!(ids, sorted, "ids follow source order");
}

fn body_of(stmts: &str) -> Unit {
    let text = format!(
        "subroutine t(a, b, c, x, n)\n  real(8) :: a, b, c, y, z\n  real(8) :: x(n)\n  integer :: n, i\n  logical :: p, q\n{stmts}\nend subroutine\n"
    );
    ok(&text).units.remove(0)
}

#[test]
fn precedence() {
    let u = body_of(
        "y = -a**2\ny = a**b**c\ny = a-b-c\ny = -a*b + c\ny = a*-b\ny = a/b*c\ny = (a+b)*c",
    );
    let shown: Vec<String> = (0..7).map(|i| show(rhs(&u, i))).collect();
    assert_eq!(
        shown,
        vec![
            "Neg((a Pow 2))",
            "(a Pow (b Pow c))",
            "((a Sub b) Sub c)",
            "(Neg((a Mul b)) Add c)",
            "(a Mul Neg(b))",
            "((a Div b) Mul c)",
            "(<(a Add b)> Mul c)",
        ]
    );
}

#[test]
fn logical_and_relational_operators() {
    let u = body_of(
        "p = a .lt. b .and. b <= c .or. .not. q\np = a == b .eqv. b /= c\np = a.gt.b .neqv. a>=b\np = 1.eq.n",
    );
    assert_eq!(show(rhs(&u, 0)), "(((a Lt b) And (b Le c)) Or Not(q))");
    assert_eq!(show(rhs(&u, 1)), "((a Eq b) Eqv (b Ne c))");
    assert_eq!(show(rhs(&u, 2)), "((a Gt b) Neqv (a Ge b))");
    assert_eq!(show(rhs(&u, 3)), "(1 Eq n)");
}

#[test]
fn real_literals() {
    let u =
        body_of("y = 1.0\ny = 1.\ny = .5\ny = 1e-3\ny = 1.0d0\ny = 1.5D+2\ny = 2.0_8\ny = 3_8 * a");
    let lits: Vec<(String, u8, String)> = (0..7)
        .map(|i| match &rhs(&u, i).kind {
            ExprKind::Real(r) => (
                r.value.clone(),
                r.kind,
                r.spelling.as_deref().unwrap().to_string(),
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    let expect = [
        ("1.0", 4, "1.0"),
        ("1.", 4, "1."),
        (".5", 4, ".5"),
        ("1e-3", 4, "1e-3"),
        ("1.0e0", 8, "1.0d0"),
        ("1.5e+2", 8, "1.5D+2"),
        ("2.0", 8, "2.0_8"),
    ];
    for (got, want) in lits.iter().zip(expect) {
        assert_eq!((got.0.as_str(), got.1, got.2.as_str()), want);
    }
    assert_eq!(show(rhs(&u, 7)), "(3_8 Mul a)");
}

#[test]
fn index_call_and_intrinsic_resolution() {
    let text = "\
subroutine s(x, n, y)
  real(8) x(n), y
  integer n
  real(8), external :: g
  real(8) :: h
  y = x(1) + g(x(2)) + h(y, 2) + f(y) + DSQRT(y) + max(y, 1d0, x(n))
  y = atan2(y, x(1)) + real(n, kind=8) + abs(y)
  call sub(x, n, y=y)
end subroutine s
";
    let file = ok(text);
    let u = &file.units[0];
    assert_eq!(
        show(rhs(u, 0)),
        "(((((x[1] Add call:g(x[2])) Add call:h(y,2)) Add call:f(y)) Add Sqrt(y)) Add Max(y,1e0r8,x[n]))"
    );
    let ExprKind::Binary(_, lhs, _) = &rhs(u, 0).kind else {
        panic!()
    };
    let _ = lhs;
    let g = u.symbols.get("g").unwrap();
    assert_eq!(g.kind, SymbolKind::Procedure);
    assert_eq!(g.ty, ScalarType::Real(8));
    let h = u.symbols.get("h").unwrap();
    assert_eq!(h.kind, SymbolKind::Procedure);
    let f = u.symbols.get("f").unwrap();
    assert_eq!(f.kind, SymbolKind::Procedure);
    assert_eq!(f.ty, ScalarType::Real(4));
    assert!(f.implicit);
    // Spelling kept for intrinsics.
    let mut spellings = Vec::new();
    crate::il::visit::walk_expr(rhs(u, 0), &mut |e| {
        if let ExprKind::Intrinsic { spelling, .. } = &e.kind {
            spellings.push(spelling.as_deref().unwrap().to_string());
        }
    });
    assert_eq!(spellings, vec!["DSQRT", "max"]);
    let ExprKind::Binary(_, left, _) = &rhs(u, 1).kind else {
        panic!()
    };
    let ExprKind::Binary(_, _, real_call) = &left.kind else {
        panic!()
    };
    let ExprKind::Intrinsic { op, args, .. } = &real_call.kind else {
        panic!()
    };
    assert_eq!(*op, Intrinsic::Real);
    assert_eq!(args[1].keyword.as_deref(), Some("kind"));
    let StmtKind::Call { name, args } = &u.body[2].kind else {
        panic!()
    };
    assert_eq!(name, "sub");
    assert_eq!(args.len(), 3);
    assert_eq!(args[2].keyword.as_deref(), Some("y"));
    assert_eq!(show(&args[0].value), "x");
}

#[test]
fn implicit_typing_rules() {
    let text = "\
subroutine s(a, i, x)
  implicit double precision (a-h, o-z)
  dimension x(10)
  b = a * x(i)
  k = i + 1
end
function f(x)
  f = x + 1
end
";
    let file = ok(text);
    let s = &file.units[0].symbols;
    assert_eq!(s.get("a").unwrap().ty, ScalarType::Real(8));
    assert!(s.get("a").unwrap().implicit);
    assert_eq!(
        s.get("a").unwrap().type_spec.base,
        BaseType::DoublePrecision
    );
    assert_eq!(s.get("b").unwrap().ty, ScalarType::Real(8));
    assert_eq!(s.get("x").unwrap().ty, ScalarType::Real(8));
    assert_eq!(s.get("x").unwrap().rank(), 1);
    assert_eq!(s.get("k").unwrap().ty, ScalarType::Integer(4));
    let f = &file.units[1];
    assert_eq!(f.result.as_deref(), Some("f"));
    let r = f.symbols.get("f").unwrap();
    assert!(r.is_result && r.implicit);
    assert_eq!(r.ty, ScalarType::Real(4));
}

#[test]
fn kind_parameters() {
    let text = "\
subroutine s(x, y, z, w, v)
  implicit none
  integer, parameter :: sp = selected_real_kind(6), dp = selected_real_kind(15, 307)
  integer, parameter :: wp = dp, ik = 8
  real(sp) :: x
  real(kind=wp) :: y
  real*8 :: z
  integer(ik) :: w
  integer*4 :: v
  x = 1.0_sp
  y = 2.5_wp * x
  w = 3_ik
end subroutine
";
    let file = ok(text);
    let s = &file.units[0].symbols;
    assert_eq!(s.get("x").unwrap().ty, ScalarType::Real(4));
    assert_eq!(s.get("y").unwrap().ty, ScalarType::Real(8));
    assert_eq!(s.get("z").unwrap().ty, ScalarType::Real(8));
    assert_eq!(s.get("z").unwrap().type_spec.star, Some(8));
    assert_eq!(s.get("w").unwrap().ty, ScalarType::Integer(8));
    assert_eq!(s.get("v").unwrap().ty, ScalarType::Integer(4));
    let u = &file.units[0];
    assert_eq!(show(rhs(u, 1)), "(2.5r8 Mul x)");
}

#[test]
fn control_flow_constructs() {
    let text = "\
subroutine s(x, n)
  integer n, i, j
  real x(n)
  outer: do i = 1, n
    if (x(i) > 0) then
      x(i) = 1
    else if (x(i) < 0) then ! negative
      x(i) = -1
    elseif (i == 2) then
      cycle outer
    else
      ! zero
      exit
    endif
    if (i > 3) x(i) = 0
    do while (x(i) > 1.0)
      x(i) = x(i) / 2
      if (x(i) < 1) exit
    end do
    inner: do j = 1, 2
      if (j == 2) exit outer
    end do inner
  end do outer
  do 10 i = 1, n
    x(i) = x(i) + 1
10 continue
  do
    exit
  end do
  return
end subroutine s
";
    let file = ok(text);
    let u = &file.units[0];
    let StmtKind::Do { name, body, .. } = &u.body[0].kind else {
        panic!()
    };
    assert_eq!(name.as_deref(), Some("outer"));
    let StmtKind::If {
        arms,
        else_body,
        logical_if,
        ..
    } = &body[0].kind
    else {
        panic!()
    };
    assert_eq!(arms.len(), 3);
    assert!(!logical_if);
    assert!(matches!(&arms[1].1[0].kind, StmtKind::Comment(t) if t == " negative"));
    assert!(matches!(&arms[2].1[0].kind, StmtKind::Cycle { name: Some(n) } if n == "outer"));
    let else_body = else_body.as_ref().unwrap();
    assert!(matches!(&else_body[0].kind, StmtKind::Comment(t) if t == " zero"));
    assert!(matches!(&else_body[1].kind, StmtKind::Exit { name: None }));
    assert!(matches!(
        &body[1].kind,
        StmtKind::If {
            logical_if: true,
            ..
        }
    ));
    assert!(matches!(&body[2].kind, StmtKind::DoWhile { .. }));
    let StmtKind::Do { name, .. } = &body[3].kind else {
        panic!()
    };
    assert_eq!(name.as_deref(), Some("inner"));
    let StmtKind::Do { body: labeled, .. } = &u.body[1].kind else {
        panic!()
    };
    // The terminating `10 continue` is not needed by the block DO of the IL.
    assert_eq!(labeled.len(), 1);
    assert!(labeled[0].label.is_none());
    assert!(matches!(
        &u.body[2].kind,
        StmtKind::DoWhile { cond, .. } if matches!(cond.kind, ExprKind::Logical(true))
    ));
    assert!(matches!(u.body[3].kind, StmtKind::Return));
}

#[test]
fn continuation_semicolons_and_strings() {
    let text = "\
subroutine s(a, b)
  real(8) :: a, & ! first part
     & b
  character(len=20) :: msg
  a = a + &
      b; b = 2*a ! two statements
  msg = 'don''t ! stop'
  msg = \"it's\"
end subroutine
";
    let file = ok(text);
    let u = &file.units[0];
    assert_eq!(u.symbols.get("b").unwrap().ty, ScalarType::Real(8));
    assert_eq!(show(rhs(u, 0)), "(a Add b)");
    assert_eq!(show(rhs(u, 1)), "(2 Mul a)");
    assert_eq!(
        u.body[1].trailing_comment.as_deref(),
        Some(" two statements")
    );
    assert_eq!(show(rhs(u, 2)), "'don't ! stop'");
    assert_eq!(show(rhs(u, 3)), "'it's'");
    assert_eq!(
        u.symbols.get("msg").unwrap().type_spec.char_len.as_deref(),
        Some("20")
    );
}

#[test]
fn spans_point_at_source() {
    let text = "subroutine s(a)\n  real a\n  a = 2*a + 1\nend\n";
    let file = ok(text);
    let u = &file.units[0];
    let stmt = &u.body[0];
    assert_eq!(
        &text[stmt.span.lo as usize..stmt.span.hi as usize],
        "a = 2*a + 1"
    );
    let e = rhs(u, 0);
    assert_eq!(&text[e.span.lo as usize..e.span.hi as usize], "2*a + 1");
    // Every child expression lies within its parent.
    crate::il::visit::walk_expr(e, &mut |child| {
        assert!(child.span.lo >= e.span.lo && child.span.hi <= e.span.hi);
    });
}

#[test]
fn syntax_error_location_and_recovery() {
    let text = "subroutine s(a)\n  real a\n  a = (a + \n  a = a * * 2\n  a = 1\nend\n";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0202", 3, 11), ("E0202", 4, 11)]);
    assert!(d[0].message.contains("expected"), "{}", d[0].message);
}

#[test]
fn goto_and_io_are_parsed() {
    let text = "subroutine s(a, n)\n  real a(n)\n  integer n, k, ios\n  goto 10\n  print *, a\n\
                10 write (6, '(f8.3)', iostat=ios) (a(k), k = 1, n), n*2.0\n  read (5, *) n, a(1)\n  \
                stop 'done'\nend\n";
    let file = ok(text);
    let io: Vec<(String, Vec<String>, Vec<String>, bool)> = file.units[0]
        .body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Io {
                text,
                reads,
                writes,
                stops,
            } => Some((
                text.clone(),
                reads.iter().map(show).collect(),
                writes.iter().map(show).collect(),
                *stops,
            )),
            _ => None,
        })
        .collect();
    assert_eq!(io[0].0, "print *, a");
    assert_eq!(io[0].1, vec!["a"]);
    assert_eq!(
        io[1].0,
        "write (6, '(f8.3)', iostat=ios) (a(k), k = 1, n), n*2.0"
    );
    assert_eq!(
        io[1].1,
        vec!["6", "'(f8.3)'", "a[k]", "1", "n", "(n Mul 2.0r4)"]
    );
    assert_eq!(io[1].2, vec!["ios", "k"]);
    assert_eq!(io[2].2, vec!["n", "a[1]"]);
    assert!(io[3].3 && io[3].0 == "stop 'done'");
}

#[test]
fn common_data_and_save_are_parsed() {
    let text = "subroutine s(x)\n  real x, a, b(3), c\n  integer n\n  common /blk/ a, b /two/ n, // c\n  \
                save /blk/, x2\n  real x2\n  data x2 /1.5/, (b(n), n = 1, 2) /2*0.0/\n  x = a\nend\n";
    let file = ok(text);
    let u = &file.units[0];
    let kinds: Vec<&DeclKind> = u.decls.iter().map(|d| &d.kind).collect();
    let DeclKind::Common(blocks) = kinds[2] else {
        panic!("{:?}", kinds[2])
    };
    let names: Vec<(Option<&str>, Vec<&str>)> = blocks
        .iter()
        .map(|(b, es)| (b.as_deref(), es.iter().map(|e| e.name.as_str()).collect()))
        .collect();
    assert_eq!(
        names,
        vec![
            (Some("blk"), vec!["a", "b"]),
            (Some("two"), vec!["n"]),
            (None, vec!["c"])
        ]
    );
    assert!(
        matches!(kinds[3], DeclKind::Save(n) if n == &vec!["/blk/".to_string(), "x2".to_string()])
    );
    let DeclKind::Data(sets) = kinds[5] else {
        panic!("{:?}", kinds[5])
    };
    assert_eq!(sets[1].objects, "(b(n), n = 1, 2)");
    assert_eq!(sets[1].values, "2*0.0");
    assert_eq!(sets[1].names, vec!["b"]);
    let g = u.symbols.get("b").unwrap().global.clone().unwrap();
    assert_eq!((g.module.as_str(), g.name.as_str()), ("/blk/", "b"));
    assert_eq!(
        u.symbols.get("c").unwrap().global.as_ref().unwrap().module,
        "//"
    );
    assert!(u.symbols.get("x2").unwrap().global.is_none());
}

#[test]
fn undeclared_variable_under_implicit_none() {
    let text =
        "subroutine s(a)\n  implicit none\n  real a\n  a = b + b\n  a = g(a)\nend subroutine\n";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0301", 4, 7), ("E0302", 5, 7)]);
    assert!(d[0].message.contains("`b`"));
}

#[test]
fn semantic_checks() {
    let text = "\
subroutine s(a, x, n)
  integer n
  real a, x(n)
  real a
  integer, parameter :: m = 3
  m = 4
  do a = 1, n
  end do
  a = x(1, 2)
  exit
end
";
    let d = errs(text);
    let codes: Vec<&str> = d.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        vec!["E0307", "E0304", "E0303", "E0306", "E0305"],
        "{}",
        render(text, &d)
    );
}

#[test]
fn unsupported_units() {
    let text = "\
module m
contains
  subroutine inner()
  end subroutine
end module m
program p
  print *, 1
end program
subroutine ok(a)
  real a
  a = 1
end
";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0402", 6, 1)]);
}

#[test]
fn missing_end_and_mismatches() {
    let d = errs("subroutine s(a)\n  real a\n  if (a > 0) then\n    a = 1\nend\n");
    assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), vec!["E0205"]);
    let d = errs("subroutine s(a)\n  real a\n  a = 1\n");
    assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), vec!["E0205"]);
    let d = errs("subroutine s(a)\n  real a\n  end do\nend subroutine t\n");
    assert_eq!(
        d.iter().map(|d| d.code).collect::<Vec<_>>(),
        vec!["E0206", "E0206"]
    );
}

#[test]
fn unary_minus_and_sign_extension() {
    let u = body_of("y = -(a)\ny = +a - -b");
    assert_eq!(show(rhs(&u, 0)), "Neg(<a>)");
    assert_eq!(show(rhs(&u, 1)), "(Plus(a) Sub Neg(b))");
    let _ = UnOp::Neg;
    let _ = BinOp::Add;
}

/// A tiny deterministic generator, so the test needs no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Lowers `iterations` damaged copies of `sample`: every truncation, then random
/// deletions, insertions of Fortran-ish pieces and swaps. Only panics fail.
fn damage_and_lower(sample: &str, rng: &mut Rng, iterations: usize) {
    let bytes = sample.as_bytes();
    for cut in 0..=bytes.len() {
        let text = String::from_utf8_lossy(&bytes[..cut]);
        let _ = lower(&text);
    }
    let pieces = [
        "(",
        ")",
        "&\n",
        "'",
        "\"",
        "!",
        ";",
        ",",
        "=",
        "**",
        ".and.",
        "end",
        "do ",
        "if (",
        "then",
        "\n",
        "1.",
        "_dp",
        ":",
        "::",
        "*",
        "end do\n",
        "else\n",
        "\u{e9}",
        "10 ",
        "do 10 i=1,2\n",
        "contains\n",
        "function f(x)\n",
        "end function\n",
        "select case (i)\n",
        "end select\n",
        "module m\n",
        "%",
        "=>",
        "#",
        "implicit none\n",
    ];
    for _ in 0..iterations {
        let mut text = bytes.to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(text.len() + 1);
            match rng.below(3) {
                0 if at < text.len() => {
                    let len = 1 + rng.below(8);
                    text.drain(at..(at + len).min(text.len()));
                }
                1 => {
                    let piece = pieces[rng.below(pieces.len())];
                    text.splice(at..at, piece.bytes());
                }
                _ => {
                    let other = rng.below(text.len() + 1);
                    if at < text.len() && other < text.len() {
                        text.swap(at, other);
                    }
                }
            }
        }
        let text = String::from_utf8_lossy(&text);
        let _ = lower(&text);
    }
}

/// Damages every `.f90` file under `$ADGEN_FRONT_CORPUS` `$ADGEN_FUZZ_ITERS` times.
#[test]
#[ignore]
fn fuzz_corpus_dir() {
    let Ok(dir) = std::env::var("ADGEN_FRONT_CORPUS") else {
        return;
    };
    let iterations = std::env::var("ADGEN_FUZZ_ITERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut stack = vec![std::path::PathBuf::from(dir)];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for entry in std::fs::read_dir(&p).unwrap().flatten() {
                stack.push(entry.path());
            }
        } else if p.extension().is_some_and(|e| e == "f90") {
            let text = std::fs::read_to_string(&p).unwrap();
            println!("{}", p.display());
            damage_and_lower(&text, &mut rng, iterations);
        }
    }
}

#[test]
fn never_panics_on_damaged_input() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let control = body_text_for_fuzz();
    for sample in [
        HEAT,
        control.as_str(),
        "subroutine s(a)\n  real a\n  a = (a + 1\nend\n",
    ] {
        damage_and_lower(sample, &mut rng, 1500);
    }
    // Random bytes.
    for _ in 0..500 {
        let len = rng.below(300);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let _ = lower(&String::from_utf8_lossy(&bytes));
    }
    // Pathological nesting, on adgen's own stack (as every entry point runs): a flat sum
    // of 5,000 terms is fine; past the documented limits, one error and no overflow.
    crate::on_big_stack(pathological_nesting);
}

fn pathological_nesting() {
    let deep = format!(
        "subroutine s(a)\nreal a\na = {}a{}\nend\n",
        "(".repeat(20_000),
        ")".repeat(20_000)
    );
    let d = lower(&deep).expect_err("too deep");
    assert!(d[0].message.contains("10000 levels"), "{}", d[0].message);
    let long = format!("subroutine s(a)\nreal a\na = a{}\nend\n", "+a".repeat(5000));
    assert!(lower(&long).is_ok());
    let longer = format!(
        "subroutine s(a)\nreal a\na = a{}\nend\n",
        "+a".repeat(100_001)
    );
    let d = lower(&longer).expect_err("too deep");
    assert!(
        d[0].message.contains("100000 operations"),
        "{}",
        d[0].message
    );
    let nested = format!(
        "subroutine s(a)\nreal a\ninteger i\n{}{}end\n",
        "do i = 1, 2\n".repeat(500),
        "end do\n".repeat(500)
    );
    assert!(lower(&nested).is_err());
    let nots = format!(
        "subroutine s(p)\nlogical p\np = {}p\nend\n",
        ".not. ".repeat(20_000)
    );
    assert!(lower(&nots).is_err());
    let pows = format!(
        "subroutine s(a)\nreal a\na = a{}\nend\n",
        "**a".repeat(20_000)
    );
    assert!(lower(&pows).is_err());
}

#[test]
fn unsupported_constructs_are_reported_once() {
    let text = "\
subroutine s(a, k)
  real a
  integer k
  select case (k)
  case (1)
    a = 1
  case default
    pause 1
  end select
  pause 2
  a = 2
end subroutine
";
    let d = errs(text);
    // SELECT CASE is accepted; the PAUSEs inside and after it are refused once each.
    assert_eq!(where_(text, &d), vec![("E0401", 8, 5), ("E0401", 10, 3)]);
    assert!(d[0].message.contains("PAUSE"), "{}", d[0].message);
}

#[test]
fn crlf_and_tabs() {
    let text = "subroutine s(a)\r\n\treal a ! x\r\n\ta = 1\r\nend\r\n";
    let file = ok(text);
    let u = &file.units[0];
    assert_eq!(show(rhs(u, 0)), "1");
    assert_eq!(u.symbols.get("a").unwrap().ty, ScalarType::Real(4));
}

#[test]
#[ignore]
fn print_diagnostics() {
    let text = "\
subroutine s(a, x, n)
  implicit none
  integer n
  real a, x(n)
  real a
  integer, parameter :: m = 3
  m = 4
  do a = 1, n
  end do
  a = x(1, 2) + b + sum(x)
  exit
  x = 0
  a = (a +
  goto 10
  a = 1.0_wp
end
";
    let d = errs(text);
    println!("{}", render(text, &d));
}

#[test]
fn dummy_procedures_and_result_names() {
    let text = "\
subroutine apply(f, x)
  implicit none
  real(8) x
  call f(x)
end subroutine
function g(x) result(r)
  real(8) x, r
  g = x
end function
";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0309", 8, 3)]);
}

#[test]
fn legacy_upper_case_code() {
    let text = "\
      SUBROUTINE FOO(N, X, Y)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      DIMENSION X(N), Y(N)
      PARAMETER (HALF = 0.5D0, M = 2*3)
      EXTERNAL BAR
      INTRINSIC DSQRT
      DO 10 I = 1, N
         Y(I) = DSQRT(X(I)) + DBLE(I)*HALF + BAR(X(I))
   10 CONTINUE
      IF (Y(1).GT.0.D0) GOTO 20
      RETURN
   20 CONTINUE
      END
";
    // The GOTO is kept as it is, for the round trip (restructured only to differentiate).
    let with_goto = ok(text);
    let StmtKind::If { arms, .. } = &with_goto.units[0].body[1].kind else {
        panic!("{:?}", with_goto.units[0].body[1]);
    };
    assert!(matches!(&arms[0].1[0].kind, StmtKind::Goto { label } if label == "20"));
    let fixed = text.replace("      IF (Y(1).GT.0.D0) GOTO 20\n", "");
    let file = ok(&fixed);
    let u = &file.units[0];
    assert_eq!(u.name, "FOO");
    let s = &u.symbols;
    assert_eq!(s.get("x").unwrap().ty, ScalarType::Real(8));
    assert_eq!(s.get("half").unwrap().kind, SymbolKind::Constant);
    assert_eq!(s.get("m").unwrap().ty, ScalarType::Integer(4));
    let bar = s.get("bar").unwrap();
    assert_eq!(bar.kind, SymbolKind::Procedure);
    assert_eq!(bar.ty, ScalarType::Real(8));
    let StmtKind::Do { body, .. } = &u.body[0].kind else {
        panic!()
    };
    let StmtKind::Assign { rhs: value, .. } = &body[0].kind else {
        panic!()
    };
    assert_eq!(
        show(value),
        "((Sqrt(X[I]) Add (Dble(I) Mul HALF)) Add call:BAR(X[I]))"
    );
    let kinds: Vec<&str> = u
        .decls
        .iter()
        .map(|d| match &d.kind {
            DeclKind::Implicit(_) => "implicit",
            DeclKind::Dimension(_) => "dimension",
            DeclKind::Parameter(_) => "parameter",
            DeclKind::External(_) => "external",
            DeclKind::Intrinsic(_) => "intrinsic",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            "implicit",
            "dimension",
            "parameter",
            "external",
            "intrinsic"
        ]
    );
}

#[test]
fn declaration_forms() {
    let text = "\
subroutine s(a, b, c, n, m, name)
  implicit none
  integer, intent(in) :: n, m
  real(8), dimension(n, *) :: a
  double precision b(0:n+1, -1:m), c
  intent(inout) :: c
  character*10 :: t
  character(10) :: u
  character(len=*), intent(in) :: name
  logical, save :: first = .true.
  real, parameter :: pi = 3.14159
  a(1, 1) = b(0, -1) + c + pi
end subroutine
";
    let file = ok(text);
    let s = &file.units[0].symbols;
    let a = s.get("a").unwrap();
    assert_eq!(a.rank(), 2);
    assert!(matches!(a.dims[1].upper, Bound::Star));
    assert_eq!(s.get("b").unwrap().rank(), 2);
    assert_eq!(s.get("c").unwrap().intent, Some(Intent::InOut));
    assert_eq!(s.get("c").unwrap().ty, ScalarType::Real(8));
    assert_eq!(
        s.get("t").unwrap().type_spec.char_len.as_deref(),
        Some("10")
    );
    assert_eq!(
        s.get("name").unwrap().type_spec.char_len.as_deref(),
        Some("*")
    );
    assert_eq!(s.get("first").unwrap().ty, ScalarType::Logical);
    assert_eq!(s.get("pi").unwrap().kind, SymbolKind::Constant);
    assert_eq!(s.get("n").unwrap().arg_index, Some(3));
}

#[test]
fn unsupported_declarations() {
    let text = "\
subroutine s(z, p)
  real :: z
  real, pointer :: p
  type(point) :: q
  equivalence (z, p)
end subroutine
";
    let d = errs(text);
    assert_eq!(
        d.iter().map(|d| d.code).collect::<Vec<_>>(),
        // `type(point)`: declarations of derived types are supported, `point` is unknown.
        // EQUIVALENCE of dummy arguments is refused.
        vec!["E0405", "E0301", "E0314", "E0314"],
        "{}",
        render(text, &d)
    );
}

#[test]
fn equivalence_sets_parse_and_print() {
    let text = "subroutine s(x)\n  real(8) :: x, w(4), a(2), b, c\n  \
                equivalence (w(1), a(1)), (w(3), b)\n  equivalence (b, c)\n  x = w(1)\nend subroutine\n";
    let file = ok(text);
    let printed = crate::back::fortran::write_file(&file);
    assert!(
        printed.contains("equivalence (w(1), a(1)), (w(3), b)")
            && printed.contains("equivalence (b, c)"),
        "{printed}"
    );
    let d = errs("subroutine s\n  real :: a\n  equivalence (a)\nend subroutine\n");
    assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), vec!["E0202"]);
}

#[test]
fn undeclared_dummy_points_at_header() {
    let text = "subroutine s(a, b)\n  implicit none\n  real a\n  a = 1\nend\n";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0301", 1, 17)]);
}

#[test]
fn functions_with_prefix_types() {
    let text = "\
real(8) function f(x)
  real(8), intent(in) :: x
  f = x**2
end function f
pure double precision function g(x)
  double precision, intent(in) :: x
  g = f(x) * 2
end
integer function k(i)
  integer i
  k = i
end function
elemental function e(x)
  e = x
end function
module function r(x)
end function
";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0406", 16, 1)]);
    let ok_text = text.split("module function").next().unwrap();
    let file = ok(ok_text);
    let f = &file.units[0];
    assert_eq!(f.symbols.get("f").unwrap().ty, ScalarType::Real(8));
    assert!(f.symbols.get("f").unwrap().is_result);
    let g = &file.units[1];
    let fsym = g.symbols.get("f").unwrap();
    assert_eq!(fsym.kind, SymbolKind::Procedure);
    // Implicitly typed: `f` gets real(4) in `g` (not declared there).
    assert_eq!(fsym.ty, ScalarType::Real(4));
    assert_eq!(
        file.units[2].symbols.get("k").unwrap().ty,
        ScalarType::Integer(4)
    );
    assert!(file.units[3].elemental && !file.units[2].elemental);
}

#[test]
fn comments_on_header_and_declaration_lines() {
    let text = "subroutine s(a) ! does s\n  real a ! the input\n  a = 1\nend\n";
    let file = ok(text);
    let comments: Vec<&str> = file.units[0]
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Comment(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(comments, vec![" does s", " the input"]);
}

#[test]
fn lexing_errors_are_reported_once() {
    let text = "subroutine s(a)\n  real a\n  a = a @ 2\n#ifdef X\n  a = 'open\n  a = 1\nend\n";
    let d = errs(text);
    assert_eq!(
        where_(text, &d),
        vec![("E0201", 3, 9), ("E0201", 4, 1), ("E0204", 5, 7)]
    );
}

#[test]
fn directives_in_a_file_not_preprocessed_are_one_error() {
    // Both branches of the `#if` are read, so `wp` is declared twice: that is the
    // directives' consequence, not news.
    let text = "module kinds
  implicit none
#if VAR_TYPE == 1
  integer, parameter :: wp = 8
\
        #endif
#if VAR_TYPE == 0
  integer, parameter :: wp = 4
#endif
end module kinds
";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0201", 3, 1)]);
    assert!(
        d[0].help.as_deref().is_some_and(|h| h.contains("`.F90`")),
        "{:?}",
        d[0].help
    );
}

/// Lowers every `.f90` file under `$ADGEN_FRONT_CORPUS` and prints the diagnostics:
/// `ADGEN_FRONT_CORPUS=dir cargo test corpus_dir -- --ignored --nocapture`.
#[test]
#[ignore]
fn corpus_dir() {
    let Ok(dir) = std::env::var("ADGEN_FRONT_CORPUS") else {
        return;
    };
    let mut stack = vec![std::path::PathBuf::from(dir)];
    let mut files = Vec::new();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for entry in std::fs::read_dir(&p).unwrap().flatten() {
                stack.push(entry.path());
            }
        } else if p.extension().is_some_and(|e| e == "f90") {
            files.push(p);
        }
    }
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        match lower(&text) {
            Ok(file) => {
                check_invariants(&file);
                println!("ok   {} ({} units)", path.display(), file.units.len());
            }
            Err(d) => println!("FAIL {}\n{}", path.display(), render(&text, &d)),
        }
    }
}

#[test]
fn unsupported_parts_of_modules_are_reported_where_they_are() {
    let text = "\
module m
  implicit none
  type point
    real :: x
  end type point
  interface operator(//)
    subroutine c_fn(x) bind(C, name=\"c_fn\")
      real x
    end subroutine
  end interface
contains
  subroutine inner(p)
    select case (1)
    case default
    end select
  end subroutine
end module m
program p
  call s(1.0)
end
real x
subroutine s(a)
  real a
  a = 1
end
";
    let d = errs(text);
    assert_eq!(
        where_(text, &d),
        vec![
            ("E0403", 6, 3),
            // `p` is undeclared: the module's IMPLICIT NONE holds in its procedures.
            ("E0301", 12, 20),
            ("E0402", 18, 1),
            ("E0208", 21, 1)
        ]
    );
}

#[test]
fn generic_calls_resolve_to_the_specific_by_type_kind_and_rank() {
    let text = "\
module g
  implicit none
  interface mag
    module procedure mag_r8, mag_v
    module procedure mag_i
  end interface mag
contains
  real(8) function mag_r8(x)
    real(8), intent(in) :: x
    mag_r8 = abs(x)
  end function mag_r8
  real(8) function mag_v(x)
    real(8), intent(in) :: x(:)
    mag_v = sum(abs(x))
  end function mag_v
  real(8) function mag_i(k)
    integer, intent(in) :: k
    mag_i = abs(k)
  end function mag_i
  subroutine use_it(v, y)
    real(8), intent(in) :: v(3)
    real(8), intent(out) :: y
    y = mag(v(1)) + mag(v) + mag(3) + mag(mag(v(2:3)))
  end subroutine use_it
end module g
";
    let mut map = crate::diag::SourceMap::default();
    let program =
        crate::parse_sources(&[crate::SourceInput::new("g.f90", text)], &mut map).expect("parses");
    let unit = program.unit("use_it").expect("unit");
    let called = crate::il::visit::called_names(unit);
    // `mag(mag(v(2:3)))`: the outer call first.
    assert_eq!(called, ["mag_r8", "mag_v", "mag_i", "mag_r8", "mag_v"]);
    // The back-end prints the generic name, as written.
    let out = crate::back::fortran::write_file(&program.files[0]);
    assert!(
        out.contains("y = mag(v(1)) + mag(v) + mag(3) + mag(mag(v(2:3)))"),
        "{out}"
    );
    // No specific takes a logical; two specifics that take the same arguments.
    // Refused with the procedure that makes the call: it blocks only the roots that
    // reach it.
    let bad = text.replace("mag(3)", "mag(.true.)");
    let program = crate::parse_sources(&[crate::SourceInput::new("g.f90", &bad)], &mut map)
        .expect("deferred");
    let errs = &program.unit("use_it").expect("unit").deferred;
    assert_eq!(where_(&bad, errs), vec![("E0429", 23, 30)]);
    let twice = text.replace("module procedure mag_i", "module procedure mag_i, mag_r8");
    let twice = twice.replace("module procedure mag_r8, mag_v", "module procedure mag_v");
    let ok = crate::parse_sources(&[crate::SourceInput::new("g.f90", &twice)], &mut map);
    assert!(ok.is_ok());
    let ambiguous = text.replace("real(8) function mag_i(k)", "real(8) function mag_i(x)");
    let ambiguous = ambiguous.replace(
        "integer, intent(in) :: k\n    mag_i = abs(k)",
        "real(8), intent(in) :: x\n    mag_i = x",
    );
    let program = crate::parse_sources(&[crate::SourceInput::new("g.f90", &ambiguous)], &mut map)
        .expect("deferred");
    let errs = &program.unit("use_it").expect("unit").deferred;
    assert!(
        !errs.is_empty() && errs.iter().all(|d| d.code == "E0429"),
        "{errs:?}"
    );
}

#[test]
fn logical_reductions_are_passive_and_count_takes_a_kind() {
    let text = "subroutine s(x, n, k)\n  integer :: n, k\n  real(8) :: x(n)\n  \
                if (any(x > 0) .and. .not. all(x < 9)) k = count(x > 1)\nend subroutine s\n";
    ok(text);
    // DIM is scalarized later (`prepare::scalarize`); so is KIND's DIM form.
    ok(&text.replace("count(x > 1)", "count(x > 1, 1)"));
    ok(&text.replace("count(x > 1)", "count(x > 1, kind=8)"));
    ok(&text.replace("count(x > 1)", "count(x > 1, 1, 8)"));
    // ANY and ALL take no third argument.
    let too_many = text.replace("any(x > 0)", "any(x > 0, 1, 8)");
    let d = errs(&too_many);
    assert_eq!(where_(&too_many, &d), vec![("E0310", 4, 7)]);
}

/// A sample with every construct, for the damage test.
fn body_text_for_fuzz() -> String {
    "\
! leading
subroutine s(x, n, f) ! header
  implicit double precision (a-h, o-z)
  integer, parameter :: dp = kind(1.0d0), m = 2*3
  integer n, i, j
  real(dp), intent(inout) :: x(0:n+1, *)
  real(kind=dp), external :: f
  character(len=*) :: name
  outer: do i = 1, n
    if (x(i, 1) > 0._dp .and. .not. (i == 2)) then
      x(i, 1) = -x(i, 1)**2 + f(x(i, 1), y=1.5d-3) ! end
    else if (i .ne. 3) then
      cycle outer
    else
      exit
    end if
    do 10 j = n, 1, -1
      if (j < 2) x(j, 1) = max(x(j, 1), 1d0, sqrt(abs(x(j, 1))))
10  continue
    do while (x(i, 1) > 1.)
      x(i, 1) = x(i, 1) / 2; call g(x(i, 1), 'it''s', \"q\")
    end do
  end do outer
  return
end subroutine s
"
    .to_string()
}

#[test]
fn fuzz_sample_is_valid() {
    let file = ok(&body_text_for_fuzz());
    assert_eq!(file.units[0].leading_comments, vec![" leading"]);
}

#[test]
fn subscripted_scalars_and_statement_functions() {
    let text = "subroutine s(a)\n  real a\n  a(1) = 2\n  f(x) = x**2\nend\n";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0309", 3, 3), ("E0401", 4, 3)]);
    // Under IMPLICIT NONE a statement function is declared too: an undeclared name
    // assigned with subscripts is an array the code forgot to declare.
    let text = "subroutine s(a)\n  implicit none\n  real a\n  g(1) = a\n  g(2) = a\nend\n";
    let d = errs(text);
    assert_eq!(
        where_(text, &d),
        vec![("E0301", 4, 3)],
        "{}",
        render(text, &d)
    );
    assert!(
        d[0].message.contains("`g` is not declared"),
        "{}",
        render(text, &d)
    );
}

#[test]
fn unknown_kind_reported_once() {
    let text = "subroutine s(a)\n  implicit none\n  real(kind=wp) :: a\n  a = 1.0_wp\nend\n";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0308", 3, 13), ("E0308", 4, 7)]);
}

#[test]
fn large_file_is_linear() {
    let mut text = String::new();
    for u in 0..200 {
        text.push_str(&format!(
            "subroutine s{u}(x, n)\n  integer n, i\n  real(8) x(n)\n"
        ));
        for _ in 0..50 {
            text.push_str("  do i = 2, n\n    x(i) = x(i-1) * 0.5d0 + sin(x(i)) ! c\n  end do\n");
        }
        text.push_str("end subroutine\n");
    }
    let start = std::time::Instant::now();
    let file = ok(&text);
    assert_eq!(file.units.len(), 200);
    // About 31k lines; generous bound so slow machines pass.
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn variable_and_function_conflict() {
    let text = "subroutine s(a)\n  real a\n  a = foo + foo(1)\nend\n";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0309", 3, 7)]);
    // A typed intrinsic name stays the intrinsic.
    let file = ok("subroutine s(a)\n  double precision a, dsqrt\n  a = dsqrt(a)\nend\n");
    let sym = file.units[0].symbols.get("dsqrt").unwrap();
    assert_eq!(sym.kind, SymbolKind::Procedure);
    assert!(matches!(
        rhs(&file.units[0], 0).kind,
        ExprKind::Intrinsic {
            op: Intrinsic::Sqrt,
            ..
        }
    ));
}

#[test]
fn errors_do_not_cascade() {
    let text = "\
subroutine s(x, n)
  implicit none
  integer n, i
  real x(n)
  do 10 i = 1, n
10 pause
  real y
  y = 1
end
subroutine s(a)
  character :: c*10
end
";
    let d = errs(text);
    assert_eq!(
        where_(text, &d),
        vec![
            ("E0401", 6, 4),
            ("E0207", 7, 3),
            ("E0312", 10, 1),
            ("E0405", 11, 17)
        ],
        "{}",
        render(text, &d)
    );
}

#[test]
fn rendered_diagnostic_and_odd_layout() {
    let text = "\u{feff}subroutine s(a)\n  real a\n  a = a + &\n! a comment line inside\n\n      & 1\n  goto 5\nend\n";
    let d = errs(text);
    let mut map = SourceMap::default();
    map.add(SourceFile::new("t.f90", text));
    let shown = d[0].render(&map);
    assert!(
        shown.starts_with("t.f90:7:3: error[E0213]: this jump goes to label 5"),
        "{shown}"
    );
    let file = ok(&text.replace("  goto 5\n", ""));
    assert_eq!(show(rhs(&file.units[0], 0)), "(a Add 1)");
}

#[test]
fn whole_array_syntax_is_kept_in_the_il() {
    // Array syntax is lowered as written; `prepare::scalarize` rewrites (or refuses) it.
    let file = ok(
        "subroutine s(a, b, n)\n  integer n\n  real a(0:n), b(n)\n  a(1:n:2) = b(:) + 2*[1.0, 2.0]\n  a = sum(b, dim=1)\nend\n",
    );
    let u = &file.units[0];
    match &u.body[0].kind {
        StmtKind::Assign { lhs, rhs } => {
            assert_eq!(show(lhs), "a[1:n:2]");
            assert_eq!(show(rhs), "(b[::] Add (2 Mul [1.0r4,2.0r4]))");
        }
        other => panic!("not an assignment: {other:?}"),
    }
    assert_eq!(show(rhs(u, 1)), "Sum(b,1)");
}

#[test]
fn array_constructors_and_sections_parse() {
    let file = ok(
        "subroutine s(a, n)\n  integer n\n  real a(n, n), v(3)\n  v = (/ 1.0, a(1, 1) /2.0, 3.0 /)\n  a(:, 2) = a(n:1:-1, 1)\nend\n",
    );
    let u = &file.units[0];
    assert_eq!(show(rhs(u, 0)), "[1.0r4,(a[1,1] Div 2.0r4),3.0r4]");
    assert_eq!(show(rhs(u, 1)), "a[n:1:Neg(1),1]");
}

#[test]
fn character_substrings_and_passive_intrinsics() {
    let file = ok(
        "subroutine s(t, names, k)\n  character*60 t\n  character(len=8) names(3)\n  integer k\n  t(1:2) = names(k)(2:)\n  k = len_trim(t(:k)) + index(t, 'FG')\nend\n",
    );
    let u = &file.units[0];
    let StmtKind::Assign { lhs, rhs } = &u.body[0].kind else {
        panic!("not an assignment")
    };
    assert_eq!(show(lhs), "t{1:2}");
    assert_eq!(show(rhs), "names[k]{2:}");
    let k = show(super::tests::rhs(u, 1));
    assert!(k.starts_with("(Passive("), "{k}");
    assert!(k.contains("t{:k}"), "{k}");
}

#[test]
fn substrings_of_non_characters_and_strides_are_refused() {
    // A real scalar cannot be subscripted; a second parenthesis must be a substring.
    let text = "subroutine s(x)\n  real x\n  x = x(1:2)\nend\n";
    let d = errs(text);
    assert_eq!(
        where_(text, &d),
        vec![("E0309", 3, 7)],
        "{}",
        render(text, &d)
    );
    let text = "subroutine s(names)\n  character*4 names(2)\n  names(1) = names(1)(2)\nend\n";
    let d = errs(text);
    assert_eq!(
        where_(text, &d),
        vec![("E0404", 3, 25)],
        "{}",
        render(text, &d)
    );
}

#[test]
fn a_refused_attribute_is_one_error_and_target_is_kept() {
    // A local pointer is replaced by its target: its declaration and its association go.
    // TARGET is accepted.
    let text = "subroutine s(n, x, y)\n  implicit none\n  integer n\n  real(8), target :: x(n)\n  real(8) y\n  real(8), pointer :: p(:) => null()\n  integer i\n  p => x\n  y = 0\n  do i = 1, n\n    y = y + p(i)\n  end do\nend\n";
    let out = crate::back::fortran::write_unit(&ok(text).units[0]);
    assert!(
        out.contains("y = y + x(i)") && !out.contains("pointer") && !out.contains("=>"),
        "{out}"
    );
    // An I/O statement, kept as written, names the whole target instead; a pointer to
    // part of a variable there is refused (deferred to the roots reaching `s`).
    let printed = text.replace("  y = 0\n", "  y = 0\n  print *, 'p = ', p, size(p)\n");
    let out = crate::back::fortran::write_unit(&ok(&printed).units[0]);
    assert!(out.contains("print *, 'p = ', x, size(x)"), "{out}");
    let part = printed.replace("p => x\n", "p => x(2:n)\n");
    let d = errs(&part);
    assert_eq!(
        where_(&part, &d),
        vec![("E0401", 10, 3)],
        "{}",
        render(&part, &d)
    );
    // A local pointer only ever ALLOCATEd is read as an ALLOCATABLE array (ASSOCIATED of
    // it asks ALLOCATED), and still declared and tested as the source does. One declared
    // beside it and associated stays a pointer until replaced.
    let text = "subroutine s(n, x, y)\n  integer n\n  real(8), target :: x(n)\n  real(8) y\n  real(8), pointer :: w(:), p(:)\n  p => x\n  allocate(w(n))\n  w = 2*p\n  y = 0\n  if (associated(w)) y = sum(w)\n  deallocate(w)\nend\n";
    let file = ok(text);
    let out = crate::back::fortran::write_unit(&file.units[0]);
    assert!(
        out.contains("real(8), pointer :: w(:)")
            && !out.contains("allocatable")
            && out.contains("if (associated(w)) y = sum(w)")
            && out.contains("w = 2*x")
            && !out.contains("p(:)")
            && !out.contains("=>"),
        "{out}"
    );
    assert!(file.units[0].symbols.get("w").is_some_and(|w| w.pointer));
    assert!(file.units[0].declares_allocatable("w"));
    // A POINTER dummy is refused once, where it is declared; its pointer assignment is
    // part of the same refusal.
    let text = "subroutine s(n, x, p)\n  implicit none\n  integer n\n  real(8), target :: x(n)\n  real(8), pointer :: p(:)\n  p => x\nend\n";
    let d = errs(text);
    assert_eq!(
        where_(text, &d),
        vec![("E0405", 5, 3)],
        "{}",
        render(text, &d)
    );
    // A pointer assignment of a name not declared POINTER here is refused on its own.
    let text = "subroutine s(y)\n  real(8) y\n  q => y\nend\n";
    let d = errs(text);
    assert_eq!(
        where_(text, &d),
        vec![("E0401", 3, 3)],
        "{}",
        render(text, &d)
    );
    let file = ok("subroutine s(x)\n  real(8), target :: x(3)\n  x = 1\nend\n");
    let DeclKind::Var { attrs, .. } = &file.units[0].decls[0].kind else {
        panic!("a declaration")
    };
    assert!(attrs.iter().any(|a| matches!(a, crate::il::Attr::Target)));
}

#[test]
fn implied_do_in_constructor() {
    let text = "subroutine s(v)\n  real v(6)\n  integer i, j\n  v = [((real(i*j), i = 1, 3), j = 1, 2, 1)]\nend\n";
    let f = lower(text).expect("accepted");
    assert_eq!(
        show(rhs(&f.units[0], 0)),
        "[((Real((i Mul j)); i=1:3:); j=1:2:1)]"
    );
    // A malformed one is a syntax error at the cause.
    let text = "subroutine s(v)\n  real v(3)\n  integer i\n  v = [(real(i), i = 1)]\nend\n";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0202", 4, 23)]);
}

#[test]
fn untyped_names_under_implicit_none() {
    let text = "subroutine s(a)\n  implicit none\n  real a\n  parameter (n = 10)\n  dimension w(3)\n  a = 1\nend\n";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0301", 4, 3), ("E0301", 5, 13)]);
}

/// Random arithmetic expressions (with the sign extensions `a*-b`, `a**-b`, `a - -b`)
/// give the same values through our parse tree as through gfortran: precedence and
/// associativity agree. Needs gfortran: `cargo test precedence_matches_gfortran --
/// --ignored`.
#[test]
#[ignore]
fn precedence_matches_gfortran() {
    fn random_expr(rng: &mut Rng, depth: usize) -> String {
        if depth == 0 || rng.below(10) < 3 {
            // Variables only: gfortran folds constant subexpressions and refuses 1/0.
            return ["a", "b", "c"][rng.below(3)].to_string();
        }
        match rng.below(6) {
            0 => format!("({})", random_expr(rng, depth - 1)),
            1 => {
                let inner = random_expr(rng, depth - 1);
                if inner.starts_with('-') {
                    inner
                } else {
                    format!("-{inner}")
                }
            }
            _ => {
                let op = ["+", "-", "*", "/", "**"][rng.below(5)];
                format!(
                    "{} {op} {}",
                    random_expr(rng, depth - 1),
                    random_expr(rng, depth - 1)
                )
            }
        }
    }
    fn eval(e: &Expr) -> f64 {
        match &e.kind {
            ExprKind::Real(r) => r.value.parse().unwrap(),
            ExprKind::Var(n) => match n.as_str() {
                "a" => 1.3,
                "b" => 0.7,
                _ => 2.1,
            },
            ExprKind::Paren(x) => eval(x),
            ExprKind::Unary(UnOp::Neg, x) => -eval(x),
            ExprKind::Unary(_, x) => eval(x),
            ExprKind::Binary(op, x, y) => {
                let (x, y) = (eval(x), eval(y));
                match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => x / y,
                    BinOp::Pow => x.powf(y),
                    _ => unreachable!(),
                }
            }
            other => panic!("{other:?}"),
        }
    }
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let exprs: Vec<String> = (0..400).map(|_| random_expr(&mut rng, 4)).collect();
    let dir = tempfile::tempdir().unwrap();
    let mut program = String::from(
        "program p\n  implicit none\n  real(8) :: a, b, c\n  a = 1.3d0\n  b = 0.7d0\n  c = 2.1d0\n",
    );
    for e in &exprs {
        program.push_str(&format!("  write(*,'(ES26.17E3)') {e}\n"));
    }
    program.push_str("end program\n");
    let src = dir.path().join("p.f90");
    std::fs::write(&src, &program).unwrap();
    let exe = dir.path().join("p");
    let status = std::process::Command::new("gfortran")
        .args(["-O0", "-w", "-ffree-line-length-none", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success());
    let out = std::process::Command::new(&exe).output().unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    let values: Vec<f64> = out
        .lines()
        .map(|l| {
            let l = l.trim();
            if l.contains("NaN") {
                f64::NAN
            } else if l.contains("Infinity") {
                if l.starts_with('-') {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            } else {
                l.parse().unwrap()
            }
        })
        .collect();
    assert_eq!(values.len(), exprs.len());
    let mut body = String::new();
    for e in &exprs {
        body.push_str(&format!("  y = {e}\n"));
    }
    let unit_text =
        format!("subroutine t(a, b, c, y)\n  real(8) :: a, b, c, y\n{body}end subroutine\n");
    let file = ok(&unit_text);
    for (i, e) in exprs.iter().enumerate() {
        let ours = eval(rhs(&file.units[0], i));
        let theirs = values[i];
        let same = (ours.is_nan() && theirs.is_nan())
            || ours == theirs
            || ((ours - theirs).abs() <= 1e-12 * ours.abs().max(theirs.abs()));
        assert!(same, "{e}: ours {ours}, gfortran {theirs}");
    }
}

/// The same for logical expressions: `.not.`, `.and.`, `.or.`, `.eqv.`, `.neqv.` and
/// relations in both spellings.
#[test]
#[ignore]
fn logical_precedence_matches_gfortran() {
    fn random_logical(rng: &mut Rng, depth: usize) -> String {
        if depth == 0 || rng.below(10) < 3 {
            return match rng.below(4) {
                0 => ["p", "q", "r"][rng.below(3)].to_string(),
                _ => {
                    let rel = ["<", ".le.", "==", ".ne.", ">", ">=", ".lt.", "/="][rng.below(8)];
                    let x = ["a", "b", "a + b", "-a", "b*a"][rng.below(5)];
                    let y = ["a", "b", "c"][rng.below(3)];
                    format!("{x} {rel} {y}")
                }
            };
        }
        match rng.below(6) {
            0 => format!("({})", random_logical(rng, depth - 1)),
            1 => {
                // `.not. .not. x` is not Fortran (gfortran refuses it).
                let inner = random_logical(rng, depth - 1);
                if inner.starts_with(".not.") {
                    inner
                } else {
                    format!(".not. {inner}")
                }
            }
            _ => {
                let op = [".and.", ".or.", ".eqv.", ".neqv."][rng.below(4)];
                format!(
                    "{} {op} {}",
                    random_logical(rng, depth - 1),
                    random_logical(rng, depth - 1)
                )
            }
        }
    }
    fn num(e: &Expr) -> f64 {
        match &e.kind {
            ExprKind::Var(n) => match n.as_str() {
                "a" => 1.3,
                "b" => 0.7,
                _ => 2.1,
            },
            ExprKind::Unary(UnOp::Neg, x) => -num(x),
            ExprKind::Binary(BinOp::Add, x, y) => num(x) + num(y),
            ExprKind::Binary(BinOp::Mul, x, y) => num(x) * num(y),
            other => panic!("{other:?}"),
        }
    }
    fn eval(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(n) => n == "p" || n == "r",
            ExprKind::Paren(x) => eval(x),
            ExprKind::Unary(UnOp::Not, x) => !eval(x),
            ExprKind::Binary(op, x, y) => match op {
                BinOp::And => eval(x) && eval(y),
                BinOp::Or => eval(x) || eval(y),
                BinOp::Eqv => eval(x) == eval(y),
                BinOp::Neqv => eval(x) != eval(y),
                BinOp::Lt => num(x) < num(y),
                BinOp::Le => num(x) <= num(y),
                BinOp::Eq => num(x) == num(y),
                BinOp::Ne => num(x) != num(y),
                BinOp::Gt => num(x) > num(y),
                BinOp::Ge => num(x) >= num(y),
                _ => unreachable!(),
            },
            other => panic!("{other:?}"),
        }
    }
    let mut rng = Rng(0x0dd_ba11_cafe_f00d);
    let exprs: Vec<String> = (0..400).map(|_| random_logical(&mut rng, 4)).collect();
    let dir = tempfile::tempdir().unwrap();
    let mut program = String::from(
        "program lp\n  implicit none\n  real(8) :: a, b, c\n  logical :: p, q, r\n  a = 1.3d0\n  b = 0.7d0\n  c = 2.1d0\n  p = .true.\n  q = .false.\n  r = .true.\n",
    );
    for e in &exprs {
        program.push_str(&format!("  write(*,'(L1)') {e}\n"));
    }
    program.push_str("end program\n");
    let src = dir.path().join("p.f90");
    std::fs::write(&src, &program).unwrap();
    let exe = dir.path().join("p");
    let status = std::process::Command::new("gfortran")
        .args(["-O0", "-w", "-ffree-line-length-none", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success());
    let out = std::process::Command::new(&exe).output().unwrap();
    let values: Vec<bool> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim() == "T")
        .collect();
    assert_eq!(values.len(), exprs.len());
    let mut body = String::new();
    for e in &exprs {
        body.push_str(&format!("  t = {e}\n"));
    }
    let unit_text = format!(
        "subroutine u(a, b, c, p, q, r, t)\n  real(8) :: a, b, c\n  logical :: p, q, r, t\n{body}end subroutine\n"
    );
    let file = ok(&unit_text);
    for (i, e) in exprs.iter().enumerate() {
        assert_eq!(eval(rhs(&file.units[0], i)), values[i], "{e}");
    }
}

/// Every file in `testdata/` states what lowering it must give, in leading comments:
/// `! expect ok`, or one `! expect E0401 at 6:3` line per diagnostic, in order. Adding
/// a case is adding a file.
#[test]
fn testdata_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/front/fortran/testdata");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "f90"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let expects: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("! expect "))
            .collect();
        let name = path.display();
        if expects == ["ok"] {
            match lower(&text) {
                Ok(file) => check_invariants(&file),
                Err(d) => panic!("{name}:\n{}", render(&text, &d)),
            }
            continue;
        }
        let want: Vec<String> = expects.iter().map(|e| e.to_string()).collect();
        let got: Vec<String> = match lower(&text) {
            Ok(_) => Vec::new(),
            Err(d) => where_(&text, &d)
                .into_iter()
                .map(|(code, line, col)| format!("{code} at {line}:{col}"))
                .collect(),
        };
        assert_eq!(got, want, "{name}");
    }
}

/// Random valid programs (every construct, nested) lower without diagnostics and keep
/// the IL's invariants.
#[test]
fn random_valid_programs_lower_cleanly() {
    struct Gen {
        rng: Rng,
        out: String,
        loops: usize,
    }
    impl Gen {
        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.rng.below(items.len())]
        }
        fn real_expr(&mut self, depth: usize) -> String {
            if depth == 0 || self.rng.below(10) < 3 {
                return self
                    .pick(&[
                        "a", "b", "x(i)", "y(i, j)", "2.5d0", "1.0_dp", ".5", "c", "x(n)",
                    ])
                    .to_string();
            }
            match self.rng.below(8) {
                0 => format!("({})", self.real_expr(depth - 1)),
                1 => format!("-({})", self.real_expr(depth - 1)),
                2 => {
                    let f = self.pick(&["sin", "exp", "sqrt", "abs", "dble", "tanh", "log"]);
                    format!("{f}({})", self.real_expr(depth - 1))
                }
                3 => format!(
                    "max({}, {}, {})",
                    self.real_expr(depth - 1),
                    self.real_expr(depth - 1),
                    self.real_expr(depth - 1)
                ),
                4 => format!("g({}, x)", self.real_expr(depth - 1)),
                _ => {
                    let op = self.pick(&["+", "-", "*", "/", "**"]);
                    format!(
                        "{} {op} {}",
                        self.real_expr(depth - 1),
                        self.real_expr(depth - 1)
                    )
                }
            }
        }
        fn cond(&mut self) -> String {
            let rel = self.pick(&["<", ".ge.", "==", "/=", ".gt."]);
            let join = self.pick(&[" .and. ", " .or. ", " .eqv. "]);
            let (l, r) = (self.real_expr(1), self.real_expr(1));
            if self.rng.below(3) == 0 {
                format!("{l} {rel} {r}{join}.not. p")
            } else {
                format!("{l} {rel} {r}")
            }
        }
        fn block(&mut self, depth: usize, indent: usize) {
            for _ in 0..1 + self.rng.below(4) {
                self.stmt(depth, indent);
            }
        }
        fn line(&mut self, indent: usize, text: &str) {
            self.out.push_str(&" ".repeat(indent));
            self.out.push_str(text);
            self.out.push('\n');
        }
        fn stmt(&mut self, depth: usize, indent: usize) {
            let choice = if depth == 0 {
                self.rng.below(3)
            } else {
                self.rng.below(9)
            };
            match choice {
                0 => {
                    let lhs = self.pick(&["a", "b", "x(i)", "y(i, j)", "x(i+1)"]);
                    let rhs = self.real_expr(3);
                    self.line(indent, &format!("{lhs} = {rhs} ! set"));
                }
                1 => {
                    let e = self.real_expr(2);
                    self.line(indent, &format!("call h(n, x, {e}, k=i)"));
                }
                2 => self.line(indent, "! a comment"),
                3 => {
                    let c = self.cond();
                    self.line(indent, &format!("if ({c}) then"));
                    self.block(depth - 1, indent + 2);
                    if self.rng.below(2) == 0 {
                        let c = self.cond();
                        self.line(indent, &format!("else if ({c}) then"));
                        self.block(depth - 1, indent + 2);
                    }
                    if self.rng.below(2) == 0 {
                        self.line(indent, "else");
                        self.block(depth - 1, indent + 2);
                    }
                    self.line(indent, "end if");
                }
                4 | 5 => {
                    let var = self.pick(&["i", "j"]);
                    let step = self.pick(&["", ", 2", ", -1", ", k"]);
                    self.line(indent, &format!("do {var} = 1, n{step}"));
                    self.loops += 1;
                    self.block(depth - 1, indent + 2);
                    self.loops -= 1;
                    self.line(indent, "end do");
                }
                6 => {
                    let c = self.cond();
                    self.line(indent, &format!("do while ({c})"));
                    self.loops += 1;
                    self.block(depth - 1, indent + 2);
                    self.loops -= 1;
                    self.line(indent, "enddo");
                }
                7 if self.loops > 0 => {
                    let kw = self.pick(&["exit", "cycle"]);
                    let c = self.cond();
                    self.line(indent, &format!("if ({c}) {kw}"));
                }
                _ => {
                    let e = self.real_expr(2);
                    self.line(
                        indent,
                        &format!("a = a + {e}; b = &\n{}  & b * 2", " ".repeat(indent)),
                    );
                }
            }
        }
    }
    let mut generator = Gen {
        rng: Rng(0xfeed_beef_1234_5678),
        out: String::new(),
        loops: 0,
    };
    for _ in 0..300 {
        generator.out = String::from(
            "subroutine s(n, x, y, a, b, p, k)\n  implicit none\n  integer, parameter :: dp = 8\n  integer, intent(in) :: n, k\n  real(dp), intent(inout) :: x(n+1), y(n+1, n+1), a, b\n  logical :: p\n  real(dp) :: c\n  real(dp), external :: g\n  integer :: i, j\n",
        );
        generator.out.push_str("  i = 1\n  j = 1\n  c = 0\n");
        generator.block(4, 2);
        generator.out.push_str("end subroutine s\n");
        let text = generator.out.clone();
        match lower(&text) {
            Ok(file) => check_invariants(&file),
            Err(d) => panic!("{}\n{text}", render(&text, &d)),
        }
    }
}

#[test]
fn modules_types_and_their_errors() {
    // A module of types and data, used with ONLY and a rename; components by path.
    let text = "\
module geo
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type :: point
    real(dp) :: x, y
    integer :: tag
  end type point
  real(dp) :: scale = 2.0_dp
contains
  function norm2p(p) result(r)
    type(point), intent(in) :: p
    real(dp) :: r
    r = sqrt(p%x**2 + p%y**2) * scale
  end function norm2p
end module geo
subroutine s(a, b)
  use geo, only: point, norm2p, wp => dp
  implicit none
  real(wp), intent(in) :: a
  real(wp), intent(out) :: b
  type(point) :: q
  q%x = a
  q%y = 2 * a
  q%tag = 1
  b = norm2p(q)
end subroutine s
";
    let file = ok(text);
    let s = file.units.iter().find(|u| u.name == "s").unwrap();
    let qx = s.symbols.get("q%x").expect("components are symbols");
    assert_eq!(qx.ty, ScalarType::Real(8));
    assert_eq!(s.symbols.get("q%tag").unwrap().ty, ScalarType::Integer(4));
    assert!(
        s.symbols.get("scale").is_none(),
        "ONLY imports only what it lists"
    );
    let f = file.units.iter().find(|u| u.name == "norm2p").unwrap();
    assert_eq!(f.host.as_deref(), Some("geo"));
    assert!(f.symbols.get("scale").unwrap().global.is_some());
    // Unknown module, unknown name in it, and a use-associated name declared again.
    let bad = "\
module m
  real :: v
end module m
subroutine t(a)
  use nosuch
  use m, only: w
  real a
  real v
  a = 1
end subroutine t
subroutine u(a)
  use m
  real a
  real v
  a = v
end subroutine u
";
    let d = errs(bad);
    assert_eq!(
        where_(bad, &d),
        vec![("E0313", 5, 3), ("E0313", 6, 3), ("E0307", 14, 8)]
    );
}

#[test]
fn use_only_of_a_type_brings_its_component_types_and_bounds() {
    let text = "\
module m
  implicit none
  integer, parameter :: n = 4
  type inner
    real :: w(n)
  end type inner
  type outer
    type(inner) :: part
    real :: x
  end type outer
end module m
subroutine s(y)
  use m, only: outer
  implicit none
  real, intent(out) :: y
  type(outer) :: v
  v%part%w = 1.0
  v%x = 2.0
  y = v%x + v%part%w(1)
end
";
    let file = ok(text);
    let s = file.units.iter().find(|u| u.name == "s").unwrap();
    let w = s
        .symbols
        .get("v%part%w")
        .expect("nested component is known");
    // The bound `n` is not visible in `s`: it is kept as a number.
    assert!(
        matches!(&w.dims[0].upper, crate::il::Bound::Expr(e) if matches!(&e.kind, crate::il::ExprKind::Int(t) if t == "4"))
    );
}

#[test]
fn calls_through_a_use_rename_are_refused() {
    let text = "\
module m
  implicit none
contains
  subroutine scale2(x)
    real, intent(inout) :: x
    x = 2.0 * x
  end subroutine scale2
  function twice(x) result(y)
    real, intent(in) :: x
    real :: y
    y = 2.0 * x
  end function twice
end module m
subroutine s(x)
  use m, only: step => scale2, dbl => twice
  implicit none
  real, intent(inout) :: x
  call step(x)
  x = dbl(x)
end
";
    let d = errs(text);
    assert_eq!(where_(text, &d), vec![("E0405", 18, 3), ("E0405", 19, 7)]);
}

#[test]
fn optional_dummies_and_present() {
    let text = "module m\ncontains\n  subroutine f(x, g)\n    real(8), intent(in) :: x(3)\n    \
                real(8), intent(out), optional :: g(3)\n    if (present(g)) g = 2.0d0 * x\n  \
                end subroutine f\n  subroutine h(x, y)\n    real(8), intent(in) :: x(3)\n    \
                real(8), intent(out) :: y(3)\n    call f(x)\n    call f(x, g=y)\n  end \
                subroutine h\nend module m\n";
    let file = ok(text);
    let f = file.units.iter().find(|u| u.name == "f").unwrap();
    assert!(f.is_optional("g") && !f.is_optional("x"));
    let StmtKind::If { arms, .. } = &f.body[0].kind else {
        panic!("an IF")
    };
    assert!(matches!(
        arms[0].0.kind,
        ExprKind::Intrinsic {
            op: Intrinsic::Present,
            ..
        }
    ));
    let program = crate::il::Program { files: vec![file] };
    assert!(crate::front::optional::check(&program).is_empty());
    // A use outside PRESENT, and an omitted argument that is not OPTIONAL.
    let bad = text
        .replace("    if (present(g)) g = 2.0d0 * x\n", "    g = 2.0d0 * x\n")
        .replace("call f(x, g=y)", "call h(x)");
    let program = crate::il::Program {
        files: vec![ok(&bad)],
    };
    let diags = crate::front::optional::check(&program);
    assert_eq!(
        where_(&bad, &diags),
        [("E0426", 6, 5), ("E0427", 12, 5)],
        "{}",
        render(&bad, &diags)
    );
}

/// A contained procedure may repeat its module's IMPLICIT NONE, or give IMPLICIT rules of
/// its own under it (legal Fortran, common in real models); two IMPLICIT NONE in one
/// unit, or rules after its own IMPLICIT NONE, are still refused.
#[test]
fn implicit_none_of_the_host_may_be_repeated() {
    let f = ok(
        "module m\n  implicit none\ncontains\n  subroutine s(x, y)\n    implicit none\n    \
                real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    y = x\n  end subroutine s\n  \
                subroutine t(y)\n    implicit real(8) (a-h)\n    real(8), intent(out) :: y\n    \
                a = 2\n    y = a\n  end subroutine t\nend module m\n",
    );
    assert_eq!(f.units.len(), 3);
    for text in [
        "subroutine s(y)\n  implicit none\n  implicit none\n  real :: y\n  y = 1\nend\n",
        "subroutine s(y)\n  implicit none\n  implicit real (a-h)\n  real :: y\n  y = 1\nend\n",
    ] {
        assert_eq!(where_(text, &errs(text)), vec![("E0307", 3, 3)], "{text}");
    }
}

#[test]
fn complex_types_constants_and_intrinsics() {
    let text = "\
subroutine s(a, b, c, d, r)
  complex :: a
  complex(8) :: b
  complex*16 :: c
  double complex :: d
  real(8) :: r
  b = (1d0, -2.5d0) + cmplx(r, 2*r, kind=8)
  c = dcmplx(r, r) * conjg(b)
  d = b / c
  r = aimag(d) + real(c, 8) + abs(b) + imag(c)
  a = (1.0, 0.5)
end subroutine
";
    let file = lower(text).unwrap_or_else(|d| panic!("{}", render(text, &d)));
    let s = &file.units[0].symbols;
    assert_eq!(s.get("a").unwrap().ty, ScalarType::Complex(4));
    for name in ["b", "c", "d"] {
        assert_eq!(s.get(name).unwrap().ty, ScalarType::Complex(8), "{name}");
    }
    let printed = crate::back::fortran::write_unit(&file.units[0]);
    assert!(
        printed.contains("b = (1d0, -2.5d0) + cmplx(r, 2*r, kind=8)"),
        "{printed}"
    );
    assert!(printed.contains("double complex :: d"), "{printed}");
}

/// STAT= and ERRMSG= of ALLOCATE and DEALLOCATE: the status is set to zero after the
/// statement (the code stops where an allocation fails), the message dropped; refused
/// before (E0404).
#[test]
fn allocation_status_is_zero_after_the_statement() {
    let text = "\
subroutine s(n, x)
  integer n, ierr
  character(len=80) msg
  real(8) x(n)
  real(8), allocatable :: w(:)
  allocate(w(n), stat=ierr, errmsg=msg)
  if (ierr /= 0) stop 'no memory'
  w = x
  x = 2*w
  deallocate(w, stat=ierr)
end subroutine
";
    let file = ok(text);
    let printed = crate::back::fortran::write_unit(&file.units[0]);
    assert!(
        printed.contains("allocate(w(n))\n  ierr = 0\n  if (ierr /= 0) stop 'no memory'"),
        "{printed}"
    );
    assert!(printed.contains("deallocate(w)\n  ierr = 0\n"), "{printed}");
}

/// A BLOCK's variable beside one of the procedure's own is renamed, in the I/O text
/// too (printed back as the source wrote it): `print *, t` of the block's `t` writes
/// `t_1`, a format keyword named like it stays.
#[test]
fn io_of_a_renamed_block_variable_is_renamed_in_its_text() {
    let text = "subroutine s(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  \
        real(8) :: t, fmt\n  t = x\n  block\n    real(8) :: t, fmt\n    t = 2*x\n    \
        fmt = t\n    print *, 't = ', t\n    write(*, fmt='(f8.3)') fmt\n  end block\n  \
        y = t\n  write(*, *) t, fmt\nend subroutine s\n";
    let file = lower(text).expect("accepted");
    let out = crate::back::fortran::write_unit(&file.units[0]);
    assert!(out.contains("print *, 't = ', t_1\n"), "{out}");
    assert!(out.contains("write(*, fmt='(f8.3)') fmt_1\n"), "{out}");
    assert!(out.contains("write(*, *) t, fmt\n"), "{out}");
}

/// A type declaration with a syntax error (a malformed value, an unclosed character
/// constant) is one error: its names are still declared, with its type, so their uses
/// raise no "not declared" after it (they did, once per name).
#[test]
fn a_malformed_declaration_is_one_error() {
    let text = "\
module m
  implicit none
  real(8), parameter :: c = 1.0 2.0
  character(len=4) :: tag = 'abc
  real(8) :: s
contains
  subroutine f(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    real(8) :: t, u = 1.0 3
    double precision w(2) 4
    t = c*x + u + w(1)
    y = t + c
    s = y
    print *, tag
  end subroutine f
end module m
";
    let d = errs(text);
    assert_eq!(
        where_(text, &d),
        vec![
            ("E0202", 3, 33),
            ("E0204", 4, 29),
            ("E0202", 10, 27),
            ("E0202", 11, 27)
        ]
    );
}
