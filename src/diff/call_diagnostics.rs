//! Diagnostics of calls whose derivative cannot be written as the call is.

use crate::diag::{Diagnostic, Span};
use crate::il::Unit;

/// E0502: a call leaves out an argument the callee's derivative needs.
pub fn missing_argument(callee: &Unit, k: usize, at: Span) -> Diagnostic {
    Diagnostic::error(
        "E0502",
        format!(
            "call of `{}` does not pass argument `{}`",
            callee.name, callee.args[k]
        ),
    )
    .at(at)
}

/// E0505: an array dummy needs a derivative, but the actual argument is an expression.
pub fn array_expression_argument(callee: &Unit, k: usize, at: Span) -> Diagnostic {
    Diagnostic::error(
        "E0505",
        format!(
            "argument {} of `{}` is an array that needs a derivative, but the actual argument \
             is an expression",
            k + 1,
            callee.name
        ),
    )
    .at(at)
    .with_help("pass a variable")
}
