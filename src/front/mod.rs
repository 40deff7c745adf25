//! Front-ends: each turns one source language into the [`crate::il`].

pub mod c;
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
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "f90" | "f95" | "f03" | "f08" => fortran::lower_file(id, source, path, next_stmt_id),
        "c" => c::lower_file(id, source, path, next_stmt_id),
        _ => Err(vec![
            Diagnostic::error(
                "E0901",
                format!("adgen does not know the source kind of `{path}`"),
            )
            .at(Span::new(id, 0, 0))
            .with_help(
                "free-form Fortran sources end in .f90, .f95, .f03 or .f08; C sources in .c",
            ),
        ]),
    }
}
