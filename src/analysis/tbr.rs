//! To-be-recorded analysis (seeds/000 §4.9, §5.2): the variables whose current value a
//! derivative instruction will read in the backward sweep, so that overwriting them in
//! the forward sweep must save them first.
//!
//! `TBR⁺(I) = (TBR⁻(I) ∪ use(I')) \ kill(I)` when `I` is present in the forward sweep,
//! `TBR⁻(I) ∪ use(I')` otherwise; `TBR` is empty on entry; union where flow merges. A
//! loop's increment kills its index without a save: the backward loop sets the index.

use super::access::Access;
use super::dataflow::{Problem, Solution, solve};
use crate::ir::flow::{NodeId, NodeKind};
use crate::ir::{FlowGraph, ZoneSet};

pub struct Tbr<'a, 'p> {
    pub flow: &'a FlowGraph<'p>,
    pub access: &'a [Access],
    pub uses: &'a [ZoneSet],
    pub present: &'a [bool],
    pub n_zones: usize,
}

impl Problem for Tbr<'_, '_> {
    type State = ZoneSet;
    fn forward(&self) -> bool {
        true
    }
    fn bottom(&self) -> ZoneSet {
        ZoneSet::repeat(false, self.n_zones)
    }
    fn boundary(&self) -> ZoneSet {
        self.bottom()
    }
    fn join(&self, into: &mut ZoneSet, from: &ZoneSet) -> bool {
        super::dataflow::union_into(into, from)
    }
    fn transfer(&self, node: NodeId, before: &ZoneSet) -> ZoneSet {
        let mut after = before.clone();
        after |= &self.uses[node];
        let kills = self.present[node] || matches!(self.flow.nodes[node], NodeKind::DoIncr(_));
        if kills {
            for (z, total) in &self.access[node].defs {
                if *total {
                    after.set(*z, false);
                }
            }
        }
        after
    }
}

pub fn tbr(
    flow: &FlowGraph,
    access: &[Access],
    uses: &[ZoneSet],
    present: &[bool],
    n_zones: usize,
) -> Solution<ZoneSet> {
    solve(
        flow,
        &Tbr {
            flow,
            access,
            uses,
            present,
            n_zones,
        },
    )
}
