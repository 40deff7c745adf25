//! Per-procedure summaries computed bottom-up on the call graph (seeds/000 §5.2): which
//! slots a procedure may overwrite, must overwrite and may read (its in-out sets, the
//! last two from `inout.rs`) and its diff-dependency `Diff-dep(P)`: for each output slot, the input slots it depends on in a
//! differentiable way. Slots are the dummy arguments in order, then the function result
//! (a slot with no zone for a subroutine), then the program's module variables in the
//! order of `Ir::globals`.

use bitvec::vec::BitVec;

use super::dataflow::{Problem, solve};
use super::effects::Def;
use crate::ir::flow::{ENTRY, EXIT, NodeId};
use crate::ir::{UnitIr, ZoneSet};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Slots the procedure may overwrite (may-out, in part or whole).
    pub writes: BitVec,
    /// Slots overwritten whole on every path to the exit (must-out; `inout.rs`).
    pub must_writes: BitVec,
    /// Slots whose value on entry may be read (`inout.rs`).
    pub reads: BitVec,
    /// Per dummy: the component paths it may overwrite (`""`: whole; `inout.rs`).
    pub written_parts: Vec<std::collections::BTreeSet<String>>,
    /// `diff_dep[k]`: the input slots that slot `k` depends on, differentiably, at exit.
    pub diff_dep: Vec<BitVec>,
}

impl Summary {
    /// The summary assumed for a procedure whose source adgen does not have: it may
    /// overwrite every argument with anything computed from all of them.
    pub fn unknown(n_slots: usize) -> Summary {
        Summary {
            writes: BitVec::repeat(true, n_slots),
            must_writes: BitVec::repeat(false, n_slots),
            reads: BitVec::repeat(true, n_slots),
            written_parts: vec![std::collections::BTreeSet::from([String::new()]); n_slots],
            diff_dep: vec![BitVec::repeat(true, n_slots); n_slots],
        }
    }
    /// The summary a black box's manifest entry gives (`request::BlackBox`): it may
    /// overwrite what `depends` lists, each from the inputs listed for it; it may read
    /// every argument; it leaves the program's globals alone.
    pub fn described(
        unit: &crate::il::Unit,
        n_slots: usize,
        b: &crate::request::BlackBox,
    ) -> Summary {
        let mut s = Summary::empty(n_slots);
        s.must_writes = BitVec::repeat(false, n_slots);
        let slot_of = |name: &str| named_slot(unit, name);
        for k in 0..unit.args.len() {
            s.reads.set(k, true);
        }
        for (out, ins) in &b.depends {
            let Some(k) = slot_of(out) else { continue };
            s.writes.set(k, true);
            s.written_parts[k].insert(String::new());
            let mut row = BitVec::repeat(false, n_slots);
            for i in ins.iter().filter_map(|i| slot_of(i)) {
                row.set(i, true);
            }
            s.diff_dep[k] = row;
        }
        if unit.is_function() {
            let r = unit.args.len();
            s.writes.set(r, true);
            s.must_writes.set(r, true);
            if b.result_depends().is_none() {
                s.diff_dep[r] = BitVec::repeat(false, n_slots);
            }
        }
        s
    }
    /// The optimistic start for procedures in a recursive cycle (must-out shrinks from
    /// everything, the other sets grow from nothing).
    pub fn empty(n_slots: usize) -> Summary {
        let mut diff_dep = vec![BitVec::repeat(false, n_slots); n_slots];
        for (k, row) in diff_dep.iter_mut().enumerate() {
            row.set(k, true);
        }
        Summary {
            writes: BitVec::repeat(false, n_slots),
            must_writes: BitVec::repeat(true, n_slots),
            reads: BitVec::repeat(false, n_slots),
            written_parts: vec![std::collections::BTreeSet::new(); n_slots],
            diff_dep,
        }
    }
    /// The summary of a procedure that never returns (every path ends in STOP): its
    /// caller goes on nowhere, so it overwrites and reads nothing its caller could see
    /// afterwards.
    pub fn never_returns(n_slots: usize) -> Summary {
        Summary {
            must_writes: BitVec::repeat(false, n_slots),
            ..Summary::empty(n_slots)
        }
    }
    pub fn n_slots(&self) -> usize {
        self.writes.len()
    }
}

/// The slot a black-box table names: a dummy, or a function's result by the function's
/// own name.
pub fn named_slot(unit: &crate::il::Unit, name: &str) -> Option<usize> {
    if unit.is_function() && name.eq_ignore_ascii_case(&unit.name) {
        return Some(unit.args.len());
    }
    unit.args.iter().position(|a| a.eq_ignore_ascii_case(name))
}

/// Number of slots of a unit: its dummies, the result, the program's globals.
pub fn n_slots(unit: &UnitIr) -> usize {
    unit.unit.args.len() + 1 + unit.zones.globals.len()
}

/// The slot of program global `g` (index into `Ir::globals`).
pub fn global_slot(unit: &UnitIr, g: usize) -> usize {
    unit.unit.args.len() + 1 + g
}

/// The zone of each slot of a unit.
pub fn slot_zones(unit: &UnitIr) -> Vec<Option<usize>> {
    let mut v: Vec<Option<usize>> = (0..unit.unit.args.len())
        .map(|i| unit.zones.of_arg(i))
        .collect();
    v.push(if unit.unit.is_function() {
        unit.zones.result()
    } else {
        None
    });
    v.extend(unit.zones.globals.iter().map(|&z| Some(z)));
    v
}

struct DiffDep<'a> {
    effects: &'a [Vec<Def>],
    n_zones: usize,
    n_slots: usize,
    slot_zones: &'a [Option<usize>],
}

impl DiffDep<'_> {
    /// The bits of zone `z`'s row: the input slots its value depends on.
    fn row(&self, z: usize) -> std::ops::Range<usize> {
        z * self.n_slots..(z + 1) * self.n_slots
    }
}

impl Problem for DiffDep<'_> {
    /// For each zone, the input slots its current value depends on: one bit matrix,
    /// zone-major, in one allocation (a vector of rows cost one allocation per zone per
    /// node visit, and long call sequences made thousands of zones).
    type State = BitVec;
    fn forward(&self) -> bool {
        true
    }
    fn bottom(&self) -> Self::State {
        BitVec::repeat(false, self.n_slots * self.n_zones)
    }
    fn boundary(&self) -> Self::State {
        let mut s = self.bottom();
        for (slot, z) in self.slot_zones.iter().enumerate() {
            if let Some(z) = z {
                s.set(z * self.n_slots + slot, true);
            }
        }
        s
    }
    fn join(&self, into: &mut Self::State, from: &Self::State) -> bool {
        super::dataflow::union_into(into, from)
    }
    fn transfer(&self, node: NodeId, input: &Self::State) -> Self::State {
        let mut out = input.clone();
        let mut row = BitVec::repeat(false, self.n_slots);
        for def in &self.effects[node] {
            if def.total {
                row.fill(false);
            } else {
                row.copy_from_bitslice(&input[self.row(def.zone)]);
            }
            for &u in &def.diff_sources {
                row |= &input[self.row(u)];
            }
            out[self.row(def.zone)].copy_from_bitslice(&row);
        }
        out
    }
}

/// Computes a unit's summary from the effects of its nodes and, from its in-out sets
/// (which already account for its callees' summaries), the slots it must write, the
/// slots it reads and the parts of each slot it writes.
pub fn summarize(
    unit: &UnitIr,
    effects: &[Vec<Def>],
    must_writes: &BitVec,
    reads: &BitVec,
    written_parts: &[std::collections::BTreeSet<String>],
) -> Summary {
    let slots = slot_zones(unit);
    let n = slots.len();
    let mut writes = BitVec::repeat(false, n);
    let mut written = unit.zones.empty_set();
    for defs in effects {
        for d in defs {
            written.set(d.zone, true);
        }
    }
    for (slot, z) in slots.iter().enumerate() {
        if z.is_some_and(|z| written[z]) {
            writes.set(slot, true);
        }
    }
    let problem = DiffDep {
        effects,
        n_zones: unit.zones.len(),
        n_slots: n,
        slot_zones: &slots,
    };
    let solution = solve(&unit.flow, &problem);
    let at_exit = &solution.before[EXIT];
    let reached = solution.after[ENTRY].len() == unit.zones.len() * n;
    let diff_dep = slots
        .iter()
        .map(|z| match z {
            Some(z) if reached => at_exit[problem.row(*z)].to_bitvec(),
            _ => BitVec::repeat(false, n),
        })
        .collect();
    Summary {
        writes,
        must_writes: must_writes.clone(),
        reads: reads.clone(),
        written_parts: written_parts.to_vec(),
        diff_dep,
    }
}

/// The set of zones of the given slots.
pub fn zones_of_slots(unit: &UnitIr, slots: &BitVec) -> ZoneSet {
    let mut set = unit.zones.empty_set();
    for (slot, z) in slot_zones(unit).into_iter().enumerate() {
        if let Some(z) = z {
            if slots[slot] {
                set.set(z, true);
            }
        }
    }
    set
}
