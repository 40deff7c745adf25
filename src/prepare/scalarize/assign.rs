//! An array assignment as loops: its shape matched against the left-hand side's, the
//! direction of each loop chosen so that no element is read after it is overwritten (or a
//! temporary array when none is), WHERE masks as guards, reductions assigned directly.

use super::*;

impl Scalarizer<'_> {
    /// `lhs = rhs`, under the elementwise `guard` of a WHERE when given.
    pub(super) fn assignment(
        &mut self,
        lhs: &Expr,
        rhs: &Expr,
        guard: Option<&Expr>,
    ) -> R<Vec<Stmt>> {
        let ldims = self.dims_of(lhs)?;
        let rrank = self.rank(rhs)?;
        if let Some(g) = guard
            && self.rank(g)? != ldims.len()
        {
            return Err(self.err(
                lhs.span,
                "the mask of WHERE and the assigned array have different ranks".into(),
                "give the mask the shape of the assigned array",
            ));
        }
        if ldims.is_empty() {
            if rrank != 0 {
                return Err(self.err(
                    rhs.span,
                    format!("an array of rank {rrank} is assigned to a scalar"),
                    "reduce it with SUM, MAXVAL, ... or assign it to an array",
                ));
            }
            if let Some(stmts) = self.direct_reduction(lhs, rhs)? {
                let mut out = std::mem::take(&mut self.before);
                out.extend(stmts);
                return Ok(out);
            }
            let mut body = Vec::new();
            let value = self.element(rhs, &[], 0, &mut body)?;
            let target = self.element(lhs, &[], 0, &mut body)?;
            let mut out = std::mem::take(&mut self.before);
            out.extend(body);
            out.push(self.assign(target, value));
            return Ok(out);
        }
        if guard.is_none()
            && let Some(stmts) = self.pack_assignment(lhs, rhs)?
        {
            return Ok(stmts);
        }
        let rank = ldims.len();
        if rrank != 0 && rrank != rank {
            return Err(self.err(
                rhs.span,
                format!("the right-hand side has rank {rrank} but the left-hand side rank {rank}"),
                "make both sides the same shape",
            ));
        }
        // `v = [a, b, c]`: one assignment per item.
        if let (ExprKind::ArrayCtor(items), 1, None) = (&rhs.kind, rank, guard)
            && !items.iter().any(is_implied_do)
        {
            let mut out = Vec::new();
            for (k, item) in items.iter().enumerate() {
                if self.rank(item)? != 0 {
                    return Err(self.ctor_item_error(item));
                }
                let mut body = Vec::new();
                let value = self.element(item, &[], 0, &mut body)?;
                let target = self.element(lhs, &[Expr::int(k as i64)], 0, &mut body)?;
                out.append(&mut self.before);
                out.extend(body);
                out.push(self.assign(target, value));
            }
            return Ok(out);
        }
        let vars: Vec<String> = (0..rank).map(|d| self.loop_var(d)).collect();
        let offsets: Vec<Expr> = ldims.iter().zip(&vars).map(|(d, v)| d.offset(v)).collect();
        let mut body = Vec::new();
        let target = self.element(lhs, &offsets, rank, &mut body)?;
        let value = self.element(rhs, &offsets, rank, &mut body)?;
        let reversed =
            match self.loop_directions(&target, &body, &value, &ldims, rhs.span) {
                Ok(r) => r,
                Err(alias) => {
                    // No loop order reads every element before it is overwritten: through a
                    // temporary array, when its extents can size a local array.
                    let Some((tmp, allocatable)) =
                        self.temporary_or_allocatable(lhs, &ldims, true)?
                    else {
                        return Err(alias);
                    };
                    let index: Vec<Expr> = offsets
                        .iter()
                        .map(|o| simplify(&Expr::binary(BinOp::Add, o.clone(), Expr::int(1))))
                        .collect();
                    let tmp_elem = Expr::new(ExprKind::Index(tmp.clone(), index));
                    body.push(self.assign(tmp_elem.clone(), value));
                    let fill = self.guarded(guard, &offsets, body)?;
                    let copy = vec![self.assign(target, tmp_elem)];
                    let copy = self.guarded(guard, &offsets, copy)?;
                    let mut out = std::mem::take(&mut self.before);
                    let shape: Vec<Expr> = ldims.iter().map(LoopDim::extent).collect();
                    if allocatable {
                        out.push(self.new_stmt(StmtKind::Allocate(vec![Expr::new(
                            ExprKind::Index(tmp.clone(), shape),
                        )])));
                    }
                    for nest in [fill, copy] {
                        let mut nest = nest;
                        for k in 0..rank {
                            let l = self.do_loop(&vars[k], &ldims[k], false, nest);
                            nest = vec![l];
                        }
                        out.extend(nest);
                    }
                    if allocatable {
                        out.push(self.new_stmt(StmtKind::Deallocate(vec![Expr::var(&tmp)])));
                    }
                    return Ok(out);
                }
            };
        body.push(self.assign(target, value));
        let body = self.guarded(guard, &offsets, body)?;
        let mut nest = body;
        for k in 0..rank {
            let l = self.do_loop(&vars[k], &ldims[k], reversed[k], nest);
            nest = vec![l];
        }
        let mut out = std::mem::take(&mut self.before);
        out.extend(nest);
        Ok(out)
    }

    /// `body` under the element of a WHERE mask at `offsets`, when there is one.
    pub(super) fn guarded(
        &mut self,
        guard: Option<&Expr>,
        offsets: &[Expr],
        body: Vec<Stmt>,
    ) -> R<Vec<Stmt>> {
        let Some(g) = guard else {
            return Ok(body);
        };
        let mut out = Vec::new();
        let cond = self.element(g, offsets, offsets.len(), &mut out)?;
        let logical_if = body.len() == 1;
        let s = self.new_stmt(StmtKind::If {
            arms: vec![(cond, body)],
            else_body: None,
            logical_if,
            name: None,
        });
        out.push(s);
        Ok(out)
    }

    /// A new local array `tmp(ext1, ext2, ...)` with the shape of `lhs`, when every
    /// extent is a constant or depends only on dummy arguments the unit never assigns
    /// (so that it can be declared as an automatic array).
    /// A temporary array shaped as the loop dimensions: an automatic array when their
    /// extents are specification expressions, else an ALLOCATABLE one (`allocatable`
    /// true), which the caller allocates with [`LoopDim::extent`]s just before it fills
    /// it and frees just after it copies it, nothing the extents read being assigned
    /// between (`mhd_control`'s band solver shifts `a(i,1:je) = a(i,1+js:js+je)` by a
    /// `js` it computes).
    pub(super) fn temporary_like(&mut self, lhs: &Expr, ldims: &[LoopDim]) -> R<Option<String>> {
        Ok(self
            .temporary_or_allocatable(lhs, ldims, false)?
            .map(|(t, _)| t))
    }

    /// [`Scalarizer::temporary_like`], ALLOCATABLE when `may_allocate` allows it.
    pub(super) fn temporary_or_allocatable(
        &mut self,
        lhs: &Expr,
        ldims: &[LoopDim],
        may_allocate: bool,
    ) -> R<Option<(String, bool)>> {
        let mut dims = Vec::new();
        let allocatable = !ldims.iter().all(|d| self.is_specification(&d.extent()));
        if allocatable && !may_allocate {
            return Ok(None);
        }
        for d in ldims {
            dims.push(DimSpec {
                lower: None,
                upper: if allocatable {
                    Bound::Colon
                } else {
                    Bound::Expr(d.extent())
                },
            });
        }
        let ty = self.type_of(lhs);
        let base = lhs
            .base_name()
            .map(|n| format!("{n}_tmp"))
            .unwrap_or("tmp".into());
        let name = self.namer.fresh(&base);
        self.add_local(&name, ty, dims);
        Ok(Some((name, allocatable)))
    }

    pub(super) fn is_specification(&self, e: &Expr) -> bool {
        // SIZE, LBOUND and UBOUND of a dummy array that is neither ALLOCATABLE nor a
        // pointer ask its shape, fixed on entry even where its values change (`tmp`
        // for `a = cshift(a, 1)` of an assumed-shape `a`).
        if let ExprKind::Intrinsic { op, args, .. } = &e.kind
            && matches!(op, Intrinsic::Size | Intrinsic::Lbound | Intrinsic::Ubound)
            && let Some((array, rest)) = args.split_first()
            && let ExprKind::Var(n) = &array.value.kind
            && self
                .symbols
                .get(n)
                .is_some_and(|s| s.is_dummy() && s.is_array())
            && !self
                .allocatable_dummies
                .contains(crate::il::key_ref(n).as_ref())
        {
            return rest.iter().all(|a| self.is_specification(&a.value));
        }
        match &e.kind {
            ExprKind::Var(n) => self.symbols.get(n).is_some_and(|s| {
                s.kind == crate::il::SymbolKind::Constant
                    || (s.is_dummy() && !self.assigned.contains(crate::il::key_ref(n).as_ref()))
            }),
            ExprKind::Index(n, subs) => {
                self.is_specification(&Expr::var(n))
                    && subs.iter().all(|x| self.is_specification(x))
            }
            ExprKind::Call(..) => false,
            ExprKind::Intrinsic { args, .. } => {
                args.iter().all(|a| self.is_specification(&a.value))
            }
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => self.is_specification(x),
            ExprKind::Binary(_, a, b) => self.is_specification(a) && self.is_specification(b),
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => true,
            // Anything else: every name in it must be one.
            _ => {
                let mut ok = true;
                crate::il::visit::walk_expr(e, &mut |x| match &x.kind {
                    ExprKind::Var(n) | ExprKind::Index(n, _) => {
                        ok &= self.is_specification(&Expr::var(n));
                    }
                    ExprKind::Call(..) => ok = false,
                    _ => {}
                });
                ok
            }
        }
    }

    pub(super) fn ctor_item_error(&self, item: &Expr) -> Diagnostic {
        self.err(
            item.span,
            "an array inside an array constructor is not supported".into(),
            "list scalar items only, e.g. `[a(1), a(2), x]`",
        )
    }

    /// `s = sum(x)` (and PRODUCT, MAXVAL, MINVAL, DOT_PRODUCT) accumulates straight into
    /// `s` when `s` is not read by the argument.
    pub(super) fn direct_reduction(&mut self, lhs: &Expr, rhs: &Expr) -> R<Option<Vec<Stmt>>> {
        let ExprKind::Intrinsic { op, args, .. } = &rhs.kind else {
            return Ok(None);
        };
        let Some(target) = lhs.base_name() else {
            return Ok(None);
        };
        let reads_target = crate::il::visit::names_read(rhs)
            .iter()
            .any(|n| key(n) == key(target))
            || matches!(&lhs.kind, ExprKind::Index(_, subs) if subs.iter().any(|s| self.has(s)));
        if reads_target {
            return Ok(None);
        }
        let red = match op {
            Intrinsic::Sum | Intrinsic::Product | Intrinsic::Maxval | Intrinsic::Minval => {
                self.reduction_args(*op, args, rhs.span)?
            }
            Intrinsic::DotProduct => self.dot_product_args(args, rhs.span)?,
            _ => return Ok(None),
        };
        if red.dim.is_some() {
            return Ok(None);
        }
        let op = if *op == Intrinsic::DotProduct {
            Intrinsic::Sum
        } else {
            *op
        };
        let mut out = Vec::new();
        self.reduction(op, &red, &[], 0, &mut out, Some(lhs.clone()))?;
        Ok(Some(out))
    }

    /// For each loop dimension of an array assignment: run it backwards? Decided by the
    /// references to the assigned array in the body; refused when no order is right.
    pub(super) fn loop_directions(
        &self,
        target: &Expr,
        body: &[Stmt],
        value: &Expr,
        ldims: &[LoopDim],
        span: Span,
    ) -> R<Vec<bool>> {
        let rank = ldims.len();
        let mut reversed: Vec<Option<bool>> = vec![None; rank];
        let ExprKind::Index(name, target_subs) = &target.kind else {
            return Ok(vec![false; rank]);
        };
        // Which subscripts of the target are loop dimensions (the others are fixed).
        let mut loop_dim_of_sub = Vec::new();
        let mut looped = 0;
        for s in target_subs {
            // A subscript depending on a loop index (all loop offsets are in terms of
            // the loop indices) is a loop dimension.
            let is_loop = looped < rank
                && self.loop_vars[..rank].iter().any(|v| {
                    crate::il::visit::names_read(s)
                        .iter()
                        .any(|n| key(n) == key(v))
                });
            loop_dim_of_sub.push(is_loop.then(|| {
                looped += 1;
                looped - 1
            }));
        }
        let mut found: Vec<Expr> = Vec::new();
        refs_to(value, name, &mut found);
        crate::il::visit::walk_stmts(body, &mut |s| {
            for e in crate::il::visit::stmt_exprs(s) {
                refs_to(e, name, &mut found);
            }
        });
        let alias = || {
            self.err(
                span,
                format!(
                    "`{name}` is assigned and read at other elements in the same array statement, in an order no loop direction can keep"
                ),
                "assign the right-hand side to a temporary array first, then copy it",
            )
        };
        for r in &found {
            let ExprKind::Index(_, subs) = &r.kind else {
                return Err(alias());
            };
            if subs.len() != target_subs.len() {
                return Err(alias());
            }
            let mut diffs = Vec::new();
            // A fixed subscript that differs by an unknown amount (`g(k, j)` read where
            // `g(i, j)` is written, the rows of an elimination step) reads the written
            // element itself or another part of the array: either is right when every
            // loop subscript is the same, so that an element is read only in the
            // iteration that writes it.
            let mut unknown_fixed = false;
            for ((a, b), l) in subs.iter().zip(target_subs).zip(&loop_dim_of_sub) {
                match constant_difference(a, b) {
                    Some(d) => diffs.push(d),
                    None if l.is_none() && !self.reads_loop_index(a, rank) => {
                        unknown_fixed = true;
                        diffs.push(0);
                    }
                    None => return Err(alias()),
                }
            }
            if unknown_fixed {
                if diffs.iter().any(|d| *d != 0) {
                    return Err(alias());
                }
                continue;
            }
            // A different fixed subscript: another part of the array, never written.
            if diffs
                .iter()
                .zip(&loop_dim_of_sub)
                .any(|(d, l)| *d != 0 && l.is_none())
            {
                continue;
            }
            let moving: Vec<(usize, i64)> = diffs
                .iter()
                .zip(&loop_dim_of_sub)
                .filter(|(d, _)| **d != 0)
                .filter_map(|(d, l)| l.map(|l| (l, *d)))
                .collect();
            match moving.as_slice() {
                [] => {}
                [(k, d)] => {
                    if ldims[*k].stride.is_some() {
                        return Err(alias());
                    }
                    let want = *d < 0;
                    match reversed[*k] {
                        Some(w) if w != want => return Err(alias()),
                        _ => reversed[*k] = Some(want),
                    }
                }
                _ => return Err(alias()),
            }
        }
        Ok(reversed.into_iter().map(|r| r.unwrap_or(false)).collect())
    }
}

impl Scalarizer<'_> {
    /// Does `e` read one of the `rank` innermost loop indices of the statement?
    fn reads_loop_index(&self, e: &Expr, rank: usize) -> bool {
        crate::il::visit::names_read(e)
            .iter()
            .any(|n| self.loop_vars[..rank].iter().any(|v| key(n) == key(v)))
    }
}

pub(super) fn is_implied_do(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::ImpliedDo(_))
}
