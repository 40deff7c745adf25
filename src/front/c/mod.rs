//! The C front-end: the system preprocessor (`gcc -E`, line markers kept) → lang-c's
//! parser → [`lower`] into the [`il`].
//!
//! Positions: lang-c gives byte offsets into the preprocessed text; [`PosMap`] maps them
//! back through the line markers to byte offsets of the original source, so diagnostics
//! point at `file:line:col` of what the user wrote.
//!
//! Accepted (the core subset): function definitions (`static`, `inline`) returning
//! `void`, `double`, `float`, `int` or `long`; by-value scalar parameters (a function that
//! assigns one works on a local copy `x_copy`, so that the parameter stays an input: the
//! `vb0` case of seeds/003); pointer and `[]` parameters (arrays, or scalars passed by
//! reference when only used as `*p`); local scalars and 1-D / 2-D arrays of constant
//! size; typedefs of those types and of arrays of them; enumeration constants (inlined);
//! pointer arithmetic that resolves to an array plus an integer offset (`*(x + i)`, `x + k`
//! as an argument, local pointers and moving pointer parameters, `*p++`, `p += n`, pointer
//! comparisons: each moving pointer becomes an integer offset variable `p_off`);
//! assignment, compound assignment, `++`/`--` as statements and inside statements
//! (`y[k++] = v`, `while (n-- > 0)`: the step runs before or after the statement, or on
//! both exits of the test; the stepped name must be used only once there), `if`/`else`,
//! `for`, `while`, `,` in expression statements, `do ... while` (as a WHILE loop with a
//! first-pass flag), `switch` (an IF chain; a case that falls through repeats the
//! following cases' statements up to the `break`; a `break` inside an `if` of a case sets
//! a flag guarding the rest), `break`, `continue`, `return`, calls; arithmetic, comparisons, `&&`, `||`, `!`,
//! side-effect-free `?:`, casts, the math.h functions; file-scope `const` scalars with
//! literal initializers (inlined). Whole-line comments are kept. Anything else is refused
//! with a located diagnostic.
//!
//! File scope (`lower::globals`): global variables (scalars, 1-D / 2-D arrays of constant
//! size, structs; `static` or not; literal initializers, nested braces for structs) and
//! struct types (`struct tag
//! {...}`, `typedef struct {...} name`, members that are scalars, arrays of 1 or 2
//! dimensions, or nested structs) go into one pseudo-module per file (a
//! [`il::UnitKind::Module`] named after the path, `src/m.c` → `src_m_c`), the host of the
//! file's functions, so that globals are module variables for analyses and
//! differentiation. Structs are used as locals, globals, and pointer parameters
//! (`struct s *p`, `const` or not; passed on as `p`, `&local`, `&p->inner`); members are
//! reached by `.`, `->` and `(*p).`, and lowered to paths (`p->v[i]` → `p%v(i)`) as
//! Fortran components are. A whole-struct assignment `a = b` becomes one assignment per
//! member, and so does a struct local's initializer (`= {x, {1.0, y}, .id = 2}`,
//! members not given zeroed, or `= other`). Derivative code reaches a global through an
//! `extern` declaration, so a
//! `static` one it needs is refused (E0516, at differentiation).
//!
//! Diagnostic codes:
//! - E0601 the preprocessor failed, E0602 syntax error, E0603 unsupported declaration
//!   (unsupported types and typedefs), E0604 unsupported statement,
//!   E0605 unsupported expression, E0606 unknown name or function, E0607 a write to a
//!   by-value parameter that was not copied (a safety net), E0608 name clash (names differing only by case,
//!   shadowing, a nested-block local named like a global: a parameter or an outermost
//!   local hides the global from the whole function), E0609 wrong number of arguments.
//! - E0610 unsupported global declaration or struct type (unions, pointer or bit-field
//!   members, global pointers, `const` globals other than inlined scalars, other storage
//!   classes), E0611 `extern` variables, E0612 arrays of structs (`p[i].x`, `struct s
//!   a[4]`, pointer arithmetic on struct pointers, local struct pointers), E0613 structs
//!   passed or returned by value, E0614 a whole struct used as a value other than in
//!   `a = b`, E0615 unsupported initializers (designators in struct globals, brace
//!   elision or nested designators in struct locals, non-literal ones of globals), E0616 a global passed by reference to a function that also uses it
//!   directly (aliasing).

mod lower;

#[cfg(test)]
mod tests;

use std::io::Write as _;
use std::process::{Command, Stdio};

use crate::diag::{Diagnostic, FileId, SourceFile, Span};
use crate::il;

/// Maps offsets in the preprocessed text back to offsets in the original source.
pub(crate) struct PosMap {
    /// For each preprocessed line: its start offset and the original line (0-based) it
    /// comes from, when it comes from the main file.
    lines: Vec<(usize, Option<usize>)>,
    /// Start offset and length of each line of the original source.
    orig_lines: Vec<(usize, usize)>,
    pub(crate) file: FileId,
}

impl PosMap {
    fn new(pp: &str, original: &str, file: FileId) -> PosMap {
        let mut orig_lines = Vec::new();
        let mut start = 0;
        for line in original.split_inclusive('\n') {
            orig_lines.push((start, line.trim_end_matches(['\n', '\r']).len()));
            start += line.len();
        }
        if orig_lines.is_empty() {
            orig_lines.push((0, 0));
        }
        let mut lines = Vec::new();
        let mut offset = 0;
        let mut current: Option<usize> = None;
        for line in pp.split_inclusive('\n') {
            let marker = parse_marker(line);
            match marker {
                Some((n, is_main)) => {
                    lines.push((offset, None));
                    current = if is_main {
                        Some(n.saturating_sub(1))
                    } else {
                        None
                    };
                }
                None => {
                    lines.push((offset, current));
                    current = current.map(|c| c + 1);
                }
            }
            offset += line.len();
        }
        PosMap {
            lines,
            orig_lines,
            file,
        }
    }

    /// The original offset of preprocessed offset `pos`, when it lies in the main file.
    pub(crate) fn offset(&self, pos: usize) -> Option<usize> {
        let i = match self.lines.binary_search_by_key(&pos, |l| l.0) {
            Ok(i) => i,
            Err(0) => return None,
            Err(i) => i - 1,
        };
        let (start, line) = self.lines[i];
        let line = line?;
        let (ostart, olen) = *self.orig_lines.get(line)?;
        Some(ostart + (pos - start).min(olen))
    }

    /// The original span of a preprocessed span (the start of the file when it lies in a
    /// header).
    pub(crate) fn span(&self, span: lang_c::span::Span) -> Span {
        let lo = self.offset(span.start);
        let hi = self.offset(span.end.max(span.start));
        match (lo, hi) {
            (Some(lo), Some(hi)) if hi >= lo => Span::new(self.file, lo, hi),
            (Some(lo), _) => Span::new(self.file, lo, lo),
            _ => Span::new(self.file, 0, 0),
        }
    }

    /// Is this preprocessed offset in the main file (not in a header)?
    pub(crate) fn in_main(&self, pos: usize) -> bool {
        self.offset(pos).is_some()
    }

    /// The original offset of a 1-based line and column.
    fn line_col(&self, line: usize, col: usize) -> usize {
        match self.orig_lines.get(line.saturating_sub(1)) {
            Some(&(start, len)) => start + col.saturating_sub(1).min(len),
            None => self.orig_lines.last().map(|l| l.0 + l.1).unwrap_or(0),
        }
    }
}

/// `# 12 "<stdin>" 2` → (12, true).
fn parse_marker(line: &str) -> Option<(usize, bool)> {
    let rest = line.strip_prefix("# ")?;
    let (num, rest) = rest.split_once(' ').unwrap_or((rest.trim_end(), ""));
    let n: usize = num.trim().parse().ok()?;
    let name = rest.trim_start();
    let is_main = name.starts_with("\"<stdin>\"");
    Some((n, is_main))
}

/// Runs the preprocessor on `text` (as a C file read from standard input).
fn preprocess(text: &str) -> Result<String, String> {
    let cc = std::env::var("ADGEN_CPP").unwrap_or_else(|_| "gcc".to_string());
    let mut child = Command::new(&cc)
        .args(["-E", "-x", "c", "-std=gnu99", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run the C preprocessor `{cc} -E`: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = text.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child
        .wait_with_output()
        .map_err(|e| format!("the C preprocessor failed: {e}"))?;
    let _ = writer.join();
    if out.status.success() {
        String::from_utf8(out.stdout).map_err(|_| "the preprocessed text is not UTF-8".into())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).to_string())
    }
}

/// Parses and lowers one C file. Returns `Err` when any error was found.
pub fn lower_file(
    id: FileId,
    source: &SourceFile,
    path: &str,
    next_stmt_id: &mut u32,
) -> Result<il::File, Vec<Diagnostic>> {
    let orig_map = PosMap::new("", &source.text, id);
    let pp = match preprocess(&source.text) {
        Ok(pp) => pp,
        Err(stderr) => return Err(preprocessor_errors(&stderr, &orig_map, id)),
    };
    let map = PosMap::new(&pp, &source.text, id);
    let config = lang_c::driver::Config::with_gcc();
    let parse = match lang_c::driver::parse_preprocessed(&config, pp) {
        Ok(p) => p,
        Err(e) => {
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort();
            expected.truncate(8);
            let at = map.span(lang_c::span::Span::span(e.offset, e.offset + 1));
            return Err(vec![
                Diagnostic::error(
                    "E0602",
                    format!("C syntax error: expected one of {}", expected.join(" ")),
                )
                .at(at),
            ]);
        }
    };
    let mut diags = Vec::new();
    let units = lower::lower_unit(
        &parse.unit,
        &map,
        path,
        &source.text,
        next_stmt_id,
        &mut diags,
    );
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

/// Diagnostics from the preprocessor's `<stdin>:line:col: error: message` lines.
fn preprocessor_errors(stderr: &str, map: &PosMap, id: FileId) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("<stdin>:") else {
            continue;
        };
        let mut parts = rest.splitn(3, ':');
        let (Some(l), Some(c), Some(msg)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (Ok(l), Ok(c)) = (l.trim().parse::<usize>(), c.trim().parse::<usize>()) else {
            continue;
        };
        let msg = msg.trim();
        let Some(msg) = msg
            .strip_prefix("fatal error:")
            .or_else(|| msg.strip_prefix("error:"))
        else {
            continue;
        };
        let at = map.line_col(l, c);
        out.push(
            Diagnostic::error("E0601", format!("C preprocessor: {}", msg.trim()))
                .at(Span::new(id, at, at)),
        );
    }
    if out.is_empty() {
        out.push(
            Diagnostic::error(
                "E0601",
                format!("the C preprocessor failed: {}", stderr.trim()),
            )
            .at(Span::new(id, 0, 0)),
        );
    }
    out
}
