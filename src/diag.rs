//! Source map, spans and diagnostics.
//!
//! Every message adgen gives a user about their input is a [`Diagnostic`]: a severity, a
//! stable code (`E0xxx` for errors, `W0xxx` for warnings), one plain sentence, an optional
//! location and an optional hint saying what to do. Rendering gives
//! `path:line:col: error[E0101]: message` followed by the source line and a caret, so that
//! editors and CI logs can jump to the place.
//!
//! Code ranges: E01xx manifest (E010x–E011x the file itself, E012x roots checked against
//! the sources), E02xx Fortran lexing/parsing, E03xx Fortran semantics
//! (declarations, names), E04xx unsupported constructs, E05xx differentiation, E06xx C,
//! E09xx I/O and environment.

use std::fmt::Write as _;

/// Index of a file in the [`SourceMap`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file. `lo == hi` marks a point.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(file: FileId, lo: usize, hi: usize) -> Span {
        Span {
            file,
            lo: lo as u32,
            hi: hi as u32,
        }
    }
    /// The smallest span covering both (same file assumed; `self`'s file wins).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }
}

/// One source file as adgen read it.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as it should be shown to users (relative to the manifest when possible).
    pub display_path: String,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(display_path: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile {
            display_path: display_path.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self
            .text
            .get(start..end)
            .map(|s| s.chars().count())
            .unwrap_or(0)
            + 1;
        (line + 1, col)
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts.get(line - 1).copied().unwrap_or(0) as usize;
        let end = self
            .line_starts
            .get(line)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }
}

/// All source files of one run, indexed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }
    pub fn len(&self) -> usize {
        self.files.len()
    }
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// Where a diagnostic points: a span in a source, or a place in a file that is not a
/// program source (the manifest), given directly as line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Span(Span),
    Path {
        path: String,
        line: usize,
        col: usize,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code such as `E0201`.
    pub code: &'static str,
    pub message: String,
    pub location: Option<Location>,
    /// What the user should do, when adgen can say.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: crate::il::names::spelled(&message.into()).into_owned(),
            location: None,
            help: None,
        }
    }
    /// A semantic error (E03xx, and E0421 about the subscripts of a component): beside a
    /// refusal of the declaration it is about, a consequence, not news.
    pub fn is_semantic(&self) -> bool {
        self.code.starts_with("E03") || self.code == "E0421"
    }
    /// What makes two reports the same (code, place, message): each is said once.
    pub fn identity(&self) -> (&'static str, String, String) {
        (
            self.code,
            format!("{:?}", self.location),
            self.message.clone(),
        )
    }
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }
    pub fn at(mut self, span: Span) -> Diagnostic {
        self.location = Some(Location::Span(span));
        self
    }
    pub fn at_path(mut self, path: impl Into<String>, line: usize, col: usize) -> Diagnostic {
        self.location = Some(Location::Path {
            path: path.into(),
            line,
            col,
        });
        self
    }
    /// Located where the manifest gives what it is about (`(path, line, col)`), when known.
    pub fn at_origin(self, origin: Option<&(String, usize, usize)>) -> Diagnostic {
        match origin {
            Some((path, line, col)) => self.at_path(path.clone(), *line, *col),
            None => self,
        }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(crate::il::names::spelled(&help.into()).into_owned());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `path:line:col: error[E0201]: message`, then the source line with a caret, then help.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut snippet = None;
        match &self.location {
            Some(Location::Span(span)) if (span.file.0 as usize) < sources.len() => {
                let file = sources.get(span.file);
                let (line, col) = file.line_col(span.lo);
                let _ = write!(out, "{}:{}:{}: ", file.display_path, line, col);
                let (end_line, end_col) = file.line_col(span.hi.max(span.lo));
                let width = if end_line == line && end_col > col {
                    end_col - col
                } else {
                    1
                };
                snippet = Some((line, col, width, file.line_text(line).to_string()));
            }
            Some(Location::Path { path, line, col }) => {
                let _ = write!(out, "{path}:{line}:{col}: ");
                // A place in the manifest (the only files located by path): its line is
                // read back to show it, when it can be.
                if let Some(text) = std::fs::read_to_string(path)
                    .ok()
                    .and_then(|t| t.lines().nth(line.saturating_sub(1)).map(str::to_string))
                {
                    snippet = Some((*line, *col, 1, text));
                }
            }
            _ => {}
        }
        let _ = writeln!(out, "{kind}[{}]: {}", self.code, self.message);
        if let Some((line, col, width, text)) = snippet {
            let (text, col, width) = snippet_window(&text.replace('\t', " "), col.max(1), width);
            let gutter = line.to_string().len();
            let _ = writeln!(out, "{:gutter$} |", "");
            let _ = writeln!(out, "{line} | {text}");
            let _ = writeln!(
                out,
                "{:gutter$} | {}{}",
                "",
                " ".repeat(col - 1),
                "^".repeat(width)
            );
        }
        if let Some(help) = &self.help {
            let _ = writeln!(out, "  = help: {help}");
        }
        out
    }
}

/// Widest source line a snippet shows, in characters.
const SNIPPET_COLUMNS: usize = 120;

/// The part of a long source line a snippet shows: a window of [`SNIPPET_COLUMNS`]
/// characters around the column, cut ends marked `...`; with the caret's column and
/// width in it (both 1-based, at least 1).
pub(crate) fn snippet_window(text: &str, col: usize, width: usize) -> (String, usize, usize) {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= SNIPPET_COLUMNS {
        return (text.to_string(), col.max(1), width.max(1));
    }
    let at = col.saturating_sub(1).min(chars.len());
    let start = at.saturating_sub(SNIPPET_COLUMNS / 2);
    let end = (start + SNIPPET_COLUMNS).min(chars.len());
    let mut shown = String::new();
    if start > 0 {
        shown.push_str("...");
    }
    shown.extend(&chars[start..end]);
    if end < chars.len() {
        shown.push_str("...");
    }
    let lead = if start > 0 { 3 } else { 0 };
    let width = width.max(1).min(end.saturating_sub(at).max(1));
    (shown, at - start + lead + 1, width)
}

/// A list of diagnostics that stops a run, returned by the library's fallible entry points.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
    pub fn render(&self, sources: &SourceMap) -> String {
        self.0.iter().map(|d| d.render(sources)).collect()
    }
}

/// The candidate closest to `name` by edit distance, when it is close enough to be a
/// plausible misspelling (for "did you mean" hints).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name = name.to_ascii_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let d = edit_distance(&name, &candidate.to_ascii_lowercase());
        if d <= (name.len().max(3)) / 3 && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Edit distance in characters, counting a swap of neighbours as one edit (optimal
/// string alignment), so that `tangnet` is one edit from `tangent`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_and_caret() {
        let mut map = SourceMap::default();
        let id = map.add(SourceFile::new("a.f90", "x = 1\ny = @\n"));
        let d = Diagnostic::error("E0201", "unexpected character '@'")
            .at(Span::new(id, 10, 11))
            .with_help("remove it");
        let text = d.render(&map);
        assert!(
            text.starts_with("a.f90:2:5: error[E0201]: unexpected character '@'"),
            "{text}"
        );
        assert!(text.contains("2 | y = @\n  |     ^\n"), "{text}");
        assert!(text.contains("help: remove it"));
    }

    #[test]
    fn long_lines_show_a_window_around_the_column() {
        let mut map = SourceMap::default();
        let line = format!("y = {}@{}", "(".repeat(5000), ")".repeat(5000));
        let id = map.add(SourceFile::new("a.f90", &line));
        let d = Diagnostic::error("E0203", "too deep").at(Span::new(id, 5004, 5005));
        let text = d.render(&map);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("a.f90:1:5005:"), "{text}");
        assert!(lines[2].len() < 140, "{}", lines[2]);
        assert!(lines[2].starts_with("1 | ...(((") && lines[2].ends_with(")))..."));
        // The caret stands under the `@`.
        let at = lines[2].find('@').expect("the column is shown");
        assert_eq!(lines[3].find('^'), Some(at), "{text}");
        // Short lines are shown whole.
        let (shown, col, width) = snippet_window("x = 1", 5, 1);
        assert_eq!((shown.as_str(), col, width), ("x = 1", 5, 1));
    }
}
