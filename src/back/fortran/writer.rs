//! The text sink of the Fortran back-end: indentation, labels, trailing comments and the
//! splitting of long lines into `&` continuations.
//!
//! Every line goes through [`Writer::line`], so the layout rules live in one place:
//! two spaces per nesting level, lines longer than [`SPLIT_AT`] characters are continued
//! with a trailing `&` (continuation indented four more), and no line exceeds
//! [`MAX_COLUMNS`] (the free-form limit gfortran enforces).

/// Spaces per nesting level.
const INDENT: usize = 2;
/// Extra spaces for a continuation line.
const CONTINUATION_INDENT: usize = 4;
/// Lines longer than this are split.
pub(crate) const SPLIT_AT: usize = 100;
/// The free-form line length limit.
pub(crate) const MAX_COLUMNS: usize = 132;

/// Accumulates the output text of one file or unit.
#[derive(Default)]
pub(crate) struct Writer {
    pub out: String,
    /// Current nesting level.
    pub indent: usize,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    /// Enters a nested block.
    pub fn push(&mut self) {
        self.indent += 1;
    }

    /// Leaves a nested block.
    pub fn pop(&mut self) {
        debug_assert!(self.indent > 0, "unbalanced Writer::pop");
        self.indent = self.indent.saturating_sub(1);
    }

    pub fn blank_line(&mut self) {
        self.out.push('\n');
    }

    /// Writes a comment `! text` at the current indentation: one comment line per line
    /// of `text`, long lines wrapped at word boundaries.
    pub fn comment(&mut self, text: &str) {
        let indent = self.indent * INDENT;
        for line in text.split('\n') {
            for piece in wrap_comment(line.trim_end_matches('\r'), indent) {
                push_spaces(&mut self.out, indent);
                self.out.push_str(&piece);
                self.out.push('\n');
            }
        }
    }

    /// Writes one statement line at the current indentation, with an optional numeric
    /// label (at column 1) and an optional trailing comment.
    pub fn line(&mut self, label: Option<&str>, code: &str, trailing_comment: Option<&str>) {
        let indent = self.indent * INDENT;
        let mut text = String::new();
        match label {
            Some(label) => {
                text.push_str(label);
                text.push(' ');
                while text.len() < indent {
                    text.push(' ');
                }
            }
            None => push_spaces(&mut text, indent),
        }
        let code_start = text.len();
        text.push_str(code);
        if let Some(comment) = trailing_comment {
            let rendered = comment_text(comment);
            if !comment.contains('\n') && text.len() + 1 + rendered.len() <= SPLIT_AT {
                text.push(' ');
                text.push_str(&rendered);
            } else {
                // Too long to share the line: the comment goes just above the statement.
                self.comment(comment);
            }
        }
        for piece in split_line(&text, code_start, indent + CONTINUATION_INDENT) {
            self.out.push_str(&piece);
            self.out.push('\n');
        }
    }
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// `! text`, keeping the text's own leading space and directives (`!$AD ...`) as written.
pub(crate) fn comment_text(text: &str) -> String {
    if text.is_empty() || text.starts_with([' ', '\t', '$', '!']) {
        format!("!{text}")
    } else {
        format!("! {text}")
    }
}

/// Splits a comment into comment lines that fit in [`SPLIT_AT`] columns where words
/// allow it.
fn wrap_comment(text: &str, indent: usize) -> Vec<String> {
    let whole = comment_text(text);
    if indent + whole.len() <= SPLIT_AT || text.starts_with('$') {
        return vec![whole];
    }
    let room = SPLIT_AT.saturating_sub(indent + 2).max(20);
    let mut pieces = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && current.len() + 1 + word.len() > room {
            pieces.push(format!("! {current}"));
            current.clear();
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() || pieces.is_empty() {
        pieces.push(format!("! {current}"));
    }
    pieces
}

/// Splits one line of code into `&`-continued lines. `code_start` is the byte offset
/// where the code begins (after indentation and label): no split happens before it.
/// A trailing comment, if present, is never split (the caller keeps short ones only).
pub(crate) fn split_line(line: &str, code_start: usize, cont_indent: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    // The line still to place is `prefix` (a continuation's indentation and `&`) followed
    // by `line[offset..]`. Each step looks only at a window of it one line wide, so a long
    // statement costs time linear in its length.
    let mut prefix = String::new();
    let mut offset = 0;
    let mut start = code_start;
    let mut open_quote: Option<u8> = None;
    loop {
        let remaining = &line[offset..];
        if prefix.len() + remaining.len() <= SPLIT_AT {
            break;
        }
        let mut window_end = remaining.len().min(MAX_COLUMNS + 2);
        while !remaining.is_char_boundary(window_end) {
            window_end += 1;
        }
        let rest = format!("{prefix}{}", &remaining[..window_end]);
        let (in_string, comment_at) = scan(&rest, open_quote);
        let limit = SPLIT_AT - 2; // room for " &"
        let breakable =
            |i: usize| i > start && in_string[i].is_none() && comment_at.is_none_or(|c| i < c);
        // Break at a space (dropping it) or just after a comma, the rightmost that fits;
        // when none keeps the line legal (a long product printed without blanks), just
        // after a `*` or `/` operator.
        let bytes = rest.as_bytes();
        let candidate = (start + 1..=limit.min(rest.len() - 1))
            .rev()
            .find(|&i| breakable(i) && (bytes[i] == b' ' || bytes[i - 1] == b','));
        let after_operator = |i: usize| {
            let (before, op, next) = (bytes[i - 2], bytes[i - 1], bytes[i]);
            match op {
                b'*' => before != b'*' && next != b'*',
                b'/' => before != b'/' && before != b'(' && !matches!(next, b'/' | b'=' | b')'),
                _ => false,
            }
        };
        // The rightmost that keeps the line legal (room for " &").
        let operator = (start + 2..=(MAX_COLUMNS - 2).min(rest.len() - 1))
            .rev()
            .find(|&i| breakable(i) && after_operator(i));
        // A long string literal may be cut inside, continuing with `&` on both sides;
        // that is preferred to a break that would leave most of the line empty.
        // Inside a literal, a cut just after one of its blanks reads best.
        let in_literal = |i: usize| in_string[i].is_some() && rest.is_char_boundary(i);
        let last = limit.min(rest.len() - 1);
        let string_cut = (last.saturating_sub(20).max(start + 1)..=last)
            .rev()
            .find(|&i| {
                in_literal(i) && in_string[i - 1].is_some() && rest.as_bytes()[i - 1] == b' '
            })
            .or_else(|| (start + 1..=last).rev().find(|&i| in_literal(i)));
        let early = |i: usize| i < start + limit.saturating_sub(start) / 2;
        let cut_in_string = match (candidate, string_cut) {
            (Some(i), Some(cut)) => early(i) && cut > i,
            (None, Some(_)) => true,
            _ => false,
        };
        // Where the break falls in `rest`, the piece before it, and whether the next
        // line continues a literal (then it starts with `&`).
        let too_long = prefix.len() + remaining.len() > MAX_COLUMNS;
        // A token longer than a line (a constant with 300 digits): cut inside it, the
        // next line starting with `&` right before the rest (F2018 6.3.2.4).
        let token_char = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
        let token_cut = (start + 1..=(MAX_COLUMNS - 2).min(rest.len() - 1))
            .rev()
            .find(|&i| breakable(i) && token_char(bytes[i - 1]) && token_char(bytes[i]));
        // (cut, head, the quote of a literal the next line continues, whether the next
        // line continues a token: then it starts with `&`.)
        let (cut, head, tail_quote, split) = match (candidate, string_cut) {
            (_, Some(i)) if cut_in_string => (i, rest[..i].to_string() + "&", in_string[i], true),
            (Some(i), _) => (i, rest[..i].trim_end().to_string() + " &", None, false),
            (None, _) => {
                // No place before the limit: take the first one that keeps the line
                // legal, else leave the line whole.
                match (limit + 1..rest.len().min(MAX_COLUMNS - 1))
                    .find(|&i| breakable(i) && rest.as_bytes()[i] == b' ')
                {
                    Some(i) => (i, rest[..i].trim_end().to_string() + " &", None, false),
                    // Whole, the line would be too long for the compiler.
                    None => match (operator.filter(|_| too_long), token_cut) {
                        (Some(i), _) => (i, rest[..i].to_string() + " &", None, false),
                        (None, Some(i)) if too_long => (i, rest[..i].to_string() + "&", None, true),
                        _ => break,
                    },
                }
            }
        };
        // The cut lies after the prefix (it is past `start`, which is past the prefix).
        let mut next_offset = offset + (cut - prefix.len());
        if !split {
            next_offset += line[next_offset..].len() - line[next_offset..].trim_start().len();
        }
        if !split && next_offset == line.len() {
            break;
        }
        pieces.push(head);
        prefix.clear();
        push_spaces(&mut prefix, cont_indent);
        start = prefix.len();
        if split {
            prefix.push('&');
        }
        offset = next_offset;
        open_quote = tail_quote;
    }
    pieces.push(format!("{prefix}{}", &line[offset..]));
    pieces
}

/// For each byte of `line`: the quote of the character literal it lies in, if any; also
/// where a trailing `!` comment starts. `open_quote`: the line continues a literal opened
/// with that quote (it begins with `&`, then the rest of the literal).
fn scan(line: &str, open_quote: Option<u8>) -> (Vec<Option<u8>>, Option<usize>) {
    let bytes = line.as_bytes();
    let mut inside = vec![None; bytes.len() + 1];
    let mut quote: Option<u8> = None;
    let mut i = 0;
    if let Some(q) = open_quote {
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
        if bytes.get(i) == Some(&b'&') {
            i += 1;
            quote = Some(q);
        }
    }
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) => {
                inside[i] = Some(q);
                if b == q {
                    if bytes.get(i + 1) == Some(&q) {
                        inside[i + 1] = Some(q);
                        i += 2;
                        continue;
                    }
                    quote = None;
                    inside[i] = None;
                }
            }
            None => {
                if b == b'\'' || b == b'"' {
                    quote = Some(b);
                } else if b == b'!' {
                    return (inside, Some(i));
                }
            }
        }
        i += 1;
    }
    (inside, None)
}
