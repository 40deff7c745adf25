//! Derivatives at the singular point of `sqrt`: `d sqrt(a) = ȧ / (2 sqrt(a))` divides by
//! zero at `a = 0`, and the zero direction of a vector norm that is exactly zero (a
//! converged Newton correction, ODEPACK's `DVNORM` of a zero vector) turns into `0 · ∞ =
//! NaN`, which then spreads through the whole adjoint. As Tapenade does, the derivative
//! statements of an assignment whose right-hand side takes `sqrt` of an active value are
//! split on `a == 0`: in that branch `sqrt(a)` contributes no derivative (the
//! right-hand side is differentiated with `sqrt(a)` replaced by the zero it then equals,
//! so every other term keeps its own).

use crate::il::{BinOp, Expr, ExprKind, Intrinsic, Stmt, StmtKind};

use super::partials::{LeafInfo, is_active};

/// The active `sqrt(a)` of `rhs`, in evaluation order: their arguments. Not those in
/// a denominator or the base of a power: there `a == 0` makes the value itself
/// singular, and the zero put in their place would divide by zero.
fn active_roots<'e>(rhs: &'e Expr, info: &dyn LeafInfo, out: &mut Vec<&'e Expr>) {
    match &rhs.kind {
        ExprKind::Binary(BinOp::Div, a, _) => active_roots(a, info, out),
        ExprKind::Binary(BinOp::Pow, _, b) => active_roots(b, info, out),
        ExprKind::Intrinsic {
            op: Intrinsic::Sqrt,
            args,
            ..
        } if args.len() == 1 => {
            let a = &args[0].value;
            if is_active(a, info) && !info.is_complex(a) {
                out.push(a);
            }
            active_roots(a, info, out);
        }
        _ => {
            for child in children(rhs) {
                active_roots(child, info, out);
            }
        }
    }
}

/// The direct operands of an expression.
fn children(e: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    match &e.kind {
        ExprKind::Binary(_, a, b) => {
            out.push(&**a);
            out.push(&**b);
        }
        ExprKind::Unary(_, a) | ExprKind::Paren(a) => out.push(&**a),
        ExprKind::Intrinsic { args, .. } | ExprKind::Call(_, args) => {
            out.extend(args.iter().map(|a| &a.value))
        }
        ExprKind::Index(_, subs) => out.extend(subs.iter()),
        _ => {}
    }
    out
}

/// `rhs` with its first `sqrt(a)` that [`active_roots`] lists whose argument is `a` (by
/// spelling) replaced by `zero`.
fn without_root(rhs: &Expr, a: &Expr, zero: &Expr) -> Expr {
    let mut out = rhs.clone();
    replace_root(&mut out, &crate::il::visit::expr_key(a), zero);
    out
}

/// [`without_root`] in place; true once replaced.
fn replace_root(e: &mut Expr, target: &str, zero: &Expr) -> bool {
    let is_target = matches!(&e.kind, ExprKind::Intrinsic { op: Intrinsic::Sqrt, args, .. }
        if args.len() == 1 && crate::il::visit::expr_key(&args[0].value) == target);
    if is_target {
        *e = zero.clone();
        return true;
    }
    match &mut e.kind {
        ExprKind::Binary(BinOp::Div, a, _) => replace_root(a, target, zero),
        ExprKind::Binary(BinOp::Pow, _, b) => replace_root(b, target, zero),
        ExprKind::Binary(_, a, b) => replace_root(a, target, zero) || replace_root(b, target, zero),
        ExprKind::Unary(_, a) | ExprKind::Paren(a) => replace_root(a, target, zero),
        ExprKind::Intrinsic { args, .. } | ExprKind::Call(_, args) => args
            .iter_mut()
            .any(|x| replace_root(&mut x.value, target, zero)),
        ExprKind::Index(_, subs) => subs.iter_mut().any(|x| replace_root(x, target, zero)),
        _ => false,
    }
}

/// The right-hand sides to differentiate, and the tests that choose between them.
pub enum Variants {
    One(Expr),
    /// `if (test) then <at_zero> else <otherwise>`.
    Split {
        test: Expr,
        at_zero: Box<Variants>,
        otherwise: Box<Variants>,
    },
}

/// `rhs` split on every active `sqrt` of it being at zero: in the `a == 0` variant,
/// `sqrt(a)` is replaced by a zero of its kind.
pub fn variants(rhs: &Expr, info: &dyn LeafInfo) -> Variants {
    variants_from(rhs, 0, info)
}

fn variants_from(rhs: &Expr, skip: usize, info: &dyn LeafInfo) -> Variants {
    let mut roots = Vec::new();
    active_roots(rhs, info, &mut roots);
    // (At most four splits: sixteen copies of one statement's derivative at worst.)
    let Some(&a) = roots.get(skip).filter(|_| skip < 4) else {
        return Variants::One(rhs.clone());
    };
    let z = Expr::real("0.0", info.kind_of(a));
    let at_zero = without_root(rhs, a, &z);
    Variants::Split {
        test: Expr::binary(BinOp::Eq, a.clone(), z),
        at_zero: Box::new(variants_from(&at_zero, skip, info)),
        otherwise: Box::new(variants_from(rhs, skip + 1, info)),
    }
}

/// The derivative statements of each variant (`derive`), under their tests.
pub fn statements(v: &Variants, derive: &mut dyn FnMut(&Expr) -> Vec<Stmt>) -> Vec<Stmt> {
    match v {
        Variants::One(rhs) => derive(rhs),
        Variants::Split {
            test,
            at_zero,
            otherwise,
        } => {
            let then = statements(at_zero, derive);
            let otherwise = statements(otherwise, derive);
            if then.is_empty() && otherwise.is_empty() {
                return Vec::new();
            }
            vec![Stmt::generated(StmtKind::If {
                arms: vec![(test.clone(), then)],
                else_body: Some(otherwise),
                logical_if: false,
                name: None,
            })]
        }
    }
}

/// The terms of a variant without those a replaced `sqrt` multiplies by zero
/// (`sqrt(s)*c` at `s == 0` gives `c` the coefficient `0.0`).
pub fn nonzero(terms: Vec<super::partials::Term>) -> Vec<super::partials::Term> {
    let zero = |e: &Expr| match &e.kind {
        ExprKind::Real(r) => r.value.parse::<f64>().is_ok_and(|v| v == 0.0),
        ExprKind::Int(t) => t.trim() == "0",
        _ => false,
    };
    terms
        .into_iter()
        .filter(|t| !t.coeff.as_ref().is_some_and(zero))
        .collect()
}
