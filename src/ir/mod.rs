//! The IR built over the IL: call graph, flow graphs and zones (seeds/000 §3, §5.1).

use crate::diag::Diagnostic;
use crate::{Request, il};

/// Call graph, flow graphs and zones of a program.
#[derive(Debug, Default)]
pub struct Ir {}

impl Ir {
    pub fn build(program: &il::Program, request: &Request) -> Result<Ir, Vec<Diagnostic>> {
        let _ = (program, request);
        Ok(Ir {})
    }
}
