//! The Fortran front-end: free-form source → tokens (`lexer`) → statements (`stmt`,
//! `decl`, `expr`) → units with nested blocks (`unit`) → names resolved and symbol
//! tables filled (`sema`) → [`il::File`].
//!
//! It never panics on any input: every problem is a [`Diagnostic`] with a location, and
//! parsing recovers at the next statement so that one run reports as many errors as it
//! reasonably can.

mod cursor;
mod decl;
mod expr;
mod intrinsics;
mod lexer;
mod sema;
mod stmt;
mod unit;

#[cfg(test)]
mod tests;

use crate::diag::{Diagnostic, FileId, SourceFile};
use crate::il;

/// Parses and lowers one free-form Fortran file. Returns `Err` when any error was found
/// (the list may also hold warnings).
pub fn lower_file(
    id: FileId,
    source: &SourceFile,
    path: &str,
    next_stmt_id: &mut u32,
) -> Result<il::File, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let toks = lexer::lex(id, &source.text, &mut diags);
    let items = lexer::split(toks);
    let mut parser = unit::FileParser {
        stmts: stmt::StmtParser {
            src: &source.text,
            file: id,
        },
        items,
        pos: 0,
        diags: Vec::new(),
        next_id: next_stmt_id,
        headers: Vec::new(),
    };
    let mut units = parser.units();
    diags.append(&mut parser.diags);
    let mut names = std::collections::BTreeMap::new();
    for (index, unit) in units.iter_mut().enumerate() {
        let spans = parser.headers.get(index).cloned().unwrap_or_default();
        sema::analyze(unit, &spans, &mut diags);
        if names.insert(il::key(&unit.name), unit.span).is_some() {
            diags.push(
                Diagnostic::error(
                    "E0312",
                    format!("a unit named `{}` is defined twice in this file", unit.name),
                )
                .at(unit.span),
            );
        }
    }
    // In source order: parsing and semantic problems interleaved as a reader meets them.
    diags.sort_by_key(|d| match &d.location {
        Some(crate::diag::Location::Span(span)) => span.lo,
        _ => u32::MAX,
    });
    if diags.iter().any(Diagnostic::is_error) {
        Err(diags)
    } else {
        Ok(il::File {
            file: id,
            path: path.to_string(),
            units,
        })
    }
}
