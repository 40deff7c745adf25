//! CSHIFT and EOSHIFT (F2018 16.9.57, 16.9.72) element by element.
//!
//! The result has the shape of ARRAY. Along dimension DIM, its element at 0-based offset
//! `o` is ARRAY's element at `o + shift`: taken modulo the extent for CSHIFT (so
//! `cshift(x, 1)` at `i` reads `x(modulo(i, n) + 1)`), and for EOSHIFT only when inside
//! the array, BOUNDARY (zero by default) elsewhere, through a MERGE whose subscript is
//! clamped into the array so that neither branch reads outside it. The shifted element is
//! an ordinary array reference, so the tangent and the adjoint (a scatter at the shifted
//! index) need nothing more. SHIFT and BOUNDARY must be scalars.

use super::*;

/// The arguments of a CSHIFT or EOSHIFT.
pub(super) struct Shift<'e> {
    pub(super) array: &'e Expr,
    shift: &'e Expr,
    boundary: Option<&'e Expr>,
    /// 1-based.
    dim: usize,
}

impl Scalarizer<'_> {
    pub(super) fn shift_args<'e>(
        &self,
        op: Intrinsic,
        args: &'e [Arg],
        span: Span,
    ) -> R<Shift<'e>> {
        let names: &[&str] = if op == Intrinsic::Cshift {
            &["array", "shift", "dim"]
        } else {
            &["array", "shift", "boundary", "dim"]
        };
        let what = if op == Intrinsic::Cshift {
            "CSHIFT"
        } else {
            "EOSHIFT"
        };
        let mut parts: [Option<&Expr>; 4] = [None; 4];
        for (k, a) in args.iter().enumerate() {
            let slot = match a.keyword.as_deref().map(key) {
                Some(kw) => names.iter().position(|n| *n == kw),
                None => Some(k),
            };
            match slot {
                Some(s) if s < names.len() && parts[s].is_none() => parts[s] = Some(&a.value),
                _ => {
                    return Err(self.err(
                        a.value.span,
                        format!("this argument of {what} is not one it takes"),
                        "give ARRAY, SHIFT and DIM (and BOUNDARY for EOSHIFT) once each",
                    ));
                }
            }
        }
        let (Some(array), Some(shift)) = (parts[0], parts[1]) else {
            return Err(self.err(
                span,
                format!("{what} needs ARRAY and SHIFT"),
                "give the array and the shift",
            ));
        };
        let dim_at = names.len() - 1;
        let dim = match parts[dim_at] {
            Some(d) => self.dim_value(d)?,
            None => 1,
        };
        let boundary = if op == Intrinsic::Eoshift {
            parts[2]
        } else {
            None
        };
        for (part, name) in [(Some(shift), "SHIFT"), (boundary, "BOUNDARY")] {
            if let Some(p) = part
                && self.rank(p)? != 0
            {
                return Err(self.err(
                    p.span,
                    format!("{what} with an array {name} is not supported"),
                    &format!("give a scalar {name}, or shift one section at a time in a DO loop"),
                ));
            }
        }
        let rank = self.rank(array)?;
        if dim > rank {
            return Err(self.err(
                span,
                format!("DIM of {what} is larger than the rank of ARRAY ({rank})"),
                &format!("check the arguments of {what}"),
            ));
        }
        Ok(Shift {
            array,
            shift,
            boundary,
            dim,
        })
    }

    pub(super) fn shift_element(
        &mut self,
        op: Intrinsic,
        args: &[Arg],
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Expr> {
        let s = self.shift_args(op, args, span)?;
        let (array, boundary, d) = (s.array.clone(), s.boundary.cloned(), s.dim - 1);
        let extent = self.dims_of(&array)?[d].extent();
        let shift = self.operand(s.shift, &[], depth, body)?;
        let moved = simplify(&Expr::binary(BinOp::Add, offsets[d].clone(), shift));
        let mut at = offsets.to_vec();
        if op == Intrinsic::Cshift {
            at[d] = Expr::intrinsic(Intrinsic::Modulo, vec![moved, extent]);
            return self.element(&array, &at, depth, body);
        }
        let last = simplify(&Expr::binary(BinOp::Sub, extent.clone(), Expr::int(1)));
        at[d] = Expr::intrinsic(
            Intrinsic::Max,
            vec![
                Expr::int(0),
                Expr::intrinsic(Intrinsic::Min, vec![moved.clone(), last]),
            ],
        );
        let value = self.element(&array, &at, depth, body)?;
        let fill = match boundary {
            Some(b) => self.operand(&b, &[], depth, body)?,
            None => Self::zero(self.type_of(&array)),
        };
        let inside = Expr::binary(
            BinOp::And,
            Expr::binary(BinOp::Ge, moved.clone(), Expr::int(0)),
            Expr::binary(BinOp::Lt, moved, extent),
        );
        Ok(Expr {
            kind: ExprKind::Intrinsic {
                op: Intrinsic::Merge,
                args: vec![
                    Arg::positional(value),
                    Arg::positional(fill),
                    Arg::positional(inside),
                ],
                spelling: None,
            },
            span,
        })
    }
}
