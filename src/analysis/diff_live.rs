//! Diff-liveness (seeds/000 §4.9, §5.2): the variables whose value is needed, backwards
//! from the end, to compute derivatives.
//!
//! `Diff-live⁻(I) = use(I') ∪ (Dep(I) ⊗ Diff-live⁺(I))`, `Diff-live⁻(I∞) = ∅`, union at
//! control-flow splits; an instruction is present in the adjoint's forward sweep when
//! `out(I) ∩ Diff-live⁺(I) ≠ ∅` (`Diff-present`). Control: a test or loop is live when
//! something inside it is present or has a derivative, and a live control makes every
//! variable it reads diff-live.

use super::access::Access;
use super::dataflow::{Problem, Solution, solve};
use crate::ir::flow::NodeId;
use crate::ir::{FlowGraph, ZoneSet};

pub struct DiffLive<'a> {
    pub access: &'a [Access],
    /// `use(I')`: what each node's derivative instruction reads.
    pub uses: &'a [ZoneSet],
    /// Control nodes whose construct is live.
    pub live_control: &'a [bool],
    pub n_zones: usize,
    /// Diff-live at the exit: empty in the spec; the generator adds dummies that would
    /// otherwise disappear from the adjoint.
    pub at_exit: &'a ZoneSet,
}

impl Problem for DiffLive<'_> {
    type State = ZoneSet;
    fn forward(&self) -> bool {
        false
    }
    fn bottom(&self) -> ZoneSet {
        ZoneSet::repeat(false, self.n_zones)
    }
    fn boundary(&self) -> ZoneSet {
        self.at_exit.clone()
    }
    fn join(&self, into: &mut ZoneSet, from: &ZoneSet) -> bool {
        super::dataflow::union_into(into, from)
    }
    fn transfer(&self, node: NodeId, after: &ZoneSet) -> ZoneSet {
        let a = &self.access[node];
        let mut before = after.clone();
        let writes_live = a.defs.iter().any(|(z, _)| after[*z]);
        if writes_live || self.live_control[node] {
            for (z, total) in &a.defs {
                if *total {
                    before.set(*z, false);
                }
            }
            before |= &a.reads;
        }
        before |= &self.uses[node];
        before
    }
}

/// Diff-liveness of a unit: the solution, and which nodes are present.
pub fn diff_live(
    flow: &FlowGraph,
    access: &[Access],
    uses: &[ZoneSet],
    live_control: &[bool],
    n_zones: usize,
    at_exit: &ZoneSet,
) -> (Solution<ZoneSet>, Vec<bool>) {
    let problem = DiffLive {
        access,
        uses,
        live_control,
        n_zones,
        at_exit,
    };
    let solution = solve(flow, &problem);
    let present = (0..flow.len())
        .map(|n| access[n].defs.iter().any(|(z, _)| solution.after[n][*z]))
        .collect();
    (solution, present)
}
