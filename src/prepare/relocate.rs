//! Where a specialized copy lives when a procedure passed to it is a module procedure the
//! callee cannot see (issue 13: an integrator in one module called with a model of
//! another, `call heun(decay, ...)` in module `model` for `heun` of module `integ`).
//!
//! Tapenade differentiates the callee per calling context; adgen's copy `heun_decay`
//! must call `decay`, so it goes where `decay` is seen:
//! - an external callee stays external, and its copy says `use model, only: decay`
//!   (placed after module `model`, in its file);
//! - a module procedure's copy becomes a procedure of the caller's module, with `use`
//!   statements for every name it took from its own module by host association
//!   (`use integ, only: rate`, `use kinds, only: dp`) and for the procedures passed.
//!
//! A name the copy needs that its module keeps PRIVATE cannot be reached from elsewhere:
//! then there is no copy, and the call stays as written (refused, E0503, where it touches
//! active values).

use std::collections::{BTreeMap, BTreeSet};

use crate::il::{DeclKind, SymbolKind, Unit, key, visit};

/// A copy's place: the module it becomes a procedure of (`None`: beside the callee), and
/// the `use` statements it needs there (module → (local, remote) names).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Placement {
    pub host: Option<String>,
    pub uses: BTreeMap<String, BTreeSet<(String, String)>>,
}

/// The place of the copy of `callee` that calls `procs` (procedure names, with the
/// module of each that is a module procedure), called from a unit of module
/// `caller_host`; `None` when no place sees everything it needs.
pub fn placement(
    modules: &[Unit],
    procedures: &BTreeMap<String, (Option<String>, bool)>,
    callee: &Unit,
    caller_host: Option<&str>,
    procs: &[(String, Option<String>)],
) -> Option<Placement> {
    let same = |a: &str, b: &str| key(a) == key(b);
    // Everything passed is seen where the callee is: external procedures, or those of
    // the callee's own module.
    let seen = |m: &Option<String>| {
        m.as_deref()
            .is_none_or(|m| callee.host.as_deref().is_some_and(|h| same(h, m)))
    };
    if procs.iter().all(|(_, m)| seen(m)) {
        return Some(Placement::default());
    }
    let host = match (&callee.host, caller_host) {
        (None, _) => None,
        (Some(_), Some(h)) => Some(h.to_string()),
        (Some(_), None) => return None,
    };
    let mut uses: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for (p, m) in procs {
        if let Some(m) = m
            .as_deref()
            .filter(|m| host.as_deref().is_none_or(|h| !same(h, m)))
        {
            uses.entry(m.to_string())
                .or_default()
                .insert((p.clone(), p.clone()));
        }
    }
    if let Some(h) = &host {
        // What the callee took from modules by host or use association.
        let dummies: BTreeSet<String> = callee.args.iter().map(|a| key(a)).collect();
        for name in names_used(callee) {
            if dummies.contains(&name) {
                continue;
            }
            let Some(symbol) = callee.symbols.get(&name) else {
                continue;
            };
            let Some(global) = &symbol.global else {
                continue;
            };
            if same(&global.module, h) || global.module.starts_with('/') {
                continue;
            }
            if symbol.kind == SymbolKind::Procedure
                && !procedures.contains_key(crate::il::key_ref(&symbol.name).as_ref())
            {
                // An intrinsic or an external procedure: no module to use.
                continue;
            }
            // Renamed on import (`wp => real64`): imported so again.
            uses.entry(global.module.clone())
                .or_default()
                .insert((symbol.name.clone(), global.name.clone()));
        }
        for t in type_names(callee) {
            let Some(m) = defining_module(modules, &t) else {
                continue;
            };
            if !same(&m.name, h) {
                uses.entry(m.name.clone())
                    .or_default()
                    .insert((t.clone(), t));
            }
        }
    }
    // Every name must be public where it is taken from, but for the module's PRIVATE
    // constants and procedures: derivative code gets its own copies of those
    // (`diff::private_copies`), so they are not imported. (An intrinsic module has no
    // unit: all its names are public.)
    for (m, names) in &mut uses {
        let Some(module) = modules.iter().find(|u| same(&u.name, m)) else {
            continue;
        };
        let mut private = Vec::new();
        for (n, remote) in names.iter().filter(|(_, remote)| module.is_private(remote)) {
            let kind = module.symbols.get(remote).map(|s| s.kind);
            let procedure = procedures
                .get(crate::il::key_ref(remote).as_ref())
                .is_some_and(|(h, _)| h.as_deref().is_some_and(|h| same(h, m)));
            if !procedure && kind != Some(SymbolKind::Constant) {
                return None;
            }
            private.push(n.clone());
        }
        names.retain(|(n, _)| !private.contains(n));
    }
    uses.retain(|_, names| !names.is_empty());
    Some(Placement { host, uses })
}

/// The `use` declarations of a placement, in module order.
pub fn use_decls(placement: &Placement) -> Vec<crate::il::Decl> {
    placement
        .uses
        .iter()
        .map(|(module, names)| crate::il::Decl {
            kind: DeclKind::Use {
                module: module.clone(),
                only: Some(names.iter().map(|(local, _)| local.clone()).collect()),
                renames: names
                    .iter()
                    .filter(|(local, remote)| key(local) != key(remote))
                    .cloned()
                    .collect(),
            },
            span: crate::diag::Span::default(),
        })
        .collect()
}

/// Names (keys) a unit refers to: in its body, its declarations' bounds, initial values
/// and kinds.
fn names_used(unit: &Unit) -> BTreeSet<String> {
    let mut names = visit::referenced_names(&unit.body);
    names.extend(visit::decls_names(&unit.decls));
    for d in &unit.decls {
        if let DeclKind::Var { spec, .. } = &d.kind {
            if let Some(k) = &spec.kind {
                visit::walk_expr(k, &mut |x| {
                    if let crate::il::ExprKind::Var(n) = &x.kind {
                        names.insert(key(n));
                    }
                });
            }
        }
    }
    names
}

/// The derived types a unit declares variables of.
fn type_names(unit: &Unit) -> BTreeSet<String> {
    unit.decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Var { spec, .. } => spec.type_name.clone(),
            _ => None,
        })
        .collect()
}

/// The module that defines derived type `name`.
fn defining_module<'m>(modules: &'m [Unit], name: &str) -> Option<&'m Unit> {
    modules.iter().find(|m| {
        m.decls
            .iter()
            .any(|d| matches!(&d.kind, DeclKind::TypeDef { name: t, .. } if key(t) == key(name)))
    })
}
