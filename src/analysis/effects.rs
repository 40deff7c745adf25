//! What one statement reads and writes, in terms of zones: the elementary `Diff-dep(I)`
//! and `out(I)` of seeds/000 §5.2, from which every analysis builds its transfer function.

use crate::il::{Arg, Expr, ExprKind, Intrinsic, Stmt, StmtKind};
use crate::ir::{ZoneId, Zones};

/// Zones read by `expr` in a differentiable way: real variables not used as subscripts,
/// not under a piecewise-constant intrinsic, not inside a comparison.
pub fn diff_uses(expr: &Expr, zones: &Zones) -> Vec<ZoneId> {
    let mut out: Vec<ZoneId> = diff_refs(expr, zones).into_iter().map(|(_, z)| z).collect();
    out.sort();
    out.dedup();
    out
}

/// The references behind [`diff_uses`], by name as written (`s%x` for a component), with
/// their zones, in order of appearance.
pub fn diff_refs<'e>(expr: &'e Expr, zones: &Zones) -> Vec<(&'e str, ZoneId)> {
    let mut out = Vec::new();
    collect_diff_uses(expr, zones, &mut out);
    out
}

fn collect_diff_uses<'e>(expr: &'e Expr, zones: &Zones, out: &mut Vec<(&'e str, ZoneId)>) {
    match &expr.kind {
        ExprKind::Var(n) | ExprKind::Index(n, _) => {
            if let Some(z) = zones.get(n) {
                if zones.is_differentiable(n) {
                    out.push((n, z));
                }
            }
        }
        ExprKind::Intrinsic { op, args, .. } => {
            let diff_args: &[Arg] = match op {
                _ if op.is_passive() => &[],
                Intrinsic::Sign => &args[..args.len().min(1)],
                Intrinsic::Merge => &args[..args.len().min(2)],
                Intrinsic::Real => &args[..args.len().min(1)],
                _ => args,
            };
            for a in diff_args {
                collect_diff_uses(&a.value, zones, out);
            }
        }
        ExprKind::Unary(op, e) => {
            if *op != crate::il::UnOp::Not {
                collect_diff_uses(e, zones, out);
            }
        }
        ExprKind::Paren(e) => collect_diff_uses(e, zones, out),
        ExprKind::Binary(op, a, b) => {
            if op.is_arithmetic() {
                collect_diff_uses(a, zones, out);
                collect_diff_uses(b, zones, out);
            }
        }
        // Calls left inside expressions return passive values (real-valued calls are
        // hoisted into their own assignments before analysis).
        // Array syntax is scalarized before analysis (`prepare::scalarize`).
        ExprKind::Range { .. } | ExprKind::ArrayCtor(_) | ExprKind::ImpliedDo(_) => {}
        // Character data carries no derivative.
        ExprKind::Substring { .. } => {}
        ExprKind::Call(..)
        | ExprKind::Int(_)
        | ExprKind::Real(_)
        | ExprKind::Logical(_)
        | ExprKind::Str(_) => {}
    }
}

/// The zone an lvalue writes, and whether the write kills the whole zone.
pub fn lvalue_zone(lhs: &Expr, zones: &Zones) -> Option<(ZoneId, bool)> {
    match &lhs.kind {
        // A component (`s%x = ...`) writes part of its variable's zone.
        // A member of an EQUIVALENCE set writes part of the set's zone.
        ExprKind::Var(n) => zones
            .get(n)
            .map(|z| (z, !n.contains('%') && !zones.zones[z].shared)),
        ExprKind::Index(n, _) => zones.get(n).map(|z| (z, false)),
        // `task(1:2) = ...` writes part of `task`.
        ExprKind::Substring { base, .. } => lvalue_zone(base, zones).map(|(z, _)| (z, false)),
        ExprKind::Paren(inner) => lvalue_zone(inner, zones),
        _ => None,
    }
}

/// A procedure call as the analyses see it: `CALL f(args)` or `lhs = f(args)`.
pub struct CallSite<'a> {
    pub callee: &'a str,
    pub args: &'a [Arg],
    /// For a function call assigned to a variable: the left-hand side.
    pub result_lhs: Option<&'a Expr>,
}

/// The call a simple statement makes, if it is one.
pub fn call_site(stmt: &Stmt) -> Option<CallSite<'_>> {
    match &stmt.kind {
        StmtKind::Call { name, args } => Some(CallSite {
            callee: name,
            args,
            result_lhs: None,
        }),
        StmtKind::Assign { lhs, rhs } => match &rhs.kind {
            ExprKind::Call(name, args) => Some(CallSite {
                callee: name,
                args,
                result_lhs: Some(lhs),
            }),
            _ => None,
        },
        _ => None,
    }
}

/// One write a node makes: the zone, whether it kills the whole zone, and the zones its
/// new value depends on differentiably.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Def {
    pub zone: ZoneId,
    pub total: bool,
    pub diff_sources: Vec<ZoneId>,
}
