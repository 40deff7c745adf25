//! The reversal of control flow (seeds/000 §4.4, §5.5): IF arms record the branch taken, DO loops
//! their trip counts and bounds, EXIT, CYCLE and RETURN the frames they leave; the backward
//! sweep pops them and runs the arms and iterations in reverse.

use super::*;

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    pub(super) fn if_stmt(&mut self, s: &Stmt) -> (Vec<Stmt>, Vec<Stmt>) {
        if !self.live(s) {
            return (Vec::new(), Vec::new());
        }
        let StmtKind::If {
            arms,
            else_body,
            name,
            ..
        } = &s.kind
        else {
            unreachable!("if_stmt on an IF")
        };
        // Per branch: forward, backward, falls through at its end, its source.
        type Branch<'s> = (Vec<Stmt>, Vec<Stmt>, bool, &'s [Stmt]);
        let mut branches: Vec<Branch> = Vec::new();
        for (_, body) in arms {
            let (f, b) = self.block(body);
            branches.push((f, b, completes(body), body));
        }
        let else_src: &[Stmt] = else_body.as_deref().unwrap_or(&[]);
        let (f, b) = self.block(else_src);
        branches.push((f, b, completes(else_src), else_src));
        let n_complete = branches.iter().filter(|b| b.2).count();
        let any_bwd = branches.iter().any(|b| !b.1.is_empty());
        // Tests that give the same answer anywhere in the procedure (which optional
        // arguments are present) are asked again in the backward sweep instead of saved,
        // when no early exit leaves a branch.
        let retest = arms.iter().all(|(cond, _)| invariant_test(cond))
            && n_complete == branches.len()
            && self
                .coded_frame()
                .is_none_or(|(frame, _)| self.jumps.before_inside(frame, s).1 == 0);
        let needs_control = any_bwd && n_complete >= 2 && !retest;
        // Forward: the original test, each completing branch pushing its number.
        let mut fwd_arms = Vec::new();
        for (i, (cond, _)) in arms.iter().enumerate() {
            let mut f = branches[i].0.clone();
            if needs_control && branches[i].2 {
                f.push(self.push_control(i));
            }
            fwd_arms.push((cond.clone(), f));
        }
        let last = arms.len();
        let mut fwd_else = branches[last].0.clone();
        if needs_control && branches[last].2 {
            fwd_else.push(self.push_control(last));
        }
        let fwd_else = if else_body.is_some() || !fwd_else.is_empty() {
            Some(fwd_else)
        } else {
            None
        };
        let single = fwd_arms.len() == 1 && fwd_else.is_none() && fwd_arms[0].1.len() == 1;
        let fwd = Stmt {
            kind: StmtKind::If {
                arms: fwd_arms,
                else_body: fwd_else,
                logical_if: single
                    && matches!(
                        s.kind,
                        StmtKind::If {
                            logical_if: true,
                            ..
                        }
                    ),
                name: name.clone(),
            },
            ..s.clone()
        };
        if !any_bwd {
            return (vec![fwd], Vec::new());
        }
        if retest {
            let mut bwd_arms = Vec::new();
            let mut bwd = branches.into_iter().map(|b| b.1);
            for (cond, _) in arms {
                bwd_arms.push((cond.clone(), bwd.next().unwrap_or_default()));
            }
            let else_bwd = bwd.next().filter(|b| !b.is_empty());
            return (vec![fwd], vec![if_chain(bwd_arms, else_bwd)]);
        }
        // Backward: which branch ran, from the popped control or from the exit code.
        let mut bwd = Vec::new();
        let branch = self.branch();
        let full_select = if needs_control {
            self.pop_control(&branch)
        } else {
            let only = branches.iter().position(|b| b.2).unwrap_or(0);
            assign(Expr::var(&branch), Expr::int(only as i64))
        };
        let coded = self.coded_frame();
        let (before, inside) = match &coded {
            Some((frame, _)) => self.jumps.before_inside(*frame, s),
            None => (0, 0),
        };
        if let (Some((frame, var)), true) = (&coded, inside > 0) {
            let mut chain = vec![(ran_past(var, before + inside), vec![full_select])];
            let mut offset = before;
            for (i, (_, _, _, src)) in branches.iter().enumerate() {
                let n: usize = src
                    .iter()
                    .map(|x| self.jumps.before_inside(*frame, x).1)
                    .sum();
                if n > 0 {
                    let cond =
                        Expr::binary(BinOp::Le, Expr::var(var), Expr::int((offset + n) as i64));
                    chain.push((cond, vec![assign(Expr::var(&branch), Expr::int(i as i64))]));
                }
                offset += n;
            }
            bwd.push(if_chain(chain, None));
        } else {
            bwd.push(full_select);
        }
        let mut chain = Vec::new();
        for (i, (_, b, _, _)) in branches.into_iter().enumerate() {
            if !b.is_empty() {
                chain.push((
                    Expr::binary(BinOp::Eq, Expr::var(&branch), Expr::int(i as i64)),
                    b,
                ));
            }
        }
        bwd.push(if_chain(chain, None));
        (vec![fwd], bwd)
    }

    pub(super) fn loop_stmt(&mut self, s: &Stmt) -> (Vec<Stmt>, Vec<Stmt>) {
        if !self.live(s) {
            return (Vec::new(), Vec::new());
        }
        let frame = FrameKey::Loop(s.id);
        let has_codes = self.jumps.n_codes(frame) > 0;
        let counted = self.jumps.counted.contains(&s.id);
        let (loop_var, start, step, name) = match &s.kind {
            StmtKind::Do {
                var,
                start,
                step,
                name,
                ..
            } => (
                Some(var.clone()),
                Some(&**start),
                step.as_ref(),
                name.clone(),
            ),
            StmtKind::DoWhile { name, .. } => (None, None, None, name.clone()),
            _ => unreachable!("loop_stmt on a loop"),
        };
        let var_spec = loop_var
            .as_deref()
            .and_then(|v| self.ug.unit.symbols.get(v))
            .map(|sym| sym.type_spec.clone())
            .unwrap_or_else(|| TypeSpec::of(ScalarType::Integer(4)));
        // Temporaries for the bounds, needed before the body when early exits push them.
        let mut names = LoopNames::default();
        if has_codes {
            self.loop_names(&mut names, start, step.map(|s| &**s), counted, &var_spec);
            names.code = Some(self.int_temp("ad_jump"));
        }
        let exit_pushes = self.exit_pushes(&names, loop_var.as_deref(), step.map(|s| &**s));
        self.frames.push(Frame {
            key: frame,
            name: name.clone(),
            code_var: names.code.clone(),
            exit_pushes,
        });
        let body = match &s.kind {
            StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => body,
            _ => unreachable!(),
        };
        let (f_body, b_body) = self.block(body);
        self.frames.pop();

        let mut fwd = Vec::new();
        let mut bwd_after = Vec::new();
        if let Some(v) = &loop_var {
            let saved = self.plan.keep_all || self.plan.save_index.contains(&s.id);
            if !saved {
                self.unsaved.insert(key(v));
            }
            if saved {
                if let Some((push, pop)) = self.save(&Expr::var(v), s) {
                    fwd.push(push);
                    bwd_after.push(pop);
                }
            }
        }
        if b_body.is_empty() && !has_codes {
            let mut plain = s.clone();
            set_loop_body(&mut plain, f_body);
            fwd.push(plain);
            return (fwd, bwd_after);
        }
        if !has_codes {
            self.loop_names(&mut names, start, step.map(|s| &**s), counted, &var_spec);
        }
        let step_expr = match (&names.step, step) {
            (Some(t), _) => Expr::var(t),
            (None, Some(e)) => (**e).clone(),
            (None, None) => Expr::int(1),
        };
        let from_expr = match (&names.from, start) {
            (Some(t), _) => Expr::var(t),
            (None, Some(e)) => e.clone(),
            (None, None) => Expr::int(1),
        };
        if let Some(directive) = self.binomial.get(&s.id).cloned() {
            let made = match self.binomial_refusal(s) {
                Some(why) => Err(why),
                None => self.binomial_loop(super::binomial::Parts {
                    loop_stmt: s,
                    directive: &directive,
                    var: loop_var.as_deref(),
                    from: from_expr.clone(),
                    step: step_expr.clone(),
                    names: &names,
                    f_body: f_body.clone(),
                    b_body: b_body.clone(),
                }),
            };
            match made {
                Ok((f, mut b)) => {
                    fwd.extend(f);
                    b.extend(bwd_after);
                    return (fwd, b);
                }
                Err(why) => self.ug.warnings.push(
                    Diagnostic::warning(
                        "W0401",
                        format!(
                            "the directive `$AD BINOMIAL-CKP` is not honoured on this loop: {why}; its adjoint stores every iteration"
                        ),
                    )
                    .at(directive.span)
                    .with_help("the derivatives are right without it; only the memory the adjoint takes differs"),
                ),
            }
        }
        // Forward sweep.
        if let (Some(t), Some(e)) = (&names.from, start) {
            fwd.push(assign(Expr::var(t), e.clone()));
        }
        if let (Some(t), Some(e)) = (&names.step, step) {
            fwd.push(assign(Expr::var(t), (**e).clone()));
        }
        if let Some(c) = &names.count {
            fwd.push(assign(Expr::var(c), Expr::int(0)));
        }
        let mut f_loop_body = Vec::new();
        if let Some(c) = &names.count {
            f_loop_body.push(assign(
                Expr::var(c),
                Expr::binary(BinOp::Add, Expr::var(c), Expr::int(1)),
            ));
        }
        f_loop_body.extend(f_body);
        if has_codes {
            f_loop_body.push(self.push_control(0));
        }
        fwd.push(forward_loop(s, &names, &from_expr, &step_expr, f_loop_body));
        fwd.extend(self.exit_pushes(&names, loop_var.as_deref(), step.map(|s| &**s)));
        // Backward sweep.
        let mut bwd = Vec::new();
        let mut b_loop_body = Vec::new();
        if let Some(code) = &names.code {
            b_loop_body.push(self.pop_control(code));
        }
        bwd.extend(self.pop_bounds(&names, loop_var.as_deref()));
        let b_loop = if let Some(c) = &names.count {
            let index = self.int_temp("ad_i");
            if let Some(v) = &loop_var {
                // i = from + (ad_i - 1)*step
                let offset = Expr::binary(
                    BinOp::Mul,
                    paren(&Expr::binary(BinOp::Sub, Expr::var(&index), Expr::int(1))),
                    paren(&step_expr),
                );
                b_loop_body.insert(
                    0,
                    assign(
                        Expr::var(v),
                        Expr::binary(BinOp::Add, from_expr.clone(), offset),
                    ),
                );
            }
            b_loop_body.extend(b_body);
            do_loop(
                &index,
                Expr::var(c),
                Expr::int(1),
                Some(Expr::int(-1)),
                b_loop_body,
            )
        } else {
            b_loop_body.extend(b_body);
            let v = loop_var.clone().expect("uncounted loops are DO loops");
            let to = names
                .to
                .clone()
                .expect("uncounted loops save their last index");
            do_loop(
                &v,
                Expr::var(to),
                from_expr,
                Some(negate(&step_expr)),
                b_loop_body,
            )
        };
        bwd.push(b_loop);
        bwd.extend(bwd_after);
        (fwd, bwd)
    }

    pub(super) fn loop_names(
        &mut self,
        names: &mut LoopNames,
        start: Option<&Expr>,
        step: Option<&Expr>,
        counted: bool,
        spec: &TypeSpec,
    ) {
        if names.from.is_some() || names.count.is_some() || names.to.is_some() {
            return;
        }
        let is_literal = |e: &Expr| {
            matches!(e.kind, ExprKind::Int(_))
                || matches!(&e.kind, ExprKind::Unary(_, x) if matches!(x.kind, ExprKind::Int(_)))
        };
        if start.is_some_and(|e| !is_literal(e)) {
            names.from = Some(self.ug.temp("ad_from", spec.clone()));
        }
        if step.is_some_and(|e| !is_literal(e)) {
            names.step = Some(self.ug.temp("ad_step", spec.clone()));
        }
        if counted {
            names.count = Some(self.int_temp("ad_count"));
        } else {
            names.to = Some(self.ug.temp("ad_to", spec.clone()));
        }
    }

    /// What a loop pushes when it is left: saved bounds, then its trip information.
    pub(super) fn exit_pushes(
        &mut self,
        names: &LoopNames,
        var: Option<&str>,
        step: Option<&Expr>,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        if names.from.is_none() && names.count.is_none() && names.to.is_none() {
            return out;
        }
        self.ug.uses_runtime = true;
        let bound_ty = self.bound_tape_type(var);
        if let Some(t) = &names.from {
            out.push(push_int(Expr::var(t), bound_ty));
        }
        if let Some(t) = &names.step {
            out.push(push_int(Expr::var(t), bound_ty));
        }
        if let Some(c) = &names.count {
            out.push(push_int(Expr::var(c), TapeType::Integer(4)));
        } else if let Some(v) = var {
            let step = match (&names.step, step) {
                (Some(t), _) => Expr::var(t),
                (None, Some(e)) => e.clone(),
                (None, None) => Expr::int(1),
            };
            out.push(push_int(
                Expr::binary(BinOp::Sub, Expr::var(v), paren(&step)),
                bound_ty,
            ));
        }
        out
    }

    /// The backward sweep's pops of what `exit_pushes` pushed: the trip count or last
    /// index, the step, the start.
    pub(super) fn pop_bounds(&mut self, names: &LoopNames, var: Option<&str>) -> Vec<Stmt> {
        let bound_ty = self.bound_tape_type(var);
        let mut out = Vec::new();
        if let Some(c) = &names.count {
            out.push(self.pop_int(c, TapeType::Integer(4)));
        } else if let Some(t) = &names.to {
            out.push(self.pop_int(t, bound_ty));
        }
        if let Some(t) = &names.step {
            out.push(self.pop_int(t, bound_ty));
        }
        if let Some(t) = &names.from {
            out.push(self.pop_int(t, bound_ty));
        }
        out
    }

    pub(super) fn pop_int(&mut self, var: &str, ty: TapeType) -> Stmt {
        self.ug.uses_runtime = true;
        tape(Tape::new(TapeOp::Pop, ty, Expr::var(var)))
    }

    /// The stack of a loop's saved bounds: the kind of its DO variable (`integer(8)`
    /// loops push 8-byte bounds), default integer otherwise.
    pub(super) fn bound_tape_type(&self, var: Option<&str>) -> TapeType {
        match var
            .and_then(|v| self.ug.unit.symbols.get(v))
            .map(|sym| sym.ty)
        {
            Some(ScalarType::Integer(8)) => TapeType::Integer(8),
            _ => TapeType::Integer(4),
        }
    }

    /// EXIT, CYCLE, RETURN in the forward sweep: push the codes of every frame left, and
    /// the trip information of every loop left early; RETURN jumps to the backward sweep.
    pub(super) fn jump(&mut self, s: &Stmt) -> Vec<Stmt> {
        let pos = self.jumps.extent.get(&s.id).map(|e| e.0).unwrap_or(0);
        let target = match &s.kind {
            StmtKind::Exit { name } | StmtKind::Cycle { name } => {
                let loops: Vec<usize> = (0..self.frames.len())
                    .filter(|&i| matches!(self.frames[i].key, FrameKey::Loop(_)))
                    .collect();
                match name {
                    None => loops.last().copied(),
                    Some(n) => loops.into_iter().rev().find(|&i| {
                        self.frames[i]
                            .name
                            .as_deref()
                            .is_some_and(|l| l.eq_ignore_ascii_case(n))
                    }),
                }
            }
            _ => Some(0),
        };
        let Some(target) = target else {
            return vec![s.clone()];
        };
        let mut out = Vec::new();
        for i in (target..self.frames.len()).rev() {
            let frame = self.frames[i].clone();
            if let Some(code) = self.jumps.code(frame.key, pos) {
                out.push(self.push_control(code));
            }
            if i > target {
                out.extend(frame.exit_pushes.clone());
            }
        }
        if matches!(s.kind, StmtKind::Return) {
            let label = self
                .return_label
                .clone()
                .expect("units with RETURN have a label");
            out.push(Stmt {
                kind: StmtKind::Goto { label },
                ..s.clone()
            });
        } else {
            out.push(s.clone());
        }
        out
    }
}

/// The forward sweep's copy of the loop `s` with the body `body`, its start and step
/// read from the temporaries that saved them (`names`), when there are any.
pub(super) fn forward_loop(
    s: &Stmt,
    names: &LoopNames,
    from: &Expr,
    step: &Expr,
    body: Vec<Stmt>,
) -> Stmt {
    let mut copy = s.clone();
    if let StmtKind::Do {
        start, step: by, ..
    } = &mut copy.kind
    {
        if names.from.is_some() {
            **start = from.clone();
        }
        if names.step.is_some() {
            *by = Some(Box::new(step.clone()));
        }
    }
    set_loop_body(&mut copy, body);
    copy
}
