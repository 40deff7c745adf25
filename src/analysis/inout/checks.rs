//! The diagnostics the in-out sets give: variables read before any value reaches them
//! (E0531, with the flags that guard a read accounted for), actual arguments that alias
//! where the callee writes one of them, and INTENT(IN) dummies written.

use super::*;

/// The logical local variables used as tests, and for each node the flag values that
/// hold whenever it runs (it lies in the arm of an IF testing the flag, which the arm does
/// not assign).
pub(super) struct Flags {
    pub(super) zones: Vec<ZoneId>,
    /// Per node: (flag index, value).
    guards: Vec<Vec<(usize, bool)>>,
}

/// The zones `expr` reads, each with the flag values under which the read happens: the
/// right operand of `f .OR. c` is evaluated only when `f` is false, of `f .AND. c` only
/// when it is true (C evaluates no further; a Fortran compiler may, but then discards
/// the value).
pub(super) fn guarded_reads(
    expr: &Expr,
    uir: &UnitIr,
    flags: &Flags,
    guards: &[(usize, bool)],
    out: &mut Vec<(ZoneId, Vec<(usize, bool)>)>,
) {
    match &expr.kind {
        ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
            guarded_reads(a, uir, flags, guards, out);
            let mut inner = guards.to_vec();
            if let Some((k, v)) = flags.guard(a, uir) {
                inner.push((k, if *op == BinOp::Or { !v } else { v }));
            }
            guarded_reads(b, uir, flags, &inner, out);
        }
        ExprKind::Paren(e) => guarded_reads(e, uir, flags, guards, out),
        _ => {
            let mut set = uir.zones.empty_set();
            reads_into(expr, uir, &mut set);
            out.extend(set.iter_ones().map(|z| (z, guards.to_vec())));
        }
    }
}

/// Variables of the unit whose value on entry is undefined: locals without initializer,
/// SAVE or DATA, the function result, and INTENT(OUT) dummies (undefined on entry by the
/// standard); scalars, then arrays. Dummies otherwise, globals and derived-type variables
/// (whose type may initialize them) are not tracked, nor are variables passed to a
/// procedure adgen has no source for, which may set them. Arrays are filled element by
/// element, often in loops that could run zero times: only an array no statement may have
/// written yet is reported (W0303).
pub(super) fn undefined_on_entry(uir: &UnitIr, io: &InOut) -> (ZoneSet, ZoneSet) {
    let mut initialized = saved_locals(uir.unit);
    for d in &uir.unit.decls {
        if let DeclKind::Var { entities, .. } = &d.kind {
            initialized.extend(
                entities
                    .iter()
                    .filter(|e| e.init.is_some())
                    .map(|e| crate::il::key(&e.name)),
            );
        }
    }
    let mut unknown = uir.zones.empty_set();
    for n in &io.nodes {
        unknown |= &n.unknown_callee;
    }
    let mut scalars = uir.zones.empty_set();
    let mut arrays = uir.zones.empty_set();
    for (z, zone) in uir.zones.zones.iter().enumerate() {
        let symbol = uir.unit.symbols.get(&zone.name);
        let out_only = symbol.is_some_and(|s| s.intent == Some(crate::il::Intent::Out));
        // A member of an EQUIVALENCE set is set by writes through the others.
        let tracked = (zone.arg_index.is_none() || out_only)
            && !zone.global
            && !zone.shared
            && !initialized.contains(crate::il::key_ref(&zone.name).as_ref())
            && symbol.is_some_and(|s| s.kind == crate::il::SymbolKind::Variable)
            && zone.ty != ScalarType::Derived
            && !unknown[z];
        if zone.is_array {
            arrays.set(z, tracked);
        } else {
            scalars.set(z, tracked);
        }
    }
    (scalars, arrays)
}

/// The span of a node's statement.
pub(super) fn span_of(kind: &NodeKind) -> Option<crate::diag::Span> {
    match kind {
        NodeKind::Simple(s)
        | NodeKind::Cond(s, _)
        | NodeKind::WhileHead(s)
        | NodeKind::DoInit(s)
        | NodeKind::DoHead(s)
        | NodeKind::DoIncr(s) => Some(s.span),
        NodeKind::Entry | NodeKind::Exit => None,
    }
}

/// W0301 and W0303: variables read where they are not written on every path from the
/// entry (W0301), or on none (W0303).
pub(super) fn uninitialized(
    ir: &Ir,
    uir: &UnitIr,
    summaries: &[Option<Summary>],
) -> Vec<Diagnostic> {
    let (io, flags, guarded) = solve_unit(ir, uir, summaries);
    let (scalars, arrays) = undefined_on_entry(uir, &io);
    let mut out = Vec::new();
    let mut reported = uir.zones.empty_set();
    for (node, kind) in uir.flow.nodes.iter().enumerate() {
        let Some(span) = span_of(kind) else { continue };
        let guards = &flags.guards[node];
        let mut reads: Vec<(ZoneId, Vec<(usize, bool)>)> = Vec::new();
        match kind {
            NodeKind::Cond(
                Stmt {
                    kind: StmtKind::If { arms, .. },
                    ..
                },
                arm,
            ) => guarded_reads(&arms[*arm].0, uir, &flags, guards, &mut reads),
            NodeKind::WhileHead(Stmt {
                kind: StmtKind::DoWhile { cond, .. },
                ..
            }) => guarded_reads(cond, uir, &flags, guards, &mut reads),
            _ => reads.extend(
                io.nodes[node]
                    .reads
                    .iter_ones()
                    .map(|z| (z, guards.clone())),
            ),
        }
        let before = &guarded.before[node];
        let call = match kind {
            NodeKind::Simple(stmt) => call_site(stmt).map(|site| site.callee),
            _ => None,
        };
        for (z, guards) in reads {
            let never_written = !io.may_written.before[node][z];
            // A callee's read of an array is any element's, maybe one it wrote first.
            let tracked = scalars[z] || (arrays[z] && never_written && call.is_none());
            if !tracked || reported[z] || before[0][z] {
                continue;
            }
            // Set on every path along which the guarding flags have their values.
            if guards
                .iter()
                .any(|&(k, v)| before[1 + 2 * k + usize::from(v)][z])
            {
                continue;
            }
            reported.set(z, true);
            let name = &uir.zones.zones[z].name;
            let consequence = "derivatives computed from an unset value are as meaningless as \
                               the value";
            let d = match (never_written, call) {
                (false, None) => {
                    Diagnostic::warning("W0301", format!("`{name}` may be used before it is set"))
                        .with_help(format!(
                            "set `{name}` on every path that reaches this statement: {consequence}"
                        ))
                }
                (false, Some(callee)) => Diagnostic::warning(
                    "W0301",
                    format!(
                        "`{name}` may be used before it is set: it is passed to `{callee}`, \
                         which may read it, and some paths to this call do not set it"
                    ),
                )
                .with_help(format!(
                    "set `{name}` on every path that reaches this call: {consequence}"
                )),
                (true, None) => Diagnostic::warning(
                    "W0303",
                    format!("`{name}` is used before it is set, on every path that reaches it"),
                )
                .with_help(format!("give `{name}` a value first: {consequence}")),
                (true, Some(callee)) => Diagnostic::warning(
                    "W0303",
                    format!(
                        "`{name}` is used before it is set: it is passed to `{callee}`, which \
                         may read it, and no path to this call sets it"
                    ),
                )
                .with_help(format!("give `{name}` a value first: {consequence}")),
            };
            out.push(d.at(span));
        }
    }
    out
}

pub(super) use crate::ir::aliasing::overlap;

/// W0302, W0304 and E0508: storage that one call reaches twice while the callee
/// overwrites it through one of the two.
pub(super) fn aliasing(
    ir: &Ir,
    u: usize,
    units: &[UnitAnalysis],
    errors: &mut Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let uir = &ir.units[u];
    let caller = &units[u];
    let mut out = Vec::new();
    for (node, kind) in uir.flow.nodes.iter().enumerate() {
        let NodeKind::Simple(stmt) = kind else {
            continue;
        };
        let Some(site) = call_site(stmt) else {
            continue;
        };
        let Some(c) = ir.index_of(site.callee) else {
            continue;
        };
        let callee = ir.units[c].unit;
        let summary = &units[c].summary;
        let values = by_value(callee);
        let actuals = bind_actuals(callee, site.args);
        let writes = |k: usize| {
            summary.writes.get(k).is_some_and(|b| *b) && !values.get(k).is_some_and(|v| *v)
        };
        // Active around the call: varied and useful before it or after it. (A variable
        // that only gets derivative storage for the callee to reset carries a zero
        // derivative in and out, which aliasing cannot spoil.)
        let active = |name: &str| {
            let (Some(varied), Some(useful)) = (&caller.varied, &caller.useful) else {
                return false;
            };
            units[c].is_differentiated()
                && uir.zones.get(name).is_some_and(|z| {
                    (varied.before[node][z] && useful.before[node][z])
                        || (varied.after[node][z] && useful.after[node][z])
                })
        };
        // One warning per call and storage, however many pairs of arguments share it
        // (DLSODES passes `WK` and four parts of its integer view to `ODRV`).
        let mut warned = std::collections::BTreeSet::new();
        for (i, a) in actuals.iter().enumerate() {
            for (j, b) in actuals.iter().enumerate().skip(i + 1) {
                let (Some(a), Some(b)) = (a, b) else { continue };
                if crate::il::work_array_parts(callee, i, a, j, b) {
                    continue;
                }
                let Some((name, other)) = overlap(a, b, uir) else {
                    continue;
                };
                let dummy_type = |k: usize| callee.symbols.get(&callee.args[k]).map(|s| s.ty);
                // Dummies the callee's analyses already see as one storage.
                let zones = &ir.units[c].zones;
                let merged = zones.of_arg(i).is_some_and(|z| zones.of_arg(j) == Some(z));
                let dummy = |n: &str| uir.unit.symbols.get(n).is_some_and(|s| s.is_dummy());
                // Dummies that a caller passes one storage (`ir::aliasing`), passed on:
                // the warning at that caller's call says it.
                let passed_on = other.as_deref().is_some_and(|o| dummy(&name) && dummy(o));
                let what = match &other {
                    Some(other) if passed_on => {
                        format!("`{name}` (given the same storage as `{other}` by a caller)")
                    }
                    Some(other) => format!("`{name}` (EQUIVALENCEd with `{other}`)"),
                    None => format!("`{name}`"),
                };
                if values[i] || values[j] || !(writes(i) || writes(j)) {
                    continue;
                }
                // The callee's derivative assumes its dummies distinct (its analyses did):
                // with a derivative, the result is wrong, not merely compiler-dependent.
                // Refused, like every construct adgen cannot differentiate correctly.
                if !merged && active(&name) && (units[c].deriv_args[i] || units[c].deriv_args[j]) {
                    errors.push(
                        Diagnostic::error(
                            "E0508",
                            format!(
                                "{what} is passed both as `{}` and as `{}` of `{}`, which \
                                 overwrites one of them: its derivatives would be wrong",
                                callee.args[i], callee.args[j], callee.name
                            ),
                        )
                        .at(stmt.span)
                        .with_help(match (dummy_type(i), dummy_type(j)) {
                            (Some(a), Some(b)) if a != b => format!(
                                "`{}` sees the storage as {} and `{}` as {}: adgen cannot \
                                 follow derivatives through storage used as two types; \
                                 give each its own array",
                                callee.args[i],
                                a.describe(),
                                callee.args[j],
                                b.describe()
                            ),
                            _ => "pass a copy of the variable as one of the two arguments"
                                .to_string(),
                        }),
                    );
                    continue;
                }
                if passed_on || !warned.insert(uir.zones.get(&name)) {
                    continue;
                }
                out.push(
                    Diagnostic::warning(
                        "W0302",
                        format!(
                            "{what} is passed twice to `{}`, which overwrites one of the two: \
                             the result, and its derivatives, depend on the compiler",
                            site.callee
                        ),
                    )
                    .at(stmt.span)
                    .with_help("pass a copy as one of the two arguments"),
                );
            }
        }
        // A module variable passed as an argument to a procedure that also reaches it
        // through its module, one of the two ways overwriting it.
        let first_global = callee.args.len() + 1;
        let reads = |k: usize| summary.reads.get(k).is_some_and(|b| *b);
        for (k, actual) in actuals.iter().enumerate() {
            let Some(actual) = actual else { continue };
            let Some(z) = storage_zone(actual, uir) else {
                continue;
            };
            let Some(g) = uir.zones.globals.iter().position(|&x| x == z) else {
                continue;
            };
            let slot = first_global + g;
            let conflict = !values[k]
                && ((writes(k) && (reads(slot) || writes(slot)))
                    || (writes(slot) && (reads(k) || writes(k))));
            if !conflict {
                continue;
            }
            let name = &uir.zones.zones[z].name;
            // "module variable `u` ... through its module", or for a COMMON block
            // "variable `Y` of COMMON /STATE/ ... through the block".
            let global = &ir.globals[g].global;
            let (what, way) = match ir.common(&global.module) {
                Some(block) => (
                    format!(
                        "variable `{name}` of COMMON /{}/",
                        block.name.as_deref().unwrap_or("")
                    ),
                    "the block",
                ),
                None => (format!("module variable `{name}`"), "its module"),
            };
            // A callee that does not see the variable reaches it through its callees.
            let sees = callee
                .symbols
                .iter()
                .any(|s| s.global.as_ref().is_some_and(|r| r.key() == global.key()));
            let way = if sees { way } else { "the procedures it calls" };
            let help = format!(
                "pass a copy of `{name}`, or let `{}` use only one of the two",
                callee.name
            );
            // The callee's analyses see the dummy as the variable (`ir::aliasing`), or,
            // as for two dummies, with a derivative, refused.
            let zones = &ir.units[c].zones;
            let merged = zones
                .globals
                .get(g)
                .is_some_and(|&zg| zones.of_arg(k) == Some(zg));
            let refused = !merged && active(name);
            let message = |consequence: &str| {
                format!(
                    "{what} is passed as `{}` of `{}`, which also reaches it through {way} and \
                     overwrites it one of the two ways: {consequence}",
                    callee.args[k], callee.name
                )
            };
            if refused {
                errors.push(
                    Diagnostic::error("E0508", message("its derivatives would be wrong"))
                        .at(stmt.span)
                        .with_help(help),
                );
            } else {
                out.push(
                    Diagnostic::warning("W0304", message("the result depends on the compiler"))
                        .at(stmt.span)
                        .with_help(help),
                );
            }
        }
    }
    out
}

/// W0305: a dummy declared INTENT(IN) that the unit may overwrite, through a call (a
/// compiler sees the direct assignments, not what an external procedure does with an
/// argument). The caller, and its derivative, count on the value being kept.
pub(super) fn intent_in_written(uir: &UnitIr, io: &InOut) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let values = by_value(uir.unit);
    for (z, zone) in uir.zones.zones.iter().enumerate() {
        let Some(k) = zone.arg_index else { continue };
        let intent_in = uir
            .unit
            .symbols
            .get(&zone.name)
            .is_some_and(|s| s.intent == Some(crate::il::Intent::In));
        if !intent_in || values.get(k).is_some_and(|v| *v) {
            continue;
        }
        let Some((node, callee)) = uir.flow.nodes.iter().enumerate().find_map(|(n, kind)| {
            let NodeKind::Simple(stmt) = kind else {
                return None;
            };
            let site = call_site(stmt)?;
            // A procedure adgen has no source for may write anything: not worth a warning.
            (io.nodes[n].may_write[z] && !io.nodes[n].unknown_callee[z]).then_some((n, site.callee))
        }) else {
            continue;
        };
        let Some(span) = span_of(&uir.flow.nodes[node]) else {
            continue;
        };
        out.push(
            Diagnostic::warning(
                "W0305",
                format!(
                    "`{}` is declared INTENT(IN) in `{}`, but `{callee}` may overwrite it here",
                    zone.name, uir.unit.name
                ),
            )
            .at(span)
            .with_help(format!(
                "pass a copy of `{}` to `{callee}`, or declare it INTENT(INOUT): callers and \
                 their derivatives count on an INTENT(IN) argument keeping its value",
                zone.name
            )),
        );
    }
    out
}

/// The warnings (and the aliasing errors) of unit `u`, once activity is known.
pub fn diagnostics(
    ir: &Ir,
    u: usize,
    units: &[UnitAnalysis],
    summaries: &[Option<Summary>],
    errors: &mut Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    // Only where a root reaches: elsewhere I/O was stripped before analysis (`prepare::io`),
    // and a READ's variables would look unset; nor do their values reach derivatives.
    let mut out = if units[u].has_context {
        uninitialized(ir, &ir.units[u], summaries)
    } else {
        Vec::new()
    };
    out.extend(aliasing(ir, u, units, errors));
    out.extend(intent_in_written(&ir.units[u], &units[u].inout));
    out
}

impl Flags {
    pub(super) fn of(uir: &UnitIr) -> Flags {
        let mut flags = Flags {
            zones: Vec::new(),
            guards: vec![Vec::new(); uir.flow.len()],
        };
        let mut tests = Vec::new();
        crate::il::visit::walk_stmts(&uir.unit.body, &mut |s| {
            for e in crate::il::visit::stmt_exprs(s) {
                crate::il::visit::walk_expr(e, &mut |x| {
                    if let ExprKind::Binary(BinOp::And | BinOp::Or, a, _) = &x.kind {
                        tests.extend(flag_test(a, uir));
                    }
                });
                tests.extend(flag_test(e, uir));
            }
        });
        for (z, _) in tests {
            let zone = &uir.zones.zones[z];
            if zone.ty == ScalarType::Logical
                && !zone.is_array
                && !zone.global
                && zone.arg_index.is_none()
                && !flags.zones.contains(&z)
            {
                flags.zones.push(z);
            }
        }
        flags.zones.sort();
        if !flags.zones.is_empty() {
            flags.block(uir, &uir.unit.body, &[]);
        }
        flags
    }

    /// The guard a condition gives its arm: (flag index, value).
    pub(super) fn guard(&self, cond: &Expr, uir: &UnitIr) -> Option<(usize, bool)> {
        let (z, v) = flag_test(cond, uir)?;
        Some((self.zones.iter().position(|&f| f == z)?, v))
    }

    pub(super) fn block(&mut self, uir: &UnitIr, stmts: &[Stmt], guards: &[(usize, bool)]) {
        for s in stmts {
            // A loop's tests and increments run again after its body, which may have
            // assigned the flag: they keep only the guards the body leaves alone.
            let kept: Vec<(usize, bool)> = guards
                .iter()
                .copied()
                .filter(|g| {
                    crate::il::visit::child_blocks(s)
                        .iter()
                        .all(|child| !self.assigns(uir, child, g.0))
                })
                .collect();
            for node in uir
                .flow
                .node_of
                .get(&s.id)
                .into_iter()
                .chain(uir.flow.control_of.get(&s.id).into_iter().flatten())
            {
                self.guards[*node] = kept.clone();
            }
            match &s.kind {
                StmtKind::If {
                    arms, else_body, ..
                } => {
                    let mut outer = guards.to_vec();
                    let controls = uir.flow.control_of.get(&s.id).cloned().unwrap_or_default();
                    for (i, (cond, body)) in arms.iter().enumerate() {
                        if let Some(&node) = controls.get(i) {
                            self.guards[node] = outer.clone();
                        }
                        let guard = self.guard(cond, uir);
                        let mut inner = outer.clone();
                        inner.extend(guard.filter(|g| !self.assigns(uir, body, g.0)));
                        self.block(uir, body, &inner);
                        outer.extend(
                            guard
                                .filter(|g| !self.assigns(uir, body, g.0))
                                .map(|(k, v)| (k, !v)),
                        );
                    }
                    if let Some(body) = else_body {
                        let outer: Vec<(usize, bool)> = outer
                            .into_iter()
                            .filter(|g| !self.assigns(uir, body, g.0))
                            .collect();
                        self.block(uir, body, &outer);
                    }
                }
                _ => {
                    for child in crate::il::visit::child_blocks(s) {
                        self.block(uir, child, &kept);
                    }
                }
            }
        }
    }

    /// Whether `stmts` may assign flag `k` (directly, or by passing it to a procedure).
    pub(super) fn assigns(&self, uir: &UnitIr, stmts: &[Stmt], k: usize) -> bool {
        let flag = self.zones[k];
        let mut found = false;
        crate::il::visit::walk_stmts(stmts, &mut |s| {
            let mut names: Vec<&str> = Vec::new();
            match &s.kind {
                StmtKind::Assign { lhs, rhs } => {
                    names.extend(lhs.base_name());
                    if let ExprKind::Call(_, args) = &rhs.kind {
                        names.extend(args.iter().filter_map(|a| a.value.base_name()));
                    }
                }
                StmtKind::Call { args, .. } => {
                    names.extend(args.iter().filter_map(|a| a.value.base_name()));
                }
                StmtKind::Io { writes, .. } => {
                    names.extend(writes.iter().filter_map(Expr::base_name))
                }
                _ => {}
            }
            found |= names.iter().any(|n| uir.zones.get(n) == Some(flag));
        });
        found
    }
}
