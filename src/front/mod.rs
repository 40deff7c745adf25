//! Front-ends: each turns one source language into the [`crate::il`].

pub mod fortran;

use crate::diag::{Diagnostic, FileId, SourceFile, Span};
use crate::il;

/// Lowers one source file, choosing the front-end by the file's extension.
/// `next_stmt_id` numbers statements uniquely across the whole program.
pub fn lower_source(
    id: FileId,
    source: &SourceFile,
    path: &str,
    next_stmt_id: &mut u32,
) -> Result<il::File, Vec<Diagnostic>> {
    use fortran::SourceForm;
    let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
    // `.F`, `.FOR`, `.F90`...: upper-case extensions ask for the C preprocessor.
    let preprocessed = matches!(ext, "F" | "FOR" | "FTN" | "F90" | "F95" | "F03" | "F08");
    let form = match ext.to_ascii_lowercase().as_str() {
        "f90" | "f95" | "f03" | "f08" => SourceForm::Free,
        "f" | "for" | "ftn" | "f77" => SourceForm::Fixed,
        _ => {
            return Err(vec![
                Diagnostic::error(
                    "E0901",
                    format!("adgen does not know the source kind of `{path}`"),
                )
                .at(Span::new(id, 0, 0))
                .with_help(
                    "Fortran sources end in .f90, .f95, .f03 or .f08 (free form) or in .f, .for (fixed form)",
                ),
            ]);
        }
    };
    if preprocessed {
        return fortran::lower_preprocessed(id, source, path, form, next_stmt_id);
    }
    fortran::lower_file_in_form(id, source, path, form, next_stmt_id)
}
