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

/// The active `sqrt(a)` of `rhs`, in evaluation order: their arguments.
fn active_roots<'e>(rhs: &'e Expr, info: &dyn LeafInfo, out: &mut Vec<&'e Expr>) {
    crate::il::visit::walk_expr(rhs, &mut |e| {
        if let ExprKind::Intrinsic {
            op: Intrinsic::Sqrt,
            args,
            ..
        } = &e.kind
            && let [a] = args.as_slice()
            && is_active(&a.value, info)
            && !info.is_complex(&a.value)
        {
            out.push(&a.value);
        }
    });
}

/// `rhs` with its first `sqrt(a)` whose argument is `a` (by spelling) replaced by
/// `zero`.
fn without_root(rhs: &Expr, a: &Expr, zero: &Expr) -> Expr {
    let target = crate::il::visit::expr_key(a);
    let mut done = false;
    let mut out = rhs.clone();
    crate::il::visit::walk_expr_mut_post(&mut out, &mut |e| {
        if done {
            return;
        }
        if let ExprKind::Intrinsic {
            op: Intrinsic::Sqrt,
            args,
            ..
        } = &e.kind
            && let [x] = args.as_slice()
            && crate::il::visit::expr_key(&x.value) == target
        {
            *e = zero.clone();
            done = true;
        }
    });
    out
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
