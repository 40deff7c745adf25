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
use crate::ir::{NodeKind, ZoneId, ZoneSet};

/// The flow nodes of each statement of a body.
#[derive(Default)]
struct Nodes {
    simple: BTreeMap<StmtId, usize>,
    cond: BTreeMap<(StmtId, usize), usize>,
    do_init: BTreeMap<StmtId, usize>,
    other: BTreeMap<StmtId, Vec<usize>>,
    /// Whole variables a call passes to INTENT(OUT) dummies, by node: the callee
    /// defines them before it reads them (Fortran says their values are undefined on
    /// entry), so the call writes them whole.
    out_actuals: BTreeMap<usize, Vec<ZoneId>>,
    /// Arrays a DO nest fills whole, element by element (`a(:) = ...` as scalarized),
    /// by the nest's outer loop.
    fills: BTreeMap<StmtId, Vec<ZoneId>>,
}

/// What the loop's snapshot holds and what its re-runs read, by name.
pub(in crate::diff::adjoint) struct State {
    pub(in crate::diff::adjoint) snapshot: Vec<String>,
    pub(in crate::diff::adjoint) inputs: Vec<String>,
    /// Written by the loop and in neither list.
    pub(in crate::diff::adjoint) recomputed: Vec<String>,
    /// The snapshot's variables the backward sweep before the loop reads: given back
    /// whole.
    pub(in crate::diff::adjoint) needed_before: BTreeSet<String>,
}

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    /// The state and inputs of the loop `s` (a DO loop), or why there are none that
    /// adgen can save.
    pub(in crate::diff::adjoint) fn binomial_state(&self, s: &Stmt) -> Result<State, String> {
        match &s.kind {
            StmtKind::Do { body, var, .. } => self.checkpoint_state(body, Some(var), Some(s.id)),
            StmtKind::DoWhile { body, .. } => self.checkpoint_state(body, None, Some(s.id)),
            _ => Err("it is not a loop".into()),
        }
    }

    /// The state and inputs of code `body` that is re-run from a snapshot: a loop's body
    /// (`var` its DO variable, `entry` the loop, whose entry tells what the backward
    /// sweep before it reads), or a region (no entry: everything it writes is saved).
    pub(in crate::diff::adjoint) fn checkpoint_state(
        &self,
        body: &[Stmt],
        var: Option<&String>,
        entry: Option<StmtId>,
    ) -> Result<State, String> {
        let mut ids = BTreeSet::new();
        visit::walk_stmts(body, &mut |t| {
            ids.insert(t.id);
        });
        let accesses = self
            .accesses
            .get_or_init(|| crate::diff::plan::accesses(self.ug.ctx, self.ug.uir));
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
            if matches!(kind, NodeKind::DoInit(t) | NodeKind::WhileHead(t) if Some(t.id) == entry) {
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
                    let outs = self.intent_out_actuals(t);
                    if !outs.is_empty() {
                        nodes.out_actuals.insert(node, outs);
                    }
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
        visit::walk_stmts(body, &mut |t| {
            let filled: Vec<ZoneId> = self
                .filled_whole(t)
                .iter()
                .filter_map(|n| self.ug.uir.zones.get(n))
                .filter(|&z| !self.ug.uir.zones.zones[z].shared)
                .collect();
            if !filled.is_empty() {
                nodes.fills.insert(t.id, filled);
            }
        });
        let mut exposed = ZoneSet::repeat(false, n_zones);
        let mut killed = ZoneSet::repeat(false, n_zones);
        exposed_reads(body, &nodes, accesses, &mut killed, &mut exposed);
        let mut state = State {
            snapshot: Vec::new(),
            inputs: Vec::new(),
            recomputed: Vec::new(),
            needed_before: BTreeSet::new(),
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
                if !elsewhere[z] || var.is_some_and(|v| key(&zone.name) == key(v)) {
                    continue;
                }
                &mut state.inputs
            } else if exposed[z] || needed_before || self.plan.keep_all {
                &mut state.snapshot
            } else {
                state.recomputed.push(zone.name.clone());
                continue;
            };
            // A module variable only the loop's callees see is saved under its
            // module's name (`use m, only: u` in the derivative), unless this procedure
            // has an entity of that name or it is in COMMON.
            if zone.hidden {
                let in_common = self
                    .ug
                    .uir
                    .zones
                    .globals
                    .iter()
                    .position(|&x| x == z)
                    .is_none_or(|g| self.ug.ctx.ir.globals[g].global.module.starts_with('/'));
                if in_common || self.ug.unit.symbols.get(&zone.name).is_some() {
                    return Err(format!(
                        "the loop's callees use a variable this procedure cannot name (`{}`)",
                        zone.name
                    ));
                }
            }
            if self.ug.unit.is_optional(&zone.name) {
                return Err(format!("the loop uses the optional dummy `{}`", zone.name));
            }
            if needed_before || self.plan.keep_all {
                state.needed_before.insert(zone.name.clone());
            }
            list.push(zone.name.clone());
        }
        Ok(state)
    }

    /// The arrays the DO nest `t` assigns every element of: the innermost loop's
    /// unconditional assignments `a(i, j) = ...` whose subscripts are the nest's
    /// variables, dimension by dimension, each loop running over its dimension's
    /// declared bounds with step 1.
    fn filled_whole(&self, t: &Stmt) -> Vec<String> {
        self.nest_fills(t, None)
    }

    /// The arrays the DO nest `t` assigns every element of (`slice` none), or every
    /// element of the slice whose last subscript is `var + w` (`slice` `(var, w)`: the
    /// nest runs over the other dimensions).
    pub(in crate::diff::adjoint) fn nest_fills(
        &self,
        t: &Stmt,
        slice: Option<(&str, i64)>,
    ) -> Vec<String> {
        // The nest: loops each the only statement (comments aside) of the one outside.
        let mut loops: Vec<(&str, &Expr, &Expr)> = Vec::new();
        let mut at = t;
        let innermost = loop {
            let StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } = &at.kind
            else {
                return Vec::new();
            };
            if step
                .as_deref()
                .is_some_and(|e| !matches!(&e.kind, ExprKind::Int(v) if v == "1"))
            {
                return Vec::new();
            }
            loops.push((var, start, end));
            let mut code = body
                .iter()
                .filter(|b| !matches!(b.kind, StmtKind::Comment(_)));
            match (code.next(), code.next()) {
                (Some(only), None) if matches!(only.kind, StmtKind::Do { .. }) => at = only,
                _ => break body,
            }
        };
        let covers = |name: &str, subs: &[Expr]| -> bool {
            let Some(sym) = self.ug.unit.symbols.get(name) else {
                return false;
            };
            let (dims, subs) = match slice {
                None => (&sym.dims[..], subs),
                Some((var, w)) => match subs.split_last() {
                    Some((last, rest)) if super::window::step_offset(last, var) == Some(w) => {
                        (&sym.dims[..sym.dims.len().saturating_sub(1)], rest)
                    }
                    _ => return false,
                },
            };
            if dims.len() != subs.len() || subs.len() != loops.len() || sym.dims.is_empty() {
                return false;
            }
            // Subscript d is the variable of the loop that runs over dimension d.
            dims.iter().zip(subs).all(|(dim, sub)| {
                let ExprKind::Var(v) = &sub.kind else {
                    return false;
                };
                let Some(&(_, start, end)) = loops.iter().find(|l| key(l.0) == key(v)) else {
                    return false;
                };
                let lower = dim.lower.clone().unwrap_or_else(|| Expr::int(1));
                let Bound::Expr(upper) = &dim.upper else {
                    return false;
                };
                visit::expr_key(start) == visit::expr_key(&lower)
                    && visit::expr_key(end) == visit::expr_key(upper)
            })
        };
        // An element an early exit skips is not assigned.
        let mut jumps = false;
        visit::walk_stmts(innermost, &mut |b| jumps |= b.kind.is_jump());
        if jumps {
            return Vec::new();
        }
        let mut out = Vec::new();
        for b in innermost {
            if let StmtKind::Assign { lhs, .. } = &b.kind
                && let ExprKind::Index(name, subs) = &lhs.kind
                && covers(name, subs)
            {
                out.push(name.clone());
            }
        }
        out
    }

    /// The zones of the whole variables the call `t` passes to INTENT(OUT) dummies.
    fn intent_out_actuals(&self, t: &Stmt) -> Vec<ZoneId> {
        let Some(site) = call_site(t) else {
            return Vec::new();
        };
        let intents = self.callee_intents(&site);
        site.args
            .iter()
            .zip(intents)
            .filter(|(_, intent)| *intent == Some(crate::il::Intent::Out))
            .filter_map(|(a, _)| match &a.value.kind {
                ExprKind::Var(name) => self.ug.uir.zones.get(name),
                _ => None,
            })
            .filter(|&z| !self.ug.uir.zones.zones[z].shared)
            .collect()
    }

    /// The INTENT of the dummy each actual argument of `site` is bound to (none where
    /// unknown), keywords included (`il::bind_actuals`).
    pub(in crate::diff::adjoint) fn callee_intents(
        &self,
        site: &crate::analysis::effects::CallSite,
    ) -> Vec<Option<crate::il::Intent>> {
        let mut out = vec![None; site.args.len()];
        let Some((cu, _)) = self.ug.ctx.unit_analysis(site.callee) else {
            return out;
        };
        for (formal, actual) in cu.unit.args.iter().zip(bind_actuals(cu.unit, site.args)) {
            let Some(actual) = actual else { continue };
            if let Some(k) = site
                .args
                .iter()
                .position(|a| std::ptr::eq(&a.value, actual))
            {
                out[k] = cu.unit.symbols.get(formal).and_then(|f| f.intent);
            }
        }
        out
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
                // The body may run no time: only the DO variable is set after it, and
                // the arrays it fills whole (when it runs no time, they have no
                // element).
                let mut after = k.clone();
                exposed_reads(body, nodes, accesses, &mut k, exposed);
                for &n in nodes.other.get(&s.id).map(Vec::as_slice).unwrap_or(&[]) {
                    read(n, &after, exposed);
                }
                for &z in nodes.fills.get(&s.id).map(Vec::as_slice).unwrap_or(&[]) {
                    after.set(z, true);
                }
                *killed = after;
            }
            _ => {
                if let Some(&n) = nodes.simple.get(&s.id) {
                    // An INTENT(OUT) actual is not read by the call (`reads` holds it
                    // as an argument).
                    let outs = nodes.out_actuals.get(&n).map(Vec::as_slice).unwrap_or(&[]);
                    let mut before = killed.clone();
                    for &z in outs {
                        before.set(z, true);
                    }
                    read(n, &before, exposed);
                    for &(z, whole) in &accesses[n].defs {
                        if whole {
                            killed.set(z, true);
                        }
                    }
                    for &z in outs {
                        killed.set(z, true);
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
