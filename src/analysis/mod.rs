//! Data-flow analyses (seeds/000 §5.2) and what the differentiator reads from them.
//!
//! Order (DESIGN.md §4): effects and in-out sets of each node; summaries (may-write,
//! must-write, read, diff-dependency) bottom-up on the call graph, iterating recursive components to a fixed point; then
//! activity top-down, generalizing each procedure over the union of its calling contexts
//! (§4.5) until no context grows; then the derivative variables of each unit; last, the
//! warnings in-out analysis makes possible (`inout.rs`); and the fields of derived types
//! that can carry derivatives, over the whole program (`fields.rs`).

pub mod access;
pub mod activity;
pub mod dataflow;
pub mod diff_live;
pub mod effects;
pub mod fields;
mod first_call;
pub mod inout;
mod input;
mod refusals;
pub mod summary;
pub mod tbr;
pub(crate) use crate::il::storage::saved_locals;
use refusals::{active_globals, inactive_root_variables, rerun_state};

use bitvec::vec::BitVec;

use crate::il::Program;
use crate::il::bind_actuals;
use crate::ir::flow::{EXIT, NodeKind};
use crate::ir::{Ir, RootSlot, UnitIr, ZoneSet};
use crate::request::Request;
use dataflow::{Solution, solve};
use effects::{Def, call_site, diff_uses, lvalue_zone};
use summary::{Summary, global_slot, n_slots, slot_zones, summarize, zones_of_slots};

/// Everything the analyses found about one unit.
#[derive(Clone, Debug)]
pub struct UnitAnalysis {
    pub summary: Summary,
    /// Writes of each flow node.
    pub effects: Vec<Vec<Def>>,
    /// What each flow node may and must read and write (in-out analysis).
    pub inout: inout::InOut,
    /// Some root reaches this unit: activity was computed.
    pub has_context: bool,
    /// Calling context: slots varied on entry (union over call sites).
    pub varied_in: BitVec,
    /// Calling context: slots useful on exit (union over call sites).
    pub useful_out: BitVec,
    pub varied: Option<Solution<ZoneSet>>,
    pub useful: Option<Solution<ZoneSet>>,
    /// Dummies that get a derivative argument (indexed by argument position).
    pub deriv_args: BitVec,
    /// The function result is active at exit.
    pub result_active: bool,
    /// Zones that get derivative storage.
    pub deriv_zones: ZoneSet,
    /// The unit reads or writes a module variable whose derivative is needed: its
    /// derivative procedure updates the derivative module variable.
    pub global_active: bool,
}

impl UnitAnalysis {
    /// The unit gets derivative procedures.
    pub fn is_differentiated(&self) -> bool {
        self.deriv_args.any() || self.result_active || self.global_active
    }
}

#[derive(Clone, Debug, Default)]
pub struct Analyses {
    pub units: Vec<UnitAnalysis>,
    /// What the analyses found worth telling the user.
    pub warnings: Vec<crate::diag::Diagnostic>,
    /// What adgen cannot differentiate correctly yet (the run stops on them).
    pub errors: Vec<crate::diag::Diagnostic>,
    /// The fields of derived types that keep derivatives (`fields.rs`).
    pub fields: fields::ActiveFields,
    /// Per unit: it or a procedure it calls holds input (`input.rs`), so calls of it
    /// stay in the adjoint's forward sweep.
    pub reaches_input: Vec<bool>,
    /// The procedures (IL names) whose SAVEd locals are among `errors` (E0514, E0515):
    /// `prepare::saved_state::relocate` may give those locals a module of their own.
    pub saved_state: std::collections::BTreeSet<String>,
}

pub fn analyze(program: &Program, ir: &Ir, request: &Request) -> Analyses {
    let n = ir.units.len();
    // Summaries, callees first; a recursive component iterates until stable.
    let mut summaries: Vec<Option<Summary>> = vec![None; n];
    let mut effects: Vec<Vec<Vec<Def>>> = vec![Vec::new(); n];
    let mut inouts: Vec<Option<inout::InOut>> = vec![None; n];
    for scc in ir.call_graph.bottom_up() {
        for &u in &scc {
            summaries[u] = Some(Summary::empty(n_slots(&ir.units[u])));
        }
        loop {
            let mut changed = false;
            for &u in &scc {
                effects[u] = node_effects(ir, u, &summaries);
                inouts[u] = Some(inout::in_out(ir, &ir.units[u], &summaries));
                // A black box's summary is its manifest table, not its (empty) body's.
                if let Some(b) = request.black_box(&ir.units[u].unit.name) {
                    let unit = ir.units[u].unit;
                    summaries[u] = Some(Summary::described(unit, n_slots(&ir.units[u]), b));
                    continue;
                }
                if crate::il::visit::never_returns(&ir.units[u].unit.body) {
                    summaries[u] = Some(Summary::never_returns(n_slots(&ir.units[u])));
                    continue;
                }
                let io = inouts[u].as_ref().expect("just computed");
                let s = summarize(
                    &ir.units[u],
                    &effects[u],
                    &io.must_write_slots,
                    &io.read_slots,
                    &io.written_parts,
                );
                if summaries[u].as_ref() != Some(&s) {
                    summaries[u] = Some(s);
                    changed = true;
                }
            }
            if !changed || scc.len() == 1 && !ir.call_graph.callees(scc[0]).contains(&scc[0]) {
                break;
            }
        }
    }
    let mut units: Vec<UnitAnalysis> = (0..n)
        .map(|u| {
            let slots = n_slots(&ir.units[u]);
            UnitAnalysis {
                summary: summaries[u].take().expect("every unit is summarized"),
                effects: std::mem::take(&mut effects[u]),
                inout: inouts[u].take().expect("every unit has in-out sets"),
                has_context: false,
                varied_in: BitVec::repeat(false, slots),
                useful_out: BitVec::repeat(false, slots),
                varied: None,
                useful: None,
                deriv_args: BitVec::repeat(false, ir.units[u].unit.args.len()),
                result_active: false,
                deriv_zones: ir.units[u].zones.empty_set(),
                global_active: false,
            }
        })
        .collect();

    // Root contexts.
    for root in &request.roots {
        let Some(r) = ir.index_of(&root.name) else {
            continue;
        };
        let unit = ir.units[r].unit;
        units[r].has_context = true;
        // A component path (`s%u`) seeds its whole variable, the atom of the analyses;
        // `fields` keeps the component's derivative, and the generated root takes the
        // other components' derivatives as zero.
        for (dependent, names) in [(false, &root.independents), (true, &root.dependents)] {
            for name in names {
                let Some(v) = ir.root_variable(r, name, dependent) else {
                    continue;
                };
                let slot = match v.slot {
                    RootSlot::Arg(k) => k,
                    RootSlot::Global(g) => global_slot(&ir.units[r], g),
                    RootSlot::Result => unit.args.len(),
                };
                if dependent {
                    units[r].useful_out.set(slot, true);
                } else {
                    units[r].varied_in.set(slot, true);
                }
            }
        }
    }

    // Activity, top-down, until no calling context grows.
    let order = ir.call_graph.top_down();
    loop {
        let mut changed = false;
        for &u in &order {
            if !units[u].has_context {
                continue;
            }
            let uir = &ir.units[u];
            let varied = solve(
                &uir.flow,
                &activity::Varied {
                    effects: &units[u].effects,
                    entry: zones_of_slots(uir, &units[u].varied_in),
                },
            );
            let useful = solve(
                &uir.flow,
                &activity::Useful {
                    effects: &units[u].effects,
                    exit: zones_of_slots(uir, &units[u].useful_out),
                },
            );
            for (node, kind) in uir.flow.nodes.iter().enumerate() {
                let NodeKind::Simple(stmt) = kind else {
                    continue;
                };
                let Some(site) = call_site(stmt) else {
                    continue;
                };
                let Some(c) = ir.index_of(site.callee) else {
                    continue;
                };
                let callee = ir.units[c].unit;
                let actuals = bind_actuals(callee, site.args);
                let mut varied_in = units[c].varied_in.clone();
                let mut useful_out = units[c].useful_out.clone();
                for (slot, actual) in actuals.iter().enumerate() {
                    let Some(actual) = actual else { continue };
                    if diff_uses(actual, &uir.zones)
                        .iter()
                        .any(|&z| varied.before[node][z])
                    {
                        varied_in.set(slot, true);
                    }
                    if units[c].summary.writes[slot] {
                        if let Some((z, _)) = lvalue_zone(actual, &uir.zones) {
                            if useful.after[node][z] {
                                useful_out.set(slot, true);
                            }
                        }
                    }
                }
                if let Some(lhs) = site.result_lhs {
                    if let Some((z, _)) = lvalue_zone(lhs, &uir.zones) {
                        if useful.after[node][z] && callee.is_function() {
                            useful_out.set(callee.args.len(), true);
                        }
                    }
                }
                // Module variables: the caller's zone of each is the callee's slot.
                for (g, &z) in uir.zones.globals.iter().enumerate() {
                    let slot = global_slot(&ir.units[c], g);
                    if varied.before[node][z] {
                        varied_in.set(slot, true);
                    }
                    // Unlike a dummy's, a module variable's adjoint is not passed: the
                    // callee's adjoint must keep it when the caller needs it after.
                    if useful.after[node][z] {
                        useful_out.set(slot, true);
                    }
                }
                let callee_state = &mut units[c];
                if !callee_state.has_context
                    || callee_state.varied_in != varied_in
                    || callee_state.useful_out != useful_out
                {
                    callee_state.has_context = true;
                    callee_state.varied_in = varied_in;
                    callee_state.useful_out = useful_out;
                    changed = true;
                }
            }
            units[u].varied = Some(varied);
            units[u].useful = Some(useful);
        }
        if !changed {
            break;
        }
    }

    let mut saved_state = std::collections::BTreeSet::new();
    let mut errors = active_globals(ir, &units, &mut saved_state);

    // Globals varied somewhere in the program: the others never need a derivative.
    let mut ever_varied = bitvec::vec::BitVec::<usize>::repeat(false, ir.globals.len());
    for (u, state) in units.iter().enumerate() {
        let (Some(varied), true) = (&state.varied, state.has_context) else {
            continue;
        };
        let uir = &ir.units[u];
        for (g, &z) in uir.zones.globals.iter().enumerate() {
            if state.varied_in[global_slot(uir, g)]
                || varied.before.iter().chain(&varied.after).any(|set| set[z])
            {
                ever_varied.set(g, true);
            }
        }
    }
    // With activity analysis switched off, every real variable of every unit a root
    // reaches is varied and useful everywhere (the naive model of §4.6), except the
    // variables of COMMON blocks that no unit varies: with a derivative, the routines
    // that fill them on their first call only (a SAVEd flag) could not be rerun.
    // So are the procedures that reach input and have no active value: with
    // derivatives, the adjoint would run them (and read) again (`input.rs`).
    let reaches_input = input::reaches_input(ir);
    // And structures of a type that holds no real value: nothing to differentiate.
    if request.disabled.contains("activity") {
        let valueless = fields::valueless_types(program);
        for (u, state) in units.iter_mut().enumerate() {
            if state.has_context && !(reaches_input[u] && input::really_passive(state)) {
                let uir = &ir.units[u];
                let mut passive = uir.zones.empty_set();
                for (g, &z) in uir.zones.globals.iter().enumerate() {
                    if !ever_varied[g] && ir.globals[g].global.module.starts_with('/') {
                        passive.set(z, true);
                    }
                }
                for (z, zone) in uir.zones.zones.iter().enumerate() {
                    let ty = uir
                        .unit
                        .symbols
                        .get(&zone.name)
                        .and_then(|s| s.type_spec.type_name.as_deref());
                    if ty.is_some_and(|t| valueless.contains(&crate::il::key(t))) {
                        passive.set(z, true);
                    }
                }
                everything_active(uir, state, &passive);
            }
        }
    }
    // Derivative storage of each unit.
    for (u, state) in units.iter_mut().enumerate() {
        if !state.has_context {
            continue;
        }
        let name = &ir.units[u].unit.name;
        match request.black_box(name) {
            Some(b) => black_box_arguments(&ir.units[u], state, b),
            None => {
                let root = request.root(name).is_some();
                derivative_zones(&ir.units[u], state, &ever_varied, root)
            }
        }
    }
    // A variable passed where a callee expects a derivative needs derivative storage in
    // the caller, and a dummy of the caller that needs one becomes a derivative argument:
    // iterate to the fixed point (generalization, §4.5).
    loop {
        let mut changed = false;
        for u in 0..n {
            if !units[u].is_differentiated() {
                continue;
            }
            let uir = &ir.units[u];
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
                let actuals = bind_actuals(ir.units[c].unit, site.args);
                let deriv_args = units[c].deriv_args.clone();
                for (slot, actual) in actuals.iter().enumerate() {
                    let Some(actual) = actual else { continue };
                    if !deriv_args[slot] {
                        continue;
                    }
                    let Some(name) = actual.base_name() else {
                        continue;
                    };
                    let Some(z) = uir.zones.get(name) else {
                        continue;
                    };
                    if !uir.zones.zones[z].ty.is_differentiable() || units[u].deriv_zones[z] {
                        continue;
                    }
                    units[u].deriv_zones.set(z, true);
                    let zone = &uir.zones.zones[z];
                    for &k in zone.arg_index.iter().chain(&zone.aliased_args) {
                        if uir.zones.arg_differentiable(uir.unit, k) {
                            units[u].deriv_args.set(k, true);
                        }
                    }
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let (rerun_errors, rerun) = rerun_state(ir, &units, request, &reaches_input, &mut saved_state);
    errors.extend(rerun_errors);
    errors.extend(input::rerun_input(ir, &units, request, &rerun));
    let fields = fields::varied_fields(program, ir, &units, request);
    let mut warnings = inactive_root_variables(ir, &units, &fields, request);
    let summaries: Vec<Option<Summary>> = units.iter().map(|u| Some(u.summary.clone())).collect();
    for u in 0..n {
        warnings.extend(inout::diagnostics(ir, u, &units, &summaries, &mut errors));
    }
    Analyses {
        units,
        warnings,
        errors,
        fields,
        reaches_input,
        saved_state,
    }
}

/// Marks every real zone but the `passive` ones varied and useful at every node, and
/// their slots varied on entry and useful on exit.
fn everything_active(uir: &UnitIr, state: &mut UnitAnalysis, passive: &ZoneSet) {
    let mut reals = uir.zones.empty_set();
    for (z, zone) in uir.zones.zones.iter().enumerate() {
        if zone.ty.is_differentiable() && !passive[z] {
            reals.set(z, true);
        }
    }
    let all = Solution {
        before: vec![reals.clone(); uir.flow.len()],
        after: vec![reals.clone(); uir.flow.len()],
    };
    state.varied = Some(all.clone());
    state.useful = Some(all);
    for (slot, z) in slot_zones(uir).into_iter().enumerate() {
        if z.is_some_and(|z| reals[z]) {
            state.varied_in.set(slot, true);
            state.useful_out.set(slot, true);
        }
    }
}

/// The derivative arguments of a black box (`request::BlackBox`): none when no calling
/// context makes an output it lists depend on a varied input, else every real argument its
/// `depends` names (the user's derivatives have one fixed signature), and the result.
fn black_box_arguments(uir: &UnitIr, state: &mut UnitAnalysis, b: &crate::request::BlackBox) {
    let slot_of = |name: &str| summary::named_slot(uir.unit, name);
    let active = b.depends.iter().any(|(out, ins)| {
        slot_of(out).is_some_and(|k| state.useful_out[k])
            && ins
                .iter()
                .filter_map(|i| slot_of(i))
                .any(|i| state.varied_in[i])
    });
    if !active {
        return;
    }
    let slots = slot_zones(uir);
    for (k, differentiable) in b.differentiable().into_iter().enumerate() {
        let Some(z) = slots.get(k).copied().flatten() else {
            continue;
        };
        if differentiable && uir.zones.arg_differentiable(uir.unit, k) {
            state.deriv_args.set(k, true);
            state.deriv_zones.set(z, true);
        }
    }
    if let Some(rz) = uir.zones.result() {
        if b.result_depends().is_some() && uir.zones.zones[rz].ty.is_differentiable() {
            state.result_active = true;
            state.deriv_zones.set(rz, true);
        }
    }
}

/// Which zones of a unit get derivatives, which dummies get derivative arguments and
/// whether the result is active.
fn derivative_zones(uir: &UnitIr, state: &mut UnitAnalysis, ever_varied: &BitVec, root: bool) {
    let (Some(varied), Some(useful)) = (&state.varied, &state.useful) else {
        return;
    };
    let mut active = uir.zones.empty_set();
    for node in 0..uir.flow.len() {
        active |= varied.before[node].clone() & useful.before[node].clone();
        active |= varied.after[node].clone() & useful.after[node].clone();
    }
    let slots = slot_zones(uir);
    // A dummy the unit neither writes nor reads differentiably only passes its derivative
    // through: it needs no derivative argument (which would be unused).
    let mut touched = uir.zones.empty_set();
    for (node, defs) in state.effects.iter().enumerate() {
        for d in defs {
            touched.set(d.zone, true);
            if useful.after[node][d.zone] {
                for &u in &d.diff_sources {
                    touched.set(u, true);
                }
            }
        }
    }
    for (k, z) in slots.iter().enumerate().take(uir.unit.args.len()) {
        let Some(z) = *z else { continue };
        if !uir.zones.arg_differentiable(uir.unit, k) {
            continue;
        }
        if !touched[z] {
            active.set(z, false);
            continue;
        }
        // A dummy it overwrites while the caller needs the derivative after gets one
        // to reset, unless no actual is varied when it is called: the derivative of such
        // an actual is zero before the call and stays zero (so a set-up routine filling
        // the caller's work arrays stays passive, and the adjoint does not re-run it).
        // A root's dummies keep theirs: its user passes every dependent's derivative
        // (INTERFACE.md §3).
        let carried = state.varied_in[k] || root;
        if active[z] || (state.useful_out[k] && state.summary.writes[k] && carried) {
            state.deriv_args.set(k, true);
        }
    }
    if let Some(rz) = uir.zones.result() {
        let result_slot = uir.unit.args.len();
        state.result_active = state.useful_out.get(result_slot).is_some_and(|b| *b)
            && varied.before[EXIT][rz]
            && uir.zones.zones[rz].ty.is_differentiable();
        if state.result_active {
            active.set(rz, true);
        }
    }
    for (k, z) in slots.iter().enumerate().take(uir.unit.args.len()) {
        if let Some(z) = z {
            if state.deriv_args[k] {
                active.set(*z, true);
            }
        }
    }
    // A module variable the unit overwrites while its caller needs its derivative after
    // the call keeps a derivative here (to reset it), like a dummy; not one that no unit
    // ever varies (its derivative is zero everywhere, and nothing ever sets it).
    for (g, &z) in uir.zones.globals.iter().enumerate() {
        let slot = global_slot(uir, g);
        if state.useful_out[slot] && state.summary.writes[slot] && ever_varied[g] {
            active.set(z, true);
        }
    }
    // Only reals carry derivatives.
    for (z, zone) in uir.zones.zones.iter().enumerate() {
        if !zone.ty.is_differentiable() {
            active.set(z, false);
        }
    }
    state.global_active = uir.zones.globals.iter().any(|&z| active[z] && touched[z]);
    state.deriv_zones = active;
}

/// The writes of every flow node of unit `u`, given the current callee summaries.
fn node_effects(ir: &Ir, u: usize, summaries: &[Option<Summary>]) -> Vec<Vec<Def>> {
    let uir = &ir.units[u];
    uir.flow
        .nodes
        .iter()
        .map(|kind| match kind {
            NodeKind::Simple(stmt) => match call_site(stmt) {
                Some(site) => call_effects(ir, uir, &site, summaries),
                None => match &stmt.kind {
                    crate::il::StmtKind::Assign { lhs, rhs } => {
                        match lvalue_zone(lhs, &uir.zones) {
                            Some((zone, total)) => {
                                vec![Def {
                                    zone,
                                    total,
                                    diff_sources: diff_uses(rhs, &uir.zones),
                                }]
                            }
                            None => Vec::new(),
                        }
                    }
                    // A fresh or freed array depends on nothing; an ALLOCATABLE
                    // component (`f%h`) is part of its structure's zone.
                    crate::il::StmtKind::Allocate(items)
                    | crate::il::StmtKind::Deallocate(items) => items
                        .iter()
                        .filter_map(|e| {
                            let name = e.base_name()?;
                            Some((uir.zones.get(name)?, name.contains('%')))
                        })
                        .map(|(zone, component)| Def {
                            zone,
                            total: !uir.zones.zones[zone].shared && !component,
                            diff_sources: Vec::new(),
                        })
                        .collect(),
                    // What a READ (or an IOSTAT= specifier) sets is a value read: it
                    // depends on nothing differentiably.
                    crate::il::StmtKind::Io { writes, .. } => writes
                        .iter()
                        .filter_map(|w| lvalue_zone(w, &uir.zones))
                        .map(|(zone, total)| Def {
                            zone,
                            total,
                            diff_sources: Vec::new(),
                        })
                        .collect(),
                    _ => Vec::new(),
                },
            },
            NodeKind::DoInit(stmt) | NodeKind::DoIncr(stmt) => match &stmt.kind {
                crate::il::StmtKind::Do { var, .. } => uir
                    .zones
                    .get(var)
                    .map(|zone| {
                        vec![Def {
                            zone,
                            total: true,
                            diff_sources: Vec::new(),
                        }]
                    })
                    .unwrap_or_default(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        })
        .map(one_def_per_zone)
        .collect()
}

/// A node's writes with one definition per zone. A call may write several parts of one
/// zone (a work array passed as `work(1)` and `work(iq)`): the zone's definition is
/// total when one of them is, and depends on what each of them reads. (The analyses
/// apply a node's definitions one after the other: the last of several would win.)
fn one_def_per_zone(defs: Vec<Def>) -> Vec<Def> {
    let mut out: Vec<Def> = Vec::with_capacity(defs.len());
    for d in defs {
        match out.iter_mut().find(|o| o.zone == d.zone) {
            Some(o) => {
                o.total |= d.total;
                for u in d.diff_sources {
                    if !o.diff_sources.contains(&u) {
                        o.diff_sources.push(u);
                    }
                }
            }
            None => out.push(d),
        }
    }
    out
}

fn call_effects(
    ir: &Ir,
    uir: &UnitIr,
    site: &effects::CallSite,
    summaries: &[Option<Summary>],
) -> Vec<Def> {
    let known = ir
        .index_of(site.callee)
        .and_then(|c| Some((c, summaries[c].as_ref()?)));
    let (actuals, summary): (Vec<Option<&crate::il::Expr>>, Summary) = match known {
        Some((c, s)) => (bind_actuals(ir.units[c].unit, site.args), s.clone()),
        None => (
            site.args.iter().map(|a| Some(&a.value)).collect(),
            Summary::unknown(site.args.len() + 1),
        ),
    };
    // The callee's global slots follow its dummies and its result slot.
    let first_global = actuals.len() + 1;
    let global_slots = |j: usize| j.checked_sub(first_global).filter(|_| known.is_some());
    let sources_of = |slot: usize| -> Vec<usize> {
        let mut v = Vec::new();
        for (j, actual) in actuals.iter().enumerate() {
            if summary.diff_dep[slot].get(j).is_some_and(|b| *b) {
                if let Some(a) = actual {
                    v.extend(diff_uses(a, &uir.zones));
                }
            }
        }
        for (j, dep) in summary.diff_dep[slot].iter().enumerate() {
            if let Some(g) = global_slots(j).filter(|_| *dep) {
                if let Some(&z) = uir.zones.globals.get(g) {
                    v.push(z);
                }
            }
        }
        v.sort();
        v.dedup();
        v
    };
    let mut defs = Vec::new();
    for (slot, actual) in actuals.iter().enumerate() {
        let Some(actual) = actual else { continue };
        if !summary.writes[slot] {
            continue;
        }
        if let Some((zone, _)) = lvalue_zone(actual, &uir.zones) {
            defs.push(Def {
                zone,
                total: false,
                diff_sources: sources_of(slot),
            });
        }
    }
    // Module variables the callee may overwrite.
    if known.is_some() {
        for (g, &zone) in uir.zones.globals.iter().enumerate() {
            let slot = first_global + g;
            if summary.writes.get(slot).is_some_and(|b| *b) {
                defs.push(Def {
                    zone,
                    total: false,
                    diff_sources: sources_of(slot),
                });
            }
        }
    }
    if let Some(lhs) = site.result_lhs {
        if let Some((zone, total)) = lvalue_zone(lhs, &uir.zones) {
            let result_slot = actuals.len();
            let diff_sources = if result_slot < summary.n_slots() {
                sources_of(result_slot)
            } else {
                Vec::new()
            };
            defs.push(Def {
                zone,
                total,
                diff_sources,
            });
        }
    }
    defs
}
