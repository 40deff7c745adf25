//! Integer constant expressions folded to their values: literals, named constants
//! (PARAMETERs of the unit, and of the modules it uses when the program is given),
//! `+ - * /` and parentheses. Array bounds that must be known as numbers outside the
//! unit that declares them (in another unit's declarations, or in Rust) need this.

use super::{BinOp, Expr, ExprKind, Program, SymbolKind, UnOp, Unit};

/// How deep named constants may refer to each other before folding gives up.
const MAX_DEPTH: usize = 32;

/// The value of `e` as `unit` sees it; `program`, when given, resolves constants the
/// unit has by use association.
pub fn fold_int(program: Option<&Program>, unit: &Unit, e: &Expr) -> Option<i64> {
    fold(program, unit, e, 0)
}

fn fold(program: Option<&Program>, unit: &Unit, e: &Expr, depth: usize) -> Option<i64> {
    if depth > MAX_DEPTH {
        return None;
    }
    let again = |unit: &Unit, e: &Expr| fold(program, unit, e, depth + 1);
    match &e.kind {
        ExprKind::Int(t) => t.split('_').next()?.parse().ok(),
        ExprKind::Paren(x) | ExprKind::Unary(UnOp::Plus, x) => again(unit, x),
        ExprKind::Unary(UnOp::Neg, x) => again(unit, x)?.checked_neg(),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (again(unit, a)?, again(unit, b)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => a.checked_div(b),
                _ => None,
            }
        }
        ExprKind::Var(n) => {
            let symbol = unit.symbols.get(n)?;
            if symbol.kind != SymbolKind::Constant {
                return None;
            }
            if let Some(init) = unit.initial_value(n) {
                return again(unit, init);
            }
            let global = symbol.global.as_ref()?;
            let module = program?.module(&global.module)?;
            again(module, &Expr::var(&global.name))
        }
        _ => None,
    }
}
