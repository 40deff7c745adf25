//! Fixed source form (FORTRAN 77 columns) → the free-form statement stream the lexer reads.
//!
//! The pass rewrites the text *in place*: every byte keeps its offset, only some bytes
//! are replaced by ASCII (a blank, or `!` for a comment character in column 1). So the
//! line map is the identity: token spans are byte offsets into the original file, and
//! every diagnostic points at the original line and column without any translation.
//!
//! What it does, line by line (columns count characters; a tab in columns 1–6 ends the
//! label field and the statement field starts after it):
//! - A comment line (`C`, `c`, `*` or `!` in column 1, or `!` after blanks in columns
//!   1–5) gets `!` in column 1 and is kept as a comment. A blank line stays blank.
//! - Columns 1–5 hold a label: digits and blanks. Blanks inside a label are squeezed out
//!   (`1 0` is label 10). Anything else is an error (E0210).
//! - Column 6 not blank and not `0` marks a continuation line; with a tab in columns 1–5
//!   a digit 1–9 right after the tab does (DEC style). A continuation joins its statement:
//!   the newline ending the previous line, columns 1–6 and any comment or blank lines in
//!   between become blanks, so the statement is one line for the lexer.
//! - Columns 73 and after are ignored (blanked), except inside an end-of-line comment;
//!   the manifest's `fixed-line-length` moves the limit, as gfortran's
//!   `-ffixed-line-length-N` does. Text cut off this way draws one warning per file
//!   (W0202), as gfortran `-Wall` warns of truncated lines.
//! - `!` after column 6 outside a character constant starts a comment; on a line that is
//!   continued, the comment is blanked (a free-form comment would swallow the rest of
//!   the joined statement). Its text is lost: the IL keeps one comment per statement.
//! - `&` outside a character constant has no meaning in fixed form (E0212); a `#` line
//!   is left for the lexer, which refuses preprocessor directives.
//!
//! Blanks are insignificant in fixed form; the lexer and parser already accept the
//! spellings libraries use with or without them (`GO TO`/`GOTO`, `DOUBLE PRECISION`/
//! `DOUBLEPRECISION`, `ELSE IF`/`ELSEIF`, `END IF`/`ENDIF`, `END DO`/`ENDDO`). Blanks
//! inside a name or number (`X 1`, `1 000`) are not joined.
//!
//! A character constant continued across lines holds, as gfortran reads it (its default
//! `-fpad-source`), the line padded with blanks to the last column, then the
//! continuation's field: `'abc` ending column 16 and `&def'` give `abc`, 56 blanks,
//! `def` (with `fixed-line-length = "none"`, no blanks: `abcdef`). The rewritten text
//! cannot hold that many blanks at the same offsets, so each such join is returned as a
//! [`Pad`], which the lexer applies to the constant's value.

use crate::diag::{Diagnostic, FileId, Span};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum LineKind {
    /// A comment line or a blank line: between a statement and its continuation it is
    /// blanked, elsewhere kept.
    Comment,
    Blank,
    /// `#` in column 1: left as it is for the lexer to refuse.
    Directive,
    Initial,
    Continuation,
}

/// One physical line, after its columns were read.
#[derive(Clone, Debug)]
struct Line {
    kind: LineKind,
    /// Byte offset of the first character.
    start: usize,
    /// Byte offset of the newline (or of the end of the text).
    end: usize,
    /// Byte offset where the statement field starts (`end` when there is none).
    field: usize,
    /// Byte offset of an end-of-line `!` comment, if any.
    comment: Option<usize>,
}

/// A continuation inside a character constant: in its value, the rewritten text from
/// `from` (where the continued line's text ends) to `to` (where the continuation's field
/// starts) stands for `blanks` blanks (the padding to the last column).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pad {
    pub from: usize,
    pub to: usize,
    pub blanks: usize,
}

/// Rewrites fixed-form `text` into free form of exactly the same length (see the module
/// documentation). Problems are reported in `diags`; the offending columns are blanked.
#[cfg(test)]
pub fn to_free_form(
    file: FileId,
    text: &str,
    last_column: usize,
    diags: &mut Vec<Diagnostic>,
) -> String {
    to_free_form_with_pads(file, text, last_column, diags).0
}

/// As [`to_free_form`], with the continuations inside character constants, by offset.
pub fn to_free_form_with_pads(
    file: FileId,
    text: &str,
    last_column: usize,
    diags: &mut Vec<Diagnostic>,
) -> (String, Vec<Pad>) {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let mut reader = Reader {
        file,
        text,
        out: &mut out,
        diags,
        quote: None,
        last_column,
        truncated: false,
        pads: Vec::new(),
    };
    let lines = reader.read_lines();
    reader.join_continuations(&lines);
    let pads = std::mem::take(&mut reader.pads);
    // Only whole characters were replaced by ASCII, so the text is still UTF-8; the
    // fallback keeps the promise of never panicking should that ever be false.
    let text = String::from_utf8(out).unwrap_or_else(|e| {
        String::from_utf8_lossy(e.as_bytes())
            .chars()
            .map(|c| if c == '\u{fffd}' { ' ' } else { c })
            .collect()
    });
    (text, pads)
}

/// Columns 73-80 of card images: a sequence number, after a deck name or not
/// (`MAIN0010`, `00000010`); or the `&` of code written to be read in both forms.
fn is_sequence_field(rest: &str) -> bool {
    let t = rest.trim();
    t == "&"
        || (t.chars().any(|c| c.is_ascii_digit())
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '.'))
}

struct Reader<'a, 'd> {
    file: FileId,
    text: &'a str,
    out: &'a mut Vec<u8>,
    diags: &'d mut Vec<Diagnostic>,
    /// The quote of a character constant still open at the end of the previous line of
    /// the same statement.
    quote: Option<char>,
    /// The last column of the statement field.
    last_column: usize,
    /// A line of this file was cut off (said once).
    truncated: bool,
    /// The continuations inside character constants, in text order.
    pads: Vec<Pad>,
}

impl Reader<'_, '_> {
    fn error(&mut self, code: &'static str, msg: impl Into<String>, lo: usize, hi: usize) {
        self.diags
            .push(Diagnostic::error(code, msg).at(Span::new(self.file, lo, hi)));
    }

    /// Replaces the bytes `lo..hi` (whole characters) by blanks.
    fn blank(&mut self, lo: usize, hi: usize) {
        let hi = hi.min(self.out.len());
        for b in self.out.iter_mut().take(hi).skip(lo) {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }

    fn read_lines(&mut self) -> Vec<Line> {
        let mut lines = Vec::new();
        let mut start = 0usize;
        // A UTF-8 byte order mark is not part of the program: the first line starts after it.
        if self.text.starts_with('\u{feff}') {
            start = 3;
        }
        let mut seen_initial = false;
        while start <= self.text.len() {
            let end = self.text[start..]
                .find('\n')
                .map_or(self.text.len(), |i| start + i);
            let mut line = self.read_line(start, end);
            match line.kind {
                LineKind::Initial => seen_initial = true,
                LineKind::Continuation if !seen_initial => {
                    self.error(
                        "E0211",
                        "a continuation line must follow a statement: column 6 marks this line as continuing the previous one",
                        line.start,
                        line.field,
                    );
                    line.kind = LineKind::Initial;
                    seen_initial = true;
                }
                LineKind::Directive => seen_initial = false,
                _ => {}
            }
            lines.push(line);
            if end >= self.text.len() {
                break;
            }
            start = end + 1;
        }
        lines
    }

    /// Reads the columns of the line `start..end` (without its newline).
    fn read_line(&mut self, start: usize, end: usize) -> Line {
        let raw = &self.text[start..end];
        let content = raw.trim_end_matches('\r');
        let mut line = Line {
            kind: LineKind::Blank,
            start,
            end,
            field: end,
            comment: None,
        };
        if content.trim_matches([' ', '\t', '\x0c']).is_empty() {
            return line;
        }
        let first = content.chars().next().unwrap_or(' ');
        if matches!(first, 'C' | 'c' | '*' | '!') {
            self.out[start] = b'!';
            line.kind = LineKind::Comment;
            return line;
        }
        if first == '#' {
            line.kind = LineKind::Directive;
            return line;
        }
        // Columns 1-5 (the label field), up to a tab.
        let mut label_digits: Vec<u8> = Vec::new();
        let mut label_lo: Option<usize> = None;
        let mut bad_label: Option<(usize, usize)> = None;
        let mut chars = content.char_indices().peekable();
        let mut column = 0usize;
        let mut after_tab = false;
        while column < 5 {
            let Some(&(i, ch)) = chars.peek() else { break };
            if ch == '\t' {
                chars.next();
                after_tab = true;
                break;
            }
            column += 1;
            chars.next();
            match ch {
                '0'..='9' => {
                    label_lo.get_or_insert(start + i);
                    label_digits.push(ch as u8);
                }
                ' ' => {}
                '!' if label_digits.is_empty() && bad_label.is_none() => {
                    // `!` after blanks only: a comment line.
                    line.kind = LineKind::Comment;
                    return line;
                }
                _ => {
                    let lo = start + i;
                    let hi = lo + ch.len_utf8();
                    bad_label = Some(match bad_label {
                        Some((l, _)) => (l, hi),
                        None => (lo, hi),
                    });
                }
            }
        }
        let label_field_end = chars.peek().map_or(end, |&(i, _)| start + i);
        // Column 6.
        let mut continuation = false;
        let field;
        if after_tab {
            // DEC tab form: a digit 1-9 right after the tab marks a continuation.
            match chars.peek() {
                Some(&(i, '1'..='9')) => {
                    continuation = true;
                    self.out[start + i] = b' ';
                    field = start + i + 1;
                }
                Some(&(i, _)) => field = start + i,
                None => field = end,
            }
        } else if column == 5 {
            match chars.peek() {
                Some(&(i, ch)) => {
                    let len = ch.len_utf8();
                    if ch == '\t' {
                        // A tab in column 6 starts the statement field of an initial line.
                        field = start + i + 1;
                    } else {
                        continuation = !matches!(ch, ' ' | '0');
                        self.blank(start + i, start + i + len);
                        field = start + i + len;
                    }
                }
                None => field = end,
            }
        } else {
            field = end;
        }
        if let Some((lo, hi)) = bad_label {
            let help = if matches!(first, 'D' | 'd') {
                "a `D` in column 1 marks a debugging line, which adgen does not read: remove the line or make it a comment"
            } else {
                "indent the statement to column 7, or make the line a comment with `C` in column 1"
            };
            self.diags.push(
                Diagnostic::error(
                    "E0210",
                    "columns 1 to 5 of a fixed-form line hold a statement label (digits) or nothing: statements start in column 7",
                )
                .at(Span::new(self.file, lo, hi))
                .with_help(help),
            );
            self.blank(start, label_field_end);
            label_digits.clear();
        } else if let Some(lo) = label_lo {
            // Squeeze blanks out of the label: `1 0` is label 10.
            let mut at = lo;
            for &d in &label_digits {
                self.out[at] = d;
                at += 1;
            }
            self.blank(at, label_field_end);
        }
        line.field = field.min(end);
        line.kind = if continuation {
            if !label_digits.is_empty() {
                self.error(
                    "E0211",
                    "a continuation line cannot have a label: columns 1 to 5 must be blank",
                    label_lo.unwrap_or(start),
                    label_lo.unwrap_or(start) + label_digits.len(),
                );
                self.blank(start, label_field_end);
            }
            LineKind::Continuation
        } else {
            LineKind::Initial
        };
        line
    }

    /// Scans the statement field of `line`: strings, `!` comments, `&`, columns 73+.
    fn scan_field(&mut self, line: &mut Line) {
        let content_end = line.start + self.text[line.start..line.end].trim_end_matches('\r').len();
        if line.field >= content_end {
            return;
        }
        // The column of the first character of the field.
        let mut column = self.text[line.start..line.field].chars().count() + 1;
        if self.text[line.start..line.field].contains('\t') {
            column = column.max(7);
        }
        let field_text = &self.text[line.field..content_end];
        for (i, ch) in field_text.char_indices() {
            let at = line.field + i;
            if column > self.last_column {
                // Sequence numbers in columns 73-80 are what the rule is for; other text
                // there is most likely code written for a longer line.
                let rest = &self.text[at..content_end];
                if !self.truncated && !rest.trim().is_empty() && !is_sequence_field(rest) {
                    self.truncated = true;
                    self.diags.push(
                        Diagnostic::warning(
                            "W0202",
                            format!(
                                "text after column {} is ignored, as the fixed form says",
                                self.last_column
                            ),
                        )
                        .at(Span::new(self.file, at, content_end))
                        .with_help(
                            "if this source is compiled with a longer line (gfortran `-ffixed-line-length-132` or `-none`), say so in ad.toml: `fixed-line-length = 132` or `\"none\"`",
                        ),
                    );
                }
                self.blank(at, content_end);
                return;
            }
            match self.quote {
                Some(q) if ch == q => self.quote = None,
                Some(_) => {}
                None => match ch {
                    '\'' | '"' => self.quote = Some(ch),
                    '!' => {
                        line.comment = Some(at);
                        return;
                    }
                    '&' => {
                        self.error(
                            "E0212",
                            "`&` has no meaning in fixed form: a continuation line has a character in column 6",
                            at,
                            at + 1,
                        );
                        self.out[at] = b' ';
                    }
                    _ => {}
                },
            }
            column += 1;
        }
    }

    /// Scans every statement and joins each continuation line to its statement.
    fn join_continuations(&mut self, lines: &[Line]) {
        let mut lines = lines.to_vec();
        // Index of the last line (initial or continuation) of the statement being read.
        let mut last: Option<usize> = None;
        for index in 0..lines.len() {
            match lines[index].kind {
                LineKind::Initial => {
                    self.quote = None;
                    let mut line = lines[index].clone();
                    self.scan_field(&mut line);
                    lines[index] = line;
                    last = Some(index);
                }
                LineKind::Continuation => {
                    let in_string = self.quote.is_some();
                    let mut line = lines[index].clone();
                    self.scan_field(&mut line);
                    lines[index] = line;
                    if let (true, Some(prev)) = (in_string, last) {
                        self.pad_string(&lines[prev], &lines[index]);
                    }
                    if let Some(prev) = last {
                        // From the end of the previous line's statement text (its
                        // comment goes too) to the start of this field: all blanks.
                        let from = lines[prev].comment.unwrap_or(lines[prev].end);
                        let from = from.min(self.content_end(&lines[prev]));
                        self.blank(from, lines[prev].end + 1);
                        for between in &lines[prev + 1..index] {
                            self.blank(between.start, between.end + 1);
                        }
                        self.blank(lines[index].start, lines[index].field);
                        // The newlines in between are now blanks too.
                        for at in lines[prev].end..lines[index].start {
                            if self.out.get(at) == Some(&b'\n') {
                                self.out[at] = b' ';
                            }
                        }
                    }
                    last = Some(index);
                }
                LineKind::Directive => {
                    self.quote = None;
                    last = None;
                }
                LineKind::Comment | LineKind::Blank => {}
            }
        }
    }

    /// A character constant open at the end of `prev` goes on in `next`: its value holds
    /// `prev`'s text up to the last column, padded with blanks, then `next`'s field.
    fn pad_string(&mut self, prev: &Line, next: &Line) {
        let end = self.content_end(prev);
        let mut column = 0;
        let mut from = end;
        for (i, ch) in self.text[prev.start..end].char_indices() {
            column += if ch == '\t' && column < 6 {
                6 - column
            } else {
                1
            };
            if column > self.last_column {
                // Cut off at the last column (blanked by `scan_field`).
                from = prev.start + i;
                column = self.last_column;
                break;
            }
        }
        // Without a line length (`fixed-line-length = "none"`) there is nothing to pad
        // to: gfortran joins the texts as they are.
        let blanks = if self.last_column == usize::MAX {
            0
        } else {
            self.last_column.saturating_sub(column)
        };
        self.pads.push(Pad {
            from,
            to: next.field,
            blanks,
        });
    }

    fn content_end(&self, line: &Line) -> usize {
        line.start + self.text[line.start..line.end].trim_end_matches('\r').len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free(text: &str) -> (String, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let out = to_free_form(FileId(0), text, 72, &mut diags);
        assert_eq!(out.len(), text.len(), "the rewrite keeps every offset");
        (out, diags)
    }

    fn clean(text: &str) -> String {
        let (out, diags) = free(text);
        assert!(diags.is_empty(), "{diags:?}");
        out
    }

    #[test]
    fn text_past_the_last_column_is_cut_with_one_warning() {
        let code = format!("      X = A{:61}+ B\n      Y = C{:61}+ D\n", "", "");
        let mut diags = Vec::new();
        let out = to_free_form(FileId(0), &code, 72, &mut diags);
        assert!(!out.contains("+ B") && !out.contains("+ D"), "{out}");
        let warnings: Vec<_> = diags.iter().filter(|d| d.code == "W0202").collect();
        assert_eq!(warnings.len(), 1, "{diags:?}");
        // A longer line (the manifest's `fixed-line-length`) keeps it, quietly.
        let mut diags = Vec::new();
        let out = to_free_form(FileId(0), &code, 132, &mut diags);
        assert!(out.contains("+ B") && out.contains("+ D") && diags.is_empty());
        // Card sequence numbers in columns 73-80 are what the rule is for.
        let card = format!("      X = 1{:61}MAIN0010\n", "");
        assert_eq!(clean(&card).trim_end(), "      X = 1");
    }

    #[test]
    fn comments_labels_and_fields() {
        let text = "C comment\n* star\nc lower\n! bang\n   10 X = 1\n      Y = 2 ! tail\n\n";
        let out = clean(text);
        assert_eq!(
            out,
            "! comment\n! star\n! lower\n! bang\n   10 X = 1\n      Y = 2 ! tail\n\n"
        );
    }

    #[test]
    fn continuation_joins_lines_and_drops_comments_between() {
        let text = "      X = A +\nC between\n     &    B ! end\n      Y = 1\n";
        let out = clean(text);
        assert_eq!(out.lines().count(), 2);
        let first = out.lines().next().unwrap();
        assert!(first.starts_with("      X = A +"));
        assert!(first.ends_with("    B ! end"));
        assert!(!first.contains("between"));
        // `B` is at the same byte offset as in the original.
        assert_eq!(out.find('B'), text.find('B'));
    }

    #[test]
    fn comment_on_a_continued_line_is_blanked() {
        let out = clean("      X = A ! part\n     1  + B\n");
        assert!(!out.contains("part"));
        assert!(out.contains("+ B"));
        assert_eq!(out.lines().count(), 1);
    }

    #[test]
    fn zero_in_column_six_is_an_initial_line() {
        let out = clean("      X = 1\n     0Y = 2\n");
        assert_eq!(out.lines().count(), 2);
        assert_eq!(out.lines().nth(1), Some("      Y = 2"));
    }

    #[test]
    fn columns_73_and_after_are_ignored() {
        let mut line = format!("      X = 1{}", " ".repeat(61));
        assert_eq!(line.chars().count(), 72);
        line.push_str("99999 SEQ");
        let out = clean(&format!("{line}\n"));
        assert!(!out.contains("99999"));
        assert!(!out.contains("SEQ"));
        // A comment line is not cut.
        let long = format!("C{}TAIL\n", " ".repeat(80));
        assert!(clean(&long).contains("TAIL"));
    }

    #[test]
    fn intersection_form_ampersands_in_column_73_and_6() {
        // Code written to be both fixed and free form: `&` in column 73 of the continued
        // line (ignored in fixed form) and in column 6 of the continuation.
        let first = format!("{:<72}&", "      X = A +");
        let out = clean(&format!("{first}\n     &    B\n"));
        assert_eq!(out.lines().count(), 1);
        assert!(!out.contains('&'));
    }

    #[test]
    fn a_continued_character_constant_is_padded_to_the_last_column() {
        let text = "      m = 'abc\n     &def'\n";
        let mut diags = Vec::new();
        let (out, pads) = to_free_form_with_pads(FileId(0), text, 72, &mut diags);
        // `'abc` ends in column 14: 58 blanks to column 72, then `def`.
        assert_eq!(
            pads,
            vec![Pad {
                from: 14,
                to: 21,
                blanks: 58
            }]
        );
        let toks = super::super::lexer::lex_with_pads(FileId(0), &out, &pads, &mut diags);
        let value = toks.iter().find_map(|t| match &t.kind {
            super::super::lexer::TokKind::Str(s) => Some(s.clone()),
            _ => None,
        });
        assert_eq!(value, Some(format!("abc{}def", " ".repeat(58))));
        assert!(diags.is_empty(), "{diags:?}");
        // A longer line pads further; without a line length nothing is padded (gfortran
        // `-ffixed-line-length-132`, `-none`).
        let (_, pads) = to_free_form_with_pads(FileId(0), text, 132, &mut diags);
        assert_eq!(pads[0].blanks, 118);
        let (_, pads) = to_free_form_with_pads(FileId(0), text, usize::MAX, &mut diags);
        assert_eq!(pads[0].blanks, 0);
    }

    #[test]
    fn strings_hide_bangs_and_continue_across_lines() {
        let out = clean("      S = 'A ! B\n     +C'\n      T = \"it's\" ! c\n");
        assert!(out.contains("'A ! B"));
        assert!(out.contains("C'"));
        assert!(out.contains("! c"));
        assert_eq!(out.lines().count(), 2);
    }

    #[test]
    fn tabs_start_the_field_and_dec_continuation() {
        let out = clean("\tX = A\n\t1+ B\n10\tCONTINUE\n");
        assert_eq!(out.lines().count(), 2);
        assert!(out.lines().next().unwrap().contains("X = A"));
        assert!(out.lines().next().unwrap().contains("+ B"));
        assert!(out.lines().nth(1).unwrap().starts_with("10 CONTINUE"));
    }

    #[test]
    fn blanks_inside_labels_are_squeezed() {
        let out = clean("1 0   CONTINUE\n");
        assert!(out.starts_with("10    CONTINUE"));
    }

    #[test]
    fn bad_label_field_and_orphan_continuation() {
        let (out, diags) = free("X = 1\n");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, "E0210");
        assert!(!out.contains('X'));
        let (_, diags) = free("     +X = 1\n");
        assert_eq!(diags[0].code, "E0211");
        let (_, diags) = free("      X = 1\n   10+ 2\n");
        assert_eq!(diags[0].code, "E0211");
        let (_, diags) = free("      X = 1 &\n");
        assert_eq!(diags[0].code, "E0212");
    }

    #[test]
    fn crlf_and_byte_order_mark() {
        let out = clean("\u{feff}      X = A +\r\n     &  B\r\n");
        assert_eq!(out.trim_end().lines().count(), 1);
        assert!(out.contains("B"));
    }

    #[test]
    fn non_ascii_never_breaks_utf8() {
        for text in [
            "é     X = 1\n",
            "     éX = 1\n",
            "      X = 'é' ! ü\n",
            "\té\n",
            "      X = 1 ééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé\n",
        ] {
            let mut diags = Vec::new();
            let out = to_free_form(FileId(0), text, 72, &mut diags);
            assert_eq!(out.len(), text.len());
        }
    }
}
