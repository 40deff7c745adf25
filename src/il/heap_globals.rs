//! Module arrays allocated and freed by the procedures that compute with them: the
//! init / step / finalize layout of model codes, where an initialization routine
//! allocates the module's state, a time step may allocate and free a module work array,
//! and a finalization routine frees them (seeds/000 §7, dynamic memory).
//!
//! For each procedure: which module arrays its own statements allocate or free (ALLOCATE,
//! DEALLOCATE, or a CALL that allocates or frees the dummy a module array is passed to),
//! and what it does with the allocation of each module array, itself or through the
//! procedures it calls, at any depth ([`ArgumentAllocation`], as for a dummy: a caller
//! restores what the call changes before re-running it in the backward sweep,
//! `diff::heap`).

use super::lifetime::{ArgumentAllocation, heap_items};
use super::{Stmt, StmtKind, Unit, key, visit};
use std::collections::BTreeMap;

/// A module variable's identity: (module, name) keys.
pub type GlobalKey = (String, String);

/// Finds a procedure's unit by name.
type UnitOf<'f, 'u> = dyn Fn(&str) -> Option<&'u Unit> + 'f;

/// What each procedure followed so far does with module arrays; a procedure being
/// followed (a recursive call) counts as doing nothing.
pub type Memo = BTreeMap<String, Vec<(GlobalKey, ArgumentAllocation)>>;

/// The global key of `name` in `unit` when it is a module array (not a component).
fn module_array(unit: &Unit, name: &str) -> Option<GlobalKey> {
    if name.contains('%') {
        return None;
    }
    let sym = unit.symbols.get(name)?;
    (sym.is_module_variable() && sym.is_array())
        .then(|| sym.global.as_ref().map(|g| g.key()))
        .flatten()
}

/// The module arrays the statements of `unit` allocate or free themselves, as `unit`
/// names them, in order of first appearance.
pub fn direct(unit: &Unit, unit_of: &UnitOf<'_, '_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    visit::walk_stmts(&unit.body, &mut |s| {
        let (allocated, freed) = heap_items(s);
        let mut names: Vec<String> = allocated
            .iter()
            .chain(&freed)
            .filter_map(|e| e.base_name().map(str::to_string))
            .collect();
        names.extend(
            changed_through_dummies(s, unit_of)
                .into_iter()
                .map(|(n, _)| n),
        );
        for n in names {
            if module_array(unit, &n).is_some() && !out.iter().any(|o| key(o) == key(&n)) {
                out.push(n);
            }
        }
    });
    out
}

/// The actual arguments whose allocation the CALL `s` changes through its dummies.
fn changed_through_dummies(
    s: &Stmt,
    unit_of: &UnitOf<'_, '_>,
) -> Vec<(String, ArgumentAllocation)> {
    if !matches!(s.kind, StmtKind::Call { .. }) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (which, names) in [
        (
            ArgumentAllocation::Allocates,
            super::lifetime::allocated_by_call(s, unit_of),
        ),
        (
            ArgumentAllocation::Frees,
            super::lifetime::freed_by_call(s, unit_of),
        ),
        (
            ArgumentAllocation::Reallocates,
            super::lifetime::reallocated_by_call(s, unit_of),
        ),
    ] {
        out.extend(names.into_iter().map(|n| (n, which)));
    }
    out
}

/// What `unit` does with the allocation of each module array, itself or through the
/// procedures it calls (found by `unit_of`), each procedure followed once (`memo`).
pub fn global_allocations(
    unit: &Unit,
    unit_of: &UnitOf<'_, '_>,
    memo: &mut Memo,
) -> Vec<(GlobalKey, ArgumentAllocation)> {
    if let Some(known) = memo.get(&key(&unit.name)) {
        return known.clone();
    }
    memo.insert(key(&unit.name), Vec::new());
    // Per array: allocated, freed, and whether the first event frees it.
    let mut seen: Vec<(GlobalKey, bool, bool, bool)> = Vec::new();
    let mut note = |g: GlobalKey, frees: bool| match seen.iter_mut().find(|(o, ..)| *o == g) {
        Some(entry) => {
            entry.1 |= !frees;
            entry.2 |= frees;
        }
        None => seen.push((g, !frees, frees, frees)),
    };
    let mut stmts: Vec<&Stmt> = Vec::new();
    visit::walk_stmts(&unit.body, &mut |s| stmts.push(s));
    for s in stmts {
        let (allocated, freed) = heap_items(s);
        let tagged = allocated
            .into_iter()
            .map(|e| (e, false))
            .chain(freed.into_iter().map(|e| (e, true)));
        for (item, frees) in tagged {
            if let Some(g) = item.base_name().and_then(|n| module_array(unit, n)) {
                note(g, frees);
            }
        }
        for (name, what) in changed_through_dummies(s, unit_of) {
            if let Some(g) = module_array(unit, &name) {
                for &frees in what.events() {
                    note(g.clone(), frees);
                }
            }
        }
        if let StmtKind::Call { name, .. } = &s.kind
            && let Some(callee) = unit_of(name)
        {
            for (g, what) in global_allocations(callee, unit_of, memo) {
                for &frees in what.events() {
                    note(g.clone(), frees);
                }
            }
        }
    }
    let out: Vec<(GlobalKey, ArgumentAllocation)> = seen
        .into_iter()
        .map(|(g, allocated, freed, first_frees)| {
            (
                g,
                ArgumentAllocation::of_events(allocated, freed, first_frees),
            )
        })
        .collect();
    memo.insert(key(&unit.name), out.clone());
    out
}

/// The caller's names of the module arrays whose allocation the CALL `s` of `caller`
/// changes, with what it does to each (from the callee's recorded
/// `SymbolTable::global_allocations`), those it allocates and frees again included. A
/// module array the caller does not see goes by its module's name for it, which the
/// derivative code imports.
pub fn changed_by_call<'u>(
    caller: &Unit,
    s: &Stmt,
    unit_of: &UnitOf<'_, 'u>,
) -> Vec<(String, ArgumentAllocation)> {
    let StmtKind::Call { name, .. } = &s.kind else {
        return Vec::new();
    };
    let Some(callee) = unit_of(name) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (g, what) in callee.symbols.global_allocations() {
        let seen = caller.symbols.iter().find(|sym| {
            sym.is_module_variable() && sym.global.as_ref().is_some_and(|x| x.key() == *g)
        });
        out.push((
            seen.map_or_else(|| g.1.clone(), |sym| sym.name.clone()),
            what,
        ));
    }
    out
}
