//! The lifetime of an ALLOCATABLE local: each ALLOCATE paired with a DEALLOCATE later in
//! the same block, the array used only in between, no jump out of the pair. The
//! differentiator reverses such a pair as a unit (`diff::heap`); the front-ends and
//! `prepare::scalarize::alloc` word the problems found here for their users.

use super::{Expr, Stmt, StmtKind, key, visit};
use crate::diag::Span;

/// Where an array stands in a block: free, or allocated (in this block or outside it,
/// with the number of loops entered since the block that allocated it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Free,
    Allocated { here: bool, loops: usize },
}

/// What breaks the pairing rules, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Allocated again before it is freed.
    AllocatedTwice,
    /// Freed when not allocated: twice, or before its allocation.
    FreedUnallocated,
    /// Freed in a loop or a branch, allocated outside it.
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
    walk(body, name, State::Free)
}

fn names_it(items: &[Expr], name: &str) -> bool {
    items
        .iter()
        .any(|e| e.base_name().is_some_and(|n| key(n) == key(name)))
}

fn walk(block: &[Stmt], name: &str, entry: State) -> Result<State, (Problem, Span)> {
    let mut state = entry;
    for s in block {
        match &s.kind {
            StmtKind::Allocate(items) if names_it(items, name) => {
                if state != State::Free {
                    return Err((Problem::AllocatedTwice, s.span));
                }
                state = State::Allocated {
                    here: true,
                    loops: 0,
                };
                continue;
            }
            StmtKind::Deallocate(items) if names_it(items, name) => match state {
                State::Free => return Err((Problem::FreedUnallocated, s.span)),
                State::Allocated { here: false, .. } => {
                    return Err((Problem::FreedOutside, s.span));
                }
                State::Allocated { here: true, .. } => {
                    state = State::Free;
                    continue;
                }
            },
            StmtKind::Return | StmtKind::Goto { .. } if state != State::Free => {
                return Err((Problem::JumpOut, s.span));
            }
            StmtKind::Exit { name: target } | StmtKind::Cycle { name: target }
                if matches!(state, State::Allocated { loops: 0, .. })
                    || (target.is_some() && state != State::Free) =>
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
        if own && state == State::Free {
            return Err((Problem::UsedUnallocated, s.span));
        }
        let is_loop = matches!(s.kind, StmtKind::Do { .. } | StmtKind::DoWhile { .. });
        for child in visit::child_blocks(s) {
            let inner_entry = match state {
                State::Allocated { loops, .. } => State::Allocated {
                    here: false,
                    loops: loops + usize::from(is_loop),
                },
                State::Free => State::Free,
            };
            if walk(child, name, inner_entry)? != inner_entry {
                return Err((Problem::NotFreedInBlock, s.span));
            }
        }
    }
    Ok(state)
}
