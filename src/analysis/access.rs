//! Everything a flow node reads and writes, differentiable or not: the dependency
//! relation `Dep(I)` of seeds/000 §5.2 (the left-hand side depends on every variable of
//! the right-hand side, subscripts included) and `kill(I)`, for diff-liveness and TBR.

use super::effects::call_site;
use super::summary::Summary;
use crate::il::bind_actuals;
pub use crate::il::writes::{names_written, names_written_in, written_directly};
use crate::il::{Expr, ExprKind, StmtKind, visit};
use crate::ir::flow::NodeKind;
use crate::ir::{Ir, UnitIr, ZoneId, ZoneSet};
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Access {
    /// Zones written, and whether the write kills the whole zone.
    pub defs: Vec<(ZoneId, bool)>,
    /// Zones read (subscripts, conditions and bounds included).
    pub reads: ZoneSet,
}

/// The access of every node of a unit.
pub fn node_accesses(ir: &Ir, uir: &UnitIr, summaries: &[&Summary]) -> Vec<Access> {
    uir.flow
        .nodes
        .iter()
        .map(|kind| node_access(ir, uir, kind, summaries))
        .collect()
}

fn reads_into(e: &Expr, uir: &UnitIr, set: &mut ZoneSet) {
    for n in visit::names_read(e) {
        if let Some(z) = uir.zones.get(n) {
            set.set(z, true);
        }
    }
}

fn subscripts_into(e: &Expr, uir: &UnitIr, set: &mut ZoneSet) {
    if let ExprKind::Index(_, subs) = &e.kind {
        for s in subs {
            reads_into(s, uir, set);
        }
    }
}

fn node_access(ir: &Ir, uir: &UnitIr, kind: &NodeKind, summaries: &[&Summary]) -> Access {
    let mut reads = uir.zones.empty_set();
    let mut defs = Vec::new();
    match kind {
        NodeKind::Simple(stmt) => {
            if let Some(site) = call_site(stmt) {
                let known = ir.index_of(site.callee);
                let actuals: Vec<Option<&Expr>> = match known {
                    Some(c) => bind_actuals(ir.units[c].unit, site.args),
                    None => site.args.iter().map(|a| Some(&a.value)).collect(),
                };
                for (k, actual) in actuals.iter().enumerate() {
                    let Some(actual) = actual else { continue };
                    reads_into(actual, uir, &mut reads);
                    let writes = match known {
                        Some(c) => summaries[c].writes.get(k).is_some_and(|b| *b),
                        None => true,
                    };
                    if writes {
                        if let Some(z) = actual.base_name().and_then(|n| uir.zones.get(n)) {
                            defs.push((z, false));
                        }
                    }
                }
                // Globals (module and COMMON variables, seen here or not): the callee may
                // read any of them (its summary does not say which). It overwrites the
                // module variables its summary says, and the globals it or its callees
                // assign, pass as an argument or read into; a procedure adgen has no
                // source for, any of them.
                let written = known.map(|c| global_writes(ir, c));
                for (z, zone) in uir.zones.zones.iter().enumerate() {
                    if !zone.global {
                        continue;
                    }
                    reads.set(z, true);
                    let by_summary = known.is_some_and(|c| {
                        let first = ir.units[c].unit.args.len() + 1;
                        uir.zones
                            .globals
                            .iter()
                            .position(|&x| x == z)
                            .is_some_and(|g| summaries[c].writes.get(first + g).is_some_and(|b| *b))
                    });
                    let by_name = uir
                        .unit
                        .symbols
                        .get(&zone.name)
                        .and_then(|s| s.global.as_ref())
                        .is_some_and(|g| {
                            written.as_ref().is_none_or(|w| w.contains(&global_key(g)))
                        });
                    if (by_summary || by_name) && !defs.iter().any(|(d, _)| *d == z) {
                        defs.push((z, false));
                    }
                }
                if let Some(lhs) = site.result_lhs {
                    subscripts_into(lhs, uir, &mut reads);
                    if let Some(z) = lhs.base_name().and_then(|n| uir.zones.get(n)) {
                        defs.push((z, kills_whole(lhs) && !uir.zones.zones[z].shared));
                    }
                }
            } else if let StmtKind::Allocate(items) | StmtKind::Deallocate(items) = &stmt.kind {
                // ALLOCATE reads its bounds; both leave the array without values: a total
                // overwrite (a freed array whose values the backward sweep reads is saved),
                // or a partial one of a structure, for an ALLOCATABLE component (`f%h`).
                for item in items {
                    subscripts_into(item, uir, &mut reads);
                    if let Some(n) = item.base_name()
                        && let Some(z) = uir.zones.get(n)
                    {
                        defs.push((z, !uir.zones.zones[z].shared && !n.contains('%')));
                    }
                }
            } else if let StmtKind::Io {
                reads: values,
                writes,
                ..
            } = &stmt.kind
            {
                // Output items, unit and format expressions; a READ's items and the
                // variables its specifiers set are overwritten.
                for e in values {
                    reads_into(e, uir, &mut reads);
                }
                for w in writes {
                    subscripts_into(w, uir, &mut reads);
                    if let Some(z) = w.base_name().and_then(|n| uir.zones.get(n)) {
                        defs.push((z, kills_whole(w) && !uir.zones.zones[z].shared));
                    }
                }
            } else if let StmtKind::Assign { lhs, rhs } = &stmt.kind {
                reads_into(rhs, uir, &mut reads);
                subscripts_into(lhs, uir, &mut reads);
                if let Some(z) = lhs.base_name().and_then(|n| uir.zones.get(n)) {
                    defs.push((z, kills_whole(lhs) && !uir.zones.zones[z].shared));
                }
            }
        }
        NodeKind::Cond(stmt, arm) => {
            if let StmtKind::If { arms, .. } = &stmt.kind {
                reads_into(&arms[*arm].0, uir, &mut reads);
            }
        }
        NodeKind::WhileHead(stmt) => {
            if let StmtKind::DoWhile { cond, .. } = &stmt.kind {
                reads_into(cond, uir, &mut reads);
            }
        }
        NodeKind::DoInit(stmt) | NodeKind::DoIncr(stmt) | NodeKind::DoHead(stmt) => {
            if let StmtKind::Do {
                var,
                start,
                end,
                step,
                ..
            } = &stmt.kind
            {
                let v = uir.zones.get(var);
                match kind {
                    NodeKind::DoInit(_) => {
                        reads_into(start, uir, &mut reads);
                        reads_into(end, uir, &mut reads);
                        if let Some(s) = step {
                            reads_into(s, uir, &mut reads);
                        }
                        defs.extend(v.map(|z| (z, true)));
                    }
                    NodeKind::DoIncr(_) => {
                        if let Some(s) = step {
                            reads_into(s, uir, &mut reads);
                        }
                        if let Some(z) = v {
                            reads.set(z, true);
                            defs.push((z, true));
                        }
                    }
                    _ => {
                        if let Some(z) = v {
                            reads.set(z, true);
                        }
                    }
                }
            }
        }
        NodeKind::Entry | NodeKind::Exit => {}
    }
    Access { defs, reads }
}

/// A write to a whole variable kills its zone; an element or a component (`s%x`) does not.
fn kills_whole(lhs: &crate::il::Expr) -> bool {
    matches!(&lhs.kind, ExprKind::Var(n) if !n.contains('%'))
}

/// How globals are matched between units: a module variable by module and name, a
/// COMMON variable by its block alone (units may split a block differently).
pub fn global_key(g: &crate::il::GlobalRef) -> (String, String) {
    if g.module.starts_with('/') {
        (crate::il::key(&g.module), "*".to_string())
    } else {
        g.key()
    }
}

/// The globals (by [`global_key`]) that unit `u` or a unit it calls may overwrite:
/// assigned, used as a DO variable, passed as an actual argument, or read into.
/// Computed for the whole program at the first call, in time linear in its size.
pub fn global_writes<'i>(ir: &'i Ir, u: usize) -> &'i BTreeSet<(String, String)> {
    &ir.global_writes.get_or_init(|| {
        call_closure(ir, |u| {
            let unit = ir.units[u].unit;
            names_written(unit)
                .into_iter()
                .filter_map(|n| unit.symbols.get(n).and_then(|s| s.global.as_ref()))
                .map(global_key)
                .collect()
        })
    })[u]
}

/// For every unit, the union of `own` over the unit and every unit it calls, directly
/// or not: one pass over the call graph's components, callees first. A unit that adds
/// nothing to what its only callee gives shares that callee's set.
pub fn call_closure<T: Ord + Clone>(
    ir: &Ir,
    own: impl Fn(usize) -> BTreeSet<T>,
) -> Vec<Arc<BTreeSet<T>>> {
    let mut out: Vec<Option<Arc<BTreeSet<T>>>> = vec![None; ir.units.len()];
    for scc in ir.call_graph.bottom_up() {
        let mut set = BTreeSet::new();
        let mut from_callees: Vec<Arc<BTreeSet<T>>> = Vec::new();
        for &u in &scc {
            set.extend(own(u));
            for c in ir.call_graph.callees(u) {
                if let Some(s) = &out[c] {
                    if !s.is_empty() && !from_callees.iter().any(|f| Arc::ptr_eq(f, s)) {
                        from_callees.push(Arc::clone(s));
                    }
                }
            }
        }
        let shared = match (set.is_empty(), from_callees.as_slice()) {
            (true, [only]) => Arc::clone(only),
            _ => {
                for s in &from_callees {
                    set.extend(s.iter().cloned());
                }
                Arc::new(set)
            }
        };
        for &u in &scc {
            out[u] = Some(Arc::clone(&shared));
        }
    }
    out.into_iter().map(Option::unwrap_or_default).collect()
}
