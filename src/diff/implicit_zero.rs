//! Implicit-zero derivatives (seeds/000 §4.6): "derivatives that become null need not be
//! immediately reset to 0.0 ... The implicit-zero differentiated variable must be
//! explicitly reset to 0.0 *before* the flow merges".
//!
//! Both generators first write the explicit-zero form: every derivative that becomes
//! null is reset where it does (tangent: a passive assignment, a local on entry;
//! adjoint: the adjoint of an assignment, which resets the overwritten variable's
//! adjoint, a local at the start of the backward sweep). This pass then removes each reset `vd = 0` whose zero no later instruction can read: one
//! that the next assignment to `vd` overwrites on every path, or that nothing reads
//! before the procedure returns. The derivative is then implicitly zero from there. A
//! reset that some path reads is kept where it was, which is before the flow can merge
//! it with a branch where the variable is active: the place §4.6 requires.
//!
//! Which resets are read is a backward liveness analysis on the generated code itself,
//! over the derivative variables the procedure owns (its locals and its derivative
//! arguments; module and COMMON derivatives are left alone, as any call may read them,
//! and so are EQUIVALENCEd ones, which another name reaches):
//!
//! ```text
//! live_in(s)  = reads(s) ∪ (live_out(s) − kills(s))
//! live_out(s) = ∪ live_in(successors of s)          live at exit = derivative arguments
//! ```
//!
//! `kills(s)` is the variable a whole assignment `vd = e` overwrites; an element or
//! component (`vd(i) = e`, `sd%x = e`) overwrites only part of it and kills nothing. Every
//! name a call's arguments mention is read (the callee may read it). Loops iterate to a
//! fixed point; EXIT, CYCLE and RETURN take the liveness of their target. Removing a dead
//! reset changes no other liveness (its right-hand side reads nothing), so one pass after
//! the fixed point removes them all. A body with GO TO is left as it is.
//!
//! Then a reset followed, in the same block, by an increment of the same scalar with
//! nothing between that mentions it (`xb = 0; ...; xb = xb + e`) becomes the assignment
//! `xb = e`: the increment is the next instruction that assigns to the derivative.
//!
//! `[options] disable = ["implicit-zero"]` keeps the explicit-zero form.

use std::collections::BTreeSet;

use super::UnitGen;
use crate::il::{BinOp, Expr, ExprKind, ScalarType, Stmt, StmtKind, key, visit};

type Live = BTreeSet<String>;

/// Removes the dead derivative resets of the derivative `body` of `ug`'s unit, whose
/// arguments are `args` and result `result`.
pub fn apply(ug: &UnitGen, body: &mut Vec<Stmt>, args: &[String], result: Option<&str>) {
    // The derivative variables of the unit's locals and arguments (not those of module
    // or COMMON variables, nor EQUIVALENCEd ones, whose storage another name reaches);
    // the caller reads its derivative arguments and result.
    let owned: Live = ug
        .unit
        .symbols
        .iter()
        .filter(|s| s.global.is_none() && !s.name.contains('%') && !ug.uir.zones.is_shared(&s.name))
        .filter_map(|s| ug.deriv_name(&s.name))
        .map(key)
        .collect();
    let at_exit: Live = args.iter().map(|a| key(a)).chain(result.map(key)).collect();
    remove_dead_resets(body, &owned, &at_exit);
    let scalars: Live = ug
        .unit
        .symbols
        .iter()
        .filter(|s| !s.is_array() && s.ty.is_differentiable() && s.ty != ScalarType::Derived)
        .filter_map(|s| ug.deriv_name(&s.name))
        .map(key)
        .filter(|d| owned.contains(d))
        .collect();
    fuse_reset_increments(body, &scalars);
}

/// `xb = 0; ...; xb = xb + e` → `...; xb = e` when the statements between neither mention
/// `xb` nor can leave the block: the increment is the "next instruction that assigns to
/// the derivative variable" of §4.6, which compensates for the reset. `scalars` are the
/// scalar derivative variables this may rewrite. Returns how many resets it removed.
pub fn fuse_reset_increments(stmts: &mut Vec<Stmt>, scalars: &Live) -> usize {
    let mut fused = 0;
    for s in stmts.iter_mut() {
        for block in visit::child_blocks_mut(s) {
            fused += fuse_reset_increments(block, scalars);
        }
    }
    let mut k = 0;
    while k < stmts.len() {
        let reset = match &stmts[k].kind {
            StmtKind::Assign { lhs, rhs } if stmts[k].label.is_none() && is_zero(rhs) => {
                match &lhs.kind {
                    ExprKind::Var(n) if scalars.contains(crate::il::key_ref(n).as_ref()) => {
                        Some(key(n))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let mut removed = false;
        if let Some(x) = reset {
            for j in k + 1..stmts.len() {
                if stmts[j].label.is_some() || leaves_block(&stmts[j]) {
                    break;
                }
                if !mentions(&stmts[j], &x) {
                    continue;
                }
                if let Some(e) = increment_of(&stmts[j], &x) {
                    if let StmtKind::Assign { rhs, .. } = &mut stmts[j].kind {
                        *rhs = e;
                    }
                    stmts.remove(k);
                    fused += 1;
                    removed = true;
                }
                break;
            }
        }
        if !removed {
            k += 1;
        }
    }
    fused
}

/// The statement is, or contains, a jump that may leave the block it is in.
fn leaves_block(s: &Stmt) -> bool {
    let mut jumps = false;
    visit::walk_stmts(std::slice::from_ref(s), &mut |t| {
        jumps |= t.kind.is_jump() || matches!(&t.kind, StmtKind::Io { stops: true, .. });
    });
    jumps
}

/// The statement, or one nested in it, names variable `x` (by key) anywhere.
fn mentions(s: &Stmt, x: &str) -> bool {
    let mut found = false;
    visit::walk_stmts(std::slice::from_ref(s), &mut |t| {
        let mut exprs = visit::stmt_exprs(t);
        match &t.kind {
            StmtKind::Assign { lhs, .. } => exprs.push(lhs),
            StmtKind::Do { var, .. } => found |= key(var) == x,
            StmtKind::Allocate(items) | StmtKind::Deallocate(items) => exprs.extend(items),
            StmtKind::Io { writes, .. } => exprs.extend(writes),
            _ => {}
        }
        for e in exprs {
            visit::walk_expr(e, &mut |y| {
                if let ExprKind::Var(n) | ExprKind::Index(n, _) = &y.kind {
                    found |= base_key(n) == *x;
                }
            });
        }
    });
    found
}

/// `e` when `s` is `x = x + e` or `x = e + x`, with `e` not reading `x`.
fn increment_of(s: &Stmt, x: &str) -> Option<Expr> {
    let StmtKind::Assign { lhs, rhs } = &s.kind else {
        return None;
    };
    if !matches!(&lhs.kind, ExprKind::Var(n) if key(n) == x) {
        return None;
    }
    let ExprKind::Binary(BinOp::Add, a, b) = &rhs.kind else {
        return None;
    };
    let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if key(n) == x);
    let e = if is_x(a) {
        b
    } else if is_x(b) {
        a
    } else {
        return None;
    };
    let reads_x = visit::names_read(e).iter().any(|n| base_key(n) == *x);
    (!reads_x).then(|| (**e).clone())
}

/// Removes the dead derivative resets of `body`; `owned` are the keys of the derivative
/// variables the procedure owns, `live_at_exit` those its caller reads on return.
/// Returns how many resets were removed.
pub fn remove_dead_resets(body: &mut Vec<Stmt>, owned: &Live, live_at_exit: &Live) -> usize {
    let mut has_jump = false;
    visit::walk_stmts(body, &mut |s| {
        if matches!(
            s.kind,
            StmtKind::Goto { .. } | StmtKind::ComputedGoto { .. } | StmtKind::ArithmeticIf { .. }
        ) {
            has_jump = true;
        }
    });
    if has_jump || owned.is_empty() {
        return 0;
    }
    let mut pass = Pass {
        owned,
        exit: live_at_exit.intersection(owned).cloned().collect(),
        loops: Vec::new(),
        removed: 0,
    };
    pass.block(
        body,
        live_at_exit.intersection(owned).cloned().collect(),
        true,
    );
    pass.removed
}

struct Pass<'a> {
    owned: &'a Live,
    exit: Live,
    /// Enclosing loops, innermost last: (name, live at the loop head, live after it).
    loops: Vec<(Option<String>, Live, Live)>,
    removed: usize,
}

impl Pass<'_> {
    /// Liveness before `stmts` given `live` after them; removes dead resets when `apply`.
    fn block(&mut self, stmts: &mut Vec<Stmt>, mut live: Live, apply: bool) -> Live {
        let mut keep = vec![true; stmts.len()];
        for (k, s) in stmts.iter_mut().enumerate().rev() {
            if let Some(target) = self.reset_target(s) {
                if !live.contains(&target) {
                    if apply {
                        keep[k] = false;
                        self.removed += 1;
                    }
                    continue;
                }
            }
            live = self.stmt(s, live, apply);
        }
        if apply {
            let mut k = 0;
            stmts.retain(|_| {
                k += 1;
                keep[k - 1]
            });
        }
        live
    }

    /// The owned derivative variable `s` resets to zero (whole or in part).
    fn reset_target(&self, s: &Stmt) -> Option<String> {
        let StmtKind::Assign { lhs, rhs } = &s.kind else {
            return None;
        };
        if !is_zero(rhs) {
            return None;
        }
        let ExprKind::Var(name) = &lhs.kind else {
            return None;
        };
        let base = base_key(name);
        self.owned
            .contains(base.as_ref())
            .then(|| base.into_owned())
    }

    fn stmt(&mut self, s: &mut Stmt, mut live: Live, apply: bool) -> Live {
        let reads = self.reads(s);
        match &mut s.kind {
            StmtKind::Assign { lhs, .. } => {
                if let ExprKind::Var(name) = &lhs.kind {
                    if !name.contains('%') {
                        live.remove(&key(name));
                    }
                }
            }
            StmtKind::If {
                arms, else_body, ..
            } => {
                let after = live;
                live = match else_body {
                    Some(b) => self.block(b, after.clone(), apply),
                    None => after.clone(),
                };
                for (_, b) in arms.iter_mut() {
                    live.extend(self.block(b, after.clone(), apply));
                }
            }
            StmtKind::Do { body, name, .. } | StmtKind::DoWhile { body, name, .. } => {
                let after = live.clone();
                // Live at the head: after the loop (it may run no more), the test, and
                // what the body reads, to a fixed point.
                let mut head: Live = after.union(&reads).cloned().collect();
                loop {
                    self.loops.push((name.clone(), head.clone(), after.clone()));
                    let into = self.block(body, head.clone(), false);
                    self.loops.pop();
                    let next: Live = head.union(&into).cloned().collect();
                    if next == head {
                        break;
                    }
                    head = next;
                }
                if apply {
                    self.loops.push((name.clone(), head.clone(), after.clone()));
                    self.block(body, head.clone(), true);
                    self.loops.pop();
                }
                live = head;
            }
            StmtKind::Exit { name } => live = self.target(name.as_deref()).2.clone(),
            StmtKind::Cycle { name } => live = self.target(name.as_deref()).1.clone(),
            StmtKind::Return => live = self.exit.clone(),
            _ => {}
        }
        live.extend(reads);
        live
    }

    /// The loop an EXIT or CYCLE names (the innermost when unnamed).
    fn target(&self, name: Option<&str>) -> &(Option<String>, Live, Live) {
        let found = match name {
            None => self.loops.last(),
            Some(n) => self
                .loops
                .iter()
                .rev()
                .find(|(l, _, _)| l.as_deref().is_some_and(|l| key(l) == key(n))),
        };
        found.expect("EXIT and CYCLE are inside their loop")
    }

    /// Owned derivative variables the statement itself reads (not its nested blocks).
    fn reads(&self, s: &Stmt) -> Live {
        let mut out = Live::new();
        let add = |e: &Expr| {
            visit::walk_expr(e, &mut |x| {
                if let ExprKind::Var(n) | ExprKind::Index(n, _) = &x.kind {
                    let b = base_key(n);
                    if self.owned.contains(b.as_ref()) {
                        out.insert(b.into_owned());
                    }
                }
            })
        };
        match &s.kind {
            StmtKind::Allocate(items) | StmtKind::Deallocate(items) => items.iter().for_each(add),
            StmtKind::Io { reads, writes, .. } => reads.iter().chain(writes).for_each(add),
            _ => visit::stmt_exprs(s).into_iter().for_each(add),
        }
        out
    }
}

/// The variable a reference belongs to: `sd` for `sd%x` (borrowed when already a key:
/// these passes look at every name of a body that may be large).
fn base_key(name: &str) -> std::borrow::Cow<'_, str> {
    crate::il::key_ref(name.split('%').next().unwrap_or(name))
}

fn is_zero(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Real(r) => r.value.parse::<f64>().is_ok_and(|v| v == 0.0),
        ExprKind::Int(v) => v.parse::<i64>().is_ok_and(|v| v == 0),
        _ => false,
    }
}
