//! ALLOCATABLE dummies (and ALLOCATABLE components of dummy structures) whose
//! allocation a procedure changes for its caller, as model codes' set-up, swap and
//! clean-up routines do (`il::lifetime::ArgumentAllocation`); seeds/000 §7 (dynamic
//! memory), the derivative code for which is `diff::heap`:
//! - allocated for the caller (`allocate(w(0:n+1))` of an `intent(out)` dummy,
//!   `allocate(f%data(...))` of an `intent(inout)` structure's component): exactly once,
//!   at the top level, before any other use of it, with no jump before. The caller then
//!   always receives it allocated, and its own lifetime rules
//!   (`il::lifetime::check_with`) count the CALL as the ALLOCATE of its array. The
//!   caller passes it unallocated (its own pairing rules refuse a second allocation), so
//!   an `if (.not. allocated(w))` guard around the ALLOCATE always holds: the IF is
//!   replaced by its first branch (`unguard`), and its other branches, dead, go
//!   (`if (allocated(w)) deallocate(w)` before a resize, likewise);
//! - freed for good (a `finalize`): once, at the top level, with no use after and no
//!   jump before; the caller counts the CALL as the DEALLOCATE;
//! - freed and allocated again (a buffer swap by MOVE_ALLOC, `move_alloc`): under the
//!   pairing rules, from a caller that passes it allocated and gets it back allocated,
//!   possibly with other bounds.
//!
//! Allocating and then freeing a dummy, freeing an INTENT(OUT) one, or passing one on
//! to a procedure that allocates or frees it is refused (E0414).

use super::alloc::uses_name;
use super::*;
use crate::il::UnOp;
use crate::il::lifetime::ArgumentAllocation;

/// Whether a CALL of the body allocates the caller's `name` (`il::lifetime`).
pub(super) fn call_allocates(s: &Stmt, name: &str, program: &crate::il::UnitIndex) -> bool {
    crate::il::lifetime::allocated_by_call(s, &|n| program.unit(n))
        .iter()
        .any(|x| key(x) == key(name))
}

/// Whether a CALL of the body frees the caller's `name` for good (`il::lifetime`).
pub(super) fn call_frees(s: &Stmt, name: &str, program: &crate::il::UnitIndex) -> bool {
    crate::il::lifetime::freed_by_call(s, &|n| program.unit(n))
        .iter()
        .any(|x| key(x) == key(name))
}

/// Some CALL in the body allocates `name`.
pub(super) fn called_allocation(body: &[Stmt], name: &str, program: &crate::il::UnitIndex) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(body, &mut |s| found |= call_allocates(s, name, program));
    found
}

/// An ALLOCATABLE dummy (`u`), or component of a dummy structure (`f%h`): `Ok(None)`
/// when the procedure neither allocates nor frees it (the caller's array, read and
/// written here); otherwise what it does with it (`ArgumentAllocation`), which its
/// derivative code then does too: the tangent allocates and frees the derivative beside
/// it, the adjoint's forward sweep as the primal does, and its backward sweep re-creates
/// what the forward sweep freed; the caller frees what the callee's adjoint leaves
/// allocated. Refused (E0414), each where it is written: allocating or freeing it in a
/// loop or a branch or twice, using it before its ALLOCATE or after its DEALLOCATE, a
/// jump that could skip either, allocating it and then freeing it, passing it to a
/// procedure that allocates or frees it, and an INTENT(OUT) dummy array never allocated
/// (freed on entry) or freed again.
pub(super) fn allocated_for_caller(
    unit: &Unit,
    name: &str,
    span: Span,
    program: &crate::il::UnitIndex,
) -> Result<Option<ArgumentAllocation>, Diagnostic> {
    const HELP: &str = "allocate it once, at the top level of the procedure, before any other use of it; or allocate it in the caller and pass it allocated";
    let subject = match name.split_once('%') {
        Some((base, _)) => {
            format!("the ALLOCATABLE component `{name}` of the dummy argument `{base}`")
        }
        None => format!("the ALLOCATABLE dummy argument `{name}`"),
    };
    let refuse = |span: Span, why: &str| {
        Diagnostic::error(
            CODE,
            format!("{subject} {why}, which adgen does not differentiate yet"),
        )
        .at(span)
        .with_help(HELP)
    };
    let body = &unit.body;
    let mut by_call = None;
    crate::il::visit::walk_stmts(body, &mut |s| {
        if by_call.is_none() && call_allocates(s, name, program) {
            by_call = Some(s.span);
        }
    });
    let mut freed_by_call = None;
    crate::il::visit::walk_stmts(body, &mut |s| {
        if freed_by_call.is_none() && call_frees(s, name, program) {
            freed_by_call = Some(s.span);
        }
    });
    if let Some(at) = freed_by_call {
        return Err(refuse(at, "is passed here to a procedure that frees it"));
    }
    let base = name.split('%').next().unwrap_or(name);
    let intent_out = unit
        .symbols
        .get(base)
        .is_some_and(|s| s.intent == Some(crate::il::Intent::Out));
    let what = unit
        .argument_allocations_through(&|n| program.unit(n))
        .into_iter()
        .find(|(n, _)| key(n) == key(name))
        .map(|(_, w)| w);
    if let Some(freed) = first_deallocation(body, name) {
        if let Some(at) = by_call {
            return Err(refuse(
                at,
                "is passed here to a procedure that allocates it, and freed in this one",
            ));
        }
        // Freed: the caller passes it allocated.
        if intent_out {
            return Err(refuse(
                freed,
                "is INTENT(OUT), so freed on entry, and freed again here",
            ));
        }
        return match what {
            Some(ArgumentAllocation::Frees) => freed_for_caller(body, name, &refuse),
            Some(ArgumentAllocation::AllocatesThenFrees) => Err(refuse(
                freed,
                "is freed here after this procedure allocates it",
            )),
            _ => match crate::il::lifetime::check_reallocated(body, name) {
                Ok(_) => Ok(Some(ArgumentAllocation::Reallocates)),
                Err((problem, at)) => Err(refuse(at, reallocation_problem(problem))),
            },
        };
    }
    // Allocated for the caller: once on every path, by an ALLOCATE, by a CALL of a
    // procedure that allocates it for its own caller, or by an IF each of whose
    // branches does one of these.
    let at = match allocation_site(body, name, program) {
        Ok(Some(at)) => at,
        Ok(None) => {
            if intent_out && !name.contains('%') {
                return Err(refuse(
                    span,
                    "is INTENT(OUT), so freed on entry, but never allocated here: its caller would get it unallocated",
                ));
            }
            return Ok(None);
        }
        Err(at) => {
            return Err(refuse(
                at,
                "is allocated in a loop, in some branches of an IF but not all, or more than once",
            ));
        }
    };
    let before = &body[..at];
    let first = body[at].span;
    if uses_name(before, name) {
        return Err(refuse(first, "is used before this ALLOCATE"));
    }
    if let Some(j) = first_jump(before) {
        return Err(refuse(
            j,
            "may be left unallocated by this jump before its ALLOCATE",
        ));
    }
    Ok(Some(ArgumentAllocation::Allocates))
}

/// The index of the statement of `body` that allocates `name` on every path through it
/// (`allocates_always`), `None` when nothing in it allocates `name`; `Err` with the place
/// of an allocation that is not of this form (in a loop, in some branches only, twice).
fn allocation_site(
    body: &[Stmt],
    name: &str,
    program: &crate::il::UnitIndex,
) -> Result<Option<usize>, Span> {
    let mut found = None;
    for (i, s) in body.iter().enumerate() {
        if allocates_always(s, name, program)? {
            if found.is_some() {
                return Err(s.span);
            }
            found = Some(i);
        }
    }
    Ok(found)
}

/// Whether `s` allocates `name` on every path through it: an ALLOCATE of it, a CALL that
/// allocates it, or an IF with an ELSE each of whose branches allocates it once, before
/// any other use of it there and with no jump before; false when `s` does not allocate
/// it at all; `Err` as for [`allocation_site`].
fn allocates_always(s: &Stmt, name: &str, program: &crate::il::UnitIndex) -> Result<bool, Span> {
    let names_it = |items: &[Expr]| {
        items
            .iter()
            .any(|e| e.base_name().is_some_and(|n| key(n) == key(name)))
    };
    match &s.kind {
        StmtKind::Allocate(items) if names_it(items) => Ok(true),
        StmtKind::Call { .. } if call_allocates(s, name, program) => Ok(true),
        StmtKind::If {
            arms, else_body, ..
        } => {
            let branches = arms
                .iter()
                .map(|(_, b)| b.as_slice())
                .chain(else_body.as_deref());
            let (mut some, mut all) = (false, else_body.is_some());
            for branch in branches {
                match allocation_site(branch, name, program)? {
                    Some(i) => {
                        let before = &branch[..i];
                        if uses_name(before, name) || first_jump(before).is_some() {
                            return Err(branch[i].span);
                        }
                        some = true;
                    }
                    None => all = false,
                }
            }
            match (some, all) {
                (false, _) => Ok(false),
                (true, true) => Ok(true),
                (true, false) => {
                    Err(first_allocation_in(std::slice::from_ref(s), name, program)
                        .unwrap_or(s.span))
                }
            }
        }
        _ => match first_allocation_in(std::slice::from_ref(s), name, program) {
            Some(at) => Err(at),
            None => Ok(false),
        },
    }
}

/// The first ALLOCATE of `name`, or CALL that allocates it, among `stmts` at any depth.
fn first_allocation_in(stmts: &[Stmt], name: &str, program: &crate::il::UnitIndex) -> Option<Span> {
    let mut found = None;
    crate::il::visit::walk_stmts(stmts, &mut |x| {
        let direct = matches!(&x.kind, StmtKind::Allocate(items)
            if items.iter().any(|e| e.base_name().is_some_and(|n| key(n) == key(name))));
        if direct || call_allocates(x, name, program) {
            found.get_or_insert(x.span);
        }
    });
    found
}

/// A dummy the procedure frees for good (a `finalize`): once, at the top level, with no
/// use after, nor a jump before that could skip it.
fn freed_for_caller(
    body: &[Stmt],
    name: &str,
    refuse: &dyn Fn(Span, &str) -> Diagnostic,
) -> Result<Option<ArgumentAllocation>, Diagnostic> {
    let top = top_level_frees(body, name);
    let first = first_deallocation(body, name).unwrap_or_default();
    let [at] = top.as_slice() else {
        return Err(refuse(
            first,
            "is freed in a loop or a branch, or more than once",
        ));
    };
    if uses_name(&body[at + 1..], name) {
        return Err(refuse(first, "is used after this DEALLOCATE"));
    }
    if let Some(j) = first_jump(&body[..*at]) {
        return Err(refuse(
            j,
            "may be left allocated by this jump before its DEALLOCATE",
        ));
    }
    Ok(Some(ArgumentAllocation::Frees))
}

/// The indices of the top-level DEALLOCATEs naming `name`.
fn top_level_frees(body: &[Stmt], name: &str) -> Vec<usize> {
    body.iter()
        .enumerate()
        .filter(|(_, s)| {
            matches!(&s.kind, StmtKind::Deallocate(items)
                if items.iter().any(|e| e.base_name().is_some_and(|n| key(n) == key(name))))
        })
        .map(|(i, _)| i)
        .collect()
}

/// The first RETURN or GO TO among `stmts`, at any depth.
fn first_jump(stmts: &[Stmt]) -> Option<Span> {
    let mut jump = None;
    crate::il::visit::walk_stmts(stmts, &mut |s| {
        if matches!(s.kind, StmtKind::Return | StmtKind::Goto { .. }) {
            jump.get_or_insert(s.span);
        }
    });
    jump
}

/// Why a dummy the procedure frees and allocates again cannot be followed.
fn reallocation_problem(problem: crate::il::lifetime::Problem) -> &'static str {
    use crate::il::lifetime::Problem as P;
    match problem {
        P::AllocatedTwice => "is allocated here while it is allocated",
        P::FreedUnallocated => "is freed here while it is not allocated",
        P::FreedOutside => {
            "is freed here, in a loop or a branch that does not allocate it again, or at the end without being allocated again"
        }
        P::UsedUnallocated => "is used here while it is freed",
        P::NotFreedInBlock => "is allocated in this loop or branch and not freed in it",
        P::JumpOut => "is freed and allocated again in a procedure that also leaves by this jump",
        P::ExitOut => "is freed or allocated in the loop iteration this EXIT or CYCLE leaves",
    }
}

/// The first DEALLOCATE of `name` in the body.
fn first_deallocation(body: &[Stmt], name: &str) -> Option<Span> {
    let mut found = None;
    crate::il::visit::walk_stmts(body, &mut |x| {
        if let StmtKind::Deallocate(items) = &x.kind
            && items
                .iter()
                .any(|e| e.base_name().is_some_and(|n| key(n) == key(name)))
        {
            found.get_or_insert(x.span);
        }
    });
    found
}

/// The IFs at the top level of the body that test `.not. allocated(x)` of a dummy `x`
/// (or a dummy structure's component) before any other use of it, and allocate it in
/// their first branch: that branch always runs (the caller passes `x` unallocated), so
/// it replaces the IF. Likewise `if (allocated(x)) deallocate(x)` before a new
/// ALLOCATE (a resize): the caller of a procedure that frees `x` passes it allocated.
pub(super) fn unguard(unit: &mut Unit) {
    let mut i = 0;
    while i < unit.body.len() {
        let replaced = match &unit.body[i].kind {
            StmtKind::If { arms, .. } => arms.first().and_then(|(cond, first)| {
                // `.not. allocated(x)` around its ALLOCATE, or `allocated(x)` around its
                // DEALLOCATE (a resize), before any other use of `x`.
                let (name, freed) = match unallocated_test(cond) {
                    Some(n) => (n, false),
                    None => (allocated_of(cond)?, true),
                };
                let base = name.split('%').next().unwrap_or(name);
                let dummy = unit.args.iter().any(|a| key(a) == key(base));
                let acts = first.iter().any(|s| match (&s.kind, freed) {
                    (StmtKind::Allocate(items), false) | (StmtKind::Deallocate(items), true) => {
                        items
                            .iter()
                            .any(|e| e.base_name().is_some_and(|n| key(n) == key(name)))
                    }
                    _ => false,
                });
                (dummy && acts && !uses_name(&unit.body[..i], name)).then(|| first.clone())
            }),
            _ => None,
        };
        match replaced {
            Some(first) => {
                let n = first.len();
                unit.body.splice(i..=i, first);
                i += n;
            }
            None => i += 1,
        }
    }
}

/// The array `x` of a test `.not. allocated(x)`.
fn unallocated_test(cond: &Expr) -> Option<&str> {
    match &cond.kind {
        ExprKind::Paren(x) => unallocated_test(x),
        ExprKind::Unary(UnOp::Not, x) => allocated_of(x),
        _ => None,
    }
}

/// The array `x` of a test `allocated(x)` (`associated(x)` of an owning pointer).
fn allocated_of(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Paren(x) => allocated_of(x),
        ExprKind::Intrinsic {
            args,
            spelling: Some(s),
            ..
        } if (s.eq_ignore_ascii_case("allocated") || s.eq_ignore_ascii_case("associated"))
            && args.len() == 1 =>
        {
            args[0].value.base_name()
        }
        _ => None,
    }
}
