//! W0501: the derivatives of a root's arrays of unknown size (assumed-size dummies) that
//! the generated code cannot zero, said once per root for both modes, with the `[sizes]`
//! lines that would let adgen zero them (what derivative arguments mean: INTERFACE.md
//! §4).

use crate::diag::{Diagnostic, Span};
use crate::request::Mode;

/// A root's assumed-size array argument whose derivative the generated code does not zero.
#[derive(Clone, Debug)]
pub struct Unsized {
    pub primal: String,
    pub deriv: String,
    pub mode: Mode,
    pub span: Span,
    /// A matrix of row pointers (`double **a`): sized by its rows and row length.
    pub rows: bool,
}

/// One W0501 per root, for both modes: the derivatives of its arrays of unknown size
/// that the caller must set, and how to give adgen their sizes instead.
pub(super) fn unsized_advice(root: &str, mut items: Vec<Unsized>) -> Option<Diagnostic> {
    items.sort_by_key(|u| (u.span.lo, u.mode));
    items.dedup_by(|a, b| a.deriv == b.deriv && a.mode == b.mode);
    let first = items.first()?.span;
    let mut arrays: Vec<&str> = items.iter().map(|u| u.primal.as_str()).collect();
    arrays.dedup();
    let list = |mode: Mode| -> Vec<String> {
        items
            .iter()
            .filter(|u| u.mode == mode)
            .map(|u| format!("`{}`", u.deriv))
            .collect()
    };
    let quoted: Vec<String> = arrays.iter().map(|a| format!("`{a}`")).collect();
    let mut tell = Vec::new();
    let tangent = list(Mode::Tangent);
    if !tangent.is_empty() {
        tell.push(format!(
            "`{root}_d` sets {} only where `{root}` writes (set the rest to zero)",
            tangent.join(", ")
        ));
    }
    let adjoint = list(Mode::Adjoint);
    if !adjoint.is_empty() {
        tell.push(format!(
            "`{root}_b` adds to {} (set {} to zero before the call)",
            adjoint.join(", "),
            if adjoint.len() == 1 { "it" } else { "them" }
        ));
    }
    let hint: Vec<String> = arrays
        .iter()
        .map(|a| match items.iter().any(|u| u.primal == *a && u.rows) {
            true => format!("{a} = [\"...\", \"...\"]"),
            false => format!("{a} = \"...\""),
        })
        .collect();
    Some(
        Diagnostic::warning(
            "W0501",
            format!(
                "root `{root}`: {}, so adgen does not zero {} derivatives: {}",
                if quoted.len() == 1 {
                    format!("the size of {} is unknown", quoted[0])
                } else {
                    format!("the sizes of {} are unknown", quoted.join(", "))
                },
                if quoted.len() == 1 { "its" } else { "their" },
                tell.join("; ")
            ),
        )
        .at(first)
        .with_help(format!(
            "or give the sizes in ad.toml: `[sizes.{root}]` then {}",
            hint.join(", ")
        )),
    )
}

/// The help of an error that needs the size of the array `name` of `unit`: the
/// `[sizes]` line to write, two sizes for a matrix of row pointers (`double **a`).
pub(crate) fn size_help(unit: &crate::il::Unit, name: &str) -> String {
    let rows = unit.is_row_pointers(name);
    // The manifest names procedures as the sources do, not the copies adgen makes for
    // each procedure argument (`DSTODE_FRB_JRB`).
    let u = unit
        .specialization
        .as_ref()
        .map_or(&unit.name, |s| &s.original);
    if rows {
        format!(
            "give its sizes in ad.toml: `[sizes.{u}]` then `{name} = [\"n\", \"m\"]` (its \
             number of rows and the length of a row, from the integer arguments)"
        )
    } else {
        format!(
            "give its size in ad.toml: `[sizes.{u}]` then `{name} = \"n\"` (its number of \
             elements, from the integer arguments), or declare it with an explicit shape"
        )
    }
}
