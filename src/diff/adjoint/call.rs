//! Calls in the adjoint (seeds/000 §4.5, joint mode): a checkpointed call is re-run in the
//! backward sweep from the values it read (restored first), then its adjoint is called with
//! the adjoints of its arguments; passive and pure calls are left as they are.

use super::*;

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    pub(super) fn call(&mut self, s: &Stmt, site: &CallSite) -> (Vec<Stmt>, Vec<Stmt>) {
        let callee_ir = self.ug.ctx.unit_analysis(site.callee);
        let differentiated = self
            .ug
            .ctx
            .derivative_of(site.callee)
            .filter(|_| !self.ug.call_is_passive(s, site))
            .map(str::to_string);
        if callee_ir.is_none() && touches_active(self.ug, s, site) {
            self.ug
                .error(unknown_procedure(self.ug, site.callee, s, site.args));
        }
        // What the callee may overwrite: the actual (a whole array when the dummy is an
        // array), the dummy's name, and which components of a derived-type actual.
        let mut written: Vec<Written> = Vec::new();
        match callee_ir {
            Some((cu, ca)) => {
                for (k, actual) in bind_actuals(cu.unit, site.args).iter().enumerate() {
                    let Some(actual) = actual else { continue };
                    let Some(name) = actual.base_name() else {
                        continue;
                    };
                    if !ca.summary.writes[k] {
                        continue;
                    }
                    let formal = &cu.unit.args[k];
                    let formal_is_array = cu.unit.symbols.get(formal).is_some_and(|f| f.is_array());
                    let target = if formal_is_array {
                        Expr::var(name)
                    } else {
                        (*actual).clone()
                    };
                    let parts = ca.summary.written_parts.get(k).filter(|p| !p.is_empty());
                    written.push((target, Some(formal.clone()), parts));
                }
                // Module variables the callee overwrites (seen here or not).
                let first = cu.unit.args.len() + 1;
                for (g, &z) in self.ug.uir.zones.globals.iter().enumerate() {
                    if ca.summary.writes.get(first + g).is_some_and(|b| *b) {
                        written.push((Expr::var(&self.ug.uir.zones.zones[z].name), None, None));
                    }
                }
            }
            None => {
                for a in site.args {
                    if let Some(n) = a.value.base_name() {
                        written.push((Expr::var(n), None, None));
                    }
                }
            }
        }
        // The same array passed to two dummies (`&s[i]` and `&s[i + b]`) is saved once. It
        // counts as given back only if the callee gives back every dummy it is passed to.
        let mut merged: Vec<Written> = Vec::with_capacity(written.len());
        for w in written {
            let dup = match &w.0.kind {
                ExprKind::Var(n) => merged.iter().position(|m| {
                    matches!(&m.0.kind, ExprKind::Var(o) if key(o) == key(n)) && m.2 == w.2
                }),
                _ => None,
            };
            match dup {
                Some(i) => {
                    let kept_restored = merged[i]
                        .1
                        .as_deref()
                        .is_some_and(|f| self.callee_restores(site.callee, f));
                    if kept_restored {
                        merged[i].1 = w.1;
                    }
                }
                None => merged.push(w),
            }
        }
        let written = merged;
        // Forward: copies of what the callee's adjoint overwrites without giving back, the
        // snapshot of everything the callee overwrites, [result variable], the call.
        // Backward: [result variable], the snapshot (the state before the call), the
        // callee's adjoint (which re-runs the callee), the copies.
        // The snapshot is SNP = out(C) ∩ (TBR⁻(C) ∪ use(C')) (seeds/000 §5.4); the copies
        // are what the callee's adjoint overwrites, does not give back, and the rest of
        // the backward sweep reads (TBR⁻(C)).
        let present = self.present(s);
        let mut lhs_save = Vec::new();
        if let Some(lhs) = site.result_lhs {
            if present && lhs.base_name().is_some_and(|n| self.saves(s, n)) {
                // A struct result (`c = add(a, b)`) is saved member by member.
                lhs_save = self.save_all(lhs, s, None);
            }
        }
        let mut snapshot = Vec::new();
        let mut clobbered = Vec::new();
        // Values in both: the same value before the call, pushed once.
        let mut shared = Vec::new();
        for &(ref w, ref formal, parts) in &written {
            let Some(name) = w.base_name().map(str::to_string) else {
                continue;
            };
            let restored = formal
                .as_deref()
                .is_some_and(|f| self.callee_restores(site.callee, f));
            let mut clobber = false;
            if differentiated.is_some() && !restored {
                if self.needed_before(s, &name) {
                    clobber = true;
                } else {
                    self.unsaved.insert(key(&name));
                }
            }
            let snap = present && self.saves(s, &name);
            match (clobber, snap) {
                (true, true) => shared.extend(self.save_all(w, s, parts)),
                (true, false) => clobbered.extend(self.save_all(w, s, parts)),
                (false, true) => snapshot.extend(self.save_all(w, s, parts)),
                (false, false) => {}
            }
        }
        // The result variable is saved last and restored first: the callee's adjoint
        // reads it when it is also an argument (`r = f(r, x)`).
        let mut fwd = Vec::new();
        let mut bwd = Vec::new();
        fwd.extend(clobbered.iter().map(|(push, _)| push.clone()));
        fwd.extend(shared.iter().map(|(push, _)| push.clone()));
        fwd.extend(snapshot.iter().map(|(push, _)| push.clone()));
        fwd.extend(lhs_save.iter().map(|(push, _)| push.clone()));
        if present {
            fwd.push(s.clone());
        }
        bwd.extend(lhs_save.iter().rev().map(|(_, pop)| pop.clone()));
        bwd.extend(snapshot.iter().rev().map(|(_, pop)| pop.clone()));
        // The shared values restored for the re-run and kept on the tape for after it:
        // one is looked at; several are popped and pushed again.
        match shared.as_slice() {
            [] => {}
            [(_, pop)] => bwd.push(as_look(pop)),
            _ => {
                bwd.extend(shared.iter().rev().map(|(_, pop)| pop.clone()));
                bwd.extend(shared.iter().map(|(push, _)| push.clone()));
            }
        }
        match differentiated {
            Some(dname) => bwd.extend(self.derivative_call(s, site, &dname)),
            None => {
                if let Some(lhs) = site.result_lhs {
                    let n = lhs.base_name().unwrap_or_default().to_string();
                    if let Some(d) = self.ug.dref(lhs) {
                        if self.ug.useful_after(s, &n) {
                            bwd.push(assign(d, self.ug.zero_of(&n)));
                        }
                    }
                }
                bwd.extend(self.ug.passive_overwrites(s, site));
            }
        }
        bwd.extend(shared.iter().rev().map(|(_, pop)| pop.clone()));
        bwd.extend(clobbered.iter().rev().map(|(_, pop)| pop.clone()));
        (fwd, bwd)
    }

    /// The adjoint of `callee` gives dummy `formal` back with its value on entry.
    pub(super) fn callee_restores(&self, callee: &str, formal: &str) -> bool {
        let Some(index) = self.ug.ctx.ir.index_of(callee) else {
            return false;
        };
        self.ug
            .ctx
            .restored
            .borrow()
            .get(&index)
            .is_some_and(|set| set.contains(crate::il::key_ref(formal).as_ref()))
    }

    /// `call f_b(...)`, with temporaries for expression arguments and the result weight.
    pub(super) fn derivative_call(&mut self, s: &Stmt, site: &CallSite, dname: &str) -> Vec<Stmt> {
        let (cu, ca) = self
            .ug
            .ctx
            .unit_analysis(site.callee)
            .expect("differentiated units are known");
        let callee = cu.unit;
        let actuals = bind_actuals(callee, site.args);
        // One variable bound to two dummies the callee's adjoint updates: unless its
        // analyses merged them, its adjoint would assume they are distinct, and the
        // gradient would be wrong.
        for (i, a) in actuals.iter().enumerate() {
            for (j, b) in actuals.iter().enumerate().skip(i + 1) {
                let (Some(a), Some(b)) = (a, b) else { continue };
                let (Some(na), Some(nb)) = (a.base_name(), b.base_name()) else {
                    continue;
                };
                if crate::il::work_array_parts(callee, i, a, j, b) {
                    continue;
                }
                let whole =
                    matches!(a.kind, ExprKind::Var(_)) || matches!(b.kind, ExprKind::Var(_));
                let same = na.eq_ignore_ascii_case(nb)
                    && (whole || visit::expr_key(a) == visit::expr_key(b));
                let writes = ca.summary.writes[i] || ca.summary.writes[j];
                // (Dummies the callee's analyses see as one storage, `ir::aliasing`.)
                let merged = cu
                    .zones
                    .of_arg(i)
                    .is_some_and(|z| cu.zones.of_arg(j) == Some(z));
                if same
                    && !merged
                    && writes
                    && ca.deriv_args[i]
                    && ca.deriv_args[j]
                    && self.ug.deriv_ref_name(na).is_some()
                {
                    self.ug.error(
                        Diagnostic::error(
                            "E0508",
                            format!(
                                "`{na}` is passed both as `{}` and as `{}` of `{}`, which overwrites one \
                                 of them: its adjoint would be wrong",
                                callee.args[i], callee.args[j], callee.name
                            ),
                        )
                        .at(s.span)
                        .with_help("pass a copy of the variable as one of the two arguments"),
                    );
                    return Vec::new();
                }
            }
        }
        let mut before = Vec::new();
        let mut after = Vec::new();
        let mut args = Vec::new();
        // After an absent OPTIONAL argument (and its absent adjoint), arguments go by
        // keyword.
        let mut keywords: Vec<Option<String>> = Vec::new();
        let mut by_keyword = false;
        for (k, actual) in actuals.iter().enumerate() {
            let Some(actual) = actual else {
                if callee.is_optional(&callee.args[k]) {
                    by_keyword = true;
                    continue;
                }
                self.ug
                    .error(crate::diff::missing_argument(callee, k, s.span));
                return Vec::new();
            };
            if by_keyword {
                keywords.resize(args.len(), None);
                keywords.push(Some(callee.args[k].clone()));
                if ca.deriv_args[k] {
                    keywords.push(crate::diff::callee_deriv_name(
                        self.ug.ctx,
                        site.callee,
                        &callee.args[k],
                    ));
                }
            }
            args.push((*actual).clone());
            if !ca.deriv_args[k] {
                continue;
            }
            let formal = callee.symbols.get(&callee.args[k]);
            let formal_ty = formal.map(|f| f.ty).unwrap_or(ScalarType::Real(8));
            if let Some(d) = self.ug.dref(actual) {
                args.push(d);
                continue;
            }
            if formal.is_some_and(|f| f.is_array()) {
                // A passive array: its adjoint is thrown away.
                match self
                    .ug
                    .zero_array_argument(actual, &callee.args[k], formal_ty)
                {
                    Some((temp, zero)) => {
                        before.push(zero);
                        args.push(Expr::var(temp));
                        continue;
                    }
                    None => {
                        self.ug.error(crate::diff::array_expression_argument(
                            callee,
                            k,
                            actual.span,
                        ));
                        return Vec::new();
                    }
                }
            }
            let temp = self.ug.temp(
                &self.ug.derivative_name_of(&format!("arg{}", k + 1)),
                TypeSpec::of(formal_ty),
            );
            before.push(assign(Expr::var(&temp), self.ug.zero(formal_ty)));
            args.push(Expr::var(&temp));
            let terms = linearize(actual, &self.ug.leaf_info(s));
            for t in &terms {
                after.push(self.increment(s, t, &Expr::var(&temp), formal_ty.is_complex()));
            }
        }
        keywords.resize(args.len(), None);
        if let Some(lhs) = site.result_lhs {
            let n = lhs.base_name().unwrap_or_default().to_string();
            let live = self.ug.dref(lhs).filter(|_| self.ug.useful_after(s, &n));
            if ca.result_active {
                let rty = callee
                    .result
                    .as_deref()
                    .and_then(|r| callee.symbols.get(r))
                    .map(|r| r.ty)
                    .unwrap_or(ScalarType::Real(8));
                // An array-valued function's result adjoint is an array like the one
                // its call assigns.
                let array_result = callee
                    .result
                    .as_deref()
                    .and_then(|r| callee.symbols.get(r))
                    .is_some_and(|r| r.is_array());
                let dims = self
                    .ug
                    .unit
                    .symbols
                    .get(&n)
                    .filter(|_| array_result && matches!(lhs.kind, ExprKind::Var(_)))
                    .map(|s| s.dims.clone())
                    .unwrap_or_default();
                // A struct result's adjoint has the derivative type, copied whole and
                // zeroed member by member.
                let result_spec = callee
                    .result
                    .as_deref()
                    .and_then(|r| callee.symbols.get(r))
                    .map(|r| r.type_spec.clone());
                let spec = match result_spec {
                    Some(spec) if rty == ScalarType::Derived => self.ug.ctx.derivative_spec(&spec),
                    _ => TypeSpec::of(rty),
                };
                let weight = self
                    .ug
                    .temp_array(&self.ug.derivative_name_of("result"), spec, dims);
                match live {
                    Some(d) if rty == ScalarType::Derived => {
                        before.push(assign(Expr::var(&weight), d.clone()));
                        before.extend(self.ug.zero_into(d, &n));
                    }
                    Some(d) => {
                        // The adjoint has the type of the variable assigned (its name
                        // says nothing of it): narrowed to the result's by that type.
                        let narrowed = if crate::diff::types::real_kind(self.ug.ty(lhs))
                            > crate::diff::types::real_kind(rty)
                            && rty.is_differentiable()
                            && !rty.is_complex()
                        {
                            let kind = crate::diff::types::real_kind(rty) as i64;
                            Expr::intrinsic(
                                crate::il::Intrinsic::Real,
                                vec![d.clone(), Expr::int(kind)],
                            )
                        } else {
                            convert(self.ug, d.clone(), rty)
                        };
                        before.push(assign(Expr::var(&weight), narrowed));
                        before.push(assign(d, self.ug.zero_of(&n)));
                    }
                    None if rty == ScalarType::Derived => {
                        before.extend(self.ug.zero_members_like(&weight, &n));
                    }
                    None => before.push(assign(Expr::var(&weight), self.ug.zero(rty))),
                }
                args.push(Expr::var(weight));
            } else if let Some(d) = live {
                before.extend(self.ug.zero_into(d, &n));
            }
        }
        let mut out = before;
        out.push(Stmt {
            kind: StmtKind::Call {
                name: dname.to_string(),
                args: crate::diff::keyword_args(
                    args,
                    &keywords,
                    by_keyword,
                    callee
                        .result
                        .as_deref()
                        .and_then(|r| crate::diff::callee_deriv_name(self.ug.ctx, site.callee, r)),
                ),
            },
            ..Stmt::generated(StmtKind::Continue)
        });
        out.extend(after);
        out
    }

    pub(super) fn is_result(&self, name: &str) -> bool {
        self.ug
            .unit
            .result
            .as_deref()
            .is_some_and(|r| key(r) == key(name))
    }

    pub(super) fn is_root_dependent(&self, name: &str) -> bool {
        self.ug.is_dependent(name)
            || (self.is_result(name) && self.ug.is_dependent(&self.ug.unit.name))
    }
}

/// The pop `pop` as a look: the value is restored and stays on the tape.
fn as_look(pop: &Stmt) -> Stmt {
    let mut look = pop.clone();
    if let StmtKind::Tape(t) = &mut look.kind {
        t.op = TapeOp::Look;
    }
    look
}
