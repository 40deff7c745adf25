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

use super::lifetime::{ArgumentAllocation, Events, heap_events};
use super::{Stmt, StmtKind, Unit, key, visit};
use std::collections::BTreeMap;

/// A module variable's identity: (module, name) keys.
pub type GlobalKey = (String, String);

/// Finds a procedure's unit by name.
type UnitOf<'f, 'u> = dyn Fn(&str) -> Option<&'u Unit> + 'f;

/// What each procedure followed so far does with module arrays; a procedure being
/// followed (a recursive call) counts as doing nothing.
pub type Memo = BTreeMap<String, Summary>;

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

/// What one procedure does with module arrays.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// What it does with the allocation of each, itself or through the procedures it
    /// calls.
    pub changes: Vec<(GlobalKey, ArgumentAllocation)>,
    /// Those its own statements allocate or free, as it names them, in order of first
    /// appearance.
    pub direct: Vec<String>,
}

/// What `unit` does with module arrays ([`Summary`]), following the procedures it calls
/// (found by `unit_of`), each procedure once (`memo`).
pub fn summary(unit: &Unit, unit_of: &UnitOf<'_, '_>, memo: &mut Memo) -> Summary {
    if let Some(known) = memo.get(&key(&unit.name)) {
        return known.clone();
    }
    memo.insert(key(&unit.name), Summary::default());
    let mut events = Events::new();
    let mut note = |g: GlobalKey, frees: bool| {
        let same = g.clone();
        events.note(g, frees, move |o: &GlobalKey| *o == same);
    };
    let mut direct: Vec<String> = Vec::new();
    let mut found = |name: &str| -> Option<GlobalKey> {
        let g = module_array(unit, name)?;
        if !direct.iter().any(|o| key(o) == key(name)) {
            direct.push(name.to_string());
        }
        Some(g)
    };
    let mut stmts: Vec<&Stmt> = Vec::new();
    visit::walk_stmts(&unit.body, &mut |s| stmts.push(s));
    for s in stmts {
        for (item, frees) in heap_events(s) {
            if let Some(g) = item.base_name().and_then(&mut found) {
                note(g, frees);
            }
        }
        let StmtKind::Call { name, .. } = &s.kind else {
            continue;
        };
        // Through the dummy an array is passed to (a callee that allocates and frees
        // its dummy is refused for dummies already).
        for (array, what) in super::lifetime::changed_by_call(s, unit_of) {
            if what == ArgumentAllocation::AllocatesThenFrees {
                continue;
            }
            if let Some(g) = found(&array) {
                for &frees in what.events() {
                    note(g.clone(), frees);
                }
            }
        }
        if let Some(callee) = unit_of(name) {
            for (g, what) in summary(callee, unit_of, memo).changes {
                for &frees in what.events() {
                    note(g.clone(), frees);
                }
            }
        }
    }
    let out = Summary {
        changes: events.changes(),
        direct,
    };
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
