//! Back-ends: each prints [`crate::il`] units in one language.

pub mod fortran;
