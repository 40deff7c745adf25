//! Input/output and STOP statements: PRINT, WRITE, READ, OPEN, CLOSE, INQUIRE, REWIND,
//! BACKSPACE, ENDFILE, FLUSH, FORMAT, STOP. Each becomes one [`StmtKind::Io`] holding
//! the statement as written (printed back unchanged), the expressions it evaluates
//! (output items, unit and format expressions, specifier values) and the variables it
//! overwrites (a READ's items, IOSTAT= and similar specifiers, implied-DO variables).
//! FORMAT's contents and STOP's code are kept as text only.

use super::cursor::{Cursor, PResult};
use super::expr::parse_expr;
use super::lexer::TokKind;
use crate::il::{Expr, StmtKind};

/// The statement keywords handled here.
pub const IO_KEYWORDS: &[&str] = &[
    "print",
    "write",
    "read",
    "open",
    "close",
    "inquire",
    "rewind",
    "backspace",
    "endfile",
    "flush",
    "format",
    "stop",
];

/// Specifiers whose value is a variable the statement sets.
const OUT_SPECIFIERS: &[&str] = &[
    "iostat",
    "iomsg",
    "size",
    "exist",
    "opened",
    "number",
    "named",
    "name",
    "nextrec",
    "recl",
    "access",
    "sequential",
    "direct",
    "form",
    "formatted",
    "unformatted",
    "blank",
    "position",
    "action",
    "read",
    "write",
    "readwrite",
    "delim",
    "pad",
];

#[derive(Default)]
struct Parts<'a> {
    reads: Vec<Expr>,
    writes: Vec<Expr>,
    namelists: Option<&'a std::collections::BTreeMap<String, Vec<String>>>,
    /// A READ: the variables of its NAMELIST group are set, not read.
    reading: bool,
}

/// Parses the statement whose keyword `word` (lower case) was just consumed; `start` is
/// the index of the keyword's token. `namelists`: the file's NAMELIST groups so far (key
/// → variables), which `NML=` names.
pub fn parse_io(
    c: &mut Cursor,
    word: &str,
    start: usize,
    namelists: &std::collections::BTreeMap<String, Vec<String>>,
) -> PResult<StmtKind> {
    let mut parts = Parts {
        namelists: Some(namelists),
        reading: word == "read",
        ..Parts::default()
    };
    match word {
        "format" | "stop" => {
            while !c.at_end() {
                c.bump();
            }
        }
        "print" => {
            // `PRINT fmt [, items]`.
            let end = top_level_end(c, c.pos);
            format_spec(c, end, &mut parts)?;
            if c.eat(&TokKind::Comma) {
                items(c, c.toks.len(), false, &mut parts)?;
            }
        }
        "read" if !c.is(&TokKind::LParen) => {
            // `READ fmt [, items]`.
            let end = top_level_end(c, c.pos);
            format_spec(c, end, &mut parts)?;
            if c.eat(&TokKind::Comma) {
                items(c, c.toks.len(), true, &mut parts)?;
            }
        }
        _ => {
            let inquire = word == "inquire";
            if c.is(&TokKind::LParen) {
                control_list(c, inquire, &mut parts)?;
            } else if !c.at_end() {
                // `REWIND 10`.
                let e = parse_expr(c)?;
                parts.reads.push(e);
            }
            if !c.at_end() {
                let reading = word == "read";
                if !matches!(word, "read" | "write" | "inquire") {
                    return Err(c.expected("the end of the statement"));
                }
                items(c, c.toks.len(), reading, &mut parts)?;
            }
        }
    }
    c.expect_end()?;
    Ok(StmtKind::Io {
        text: c.tokens_text(start, c.toks.len()),
        reads: parts.reads,
        writes: parts.writes,
        stops: word == "stop",
    })
}

/// Index of the first comma at parenthesis depth 0 from `from`, or the end.
fn top_level_end(c: &Cursor, from: usize) -> usize {
    let mut depth = 0usize;
    for (i, t) in c.toks.iter().enumerate().skip(from) {
        match t.kind {
            TokKind::LParen => depth += 1,
            TokKind::RParen => depth = depth.saturating_sub(1),
            TokKind::Comma if depth == 0 => return i,
            _ => {}
        }
    }
    c.toks.len()
}

/// A format: `*`, a label, a character expression or a variable.
fn format_spec(c: &mut Cursor, end: usize, parts: &mut Parts) -> PResult<()> {
    if c.is(&TokKind::Star) {
        c.bump();
    } else {
        let e = parse_expr(c)?;
        if !matches!(e.kind, crate::il::ExprKind::Int(_)) {
            parts.reads.push(e);
        }
    }
    if c.pos != end {
        return Err(c.expected("`,` after the format"));
    }
    Ok(())
}

/// `( [unit] [, fmt] [, key = value] ... )`.
fn control_list(c: &mut Cursor, inquire: bool, parts: &mut Parts) -> PResult<()> {
    c.expect(&TokKind::LParen, "`(`")?;
    let mut position = 0;
    loop {
        let key = match (c.ident_at(0), c.nth(1)) {
            (Some(k), Some(TokKind::Assign)) => {
                let k = k.to_ascii_lowercase();
                c.pos += 2;
                Some(k)
            }
            _ => None,
        };
        if c.is(&TokKind::Star) {
            c.bump();
        } else {
            let e = parse_expr(c)?;
            let label = matches!(e.kind, crate::il::ExprKind::Int(_));
            let sets = key.as_deref().is_some_and(|k| {
                (OUT_SPECIFIERS.contains(&k)
                    && (inquire || matches!(k, "iostat" | "iomsg" | "size")))
                    || k == "newunit"
            });
            let jumps = key
                .as_deref()
                .is_some_and(|k| matches!(k, "err" | "end" | "eor"));
            // `NML=group`: the group's variables, set by a READ, read by a WRITE.
            if key.as_deref() == Some("nml") {
                let crate::il::ExprKind::Var(group) = &e.kind else {
                    return Err(c.expected("a NAMELIST group's name after `NML=`"));
                };
                let Some(names) = parts.namelists.and_then(|n| n.get(&crate::il::key(group)))
                else {
                    return Err(crate::diag::Diagnostic::error(
                        "E0405",
                        format!("the NAMELIST group `{group}` is not declared in this file (a group of another file's module is not supported yet)"),
                    )
                    .at(e.span)
                    .with_help("declare the group in the file that reads or writes it"));
                };
                let vars = names.iter().map(|n| Expr {
                    kind: crate::il::ExprKind::Var(n.clone()),
                    span: e.span,
                });
                if parts.reading {
                    parts.writes.extend(vars);
                } else {
                    parts.reads.extend(vars);
                }
            } else if sets {
                parts.writes.push(e);
            } else if !jumps && !(label && (position == 1 || key.as_deref() == Some("fmt"))) {
                parts.reads.push(e);
            }
        }
        position += 1;
        if c.eat(&TokKind::Comma) {
            continue;
        }
        c.expect(&TokKind::RParen, "`,` or `)` in the control list")?;
        return Ok(());
    }
}

/// An item list up to `end`: expressions (output) or variables (input), and implied DOs
/// `(items, i = a, b [, s])`.
fn items(c: &mut Cursor, end: usize, input: bool, parts: &mut Parts) -> PResult<()> {
    loop {
        let item_end = top_level_end(c, c.pos).min(end);
        if c.is(&TokKind::LParen) && implied_do(c) {
            let close = c.matching_paren(c.pos).expect("checked by implied_do");
            c.bump();
            let inner_end = close;
            // The items, then `var = bounds` after the last top-level `=`'s comma.
            let mut sub = Vec::new();
            loop {
                let e = top_level_end(c, c.pos).min(inner_end);
                sub.push((c.pos, e));
                if e >= inner_end {
                    break;
                }
                c.pos = e + 1;
            }
            let var_at = sub
                .iter()
                .position(|&(a, _)| c.toks.get(a + 1).map(|t| &t.kind) == Some(&TokKind::Assign))
                .ok_or_else(|| c.expected("`var = start, end` in the implied DO"))?;
            for &(a, e) in &sub[..var_at] {
                c.pos = a;
                items(c, e, input, parts)?;
            }
            let (a, _) = sub[var_at];
            c.pos = a;
            let (var, span) = c.expect_ident("the implied DO's variable")?;
            parts.writes.push(Expr {
                kind: crate::il::ExprKind::Var(var),
                span,
            });
            c.bump();
            for &(a, e) in &sub[var_at..] {
                c.pos = if a == sub[var_at].0 { a + 2 } else { a };
                let x = parse_expr(c)?;
                parts.reads.push(x);
                if c.pos != e {
                    return Err(c.expected("`,` in the implied DO"));
                }
            }
            c.pos = close + 1;
        } else {
            let e = parse_expr(c)?;
            if input {
                parts.writes.push(e);
            } else {
                parts.reads.push(e);
            }
        }
        if c.pos != item_end {
            return Err(c.expected("`,` between the input/output items"));
        }
        if item_end >= end {
            c.pos = end;
            return Ok(());
        }
        c.bump();
    }
}

/// Whether the parenthesis at the cursor opens an implied DO: an `=` at depth 1 inside.
fn implied_do(c: &Cursor) -> bool {
    let Some(close) = c.matching_paren(c.pos) else {
        return false;
    };
    let mut depth = 0usize;
    for t in &c.toks[c.pos..close] {
        match t.kind {
            TokKind::LParen => depth += 1,
            TokKind::RParen => depth -= 1,
            TokKind::Assign if depth == 1 => return true,
            _ => {}
        }
    }
    false
}
