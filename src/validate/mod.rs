//! Validation of generated derivatives by running them (seeds/000 §6, seeds/004 §9):
//! the tangent against central divided differences, the adjoint against the tangent by
//! the dot-product test `<J xd, yb> = <xd, J^T yb>`.
//!
//! For each root, a driver program is generated from the root's IL (the types, shapes
//! and intents of its arguments) and the derivative [`crate::diff::Signature`]s, in the
//! root's language ([`fortran_driver`], [`c_driver`]); it is compiled with the user's
//! sources, the generated files and the runtime ([`build`], [`toolchain`]), run, and what
//! it prints is judged ([`checks`]). How arguments get their values comes from
//! [`settings`]. `adgen validate` ([`run`]) and the corpus harness of the tests share all
//! of it.

pub mod build;
pub mod c_driver;
pub mod checks;
pub mod fortran_driver;
pub mod run;
pub mod settings;
pub mod toolchain;
