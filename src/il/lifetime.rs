//! The lifetime of an ALLOCATABLE local: each ALLOCATE paired with a DEALLOCATE later in
//! the same block, the array used only in between, no jump out of the pair. A loop body
//! or a branch may also free an array allocated outside it if it allocates it again
//! before its end (a reallocation: a buffer grown inside the loop that fills it). The
//! differentiator reverses such a pair as a unit (`diff::heap`); the front-ends and
//! `prepare::scalarize::alloc` word the problems found here for their users.

use super::{Expr, Stmt, StmtKind, key, visit};
use crate::diag::Span;

/// Where an array stands in a block: free, or allocated (in this block or outside it,
/// with the number of loops entered since the block that allocated it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Free,
    Allocated {
        here: bool,
        loops: usize,
    },
    /// Allocated outside the block that freed it (at `freed`), to be allocated again
    /// before that block ends; `loops` as when it was freed, `since` the loops entered
    /// since.
    Reallocating {
        loops: usize,
        since: usize,
        freed: Span,
    },
}

/// What breaks the pairing rules, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Allocated again before it is freed.
    AllocatedTwice,
    /// Freed when not allocated: twice, or before its allocation.
    FreedUnallocated,
    /// Freed in a loop or a branch, allocated outside it, and not allocated again in it.
    FreedOutside,
    /// Read or written when not allocated.
    UsedUnallocated,
    /// Allocated in a loop or a branch and not freed in it.
    NotFreedInBlock,
    /// RETURN or GO TO while allocated.
    JumpOut,
    /// EXIT or CYCLE out of the loop iteration that allocated it.
    ExitOut,
}

/// Checks the pairing rules for `name` over a procedure body; returns the state at its
/// end (allocated when the top level never frees it).
pub fn check(body: &[Stmt], name: &str) -> Result<State, (Problem, Span)> {
    check_with(body, name, &|_| false, &|_| false)
}

/// As `check`, where a statement for which `by_call` holds allocates `name` too (a CALL
/// of a procedure that allocates its dummy argument, `allocated_by_call`), and one for
/// which `freed_by_call` holds frees it (`freed_by_call`).
pub fn check_with(
    body: &[Stmt],
    name: &str,
    by_call: &dyn Fn(&Stmt) -> bool,
    freed_by_call: &dyn Fn(&Stmt) -> bool,
) -> Result<State, (Problem, Span)> {
    walk(body, name, State::Free, false, &|s| {
        if by_call(s) {
            Some(true)
        } else if freed_by_call(s) {
            Some(false)
        } else {
            None
        }
    })
}

fn names_it(items: &[Expr], name: &str) -> bool {
    items
        .iter()
        .any(|e| e.base_name().is_some_and(|n| key(n) == key(name)))
}

/// As `check`, for a dummy its caller passes allocated: the procedure may free it and
/// allocate it again, and must give it back allocated.
pub fn check_reallocated(body: &[Stmt], name: &str) -> Result<State, (Problem, Span)> {
    walk(
        body,
        name,
        State::Allocated {
            here: false,
            loops: 0,
        },
        true,
        &|_| None,
    )
}

/// An ALLOCATE naming `name`, or a CALL that allocates it.
fn allocates(s: &Stmt, name: &str, by_call: &CallEffect) -> bool {
    match &s.kind {
        StmtKind::Allocate(items) => names_it(items, name),
        StmtKind::Call { .. } => by_call(s) == Some(true),
        _ => false,
    }
}

/// A DEALLOCATE naming `name`, or a CALL that frees it.
fn frees(s: &Stmt, name: &str, by_call: &CallEffect) -> bool {
    match &s.kind {
        StmtKind::Deallocate(items) => names_it(items, name),
        StmtKind::Call { .. } => by_call(s) == Some(false),
        _ => false,
    }
}

/// What a CALL does with the array being checked: allocates it (`Some(true)`), frees it
/// (`Some(false)`), or neither.
type CallEffect<'f> = dyn Fn(&Stmt) -> Option<bool> + 'f;

/// `caller_owned`: the array is a dummy its caller passes allocated, which the
/// procedure may leave (RETURN) whenever it holds an allocation.
fn walk(
    block: &[Stmt],
    name: &str,
    entry: State,
    caller_owned: bool,
    by_call: &CallEffect,
) -> Result<State, (Problem, Span)> {
    let mut state = entry;
    for s in block {
        match &s.kind {
            _ if allocates(s, name, by_call) => {
                state = match state {
                    State::Free => State::Allocated {
                        here: true,
                        loops: 0,
                    },
                    State::Reallocating { loops, .. } => State::Allocated { here: false, loops },
                    State::Allocated { .. } => return Err((Problem::AllocatedTwice, s.span)),
                };
                continue;
            }

            _ if frees(s, name, by_call) => match state {
                State::Free | State::Reallocating { .. } => {
                    return Err((Problem::FreedUnallocated, s.span));
                }
                State::Allocated { here: false, loops } => {
                    state = State::Reallocating {
                        loops,
                        since: 0,
                        freed: s.span,
                    };
                    continue;
                }
                State::Allocated { here: true, .. } => {
                    state = State::Free;
                    continue;
                }
            },
            StmtKind::Return | StmtKind::Goto { .. }
                if state != State::Free
                    && (!caller_owned || matches!(state, State::Reallocating { .. })) =>
            {
                return Err((Problem::JumpOut, s.span));
            }
            StmtKind::Exit { name: target } | StmtKind::Cycle { name: target }
                if matches!(
                    state,
                    State::Allocated { loops: 0, .. } | State::Reallocating { since: 0, .. }
                ) || (target.is_some() && state != State::Free) =>
            {
                return Err((Problem::ExitOut, s.span));
            }
            _ => {}
        }
        let mentions = |e: &Expr| {
            visit::names_read(e)
                .iter()
                .chain(e.base_name().iter())
                .any(|n| key(n) == key(name))
        };
        let own = match &s.kind {
            StmtKind::Allocate(items) | StmtKind::Deallocate(items) => items.iter().any(|e| {
                visit::names_read(e)
                    .iter()
                    .skip(1)
                    .any(|n| key(n) == key(name))
            }),
            _ => visit::stmt_exprs(s).into_iter().any(mentions),
        };
        if own && matches!(state, State::Free | State::Reallocating { .. }) {
            return Err((Problem::UsedUnallocated, s.span));
        }
        let is_loop = matches!(s.kind, StmtKind::Do { .. } | StmtKind::DoWhile { .. });
        for child in visit::child_blocks(s) {
            let inner_entry = match state {
                State::Allocated { loops, .. } => State::Allocated {
                    here: false,
                    loops: loops + usize::from(is_loop),
                },
                // Between a DEALLOCATE and the ALLOCATE that gives the array back: a
                // jump from here would leave the block without it.
                State::Reallocating {
                    loops,
                    since,
                    freed,
                } => State::Reallocating {
                    loops,
                    since: since + usize::from(is_loop),
                    freed,
                },
                State::Free => State::Free,
            };
            if walk(child, name, inner_entry, caller_owned, by_call)? != inner_entry {
                return Err((Problem::NotFreedInBlock, s.span));
            }
        }
    }
    if let State::Reallocating { freed, .. } = state
        && !matches!(entry, State::Reallocating { .. })
    {
        return Err((Problem::FreedOutside, freed));
    }
    Ok(state)
}

/// Some DEALLOCATE of `name` frees an allocation made outside its block: none of its
/// block's statements before it allocates `name` (a reallocation in a loop or branch).
pub fn reallocated(body: &[Stmt], name: &str) -> bool {
    reallocated_with(body, name, &|_| false)
}

/// As `reallocated`, where a statement for which `by_call` holds allocates `name` too.
pub fn reallocated_with(body: &[Stmt], name: &str, by_call: &dyn Fn(&Stmt) -> bool) -> bool {
    reallocated_in(body, name, &|s| by_call(s).then_some(true))
}

fn reallocated_in(body: &[Stmt], name: &str, by_call: &CallEffect) -> bool {
    let mut allocated_here = false;
    for s in body {
        match &s.kind {
            _ if allocates(s, name, by_call) => allocated_here = true,
            StmtKind::Deallocate(items) if names_it(items, name) => {
                if !allocated_here {
                    return true;
                }
                allocated_here = false;
            }
            _ => {}
        }
        if visit::child_blocks(s)
            .into_iter()
            .any(|b| reallocated_in(b, name, by_call))
        {
            return true;
        }
    }
    false
}

/// Two expressions written alike (spans aside), for the kinds array bounds are made of;
/// any other kind compares unequal.
pub fn same_form(a: &Expr, b: &Expr) -> bool {
    use super::ExprKind as K;
    let opt = |a: &Option<Box<Expr>>, b: &Option<Box<Expr>>| match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => same_form(a, b),
        _ => false,
    };
    let all = |xs: &[Expr], ys: &[Expr]| {
        xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_form(x, y))
    };
    match (&a.kind, &b.kind) {
        (K::Int(x), K::Int(y)) => x == y,
        (K::Var(x), K::Var(y)) => key(x) == key(y),
        (K::Index(x, xs), K::Index(y, ys)) => key(x) == key(y) && all(xs, ys),
        (K::Unary(o, x), K::Unary(p, y)) => o == p && same_form(x, y),
        (K::Binary(o, x1, x2), K::Binary(p, y1, y2)) => {
            o == p && same_form(x1, y1) && same_form(x2, y2)
        }
        (K::Paren(x), K::Paren(y)) => same_form(x, y),
        (
            K::Range {
                lower: l1,
                upper: u1,
                stride: s1,
            },
            K::Range {
                lower: l2,
                upper: u2,
                stride: s2,
            },
        ) => opt(l1, l2) && opt(u1, u2) && opt(s1, s2),
        _ => false,
    }
}

impl super::Unit {
    /// Whether the unit declares `name` ALLOCATABLE (an attribute of its declaration).
    pub fn declares_allocatable(&self, name: &str) -> bool {
        self.decls.iter().any(|d| match &d.kind {
            super::DeclKind::Var {
                attrs, entities, ..
            } => {
                attrs.iter().any(|a| matches!(a, super::Attr::Allocatable))
                    && entities.iter().any(|e| key(&e.name) == key(name))
            }
            _ => false,
        })
    }
}

/// The arrays a statement allocates and those it frees: the items of ALLOCATE and
/// DEALLOCATE, and `call move_alloc(from, to)`, which frees `from` and allocates `to`.
pub fn heap_items(s: &Stmt) -> (Vec<&Expr>, Vec<&Expr>) {
    match &s.kind {
        StmtKind::Allocate(items) => (items.iter().collect(), Vec::new()),
        StmtKind::Deallocate(items) => (Vec::new(), items.iter().collect()),
        StmtKind::Call { name, args } if key(name) == "move_alloc" => {
            let arg = |k: usize, kw: &str| {
                args.iter()
                    .find(|a| a.keyword.as_deref().is_some_and(|w| key(w) == kw))
                    .or_else(|| args.get(k).filter(|a| a.keyword.is_none()))
                    .map(|a| &a.value)
            };
            (
                arg(1, "to").into_iter().collect(),
                arg(0, "from").into_iter().collect(),
            )
        }
        _ => (Vec::new(), Vec::new()),
    }
}

/// The caller's arrays that a CALL allocates: each actual argument `u` (or component
/// `p%h` of an actual structure `p`) whose dummy the callee allocates for its caller
/// (`Unit::argument_allocations`, `Allocates`). `unit_of` finds a procedure's unit.
pub fn allocated_by_call<'u>(
    s: &Stmt,
    unit_of: &dyn Fn(&str) -> Option<&'u super::Unit>,
) -> Vec<String> {
    by_call(s, unit_of, ArgumentAllocation::Allocates)
}

/// The caller's arrays that a CALL frees for good (`Frees`).
pub fn freed_by_call<'u>(
    s: &Stmt,
    unit_of: &dyn Fn(&str) -> Option<&'u super::Unit>,
) -> Vec<String> {
    by_call(s, unit_of, ArgumentAllocation::Frees)
}

/// The caller's arrays that a CALL frees and allocates again (`Reallocates`): their
/// bounds may change.
pub fn reallocated_by_call<'u>(
    s: &Stmt,
    unit_of: &dyn Fn(&str) -> Option<&'u super::Unit>,
) -> Vec<String> {
    by_call(s, unit_of, ArgumentAllocation::Reallocates)
}

fn by_call<'u>(
    s: &Stmt,
    unit_of: &dyn Fn(&str) -> Option<&'u super::Unit>,
    which: ArgumentAllocation,
) -> Vec<String> {
    changed_by_call(s, unit_of)
        .into_iter()
        .filter(|(_, w)| *w == which)
        .map(|(n, _)| n)
        .collect()
}

/// The caller's arrays whose allocation a CALL changes through the callee's dummies,
/// with what it does to each: [`allocated_by_call`], [`freed_by_call`] and
/// [`reallocated_by_call`] (and the allocations the callee frees again) at once.
pub fn changed_by_call<'u>(
    s: &Stmt,
    unit_of: &dyn Fn(&str) -> Option<&'u super::Unit>,
) -> Vec<(String, ArgumentAllocation)> {
    call_allocations(s, unit_of, &mut Memo::new())
}

/// The items a statement allocates (`false`) and frees (`true`), in that order
/// ([`heap_items`]).
pub fn heap_events(s: &Stmt) -> impl Iterator<Item = (&Expr, bool)> {
    let (allocated, freed) = heap_items(s);
    allocated
        .into_iter()
        .map(|e| (e, false))
        .chain(freed.into_iter().map(|e| (e, true)))
}

/// The allocation events a procedure makes on each of its arrays, in statement order,
/// summed up as the [`ArgumentAllocation`] they amount to.
pub struct Events<K> {
    /// Per array: allocated, freed, and whether the first event frees it.
    seen: Vec<(K, bool, bool, bool)>,
}

impl<K> Events<K> {
    pub fn new() -> Self {
        Events { seen: Vec::new() }
    }

    /// An event on array `k` (`same` tells the array's entry): it frees, or allocates.
    pub fn note(&mut self, k: K, frees: bool, same: impl Fn(&K) -> bool) {
        match self.seen.iter_mut().find(|(o, ..)| same(o)) {
            Some(entry) => {
                entry.1 |= !frees;
                entry.2 |= frees;
            }
            None => self.seen.push((k, !frees, frees, frees)),
        }
    }

    /// What the events do to each array, in order of first event.
    pub fn changes(self) -> Vec<(K, ArgumentAllocation)> {
        self.seen
            .into_iter()
            .map(|(k, allocated, freed, first_frees)| {
                (
                    k,
                    ArgumentAllocation::of_events(allocated, freed, first_frees),
                )
            })
            .collect()
    }
}

impl<K> Default for Events<K> {
    fn default() -> Self {
        Self::new()
    }
}

/// Finds a procedure's unit by name.
type UnitOf<'f, 'u> = dyn Fn(&str) -> Option<&'u super::Unit> + 'f;

/// What each procedure followed so far does with its dummies' allocation, by key; a
/// procedure being followed (a recursive call) counts as doing nothing.
type Memo = std::collections::BTreeMap<String, Vec<(String, ArgumentAllocation)>>;

/// The caller's arrays whose allocation the CALL `s` changes, with what it does to each:
/// the actual (`u`, or `p%h` for a component of an actual structure `p`) of each dummy
/// the callee allocates or frees, itself or through the procedures it calls.
fn call_allocations<'u>(
    s: &Stmt,
    unit_of: &UnitOf<'_, 'u>,
    memo: &mut Memo,
) -> Vec<(String, ArgumentAllocation)> {
    let StmtKind::Call { name, args } = &s.kind else {
        return Vec::new();
    };
    let Some(callee) = unit_of(name) else {
        return Vec::new();
    };
    // Only an ALLOCATABLE dummy, or a structure (which may have ALLOCATABLE
    // components), can have its allocation changed: other calls are not followed, so
    // that a deep call tree of array routines costs one look at each call.
    let may_change = callee.args.iter().any(|a| {
        callee.declares_allocatable(a)
            || callee
                .symbols
                .get(a)
                .is_some_and(|s| s.ty == super::ScalarType::Derived)
    });
    if !may_change {
        return Vec::new();
    }
    let changed = match memo.get(key(name).as_str()) {
        Some(known) => known.clone(),
        None => {
            memo.insert(key(name), Vec::new());
            let found = allocations(callee, Some(unit_of), memo);
            memo.insert(key(name), found.clone());
            found
        }
    };
    if changed.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let formal = match &arg.keyword {
            Some(k) => k.as_str(),
            None => match callee.args.get(i) {
                Some(f) => f.as_str(),
                None => continue,
            },
        };
        let super::ExprKind::Var(actual) = &arg.value.kind else {
            continue;
        };
        for (item, what) in &changed {
            let (base, rest) = match item.split_once('%') {
                Some((b, r)) => (b, Some(r)),
                None => (item.as_str(), None),
            };
            if key(base) != key(formal) {
                continue;
            }
            let name = match rest {
                Some(r) => format!("{actual}%{r}"),
                None => actual.clone(),
            };
            out.push((name, *what));
        }
    }
    out
}

/// What a procedure does with the allocation of an ALLOCATABLE dummy (or a dummy
/// structure's component), from the statements that allocate and free it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgumentAllocation {
    /// Allocates it, never frees it: the caller passes it unallocated and gets it back
    /// allocated.
    Allocates,
    /// Frees it, never allocates it: the caller passes it allocated and gets it back
    /// unallocated.
    Frees,
    /// Frees it first, then allocates it again: the caller passes it allocated and gets
    /// it back allocated, with bounds that may have changed.
    Reallocates,
    /// Allocates it first, then frees it: the caller passes it unallocated and gets it
    /// back unallocated (adgen refuses this).
    AllocatesThenFrees,
}

impl ArgumentAllocation {
    /// The events it stands for, in order: `true` frees, `false` allocates.
    pub fn events(self) -> &'static [bool] {
        match self {
            ArgumentAllocation::Allocates => &[false],
            ArgumentAllocation::Frees => &[true],
            ArgumentAllocation::Reallocates => &[true, false],
            ArgumentAllocation::AllocatesThenFrees => &[false, true],
        }
    }

    /// From what a procedure does to an array: whether it allocates it, frees it, and
    /// whether the first of those frees it.
    pub fn of_events(allocated: bool, freed: bool, first_frees: bool) -> ArgumentAllocation {
        match (allocated, freed, first_frees) {
            (true, false, _) => ArgumentAllocation::Allocates,
            (false, _, _) => ArgumentAllocation::Frees,
            (true, true, true) => ArgumentAllocation::Reallocates,
            (true, true, false) => ArgumentAllocation::AllocatesThenFrees,
        }
    }
}

impl super::Unit {
    /// The ALLOCATABLE dummy arguments (`u`) and ALLOCATABLE components of dummy
    /// structures (`f%h`) this procedure allocates or frees, as its statements name them
    /// (`heap_items`), and what it does with each.
    pub fn argument_allocations(&self) -> Vec<(String, ArgumentAllocation)> {
        allocations(self, None, &mut Memo::new())
    }

    /// As [`Unit::argument_allocations`], counting also what the procedures it calls
    /// (found by `unit_of`) do with the dummies it passes them, at any depth: a set-up
    /// routine that allocates its structure's field through a helper allocates it too.
    pub fn argument_allocations_through<'u>(
        &self,
        unit_of: &UnitOf<'_, 'u>,
    ) -> Vec<(String, ArgumentAllocation)> {
        let mut memo = Memo::new();
        memo.insert(key(&self.name), Vec::new());
        allocations(self, Some(unit_of), &mut memo)
    }
}

/// [`Unit::argument_allocations`], following calls through `unit_of` when given, each
/// procedure once (`memo`).
fn allocations<'u>(
    unit: &super::Unit,
    unit_of: Option<&UnitOf<'_, 'u>>,
    memo: &mut Memo,
) -> Vec<(String, ArgumentAllocation)> {
    let mut events = Events::new();
    let mut note = |name: &str, frees: bool| {
        let base = name.split('%').next().unwrap_or(name);
        if unit.args.iter().any(|a| key(a) == key(base)) {
            events.note(name.to_string(), frees, |o: &String| key(o) == key(name));
        }
    };
    visit::walk_stmts(&unit.body, &mut |s| {
        for (item, frees) in heap_events(s) {
            if let Some(name) = item.base_name() {
                note(name, frees);
            }
        }
        if let Some(unit_of) = unit_of {
            for (name, what) in call_allocations(s, unit_of, memo) {
                for &frees in what.events() {
                    note(&name, frees);
                }
            }
        }
    });
    events.changes()
}
