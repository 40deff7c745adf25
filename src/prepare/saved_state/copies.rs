//! The primal copies derivative code runs (`p_nodiff`, seeds/003): of every procedure
//! that uses a module of SAVE state, and of every procedure that calls one. An external
//! procedure's copy is an external procedure of `adgen_saved.f90`; a module
//! procedure's is a procedure of one generated module there (`adgen_copies`), which
//! takes by USE what the original took from its module by host association (the
//! public names only: a copy that needs a PRIVATE one is not made, and the refusals
//! stand).

use std::collections::{BTreeMap, BTreeSet};

use super::{COPY_SUFFIX, SAVED_FILE};
use crate::il::{Decl, DeclKind, ExprKind, Language, Program, Unit, key, visit};

/// The names a USE statement lists, with its renames (local, remote).
type UseList = (Vec<String>, Vec<(String, String)>);

/// The procedures whose primal derivative code runs as a copy.
pub struct Copies {
    /// The generated module holding the copies of module procedures.
    pub module: String,
    /// Key of each procedure → it is a module procedure (its copy is in `module`).
    names: BTreeMap<String, bool>,
    /// The result types of the external functions among them: a caller declares
    /// their copies (implicit typing would give a copy another type).
    results: BTreeMap<String, crate::il::TypeSpec>,
}

impl Copies {
    /// Those of `program` (none unless it has the file of SAVE state).
    pub fn of(program: &Program) -> Copies {
        let mut taken: BTreeSet<String> = program.units().map(|u| key(&u.name)).collect();
        for u in program.units() {
            taken.extend(u.symbols.iter().map(|s| key(&s.name)));
        }
        let module = super::fresh("adgen_copies", &mut taken);
        let names: BTreeMap<String, bool> = stateful_procedures(program)
            .into_iter()
            .map(|k| {
                let hosted = program.unit(&k).is_some_and(|u| u.host.is_some());
                (k, hosted)
            })
            .collect();
        let mut results = BTreeMap::new();
        for k in names.keys() {
            if let Some(f) = program
                .unit(k)
                .filter(|u| u.is_function() && u.host.is_none())
            {
                let spec = f
                    .result
                    .as_deref()
                    .and_then(|r| f.symbols.get(r))
                    .map(|r| r.type_spec.clone())
                    .or_else(|| f.prefix_type.clone());
                if let Some(spec) = spec {
                    results.insert(k.clone(), spec);
                }
            }
        }
        Copies {
            module,
            names,
            results,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Whether every copy can be made (see the module doc): each in a file of
    /// `language`, none internal or with a binding name, no two of one name, and a
    /// module procedure's needing no PRIVATE name of a module.
    pub(super) fn possible(&self, program: &Program, language: Language) -> bool {
        let mut copy_names = BTreeSet::new();
        for f in &program.files {
            for u in f.units.iter().filter(|u| u.is_procedure()) {
                if !self.names.contains_key(&key(&u.name)) {
                    continue;
                }
                // (A procedure lifted out of its host has no name a copy could call.)
                let calls_internal = visit::called_names(u)
                    .iter()
                    .any(|c| program.unit(c).is_some_and(|c| c.internal_of.is_some()));
                if u.internal_of.is_some()
                    || calls_internal
                    || u.bind.is_some()
                    || f.language != language
                    || !copy_names.insert(key(&copy_name(&u.name)))
                {
                    return false;
                }
                if u.host.is_some()
                    && imports(program, u, self).iter().any(|(m, _, remote)| {
                        matches!(private_entity(program, m, remote), Some(None))
                    })
                {
                    return false;
                }
            }
        }
        true
    }
}

/// The procedures (keys) whose primal derivative code runs as a copy: those that use a
/// module of SAVE state, and every procedure that calls one of them.
fn stateful_procedures(program: &Program) -> BTreeSet<String> {
    let Some(file) = program.files.iter().find(|f| f.path == SAVED_FILE) else {
        return BTreeSet::new();
    };
    let modules: BTreeSet<String> = file.units.iter().map(|u| key(&u.name)).collect();
    let mut out: BTreeSet<String> = program
        .procedures()
        .filter(|u| {
            u.decls.iter().any(|d| {
                matches!(&d.kind, DeclKind::Use { module, .. } if modules.contains(&key(module)))
            })
        })
        .map(|u| key(&u.name))
        .collect();
    loop {
        let before = out.len();
        for u in program.procedures() {
            if !out.contains(&key(&u.name))
                && visit::called_names(u).iter().any(|c| out.contains(&key(c)))
            {
                out.insert(key(&u.name));
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The name of the primal copy of `name`.
pub fn copy_name(name: &str) -> String {
    format!("{name}{COPY_SUFFIX}")
}

/// Renames the calls of `unit` (generated code, or a copy) to the procedures of
/// `copies` as calls of their copies, with their declarations, and uses the copies of
/// module procedures from their module (unless `unit` is one of its procedures).
pub fn call_copies(unit: &mut Unit, copies: &Copies) {
    if copies.is_empty() {
        return;
    }
    let mut renamed = BTreeSet::new();
    let mut hosted = Vec::new();
    // The copies as the calls spell them, by key of the original.
    let mut spelled: BTreeMap<String, String> = BTreeMap::new();
    crate::prepare::specialize::for_each_call_mut(&mut unit.body, &mut |name, _| {
        if let Some(&in_module) = copies.names.get(&key(name)) {
            let copy = copy_name(name);
            if renamed.insert(key(name)) && in_module {
                hosted.push(copy.clone());
            }
            spelled.entry(key(name)).or_insert_with(|| copy.clone());
            *name = copy;
        }
    });
    if renamed.is_empty() {
        return;
    }
    let own = [Some(key(&unit.name)), unit.result.as_deref().map(key)];
    for d in &mut unit.decls {
        match &mut d.kind {
            DeclKind::External(names) => {
                for n in names.iter_mut().filter(|n| renamed.contains(&key(n))) {
                    *n = copy_name(n);
                }
            }
            DeclKind::Var { entities, .. } => {
                for e in entities.iter_mut().filter(|e| {
                    renamed.contains(&key(&e.name)) && !own.contains(&Some(key(&e.name)))
                }) {
                    e.name = copy_name(&e.name);
                }
            }
            _ => {}
        }
    }
    // A module procedure's copy is declared by its module: no EXTERNAL of it.
    let hosted_keys: BTreeSet<String> = hosted.iter().map(|h| key(h)).collect();
    unit.decls.retain_mut(|d| match &mut d.kind {
        DeclKind::External(names) => {
            names.retain(|n| !hosted_keys.contains(&key(n)));
            !names.is_empty()
        }
        _ => true,
    });
    // An external function's copy that nothing declares here is declared with its
    // type.
    let declared: BTreeSet<String> = unit
        .decls
        .iter()
        .flat_map(|d| match &d.kind {
            DeclKind::Var { entities, .. } => entities.iter().map(|e| key(&e.name)).collect(),
            _ => Vec::new(),
        })
        .collect();
    // (Named by an EXTERNAL statement already, it is only typed.)
    let external: BTreeSet<String> = unit
        .decls
        .iter()
        .flat_map(|d| match &d.kind {
            DeclKind::External(names) => names.iter().map(|n| key(n)).collect(),
            _ => Vec::new(),
        })
        .collect();
    for k in &renamed {
        let Some(spec) = copies.results.get(k) else {
            continue;
        };
        let copy = spelled[k].clone();
        if declared.contains(&key(&copy)) || own.contains(&Some(key(&copy))) {
            continue;
        }
        let at = crate::il::visit::after_uses_and_implicit(&unit.decls);
        unit.decls.insert(
            at,
            Decl {
                kind: DeclKind::Var {
                    spec: spec.clone(),
                    attrs: if external.contains(&key(&copy)) {
                        Vec::new()
                    } else {
                        vec![crate::il::Attr::External]
                    },
                    entities: vec![crate::il::Entity {
                        name: copy,
                        dims: None,
                        init: None,
                        span: unit.span,
                    }],
                },
                span: unit.span,
            },
        );
    }
    let inside = unit
        .host
        .as_deref()
        .is_some_and(|h| key(h) == key(&copies.module));
    if !hosted.is_empty() && !inside {
        unit.decls.insert(
            0,
            Decl {
                kind: DeclKind::Use {
                    module: copies.module.clone(),
                    only: Some(hosted),
                    renames: Vec::new(),
                },
                span: unit.span,
            },
        );
    }
}

/// Whether `name` is PRIVATE in module `module`: `None` when it is not; else the
/// declaration a copy can give it itself (a named constant whose type and value name
/// nothing else PRIVATE), or `Some(None)` when there is none.
fn private_entity(program: &Program, module: &str, name: &str) -> Option<Option<Decl>> {
    let m = program
        .units()
        .find(|x| x.is_module() && key(&x.name) == key(module))?;
    if !m.is_private(name) {
        return None;
    }
    let constant = || {
        let sym = m.symbols.get(name)?;
        if sym.kind != crate::il::SymbolKind::Constant {
            return None;
        }
        let entity = crate::il::Entity {
            name: sym.name.clone(),
            dims: (!sym.dims.is_empty()).then(|| sym.dims.clone()),
            init: Some(m.initial_value(name)?.clone()),
            span: sym.span,
        };
        // What it names must be public, or come from another module.
        let mut names = BTreeSet::new();
        super::names_of_entity(&sym.type_spec, &entity, &mut names);
        let own = |n: &str| {
            m.symbols.get(n).is_none_or(|s| {
                s.global
                    .as_ref()
                    .is_none_or(|g| key(&g.module) == key(&m.name))
            })
        };
        if names.iter().any(|n| m.is_private(n) && own(n)) {
            return None;
        }
        Some(Decl {
            kind: DeclKind::Var {
                spec: sym.type_spec.clone(),
                attrs: vec![crate::il::Attr::Parameter],
                entities: vec![entity],
            },
            span: sym.span,
        })
    };
    Some(constant())
}

/// What the copy of module procedure `u` takes by USE: (module, local name, name
/// there) for each name of its module (or of one its module uses) that it refers to,
/// other than the copies' and the SAVE state's.
fn imports(program: &Program, u: &Unit, copies: &Copies) -> Vec<(String, String, String)> {
    let saved: BTreeSet<String> = program
        .files
        .iter()
        .filter(|f| f.path == SAVED_FILE)
        .flat_map(|f| f.units.iter().map(|m| key(&m.name)))
        .collect();
    let mut named = visit::referenced_names(&u.body);
    named.extend(visit::decls_names(&u.decls));
    for d in &u.decls {
        if let DeclKind::Var { spec, .. } = &d.kind {
            if let Some(t) = &spec.type_name {
                named.insert(key(t));
            }
            if let Some(k) = &spec.kind {
                visit::walk_expr(k, &mut |x| {
                    if let ExprKind::Var(n) = &x.kind {
                        named.insert(key(n));
                    }
                });
            }
        }
    }
    // The modules the procedure uses itself give their names already.
    let own_uses: BTreeSet<String> = u
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Use { module, .. } => Some(key(module)),
            _ => None,
        })
        .collect();
    // A PRIVATE constant the copy declares again names what its declaration names.
    loop {
        let mut more = BTreeSet::new();
        for s in u.symbols.iter() {
            let Some(g) = &s.global else { continue };
            if !named.contains(&key(&s.name)) {
                continue;
            }
            if let Some(Some(Decl {
                kind: DeclKind::Var { spec, entities, .. },
                ..
            })) = private_entity(program, &g.module, &g.name)
            {
                for e in &entities {
                    super::names_of_entity(&spec, e, &mut more);
                }
            }
        }
        let before = named.len();
        named.extend(more);
        if named.len() == before {
            break;
        }
    }
    let mut out = Vec::new();
    for s in u.symbols.iter() {
        let Some(g) = &s.global else { continue };
        let k = key(&s.name);
        if g.module.starts_with(['/', '#'])
            || saved.contains(&key(&g.module))
            || own_uses.contains(&key(&g.module))
            || copies.names.contains_key(&k)
            || k == key(&u.name)
            || !named.contains(&k)
        {
            continue;
        }
        out.push((g.module.clone(), s.name.clone(), g.name.clone()));
    }
    // Derived types the module defines, which are no symbols.
    if let Some(host) = &u.host
        && let Some(m) = program
            .units()
            .find(|x| x.is_module() && key(&x.name) == key(host))
    {
        for d in &m.decls {
            if let DeclKind::TypeDef { name, .. } = &d.kind
                && named.contains(&key(name))
                && !out.iter().any(|(_, l, _)| key(l) == key(name))
            {
                out.push((m.name.clone(), name.clone(), name.clone()));
            }
        }
    }
    out
}

/// The generated file of SAVE state: its modules, then the module of the copies of
/// module procedures, then the copies of external procedures, each copy made only if
/// something calls its original (its calls of the others renamed, its procedure
/// arguments put back where it calls a specialized copy).
pub fn saved_file(program: &Program) -> Option<crate::il::File> {
    let file = program.files.iter().find(|f| f.path == SAVED_FILE)?;
    let copies = Copies::of(program);
    let called: BTreeSet<String> = program
        .procedures()
        .flat_map(visit::called_names)
        .map(|n| key(&n))
        .collect();
    let index = program.index();
    let mut hosted = Vec::new();
    let mut external = Vec::new();
    for u in program.procedures() {
        let Some(&in_module) = copies.names.get(&key(&u.name)) else {
            continue;
        };
        if !called.contains(&key(&u.name)) {
            continue;
        }
        let mut copy = u.clone();
        copy.name = copy_name(&u.name);
        copy.specialization = None;
        // Calls by the specific's name: a generic or a binding may not be seen where
        // the copy is.
        copy.source_calls.clear();
        // A function's result keeps its name: the statements assign it.
        if copy.is_function() {
            copy.result.get_or_insert_with(|| u.name.clone());
            copy.explicit_result = true;
        }
        if in_module {
            copy.host = Some(copies.module.clone());
            let mut uses: BTreeMap<String, UseList> = BTreeMap::new();
            let mut constants = Vec::new();
            for (m, local, remote) in imports(program, u, &copies) {
                // A PRIVATE constant is declared again, in the copy.
                if let Some(Some(decl)) = private_entity(program, &m, &remote) {
                    constants.push(decl);
                    continue;
                }
                let entry = uses.entry(m).or_default();
                if key(&local) != key(&remote) {
                    entry.1.push((local.clone(), remote));
                }
                entry.0.push(local);
            }
            let count = uses.len();
            for (at, (module, (only, renames))) in uses.into_iter().enumerate() {
                copy.decls.insert(
                    at,
                    Decl {
                        kind: DeclKind::Use {
                            module,
                            only: Some(only),
                            renames,
                        },
                        span: u.span,
                    },
                );
            }
            // After the procedure's own USE and IMPLICIT statements.
            let at = crate::il::visit::after_uses_and_implicit(&copy.decls).max(count);
            for (k, c) in constants.into_iter().enumerate() {
                copy.decls.insert(at + k, c);
            }
        }
        call_copies(&mut copy, &copies);
        crate::prepare::specialize::unspecialize_calls(&mut copy, &index);
        if in_module {
            hosted.push(copy);
        } else {
            external.push(copy);
        }
    }
    let mut units = file.units.clone();
    if !hosted.is_empty() {
        let mut module = Unit {
            kind: crate::il::UnitKind::Module,
            external: false,
            ..Unit::declaration(
                &copies.module,
                Vec::new(),
                None,
                // (No IMPLICIT NONE: its procedures keep the typing rules they had.)
                Vec::new(),
                Default::default(),
                file.units[0].span,
            )
        };
        module.leading_comments = vec![
            " The primal copies of module procedures that derivative code runs (adgen)."
                .to_string(),
        ];
        units.push(module);
        units.extend(hosted);
    }
    units.extend(external);
    Some(crate::il::File {
        file: file.file,
        path: file.path.clone(),
        language: file.language,
        units,
        warnings: Vec::new(),
    })
}
