//! The type of an expression, from its symbols (for temporaries, literal kinds and the
//! choice of push/pop routines).

use crate::il::{BinOp, Expr, ExprKind, Intrinsic, Program, ScalarType, SymbolTable, UnOp};

pub fn type_of(expr: &Expr, symbols: &SymbolTable, program: &Program) -> ScalarType {
    match &expr.kind {
        ExprKind::Int(text) => match text.rsplit_once('_') {
            Some((_, "8")) => ScalarType::Integer(8),
            _ => ScalarType::Integer(4),
        },
        ExprKind::Real(lit) => ScalarType::Real(lit.kind),
        ExprKind::Logical(_) => ScalarType::Logical,
        ExprKind::Str(_) => ScalarType::Character,
        ExprKind::Var(n) | ExprKind::Index(n, _) => {
            symbols.get(n).map(|s| s.ty).unwrap_or(ScalarType::Real(4))
        }
        ExprKind::Call(name, _) => match symbols.get(name) {
            Some(s) => s.ty,
            None => program
                .unit(name)
                .and_then(|u| u.result.as_deref().and_then(|r| u.symbols.get(r)))
                .map(|s| s.ty)
                .unwrap_or(ScalarType::Real(4)),
        },
        ExprKind::Intrinsic { op, args, .. } => {
            let arg_ty = |i: usize| {
                args.get(i)
                    .map(|a| type_of(&a.value, symbols, program))
                    .unwrap_or(ScalarType::Real(4))
            };
            match op {
                Intrinsic::Dble => ScalarType::Real(8),
                Intrinsic::Real => match args.get(1).map(|a| &a.value.kind) {
                    Some(ExprKind::Int(k)) => ScalarType::Real(k.parse().unwrap_or(4)),
                    Some(_) => ScalarType::Real(8),
                    None => match arg_ty(0) {
                        ScalarType::Real(k) => ScalarType::Real(k),
                        _ => ScalarType::Real(4),
                    },
                },
                Intrinsic::Int | Intrinsic::Nint | Intrinsic::Floor => ScalarType::Integer(4),
                Intrinsic::Max
                | Intrinsic::Min
                | Intrinsic::Mod
                | Intrinsic::Sign
                | Intrinsic::Abs => (0..args.len())
                    .map(arg_ty)
                    .fold(ScalarType::Integer(4), promote),
                Intrinsic::Merge => arg_ty(0),
                _ => match arg_ty(0) {
                    ScalarType::Real(k) => ScalarType::Real(k),
                    _ => ScalarType::Real(4),
                },
            }
        }
        ExprKind::Unary(UnOp::Not, _) => ScalarType::Logical,
        ExprKind::Unary(_, e) | ExprKind::Paren(e) => type_of(e, symbols, program),
        ExprKind::Binary(op, a, b) => match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Pow => {
                promote(type_of(a, symbols, program), type_of(b, symbols, program))
            }
            BinOp::Concat => ScalarType::Character,
            _ => ScalarType::Logical,
        },
    }
}

/// The type of an arithmetic operation on operands of types `a` and `b`.
pub fn promote(a: ScalarType, b: ScalarType) -> ScalarType {
    match (a, b) {
        (ScalarType::Real(x), ScalarType::Real(y)) => ScalarType::Real(x.max(y)),
        (ScalarType::Real(x), _) | (_, ScalarType::Real(x)) => ScalarType::Real(x),
        (ScalarType::Integer(x), ScalarType::Integer(y)) => ScalarType::Integer(x.max(y)),
        (x, _) => x,
    }
}

/// The real kind of a type (4 for non-reals).
pub fn real_kind(ty: ScalarType) -> u8 {
    match ty {
        ScalarType::Real(k) => k,
        _ => 4,
    }
}
