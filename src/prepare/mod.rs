//! Preparation: the rewrites of the lowered program that run before any analysis, in this
//! order (as [`crate::differentiate`] calls them), each IL in, IL out:
//!
//! 1. [`io::strip`] drops input/output statements from what gets differentiated (the
//!    derivative computes, it does not print) and refuses input where a root reaches.
//! 2. [`restructure::restructure`] turns jumps (GO TO, arithmetic IF, computed GO TO,
//!    SELECT CASE) into structured IF, DO, EXIT and RETURN, which the adjoint reverses
//!    (seeds/000 §4.4, §5.5).
//! 3. [`scalarize::scalarize`] turns array syntax into loops over scalars (seeds/000
//!    §4.11).
//! 4. [`normalize::normalize`] hoists function calls out of larger expressions
//!    (seeds/000 §4.5).
//!
//! The parsed program keeps the source's own form for the round trip; only the prepared
//! copy goes on to the call graph, the analyses and the differentiator. This layer
//! reads and writes the IL only: it knows nothing of the stages after it, the front-ends
//! or the back-ends.

pub mod directives;
pub mod io;
pub mod normalize;
pub mod restructure;
pub mod scalarize;

use crate::diag::Diagnostic;
use crate::il::Program;
use crate::request::Request;

/// The four rewrites in order: the program that the analyses and the differentiator read.
pub fn prepare(program: &Program, request: &Request) -> Result<Program, Vec<Diagnostic>> {
    let program = io::strip(program, request)?;
    let program = restructure::restructure(&program)?;
    let program = scalarize::scalarize(&program)?;
    Ok(normalize::normalize(&program))
}
