//! Steps inside expressions: `++`/`--` of a variable or a moving pointer and
//! assignments (`(t = f(x)) > m`) run before or after the statement that holds them, and
//! conditions that hold them (`if (++iter >= maxit)`, loop tests).

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::diag::Diagnostic;
use crate::il::{BinOp, Expr, Stmt, StmtKind, UnOp};

impl FnCx<'_, '_> {
    /// A pointer or variable stepped inside a statement or a condition (`*p++`, `y[k++]`,
    /// `n-- > 0`) must be used only once there: C leaves the order of the other uses
    /// unspecified.
    pub(super) fn check_steps(&mut self, fx: &Effects, source: &Node<Expression>) -> R<()> {
        let at = self.span(source.span);
        let twice = |what: &str, name: &str| {
            Diagnostic::error(
                "E0605",
                format!(
                    "{what} `{name}` is stepped (`++`/`--`) or assigned inside an expression \
                     and used again in the same statement: C leaves the order unspecified"
                ),
            )
            .at(at)
            .with_help("step it in a statement of its own")
        };
        for p in &fx.stepped {
            if fx.ptr_uses.get(p).copied().unwrap_or(0) > 1 {
                self.diags.push(twice("the pointer", p));
                return Err(Reported);
            }
        }
        for name in &fx.stepped_vars {
            if count_identifier(&source.node, name) > 1 {
                self.diags.push(twice("the variable", name));
                return Err(Reported);
            }
        }
        Ok(())
    }

    /// `k++`, `--n` inside an expression: the value of `k` (of `n` after the step), with
    /// the step run after (before) the statement.
    pub(super) fn scalar_step(
        &mut self,
        u: &Node<UnaryOperatorExpression>,
        at: CSpan,
    ) -> R<(Expr, Ty)> {
        use UnaryOperator as U;
        if self.is_ptr(&u.node.operand.node) {
            return Err(self.unsupported(
                "E0605",
                "a pointer step used as a pointer value (write `*p++`, or step `p` apart)",
                at,
            ));
        }
        let var = match &u.node.operand.node {
            Expression::Identifier(id) => self.var(&id.node.il(), u.node.operand.span)?,
            _ => {
                return Err(self.unsupported(
                    "E0605",
                    "`++`/`--` of an array element or of `*p` inside an expression",
                    at,
                ));
            }
        };
        if var.kind != VarKind::Local || !var.ty.is_numeric() {
            return Err(self.unsupported(
                "E0605",
                &format!("`++`/`--` of `{}` inside an expression", var.name),
                at,
            ));
        }
        if !self.effects_ok {
            return Err(self.unsupported(
                "E0605",
                "`++`/`--` in an `else if` condition or after `&&`/`||` (they are accepted \
                 in statements, in branches of `?:` and in `if`, `while`, `do ... while` and \
                 `for` conditions)",
                at,
            ));
        }
        let one = match var.ty {
            Ty::Real(k) => Expr::real("1.0", k),
            _ => int_lit(1),
        };
        let op = &u.node.operator.node;
        let bin = if matches!(op, U::PostDecrement | U::PreDecrement) {
            BinOp::Sub
        } else {
            BinOp::Add
        };
        let step = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&var.name),
                rhs: Expr::binary(bin, Expr::var(&var.name), one),
            },
            at,
        );
        if matches!(op, U::PostIncrement | U::PostDecrement) {
            self.fx.post.push(step);
        } else {
            self.fx.pre.push(step);
        }
        if let Expression::Identifier(id) = &u.node.operand.node {
            self.fx.stepped_vars.insert(id.node.il());
        }
        Ok((Expr::var(&var.name).spanned(self.span(at)), var.ty))
    }

    /// `(t = fabs(x)) > big`, an assignment inside an expression (`if ((t = f(x)) > m)`,
    /// as C codes test and keep a value at once): the assignment runs before the
    /// statement, as `++k` does, and its value is the variable's. The variable must be a
    /// numeric local used once in the statement.
    pub(super) fn assignment_value(
        &mut self,
        e: &Node<Expression>,
        lhs: &Node<Expression>,
    ) -> R<(Expr, Ty)> {
        let var = match &lhs.node {
            Expression::Identifier(id) => Some(self.var(&id.node.il(), lhs.span)?),
            _ => None,
        };
        let Some(var) = var.filter(|v| v.kind == VarKind::Local && v.ty.is_numeric()) else {
            return Err(self.unsupported(
                "E0605",
                "an assignment inside an expression to anything but a local variable",
                e.span,
            ));
        };
        if !self.effects_ok {
            return Err(self.unsupported(
                "E0605",
                "an assignment in an `else if` condition or after `&&`/`||` (it is accepted \
                 in statements, in branches of `?:` and in `if`, `while`, `do ... while` and \
                 `for` conditions)",
                e.span,
            ));
        }
        let mut assigned = Vec::new();
        self.expr_stmt_inner(e, &mut assigned)?;
        self.fx.pre.extend(assigned);
        self.fx.stepped_vars.insert(var.name.clone());
        Ok((Expr::var(&var.name).spanned(self.span(e.span)), var.ty))
    }

    /// A condition that steps a variable (`++iter >= maxit`): the condition, the steps to
    /// run before it and those to run after it.
    pub(super) fn stepped_cond(&mut self, e: &Node<Expression>) -> R<(Expr, Vec<Stmt>, Vec<Stmt>)> {
        let saved_ok = std::mem::replace(&mut self.effects_ok, true);
        let saved = std::mem::take(&mut self.fx);
        let r = self.expr(e);
        let fx = std::mem::replace(&mut self.fx, saved);
        self.effects_ok = saved_ok;
        let (v, ty) = r?;
        let cond = self.to_bool(v, ty);
        self.check_steps(&fx, e)?;
        Ok((cond, fx.pre, fx.post))
    }

    /// The test of a loop whose condition steps a variable, as statements that leave the
    /// loop: `pre-steps; if (!c) { post-steps; break; } post-steps`.
    pub(super) fn stepped_test(&mut self, e: &Node<Expression>, at: CSpan) -> R<Vec<Stmt>> {
        let (cond, pre, post) = self.stepped_cond(e)?;
        let mut exit_body = post.clone();
        crate::il::visit::renumber(&mut exit_body, self.next_id);
        let exit = self.stmt(StmtKind::Exit { name: None }, at);
        exit_body.push(exit);
        let mut test = pre;
        let leave = self.stmt(
            StmtKind::If {
                arms: vec![(Expr::unary(UnOp::Not, paren_if_binary(cond)), exit_body)],
                else_body: None,
                logical_if: false,
                name: None,
            },
            at,
        );
        test.push(leave);
        test.extend(post);
        Ok(test)
    }

    /// Does `e` call a function of the file or a library (not `math.h`)?
    pub(super) fn calls_a_function(&self, e: &Expression) -> bool {
        struct Finder {
            found: bool,
        }
        impl<'ast> lang_c::visit::Visit<'ast> for Finder {
            fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast CSpan) {
                self.found |= !matches!(&c.callee.node,
                    Expression::Identifier(id) if math(&id.node.name).is_some());
                lang_c::visit::visit_call_expression(self, c, span);
            }
        }
        let mut f = Finder { found: false };
        lang_c::visit::Visit::visit_expression(&mut f, e, &CSpan::none());
        f.found
    }

    /// `c ? a[k++] : g(x)`, a conditional whose branches step a variable or call a
    /// function: only the branch taken may run, so it becomes, before the statement,
    /// `if (c) { t = a[k]; k++; } else t = g(x);` and its value is the new local `t`.
    pub(super) fn conditional_by_branches(
        &mut self,
        c: &Node<ConditionalExpression>,
        at: CSpan,
    ) -> R<(Expr, Ty)> {
        let cond = self.cond(&c.node.condition)?;
        let mut branches = Vec::new();
        for b in [&c.node.then_expression, &c.node.else_expression] {
            let saved = std::mem::take(&mut self.fx);
            let r = self.value(b);
            let fx = std::mem::replace(&mut self.fx, saved);
            let (v, ty) = r?;
            self.check_steps(&fx, b)?;
            self.fx.stepped.extend(fx.stepped.iter().cloned());
            self.fx.stepped_vars.extend(fx.stepped_vars.iter().cloned());
            for (p, n) in &fx.ptr_uses {
                *self.fx.ptr_uses.entry(p.clone()).or_insert(0) += n;
            }
            branches.push((v, ty, fx.pre, fx.post));
        }
        let ty = promote(branches[0].1, branches[1].1);
        let t = self.fresh_local("cond_value", ty, at);
        let mut bodies = Vec::new();
        for (v, _, pre, post) in branches {
            let mut body = pre;
            let assign = self.stmt(
                StmtKind::Assign {
                    lhs: Expr::var(&t),
                    rhs: v,
                },
                at,
            );
            body.push(assign);
            body.extend(post);
            bodies.push(body);
        }
        let else_body = bodies.pop();
        let then_body = bodies.pop().expect("two branches");
        let st = self.stmt(
            StmtKind::If {
                arms: vec![(cond, then_body)],
                else_body,
                logical_if: false,
                name: None,
            },
            at,
        );
        self.fx.pre.push(st);
        Ok((Expr::var(&t).spanned(self.span(at)), ty))
    }
}
