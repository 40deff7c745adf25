//! The modules of derivative code: for each original module whose
//! variables or types are active, a derivative module that uses it and declares the
//! derivatives of its globals and the derivative types; the `static` C globals
//! derivative code needs refused (E0516) where the compilers could not reach them (for
//! the PRIVATE entities of modules, see `private_copies`).

use super::*;

/// The derivative module `name` of module `original`: it uses the original (so its
/// procedures see the original's names) and holds the derivative procedures.
pub(super) fn derivative_module(name: &str, original: &str, span: Span) -> Unit {
    let decls = vec![
        Decl {
            kind: DeclKind::Use {
                module: original.to_string(),
                only: None,
                renames: Vec::new(),
            },
            span,
        },
        Decl {
            kind: DeclKind::Implicit(Vec::new()),
            span,
        },
    ];
    Unit {
        kind: il::UnitKind::Module,
        external: false,
        ..Unit::declaration(name, Vec::new(), None, decls, Default::default(), span)
    }
}

/// The derivative name of each module variable active in some unit: unique among every
/// name of the program, since units see it by use association.
pub(super) fn global_derivative_names(
    program: &Program,
    ir: &Ir,
    analyses: &Analyses,
    naming: &Naming,
    mode: Mode,
) -> Vec<Option<String>> {
    let mut namer = Namer::new(program.units().map(|u| u.name.as_str()));
    for u in program.units() {
        for s in u.symbols.iter() {
            namer.reserve(s.name.split('%').next().unwrap_or(&s.name));
        }
    }
    ir.globals
        .iter()
        .enumerate()
        .map(|(g, info)| {
            let active =
                ir.units.iter().zip(&analyses.units).any(|(uir, ua)| {
                    ua.is_differentiated() && ua.deriv_zones[uir.zones.globals[g]]
                });
            active.then(|| namer.fresh(&naming.variable(mode, &info.global.name)))
        })
        .collect()
}

/// Declarations of the derivatives of a module's active variables.
pub(super) fn derivative_globals(ctx: &Ctx, module: &Unit) -> Vec<Decl> {
    let mut out = Vec::new();
    for (g, info) in ctx.ir.globals.iter().enumerate() {
        if key(&info.global.module) != key(&module.name) {
            continue;
        }
        let (Some(d), Some(sym)) = (&ctx.global_names[g], module.symbols.get(&info.global.name))
        else {
            continue;
        };
        // An ALLOCATABLE variable's derivative is allocatable too: whoever allocates
        // the primal (the driver, an initialization routine) allocates it alike.
        let allocatable = module.decls.iter().any(|decl| match &decl.kind {
            DeclKind::Var {
                attrs, entities, ..
            } => {
                attrs.iter().any(|a| matches!(a, Attr::Allocatable))
                    && entities.iter().any(|e| key(&e.name) == key(&sym.name))
            }
            _ => false,
        });
        out.push(var_decl(
            ctx.derivative_spec(&sym.type_spec),
            if allocatable {
                vec![Attr::Allocatable]
            } else {
                Vec::new()
            },
            d,
            &sym.dims,
        ));
    }
    out
}

/// The derivative types of a module's derived types: their real and derived-type
/// components that may carry a derivative (`analysis::fields`), under the same names
/// (seeds/000 §4.2).
pub(super) fn derivative_types(ctx: &Ctx, module: &Unit) -> Vec<Decl> {
    let mut out = Vec::new();
    for d in &module.decls {
        let DeclKind::TypeDef {
            name, components, ..
        } = &d.kind
        else {
            continue;
        };
        let mut parts = Vec::new();
        for c in components {
            let DeclKind::Var {
                spec,
                attrs,
                entities,
            } = &c.kind
            else {
                continue;
            };
            if !matches!(
                spec.base,
                il::BaseType::Real
                    | il::BaseType::DoublePrecision
                    | il::BaseType::Complex
                    | il::BaseType::DoubleComplex
                    | il::BaseType::Derived
            ) {
                continue;
            }
            let entities: Vec<Entity> = entities
                .iter()
                .filter(|e| ctx.analyses.fields.keeps(name, &e.name))
                .map(|e| Entity {
                    init: None,
                    ..e.clone()
                })
                .collect();
            if entities.is_empty() {
                continue;
            }
            parts.push(Decl {
                kind: DeclKind::Var {
                    spec: ctx.derivative_spec(spec),
                    // The derivative of an owning pointer is ALLOCATABLE (it is adgen's).
                    attrs: attrs
                        .iter()
                        .filter(|a| !matches!(a, Attr::Pointer))
                        .cloned()
                        .collect(),
                    entities,
                },
                span: c.span,
            });
        }
        out.push(Decl {
            kind: DeclKind::TypeDef {
                bindings: Vec::new(),
                name: ctx.type_names[&key(name)].clone(),
                components: parts,
                header: None,
            },
            span: d.span,
        });
    }
    out
}

/// The original module's own USE declarations: what it imports is private to it when
/// it is PRIVATE by default, and its derivative module needs the same names (kinds,
/// types, constants).
pub(super) fn original_uses(module: &Unit) -> Vec<Decl> {
    module
        .decls
        .iter()
        .filter(|d| matches!(d.kind, DeclKind::Use { .. }))
        .cloned()
        .collect()
}

/// `use m_d, only: u_d` for the derivative types of components whose type `u` is
/// defined in another module `m` than `module`.
pub(super) fn types_used_by_derivative_types(
    ctx: &Ctx,
    module: &Unit,
    types: &[Decl],
) -> Vec<Decl> {
    let mut home: BTreeMap<String, String> = BTreeMap::new();
    for m in ctx.program.units().filter(|u| u.is_module()) {
        for d in &m.decls {
            if let DeclKind::TypeDef { name, .. } = &d.kind {
                home.insert(key(&ctx.type_names[&key(name)]), m.name.clone());
            }
        }
    }
    let mut wanted: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for t in types {
        let DeclKind::TypeDef { components, .. } = &t.kind else {
            continue;
        };
        for c in components {
            let DeclKind::Var { spec, .. } = &c.kind else {
                continue;
            };
            let Some(tn) = &spec.type_name else {
                continue;
            };
            if let Some(m) = home.get(crate::il::key_ref(tn).as_ref()) {
                if key(m) != key(&module.name) {
                    let names = wanted.entry(ctx.module_names[&key(m)].clone()).or_default();
                    if !names.iter().any(|n| key(n) == key(tn)) {
                        names.push(tn.clone());
                    }
                }
            }
        }
    }
    wanted
        .into_iter()
        .map(|(module, names)| Decl {
            kind: DeclKind::Use {
                module,
                only: Some(names),
                renames: Vec::new(),
            },
            span: Span::default(),
        })
        .collect()
}

/// For each generated unit (by index), the `use` declarations of the derivative modules
/// whose procedures it calls, other than its own host: `use m_d, only: f_d`.
pub(super) fn modules_used_by_derivatives(
    ctx: &Ctx,
    generated: &super::generate::Generated,
) -> Vec<((usize, bool), Vec<Decl>)> {
    // Derivative procedure (key) → the derivative module that holds it.
    let mut home: BTreeMap<String, (String, String)> = BTreeMap::new();
    for u in ctx.program.procedures() {
        if let (Some(d), Some(m)) = (ctx.derivative_of(&u.name), ctx.derivative_host(u)) {
            home.insert(key(d), (m, d.to_string()));
        }
    }
    for m in ctx.program.units().filter(|u| u.is_module()) {
        for d in &m.decls {
            if let DeclKind::TypeDef { name, .. } = &d.kind {
                let dt = ctx.type_names[&key(name)].clone();
                home.insert(key(&dt), (ctx.module_names[&key(&m.name)].clone(), dt));
            }
        }
    }
    for (g, info) in ctx.ir.globals.iter().enumerate() {
        // COMMON variables are declared, not used (`commons`).
        if info.global.module.starts_with('/') {
            continue;
        }
        if let Some(d) = &ctx.global_names[g] {
            let m = ctx.module_names[&key(&info.global.module)].clone();
            home.insert(key(d), (m, d.clone()));
        }
    }
    let mut out = Vec::new();
    for (&(i, form), unit) in generated {
        let own = unit.host.as_ref().map(|h| key(h));
        // Module variables the original does not see, which its derivative saves or
        // restores around calls: `use m, only: u`.
        let original = &ctx.ir.units[i];
        // (By the name the zone has here: `ir::zones` renames one the unit's own names
        // would hide.)
        let mut hidden: BTreeMap<String, (String, String, String)> = BTreeMap::new();
        for (g, &z) in original.zones.globals.iter().enumerate() {
            let info = &ctx.ir.globals[g].global;
            let zone = &original.zones.zones[z];
            if zone.hidden && !info.module.starts_with('/') {
                hidden.insert(
                    key(&zone.name),
                    (info.module.clone(), info.name.clone(), zone.name.clone()),
                );
            }
        }
        // No derivative module and no hidden module variable: nothing to use (and no
        // need to walk a body that may be large).
        if home.is_empty() && hidden.is_empty() {
            continue;
        }
        let mut wanted: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut renamed: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        let mut names = il::visit::referenced_names(&unit.body);
        // A derivative module variable referenced by component (`ud%x`) only.
        let bases: Vec<String> = names
            .iter()
            .filter_map(|n| n.split_once('%').map(|(b, _)| b.to_string()))
            .collect();
        names.extend(bases);
        for d in &unit.decls {
            if let DeclKind::Var { spec, .. } = &d.kind {
                if let Some(t) = &spec.type_name {
                    names.insert(key(t));
                }
            }
        }
        for name in names {
            if let Some((m, d)) = home.get(&name) {
                if own.as_deref() != Some(key(m).as_str()) {
                    wanted.entry(m.clone()).or_default().push(d.clone());
                }
            } else if let Some((m, n, local)) = hidden.get(&name) {
                if original.unit.symbols.get(local).is_none() {
                    wanted.entry(m.clone()).or_default().push(local.clone());
                    if key(local) != key(n) {
                        renamed
                            .entry(m.clone())
                            .or_default()
                            .push((local.clone(), n.clone()));
                    }
                }
            }
        }
        if wanted.is_empty() {
            continue;
        }
        let decls = wanted
            .into_iter()
            .map(|(module, names)| Decl {
                kind: DeclKind::Use {
                    renames: renamed.remove(&module).unwrap_or_default(),
                    module,
                    only: Some(names),
                },
                span: Span::default(),
            })
            .collect();
        out.push(((i, form), decls));
    }
    out
}

/// Is `module` the pseudo-module of a file that is its own module (its structs and
/// globals; [`il::Language::file_is_module`])?
pub(super) fn is_file_module(ctx: &Ctx, module: &Unit) -> bool {
    ctx.program
        .files
        .iter()
        .any(|f| f.language.file_is_module() && f.units.iter().any(|u| std::ptr::eq(u, module)))
}

/// E0516: generated C code (a derivative, or an original it calls, which the C back-end
/// copies into the generated file) refers to a `static` global of a C file, which another
/// translation unit cannot reach.
pub(super) fn file_static_globals(ctx: &Ctx, units: &[Unit]) -> Vec<Diagnostic> {
    let mut statics: BTreeMap<String, (String, Span)> = BTreeMap::new();
    for m in ctx
        .program
        .units()
        .filter(|u| u.is_module() && is_file_module(ctx, u))
    {
        for d in &m.decls {
            if let DeclKind::Var {
                attrs, entities, ..
            } = &d.kind
            {
                // A `static const` table is copied where it is needed.
                if attrs.iter().any(|a| matches!(a, Attr::Private))
                    && !attrs.iter().any(|a| matches!(a, Attr::Parameter))
                {
                    for e in entities {
                        statics.insert(key(&e.name), (e.name.clone(), e.span));
                    }
                }
            }
        }
    }
    if statics.is_empty() {
        return Vec::new();
    }
    let mut found: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut work: Vec<&Unit> = units.iter().filter(|u| u.is_procedure()).collect();
    while let Some(u) = work.pop() {
        if !seen.insert(key(&u.name)) {
            continue;
        }
        let own: std::collections::BTreeSet<String> = u
            .symbols
            .iter()
            .filter(|s| s.global.is_none())
            .map(|s| key(&s.name))
            .chain(u.args.iter().map(|a| key(a)))
            .collect();
        for name in il::visit::referenced_names(&u.body) {
            let base = name.split('%').next().unwrap_or(&name).to_string();
            if statics.contains_key(&base) && !own.contains(&base) {
                found.insert(base);
            }
            // An original it calls is copied into the generated file.
            if let Some(callee) = ctx.procedures.unit(&name) {
                work.push(callee);
            }
        }
    }
    found
        .into_iter()
        .map(|g| {
            let (name, span) = &statics[&g];
            Diagnostic::error(
                "E0516",
                format!(
                    "derivative code needs the `static` global `{name}`, which another \
                     translation unit cannot reach"
                ),
            )
            .at(*span)
            .with_help(format!(
                "remove `static` from `{name}`: the generated files refer to it by an \
                 `extern` declaration"
            ))
        })
        .collect()
}
