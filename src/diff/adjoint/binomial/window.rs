//! History arrays of a binomial loop: an array whose last subscript is the step, each
//! step writing one new slice from earlier ones (`h(:, t + 1) = f(h(:, t))`, the whole
//! trajectory kept). Saved whole, every snapshot would hold the whole history, and the
//! schedule would take more memory than the plain adjoint; but re-running steps `k`
//! and on reads only the slices before the first one they write, so a snapshot of step
//! `k` holds those slices alone: `h(:, k + lo) .. h(:, k + hi)`.
//!
//! The rule (each doubt keeps the array whole): in the loop's body every reference to
//! the array is an element or section whose last subscript is the DO variable plus or
//! minus a literal; every write (an assignment, an actual argument the callee may
//! define) is at the one offset `w`, every read at an offset below it; a DO nest at the
//! top of the body assigns the whole slice `w` every step; the loop runs by
//! steps of 1; the array is local or a dummy, of explicit shape, and the code before
//! the loop does not read back what the loop overwrites. Then a step `j >= k` reads
//! either a slice some step in `k..j` wrote, or one of `k + lo .. k + w - 1`, which no
//! step from `k` on writes. The loop does not give the other slices back.

use super::super::*;

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    /// The offsets `(lo, hi)` of the slices a snapshot of the history array `name`
    /// holds, when the loop's `body` (DO variable `var`, steps of 1) uses it as one.
    pub(in crate::diff::adjoint) fn history_window(
        &self,
        body: &[Stmt],
        name: &str,
        var: &str,
    ) -> Option<(i64, i64)> {
        let sym = self.ug.unit.symbols.get(name)?;
        let explicit = sym.dims.iter().all(|d| matches!(d.upper, Bound::Expr(_)));
        if !sym.is_array() || !explicit || sym.global.is_some() || sym.pointer {
            return None;
        }
        let mut writes = BTreeSet::new();
        let mut reads = BTreeSet::new();
        let mut whole = false;
        let offset = |e: &Expr| -> Option<i64> { step_offset(e, var) };
        visit::walk_stmts(body, &mut |t| {
            // Where the statement writes the array, and what it reads.
            let mut exprs: Vec<&Expr> = visit::stmt_exprs(t);
            match &t.kind {
                StmtKind::Assign { lhs, .. } => {
                    if let ExprKind::Index(n, subs) = &lhs.kind
                        && key(n) == key(name)
                    {
                        match subs.last().and_then(offset) {
                            Some(c) => {
                                writes.insert(c);
                            }
                            None => whole = true,
                        }
                    } else if lhs.base_name().is_some_and(|n| key(n) == key(name)) {
                        whole = true;
                    }
                }
                StmtKind::Io { writes: w, .. }
                    if w.iter()
                        .any(|e| e.base_name().is_some_and(|n| key(n) == key(name))) =>
                {
                    whole = true;
                }
                _ => {}
            }
            // An actual argument the callee may define is a write too.
            if let Some(site) = call_site(t) {
                let intents = self.callee_intents(&site);
                for (k, a) in site.args.iter().enumerate() {
                    if let ExprKind::Index(n, subs) = &a.value.kind
                        && key(n) == key(name)
                        && intents.get(k).copied().flatten() != Some(crate::il::Intent::In)
                    {
                        match subs.last().and_then(offset) {
                            Some(c) => {
                                writes.insert(c);
                            }
                            None => whole = true,
                        }
                    }
                }
                exprs = site.args.iter().map(|a| &a.value).collect();
            }
            for e in exprs {
                visit::walk_expr(e, &mut |x| match &x.kind {
                    ExprKind::Var(n) if key(n) == key(name) => whole = true,
                    ExprKind::Index(n, subs) if key(n) == key(name) => {
                        match subs.last().and_then(offset) {
                            Some(c) => {
                                reads.insert(c);
                            }
                            None => whole = true,
                        }
                    }
                    _ => {}
                });
            }
        });
        let &w = writes.first()?;
        if whole || writes.len() != 1 || reads.last().is_some_and(|&r| r >= w) {
            return None;
        }
        // Each step writes its slice whole, every time: elements a step left alone
        // would keep values from before the loop, which no snapshot holds.
        let fills = body.iter().any(|t| {
            self.nest_fills(t, Some((var, w)))
                .iter()
                .any(|n| key(n) == key(name))
        });
        if !fills {
            return None;
        }
        let lo = reads.first().copied().unwrap_or(w - 1).min(w - 1);
        Some((lo, w - 1))
    }

    /// Push and pop of the slices `lo..=hi` (offsets from the step `at`) of the history
    /// array `name`, element by element, those outside its bounds left out.
    pub(in crate::diff::adjoint) fn save_window(
        &mut self,
        name: &str,
        (lo, hi): (i64, i64),
        at: &Expr,
    ) -> Option<(Vec<Stmt>, Vec<Stmt>)> {
        let sym = self.ug.unit.symbols.get(name)?.clone();
        let ty = TapeType::of(sym.ty)?;
        let rank = sym.dims.len();
        let bounds: Vec<(Expr, Expr)> = sym
            .dims
            .iter()
            .map(|d| {
                let lower = d.lower.clone().unwrap_or_else(|| Expr::int(1));
                match &d.upper {
                    Bound::Expr(u) => Some((lower, u.clone())),
                    _ => None,
                }
            })
            .collect::<Option<_>>()?;
        let indices: Vec<String> = (0..rank - 1).map(|_| self.int_temp("ad_e")).collect();
        self.ug.uses_runtime = true;
        let mut pushes = Vec::new();
        let mut pops = Vec::new();
        for c in lo..=hi {
            let slice = match c {
                0 => at.clone(),
                c if c > 0 => Expr::binary(BinOp::Add, paren(at), Expr::int(c)),
                c => Expr::binary(BinOp::Sub, paren(at), Expr::int(-c)),
            };
            let mut subs: Vec<Expr> = indices.iter().map(Expr::var).collect();
            subs.push(slice.clone());
            let element = Expr::new(ExprKind::Index(name.to_string(), subs));
            let mut push = vec![tape(Tape::new(TapeOp::Push, ty, element.clone()))];
            let mut pop = vec![tape(Tape::new(TapeOp::Pop, ty, element))];
            for (d, index) in indices.iter().enumerate().rev() {
                let (l, u) = bounds[d].clone();
                push = vec![do_loop(index, l.clone(), u.clone(), None, push)];
                pop = vec![do_loop(index, u, l, Some(Expr::int(-1)), pop)];
            }
            let (l, u) = bounds[rank - 1].clone();
            let inside = Expr::binary(
                BinOp::And,
                Expr::binary(BinOp::Ge, slice.clone(), paren(&l)),
                Expr::binary(BinOp::Le, slice, paren(&u)),
            );
            pushes.push(if_then(inside.clone(), push));
            pops.insert(0, if_then(inside, pop));
        }
        Some((pushes, pops))
    }
}

/// The literal `c` of a subscript `var + c` / `var - c` / `var` (`c` = 0).
pub(super) fn step_offset(e: &Expr, var: &str) -> Option<i64> {
    let literal = |x: &Expr| match &x.kind {
        ExprKind::Int(t) => t.parse::<i64>().ok(),
        _ => None,
    };
    let is_var = |x: &Expr| matches!(&x.kind, ExprKind::Var(v) if key(v) == key(var));
    match &e.kind {
        _ if is_var(e) => Some(0),
        ExprKind::Paren(x) => step_offset(x, var),
        ExprKind::Binary(BinOp::Add, a, b) if is_var(a) => literal(b),
        ExprKind::Binary(BinOp::Add, a, b) if is_var(b) => literal(a),
        ExprKind::Binary(BinOp::Sub, a, b) if is_var(a) => literal(b).map(|c| -c),
        _ => None,
    }
}
