//! The correctness harness of the corpus (DESIGN.md §8): every program under
//! `tests/corpus/fortran/` and `tests/corpus/c/` is differentiated, compiled with gfortran
//! or gcc, run by a generated
//! driver, and its tangent checked against central differences and its adjoint against
//! the tangent by the dot-product test; its unparsed form must compute bitwise the same.
//! The drivers, their build and their checks are `adgen::validate`'s, which `adgen
//! validate` runs on a user's manifest; what is the corpus's own (its manifests, the round
//! trip, the contract runs) is here.

#![allow(dead_code)]

pub mod case;
pub mod config;
pub use adgen::validate::{checks, fortran_driver as driver, toolchain};

#[cfg(test)]
mod selftest;
