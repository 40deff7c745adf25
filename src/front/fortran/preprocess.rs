//! `.F`, `.FOR`, `.F90`...: sources for the C preprocessor, run as `gfortran -E -cpp`.
//!
//! The IL, the diagnostics and the generated code all point into the text the user wrote,
//! so the preprocessed text is used only to learn *which lines survive*: a line the
//! preprocessor drops (a directive, a branch of `#if` not taken, a line whose macros
//! expand to nothing) is blanked in place; a line it keeps unchanged is kept; a line it
//! changes (a macro expanded inside, `y = SCALE*x`) is read as it expands, padded with
//! blanks to its length, and said (W0405, once per file, at the first such line: the
//! derivatives show the expansion); one
//! whose expansion is longer than the line is refused with its location (E0409).
//! Offsets never move, so line and column numbers are the original ones. A file
//! without any directive, when the manifest defines no macro, is not preprocessed.
//!
//! `#include "file"` (or `<file>`) in a branch the preprocessor keeps is read like a
//! Fortran INCLUDE line (same search path, same source form, spans into that file): the
//! preprocessor itself sees a placeholder comment, so it needs no include path. An
//! included file with directives of its own is given to the preprocessor in place,
//! under a name of its own (`#line 1 "@adgen-included-K"`), so that the macros defined
//! before the `#include` choose its branches and those it defines hold after it; its
//! lines are then kept, blanked or expanded like the including file's (an `#include`
//! inside it is the preprocessor's own, which has no include path).
//!
//! Codes: E0408 a malformed `#include`, E0409 a line macro expansion makes longer, W0405
//! a line read as macro expansion changes it, E0902
//! the preprocessor could not be run, E0903 the preprocessor reported an error.

use std::io::Write as _;
use std::process::{Command, Stdio};

use super::SourceForm;
use crate::diag::{Diagnostic, FileId, Span};

/// The compiler whose preprocessor is used.
const PREPROCESSOR: &str = "gfortran";

/// Byte ranges (without the newline) of the lines of `text`, in order.
fn line_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            ranges.push((start, i));
            start = i + 1;
        }
    }
    if start < text.len() {
        ranges.push((start, text.len()));
    }
    ranges
}

fn is_directive(line: &str) -> bool {
    line.trim_start_matches([' ', '\t']).starts_with('#')
}

/// A whole-line comment in the given form (fixed form: `C`, `c`, `*` or `!` in column 1).
fn is_comment(line: &str, form: SourceForm) -> bool {
    let fixed = matches!(form, SourceForm::Fixed(_))
        && matches!(line.chars().next(), Some('C' | 'c' | '*'));
    fixed || line.trim_start().starts_with('!')
}

/// The text with the lines the preprocessor drops blanked, or `None` when the file has no
/// directive and needs no preprocessing.
#[cfg(test)]
pub fn apply(
    file: FileId,
    text: &str,
    form: SourceForm,
) -> Result<Option<String>, Vec<Diagnostic>> {
    apply_with_includes(file, text, form, &[], &mut |_| None).map(|(t, _, _)| t)
}

/// What the preprocessor leaves of a file for the front-end: its text (`None` when it
/// needs no preprocessing), the `#include` lines kept, and the warnings (W0405).
pub type Preprocessed = (Option<String>, Vec<KeptInclude>, Vec<Diagnostic>);

/// An `#include` line the preprocessor keeps: its offset, the file it names, and that
/// file when found (its id, and its text: as the preprocessor leaves it when it has
/// directives of its own).
pub type KeptInclude = (u32, String, Option<(FileId, String)>);

/// Reads the file an `#include` names: its id and text (`None`: not found).
pub type ReadInclude<'r> = dyn FnMut(&str) -> Option<(FileId, String)> + 'r;

/// Placeholder the preprocessor sees instead of an `#include` line.
const INCLUDE_MARK: &str = "!@adgen-include@";

/// [`apply`], with the `#include` lines the preprocessor keeps, in order. An included
/// file that has directives of its own (`read` finds it) is preprocessed where it is
/// included, with the macros defined there (a generic library included once per kind:
/// `#define MOD_INCLUDE` then `#include "quadpack_generic.F90"`, whose `#ifndef
/// MOD_INCLUDE` drops its own MODULE lines).
pub fn apply_with_includes(
    file: FileId,
    text: &str,
    form: SourceForm,
    defines: &[String],
    read: &mut ReadInclude,
) -> Result<Preprocessed, Vec<Diagnostic>> {
    let lines = line_ranges(text);
    let mut errors = Vec::new();
    let mut any_directive = false;
    // (line index, offset, name, the file read, whether its text goes to cpp) of each
    // #include, and the text cpp reads.
    type Include = (usize, u32, String, Option<(FileId, String)>, bool);
    let mut includes: Vec<Include> = Vec::new();
    let mut for_cpp = String::with_capacity(text.len());
    let mut last = 0;
    for (index, &(lo, hi)) in lines.iter().enumerate() {
        let line = &text[lo..hi];
        if !is_directive(line) {
            continue;
        }
        any_directive = true;
        let rest = line.trim_start_matches([' ', '\t', '#']);
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if word == "include" {
            let arg = rest[word.len()..].trim();
            let name = match arg.chars().next() {
                Some('"') => arg[1..].split_once('"').map(|(n, _)| n),
                Some('<') => arg[1..].split_once('>').map(|(n, _)| n),
                _ => None,
            };
            match name {
                Some(name) if !name.is_empty() => {
                    for_cpp.push_str(&text[last..lo]);
                    for_cpp.push_str(INCLUDE_MARK);
                    last = hi;
                    // Its own directives are the preprocessor's too, at this place.
                    let found = read(name);
                    let directives = found.as_ref().is_some_and(|(_, t)| {
                        line_ranges(t).iter().any(|&(a, b)| is_directive(&t[a..b]))
                    });
                    if let Some((_, included)) = found.as_ref().filter(|_| directives) {
                        let k = includes.len();
                        for_cpp.push_str(&format!("\n#line 1 \"{}{k}\"\n", INCLUDED));
                        for_cpp.push_str(included);
                        if !included.ends_with('\n') {
                            for_cpp.push('\n');
                        }
                        for_cpp.push_str(&format!("#line {} \"<stdin>\"", index + 2));
                    }
                    includes.push((index, lo as u32, name.to_string(), found, directives));
                }
                _ => errors.push(
                    Diagnostic::error("E0408", "expected `#include \"file\"`")
                        .at(Span::new(file, lo, hi)),
                ),
            }
        }
    }
    for_cpp.push_str(&text[last..]);
    if !errors.is_empty() {
        return Err(errors);
    }
    // Macros given by the manifest (`defines`, gfortran's `-D`) expand in a file
    // without any directive too.
    if !any_directive && defines.is_empty() {
        return Ok((None, Vec::new(), Vec::new()));
    }
    let output = run_preprocessor(file, &for_cpp, form, defines)?;
    let mut by_file = surviving_lines(&output);
    let survivors = by_file.remove("<stdin>").unwrap_or_default();
    let mut warnings = Vec::new();
    let mut kept_includes: Vec<KeptInclude> = Vec::new();
    for (k, (index, lo, name, found, directives)) in includes.into_iter().enumerate() {
        if !survivors
            .get(&(index + 1))
            .is_some_and(|s| s.contains(INCLUDE_MARK))
        {
            continue;
        }
        let processed = match found {
            Some((id, included)) if directives => {
                let lines = by_file
                    .remove(&format!("{INCLUDED}{k}"))
                    .unwrap_or_default();
                let processed = keep_surviving(id, &included, form, &lines, &mut warnings)?;
                Some((id, processed))
            }
            other => other,
        };
        kept_includes.push((lo, name, processed));
    }
    let text = keep_surviving(file, text, form, &survivors, &mut warnings)?;
    Ok((Some(text), kept_includes, warnings))
}

/// The name under which the text of the `k`-th `#include` goes to the preprocessor.
const INCLUDED: &str = "@adgen-included-";

/// `text` with the lines the preprocessor drops blanked and those it changes read as
/// they expand (`survivors`: its output for each 1-based line of `text`); one warning
/// (W0405) for the expanded lines, refusals (E0409) for those that grow.
fn keep_surviving(
    file: FileId,
    text: &str,
    form: SourceForm,
    survivors: &std::collections::BTreeMap<usize, String>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<String, Vec<Diagnostic>> {
    let lines = line_ranges(text);
    let mut errors = Vec::new();
    let mut out = text.as_bytes().to_vec();
    // The lines a macro expands in: one warning, at the first, for the file.
    let mut expanded_lines: Vec<(usize, usize, String)> = Vec::new();
    for (index, &(lo, hi)) in lines.iter().enumerate() {
        let original = text[lo..hi].trim_end();
        let kept = survivors
            .get(&(index + 1))
            .map(|s| s.trim_end())
            .unwrap_or("");
        if is_comment(original, form) {
            // Traditional cpp may expand macros inside what Fortran reads as a comment:
            // a surviving comment line is kept as written.
            if kept.trim().is_empty() {
                for b in &mut out[lo..hi] {
                    *b = b' ';
                }
            }
        } else if is_directive(original) || kept.trim().is_empty() {
            for b in &mut out[lo..hi] {
                *b = b' ';
            }
        } else if kept != original && kept.is_ascii() && kept.len() <= hi - lo {
            // Read as it expands, in the same bytes: offsets do not move.
            let expanded = kept.as_bytes();
            out[lo..lo + expanded.len()].copy_from_slice(expanded);
            for b in &mut out[lo + expanded.len()..hi] {
                *b = b' ';
            }
            expanded_lines.push((lo, hi, kept.trim().to_string()));
        } else if kept != original {
            errors.push(
                Diagnostic::error(
                    "E0409",
                    "the preprocessor makes this line longer (a macro is expanded in it): adgen reads a line in the place the source gives it",
                )
                .at(Span::new(file, lo, hi))
                .with_help(format!(
                    "use macros only in #if conditions, or write the line as it expands: `{}`",
                    kept.trim()
                )),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if let Some((lo, hi, first)) = expanded_lines.first() {
        let more = match expanded_lines.len() - 1 {
            0 => String::new(),
            1 => " (and in 1 more line of this file)".to_string(),
            n => format!(" (and in {n} more lines of this file)"),
        };
        warnings.push(
            Diagnostic::warning(
                "W0405",
                format!(
                    "the preprocessor expands a macro in this line{more}: adgen reads it, and the derivatives show it, as `{first}`"
                ),
            )
            .at(Span::new(file, *lo, *hi)),
        );
    }
    // Whole lines of whole characters were replaced by blanks: still UTF-8.
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
}

fn run_preprocessor(
    file: FileId,
    text: &str,
    form: SourceForm,
    defines: &[String],
) -> Result<String, Vec<Diagnostic>> {
    let language = match form {
        SourceForm::Fixed(_) => "f77-cpp-input",
        SourceForm::Free => "f95-cpp-input",
    };
    let at_start = Span::new(file, 0, 0);
    let fail = |code: &'static str, msg: String| vec![Diagnostic::error(code, msg).at(at_start)];
    let mut child = Command::new(PREPROCESSOR)
        .args(["-E", "-cpp", "-x", language])
        .args(defines.iter().map(|d| format!("-D{d}")))
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            fail(
                "E0902",
                format!("could not run `{PREPROCESSOR} -E -cpp` to preprocess this file: {e}"),
            )
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        // A write error shows up as the preprocessor's own failure below.
        let _ = stdin.write_all(text.as_bytes());
    }
    let output = child.wait_with_output().map_err(|e| {
        fail(
            "E0902",
            format!("`{PREPROCESSOR} -E -cpp` failed to run: {e}"),
        )
    })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first: Vec<&str> = stderr.lines().take(5).collect();
        return Err(fail(
            "E0903",
            format!(
                "the preprocessor (`{PREPROCESSOR} -E -cpp`) rejected this file: {}",
                first.join(" / ")
            ),
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The preprocessed text of each 1-based line of standard input (`<stdin>`) and of the
/// included texts given to it (`@adgen-included-K`), by file, read from the line
/// markers (`# 12 "<stdin>"`) of the preprocessor's output.
fn surviving_lines(
    output: &str,
) -> std::collections::BTreeMap<String, std::collections::BTreeMap<usize, String>> {
    let mut files: std::collections::BTreeMap<String, std::collections::BTreeMap<usize, String>> =
        std::collections::BTreeMap::new();
    let mut line = 1usize;
    let mut current = Some("<stdin>".to_string());
    for text in output.lines() {
        if let Some(rest) = text.strip_prefix("# ") {
            let mut parts = rest.splitn(2, ' ');
            if let (Some(number), Some(name)) = (parts.next(), parts.next())
                && let Ok(number) = number.parse::<usize>()
            {
                let name = name.trim_start_matches('"');
                let name = name.split('"').next().unwrap_or_default();
                current =
                    (name == "<stdin>" || name.starts_with(INCLUDED)).then(|| name.to_string());
                line = number;
                continue;
            }
        }
        if let Some(name) = &current {
            files
                .entry(name.clone())
                .or_default()
                .insert(line, text.to_string());
        }
        line += 1;
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn have_gfortran() -> bool {
        Command::new(PREPROCESSOR)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    #[test]
    fn markers_give_original_line_numbers() {
        let out = "# 1 \"<stdin>\"\n# 1 \"<built-in>\"\n# 1 \"<stdin>\"\n\n      X = 1\n# 7 \"<stdin>\"\n      Y = 3\n";
        let lines = &surviving_lines(out)["<stdin>"];
        assert_eq!(lines.get(&2).map(String::as_str), Some("      X = 1"));
        assert_eq!(lines.get(&7).map(String::as_str), Some("      Y = 3"));
        assert!(!lines.contains_key(&3));
    }

    #[test]
    fn no_directive_no_preprocessing() {
        assert_eq!(
            apply(FileId(0), "      X = 1\n", SourceForm::Fixed(72)),
            Ok(None)
        );
    }

    #[test]
    fn manifest_macros_expand_in_a_file_without_directives() {
        if !have_gfortran() {
            return;
        }
        // buech/lattice-boltzmann's lb.f90: sizes given by the makefile's -DN=... only.
        let text = "real(8) :: f(9, N, M)\n";
        let defines = ["N=8".to_string(), "M=6".to_string()];
        let (out, _, warnings) =
            apply_with_includes(FileId(0), text, SourceForm::Free, &defines, &mut |_| None)
                .unwrap();
        assert_eq!(out.as_deref(), Some("real(8) :: f(9, 8, 6)\n"));
        assert_eq!(warnings.len(), 1);
        // One warning for the file, however many lines expand.
        let text = "real(8) :: f(9, N, M)\ninteger :: k = N\ninteger :: j = M\n";
        let (_, _, warnings) =
            apply_with_includes(FileId(0), text, SourceForm::Free, &defines, &mut |_| None)
                .unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0]
                .message
                .contains("(and in 2 more lines of this file)"),
            "{}",
            warnings[0].message
        );
    }

    #[test]
    fn malformed_include_is_refused_at_its_line() {
        let err = apply(
            FileId(0),
            "      X = 1\n#include a.h\n",
            SourceForm::Fixed(72),
        )
        .unwrap_err();
        assert_eq!(err[0].code, "E0408");
    }

    #[test]
    fn includes_in_kept_branches_are_returned() {
        if !have_gfortran() {
            return;
        }
        let text = "      X = 1\n#include \"a.h\"\n#ifdef NOT_DEFINED\n#include \"b.h\"\n#endif\n      Y = 2\n";
        let (out, includes, _) =
            apply_with_includes(FileId(0), text, SourceForm::Fixed(72), &[], &mut |_| None)
                .unwrap();
        assert_eq!(includes, vec![(12, "a.h".to_string(), None)]);
        let out = out.unwrap();
        assert_eq!(out.len(), text.len());
        assert!(out.lines().nth(1).unwrap().trim().is_empty());
    }

    #[test]
    fn conditional_lines_are_blanked_in_place() {
        if !have_gfortran() {
            return;
        }
        let text = "      X = 1\n#ifdef NOT_DEFINED\n      Y = 2\n#else\n      Y = 3\n#endif\n      Z = 4\n";
        let out = apply(FileId(0), text, SourceForm::Fixed(72))
            .unwrap()
            .unwrap();
        assert_eq!(out.len(), text.len());
        assert!(!out.contains('#'));
        assert!(!out.contains("Y = 2"));
        assert!(out.contains("Y = 3"));
        assert_eq!(out.find("Z = 4"), text.find("Z = 4"));
    }

    #[test]
    fn comments_are_kept_as_written_unless_dropped() {
        if !have_gfortran() {
            return;
        }
        let text =
            "#define X Y\nC     X IS NOT EXPANDED HERE\n#if 0\nC     GONE\n#endif\n      Z = 1\n";
        let out = apply(FileId(0), text, SourceForm::Fixed(72))
            .unwrap()
            .unwrap();
        assert!(out.contains("C     X IS NOT EXPANDED HERE"));
        assert!(!out.contains("GONE"));
    }

    /// A line a macro changes is read as it expands, in place (W0405); one the
    /// expansion makes longer is refused at its line (E0409).
    #[test]
    fn expanded_macros_are_read_in_place_or_refused_when_longer() {
        if !have_gfortran() {
            return;
        }
        let text = "#define NN 3\n      X = 1\n      Y = NN*X\n";
        let (out, _, warnings) =
            apply_with_includes(FileId(0), text, SourceForm::Free, &[], &mut |_| None).unwrap();
        let out = out.unwrap();
        assert_eq!(out.len(), text.len());
        assert!(out.contains("      Y = 3*X \n"), "{out:?}");
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].code, "W0405");
        assert_eq!(
            warnings[0].location,
            Some(crate::diag::Location::Span(Span::new(FileId(0), 25, 39)))
        );
        let text = "#define NN (1 + 2)\n      X = 1\n      Y = NN\n";
        let err = apply(FileId(0), text, SourceForm::Free).unwrap_err();
        assert_eq!(err[0].code, "E0409");
        assert_eq!(
            err[0].location,
            Some(crate::diag::Location::Span(Span::new(FileId(0), 31, 43)))
        );
    }
}
