//! `ANY`, `ALL` and `COUNT` with DIM (F2018 16.9.13, 16.9.10, 16.9.62): reductions of a
//! logical array along one dimension, whose result is an array. Passive (logical or
//! integer), they are scalarized like `SUM(x, DIM=k)`: at given offsets of the result,
//! an accumulator runs over the reduced dimension (`acc = acc .or. m(i, j)`,
//! `acc = acc .and. m(i, j)`, `if (m(i, j)) acc = acc + 1`). Without DIM they stay as
//! written (a whole-array reduction to a scalar).

use super::*;

/// Which logical reduction.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Logical {
    Any,
    All,
    Count,
}

impl Logical {
    /// The reduction `spelling` names, for an intrinsic that is a passive reduction.
    pub(super) fn of(op: Intrinsic, spelling: &Option<Box<str>>) -> Option<Logical> {
        if !matches!(op, Intrinsic::Passive(p) if p.reduction) {
            return None;
        }
        match spelling.as_deref().map(key).as_deref() {
            Some("any") => Some(Logical::Any),
            Some("all") => Some(Logical::All),
            Some("count") => Some(Logical::Count),
            _ => None,
        }
    }
}

/// Is `e` a logical reduction with DIM (an array)? (COUNT's KIND= is no DIM.)
pub(super) fn has_dim(args: &[Arg]) -> bool {
    args.iter()
        .enumerate()
        .any(|(k, a)| match a.keyword.as_deref() {
            Some(w) => w.eq_ignore_ascii_case("dim"),
            None => k == 1,
        })
}

impl Scalarizer<'_> {
    /// The mask and the 1-based dimension of `any(mask, dim)`.
    pub(super) fn logical_args<'e>(&self, args: &'e [Arg], span: Span) -> R<(&'e Expr, usize)> {
        let mut mask = None;
        let mut dim = None;
        for (k, a) in args.iter().enumerate() {
            match (a.keyword.as_deref().map(key).as_deref(), k) {
                (Some("mask"), _) | (None, 0) => mask = Some(&a.value),
                (Some("dim"), _) | (None, 1) => dim = Some(self.dim_value(&a.value)?),
                // COUNT's result kind: the count is an integer either way.
                (Some("kind"), _) | (None, 2) => {}
                _ => {
                    return Err(self.err(
                        a.value.span,
                        "ANY, ALL and COUNT take MASK and DIM here".into(),
                        "remove the other argument",
                    ));
                }
            }
        }
        match (mask, dim) {
            (Some(m), Some(d)) if d <= self.rank(m)? => Ok((m, d)),
            _ => Err(self.err(
                span,
                "ANY, ALL and COUNT with DIM need a MASK whose rank is at least DIM".into(),
                "check the arguments",
            )),
        }
    }

    /// The shape of `any(mask, dim)`: the mask's without dimension `dim`.
    pub(super) fn logical_dims(&self, args: &[Arg], span: Span) -> R<Vec<LoopDim>> {
        let (mask, dim) = self.logical_args(args, span)?;
        let mut d = self.dims_of(mask)?;
        d.remove(dim - 1);
        Ok(d)
    }

    /// The element of `any(mask, dim)` at `outer` (the offsets of the other
    /// dimensions): its accumulator, computed by statements appended to `body`.
    pub(super) fn logical_element(
        &mut self,
        which: Logical,
        args: &[Arg],
        outer: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Expr> {
        let (mask, dim) = self.logical_args(args, span)?;
        let mask = mask.clone();
        let mdims = self.dims_of(&mask)?;
        let var = self.loop_var(depth);
        let mut full = outer.to_vec();
        full.insert(dim - 1, mdims[dim - 1].offset(&var));
        let mut inner = Vec::new();
        let value = self.element(&mask, &full, depth + 1, &mut inner)?;
        let (base, ty, init) = match which {
            Logical::Any => (
                "any_of",
                ScalarType::Logical,
                Expr::new(ExprKind::Logical(false)),
            ),
            Logical::All => (
                "all_of",
                ScalarType::Logical,
                Expr::new(ExprKind::Logical(true)),
            ),
            Logical::Count => ("count_of", ScalarType::Integer(4), Expr::int(0)),
        };
        let acc = Expr::var(self.temp(base, ty));
        body.push(self.assign(acc.clone(), init));
        let update = match which {
            Logical::Any => self.assign(acc.clone(), Expr::binary(BinOp::Or, acc.clone(), value)),
            Logical::All => self.assign(acc.clone(), Expr::binary(BinOp::And, acc.clone(), value)),
            Logical::Count => {
                let add = self.assign(
                    acc.clone(),
                    Expr::binary(BinOp::Add, acc.clone(), Expr::int(1)),
                );
                self.new_stmt(StmtKind::If {
                    arms: vec![(value, vec![add])],
                    else_body: None,
                    logical_if: true,
                    name: None,
                })
            }
        };
        inner.push(update);
        let l = self.do_loop(&var, &mdims[dim - 1], false, inner);
        body.push(l);
        Ok(acc)
    }
}
