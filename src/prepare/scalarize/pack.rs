//! PACK (F2018 16.9.147) as the whole right-hand side of an assignment,
//! `v = pack(array, mask [, vector])`: loops over ARRAY in array element order (the first
//! subscript fastest) that append each element where MASK holds, then VECTOR's trailing
//! elements. The position is an integer counter, so the assignments are ordinary element
//! assignments for the tangent and the adjoint (which saves the counter like any index).
//! Elsewhere in an expression PACK is refused: its size is known only at run time.

use super::*;

/// The arguments of a PACK.
struct Pack<'e> {
    array: &'e Expr,
    mask: &'e Expr,
    vector: Option<&'e Expr>,
}

impl Scalarizer<'_> {
    fn pack_args<'e>(&self, args: &'e [Arg], span: Span) -> R<Pack<'e>> {
        let mut parts: [Option<&Expr>; 3] = [None; 3];
        for (k, a) in args.iter().enumerate() {
            let slot = match a.keyword.as_deref().map(key).as_deref() {
                Some("array") => 0,
                Some("mask") => 1,
                Some("vector") => 2,
                None if k < 3 => k,
                _ => {
                    return Err(self.err(
                        a.value.span,
                        "PACK takes ARRAY, MASK and VECTOR".into(),
                        "remove the other argument",
                    ));
                }
            };
            parts[slot] = Some(&a.value);
        }
        match parts {
            [Some(array), Some(mask), vector] => Ok(Pack {
                array,
                mask,
                vector,
            }),
            _ => Err(self.err(span, "PACK needs ARRAY and MASK".into(), "give both")),
        }
    }

    /// The extent of PACK's result, for its shape: VECTOR's when given, else the count
    /// of MASK (or ARRAY's size, for a scalar MASK).
    pub(super) fn pack_dims(&self, args: &[Arg], span: Span) -> R<Vec<LoopDim>> {
        let p = self.pack_args(args, span)?;
        if let Some(v) = p.vector {
            let d = self.dims_of(v)?;
            return Ok(vec![LoopDim::from_one(
                d.first().map(LoopDim::extent).unwrap_or(Expr::int(1)),
            )]);
        }
        let extent = if self.rank(p.mask)? == 0 {
            self.dims_of(p.array)?
                .iter()
                .map(LoopDim::extent)
                .reduce(|a, b| simplify(&Expr::binary(BinOp::Mul, paren(a), paren(b))))
                .unwrap_or(Expr::int(1))
        } else {
            Expr::new(ExprKind::Intrinsic {
                op: Intrinsic::Passive(crate::il::PassiveIntrinsic {
                    result: crate::il::ScalarResult::Integer,
                    inquiry: false,
                    reduction: true,
                }),
                args: vec![Arg::positional(p.mask.clone())],
                spelling: Some("count".into()),
            })
        };
        Ok(vec![LoopDim::from_one(extent)])
    }

    /// `lhs = pack(...)` as loops; `None` when `rhs` is no PACK.
    pub(super) fn pack_assignment(&mut self, lhs: &Expr, rhs: &Expr) -> R<Option<Vec<Stmt>>> {
        let ExprKind::Intrinsic {
            op: Intrinsic::Pack,
            args,
            ..
        } = &rhs.kind
        else {
            return Ok(None);
        };
        let p = self.pack_args(args, rhs.span)?;
        if self.dims_of(lhs)?.len() != 1 {
            return Err(self.err(
                lhs.span,
                "PACK is assigned to an array that is not of rank 1".into(),
                "assign it to a one-dimensional array",
            ));
        }
        let target = lhs.base_name().unwrap_or_default();
        let read = [Some(p.array), Some(p.mask), p.vector];
        if read.iter().flatten().any(|e| {
            crate::il::visit::names_read(e)
                .iter()
                .any(|n| key(n) == key(target))
        }) {
            return Err(self.err(
                lhs.span,
                format!("`{target}` is assigned the PACK of an expression that reads it"),
                "pack into another array, then copy",
            ));
        }
        let adims = self.dims_of(p.array)?;
        let rank = adims.len();
        if rank == 0 {
            return Err(self.err(p.array.span, "PACK of a scalar".into(), "pack an array"));
        }
        let vars: Vec<String> = (0..rank).map(|d| self.loop_var(d)).collect();
        let offsets: Vec<Expr> = adims.iter().zip(&vars).map(|(d, v)| d.offset(v)).collect();
        let count = self.temp("npack", ScalarType::Integer(4));
        let mut body = Vec::new();
        let mask = self.operand(p.mask, &offsets, rank, &mut body)?;
        let mut then = Vec::new();
        let value = self.element(p.array, &offsets, rank, &mut then)?;
        let bump = Expr::binary(BinOp::Add, Expr::var(&count), Expr::int(1));
        then.push(self.assign(Expr::var(&count), bump));
        let at = Expr::binary(BinOp::Sub, Expr::var(&count), Expr::int(1));
        let slot = self.element(lhs, &[at], 1, &mut then)?;
        then.push(self.assign(slot, value));
        body.push(self.new_stmt(StmtKind::If {
            arms: vec![(mask, then)],
            else_body: None,
            logical_if: false,
            name: None,
        }));
        let mut nest = body;
        for k in 0..rank {
            let l = self.do_loop(&vars[k], &adims[k], false, nest);
            nest = vec![l];
        }
        let mut out = std::mem::take(&mut self.before);
        out.push(self.assign(Expr::var(&count), Expr::int(0)));
        out.extend(nest);
        // VECTOR's elements after the packed ones.
        if let Some(v) = p.vector {
            let vdims = self.dims_of(v)?;
            let Some(vd) = vdims.first() else {
                return Err(self.err(v.span, "PACK's VECTOR is a scalar".into(), "give an array"));
            };
            let j = self.loop_var(rank);
            let range = LoopDim {
                lo: Expr::var(&count),
                hi: simplify(&Expr::binary(BinOp::Sub, vd.extent(), Expr::int(1))),
                stride: None,
            };
            let mut tail = Vec::new();
            let value = self.element(v, &[Expr::var(&j)], 1, &mut tail)?;
            let slot = self.element(lhs, &[Expr::var(&j)], 1, &mut tail)?;
            tail.push(self.assign(slot, value));
            out.push(self.do_loop(&j, &range, false, tail));
        }
        Ok(Some(out))
    }
}
