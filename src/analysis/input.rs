//! Input in the code to differentiate must run exactly once in the derivative code, as in
//! the primal: a READ run again would read other data (or none). `prepare::io` keeps a
//! procedure that holds input (a READ, or a statement setting variables through `IOSTAT=`
//! and the like) as written, and this check decides once activity is known (E0513).
//!
//! Such a procedure runs once when no root asks for an adjoint (the tangent runs every
//! statement once, a READ into an active variable zeroing its derivative), or when it is
//! - a root that no procedure a root reaches calls: the adjoint's forward sweep runs it
//!   once, its backward sweep not at all; or
//! - a procedure without derivatives that the adjoint never runs a second time: no
//!   procedure with derivatives that the adjoint re-runs (joint mode, `rerun_state`)
//!   calls it, directly or not. The derivative code calls the original, once; a set-up
//!   routine that reads its parameters from the command line or a file is one.
//!
//! Anything else is refused, once per procedure, at its first input statement. With
//! activity analysis switched off (every real variable active), a procedure that reaches
//! input and in which the analysis finds nothing active stays passive. The
//! adjoint's forward sweep keeps every call that reaches input (`reaches_input`), as it
//! keeps READ itself: a READ left out would leave the file where the next one starts.

use super::UnitAnalysis;
use crate::diag::Diagnostic;
use crate::ir::Ir;
use crate::request::Request;

/// E0513 for each procedure a root reaches whose input could run twice or has
/// derivatives; `rerun` says which procedures the adjoint may run a second time.
pub(super) fn rerun_input(
    ir: &Ir,
    units: &[UnitAnalysis],
    request: &Request,
    rerun: &[bool],
) -> Vec<Diagnostic> {
    let n = ir.units.len();
    // The tangent runs every statement once: only the adjoint runs code again.
    let adjoint = request.asks(crate::request::Mode::Adjoint);
    let called =
        |u: usize| (0..n).any(|v| units[v].has_context && ir.call_graph.callees(v).contains(&u));
    let mut out = Vec::new();
    for (u, state) in units.iter().enumerate() {
        if !state.has_context {
            continue;
        }
        let unit = ir.units[u].unit;
        let Some(first) = crate::il::visit::first_input(&unit.body) else {
            continue;
        };
        if request.root(&unit.name).is_some() && !called(u) {
            continue;
        }
        let why = if state.is_differentiated() && adjoint {
            format!("`{}` has derivatives to compute", unit.name)
        } else if rerun[u] {
            match rerunning_caller(ir, units, rerun, u) {
                Some(q) => format!(
                    "the adjoint runs it a second time, as part of `{}`",
                    ir.units[q].unit.name
                ),
                None => "the adjoint runs it a second time".to_string(),
            }
        } else {
            continue;
        };
        let text = match &first.kind {
            crate::il::StmtKind::Io { text, .. } => text.as_str(),
            _ => "",
        };
        out.push(
            Diagnostic::error(
                "E0513",
                format!(
                    "input (a statement setting variables) in `{}` cannot be differentiated: `{text}`: {why}, which would read again",
                    unit.name
                ),
            )
            .at(first.span)
            .with_help(
                "read in a procedure that only sets up values without derivatives, called from a root, or in the root itself (a root that no other procedure calls may read its input)",
            ),
        );
    }
    out
}

/// The procedure with derivatives whose second run (in the adjoint) runs `u`: up the
/// callers the adjoint re-runs.
fn rerunning_caller(ir: &Ir, units: &[UnitAnalysis], rerun: &[bool], u: usize) -> Option<usize> {
    let mut cur = u;
    for _ in 0..ir.units.len() {
        let v =
            (0..ir.units.len()).find(|&v| rerun[v] && ir.call_graph.callees(v).contains(&cur))?;
        if units[v].is_differentiated() {
            return Some(v);
        }
        cur = v;
    }
    None
}

/// Whether activity analysis finds nothing active in a unit: no value varied and useful
/// at any point, and no dummy both varied on entry and useful on exit. With activity
/// analysis switched off, such a unit that reaches input stays passive.
pub(super) fn really_passive(state: &UnitAnalysis) -> bool {
    let (Some(varied), Some(useful)) = (&state.varied, &state.useful) else {
        return true;
    };
    let overlap = |a: &[crate::ir::ZoneSet], b: &[crate::ir::ZoneSet]| {
        a.iter().zip(b).any(|(v, u)| (v.clone() & u.clone()).any())
    };
    !overlap(&varied.before, &useful.before)
        && !overlap(&varied.after, &useful.after)
        && !(state.varied_in.clone() & state.useful_out.clone()).any()
}

/// Per unit: it, or a procedure it calls (directly or not), holds input.
pub(super) fn reaches_input(ir: &Ir) -> Vec<bool> {
    super::access::call_closure(ir, |u| {
        crate::il::visit::first_input(&ir.units[u].unit.body)
            .map(|_| ())
            .into_iter()
            .collect()
    })
    .iter()
    .map(|s| !s.is_empty())
    .collect()
}
