//! A module's POINTER variables that procedures associate with `=>`: time levels
//! exchanged without copying (`u => u_1; un => u_2`, then `tmp => u; u => un; un => tmp`
//! each step), as PALM's `swap_timelevel` and many textbook solvers write them.
//!
//! Such a pointer keeps its association between calls, and any procedure may change it,
//! so no procedure alone knows its target where it uses it. It is followed like a local
//! pointer whose target depends on the path (`selectors`), by an integer selector, with
//! three differences:
//! - its targets are fixed by its module: the module's TARGET variables of its type and
//!   rank, in the order they are declared (a pointer with none stays refused, E0405).
//!   An association with anything else is refused where it is written (E0401);
//! - its selector is a variable of the module, which every procedure that uses the
//!   pointer reads and sets; it carries [`crate::il::Attr::Association`], so the
//!   back-end prints it as the pointer itself (`associated(u, u_1)` for `u_target ==
//!   1`, `u => u_1` for `u_target = 1`). The original procedures, compiled as the user
//!   wrote them, and the derivatives then share one association: nothing is copied
//!   between them on entry to a root or around a call of an original procedure;
//! - on entry to a procedure, and after each call of a procedure that is not an
//!   intrinsic, it may have any of its targets, or none: a statement that uses it
//!   there is written once for each, chosen by the selector (seeds/000 §7: Tapenade's
//!   derivative pointer follows the primal one; here each copy refers to a target,
//!   whose derivative is the target's).
//!
//! ALLOCATE or DEALLOCATE of such a pointer is refused (it would give it memory of its
//! own, which no selector stands for), as is a module pointer renamed by USE.

use std::collections::{BTreeMap, BTreeSet};

use super::selectors::{Selector, numbered};
use crate::il::{Association, Attr, BaseType, DeclKind, Entity, ExprKind, Stmt, StmtKind};
use crate::il::{TypeSpec, Unit, key, visit};

/// How every refusal of an association of a module's pointer starts: the pointer's
/// name follows (`refused_everywhere` finds them by it).
const REFUSED: &str = "adgen follows the module's pointer `";

/// The refusal of an association of the module's pointer `pointer` (or of a local
/// pointer associated with it) with something other than its `candidates`.
/// `here` says what the statement does (`it is associated with something else`).
pub(super) fn refusal(
    pointer: &str,
    candidates: &[String],
    span: crate::diag::Span,
    here: &str,
) -> crate::diag::Diagnostic {
    let list = candidates
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ");
    crate::diag::Diagnostic::error(
        super::CODE,
        format!("{REFUSED}{pointer}` among its module's TARGET variables of its type and rank ({list}), and here {here}: every procedure that uses `{pointer}` is refused with it"),
    )
    .at(span)
    .with_help(format!("associate `{pointer}` with one of them (whole), or declare what it is associated with here in its module, with TARGET"))
}

/// The refusals of associations of modules' pointers (`refusal`), found in the units
/// of `program`, go to every procedure that uses one of those pointers
/// (`il::Unit::followed_pointers`), not only to the procedure that associates it, since
/// the pointer keeps that association between calls.
pub fn refused_everywhere(program: &mut crate::il::Program) {
    let refused: Vec<(String, crate::diag::Diagnostic)> = program
        .units()
        .flat_map(|u| u.deferred.iter())
        .filter_map(|d| {
            let rest = d.message.strip_prefix(REFUSED)?;
            Some((key(rest.split('`').next()?), d.clone()))
        })
        .collect();
    if refused.is_empty() {
        return;
    }
    for unit in program.files.iter_mut().flat_map(|f| f.units.iter_mut()) {
        for (p, d) in &refused {
            let uses = unit.followed_pointers.iter().any(|q| q == p);
            if uses && !unit.deferred.iter().any(|e| e.identity() == d.identity()) {
                unit.deferred.push(d.clone());
            }
        }
    }
}

/// The selectors of the module pointers a unit may see, by pointer (key).
pub type Selectors = BTreeMap<String, Selector>;

/// The POINTER variables of each module of `units` that have targets in their module
/// become selectors: their declarations are replaced, in place, by those of integer
/// variables standing for them. Returns them by module (key).
pub(super) fn declare(
    units: &mut [Unit],
    taken: &mut BTreeSet<String>,
) -> BTreeMap<String, Selectors> {
    let mut out = BTreeMap::new();
    for unit in units.iter_mut().filter(|u| u.is_module()) {
        let found = pointers_with_targets(unit);
        if found.is_empty() {
            continue;
        }
        let mut selectors = Selectors::new();
        for (pointer, declaration, candidates) in found {
            let var = numbered(&format!("{pointer}_target"), taken);
            let names: BTreeSet<String> = [key(&pointer)].into_iter().collect();
            let attr = Attr::Association(Box::new(Association {
                pointer: pointer.clone(),
                candidates: candidates.clone(),
                declaration: Box::new(declaration),
            }));
            super::split_pointer_decls(unit, &names, true, &|_, attrs, moved| DeclKind::Var {
                spec: TypeSpec::simple(BaseType::Integer),
                attrs: attrs
                    .iter()
                    .filter(|a| matches!(a, Attr::Public | Attr::Private))
                    .cloned()
                    .chain(std::iter::once(attr.clone()))
                    .collect(),
                entities: moved
                    .iter()
                    .map(|e| Entity {
                        name: var.clone(),
                        dims: None,
                        init: None,
                        span: e.span,
                    })
                    .collect(),
            });
            // A PRIVATE or PUBLIC statement naming the pointer names its selector.
            for d in &mut unit.decls {
                if let DeclKind::Access { names, .. } = &mut d.kind {
                    for n in names.iter_mut().filter(|n| key(n) == key(&pointer)) {
                        *n = var.clone();
                    }
                }
            }
            selectors.insert(
                key(&pointer),
                Selector {
                    var,
                    candidates,
                    saved: false,
                    global: true,
                    follows: Some(pointer.clone()),
                },
            );
        }
        out.insert(key(&unit.name), selectors);
    }
    out
}

/// The module's POINTER variables that are not read as ALLOCATABLE, each with the
/// module's TARGET variables of its type and rank, when it has some: its name, its
/// declaration alone (its entity out of a list), and those targets' names, as declared.
fn pointers_with_targets(module: &Unit) -> Vec<(String, crate::il::Decl, Vec<String>)> {
    struct Var<'a> {
        spec: &'a TypeSpec,
        attrs: &'a [Attr],
        span: crate::diag::Span,
        entity: &'a Entity,
        rank: usize,
        pointer: bool,
        target: bool,
    }
    let mut vars: Vec<Var> = Vec::new();
    for d in &module.decls {
        let DeclKind::Var {
            spec,
            attrs,
            entities,
        } = &d.kind
        else {
            continue;
        };
        let has = |f: fn(&Attr) -> bool| attrs.iter().any(f);
        if has(|a| matches!(a, Attr::Parameter)) {
            continue;
        }
        let attr_rank = attrs.iter().find_map(|a| match a {
            Attr::Dimension(d) => Some(d.len()),
            _ => None,
        });
        for entity in entities {
            vars.push(Var {
                spec,
                attrs,
                span: d.span,
                entity,
                rank: entity
                    .dims
                    .as_ref()
                    .map(Vec::len)
                    .or(attr_rank)
                    .unwrap_or(0),
                pointer: has(|a| matches!(a, Attr::Pointer))
                    && !has(|a| matches!(a, Attr::Allocatable)),
                target: has(|a| matches!(a, Attr::Target)),
            });
        }
    }
    vars.iter()
        .filter(|v| v.pointer)
        .filter_map(|v| {
            let candidates: Vec<String> = vars
                .iter()
                .filter(|t| !t.pointer && t.target && t.rank == v.rank && same_type(t.spec, v.spec))
                .map(|t| t.entity.name.clone())
                .collect();
            let alone = crate::il::Decl {
                kind: DeclKind::Var {
                    spec: v.spec.clone(),
                    attrs: v.attrs.to_vec(),
                    entities: vec![v.entity.clone()],
                },
                span: v.span,
            };
            (!candidates.is_empty()).then(|| (v.entity.name.clone(), alone, candidates))
        })
        .collect()
}

/// Whether two declarations give the same type: the same base, kind (a literal or a
/// named constant, as written) and derived type. Kinds written differently are taken
/// for different ones (the association with such a target is then refused).
fn same_type(a: &TypeSpec, b: &TypeSpec) -> bool {
    let kind = |t: &TypeSpec| match t.kind.as_ref().map(|k| &k.kind) {
        None => Some(String::new()),
        Some(ExprKind::Int(v)) => Some(v.clone()),
        Some(ExprKind::Var(n)) => Some(key(n)),
        Some(_) => None,
    };
    a.base == b.base
        && a.star == b.star
        && a.type_name.as_ref().map(|n| key(n)) == b.type_name.as_ref().map(|n| key(n))
        && kind(a).is_some()
        && kind(a) == kind(b)
}

/// The module pointers `unit` sees (by pointer key): those of its own USE statements
/// (not renamed, in the ONLY list if it has one), of its host module (its own and those
/// the module uses), and of its host procedure. `modules`: every module's selectors
/// known so far, its own and those it brings by USE, by module key; `units` the file's.
pub(super) fn visible(
    unit: &Unit,
    units: &[Unit],
    modules: &BTreeMap<String, Selectors>,
) -> Selectors {
    let mut out = Selectors::new();
    let mut scopes: Vec<&Unit> = vec![unit];
    let mut at = unit;
    while let Some(host) = at.internal_of.as_ref().or(at.host.as_ref()) {
        let Some(h) = units.iter().find(|u| key(&u.name) == key(host)) else {
            break;
        };
        if h.is_module() {
            out.extend(
                modules
                    .get(&key(&h.name))
                    .into_iter()
                    .flatten()
                    .map(|(k, s)| (k.clone(), s.clone())),
            );
        }
        scopes.push(h);
        at = h;
    }
    for scope in scopes {
        out.extend(used(scope, modules));
    }
    // A name of its own hides the module's.
    let own: BTreeSet<String> = unit
        .args
        .iter()
        .map(|a| key(a))
        .chain(visit::decls_names(&unit.decls).iter().map(|n| key(n)))
        .collect();
    out.retain(|p, _| !own.contains(p));
    out
}

/// The module pointers the USE statements of `unit` bring.
pub(super) fn used(unit: &Unit, modules: &BTreeMap<String, Selectors>) -> Selectors {
    let mut out = Selectors::new();
    for d in &unit.decls {
        let DeclKind::Use {
            module,
            only,
            renames,
        } = &d.kind
        else {
            continue;
        };
        for (p, s) in modules.get(&key(module)).into_iter().flatten() {
            if super::use_brings(only, renames, p) {
                out.insert(p.clone(), s.clone());
            }
        }
    }
    out
}

/// In the ONLY lists of `units`' USE statements, a module pointer adgen follows is
/// replaced by its selector and its targets (what the statements written for it read).
pub(super) fn widen_only_lists(units: &mut [Unit], modules: &BTreeMap<String, Selectors>) {
    for unit in units.iter_mut() {
        for d in &mut unit.decls {
            let DeclKind::Use {
                module,
                only: Some(names),
                ..
            } = &mut d.kind
            else {
                continue;
            };
            let Some(selectors) = modules.get(&key(module)) else {
                continue;
            };
            let mut out: Vec<String> = Vec::with_capacity(names.len());
            for n in names.drain(..) {
                match selectors.get(&key(&n)) {
                    Some(s) => {
                        for m in std::iter::once(&s.var).chain(&s.candidates) {
                            if !out.iter().any(|o| key(o) == key(m)) {
                                out.push(m.clone());
                            }
                        }
                    }
                    None if out.iter().any(|o| key(o) == key(&n)) => {}
                    None => out.push(n),
                }
            }
            *names = out;
        }
    }
}

/// Whether `s`'s own expressions (or `s` itself, a CALL) may call a procedure that is
/// not an intrinsic: one that may associate module pointers. `vars`: the names the unit
/// declares or follows as pointers (keys), which are no calls (`a(i)` still reads as
/// a call before `sema`).
pub(super) fn may_call(s: &Stmt, vars: &BTreeSet<String>) -> bool {
    if let StmtKind::Call { name, .. } = &s.kind
        && !name.eq_ignore_ascii_case("nullify")
    {
        return true;
    }
    let mut found = false;
    for e in visit::stmt_exprs(s) {
        visit::walk_expr(e, &mut |x| {
            if let ExprKind::Call(f, _) = &x.kind {
                let base = key(f.split('%').next().unwrap_or(f));
                if !vars.contains(&base) && crate::front::fortran::intrinsics::lookup(f).is_none() {
                    found = true;
                }
            }
        });
    }
    found
}

/// The names `body` refers to (keys), the variables assigned, allocated and freed
/// included (`a(i)` on the left still reads as a call before `sema`, which
/// `visit::referenced_names` skips).
pub(super) fn names_used(body: &[Stmt]) -> BTreeSet<String> {
    let mut out = visit::referenced_names(body);
    visit::walk_stmts(body, &mut |s| {
        let written: &[crate::il::Expr] = match &s.kind {
            StmtKind::Assign { lhs, .. } => std::slice::from_ref(lhs),
            StmtKind::Allocate(items) | StmtKind::Deallocate(items) => items,
            _ => &[],
        };
        for e in written {
            visit::walk_expr(e, &mut |x| {
                if let ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) = &x.kind {
                    out.insert(key(n.split('%').next().unwrap_or(n)));
                }
            });
        }
    });
    out
}

/// The ALLOCATE or DEALLOCATE of a followed module pointer in `body`, if any: its span
/// and the pointer.
pub(super) fn allocated(body: &[Stmt], globals: &Selectors) -> Option<(crate::diag::Span, String)> {
    let mut found = None;
    visit::walk_stmts(body, &mut |s| {
        if let StmtKind::Allocate(items) | StmtKind::Deallocate(items) = &s.kind {
            for e in items {
                if let ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) = &e.kind
                    && globals.contains_key(&key(n))
                {
                    found.get_or_insert((s.span, n.clone()));
                }
            }
        }
    });
    found
}
