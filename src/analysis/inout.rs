//! In-out analysis (seeds/000 §5.2): what each instruction and each procedure may or must
//! read and overwrite, and the warnings it makes possible: variables used before they are
//! set (W0301, W0303), storage passed twice to a procedure that overwrites one of the two
//! (aliasing, which makes both the original and its derivatives depend on the compiler:
//! W0302, W0304, refused as E0508 when active), INTENT(IN) dummies a callee may overwrite
//! (W0305).
//!
//! Zones are atoms (seeds/000 §3): writing an element of an array, a component of a
//! derived-type variable or one member of an EQUIVALENCE set may write its zone but never
//! must, since the rest keeps its value. Per instruction `I` (a flow node):
//!
//! - `Read(I)`: the zones whose value `I` may read (subscripts and conditions included);
//! - `Out_may(I)`: the zones `I` may overwrite, in part or whole;
//! - `Out_must(I)`: the zones `I` overwrites whole on every execution (a scalar assignment,
//!   a DO variable, a whole variable bound to a dummy the callee must write).
//!
//! Forward from the procedure's entry, with intersection (must) or union (may) at merges:
//!
//! ```text
//! MustW⁻(entry) = ∅     MustW⁻(I) = ∩_{P ∈ pred(I)} MustW⁺(P)    MustW⁺(I) = MustW⁻(I) ∪ Out_must(I)
//! MayW⁻(entry)  = ∅     MayW⁻(I)  = ∪_{P ∈ pred(I)} MayW⁺(P)     MayW⁺(I)  = MayW⁻(I)  ∪ Out_may(I)
//! ```
//!
//! and per procedure `Q`, over its slots (dummies, result, module variables; `summary.rs`):
//!
//! ```text
//! read(Q)     = ∪_I (Read(I) ∖ MustW⁻(I))     part of the value on entry may be read
//! must-out(Q) = MustW⁻(exit)                  overwritten whole on every path to the exit
//! ```
//!
//! (`may-out(Q)`, the summary's `writes`, comes from the nodes' effects.) A call `I` to
//! `Q` reads the actuals bound to `read(Q)`, may overwrite those bound to `may-out(Q)` and
//! must overwrite the whole variables bound to `must-out(Q)`; recursive procedures start
//! from `must-out = everything`, `read = nothing` and shrink (grow) to the fixed point with
//! the rest of the summaries (`analysis::analyze`). A procedure adgen has no source for may
//! read and overwrite every argument and must overwrite none. For derived-type dummies,
//! may-out is also kept per component path (`written_parts`), for call snapshots.
//!
//! `MustW` is refined, for the warnings only, by logical flags: a local logical variable
//! tested by a condition (`IF (.NOT. first)`, `first .OR. c`) gets two more sets, the zones
//! written on every path along which the flag is false (true). They let a read guarded by
//! the flag count as initialized, as in the `first = .true.; DO WHILE (first .OR. c)` the C
//! front-end makes of `do ... while (c)`.

mod checks;
use checks::Flags;
pub use checks::diagnostics;

use std::collections::BTreeSet;

use bitvec::vec::BitVec;

use super::dataflow::{Problem, Solution, solve};
use super::effects::call_site;
use super::summary::Summary;
use super::{UnitAnalysis, saved_locals};
use crate::diag::Diagnostic;
use crate::il::bind_actuals;
use crate::il::{Attr, BinOp, DeclKind, Expr, ExprKind, ScalarType, Stmt, StmtKind, UnOp, Unit};
use crate::ir::flow::{EXIT, NodeId, NodeKind};
use crate::ir::{Ir, UnitIr, ZoneId, ZoneSet};

/// What one instruction reads and overwrites.
#[derive(Clone, Debug)]
pub struct NodeInOut {
    /// `Read(I)`.
    pub reads: ZoneSet,
    /// `Out_may(I)`.
    pub may_write: ZoneSet,
    /// `Out_must(I)`.
    pub must_write: ZoneSet,
    /// Zones bound to an argument of a procedure adgen has no source for.
    pub unknown_callee: ZoneSet,
}

/// The in-out sets of one unit.
#[derive(Clone, Debug)]
pub struct InOut {
    pub nodes: Vec<NodeInOut>,
    /// `MustW` before and after each node.
    pub must_written: Solution<ZoneSet>,
    /// `MayW` before and after each node.
    pub may_written: Solution<ZoneSet>,
    /// Slots whose value on entry may be read (`read(Q)`).
    pub read_slots: BitVec,
    /// Slots overwritten whole on every path to the exit (`must-out(Q)`).
    pub must_write_slots: BitVec,
    /// Per dummy: the parts the unit may overwrite, as component paths relative to it
    /// (`%c`, `%mech%fwd`; `""` for the whole dummy). A derived-type dummy is one zone;
    /// this finer may-out lets a caller's snapshot save only the components a call may
    /// change.
    pub written_parts: Vec<BTreeSet<String>>,
}

/// Whether each dummy of `unit` is passed by value (C scalars, Fortran VALUE): the
/// callee's writes to it never reach the caller.
pub fn by_value(unit: &Unit) -> Vec<bool> {
    let mut out = vec![false; unit.args.len()];
    for d in &unit.decls {
        let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
        else {
            continue;
        };
        if !attrs.iter().any(|a| matches!(a, Attr::Value)) {
            continue;
        }
        for e in entities {
            if let Some(k) = unit
                .args
                .iter()
                .position(|a| a.eq_ignore_ascii_case(&e.name))
            {
                out[k] = true;
            }
        }
    }
    out
}

/// The zones whose values `e` reads (an inquiry such as `EPSILON(prec)` reads none).
fn reads_into(e: &Expr, uir: &UnitIr, set: &mut ZoneSet) {
    for n in crate::il::visit::values_read(e) {
        if let Some(z) = uir.zones.get(n) {
            set.set(z, true);
        }
    }
}

fn subscripts_into(e: &Expr, uir: &UnitIr, set: &mut ZoneSet) {
    match &e.kind {
        ExprKind::Index(_, subs) => subs.iter().for_each(|s| reads_into(s, uir, set)),
        ExprKind::Paren(inner) => subscripts_into(inner, uir, set),
        _ => {}
    }
}

/// A variable as a whole (not an element, a section or a component): writing it kills
/// its zone.
fn whole_variable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(n) => !n.contains('%'),
        _ => false,
    }
}

/// The zone an actual argument or an lvalue designates, if it is storage.
fn storage_zone(e: &Expr, uir: &UnitIr) -> Option<ZoneId> {
    match &e.kind {
        ExprKind::Var(n) | ExprKind::Index(n, _) => uir.zones.get(n),
        _ => None,
    }
}

fn node_in_out(ir: &Ir, uir: &UnitIr, kind: &NodeKind, summaries: &[Option<Summary>]) -> NodeInOut {
    let mut io = NodeInOut {
        reads: uir.zones.empty_set(),
        may_write: uir.zones.empty_set(),
        must_write: uir.zones.empty_set(),
        unknown_callee: uir.zones.empty_set(),
    };
    let write = |io: &mut NodeInOut, lhs: &Expr, must: bool| {
        if let Some(z) = storage_zone(lhs, uir) {
            io.may_write.set(z, true);
            // A member of an EQUIVALENCE set writes part of the set's zone.
            if must && whole_variable(lhs) && !uir.zones.zones[z].shared {
                io.must_write.set(z, true);
            }
        }
    };
    match kind {
        NodeKind::Simple(stmt) => match (&stmt.kind, call_site(stmt)) {
            (_, Some(site)) => {
                let callee = ir
                    .index_of(site.callee)
                    .and_then(|c| Some((c, summaries[c].as_ref()?)));
                let (actuals, values) = match callee {
                    Some((c, _)) => {
                        let unit = ir.units[c].unit;
                        (bind_actuals(unit, site.args), by_value(unit))
                    }
                    None => (
                        site.args.iter().map(|a| Some(&a.value)).collect(),
                        vec![false; site.args.len()],
                    ),
                };
                for (k, actual) in actuals.iter().enumerate() {
                    let Some(actual) = actual else { continue };
                    let Some((_, summary)) = callee else {
                        reads_into(actual, uir, &mut io.reads);
                        if let Some(z) = storage_zone(actual, uir) {
                            io.may_write.set(z, true);
                            io.unknown_callee.set(z, true);
                        }
                        continue;
                    };
                    let zone = storage_zone(actual, uir);
                    if zone.is_none() || values[k] {
                        // An expression, or a value copied into the callee.
                        reads_into(actual, uir, &mut io.reads);
                        continue;
                    }
                    subscripts_into(actual, uir, &mut io.reads);
                    let z = zone.expect("checked above");
                    if summary.reads[k] {
                        io.reads.set(z, true);
                    }
                    // Must-out is not gated by may-out: in a recursive cycle, must-out
                    // starts from everything while may-out starts from nothing.
                    if summary.writes[k] || summary.must_writes[k] {
                        write(&mut io, actual, summary.must_writes[k]);
                    }
                }
                // Module variables, through the callee's global slots; other global
                // storage (COMMON) may be read and overwritten by any call.
                let first_global = actuals.len() + 1;
                for (z, zone) in uir.zones.zones.iter().enumerate() {
                    if !zone.global {
                        continue;
                    }
                    let slot = uir.zones.globals.iter().position(|&x| x == z);
                    match (callee, slot) {
                        (Some((_, s)), Some(g)) => {
                            let slot = first_global + g;
                            io.reads.set(z, s.reads.get(slot).is_some_and(|b| *b));
                            let must = s.must_writes.get(slot).is_some_and(|b| *b);
                            io.may_write
                                .set(z, must || s.writes.get(slot).is_some_and(|b| *b));
                            io.must_write.set(z, must);
                        }
                        _ => {
                            io.reads.set(z, true);
                            io.may_write.set(z, true);
                        }
                    }
                }
                if let Some(lhs) = site.result_lhs {
                    subscripts_into(lhs, uir, &mut io.reads);
                    write(&mut io, lhs, true);
                }
            }
            (StmtKind::Assign { lhs, rhs }, None) => {
                reads_into(rhs, uir, &mut io.reads);
                subscripts_into(lhs, uir, &mut io.reads);
                write(&mut io, lhs, true);
            }
            // ALLOCATE reads its bounds; both leave the whole array without values.
            (StmtKind::Allocate(items) | StmtKind::Deallocate(items), None) => {
                for e in items {
                    subscripts_into(e, uir, &mut io.reads);
                    if let Some(n) = e.base_name() {
                        write(&mut io, &Expr::var(n), true);
                    }
                }
            }
            (
                StmtKind::Io {
                    reads: read_exprs,
                    writes,
                    ..
                },
                None,
            ) => {
                // A variable the statement sets whole before it subscripts or bounds with
                // it (an implied DO's index, a count read first:
                // `read (u, *) n, (a(i), i = 1, n)`) is not read from before the statement.
                let mut subscripts = uir.zones.empty_set();
                for e in read_exprs {
                    reads_into(e, uir, &mut subscripts);
                }
                for e in writes {
                    subscripts_into(e, uir, &mut subscripts);
                }
                for e in writes {
                    if let (true, Some(z)) = (
                        whole_variable(e),
                        e.base_name().and_then(|n| uir.zones.get(n)),
                    ) {
                        subscripts.set(z, false);
                    }
                }
                io.reads |= &subscripts;
                for e in writes {
                    write(&mut io, e, true);
                }
            }
            _ => {}
        },
        NodeKind::Cond(stmt, arm) => {
            if let StmtKind::If { arms, .. } = &stmt.kind {
                reads_into(&arms[*arm].0, uir, &mut io.reads);
            }
        }
        NodeKind::WhileHead(stmt) => {
            if let StmtKind::DoWhile { cond, .. } = &stmt.kind {
                reads_into(cond, uir, &mut io.reads);
            }
        }
        NodeKind::DoInit(stmt) | NodeKind::DoHead(stmt) | NodeKind::DoIncr(stmt) => {
            if let StmtKind::Do {
                var,
                start,
                end,
                step,
                ..
            } = &stmt.kind
            {
                let v = uir.zones.get(var);
                if let NodeKind::DoInit(_) = kind {
                    reads_into(start, uir, &mut io.reads);
                    reads_into(end, uir, &mut io.reads);
                } else if let Some(z) = v {
                    io.reads.set(z, true);
                }
                if !matches!(kind, NodeKind::DoHead(_)) {
                    if let Some(s) = step {
                        reads_into(s, uir, &mut io.reads);
                    }
                    if let Some(z) = v {
                        io.may_write.set(z, true);
                        io.must_write.set(z, !uir.zones.zones[z].shared);
                    }
                }
            }
        }
        NodeKind::Entry | NodeKind::Exit => {}
    }
    io
}

/// A condition that is one logical variable or its negation: the variable's zone and the
/// value the condition requires of it.
fn flag_test(cond: &Expr, uir: &UnitIr) -> Option<(ZoneId, bool)> {
    match &cond.kind {
        ExprKind::Var(n) => uir.zones.get(n).map(|z| (z, true)),
        ExprKind::Unary(UnOp::Not, inner) => flag_test(inner, uir).map(|(z, v)| (z, !v)),
        ExprKind::Paren(inner) => flag_test(inner, uir),
        _ => None,
    }
}

/// `MustW`, and the same sets along the paths on which each flag is false and true.
struct MustWritten<'a> {
    nodes: &'a [NodeInOut],
    /// The zones of the flags, and for each node the constant it assigns each flag.
    flags: &'a [ZoneId],
    assigned: &'a [Vec<Option<bool>>],
    entry: ZoneSet,
}

impl Problem for MustWritten<'_> {
    /// `[all paths, flag 0 false, flag 0 true, flag 1 false, ...]`.
    type State = Vec<ZoneSet>;
    fn forward(&self) -> bool {
        true
    }
    fn bottom(&self) -> Self::State {
        vec![ZoneSet::repeat(true, self.entry.len()); 1 + 2 * self.flags.len()]
    }
    fn boundary(&self) -> Self::State {
        vec![self.entry.clone(); 1 + 2 * self.flags.len()]
    }
    fn join(&self, into: &mut Self::State, from: &Self::State) -> bool {
        let mut changed = false;
        for (a, b) in into.iter_mut().zip(from) {
            let before = a.count_ones();
            *a &= b;
            changed |= a.count_ones() != before;
        }
        changed
    }
    fn transfer(&self, node: NodeId, input: &Self::State) -> Self::State {
        let io = &self.nodes[node];
        let mut out: Vec<ZoneSet> = input.iter().map(|s| s.clone() | &io.must_write).collect();
        for (k, &flag) in self.flags.iter().enumerate() {
            match self.assigned[node][k] {
                // Every path now has the flag at `value`; none has the other value.
                Some(value) => {
                    out[1 + 2 * k + usize::from(value)] = out[0].clone();
                    out[1 + 2 * k + usize::from(!value)] = ZoneSet::repeat(true, self.entry.len());
                }
                None if io.may_write[flag] => {
                    out[1 + 2 * k] = out[0].clone();
                    out[2 + 2 * k] = out[0].clone();
                }
                None => {}
            }
        }
        out
    }
}

struct MayWritten<'a> {
    nodes: &'a [NodeInOut],
    n_zones: usize,
}

impl Problem for MayWritten<'_> {
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
    fn transfer(&self, node: NodeId, input: &ZoneSet) -> ZoneSet {
        input.clone() | &self.nodes[node].may_write
    }
}

/// The in-out sets of a unit, the flags' refinement of `MustW` (for the warnings).
fn solve_unit(
    ir: &Ir,
    uir: &UnitIr,
    summaries: &[Option<Summary>],
) -> (InOut, Flags, Solution<Vec<ZoneSet>>) {
    let nodes: Vec<NodeInOut> = uir
        .flow
        .nodes
        .iter()
        .map(|kind| node_in_out(ir, uir, kind, summaries))
        .collect();
    let flags = Flags::of(uir);
    let assigned: Vec<Vec<Option<bool>>> = uir
        .flow
        .nodes
        .iter()
        .map(|kind| {
            flags
                .zones
                .iter()
                .map(|&f| match kind {
                    NodeKind::Simple(Stmt {
                        kind: StmtKind::Assign { lhs, rhs },
                        ..
                    }) if storage_zone(lhs, uir) == Some(f) => match rhs.kind {
                        ExprKind::Logical(b) => Some(b),
                        _ => None,
                    },
                    _ => None,
                })
                .collect()
        })
        .collect();
    let guarded = solve(
        &uir.flow,
        &MustWritten {
            nodes: &nodes,
            flags: &flags.zones,
            assigned: &assigned,
            entry: uir.zones.empty_set(),
        },
    );
    let must_written = Solution {
        before: guarded.before.iter().map(|s| s[0].clone()).collect(),
        after: guarded.after.iter().map(|s| s[0].clone()).collect(),
    };
    let may_written = solve(
        &uir.flow,
        &MayWritten {
            nodes: &nodes,
            n_zones: uir.zones.len(),
        },
    );
    let slots = super::summary::slot_zones(uir);
    let mut read_slots = BitVec::repeat(false, slots.len());
    let mut must_write_slots = BitVec::repeat(false, slots.len());
    let mut exposed = uir.zones.empty_set();
    for (node, io) in nodes.iter().enumerate() {
        exposed |= io.reads.clone() & !must_written.before[node].clone();
    }
    for (slot, z) in slots.iter().enumerate() {
        if let Some(z) = *z {
            read_slots.set(slot, exposed[z]);
            must_write_slots.set(slot, must_written.before[EXIT][z]);
        }
    }
    let written_parts = written_parts(ir, uir, summaries);
    let inout = InOut {
        nodes,
        must_written,
        may_written,
        read_slots,
        must_write_slots,
        written_parts,
    };
    (inout, flags, guarded)
}

/// The dummy an lvalue or actual argument belongs to, and its component path relative
/// to the dummy (`r%mech%fwd` → `%mech%fwd`; `""` for the dummy itself or an element).
fn dummy_part(e: &Expr, uir: &UnitIr) -> Option<(usize, String)> {
    let name = e.base_name()?;
    let k = uir.zones.zones[uir.zones.get(name)?].arg_index?;
    let part = name.find('%').map(|i| crate::il::key(&name[i..]));
    Some((k, part.unwrap_or_default()))
}

/// Adds `part` to `parts`, keeping the set free of paths another one covers.
fn add_part(parts: &mut BTreeSet<String>, part: String) {
    let covered = |p: &String, q: &str| q.is_empty() || *p == q || p.starts_with(&format!("{q}%"));
    if parts.iter().any(|q| covered(&part, q)) {
        return;
    }
    parts.retain(|q| !covered(q, &part));
    parts.insert(part);
}

/// [`InOut::written_parts`]: assignments, DO variables and READs write their lvalue's
/// path; a call writes, under the actual's path, the parts its callee writes of the dummy
/// (everything, for a procedure adgen has no source for).
fn written_parts(ir: &Ir, uir: &UnitIr, summaries: &[Option<Summary>]) -> Vec<BTreeSet<String>> {
    let mut parts = vec![BTreeSet::new(); uir.unit.args.len()];
    let mut write = |e: &Expr, suffix: &BTreeSet<String>| {
        if let Some((k, prefix)) = dummy_part(e, uir) {
            for p in suffix {
                add_part(&mut parts[k], format!("{prefix}{p}"));
            }
        }
    };
    let whole = BTreeSet::from([String::new()]);
    for kind in &uir.flow.nodes {
        let NodeKind::Simple(stmt) = kind else {
            if let NodeKind::DoInit(Stmt {
                kind: StmtKind::Do { var, .. },
                ..
            }) = kind
            {
                write(&Expr::var(var), &whole);
            }
            continue;
        };
        match (&stmt.kind, call_site(stmt)) {
            (_, Some(site)) => {
                let callee = ir
                    .index_of(site.callee)
                    .and_then(|c| Some((c, summaries[c].as_ref()?)));
                match callee {
                    Some((c, summary)) => {
                        let values = by_value(ir.units[c].unit);
                        let actuals = bind_actuals(ir.units[c].unit, site.args);
                        for (k, actual) in actuals.iter().enumerate() {
                            let Some(actual) = actual else { continue };
                            if values[k] || !summary.writes[k] {
                                continue;
                            }
                            match summary.written_parts.get(k).filter(|p| !p.is_empty()) {
                                Some(p) => write(actual, p),
                                None => write(actual, &whole),
                            }
                        }
                    }
                    None => site.args.iter().for_each(|a| write(&a.value, &whole)),
                }
                if let Some(lhs) = site.result_lhs {
                    write(lhs, &whole);
                }
            }
            (StmtKind::Assign { lhs, .. }, None) => write(lhs, &whole),
            (StmtKind::Io { writes, .. }, None) => writes.iter().for_each(|e| write(e, &whole)),
            _ => {}
        }
    }
    parts
}

/// The in-out sets of a unit given its callees' summaries (`None`: not summarized yet,
/// taken as unknown).
pub fn in_out(ir: &Ir, uir: &UnitIr, summaries: &[Option<Summary>]) -> InOut {
    solve_unit(ir, uir, summaries).0
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use crate::analysis::{Analyses, analyze};
    use crate::ir::Ir;
    use crate::ir::flow::{EXIT, NodeKind};
    use crate::{Request, RootRequest, SourceInput, SourceMap};

    /// Runs the analyses on `source` (root `f`, `x` to `y`) and hands them to `check`.
    fn with_analyses(source: &str, check: impl FnOnce(&Ir, &Analyses)) {
        let request = Request {
            roots: vec![RootRequest {
                name: "f".into(),
                independents: vec!["x".into()],
                dependents: vec!["y".into()],
                modes: BTreeSet::from([crate::Mode::Tangent]),
                origin: None,
                entry_origins: Vec::new(),
            }],
            sizes: Vec::new(),
            black_boxes: Vec::new(),
            checkpoint_calls: true,
            naming: Default::default(),
            layout: Default::default(),
            option_warnings: Vec::new(),
            disabled: BTreeSet::new(),
        };
        let mut sources = SourceMap::default();
        let inputs = [SourceInput::new("t.f90", source)];
        let program = crate::parse_sources(&inputs, &mut sources).expect("the test parses");
        let program = crate::prepare::scalarize::scalarize(program).expect("scalarizes");
        let ir = Ir::build(&program, &request).expect("builds");
        let analyses = analyze(&program, &ir, &request);
        check(&ir, &analyses);
    }

    /// The names of the slots of unit `name` set in `slots` (dummies, then `result`).
    fn slot_names(ir: &Ir, name: &str, slots: &bitvec::vec::BitVec) -> Vec<String> {
        let u = ir.index_of(name).expect("the unit exists");
        let unit = ir.units[u].unit;
        let mut out: Vec<String> = unit
            .args
            .iter()
            .enumerate()
            .filter(|(k, _)| slots[*k])
            .map(|(_, a)| a.clone())
            .collect();
        if unit.is_function() && slots[unit.args.len()] {
            out.push("result".into());
        }
        out
    }

    /// Names must-written before the assignment to `lhs` (the first one) in unit `name`.
    fn must_before(ir: &Ir, a: &Analyses, name: &str, lhs: &str) -> Vec<String> {
        let u = ir.index_of(name).expect("the unit exists");
        let uir = &ir.units[u];
        let node = uir
            .flow
            .nodes
            .iter()
            .position(|k| match k {
                NodeKind::Simple(s) => match &s.kind {
                    crate::il::StmtKind::Assign { lhs: l, .. } => {
                        l.base_name().is_some_and(|b| b.eq_ignore_ascii_case(lhs))
                    }
                    _ => false,
                },
                _ => false,
            })
            .expect("the assignment exists");
        let set = &a.units[u].inout.must_written.before[node];
        uir.zones.names(set).iter().map(|s| s.to_string()).collect()
    }

    const BRANCHES: &str = "subroutine f(x, y, z)\n  real(8) :: x, y, z, t\n  \
        if (x > 0) then\n    y = x\n    z = 1\n  else\n    y = -x\n  end if\n  t = y\n  \
        y = t*z\nend subroutine f\n";

    #[test]
    fn a_branch_must_write_only_what_both_arms_write() {
        with_analyses(BRANCHES, |ir, a| {
            let u = ir.index_of("f").unwrap();
            let s = &a.units[u].summary;
            assert_eq!(slot_names(ir, "f", &s.must_writes), ["y"]);
            assert_eq!(slot_names(ir, "f", &s.writes), ["y", "z"]);
            // z is read before the arms' writes are certain: its value on entry may be used.
            assert_eq!(slot_names(ir, "f", &s.reads), ["x", "z"]);
            assert_eq!(must_before(ir, a, "f", "t"), ["y"]);
            let exit = &a.units[u].inout.must_written.before[EXIT];
            assert_eq!(ir.units[u].zones.names(exit), ["y", "t"]);
        });
    }

    #[test]
    fn a_loop_that_may_not_run_writes_nothing_for_sure() {
        let src = "subroutine f(n, x, y)\n  integer :: n, i\n  real(8) :: x, y, s\n  \
                   do i = 1, n\n    s = x\n  end do\n  y = 2*x\nend subroutine f\n";
        with_analyses(src, |ir, a| {
            let u = ir.index_of("f").unwrap();
            assert_eq!(slot_names(ir, "f", &a.units[u].summary.must_writes), ["y"]);
            // The DO variable is set by the loop's start, whether the body runs or not.
            assert_eq!(must_before(ir, a, "f", "y"), ["i"]);
            assert_eq!(must_before(ir, a, "f", "s"), ["i"]);
        });
    }

    #[test]
    fn an_array_element_write_is_a_may_write() {
        let src = "subroutine f(x, y, a)\n  real(8) :: x, y, a(3)\n  a(1) = x\n  y = a(1)\n\
                   end subroutine f\n";
        with_analyses(src, |ir, a| {
            let u = ir.index_of("f").unwrap();
            let s = &a.units[u].summary;
            assert_eq!(slot_names(ir, "f", &s.writes), ["y", "a"]);
            assert_eq!(slot_names(ir, "f", &s.must_writes), ["y"]);
            // The other elements keep their values: `a` on entry may be read.
            assert_eq!(slot_names(ir, "f", &s.reads), ["x", "a"]);
        });
    }

    #[test]
    fn calls_use_the_callee_must_write_summary() {
        let src = "subroutine always(p, q)\n  real(8) :: p, q\n  q = p\nend subroutine always\n\n\
                   subroutine sometimes(p, q)\n  real(8) :: p, q\n  if (p > 0) q = p\n\
                   end subroutine sometimes\n\n\
                   subroutine f(x, y, u, v, w)\n  real(8) :: x, y, u, v, w(2)\n  \
                   call always(x, u)\n  call sometimes(x, v)\n  call always(x, w(1))\n  \
                   y = u + v\nend subroutine f\n";
        with_analyses(src, |ir, a| {
            let always = ir.index_of("always").unwrap();
            assert_eq!(
                slot_names(ir, "always", &a.units[always].summary.must_writes),
                ["q"]
            );
            let sometimes = ir.index_of("sometimes").unwrap();
            let s = &a.units[sometimes].summary;
            assert!(s.must_writes.not_any());
            // `q` keeps its value on entry when p <= 0: that value flows out, but is not read.
            assert_eq!(slot_names(ir, "sometimes", &s.reads), ["p"]);
            // u whole, through `always`; not v (`sometimes`), not w (one element).
            assert_eq!(must_before(ir, a, "f", "y"), ["u"]);
            let f = ir.index_of("f").unwrap();
            assert_eq!(
                slot_names(ir, "f", &a.units[f].summary.must_writes),
                ["y", "u"]
            );
        });
    }

    #[test]
    fn components_written_through_calls() {
        let src = "module m\n  type law\n    real(8) :: a, e\n  end type law\n  \
                   type state\n    real(8) :: c(2), t\n    type(law) :: fwd, rev\n  end type state\n\
                   contains\n  subroutine tune(l)\n    type(law) :: l\n    l%a = 2*l%e\n  \
                   end subroutine tune\n  subroutine step(s)\n    type(state) :: s\n    \
                   s%c(1) = s%t\n    call tune(s%rev)\n  end subroutine step\nend module m\n\n\
                   subroutine f(x, y)\n  use m\n  real(8) :: x, y\n  type(state) :: s\n  \
                   s%t = x\n  call step(s)\n  y = s%c(1)\nend subroutine f\n";
        with_analyses(src, |ir, a| {
            let parts = |name: &str| -> Vec<String> {
                let u = ir.index_of(name).expect("the unit exists");
                a.units[u].summary.written_parts[0]
                    .iter()
                    .cloned()
                    .collect()
            };
            assert_eq!(parts("tune"), ["%a"]);
            assert_eq!(parts("step"), ["%c", "%rev%a"]);
        });
    }

    #[test]
    fn recursion_reaches_the_greatest_fixed_point() {
        // `r` writes q on every path: directly, or through itself.
        let src = "recursive subroutine r(n, q)\n  integer :: n\n  real(8) :: q\n  \
                   if (n > 0) then\n    call r(n - 1, q)\n  else\n    q = 1\n  end if\n\
                   end subroutine r\n\nsubroutine f(x, y)\n  real(8) :: x, y\n  \
                   call r(3, y)\n  y = y*x\nend subroutine f\n";
        with_analyses(src, |ir, a| {
            let r = ir.index_of("r").unwrap();
            assert_eq!(slot_names(ir, "r", &a.units[r].summary.must_writes), ["q"]);
            assert_eq!(slot_names(ir, "r", &a.units[r].summary.reads), ["n"]);
        });
    }
}
