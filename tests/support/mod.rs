//! The correctness harness of the corpus (DESIGN.md §8): every program under
//! `tests/corpus/fortran/` and `tests/corpus/c/` is differentiated, compiled with gfortran
//! or gcc, run by a generated
//! driver, and its tangent checked against central differences and its adjoint against
//! the tangent by the dot-product test; its unparsed form must compute bitwise the same.

#![allow(dead_code)]

pub mod case;
pub mod cdriver;
pub mod checks;
pub mod config;
pub mod driver;
pub mod toolchain;

#[cfg(test)]
mod selftest;
