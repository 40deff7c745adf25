//! The structured form of the statements that jump by a value (SELECT CASE, arithmetic IF,
//! computed GO TO): an IF chain whose arms test the value and jump with plain GO TOs. The
//! restructuring that runs before analysis and the back-ends that print jumps both use it.

use super::{BinOp, CaseValue, Expr, ExprKind, Stmt, StmtKind};

/// The structured form of a SELECT CASE, arithmetic IF or computed GO TO (the jumps
/// become plain GO TOs); None for any other statement.
pub fn lowered(kind: &StmtKind) -> Option<StmtKind> {
    let goto = |label: &String| {
        vec![Stmt::generated(StmtKind::Goto {
            label: label.clone(),
        })]
    };
    let zero = || Expr::int(0);
    match kind {
        StmtKind::ArithmeticIf { expr, labels } => {
            let [neg, zer, pos] = labels;
            let cmp = |op| Expr::binary(op, expr.clone(), zero());
            let (arms, else_body) = if neg == zer && zer == pos {
                return Some(StmtKind::Goto { label: neg.clone() });
            } else if neg == zer {
                (vec![(cmp(BinOp::Le), goto(neg))], goto(pos))
            } else if zer == pos {
                (vec![(cmp(BinOp::Lt), goto(neg))], goto(zer))
            } else if neg == pos {
                (vec![(cmp(BinOp::Eq), goto(zer))], goto(neg))
            } else {
                (
                    vec![(cmp(BinOp::Lt), goto(neg)), (cmp(BinOp::Eq), goto(zer))],
                    goto(pos),
                )
            };
            Some(StmtKind::If {
                arms,
                else_body: Some(else_body),
                logical_if: false,
                name: None,
            })
        }
        StmtKind::ComputedGoto { labels, index } => {
            let arms = labels
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    (
                        Expr::binary(BinOp::Eq, index.clone(), Expr::int(i as i64 + 1)),
                        goto(l),
                    )
                })
                .collect();
            Some(StmtKind::If {
                arms,
                else_body: None,
                logical_if: false,
                name: None,
            })
        }
        StmtKind::Select {
            selector, cases, ..
        } => {
            let mut arms = Vec::new();
            let mut else_body = None;
            for case in cases {
                let mut body = case.body.clone();
                if let Some(text) = &case.comment {
                    body.insert(0, Stmt::generated(StmtKind::Comment(text.clone())));
                }
                if case.values.is_empty() {
                    else_body = Some(body);
                    continue;
                }
                let mut cond: Option<Expr> = None;
                for value in &case.values {
                    let test = case_test(selector, value);
                    cond = Some(match cond {
                        None => test,
                        Some(c) => Expr::binary(BinOp::Or, c, test),
                    });
                }
                if let Some(cond) = cond {
                    arms.push((cond, body));
                }
            }
            if arms.is_empty() {
                // Only CASE DEFAULT (or nothing): its body runs unconditionally.
                arms.push((
                    Expr::new(ExprKind::Logical(true)),
                    else_body.unwrap_or_default(),
                ));
                return Some(StmtKind::If {
                    arms,
                    else_body: None,
                    logical_if: false,
                    name: None,
                });
            }
            Some(StmtKind::If {
                arms,
                else_body,
                logical_if: false,
                name: None,
            })
        }
        _ => None,
    }
}

/// `selector` matches `value`: equality (`.EQV.` for logical constants), or a range.
fn case_test(selector: &Expr, value: &CaseValue) -> Expr {
    let paren = |e: Expr| match e.kind {
        ExprKind::Binary(..) => Expr::new(ExprKind::Paren(Box::new(e))),
        _ => e,
    };
    match value {
        CaseValue::Single(v) => {
            let op = if matches!(v.kind, ExprKind::Logical(_)) {
                BinOp::Eqv
            } else {
                BinOp::Eq
            };
            paren(Expr::binary(op, selector.clone(), v.clone()))
        }
        CaseValue::Range(lo, hi) => {
            let lo = lo
                .as_ref()
                .map(|l| Expr::binary(BinOp::Ge, selector.clone(), l.clone()));
            let hi = hi
                .as_ref()
                .map(|h| Expr::binary(BinOp::Le, selector.clone(), h.clone()));
            match (lo, hi) {
                (Some(l), Some(h)) => paren(Expr::binary(BinOp::And, l, h)),
                (Some(t), None) | (None, Some(t)) => paren(t),
                (None, None) => Expr::new(ExprKind::Logical(true)),
            }
        }
    }
}
