//! The "first call" cache of FORTRAN 77 libraries: SAVEd variables computed once, on
//! the first call, under a SAVEd logical flag (LAPACK's DLAMCH, the machine-constant
//! routines D1MACH and R1MACH, lazily built tables):
//!
//! ```fortran
//!       LOGICAL FIRST
//!       SAVE FIRST, EPS
//!       DATA FIRST / .TRUE. /
//!       IF (FIRST) THEN
//!          FIRST = .FALSE.
//!          EPS = ...
//!       END IF
//! ```
//!
//! A second run of such a procedure (the adjoint's rerun of a call, joint mode) finds
//! the flag down and the cache as the first run left it, so it computes what the first
//! run did: the cached variables need not be restored before it (they would otherwise
//! be refused, E0514, `refusals`). Recognized when the flag is a SAVEd variable that
//! the block tests alone (`IF (flag) THEN`, no ELSE, at the top level of the body),
//! that the block sets to `.FALSE.` at its own top level, with no jump or RETURN in the
//! block that could leave before (an EXIT or CYCLE there belongs to a loop of the
//! block), and that nothing else writes; the cache is the
//! SAVEd variables that only such blocks write.
//!
//! Likewise "warn once" flags and call counters (`self_deciding`): SAVEd variables
//! read only by IFs that do nothing but set or count such variables and call
//! procedures that change nothing (the warning they print, the data a first call
//! reports, are output, which derivative code drops; crystal_qed's `ncall` decides only
//! whether to print its input), and otherwise only counted (`n = n + 1`), so a rerun
//! that finds them changed computes the same.

use std::collections::BTreeSet;

use crate::il::{ExprKind, Stmt, StmtKind, Unit, key, visit};

/// The SAVEd variables of `unit` (keys) that a first-call block alone writes, with its
/// flags.
pub(crate) fn cached(unit: &Unit, saved: &BTreeSet<String>) -> BTreeSet<String> {
    let mut blocks: Vec<&Stmt> = Vec::new();
    let mut flags = BTreeSet::new();
    for s in &unit.body {
        let StmtKind::If {
            arms,
            else_body: None,
            ..
        } = &s.kind
        else {
            continue;
        };
        let [(cond, body)] = arms.as_slice() else {
            continue;
        };
        let ExprKind::Var(flag) = &cond.kind else {
            continue;
        };
        let flag = key(flag);
        if !saved.contains(&flag) {
            continue;
        }
        let lowered = body.iter().any(|x| {
            matches!(&x.kind, StmtKind::Assign { lhs, rhs }
                if matches!(&lhs.kind, ExprKind::Var(n) if key(n) == flag)
                    && matches!(rhs.kind, ExprKind::Logical(false)))
        });
        let mut leaves = false;
        visit::walk_stmts(body, &mut |x| {
            leaves |= matches!(
                x.kind,
                StmtKind::Return
                    | StmtKind::Goto { .. }
                    | StmtKind::ComputedGoto { .. }
                    | StmtKind::ArithmeticIf { .. }
            );
        });
        if lowered && !leaves {
            blocks.push(s);
            flags.insert(flag);
        }
    }
    if blocks.is_empty() {
        return BTreeSet::new();
    }
    // What the rest of the body writes, and what the blocks write besides lowering
    // their flags.
    let is_block = |s: &Stmt| blocks.iter().any(|b| std::ptr::eq(*b, s));
    let written_in = |keep: &dyn Fn(&Stmt) -> bool| -> BTreeSet<String> {
        unit.body
            .iter()
            .filter(|s| keep(s))
            .flat_map(|s| super::access::names_written_in(std::slice::from_ref(s)))
            .map(key)
            .collect()
    };
    let written_outside = written_in(&|s| !is_block(s));
    let mut flag_set_otherwise = false;
    for b in &blocks {
        visit::walk_stmts(std::slice::from_ref(*b), &mut |x| match &x.kind {
            StmtKind::Assign { lhs, rhs }
                if lhs.base_name().is_some_and(|n| flags.contains(&key(n))) =>
            {
                flag_set_otherwise |= !matches!(rhs.kind, ExprKind::Logical(false));
            }
            StmtKind::Call { args, .. } => {
                flag_set_otherwise |= args
                    .iter()
                    .any(|a| a.value.base_name().is_some_and(|n| flags.contains(&key(n))));
            }
            _ => {}
        });
    }
    if flag_set_otherwise || flags.iter().any(|f| written_outside.contains(f)) {
        return BTreeSet::new();
    }
    written_in(&is_block)
        .into_iter()
        .filter(|n| saved.contains(n) && !written_outside.contains(n))
        .collect()
}

/// The SAVEd variables of `unit` (keys) that only decide whether to set themselves (or
/// one another): "warn once" flags, `IF (T > T_MAX .AND. .NOT. WARNED) THEN; WARNED =
/// .TRUE.`, whose warning output the derivative code has already dropped. Their values
/// change nothing else, so a rerun that sees them changed computes the same.
/// `inert` says of a procedure that calling it changes nothing (it writes no argument
/// and no global, and reads no input).
pub(crate) fn self_deciding(
    unit: &Unit,
    saved: &BTreeSet<String>,
    inert: &dyn Fn(&str) -> bool,
) -> BTreeSet<String> {
    let mut flags: BTreeSet<String> = saved.clone();
    loop {
        let before = flags.len();
        let current = flags.clone();
        visit::walk_stmts(&unit.body, &mut |s| {
            let mut read = BTreeSet::new();
            for e in visit::stmt_exprs(s) {
                read.extend(visit::names_read(e).into_iter().map(key));
            }
            if let StmtKind::Assign { lhs, .. } = &s.kind
                && let ExprKind::Index(_, subs) = &lhs.kind
            {
                for x in subs {
                    read.extend(visit::names_read(x).into_iter().map(key));
                }
            }
            let read: BTreeSet<String> = read.into_iter().filter(|n| current.contains(n)).collect();
            if read.is_empty() || counts(s, &current) {
                return;
            }
            // Read by an IF that only sets such flags to constants: fine.
            if let StmtKind::If {
                arms, else_body, ..
            } = &s.kind
                && arms
                    .iter()
                    .map(|(_, b)| b)
                    .chain(else_body.iter())
                    .all(|b| b.iter().all(|x| sets_flag(x, &current, inert)))
            {
                return;
            }
            for n in read {
                flags.remove(&n);
            }
        });
        if flags.len() == before {
            break;
        }
    }
    // Only what the body changes matters; what it also passes on or writes otherwise
    // is not a flag.
    let mut written_otherwise = BTreeSet::new();
    visit::walk_stmts(&unit.body, &mut |s| {
        if sets_flag(s, &flags, inert) {
            return;
        }
        // A statement's own writes: those of the statements inside it are seen there.
        if let StmtKind::Do { var, .. } = &s.kind {
            written_otherwise.insert(key(var));
        } else if visit::child_blocks(s).is_empty() {
            written_otherwise.extend(
                super::access::names_written_in(std::slice::from_ref(s))
                    .into_iter()
                    .map(key),
            );
        }
    });
    flags.retain(|f| !written_otherwise.contains(f));
    flags
}

/// `flag = constant` or a count `flag = flag + 1` of one of `flags`, a call of a
/// procedure that changes nothing, or a statement doing nothing.
fn sets_flag(s: &Stmt, flags: &BTreeSet<String>, inert: &dyn Fn(&str) -> bool) -> bool {
    match &s.kind {
        StmtKind::Assign { lhs, rhs } => {
            counts(s, flags)
                || matches!(&lhs.kind, ExprKind::Var(n) if flags.contains(&key(n)))
                    && matches!(
                        rhs.kind,
                        ExprKind::Logical(_) | ExprKind::Int(_) | ExprKind::Real(_)
                    )
        }
        StmtKind::Call { name, .. } => inert(name),
        StmtKind::Continue | StmtKind::Comment(_) => true,
        _ => false,
    }
}

/// `n = n + k` or `n = n - k` (`k` a constant) of one of `flags`.
fn counts(s: &Stmt, flags: &BTreeSet<String>) -> bool {
    let StmtKind::Assign { lhs, rhs } = &s.kind else {
        return false;
    };
    let ExprKind::Var(n) = &lhs.kind else {
        return false;
    };
    let same = |e: &crate::il::Expr| matches!(&e.kind, ExprKind::Var(m) if key(m) == key(n));
    let constant = |e: &crate::il::Expr| matches!(e.kind, ExprKind::Int(_));
    flags.contains(&key(n))
        && match &rhs.kind {
            ExprKind::Binary(crate::il::BinOp::Add, a, b) => {
                (same(a) && constant(b)) || (constant(a) && same(b))
            }
            ExprKind::Binary(crate::il::BinOp::Sub, a, b) => same(a) && constant(b),
            _ => false,
        }
}
