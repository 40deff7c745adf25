//! Module arrays allocated and freed by the procedures a root reaches
//! (`il::heap_globals`): each procedure records which it allocates or frees itself (kept
//! allocatable, as a local array is) and what it does, at any depth, with the allocation
//! of each (a caller restores that before re-running the call in the backward sweep,
//! `diff::heap`).
//!
//! A caller that does not see a module array its callee allocates or frees names it as
//! its module does (the derivative code imports it); one that declares another entity
//! of that name cannot, and the call is refused (E0545): the caller's adjoint could not
//! restore the array's allocation.

use super::*;
use crate::il::heap_globals::{self, Memo};
use crate::il::lifetime::ArgumentAllocation;

/// E0545: a module array whose allocation the derivative code cannot follow.
const LIFETIME: &str = "E0545";

/// Records the module arrays each unit allocates or frees; the refusals, one per array
/// and procedure.
pub(super) fn mark(program: &mut Program) -> Vec<Diagnostic> {
    let mut marks = Vec::new();
    let mut diags = Vec::new();
    {
        let index = program.index();
        let unit_of = |n: &str| index.unit(n);
        let mut memo = Memo::new();
        for (f, file) in program.files.iter().enumerate() {
            for (u, unit) in file.units.iter().enumerate() {
                let heap_globals::Summary { changes, direct } =
                    heap_globals::summary(unit, &unit_of, &mut memo);
                unseen(unit, &unit_of, &mut memo, &mut diags);
                if !changes.is_empty() || !direct.is_empty() {
                    marks.push((f, u, changes, direct));
                }
            }
        }
    }
    for (f, u, changes, direct) in marks {
        program.files[f].units[u]
            .symbols
            .mark_global_allocations(changes, direct);
    }
    diags
}

/// E0545 at each call of `unit` that changes the allocation of a module array `unit`
/// does not see, once per array.
fn unseen<'u>(
    unit: &Unit,
    unit_of: &dyn Fn(&str) -> Option<&'u Unit>,
    memo: &mut Memo,
    diags: &mut Vec<Diagnostic>,
) {
    let mut reported = BTreeSet::new();
    let mut calls = Vec::new();
    crate::il::visit::walk_stmts(&unit.body, &mut |s| {
        if let StmtKind::Call { name, .. } = &s.kind {
            calls.push((name.clone(), s.span));
        }
    });
    for (name, span) in calls {
        let Some(callee) = unit_of(&name) else {
            continue;
        };
        for ((module, array), what) in heap_globals::summary(callee, unit_of, memo).changes {
            if what == ArgumentAllocation::AllocatesThenFrees {
                continue;
            }
            let seen = unit.symbols.iter().any(|sym| {
                sym.is_module_variable()
                    && sym
                        .global
                        .as_ref()
                        .is_some_and(|g| g.key() == (module.clone(), array.clone()))
            });
            // Not seen, the array is imported under its module's name, unless the
            // caller has an entity of that name.
            let hidden = !seen && unit.symbols.get(&array).is_some();
            if !hidden || !reported.insert((module.clone(), array.clone())) {
                continue;
            }
            let verb = match what {
                ArgumentAllocation::Allocates => "allocates",
                ArgumentAllocation::Frees => "frees",
                _ => "reallocates",
            };
            diags.push(
                Diagnostic::error(
                    LIFETIME,
                    format!(
                        "`{name}` {verb} the module array `{array}` of module `{module}`, which `{}` cannot name (it has its own `{array}`): its adjoint could not restore that allocation before re-running the call",
                        unit.name
                    ),
                )
                .at(span)
                .with_help(format!("rename the local `{array}` of `{}`, or use the module's array there under another name (`use {module}, only: {array}_m => {array}`)", unit.name)),
            );
        }
    }
}
