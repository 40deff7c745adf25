//! Statements that open, continue or close control constructs, and jumps: IF (block,
//! logical and arithmetic), ELSE IF, DO (counted, WHILE, CONCURRENT, labelled), SELECT CASE
//! and CASE, WHERE, FORALL, GO TO (plain, computed, and assigned with its ASSIGN).

use super::*;
use crate::il::{BinOp, StmtId};

impl StmtParser<'_> {
    /// `WHERE (mask)` alone (a construct) or followed by an assignment.
    pub(super) fn where_stmt(&self, c: &mut Cursor) -> PResult<Line> {
        let mask = self.paren_cond(c, "WHERE")?;
        if c.at_end() {
            return Ok(Line::Where { mask });
        }
        let (inner, inner_span) = self.nested_assignment(c, "WHERE")?;
        Ok(Line::WhereStmt {
            mask,
            inner,
            inner_span,
        })
    }

    /// The assignment after `WHERE (mask)` or `FORALL (...)` on the same line.
    pub(super) fn nested_assignment(
        &self,
        c: &mut Cursor,
        what: &str,
    ) -> PResult<(StmtKind, Span)> {
        let lo = c.lo();
        let mut inner = Cursor::new(&c.toks[c.pos..], c.src, c.file);
        if !assignment_shape(&inner) {
            return Err(Diagnostic::error(
                "E0202",
                format!("expected an assignment after the header of {what}"),
            )
            .at(inner.here()));
        }
        let kind = self.assignment(&mut inner)?;
        let span = inner.span_from(lo);
        c.pos = c.toks.len();
        Ok((kind, span))
    }

    /// `( i = l:u[:s], ... [, mask] )` of FORALL and DO CONCURRENT.
    pub(super) fn forall_header(
        &self,
        c: &mut Cursor,
    ) -> PResult<(Vec<ForallIndex>, Option<Expr>)> {
        c.expect(&TokKind::LParen, "`(` and the indices")?;
        if decl::at_type_spec(c) {
            return Err(Diagnostic::error(
                "E0404",
                "a type in the index list (`integer :: i = ...`) is not supported yet",
            )
            .at(c.here())
            .with_help("declare the index variables in the declarations instead"));
        }
        let mut indices = Vec::new();
        let mut mask = None;
        loop {
            if c.ident_at(0).is_some() && c.nth(1) == Some(&TokKind::Assign) {
                let (var, _) = c.expect_ident("an index name")?;
                c.bump();
                let lower = parse_expr(c)?;
                c.expect(&TokKind::Colon, "`:` between the bounds of the index")?;
                let upper = parse_expr(c)?;
                let stride = if c.eat(&TokKind::Colon) {
                    Some(parse_expr(c)?)
                } else {
                    None
                };
                indices.push(ForallIndex {
                    var,
                    lower,
                    upper,
                    stride,
                });
            } else if !indices.is_empty() && mask.is_none() {
                mask = Some(parse_expr(c)?);
            } else {
                return Err(c.expected("an index `i = lower:upper`"));
            }
            if c.eat(&TokKind::Comma) {
                continue;
            }
            c.expect(&TokKind::RParen, "`,` or `)` in the index list")?;
            return Ok((indices, mask));
        }
    }

    pub(super) fn paren_cond(&self, c: &mut Cursor, what: &str) -> PResult<Expr> {
        c.expect(
            &TokKind::LParen,
            &format!("`(` and the condition of {what}"),
        )?;
        let cond = parse_expr(c)?;
        c.expect(&TokKind::RParen, "`)` after the condition")?;
        Ok(cond)
    }

    pub(super) fn if_stmt(&self, c: &mut Cursor, name: Option<String>) -> PResult<Line> {
        let cond = self.paren_cond(c, "the IF")?;
        if let Some(TokKind::Int(_)) = c.peek()
            && name.is_none()
        {
            // Arithmetic IF: `IF (e) l1, l2, l3`.
            let mut labels = Vec::new();
            loop {
                labels.push(self.label(c, "a statement label of the arithmetic IF")?);
                if labels.len() == 3 {
                    break;
                }
                c.expect(
                    &TokKind::Comma,
                    "`,` and the next label of the arithmetic IF",
                )?;
            }
            c.expect_end()?;
            let [l1, l2, l3] = [labels[0].clone(), labels[1].clone(), labels[2].clone()];
            return Ok(Line::Action(StmtKind::ArithmeticIf {
                expr: cond,
                labels: [l1, l2, l3],
            }));
        }
        if c.is_kw("then") && c.nth(1).is_none() {
            c.bump();
            return Ok(Line::IfThen { cond, name });
        }
        if name.is_some() {
            return Err(c.expected("THEN after the condition of a named IF"));
        }
        if c.at_end() {
            return Err(c.expected("THEN or a statement after the condition"));
        }
        let inner_lo = c.lo();
        let inner_toks = &c.toks[c.pos..];
        let mut inner = Cursor::new(inner_toks, c.src, c.file);
        let line = self.line(&mut inner)?;
        let inner_span = inner.span_from(inner_lo);
        match line {
            Line::Action(inner) => Ok(Line::LogicalIf {
                cond,
                inner,
                inner_span,
            }),
            _ => Err(Diagnostic::error(
                "E0202",
                "expected an action statement (assignment, CALL, RETURN, EXIT, CYCLE, CONTINUE) after the condition of a logical IF",
            )
            .at(inner_span)),
        }
    }

    pub(super) fn else_if(&self, c: &mut Cursor) -> PResult<Line> {
        let cond = self.paren_cond(c, "the ELSE IF")?;
        if !c.eat_kw("then") {
            return Err(c.expected("THEN after the condition of ELSE IF"));
        }
        let name = self.opt_name(c)?;
        Ok(Line::ElseIf { cond, name })
    }

    pub(super) fn do_stmt(&self, c: &mut Cursor, name: Option<String>) -> PResult<Line> {
        let mut end_label = None;
        if let Some(TokKind::Int(label)) = c.peek() {
            end_label = Some(label.clone());
            c.bump();
            c.eat(&TokKind::Comma);
        }
        if c.at_end() {
            // `DO` without control runs until EXIT: the same as DO WHILE (.true.).
            let span = c.here();
            return Ok(Line::DoWhile {
                cond: Expr {
                    kind: ExprKind::Logical(true),
                    span,
                },
                name,
                end_label,
            });
        }
        if c.is_kw("while") && c.nth(1) == Some(&TokKind::LParen) {
            c.bump();
            let cond = self.paren_cond(c, "DO WHILE")?;
            c.expect_end()?;
            return Ok(Line::DoWhile {
                cond,
                name,
                end_label,
            });
        }
        let (var, _) = c.expect_ident("the DO variable, WHILE, or the end of the statement")?;
        if c.is(&TokKind::LParen) {
            return Err(
                Diagnostic::error("E0303", "the DO variable must be a scalar variable")
                    .at(c.here()),
            );
        }
        c.expect(&TokKind::Assign, "`=` after the DO variable")?;
        let start = parse_expr(c)?;
        c.expect(&TokKind::Comma, "`,` and the loop's upper bound")?;
        let end = parse_expr(c)?;
        let step = if c.eat(&TokKind::Comma) {
            Some(parse_expr(c)?)
        } else {
            None
        };
        c.expect_end()?;
        Ok(Line::Do {
            var,
            start,
            end,
            step,
            name,
            end_label,
        })
    }
}

impl StmtParser<'_> {
    /// A statement label (1 to 5 digits, not all zero).
    pub(super) fn label(&self, c: &mut Cursor, what: &str) -> PResult<String> {
        match c.peek() {
            Some(TokKind::Int(text))
                if text.len() <= 5
                    && text.bytes().all(|b| b.is_ascii_digit())
                    && text.bytes().any(|b| b != b'0') =>
            {
                let label = normalize_label(text);
                c.bump();
                Ok(label)
            }
            _ => Err(c.expected(what)),
        }
    }

    /// After `GO TO`: `label` or `(l1, l2, ...) [,] index`.
    pub(super) fn goto(&self, c: &mut Cursor, word_span: Span) -> PResult<StmtKind> {
        if c.eat(&TokKind::LParen) {
            let labels = self.label_list(
                c,
                "a statement label in the computed GO TO",
                "`,` or `)` in the computed GO TO's labels",
            )?;
            c.eat(&TokKind::Comma);
            let index = parse_expr(c)?;
            c.expect_end()?;
            return Ok(StmtKind::ComputedGoto { labels, index });
        }
        if let Some(var) = c.ident_at(0) {
            return self.assigned_goto(c, var.to_string(), word_span);
        }
        let label = self.label(c, "the label to jump to")?;
        c.expect_end()?;
        Ok(StmtKind::Goto { label })
    }

    /// After the `(` of a jump's labels: `l1, l2, ...)`; `what` and `more` name what is
    /// expected when a label, then a `,` or `)`, is missing.
    fn label_list(&self, c: &mut Cursor, what: &str, more: &str) -> PResult<Vec<String>> {
        let mut labels = vec![self.label(c, what)?];
        while c.eat(&TokKind::Comma) {
            labels.push(self.label(c, what)?);
        }
        c.expect(&TokKind::RParen, more)?;
        Ok(labels)
    }

    /// After `ASSIGN`: `label TO variable`, which stores the label in the integer
    /// variable for an assigned GO TO. Read as the assignment of the label's number:
    /// the assigned GO TO below compares the variable with its labels.
    pub(super) fn assign_label(&self, c: &mut Cursor) -> PResult<StmtKind> {
        let label = self.label(c, "the label to ASSIGN")?;
        let at = c.here();
        let var = match c.ident_at(0) {
            Some(w) if w.eq_ignore_ascii_case("to") => {
                c.bump();
                c.expect_ident("the variable to ASSIGN the label to")?.0
            }
            // Fixed form runs `TO` and the name together.
            Some(w) if w.len() > 2 && w[..2].eq_ignore_ascii_case("to") => {
                let v = w[2..].to_string();
                c.bump();
                v
            }
            _ => return Err(c.expected("`TO` and the variable of the ASSIGN")),
        };
        c.expect_end()?;
        Ok(StmtKind::Assign {
            lhs: Expr {
                kind: ExprKind::Var(var),
                span: at,
            },
            rhs: Expr {
                kind: ExprKind::Int(label),
                span: at,
            },
        })
    }

    /// After `GO TO variable`: `[,] (l1, l2, ...)`, the labels the variable may hold
    /// (ASSIGNed): an IF chain that jumps to the one it holds.
    fn assigned_goto(&self, c: &mut Cursor, var: String, word_span: Span) -> PResult<StmtKind> {
        let at = c.here();
        c.bump();
        c.eat(&TokKind::Comma);
        if !c.eat(&TokKind::LParen) {
            return Err(Diagnostic::error(
                "E0401",
                "unsupported statement: an assigned GO TO without its list of labels is not supported",
            )
            .at(word_span.to(c.here()))
            .with_help(format!(
                "list the labels `{var}` may hold: `GO TO {var}, (10, 20)`"
            )));
        }
        let mut arms = Vec::new();
        let labels = self.label_list(
            c,
            "a statement label of the assigned GO TO",
            "`,` or `)` in the assigned GO TO's labels",
        )?;
        for label in labels {
            let test = Expr {
                kind: ExprKind::Binary(
                    BinOp::Eq,
                    Box::new(Expr {
                        kind: ExprKind::Var(var.clone()),
                        span: at,
                    }),
                    Box::new(Expr {
                        kind: ExprKind::Int(label.clone()),
                        span: at,
                    }),
                ),
                span: at,
            };
            let jump = Stmt {
                id: StmtId::GENERATED,
                kind: StmtKind::Goto { label },
                span: word_span.to(at),
                label: None,
                trailing_comment: None,
            };
            arms.push((test, vec![jump]));
        }
        c.expect_end()?;
        Ok(StmtKind::If {
            arms,
            else_body: None,
            logical_if: false,
            name: None,
        })
    }

    pub(super) fn select(&self, c: &mut Cursor, name: Option<String>) -> PResult<Line> {
        let selector = self.paren_cond(c, "SELECT CASE")?;
        c.expect_end()?;
        Ok(Line::SelectCase { selector, name })
    }

    /// After `CASE`: `DEFAULT [name]` or `(value-list) [name]`.
    pub(super) fn case(&self, c: &mut Cursor) -> PResult<Line> {
        if c.eat_kw("default") {
            let name = self.opt_name(c)?;
            return Ok(Line::Case {
                values: Vec::new(),
                name,
            });
        }
        c.expect(
            &TokKind::LParen,
            "`(` and the values of the CASE, or DEFAULT",
        )?;
        let mut values = Vec::new();
        loop {
            let lo = if c.is(&TokKind::Colon) {
                None
            } else {
                Some(parse_expr(c)?)
            };
            let value = if c.eat(&TokKind::Colon) {
                let hi = if c.is(&TokKind::Comma) || c.is(&TokKind::RParen) {
                    None
                } else {
                    Some(parse_expr(c)?)
                };
                if lo.is_none() && hi.is_none() {
                    return Err(c.expected("a bound on one side of `:` in the CASE range"));
                }
                CaseValue::Range(lo, hi)
            } else {
                match lo {
                    Some(e) => CaseValue::Single(e),
                    None => return Err(c.expected("a CASE value")),
                }
            };
            values.push(value);
            if c.eat(&TokKind::Comma) {
                continue;
            }
            c.expect(&TokKind::RParen, "`,` or `)` in the CASE values")?;
            break;
        }
        let name = self.opt_name(c)?;
        Ok(Line::Case { values, name })
    }
}
