//! Lowering of statements: expression statements with their steps (`++`, `--`), loops,
//! `if`, `break`, `continue`, `return`.

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};
use lang_c::visit::Visit;

use super::*;
use crate::diag::Span;
use crate::il::{self, BinOp, Expr, ExprKind, Stmt, StmtId, StmtKind, UnOp, key};

impl FnCx<'_, '_> {
    // ---------------------------------------------------------------- statements

    pub(super) fn block_body(&mut self, s: &Node<Statement>, out: &mut Vec<Stmt>) -> R<()> {
        self.scopes.push(Vec::new());
        let r = match &s.node {
            Statement::Compound(items) => {
                let r = self.items(items, out);
                if let Some(end) = self.original(s.span.end) {
                    self.comments_before(end, out);
                }
                r
            }
            _ => self.statement(s, out),
        };
        self.scopes.pop();
        r
    }

    /// Comments placed before the original offset `before`, as statements.
    pub(super) fn comments_before(&mut self, before: usize, out: &mut Vec<Stmt>) {
        while let Some(c) = self.comments.get(*self.comment_cursor) {
            if c.start >= before {
                break;
            }
            *self.comment_cursor += 1;
            for line in &c.lines {
                let id = StmtId(*self.next_id);
                *self.next_id += 1;
                out.push(Stmt {
                    id,
                    kind: StmtKind::Comment(line.clone()),
                    span: Span::new(self.map.file, c.start, c.start),
                    label: None,
                    trailing_comment: None,
                });
            }
        }
    }

    /// Skips the comments before `before` (inside constructs that keep none).
    pub(super) fn skip_comments(&mut self, before: usize) {
        while let Some(c) = self.comments.get(*self.comment_cursor) {
            if c.start >= before {
                break;
            }
            *self.comment_cursor += 1;
        }
    }

    pub(super) fn original(&self, pos: usize) -> Option<usize> {
        self.map.offset(pos)
    }

    pub(super) fn items(&mut self, items: &[Node<BlockItem>], out: &mut Vec<Stmt>) -> R<()> {
        let mut result = Ok(());
        for item in items {
            if let Some(at) = self.original(item.span.start) {
                self.comments_before(at, out);
            }
            let r = match &item.node {
                BlockItem::Declaration(d) => self.declaration(d, out),
                BlockItem::StaticAssert(_) => Ok(()),
                BlockItem::Statement(s) => self.statement(s, out),
            };
            if r.is_err() {
                result = r;
            }
        }
        result
    }

    pub(super) fn statement(&mut self, s: &Node<Statement>, out: &mut Vec<Stmt>) -> R<()> {
        match &s.node {
            Statement::Compound(_) => self.block_body(s, out),
            Statement::Expression(None) => Ok(()),
            Statement::Expression(Some(e)) => self.expr_stmt(e, out),
            Statement::If(i) => {
                let mut arms = Vec::new();
                let mut else_body = None;
                let mut cur = i;
                let mut result = Ok(());
                // `if (++iter >= maxit)`: the steps of the first condition run before the
                // IF (`++iter`) or first thing in each branch (`n-- > 0`).
                let (mut first_cond, post_steps) = if has_steps(&i.node.condition.node) {
                    let chained = matches!(
                        i.node.else_statement.as_ref().map(|e| &e.node),
                        Some(Statement::If(_))
                    );
                    let (cond, pre, post) = self.stepped_cond(&i.node.condition)?;
                    if !post.is_empty() && chained {
                        return Err(self.unsupported(
                            "E0605",
                            "a `++`/`--` after the variable in the condition of an `if` with `else if` \
                             arms (its step would have to run before their conditions)",
                            i.node.condition.span,
                        ));
                    }
                    out.extend(pre);
                    (Some(cond), post)
                } else {
                    (None, Vec::new())
                };
                loop {
                    let cond = match first_cond.take() {
                        Some(c) => Ok(c),
                        None => self.cond(&cur.node.condition),
                    };
                    let mut body = Vec::new();
                    let r = self.block_body(&cur.node.then_statement, &mut body);
                    match cond {
                        Ok(c) => arms.push((c, body)),
                        Err(e) => result = Err(e),
                    }
                    if r.is_err() {
                        result = r;
                    }
                    match &cur.node.else_statement {
                        None => break,
                        Some(e) => match &e.node {
                            Statement::If(next) => cur = next,
                            _ => {
                                let mut b = Vec::new();
                                if self.block_body(e, &mut b).is_err() {
                                    result = Err(Reported);
                                }
                                else_body = Some(b);
                                break;
                            }
                        },
                    }
                }
                result?;
                if !post_steps.is_empty() {
                    for body in arms
                        .iter_mut()
                        .map(|(_, b)| b)
                        .chain(std::iter::once(else_body.get_or_insert_with(Vec::new)))
                    {
                        let mut steps = post_steps.clone();
                        crate::il::visit::renumber(&mut steps, self.next_id);
                        body.splice(0..0, steps);
                    }
                }
                // Arms that never run (`if (w == NULL) { free(w); return; }` after a
                // `malloc`: allocations are taken to succeed) go.
                arms.retain(|(c, _)| heap::const_logical(c) != Some(false));
                if arms.is_empty() {
                    out.extend(else_body.unwrap_or_default());
                    return Ok(());
                }
                let st = self.stmt(
                    StmtKind::If {
                        arms,
                        else_body,
                        logical_if: false,
                        name: None,
                    },
                    s.span,
                );
                out.push(st);
                Ok(())
            }
            Statement::While(w) => {
                if has_steps(&w.node.expression.node) {
                    return self.while_with_steps(w, s.span, out);
                }
                let cond = self.cond(&w.node.expression);
                self.loops.push(LoopKind::Plain);
                let mut body = Vec::new();
                let r = self.block_body(&w.node.statement, &mut body);
                self.loops.pop();
                let cond = cond?;
                r?;
                let st = self.stmt(
                    StmtKind::DoWhile {
                        cond,
                        body,
                        name: None,
                    },
                    s.span,
                );
                out.push(st);
                Ok(())
            }
            Statement::For(f) => self.for_loop(f, s.span, out),
            Statement::DoWhile(w) => {
                if has_steps(&w.node.expression.node) {
                    return self.do_while_with_steps(w, s.span, out);
                }
                // `do B while (c);` → `first = 1; while (first || c) { first = 0; B }`:
                // a `continue` in B still goes to the test.
                let first = self.first_pass_var(s.span);
                let cond = self.cond(&w.node.expression);
                self.loops.push(LoopKind::Plain);
                let mut body = vec![self.stmt(
                    StmtKind::Assign {
                        lhs: Expr::var(&first),
                        rhs: Expr::new(ExprKind::Logical(false)),
                    },
                    s.span,
                )];
                let r = self.block_body(&w.node.statement, &mut body);
                self.loops.pop();
                let cond = cond?;
                r?;
                let init = self.stmt(
                    StmtKind::Assign {
                        lhs: Expr::var(&first),
                        rhs: Expr::new(ExprKind::Logical(true)),
                    },
                    s.span,
                );
                out.push(init);
                let st = self.stmt(
                    StmtKind::DoWhile {
                        cond: Expr::binary(BinOp::Or, Expr::var(&first), cond),
                        body,
                        name: None,
                    },
                    s.span,
                );
                out.push(st);
                Ok(())
            }
            Statement::Continue => {
                if !self.loops.contains(&LoopKind::Plain) {
                    return Err(self.err("E0604", "`continue` outside a loop", s.span));
                }
                let st = self.stmt(StmtKind::Cycle { name: None }, s.span);
                out.push(st);
                Ok(())
            }
            Statement::Break => match self.loops.last() {
                None => Err(self.err("E0604", "`break` outside a loop or a switch", s.span)),
                Some(LoopKind::Switch) => {
                    // A `break` of the switch inside an `if` of a case: a marker that
                    // `guard_switch_breaks` turns into a flag.
                    let st = self.stmt(
                        StmtKind::Exit {
                            name: Some(SWITCH_BREAK.into()),
                        },
                        s.span,
                    );
                    out.push(st);
                    Ok(())
                }
                Some(LoopKind::Plain) => {
                    let st = self.stmt(StmtKind::Exit { name: None }, s.span);
                    out.push(st);
                    Ok(())
                }
            },
            Statement::Return(e) => {
                match (e, self.result.clone()) {
                    // `return c;`, `return add(a, b);` of a function returning a struct.
                    (Some(e), Some((r, rty @ Ty::Struct(_)))) => {
                        self.with_effects(out, e, |cx, out| {
                            cx.return_struct(e, &r, rty, s.span, out)
                        })?;
                    }
                    (Some(e), Some((r, rty))) => {
                        self.with_effects(out, e, |cx, out| {
                            let (v, ty) = cx.value(e)?;
                            cx.check_assignable(rty, ty, e.span)?;
                            let st = cx.stmt(
                                StmtKind::Assign {
                                    lhs: Expr::var(&r),
                                    rhs: v,
                                },
                                s.span,
                            );
                            out.push(st);
                            Ok(())
                        })?;
                    }
                    (None, None) => {}
                    _ => {
                        return Err(self.err(
                            "E0604",
                            "`return` does not match the function's return type",
                            s.span,
                        ));
                    }
                }
                let st = self.stmt(StmtKind::Return, s.span);
                out.push(st);
                Ok(())
            }
            Statement::Switch(sw) => self.switch(sw, s.span, out),
            Statement::Labeled(l) if !matches!(l.node.label.node, Label::Identifier(_)) => {
                Err(self.unsupported(
                    "E0604",
                    "a `case` or `default` label that is not directly in the body of its \
                     `switch`",
                    s.span,
                ))
            }
            Statement::Goto(_) | Statement::Labeled(_) => {
                Err(self.unsupported("E0604", "`goto` and labels", s.span))
            }
            Statement::Asm(_) => Err(self.unsupported("E0604", "inline assembly", s.span)),
        }
    }

    /// An expression statement: assignment, compound assignment, `++`/`--`, call.
    pub(super) fn expr_stmt(&mut self, e: &Node<Expression>, out: &mut Vec<Stmt>) -> R<()> {
        // `(void)e;` discards the value of `e`: what it does is what `e;` does.
        if let Expression::Cast(c) = &e.node {
            if is_void(&c.node.type_name.node) {
                return self.expr_stmt(&c.node.expression, out);
            }
        }
        // `n;`, `(void)n;` (the usual way to silence an unused parameter) and any other
        // expression that changes nothing: nothing to run, nothing to differentiate.
        if side_effect_free(&e.node) {
            return Ok(());
        }
        if let Expression::Comma(items) = &e.node {
            // `i++, p++` (a `for` step): one statement per operand, in order.
            for item in items.iter() {
                self.expr_stmt(item, out)?;
            }
            return Ok(());
        }
        self.with_effects(out, e, |cx, out| cx.expr_stmt_inner(e, out))
    }

    /// Lowers one statement in which pointers may be stepped (`*q++ = *p++;`): the steps
    /// run after it (`p++`) or before it (`++p`). A pointer stepped there must not be
    /// used twice in it (C leaves the order unspecified).
    pub(super) fn with_effects(
        &mut self,
        out: &mut Vec<Stmt>,
        source: &Node<Expression>,
        mut f: impl FnMut(&mut Self, &mut Vec<Stmt>) -> R<()>,
    ) -> R<()> {
        self.dispatched(out, source, |cx, out| {
            cx.with_effects_once(out, source, &mut f)
        })
    }

    fn with_effects_once(
        &mut self,
        out: &mut Vec<Stmt>,
        source: &Node<Expression>,
        f: &mut impl FnMut(&mut Self, &mut Vec<Stmt>) -> R<()>,
    ) -> R<()> {
        let saved_ok = std::mem::replace(&mut self.effects_ok, true);
        let saved = std::mem::take(&mut self.fx);
        let mut body = Vec::new();
        let r = f(self, &mut body);
        let fx = std::mem::replace(&mut self.fx, saved);
        self.effects_ok = saved_ok;
        r?;
        self.check_steps(&fx, source)?;
        out.extend(fx.pre);
        out.extend(body);
        out.extend(fx.post);
        Ok(())
    }

    /// `while (n-- > 0) B`, a step in the condition: `while (1) { if (!(n > 0)) { n--;
    /// break; } n--; B }`: the steps run whether the test passes or not, and `continue`
    /// in B goes back to the test.
    pub(super) fn while_with_steps(
        &mut self,
        w: &Node<WhileStatement>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let body = self.stepped_test(&w.node.expression, at)?;
        self.loop_forever(body, &w.node.statement, at, out)
    }

    /// `DO WHILE (.true.)` whose body is `head` (the loop's own test and steps, which
    /// leave by EXIT) followed by the lowered statement `s`.
    fn loop_forever(
        &mut self,
        mut head: Vec<Stmt>,
        s: &Node<Statement>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        self.loops.push(LoopKind::Plain);
        let r = self.block_body(s, &mut head);
        self.loops.pop();
        r?;
        let st = self.stmt(
            StmtKind::DoWhile {
                cond: Expr::new(ExprKind::Logical(true)),
                body: head,
                name: None,
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    pub(super) fn expr_stmt_inner(&mut self, e: &Node<Expression>, out: &mut Vec<Stmt>) -> R<()> {
        use BinaryOperator as B;
        if let Some(name) = self.moving_target(e) {
            return self.pointer_assign(&name, e, out);
        }
        // `w = malloc(...)` and `free(w)` of a work array.
        match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == B::Assign => {
                if let Expression::Identifier(id) = &b.node.lhs.node {
                    if self.is_variable(&id.node.il())
                        && matches!(self.vars[&key(&id.node.il())].kind, VarKind::Heap(_))
                    {
                        return self.allocate(&id.node.il(), &b.node.rhs, e.span, out);
                    }
                }
            }
            Expression::Call(c) => {
                if let Expression::Identifier(id) = &c.node.callee.node {
                    if id.node.il() == "free" && !self.protos.contains_key("free") {
                        return self.free_stmt(&c.node.arguments, e.span, out);
                    }
                }
            }
            _ => {}
        }
        match &e.node {
            Expression::BinaryOperator(b) => {
                let op = match b.node.operator.node {
                    B::Assign => None,
                    B::AssignPlus => Some(BinOp::Add),
                    B::AssignMinus => Some(BinOp::Sub),
                    B::AssignMultiply => Some(BinOp::Mul),
                    B::AssignDivide => Some(BinOp::Div),
                    B::AssignModulo => {
                        let (lhs, lty) = self.lvalue(&b.node.lhs)?;
                        let (rhs, rty) = self.value(&b.node.rhs)?;
                        if !matches!((lty, rty), (Ty::Int(_), Ty::Int(_))) {
                            return Err(self.err("E0605", "`%=` needs integer operands", e.span));
                        }
                        let rhs = Expr::intrinsic(il::Intrinsic::Mod, vec![lhs.clone(), rhs]);
                        let st = self.stmt(StmtKind::Assign { lhs, rhs }, e.span);
                        out.push(st);
                        return Ok(());
                    }
                    B::AssignShiftLeft
                    | B::AssignShiftRight
                    | B::AssignBitwiseAnd
                    | B::AssignBitwiseOr
                    | B::AssignBitwiseXor => {
                        let name = super::expr::bit_op_name(&b.node.operator.node)
                            .expect("a compound bit operator");
                        let (lhs, lty) = self.lvalue(&b.node.lhs)?;
                        let (rhs, rty) = self.value(&b.node.rhs)?;
                        if !matches!((lty, rty), (Ty::Int(_), Ty::Int(_))) {
                            return Err(self.err(
                                "E0605",
                                "shift and bitwise assignments need integer operands",
                                e.span,
                            ));
                        }
                        let rhs = super::expr::bit_op(name, vec![lhs.clone(), rhs]);
                        let st = self.stmt(StmtKind::Assign { lhs, rhs }, e.span);
                        out.push(st);
                        return Ok(());
                    }
                    _ => return Err(self.no_effect(e)),
                };
                if op.is_none() && self.is_struct_valued(&b.node.lhs.node) {
                    return self.struct_assign(&b.node.lhs, &b.node.rhs, e.span, out);
                }
                let (lhs, lty) = self.lvalue(&b.node.lhs)?;
                let (rhs, rty) = self.value(&b.node.rhs)?;
                self.check_assignable(lty, rty, b.node.rhs.span)?;
                let rhs = match op {
                    None => rhs,
                    Some(op) => Expr::binary(op, lhs.clone(), paren_if_binary(rhs)),
                };
                let st = self.stmt(StmtKind::Assign { lhs, rhs }, e.span);
                out.push(st);
                Ok(())
            }
            Expression::UnaryOperator(u) => {
                use UnaryOperator as U;
                let op = match u.node.operator.node {
                    U::PostIncrement | U::PreIncrement => BinOp::Add,
                    U::PostDecrement | U::PreDecrement => BinOp::Sub,
                    _ => return Err(self.no_effect(e)),
                };
                let (lhs, lty) = self.lvalue(&u.node.operand)?;
                let one = match lty {
                    Ty::Real(k) => Expr::real("1.0", k),
                    _ => int_lit(1),
                };
                let rhs = Expr::binary(op, lhs.clone(), one);
                let st = self.stmt(StmtKind::Assign { lhs, rhs }, e.span);
                out.push(st);
                Ok(())
            }
            Expression::Call(c) => {
                let name = self.callee(c)?;
                if math(&name).is_some() {
                    return Err(self.no_effect(e));
                }
                if output::is_output_or_exit(&name) && !self.protos.contains_key(&name) {
                    return self.output_stmt(&name, e, out);
                }
                let proto = self.proto(&name, c.span)?;
                if proto.ret != Ty::Void {
                    return Err(self.unsupported(
                        "E0605",
                        "calling a function and discarding its value",
                        e.span,
                    ));
                }
                let args = self.call_args(&name, &proto, c)?;
                let st = self.stmt(StmtKind::Call { name, args }, e.span);
                out.push(st);
                Ok(())
            }
            Expression::Comma(_) => Err(self.unsupported("E0605", "the comma operator", e.span)),
            _ => Err(self.no_effect(e)),
        }
    }

    pub(super) fn no_effect(&mut self, e: &Node<Expression>) -> Reported {
        self.unsupported("E0604", "an expression statement without effect", e.span)
    }

    pub(super) fn for_loop(
        &mut self,
        f: &Node<ForStatement>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        self.scopes.push(Vec::new());
        let r = self.for_loop_inner(f, at, out);
        self.scopes.pop();
        r
    }

    pub(super) fn for_loop_inner(
        &mut self,
        f: &Node<ForStatement>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let mut init = Vec::new();
        match &f.node.initializer.node {
            ForInitializer::Empty => {}
            ForInitializer::Expression(e) => self.expr_stmt(e, &mut init)?,
            ForInitializer::Declaration(d) => self.declaration(d, &mut init)?,
            ForInitializer::StaticAssert(_) => {}
        }
        if let Some(st) = self.counted(f, &init)? {
            out.push(st);
            return Ok(());
        }
        out.extend(init);
        // `for (...; ++k < n; ...)`: the condition's steps run at each test, in a test
        // that leaves the loop (`while_with_steps`'s form).
        let stepped = f.node.condition.as_ref().filter(|c| has_steps(&c.node));
        let cond = match &f.node.condition {
            Some(_) if stepped.is_some() => Expr::new(ExprKind::Logical(true)),
            Some(c) => self.cond(c)?,
            None => Expr::new(ExprKind::Logical(true)),
        };
        let mut step = Vec::new();
        if let Some(s) = &f.node.step {
            self.expr_stmt(s, &mut step)?;
        }
        let continue_ok = step.is_empty() || !has_own_continue(&f.node.statement.node);
        if let (Some(c), true) = (stepped, step.is_empty()) {
            let test = self.stepped_test(c, at)?;
            return self.loop_forever(test, &f.node.statement, at, out);
        }
        if !continue_ok || stepped.is_some() {
            // `continue` must reach the increment: `first_pass = 1; while (1) { if
            // (!first_pass) step; first_pass = 0; if (!cond) break; body }`.
            let first = self.first_pass_var(at);
            let set = |cx: &mut Self, v: bool| {
                cx.stmt(
                    StmtKind::Assign {
                        lhs: Expr::var(&first),
                        rhs: Expr::new(ExprKind::Logical(v)),
                    },
                    at,
                )
            };
            let init_flag = set(self, true);
            out.push(init_flag);
            let mut body = vec![self.stmt(
                StmtKind::If {
                    arms: vec![(Expr::unary(UnOp::Not, Expr::var(&first)), step)],
                    else_body: None,
                    logical_if: false,
                    name: None,
                },
                at,
            )];
            let clear = set(self, false);
            body.push(clear);
            if let Some(c) = stepped {
                body.extend(self.stepped_test(c, at)?);
                return self.loop_forever(body, &f.node.statement, at, out);
            }
            let exit = self.stmt(StmtKind::Exit { name: None }, at);
            let test = self.stmt(
                StmtKind::If {
                    arms: vec![(Expr::unary(UnOp::Not, paren_if_binary(cond)), vec![exit])],
                    else_body: None,
                    logical_if: false,
                    name: None,
                },
                at,
            );
            body.push(test);
            return self.loop_forever(body, &f.node.statement, at, out);
        }
        self.loops.push(LoopKind::Plain);
        let mut body = Vec::new();
        let r = self.block_body(&f.node.statement, &mut body);
        self.loops.pop();
        r?;
        body.extend(step);
        let st = self.stmt(
            StmtKind::DoWhile {
                cond,
                body,
                name: None,
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// A new logical local `first_pass` (made unique) for loops that must tell their
    /// first iteration.
    pub(super) fn first_pass_var(&mut self, at: CSpan) -> String {
        self.flag_var("first_pass", at)
    }

    /// A new logical local named after `base` (made unique).
    pub(super) fn flag_var(&mut self, base: &str, at: CSpan) -> String {
        let mut n = 0;
        let mut first = base.to_string();
        while self.vars.contains_key(crate::il::key_ref(&first).as_ref())
            || self.protos.contains_key(&first)
            || self.idents.contains(crate::il::key_ref(&first).as_ref())
        {
            first = format!("{base}{n}");
            n += 1;
        }
        self.vars.insert(
            key(&first),
            Var {
                name: first.clone(),
                ty: Ty::Bool,
                kind: VarKind::Local,
            },
        );
        self.push_decl(&first, Ty::Bool, Vec::new(), None, None, None, false, at);
        first
    }

    /// `do B while (--n > 0);`, a step in the condition: `first = 1; while (1) { if
    /// (!first) { <stepped test> } first = 0; B }`, so that `continue` in B reaches the
    /// test.
    pub(super) fn do_while_with_steps(
        &mut self,
        w: &Node<DoWhileStatement>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let first = self.first_pass_var(at);
        let test = self.stepped_test(&w.node.expression, at)?;
        let mut body = vec![self.stmt(
            StmtKind::If {
                arms: vec![(Expr::unary(UnOp::Not, Expr::var(&first)), test)],
                else_body: None,
                logical_if: false,
                name: None,
            },
            at,
        )];
        let clear = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&first),
                rhs: Expr::new(ExprKind::Logical(false)),
            },
            at,
        );
        body.push(clear);
        self.loops.push(LoopKind::Plain);
        let r = self.block_body(&w.node.statement, &mut body);
        self.loops.pop();
        r?;
        let init = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&first),
                rhs: Expr::new(ExprKind::Logical(true)),
            },
            at,
        );
        out.push(init);
        let st = self.stmt(
            StmtKind::DoWhile {
                cond: Expr::new(ExprKind::Logical(true)),
                body,
                name: None,
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// `for (i = a; i < b; i++)` and its kin as a counted DO loop, when the body
    /// assigns neither `i` nor the variables of `b`.
    pub(super) fn counted(&mut self, f: &Node<ForStatement>, init: &[Stmt]) -> R<Option<Stmt>> {
        let [
            Stmt {
                kind: StmtKind::Assign { lhs, rhs: start },
                ..
            },
        ] = init
        else {
            return Ok(None);
        };
        let ExprKind::Var(var) = &lhs.kind else {
            return Ok(None);
        };
        if !matches!(
            self.vars.get(crate::il::key_ref(var).as_ref()),
            Some(Var {
                ty: Ty::Int(_),
                kind: VarKind::Local,
                ..
            })
        ) {
            return Ok(None);
        }
        let (Some(cond), Some(step)) = (&f.node.condition, &f.node.step) else {
            return Ok(None);
        };
        // The step: a literal increment.
        let Some(inc) = literal_step(&step.node, var) else {
            return Ok(None);
        };
        let Expression::BinaryOperator(c) = &cond.node else {
            return Ok(None);
        };
        let Expression::Identifier(cv) = &c.node.lhs.node else {
            return Ok(None);
        };
        if cv.node.il() != *var {
            return Ok(None);
        }
        use BinaryOperator as B;
        let (adjust, up) = match c.node.operator.node {
            B::Less => (-1, true),
            B::LessOrEqual => (0, true),
            B::Greater => (1, false),
            B::GreaterOrEqual => (0, false),
            _ => return Ok(None),
        };
        if (inc > 0) != up || inc == 0 {
            return Ok(None);
        }
        // The body must not change the variable or the bound.
        let mut assigned = Assigned::default();
        assigned.visit_statement(&f.node.statement.node, &f.node.statement.span);
        let mut bound_names = Indexed::default();
        bound_names.visit_expression(&c.node.rhs.node, &c.node.rhs.span);
        if assigned.names.contains(var)
            || bound_names
                .idents
                .iter()
                .any(|n| assigned.names.iter().any(|a| key(a) == *n))
        {
            return Ok(None);
        }
        let (bound, bty) = self.value(&c.node.rhs)?;
        if !matches!(bty, Ty::Int(_)) {
            return Ok(None);
        }
        let end = match (&bound.kind, adjust) {
            (_, 0) => bound,
            (ExprKind::Int(t), a) if t.parse::<i64>().is_ok() => {
                int_lit(t.parse::<i64>().expect("checked by the guard") + a)
            }
            (_, a) if a < 0 => Expr::binary(BinOp::Sub, bound, int_lit(-a)),
            (_, a) => Expr::binary(BinOp::Add, bound, int_lit(a)),
        };
        self.loops.push(LoopKind::Plain);
        let mut body = Vec::new();
        let r = self.block_body(&f.node.statement, &mut body);
        self.loops.pop();
        r?;
        let st = self.stmt(
            StmtKind::Do {
                var: var.clone(),
                start: Box::new(start.clone()),
                end: Box::new(end),
                step: (inc != 1).then(|| Box::new(int_lit(inc))),
                body,
                name: None,
            },
            f.span,
        );
        Ok(Some(st))
    }
}

/// `void`, as the type of a cast (`(void)n`).
fn is_void(t: &TypeName) -> bool {
    t.declarator.is_none()
        && !t.specifiers.is_empty()
        && t.specifiers.iter().all(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(ts) => matches!(ts.node, TypeSpecifier::Void),
            SpecifierQualifier::TypeQualifier(_) => true,
            SpecifierQualifier::Extension(_) => false,
        })
}

/// An expression whose evaluation changes nothing: no assignment, no `++`/`--`, no call
/// (a call of a function with side effects could hide anywhere), no compound literal.
fn side_effect_free(e: &Expression) -> bool {
    use UnaryOperator as U;
    match e {
        Expression::Identifier(_)
        | Expression::Constant(_)
        | Expression::StringLiteral(_)
        | Expression::SizeOfTy(_)
        | Expression::SizeOfVal(_)
        | Expression::AlignOf(_)
        | Expression::OffsetOf(_) => true,
        Expression::Member(m) => side_effect_free(&m.node.expression.node),
        Expression::Cast(c) => side_effect_free(&c.node.expression.node),
        Expression::UnaryOperator(u) => {
            !matches!(
                u.node.operator.node,
                U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement
            ) && side_effect_free(&u.node.operand.node)
        }
        Expression::BinaryOperator(b) => {
            assign_target(&b.node).is_none()
                && side_effect_free(&b.node.lhs.node)
                && side_effect_free(&b.node.rhs.node)
        }
        Expression::Conditional(c) => {
            side_effect_free(&c.node.condition.node)
                && side_effect_free(&c.node.then_expression.node)
                && side_effect_free(&c.node.else_expression.node)
        }
        Expression::Comma(items) => items.iter().all(|i| side_effect_free(&i.node)),
        _ => false,
    }
}
