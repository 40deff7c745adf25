//! Procedure arguments (`call euler(rhs, n, h, y)` to `subroutine euler(f, n, h, y)` that
//! calls `f`): each call that passes procedures known by name makes a copy of the callee
//! specialized to them, as Tapenade differentiates a procedure per calling context
//! (seeds/000 §4.5). The copy `euler_rhs` has no procedure dummies, calls `rhs` where the
//! original calls `f`, and the call becomes `call euler_rhs(n, h, y)`; a copy's calls of
//! other procedures with procedure arguments are specialized in turn. The analyses and
//! the differentiator see ordinary procedures; derivative code calls the copy's
//! derivative (`euler_rhs_d`), and its calls of the copy's primal are written as calls of
//! the original with the procedures put back ([`Unit::specialization`]), so that only
//! derivatives are generated.
//!
//! Internal procedures (lifted by the front-end, the host's procedure dummies they call
//! passed as arguments) are specialized where a copy of their host calls them: the copy
//! `simpson_g`'s call `step(..., g)` makes `step_g`, internal to `simpson_g` and *lent*
//! ([`crate::il::Specialization::lent`]: outside its host the original has no name, so
//! derivative code carries the copy's primal). The copy of an external procedure takes
//! copies of its other internal procedures along (`weight_g`, internal to `trap_g`).
//! An external copy that uses a module of the program goes after it, in its file, so
//! that its derivative file compiles after the module's.
//!
//! A procedure argument that is a dummy of the caller is resolved when the caller is
//! specialized; one that stays unresolved (a root's own) keeps its call as written,
//! which the differentiator refuses where it touches active values (E0503).

use std::collections::{BTreeMap, BTreeSet};

use super::relocate::{Placement, placement, use_decls};
use crate::il::names::Namer;
use crate::il::symbols::SymbolKind;
use crate::il::{Arg, Attr, DeclKind, ExprKind, Program, Stmt, StmtKind, Unit, key, visit};

/// Rounds of specialization (each resolves one more level of passing a procedure on).
const MAX_ROUNDS: usize = 16;

/// For a call (name, arguments): the callee to call instead and the positions of the
/// arguments to drop.
type Binder<'a> = dyn FnMut(&str, &[Arg]) -> Option<(String, Vec<usize>)> + 'a;

/// A specialization: the callee (key), the procedure at each position it binds, where
/// the copy lives, and for an internal procedure the host copy it is internal to.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Spec {
    callee: String,
    bound: Vec<(usize, String)>,
    place: Placement,
    within: Option<String>,
}

pub fn specialize(program: Program) -> Program {
    let mut out = program;
    let mut namer = Namer::new(out.units().map(|u| u.name.as_str()));
    let mut copies: BTreeMap<Spec, String> = BTreeMap::new();
    // For the copy of an external procedure (key): the copies of its internal procedures
    // (original key → copy name).
    let mut companions: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for _ in 0..MAX_ROUNDS {
        let dummies: BTreeMap<String, Vec<usize>> = out
            .procedures()
            .map(|u| (key(&u.name), procedure_dummies(u)))
            .filter(|(_, d)| !d.is_empty())
            .collect();
        if dummies.is_empty() {
            break;
        }
        // Each procedure's module, and whether it is an internal procedure.
        let out_units: BTreeMap<String, (Option<String>, bool)> = out
            .procedures()
            .map(|u| (key(&u.name), (u.host.clone(), u.internal_of.is_some())))
            .collect();
        let callees: BTreeMap<String, Unit> = out
            .procedures()
            .filter(|u| dummies.contains_key(crate::il::key_ref(&u.name).as_ref()))
            .map(|u| (key(&u.name), u.clone()))
            .collect();
        let mut wanted: Vec<Spec> = Vec::new();
        // What a copy's place depends on: the modules (their declarations) and which
        // procedures exist.
        let modules: Vec<Unit> = out.units().filter(|u| u.is_module()).cloned().collect();
        for file in &mut out.files {
            for unit in file.units.iter_mut().filter(|u| u.is_procedure()) {
                let caller_host = unit.host.clone();
                // The copy of an internal procedure is internal to the caller's host: the
                // caller itself (the host, or its copy) or the host of a sibling.
                let caller_within = unit.internal_of.clone().unwrap_or(unit.name.clone());
                let own: BTreeSet<String> = dummies
                    .get(crate::il::key_ref(&unit.name).as_ref())
                    .into_iter()
                    .flatten()
                    .map(|&k| key(&unit.args[k]))
                    .collect();
                let mut bind = |name: &str, args: &[Arg]| -> Option<(String, Vec<usize>)> {
                    let positions = dummies.get(crate::il::key_ref(name).as_ref())?;
                    let mut bound = Vec::new();
                    for &k in positions {
                        let a = args.get(k)?;
                        let ExprKind::Var(p) = &a.value.kind else {
                            return None;
                        };
                        if a.keyword.is_some()
                            || own.contains(crate::il::key_ref(p).as_ref())
                            || !out_units.contains_key(crate::il::key_ref(p).as_ref())
                            || !clash_resolvable(&callees[&key(name)], k, p)
                        {
                            return None;
                        }
                        bound.push((k, p.clone()));
                    }
                    let procs: Vec<(String, Option<String>)> = bound
                        .iter()
                        .map(|(_, p)| {
                            let host = out_units
                                .get(crate::il::key_ref(p).as_ref())
                                .and_then(|(h, _)| h.clone());
                            (p.clone(), host)
                        })
                        .collect();
                    if procs.iter().any(|(p, _)| {
                        out_units
                            .get(crate::il::key_ref(p).as_ref())
                            .is_some_and(|(_, internal)| *internal)
                    }) {
                        // An internal procedure is seen only in its host.
                        return None;
                    }
                    let place = placement(
                        &modules,
                        &out_units,
                        &callees[&key(name)],
                        caller_host.as_deref(),
                        &procs,
                    )?;
                    let internal = callees[&key(name)].internal_of.is_some();
                    let spec = Spec {
                        callee: key(name),
                        bound,
                        place,
                        within: internal.then(|| caller_within.clone()),
                    };
                    let copy = match copies.get(&spec) {
                        Some(c) => c.clone(),
                        None => {
                            let base = spec
                                .bound
                                .iter()
                                .fold(name.to_string(), |acc, (_, p)| format!("{acc}_{p}"));
                            let c = namer.fresh(&base);
                            copies.insert(spec.clone(), c.clone());
                            wanted.push(spec.clone());
                            c
                        }
                    };
                    Some((copy, positions.clone()))
                };
                rewrite_calls(&mut unit.body, &mut bind);
            }
        }
        if wanted.is_empty() {
            break;
        }
        for spec in wanted {
            let copy_name = copies[&spec].clone();
            let found = out.files.iter().enumerate().find_map(|(f, file)| {
                file.units
                    .iter()
                    .position(|u| u.is_procedure() && key(&u.name) == spec.callee)
                    .map(|p| (f, p))
            });
            let Some((f, pos)) = found else { continue };
            // A module procedure passed is seen by host association in the copy: its
            // declaration as the dummy's (`procedure(rhs) :: decay`) would make it an
            // external procedure there.
            let module_procedures: BTreeSet<String> = spec
                .bound
                .iter()
                .filter(|(_, p)| {
                    out_units
                        .get(crate::il::key_ref(p).as_ref())
                        .is_some_and(|(host, _)| host.is_some())
                })
                .map(|(_, p)| key(p))
                .collect();
            let mut copy = specialized(&out.files[f].units[pos], &copy_name, &spec.bound);
            copy.drop_external_declarations(&module_procedures);
            let internals = if spec.within.is_none() && copy.host.is_none() {
                let suffix: Vec<&str> = spec.bound.iter().map(|(_, p)| p.as_str()).collect();
                let (units, renames) = internal_copies(
                    &out.files[f].units[pos + 1..],
                    &spec.callee,
                    &copy_name,
                    &suffix.join("_"),
                    &mut namer,
                );
                companions.insert(key(&copy_name), renames);
                units
            } else {
                Vec::new()
            };
            // Its calls of the host's internal procedures go to their copies.
            let host_copy = key(spec.within.as_deref().unwrap_or(&copy_name));
            if let Some(renames) = companions.get(&host_copy) {
                visit::rename_calls(&mut copy.body, renames, false);
            }
            // After the callee and its internal procedures.
            let own_internals = out.files[f].units[pos + 1..]
                .iter()
                .take_while(|u| {
                    u.internal_of
                        .as_deref()
                        .is_some_and(|h| key(h) == spec.callee)
                })
                .count();
            let mut at = (f, pos + 1 + own_internals);
            if let Some(within) = &spec.within {
                // Seen only in its host: derivative code carries the copy's primal.
                copy.internal_of = Some(within.clone());
                if let Some(s) = copy.specialization.as_mut() {
                    s.lent = true;
                }
            }
            // Moved to the caller's module (relocate): after that module's last
            // procedure, with the USE statements of what it took from its own.
            if let Some(host) = &spec.place.host {
                let home = out.files[f].units[pos].host.clone();
                if let (Some(home), Some(s)) = (home, copy.specialization.as_mut()) {
                    s.lent |= key(&home) != key(host)
                        && modules
                            .iter()
                            .any(|m| key(&m.name) == key(&home) && m.is_private(&s.original));
                }
                copy.host = Some(host.clone());
                let last = out.files.iter().enumerate().find_map(|(f, file)| {
                    file.units
                        .iter()
                        .rposition(|u| {
                            u.host.as_deref().is_some_and(|h| key(h) == key(host))
                                && u.internal_of.is_none()
                        })
                        .map(|p| (f, p + 1))
                });
                at = last.unwrap_or(at);
            }
            if let Some(within) = &spec.within {
                // After its host copy and the copies already internal to it.
                let after_host = out.files.iter().enumerate().find_map(|(f, file)| {
                    let h = file
                        .units
                        .iter()
                        .position(|u| u.is_procedure() && key(&u.name) == key(within))?;
                    let n = file.units[h + 1..]
                        .iter()
                        .take_while(|u| {
                            u.internal_of
                                .as_deref()
                                .is_some_and(|i| key(i) == key(within))
                        })
                        .count();
                    Some((f, h + 1 + n))
                });
                at = after_host.unwrap_or(at);
            } else if spec.place.host.is_none() {
                // An external copy that uses a module of the program comes after it, in
                // its file (the last such file): its derivative then uses that module's
                // derivative module from the same file.
                let after = (0..out.files.len())
                    .rev()
                    .map(|g| (g, after_modules(&out.files[g].units, &spec.place)))
                    .find(|&(_, p)| p > 0);
                if let Some((g, p)) = after {
                    at = if g == at.0 { (g, at.1.max(p)) } else { (g, p) };
                }
            }
            let mut decls = use_decls(&spec.place);
            decls.append(&mut copy.decls);
            copy.decls = decls;
            out.files[at.0].units.insert(at.1, copy);
            for (i, c) in internals.into_iter().enumerate() {
                out.files[at.0].units.insert(at.1 + 1 + i, c);
            }
        }
    }
    out
}

/// The copies, internal to `copy_name` (the copy of external procedure `host`, a key),
/// of the internal procedures of `host` among `after` (the units after it) that take no
/// procedure argument (those are specialized where the copy calls them), named
/// `name_suffix`, with their calls of each other renamed; and the renames.
fn internal_copies(
    after: &[Unit],
    host: &str,
    copy_name: &str,
    suffix: &str,
    namer: &mut Namer,
) -> (Vec<Unit>, BTreeMap<String, String>) {
    let internals: Vec<&Unit> = after
        .iter()
        .take_while(|u| u.internal_of.as_deref().is_some_and(|h| key(h) == host))
        .filter(|u| procedure_dummies(u).is_empty())
        .collect();
    let renames: BTreeMap<String, String> = internals
        .iter()
        .map(|u| (key(&u.name), namer.fresh(&format!("{}_{suffix}", u.name))))
        .collect();
    let units = internals
        .into_iter()
        .map(|u| {
            let mut c = u.clone();
            if c.result.as_deref().is_some_and(|r| key(r) == key(&u.name)) {
                c.explicit_result = true;
            }
            c.name = renames[&key(&u.name)].clone();
            c.internal_of = Some(copy_name.to_string());
            visit::rename_calls(&mut c.body, &renames, false);
            c
        })
        .collect();
    (units, renames)
}

/// The position after the last unit of the modules of `units` that `place` uses (0 when
/// it uses none of them).
fn after_modules(units: &[Unit], place: &Placement) -> usize {
    let used = |m: &str| place.uses.keys().any(|u| key(u) == key(m));
    units
        .iter()
        .rposition(|u| (u.is_module() && used(&u.name)) || u.host.as_deref().is_some_and(used))
        .map_or(0, |p| p + 1)
}

/// The positions of the dummies that `unit` calls (procedure arguments).
pub fn procedure_dummies(unit: &Unit) -> Vec<usize> {
    let called: BTreeSet<String> = visit::called_names(unit).iter().map(|n| key(n)).collect();
    unit.args
        .iter()
        .enumerate()
        .filter(|(_, a)| {
            called.contains(crate::il::key_ref(a).as_ref())
                || unit
                    .symbols
                    .get(a)
                    .is_some_and(|s| s.kind == SymbolKind::Procedure)
        })
        .map(|(k, _)| k)
        .collect()
}

/// `f(name, args)` on every call of `body`: CALL statements and function references.
pub(crate) fn for_each_call_mut(body: &mut [Stmt], f: &mut dyn FnMut(&mut String, &mut Vec<Arg>)) {
    visit::walk_stmts_mut(body, &mut |s| {
        if let StmtKind::Call { name, args } = &mut s.kind {
            f(name, args);
        }
        for e in visit::stmt_exprs_mut(s) {
            visit::walk_expr_mut_post(e, &mut |x| {
                if let ExprKind::Call(name, args) = &mut x.kind {
                    f(name, args);
                }
            });
        }
    });
}

/// Every call of `body` that `bind` answers is renamed and loses the arguments at the
/// positions it gives.
fn rewrite_calls(body: &mut [Stmt], bind: &mut Binder) {
    for_each_call_mut(body, &mut |name, args| {
        if let Some((new, positions)) = bind(name, args) {
            *name = new;
            let mut k = 0;
            args.retain(|_| {
                k += 1;
                !positions.contains(&(k - 1))
            });
        }
    });
}

/// Whether procedure `p` can stand for dummy `k` of `callee`: a variable of the callee
/// with its name can be renamed in the copy (or there is none).
fn clash_resolvable(callee: &Unit, k: usize, p: &str) -> bool {
    key(&callee.args[k]) == key(p)
        // The callee sees `p` itself (a procedure of its own module, by host
        // association), or nothing named so.
        || callee
            .symbols
            .get(p)
            .is_none_or(|s| s.kind == SymbolKind::Procedure)
        || renamable(callee, p)
}

/// The copy of `original` named `name`, without the procedure dummies `bound` binds:
/// it calls the bound procedures instead, declared as the dummies were.
fn specialized(original: &Unit, name: &str, bound: &[(usize, String)]) -> Unit {
    let mut u = original.clone();
    u.name = name.to_string();
    // A result named after the function keeps its name, in a RESULT clause.
    if u.result
        .as_deref()
        .is_some_and(|r| key(r) == key(&original.name))
    {
        u.explicit_result = true;
    }
    // A local with the name of a procedure passed is renamed first.
    for (k, p) in bound {
        if key(&original.args[*k]) != key(p) && u.symbols.get(p).is_some() {
            let mut names = Namer::new(u.symbols.iter().map(|s| s.name.as_str()));
            let fresh = names.fresh(&format!("{p}_local"));
            rename_local(&mut u, p, &fresh);
        }
    }
    let renames: BTreeMap<String, String> = bound
        .iter()
        .map(|(k, p)| (key(&original.args[*k]), p.clone()))
        .collect();
    u.args = original
        .args
        .iter()
        .enumerate()
        .filter(|(k, _)| !bound.iter().any(|(b, _)| b == k))
        .map(|(_, a)| a.clone())
        .collect();
    let rename = |n: &mut String| {
        if let Some(p) = renames.get(crate::il::key_ref(n).as_ref()) {
            *n = p.clone();
        }
    };
    // Its calls, and the dummy passed on (`call inner(f, ...)`), are the procedure's.
    visit::walk_stmts_mut(&mut u.body, &mut |s| {
        if let StmtKind::Call { name, .. } = &mut s.kind {
            rename(name);
        }
        for e in visit::stmt_exprs_mut(s) {
            visit::walk_expr_mut_post(e, &mut |x| {
                if let ExprKind::Var(n) | ExprKind::Call(n, _) = &mut x.kind {
                    rename(n);
                }
            });
        }
    });
    // Declarations: the dummy's become the procedure's (`real(8), external :: f` →
    // `real(8), external :: rhs`; `external f` → `external rhs`).
    let mut decls = Vec::with_capacity(u.decls.len());
    for mut d in std::mem::take(&mut u.decls) {
        match &mut d.kind {
            DeclKind::External(names) => names.iter_mut().for_each(rename),
            DeclKind::Procedure { attrs, names, .. } => {
                if names
                    .iter()
                    .any(|n| renames.contains_key(crate::il::key_ref(n).as_ref()))
                {
                    // What only a dummy may have (INTENT, OPTIONAL) goes.
                    attrs.retain(|a| !matches!(a, Attr::Intent(_) | Attr::Optional));
                }
                names.iter_mut().for_each(rename)
            }
            DeclKind::Var {
                entities,
                attrs,
                spec,
            } => {
                let (mut procs, rest): (Vec<_>, Vec<_>) = std::mem::take(entities)
                    .into_iter()
                    .partition(|e| renames.contains_key(crate::il::key_ref(&e.name).as_ref()));
                *entities = rest;
                if !procs.is_empty() {
                    procs.iter_mut().for_each(|e| rename(&mut e.name));
                    // What only a dummy may have (INTENT, OPTIONAL) goes.
                    let kept: Vec<Attr> = attrs
                        .iter()
                        .filter(|a| !matches!(a, Attr::Intent(_) | Attr::Optional))
                        .cloned()
                        .collect();
                    let proc_decl = crate::il::Decl {
                        kind: DeclKind::Var {
                            spec: spec.clone(),
                            attrs: kept,
                            entities: procs,
                        },
                        span: d.span,
                    };
                    if !entities.is_empty() {
                        decls.push(d);
                    }
                    decls.push(proc_decl);
                    continue;
                }
            }
            DeclKind::Intent(_, names) => {
                names.retain(|n| !renames.contains_key(crate::il::key_ref(n).as_ref()))
            }
            DeclKind::Interface(bodies) => bodies.iter_mut().for_each(|b| rename(&mut b.name)),
            _ => {}
        }
        decls.push(d);
    }
    u.decls = decls;
    u.decls
        .retain(|d| !matches!(&d.kind, DeclKind::Intent(_, names) if names.is_empty()));
    let mut symbols = crate::il::symbols::SymbolTable::default();
    for s in u.symbols.iter() {
        let mut s = s.clone();
        if let Some(p) = renames.get(crate::il::key_ref(&s.name).as_ref()) {
            s.name = p.clone();
            s.arg_index = None;
            s.intent = None;
            s.kind = SymbolKind::Procedure;
        } else if s.arg_index.is_some() {
            s.arg_index = u.args.iter().position(|a| key(a) == key(&s.name));
        }
        symbols.insert(s);
    }
    u.symbols = symbols;
    u.specialization = Some(crate::il::Specialization {
        original: original.name.clone(),
        bound: bound.to_vec(),
        lent: false,
    });
    u
}

/// A generated unit's calls of specialized copies' primals, written as calls of the
/// originals with the procedures put back (the copies exist only for the analyses), and
/// the declarations those names need where the unit has none (`real(8), external :: g`).
pub fn unspecialize_calls(unit: &mut Unit, program: &crate::il::UnitIndex) {
    let mut named: Vec<String> = Vec::new();
    // Originals that are module procedures (seen by use association, never EXTERNAL),
    // known from their copies: a root may reach no call of the original itself.
    let mut in_modules: BTreeSet<String> = BTreeSet::new();
    let mut put_back = |name: &mut String, args: &mut Vec<Arg>| {
        let Some(copy) = program.unit(name) else {
            return;
        };
        let Some(spec) = &copy.specialization else {
            return;
        };
        // A PRIVATE original of another module: derivative code has the copy's primal.
        if spec.lent {
            return;
        }
        let (original, bound) = (spec.original.clone(), spec.bound.clone());
        if copy.host.is_some() {
            in_modules.insert(key(&original));
        }
        *name = original.clone();
        named.push(original);
        for (k, p) in bound {
            let at = k.min(args.len());
            args.insert(at, Arg::positional(crate::il::Expr::var(&p)));
            named.push(p);
        }
    };
    for_each_call_mut(&mut unit.body, &mut put_back);
    let mut declared: BTreeSet<String> = BTreeSet::new();
    for d in &unit.decls {
        match &d.kind {
            DeclKind::External(names) | DeclKind::Procedure { names, .. } => {
                declared.extend(names.iter().map(|n| key(n)))
            }
            DeclKind::Var { entities, .. } => {
                declared.extend(entities.iter().map(|e| key(&e.name)))
            }
            _ => {}
        }
    }
    for n in named {
        if !declared.insert(key(&n))
            || in_modules.contains(crate::il::key_ref(&n).as_ref())
            || program.unit(&n).is_some_and(|u| u.host.is_some())
        {
            continue;
        }
        let function = program.unit(&n).filter(|u| u.is_function());
        let kind = match function {
            Some(f) => {
                let spec = f
                    .result
                    .as_deref()
                    .and_then(|r| f.symbols.get(r))
                    .map(|r| r.type_spec.clone())
                    .or_else(|| f.prefix_type.clone())
                    .unwrap_or_else(|| crate::il::TypeSpec::of(crate::il::ScalarType::Real(8)));
                DeclKind::Var {
                    spec,
                    attrs: vec![Attr::External],
                    entities: vec![crate::il::Entity {
                        name: n.clone(),
                        dims: None,
                        init: None,
                        span: crate::diag::Span::default(),
                    }],
                }
            }
            None => DeclKind::External(vec![n.clone()]),
        };
        unit.decls.push(crate::il::Decl {
            kind,
            span: crate::diag::Span::default(),
        });
    }
}

/// `name` is a plain local of `u` that [`rename_local`] can rename: not a dummy, global
/// or derived-type variable, in a unit without COMMON, DATA or EQUIVALENCE. (A result
/// is renamed in its RESULT clause.)
fn renamable(u: &Unit, name: &str) -> bool {
    let plain = u.symbols.get(name).is_some_and(|s| {
        s.is_variable()
            && s.global.is_none()
            && !s.is_dummy()
            && s.ty != crate::il::ScalarType::Derived
    });
    plain
        && !u.decls.iter().any(|d| {
            matches!(
                &d.kind,
                DeclKind::Common(_) | DeclKind::Data(_) | DeclKind::Equivalence(_)
            )
        })
}

/// Renames local variable `from` of `u` to `to` everywhere it is written: the copy of a
/// procedure whose local has the name of the procedure passed for a dummy (jburkardt's
/// `rk4` keeps `f3`, a real, and is called with procedure `f3`). `false` (and `u`
/// unchanged) for a variable this cannot rename safely: not a plain local of the unit, or
/// named in COMMON, DATA, EQUIVALENCE.
fn rename_local(u: &mut Unit, from: &str, to: &str) -> bool {
    if !renamable(u, from) {
        return false;
    }
    let k = key(from);
    let fix = |n: &mut String| {
        if key(n) == k {
            *n = to.to_string();
        }
    };
    let fix_expr = |e: &mut crate::il::Expr| {
        visit::walk_expr_mut_post(e, &mut |x| match &mut x.kind {
            ExprKind::Var(n) | ExprKind::Index(n, _) if key(n) == k => *n = to.to_string(),
            ExprKind::ImpliedDo(d) if key(&d.var) == k => d.var = to.to_string(),
            _ => {}
        });
    };
    visit::walk_stmts_mut(&mut u.body, &mut |s| {
        match &mut s.kind {
            StmtKind::Do { var, .. } => fix(var),
            StmtKind::Io { writes, .. } => writes.iter_mut().for_each(fix_expr),
            StmtKind::Allocate(items) | StmtKind::Deallocate(items) => {
                items.iter_mut().for_each(fix_expr)
            }
            _ => {}
        }
        visit::stmt_exprs_mut(s).into_iter().for_each(fix_expr);
    });
    for d in &mut u.decls {
        match &mut d.kind {
            DeclKind::Var { entities, .. } | DeclKind::Dimension(entities) => {
                for e in entities {
                    fix(&mut e.name);
                    for dim in e.dims.iter_mut().flatten() {
                        dim.lower.iter_mut().for_each(fix_expr);
                        if let crate::il::Bound::Expr(x) = &mut dim.upper {
                            fix_expr(x);
                        }
                    }
                    e.init.iter_mut().for_each(fix_expr);
                }
            }
            DeclKind::Intent(_, names) => names.iter_mut().for_each(fix),
            _ => {}
        }
    }
    let mut symbols = crate::il::symbols::SymbolTable::default();
    for s in u.symbols.iter() {
        let mut s = s.clone();
        fix(&mut s.name);
        symbols.insert(s);
    }
    u.symbols = symbols;
    if let Some(r) = u.result.as_mut().filter(|r| key(r) == k) {
        *r = to.to_string();
        u.explicit_result = true;
    }
    true
}
