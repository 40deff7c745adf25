//! Shapes of array expressions: index ranges ([`LoopDim`]), readable integer index
//! arithmetic, and the dimensions of references and intrinsics.

use super::*;

/// The index range of one dimension of an array expression: `lo`, `lo + stride`, ...,
/// up to `hi`.
#[derive(Clone, Debug)]
pub(super) struct LoopDim {
    pub(super) lo: Expr,
    pub(super) hi: Expr,
    pub(super) stride: Option<Expr>,
}

impl LoopDim {
    pub(super) fn from_one(extent: Expr) -> LoopDim {
        LoopDim {
            lo: Expr::int(1),
            hi: extent,
            stride: None,
        }
    }
    /// The 0-based position of index `var` in this range.
    pub(super) fn offset(&self, var: &str) -> Expr {
        let diff = Expr::binary(BinOp::Sub, Expr::var(var), self.lo.clone());
        match &self.stride {
            None => simplify(&diff),
            Some(st) => Expr::binary(BinOp::Div, paren(simplify(&diff)), paren(st.clone())),
        }
    }
    /// The index at 0-based position `off`.
    pub(super) fn index_at(&self, off: &Expr) -> Expr {
        let step = match &self.stride {
            None => off.clone(),
            Some(st) => Expr::binary(BinOp::Mul, paren(off.clone()), paren(st.clone())),
        };
        simplify(&Expr::binary(BinOp::Add, step, self.lo.clone()))
    }
    pub(super) fn extent(&self) -> Expr {
        let span = Expr::binary(BinOp::Sub, self.hi.clone(), self.lo.clone());
        match &self.stride {
            None => simplify(&Expr::binary(BinOp::Add, span, Expr::int(1))),
            Some(st) => simplify(&Expr::binary(
                BinOp::Add,
                Expr::binary(BinOp::Div, paren(simplify(&span)), paren(st.clone())),
                Expr::int(1),
            )),
        }
    }
}

pub(in crate::prepare) fn paren(e: Expr) -> Expr {
    match e.kind {
        ExprKind::Var(_)
        | ExprKind::Index(..)
        | ExprKind::Paren(_)
        | ExprKind::Intrinsic { .. }
        | ExprKind::Call(..) => e,
        ExprKind::Int(ref t) if !t.starts_with('-') => e,
        _ => Expr::new(ExprKind::Paren(Box::new(e))),
    }
}

// ----- integer index arithmetic, kept readable -----

/// An integer expression as `constant + Σ coefficient·atom`, atoms in order of first
/// appearance (so the loop index written first stays first).
pub(super) struct Linear {
    pub(super) terms: Vec<(String, Expr, i64)>,
    pub(super) constant: i64,
}

pub(in crate::prepare) fn int_literal(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(t) if !t.contains('_') => t.parse().ok(),
        ExprKind::Paren(x) => int_literal(x),
        ExprKind::Unary(UnOp::Neg, x) => int_literal(x).map(|v| -v),
        _ => None,
    }
}

pub(super) fn linear(e: &Expr) -> Linear {
    let atom = |e: &Expr| Linear {
        terms: vec![(crate::il::visit::expr_key(e), e.clone(), 1)],
        constant: 0,
    };
    match &e.kind {
        ExprKind::Int(_) => match int_literal(e) {
            Some(v) => Linear {
                terms: Vec::new(),
                constant: v,
            },
            None => atom(e),
        },
        ExprKind::Paren(x) | ExprKind::Unary(UnOp::Plus, x) => linear(x),
        ExprKind::Unary(UnOp::Neg, x) => scale(linear(x), -1),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let mut l = linear(a);
            let r = linear(b);
            let sign = if *op == BinOp::Add { 1 } else { -1 };
            l.constant += sign * r.constant;
            for (k, x, c) in r.terms {
                match l.terms.iter_mut().find(|(lk, _, _)| *lk == k) {
                    Some(t) => t.2 += sign * c,
                    None => l.terms.push((k, x, sign * c)),
                }
            }
            l
        }
        ExprKind::Binary(BinOp::Mul, a, b) => match (int_literal(a), int_literal(b)) {
            (Some(c), _) => scale(linear(b), c),
            (_, Some(c)) => scale(linear(a), c),
            _ => atom(e),
        },
        _ => atom(e),
    }
}

pub(super) fn scale(mut l: Linear, c: i64) -> Linear {
    l.constant *= c;
    for t in &mut l.terms {
        t.2 *= c;
    }
    l
}

pub(super) fn from_linear(l: Linear) -> Expr {
    let mut out: Option<Expr> = None;
    for (_, atom, c) in l.terms.into_iter().filter(|t| t.2 != 0) {
        let magnitude = c.abs();
        let term = if magnitude == 1 {
            atom
        } else {
            Expr::binary(BinOp::Mul, Expr::int(magnitude), atom)
        };
        out = Some(match out {
            None if c < 0 => Expr::unary(UnOp::Neg, term),
            None => term,
            Some(acc) if c < 0 => Expr::binary(BinOp::Sub, acc, term),
            Some(acc) => Expr::binary(BinOp::Add, acc, term),
        });
    }
    match out {
        None => Expr::int(l.constant),
        Some(e) if l.constant > 0 => Expr::binary(BinOp::Add, e, Expr::int(l.constant)),
        Some(e) if l.constant < 0 => Expr::binary(BinOp::Sub, e, Expr::int(-l.constant)),
        Some(e) => e,
    }
}

/// `e` with its integer additions folded: `i + 1 - 1` is `i`, `lo + (i - lo)` is `i`.
pub(super) fn simplify(e: &Expr) -> Expr {
    from_linear(linear(e))
}

/// `a - b` when it is an integer constant.
pub(super) fn constant_difference(a: &Expr, b: &Expr) -> Option<i64> {
    let l = linear(&Expr::binary(BinOp::Sub, a.clone(), b.clone()));
    l.terms.iter().all(|t| t.2 == 0).then_some(l.constant)
}

impl Scalarizer<'_> {
    // ----- shapes -----

    pub(super) fn rank(&self, e: &Expr) -> R<usize> {
        Ok(self.dims_of(e)?.len())
    }

    /// The declared index ranges of array `name`.
    pub(super) fn decl_dims(&self, name: &str, span: Span) -> R<Vec<LoopDim>> {
        let Some(sym) = self.symbols.get(name) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (k, d) in sym.dims.iter().enumerate() {
            let inquiry = |op: Intrinsic| {
                Expr::intrinsic(op, vec![Expr::var(&sym.name), Expr::int(k as i64 + 1)])
            };
            let trusted = |e: &Expr| {
                crate::il::visit::names_read(e)
                    .iter()
                    .all(|n| !self.assigned.contains(crate::il::key_ref(n).as_ref()))
            };
            out.push(match &d.upper {
                // An assumed-shape dummy starts at 1 (or its declared lower bound); an
                // ALLOCATABLE one has the caller's bounds.
                Bound::Colon
                    if sym.is_dummy() && !self.allocatable_dummies.contains(&key(&sym.name)) =>
                {
                    LoopDim {
                        lo: d.lower.clone().unwrap_or_else(|| Expr::int(1)),
                        hi: if d.lower.is_none() {
                            inquiry(Intrinsic::Size)
                        } else {
                            inquiry(Intrinsic::Ubound)
                        },
                        stride: None,
                    }
                }
                Bound::Colon => LoopDim {
                    lo: inquiry(Intrinsic::Lbound),
                    hi: inquiry(Intrinsic::Ubound),
                    stride: None,
                },
                Bound::Star => {
                    return Err(self.err(
                        span,
                        format!("the assumed-size array `{name}` has no upper bound to work on whole"),
                        &format!("give the upper bound of its last dimension in a section, e.g. `{name}(1:n)`"),
                    ));
                }
                Bound::Expr(upper) => {
                    let lo = d.lower.clone().unwrap_or_else(|| Expr::int(1));
                    if trusted(&lo) && trusted(upper) {
                        LoopDim {
                            lo,
                            hi: upper.clone(),
                            stride: None,
                        }
                    } else {
                        LoopDim {
                            lo: inquiry(Intrinsic::Lbound),
                            hi: inquiry(Intrinsic::Ubound),
                            stride: None,
                        }
                    }
                }
            });
        }
        Ok(out)
    }

    /// The dimensions of a section `name(subs)`: one per triplet subscript or vector
    /// subscript (an integer array of rank one: `a(idx)`, `a(idx(2:m), j)`).
    pub(super) fn section_dims(&self, name: &str, subs: &[Expr], span: Span) -> R<Vec<LoopDim>> {
        let mut out = Vec::new();
        let mut decl: Option<Vec<LoopDim>> = None;
        for (k, s) in subs.iter().enumerate() {
            match &s.kind {
                ExprKind::Range {
                    lower,
                    upper,
                    stride,
                } => {
                    let mut declared = |which: usize| -> R<Expr> {
                        if decl.is_none() {
                            decl = Some(self.decl_dims(name, span)?);
                        }
                        let d = &decl.as_ref().expect("just computed")[k];
                        Ok(if which == 0 {
                            d.lo.clone()
                        } else {
                            d.hi.clone()
                        })
                    };
                    let lo = match lower {
                        Some(l) => (**l).clone(),
                        None => declared(0)?,
                    };
                    let hi = match upper {
                        Some(u) => (**u).clone(),
                        None => declared(1)?,
                    };
                    let stride = stride.as_deref().cloned();
                    if stride.as_ref().is_some_and(|s| int_literal(s) == Some(1)) {
                        out.push(LoopDim {
                            lo,
                            hi,
                            stride: None,
                        });
                    } else {
                        out.push(LoopDim { lo, hi, stride });
                    }
                }
                // A vector subscript: the dimension runs over the index vector.
                _ => match self.dims_of(s)?.as_slice() {
                    [] => {}
                    [d] => out.push(d.clone()),
                    _ => {
                        return Err(self.err(
                            s.span,
                            "an array subscript must have rank one".into(),
                            "index with a vector of indices, e.g. `a(idx)` with `integer :: idx(m)`",
                        ));
                    }
                },
            }
        }
        Ok(out)
    }

    /// The dimensions of an array expression; empty for a scalar.
    pub(super) fn dims_of(&self, e: &Expr) -> R<Vec<LoopDim>> {
        match &e.kind {
            ExprKind::Var(n) if is_array_name(&self.symbols, n) => self.decl_dims(n, e.span),
            ExprKind::Index(n, subs) => self.section_dims(n, subs, e.span),
            ExprKind::ArrayCtor(items) => Ok(vec![LoopDim::from_one(self.ctor_count(items)?)]),
            // Only inside a constructor, whose count takes it whole.
            ExprKind::ImpliedDo(_) => Ok(vec![LoopDim::from_one(
                self.ctor_count(std::slice::from_ref(e))?,
            )]),
            ExprKind::Paren(x) | ExprKind::Unary(_, x) => self.dims_of(x),
            ExprKind::Binary(_, a, b) => {
                let da = self.dims_of(a)?;
                let db = self.dims_of(b)?;
                if !da.is_empty() && !db.is_empty() && da.len() != db.len() {
                    return Err(self.err(
                        e.span,
                        format!("the operands have ranks {} and {}", da.len(), db.len()),
                        "operands of an array operation must have the same shape",
                    ));
                }
                Ok(if da.is_empty() { db } else { da })
            }
            ExprKind::Range { .. } => Err(self.err(
                e.span,
                "a subscript triplet is only allowed as a subscript".into(),
                "write it inside an array reference, e.g. `a(1:n)`",
            )),
            ExprKind::Intrinsic { op, args, .. } => self.intrinsic_dims(*op, args, e.span),
            ExprKind::Call(name, args) => match self.elemental_dims(name, args)? {
                Some(d) => Ok(d),
                None => Ok(self.call_dims(name, args, e.span)?.unwrap_or_default()),
            },
            _ => Ok(Vec::new()),
        }
    }

    pub(super) fn arg_dims(&self, args: &[Arg], i: usize, span: Span) -> R<Vec<LoopDim>> {
        match args.get(i) {
            Some(a) => self.dims_of(&a.value),
            None => Err(self.err(
                span,
                "an argument is missing".into(),
                "see the intrinsic's arguments",
            )),
        }
    }

    pub(super) fn intrinsic_dims(
        &self,
        op: Intrinsic,
        args: &[Arg],
        span: Span,
    ) -> R<Vec<LoopDim>> {
        match op {
            Intrinsic::Size | Intrinsic::Present => Ok(Vec::new()),
            Intrinsic::Passive(p) if p.reduction && logical::has_dim(args) => {
                self.logical_dims(args, span)
            }
            Intrinsic::Passive(p) if p.inquiry || p.reduction => Ok(Vec::new()),
            Intrinsic::Lbound | Intrinsic::Ubound if args.len() == 2 => Ok(Vec::new()),
            // One element per dimension of the array.
            Intrinsic::Lbound | Intrinsic::Ubound | Intrinsic::Shape if args.len() == 1 => {
                let rank = self.rank(&args[0].value)?;
                Ok(vec![LoopDim::from_one(Expr::int(rank as i64))])
            }
            Intrinsic::Lbound | Intrinsic::Ubound | Intrinsic::Shape => Err(self.err(
                span,
                "array-valued LBOUND, UBOUND and SHAPE are not supported here".into(),
                "give the dimension, e.g. `lbound(a, 1)`, or use SHAPE only as the shape of RESHAPE",
            )),
            Intrinsic::Sum
            | Intrinsic::Product
            | Intrinsic::Maxval
            | Intrinsic::Minval
            | Intrinsic::Maxloc
            | Intrinsic::Minloc => {
                let red = self.reduction_args(op, args, span)?;
                let mut d = self.dims_of(&red.array)?;
                match red.dim {
                    // One index per dimension.
                    None if matches!(op, Intrinsic::Maxloc | Intrinsic::Minloc) => {
                        Ok(vec![LoopDim::from_one(Expr::int(d.len() as i64))])
                    }
                    None => Ok(Vec::new()),
                    Some(k) => {
                        d.remove(k - 1);
                        Ok(d)
                    }
                }
            }
            Intrinsic::DotProduct => Ok(Vec::new()),
            Intrinsic::Matmul => {
                let a = self.arg_dims(args, 0, span)?;
                let b = self.arg_dims(args, 1, span)?;
                match (a.len(), b.len()) {
                    (2, 2) => Ok(vec![a[0].clone(), b[1].clone()]),
                    (1, 2) => Ok(vec![b[1].clone()]),
                    (2, 1) => Ok(vec![a[0].clone()]),
                    _ => Err(self.err(span, "MATMUL needs arrays of rank 1 or 2, at least one of rank 2".into(), "check the arguments of MATMUL")),
                }
            }
            Intrinsic::Transpose => {
                let a = self.arg_dims(args, 0, span)?;
                if a.len() != 2 {
                    return Err(self.err(span, "TRANSPOSE needs an array of rank 2".into(), "check the argument of TRANSPOSE"));
                }
                Ok(vec![a[1].clone(), a[0].clone()])
            }
            Intrinsic::Spread => {
                let (source, dim, ncopies) = self.spread_args(args, span)?;
                let mut d = self.dims_of(source)?;
                if dim > d.len() + 1 {
                    return Err(self.err(span, "DIM of SPREAD is larger than the rank of the result".into(), "check the arguments of SPREAD"));
                }
                d.insert(dim - 1, LoopDim::from_one(ncopies.clone()));
                Ok(d)
            }
            Intrinsic::Reshape => {
                let extents = self.reshape_extents(args, span)?;
                Ok(extents.into_iter().map(LoopDim::from_one).collect())
            }
            Intrinsic::Pack => self.pack_dims(args, span),
            Intrinsic::Cshift | Intrinsic::Eoshift => {
                let shift = self.shift_args(op, args, span)?;
                Ok(self.dims_of(shift.array)?.iter().map(|d| LoopDim::from_one(d.extent())).collect())
            }
            _ => {
                // Elementwise: the shape of the first array argument.
                for a in args {
                    if matches!(a.keyword.as_deref().map(key).as_deref(), Some("kind")) {
                        continue;
                    }
                    let d = self.dims_of(&a.value)?;
                    if !d.is_empty() {
                        return Ok(d);
                    }
                }
                Ok(Vec::new())
            }
        }
    }

    pub(super) fn dim_value(&self, e: &Expr) -> R<usize> {
        match int_literal(e) {
            Some(v) if v >= 1 => Ok(v as usize),
            _ => Err(self.err(
                e.span,
                "DIM must be an integer constant here".into(),
                "write the dimension as a literal, e.g. `dim=2`",
            )),
        }
    }

    pub(super) fn reduction_args(&self, op: Intrinsic, args: &[Arg], span: Span) -> R<Reduction> {
        let mut array = None;
        let mut dim = None;
        let mut mask = None;
        let mut positional = 0;
        for a in args {
            let slot = match a.keyword.as_deref().map(key).as_deref() {
                Some("array") => 0,
                Some("dim") => 1,
                Some("mask") => 2,
                Some("kind") | Some("back") => {
                    return Err(self.err(
                        span,
                        format!(
                            "the argument `{}=` of {op:?} is not supported",
                            a.keyword.clone().unwrap_or_default()
                        ),
                        "remove it",
                    ));
                }
                Some(_) => 3,
                None => {
                    positional += 1;
                    match positional {
                        1 => 0,
                        // `sum(x, mask)`: a logical second argument is the mask.
                        2 if self.type_of(&a.value) == ScalarType::Logical => 2,
                        2 => 1,
                        _ => 2,
                    }
                }
            };
            match slot {
                0 => array = Some(a.value.clone()),
                1 => dim = Some(self.dim_value(&a.value)?),
                2 => mask = Some(a.value.clone()),
                _ => {
                    return Err(self.err(
                        span,
                        "unknown keyword argument".into(),
                        "use ARRAY=, DIM= or MASK=",
                    ));
                }
            }
        }
        let Some(array) = array else {
            return Err(self.err(
                span,
                "the array argument is missing".into(),
                "give the array to reduce",
            ));
        };
        let rank = self.rank(&array)?;
        if rank == 0 {
            return Err(self.err(
                array.span,
                "the argument of a reduction must be an array".into(),
                "pass an array or a section",
            ));
        }
        if let Some(d) = dim
            && d > rank
        {
            return Err(self.err(
                span,
                format!("DIM={d} but the array has rank {rank}"),
                "check DIM",
            ));
        }
        Ok(Reduction { array, dim, mask })
    }

    pub(super) fn dot_product_args(&self, args: &[Arg], span: Span) -> R<Reduction> {
        let (Some(a), Some(b)) = (args.first(), args.get(1)) else {
            return Err(self.err(
                span,
                "DOT_PRODUCT takes two vectors".into(),
                "give both vectors",
            ));
        };
        if self.rank(&a.value)? != 1 || self.rank(&b.value)? != 1 {
            return Err(self.err(
                span,
                "DOT_PRODUCT needs two arrays of rank 1".into(),
                "pass two vectors",
            ));
        }
        // Of complex vectors, DOT_PRODUCT is sum(conjg(a)*b).
        let first = if self.type_of(&a.value).is_complex() {
            Expr::intrinsic(crate::il::Intrinsic::Conjg, vec![a.value.clone()])
        } else {
            paren(a.value.clone())
        };
        Ok(Reduction {
            array: Expr::binary(BinOp::Mul, first, paren(b.value.clone())),
            dim: None,
            mask: None,
        })
    }

    pub(super) fn spread_args<'e>(
        &self,
        args: &'e [Arg],
        span: Span,
    ) -> R<(&'e Expr, usize, &'e Expr)> {
        let mut parts: [Option<&Expr>; 3] = [None; 3];
        let mut positional = 0;
        for a in args {
            let slot = match a.keyword.as_deref().map(key).as_deref() {
                Some("source") => 0,
                Some("dim") => 1,
                Some("ncopies") => 2,
                _ => {
                    positional += 1;
                    positional - 1
                }
            };
            if slot < 3 {
                parts[slot] = Some(&a.value);
            }
        }
        match parts {
            [Some(s), Some(d), Some(n)] => Ok((s, self.dim_value(d)?, n)),
            _ => Err(self.err(
                span,
                "SPREAD takes SOURCE, DIM and NCOPIES".into(),
                "give all three",
            )),
        }
    }

    pub(super) fn reshape_extents(&self, args: &[Arg], span: Span) -> R<Vec<Expr>> {
        if args.iter().any(|a| {
            a.keyword
                .as_deref()
                .is_some_and(|k| !matches!(key(k).as_str(), "source" | "shape"))
        }) {
            return Err(self.err(
                span,
                "RESHAPE with PAD or ORDER is not supported".into(),
                "give SOURCE and SHAPE only",
            ));
        }
        let shape = args
            .iter()
            .find(|a| a.keyword.as_deref().map(key).as_deref() == Some("shape"))
            .or_else(|| args.iter().filter(|a| a.keyword.is_none()).nth(1))
            .map(|a| &a.value);
        match shape.map(|s| &s.kind) {
            Some(ExprKind::ArrayCtor(items)) if !items.iter().any(assign::is_implied_do) => {
                Ok(items.clone())
            }
            Some(ExprKind::Intrinsic {
                op: Intrinsic::Shape,
                args: inner,
                ..
            }) if inner.len() == 1 => Ok(self
                .dims_of(&inner[0].value)?
                .iter()
                .map(LoopDim::extent)
                .collect()),
            _ => Err(self.err(
                span,
                "the SHAPE of RESHAPE must be written as a constructor, e.g. `[m, n]`, or as `shape(a)`".into(),
                "write the extents in a constructor",
            )),
        }
    }
}
