//! The scalar element of an array expression at given offsets: references,
//! constructors, elementwise operations, reductions and the transformational intrinsics.

use super::*;

impl Scalarizer<'_> {
    // ----- elements -----

    /// The element of `e` at 0-based `offsets` (one per dimension of `e`). Statements
    /// that must run first for this element (inner accumulations) go to `body`; loop
    /// indices from `depth` on are free.
    pub(super) fn element(
        &mut self,
        e: &Expr,
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
    ) -> R<Expr> {
        if !self.has(e) {
            return Ok(e.clone());
        }
        let span = e.span;
        let at = |kind: ExprKind| Expr { kind, span };
        match &e.kind {
            ExprKind::Var(n) => {
                let dims = self.decl_dims(n, span)?;
                let subs = dims
                    .iter()
                    .zip(offsets)
                    .map(|(d, o)| d.index_at(o))
                    .collect();
                Ok(at(ExprKind::Index(n.clone(), subs)))
            }
            ExprKind::Index(n, subs) => {
                let dims = self.section_dims(n, subs, span)?;
                let mut ranges = dims.iter().zip(offsets);
                let mut out = Vec::with_capacity(subs.len());
                for s in subs {
                    if let ExprKind::Range { .. } = s.kind {
                        let (d, o) = ranges.next().expect("one offset per triplet");
                        out.push(d.index_at(o));
                    } else if self.rank(s)? == 1 {
                        // A vector subscript: its element at this position.
                        let (_, o) = ranges.next().expect("one offset per vector subscript");
                        out.push(self.element(s, std::slice::from_ref(o), depth, body)?);
                    } else {
                        out.push(self.element(s, &[], depth, body)?);
                    }
                }
                Ok(at(ExprKind::Index(n.clone(), out)))
            }
            ExprKind::ArrayCtor(items) => {
                let off = offsets.first().cloned().unwrap_or_else(|| Expr::int(0));
                if let Some(item) = self.implied_do_element(items, &off)? {
                    return self.element(&item, &[], depth, body);
                }
                if let Some(k) = offsets.first().and_then(int_literal)
                    && !items.iter().any(assign::is_implied_do)
                    && let Some(item) = usize::try_from(k).ok().and_then(|k| items.get(k))
                {
                    if self.rank(item)? != 0 {
                        return Err(self.ctor_item_error(item));
                    }
                    return self.element(item, &[], depth, body);
                }
                let name = self.hoist_ctor(items, span)?;
                let index = simplify(&Expr::binary(BinOp::Add, off, Expr::int(1)));
                Ok(at(ExprKind::Index(name, vec![index])))
            }
            ExprKind::Paren(x) => Ok(at(ExprKind::Paren(Box::new(
                self.element(x, offsets, depth, body)?,
            )))),
            ExprKind::Unary(op, x) => Ok(at(ExprKind::Unary(
                *op,
                Box::new(self.element(x, offsets, depth, body)?),
            ))),
            ExprKind::Binary(op, a, b) => {
                let ea = self.operand(a, offsets, depth, body)?;
                let eb = self.operand(b, offsets, depth, body)?;
                Ok(at(ExprKind::Binary(*op, Box::new(ea), Box::new(eb))))
            }
            ExprKind::Call(name, args)
                if !offsets.is_empty() && self.elemental_dims(name, args)?.is_some() =>
            {
                self.elemental_element(name, args, offsets, depth, body, span)
            }
            ExprKind::Call(name, args)
                if self
                    .array_functions
                    .contains_key(crate::il::key_ref(name).as_ref()) =>
            {
                self.array_call_element(name, args, offsets, depth, body, span)
            }
            ExprKind::Call(name, args) => {
                let out = self.actual_arguments(args, depth, body)?;
                let call = at(ExprKind::Call(name.clone(), out));
                if offsets.is_empty() && !self.in_elementwise {
                    return Ok(call);
                }
                // Inside an elementwise loop the call is the same for every element:
                // made once, before the statement.
                let ty = self.type_of(&call);
                let value = self.temp(&format!("{name}_val"), ty);
                let s = self.assign(Expr::var(&value), call);
                self.before.push(s);
                Ok(Expr::var(value))
            }
            // `names(:)(1:2)`: the substring of each element.
            ExprKind::Substring { base, lower, upper } => Ok(at(ExprKind::Substring {
                base: Box::new(self.element(base, offsets, depth, body)?),
                lower: lower.clone(),
                upper: upper.clone(),
            })),
            ExprKind::ImpliedDo(_) => Err(self.err(
                span,
                "an implied DO is only allowed inside an array constructor".into(),
                "write it between `[` and `]`, e.g. `[(x(i), i = 1, n)]`",
            )),
            ExprKind::Range { .. } => Err(self.err(
                span,
                "a subscript triplet is only allowed as a subscript".into(),
                "write it inside an array reference, e.g. `a(1:n)`",
            )),
            ExprKind::Intrinsic { op, args, spelling } => {
                self.intrinsic_element(*op, args, spelling, offsets, depth, body, span)
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {
                Ok(e.clone())
            }
        }
    }

    /// The actual arguments of a call of a user procedure: plain arrays and sections
    /// passed as they are, scalar expressions taken whole (what they need first goes to
    /// `pre`), array expressions evaluated into temporaries.
    pub(super) fn actual_arguments(
        &mut self,
        args: &[Arg],
        depth: usize,
        pre: &mut Vec<Stmt>,
    ) -> R<Vec<Arg>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            let value = if !self.has(&a.value) || self.is_plain_array_ref(&a.value) {
                a.value.clone()
            } else if self.rank(&a.value)? == 0 {
                self.element(&a.value, &[], depth, pre)?
            } else {
                self.array_argument(&a.value)?
            };
            out.push(Arg {
                keyword: a.keyword.clone(),
                value,
            });
        }
        Ok(out)
    }

    /// An operand of an elementwise operation: a scalar is broadcast.
    pub(super) fn operand(
        &mut self,
        e: &Expr,
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
    ) -> R<Expr> {
        if self.rank(e)? == 0 {
            // A scalar broadcast inside an elementwise loop: the same for every element.
            let outer = self.in_elementwise;
            self.in_elementwise |= !offsets.is_empty();
            let value = self.element(e, &[], depth, body);
            self.in_elementwise = outer;
            value
        } else {
            self.element(e, offsets, depth, body)
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn intrinsic_element(
        &mut self,
        op: Intrinsic,
        args: &[Arg],
        spelling: &Option<Box<str>>,
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Expr> {
        if let Some(which) = logical::Logical::of(op, spelling)
            && logical::has_dim(args)
        {
            return self.logical_element(which, args, offsets, depth, body, span);
        }
        match op {
            Intrinsic::Sum
            | Intrinsic::Product
            | Intrinsic::Maxval
            | Intrinsic::Minval
            | Intrinsic::Maxloc
            | Intrinsic::Minloc
            | Intrinsic::DotProduct => {
                let (red, op) = if op == Intrinsic::DotProduct {
                    (self.dot_product_args(args, span)?, Intrinsic::Sum)
                } else {
                    (self.reduction_args(op, args, span)?, op)
                };
                if red.dim.is_none() {
                    // Independent of the element: computed once, before the statement.
                    let mut pre = Vec::new();
                    let value = self.reduction(op, &red, &[], 0, &mut pre, None)?;
                    self.before.extend(pre);
                    match (op, value.base_name(), offsets.first()) {
                        // MAXLOC / MINLOC without DIM: the array of positions.
                        (Intrinsic::Maxloc | Intrinsic::Minloc, Some(name), Some(o)) => {
                            let index =
                                simplify(&Expr::binary(BinOp::Add, o.clone(), Expr::int(1)));
                            Ok(at_index(name, index, span))
                        }
                        _ => Ok(value),
                    }
                } else {
                    self.reduction(op, &red, offsets, depth, body, None)
                }
            }
            Intrinsic::Matmul => self.matmul_element(args, offsets, depth, body, span),
            Intrinsic::Transpose => {
                let swapped = [offsets[1].clone(), offsets[0].clone()];
                self.element(&args[0].value, &swapped, depth, body)
            }
            Intrinsic::Spread => {
                let (source, dim, _) = self.spread_args(args, span)?;
                let mut inner = offsets.to_vec();
                inner.remove(dim - 1);
                let source = source.clone();
                self.operand(&source, &inner, depth, body)
            }
            Intrinsic::Reshape => {
                let extents = self.reshape_extents(args, span)?;
                let source = args
                    .iter()
                    .find(|a| a.keyword.as_deref().map(key).as_deref() == Some("source"))
                    .or_else(|| args.iter().find(|a| a.keyword.is_none()))
                    .map(|a| a.value.clone())
                    .ok_or_else(|| {
                        self.err(
                            span,
                            "RESHAPE needs SOURCE".into(),
                            "give the array to reshape",
                        )
                    })?;
                // Column-major linear position, then the source's offsets.
                let mut linear_pos = Expr::int(0);
                let mut stride = Expr::int(1);
                for (o, ext) in offsets.iter().zip(&extents) {
                    linear_pos = simplify(&Expr::binary(
                        BinOp::Add,
                        linear_pos,
                        Expr::binary(BinOp::Mul, paren(o.clone()), paren(stride.clone())),
                    ));
                    stride = simplify(&Expr::binary(BinOp::Mul, paren(stride), paren(ext.clone())));
                }
                let sdims = self.dims_of(&source)?;
                let mut soffs = Vec::new();
                let mut below = Expr::int(1);
                for (j, d) in sdims.iter().enumerate() {
                    let ext = d.extent();
                    let quotient = if int_literal(&below) == Some(1) {
                        linear_pos.clone()
                    } else {
                        Expr::binary(BinOp::Div, paren(linear_pos.clone()), paren(below.clone()))
                    };
                    soffs.push(if j + 1 == sdims.len() {
                        quotient
                    } else {
                        Expr::intrinsic(Intrinsic::Mod, vec![quotient, ext.clone()])
                    });
                    below = simplify(&Expr::binary(BinOp::Mul, paren(below), paren(ext)));
                }
                self.element(&source, &soffs, depth, body)
            }
            Intrinsic::Cshift | Intrinsic::Eoshift => {
                self.shift_element(op, args, offsets, depth, body, span)
            }
            Intrinsic::Pack => Err(self.err(
                span,
                "PACK is supported only as the whole right-hand side of an assignment".into(),
                "assign it to an array first: `v = pack(a, m)`",
            )),
            // `shape(a)` at offset k is `size(a, k + 1)`; LBOUND and UBOUND alike.
            Intrinsic::Lbound | Intrinsic::Ubound | Intrinsic::Shape if args.len() == 1 => {
                let off = offsets.first().cloned().unwrap_or_else(|| Expr::int(0));
                let dim = simplify(&Expr::binary(crate::il::BinOp::Add, off, Expr::int(1)));
                let op = if op == Intrinsic::Shape {
                    Intrinsic::Size
                } else {
                    op
                };
                Ok(Expr::intrinsic(op, vec![args[0].value.clone(), dim]))
            }
            Intrinsic::Size | Intrinsic::Lbound | Intrinsic::Ubound | Intrinsic::Shape => Err(self
                .err(
                    span,
                    "this inquiry is not supported in an array expression".into(),
                    "give the dimension, e.g. `size(a, 1)`",
                )),
            _ => {
                // Elementwise intrinsic.
                let mut out = Vec::with_capacity(args.len());
                for a in args {
                    let value = self.operand(&a.value, offsets, depth, body)?;
                    out.push(Arg {
                        keyword: a.keyword.clone(),
                        value,
                    });
                }
                Ok(Expr {
                    kind: ExprKind::Intrinsic {
                        op,
                        args: out,
                        spelling: spelling.clone(),
                    },
                    span,
                })
            }
        }
    }

    pub(super) fn hoist_ctor(&mut self, items: &[Expr], span: Span) -> R<String> {
        let ty = items
            .iter()
            .map(|i| self.type_of(i))
            .reduce(promote)
            .unwrap_or(ScalarType::Real(4));
        if items.iter().any(assign::is_implied_do) {
            let count = self.ctor_count(items)?;
            if !self.is_specification(&count) {
                return Err(self.err(
                    span,
                    "this array constructor needs a temporary array whose size the procedure computes".into(),
                    "assign its elements in a DO loop instead, or give its implied DOs bounds from constants and arguments",
                ));
            }
            let name = self.namer.fresh("arr");
            self.add_local(
                &name,
                ty,
                vec![DimSpec {
                    lower: None,
                    upper: Bound::Expr(count),
                }],
            );
            let counter = self.temp(&format!("{name}_n"), ScalarType::Integer(4));
            let start = self.assign(Expr::var(&counter), Expr::int(0));
            self.before.push(start);
            let fill = self.fill_ctor(&name, &counter, items)?;
            self.before.extend(fill);
            return Ok(name);
        }
        let name = self.namer.fresh("arr");
        self.add_local(
            &name,
            ty,
            vec![DimSpec {
                lower: None,
                upper: Bound::Expr(Expr::int(items.len() as i64)),
            }],
        );
        for (k, item) in items.iter().enumerate() {
            if self.rank(item)? != 0 {
                return Err(self.ctor_item_error(item));
            }
            let mut pre = Vec::new();
            let value = self.element(item, &[], 0, &mut pre)?;
            self.before.extend(pre);
            let target = Expr::new(ExprKind::Index(name.clone(), vec![Expr::int(k as i64 + 1)]));
            let s = self.assign(target, value);
            self.before.push(s);
        }
        Ok(name)
    }

    pub(super) fn zero(ty: ScalarType) -> Expr {
        match ty {
            ScalarType::Real(k) => Expr::real("0.0", k),
            _ => Expr::int(0),
        }
    }

    pub(super) fn one(ty: ScalarType) -> Expr {
        match ty {
            ScalarType::Real(k) => Expr::real("1.0", k),
            _ => Expr::int(1),
        }
    }

    /// Emits into `out` the loops of a reduction and returns the expression holding its
    /// value (`into` when given). `outer` are the offsets of the dimensions not reduced.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reduction(
        &mut self,
        op: Intrinsic,
        red: &Reduction,
        outer: &[Expr],
        depth: usize,
        out: &mut Vec<Stmt>,
        into: Option<Expr>,
    ) -> R<Expr> {
        let adims = self.dims_of(&red.array)?;
        let rank = adims.len();
        let reduced: Vec<usize> = match red.dim {
            Some(d) => vec![d - 1],
            None => (0..rank).collect(),
        };
        let is_loc = matches!(op, Intrinsic::Maxloc | Intrinsic::Minloc);
        let ty = self.type_of(&red.array);
        // Offsets of every dimension of the array: the outer ones, then the loop's.
        let mut full: Vec<Option<Expr>> = vec![None; rank];
        let mut outer_it = outer.iter();
        for (k, slot) in full.iter_mut().enumerate() {
            if !reduced.contains(&k) {
                *slot = outer_it.next().cloned();
            }
        }
        let mut vars = Vec::new();
        for (j, &k) in reduced.iter().enumerate() {
            let v = self.loop_var(depth + j);
            full[k] = Some(adims[k].offset(&v));
            vars.push(v);
        }
        let full: Vec<Expr> = full
            .into_iter()
            .map(|o| o.unwrap_or_else(|| Expr::int(0)))
            .collect();
        let inner_depth = depth + reduced.len();
        let mut inner = Vec::new();
        let value = self.element(&red.array, &full, inner_depth, &mut inner)?;
        let mask = match &red.mask {
            Some(m) if self.rank(m)? == 0 => Some(self.element(m, &[], inner_depth, &mut inner)?),
            Some(m) => Some(self.element(m, &full, inner_depth, &mut inner)?),
            None => None,
        };
        let base = match op {
            Intrinsic::Sum => "total",
            Intrinsic::Product => "prod",
            Intrinsic::Maxval => "vmax",
            Intrinsic::Minval => "vmin",
            Intrinsic::Maxloc => "imax",
            _ => "imin",
        };
        let first = || -> Vec<Expr> {
            let mut f = full.clone();
            for &k in &reduced {
                f[k] = Expr::int(0);
            }
            f
        };
        let (acc, update) = if is_loc {
            let best = self.temp(
                if op == Intrinsic::Maxloc {
                    "vmax"
                } else {
                    "vmin"
                },
                ty,
            );
            // Without DIM, one position per dimension: an integer array `imax(rank)`.
            let every_dim = red.dim.is_none();
            let loc = match into {
                Some(e) => e,
                None if every_dim => {
                    let name = self.namer.fresh(base);
                    let dims = vec![DimSpec {
                        lower: None,
                        upper: Bound::Expr(Expr::int(rank as i64)),
                    }];
                    self.add_local(&name, ScalarType::Integer(4), dims);
                    Expr::var(name)
                }
                None => Expr::var(self.temp(base, ScalarType::Integer(4))),
            };
            let slot = |loc: &Expr, j: usize| match (every_dim, loc.base_name()) {
                (true, Some(n)) => {
                    Expr::new(ExprKind::Index(n.into(), vec![Expr::int(j as i64 + 1)]))
                }
                _ => loc.clone(),
            };
            let mut pre = Vec::new();
            let first_value = self.element(&red.array, &first(), depth, &mut pre)?;
            out.extend(pre);
            out.push(self.assign(Expr::var(&best), first_value));
            // With MASK the position stays 0 until an element is selected (F2018 16.9.135).
            let start = if red.mask.is_some() { 0 } else { 1 };
            for j in 0..reduced.len() {
                out.push(self.assign(slot(&loc, j), Expr::int(start)));
            }
            let cmp = if op == Intrinsic::Maxloc {
                BinOp::Gt
            } else {
                BinOp::Lt
            };
            let mut then = vec![self.assign(Expr::var(&best), value.clone())];
            for (j, &k) in reduced.iter().enumerate() {
                let position = simplify(&Expr::binary(BinOp::Add, full[k].clone(), Expr::int(1)));
                then.push(self.assign(slot(&loc, j), position));
                if !every_dim {
                    break;
                }
            }
            let better = Expr::binary(cmp, value, Expr::var(&best));
            let test = match mask {
                Some(m) => Expr::binary(
                    BinOp::And,
                    m,
                    Expr::new(ExprKind::Paren(Box::new(Expr::binary(
                        BinOp::Or,
                        Expr::binary(BinOp::Eq, slot(&loc, 0), Expr::int(0)),
                        better,
                    )))),
                ),
                None => better,
            };
            let update = self.new_stmt(StmtKind::If {
                arms: vec![(test, then)],
                else_body: None,
                logical_if: false,
                name: None,
            });
            (loc, update)
        } else {
            let acc = match into {
                Some(e) => e,
                None => Expr::var(self.temp(base, ty)),
            };
            let init = match op {
                Intrinsic::Sum => Self::zero(ty),
                Intrinsic::Product => Self::one(ty),
                // With MASK, the extreme of no element: -HUGE for MAXVAL, HUGE for MINVAL.
                _ if red.mask.is_some() => {
                    let huge = Expr::new(ExprKind::Intrinsic {
                        op: Intrinsic::Passive(crate::il::PassiveIntrinsic {
                            result: crate::il::ScalarResult::OfArgument,
                            inquiry: true,
                            reduction: false,
                        }),
                        args: vec![Arg::positional(acc.clone())],
                        spelling: Some("huge".into()),
                    });
                    if op == Intrinsic::Maxval {
                        Expr::unary(UnOp::Neg, huge)
                    } else {
                        huge
                    }
                }
                _ => {
                    let mut pre = Vec::new();
                    let v = self.element(&red.array, &first(), depth, &mut pre)?;
                    out.extend(pre);
                    v
                }
            };
            out.push(self.assign(acc.clone(), init));
            let new_value = match op {
                Intrinsic::Sum => Expr::binary(BinOp::Add, acc.clone(), paren_sum(value)),
                Intrinsic::Product => Expr::binary(BinOp::Mul, acc.clone(), paren_product(value)),
                Intrinsic::Maxval => Expr::intrinsic(Intrinsic::Max, vec![acc.clone(), value]),
                _ => Expr::intrinsic(Intrinsic::Min, vec![acc.clone(), value]),
            };
            let mut update = self.assign(acc.clone(), new_value);
            if let Some(mask) = mask {
                update = self.new_stmt(StmtKind::If {
                    arms: vec![(mask, vec![update])],
                    else_body: None,
                    logical_if: true,
                    name: None,
                });
            }
            (acc, update)
        };
        inner.push(update);
        let mut nest = inner;
        for (j, &k) in reduced.iter().enumerate() {
            let l = self.do_loop(&vars[j], &adims[k], false, nest);
            nest = vec![l];
        }
        out.extend(nest);
        Ok(acc)
    }

    pub(super) fn matmul_element(
        &mut self,
        args: &[Arg],
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Expr> {
        let (a, b) = (args[0].value.clone(), args[1].value.clone());
        let da = self.dims_of(&a)?;
        let db = self.dims_of(&b)?;
        let inner_dim = da.last().cloned().ok_or_else(|| {
            self.err(
                span,
                "MATMUL needs arrays".into(),
                "check the arguments of MATMUL",
            )
        })?;
        let v = self.loop_var(depth);
        let k = inner_dim.offset(&v);
        let (a_offs, b_offs) = match (da.len(), db.len()) {
            (2, 2) => (
                vec![offsets[0].clone(), k.clone()],
                vec![k, offsets[1].clone()],
            ),
            (1, 2) => (vec![k.clone()], vec![k, offsets[0].clone()]),
            _ => (vec![offsets[0].clone(), k.clone()], vec![k]),
        };
        let ty = promote(self.type_of(&a), self.type_of(&b));
        let acc = self.temp("mm", ty);
        let mut inner = Vec::new();
        let ea = self.element(&a, &a_offs, depth + 1, &mut inner)?;
        let eb = self.element(&b, &b_offs, depth + 1, &mut inner)?;
        body.push(self.assign(Expr::var(&acc), Self::zero(ty)));
        let product = Expr::binary(BinOp::Mul, paren_product(ea), paren_product(eb));
        let update = self.assign(
            Expr::var(&acc),
            Expr::binary(BinOp::Add, Expr::var(&acc), product),
        );
        inner.push(update);
        let l = self.do_loop(&v, &inner_dim, false, inner);
        body.push(l);
        Ok(Expr::var(acc))
    }
}

fn at_index(name: &str, index: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Index(name.into(), vec![index]),
        span,
    }
}
