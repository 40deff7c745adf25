//! Components of arrays of derived type, printed back: the IL's view `p%x(i, j)` (the
//! dimensions of `p` first, then those of `x`; see `front::fortran::sema::components`)
//! is `p(i)%x(j)`. The split needs the rank of `p`, which expressions alone do not tell:
//! while a unit is written, the ranks of the arrays of derived type it sees (its own
//! declarations, its module's, and the module variables of its symbol table) are kept
//! here ([`super::ranks`]), and the expression printer asks.

use super::expr::write_expr;
use super::ranks::{base_rank, component_rank};
use super::writer::Writer;
use crate::il::{Expr, ExprKind, Stmt, StmtKind, TapeOp};

/// A statement on a whole view `p%x` where `x` may be an array (`p%x` then designates
/// no Fortran object): `pb%x = 0` from the derivative's initialization, the adjoint's
/// push or pop of `p%x`. Written as a loop over the elements of `p` in a BLOCK (`pb(i)%x
/// = 0`, `call pushreal8array(p(i)%x, size(p(i)%x))`, pops backwards). False when `stmt`
/// is not such a statement.
pub(crate) fn write_view_stmt(w: &mut Writer, stmt: &Stmt) -> bool {
    let (view, pop) = match &stmt.kind {
        StmtKind::Assign { lhs, .. } => match &lhs.kind {
            ExprKind::Var(n) if base_rank(n).is_some() && component_rank(n) != Some(0) => {
                (n.clone(), false)
            }
            _ => return false,
        },
        StmtKind::Tape(t) if t.count.is_some() && t.op != TapeOp::Look => match &t.value.kind {
            ExprKind::Var(n)
                if base_rank(n).is_some() && component_rank(n).is_some_and(|r| r > 0) =>
            {
                (n.clone(), t.op == TapeOp::Pop)
            }
            _ => return false,
        },
        _ => return false,
    };
    let rank = base_rank(&view).expect("checked");
    let base = view.split('%').next().unwrap_or(&view).to_string();
    let vars: Vec<String> = (1..=rank).map(|k| format!("adgen_e{k}")).collect();
    let subs: Vec<Expr> = vars.iter().map(|v| Expr::var(v.clone())).collect();
    w.line(
        stmt.label.as_deref(),
        "block",
        stmt.trailing_comment.as_deref(),
    );
    w.push();
    w.line(None, &format!("integer :: {}", vars.join(", ")), None);
    for (k, v) in vars.iter().enumerate().rev() {
        let (lo, hi) = (
            format!("lbound({base}, {})", k + 1),
            format!("ubound({base}, {})", k + 1),
        );
        let head = if pop {
            format!("do {v} = {hi}, {lo}, -1")
        } else {
            format!("do {v} = {lo}, {hi}")
        };
        w.line(None, &head, None);
        w.push();
    }
    let element = |e: &Expr| {
        let mut e = e.clone();
        elements_of_views(&mut e, rank, &subs);
        e
    };
    let text = match &stmt.kind {
        StmtKind::Assign { lhs, rhs } => {
            format!(
                "{} = {}",
                write_expr(&element(lhs)),
                write_expr(&element(rhs))
            )
        }
        StmtKind::Tape(t) => {
            let el = write_expr(&element(&t.value));
            format!("call {}({el}, size({el}))", t.runtime_routine())
        }
        _ => unreachable!("matched above"),
    };
    w.line(None, &text, None);
    for _ in 0..rank {
        w.pop();
        w.line(None, "end do", None);
    }
    w.pop();
    w.line(None, "end block", None);
    true
}

/// `e` with every whole view `q%y` (of a base of rank `rank`) made the element `subs`'s.
fn elements_of_views(e: &mut Expr, rank: usize, subs: &[Expr]) {
    match &mut e.kind {
        ExprKind::Var(n) if base_rank(n) == Some(rank) => {
            e.kind = ExprKind::Index(n.clone(), subs.to_vec());
        }
        ExprKind::Index(_, xs) | ExprKind::ArrayCtor(xs) => {
            xs.iter_mut().for_each(|x| elements_of_views(x, rank, subs))
        }
        ExprKind::Call(_, args) | ExprKind::Intrinsic { args, .. } => args
            .iter_mut()
            .for_each(|a| elements_of_views(&mut a.value, rank, subs)),
        ExprKind::Unary(_, x) | ExprKind::Paren(x) => elements_of_views(x, rank, subs),
        ExprKind::Binary(_, a, b) => {
            elements_of_views(a, rank, subs);
            elements_of_views(b, rank, subs);
        }
        _ => {}
    }
}
