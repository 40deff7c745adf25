//! POINTER arrays written where ALLOCATABLE is meant, beyond a procedure's locals: the
//! components of derived types, a module's variables and a procedure's dummies.
//!
//! Fortran 90 had no ALLOCATABLE components or dummies, so code of that time (and much
//! code since) declares `real, pointer :: u(:)` in a type or a module, gets its memory
//! by ALLOCATE, asks ASSOCIATED before DEALLOCATE, and passes it to a POINTER dummy that
//! allocates it. Such a pointer never aliases anything: it owns its memory, as an
//! ALLOCATABLE does, and reading it as one is exact (seeds/000 §7: Tapenade gives a
//! pointer a derivative pointer that follows the primal one; an owned array's
//! derivative is an array of its own, which adgen already allocates with it).
//!
//! The rules, checked on the file (a pointer assignment in another file is refused
//! where it is written, E0401 by the statement parser):
//! - only arrays of deferred shape (`u(:)`, `a(:, :)`) of intrinsic type; other pointers
//!   stay refused by `sema` (E0405);
//! - a module variable or dummy that is the pointer of a `p => target` statement is not
//!   an owner: it stays a pointer (refused). A component can be the pointer of no
//!   supported `=>`;
//! - `p => null()` and NULLIFY of such a pointer free it if it is allocated (a pointer
//!   left pointing at memory no one frees would be a leak, an ALLOCATABLE cannot be),
//!   or go where they only start it (`free_nullified`); `sema` reads ASSOCIATED of it
//!   as ALLOCATED, spelled as written;
//! - a POINTER dummy INTENT(IN) may still have its elements defined (the intent is of
//!   its association): it loses the INTENT(IN) an ALLOCATABLE would forbid that for.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::Span;
use crate::il::{Attr, BaseType, Bound, Decl, DeclKind, Expr, ExprKind, Intent, Stmt, StmtKind};
use crate::il::{Unit, key, visit};

/// Reads as ALLOCATABLE the owning POINTER arrays of `units` that are not procedure
/// locals (those are `super::allocated_pointers`'): components, module variables and
/// dummies, interface bodies' dummies included. `marked` holds the spans of the
/// pointers on the left of `=>` statements.
pub(super) fn convert(units: &mut [Unit], marked: &BTreeSet<Span>) {
    // Names some `p => target` (not `=> null()`) associates, by the unit it is in.
    let associated: Vec<BTreeSet<String>> = units
        .iter()
        .map(|u| associated_names(&u.body, marked))
        .collect();
    let anywhere: BTreeSet<String> = associated.iter().flatten().cloned().collect();
    for (unit, associated) in units.iter_mut().zip(&associated) {
        let owners: BTreeSet<String> = if unit.is_module() {
            owning_pointers(&unit.decls, &|n| !anywhere.contains(n))
        } else if unit.is_procedure() {
            let dummies: BTreeSet<String> = unit.args.iter().map(|a| key(a)).collect();
            owning_pointers(&unit.decls, &|n| {
                dummies.contains(n) && !associated.contains(n)
            })
        } else {
            BTreeSet::new()
        };
        convert_unit(unit, &owners, marked);
    }
}

/// The names (keys) of the pointers on the left of `p => target` statements of `body`
/// whose target is not `null()`.
fn associated_names(body: &[Stmt], marked: &BTreeSet<Span>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    visit::walk_stmts(body, &mut |s| {
        if let StmtKind::Assign { lhs, rhs } = &s.kind
            && marked.contains(&lhs.span)
            && !is_null(rhs)
            && let ExprKind::Var(n) = &lhs.kind
        {
            out.insert(key(n));
        }
    });
    out
}

pub(super) fn is_null(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call(f, args) if f.eq_ignore_ascii_case("null") && args.is_empty())
}

/// Whether a POINTER declaration of `spec` with the dimensions `dims` (the entity's
/// own, else the DIMENSION attribute's) is an array of deferred shape of intrinsic type.
fn is_deferred_array(base: &BaseType, dims: Option<&Vec<crate::il::DimSpec>>) -> bool {
    !matches!(base, BaseType::Derived)
        && dims.is_some_and(|d| {
            !d.is_empty()
                && d.iter()
                    .all(|b| b.lower.is_none() && matches!(b.upper, Bound::Colon))
        })
}

/// The POINTER entities of `decls` (keys) that are deferred-shape arrays of intrinsic
/// type and that `wanted` accepts.
fn owning_pointers(decls: &[Decl], wanted: &dyn Fn(&str) -> bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for d in decls {
        if let DeclKind::Var {
            spec,
            attrs,
            entities,
        } = &d.kind
            && attrs.iter().any(|a| matches!(a, Attr::Pointer))
        {
            let attr_dims = attrs.iter().find_map(|a| match a {
                Attr::Dimension(d) => Some(d),
                _ => None,
            });
            for e in entities {
                let dims = e.dims.as_ref().or(attr_dims);
                if is_deferred_array(&spec.base, dims) && wanted(&key(&e.name)) {
                    out.insert(key(&e.name));
                }
            }
        }
    }
    out
}

/// Converts `owners` (keys) among the declarations of `unit`, every owning pointer
/// component of the types it defines, and the pointer dummies of its interface bodies;
/// `x => null()` of an owner becomes its NULLIFY.
fn convert_unit(unit: &mut Unit, owners: &BTreeSet<String>, marked: &BTreeSet<Span>) {
    let mut decls = Vec::with_capacity(unit.decls.len());
    for mut d in std::mem::take(&mut unit.decls) {
        match &mut d.kind {
            DeclKind::TypeDef { components, .. } => {
                let all = owning_pointers(components, &|_| true);
                *components = split(std::mem::take(components), &all, false);
                decls.push(d);
            }
            DeclKind::Interface(bodies) | DeclKind::Generic { bodies, .. } => {
                for body in bodies.iter_mut() {
                    let args: BTreeSet<String> = body.args.iter().map(|a| key(a)).collect();
                    let owned = owning_pointers(&body.decls, &|n| args.contains(n));
                    body.decls = split(std::mem::take(&mut body.decls), &owned, true);
                }
                decls.push(d);
            }
            DeclKind::Intent(Intent::In, names) => {
                // INTENT(IN) of a pointer dummy is of its association only.
                names.retain(|n| !owners.contains(&key(n)));
                if !names.is_empty() {
                    decls.push(d);
                }
            }
            _ => decls.push(d),
        }
    }
    // A procedure's owners are its dummies (`convert`).
    unit.decls = split(decls, owners, unit.is_procedure());
    nullify_owners(unit, owners, marked);
}

/// `x => null()` of the owning pointers `owners` (keys) of `unit` becomes their NULLIFY.
pub(super) fn nullify_owners(unit: &mut Unit, owners: &BTreeSet<String>, marked: &BTreeSet<Span>) {
    if owners.is_empty() {
        return;
    }
    visit::walk_stmts_mut(&mut unit.body, &mut |s| {
        if let StmtKind::Assign { lhs, rhs } = &s.kind
            && marked.contains(&lhs.span)
            && is_null(rhs)
            && matches!(&lhs.kind, ExprKind::Var(n) if owners.contains(&key(n)))
        {
            s.kind = StmtKind::Call {
                name: "nullify".to_string(),
                args: vec![crate::il::Arg::positional(lhs.clone())],
            };
        }
    });
}

/// `decls` with the POINTER entities named in `owners` (keys) declared ALLOCATABLE
/// too, in a declaration of their own after the others' (the others keep theirs)
/// (`owned`); `dummies`: they lose INTENT(IN).
fn split(decls: Vec<Decl>, owners: &BTreeSet<String>, dummies: bool) -> Vec<Decl> {
    if owners.is_empty() {
        return decls;
    }
    super::split_pointer_decls_in(decls, owners, false, &|spec, attrs, moved| {
        owned(spec, attrs, moved, dummies)
    })
}

/// The declaration of owning pointers `moved`: POINTER stays beside ALLOCATABLE (the
/// compiler sees the user's declaration; `sema` reads the pair as an owning pointer,
/// the back-end prints POINTER), without `=> null()` (an ALLOCATABLE starts
/// unallocated); `dummy`: without INTENT(IN), which is of a pointer's association only.
pub(super) fn owned(
    spec: &crate::il::TypeSpec,
    attrs: &[Attr],
    moved: Vec<crate::il::Entity>,
    dummy: bool,
) -> DeclKind {
    let mut attrs: Vec<Attr> = attrs
        .iter()
        .filter(|a| !(dummy && matches!(a, Attr::Intent(Intent::In))))
        .cloned()
        .collect();
    attrs.push(Attr::Allocatable);
    DeclKind::Var {
        spec: spec.clone(),
        attrs,
        entities: moved
            .into_iter()
            .map(|e| crate::il::Entity { init: None, ..e })
            .collect(),
    }
}

/// `NULLIFY(p, q)` as one NULLIFY per pointer, in every block of `body`: the pointers
/// of one statement may be of different kinds (an alias the pointer pass replaces, an
/// owner `sema` frees).
pub(super) fn split_nullify(body: &mut Vec<Stmt>, next_id: &mut u32) {
    let mut out = Vec::with_capacity(body.len());
    for mut s in std::mem::take(body) {
        for block in visit::child_blocks_mut(&mut s) {
            split_nullify(block, next_id);
        }
        match &s.kind {
            StmtKind::Call { name, args }
                if name.eq_ignore_ascii_case("nullify") && args.len() > 1 =>
            {
                // The first keeps the statement's id, label and comment.
                for (k, a) in args.iter().enumerate() {
                    let id = if k == 0 {
                        s.id
                    } else {
                        *next_id += 1;
                        crate::il::StmtId(*next_id - 1)
                    };
                    out.push(Stmt {
                        id,
                        kind: StmtKind::Call {
                            name: name.clone(),
                            args: vec![a.clone()],
                        },
                        span: s.span,
                        label: if k == 0 { s.label.clone() } else { None },
                        trailing_comment: if k == 0 {
                            s.trailing_comment.clone()
                        } else {
                            None
                        },
                    });
                }
            }
            _ => out.push(s),
        }
    }
    *body = out;
}

/// What is left of NULLIFY once the local pointers are replaced, in `unit`: that of an
/// owning pointer (read as ALLOCATABLE) frees it if it is associated (`sema` reads
/// ASSOCIATED of it as ALLOCATED). A pointer adgen keeps refusing is refused at its
/// declaration (`sema`), once.
pub(super) fn free_nullified(unit: &mut Unit, next_id: &mut u32) {
    let fresh = fresh_locals(unit);
    drop_initializing_nullify(&mut unit.body, &fresh);
    visit::walk_stmts_mut(&mut unit.body, &mut |s| {
        if let StmtKind::Call { name, args } = &s.kind
            && name.eq_ignore_ascii_case("nullify")
            && let [arg] = args.as_slice()
        {
            let pointer = arg.value.clone();
            let span = pointer.span;
            let id = crate::il::StmtId(*next_id);
            *next_id += 1;
            let free = Stmt {
                id,
                kind: StmtKind::Deallocate(vec![pointer.clone()]),
                span: s.span,
                label: None,
                trailing_comment: None,
            };
            let allocated = Expr {
                kind: ExprKind::Call(
                    "associated".to_string(),
                    vec![crate::il::Arg::positional(pointer)],
                ),
                span,
            };
            s.kind = StmtKind::If {
                arms: vec![(allocated, vec![free])],
                else_body: None,
                logical_if: true,
                name: None,
            };
        }
    });
}

/// The ALLOCATABLE locals of `unit` (keys) that start unallocated on every call: not
/// dummies, not the result, not SAVEd (`selectors::saved_pointers`).
fn fresh_locals(unit: &Unit) -> BTreeSet<String> {
    if !unit.is_procedure() {
        return BTreeSet::new();
    }
    let mut locals = BTreeSet::new();
    for d in &unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
            && attrs.iter().any(|a| matches!(a, Attr::Allocatable))
        {
            locals.extend(entities.iter().map(|e| key(&e.name)).filter(|n| {
                !unit.args.iter().any(|a| key(a) == *n)
                    && unit.result.as_ref().is_none_or(|r| key(r) != *n)
            }));
        }
    }
    let saved = super::selectors::saved_pointers(unit, &locals);
    locals.retain(|n| !saved.contains(n));
    locals
}

/// Takes away a NULLIFY at the top level of `body` that initializes its pointer: the
/// way Fortran 90 code starts a pointer it is about to allocate.
/// - Of a local in `fresh`, before any other use of it: an ALLOCATABLE local is
///   unallocated there.
/// - Of anything else (`nullify(f%u)` in a constructor), when its pointer is next named
///   by an ALLOCATE at the top level. Read as ALLOCATABLE, the array is unallocated
///   there; if it was not (the original would leave its memory behind), the ALLOCATE
///   stops the program ("already allocated"), and adgen's own pairing rules refuse a
///   caller that passes it allocated.
fn drop_initializing_nullify(body: &mut Vec<Stmt>, fresh: &BTreeSet<String>) {
    let nullified = |s: &Stmt| match &s.kind {
        StmtKind::Call { name, args } if name.eq_ignore_ascii_case("nullify") => {
            match args.as_slice() {
                [a] => match &a.value.kind {
                    ExprKind::Var(n) => Some(key(n)),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    };
    let mut dropped = BTreeSet::new();
    for (i, s) in body.iter().enumerate() {
        let Some(name) = nullified(s) else {
            continue;
        };
        // The path and the structures that hold it: `f%u`, `f`.
        let holders: Vec<String> = {
            let parts: Vec<&str> = name.split('%').collect();
            (1..=parts.len()).map(|k| parts[..k].join("%")).collect()
        };
        let allocation = |t: &Stmt| {
            matches!(&t.kind, StmtKind::Allocate(items)
                if items.iter().any(|e| super::item_name(e).as_ref() == Some(&name)))
        };
        let named = |t: &Stmt| {
            let mut found = allocation(t);
            visit::for_each_referenced_name(std::slice::from_ref(t), &mut |n, _| {
                found |= holders.contains(&key(n));
            });
            found
        };
        let untouched = fresh.contains(&name) && !body[..i].iter().any(&named);
        let next = body[i + 1..].iter().find(|t| named(t));
        if untouched || next.is_some_and(allocation) {
            dropped.insert(i);
        }
    }
    let mut i = 0;
    body.retain(|_| {
        i += 1;
        !dropped.contains(&(i - 1))
    });
}

/// The procedures of `units` (keys) that ALLOCATE, DEALLOCATE or NULLIFY one of their
/// POINTER dummies, with the dummies' positions (`rewriter::Rewriter::reassociating`).
pub(super) fn reassociating(units: &[Unit]) -> BTreeMap<String, BTreeSet<usize>> {
    let mut out = BTreeMap::new();
    for unit in units.iter().filter(|u| u.is_procedure()) {
        let pointers = owning_pointers(&unit.decls, &|_| true);
        let mut positions = BTreeSet::new();
        visit::walk_stmts(&unit.body, &mut |s| {
            let items: Vec<&Expr> = match &s.kind {
                StmtKind::Allocate(items) | StmtKind::Deallocate(items) => items.iter().collect(),
                StmtKind::Call { name, args } if name.eq_ignore_ascii_case("nullify") => {
                    args.iter().map(|a| &a.value).collect()
                }
                _ => Vec::new(),
            };
            for n in items.into_iter().filter_map(super::item_name) {
                if let Some(k) = unit.args.iter().position(|a| key(a) == n)
                    && pointers.contains(&n)
                {
                    positions.insert(k);
                }
            }
        });
        if !positions.is_empty() {
            out.insert(key(&unit.name), positions);
        }
    }
    out
}

const FOREIGN_ASSOCIATION: &str = "unsupported statement: pointer assignment (`=>`) of `";

/// The refusal of `name => target` where `name` is not a pointer the file declares
/// (a module's of another file, a component): read back by `associated_in_other_files`.
pub fn foreign_association(name: &str, span: Span) -> crate::diag::Diagnostic {
    crate::diag::Diagnostic::error(
        "E0401",
        format!("{FOREIGN_ASSOCIATION}{name}` is not supported yet"),
    )
    .at(span)
    .with_help("use the target itself, or an array section, instead of a pointer")
}

/// The pointer assignments a file refused (E0401, `stmt`) of a module variable another
/// file declares as an owning pointer: the module's file read it as ALLOCATABLE without
/// seeing them, so its own file is told. Each becomes a refusal of the module variable
/// (`il::Unit::deferred_entities`): every procedure a root reaches that names the
/// variable is blocked by it, not only the procedure that associates it.
pub fn associated_in_other_files(program: &mut crate::il::Program) {
    let refused: Vec<(String, crate::diag::Diagnostic)> = program
        .units()
        .flat_map(|u| u.deferred.iter())
        .filter_map(|d| {
            let rest = d.message.strip_prefix(FOREIGN_ASSOCIATION)?;
            let name = rest.split('`').next()?;
            Some((key(name), d.clone()))
        })
        .collect();
    if refused.is_empty() {
        return;
    }
    for file in &mut program.files {
        for unit in file.units.iter_mut().filter(|u| u.is_module()) {
            for (name, d) in &refused {
                let owner = unit.decls.iter().any(|decl| {
                    matches!(&decl.kind, DeclKind::Var { attrs, entities, .. }
                        if attrs.iter().any(|a| matches!(a, Attr::Pointer))
                            && attrs.iter().any(|a| matches!(a, Attr::Allocatable))
                            && entities.iter().any(|e| key(&e.name) == *name))
                });
                if owner {
                    unit.deferred_entities.push((vec![name.clone()], d.clone()));
                }
            }
        }
    }
}
