//! The bundled runtime (DESIGN.md §6): C stack with a Fortran interface, shipped inside
//! the adgen binary and written next to the generated code that needs it.

use crate::GeneratedFile;

/// The runtime's source files, in compile order, when `needed`.
pub fn runtime_files(needed: bool) -> Vec<GeneratedFile> {
    let _ = needed;
    Vec::new()
}
