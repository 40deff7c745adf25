//! Activity analysis (seeds/000 §4.6, §5.2): `Varied` propagated forward from the
//! independents, `Useful` backward from the dependents, both through the elementary
//! diff-dependencies of each node (`Varied⁺ = Varied⁻ ⊗ Diff-dep(I)`,
//! `Useful⁻ = Diff-dep(I) ⊗ Useful⁺`); active = varied ∩ useful.

use super::dataflow::Problem;
use super::effects::Def;
use crate::ir::ZoneSet;
use crate::ir::flow::NodeId;

pub struct Varied<'a> {
    pub effects: &'a [Vec<Def>],
    pub entry: ZoneSet,
}

impl Problem for Varied<'_> {
    type State = ZoneSet;
    fn forward(&self) -> bool {
        true
    }
    fn bottom(&self) -> ZoneSet {
        ZoneSet::repeat(false, self.entry.len())
    }
    fn boundary(&self) -> ZoneSet {
        self.entry.clone()
    }
    fn join(&self, into: &mut ZoneSet, from: &ZoneSet) -> bool {
        super::dataflow::union_into(into, from)
    }
    fn transfer(&self, node: NodeId, input: &ZoneSet) -> ZoneSet {
        let mut out = input.clone();
        for def in &self.effects[node] {
            let kept = !def.total && input[def.zone];
            let reached = def.diff_sources.iter().any(|&u| input[u]);
            out.set(def.zone, kept || reached);
        }
        out
    }
}

pub struct Useful<'a> {
    pub effects: &'a [Vec<Def>],
    pub exit: ZoneSet,
}

impl Problem for Useful<'_> {
    type State = ZoneSet;
    fn forward(&self) -> bool {
        false
    }
    fn bottom(&self) -> ZoneSet {
        ZoneSet::repeat(false, self.exit.len())
    }
    fn boundary(&self) -> ZoneSet {
        self.exit.clone()
    }
    fn join(&self, into: &mut ZoneSet, from: &ZoneSet) -> bool {
        super::dataflow::union_into(into, from)
    }
    fn transfer(&self, node: NodeId, after: &ZoneSet) -> ZoneSet {
        let mut before = after.clone();
        let defs = &self.effects[node];
        for def in defs {
            if def.total && after[def.zone] {
                before.set(def.zone, false);
            }
        }
        for def in defs {
            if after[def.zone] {
                for &u in &def.diff_sources {
                    before.set(u, true);
                }
            }
        }
        before
    }
}
