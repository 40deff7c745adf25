//! Statements: one line for simple statements, block constructs with their `end` lines.

use super::expr::{push_args, write_expr};
use super::writer::Writer;
use crate::il::{Arg, CaseValue, Stmt, StmtKind};

/// Writes a block of statements at the writer's current indentation.
pub(crate) fn write_block(w: &mut Writer, block: &[Stmt]) {
    for stmt in block {
        write_stmt(w, stmt);
    }
}

/// The one-line text of a simple (non-block, non-comment) statement.
fn simple_text(kind: &StmtKind) -> Option<String> {
    let text = match kind {
        StmtKind::Assign { lhs, rhs } => format!("{} = {}", write_expr(lhs), write_expr(rhs)),
        StmtKind::Exit { name } => with_name("exit", name.as_deref()),
        StmtKind::Cycle { name } => with_name("cycle", name.as_deref()),
        // A defined assignment, named by its generic (the primal's spelling of a call
        // of its specific): written as the assignment.
        StmtKind::Call { name, args } if name == "assignment(=)" && args.len() == 2 => {
            format!(
                "{} = {}",
                write_expr(&args[0].value),
                write_expr(&args[1].value)
            )
        }
        StmtKind::Call { name, args } => {
            let mut out = format!("call {name}");
            push_args(&mut out, args);
            out
        }
        // The default lowering: a call of the bundled runtime.
        StmtKind::Tape(t) => {
            let args: Vec<Arg> = t
                .operands()
                .into_iter()
                .cloned()
                .map(Arg::positional)
                .collect();
            let mut out = format!("call {}", t.runtime_routine());
            push_args(&mut out, &args);
            out
        }
        StmtKind::Return => "return".to_string(),
        StmtKind::Continue => "continue".to_string(),
        StmtKind::Goto { label } => format!("go to {label}"),
        StmtKind::ComputedGoto { labels, index } => {
            format!("go to ({}) {}", labels.join(", "), write_expr(index))
        }
        StmtKind::ArithmeticIf { expr, labels } => {
            format!("if ({}) {}", write_expr(expr), labels.join(", "))
        }
        StmtKind::Allocate(items) | StmtKind::Deallocate(items) => {
            let word = if matches!(kind, StmtKind::Allocate(_)) {
                "allocate"
            } else {
                "deallocate"
            };
            let list: Vec<String> = items.iter().map(write_expr).collect();
            format!("{word}({})", list.join(", "))
        }
        StmtKind::Io { text, .. } => text.clone(),
        StmtKind::Select { .. }
        | StmtKind::If { .. }
        | StmtKind::Do { .. }
        | StmtKind::DoWhile { .. }
        | StmtKind::Where { .. }
        | StmtKind::Forall { .. }
        | StmtKind::Comment(_) => return None,
    };
    Some(text)
}

fn with_name(keyword: &str, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("{keyword} {name}"),
        None => keyword.to_string(),
    }
}

/// `name: ` before a construct's opening statement, when named.
fn construct_prefix(name: Option<&str>) -> String {
    name.map(|n| format!("{n}: ")).unwrap_or_default()
}

pub(crate) fn write_stmt(w: &mut Writer, stmt: &Stmt) {
    if super::structarr::write_view_stmt(w, stmt) {
        return;
    }
    let label = stmt.label.as_deref();
    let trailing = stmt.trailing_comment.as_deref();
    match &stmt.kind {
        StmtKind::Comment(text) => {
            w.comment(text);
            if label.is_some() {
                // A comment cannot carry a label: keep the label on an empty statement.
                w.line(label, "continue", trailing);
            }
        }
        StmtKind::If {
            arms,
            else_body,
            logical_if: _,
            name,
        } => {
            if let Some(text) = logical_if_text(&stmt.kind) {
                let inner = &arms[0].1[0];
                let comment = trailing.or(inner.trailing_comment.as_deref());
                w.line(label, &text, comment);
                return;
            }
            for (i, (cond, body)) in arms.iter().enumerate() {
                if i == 0 {
                    let prefix = construct_prefix(name.as_deref());
                    w.line(
                        label,
                        &format!("{prefix}if ({}) then", write_expr(cond)),
                        trailing,
                    );
                } else {
                    w.line(None, &format!("else if ({}) then", write_expr(cond)), None);
                }
                w.push();
                write_block(w, body);
                w.pop();
            }
            if arms.is_empty() {
                // Not a valid IF; print the else part as a plain block.
                if let Some(body) = else_body {
                    write_block(w, body);
                }
                return;
            }
            if let Some(body) = else_body {
                w.line(None, "else", None);
                w.push();
                write_block(w, body);
                w.pop();
            }
            w.line(None, &with_name("end if", name.as_deref()), None);
        }
        StmtKind::Do {
            var,
            start,
            end,
            step,
            body,
            name,
        } => {
            let mut head = format!(
                "{}do {var} = {}, {}",
                construct_prefix(name.as_deref()),
                write_expr(start),
                write_expr(end)
            );
            if let Some(step) = step {
                head.push_str(", ");
                head.push_str(&write_expr(step));
            }
            w.line(label, &head, trailing);
            w.push();
            write_block(w, body);
            w.pop();
            w.line(None, &with_name("end do", name.as_deref()), None);
        }
        StmtKind::DoWhile { cond, body, name } => {
            let head = format!(
                "{}do while ({})",
                construct_prefix(name.as_deref()),
                write_expr(cond)
            );
            w.line(label, &head, trailing);
            w.push();
            write_block(w, body);
            w.pop();
            w.line(None, &with_name("end do", name.as_deref()), None);
        }
        StmtKind::Select {
            selector,
            cases,
            name,
        } => {
            let head = format!(
                "{}select case ({})",
                construct_prefix(name.as_deref()),
                write_expr(selector)
            );
            w.line(label, &head, trailing);
            for case in cases {
                let values = if case.values.is_empty() {
                    "case default".to_string()
                } else {
                    let list: Vec<String> = case.values.iter().map(case_value_text).collect();
                    format!("case ({})", list.join(", "))
                };
                w.line(
                    None,
                    &with_name(&values, name.as_deref()),
                    case.comment.as_deref(),
                );
                w.push();
                write_block(w, &case.body);
                w.pop();
            }
            w.line(None, &with_name("end select", name.as_deref()), None);
        }
        StmtKind::Where {
            arms,
            else_body,
            construct,
        } => {
            if let ([(mask, body)], None, false) = (arms.as_slice(), else_body, construct)
                && let [inner] = body.as_slice()
                && let Some(text) = simple_text(&inner.kind)
            {
                let comment = trailing.or(inner.trailing_comment.as_deref());
                w.line(
                    label,
                    &format!("where ({}) {text}", write_expr(mask)),
                    comment,
                );
                return;
            }
            for (i, (mask, body)) in arms.iter().enumerate() {
                let head = if i == 0 { "where" } else { "elsewhere" };
                let (l, t) = if i == 0 {
                    (label, trailing)
                } else {
                    (None, None)
                };
                w.line(l, &format!("{head} ({})", write_expr(mask)), t);
                w.push();
                write_block(w, body);
                w.pop();
            }
            if let Some(body) = else_body {
                w.line(None, "elsewhere", None);
                w.push();
                write_block(w, body);
                w.pop();
            }
            w.line(None, "end where", None);
        }
        StmtKind::Forall {
            indices,
            mask,
            body,
            construct,
            concurrent,
            name,
        } => {
            let mut parts: Vec<String> = indices
                .iter()
                .map(|ix| {
                    let mut t = format!(
                        "{} = {}:{}",
                        ix.var,
                        write_expr(&ix.lower),
                        write_expr(&ix.upper)
                    );
                    if let Some(s) = &ix.stride {
                        t.push(':');
                        t.push_str(&write_expr(s));
                    }
                    t
                })
                .collect();
            if let Some(m) = mask {
                parts.push(write_expr(m));
            }
            let prefix = construct_prefix(name.as_deref());
            let keyword = if *concurrent {
                "do concurrent"
            } else {
                "forall"
            };
            let head = format!("{prefix}{keyword} ({})", parts.join(", "));
            if !concurrent
                && !construct
                && let [inner] = body.as_slice()
                && let Some(text) = simple_text(&inner.kind)
            {
                let comment = trailing.or(inner.trailing_comment.as_deref());
                w.line(label, &format!("{head} {text}"), comment);
                return;
            }
            w.line(label, &head, trailing);
            w.push();
            write_block(w, body);
            w.pop();
            let end = if *concurrent { "end do" } else { "end forall" };
            w.line(None, &with_name(end, name.as_deref()), None);
        }
        kind => {
            let text = simple_text(kind).expect("block statements are handled above");
            w.line(label, &text, trailing);
        }
    }
}

fn case_value_text(value: &CaseValue) -> String {
    match value {
        CaseValue::Single(e) => write_expr(e),
        CaseValue::Range(lo, hi) => format!(
            "{}:{}",
            lo.as_ref().map(write_expr).unwrap_or_default(),
            hi.as_ref().map(write_expr).unwrap_or_default()
        ),
    }
}

/// `if (c) stmt`, when the IL asks for a logical IF and its shape allows one.
fn logical_if_text(kind: &StmtKind) -> Option<String> {
    let StmtKind::If {
        arms,
        else_body: None,
        logical_if: true,
        name: None,
    } = kind
    else {
        return None;
    };
    let [(cond, body)] = arms.as_slice() else {
        return None;
    };
    let [inner] = body.as_slice() else {
        return None;
    };
    if inner.label.is_some() {
        return None;
    }
    let text = simple_text(&inner.kind)?;
    Some(format!("if ({}) {text}", write_expr(cond)))
}
