//! In-out analysis (seeds/000 §5.2) as far as warnings need it: which variables may be
//! read before they are set (forward, may-uninitialized), and calls that pass one
//! variable twice to a procedure that overwrites one of the two (aliasing, which makes
//! both the original and its derivatives depend on the compiler).

use bitvec::vec::BitVec;

use super::access::Access;
use super::dataflow::{Problem, solve};
use super::effects::{bind_actuals, call_site};
use crate::diag::Diagnostic;
use crate::il::{DeclKind, ScalarType, StmtKind, SymbolKind};
use crate::ir::flow::{NodeId, NodeKind};
use crate::ir::{Ir, UnitIr, ZoneSet};

struct MayUninit<'a> {
    access: &'a [Access],
    entry: ZoneSet,
}

impl Problem for MayUninit<'_> {
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
        // Any write counts as setting the variable (array elements included), so that
        // only certain reads of never-set variables are reported.
        for (z, _) in &self.access[node].defs {
            out.set(*z, false);
        }
        out
    }
}

/// Warnings for one unit.
pub fn warnings(ir: &Ir, uir: &UnitIr, access: &[Access], writes: &[&BitVec]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Variables set on entry: dummies (except INTENT(OUT)), initialized or SAVEd locals.
    let mut entry = uir.zones.empty_set();
    let initialized: Vec<String> = uir
        .unit
        .decls
        .iter()
        .flat_map(|d| match &d.kind {
            DeclKind::Var {
                entities, attrs, ..
            } => {
                let saved = attrs
                    .iter()
                    .any(|a| matches!(a, crate::il::Attr::Save | crate::il::Attr::Parameter));
                entities
                    .iter()
                    .filter(|e| saved || e.init.is_some())
                    .map(|e| crate::il::key(&e.name))
                    .collect::<Vec<_>>()
            }
            _ => Vec::new(),
        })
        .collect();
    for (z, zone) in uir.zones.zones.iter().enumerate() {
        let symbol = uir.unit.symbols.get(&zone.name);
        let out_only = symbol.is_some_and(|s| s.intent == Some(crate::il::Intent::Out));
        let set_on_entry = (zone.arg_index.is_some() && !out_only)
            || initialized.contains(&crate::il::key(&zone.name))
            || symbol.is_some_and(|s| s.kind != SymbolKind::Variable)
            // Module variables outlive the call: initialized in their declaration or
            // set by an earlier call.
            || zone.global;
        // Arrays are filled element by element, often in loops that could run zero
        // times, and derived-type variables component by component: only scalars are
        // tracked, to keep the warning worth reading.
        if !set_on_entry && !zone.is_array && zone.ty != ScalarType::Derived {
            entry.set(z, true);
        }
    }
    let solution = solve(&uir.flow, &MayUninit { access, entry });
    let mut reported = uir.zones.empty_set();
    for (node, kind) in uir.flow.nodes.iter().enumerate() {
        let span = match kind {
            NodeKind::Simple(s)
            | NodeKind::Cond(s, _)
            | NodeKind::WhileHead(s)
            | NodeKind::DoInit(s) => s.span,
            _ => continue,
        };
        // The array elements written by a statement may be read by it too: only the
        // reads that are not of the written variable's own zone are certain enough.
        let mut suspicious = access[node].reads.clone() & solution.before[node].clone();
        if matches!(kind, NodeKind::Simple(_)) {
            for (z, total) in &access[node].defs {
                if !total {
                    suspicious.set(*z, false);
                }
            }
        }
        for z in suspicious.iter_ones() {
            if reported[z] {
                continue;
            }
            reported.set(z, true);
            out.push(
                Diagnostic::warning(
                    "W0301",
                    format!("`{}` may be used before it is set", uir.zones.zones[z].name),
                )
                .at(span)
                .with_help(
                    "derivatives computed from an unset value are as meaningless as the value",
                ),
            );
        }
    }
    // Aliasing at calls.
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
        let actuals = bind_actuals(ir.units[c].unit, site.args);
        for (i, a) in actuals.iter().enumerate() {
            for (j, b) in actuals.iter().enumerate().skip(i + 1) {
                let (Some(a), Some(b)) = (a, b) else { continue };
                let (Some(na), Some(nb)) = (a.base_name(), b.base_name()) else {
                    continue;
                };
                // Different elements or columns of one array are not aliases.
                let same = na.eq_ignore_ascii_case(nb)
                    && (matches!(a.kind, crate::il::ExprKind::Var(_))
                        || matches!(b.kind, crate::il::ExprKind::Var(_))
                        || crate::il::visit::expr_key(a) == crate::il::visit::expr_key(b));
                if !same {
                    continue;
                }
                let written =
                    writes[c].get(i).is_some_and(|w| *w) || writes[c].get(j).is_some_and(|w| *w);
                if written && matches!(stmt.kind, StmtKind::Call { .. } | StmtKind::Assign { .. }) {
                    out.push(
                        Diagnostic::warning(
                            "W0302",
                            format!(
                                "`{na}` is passed twice to `{}`, which overwrites one of the two: \
                                 the result, and its derivatives, depend on the compiler",
                                site.callee
                            ),
                        )
                        .at(stmt.span)
                        .with_help("pass a copy as one of the two arguments"),
                    );
                }
            }
        }
    }
    out
}
