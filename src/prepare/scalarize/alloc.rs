//! ALLOCATABLE local arrays: turned into automatic arrays when they can be, else kept
//! allocatable with their ALLOCATE and DEALLOCATE paired (seeds/000 §7, dynamic memory;
//! the derivative code for those is `diff::heap`).
//!
//! An array allocated once, at the top level of the body, with bounds that only read
//! constants and dummy arguments the unit never assigns, becomes an automatic array with
//! those bounds (ALLOCATE and DEALLOCATE go): its derivative is then declared, sized and
//! freed with it in every derivative unit, which costs no tape at all.
//!
//! Any other ALLOCATABLE local (allocated in a loop or a branch, more than once, with
//! bounds the procedure computes) stays allocatable, under rules that make each ALLOCATE
//! and its DEALLOCATE a pair in one block, which the derivative code reverses as a unit:
//! - an ALLOCATE finds the array free, and its DEALLOCATE comes later in the same block
//!   (one at the end of the body is added when the top level never frees it);
//! - the array is used only while allocated: not before its ALLOCATE, nor after its
//!   DEALLOCATE (E0545, which also refuses freeing twice, or freeing in a loop or a
//!   branch an array allocated outside it);
//! - no RETURN or GO TO leaves while it is allocated, and no EXIT or CYCLE leaves the loop
//!   it was allocated in (E0546): the backward sweep frees the adjoint buffer at the
//!   ALLOCATE, which must then have been allocated at the DEALLOCATE.
//!
//! An ALLOCATABLE dummy is the caller's array: it stays as declared (its derivative is
//! ALLOCATABLE too) when the procedure only reads and writes it, and its whole-array
//! loops run over the caller's bounds; one the procedure allocates once for its caller
//! is followed (`for_caller`), and any other ALLOCATE or DEALLOCATE of a dummy is refused
//! (E0414). A local passed to an ALLOCATABLE dummy stays allocatable; a CALL that
//! allocates it counts as its ALLOCATE in the rules above. An ALLOCATABLE component of
//! a local structure (`f%h`) is kept allocatable under the same rules; one of a dummy
//! structure is the caller's, or allocated for it.
//!
//! Bounds that read a variable the procedure assigns are first copied into integer
//! locals (`w_hi1 = n - 1` before `ALLOCATE(w(0:w_hi1))`): nothing assigns those between
//! the ALLOCATE and its DEALLOCATE, so the backward sweep re-allocates with the same
//! bounds, and TBR saves the copies when a later iteration overwrites them.

use super::*;
use std::collections::BTreeMap;

use super::for_caller::{allocated_for_caller, call_allocates, call_frees, called_allocation};

/// E0545: an ALLOCATABLE local used outside an ALLOCATE / DEALLOCATE pair of one block.
const LIFETIME: &str = "E0545";
/// E0546: a jump out of the block where an array was allocated.
const JUMP: &str = "E0546";

pub(super) fn allocatables_to_automatic(
    unit: &mut Unit,
    assigned: &BTreeSet<String>,
    program: &crate::il::UnitIndex,
) -> Result<Vec<String>, Vec<Diagnostic>> {
    super::for_caller::unguard(unit);
    let mut names: Vec<(String, Span)> = Vec::new();
    for d in &unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
            && attrs
                .iter()
                .any(|a| matches!(a, crate::il::Attr::Allocatable))
        {
            names.extend(entities.iter().map(|e| (e.name.clone(), e.span)));
        }
    }
    let mut diags = Vec::new();
    let refuse = |span: Span, message: String, help: &str| {
        Diagnostic::error(CODE, message).at(span).with_help(help)
    };
    const HELP: &str = "allocate it once, at the top level of the procedure before its first use, with bounds from the arguments; or declare it as an automatic array such as `w(n)`";
    let mut bounds_of: Vec<(String, Vec<DimSpec>)> = Vec::new();
    let mut kept: Vec<String> = Vec::new();
    let mut for_caller: Vec<(String, crate::il::lifetime::ArgumentAllocation)> = Vec::new();
    for (name, span) in &names {
        let names_item = |e: &Expr| e.base_name().is_some_and(|n| key(n) == key(name));
        if unit.symbols.get(name).is_some_and(|s| s.is_dummy()) {
            // An ALLOCATABLE dummy the procedure only reads and writes is an array the
            // caller allocated: it stays as declared (its derivative is declared
            // ALLOCATABLE too, `diff::decls`), with the caller's bounds. One it
            // allocates once at the top level is allocated for the caller.
            match allocated_for_caller(unit, name, *span, program) {
                Ok(Some(what)) => for_caller.push((name.clone(), what)),
                Ok(None) => {}
                Err(d) => diags.push(d),
            }
            continue;
        }
        // Top-level ALLOCATE / DEALLOCATE of this array, and nested ones.
        let mut allocs = Vec::new();
        let mut deallocs = Vec::new();
        for (i, s) in unit.body.iter().enumerate() {
            match &s.kind {
                StmtKind::Allocate(items) if items.iter().any(names_item) => allocs.push(i),
                StmtKind::Deallocate(items) if items.iter().any(names_item) => deallocs.push(i),
                _ => {}
            }
        }
        let mut nested = None;
        for s in &unit.body {
            for child in crate::il::visit::child_blocks(s) {
                crate::il::visit::walk_stmts(child, &mut |x| {
                    if let StmtKind::Allocate(items) | StmtKind::Deallocate(items) = &x.kind
                        && items.iter().any(names_item)
                    {
                        nested.get_or_insert(x.span);
                    }
                });
            }
        }
        // Not hoistable: kept allocatable, under the pairing rules.
        let mut keep = |diags: &mut Vec<Diagnostic>| match lifetime(&unit.body, name, program) {
            Ok(()) => kept.push(key(name)),
            Err(d) => diags.push(d),
        };
        // Passed to an ALLOCATABLE dummy, it must stay allocatable.
        if nested.is_some() || passed_to_allocatable(&unit.body, name, program) {
            keep(&mut diags);
            continue;
        }
        let (alloc, dealloc) = match (allocs.as_slice(), deallocs.as_slice()) {
            ([a], []) => (*a, None),
            ([a], [d]) if d > a => (*a, Some(*d)),
            ([], []) if !uses_name(&unit.body, name) => continue,
            _ => {
                keep(&mut diags);
                continue;
            }
        };
        if uses_name(&unit.body[..alloc], name)
            || dealloc.is_some_and(|d| uses_name(&unit.body[d + 1..], name))
        {
            keep(&mut diags);
            continue;
        }
        let StmtKind::Allocate(items) = &unit.body[alloc].kind else {
            continue;
        };
        let item = items.iter().find(|e| names_item(e)).expect("found above");
        let ExprKind::Index(_, subs) = &item.kind else {
            diags.push(refuse(
                item.span,
                format!("ALLOCATE gives no bounds for `{name}`"),
                HELP,
            ));
            continue;
        };
        let mut dims = Vec::new();
        let mut ok = true;
        for s in subs {
            let (lower, upper) = match &s.kind {
                ExprKind::Range {
                    lower,
                    upper: Some(u),
                    stride: None,
                } => (lower.as_deref().cloned(), (**u).clone()),
                ExprKind::Range { .. } => {
                    ok = false;
                    break;
                }
                _ => (None, s.clone()),
            };
            let spec = |e: &Expr| {
                crate::il::visit::names_read(e).iter().all(|n| {
                    unit.symbols.get(n).is_some_and(|s| {
                        s.kind == crate::il::SymbolKind::Constant
                            || (s.is_dummy() && !assigned.contains(crate::il::key_ref(n).as_ref()))
                    })
                })
            };
            if !lower.as_ref().is_none_or(spec) || !spec(&upper) {
                ok = false;
                break;
            }
            dims.push(DimSpec {
                lower,
                upper: Bound::Expr(upper),
            });
        }
        if !ok {
            keep(&mut diags);
            continue;
        }
        bounds_of.push((key(name), dims));
    }
    allocatable_components(unit, program, &mut kept, &mut for_caller, &mut diags);
    if !diags.is_empty() {
        return Err(diags);
    }
    for (name, what) in &for_caller {
        unit.symbols.mark_argument_allocation(name, *what);
    }
    let converted = |e: &Expr| {
        e.base_name()
            .is_some_and(|n| bounds_of.iter().any(|(k, _)| *k == key(n)))
    };
    // The statements go; the declarations get the bounds.
    unit.body.retain_mut(|s| match &mut s.kind {
        StmtKind::Allocate(items) | StmtKind::Deallocate(items) => {
            items.retain(|e| !converted(e));
            !items.is_empty()
        }
        _ => true,
    });
    for d in &mut unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &mut d.kind
            && attrs
                .iter()
                .any(|a| matches!(a, crate::il::Attr::Allocatable))
        {
            let mut all = true;
            for e in entities.iter_mut() {
                match bounds_of.iter().find(|(k, _)| *k == key(&e.name)) {
                    Some((_, dims)) => e.dims = Some(dims.clone()),
                    None => all = false,
                }
            }
            if all {
                // (A POINTER read as ALLOCATABLE becomes an automatic array too.)
                attrs.retain(|a| {
                    !matches!(
                        a,
                        crate::il::Attr::Allocatable
                            | crate::il::Attr::Pointer
                            | crate::il::Attr::Dimension(_)
                    )
                });
            }
        }
    }
    for (k, dims) in bounds_of {
        if let Some(sym) = unit.symbols.get_mut(&k) {
            sym.dims = dims;
            sym.pointer = false;
        }
    }
    Ok(kept)
}

/// The ALLOCATABLE components of structures: those of a local structure are kept
/// allocatable, under the pairing rules of the arrays kept allocatable (allocated here or
/// by a procedure called with the structure); those of a dummy are the caller's, which
/// this unit may read and write, or allocate once for the caller (`allocated_for_caller`);
/// those of a module's or a function result's may not be allocated or freed here.
fn allocatable_components(
    unit: &Unit,
    program: &crate::il::UnitIndex,
    kept: &mut Vec<String>,
    for_caller: &mut Vec<(String, crate::il::lifetime::ArgumentAllocation)>,
    diags: &mut Vec<Diagnostic>,
) {
    for sym in unit.symbols.iter() {
        let name = &sym.name;
        let Some((base, _)) = name.split_once('%') else {
            continue;
        };
        if !sym.is_local_allocatable() {
            continue;
        }
        if unit.symbols.is_kept_allocatable(name) {
            let allocated_here = first_allocation(&unit.body, name, false).is_some()
                || called_allocation(&unit.body, name, program);
            match lifetime(&unit.body, name, program) {
                Ok(()) => kept.push(key(name)),
                // Allocated nowhere here, nor by a procedure called with the structure.
                Err(d) if !allocated_here => {
                    let span = match &d.location {
                        Some(crate::diag::Location::Span(s)) => *s,
                        _ => unit.span,
                    };
                    diags.push(
                        Diagnostic::error(
                            LIFETIME,
                            format!(
                                "`{name}` is used here, but neither this procedure nor a subroutine it calls with `{base}` as an argument allocates it first"
                            ),
                        )
                        .at(span)
                        .with_help("allocate the component here, or in a subroutine this procedure calls with the structure, before its first use"),
                    );
                }
                Err(d) => diags.push(d),
            }
            continue;
        }
        if unit.symbols.get(base).is_some_and(|b| b.is_dummy()) {
            match allocated_for_caller(unit, name, sym.span, program) {
                Ok(Some(what)) => for_caller.push((name.clone(), what)),
                Ok(None) => {}
                Err(d) => diags.push(d),
            }
            continue;
        }
        if let Some(span) = first_allocation(&unit.body, name, true) {
            diags.push(
                Diagnostic::error(
                    CODE,
                    format!(
                        "the ALLOCATABLE component `{name}` belongs to `{base}`, which is not a local variable or a dummy argument of this procedure: allocating or freeing it here is not differentiated yet"
                    ),
                )
                .at(span)
                .with_help("allocate the component in the procedure that declares the structure, or in a subroutine that takes the structure as an argument"),
            );
        }
    }
}

/// The first ALLOCATE of `name` in the body (or DEALLOCATE too, with `freed`).
pub(super) fn first_allocation(body: &[Stmt], name: &str, freed: bool) -> Option<Span> {
    let mut found = None;
    crate::il::visit::walk_stmts(body, &mut |x| {
        let items = match &x.kind {
            StmtKind::Allocate(items) => items,
            StmtKind::Deallocate(items) if freed => items,
            _ => return,
        };
        if items
            .iter()
            .any(|e| e.base_name().is_some_and(|n| key(n) == key(name)))
        {
            found.get_or_insert(x.span);
        }
    });
    found
}

/// Is array `name` passed whole to an ALLOCATABLE dummy of a procedure the body calls?
fn passed_to_allocatable(body: &[Stmt], name: &str, program: &crate::il::UnitIndex) -> bool {
    let takes = |callee: &str, i: usize, arg: &crate::il::Arg| {
        let Some(u) = program.unit(callee) else {
            return false;
        };
        let dummy = match &arg.keyword {
            Some(k) => Some(k.as_str()),
            None => u.args.get(i).map(String::as_str),
        };
        matches!(&arg.value.kind, ExprKind::Var(n) if key(n) == key(name))
            && dummy.is_some_and(|d| u.declares_allocatable(d))
    };
    let mut found = false;
    crate::il::visit::walk_stmts(body, &mut |s| {
        if let StmtKind::Call { name: callee, args } = &s.kind {
            found |= args.iter().enumerate().any(|(i, a)| takes(callee, i, a));
        }
        for e in crate::il::visit::stmt_exprs(s) {
            crate::il::visit::walk_expr(e, &mut |x| {
                if let ExprKind::Call(callee, args) = &x.kind {
                    found |= args.iter().enumerate().any(|(i, a)| takes(callee, i, a));
                }
            });
        }
    });
    found
}

/// Checks the pairing rules of a kept array over the body (E0545, E0546).
fn lifetime(body: &[Stmt], name: &str, program: &crate::il::UnitIndex) -> Result<(), Diagnostic> {
    use crate::il::lifetime::Problem;
    const PAIR: &str = "allocate the array and free it in the same block (the same loop body or branch), and use it only in between";
    let by_call = |s: &Stmt| call_allocates(s, name, program);
    let freed_by_call = |s: &Stmt| call_frees(s, name, program);
    let (problem, span) =
        match crate::il::lifetime::check_with(body, name, &by_call, &freed_by_call) {
            Ok(_) => return Ok(()),
            Err(p) => p,
        };
    let (code, message, help) = match problem {
        Problem::AllocatedTwice => (
            LIFETIME,
            format!("`{name}` is allocated again before it is freed"),
            PAIR,
        ),
        Problem::FreedUnallocated => (
            LIFETIME,
            format!(
                "`{name}` is freed when it is not allocated (freed twice, or before it is allocated)"
            ),
            PAIR,
        ),
        Problem::FreedOutside => (
            LIFETIME,
            format!(
                "`{name}` is freed in a loop or a branch that does not allocate it again, but was allocated outside it"
            ),
            "allocate the array and free it in the same block (the same loop body or branch), or allocate it again in the block that frees it (a reallocation)",
        ),
        Problem::UsedUnallocated => (
            LIFETIME,
            format!(
                "`{name}` is used here when it is not allocated (before it is allocated or after it is freed)"
            ),
            PAIR,
        ),
        Problem::NotFreedInBlock => (
            LIFETIME,
            format!("`{name}` is allocated in this loop or branch but not freed in it"),
            PAIR,
        ),
        Problem::JumpOut => (
            JUMP,
            format!("this jump leaves the procedure while `{name}` is allocated"),
            "free the array before the jump, or move the jump before the allocation or after the deallocation",
        ),
        Problem::ExitOut => (
            JUMP,
            format!(
                "this jump leaves the loop iteration in which `{name}` was allocated, before it is freed"
            ),
            "free the array before the EXIT or CYCLE",
        ),
    };
    Err(Diagnostic::error(code, message).at(span).with_help(help))
}

impl Scalarizer<'_> {
    /// For the arrays kept allocatable: bounds that read variables the unit assigns are
    /// copied into integer locals before each ALLOCATE, and an array the top level
    /// leaves allocated is freed at the end of the body.
    pub(super) fn kept_allocations(
        &mut self,
        mut body: Vec<Stmt>,
        kept: &[String],
        program: &crate::il::UnitIndex,
    ) -> Vec<Stmt> {
        if kept.is_empty() {
            return body;
        }
        // A reallocated array (freed and allocated again in a loop or branch) shares one
        // copy of each bound between all its ALLOCATEs, every part copied when they are
        // written differently: the DEALLOCATEs that free an allocation made elsewhere
        // are reversed with those bounds (`diff::heap`).
        let mut shared = Reallocated::default();
        for name in kept {
            let by_call = |s: &Stmt| call_allocates(s, name, program);
            if !crate::il::lifetime::reallocated_with(&body, name, &by_call) {
                continue;
            }
            let mut items = Vec::new();
            crate::il::visit::walk_stmts(&body, &mut |s| {
                if let StmtKind::Allocate(list) = &s.kind {
                    items.extend(
                        list.iter()
                            .filter(|e| e.base_name().is_some_and(|n| key(n) == *name)),
                    );
                }
            });
            let alike = items
                .windows(2)
                .all(|w| crate::il::lifetime::same_form(w[0], w[1]));
            shared.arrays.insert(name.clone(), alike);
        }
        body = self.copy_bounds(body, kept, &mut shared);
        for name in kept {
            let by_call = |s: &Stmt| call_allocates(s, name, program);
            let freed_by_call = |s: &Stmt| call_frees(s, name, program);
            let end = crate::il::lifetime::check_with(&body, name, &by_call, &freed_by_call);
            if end.is_ok_and(|st| st != crate::il::lifetime::State::Free) {
                let st = self.new_stmt(StmtKind::Deallocate(vec![Expr::var(name)]));
                body.push(st);
            }
        }
        body
    }

    fn copy_bounds(
        &mut self,
        block: Vec<Stmt>,
        kept: &[String],
        shared: &mut Reallocated,
    ) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(block.len());
        for mut s in block {
            for child in crate::il::visit::child_blocks_mut(&mut s) {
                let b = std::mem::take(child);
                *child = self.copy_bounds(b, kept, shared);
            }
            if let StmtKind::Allocate(items) = &mut s.kind {
                let mut copies = Vec::new();
                for item in items.iter_mut() {
                    let ExprKind::Index(name, subs) = &mut item.kind else {
                        continue;
                    };
                    if !kept.contains(&crate::il::key(name)) {
                        continue;
                    }
                    let name = name.clone();
                    for (d, sub) in subs.iter_mut().enumerate() {
                        let parts: Vec<(&mut Expr, &str)> = match &mut sub.kind {
                            ExprKind::Range { lower, upper, .. } => {
                                let mut v = Vec::new();
                                if let Some(l) = lower {
                                    v.push((&mut **l, "lo"));
                                }
                                if let Some(u) = upper {
                                    v.push((&mut **u, "hi"));
                                }
                                v
                            }
                            _ => vec![(sub, "hi")],
                        };
                        let alike = shared.arrays.get(&key(&name)).copied();
                        for (e, which) in parts {
                            if self.recomputable(e) && alike != Some(false) {
                                continue;
                            }
                            let part = (key(&name), which, d);
                            let t = match (alike, shared.temps.get(&part)) {
                                (Some(_), Some(t)) => t.clone(),
                                _ => {
                                    let t = self.temp(
                                        &format!("{}_{which}{}", name.replace('%', "_"), d + 1),
                                        ScalarType::Integer(4),
                                    );
                                    if alike.is_some() {
                                        shared.temps.insert(part, t.clone());
                                    }
                                    t
                                }
                            };
                            let copy = self.assign(Expr::var(&t), e.clone());
                            copies.push(copy);
                            *e = Expr::var(&t);
                        }
                    }
                }
                out.extend(copies);
            }
            out.push(s);
        }
        out
    }

    /// A bound that reads only constants and dummies the unit never assigns.
    fn recomputable(&self, e: &Expr) -> bool {
        crate::il::visit::names_read(e).iter().all(|n| {
            self.symbols.get(n).is_some_and(|s| {
                s.kind == crate::il::SymbolKind::Constant
                    || (s.is_dummy() && !self.assigned.contains(crate::il::key_ref(n).as_ref()))
            })
        })
    }
}

/// The reallocated arrays of a unit (keys; whether all their ALLOCATEs are written
/// alike), and the integer locals their bounds share, by (array, part, dimension).
#[derive(Default)]
struct Reallocated {
    arrays: BTreeMap<String, bool>,
    temps: BTreeMap<(String, &'static str, usize), String>,
}

pub(super) fn uses_name(body: &[Stmt], name: &str) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(body, &mut |s| {
        found |= stmt_names(s).contains(&crate::il::key(name));
        if let StmtKind::Allocate(items) | StmtKind::Deallocate(items) = &s.kind {
            found |= items
                .iter()
                .any(|e| e.base_name().is_some_and(|n| key(n) == key(name)));
        }
    });
    found
}
