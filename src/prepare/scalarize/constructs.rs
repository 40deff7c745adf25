//! WHERE, FORALL and DO CONCURRENT into DO loops over elements.

use super::*;

impl Scalarizer<'_> {
    /// A WHERE statement or construct: each assignment in turn, over the elements its
    /// part's condition selects (the masks before it false, its own true).
    pub(super) fn where_construct(
        &mut self,
        arms: &[(Expr, Vec<Stmt>)],
        else_body: Option<&[Stmt]>,
    ) -> R<Vec<Stmt>> {
        let mut parts: Vec<(Option<&Expr>, &[Stmt])> =
            arms.iter().map(|(m, b)| (Some(m), b.as_slice())).collect();
        if let Some(b) = else_body {
            parts.push((None, b));
        }
        if let Some(fused) = self.where_fused(&parts)? {
            return Ok(fused);
        }
        // The masks are evaluated once, before any assignment: refused when the
        // construct assigns what they read.
        let mut assigned = Vec::new();
        for (_, body) in &parts {
            for s in body.iter() {
                match &s.kind {
                    StmtKind::Assign { lhs, .. } => {
                        if let Some(n) = lhs.base_name() {
                            assigned.push(key(n));
                        }
                    }
                    StmtKind::Comment(_) => {}
                    _ => {
                        return Err(self.err(
                            s.span,
                            "only array assignments are supported inside WHERE".into(),
                            "move the other statements out of the WHERE construct",
                        ));
                    }
                }
            }
        }
        for (mask, _) in arms {
            if let Some(n) = crate::il::visit::names_read(mask)
                .into_iter()
                .find(|n| assigned.contains(&crate::il::key(n)))
            {
                return Err(self.err(
                    mask.span,
                    format!("the mask reads `{n}`, which the WHERE construct assigns"),
                    "compute the mask into a LOGICAL array before the WHERE and use that",
                ));
            }
        }
        let negated =
            |m: &Expr| Expr::unary(UnOp::Not, Expr::new(ExprKind::Paren(Box::new(m.clone()))));
        let mut out = Vec::new();
        for (k, (mask, body)) in parts.iter().enumerate() {
            let mut cond: Option<Expr> = None;
            for (earlier, _) in &arms[..k.min(arms.len())] {
                let n = negated(earlier);
                cond = Some(match cond {
                    None => n,
                    Some(c) => Expr::binary(BinOp::And, c, n),
                });
            }
            if let Some(m) = mask {
                let m = if cond.is_some() {
                    Expr::new(ExprKind::Paren(Box::new((*m).clone())))
                } else {
                    (*m).clone()
                };
                cond = Some(match cond {
                    None => m,
                    Some(c) => Expr::binary(BinOp::And, c, m),
                });
            }
            let cond = cond.expect("every part has a condition");
            for s in body.iter() {
                match &s.kind {
                    StmtKind::Assign { lhs, rhs } => {
                        self.span = s.span;
                        let mut stmts = self.assignment(lhs, rhs, Some(&cond))?;
                        if let Some(first) = stmts.first_mut() {
                            first.trailing_comment = s.trailing_comment.clone();
                        }
                        out.extend(stmts);
                    }
                    _ => out.push(s.clone()),
                }
            }
        }
        Ok(out)
    }

    /// A WHERE construct as one loop nest with an IF / ELSE IF / ELSE per element, when
    /// that means the same as the construct: every assignment over the same index
    /// ranges, and every array it assigns read (by the masks and right-hand sides) only
    /// at the element being assigned, written the same way.
    pub(super) fn where_fused(
        &mut self,
        parts: &[(Option<&Expr>, &[Stmt])],
    ) -> R<Option<Vec<Stmt>>> {
        let dims_key = |dims: &[LoopDim]| {
            dims.iter()
                .map(|d| {
                    format!(
                        "{}:{}:{}",
                        crate::il::visit::expr_key(&d.lo),
                        crate::il::visit::expr_key(&d.hi),
                        d.stride
                            .as_ref()
                            .map(crate::il::visit::expr_key)
                            .unwrap_or_default()
                    )
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut shape: Option<(String, Vec<LoopDim>)> = None;
        let mut targets: Vec<(String, String)> = Vec::new();
        let mut reads: Vec<&Expr> = parts.iter().filter_map(|(m, _)| *m).collect();
        for (_, body) in parts {
            for s in body.iter() {
                let StmtKind::Assign { lhs, rhs } = &s.kind else {
                    continue;
                };
                let d = self.dims_of(lhs)?;
                let k = dims_key(&d);
                match &shape {
                    None => shape = Some((k, d)),
                    Some((k0, _)) if *k0 != k => return Ok(None),
                    _ => {}
                }
                let Some(name) = lhs.base_name() else {
                    return Ok(None);
                };
                let lk = crate::il::visit::expr_key(lhs);
                if targets.iter().any(|(n, t)| *n == key(name) && *t != lk) {
                    return Ok(None);
                }
                targets.push((key(name), lk));
                reads.push(rhs);
            }
        }
        let Some((_, ldims)) = shape else {
            return Ok(None);
        };
        for (name, lk) in &targets {
            for e in &reads {
                let mut refs = Vec::new();
                refs_to(e, name, &mut refs);
                if refs.iter().any(|r| crate::il::visit::expr_key(r) != *lk) {
                    return Ok(None);
                }
            }
        }
        let rank = ldims.len();
        let vars: Vec<String> = (0..rank).map(|d| self.loop_var(d)).collect();
        let offsets: Vec<Expr> = ldims.iter().zip(&vars).map(|(d, v)| d.offset(v)).collect();
        let mut body = Vec::new();
        let mut arms = Vec::new();
        let mut else_body = None;
        for (mask, stmts) in parts {
            let cond = match mask {
                Some(m) => Some(self.element(m, &offsets, rank, &mut body)?),
                None => None,
            };
            let mut out = Vec::new();
            for s in stmts.iter() {
                match &s.kind {
                    StmtKind::Assign { lhs, rhs } => {
                        let t = self.element(lhs, &offsets, rank, &mut out)?;
                        let v = self.element(rhs, &offsets, rank, &mut out)?;
                        let mut a = self.assign(t, v);
                        a.span = s.span;
                        a.trailing_comment = s.trailing_comment.clone();
                        out.push(a);
                    }
                    _ => out.push(s.clone()),
                }
            }
            match cond {
                Some(c) => arms.push((c, out)),
                None => else_body = Some(out),
            }
        }
        let logical_if = arms.len() == 1 && else_body.is_none() && arms[0].1.len() == 1;
        let s = self.new_stmt(StmtKind::If {
            arms,
            else_body,
            logical_if,
            name: None,
        });
        body.push(s);
        let mut nest = body;
        for k in 0..rank {
            let l = self.do_loop(&vars[k], &ldims[k], false, nest);
            nest = vec![l];
        }
        let mut out = std::mem::take(&mut self.before);
        out.extend(nest);
        Ok(Some(out))
    }

    /// FORALL and DO CONCURRENT as DO loops (the first index outermost). FORALL
    /// assigns each statement for all indices before the next, and evaluates every
    /// right-hand side before assigning: refused when an assignment reads the array it
    /// assigns at other elements.
    pub(super) fn forall(
        &mut self,
        original: &Stmt,
        mut indices: Vec<crate::il::ForallIndex>,
        mut mask: Option<Expr>,
        mut body: Vec<Stmt>,
        concurrent: bool,
    ) -> R<Vec<Stmt>> {
        let span = original.span;
        // The index variables are local to the construct, the DO loops leave theirs
        // set: an index whose name the unit also uses elsewhere gets a fresh name.
        for k in 0..indices.len() {
            let name = indices[k].var.clone();
            if self.free_uses.contains(crate::il::key_ref(&name).as_ref()) {
                let fresh = self.namer.fresh(&name);
                self.add_local(&fresh, ScalarType::Integer(4), Vec::new());
                for ix in indices.iter_mut() {
                    if key(&ix.var) == key(&name) {
                        ix.var = fresh.clone();
                    }
                    rename_expr(&mut ix.lower, &name, &fresh);
                    rename_expr(&mut ix.upper, &name, &fresh);
                    if let Some(s) = &mut ix.stride {
                        rename_expr(s, &name, &fresh);
                    }
                }
                if let Some(m) = &mut mask {
                    rename_expr(m, &name, &fresh);
                }
                rename_stmts(&mut body, &name, &fresh);
            }
        }
        let make_nest = |sc: &mut Self, inner: Vec<Stmt>| -> Stmt {
            let mut nest = match &mask {
                Some(m) => vec![sc.new_stmt(StmtKind::If {
                    arms: vec![(m.clone(), inner)],
                    else_body: None,
                    logical_if: false,
                    name: None,
                })],
                None => inner,
            };
            for ix in indices.iter().rev() {
                let s = sc.new_stmt(StmtKind::Do {
                    var: ix.var.clone(),
                    start: Box::new(ix.lower.clone()),
                    end: Box::new(ix.upper.clone()),
                    step: ix.stride.clone().map(Box::new),
                    body: nest,
                    name: None,
                });
                nest = vec![s];
            }
            nest.pop().expect("at least one index")
        };
        if indices.is_empty() {
            return Err(self.err(
                span,
                "an index list without indices".into(),
                "give at least one index",
            ));
        }
        let mut loops = Vec::new();
        if concurrent {
            loops.push(make_nest(self, body));
        } else {
            let mut assigned = Vec::new();
            for s in &body {
                match &s.kind {
                    StmtKind::Assign { lhs, rhs } => {
                        let Some(name) = lhs.base_name() else {
                            continue;
                        };
                        assigned.push(key(name));
                        let mut refs = Vec::new();
                        refs_to(rhs, name, &mut refs);
                        // Safe: the very element assigned, or an element that a fixed
                        // subscript (no index in it) keeps out of the assigned part.
                        let index_names: Vec<String> =
                            indices.iter().map(|ix| key(&ix.var)).collect();
                        let same = |r: &Expr| {
                            if crate::il::visit::expr_key(r) == crate::il::visit::expr_key(lhs) {
                                return true;
                            }
                            let (ExprKind::Index(_, rs), ExprKind::Index(_, ls)) =
                                (&r.kind, &lhs.kind)
                            else {
                                return false;
                            };
                            rs.len() == ls.len()
                                && rs.iter().zip(ls).any(|(a, b)| {
                                    let fixed = crate::il::visit::names_read(b)
                                        .iter()
                                        .all(|n| !index_names.contains(&crate::il::key(n)))
                                        && !matches!(b.kind, ExprKind::Range { .. })
                                        && !matches!(a.kind, ExprKind::Range { .. });
                                    fixed && constant_difference(a, b).is_some_and(|d| d != 0)
                                })
                        };
                        if let Some(r) = refs.iter().find(|r| !same(r)) {
                            return Err(self.err(
                                r.span,
                                format!("FORALL assigns `{name}` and reads it at other elements"),
                                "assign the right-hand sides to a temporary array in one FORALL, then copy in a second",
                            ));
                        }
                    }
                    StmtKind::Comment(_) => {}
                    _ => {
                        return Err(self.err(
                            s.span,
                            "only assignments are supported inside FORALL".into(),
                            "use DO CONCURRENT or DO loops for other statements",
                        ));
                    }
                }
            }
            if let Some(m) = &mask
                && let Some(n) = crate::il::visit::names_read(m)
                    .into_iter()
                    .find(|n| assigned.contains(&crate::il::key(n)))
            {
                return Err(self.err(
                    m.span,
                    format!("the mask of FORALL reads `{n}`, which the FORALL assigns"),
                    "compute the mask into a LOGICAL array first",
                ));
            }
            for s in body {
                if matches!(s.kind, StmtKind::Comment(_)) {
                    continue;
                }
                loops.push(make_nest(self, vec![s]));
            }
        }
        let mut out = Vec::new();
        for l in loops {
            self.stmt(l, &mut out);
        }
        Ok(out)
    }
}

/// Names used where no enclosing DO, FORALL or DO CONCURRENT binds them.
pub(super) fn free_uses(body: &[Stmt]) -> BTreeSet<String> {
    pub(super) fn walk(stmts: &[Stmt], bound: &mut Vec<String>, out: &mut BTreeSet<String>) {
        for s in stmts {
            let binds: Vec<String> = match &s.kind {
                StmtKind::Do { var, .. } => vec![key(var)],
                StmtKind::Forall { indices, .. } => indices.iter().map(|ix| key(&ix.var)).collect(),
                _ => Vec::new(),
            };
            for n in stmt_names(s) {
                if !bound.contains(&n) && !binds.contains(&n) {
                    out.insert(n);
                }
            }
            let depth = bound.len();
            bound.extend(binds);
            for child in crate::il::visit::child_blocks(s) {
                walk(child, bound, out);
            }
            bound.truncate(depth);
        }
    }
    let mut out = BTreeSet::new();
    walk(body, &mut Vec::new(), &mut out);
    out
}

pub(super) fn rename_expr(e: &mut Expr, from: &str, to: &str) {
    match &mut e.kind {
        ExprKind::Var(n) => {
            if key(n) == key(from) {
                *n = to.to_string();
            }
        }
        ExprKind::Index(_, subs) => subs.iter_mut().for_each(|s| rename_expr(s, from, to)),
        ExprKind::Call(_, args) | ExprKind::Intrinsic { args, .. } => args
            .iter_mut()
            .for_each(|a| rename_expr(&mut a.value, from, to)),
        ExprKind::Unary(_, x) | ExprKind::Paren(x) => rename_expr(x, from, to),
        ExprKind::Binary(_, a, b) => {
            rename_expr(a, from, to);
            rename_expr(b, from, to);
        }
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => {
            for p in [lower, upper, stride].into_iter().flatten() {
                rename_expr(p, from, to);
            }
        }
        ExprKind::ArrayCtor(items) => items.iter_mut().for_each(|x| rename_expr(x, from, to)),
        ExprKind::ImpliedDo(d) => {
            if key(&d.var) == key(from) {
                d.var = to.to_string();
            }
            d.exprs_mut().for_each(|x| rename_expr(x, from, to));
        }
        ExprKind::Substring { base, lower, upper } => {
            rename_expr(base, from, to);
            for p in [lower, upper].into_iter().flatten() {
                rename_expr(p, from, to);
            }
        }
        ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
    }
}

/// Renames variable `from` (a scalar index) in every expression of `stmts`.
pub(super) fn rename_stmts(stmts: &mut [Stmt], from: &str, to: &str) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::Assign { lhs, rhs } => {
                rename_expr(lhs, from, to);
                rename_expr(rhs, from, to);
            }
            StmtKind::If {
                arms, else_body, ..
            }
            | StmtKind::Where {
                arms, else_body, ..
            } => {
                for (c, b) in arms.iter_mut() {
                    rename_expr(c, from, to);
                    rename_stmts(b, from, to);
                }
                if let Some(b) = else_body {
                    rename_stmts(b, from, to);
                }
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                if key(var) == key(from) {
                    *var = to.to_string();
                }
                rename_expr(start, from, to);
                rename_expr(end, from, to);
                if let Some(st) = step {
                    rename_expr(st, from, to);
                }
                rename_stmts(body, from, to);
            }
            StmtKind::DoWhile { cond, body, .. } => {
                rename_expr(cond, from, to);
                rename_stmts(body, from, to);
            }
            StmtKind::Call { args, .. } => args
                .iter_mut()
                .for_each(|a| rename_expr(&mut a.value, from, to)),
            StmtKind::Forall {
                indices,
                mask,
                body,
                ..
            } => {
                for ix in indices.iter_mut() {
                    if key(&ix.var) == key(from) {
                        ix.var = to.to_string();
                    }
                    rename_expr(&mut ix.lower, from, to);
                    rename_expr(&mut ix.upper, from, to);
                    if let Some(st) = &mut ix.stride {
                        rename_expr(st, from, to);
                    }
                }
                if let Some(m) = mask {
                    rename_expr(m, from, to);
                }
                rename_stmts(body, from, to);
            }
            _ => {}
        }
    }
}
