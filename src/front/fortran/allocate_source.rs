//! `allocate(w, source=x)` and `allocate(w, mold=x)` (Fortran 2003): the array gets the
//! bounds of `x`, and with SOURCE= its values. The parser keeps them as `allocate(w)`
//! with the source aside (`StmtParser::sourced`); this pass, which sees the unit's
//! declarations, writes the bounds out, one pair per dimension of `x`, and for SOURCE=
//! adds the assignment `w = x` after the ALLOCATE. What the rest of adgen then sees is
//! an ALLOCATE with explicit bounds, as if the user had written it so.
//!
//! `allocate(w(n), stat=ierr)` (and DEALLOCATE): the parser drops the STAT= (and
//! ERRMSG=), and `expand_status` sets the status variable to zero after the statement:
//! the code adgen reads and writes stops where an allocation fails, so wherever it goes
//! on the status is zero, as the program's own test of it (`if (ierr /= 0) stop`)
//! expects.
//!
//! `x` must be an array this unit declares (a local, a dummy), named whole, or an
//! elementwise expression of such arrays and scalars (`source=2*x`: bounds `1:size(x, k)`,
//! as Fortran gives an expression); any other source is one refusal (E0404), which says
//! how to write it.

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Span};
use crate::il::{DeclKind, Expr, ExprKind, Intrinsic, Stmt, StmtId, StmtKind, Unit, key, visit};

/// Expands the SOURCE= and MOLD= allocations of `units`, found by the span of their item.
pub fn expand(
    units: &mut [Unit],
    sourced: &BTreeMap<Span, (bool, Expr)>,
    next_id: &mut u32,
    diags: &mut Vec<Diagnostic>,
) {
    if sourced.is_empty() {
        return;
    }
    for unit in units.iter_mut() {
        let ranks = declared_ranks(unit);
        let body = std::mem::take(&mut unit.body);
        unit.body = block(body, sourced, &ranks, next_id, diags);
    }
}

/// Sets the STAT= variable of each ALLOCATE and DEALLOCATE that had one (found by the
/// span of its first item) to zero after the statement.
pub fn expand_status(units: &mut [Unit], status: &BTreeMap<Span, Expr>, next_id: &mut u32) {
    if status.is_empty() {
        return;
    }
    fn block(stmts: Vec<Stmt>, status: &BTreeMap<Span, Expr>, next_id: &mut u32) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(stmts.len());
        for mut s in stmts {
            for child in visit::child_blocks_mut(&mut s) {
                let b = std::mem::take(child);
                *child = block(b, status, next_id);
            }
            let stat = match &s.kind {
                StmtKind::Allocate(items) | StmtKind::Deallocate(items) => {
                    items.first().and_then(|i| status.get(&i.span)).cloned()
                }
                _ => None,
            };
            let span = s.span;
            out.push(s);
            if let Some(stat) = stat {
                let zero = Expr {
                    kind: ExprKind::Int("0".to_string()),
                    span,
                };
                let id = StmtId(*next_id);
                *next_id = next_id.saturating_add(1);
                out.push(Stmt {
                    id,
                    kind: StmtKind::Assign {
                        lhs: stat,
                        rhs: zero,
                    },
                    span,
                    label: None,
                    trailing_comment: None,
                });
            }
        }
        out
    }
    for unit in units.iter_mut() {
        let body = std::mem::take(&mut unit.body);
        unit.body = block(body, status, next_id);
    }
}

/// The rank of each array the unit declares (keys).
fn declared_ranks(unit: &Unit) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for d in &unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
        {
            let shared = attrs.iter().find_map(|a| match a {
                crate::il::Attr::Dimension(dims) => Some(dims.len()),
                _ => None,
            });
            for e in entities {
                if let Some(rank) = e.dims.as_ref().map(Vec::len).or(shared) {
                    out.insert(key(&e.name), rank);
                }
            }
        }
    }
    out
}

fn block(
    stmts: Vec<Stmt>,
    sourced: &BTreeMap<Span, (bool, Expr)>,
    ranks: &BTreeMap<String, usize>,
    next_id: &mut u32,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    for mut s in stmts {
        for child in visit::child_blocks_mut(&mut s) {
            let b = std::mem::take(child);
            *child = block(b, sourced, ranks, next_id, diags);
        }
        let found = match &s.kind {
            StmtKind::Allocate(items) => match items.as_slice() {
                [item] => sourced.get(&item.span).map(|f| (item.clone(), f)),
                _ => None,
            },
            _ => None,
        };
        let Some((item, (copies, from))) = found else {
            out.push(s);
            continue;
        };
        // A whole array keeps its bounds; an elementwise expression of arrays has
        // lower bounds 1 and the extents of its arrays (`source=2*x`).
        let (array, whole) = match &from.kind {
            ExprKind::Var(x) => (Some(x.as_str()), true),
            _ => (elementwise_array(from, ranks), false),
        };
        let rank = array.and_then(|x| ranks.get(&key(x)).copied());
        let (ExprKind::Var(w), Some(x), Some(rank)) = (&item.kind, array, rank) else {
            let word = if *copies { "SOURCE" } else { "MOLD" };
            diags.push(
                Diagnostic::error(
                    "E0404",
                    format!("this {word}= is not an array this procedure declares, which adgen does not follow yet"),
                )
                .at(from.span)
                .with_help("give the bounds: `allocate(w(lbound(x, 1):ubound(x, 1)))`, then assign `w = x` for SOURCE="),
            );
            out.push(s);
            continue;
        };
        let bound = |op, k: usize| Expr::intrinsic(op, vec![Expr::var(x), Expr::int(k as i64)]);
        // As the parser gives `w(l:u)` (semantic analysis makes it a reference).
        let subs = (1..=rank)
            .map(|k| {
                let (lower, upper) = if whole {
                    (bound(Intrinsic::Lbound, k), bound(Intrinsic::Ubound, k))
                } else {
                    (Expr::int(1), bound(Intrinsic::Size, k))
                };
                crate::il::Arg::positional(Expr::new(ExprKind::Range {
                    lower: Some(Box::new(lower)),
                    upper: Some(Box::new(upper)),
                    stride: None,
                }))
            })
            .collect();
        let span = s.span;
        s.kind = StmtKind::Allocate(vec![Expr {
            kind: ExprKind::Call(w.clone(), subs),
            span: item.span,
        }]);
        out.push(s);
        if *copies {
            let id = StmtId(*next_id);
            *next_id = next_id.saturating_add(1);
            out.push(Stmt {
                id,
                kind: StmtKind::Assign {
                    lhs: Expr {
                        kind: ExprKind::Var(w.clone()),
                        span: item.span,
                    },
                    rhs: from.clone(),
                },
                span,
                label: None,
                trailing_comment: None,
            });
        }
    }
    out
}

/// The first whole array of an elementwise expression (operators, parentheses, scalars
/// and whole arrays this unit declares), which gives its shape; `None` for anything else
/// (a function call, a section, a constructor).
fn elementwise_array<'e>(e: &'e Expr, ranks: &BTreeMap<String, usize>) -> Option<&'e str> {
    fn walk<'e>(e: &'e Expr, ranks: &BTreeMap<String, usize>, first: &mut Option<&'e str>) -> bool {
        match &e.kind {
            ExprKind::Var(n) => {
                if ranks.contains_key(&key(n)) && first.is_none() {
                    *first = Some(n);
                }
                true
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) => true,
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => walk(x, ranks, first),
            ExprKind::Binary(_, a, b) => walk(a, ranks, first) && walk(b, ranks, first),
            _ => false,
        }
    }
    let mut first = None;
    walk(e, ranks, &mut first).then_some(first).flatten()
}
