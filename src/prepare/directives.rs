//! `$AD` directives in the sources (INTERFACE.md §6: Tapenade's spelling, in a comment
//! line, `!$AD NOCHECKPOINT`, `/* $AD II-LOOP */`). adgen honours none of them yet; the
//! derivatives it computes are right without them (they change only what the adjoint
//! stores or recomputes), so each one found is a warning that says so, never silently
//! ignored, and a directive adgen does not know (a misspelling) is a warning of its own.
//!
//! The check reads the comments the front-ends keep in the IL (text after the comment
//! marker), so it knows no source language.

use crate::diag::{Diagnostic, Span, suggest};
use crate::il::{DeclKind, Program, StmtKind, Unit, visit};

/// Tapenade's directives, as INTERFACE.md §6 lists them, with what adgen does instead.
const KNOWN: [(&str, &str); 7] = [
    (
        "NOCHECKPOINT",
        "the call is checkpointed like every call (joint mode)",
    ),
    (
        "CHECKPOINT-START",
        "the region is not checkpointed as a whole",
    ),
    (
        "CHECKPOINT-END",
        "the region is not checkpointed as a whole",
    ),
    (
        "BINOMIAL-CKP",
        "the loop's adjoint stores every iteration instead of binomial snapshots",
    ),
    (
        "II-LOOP",
        "the loop's adjoint is made like any other loop's",
    ),
    (
        "FP-LOOP",
        "the fixed-point loop's adjoint runs back through every iteration",
    ),
    (
        "NODIFF",
        "what follows is differentiated as if it were absent",
    ),
];

/// Warnings for every `$AD` directive of the program: W0401 for a known directive adgen
/// does not honour yet, W0402 for one it does not know.
pub fn check(program: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for unit in program.units() {
        check_unit(unit, &mut out);
    }
    out
}

fn check_unit(unit: &Unit, out: &mut Vec<Diagnostic>) {
    for text in &unit.leading_comments {
        directive(text, unit.span, out);
    }
    for decl in &unit.decls {
        match &decl.kind {
            DeclKind::Comment(text) => directive(text, decl.span, out),
            DeclKind::Interface(bodies) => bodies.iter().for_each(|u| check_unit(u, out)),
            _ => {}
        }
    }
    visit::walk_stmts(&unit.body, &mut |s| {
        if let StmtKind::Comment(text) = &s.kind {
            directive(text, s.span, out);
        }
    });
}

/// The directive of one comment's text, if it holds one (`$AD NAME args`).
fn directive(text: &str, span: Span, out: &mut Vec<Diagnostic>) {
    let trimmed = text.trim_start();
    let Some(rest) = trimmed
        .get(..3)
        .filter(|head| head.eq_ignore_ascii_case("$ad"))
        .map(|_| &trimmed[3..])
    else {
        return;
    };
    // `$ADX` is not a directive; `$AD` must be followed by a blank.
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return;
    }
    let name = rest.split_whitespace().next().unwrap_or("");
    let upper = name.to_ascii_uppercase();
    match KNOWN.iter().find(|(known, _)| *known == upper) {
        Some((known, instead)) => out.push(
            Diagnostic::warning(
                "W0401",
                format!("the directive `$AD {known}` is not honoured yet: {instead}"),
            )
            .at(span)
            .with_help(if *known == "NODIFF" {
                "make the variables passive by leaving them out of the root's independents and dependents in ad.toml"
            } else {
                "the derivatives are right without it; only their cost differs"
            }),
        ),
        None => out.push(
            Diagnostic::warning(
                "W0402",
                if name.is_empty() {
                    "`$AD` without a directive name is ignored".to_string()
                } else {
                    format!("unknown directive `$AD {name}` is ignored")
                },
            )
            .at(span)
            .with_help(
                match suggest(&upper, KNOWN.iter().map(|(k, _)| *k)).filter(|_| !name.is_empty()) {
                    Some(close) => format!("did you mean `$AD {close}`?"),
                    None => format!(
                        "the directives are {}",
                        KNOWN
                            .iter()
                            .map(|(k, _)| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                },
            ),
        ),
    }
}
