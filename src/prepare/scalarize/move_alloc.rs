//! `call move_alloc(from, to)`, the Fortran 2003 way to hand an allocation over (the
//! buffer swap of a time loop, `swap_fields` in csc's heat solver), lowered to what the
//! rest of adgen differentiates: `to` is allocated with the bounds of `from`, takes its
//! values, and `from` is freed; a `to` still allocated there (known from the statements
//! written before) is freed first, as MOVE_ALLOC does (GYRE's `reallocate` moves a new
//! array into the one it resizes). The allocation rules of `alloc` (and `for_caller`
//! for dummies) then apply to the statements. The lowering runs on every unit before
//! the others read them, so a caller sees its callees' allocations as ALLOCATE and
//! DEALLOCATE. The copy costs one pass over the array where MOVE_ALLOC moves a
//! descriptor: the derivative code's primal is that much slower than the original.

use super::*;
use std::collections::BTreeSet;

/// Lowers every MOVE_ALLOC of the unit; one refusal (E0414) for a MOVE_ALLOC of arrays
/// that are not ALLOCATABLE arrays of one rank holding numbers.
pub(super) fn lower(unit: &mut Unit, next_id: &mut u32) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let body = std::mem::take(&mut unit.body);
    let mut state = Held::default();
    unit.body = lower_block(body, &unit.symbols, next_id, &mut diags, &mut state);
    diags
}

/// The arrays (keys) known allocated and known freed at a point of the body, in the
/// order the statements are written: a name used is allocated, a name freed (or moved
/// from) is not. A MOVE_ALLOC frees its TO first when TO is allocated there; the
/// allocation rules (`alloc`, `for_caller`) then check the result, a loop included.
#[derive(Default)]
struct Held {
    allocated: BTreeSet<String>,
}

impl Held {
    fn see(&mut self, s: &Stmt) {
        let (allocated, freed) = crate::il::lifetime::heap_items(s);
        for e in &freed {
            if let Some(n) = e.base_name() {
                self.allocated.remove(&key(n));
            }
        }
        for e in &allocated {
            if let Some(n) = e.base_name() {
                self.allocated.insert(key(n));
            }
        }
        if allocated.is_empty() && freed.is_empty() {
            for n in super::stmt_names(s) {
                self.allocated.insert(n);
            }
        }
    }
}

/// Does the unit call MOVE_ALLOC?
pub(super) fn calls_move_alloc(unit: &Unit) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(&unit.body, &mut |s| {
        found |= matches!(&s.kind, StmtKind::Call { name, .. } if key(name) == "move_alloc");
    });
    found
}

fn lower_block(
    block: Vec<Stmt>,
    symbols: &SymbolTable,
    next_id: &mut u32,
    diags: &mut Vec<Diagnostic>,
    state: &mut Held,
) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(block.len());
    for mut s in block {
        let is_move = matches!(&s.kind, StmtKind::Call { name, .. } if key(name) == "move_alloc");
        if !is_move {
            // The statement's own expressions (an IF's condition) come before its blocks.
            if crate::il::visit::child_blocks(&s).is_empty() {
                state.see(&s);
            } else {
                for e in crate::il::visit::stmt_exprs(&s) {
                    for n in crate::il::visit::names_read(e) {
                        state.allocated.insert(key(n));
                    }
                }
            }
            for child in crate::il::visit::child_blocks_mut(&mut s) {
                let b = std::mem::take(child);
                *child = lower_block(b, symbols, next_id, diags, state);
            }
            out.push(s);
            continue;
        }
        match lowered(&s, symbols, next_id, state) {
            Ok(stmts) => {
                stmts.iter().for_each(|x| state.see(x));
                out.extend(stmts);
            }
            Err(d) => {
                diags.push(d);
                out.push(s);
            }
        }
    }
    out
}

fn lowered(
    s: &Stmt,
    symbols: &SymbolTable,
    next_id: &mut u32,
    state: &Held,
) -> Result<Vec<Stmt>, Diagnostic> {
    let (to, from) = crate::il::lifetime::heap_items(s);
    let refuse = |why: &str| {
        Diagnostic::error(CODE, format!("this MOVE_ALLOC {why}"))
            .at(s.span)
            .with_help("pass two ALLOCATABLE arrays of one rank, real, integer or complex, by name (`call move_alloc(a, b)`)")
    };
    let (Some(to), Some(from)) = (to.first(), from.first()) else {
        return Err(refuse("does not name both FROM and TO"));
    };
    let named = |e: &Expr| match &e.kind {
        ExprKind::Var(n) => symbols.get(n).filter(|sym| {
            sym.dims
                .iter()
                .any(|d| matches!(d.upper, crate::il::Bound::Colon))
                && matches!(
                    sym.ty,
                    ScalarType::Real(_) | ScalarType::Integer(_) | ScalarType::Complex(_)
                )
        }),
        _ => None,
    };
    let (Some(f), Some(t)) = (named(from), named(to)) else {
        return Err(refuse(
            "moves something other than a whole ALLOCATABLE array of numbers",
        ));
    };
    if f.rank() != t.rank() {
        return Err(refuse("moves between arrays of different ranks"));
    }
    let (from_name, to_name) = (f.name.clone(), t.name.clone());
    let mut stmt = |kind: StmtKind| {
        let id = StmtId(*next_id);
        *next_id += 1;
        Stmt {
            id,
            kind,
            span: s.span,
            label: None,
            trailing_comment: None,
        }
    };
    let bound =
        |op, k: usize| Expr::intrinsic(op, vec![Expr::var(&from_name), Expr::int(k as i64)]);
    let subs = (1..=f.rank())
        .map(|k| {
            Expr::new(ExprKind::Range {
                lower: Some(Box::new(bound(crate::il::Intrinsic::Lbound, k))),
                upper: Some(Box::new(bound(crate::il::Intrinsic::Ubound, k))),
                stride: None,
            })
        })
        .collect();
    let mut out = Vec::new();
    // MOVE_ALLOC frees an allocated TO first.
    if state.allocated.contains(&key(&to_name)) {
        out.push(stmt(StmtKind::Deallocate(vec![Expr::var(&to_name)])));
    }
    out.extend([
        stmt(StmtKind::Allocate(vec![Expr::new(ExprKind::Index(
            to_name.clone(),
            subs,
        ))])),
        stmt(StmtKind::Assign {
            lhs: Expr::var(&to_name),
            rhs: Expr::var(&from_name),
        }),
        stmt(StmtKind::Deallocate(vec![Expr::var(&from_name)])),
    ]);
    if let Some(label) = &s.label {
        out[0].label = Some(label.clone());
    }
    Ok(out)
}
