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
//! branch), and associated only with other pointers of the procedure (or `null()`):
//! otherwise the ALLOCATE would have to give new memory to a variable that already has
//! some.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::Span;
use crate::il::{Attr, Decl, DeclKind, Expr, ExprKind, Stmt, StmtId, StmtKind, Unit, key, visit};

/// Gives the owned memory of `unit`'s exchanging pointers (among `pointers`, keys) a
/// variable of its own; returns those pointers (keys). `marked` gets the spans of the
/// pointers on the left of the `=>` statements it writes.
pub(super) fn give_memory_names(
    unit: &mut Unit,
    pointers: &BTreeSet<String>,
    marked: &mut BTreeSet<Span>,
    taken: &mut BTreeSet<String>,
    next_id: &mut u32,
) -> BTreeSet<String> {
    let (candidates, family) = exchanging(unit, pointers, marked);
    if candidates.is_empty() {
        return candidates;
    }
    // One top-level ALLOCATE of each, nowhere else.
    let mut top: BTreeMap<String, usize> = BTreeMap::new();
    for s in &unit.body {
        if let StmtKind::Allocate(items) = &s.kind {
            for n in items.iter().filter_map(super::item_name) {
                *top.entry(n).or_default() += 1;
            }
        }
    }
    let mut all: BTreeMap<String, usize> = BTreeMap::new();
    visit::walk_stmts(&unit.body, &mut |s| {
        if let StmtKind::Allocate(items) = &s.kind {
            for n in items.iter().filter_map(super::item_name) {
                *all.entry(n).or_default() += 1;
            }
        }
    });
    let chosen: BTreeSet<String> = candidates
        .into_iter()
        .filter(|p| top.get(p) == Some(&1) && all.get(p) == Some(&1))
        .collect();
    if chosen.is_empty() {
        return chosen;
    }
    let names: BTreeMap<String, String> = chosen
        .iter()
        .map(|p| {
            let written = written_name(unit, p);
            let mut name = format!("{written}_mem");
            let mut k = 2;
            while taken.contains(&key(&name)) {
                name = format!("{written}_mem{k}");
                k += 1;
            }
            taken.insert(key(&name));
            (p.clone(), name)
        })
        .collect();
    declare(unit, &names);
    free_families(&mut unit.body, &chosen, &family, &names);
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
    chosen
}

/// The local pointers (keys) that ALLOCATE gives memory and that are associated only
/// with pointers of `pointers` or `null()`, with at least one such association; and the
/// family of every pointer associated with another (key → its family's first pointer).
fn exchanging(
    unit: &Unit,
    pointers: &BTreeSet<String>,
    marked: &BTreeSet<Span>,
) -> (BTreeSet<String>, BTreeMap<String, String>) {
    let mut allocated = BTreeSet::new();
    let mut pairs = Vec::new();
    let mut elsewhere = BTreeSet::new();
    visit::walk_stmts(&unit.body, &mut |s| match &s.kind {
        StmtKind::Allocate(items) => allocated.extend(items.iter().filter_map(super::item_name)),
        StmtKind::Assign { lhs, rhs } if marked.contains(&lhs.span) => {
            let (Some(p), ExprKind::Var(q)) = (super::item_name(lhs), &rhs.kind) else {
                if !super::allocatable::is_null(rhs) {
                    elsewhere.extend(super::item_name(lhs));
                }
                return;
            };
            if pointers.contains(&key(q)) {
                pairs.push((p, key(q)));
            } else {
                elsewhere.insert(p);
            }
        }
        _ => {}
    });
    let mut family: BTreeMap<String, String> = BTreeMap::new();
    fn root(family: &BTreeMap<String, String>, p: &str) -> String {
        let mut at = p.to_string();
        while let Some(up) = family.get(&at).filter(|up| **up != at) {
            at = up.clone();
        }
        at
    }
    for (p, q) in &pairs {
        let (a, b) = (root(&family, p), root(&family, q));
        family.entry(a.clone()).or_insert(a.clone());
        if a != b {
            family.insert(b, a);
        }
    }
    let family: BTreeMap<String, String> = pairs
        .iter()
        .flat_map(|(p, q)| [p.clone(), q.clone()])
        .map(|p| {
            let r = root(&family, &p);
            (p, r)
        })
        .collect();
    let exchanging = allocated
        .into_iter()
        .filter(|p| pointers.contains(p) && family.contains_key(p) && !elsewhere.contains(p))
        .collect();
    (exchanging, family)
}

/// A DEALLOCATE that frees every pointer of `chosen` in some family, and no other
/// pointer of it, frees every memory variable of that family whichever pointer has
/// which: its items are those variables (`names`). Others are left to the rewriter.
fn free_families(
    body: &mut [Stmt],
    chosen: &BTreeSet<String>,
    family: &BTreeMap<String, String>,
    names: &BTreeMap<String, String>,
) {
    for s in body.iter_mut() {
        for b in visit::child_blocks_mut(s) {
            free_families(b, chosen, family, names);
        }
        let StmtKind::Deallocate(items) = &mut s.kind else {
            continue;
        };
        let freed: BTreeSet<String> = items.iter().filter_map(super::item_name).collect();
        let whole: BTreeSet<&String> = freed
            .iter()
            .filter_map(|p| family.get(p))
            .filter(|f| {
                let members: BTreeSet<&String> = family
                    .iter()
                    .filter(|(_, g)| g == f)
                    .map(|(p, _)| p)
                    .collect();
                let owners: BTreeSet<&String> = members
                    .iter()
                    .copied()
                    .filter(|p| chosen.contains(*p))
                    .collect();
                let named: BTreeSet<&String> = members
                    .iter()
                    .copied()
                    .filter(|p| freed.contains(*p))
                    .collect();
                !owners.is_empty() && owners == named
            })
            .collect();
        for e in items.iter_mut() {
            if let Some(p) = super::item_name(e)
                && family.get(&p).is_some_and(|f| whole.contains(f))
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
