//! The Fortran back-end: IL → readable free-form Fortran.

use crate::il;

/// Prints a whole file: an `@generated` header, then every unit.
pub fn write_file(file: &il::File) -> String {
    let _ = file;
    String::new()
}

/// Prints one expression in Fortran syntax (used by drivers and diagnostics).
pub fn write_expr(expr: &il::Expr) -> String {
    let _ = expr;
    String::new()
}
