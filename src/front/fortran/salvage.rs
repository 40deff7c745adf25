//! What a type declaration statement with a syntax error still declares, so that its
//! names raise no second error ("not declared") after the statement's own (issue 13: one
//! error per construct, no cascades).

use super::cursor::Cursor;
use super::decl::{at_type_spec, parse_type_spec};
use super::lexer::{RawStmt, Tok, TokKind};
use crate::diag::Span;
use crate::il::{DeclKind, Entity};

/// For a type declaration statement with a syntax error (`real(8), parameter :: c =
/// 1.0 2.0`), the declaration of its names with its type: declared so, they raise
/// no second error ("not declared") after the statement's own. `None` when the
/// statement is no type declaration or its type does not parse.
pub fn salvaged_declaration(raw: &RawStmt, src: &str) -> Option<DeclKind> {
    let file = raw.span.file;
    let mut c = Cursor::new(&raw.toks, src, file);
    if !at_type_spec(&c) {
        return None;
    }
    let spec = parse_type_spec(&mut c, false).ok()?;
    let start = raw
        .toks
        .iter()
        .position(|t| t.kind == TokKind::DoubleColon)
        .map_or(c.pos, |k| k + 1);
    let entities: Vec<Entity> = entity_names(&raw.toks[start.min(raw.toks.len())..])
        .into_iter()
        .map(|(name, span)| Entity {
            name,
            dims: None,
            init: None,
            span,
        })
        .collect();
    (!entities.is_empty()).then(|| DeclKind::Var {
        spec,
        attrs: Vec::new(),
        entities,
    })
}

/// The names a declaration statement `spec [, attrs] :: a [= v], b(n), ...` declares:
/// the identifiers after `::` that start an entity.
pub(super) fn declared_names(raw: &RawStmt) -> Vec<String> {
    match raw.toks.iter().position(|t| t.kind == TokKind::DoubleColon) {
        Some(start) => entity_names(&raw.toks[start + 1..])
            .into_iter()
            .map(|(n, _)| n)
            .collect(),
        None => Vec::new(),
    }
}

/// The identifiers that start the entities of an entity list (`a = v, b(n), c`).
fn entity_names(toks: &[Tok]) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut expect_name = true;
    for t in toks {
        match &t.kind {
            TokKind::LParen | TokKind::LBracket => depth += 1,
            TokKind::RParen | TokKind::RBracket => depth = depth.saturating_sub(1),
            TokKind::Comma if depth == 0 => expect_name = true,
            TokKind::Ident(n) if expect_name && depth == 0 => {
                out.push((n.clone(), t.span));
                expect_name = false;
            }
            _ => expect_name = false,
        }
    }
    out
}
