//! INCLUDE lines and the `#include` lines the preprocessor keeps: each replaced by the
//! statements of the file it names, read in the including file's source form, their
//! spans pointing into that file.

use super::{IncludeResolver, SourceForm, fixed, lexer, preprocess};
use crate::diag::{Diagnostic, FileId};

/// Where included files come from: INCLUDE lines and the `#include` lines the
/// preprocessor kept (offset of the line, file name).
pub(super) struct Files<'a, 'r> {
    pub(super) resolve: &'a mut IncludeResolver<'r>,
    pub(super) cpp_includes: &'a [preprocess::KeptInclude],
}

/// How deep INCLUDE lines may nest (an included file including itself stops here).
const MAX_INCLUDE_DEPTH: usize = 16;

/// Replaces each `INCLUDE 'name'` line by the statements of the file it names, read in
/// the including file's source form; their spans point into that file.
pub(super) fn expand_includes(
    items: Vec<lexer::Item>,
    form: SourceForm,
    resolve: &mut IncludeResolver,
    diags: &mut Vec<Diagnostic>,
    texts: &mut Vec<(FileId, String)>,
    depth: usize,
) -> Vec<lexer::Item> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let name = match &item {
            lexer::Item::Stmt(raw) => match raw.toks.as_slice() {
                [
                    lexer::Tok {
                        kind: lexer::TokKind::Ident(word),
                        ..
                    },
                    lexer::Tok {
                        kind: lexer::TokKind::Str(name),
                        ..
                    },
                ] if word.eq_ignore_ascii_case("include") => Some((name.clone(), raw.span)),
                _ => None,
            },
            lexer::Item::Comment { .. } => None,
        };
        let Some((name, span)) = name else {
            out.push(item);
            continue;
        };
        out.extend(include_file(
            &name, span, form, resolve, diags, texts, depth,
        ));
    }
    out
}

/// The statements of the file `name` (an INCLUDE at `span`), its own INCLUDEs expanded.
fn include_file(
    name: &str,
    span: crate::diag::Span,
    form: SourceForm,
    resolve: &mut IncludeResolver,
    diags: &mut Vec<Diagnostic>,
    texts: &mut Vec<(FileId, String)>,
    depth: usize,
) -> Vec<lexer::Item> {
    if depth >= MAX_INCLUDE_DEPTH {
        diags.push(
            Diagnostic::error(
                "E0412",
                format!("INCLUDE '{name}' nests more than {MAX_INCLUDE_DEPTH} files deep"),
            )
            .at(span)
            .with_help("an included file probably includes itself"),
        );
        return Vec::new();
    }
    match resolve(name) {
        Ok((fid, text)) => {
            let (text, pads) = match form {
                SourceForm::Free => (text, Vec::new()),
                SourceForm::Fixed(last) => fixed::to_free_form_with_pads(fid, &text, last, diags),
            };
            let toks = lexer::lex_with_pads(fid, &text, &pads, diags);
            let inner = lexer::split(toks);
            texts.push((fid, text));
            expand_includes(inner, form, resolve, diags, texts, depth + 1)
        }
        Err(why) => {
            diags.push(
                Diagnostic::error("E0412", format!("cannot include '{name}': {why}"))
                    .at(span)
                    .with_help(
                        "put the file next to the source that includes it, or list its directory in the manifest's `include-dirs`",
                    ),
            );
            Vec::new()
        }
    }
}

/// Puts the statements of each `#include` the preprocessor kept where its line was.
pub(super) fn splice_cpp_includes(
    id: FileId,
    items: Vec<lexer::Item>,
    form: SourceForm,
    files: &mut Files,
    diags: &mut Vec<Diagnostic>,
    texts: &mut Vec<(FileId, String)>,
) -> Vec<lexer::Item> {
    let mut pending = files.cpp_includes.iter().peekable();
    let mut out = Vec::with_capacity(items.len());
    // An included file the preprocessor read in place comes as it left it (`given`).
    let mut splice =
        |out: &mut Vec<lexer::Item>, lo: u32, name: &str, given: &Option<(FileId, String)>| {
            let span = crate::diag::Span::new(id, lo as usize, lo as usize + 1);
            let mut given = given.clone();
            let mut resolve = |n: &str| match given.take() {
                Some(file) => Ok(file),
                None => (files.resolve)(n),
            };
            out.extend(include_file(
                name,
                span,
                form,
                &mut resolve,
                diags,
                texts,
                1,
            ));
        };
    for item in items {
        let lo = match &item {
            lexer::Item::Comment { span, .. } => span.lo,
            lexer::Item::Stmt(raw) => raw.span.lo,
        };
        while let Some((at, name, given)) = pending.next_if(|(at, _, _)| *at < lo) {
            splice(&mut out, *at, name, given);
        }
        out.push(item);
    }
    for (at, name, given) in pending {
        splice(&mut out, *at, name, given);
    }
    out
}
