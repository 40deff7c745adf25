//! Lexing free-form source: characters → tokens. Continuation lines are joined here,
//! comments become tokens (so the statement splitter can place them), and line ends and
//! `;` are kept as statement separators.

use crate::diag::{Diagnostic, FileId, Span};

#[derive(Clone, Debug, PartialEq)]
pub enum TokKind {
    /// A name or keyword, as spelled.
    Ident(String),
    /// An integer literal as written, kind suffix included (`10`, `3_8`).
    Int(String),
    /// A real literal as written (`1.5d0`, `.5`, `2.0_dp`).
    Real(String),
    /// A character literal: its value, quotes undoubled.
    Str(String),
    /// `.true.` / `.false.`.
    Logical(bool),
    /// A dot operator other than `.true.`/`.false.`, lower case without the dots (`and`).
    DotOp(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Colon,
    DoubleColon,
    /// `=`
    Assign,
    /// `=>`
    Arrow,
    Plus,
    Minus,
    Star,
    Pow,
    Slash,
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Percent,
    Semi,
    Newline,
    /// Where a lexing error was reported.
    Error,
    /// A comment: the text after `!`. `own_line` when nothing but blanks precede it.
    Comment {
        text: String,
        own_line: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tok {
    pub kind: TokKind,
    pub span: Span,
}

/// Splits `text` into tokens. Errors are reported and the offending character skipped.
#[cfg(test)]
pub fn lex(file: FileId, text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Tok> {
    lex_with_pads(file, text, &[], diags)
}

/// As [`lex`], for text rewritten from fixed form: a character constant continued
/// across lines gets the blanks `pads` give for each join.
pub fn lex_with_pads(
    file: FileId,
    text: &str,
    pads: &[super::fixed::Pad],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Tok> {
    let mut lexer = Lexer {
        pads,
        file,
        text,
        bytes: text.as_bytes(),
        // A UTF-8 byte order mark is not part of the program.
        pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
        // Room for a token every two bytes or so, more than Fortran ever has: growing
        // by doubling would copy a large file's tokens (tens of megabytes) again and
        // again, and room never written to costs no memory.
        toks: Vec::with_capacity(text.len() / 2 + 16),
        line_has_tokens: false,
        diags,
    };
    lexer.run();
    lexer.toks
}

struct Lexer<'a, 'd> {
    file: FileId,
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    toks: Vec<Tok>,
    line_has_tokens: bool,
    diags: &'d mut Vec<Diagnostic>,
    /// Continuations inside character constants of fixed-form text (`fixed::Pad`).
    pads: &'a [super::fixed::Pad],
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl Lexer<'_, '_> {
    fn at(&self, i: usize) -> u8 {
        self.bytes.get(i).copied().unwrap_or(0)
    }

    fn push(&mut self, kind: TokKind, lo: usize, hi: usize) {
        if !matches!(kind, TokKind::Newline | TokKind::Comment { .. }) {
            self.line_has_tokens = true;
        }
        self.toks.push(Tok {
            kind,
            span: Span::new(self.file, lo, hi),
        });
    }

    /// Reports a lexing error and leaves an [`TokKind::Error`] token, so that the
    /// statement is dropped without a second, confusing syntax error.
    fn error(&mut self, code: &'static str, msg: String, lo: usize, hi: usize) {
        self.diags
            .push(Diagnostic::error(code, msg).at(Span::new(self.file, lo, hi)));
        self.push(TokKind::Error, lo, hi);
    }

    fn run(&mut self) {
        while self.pos < self.bytes.len() {
            let b = self.bytes[self.pos];
            let lo = self.pos;
            match b {
                b' ' | b'\t' | b'\r' | 0x0c => self.pos += 1,
                b'\n' => {
                    self.push(TokKind::Newline, lo, lo);
                    self.line_has_tokens = false;
                    self.pos += 1;
                }
                b'!' => self.comment(),
                b'#' if !self.line_has_tokens => {
                    let mut i = lo;
                    while i < self.bytes.len() && self.bytes[i] != b'\n' {
                        i += 1;
                    }
                    self.error(
                        "E0201",
                        "preprocessor directives are not supported: run the preprocessor first"
                            .to_string(),
                        lo,
                        i,
                    );
                    self.pos = i;
                }
                b'&' => self.continuation(),
                b'\'' | b'"' => self.string(b),
                b'0'..=b'9' => self.number(),
                b'.' if self.at(lo + 1).is_ascii_digit() => self.number(),
                b'.' => self.dot(),
                b'a'..=b'z' | b'A'..=b'Z' => {
                    let mut name = String::new();
                    let i = self.run_of(lo, &mut name, is_ident_char);
                    self.pos = i;
                    self.push(TokKind::Ident(name), lo, i);
                }
                _ => self.punct(),
            }
        }
        self.push(TokKind::Newline, self.pos, self.pos);
    }

    fn comment(&mut self) {
        let lo = self.pos;
        let mut i = lo + 1;
        while i < self.bytes.len() && self.bytes[i] != b'\n' {
            i += 1;
        }
        let text = self.text[lo + 1..i].trim_end_matches('\r').to_string();
        let own_line = !self.line_has_tokens;
        self.pos = i;
        self.toks.push(Tok {
            kind: TokKind::Comment { text, own_line },
            span: Span::new(self.file, lo, i),
        });
    }

    /// At `&`: a continuation if only blanks or a comment follow on the line.
    fn continuation(&mut self) {
        let lo = self.pos;
        let mut i = lo + 1;
        while matches!(self.at(i), b' ' | b'\t' | b'\r') {
            i += 1;
        }
        if !matches!(self.at(i), b'!' | b'\n' | 0) {
            self.error(
                "E0201",
                "unexpected `&`: a continuation `&` must end its line".to_string(),
                lo,
                lo + 1,
            );
            self.pos = lo + 1;
            return;
        }
        if self.at(i) == b'!' {
            self.pos = i;
            let was = self.line_has_tokens;
            self.line_has_tokens = true;
            self.comment();
            self.line_has_tokens = was;
            i = self.pos;
        }
        // Skip the newline, then blank and comment-only lines, then an optional `&`.
        self.pos = self.skip_to_continued_line(i);
    }

    /// From the end of a line ending in `&`, the position where the statement resumes.
    fn skip_to_continued_line(&self, mut i: usize) -> usize {
        loop {
            while i < self.bytes.len() && self.bytes[i] != b'\n' {
                i += 1;
            }
            if i >= self.bytes.len() {
                return i;
            }
            i += 1;
            let mut j = i;
            while matches!(self.at(j), b' ' | b'\t' | b'\r') {
                j += 1;
            }
            match self.at(j) {
                b'!' | b'\n' => {
                    i = j;
                    continue;
                }
                0 => return j,
                b'&' => return j + 1,
                _ => return j,
            }
        }
    }

    fn string(&mut self, quote: u8) {
        let lo = self.pos;
        let mut i = lo + 1;
        let mut value = String::new();
        loop {
            let b = self.at(i);
            if i >= self.bytes.len() || b == b'\n' {
                self.error(
                    "E0204",
                    "this character constant is not closed: expected a closing quote before the end of the line".to_string(),
                    lo,
                    i,
                );
                self.pos = i;
                self.push(TokKind::Str(value), lo, i);
                return;
            }
            if let Ok(k) = self.pads.binary_search_by_key(&i, |p| p.from) {
                let pad = self.pads[k];
                value.extend(std::iter::repeat_n(' ', pad.blanks));
                i = pad.to;
                continue;
            }
            if b == quote {
                if self.at(i + 1) == quote {
                    value.push(quote as char);
                    i += 2;
                    continue;
                }
                i += 1;
                break;
            }
            if b == b'&' {
                let mut j = i + 1;
                while matches!(self.at(j), b' ' | b'\t' | b'\r') {
                    j += 1;
                }
                if matches!(self.at(j), b'\n' | 0) {
                    // Continued character context: resume after the next line's `&`,
                    // or at its start when it has none.
                    let next = j + 1;
                    let mut k = next;
                    while matches!(self.at(k), b' ' | b'\t') {
                        k += 1;
                    }
                    i = if self.at(k) == b'&' { k + 1 } else { next };
                    if j >= self.bytes.len() {
                        i = j;
                    }
                    continue;
                }
            }
            let ch = self.text[i..].chars().next().unwrap_or('\u{fffd}');
            value.push(ch);
            i += ch.len_utf8().max(1);
        }
        self.pos = i;
        self.push(TokKind::Str(value), lo, i);
    }

    /// Letters then a dot, starting at `i` (just after a dot): the length of the letters.
    fn dot_word_at(&self, i: usize) -> Option<usize> {
        let mut j = i;
        while self.at(j).is_ascii_alphabetic() {
            j += 1;
        }
        (j > i && self.at(j) == b'.').then_some(j - i)
    }

    fn number(&mut self) {
        let lo = self.pos;
        let mut text = String::new();
        let digit = |b: u8| b.is_ascii_digit();
        let mut real = false;
        let mut i = self.run_of(lo, &mut text, digit);
        if self.at(i) == b'.' && self.dot_word_at(i + 1).is_none() {
            real = true;
            text.push('.');
            i = self.run_of(i + 1, &mut text, digit);
        }
        if matches!(self.at(i), b'e' | b'E' | b'd' | b'D') {
            let digit_at = if matches!(self.at(i + 1), b'+' | b'-') {
                i + 2
            } else {
                i + 1
            };
            if self.at(digit_at).is_ascii_digit() {
                real = true;
                text.push_str(&self.text[i..digit_at]);
                i = self.run_of(digit_at, &mut text, digit);
            }
        }
        if self.at(i) == b'_' && is_ident_char(self.at(i + 1)) {
            i = self.run_of(i, &mut text, is_ident_char);
        }
        self.pos = i;
        let kind = if real {
            TokKind::Real(text)
        } else {
            TokKind::Int(text)
        };
        self.push(kind, lo, i);
    }

    /// From `i`, the bytes `accept` takes, appended to `text`, also across the end of a
    /// line when the token is split there (`...0.18343&` then `&4249...`: the line ends in
    /// `&` right after it and the next one starts with `&` right before the rest, F2018
    /// 6.3.2.4); where the run ends.
    fn run_of(&self, mut i: usize, text: &mut String, accept: impl Fn(u8) -> bool) -> usize {
        loop {
            let start = i;
            while i < self.bytes.len() && accept(self.bytes[i]) {
                i += 1;
            }
            text.push_str(&self.text[start..i]);
            match self.split_token_resumes(i) {
                Some(k) if i > start && accept(self.at(k)) => i = k,
                _ => return i,
            }
        }
    }

    /// At `i`, an `&` that ends its line (nothing after it, not even a comment) and
    /// whose continued line starts with `&`: where the continued text resumes.
    fn split_token_resumes(&self, i: usize) -> Option<usize> {
        if self.at(i) != b'&' {
            return None;
        }
        let mut j = i + 1;
        while matches!(self.at(j), b' ' | b'\t' | b'\r') {
            j += 1;
        }
        if self.at(j) != b'\n' {
            return None;
        }
        let k = self.skip_to_continued_line(j);
        (k > j + 1 && self.at(k - 1) == b'&').then_some(k)
    }

    fn dot(&mut self) {
        let lo = self.pos;
        match self.dot_word_at(lo + 1) {
            Some(n) => {
                let word = self.text[lo + 1..lo + 1 + n].to_ascii_lowercase();
                let mut hi = lo + n + 2;
                let kind = match word.as_str() {
                    "true" | "false" => {
                        // An optional kind suffix on a logical literal is skipped.
                        if self.at(hi) == b'_' && is_ident_char(self.at(hi + 1)) {
                            hi += 1;
                            while is_ident_char(self.at(hi)) {
                                hi += 1;
                            }
                        }
                        TokKind::Logical(word == "true")
                    }
                    _ => TokKind::DotOp(word),
                };
                self.pos = hi;
                self.push(kind, lo, hi);
            }
            None => {
                self.error("E0201", "unexpected character `.`".to_string(), lo, lo + 1);
                self.pos = lo + 1;
            }
        }
    }

    fn punct(&mut self) {
        let lo = self.pos;
        let b = self.at(lo);
        let next = self.at(lo + 1);
        let (kind, len) = match (b, next) {
            (b'*', b'*') => (TokKind::Pow, 2),
            (b'*', _) => (TokKind::Star, 1),
            (b'/', b'/') => (TokKind::Concat, 2),
            (b'/', b'=') => (TokKind::Ne, 2),
            (b'/', _) => (TokKind::Slash, 1),
            (b'=', b'=') => (TokKind::Eq, 2),
            (b'=', b'>') => (TokKind::Arrow, 2),
            (b'=', _) => (TokKind::Assign, 1),
            (b'<', b'=') => (TokKind::Le, 2),
            (b'<', _) => (TokKind::Lt, 1),
            (b'>', b'=') => (TokKind::Ge, 2),
            (b'>', _) => (TokKind::Gt, 1),
            (b':', b':') => (TokKind::DoubleColon, 2),
            (b':', _) => (TokKind::Colon, 1),
            (b'(', _) => (TokKind::LParen, 1),
            (b')', _) => (TokKind::RParen, 1),
            (b'[', _) => (TokKind::LBracket, 1),
            (b']', _) => (TokKind::RBracket, 1),
            (b',', _) => (TokKind::Comma, 1),
            (b'+', _) => (TokKind::Plus, 1),
            (b'-', _) => (TokKind::Minus, 1),
            (b'%', _) => (TokKind::Percent, 1),
            (b';', _) => (TokKind::Semi, 1),
            _ => {
                let ch = self.text[lo..].chars().next().unwrap_or('\u{fffd}');
                let hi = lo + ch.len_utf8().max(1);
                self.error(
                    "E0201",
                    format!("unexpected character `{}`", ch.escape_default()),
                    lo,
                    hi,
                );
                self.pos = hi;
                return;
            }
        };
        self.pos = lo + len;
        self.push(kind, lo, lo + len);
    }
}

/// One logical line of the source: a whole-line comment or one statement.
#[derive(Clone, Debug)]
pub enum Item {
    Comment { text: String, span: Span },
    Stmt(RawStmt),
}

/// The tokens of one statement, its numeric label and its end-of-line comment.
#[derive(Clone, Debug)]
pub struct RawStmt {
    pub label: Option<String>,
    pub toks: Vec<Tok>,
    pub span: Span,
    pub comment: Option<String>,
}

/// Groups tokens into statements and whole-line comments, in source order.
pub fn split(toks: Vec<Tok>) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    let mut current: Vec<Tok> = Vec::new();
    let mut trailing: Option<String> = None;
    // Index in `items` of the last statement flushed on the current line.
    let mut last_on_line: Option<usize> = None;
    for tok in toks {
        match tok.kind {
            TokKind::Newline => {
                flush(&mut items, &mut current, trailing.take(), &mut last_on_line);
                last_on_line = None;
            }
            TokKind::Semi => {
                flush(&mut items, &mut current, None, &mut last_on_line);
            }
            TokKind::Comment { text, own_line } => {
                if own_line && current.is_empty() {
                    items.push(Item::Comment {
                        text,
                        span: tok.span,
                    });
                } else if current.is_empty() {
                    // After `a = 1;` on the same line: belongs to the last statement.
                    if let Some(Item::Stmt(s)) = last_on_line.and_then(|i| items.get_mut(i))
                        && s.comment.is_none()
                    {
                        s.comment = Some(text);
                    }
                } else {
                    trailing = Some(text);
                }
            }
            _ => current.push(tok),
        }
    }
    flush(&mut items, &mut current, trailing.take(), &mut last_on_line);
    items
}

fn flush(
    items: &mut Vec<Item>,
    current: &mut Vec<Tok>,
    comment: Option<String>,
    last_on_line: &mut Option<usize>,
) {
    if current.is_empty() {
        return;
    }
    let mut toks = std::mem::take(current);
    let lo = toks[0].span;
    let hi = toks[toks.len() - 1].span;
    let mut label = None;
    if toks.len() > 1
        && let TokKind::Int(text) = &toks[0].kind
        && !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
    {
        label = Some(text.clone());
        toks.remove(0);
    }
    *last_on_line = Some(items.len());
    items.push(Item::Stmt(RawStmt {
        label,
        toks,
        span: lo.to(hi),
        comment,
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokKind> {
        let mut diags = Vec::new();
        let toks = lex(FileId(0), text, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        toks.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn numbers_and_dot_operators() {
        use TokKind::*;
        assert_eq!(
            kinds("1.eq.x"),
            vec![
                Int("1".into()),
                DotOp("eq".into()),
                Ident("x".into()),
                Newline
            ]
        );
        assert_eq!(
            kinds("1.e5 .5 1.5D+2 2.0_dp 3_8 1."),
            vec![
                Real("1.e5".into()),
                Real(".5".into()),
                Real("1.5D+2".into()),
                Real("2.0_dp".into()),
                Int("3_8".into()),
                Real("1.".into()),
                Newline
            ]
        );
        assert_eq!(
            kinds("a.and..not.b"),
            vec![
                Ident("a".into()),
                DotOp("and".into()),
                DotOp("not".into()),
                Ident("b".into()),
                Newline
            ]
        );
    }

    /// A token split across lines (`&` ends the first, `&` starts the next): one token;
    /// a blank before the `&`, or a comment after it, ends the token there.
    #[test]
    fn tokens_split_across_lines() {
        use TokKind::*;
        assert_eq!(
            kinds("x = 0.12&\n   &34_w&\n&p + po&\n  &ly(1)"),
            vec![
                Ident("x".into()),
                Assign,
                Real("0.1234_wp".into()),
                Plus,
                Ident("poly".into()),
                LParen,
                Int("1".into()),
                RParen,
                Newline
            ]
        );
        assert_eq!(
            kinds("x = a &\n &b + c&  ! note\n &d"),
            vec![
                Ident("x".into()),
                Assign,
                Ident("a".into()),
                Ident("b".into()),
                Plus,
                Ident("c".into()),
                Comment {
                    text: " note".into(),
                    own_line: false
                },
                Ident("d".into()),
                Newline
            ]
        );
    }

    #[test]
    fn strings_continuations_and_comments() {
        let mut diags = Vec::new();
        let toks = lex(
            FileId(0),
            "x = 'it''s ! no' &  ! c1\n   & + y ! c2\n",
            &mut diags,
        );
        assert!(diags.is_empty());
        let items = split(toks);
        assert_eq!(items.len(), 1);
        let Item::Stmt(s) = &items[0] else { panic!() };
        assert_eq!(s.toks[2].kind, TokKind::Str("it's ! no".into()));
        assert_eq!(s.toks.len(), 5);
        assert_eq!(s.comment.as_deref(), Some(" c2"));
    }

    #[test]
    fn labels_and_semicolons() {
        let mut diags = Vec::new();
        let toks = lex(FileId(0), "10 a = 1; b = 2 ! t\n! own\n", &mut diags);
        let items = split(toks);
        assert_eq!(items.len(), 3);
        let Item::Stmt(a) = &items[0] else { panic!() };
        assert_eq!(a.label.as_deref(), Some("10"));
        let Item::Stmt(b) = &items[1] else { panic!() };
        assert_eq!(b.comment.as_deref(), Some(" t"));
        assert!(matches!(&items[2], Item::Comment { text, .. } if text == " own"));
    }
}
