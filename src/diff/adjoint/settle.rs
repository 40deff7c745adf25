//! The plan an adjoint is written with (seeds/000 §5.2: diff-liveness and TBR, from what
//! each statement's adjoint reads), and the rounds that settle it: a dummy the body would
//! not mention is made live at the exit and the body written again.

use super::*;

/// What writing a body leaves in the generator (names taken, temporaries, diagnostics,
/// functions called), to go back to before writing it again.
struct Mark {
    namer: crate::il::names::Namer,
    temps: Vec<crate::diff::Temp>,
    errors: usize,
    warnings: usize,
    called_functions: BTreeMap<String, TypeSpec>,
}

impl Mark {
    fn of(ug: &UnitGen) -> Mark {
        Mark {
            namer: ug.namer.clone(),
            temps: ug.temps.clone(),
            errors: ug.errors.len(),
            warnings: ug.warnings.len(),
            called_functions: ug.called_functions.clone(),
        }
    }

    /// Puts the generator back as it was at the mark.
    fn rewind(&self, ug: &mut UnitGen) {
        ug.namer = self.namer.clone();
        ug.temps = self.temps.clone();
        ug.errors.truncate(self.errors);
        ug.warnings.truncate(self.warnings);
        ug.called_functions = self.called_functions.clone();
    }
}

/// The plan the adjoint is generated with, its body, and the variables the forward
/// sweep overwrites without saving. A dummy that slicing would remove from the adjoint
/// altogether (an unused argument for the compiler) is made diff-live at the exit and
/// everything regenerated.
pub(crate) fn settle(ug: &mut UnitGen) -> (Plan, Vec<Stmt>, BTreeSet<String>) {
    let unit = ug.unit;
    let saved = Mark::of(ug);
    let mut live_at_exit = ug.uir.zones.empty_set();
    // Module variables the unit overwrites keep their final values: the rest of the
    // program sees them, as it sees the originals'.
    for (g, &z) in ug.uir.zones.globals.iter().enumerate() {
        let slot = crate::analysis::summary::global_slot(ug.uir, g);
        if ug.ua.summary.writes[slot] {
            live_at_exit.set(z, true);
        }
    }
    // What each statement's adjoint reads and what each node accesses do not depend on
    // what is live at the exit: found once for every round below.
    let (adjoints, mut kept) = node_adjoints(ug);
    let accesses = super::plan::accesses(ug.ctx, ug.uir);
    // A dummy the plan shows the body will not mention gets the treatment below before
    // the first body is written, not after (a body less to write); what the bodies
    // then mention is checked all the same.
    let mut first_plan = {
        let plan = make_plan(ug, &adjoints, &accesses, &live_at_exit);
        let mut seeded = false;
        for a in &unit.args {
            let Some(z) = ug.uir.zones.get(a) else {
                continue;
            };
            let mentioned = ug.uir.flow.nodes.iter().enumerate().any(|(n, kind)| {
                let access = &accesses[n];
                let touches = access.reads[z] || access.defs.iter().any(|&(d, _)| d == z);
                let call = matches!(kind, crate::ir::NodeKind::Simple(s) if call_site(s).is_some());
                (touches && (plan.present[n] || call))
                    || (adjoints.has_adjoint[n] && adjoints.uses[n][z])
                    || plan.save[n][z]
                    || plan.tbr_before[n][z]
            });
            if !mentioned && !plan.keep_all {
                seeded |= seed_unmentioned(z, &accesses, &mut live_at_exit);
            }
        }
        // Nothing seeded: the first round's plan is this one.
        (!seeded).then_some(plan)
    };
    loop {
        let plan = match first_plan.take() {
            Some(plan) => plan,
            None => make_plan(ug, &adjoints, &accesses, &live_at_exit),
        };
        ug.uses_runtime = false;
        let mut adj = Adj::new(ug, plan);
        // The first round takes the assignments' adjoints already written.
        adj.kept = std::mem::take(&mut kept);
        let body = adj.unit_body();
        let unsaved = std::mem::take(&mut adj.unsaved);
        let plan = adj.plan;
        let referenced = referenced_dummies(&body, &unit.args);
        let mut grew = false;
        for (a, referenced) in unit.args.iter().zip(referenced) {
            if let Some(z) = ug.uir.zones.get(a) {
                if !referenced {
                    grew |= seed_unmentioned(z, &accesses, &mut live_at_exit);
                }
            }
        }
        if !grew {
            return (plan, body, unsaved);
        }
        saved.rewind(ug);
    }
}

/// For a dummy (zone `z`) the adjoint's body does not mention: it is made live at the
/// exit; when it already is (or nothing here writes it, so that being live changes
/// nothing), what is computed from it is made live too, as for an input the adjoint
/// never needs (a linear function `e = x(j) - c`), so that the forward sweep reads it.
/// Whether anything changed.
fn seed_unmentioned(
    z: crate::ir::ZoneId,
    accesses: &[crate::analysis::access::Access],
    live_at_exit: &mut crate::ir::ZoneSet,
) -> bool {
    let mut grew = false;
    if !live_at_exit[z] {
        live_at_exit.set(z, true);
        grew = true;
        if accesses
            .iter()
            .any(|acc| acc.defs.iter().any(|&(d, _)| d == z))
        {
            return grew;
        }
    }
    for access in accesses.iter().filter(|acc| acc.reads[z]) {
        for &(d, _) in &access.defs {
            if !live_at_exit[d] {
                live_at_exit.set(d, true);
                grew = true;
            }
        }
    }
    grew
}

/// Which of `dummies` a generated body refers to (a derived-type dummy through its
/// components too, `s%x`), without collecting every name it holds.
fn referenced_dummies(body: &[Stmt], dummies: &[String]) -> Vec<bool> {
    let mut found = vec![false; dummies.len()];
    let mut missing = dummies.len();
    // Statement by statement, so that the walk stops once every dummy is found (it
    // usually is early: a large body is slow to walk, issue 16).
    for s in body {
        if missing == 0 {
            break;
        }
        crate::il::visit::for_each_referenced_name(std::slice::from_ref(s), &mut |n, _| {
            let base = n.split_once('%').map_or(n, |(b, _)| b);
            for (k, d) in dummies.iter().enumerate() {
                if !found[k] && base.eq_ignore_ascii_case(d) {
                    found[k] = true;
                    missing -= 1;
                }
            }
        });
    }
    found
}

/// Runs diff-liveness and TBR (seeds/000 §5.2) to decide what the forward sweep keeps
/// and saves.
fn make_plan(
    ug: &UnitGen,
    adjoints: &plan::NodeAdjoints,
    accesses: &[crate::analysis::access::Access],
    live_at_exit: &crate::ir::ZoneSet,
) -> Plan {
    let disabled = &ug.ctx.request.disabled;
    let switches = plan::Switches {
        diff_liveness: !disabled.contains("diff-liveness"),
        tbr: !disabled.contains("tbr"),
        snapshot: !disabled.contains("snapshot"),
        kept: calls_reaching_input(ug),
    };
    plan::plan(ug.uir, accesses, adjoints, &switches, live_at_exit)
}

/// Per flow node: a call of a procedure that reads input, directly or not.
fn calls_reaching_input(ug: &UnitGen) -> Vec<bool> {
    let ir = ug.ctx.ir;
    let reaches = &ug.ctx.analyses.reaches_input;
    ug.uir
        .flow
        .nodes
        .iter()
        .map(|k| match k {
            crate::ir::flow::NodeKind::Simple(s) => crate::analysis::effects::call_site(s)
                .and_then(|site| ir.index_of(site.callee))
                .is_some_and(|c| reaches[c]),
            _ => false,
        })
        .collect()
}

/// Writes each statement's derivative instruction alone to learn `use(I')`; returns, by
/// node, the adjoints of assignments the body can take as they are (writing them again
/// was a fifth of the time on a large unit: issue 16).
fn node_adjoints(ug: &mut UnitGen) -> (plan::NodeAdjoints, Vec<Option<Vec<Stmt>>>) {
    let saved = Mark::of(ug);
    let n = ug.uir.flow.len();
    let n_zones = ug.uir.zones.len();
    let mut adjoints = plan::NodeAdjoints {
        uses: vec![crate::ir::ZoneSet::repeat(false, n_zones); n],
        has_adjoint: vec![false; n],
    };
    let mut kept: Vec<Option<Vec<Stmt>>> = Vec::new();
    kept.resize_with(n, || None);
    {
        let keep_all = Plan {
            present: vec![true; n],
            live_constructs: BTreeSet::new(),
            save: vec![crate::ir::ZoneSet::repeat(true, n_zones); n],
            tbr_before: vec![crate::ir::ZoneSet::repeat(true, n_zones); n],
            save_index: BTreeSet::new(),
            keep_all: true,
            diff_live_after: Vec::new(),
        };
        let mut adj = Adj::new(ug, keep_all);
        for (node, kind) in adj.ug.uir.flow.nodes.iter().enumerate() {
            let crate::ir::NodeKind::Simple(stmt) = kind else {
                continue;
            };
            // An assignment's adjoint does not depend on the plan: kept for the body,
            // unless writing it left a mark (a temporary, a diagnostic) that the body's
            // own writing must leave too.
            let plain = matches!(stmt.kind, StmtKind::Assign { .. }) && call_site(stmt).is_none();
            if plain {
                adj.temp_b.clear();
            }
            let marks = |ug: &UnitGen| {
                (
                    ug.temps.len(),
                    ug.errors.len(),
                    ug.warnings.len(),
                    ug.called_functions.len(),
                    ug.unsized_args.len(),
                )
            };
            let before = marks(adj.ug);
            let runtime_before = std::mem::replace(&mut adj.ug.uses_runtime, false);
            let (has, reads, mut bwd) = adj.node_adjoint(stmt);
            let needs_runtime = adj.ug.uses_runtime;
            adj.ug.uses_runtime |= runtime_before;
            if plain && !needs_runtime && marks(adj.ug) == before {
                bwd.shrink_to_fit();
                kept[node] = Some(bwd);
            }
            adjoints.has_adjoint[node] = has;
            let mut set = crate::ir::ZoneSet::repeat(false, n_zones);
            for name in reads {
                if let Some(z) = adj.ug.uir.zones.get(&name) {
                    set.set(z, true);
                }
            }
            // A callee's adjoint re-runs its forward sweep: it reads the globals (module
            // and COMMON variables, seen here or not) as the call did; their summaries do
            // not say which.
            let reruns = call_site(stmt)
                .is_some_and(|site| has || adj.ug.ctx.derivative_of(site.callee).is_some());
            if reruns {
                for (z, zone) in adj.ug.uir.zones.zones.iter().enumerate() {
                    if zone.global {
                        set.set(z, true);
                    }
                }
            }
            adjoints.uses[node] = set;
        }
        // A binomial loop's backward sweep reads the variable that says how many
        // snapshots it may hold (`$AD BINOMIAL-CKP nsteps nsnaps`), as the loop starts.
        for (node, kind) in adj.ug.uir.flow.nodes.iter().enumerate() {
            if let crate::ir::NodeKind::DoInit(s) | crate::ir::NodeKind::WhileHead(s) = kind
                && let Some(d) = adj.binomial.get(&s.id)
                && let Some(z) = d.args.get(1).and_then(|w| adj.ug.uir.zones.get(w))
            {
                adjoints.uses[node].set(z, true);
            }
        }
    }
    saved.rewind(ug);
    (adjoints, kept)
}
