//! Back-ends: each prints [`crate::il`] units in one language.

pub mod c;
pub mod fortran;

use crate::il;

/// Is `path` a C source (by its extension)?
pub fn is_c(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, e)| e.eq_ignore_ascii_case("c"))
}

/// Prints `file` in the language of the output `path`'s extension: C for `.c`, Fortran
/// otherwise. `program` is the program the file's units were generated from.
pub fn write_file(path: &str, file: &il::File, program: &il::Program) -> String {
    write_file_among(path, file, program, &[])
}

/// As [`write_file`], when the file's units may call units of other generated files.
pub fn write_file_among(
    path: &str,
    file: &il::File,
    program: &il::Program,
    siblings: &[il::File],
) -> String {
    if is_c(path) {
        c::write_file(file, program, siblings)
    } else {
        fortran::write_file_among(file, program, siblings)
    }
}

/// The header of a generated C file `path` (`heat_d.c` → `heat_d.h`): its path and text.
pub fn write_header(
    path: &str,
    file: &il::File,
    program: &il::Program,
    siblings: &[il::File],
) -> (String, String) {
    let stem = path.rsplit_once('.').map(|(s, _)| s).unwrap_or(path);
    let base = stem.rsplit('/').next().unwrap_or(stem);
    (
        format!("{stem}.h"),
        c::write_header(file, base, program, siblings),
    )
}
