//! A cursor over the tokens of one statement, with the small helpers every parser uses.
//! Syntax errors are one [`Diagnostic`] per statement (code E0202), saying what was
//! expected.

use super::lexer::{Tok, TokKind};
use crate::diag::{Diagnostic, FileId, Span};

pub type PResult<T> = Result<T, Diagnostic>;

pub struct Cursor<'a> {
    pub toks: &'a [Tok],
    pub pos: usize,
    /// The source text, for quoting tokens and keeping spellings verbatim.
    pub src: &'a str,
    pub file: FileId,
    /// Current nesting of recursive expression parsing.
    pub nesting: u32,
}

impl<'a> Cursor<'a> {
    pub fn new(toks: &'a [Tok], src: &'a str, file: FileId) -> Cursor<'a> {
        Cursor {
            toks,
            pos: 0,
            src,
            file,
            nesting: 0,
        }
    }

    pub fn peek(&self) -> Option<&'a TokKind> {
        self.toks.get(self.pos).map(|t| &t.kind)
    }

    pub fn nth(&self, n: usize) -> Option<&'a TokKind> {
        self.toks.get(self.pos + n).map(|t| &t.kind)
    }

    pub fn bump(&mut self) -> Option<&'a Tok> {
        let tok = self.toks.get(self.pos);
        if tok.is_some() {
            self.pos += 1;
        }
        tok
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    pub fn is(&self, kind: &TokKind) -> bool {
        self.peek() == Some(kind)
    }

    pub fn eat(&mut self, kind: &TokKind) -> bool {
        if self.is(kind) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// The identifier at `pos + n`, if that token is one.
    pub fn ident_at(&self, n: usize) -> Option<&'a str> {
        match self.nth(n) {
            Some(TokKind::Ident(s)) => Some(s),
            _ => None,
        }
    }

    pub fn is_kw(&self, kw: &str) -> bool {
        self.ident_at(0).is_some_and(|s| s.eq_ignore_ascii_case(kw))
    }

    pub fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Span of the current token, or a point just after the last one.
    pub fn here(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(t) => t.span,
            None => {
                let hi = self.toks.last().map(|t| t.span.hi).unwrap_or(0);
                Span {
                    file: self.file,
                    lo: hi,
                    hi,
                }
            }
        }
    }

    /// Start offset of the current token.
    pub fn lo(&self) -> u32 {
        self.here().lo
    }

    /// The span from `lo` to the end of the last consumed token.
    pub fn span_from(&self, lo: u32) -> Span {
        let hi = if self.pos == 0 {
            lo
        } else {
            self.toks[self.pos - 1].span.hi.max(lo)
        };
        Span {
            file: self.file,
            lo,
            hi,
        }
    }

    /// The source text of the current token, for messages.
    pub fn describe_here(&self) -> String {
        match self.toks.get(self.pos) {
            None => "the end of the statement".to_string(),
            Some(t) => {
                let text = self
                    .src
                    .get(t.span.lo as usize..t.span.hi as usize)
                    .unwrap_or("?");
                let text: String = text.chars().take(40).collect();
                format!("`{text}`")
            }
        }
    }

    /// "expected X, found Y" at the current token.
    pub fn expected(&self, what: &str) -> Diagnostic {
        Diagnostic::error(
            "E0202",
            format!("expected {what}, found {}", self.describe_here()),
        )
        .at(self.here())
    }

    pub fn expect(&mut self, kind: &TokKind, what: &str) -> PResult<Span> {
        if self.is(kind) {
            let span = self.here();
            self.pos += 1;
            Ok(span)
        } else {
            Err(self.expected(what))
        }
    }

    pub fn expect_ident(&mut self, what: &str) -> PResult<(String, Span)> {
        match self.toks.get(self.pos) {
            Some(Tok {
                kind: TokKind::Ident(name),
                span,
            }) => {
                self.pos += 1;
                Ok((name.clone(), *span))
            }
            _ => Err(self.expected(what)),
        }
    }

    pub fn expect_end(&mut self) -> PResult<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.expected("the end of the statement"))
        }
    }

    /// The verbatim source text from `lo` to the end of the last consumed token.
    pub fn text_from(&self, lo: u32) -> String {
        let span = self.span_from(lo);
        self.src
            .get(span.lo as usize..span.hi as usize)
            .unwrap_or("")
            .to_string()
    }

    /// The source text of tokens `from..to` (absolute indices), comments left out, one
    /// blank where the source had blanks or a line continuation between two tokens.
    pub fn tokens_text(&self, from: usize, to: usize) -> String {
        let mut out = String::new();
        let mut last_hi: Option<u32> = None;
        for t in self.toks.iter().take(to).skip(from) {
            if matches!(t.kind, TokKind::Comment { .. } | TokKind::Newline) {
                continue;
            }
            if last_hi.is_some_and(|hi| hi < t.span.lo) {
                out.push(' ');
            }
            out.push_str(
                self.src
                    .get(t.span.lo as usize..t.span.hi as usize)
                    .unwrap_or(""),
            );
            last_hi = Some(t.span.hi);
        }
        out
    }

    /// Index of the `)` matching the `(` at absolute index `open`, if any.
    pub fn matching_paren(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (i, t) in self.toks.iter().enumerate().skip(open) {
            match t.kind {
                TokKind::LParen => depth += 1,
                TokKind::RParen => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    }
}
