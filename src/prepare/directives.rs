//! `$AD` directives in the sources (INTERFACE.md §6: Tapenade's spelling, in a comment
//! line, `!$AD NOCHECKPOINT`, `/* $AD II-LOOP */`). adgen honours `BINOMIAL-CKP` before a
//! loop (the adjoint reverses the loop from binomial snapshots:
//! `diff::adjoint::binomial`, which says where it cannot) and `CHECKPOINT-START` /
//! `CHECKPOINT-END` around a region of one block (`diff::adjoint::region`); the others
//! not yet: the derivatives it computes are right without them (they change only what
//! the adjoint stores or recomputes), so each one found is a warning that says so, never
//! silently ignored, and a directive adgen does not know (a misspelling) is a warning of
//! its own.
//!
//! OpenMP in comments (`!$omp` directives, `!$ ` lines compiled only with OpenMP) is
//! read as a compiler without OpenMP reads it, and said (W0403, W0404).
//!
//! The check reads the comments the front-ends keep in the IL (text after the comment
//! marker, `il::directive`), so it knows no source language.

use crate::diag::{Diagnostic, Span, suggest};
use std::collections::BTreeSet;

use crate::il::{DeclKind, Program, Stmt, StmtKind, Unit, directive, visit};

/// Tapenade's directives, as INTERFACE.md §6 lists them, with what adgen does instead.
const KNOWN: [(&str, &str); 7] = [
    (
        "NOCHECKPOINT",
        "the call is checkpointed like every call (joint mode)",
    ),
    (
        "CHECKPOINT-START",
        "it opens a region closed by the next CHECKPOINT-END of its block, and none follows",
    ),
    (
        "CHECKPOINT-END",
        "it closes the region a CHECKPOINT-START opened before it in its block, and none did",
    ),
    (
        "BINOMIAL-CKP",
        "it applies to the loop right after it, and none follows",
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
/// does not honour yet (or cannot where it stands: BINOMIAL-CKP before no loop,
/// CHECKPOINT-START or -END without its pair in its block), W0402 for one it does not
/// know.
pub fn check(program: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for unit in program.units() {
        check_unit(unit, &mut out);
    }
    out
}

fn check_unit(unit: &Unit, out: &mut Vec<Diagnostic>) {
    // BINOMIAL-CKP comments that stand before a loop: honoured by the adjoint.
    let mut loops = BTreeSet::new();
    visit::walk_stmts(&unit.body, &mut |s| {
        if matches!(s.kind, StmtKind::Do { .. } | StmtKind::DoWhile { .. }) {
            loops.insert(s.id);
        }
    });
    let mut honoured: BTreeSet<Span> = directive::targets(&unit.body, "BINOMIAL-CKP")
        .into_iter()
        .filter(|(id, _)| loops.contains(id))
        .map(|(_, d)| d.span)
        .collect();
    // CHECKPOINT-START and CHECKPOINT-END paired in a block: a region the adjoint
    // checkpoints (`diff::adjoint::region`).
    fn paired(block: &[Stmt], out: &mut BTreeSet<Span>) {
        for (start, end) in directive::regions(block) {
            out.insert(block[start].span);
            out.insert(block[end].span);
        }
        for s in block {
            for inner in visit::child_blocks(s) {
                paired(inner, out);
            }
        }
    }
    paired(&unit.body, &mut honoured);
    let directive = |text: &str, span: Span, out: &mut Vec<Diagnostic>| {
        if !honoured.contains(&span) {
            directive(text, span, out);
        }
    };
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
    let mut openmp_said = false;
    visit::walk_stmts(&unit.body, &mut |s| {
        if let StmtKind::Comment(text) = &s.kind {
            directive(text, s.span, out);
            openmp(text, s.span, &unit.name, &mut openmp_said, out);
        }
    });
}

/// OpenMP in a comment: a directive (`!$omp parallel do`: W0403, once per procedure),
/// or a line compiled only with OpenMP (`!$ n = omp_get_num_threads()`: W0404, each).
/// adgen reads both as comments, as a compiler without OpenMP does, and writes neither
/// into the derivatives.
fn openmp(text: &str, span: Span, unit: &str, said: &mut bool, out: &mut Vec<Diagnostic>) {
    match openmp_kind(text) {
        None => {}
        Some(OpenMp::Directive) if std::mem::replace(said, true) => {}
        Some(OpenMp::Directive) => {
            out.push(
                Diagnostic::warning(
                    "W0403",
                    format!(
                        "OpenMP directives are not carried into the derivatives of `{unit}`: \
                         their loops run serially there"
                    ),
                )
                .at(span)
                .with_help("the derivatives are right; only the original runs in parallel"),
            );
        }
        Some(OpenMp::Conditional) => out.push(
            Diagnostic::warning(
                "W0404",
                "a line compiled only with OpenMP (`!$ ...`) is read as a comment: the \
                 derivatives do without it",
            )
            .at(span)
            .with_help(
                "if it changes values the derivatives depend on, write it as a plain statement",
            ),
        ),
    }
}

/// What OpenMP a comment's text (after the comment marker) holds.
enum OpenMp {
    /// `$omp ...`: a directive.
    Directive,
    /// `$ statement`: a line compiled only with OpenMP.
    Conditional,
}

fn openmp_kind(text: &str) -> Option<OpenMp> {
    let rest = text.strip_prefix('$')?;
    if rest.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("omp")) {
        Some(OpenMp::Directive)
    } else if rest.starts_with([' ', '\t']) && !rest.trim().is_empty() {
        Some(OpenMp::Conditional)
    } else {
        None
    }
}

/// The directive of one comment's text, if it holds one (`$AD NAME args`).
fn directive(text: &str, span: Span, out: &mut Vec<Diagnostic>) {
    let Some(parsed) = directive::parse(text) else {
        return;
    };
    let upper = parsed.name;
    let name = text
        .split_whitespace()
        .find(|w| w.eq_ignore_ascii_case(&upper))
        .unwrap_or(&upper);
    match KNOWN.iter().find(|(known, _)| *known == upper) {
        Some((known, instead)) => out.push(
            Diagnostic::warning(
                "W0401",
                format!(
                    "the directive `$AD {known}` is not honoured {}: {instead}",
                    if matches!(*known, "BINOMIAL-CKP" | "CHECKPOINT-START" | "CHECKPOINT-END") {
                        "here"
                    } else {
                        "yet"
                    }
                ),
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

/// Removes the OpenMP of the comments (directives, lines compiled only with OpenMP) from
/// every procedure, after [`check`] said so: kept, a directive would apply to whatever
/// derivative statement follows it (a push between a parallel loop and its END, an
/// adjoint loop whose increments race), and the primal loop's index would be undefined
/// where the adjoint reads it.
pub fn strip_openmp(program: &mut Program) {
    fn is_openmp(text: &str) -> bool {
        openmp_kind(text).is_some()
    }
    fn strip(block: &mut Vec<Stmt>) {
        block.retain(|s| !matches!(&s.kind, StmtKind::Comment(t) if is_openmp(t)));
        for s in block.iter_mut() {
            for inner in visit::child_blocks_mut(s) {
                strip(inner);
            }
        }
    }
    for unit in program.files.iter_mut().flat_map(|f| f.units.iter_mut()) {
        unit.decls
            .retain(|d| !matches!(&d.kind, DeclKind::Comment(t) if is_openmp(t)));
        strip(&mut unit.body);
    }
}
