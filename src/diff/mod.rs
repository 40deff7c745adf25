//! Differentiation: tangent and adjoint units (seeds/000 §4, §5.3–5.4).

use crate::analysis::Analyses;
use crate::diag::Diagnostic;
use crate::ir::Ir;
use crate::{Mode, Request, il};

/// The calling sequence of one derivative of a root, for drivers and bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub root: String,
    pub mode: Mode,
    /// Name of the generated procedure (`f_d`, `f_b`).
    pub unit: String,
    /// The generated procedure's arguments in order. Each original argument is followed
    /// by its derivative when it has one.
    pub args: Vec<SigArg>,
    /// Tangent of a function: the derivative is returned and the primal result stored in
    /// the last argument. Adjoint of a function: the result weight is the last argument.
    pub is_function: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SigArg {
    /// The generated procedure's dummy name.
    pub name: String,
    /// The original argument this is, or whose derivative this is (`None` for the
    /// function-result arguments).
    pub original: Option<String>,
    /// True for a derivative argument.
    pub is_derivative: bool,
}

/// What differentiation produced.
#[derive(Clone, Debug, Default)]
pub struct Differentiated {
    /// One file per source file and mode (`heat_d.f90`, `heat_b.f90`).
    pub files: Vec<il::File>,
    pub signatures: Vec<Signature>,
    pub warnings: Vec<Diagnostic>,
    /// Some generated code uses the runtime stack.
    pub needs_runtime: bool,
}

pub fn differentiate(
    program: &il::Program,
    ir: &Ir,
    analyses: &Analyses,
    request: &Request,
) -> Result<Differentiated, Vec<Diagnostic>> {
    let _ = (program, ir, analyses, request);
    let _ = Mode::Tangent;
    Ok(Differentiated::default())
}
