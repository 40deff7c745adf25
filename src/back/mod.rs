//! Back-ends: each prints [`crate::il`] units in one language, the language of the
//! [`il::File`] that holds them ([`il::File::language`]).

pub mod c;
pub mod fortran;

use crate::il::{self, Language};

/// Prints `file` in its language. `program` is the program the file's units were
/// generated from.
pub fn write_file(file: &il::File, program: &il::Program) -> String {
    write_file_among(file, program, &[])
}

/// As [`write_file`], when the file's units may call units of other generated files.
pub fn write_file_among(file: &il::File, program: &il::Program, siblings: &[&il::File]) -> String {
    match file.language {
        Language::C => c::write_file(file, program, siblings),
        Language::Fortran => fortran::write_file_among(file, program, siblings),
    }
}

/// The files that print the generated `file`, as (path, text): the source, and for C its
/// header. `stem` is the output path without its extension (`src/heat_d`); the source's
/// extension is kept where the language allows (generated Fortran is free form, so a
/// fixed-form or preprocessed source, `.f`, `.F`, `.for`, gets a `.f90` derivative).
pub fn write_outputs(
    stem: &str,
    file: &il::File,
    program: &il::Program,
    siblings: &[&il::File],
) -> Vec<(String, String)> {
    let text = write_file_among(file, program, siblings);
    match file.language {
        Language::C => {
            let base = stem.rsplit('/').next().unwrap_or(stem);
            vec![
                (format!("{stem}.c"), text),
                (
                    format!("{stem}.h"),
                    c::write_header(file, base, program, siblings),
                ),
            ]
        }
        Language::Fortran => {
            let ext = file
                .path
                .rsplit_once('.')
                .map(|(_, e)| e)
                .filter(|e| matches!(*e, "f90" | "f95" | "f03" | "f08"))
                .unwrap_or("f90");
            vec![(format!("{stem}.{ext}"), text)]
        }
    }
}
