//! What the analyses refuse or warn of once activity is known: active global storage
//! adgen does not differentiate (COMMON), state a checkpointed call's rerun would change
//! (SAVEd locals, undeclared globals), and independents or dependents that turn out
//! passive.

use super::*;

/// A COMMON block that cannot carry derivatives (declared differently by two units, or
/// EQUIVALENCEd: `ir::commons`) is supported only when passive: read-only data, or data
/// computed from passive values. One that receives a value depending on the
/// independents is refused, never differentiated wrongly. So is a SAVE/DATA local that
/// does (E0515); the procedures whose SAVEd locals are refused go into `saved_state`
/// (their IL names): `prepare::saved_state` may give those locals a module of their own.
pub(super) fn active_globals(
    ir: &Ir,
    units: &[UnitAnalysis],
    saved_state: &mut std::collections::BTreeSet<String>,
) -> Vec<crate::diag::Diagnostic> {
    let mut out = Vec::new();
    let mut reported = std::collections::BTreeSet::new();
    let mut reported_saved = std::collections::BTreeSet::new();
    for (u, state) in units.iter().enumerate() {
        let (Some(varied), true) = (&state.varied, state.has_context) else {
            continue;
        };
        let uir = &ir.units[u];
        let saved = saved_locals(uir.unit);
        for (node, defs) in state.effects.iter().enumerate() {
            for d in defs {
                let zone = &uir.zones.zones[d.zone];
                if !zone.ty.is_differentiable() || !varied.after[node][d.zone] {
                    continue;
                }
                if !zone.global {
                    if zone.arg_index.is_none()
                        && !zone.is_result
                        && saved.contains(crate::il::key_ref(&zone.name).as_ref())
                        && reported_saved.insert((u, crate::il::key(&zone.name)))
                    {
                        saved_state.insert(uir.unit.name.clone());
                        let span = match &uir.flow.nodes[node] {
                            NodeKind::Simple(stmt) => stmt.span,
                            _ => uir.unit.span,
                        };
                        out.push(
                                crate::diag::Diagnostic::error(
                                    "E0515",
                                    format!(
                                        "`{}` keeps its value between calls of `{}` (SAVE or DATA) and receives a value that depends on the independents; its derivative must persist between calls, which adgen does for SAVE variables outside EQUIVALENCE and internal procedures, when the procedure's primal can be copied (no PRIVATE procedure or variable of its module)",
                                        zone.name, uir.unit.name
                                    ),
                                )
                                .at(span)
                                .with_help(format!(
                                    "make `{}` a module variable (its derivative then persists between calls), or pass it as an argument",
                                    zone.name
                                )),
                            );
                    }
                    continue;
                }
                // Module variables get derivative module variables; storage of other
                // kinds (COMMON blocks, `/name/`) does not have derivatives yet.
                let Some(block) = uir
                    .unit
                    .symbols
                    .get(&zone.name)
                    .and_then(|s| s.global.as_ref())
                    .map(|g| g.module.clone())
                    .filter(|m| m.starts_with('/'))
                else {
                    continue;
                };
                // A block declared alike everywhere has derivatives like a module's
                // variables (`ir::commons`).
                let Some(refusal) = ir.common(&block).and_then(|b| b.refusal.clone()) else {
                    continue;
                };
                if !reported.insert(crate::il::key(&zone.name)) {
                    continue;
                }
                let span = match &uir.flow.nodes[node] {
                    NodeKind::Simple(stmt) => stmt.span,
                    _ => uir.unit.span,
                };
                out.push(
                    crate::diag::Diagnostic::error(
                        "E0511",
                        format!(
                            "COMMON {block} variable `{}` receives a value that depends on the independents, but the block cannot carry derivatives: {refusal}",
                            zone.name
                        ),
                    )
                    .at(span)
                    .with_help(format!(
                        "declare {block} with the same variables in every procedure (an INCLUDE file), move `{}` to a module, or pass it to `{}` as an argument",
                        zone.name, uir.unit.name
                    )),
                );
            }
        }
    }
    out
}

/// In joint mode the adjoint of a differentiated procedure runs it a second time (its
/// forward sweep) after the caller's forward sweep ran it once. State that lives across
/// calls must then be the same both times: a global the rerun writes is saved and
/// restored around the call, which needs the caller to see it; a SAVEd local cannot be.
/// So, for every procedure such a rerun executes (the callee and what it calls): a
/// SAVE/DATA local it changes is refused (E0514; `prepare::saved_state` then gives the
/// procedure's SAVE locals a module where it can, and the analyses run again on that
/// program), and so is a global it changes that the
/// calling procedure does not declare, when the rerun also reads the value for anything
/// but updating it (a call counter `n = n + 1` only ends up counting the reruns too:
/// the primal values `f_b` leaves are unspecified, INTERFACE.md §4).
/// Also returns, per unit, whether the adjoint may run it a second time.
/// `reaches_input` says which procedures hold input, themselves or in their callees.
pub(super) fn rerun_state(
    ir: &Ir,
    units: &[UnitAnalysis],
    request: &Request,
    reaches_input: &[bool],
    saved_state: &mut std::collections::BTreeSet<String>,
) -> (Vec<crate::diag::Diagnostic>, Vec<bool>) {
    use crate::il::key;
    let mut out = Vec::new();
    let mut rerun_checked = vec![false; ir.units.len()];
    // A procedure whose call changes nothing: it writes no argument and no global, and
    // reads no input (an output routine, once its output is dropped).
    let inert = |name: &str| {
        ir.index_of(name)
            .is_some_and(|c| !units[c].summary.writes.any() && !reaches_input[c])
    };
    if !request.asks(crate::request::Mode::Adjoint) {
        return (out, rerun_checked);
    }
    let mut reported = std::collections::BTreeSet::new();
    // The procedures whose state only inert procedures see: every call of theirs is in
    // one (ODEPACK's `IXSAV`, the message unit and flag that only the message routine
    // `XERRWD` asks for). What a rerun changes there changes nothing else.
    let seen_by_inert_only = |v: usize| {
        let callers = ir.call_graph.callers(v);
        !callers.is_empty()
            && callers
                .iter()
                .all(|&p| p != v && inert(&ir.units[p].unit.name))
    };
    // For each procedure, the globals it or a procedure it calls reads for something
    // else than updating them.
    let globals_used = access::call_closure(ir, |v| {
        let unit = ir.units[v].unit;
        unit.symbols
            .iter()
            .filter(|s| s.global.is_some() && used_beyond_update(unit, &s.name))
            .filter_map(|s| s.global.as_ref().map(access::global_key))
            .collect()
    });
    for (u, state) in units.iter().enumerate() {
        if !state.is_differentiated() {
            continue;
        }
        let uir = &ir.units[u];
        // Globals a rerun changes must be visible here, to be saved and restored.
        let visible: std::collections::BTreeSet<(String, String)> = uir
            .unit
            .symbols
            .iter()
            .filter_map(|s| s.global.as_ref().map(access::global_key))
            .collect();
        for kind in &uir.flow.nodes {
            let NodeKind::Simple(stmt) = kind else {
                continue;
            };
            let Some(site) = call_site(stmt) else {
                continue;
            };
            let Some(c) = ir.index_of(site.callee) else {
                continue;
            };
            if !units[c].is_differentiated() {
                continue;
            }
            // The globals the rerun reads for something else than updating them.
            let globals_used = &globals_used[c];
            for g in access::global_writes(ir, c).iter() {
                // Module variables are zones of every unit, seen or not: the caller's
                // adjoint saves and restores them (with a `use` of their module).
                // So are the variables of a block declared alike everywhere: the
                // adjoint declares the block where it needs it.
                let module_variable =
                    !g.0.starts_with('/') || ir.common(&g.0).is_some_and(|b| b.is_active_capable());
                if module_variable
                    || visible.contains(g)
                    || !globals_used.contains(g)
                    || !reported.insert((u, g.0.clone(), g.1.clone()))
                {
                    continue;
                }
                let what = if g.1 == "*" {
                    format!("COMMON block {}", g.0)
                } else {
                    format!("module variable `{}` of `{}`", g.1, g.0)
                };
                out.push(
                    crate::diag::Diagnostic::error(
                        "E0514",
                        format!(
                            "`{}` (or a procedure it calls) changes {what}, which `{}` does not declare: the adjoint runs `{}` again and could not restore it",
                            site.callee, uir.unit.name, site.callee
                        ),
                    )
                    .at(stmt.span)
                    .with_help(format!("declare {what} in `{}` too", uir.unit.name)),
                );
            }
            // SAVEd locals changed by the rerun: each procedure is checked once, from
            // the first call whose rerun executes it (what it changes does not depend
            // on the call).
            let mut rerun = Vec::new();
            let mut stack = vec![c];
            while let Some(v) = stack.pop() {
                if std::mem::replace(&mut rerun_checked[v], true) {
                    continue;
                }
                rerun.push(v);
                stack.extend(ir.call_graph.callees(v));
            }
            for &v in &rerun {
                let unit = ir.units[v].unit;
                if seen_by_inert_only(v) {
                    continue;
                }
                let saved = saved_locals(unit);
                // A cache filled on the first call is what a rerun finds it.
                let cached = super::first_call::cached(unit, &saved);
                // So does a flag that only decides whether to set itself again.
                let flags = super::first_call::self_deciding(unit, &saved, &inert);
                // One refusal per procedure, naming all its variables.
                let mut names: Vec<&str> = Vec::new();
                for name in access::names_written(unit) {
                    let k = key(name);
                    let global = unit.symbols.get(name).is_some_and(|s| s.global.is_some());
                    if global
                        || !saved.contains(&k)
                        || cached.contains(&k)
                        || flags.contains(&k)
                        || !used_beyond_update(unit, name)
                        || !changed(ir, units, unit, name)
                        || !reported.insert((v, k, String::new()))
                    {
                        continue;
                    }
                    names.push(name);
                }
                let (what, them) = match names.as_slice() {
                    [] => continue,
                    [one] => (format!("`{one}` keeps its value"), "it"),
                    [init @ .., last] => (
                        format!(
                            "{} and `{last}` keep their values",
                            init.iter()
                                .map(|n| format!("`{n}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        "them",
                    ),
                };
                saved_state.insert(unit.name.clone());
                let kept = names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                out.push(
                    crate::diag::Diagnostic::error(
                        "E0514",
                        format!(
                            "{what} between calls of `{}` (SAVE or DATA) and `{}` changes {them}: the adjoint runs `{}` a second time, which would see another value",
                            unit.name, unit.name, site.callee
                        ),
                    )
                    .at(unit.span)
                    .with_help(format!(
                        "make {kept} module variables (a caller's adjoint restores those), or pass {}",
                        if them == "it" { "it as an argument" } else { "them as arguments" }
                    )),
                );
            }
        }
    }
    (out, rerun_checked)
}

/// Whether `unit` may change its variable `name`: it assigns it, reads into it, or
/// passes it to a procedure that may overwrite that argument (by the callee's summary;
/// any procedure adgen has no summary of may). `access::names_written` counts every
/// actual argument: DATA constants passed on to a solver that only reads them
/// (MINPACK's `hybrd1` passing `factor` to `hybrd`) are not changed.
fn changed(ir: &Ir, units: &[UnitAnalysis], unit: &crate::il::Unit, name: &str) -> bool {
    use crate::il::{ExprKind, StmtKind, key, visit};
    let k = key(name);
    let is_name = |e: &crate::il::Expr| e.base_name().is_some_and(|b| key(b) == k);
    let passed_to = |callee: &str, args: &[crate::il::Arg]| {
        args.iter().enumerate().any(|(position, a)| {
            is_name(&a.value)
                && (a.keyword.is_some()
                    || ir
                        .index_of(callee)
                        .is_none_or(|c| units[c].summary.writes.get(position).is_none_or(|w| *w)))
        })
    };
    let mut changed = false;
    visit::walk_stmts(&unit.body, &mut |s| {
        if changed {
            return;
        }
        if let StmtKind::Call { name: callee, args } = &s.kind {
            changed |= passed_to(callee, args);
        }
        for e in visit::stmt_exprs(s) {
            visit::walk_expr(e, &mut |x| {
                if let ExprKind::Call(callee, args) = &x.kind {
                    changed |= passed_to(callee, args);
                }
            });
        }
        changed |= super::access::written_directly(s)
            .iter()
            .any(|n| key(n) == k);
    });
    changed
}

/// Whether `unit` reads `name` in a statement that does not assign it (a condition, a
/// bound, a subscript, an argument, another variable's value).
fn used_beyond_update(unit: &crate::il::Unit, name: &str) -> bool {
    let k = crate::il::key(name);
    let mut used = false;
    crate::il::visit::walk_stmts(&unit.body, &mut |s| {
        if let crate::il::StmtKind::Assign { lhs, .. } = &s.kind
            && lhs.base_name().is_some_and(|b| crate::il::key(b) == k)
        {
            return;
        }
        if let crate::il::StmtKind::Call { args, .. } = &s.kind
            && args
                .iter()
                .any(|a| a.value.base_name().is_some_and(|b| crate::il::key(b) == k))
        {
            used = true;
        }
        for e in crate::il::visit::stmt_exprs(s) {
            if crate::il::visit::names_read(e)
                .iter()
                .any(|n| crate::il::key(n) == k)
            {
                used = true;
            }
        }
    });
    used
}

/// Independents and dependents that turn out passive: like Tapenade, adgen gives them no
/// derivative argument, and says so.
pub(super) fn inactive_root_variables(
    ir: &Ir,
    units: &[UnitAnalysis],
    fields: &super::fields::ActiveFields,
    request: &Request,
) -> Vec<crate::diag::Diagnostic> {
    let mut out = Vec::new();
    for root in &request.roots {
        let Some(r) = ir.index_of(&root.name) else {
            continue;
        };
        let unit = ir.units[r].unit;
        let state = &units[r];
        let mut check = |name: &str, what: &str, active: bool| {
            if active {
                return;
            }
            let d = crate::diag::Diagnostic::warning(
                "W0201",
                format!(
                    "{what} `{name}` of root `{}` is not active: no dependent depends on it \
                     differentiably, so it gets no derivative argument",
                    root.name
                ),
            )
            .with_help("check the data flow, or drop it from the manifest");
            out.push(d.at_origin(root.entry_origin(what == "dependent", name)));
        };
        let global_active = |g: usize| {
            ir.units[r]
                .zones
                .globals
                .get(g)
                .is_some_and(|&z| state.deriv_zones[z])
        };
        for (dependent, names) in [(false, &root.independents), (true, &root.dependents)] {
            let what = if dependent {
                "dependent"
            } else {
                "independent"
            };
            for name in names {
                let Some(v) = ir.root_variable(r, name, dependent) else {
                    continue;
                };
                let active = match v.slot {
                    RootSlot::Arg(k) => state.deriv_args[k],
                    RootSlot::Global(g) => global_active(g),
                    RootSlot::Result => state.result_active,
                };
                // A component the derivative type does not keep has no derivative.
                let kept = v
                    .path
                    .as_ref()
                    .is_none_or(|p| fields.keeps_path(&unit.symbols, p));
                check(name, what, active && kept);
            }
        }
    }
    out
}
