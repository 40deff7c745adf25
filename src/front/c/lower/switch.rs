//! Lowering of `switch`: an IF chain; a case that falls through repeats the following
//! cases' statements up to the `break`.

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::il::{self, BinOp, Expr, ExprKind, Stmt, StmtId, StmtKind, UnOp};

impl FnCx<'_, '_> {
    /// `switch (sel) { case a: A; case b: B; break; default: D; }` as an IF chain:
    /// `if (sel == a) { A B } else if (sel == b) { B } else { D }`. A case that falls
    /// through continues with the statements of the following cases up to the `break`
    /// (copied). A `break` must end its case at the top level of the case's statements;
    /// one nested in an `if` is refused.
    pub(super) fn switch(
        &mut self,
        sw: &Node<SwitchStatement>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let (sel, sel_ty) = self.value(&sw.node.expression)?;
        if !matches!(sel_ty, Ty::Int(_)) {
            return Err(self.err(
                "E0604",
                "a `switch` needs an integer selector",
                sw.node.expression.span,
            ));
        }
        let mut has_call = false;
        il::visit::walk_expr(&sel, &mut |y| {
            has_call |= matches!(y.kind, ExprKind::Call(..));
        });
        if has_call {
            let e = self.unsupported(
                "E0604",
                "a function call in a `switch` selector (it would be evaluated once per case)",
                sw.node.expression.span,
            );
            self.diags
                .last_mut()
                .expect("a diagnostic was just pushed")
                .help = Some("store the value in a variable and switch on that".into());
            return Err(e);
        }
        let one;
        let stmts: Vec<&Node<BlockItem>> = match &sw.node.statement.node {
            Statement::Compound(items) => items.iter().collect(),
            _ => {
                one = Node::new(
                    BlockItem::Statement((*sw.node.statement).clone()),
                    sw.node.statement.span,
                );
                vec![&one]
            }
        };
        self.scopes.push(Vec::new());
        self.loops.push(LoopKind::Switch);
        let r = self.switch_segments(&sel, &stmts);
        self.loops.pop();
        self.scopes.pop();
        if let Some(end) = self.original(sw.node.statement.span.end) {
            self.skip_comments(end);
        }
        let segments = r?;
        let mut arms = Vec::new();
        let mut else_body = None;
        let mut originals: Vec<Option<Vec<Stmt>>> =
            segments.iter().map(|seg| Some(seg.body.clone())).collect();
        let mut done_flag: Option<String> = None;
        for (j, seg) in segments.iter().enumerate() {
            let mut body = originals[j].take().unwrap_or_default();
            let mut k = j;
            while !segments[k].ends && k + 1 < segments.len() {
                k += 1;
                let mut copy = segments[k].body.clone();
                crate::il::visit::renumber(&mut copy, self.next_id);
                body.extend(copy);
            }
            if has_switch_break(&body) {
                let flag = match &done_flag {
                    Some(f) => f.clone(),
                    None => {
                        let f = self.flag_var("switch_done", at);
                        done_flag = Some(f.clone());
                        f
                    }
                };
                body = self.guard_switch_breaks(body, &flag);
            }
            if seg.is_default {
                else_body = Some(body);
            } else {
                let mut tests = seg.tests.clone().into_iter();
                let Some(first) = tests.next() else {
                    continue;
                };
                let cond = tests.fold(first, |acc, t| Expr::binary(BinOp::Or, acc, t));
                arms.push((cond, body));
            }
        }
        if else_body.is_none() {
            arms.retain(|(_, body)| !body.is_empty());
        }
        if let Some(flag) = &done_flag {
            let st = self.stmt(
                StmtKind::Assign {
                    lhs: Expr::var(flag),
                    rhs: Expr::new(ExprKind::Logical(false)),
                },
                at,
            );
            out.push(st);
        }
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
            at,
        );
        out.push(st);
        Ok(())
    }

    /// A `break` nested in an `if` of a case sets `flag`; the statements after that `if`
    /// run only while `flag` is unset: `if (c) { A; break; } B` becomes
    /// `if (c) { A; flag = 1; } if (!flag) { B }`.
    pub(super) fn guard_switch_breaks(&mut self, stmts: Vec<Stmt>, flag: &str) -> Vec<Stmt> {
        let mut out = Vec::new();
        let mut rest = stmts.into_iter();
        while let Some(mut s) = rest.next() {
            let holds_break = has_switch_break(std::slice::from_ref(&s));
            match &mut s.kind {
                StmtKind::Exit { name: Some(n) } if n == SWITCH_BREAK => {
                    s.kind = StmtKind::Assign {
                        lhs: Expr::var(flag),
                        rhs: Expr::new(ExprKind::Logical(true)),
                    };
                    out.push(s);
                    // What follows a `break` in its block never runs.
                    return out;
                }
                StmtKind::If {
                    arms, else_body, ..
                } if holds_break => {
                    for (_, body) in arms.iter_mut() {
                        *body = self.guard_switch_breaks(std::mem::take(body), flag);
                    }
                    if let Some(body) = else_body {
                        *body = self.guard_switch_breaks(std::mem::take(body), flag);
                    }
                    out.push(s);
                    let after: Vec<Stmt> = rest.collect();
                    if !after.is_empty() {
                        let guarded = self.guard_switch_breaks(after, flag);
                        let mut st = Stmt::generated(StmtKind::If {
                            arms: vec![(Expr::unary(UnOp::Not, Expr::var(flag)), guarded)],
                            else_body: None,
                            logical_if: false,
                            name: None,
                        });
                        st.id = StmtId(*self.next_id);
                        *self.next_id += 1;
                        out.push(st);
                    }
                    return out;
                }
                _ => out.push(s),
            }
        }
        out
    }

    /// The segments of a switch body, each lowered once.
    pub(super) fn switch_segments(
        &mut self,
        sel: &Expr,
        items: &[&Node<BlockItem>],
    ) -> R<Vec<CaseSegment>> {
        let mut segments: Vec<CaseSegment> = Vec::new();
        let mut result = Ok(());
        // Statements before the first label, or after a `break` and before the next
        // label, are never executed.
        let mut live = false;
        for item in items {
            let stmt = match &item.node {
                BlockItem::Statement(s) => s,
                BlockItem::StaticAssert(_) => continue,
                BlockItem::Declaration(d) => {
                    let e = self.unsupported(
                        "E0603",
                        "a declaration directly in a `switch` body",
                        d.span,
                    );
                    self.diags
                        .last_mut()
                        .expect("a diagnostic was just pushed")
                        .help = Some("put the case's statements in braces `{ ... }`".into());
                    result = Err(e);
                    continue;
                }
            };
            // Comments before a label go with the case they end when it falls through,
            // else with the case the label starts.
            if let (true, Some(seg), Some(start)) =
                (live, segments.last_mut(), self.original(item.span.start))
            {
                let mut body = std::mem::take(&mut seg.body);
                self.comments_before(start, &mut body);
                segments.last_mut().expect("a segment is open").body = body;
            }
            let mut s = stmt;
            let mut labelled = false;
            let mut tests = Vec::new();
            let mut is_default = false;
            while let Statement::Labeled(l) = &s.node {
                match &l.node.label.node {
                    Label::Case(v) => match self.case_value(v) {
                        Ok(v) => tests.push(Expr::binary(BinOp::Eq, sel.clone(), v)),
                        Err(e) => result = Err(e),
                    },
                    Label::CaseRange(r) => {
                        match (self.case_value(&r.node.low), self.case_value(&r.node.high)) {
                            (Ok(lo), Ok(hi)) => tests.push(Expr::binary(
                                BinOp::And,
                                Expr::binary(BinOp::Le, lo, sel.clone()),
                                Expr::binary(BinOp::Le, sel.clone(), hi),
                            )),
                            _ => result = Err(Reported),
                        }
                    }
                    Label::Default => is_default = true,
                    Label::Identifier(_) => {
                        result = Err(self.unsupported("E0604", "`goto` and labels", l.span));
                    }
                }
                labelled = true;
                s = &l.node.statement;
            }
            if labelled {
                segments.push(CaseSegment {
                    tests,
                    is_default,
                    body: Vec::new(),
                    ends: false,
                });
                live = true;
            }
            let Some(seg) = segments.last_mut().filter(|_| live) else {
                if let Some(end) = self.original(item.span.end) {
                    self.skip_comments(end);
                }
                continue;
            };
            let mut body = std::mem::take(&mut seg.body);
            if let Some(start) = self.original(s.span.start) {
                self.comments_before(start, &mut body);
            }
            let ended = match self.case_body(s, &mut body) {
                Ok(ended) => ended,
                Err(e) => {
                    result = Err(e);
                    false
                }
            };
            let ends = ended
                || matches!(
                    body.last().map(|st| &st.kind),
                    Some(StmtKind::Return | StmtKind::Cycle { .. })
                );
            let seg = segments.last_mut().expect("a segment is open");
            seg.body = body;
            if ends {
                seg.ends = true;
                live = false;
            }
        }
        result.map(|()| segments)
    }

    /// The value of a `case` label: an integer constant.
    pub(super) fn case_value(&mut self, v: &Node<Expression>) -> R<Expr> {
        match const_int_in(&v.node, self.enums) {
            Some(n) => Ok(int_lit(n).spanned(self.span(v.span))),
            None => Err(self.unsupported(
                "E0604",
                "a `case` label that is not an integer constant",
                v.span,
            )),
        }
    }

    /// Lowers one statement of a case; true when it ends with a `break` of the switch
    /// (at its top level, or at the top level of a block).
    pub(super) fn case_body(&mut self, s: &Node<Statement>, out: &mut Vec<Stmt>) -> R<bool> {
        match &s.node {
            Statement::Break => Ok(true),
            Statement::Compound(items) => {
                self.scopes.push(Vec::new());
                let mut result = Ok(false);
                for item in items {
                    if let Some(at) = self.original(item.span.start) {
                        self.comments_before(at, out);
                    }
                    let r = match &item.node {
                        BlockItem::Declaration(d) => self.declaration(d, out).map(|()| false),
                        BlockItem::StaticAssert(_) => Ok(false),
                        BlockItem::Statement(st) => self.case_body(st, out),
                    };
                    match r {
                        Ok(true) => {
                            result = result.map(|_| true);
                            break;
                        }
                        Ok(false) => {}
                        Err(e) => result = Err(e),
                    }
                }
                self.scopes.pop();
                if let Some(end) = self.original(s.span.end) {
                    if matches!(result, Ok(true)) {
                        self.skip_comments(end);
                    } else {
                        self.comments_before(end, out);
                    }
                }
                result
            }
            _ => self.statement(s, out).map(|()| false),
        }
    }
}
