//! Front-ends: each turns one source language into the [`crate::il`].

pub mod boundary;
pub mod c;
pub mod fortran;
pub mod optional;

use crate::diag::{Diagnostic, FileId, SourceFile, Span};
use crate::il;

/// What the files lowered so far tell the next ones: the Fortran modules they define;
/// and where INCLUDE lines look for files, with the files they read.
#[derive(Default)]
pub struct Context {
    pub modules: fortran::Modules,
    /// Directories searched, in order, for the current source's INCLUDE lines: its own
    /// directory, then the manifest's `include-dirs`.
    pub include_search: Vec<std::path::PathBuf>,
    /// How to name a file found in `include_search[0]` in diagnostics: the source's
    /// directory as given (relative), when that is the source's own directory.
    pub include_display_dir: Option<String>,
    /// Files read by INCLUDE lines, in order; the first gets `FileId(first_include_id)`.
    pub included: Vec<SourceFile>,
    pub first_include_id: u32,
    /// Functions defined in C user headers, lowered by the first file including them.
    pub c_header_functions: std::collections::BTreeSet<String>,
    /// The last column of the current source's fixed-form statements (`None`: 72).
    pub fixed_line_length: Option<usize>,
    /// The manifest's `preprocess` and `defines`, for the current source.
    pub preprocessor: crate::request::Preprocessor,
}

/// Lowers one source file on its own (no module of another file visible).
pub fn lower_source(
    id: FileId,
    source: &SourceFile,
    path: &str,
    next_stmt_id: &mut u32,
) -> Result<il::File, Vec<Diagnostic>> {
    lower_source_in(&mut Context::default(), id, source, path, next_stmt_id)
}

/// Lowers one source file, choosing the front-end by the file's extension.
/// `next_stmt_id` numbers statements uniquely across the whole program; `context`
/// carries the modules defined by the files lowered before.
pub fn lower_source_in(
    context: &mut Context,
    id: FileId,
    source: &SourceFile,
    path: &str,
    next_stmt_id: &mut u32,
) -> Result<il::File, Vec<Diagnostic>> {
    use fortran::SourceForm;
    let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
    if ext.eq_ignore_ascii_case("c") {
        let Context {
            include_search,
            include_display_dir,
            included,
            first_include_id,
            c_header_functions,
            preprocessor,
            ..
        } = context;
        // The source's directory comes first in `include_search` when there is one.
        let (dir, include_dirs) = match include_display_dir {
            Some(_) if !include_search.is_empty() => {
                (Some(include_search[0].as_path()), &include_search[1..])
            }
            _ => (None, &include_search[..]),
        };
        let first = *first_include_id;
        let mut register = |display: String, text: String| {
            included.push(SourceFile::new(display, text));
            FileId(first + included.len() as u32 - 1)
        };
        let mut headers = c::Headers {
            dir,
            include_dirs,
            defines: &preprocessor.defines,
            display_dir: include_display_dir.as_deref(),
            register: &mut register,
            lowered: c_header_functions,
        };
        return c::lower_file(id, source, path, next_stmt_id, &mut headers);
    }
    // As gfortran reads them: upper-case extensions (and `.fpp`) ask for the C
    // preprocessor; `.f`, `.for`, `.ftn`, `.fpp` are fixed form.
    // The manifest's `preprocess = true` asks for it everywhere, as gfortran's `-cpp`.
    let preprocessed = context.preprocessor.all
        || matches!(
            ext,
            "F" | "FOR" | "FTN" | "fpp" | "FPP" | "F90" | "F95" | "F03" | "F08"
        );
    let form = match ext.to_ascii_lowercase().as_str() {
        "f90" | "f95" | "f03" | "f08" => SourceForm::Free,
        "f" | "for" | "ftn" | "fpp" => SourceForm::Fixed(context.fixed_line_length.unwrap_or(72)),
        _ => {
            return Err(vec![
                Diagnostic::error(
                    "E0901",
                    format!("adgen does not know the source kind of `{path}`"),
                )
                .at(Span::new(id, 0, 0))
                .with_help(
                    "Fortran sources end in .f90, .f95, .f03, .f08 (free form) or .f, .for, .ftn (fixed form); upper case (.F, .F90) or .fpp for the C preprocessor; C sources in .c",
                ),
            ]);
        }
    };
    let Context {
        modules,
        include_search,
        include_display_dir,
        included,
        first_include_id,
        preprocessor,
        ..
    } = context;
    let mut resolve = |name: &str| -> Result<(FileId, String), String> {
        for (k, dir) in include_search.iter().enumerate() {
            let candidate = dir.join(name);
            if !candidate.is_file() {
                continue;
            }
            let bytes = std::fs::read(&candidate)
                .map_err(|e| format!("cannot read `{}`: {e}", candidate.display()))?;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let display = match (k, include_display_dir.as_deref()) {
                (0, Some("")) => name.to_string(),
                (0, Some(d)) => format!("{d}/{name}"),
                _ => candidate.display().to_string(),
            };
            let id = FileId(*first_include_id + included.len() as u32);
            included.push(SourceFile::new(display, text.clone()));
            return Ok((id, text));
        }
        if include_search.is_empty() {
            Err("the source was given without a directory to look in".to_string())
        } else {
            let dirs: Vec<String> = include_search
                .iter()
                .map(|d| format!("`{}`", d.display()))
                .collect();
            Err(format!("no such file in {}", dirs.join(", ")))
        }
    };
    if preprocessed {
        return fortran::lower_preprocessed(
            id,
            source,
            path,
            form,
            &preprocessor.defines,
            next_stmt_id,
            modules,
            &mut resolve,
        );
    }
    fortran::lower_file_with_includes(id, source, path, form, next_stmt_id, modules, &mut resolve)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower(path: &str, text: &str) -> Result<il::File, Vec<Diagnostic>> {
        let source = SourceFile::new(path, text);
        let mut next = 0;
        lower_source(FileId(0), &source, path, &mut next)
    }

    #[test]
    fn the_extension_chooses_the_source_form() {
        let fixed =
            "C     FIXED FORM\n      SUBROUTINE S(A)\n      A = A +\n     &    1.0\n      END\n";
        for path in ["a.f", "a.for", "a.FOR", "a.F", "a.ftn", "a.fpp"] {
            assert!(lower(path, fixed).is_ok(), "{path}");
        }
        let free = "subroutine s(a)\n  a = a + &\n    1.0\nend\n";
        for path in ["a.f90", "a.F90", "a.f08"] {
            assert!(lower(path, free).is_ok(), "{path}");
        }
        assert!(lower("a.f", free).is_err());
        let err = lower("a.txt", free).unwrap_err();
        assert_eq!(err[0].code, "E0901");
    }
}
