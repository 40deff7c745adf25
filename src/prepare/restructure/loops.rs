//! Jumps out of and back into loops: a GO TO leaving a DO loop becomes EXIT (with a flag
//! and a GO TO after the loop when it does not land right after it), a backward GO TO
//! becomes an endless DO WHILE whose body starts at its target.

use super::*;

impl Restructurer<'_> {
    /// A DO loop of `block` containing a GO TO to a label outside it: EXIT.
    pub(super) fn loop_exit(&mut self, block: &mut Vec<Stmt>, whole: &Refs) -> bool {
        for i in 0..block.len() {
            if !matches!(
                block[i].kind,
                StmtKind::Do { .. } | StmtKind::DoWhile { .. }
            ) {
                continue;
            }
            let inner_labels = labels_in(std::slice::from_ref(&block[i]));
            let mut outward = None;
            crate::il::visit::walk_stmts(std::slice::from_ref(&block[i]), &mut |s| {
                if let StmtKind::Goto { label } = &s.kind
                    && outward.is_none()
                    && !inner_labels.iter().any(|l| same_label(l, label))
                {
                    outward = Some(label.clone());
                }
            });
            let Some(label) = outward else { continue };
            let _ = whole;
            // The statement that follows the loop (comments skipped).
            let next = block[i + 1..]
                .iter()
                .find(|s| !matches!(s.kind, StmtKind::Comment(_)));
            let direct = next.is_some_and(|s| label_of(s).is_some_and(|l| same_label(l, &label)));
            let needs_name = goto_in_nested_loop(&block[i], &label);
            let name = if needs_name {
                Some(self.loop_name(&mut block[i]))
            } else {
                loop_name_of(&block[i])
            };
            let flag = if direct {
                None
            } else {
                let flag = self.namer.fresh("jumped");
                self.flags.push(flag.clone());
                Some(flag)
            };
            let span = block[i].span;
            let mut replacements = Vec::new();
            let mut body = std::mem::replace(&mut block[i], Stmt::generated(StmtKind::Continue));
            self.replace_gotos(&mut body, &label, &mut |r: &mut Self, s: &Stmt| {
                let mut v = Vec::new();
                if let Some(f) = &flag {
                    v.push(r.new_stmt(
                        StmtKind::Assign {
                            lhs: Expr::var(f.clone()),
                            rhs: Expr::new(ExprKind::Logical(true)),
                        },
                        s.span,
                    ));
                }
                v.push(r.new_stmt(StmtKind::Exit { name: name.clone() }, s.span));
                v
            });
            replacements.push(body);
            if let Some(f) = &flag {
                let reset = self.new_stmt(
                    StmtKind::Assign {
                        lhs: Expr::var(f.clone()),
                        rhs: Expr::new(ExprKind::Logical(false)),
                    },
                    span,
                );
                let goto = self.new_stmt(
                    StmtKind::Goto {
                        label: label.clone(),
                    },
                    span,
                );
                let test = self.new_stmt(
                    StmtKind::If {
                        arms: vec![(Expr::var(f.clone()), vec![goto])],
                        else_body: None,
                        logical_if: true,
                        name: None,
                    },
                    span,
                );
                replacements.insert(0, reset);
                replacements.push(test);
            }
            block.splice(i..=i, replacements);
            return true;
        }
        false
    }

    /// Replaces every GO TO `label` inside `s` (any depth) by what `with` makes.
    pub(super) fn replace_gotos(
        &mut self,
        s: &mut Stmt,
        label: &str,
        with: &mut dyn FnMut(&mut Self, &Stmt) -> Vec<Stmt>,
    ) {
        for block in crate::il::visit::child_blocks_mut(s) {
            self.replace_in_block(block, label, with);
        }
        if let StmtKind::If { logical_if, .. } = &mut s.kind {
            *logical_if = false;
        }
    }

    /// Replaces every GO TO `label` of `block`, at any depth, by what `with` makes.
    pub(super) fn replace_in_block(
        &mut self,
        block: &mut Vec<Stmt>,
        label: &str,
        with: &mut dyn FnMut(&mut Self, &Stmt) -> Vec<Stmt>,
    ) {
        let mut out = Vec::with_capacity(block.len());
        for mut stmt in std::mem::take(block) {
            match &stmt.kind {
                StmtKind::Goto { label: l } if same_label(l, label) => {
                    let mut new = with(self, &stmt);
                    if let (Some(first), Some(l)) = (new.first_mut(), stmt.label.take()) {
                        first.label = Some(l);
                    }
                    out.extend(new);
                }
                _ => {
                    self.replace_gotos(&mut stmt, label, with);
                    out.push(stmt);
                }
            }
        }
        *block = out;
    }

    /// The loop's construct name, naming it if it has none.
    pub(super) fn loop_name(&mut self, s: &mut Stmt) -> String {
        let name = match &mut s.kind {
            StmtKind::Do { name, .. } | StmtKind::DoWhile { name, .. } => name,
            _ => return String::new(),
        };
        if let Some(n) = name {
            return n.clone();
        }
        let fresh = self.namer.fresh("jumps");
        *name = Some(fresh.clone());
        fresh
    }

    /// A backward GO TO: the statements from the target to the last jump back become an
    /// endless DO WHILE.
    pub(super) fn backward(&mut self, block: &mut Vec<Stmt>, whole: &Refs) -> bool {
        for j in 0..block.len() {
            let Some(label) = block[j].label.clone() else {
                continue;
            };
            let total = whole.to(&label);
            if total == 0 {
                continue;
            }
            let Some(i) = (j..block.len())
                .rev()
                .find(|&k| refs_to(std::slice::from_ref(&block[k]), &label) > 0)
            else {
                continue;
            };
            if refs_to(&block[j..=i], &label) != total {
                continue;
            }
            // EXIT or CYCLE of an enclosing loop would now leave the new loop instead.
            if has_loose_loop_jump(&block[j..=i]) {
                continue;
            }
            let span = block[j].span.to(block[i].span);
            let mut lp = self.new_stmt(
                StmtKind::DoWhile {
                    cond: Expr::new(ExprKind::Logical(true)),
                    body: block[j..=i].to_vec(),
                    name: None,
                },
                span,
            );
            let name = if goto_in_nested_loop(&lp, &label) {
                Some(self.loop_name(&mut lp))
            } else {
                None
            };
            let label_copy = label.clone();
            self.replace_gotos(&mut lp, &label_copy, &mut |r: &mut Self, s: &Stmt| {
                vec![r.new_stmt(StmtKind::Cycle { name: name.clone() }, s.span)]
            });
            if let StmtKind::DoWhile { body, .. } = &mut lp.kind {
                if matches!(body.last().map(|s| &s.kind), Some(StmtKind::Cycle { .. }))
                    && body.last().is_some_and(|s| s.label.is_none())
                {
                    body.pop();
                } else {
                    let exit = self.new_stmt(StmtKind::Exit { name: None }, span);
                    // `IF (c) CYCLE` then EXIT: `IF (.NOT. c) EXIT`.
                    let simple_if = match body.last_mut().map(|s| &mut s.kind) {
                        Some(StmtKind::If {
                            arms,
                            else_body: None,
                            logical_if,
                            ..
                        }) if arms.len() == 1
                            && arms[0].1.len() == 1
                            && matches!(arms[0].1[0].kind, StmtKind::Cycle { name: None }) =>
                        {
                            arms[0].0 = negate(arms[0].0.clone());
                            arms[0].1 = vec![exit.clone()];
                            *logical_if = true;
                            true
                        }
                        _ => false,
                    };
                    if !simple_if {
                        body.push(exit);
                    }
                }
            }
            block.splice(j..=i, [lp]);
            return true;
        }
        false
    }
}
