//! Which variables a binomial loop's snapshots hold, and which values its re-runs read
//! (seeds/000 §5.4: a checkpoint's snapshot is what the checkpointed code reads and
//! what is overwritten before it is re-run; here the code is one step of the loop).
//!
//! - The state: the variables the loop's forward sweep writes whose value at the start
//!   of a step a step can read (upward-exposed in the body: read on some path before
//!   the body writes them whole), and those the backward sweep of the code before the
//!   loop reads (TBR⁻ at the loop): the snapshot of step 0 gives them back.
//! - The values read: those the loop reads and never writes, and other code of the
//!   procedure may (before or after the loop: a loop may be in a loop).
//!
//! A variable the loop writes that is in neither (a work array every step fills before
//! it reads it) is not saved: each step computes it again. The adjoint then does not
//! give it back (`Adj::unsaved`).

use super::super::*;
use crate::ir::{NodeKind, ZoneSet};

/// The flow nodes of each statement of a body.
#[derive(Default)]
struct Nodes {
    simple: BTreeMap<StmtId, usize>,
    cond: BTreeMap<(StmtId, usize), usize>,
    do_init: BTreeMap<StmtId, usize>,
    other: BTreeMap<StmtId, Vec<usize>>,
}

/// What the loop's snapshot holds and what its re-runs read, by name.
pub(in crate::diff::adjoint) struct State {
    pub(in crate::diff::adjoint) snapshot: Vec<String>,
    pub(in crate::diff::adjoint) inputs: Vec<String>,
    /// Written by the loop and in neither list.
    pub(in crate::diff::adjoint) recomputed: Vec<String>,
}

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    /// The state and inputs of the loop `s` (a DO loop), or why there are none that
    /// adgen can save.
    pub(in crate::diff::adjoint) fn binomial_state(&self, s: &Stmt) -> Result<State, String> {
        let StmtKind::Do { body, var, .. } = &s.kind else {
            return Err("it is not a counted DO loop".into());
        };
        let mut ids = BTreeSet::new();
        visit::walk_stmts(body, &mut |t| {
            ids.insert(t.id);
        });
        let accesses = crate::diff::plan::accesses(self.ug.ctx, self.ug.uir);
        let n_zones = self.ug.uir.zones.len();
        let mut written = ZoneSet::repeat(false, n_zones);
        let mut read = ZoneSet::repeat(false, n_zones);
        // Written outside the loop's body: before it, after it, by its own DO.
        let mut elsewhere = ZoneSet::repeat(false, n_zones);
        let mut nodes = Nodes::default();
        let mut loop_node = None;
        for (node, kind) in self.ug.uir.flow.nodes.iter().enumerate() {
            let stmt = match kind {
                NodeKind::Simple(t)
                | NodeKind::Cond(t, _)
                | NodeKind::DoInit(t)
                | NodeKind::DoHead(t)
                | NodeKind::DoIncr(t)
                | NodeKind::WhileHead(t) => t,
                _ => continue,
            };
            if matches!(kind, NodeKind::DoInit(t) if t.id == s.id) {
                loop_node = Some(node);
            }
            // What the forward sweep runs: present statements, kept constructs.
            let runs = match kind {
                NodeKind::Simple(_) => self.present(stmt),
                _ => self.live(stmt),
            };
            if !runs {
                continue;
            }
            if !ids.contains(&stmt.id) {
                for &(z, _) in &accesses[node].defs {
                    elsewhere.set(z, true);
                }
                continue;
            }
            match kind {
                NodeKind::Simple(t) => {
                    nodes.simple.insert(t.id, node);
                }
                NodeKind::Cond(t, arm) => {
                    nodes.cond.insert((t.id, *arm), node);
                }
                NodeKind::DoInit(t) => {
                    nodes.do_init.insert(t.id, node);
                }
                _ => nodes.other.entry(stmt.id).or_default().push(node),
            }
            for &(z, _) in &accesses[node].defs {
                written.set(z, true);
            }
            read |= &accesses[node].reads;
        }
        let mut exposed = ZoneSet::repeat(false, n_zones);
        let mut killed = ZoneSet::repeat(false, n_zones);
        exposed_reads(body, &nodes, &accesses, &mut killed, &mut exposed);
        let mut state = State {
            snapshot: Vec::new(),
            inputs: Vec::new(),
            recomputed: Vec::new(),
        };
        for (z, zone) in self.ug.uir.zones.zones.iter().enumerate() {
            let (w, r) = (written[z], read[z]);
            if !w && !r {
                continue;
            }
            let needed_before = loop_node.is_none_or(|n| self.plan.tbr_before[n][z]);
            // Only what other code may overwrite before the backward sweep re-runs the
            // loop needs saving among what it reads (the DO variable is set by each
            // re-run); among what it writes, what a step may read before writing it.
            let list = if !w {
                if !elsewhere[z] || key(&zone.name) == key(var) {
                    continue;
                }
                &mut state.inputs
            } else if exposed[z] || needed_before || self.plan.keep_all {
                &mut state.snapshot
            } else {
                state.recomputed.push(zone.name.clone());
                continue;
            };
            if zone.hidden {
                return Err(format!(
                    "the loop's callees use a module variable this procedure does not see (`{}`)",
                    zone.name
                ));
            }
            if self.ug.unit.is_optional(&zone.name) {
                return Err(format!("the loop uses the optional dummy `{}`", zone.name));
            }
            list.push(zone.name.clone());
        }
        Ok(state)
    }
}

/// Adds to `exposed` the zones `block` may read before writing them whole, given those
/// `killed` (written whole on every path) before it; leaves in `killed` those written
/// whole after it.
fn exposed_reads(
    block: &[Stmt],
    nodes: &Nodes,
    accesses: &[crate::analysis::access::Access],
    killed: &mut ZoneSet,
    exposed: &mut ZoneSet,
) {
    let read = |node: usize, killed: &ZoneSet, exposed: &mut ZoneSet| {
        let mut r = accesses[node].reads.clone();
        r &= &!killed.clone();
        *exposed |= &r;
    };
    for s in block {
        match &s.kind {
            StmtKind::If {
                arms, else_body, ..
            } => {
                // The tests run one after the other; each arm starts where its test did.
                let mut at_test = killed.clone();
                let mut after: Option<ZoneSet> = None;
                let meet = |k: ZoneSet, after: &mut Option<ZoneSet>| {
                    *after = Some(match after.take() {
                        None => k,
                        Some(mut a) => {
                            a &= &k;
                            a
                        }
                    });
                };
                for (i, (_, body)) in arms.iter().enumerate() {
                    if let Some(&n) = nodes.cond.get(&(s.id, i)) {
                        read(n, &at_test, exposed);
                    }
                    let mut k = at_test.clone();
                    exposed_reads(body, nodes, accesses, &mut k, exposed);
                    meet(k, &mut after);
                }
                let mut k = at_test.clone();
                if let Some(e) = else_body {
                    exposed_reads(e, nodes, accesses, &mut k, exposed);
                }
                meet(k, &mut after);
                at_test = after.unwrap_or(at_test);
                *killed = at_test;
            }
            StmtKind::Do { body, .. } => {
                let mut k = killed.clone();
                if let Some(&n) = nodes.do_init.get(&s.id) {
                    read(n, killed, exposed);
                    for &(z, _) in &accesses[n].defs {
                        k.set(z, true);
                    }
                }
                // The body may run no time: only the DO variable is set after it.
                let after = k.clone();
                exposed_reads(body, nodes, accesses, &mut k, exposed);
                for &n in nodes.other.get(&s.id).map(Vec::as_slice).unwrap_or(&[]) {
                    read(n, &after, exposed);
                }
                *killed = after;
            }
            _ => {
                if let Some(&n) = nodes.simple.get(&s.id) {
                    read(n, killed, exposed);
                    for &(z, whole) in &accesses[n].defs {
                        if whole {
                            killed.set(z, true);
                        }
                    }
                } else {
                    // Any other construct: what it reads is exposed, it kills nothing.
                    for inner in visit::child_blocks(s) {
                        let mut k = killed.clone();
                        exposed_reads(inner, nodes, accesses, &mut k, exposed);
                    }
                    for &n in nodes.other.get(&s.id).map(Vec::as_slice).unwrap_or(&[]) {
                        read(n, killed, exposed);
                    }
                }
            }
        }
    }
}
