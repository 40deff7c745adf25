//! The bundled runtime (DESIGN.md §6): C stack with a Fortran interface, shipped inside
//! the adgen binary and written next to the generated code that needs it.
//!
//! The sources live in `build-support/runtime/` and are embedded with `include_str!`, so
//! the tool is self-contained. Generated Fortran does `use adgen_runtime` and calls the
//! routines of `adgen_runtime.f90` (`pushreal8`, `popcontrol`, ...); C code includes
//! `adgen_runtime.h`.

use crate::request::GeneratedFile;

/// The Fortran module generated adjoint code uses: `use adgen_runtime`.
pub const RUNTIME_MODULE: &str = "adgen_runtime";

/// The C header, for C code and for benchmarks reading the tape statistics.
pub const RUNTIME_HEADER: &str = include_str!("../build-support/runtime/adgen_runtime.h");
/// The C implementation: one thread-local LIFO byte stack.
pub const RUNTIME_C: &str = include_str!("../build-support/runtime/adgen_runtime.c");
/// The Fortran module `adgen_runtime`: `bind(C)` interfaces to the C implementation.
pub const RUNTIME_FORTRAN: &str = include_str!("../build-support/runtime/adgen_runtime.f90");

/// The runtime's source files, in compile order (header, C, Fortran module), when
/// `needed`; none otherwise.
pub fn runtime_files(needed: bool) -> Vec<GeneratedFile> {
    runtime_files_for(needed, true)
}

/// [`runtime_files`] for generated code with Fortran in it or not: C-only code needs no
/// Fortran module, so a C project needs no Fortran compiler.
pub fn runtime_files_for(needed: bool, fortran: bool) -> Vec<GeneratedFile> {
    if !needed {
        return Vec::new();
    }
    [
        ("adgen_runtime.h", RUNTIME_HEADER),
        ("adgen_runtime.c", RUNTIME_C),
        ("adgen_runtime.f90", RUNTIME_FORTRAN),
    ]
    .into_iter()
    .take(if fortran { 3 } else { 2 })
    .map(|(path, contents)| GeneratedFile {
        path: path.to_string(),
        contents: contents.to_string(),
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_only_when_needed_in_compile_order() {
        assert!(runtime_files(false).is_empty());
        let files = runtime_files(true);
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            ["adgen_runtime.h", "adgen_runtime.c", "adgen_runtime.f90"]
        );
        assert!(
            files[2]
                .contents
                .contains(&format!("module {RUNTIME_MODULE}"))
        );
        let c_only = runtime_files_for(true, false);
        let paths: Vec<&str> = c_only.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["adgen_runtime.h", "adgen_runtime.c"]);
    }
}
