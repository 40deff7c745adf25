//! The type of an expression, from its symbols (for temporaries, literal kinds and the
//! choice of push/pop routines).

pub use crate::il::types::promote;
use crate::il::types::{TypeRules, expr_type};
use crate::il::{Expr, ExprKind, Program, ScalarType, SymbolTable};

pub fn type_of(expr: &Expr, symbols: &SymbolTable, program: &Program) -> ScalarType {
    let variable = |n: &str| symbols.get(n).map(|s| s.ty).unwrap_or(ScalarType::Real(4));
    let function = |n: &str| match symbols.get(n) {
        Some(s) => s.ty,
        None => program
            .unit(n)
            .and_then(|u| u.result.as_deref().and_then(|r| u.symbols.get(r)))
            .map(|s| s.ty)
            .unwrap_or(ScalarType::Real(4)),
    };
    expr_type(
        expr,
        &TypeRules {
            variable: &variable,
            function: &function,
            default_real: 4,
        },
    )
}

/// The real kind of a type (4 for non-reals); a COMPLEX's is its parts'.
pub fn real_kind(ty: ScalarType) -> u8 {
    match ty {
        ScalarType::Real(k) | ScalarType::Complex(k) => k,
        _ => 4,
    }
}

impl crate::diff::UnitGen<'_, '_> {
    /// The type of an expression of primals and derivatives: a derivative has its
    /// primal's type (`1*ttimed` is double precision when `ttime` is).
    pub fn ty_with_derivatives(&self, e: &Expr) -> ScalarType {
        let mut e = e.clone();
        crate::il::visit::walk_expr_mut_post(&mut e, &mut |x| {
            if let ExprKind::Var(n) | ExprKind::Index(n, _) = &mut x.kind
                && self.unit.symbols.get(n.as_str()).is_none()
                && let Some((primal, _)) = self
                    .deriv_names
                    .iter()
                    .find(|(_, d)| d.eq_ignore_ascii_case(n))
            {
                *n = primal.clone();
            }
        });
        self.ty(&e)
    }

    /// The value an assignment to a `target` stores: a COMPLEX right-hand side assigned
    /// to a real is its real part (as Fortran converts it), made explicit so that its
    /// derivative is the real part's.
    pub fn as_assigned<'e>(&self, rhs: &'e Expr, target: ScalarType) -> std::borrow::Cow<'e, Expr> {
        if target.is_complex() || !target.is_differentiable() || !self.ty(rhs).is_complex() {
            return std::borrow::Cow::Borrowed(rhs);
        }
        std::borrow::Cow::Owned(Expr::intrinsic(
            crate::il::Intrinsic::Real,
            vec![rhs.clone()],
        ))
    }
}
