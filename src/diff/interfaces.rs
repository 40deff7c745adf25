//! Explicit interfaces of derivative procedures. A unit that declares an external
//! procedure by an interface body (`INTERFACE; SUBROUTINE smooth(u, w) ...`) may need it:
//! an assumed-shape or optional dummy requires an explicit interface at the call. Its
//! derivative calls `smooth_d` instead, so it gets an interface body for `smooth_d`
//! too, made from the generated unit: the header and the declarations of the dummy
//! arguments (with the USE, IMPLICIT and named constants their types and bounds need).

use std::collections::{BTreeMap, BTreeSet};

use super::generate::Generated;
use super::{Ctx, UnitGen};
use crate::il::{self, Decl, DeclKind, Unit, key};
use crate::request::Mode;

/// Adds to each generated unit whose original saw interface bodies (`declares(i)`: its
/// own, or its module's, generic ones included) an interface body for every generated
/// external procedure it calls and does not declare yet. `external` tells which
/// generated units are external Fortran procedures.
pub(super) fn add_derivative_interfaces(
    units: &mut Generated,
    external: &dyn Fn(usize) -> bool,
    declares: &dyn Fn(usize) -> bool,
) {
    if !units.keys().any(|&(i, _)| declares(i)) {
        return;
    }
    let bodies: BTreeMap<String, Unit> = units
        .iter()
        .filter(|((i, _), u)| external(*i) && u.host.is_none() && !u.is_module())
        .map(|(_, u)| (key(&u.name), interface_body(u)))
        .collect();
    declare_called(units, &bodies, declares);
}

/// The user's derivatives of black boxes, declared in the generated units that call them
/// where the language's calls need prototypes (C: to pass each argument by value or by
/// address), with the header adgen would have written for them.
pub(super) fn declare_black_box_derivatives(ctx: &Ctx, units: &mut Generated) {
    let needs_prototypes = |i: usize| {
        ctx.program
            .files
            .iter()
            .find(|f| {
                f.units
                    .iter()
                    .any(|u| std::ptr::eq(u, ctx.ir.units[i].unit))
            })
            .is_some_and(|f| f.language.calls_need_prototypes())
    };
    let mut bodies = BTreeMap::new();
    for i in 0..ctx.ir.units.len() {
        if ctx.request.black_box(&ctx.ir.units[i].unit.name).is_none()
            || !ctx.analyses.units[i].is_differentiated()
            || !needs_prototypes(i)
        {
            continue;
        }
        // Only the header is kept: what the generation says of a body the black box does
        // not have (sizes to zero, saves) is not the user's concern.
        let mut ug = UnitGen::new(ctx, i);
        let header = match ctx.mode {
            Mode::Tangent => super::tangent::tangent_unit(&mut ug),
            Mode::Adjoint => super::adjoint::adjoint_unit(&mut ug),
        };
        let mut body = interface_body(&header);
        body.external = true;
        bodies.insert(key(&header.name), body);
    }
    declare_called(units, &bodies, &needs_prototypes);
}

/// Adds to each unit that `declares` the interface bodies (`bodies`, by key) of the
/// procedures it calls and does not declare yet.
fn declare_called(
    units: &mut Generated,
    bodies: &BTreeMap<String, Unit>,
    declares: &dyn Fn(usize) -> bool,
) {
    if bodies.is_empty() {
        return;
    }
    let needs: Vec<(usize, bool)> = units
        .keys()
        .copied()
        .filter(|&(i, _)| declares(i))
        .collect();
    for at_key in needs {
        let Some(unit) = units.get_mut(&at_key) else {
            continue;
        };
        let declared: BTreeSet<String> = unit
            .decls
            .iter()
            .filter_map(|d| match &d.kind {
                DeclKind::Interface(b) => Some(b.iter().map(|b| key(&b.name))),
                _ => None,
            })
            .flatten()
            .collect();
        let mut seen = BTreeSet::new();
        let add: Vec<Unit> = il::visit::called_names(unit)
            .iter()
            .map(|n| key(n))
            .filter(|k| !declared.contains(k) && k != &key(&unit.name) && seen.insert(k.clone()))
            .filter_map(|k| bodies.get(&k).cloned())
            .collect();
        if add.is_empty() {
            continue;
        }
        // After the USE and IMPLICIT statements, next to the original's interface block.
        let at = unit
            .decls
            .iter()
            .rposition(|d| {
                matches!(
                    d.kind,
                    DeclKind::Interface(_) | DeclKind::Use { .. } | DeclKind::Implicit(_)
                )
            })
            .map_or(0, |p| p + 1);
        unit.decls.insert(
            at,
            Decl {
                kind: DeclKind::Interface(add),
                span: Default::default(),
            },
        );
    }
}

/// The interface body of a generated unit: its header and what declares its dummies.
fn interface_body(u: &Unit) -> Unit {
    let mut wanted: BTreeSet<String> = u.args.iter().map(|a| key(a)).collect();
    wanted.extend(u.result.iter().map(|r| key(r)));
    // Names the dummies' declarations need (bounds, kinds, initial values of constants).
    let mut names = BTreeSet::new();
    for d in &u.decls {
        if let DeclKind::Var { entities, .. } = &d.kind {
            if entities
                .iter()
                .any(|e| wanted.contains(crate::il::key_ref(&e.name).as_ref()))
            {
                names.extend(decl_names(d));
            }
        }
    }
    let decls = u
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Use { .. } | DeclKind::Implicit(_) => Some(d.clone()),
            DeclKind::Var {
                spec,
                attrs,
                entities,
            } => {
                let constant = attrs.iter().any(|a| matches!(a, il::Attr::Parameter));
                let kept: Vec<il::Entity> = entities
                    .iter()
                    .filter(|e| {
                        wanted.contains(crate::il::key_ref(&e.name).as_ref())
                            || (constant && names.contains(crate::il::key_ref(&e.name).as_ref()))
                    })
                    .cloned()
                    .collect();
                (!kept.is_empty()).then(|| Decl {
                    kind: DeclKind::Var {
                        spec: spec.clone(),
                        attrs: attrs.clone(),
                        entities: kept,
                    },
                    span: d.span,
                })
            }
            _ => None,
        })
        .collect();
    Unit {
        decls,
        body: Vec::new(),
        leading_comments: Vec::new(),
        source_calls: Default::default(),
        deferred: Vec::new(),
        deferred_entities: Vec::new(),
        followed_pointers: Vec::new(),
        internal_of: None,
        elemental: false,
        ..u.clone()
    }
}

/// Names read by a declaration's bounds, initial values and kind.
fn decl_names(d: &Decl) -> BTreeSet<String> {
    let mut out = il::visit::decls_names(std::slice::from_ref(d));
    if let DeclKind::Var { spec, .. } = &d.kind
        && let Some(k) = &spec.kind
    {
        out.extend(il::visit::names_read(k).into_iter().map(key));
    }
    out
}

/// Whether `unit` (or its host module) declares procedures by interface bodies.
pub(super) fn sees_interface_bodies(program: &il::Program, unit: &Unit) -> bool {
    let has = |u: &Unit| {
        u.decls.iter().any(|d| match &d.kind {
            DeclKind::Interface(b) | DeclKind::Generic { bodies: b, .. } => !b.is_empty(),
            _ => false,
        })
    };
    has(unit)
        || unit
            .host
            .as_deref()
            .and_then(|h| program.module(h))
            .is_some_and(has)
}
