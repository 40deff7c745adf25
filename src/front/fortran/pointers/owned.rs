//! Local pointers that get their memory from ALLOCATE and then exchange it with one
//! another, as time-stepping codes swap two allocated time levels:
//!
//! ```fortran
//! real, pointer :: f(:, :, :), fn(:, :, :)
//! allocate(f(nx, ny, nz), fn(nx, ny, nz))
//! do icnt = 1, nt
//!   ... fn(i, j, k) = f(...) ...
//!   call swap(f, fn)        ! tmp => f; f => fn; fn => tmp (`shuffle`)
//! end do
//! deallocate(f, fn)
//! ```
//!
//! No variable is the target of such a pointer: the memory ALLOCATE gives it is. That
//! memory becomes a variable of its own, ALLOCATABLE and TARGET (`f_mem`), allocated
//! where the pointer was and associated with it there (`allocate(f_mem(nx, ny, nz));
//! f => f_mem`). The pointers are then aliases of whole variables, followed as any
//! local pointer is (the parent module; selectors where the target depends on the
//! path), and DEALLOCATE of a pointer frees the variable it has then.
//!
//! Only a pointer allocated once, at the top level of its procedure (not in a loop or a
//! branch: the ALLOCATE would have to give new memory to a variable that already has
//! some), and associated with other pointers of the procedure or they with it (their
//! families: `selectors::Families`).

use std::collections::{BTreeMap, BTreeSet};

use super::selectors::Families;
use crate::diag::Span;
use crate::il::{Attr, Decl, DeclKind, Expr, ExprKind, Stmt, StmtId, StmtKind, Unit, key, visit};

/// Gives the owned memory of `unit`'s exchanging pointers (among `pointers`, keys) a
/// variable of its own. `marked` holds the spans of the pointers on the left of `=>`
/// statements, and gets those of the statements it writes.
pub(super) fn give_memory_names(
    unit: &mut Unit,
    pointers: &BTreeSet<String>,
    marked: &mut BTreeSet<Span>,
    taken: &mut BTreeSet<String>,
    next_id: &mut u32,
) {
    // Every ALLOCATE item, and those of the top level.
    let (mut all, mut top) = (BTreeMap::<String, usize>::new(), BTreeSet::new());
    visit::walk_stmts(&unit.body, &mut |s| {
        if let StmtKind::Allocate(items) = &s.kind {
            for n in items.iter().filter_map(super::item_name) {
                *all.entry(n).or_default() += 1;
            }
        }
    });
    for s in &unit.body {
        if let StmtKind::Allocate(items) = &s.kind {
            top.extend(items.iter().filter_map(super::item_name));
        }
    }
    let is_association = |s: &Stmt| {
        matches!(&s.kind, StmtKind::Assign { lhs, .. }
            if marked.contains(&lhs.span)
                && matches!(&lhs.kind, ExprKind::Var(n) if pointers.contains(&key(n))))
    };
    let families = Families::of(unit, pointers, &is_association);
    // Allocated once, at the top level, and exchanged with other pointers.
    let chosen: BTreeSet<String> = pointers
        .iter()
        .filter(|p| all.get(*p) == Some(&1) && top.contains(*p) && families.joined(p))
        .cloned()
        .collect();
    if chosen.is_empty() {
        return;
    }
    let names: BTreeMap<String, String> = chosen
        .iter()
        .map(|p| {
            let base = format!("{}_mem", written_name(unit, p));
            (p.clone(), super::selectors::numbered(&base, taken))
        })
        .collect();
    declare(unit, &names);
    free_families(&mut unit.body, &chosen, &families, &names);
    let body = std::mem::take(&mut unit.body);
    let mut out = Vec::with_capacity(body.len() + names.len());
    for s in body {
        let StmtKind::Allocate(items) = &s.kind else {
            out.push(s);
            continue;
        };
        let mut renamed = items.clone();
        let mut associations = Vec::new();
        for item in &mut renamed {
            let Some(p) = super::item_name(item).filter(|p| names.contains_key(p)) else {
                continue;
            };
            let mut pointer = Expr::var(written_name(unit, &p));
            pointer.span = item.span;
            if let ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) = &mut item.kind
            {
                *n = names[&p].clone();
            }
            marked.insert(item.span);
            let mut memory = Expr::var(&names[&p]);
            memory.span = item.span;
            let mut assoc = Stmt::generated(StmtKind::Assign {
                lhs: pointer,
                rhs: memory,
            });
            assoc.span = s.span;
            associations.push(assoc);
        }
        let mut s = s;
        s.kind = StmtKind::Allocate(renamed);
        out.push(s);
        for mut a in associations {
            a.id = StmtId(*next_id);
            *next_id = next_id.saturating_add(1);
            out.push(a);
        }
    }
    unit.body = out;
}

/// A DEALLOCATE that frees every pointer of `chosen` in some family, and no other
/// pointer of it, frees every memory variable of that family whichever pointer has
/// which: its items are those variables (`names`). Others are left to the rewriter.
fn free_families(
    body: &mut [Stmt],
    chosen: &BTreeSet<String>,
    families: &Families,
    names: &BTreeMap<String, String>,
) {
    for s in body.iter_mut() {
        for b in visit::child_blocks_mut(s) {
            free_families(b, chosen, families, names);
        }
        let StmtKind::Deallocate(items) = &mut s.kind else {
            continue;
        };
        let freed: BTreeSet<String> = items.iter().filter_map(super::item_name).collect();
        // Whether the DEALLOCATE frees exactly the owners of `p`'s family.
        let whole = |p: &String| {
            let members = families.members(p);
            let owners: BTreeSet<&String> =
                members.iter().filter(|q| chosen.contains(*q)).collect();
            let named: BTreeSet<&String> = members.iter().filter(|q| freed.contains(*q)).collect();
            !owners.is_empty() && owners == named
        };
        for e in items.iter_mut() {
            if let Some(p) = super::item_name(e).filter(|p| chosen.contains(p) && whole(p))
                && let ExprKind::Var(n) = &mut e.kind
            {
                *n = names[&p].clone();
            }
        }
    }
}

/// The pointer `p` (key) as its declaration writes it.
fn written_name(unit: &Unit, p: &str) -> String {
    unit.decls
        .iter()
        .find_map(|d| match &d.kind {
            DeclKind::Var { entities, .. } => entities
                .iter()
                .find(|e| key(&e.name) == p)
                .map(|e| e.name.clone()),
            _ => None,
        })
        .unwrap_or_else(|| p.to_string())
}

/// Declares each pointer's memory variable, ALLOCATABLE and TARGET with the pointer's
/// type and rank, just after the pointer's declaration.
fn declare(unit: &mut Unit, names: &BTreeMap<String, String>) {
    let mut out: Vec<Decl> = Vec::with_capacity(unit.decls.len() + 1);
    for d in std::mem::take(&mut unit.decls) {
        let extra = match &d.kind {
            DeclKind::Var {
                spec,
                attrs,
                entities,
            } if attrs.iter().any(|a| matches!(a, Attr::Pointer)) => {
                let memory: Vec<_> = entities
                    .iter()
                    .filter_map(|e| {
                        names.get(&key(&e.name)).map(|n| {
                            let mut e = e.clone();
                            e.name = n.clone();
                            e.init = None;
                            e
                        })
                    })
                    .collect();
                (!memory.is_empty()).then(|| {
                    let mut attrs: Vec<Attr> = attrs
                        .iter()
                        .filter(|a| !matches!(a, Attr::Pointer | Attr::Target | Attr::Save))
                        .cloned()
                        .collect();
                    attrs.push(Attr::Allocatable);
                    attrs.push(Attr::Target);
                    Decl {
                        kind: DeclKind::Var {
                            spec: spec.clone(),
                            attrs,
                            entities: memory,
                        },
                        span: d.span,
                    }
                })
            }
            _ => None,
        };
        out.push(d);
        out.extend(extra);
    }
    unit.decls = out;
}
