//! The derivative of every differentiated unit, callees first (so that a caller's adjoint
//! knows what its callees restore). A root that other derivatives call
//! (`naming::called_root`) gets two: the root's own, keeping INTERFACE.md §4's contract
//! for the user, and the one the callers' derivatives call, which passes their
//! derivatives through as any callee's does.

use std::collections::BTreeMap;

use super::{
    Ctx, Differentiated, UnitGen, Unsized, adjoint, optional, tangent, uses_runtime_function,
};
use crate::diag::Diagnostic;
use crate::il::{Unit, key};
use crate::request::Mode;

/// The generated units, by the original's index and whether it is a called root's own
/// derivative (`true`) rather than the one other derivatives call.
pub(super) type Generated = BTreeMap<(usize, bool), Unit>;

pub(super) fn generate_units(
    ctx: &Ctx,
    out: &mut Differentiated,
    errors: &mut Vec<Diagnostic>,
    unsized_args: &mut BTreeMap<usize, Vec<Unsized>>,
) -> Generated {
    let (program, ir, analyses, request) = (ctx.program, ctx.ir, ctx.analyses, ctx.request);
    let mut generated_units = Generated::new();
    let any_specialized = program.procedures().any(|u| u.specialization.is_some());
    // Procedures whose primal keeps SAVE state in a module: derivative code runs their
    // copies (`prepare::saved_state`).
    let copies = crate::prepare::saved_state::Copies::of(program);
    for i in ir.call_graph.bottom_up().into_iter().flatten() {
        // A black box's derivatives are the user's.
        if !analyses.units[i].is_differentiated()
            || request.black_box(&ir.units[i].unit.name).is_some()
        {
            continue;
        }
        let called_root = ctx
            .root_names
            .contains_key(crate::il::key_ref(&ir.units[i].unit.name).as_ref());
        // The root's own first: the callers' one, generated last, leaves what the
        // callers' adjoints read (`Ctx::restored`).
        let forms: &[bool] = if called_root {
            &[true, false]
        } else {
            &[false]
        };
        for &root_form in forms {
            let mut ug = UnitGen::new(ctx, i);
            // In a mode the root does not ask for, its derivative is only a callee's.
            let asked = ug.root.is_some_and(|r| r.modes.contains(&ctx.mode));
            if (called_root && !root_form) || !asked {
                ug.root = None;
            }
            let mut generated = match ctx.mode {
                Mode::Tangent => tangent::tangent_unit(&mut ug),
                Mode::Adjoint => adjoint::adjoint_unit(&mut ug),
            };
            optional::guard(
                &mut generated,
                &|name| {
                    generated_units
                        .values()
                        .chain(program.units())
                        .find(|u| u.name.eq_ignore_ascii_case(name))
                        .cloned()
                },
                &ug.deriv_names,
            );
            crate::prepare::saved_state::call_copies(&mut generated, &copies);
            if any_specialized {
                crate::prepare::specialize::unspecialize_calls(&mut generated, &ctx.procedures);
            }
            // The second derivative of a called root says nothing new of its source.
            if called_root && !root_form {
                for e in ug.errors.drain(..) {
                    if !errors
                        .iter()
                        .any(|d| d.code == e.code && d.message == e.message)
                    {
                        errors.push(e);
                    }
                }
            } else {
                errors.append(&mut ug.errors);
                out.warnings.append(&mut ug.warnings);
                if !ug.unsized_args.is_empty() {
                    unsized_args
                        .entry(i)
                        .or_default()
                        .append(&mut ug.unsized_args);
                }
            }
            out.needs_runtime |= ug.uses_runtime || uses_runtime_function(ug.unit, &mut generated);
            if let Some(root) = ug.root {
                if root.modes.contains(&ctx.mode) {
                    out.signatures.push(ug.signature(&generated));
                }
            }
            generated_units.insert((i, root_form), generated);
        }
    }
    generated_units
}

impl UnitGen<'_, '_> {
    /// The name of the derivative being generated: a called root's own keeps the
    /// contract's name, any other is the one callers call.
    pub fn own_name(&self) -> Option<&str> {
        if self.root.is_some()
            && let Some(n) = self.ctx.root_names.get(&key(&self.unit.name))
        {
            return Some(n);
        }
        self.ctx.derivative_of(&self.unit.name)
    }
}
