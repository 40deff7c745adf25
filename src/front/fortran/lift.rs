//! Internal procedures (CONTAINS in a procedure, F2018 15.2.2.4), lifted out of their
//! host.
//!
//! An internal procedure sees its host's names by host association. The analyses and
//! the differentiator work on procedures whose data flow is explicit, so each internal
//! procedure becomes an ordinary procedure ([`il::Unit::internal_of`] names its host):
//! - the host's variables it uses (directly, or through a sibling it calls) become extra
//!   dummy arguments, appended after its own in the host's declaration order, declared
//!   as the host declares them (type, dimensions, ALLOCATABLE, OPTIONAL, TARGET; INTENT
//!   only when IN). The variables their bounds read come too;
//! - the host's procedure dummies it calls or passes on (`f` of `subroutine
//!   simpson(f, ...)` in QUADPACK's internal `adaptive_simpson_step`) become extra
//!   arguments after those, declared as the host declares them (PROCEDURE(iface),
//!   EXTERNAL with its type, an interface body; EXTERNAL when the host only calls it),
//!   so that `prepare::specialize` copies the internal procedure with its host;
//! - every call (in the host and in the siblings) passes them, by name;
//! - the host's named constants it uses are declared again in it; its USE statements and
//!   IMPLICIT rules are copied (a USE renames away the names the internal procedure
//!   declares itself, which hide the host's); a COMMON block of the host it uses is
//!   declared again with the host's members and their types;
//! - a host that is a module procedure makes it a procedure of the same module.
//!
//! The host's names are found by analysing a copy of the host (its names marked as
//! globals of the pseudo-module [`sema::host_label`]) and copies of its internal
//! procedures that see it; the units are then rewritten and analysed for good, so that
//! every later pass sees plain procedures. A name clash with another unit of the file
//! renames the internal procedure `host_name`.

use std::collections::{BTreeMap, BTreeSet};

use super::sema::{self, HeaderSpans, ModuleProcedure, Modules};
use crate::diag::Diagnostic;
use crate::il::{
    self, Arg, Attr, Decl, DeclKind, Entity, Expr, ExprKind, Intent, StmtKind, SymbolKind, Unit,
    key,
};

/// What one internal procedure takes from its host.
#[derive(Default)]
struct Needs {
    /// Host variables (keys), its own and those of the siblings it calls.
    vars: BTreeSet<String>,
    constants: BTreeSet<String>,
    /// COMMON blocks (`/name/`) of the host it uses.
    commons: BTreeSet<String>,
    /// Siblings it calls (keys).
    calls: BTreeSet<String>,
    /// Procedure dummies of the host it calls or passes on (keys): extra arguments too.
    procedures: BTreeSet<String>,
}

impl Needs {
    fn size(&self) -> usize {
        self.vars.len() + self.constants.len() + self.commons.len() + self.procedures.len()
    }
}

/// Lowers `units[0]`, a procedure, and `units[1..]`, its internal procedures, analysing
/// each (the host with its internal procedures declared).
pub(super) fn lower_host(
    units: &mut [Unit],
    spans: &[HeaderSpans],
    taken: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
    modules: &Modules,
) {
    let (host, internals) = units.split_first_mut().expect("a host");
    rename_clashes(host, internals, taken);
    let procedures = internal_procedures(internals);
    // Discovery, on copies: what each internal procedure uses of its host.
    let mut scratch = Vec::new();
    let mut probe = host.clone();
    let scope = sema::host_scope(&mut probe, &spans[0], &mut scratch, modules, &procedures);
    let label = sema::host_label(&host.name);
    let mut seen_from_host = modules.clone();
    seen_from_host.insert(label.clone(), scope);
    let names: BTreeSet<String> = internals.iter().map(|u| key(&u.name)).collect();
    let mut needs: Vec<Needs> = Vec::new();
    for (k, unit) in internals.iter().enumerate() {
        let mut copy = unit.clone();
        copy.host = Some(label.clone());
        let others: Vec<ModuleProcedure> = procedures
            .iter()
            .filter(|p| key(&p.name) != key(&unit.name))
            .cloned()
            .collect();
        sema::analyze(
            &mut copy,
            span_at(spans, k + 1),
            &mut scratch,
            &seen_from_host,
            &others,
        );
        let mut need = Needs::default();
        // The symbol table holds every name the host shows: only those used count.
        let referenced = il::visit::referenced_names(&copy.body);
        let mut used = referenced.clone();
        used.extend(il::visit::decls_names(&copy.decls));
        for s in copy.symbols.iter() {
            if !used.contains(crate::il::key_ref(&s.name).as_ref()) {
                continue;
            }
            let Some(g) = &s.global else { continue };
            if g.module == label {
                match s.kind {
                    SymbolKind::Constant => {
                        need.constants.insert(key(&s.name));
                    }
                    _ if s.is_variable() => {
                        need.vars.insert(key(&s.name));
                    }
                    // A procedure dummy of the host (`procedure(func) :: f`).
                    SymbolKind::Procedure
                        if probe
                            .symbols
                            .get(&s.name)
                            .is_some_and(|h| h.arg_index.is_some()) =>
                    {
                        need.procedures.insert(key(&s.name));
                    }
                    _ => {}
                }
            } else if g.module.starts_with('/') {
                need.commons.insert(key(&g.module));
            }
        }
        need.calls = referenced.intersection(&names).cloned().collect();
        needs.push(need);
    }
    close_over_calls(&mut needs, internals);
    for need in &mut needs {
        close_over_declarations(need, &probe);
    }
    // The extra arguments, in the host's declaration order, as the host spells them:
    // its variables, then its procedure dummies in its argument order.
    let extra: Vec<Vec<String>> = needs
        .iter()
        .map(|n| {
            let vars = probe
                .symbols
                .iter()
                .filter(|s| n.vars.contains(crate::il::key_ref(&s.name).as_ref()))
                .map(|s| s.name.clone());
            let procedures = probe
                .args
                .iter()
                .filter(|a| n.procedures.contains(crate::il::key_ref(a).as_ref()))
                .cloned();
            vars.chain(procedures).collect()
        })
        .collect();
    let by_name: BTreeMap<String, Vec<String>> = internals
        .iter()
        .zip(&extra)
        .map(|(u, e)| (key(&u.name), e.clone()))
        .collect();
    for (k, unit) in internals.iter_mut().enumerate() {
        let own = own_names(unit);
        if let Some(clash) = extra[k]
            .iter()
            .find(|n| own.contains(crate::il::key_ref(n).as_ref()))
        {
            unit.deferred.push(
                Diagnostic::error(
                    "E0403",
                    format!(
                        "internal procedure `{}` declares `{clash}`, but a procedure it calls uses its host's `{clash}`; this is not supported yet",
                        unit.name
                    ),
                )
                .at(unit.span)
                .with_help(format!("rename its own `{clash}`")),
            );
        }
        add_host_declarations(unit, &probe, &needs[k], &extra[k], modules);
        pass_extra_arguments(&mut unit.body, &by_name);
    }
    pass_extra_arguments(&mut host.body, &by_name);
    // For good: the host, then each internal procedure as a procedure of the host's
    // module (if any).
    sema::analyze(host, &spans[0], diags, modules, &procedures);
    for (k, unit) in internals.iter_mut().enumerate() {
        unit.host = host.host.clone();
        unit.internal_of = Some(host.name.clone());
        let others: Vec<ModuleProcedure> = procedures
            .iter()
            .filter(|p| key(&p.name) != key(&unit.name))
            .cloned()
            .collect();
        sema::analyze(unit, span_at(spans, k + 1), diags, modules, &others);
    }
}

fn span_at(spans: &[HeaderSpans], k: usize) -> &HeaderSpans {
    static NONE: std::sync::OnceLock<HeaderSpans> = std::sync::OnceLock::new();
    spans
        .get(k)
        .unwrap_or_else(|| NONE.get_or_init(HeaderSpans::default))
}

/// An internal procedure named like another unit of the file (or like a sibling of
/// another host) is renamed `host_name`, and so are the calls of it.
fn rename_clashes(host: &mut Unit, internals: &mut [Unit], taken: &BTreeSet<String>) {
    let mut renames = BTreeMap::new();
    for u in internals.iter_mut() {
        if taken.contains(crate::il::key_ref(&u.name).as_ref()) {
            let mut name = format!("{}_{}", host.name, u.name);
            while taken.contains(crate::il::key_ref(&name).as_ref()) {
                name.push('0');
            }
            if u.result.as_deref().is_some_and(|r| key(r) == key(&u.name)) {
                u.result = Some(name.clone());
            }
            renames.insert(key(&u.name), name.clone());
            u.name = name;
        }
    }
    if renames.is_empty() {
        return;
    }
    // Before analysis a function's call may still look like a variable.
    il::visit::rename_calls(&mut host.body, &renames, true);
    for u in internals.iter_mut() {
        il::visit::rename_calls(&mut u.body, &renames, true);
    }
}

/// The internal procedures as their host and siblings see them: names and result types.
fn internal_procedures(internals: &[Unit]) -> Vec<ModuleProcedure> {
    internals.iter().map(ModuleProcedure::of).collect()
}

/// A procedure takes what the siblings it calls take, transitively.
fn close_over_calls(needs: &mut [Needs], internals: &[Unit]) {
    let index: BTreeMap<String, usize> = internals
        .iter()
        .enumerate()
        .map(|(k, u)| (key(&u.name), k))
        .collect();
    loop {
        let mut changed = false;
        for k in 0..needs.len() {
            let calls: Vec<usize> = needs[k]
                .calls
                .iter()
                .filter_map(|c| index.get(c).copied())
                .collect();
            for j in calls {
                let (vars, constants, commons, procedures) = (
                    needs[j].vars.clone(),
                    needs[j].constants.clone(),
                    needs[j].commons.clone(),
                    needs[j].procedures.clone(),
                );
                let n = &mut needs[k];
                let before = n.size();
                n.vars.extend(vars);
                n.constants.extend(constants);
                n.commons.extend(commons);
                n.procedures.extend(procedures);
                changed |= n.size() != before;
            }
        }
        if !changed {
            return;
        }
    }
}

/// The host names that the declarations of the taken variables and constants read
/// (bounds, kinds, lengths, initial values) are taken too.
fn close_over_declarations(need: &mut Needs, host: &Unit) {
    loop {
        let mut read = BTreeSet::new();
        for s in host.symbols.iter() {
            let k = key(&s.name);
            if !need.vars.contains(&k)
                && !need.constants.contains(&k)
                && !need.procedures.contains(&k)
            {
                continue;
            }
            for d in &s.dims {
                let upper = match &d.upper {
                    il::Bound::Expr(e) => Some(e),
                    _ => None,
                };
                for e in d.lower.iter().chain(upper) {
                    read.extend(il::visit::names_read(e).into_iter().map(key));
                }
            }
            if let Some(kind) = &s.type_spec.kind {
                read.extend(il::visit::names_read(kind).into_iter().map(key));
            }
            if let Some(value) = host.initial_value(&s.name) {
                read.extend(il::visit::names_read(value).into_iter().map(key));
            }
        }
        let before = need.vars.len() + need.constants.len();
        for name in read {
            let Some(s) = host.symbols.get(&name) else {
                continue;
            };
            if s.global.is_some() {
                continue;
            }
            if s.kind == SymbolKind::Constant {
                need.constants.insert(name);
            } else if s.is_variable() {
                need.vars.insert(name);
            }
        }
        if need.vars.len() + need.constants.len() == before {
            return;
        }
    }
}

/// The attributes of the host's declaration of `name` an argument keeps.
fn kept_attributes(host: &Unit, name: &str) -> Vec<Attr> {
    let mut out = Vec::new();
    for d in &host.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
            && entities.iter().any(|e| key(&e.name) == key(name))
        {
            for a in attrs {
                match a {
                    Attr::Allocatable
                    | Attr::Optional
                    | Attr::Target
                    | Attr::Intent(Intent::In) => out.push(a.clone()),
                    _ => {}
                }
            }
        }
    }
    out
}

/// A declaration of the host's symbol `name` (as an argument, or as a constant with its
/// value).
fn declaration_of(host: &Unit, name: &str, constant: bool) -> Option<Decl> {
    let s = host.symbols.get(name)?;
    let mut attrs = if constant {
        vec![Attr::Parameter]
    } else {
        kept_attributes(host, name)
    };
    attrs.sort_by_key(|a| !matches!(a, Attr::Parameter));
    let init = if constant {
        Some(host.initial_value(name)?.clone())
    } else {
        None
    };
    Some(Decl {
        kind: DeclKind::Var {
            spec: s.type_spec.clone(),
            attrs,
            entities: vec![Entity {
                name: s.name.clone(),
                dims: (!s.dims.is_empty()).then(|| s.dims.clone()),
                init,
                span: s.span,
            }],
        },
        span: s.span,
    })
}

/// Declares in `unit` what it takes from `host`: USE statements, IMPLICIT rules, COMMON
/// blocks, constants, and the extra arguments.
fn add_host_declarations(
    unit: &mut Unit,
    host: &Unit,
    need: &Needs,
    extra: &[String],
    modules: &Modules,
) {
    let own = own_names(unit);
    let mut uses = Vec::new();
    for d in &host.decls {
        let DeclKind::Use {
            module,
            only,
            renames,
        } = &d.kind
        else {
            continue;
        };
        let mut only = only.clone();
        let mut renames = renames.clone();
        match &mut only {
            Some(list) => {
                list.retain(|n| !own.contains(crate::il::key_ref(n).as_ref()));
                renames.retain(|(l, _)| !own.contains(crate::il::key_ref(l).as_ref()));
            }
            None => {
                // Names the module exports that the internal procedure declares itself:
                // renamed away, as its own declaration hides them.
                if let Some(scope) = modules.get(crate::il::key_ref(module).as_ref()) {
                    for n in scope.names() {
                        if own.contains(crate::il::key_ref(&n).as_ref())
                            && !renames.iter().any(|(l, _)| key(l) == key(&n))
                        {
                            renames.push((format!("{n}_host"), n));
                        }
                    }
                }
            }
        }
        uses.push(Decl {
            kind: DeclKind::Use {
                module: module.clone(),
                only,
                renames,
            },
            span: d.span,
        });
    }
    let has_implicit = unit
        .decls
        .iter()
        .any(|d| matches!(d.kind, DeclKind::Implicit(_)));
    let implicit: Vec<Decl> = if has_implicit {
        Vec::new()
    } else {
        host.decls
            .iter()
            .filter(|d| matches!(d.kind, DeclKind::Implicit(_)))
            .cloned()
            .collect()
    };
    let mut more = Vec::new();
    for s in host.symbols.iter() {
        if need
            .constants
            .contains(crate::il::key_ref(&s.name).as_ref())
            && !own.contains(crate::il::key_ref(&s.name).as_ref())
        {
            more.extend(declaration_of(host, &s.name, true));
        }
    }
    for block in &need.commons {
        more.extend(common_declarations(host, block));
    }
    for name in extra {
        if need.procedures.contains(crate::il::key_ref(name).as_ref()) {
            more.extend(procedure_declarations(host, name));
        } else {
            more.extend(declaration_of(host, name, false));
        }
    }
    let split = crate::il::visit::after_uses_and_implicit(&unit.decls);
    let rest = unit.decls.split_off(split);
    let head = std::mem::take(&mut unit.decls);
    let (own_uses, own_other): (Vec<Decl>, Vec<Decl>) = head
        .into_iter()
        .partition(|d| matches!(d.kind, DeclKind::Use { .. }));
    unit.decls = uses;
    unit.decls.extend(own_uses);
    unit.decls.extend(implicit);
    unit.decls.extend(own_other);
    unit.decls.extend(more);
    unit.decls.extend(rest);
    unit.args.extend(extra.iter().cloned());
}

/// The host's declarations of its procedure dummy `name`, restricted to it: its
/// PROCEDURE, EXTERNAL or interface body, and its type (`external f; real(8) f`). A
/// dummy the host only calls, undeclared, is declared EXTERNAL.
fn procedure_declarations(host: &Unit, name: &str) -> Vec<Decl> {
    let is = |n: &String| key(n) == key(name);
    let mut out = Vec::new();
    let mut external = false;
    for d in &host.decls {
        let kind = match &d.kind {
            DeclKind::Procedure {
                interface,
                attrs,
                names,
            } if names.iter().any(is) => DeclKind::Procedure {
                interface: interface.clone(),
                attrs: attrs.clone(),
                names: vec![name.to_string()],
            },
            DeclKind::External(names) if names.iter().any(is) => {
                DeclKind::External(vec![name.to_string()])
            }
            DeclKind::Interface(bodies) if bodies.iter().any(|b| is(&b.name)) => {
                DeclKind::Interface(bodies.iter().filter(|b| is(&b.name)).cloned().collect())
            }
            DeclKind::Var { attrs, .. } => {
                if let Some(decl) = d.restricted(|e| is(&e.name), d.span) {
                    external |= attrs.iter().any(|a| matches!(a, Attr::External));
                    out.push(decl);
                }
                continue;
            }
            _ => continue,
        };
        external = true;
        out.push(Decl { kind, span: d.span });
    }
    if !external {
        out.insert(
            0,
            Decl {
                kind: DeclKind::External(vec![name.to_string()]),
                span: host.span,
            },
        );
    }
    out
}

/// The host's COMMON block `block` (`/name/`), with a type declaration per member.
fn common_declarations(host: &Unit, block: &str) -> Vec<Decl> {
    let mut out = Vec::new();
    for d in &host.decls {
        let DeclKind::Common(blocks) = &d.kind else {
            continue;
        };
        for (name, entities) in blocks {
            if il::common_global_module(name.as_deref()) != block {
                continue;
            }
            for e in entities {
                if let Some(decl) = declaration_of(host, &e.name, false) {
                    out.push(decl);
                }
            }
            out.push(Decl {
                kind: DeclKind::Common(vec![(name.clone(), entities.clone())]),
                span: d.span,
            });
        }
    }
    out
}

/// Appends the extra arguments to every call of an internal procedure in `body`.
fn pass_extra_arguments(body: &mut [il::Stmt], extra: &BTreeMap<String, Vec<String>>) {
    // By keyword after keyword arguments (the dummies have the host's names).
    let append = |name: &str, a: &mut Vec<Arg>| {
        let Some(names) = extra.get(crate::il::key_ref(name).as_ref()) else {
            return;
        };
        let keywords = a.iter().any(|x| x.keyword.is_some());
        a.extend(names.iter().map(|n| Arg {
            keyword: keywords.then(|| n.clone()),
            value: Expr::var(n),
        }));
    };
    il::visit::walk_stmts_mut(body, &mut |s| {
        if let StmtKind::Call { name, args } = &mut s.kind {
            append(name, args);
        }
        for e in il::visit::stmt_exprs_mut(s) {
            il::visit::walk_expr_mut_post(e, &mut |x| {
                if let ExprKind::Call(name, args) = &mut x.kind {
                    append(name, args);
                }
            });
        }
    });
}

/// The names a unit declares itself (its arguments and name included), as keys.
fn own_names(unit: &Unit) -> BTreeSet<String> {
    unit.decls
        .iter()
        .flat_map(|d| match &d.kind {
            DeclKind::Var { entities, .. } | DeclKind::Dimension(entities) => {
                entities.iter().map(|e| key(&e.name)).collect::<Vec<_>>()
            }
            DeclKind::Parameter(list) => list.iter().map(|(n, _)| key(n)).collect(),
            _ => Vec::new(),
        })
        .chain(unit.args.iter().map(|a| key(a)))
        .chain(std::iter::once(key(&unit.name)))
        .collect()
}

/// Internal procedures of different files may share a name (`contains; function f` in
/// two hosts), which the whole program may not: each such one is renamed `host_name`
/// (its result keeps its name, through a RESULT clause), and so are its host's and
/// siblings' calls of it.
pub fn rename_across_files(program: &mut il::Program) {
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for u in program.procedures() {
        *count.entry(key(&u.name)).or_default() += 1;
    }
    let mut taken: BTreeSet<String> = count.keys().cloned().collect();
    for file in &mut program.files {
        let mut renames: Vec<(String, String, String)> = Vec::new();
        for u in &mut file.units {
            let Some(host) = u.internal_of.clone() else {
                continue;
            };
            if count
                .get(crate::il::key_ref(&u.name).as_ref())
                .copied()
                .unwrap_or(0)
                < 2
            {
                continue;
            }
            let mut name = format!("{host}_{}", u.name);
            while taken.contains(crate::il::key_ref(&name).as_ref()) {
                name.push('0');
            }
            taken.insert(key(&name));
            if u.result.as_deref().is_some_and(|r| key(r) == key(&u.name)) {
                u.explicit_result = true;
            }
            renames.push((key(&host), key(&u.name), name.clone()));
            u.name = name;
        }
        for (host, old, new) in &renames {
            let map = BTreeMap::from([(old.clone(), new.clone())]);
            for u in &mut file.units {
                let in_scope = key(&u.name) == *host
                    || u.internal_of.as_deref().map(key).as_deref() == Some(host.as_str());
                if in_scope {
                    il::visit::rename_calls(&mut u.body, &map, false);
                }
            }
        }
    }
}
