//! What the adjoint's forward sweep keeps and saves (seeds/000 §4.9, §5.4): the decisions
//! of diff-liveness (which statements, tests and loops the forward sweep needs) and of
//! TBR (which overwritten values it saves), for one unit.
//!
//! `use(I')` of each statement comes from generating its derivative instruction once;
//! the analyses themselves live in [`crate::analysis::diff_live`] and
//! [`crate::analysis::tbr`]. Each optimization can be switched off
//! (`disable = ["diff-liveness", "tbr", "snapshot"]`): then everything is kept, every
//! overwritten value saved, every variable a callee overwrites saved.

use std::collections::BTreeSet;

use crate::analysis::access::{Access, node_accesses};
use crate::analysis::{diff_live, tbr};
use crate::il::{Stmt, StmtId, StmtKind, visit};
use crate::ir::flow::NodeKind;
use crate::ir::{UnitIr, ZoneSet};

#[derive(Clone, Debug)]
pub struct Plan {
    /// Per node: the statement runs in the forward sweep.
    pub present: Vec<bool>,
    /// IFs and loops the forward sweep keeps.
    pub live_constructs: BTreeSet<StmtId>,
    /// Per node: zones whose value is saved before the node overwrites them
    /// (for calls: the snapshot `out(C) ∩ (TBR⁻(C) ∪ use(C'))`).
    pub save: Vec<ZoneSet>,
    /// Per node: zones whose value before the node the rest of the backward sweep reads
    /// (`TBR⁻`), for the copy kept across a callee's adjoint.
    pub tbr_before: Vec<ZoneSet>,
    /// Loops whose index is saved before the loop.
    pub save_index: BTreeSet<StmtId>,
    /// Everything saved, nothing sliced (all optimizations off).
    pub keep_all: bool,
    /// Per node: `Diff-live⁺`, for `explain`.
    pub diff_live_after: Vec<ZoneSet>,
}

/// What the generator found when writing each node's derivative instruction alone.
pub struct NodeAdjoints {
    /// `use(I')` per node.
    pub uses: Vec<ZoneSet>,
    /// The node has a derivative instruction.
    pub has_adjoint: Vec<bool>,
}

pub struct Switches {
    pub diff_liveness: bool,
    pub tbr: bool,
    pub snapshot: bool,
    /// Per node: the statement runs in the forward sweep whatever it writes (a call that
    /// reaches input, which must run once as in the primal).
    pub kept: Vec<bool>,
}

pub fn plan(
    uir: &UnitIr,
    accesses: &[Access],
    adjoints: &NodeAdjoints,
    switches: &Switches,
    live_at_exit: &ZoneSet,
) -> Plan {
    let n = uir.flow.len();
    let n_zones = uir.zones.len();
    let constructs = Constructs::of(&uir.unit.body, uir);
    // STOP (and the error messages kept before it) and READ run in the forward sweep
    // wherever the primal would run them: present, with what they and their tests read
    // live.
    let stops: Vec<bool> = uir
        .flow
        .nodes
        .iter()
        .map(|k| matches!(k, NodeKind::Simple(s) if matches!(s.kind, StmtKind::Io { .. })))
        .collect();
    // So do calls that reach a READ; what they read is live as for a kept construct's
    // test (not a use of an adjoint: a passive call has none, and nothing is saved for
    // it).
    let kept = |node: usize| switches.kept.get(node).is_some_and(|k| *k);
    // Copied only when a STOP adds to them (the copy is one set per node).
    let mut uses = std::borrow::Cow::Borrowed(&adjoints.uses[..]);
    for (node, _) in stops.iter().enumerate().filter(|(_, s)| **s) {
        uses.to_mut()[node] |= &accesses[node].reads;
    }
    let uses = &*uses;
    let mut live_control: Vec<bool> = (0..n).map(|i| !switches.diff_liveness || kept(i)).collect();
    let mut live_constructs = BTreeSet::new();
    let mut present;
    let mut diff_live_after;
    loop {
        let (solution, p) = diff_live::diff_live(
            &uir.flow,
            accesses,
            uses,
            &live_control,
            n_zones,
            live_at_exit,
        );
        present = p;
        for (node, _) in stops.iter().enumerate().filter(|(_, s)| **s) {
            present[node] = true;
        }
        for node in (0..n).filter(|&i| kept(i)) {
            present[node] = true;
        }
        diff_live_after = solution.after;
        if !switches.diff_liveness {
            present = vec![true; n];
        }
        let live = constructs.live(
            &present,
            &adjoints.has_adjoint,
            &uir.flow.control_of,
            !switches.diff_liveness,
        );
        let mut control: Vec<bool> = (0..n).map(kept).collect();
        for id in &live {
            for &node in uir
                .flow
                .control_of
                .get(id)
                .map(Vec::as_slice)
                .unwrap_or(&[])
            {
                control[node] = true;
            }
        }
        if !switches.diff_liveness {
            control = vec![true; n];
        }
        let stable = control == live_control && live == live_constructs;
        live_control = control;
        live_constructs = live;
        if stable {
            break;
        }
    }
    // Loop and test nodes run when their construct is kept.
    for (node, kind) in uir.flow.nodes.iter().enumerate() {
        if let NodeKind::Cond(s, _)
        | NodeKind::DoInit(s)
        | NodeKind::DoHead(s)
        | NodeKind::DoIncr(s)
        | NodeKind::WhileHead(s) = kind
        {
            present[node] = live_constructs.contains(&s.id);
        }
        // ALLOCATE and DEALLOCATE always run: the array must exist where it is used.
        if let NodeKind::Simple(s) = kind
            && matches!(s.kind, StmtKind::Allocate(_) | StmtKind::Deallocate(_))
        {
            present[node] = true;
        }
    }
    let tbr = tbr::tbr(&uir.flow, accesses, uses, &present, n_zones);
    let mut save = vec![ZoneSet::repeat(false, n_zones); n];
    let mut save_index = BTreeSet::new();
    for (node, kind) in uir.flow.nodes.iter().enumerate() {
        if !present[node] {
            continue;
        }
        let mut wanted = tbr.before[node].clone();
        wanted |= &uses[node];
        let is_call = matches!(kind, NodeKind::Simple(s) if matches!(s.kind, StmtKind::Call { .. }) || is_call_assign(s));
        for (z, _) in &accesses[node].defs {
            let keep = !switches.tbr || wanted[*z] || (is_call && !switches.snapshot);
            if keep {
                save[node].set(*z, true);
            }
        }
        if let NodeKind::DoInit(s) = kind {
            if save[node].any() {
                save_index.insert(s.id);
            }
        }
    }
    let mut tbr_before = tbr.before;
    if !switches.tbr || !switches.snapshot {
        tbr_before = vec![ZoneSet::repeat(true, n_zones); n];
    }
    Plan {
        present,
        live_constructs,
        save,
        tbr_before,
        save_index,
        keep_all: !switches.diff_liveness && !switches.tbr && !switches.snapshot,
        diff_live_after,
    }
}

fn is_call_assign(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Assign { rhs, .. } if matches!(rhs.kind, crate::il::ExprKind::Call(..)))
}

/// The IFs and loops of a unit, with the nodes and jumps inside each.
struct Constructs {
    /// (construct, simple nodes inside it, inner constructs, targets of jumps inside it:
    /// `None` for RETURN, the loop otherwise).
    items: Vec<ConstructItem>,
}

/// A construct, the simple nodes in it, its inner constructs, its jumps' targets.
type ConstructItem = (StmtId, Vec<usize>, Vec<StmtId>, Vec<Option<StmtId>>);

impl Constructs {
    fn of(body: &[Stmt], uir: &UnitIr) -> Constructs {
        let mut items = Vec::new();
        let mut loops: Vec<(StmtId, Option<String>)> = Vec::new();
        collect(body, uir, &mut items, &mut loops);
        Constructs { items }
    }

    /// Constructs to keep: those with something present or differentiated inside, or
    /// with a jump to a kept loop or out of the procedure, and loops whose index is
    /// needed after them (a search loop `do m = l, n; if (...) exit; end do` computes
    /// only `m`). Iterated to a fixed point.
    fn live(
        &self,
        present: &[bool],
        has_adjoint: &[bool],
        control_of: &std::collections::BTreeMap<StmtId, Vec<usize>>,
        all: bool,
    ) -> BTreeSet<StmtId> {
        let mut live = BTreeSet::new();
        loop {
            let mut changed = false;
            for (id, nodes, inner, jumps) in &self.items {
                if live.contains(id) {
                    continue;
                }
                let keep = all
                    || nodes.iter().any(|&n| present[n] || has_adjoint[n])
                    || control_of
                        .get(id)
                        .is_some_and(|own| own.iter().any(|&n| present[n]))
                    || inner.iter().any(|i| live.contains(i))
                    || jumps.iter().any(|t| t.is_none_or(|l| live.contains(&l)));
                if keep {
                    live.insert(*id);
                    changed = true;
                }
            }
            if !changed {
                return live;
            }
        }
    }
}

/// Walks a block: returns the simple nodes, constructs and jump targets found in it, and
/// records each construct with what it contains.
fn collect(
    block: &[Stmt],
    uir: &UnitIr,
    items: &mut Vec<ConstructItem>,
    loops: &mut Vec<(StmtId, Option<String>)>,
) -> (Vec<usize>, Vec<StmtId>, Vec<Option<StmtId>>) {
    let mut nodes = Vec::new();
    let mut constructs = Vec::new();
    let mut jumps = Vec::new();
    for s in block {
        if let Some(&n) = uir.flow.node_of.get(&s.id) {
            nodes.push(n);
        }
        match &s.kind {
            StmtKind::If { .. } | StmtKind::Do { .. } | StmtKind::DoWhile { .. } => {
                let is_loop = !matches!(s.kind, StmtKind::If { .. });
                if is_loop {
                    let name = match &s.kind {
                        StmtKind::Do { name, .. } | StmtKind::DoWhile { name, .. } => name.clone(),
                        _ => None,
                    };
                    loops.push((s.id, name));
                }
                let mut inner_nodes = Vec::new();
                let mut inner_constructs = Vec::new();
                let mut inner_jumps = Vec::new();
                for child in visit::child_blocks(s) {
                    let (n, c, j) = collect(child, uir, items, loops);
                    inner_nodes.extend(n);
                    inner_constructs.extend(c);
                    inner_jumps.extend(j);
                }
                if is_loop {
                    loops.pop();
                    // Jumps to this loop stay inside it.
                    inner_jumps.retain(|t| *t != Some(s.id));
                }
                items.push((
                    s.id,
                    inner_nodes.clone(),
                    inner_constructs.clone(),
                    inner_jumps.clone(),
                ));
                nodes.extend(inner_nodes);
                constructs.push(s.id);
                constructs.extend(inner_constructs);
                jumps.extend(inner_jumps);
            }
            StmtKind::Return => jumps.push(None),
            StmtKind::Exit { name } | StmtKind::Cycle { name } => {
                let target = match name {
                    None => loops.last().map(|l| l.0),
                    Some(n) => loops
                        .iter()
                        .rev()
                        .find(|(_, ln)| ln.as_deref().is_some_and(|l| l.eq_ignore_ascii_case(n)))
                        .map(|l| l.0),
                };
                if let Some(t) = target {
                    jumps.push(Some(t));
                }
            }
            StmtKind::Goto { .. } => jumps.push(None),
            _ => {}
        }
    }
    (nodes, constructs, jumps)
}

/// The accesses of a unit's nodes, from the program's summaries.
pub fn accesses(ctx: &super::Ctx, uir: &UnitIr) -> Vec<Access> {
    let summaries: Vec<&crate::analysis::summary::Summary> =
        ctx.analyses.units.iter().map(|u| &u.summary).collect();
    node_accesses(ctx.ir, uir, &summaries)
}
