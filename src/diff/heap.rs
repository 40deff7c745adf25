//! ALLOCATE and DEALLOCATE of local arrays in the derivative code: derivative buffers
//! allocated beside the primal ones and re-created in the backward sweep (seeds/000 §7,
//! "Dynamic memory management causes the adjoint backward sweep to use memory that was
//! deallocated by the forward sweep. One answer is to allocate some memory again"). The
//! objection there, saved addresses inconsistent with the new chunk, does not arise: the
//! IL has no pointers into these arrays, only the array names and element indices, which
//! stay valid in the re-allocated array.
//!
//! Which arrays are kept allocatable: `il::SymbolTable::is_kept_allocatable` (local
//! arrays, and ALLOCATABLE components of local structures).
//!
//! `prepare::scalarize::alloc` turns the ALLOCATABLE locals it can (allocated once at the
//! top level with bounds known on entry) into automatic arrays; the others keep their
//! ALLOCATE and DEALLOCATE, each ALLOCATE paired with a DEALLOCATE later in the same
//! block, and with bounds that read nothing the procedure assigns between the two (the
//! pass copies such bounds into integer locals first). For those arrays:
//!
//! - Tangent: `ALLOCATE(w(l:u))` is followed by `ALLOCATE(wd(l:u))` and a loop zeroing
//!   `wd`; `DEALLOCATE(w)` is preceded by `DEALLOCATE(wd)`.
//! - Adjoint, forward sweep: the primal is allocated and freed where it was. `DEALLOCATE`
//!   kills the whole array (`analysis::access`), so TBR sees it as a total overwrite: when
//!   the backward sweep reads values of `w` (a partial derivative, a subscript), they are
//!   pushed whole just before the DEALLOCATE (`pushreal8array(w, size)`).
//! - Adjoint, backward sweep, in reverse order: at the DEALLOCATE, `wb` is allocated
//!   (zeroed) and, when `w` was pushed, `w` is allocated again and popped; at the
//!   ALLOCATE, `wb` (and `w` when re-created) is freed. The bounds are those of the
//!   ALLOCATE: the integers they read are ordinary variables for TBR, pushed when a later
//!   statement (the next iteration's copy of the bounds) overwrites them.
//!
//! A loop body or a branch may free an array allocated outside it and allocate it again
//! (`il::lifetime`: a reallocation, as C's `realloc` of a buffer grown inside the loop
//! that fills it is lowered). Such a DEALLOCATE has no ALLOCATE before it in its block:
//! the allocation it frees is the one in force, which may be any ALLOCATE of the array
//! (the one before the loop, or the previous iteration's). The backward sweep re-creates
//! it from the bounds every ALLOCATE of the array shares (`prepare::scalarize::alloc`
//! copies them into the same integer locals just before each ALLOCATE, so they hold
//! while the array is allocated); an array whose ALLOCATEs differ has its bounds taped.
//! Its ALLOCATEs and DEALLOCATEs no longer pair one to one, so the backward sweep
//! re-creates the primal at every DEALLOCATE of it and frees it at every ALLOCATE as
//! soon as one DEALLOCATE saves its values (`recreates`).
//!
//! A DEALLOCATE whose bounds no ALLOCATE of the unit gives for sure (`bounds_on_tape`: a
//! dummy whose allocation the unit changes, an array a CALL allocates or reallocates,
//! ALLOCATEs written differently) pushes them on the tape instead, and the backward
//! sweep pops them; a dummy is always re-created there, as its caller passed it.
//!
//! An array of this unit that a CALL allocates (the callee allocates its dummy for its
//! caller, `prepare::scalarize::for_caller`) has no ALLOCATE here to give its bounds:
//! - Tangent: after the CALL, its derivative is allocated with the bounds the callee
//!   gave the primal and zeroed, unless the callee's tangent allocated it already.
//! - Adjoint: each DEALLOCATE of it pushes its bounds (after its values, when those are
//!   saved), and the backward sweep pops them to re-create the adjoint buffer and the
//!   primal. At the CALL, the backward sweep frees the primal before the callee's
//!   adjoint (whose forward sweep allocates it again) and frees whatever the callee's
//!   adjoint leaves allocated after it; the callee's adjoint leaves both allocated, so
//!   that a root's user gets them as the forward sweep made them.
//!
//! A CALL that frees arrays of this unit (for good, or to allocate them again with other
//! bounds, a swap) has their bounds pushed before it; the backward sweep re-creates
//! them with those bounds before the values restored for the callee's re-run and the
//! re-run itself (`Adj::reshape_reallocated`). The tangent frees a derivative the
//! callee's tangent left allocated.
//!
//! Why the primal is freed in the forward sweep and restored from the tape rather than
//! kept alive until the backward sweep: an allocation in a loop allocates a new array at
//! each iteration, and the backward sweep needs each iteration's values in turn; one
//! array kept alive would hold the last iteration's only (and leak the others). The tape
//! peak is then the sum of the freed arrays the backward sweep reads, pushed only when
//! TBR says the backward sweep reads them (a work array whose values no partial
//! derivative reads costs nothing on the tape but its bounds).

use crate::il::{BinOp, Expr, ExprKind, ScalarType, Stmt, StmtId, StmtKind, key};
use crate::il::{TypeSpec, visit};

use super::UnitGen;

/// The (lower, upper) bounds of each dimension of an allocation.
pub(crate) type Bounds = Vec<(Expr, Expr)>;

/// The (lower, upper) bounds of each dimension of an ALLOCATE item `w(l:u, n)`.
pub(crate) fn item_bounds(item: &Expr) -> Option<Bounds> {
    let ExprKind::Index(_, subs) = &item.kind else {
        return None;
    };
    subs.iter()
        .map(|s| match &s.kind {
            ExprKind::Range {
                lower,
                upper: Some(u),
                stride: None,
            } => Some((
                lower.as_deref().cloned().unwrap_or_else(|| Expr::int(1)),
                (**u).clone(),
            )),
            ExprKind::Range { .. } => None,
            _ => Some((Expr::int(1), s.clone())),
        })
        .collect()
}

/// The item `w(bounds)` for another array name (`wd(bounds)`).
pub(crate) fn renamed(item: &Expr, name: &str) -> Expr {
    match &item.kind {
        ExprKind::Index(_, subs) => Expr::new(ExprKind::Index(name.to_string(), subs.clone())),
        _ => Expr::var(name),
    }
}

fn literal(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(t) => t.parse().ok(),
        _ => None,
    }
}

fn paren(e: &Expr) -> Expr {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::Index(..) | ExprKind::Paren(_) => e.clone(),
        _ => Expr::new(ExprKind::Paren(Box::new(e.clone()))),
    }
}

/// The number of elements of an array with these bounds.
pub(crate) fn size_of(bounds: &[(Expr, Expr)]) -> Expr {
    let mut size: Option<Expr> = None;
    for (lower, upper) in bounds {
        let extent = match (literal(lower), literal(upper)) {
            (Some(l), Some(u)) => Expr::int(u - l + 1),
            _ => extent(lower, upper),
        };
        size = Some(match size {
            None => extent,
            Some(acc) => Expr::binary(BinOp::Mul, acc, paren(&extent)),
        });
    }
    size.unwrap_or_else(|| Expr::int(1))
}

/// `upper - lower + 1`, simplified for the lower bounds 1 and 0.
fn extent(lower: &Expr, upper: &Expr) -> Expr {
    {
        match literal(lower) {
            Some(1) => upper.clone(),
            Some(0) => match &upper.kind {
                // `n - 1` + 1
                ExprKind::Binary(BinOp::Sub, a, b) if literal(b) == Some(1) => (**a).clone(),
                _ => Expr::binary(BinOp::Add, upper.clone(), Expr::int(1)),
            },
            _ => Expr::binary(
                BinOp::Add,
                Expr::binary(BinOp::Sub, paren(upper), paren(lower)),
                Expr::int(1),
            ),
        }
    }
}

/// Nested DO loops setting every element of `name` (with these bounds) to zero.
pub(crate) fn zero_loops(
    ug: &mut UnitGen,
    name: &str,
    bounds: &[(Expr, Expr)],
    zero: Expr,
) -> Vec<Stmt> {
    let vars: Vec<String> = bounds
        .iter()
        .map(|_| ug.temp("ii", TypeSpec::of(ScalarType::Integer(4))))
        .collect();
    let element = Expr::new(ExprKind::Index(
        name.to_string(),
        vars.iter().map(Expr::var).collect(),
    ));
    let mut body = vec![super::assign(element, zero)];
    // The first index varies fastest: innermost loop.
    for (v, (lower, upper)) in vars.iter().zip(bounds) {
        body = vec![Stmt::generated(StmtKind::Do {
            var: v.clone(),
            start: Box::new(lower.clone()),
            end: Box::new(upper.clone()),
            step: None,
            body,
            name: None,
        })];
    }
    body
}

/// The block of `body` (at any depth) that holds the statement `id`, and its index.
fn block_of(body: &[Stmt], id: StmtId) -> Option<(&[Stmt], usize)> {
    if let Some(i) = body.iter().position(|s| s.id == id) {
        return Some((body, i));
    }
    body.iter()
        .flat_map(visit::child_blocks)
        .find_map(|b| block_of(b, id))
}

fn names(items: &[Expr], name: &str) -> bool {
    item_of(items, name).is_some()
}

/// The ALLOCATE item of `name` paired with the DEALLOCATE `id`: the last one before it
/// in its block.
fn paired_allocate(body: &[Stmt], id: StmtId, name: &str) -> Option<Expr> {
    let (block, i) = block_of(body, id)?;
    block[..i].iter().rev().find_map(|s| match &s.kind {
        StmtKind::Allocate(items) if names(items, name) => item_of(items, name).cloned(),
        _ => None,
    })
}

fn item_of<'e>(items: &'e [Expr], name: &str) -> Option<&'e Expr> {
    items
        .iter()
        .find(|e| e.base_name().is_some_and(|n| key(n) == key(name)))
}

/// Every ALLOCATE item of `name` in the body, in order.
fn allocate_items<'b>(body: &'b [Stmt], name: &str) -> Vec<&'b Expr> {
    let mut out = Vec::new();
    visit::walk_stmts(body, &mut |s| {
        if let StmtKind::Allocate(items) = &s.kind {
            out.extend(item_of(items, name));
        }
    });
    out
}

/// The ALLOCATE item whose bounds the DEALLOCATE `id` of `name` frees: the one before it
/// in its block, else (a reallocation in a loop or branch) the one every ALLOCATE of
/// `name` shares. `None` when the ALLOCATEs differ.
pub(crate) fn matching_allocate(body: &[Stmt], id: StmtId, name: &str) -> Option<Expr> {
    if let Some(item) = paired_allocate(body, id, name) {
        return Some(item);
    }
    let items = allocate_items(body, name);
    let first = *items.first()?;
    items
        .iter()
        .all(|e| crate::il::lifetime::same_form(e, first))
        .then(|| first.clone())
}

/// The DEALLOCATE of `name` paired with the ALLOCATE `id`: the first one after it in its
/// block.
pub(crate) fn matching_deallocate<'b>(
    body: &'b [Stmt],
    id: StmtId,
    name: &str,
) -> Option<&'b Stmt> {
    let (block, i) = block_of(body, id)?;
    block[i + 1..]
        .iter()
        .find(|s| matches!(&s.kind, StmtKind::Deallocate(items) if names(items, name)))
}

/// The tape stack of whole-array pushes of this type (`real8`, `integer4`, `character`),
/// if the runtime has one.
pub(crate) fn array_tape_type(ty: ScalarType) -> Option<crate::il::TapeType> {
    // Every stack of a scalar type has its array form, but for booleans.
    crate::il::TapeType::of(ty).filter(|t| *t != crate::il::TapeType::Boolean)
}

/// The caller's arrays the CALL `s` allocates (`il::lifetime::allocated_by_call`), and
/// the module arrays it allocates (`il::heap_globals`).
pub(crate) fn allocated_by_call(ug: &UnitGen, s: &Stmt) -> Vec<String> {
    by_call(ug, s, Allocation::Allocates)
}

/// The caller's arrays the CALL `s` frees for good (`il::lifetime::freed_by_call`), and
/// the module arrays it frees.
pub(crate) fn freed_by_call(ug: &UnitGen, s: &Stmt) -> Vec<String> {
    by_call(ug, s, Allocation::Frees)
}

/// The module arrays the CALL `s` allocates and frees again: they have no values before
/// the call, nor after it. (A callee that does so to its dummy is refused.)
pub(crate) fn transient_by_call(ug: &UnitGen, s: &Stmt) -> Vec<String> {
    by_call(ug, s, Allocation::AllocatesThenFrees)
}

type Allocation = crate::il::lifetime::ArgumentAllocation;

/// What the CALL `s` of `unit` does to the allocation of its arrays: those it passes to
/// the callee's dummies (`il::lifetime`), then the module arrays (`il::heap_globals`).
fn changes_by_call<'u>(
    unit: &crate::il::Unit,
    s: &Stmt,
    unit_of: &dyn Fn(&str) -> Option<&'u crate::il::Unit>,
) -> Vec<(String, Allocation)> {
    let mut out = crate::il::lifetime::changed_by_call(s, unit_of);
    out.extend(crate::il::heap_globals::changed_by_call(unit, s, unit_of));
    out
}

/// The arrays of this unit whose allocation the CALL `s` changes as `which` says.
fn by_call(ug: &UnitGen, s: &Stmt, which: Allocation) -> Vec<String> {
    changes_by_call(ug.unit, s, &|n| ug.ctx.procedures.unit(n))
        .into_iter()
        .filter(|(_, w)| *w == which)
        .map(|(n, _)| n)
        .collect()
}

/// Some CALL of this unit frees its array `name` for good.
pub(crate) fn is_freed_by_call(ug: &UnitGen, name: &str) -> bool {
    ug.call_heap.freed.contains(&key(name))
}

/// The arrays of a unit whose allocation its CALLs change (keys), found once per unit:
/// the derivative code asks at every array it saves and every DEALLOCATE.
#[derive(Clone, Debug, Default)]
pub struct CallHeap {
    /// Allocated by a call (`il::lifetime::allocated_by_call`).
    allocated: std::collections::BTreeSet<String>,
    /// Freed for good by a call.
    freed: std::collections::BTreeSet<String>,
    /// Freed and allocated again by a call.
    reallocated: std::collections::BTreeSet<String>,
}

impl CallHeap {
    pub(crate) fn of<'u>(
        unit: &crate::il::Unit,
        unit_of: &dyn Fn(&str) -> Option<&'u crate::il::Unit>,
    ) -> CallHeap {
        let mut out = CallHeap::default();
        visit::walk_stmts(&unit.body, &mut |s| {
            if !matches!(s.kind, StmtKind::Call { .. }) {
                return;
            }
            for (name, what) in changes_by_call(unit, s, unit_of) {
                match what {
                    Allocation::Allocates => out.allocated.insert(key(&name)),
                    Allocation::Frees => out.freed.insert(key(&name)),
                    Allocation::Reallocates => out.reallocated.insert(key(&name)),
                    Allocation::AllocatesThenFrees => false,
                };
            }
        });
        out
    }
}

/// After a CALL that frees the arrays `names` of this unit: the derivative of each one
/// that has one is freed too, unless the callee's derivative freed it already.
pub(crate) fn derivatives_freed_after_call(ug: &UnitGen, names: &[String]) -> Vec<Stmt> {
    names
        .iter()
        .filter_map(|n| ug.deriv_ref_name(n))
        .map(|d| free_if_allocated(&d))
        .collect()
}

/// The caller's arrays the CALL `s` frees and allocates again
/// (`il::lifetime::reallocated_by_call`).
pub(crate) fn reallocated_by_call(ug: &UnitGen, s: &Stmt) -> Vec<String> {
    by_call(ug, s, Allocation::Reallocates)
}

/// An array whose bounds no ALLOCATE of this unit gives for sure: one a CALL allocates
/// or reallocates, or a dummy the unit allocates or reallocates for its caller. Its
/// DEALLOCATEs record them on the tape for the backward sweep, and its size is asked of
/// the array itself.
pub(crate) fn bounds_on_tape(ug: &UnitGen, name: &str) -> bool {
    let k = key(name);
    ug.unit.symbols.argument_allocation(name).is_some()
        || ug.unit.symbols.is_heap_global(name)
        || ug.call_heap.allocated.contains(&k)
        || ug.call_heap.reallocated.contains(&k)
}

/// `lbound(a, k)` and `ubound(a, k)` of each dimension of array `name`.
pub(crate) fn current_bounds(name: &str, rank: usize) -> Bounds {
    (1..=rank)
        .map(|k| {
            let at = |f| Expr::intrinsic(f, vec![Expr::var(name), Expr::int(k as i64)]);
            (
                at(crate::il::Intrinsic::Lbound),
                at(crate::il::Intrinsic::Ubound),
            )
        })
        .collect()
}

/// The item `name(l1:u1, ...)` allocating these bounds.
pub(crate) fn item_with(name: &str, bounds: &[(Expr, Expr)]) -> Expr {
    Expr::new(ExprKind::Index(
        name.to_string(),
        bounds
            .iter()
            .map(|(l, u)| {
                Expr::new(ExprKind::Range {
                    lower: Some(Box::new(l.clone())),
                    upper: Some(Box::new(u.clone())),
                    stride: None,
                })
            })
            .collect(),
    ))
}

/// After a CALL that allocates the arrays `names` of this unit: the derivative of each
/// one that has one is allocated with the bounds the callee gave the primal, and
/// zeroed, unless the callee's derivative allocated it already (a callee whose
/// derivative does not take it, or that writes it with values independent of the
/// inputs, leaves it to the caller).
pub(crate) fn derivatives_after_call(ug: &mut UnitGen, names: &[String]) -> Vec<Stmt> {
    let mut out = Vec::new();
    for name in names {
        let Some(sym) = ug.symbol_or_global(name) else {
            continue;
        };
        let (ty, rank) = (sym.ty, sym.rank());
        let Some(d) = ug.deriv_ref_name(name) else {
            continue;
        };
        let bounds = current_bounds(name, rank);
        let mut body = vec![Stmt::generated(StmtKind::Allocate(vec![item_with(
            &d, &bounds,
        )]))];
        let zero = ug.zero(ty);
        body.extend(zero_loops(ug, &d, &bounds, zero));
        out.push(if_then(not_allocated(&d), body));
    }
    out
}

/// After a CALL that frees the arrays `names` of this unit and allocates them again:
/// the derivative of each one that has one is freed when its bounds are no longer the
/// primal's (the callee's derivative did not reallocate it), then allocated, zero, as
/// after an allocating call.
pub(crate) fn derivatives_after_reallocation(ug: &mut UnitGen, names: &[String]) -> Vec<Stmt> {
    let mut out = Vec::new();
    for name in names {
        let (Some(d), Some(rank)) = (
            ug.deriv_ref_name(name),
            ug.symbol_or_global(name).map(|s| s.rank()),
        ) else {
            continue;
        };
        let mut moved: Option<Expr> = None;
        for ((dl, du), (pl, pu)) in current_bounds(&d, rank)
            .into_iter()
            .zip(current_bounds(name, rank))
        {
            for (a, b) in [(dl, pl), (du, pu)] {
                let differs = Expr::binary(BinOp::Ne, a, b);
                moved = Some(match moved {
                    None => differs,
                    Some(m) => Expr::binary(BinOp::Or, m, differs),
                });
            }
        }
        if let Some(moved) = moved {
            out.push(if_then(
                allocated(&d),
                vec![if_then(
                    moved,
                    vec![Stmt::generated(StmtKind::Deallocate(vec![Expr::var(&d)]))],
                )],
            ));
        }
    }
    out.extend(derivatives_after_call(ug, names));
    out
}

/// `.not. allocated(a)`.
fn not_allocated(name: &str) -> Expr {
    Expr::new(ExprKind::Unary(
        crate::il::UnOp::Not,
        Box::new(allocated(name)),
    ))
}

/// `allocated(a)`.
pub(crate) fn allocated(name: &str) -> Expr {
    allocated_spelled(name, "allocated")
}

/// `allocated(a)` of the primal array `a` of `ug`'s unit: `associated(a)` when the
/// compiler sees it declared POINTER (`il::Symbol::pointer`).
pub(crate) fn primal_allocated(ug: &UnitGen, name: &str) -> Expr {
    let pointer = ug.symbol_or_global(name).is_some_and(|s| s.pointer);
    allocated_spelled(name, if pointer { "associated" } else { "allocated" })
}

/// `if (allocated(a)) deallocate(a)` of the primal array `a` (`primal_allocated`).
pub(crate) fn free_primal_if_allocated(ug: &UnitGen, name: &str) -> Stmt {
    free_when(primal_allocated(ug, name), name)
}

/// `if (test) deallocate(a)`.
fn free_when(test: Expr, name: &str) -> Stmt {
    if_then(
        test,
        vec![Stmt::generated(StmtKind::Deallocate(vec![Expr::var(name)]))],
    )
}

fn allocated_spelled(name: &str, spelling: &str) -> Expr {
    Expr::new(ExprKind::Intrinsic {
        op: crate::il::Intrinsic::Passive(crate::il::PassiveIntrinsic {
            result: crate::il::ScalarResult::Logical,
            inquiry: true,
            reduction: false,
        }),
        args: vec![crate::il::Arg::positional(Expr::var(name))],
        spelling: Some(spelling.into()),
    })
}

/// `if (cond) body`, a logical IF when the body is one statement.
pub(crate) fn if_then(cond: Expr, body: Vec<Stmt>) -> Stmt {
    Stmt::generated(StmtKind::If {
        logical_if: body.len() == 1,
        arms: vec![(cond, body)],
        else_body: None,
        name: None,
    })
}

/// `if (allocated(a)) deallocate(a)`.
pub(crate) fn free_if_allocated(name: &str) -> Stmt {
    free_when(allocated(name), name)
}

/// The tangent of ALLOCATE / DEALLOCATE: the derivative buffer beside the primal.
pub(crate) fn tangent(ug: &mut UnitGen, s: &Stmt, out: &mut Vec<Stmt>) {
    match &s.kind {
        StmtKind::Allocate(items) => {
            out.push(s.clone());
            for item in items {
                let Some((d, bounds, zero)) = derivative_of_item(ug, item) else {
                    continue;
                };
                out.push(Stmt::generated(StmtKind::Allocate(vec![renamed(item, &d)])));
                out.extend(zero_loops(ug, &d, &bounds, zero));
            }
        }
        StmtKind::Deallocate(items) => {
            let ds: Vec<Expr> = items
                .iter()
                .filter_map(|item| {
                    let name = item.base_name()?;
                    if !ug.unit.symbols.is_kept_allocatable(name) {
                        return None;
                    }
                    ug.deriv_ref_name(name).map(Expr::var)
                })
                .collect();
            if !ds.is_empty() {
                out.push(Stmt::generated(StmtKind::Deallocate(ds)));
            }
            out.push(s.clone());
        }
        _ => out.push(s.clone()),
    }
}

/// For an ALLOCATE item of a kept array with a derivative: the derivative's name, the
/// bounds, and the zero of its type.
pub(crate) fn derivative_of_item(ug: &UnitGen, item: &Expr) -> Option<(String, Bounds, Expr)> {
    let name = item.base_name()?;
    let sym = ug.unit.symbols.get(name)?;
    if !ug.unit.symbols.is_kept_allocatable(name) {
        return None;
    }
    let d = ug.deriv_ref_name(name)?;
    let bounds = item_bounds(item)?;
    Some((d, bounds, ug.zero(sym.ty)))
}

/// The ALLOCATE item of `name` in force at the statement `id`: the last one before it in
/// its block or in an enclosing block (`None` when `id` is not in `body`).
pub(crate) fn allocation_at(body: &[Stmt], id: StmtId, name: &str) -> Option<Expr> {
    fn walk(block: &[Stmt], id: StmtId, name: &str, outer: Option<&Expr>) -> Option<Option<Expr>> {
        let mut current = outer.cloned();
        for s in block {
            if s.id == id {
                return Some(current);
            }
            for child in visit::child_blocks(s) {
                if let Some(found) = walk(child, id, name, current.as_ref()) {
                    return Some(found);
                }
            }
            if let StmtKind::Allocate(items) = &s.kind {
                if let Some(item) = items
                    .iter()
                    .find(|e| e.base_name().is_some_and(|n| key(n) == key(name)))
                {
                    current = Some(item.clone());
                }
            }
        }
        None
    }
    walk(body, id, name, None).flatten()
}

#[cfg(test)]
#[path = "heap_tests.rs"]
mod tests;

/// At a root's boundary, the derivative `d` of a module array `name` whose allocation
/// the root changes gets the array's allocation: allocated (zero) where the array is
/// and the derivative is not (the caller, or the original code run before, allocated
/// the array alone), freed where the array is not; an allocated derivative is zeroed
/// unless it holds the caller's values (`keep`: an adjoint's weights). Used at the
/// start of a root's tangent and of its adjoint's backward sweep.
pub(crate) fn mirror_allocation(ug: &mut UnitGen, name: &str, d: &str, keep: bool) -> Stmt {
    let Some(sym) = ug.symbol_or_global(name) else {
        return Stmt::generated(StmtKind::Continue);
    };
    let (ty, rank) = (sym.ty, sym.rank());
    let bounds = current_bounds(name, rank);
    let zero = ug.zero(ty);
    let mut make = vec![Stmt::generated(StmtKind::Allocate(vec![item_with(
        d, &bounds,
    )]))];
    make.extend(zero_loops(ug, d, &bounds, zero.clone()));
    let else_body = (!keep).then(|| zero_loops(ug, d, &bounds, zero));
    let not = |e: Expr| Expr::new(ExprKind::Unary(crate::il::UnOp::Not, Box::new(e)));
    let when_allocated = Stmt::generated(StmtKind::If {
        logical_if: false,
        arms: vec![(not(allocated(d)), make)],
        else_body,
        name: None,
    });
    Stmt::generated(StmtKind::If {
        logical_if: false,
        arms: vec![
            (primal_allocated(ug, name), vec![when_allocated]),
            (
                allocated(d),
                vec![Stmt::generated(StmtKind::Deallocate(vec![Expr::var(d)]))],
            ),
        ],
        else_body: None,
        name: None,
    })
}
