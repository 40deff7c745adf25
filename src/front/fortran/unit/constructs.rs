//! Executable statements inside a unit: each line lowered in turn, block constructs (IF,
//! DO, DO WHILE, SELECT CASE, WHERE, FORALL) opened as frames, their arms and ends matched
//! against the open frame, and the finished construct pushed into its parent's body.

use super::*;

/// Appends a statement to the innermost open block.
/// The name after `END MODULE`, if the statement gives one.
pub(super) fn raw_end_name(raw: &RawStmt, src: &str) -> Option<String> {
    let text = src.get(raw.span.lo as usize..raw.span.hi as usize)?;
    let last = text.split_whitespace().last()?;
    let lower = last.to_ascii_lowercase();
    (lower != "module" && lower != "endmodule")
        .then(|| last.trim_end_matches(';').to_string())
        .filter(|n| n.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_'))
}

pub(super) fn push(frames: &mut [Frame], body: &mut Vec<Stmt>, stmt: Stmt) {
    match frames.last_mut() {
        Some(frame) => frame.body.push(stmt),
        None => body.push(stmt),
    }
}

/// Turns a closed frame into its statement.
fn finish(frame: Frame, end_span: Span) -> Stmt {
    let span = frame.span.to(end_span);
    let kind = match frame.kind {
        FrameKind::If { mut arms, current } => {
            let else_body = match current {
                Some(cond) => {
                    arms.push((cond, frame.body));
                    None
                }
                None => Some(frame.body),
            };
            StmtKind::If {
                arms,
                else_body,
                logical_if: false,
                name: frame.name.clone(),
            }
        }
        FrameKind::Do {
            var,
            start,
            end,
            step,
        } => StmtKind::Do {
            var,
            start: Box::new(start),
            end: Box::new(end),
            step: step.map(Box::new),
            body: frame.body,
            name: frame.name.clone(),
        },
        // Closed by the END of another construct (an error already said): its
        // statements stay in place.
        FrameKind::Block { .. } => StmtKind::If {
            arms: vec![(Expr::new(crate::il::ExprKind::Logical(true)), frame.body)],
            else_body: None,
            logical_if: false,
            name: None,
        },
        FrameKind::DoWhile { cond } => StmtKind::DoWhile {
            cond,
            body: frame.body,
            name: frame.name.clone(),
        },
        FrameKind::Select {
            selector,
            mut cases,
            current,
        } => {
            if let Some((values, comment, span)) = current {
                cases.push(Case {
                    values,
                    body: frame.body,
                    comment,
                    span,
                });
            }
            StmtKind::Select {
                selector,
                cases,
                name: frame.name.clone(),
            }
        }
        FrameKind::Where { mut arms, current } => {
            let else_body = match current {
                Some(mask) => {
                    arms.push((mask, frame.body));
                    None
                }
                None => Some(frame.body),
            };
            StmtKind::Where {
                arms,
                else_body,
                construct: true,
            }
        }
        FrameKind::Forall {
            indices,
            mask,
            concurrent,
        } => StmtKind::Forall {
            indices,
            mask,
            body: frame.body,
            construct: true,
            concurrent,
            name: frame.name.clone(),
        },
    };
    Stmt {
        id: frame.id,
        kind,
        span,
        label: frame.label.map(Into::into),
        trailing_comment: frame.comment.map(Into::into),
    }
}

impl FileParser<'_> {
    /// One executable line of the body.
    pub(super) fn exec(
        &mut self,
        line: Line,
        raw: &RawStmt,
        frames: &mut Vec<Frame>,
        body: &mut Vec<Stmt>,
    ) {
        let label = raw.label.clone();
        let comment = raw.comment.clone();
        let span = raw.span;
        match line {
            Line::Action(kind) => {
                if let StmtKind::Exit { name } | StmtKind::Cycle { name } = &kind {
                    let word = if matches!(kind, StmtKind::Exit { .. }) {
                        "EXIT"
                    } else {
                        "CYCLE"
                    };
                    if !self.check_loop_target(frames, name.as_deref(), word, span) {
                        return;
                    }
                }
                let mut stmt = self.simple(kind, span, label.clone(), comment);
                self.number_nested(&mut stmt);
                push(frames, body, stmt);
                self.close_labeled(frames, body, label.as_deref());
            }
            Line::LogicalIf {
                cond,
                inner,
                inner_span,
            } => {
                if let StmtKind::Exit { name } | StmtKind::Cycle { name } = &inner {
                    let word = if matches!(inner, StmtKind::Exit { .. }) {
                        "EXIT"
                    } else {
                        "CYCLE"
                    };
                    if !self.check_loop_target(frames, name.as_deref(), word, inner_span) {
                        return;
                    }
                }
                let id = self.new_id();
                let mut inner = self.simple(inner, inner_span, None, None);
                self.number_nested(&mut inner);
                let stmt = Stmt {
                    id,
                    kind: StmtKind::If {
                        arms: vec![(cond, vec![inner])],
                        else_body: None,
                        logical_if: true,
                        name: None,
                    },
                    span,
                    label: label.as_deref().map(Into::into),
                    trailing_comment: comment.map(Into::into),
                };
                push(frames, body, stmt);
                self.close_labeled(frames, body, label.as_deref());
            }
            Line::BlockStart { name } => self.open(
                frames,
                FrameKind::Block { decls: Vec::new() },
                raw,
                name,
                None,
            ),
            Line::IfThen { cond, name } => self.open(
                frames,
                FrameKind::If {
                    arms: Vec::new(),
                    current: Some(cond),
                },
                raw,
                name,
                None,
            ),
            Line::Do {
                var,
                start,
                end,
                step,
                name,
                end_label,
                ..
            } => self.open(
                frames,
                FrameKind::Do {
                    var,
                    start,
                    end,
                    step,
                },
                raw,
                name,
                end_label,
            ),
            Line::DoWhile {
                cond,
                name,
                end_label,
            } => self.open(frames, FrameKind::DoWhile { cond }, raw, name, end_label),
            Line::ElseIf { cond, name } => self.else_arm(frames, Some(cond), name, raw),
            Line::Else { name } => self.else_arm(frames, None, name, raw),
            Line::EndIf { name } => {
                if !matches!(frames.last().map(|f| &f.kind), Some(FrameKind::If { .. })) {
                    self.error(
                        "E0206",
                        "END IF without a matching IF ... THEN".to_string(),
                        span,
                    );
                    return;
                }
                self.close(frames, body, name, raw);
            }
            Line::SelectCase { selector, name } => self.open(
                frames,
                FrameKind::Select {
                    selector,
                    cases: Vec::new(),
                    current: None,
                },
                raw,
                name,
                None,
            ),
            Line::WhereStmt {
                mask,
                inner,
                inner_span,
            } => {
                let inner = self.simple(inner, inner_span, None, None);
                let stmt = self.simple(
                    StmtKind::Where {
                        arms: vec![(mask, vec![inner])],
                        else_body: None,
                        construct: false,
                    },
                    span,
                    label.clone(),
                    comment,
                );
                push(frames, body, stmt);
                self.close_labeled(frames, body, label.as_deref());
            }
            Line::Where { mask } => self.open(
                frames,
                FrameKind::Where {
                    arms: Vec::new(),
                    current: Some(mask),
                },
                raw,
                None,
                None,
            ),
            Line::ElseWhere { mask } => {
                let Some(frame) = frames.last_mut() else {
                    self.error(
                        "E0206",
                        "ELSEWHERE without a matching WHERE".to_string(),
                        span,
                    );
                    return;
                };
                let FrameKind::Where { arms, current } = &mut frame.kind else {
                    let what = frame.what();
                    self.error(
                        "E0206",
                        format!("ELSEWHERE inside a {what} that is not closed"),
                        span,
                    );
                    return;
                };
                let Some(before) = current.take() else {
                    self.error(
                        "E0206",
                        "ELSEWHERE after the final ELSEWHERE of the same WHERE".to_string(),
                        span,
                    );
                    return;
                };
                arms.push((before, std::mem::take(&mut frame.body)));
                *current = mask;
            }
            Line::EndWhere => {
                if !matches!(
                    frames.last().map(|f| &f.kind),
                    Some(FrameKind::Where { .. })
                ) {
                    self.error(
                        "E0206",
                        "END WHERE without a matching WHERE".to_string(),
                        span,
                    );
                    return;
                }
                self.close(frames, body, None, raw);
            }
            Line::Forall {
                indices,
                mask,
                inner: Some((inner, inner_span)),
                concurrent,
                name,
            } => {
                let inner = self.simple(inner, inner_span, None, None);
                let stmt = self.simple(
                    StmtKind::Forall {
                        indices,
                        mask,
                        body: vec![inner],
                        construct: false,
                        concurrent,
                        name,
                    },
                    span,
                    label.clone(),
                    comment,
                );
                push(frames, body, stmt);
                self.close_labeled(frames, body, label.as_deref());
            }
            Line::Forall {
                indices,
                mask,
                inner: None,
                concurrent,
                name,
            } => self.open(
                frames,
                FrameKind::Forall {
                    indices,
                    mask,
                    concurrent,
                },
                raw,
                name,
                None,
            ),
            Line::Case { values, name } => self.case_arm(frames, values, name, raw),
            Line::EndSelect { name } => {
                if !matches!(
                    frames.last().map(|f| &f.kind),
                    Some(FrameKind::Select { .. })
                ) {
                    self.error(
                        "E0206",
                        "END SELECT without a matching SELECT CASE".to_string(),
                        span,
                    );
                    return;
                }
                self.close(frames, body, name, raw);
            }
            Line::EndForall { name } => {
                if !matches!(
                    frames.last().map(|f| &f.kind),
                    Some(FrameKind::Forall {
                        concurrent: false,
                        ..
                    })
                ) {
                    self.error(
                        "E0206",
                        "END FORALL without a matching FORALL".to_string(),
                        span,
                    );
                    return;
                }
                self.close(frames, body, name, raw);
            }
            Line::EndDo { name }
                if matches!(
                    frames.last().map(|f| &f.kind),
                    Some(FrameKind::Forall {
                        concurrent: true,
                        ..
                    })
                ) =>
            {
                self.close(frames, body, name, raw);
            }
            Line::EndDo { name } => {
                if !frames.last().is_some_and(Frame::is_loop) {
                    self.error("E0206", "END DO without a matching DO".to_string(), span);
                    return;
                }
                let closes_label = label.is_some()
                    && frames.last().and_then(|f| f.end_label.as_deref()) == label.as_deref();
                self.close(frames, body, name, raw);
                if closes_label {
                    self.close_labeled(frames, body, label.as_deref());
                }
            }
            _ => self.error(
                "E0202",
                "expected an executable statement".to_string(),
                span,
            ),
        }
    }

    /// EXIT/CYCLE must be inside a loop (the named one, when named).
    pub(super) fn check_loop_target(
        &mut self,
        frames: &[Frame],
        name: Option<&str>,
        word: &str,
        span: Span,
    ) -> bool {
        // EXIT may also leave a named BLOCK (Fortran 2008): `exit main` of `main: block`.
        let exits_block = |f: &Frame| word == "EXIT" && matches!(f.kind, FrameKind::Block { .. });
        let ok = match name {
            None => frames.iter().any(Frame::is_loop),
            Some(n) => frames.iter().any(|f| {
                (f.is_loop() || exits_block(f))
                    && f.name.as_deref().is_some_and(|m| m.eq_ignore_ascii_case(n))
            }),
        };
        if !ok {
            let msg = match name {
                None => format!("{word} is not inside a DO loop"),
                Some(n) => format!("{word} names `{n}`, which is not an enclosing DO loop"),
            };
            self.error("E0305", msg, span);
        }
        ok
    }

    pub(super) fn open(
        &mut self,
        frames: &mut Vec<Frame>,
        kind: FrameKind,
        raw: &RawStmt,
        name: Option<String>,
        end_label: Option<String>,
    ) {
        if frames.len() >= MAX_NESTING {
            self.error(
                "E0209",
                format!("IF and DO constructs are nested more than {MAX_NESTING} deep"),
                raw.span,
            );
            return;
        }
        let id = self.new_id();
        frames.push(Frame {
            kind,
            id,
            span: raw.span,
            label: raw.label.clone(),
            comment: raw.comment.clone(),
            name,
            end_label,
            body: Vec::new(),
        });
    }

    pub(super) fn else_arm(
        &mut self,
        frames: &mut [Frame],
        cond: Option<Expr>,
        name: Option<String>,
        raw: &RawStmt,
    ) {
        let Some(frame) = frames.last_mut() else {
            self.error(
                "E0206",
                "ELSE without a matching IF ... THEN".to_string(),
                raw.span,
            );
            return;
        };
        let FrameKind::If { arms, current } = &mut frame.kind else {
            self.error(
                "E0206",
                format!("ELSE inside a {} that is not closed", frame.what()),
                raw.span,
            );
            return;
        };
        let Some(cond_before) = current.take() else {
            self.error(
                "E0206",
                "ELSE or ELSE IF after the ELSE of the same IF".to_string(),
                raw.span,
            );
            return;
        };
        if let (Some(n), Some(m)) = (&name, &frame.name)
            && !n.eq_ignore_ascii_case(m)
        {
            self.error(
                "E0206",
                format!("ELSE names `{n}` but the IF is named `{m}`"),
                raw.span,
            );
        }
        arms.push((cond_before, std::mem::take(&mut frame.body)));
        *current = cond;
        let mut carry = Vec::new();
        if let Some(label) = &raw.label {
            carry.push(Stmt {
                id: StmtId(0),
                kind: StmtKind::Continue,
                span: raw.span,
                label: Some(label.as_str().into()),
                trailing_comment: None,
            });
        }
        if let Some(text) = &raw.comment {
            carry.push(Stmt {
                id: StmtId(0),
                kind: StmtKind::Comment(text.clone()),
                span: raw.span,
                label: None,
                trailing_comment: None,
            });
        }
        for mut stmt in carry {
            stmt.id = self.new_id();
            frame.body.push(stmt);
        }
    }

    /// `CASE (...)` or `CASE DEFAULT` inside SELECT CASE.
    pub(super) fn case_arm(
        &mut self,
        frames: &mut [Frame],
        values: Vec<CaseValue>,
        name: Option<String>,
        raw: &RawStmt,
    ) {
        let Some(frame) = frames.last_mut() else {
            self.error(
                "E0206",
                "CASE outside of a SELECT CASE construct".to_string(),
                raw.span,
            );
            return;
        };
        let FrameKind::Select { cases, current, .. } = &mut frame.kind else {
            self.error(
                "E0206",
                format!("CASE inside a {} that is not closed", frame.what()),
                raw.span,
            );
            return;
        };
        if let (Some(n), Some(m)) = (&name, &frame.name)
            && !n.eq_ignore_ascii_case(m)
        {
            self.error(
                "E0206",
                format!("CASE names `{n}` but the SELECT CASE is named `{m}`"),
                raw.span,
            );
        }
        if values.is_empty() && cases.iter().any(|c| c.values.is_empty()) {
            self.error(
                "E0206",
                "a second CASE DEFAULT in the same SELECT CASE".to_string(),
                raw.span,
            );
        }
        let body = std::mem::take(&mut frame.body);
        match current.take() {
            Some((values, comment, span)) => cases.push(Case {
                values,
                body,
                comment,
                span,
            }),
            None => {
                if body.iter().any(|s| !matches!(s.kind, StmtKind::Comment(_))) {
                    self.error(
                        "E0206",
                        "statements between SELECT CASE and its first CASE".to_string(),
                        raw.span,
                    );
                }
            }
        }
        *current = Some((values, raw.comment.clone(), raw.span));
    }

    /// Closes the innermost frame with END IF / END DO.
    pub(super) fn close(
        &mut self,
        frames: &mut Vec<Frame>,
        body: &mut Vec<Stmt>,
        name: Option<String>,
        raw: &RawStmt,
    ) {
        let Some(mut frame) = frames.pop() else {
            return;
        };
        match (&name, &frame.name) {
            (Some(n), Some(m)) if !n.eq_ignore_ascii_case(m) => self.error(
                "E0206",
                format!("END names `{n}` but the construct is named `{m}`"),
                raw.span,
            ),
            (Some(n), None) => self.error(
                "E0206",
                format!("END names `{n}` but the construct has no name"),
                raw.span,
            ),
            (None, Some(m)) => self.error(
                "E0206",
                format!("the END of construct `{m}` must repeat its name"),
                raw.span,
            ),
            _ => {}
        }
        // A label or comment on the END line is kept inside the closed block.
        if raw.label.is_some() && frame.end_label.as_deref() != raw.label.as_deref() {
            let stmt = self.simple(StmtKind::Continue, raw.span, raw.label.clone(), None);
            frame.body.push(stmt);
        }
        if let Some(text) = &raw.comment {
            let stmt = self.simple(StmtKind::Comment(text.clone()), raw.span, None, None);
            frame.body.push(stmt);
        }
        let stmt = finish(frame, raw.span);
        push(frames, body, stmt);
    }

    /// After a labelled statement: close every `DO label` loop it ends.
    pub(super) fn close_labeled(
        &mut self,
        frames: &mut Vec<Frame>,
        body: &mut Vec<Stmt>,
        label: Option<&str>,
    ) {
        let Some(label) = label else { return };
        while let Some(frame) = frames.last() {
            if frame.end_label.as_deref() != Some(label) {
                break;
            }
            let end_span = frame.body.last().map(|s| s.span).unwrap_or(frame.span);
            let Some(mut frame) = frames.pop() else { break };
            // The block DO of the IL needs no terminating label: a `CONTINUE` that only
            // ended the loop goes, another statement keeps its place without the label.
            // (Nothing can jump to it: GOTO is not accepted yet.)
            // A CONTINUE that GO TOs in the loop jump to stays, with its label.
            let targeted = {
                let mut found = false;
                crate::il::visit::walk_stmts(&frame.body, &mut |s| {
                    found |= stmt::jump_targets(&s.kind)
                        .contains(&stmt::normalize_label(label).as_str());
                });
                found
            };
            if let Some(last) = frame.body.last_mut()
                && !targeted
                && last.label.as_deref() == Some(label)
            {
                last.label = None;
                if matches!(last.kind, StmtKind::Continue) && last.trailing_comment.is_none() {
                    frame.body.pop();
                }
            }
            let stmt = finish(frame, end_span);
            push(frames, body, stmt);
        }
    }
}
