//! Local POINTER variables used as aliases: each reference to the pointer becomes a
//! reference to its target, and the `p => target` statements and the pointer's
//! declaration go, before semantic analysis. What follows never sees a pointer.
//!
//! This is what scientists mostly write pointers for in numerical code: a short name for
//! a component or a section (`h => state%h`, `col => a(:, j)`), or two buffers exchanged
//! between phases (`tmp => old; old => new; new => tmp`). Tapenade differentiates
//! pointers with derivative pointers that follow the primal ones (seeds/000 §7, dynamic
//! memory, pointers); an alias replaced by its target needs no such machinery, and its
//! derivative is that of the target.
//!
//! The replacement is exact when the target a reference sees is known where it is
//! written, so it is made under these rules (each refusal one E0401, where it is):
//! - an association holds from its statement to the end of its block (and in the
//!   blocks inside it): a column alias made at the top of a loop body (`col => a(:, j)`)
//!   serves that iteration. Where a pointer's target depends on the path (used in a
//!   loop body before its association there, after a loop or an IF that associates
//!   it: buffers swapped across the iterations of a time loop), an integer selector
//!   follows it among whole variables (`selectors`);
//! - the target is a variable, an array element, a section with unit stride (`a(2:n)`,
//!   `a(:, j)`), a component (`s%h`), or another pointer (its target at that point);
//! - the variables the target's subscripts read are not changed while it is associated
//!   (the section `a(1:n)` must stay the one first meant when `n` changes);
//! - the pointer is not used before its first association (or after `=> null()` or
//!   NULLIFY); ASSOCIATED of it where it is associated is true.
//!
//! A local pointer that only ever gets its memory from ALLOCATE, or from a procedure it
//! is passed to (never `=>`), is an ALLOCATABLE array written the Fortran 90 way: it is
//! declared ALLOCATABLE beside its POINTER (ASSOCIATED of it asks ALLOCATED). So are
//! the owning POINTER components, module variables and dummies (`allocatable`); a
//! local pointer replaced by its target is not passed to a procedure of the file that
//! allocates or frees its POINTER dummy (E0401).
//!
//! A pointer to a section has lower bound 1: `p(i)` of `p => a(lo:hi)` is
//! `a(lo + i - 1)`; a pointer to a whole array keeps the array's bounds. A call of a
//! subroutine that only exchanges its POINTER dummies' associations is first written
//! into its caller (`shuffle`). Other POINTER dummies, module variables and components
//! stay refused (E0405, by `sema`).

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{Diagnostic, Span};
use crate::il::{Attr, BinOp, DeclKind, Expr, ExprKind, Stmt, StmtKind, Unit, key, visit};

mod allocatable;
mod io_text;
mod module;

pub use allocatable::{associated_in_other_files, foreign_association};
pub(in crate::front::fortran) use io_text::rename_in_text;
mod owned;
mod rewriter;
mod selectors;
mod shuffle;

pub use module::Selectors;
pub use module::refused_everywhere as module_pointers_refused_everywhere;
pub use shuffle::Shuffler;

/// The spans of the pointers on the left of `p => target` statements
/// (`stmt::StmtParser`): `all` of them, and the `foreign` ones, whose pointer the file
/// does not declare.
pub struct Marked<'a> {
    pub all: &'a BTreeSet<Span>,
    pub foreign: &'a BTreeSet<Span>,
}

use rewriter::Rewriter;

const CODE: &str = "E0401";

/// The association of one pointer: its target, and the names the target's subscripts
/// read.
#[derive(Clone)]
struct Association {
    target: Expr,
    reads: BTreeSet<String>,
}

/// Replaces the local pointers of every procedure of `units`, and follows the modules'
/// pointers they associate (`module`). `imported`: the shufflers of the modules
/// analyzed before (`shuffle`), by module key; `selectors`: their pointers' selectors.
/// Returns the file's shufflers that are module procedures, and the selectors of the
/// file's modules (their own and those they use), by module key, for the files after.
pub fn replace(
    units: &mut [Unit],
    marked: &Marked<'_>,
    imported: &BTreeMap<String, BTreeMap<String, Shuffler>>,
    selectors: &BTreeMap<String, Selectors>,
    next_id: &mut u32,
    diags: &mut Vec<Diagnostic>,
) -> (
    BTreeMap<String, BTreeMap<String, Shuffler>>,
    BTreeMap<String, Selectors>,
) {
    let foreign = marked.foreign;
    let marked = marked.all;
    let own = shuffle::find(units, marked);
    let mut marked = marked.clone();
    shuffle::inline(units, &own, imported, &mut marked, next_id);
    // Most files declare no pointer: no names to collect then.
    let mut taken = None;
    for k in 0..units.len() {
        let mut pointers = local_pointers(&units[k]);
        if !units[k].is_procedure() || pointers.is_empty() {
            continue;
        }
        let saved = selectors::saved_pointers(&units[k], &pointers);
        pointers.retain(|p| !saved.contains(p));
        let taken = taken.get_or_insert_with(|| selectors::names_of(units));
        owned::give_memory_names(&mut units[k], &pointers, &mut marked, taken, next_id);
    }
    let marked = &marked;
    // (Module procedures, and generic names of modules.)
    let mut by_module: BTreeMap<String, BTreeMap<String, Shuffler>> = BTreeMap::new();
    for (k, s) in &own {
        if let Some(host) = &s.host {
            by_module
                .entry(host.clone())
                .or_default()
                .insert(k.clone(), s.clone());
        }
    }
    allocatable::convert(units, marked);
    for unit in units.iter_mut() {
        allocatable::split_nullify(&mut unit.body, next_id);
    }
    // The modules' pointers: those of the modules before, then the file's own, each
    // module with those it uses.
    let mut selectors = selectors.clone();
    let mut exported = BTreeMap::new();
    let own = if units
        .iter()
        .any(|u| u.is_module() && !local_pointers(u).is_empty())
    {
        module::declare(units, &mut selectors::names_of(units))
    } else {
        BTreeMap::new()
    };
    if !own.is_empty() || !selectors.is_empty() {
        for u in units.iter().filter(|u| u.is_module()) {
            let mut visible = module::used(u, &selectors);
            visible.extend(own.get(&key(&u.name)).cloned().unwrap_or_default());
            if !visible.is_empty() {
                selectors.insert(key(&u.name), visible.clone());
                exported.insert(key(&u.name), visible);
            }
        }
    }
    replace_locals(units, marked, foreign, &selectors, next_id, diags);
    module::widen_only_lists(units, &selectors);
    for unit in units.iter_mut() {
        allocatable::free_nullified(unit, next_id);
    }
    (by_module, exported)
}

/// Whether a USE statement with this ONLY list and these renames brings the module's
/// entity `name` (key) under its own name.
fn use_brings(only: &Option<Vec<String>>, renames: &[(String, String)], name: &str) -> bool {
    let renamed = renames
        .iter()
        .any(|(a, b)| key(a) == name || key(b) == name);
    let listed = only
        .as_ref()
        .is_none_or(|names| names.iter().any(|n| key(n) == name));
    listed && !renamed
}

/// Replaces the local pointers of every procedure of `units` by their targets, or
/// declares them ALLOCATABLE when they only get their memory from ALLOCATE.
fn replace_locals(
    units: &mut [Unit],
    marked: &BTreeSet<Span>,
    foreign: &BTreeSet<Span>,
    modules: &BTreeMap<String, Selectors>,
    next_id: &mut u32,
    diags: &mut Vec<Diagnostic>,
) {
    // `=> null()` of a pointer adgen does not replace (a module's, a dummy's, a
    // component's) is refused with its declaration: no initialization to check.
    for unit in units.iter_mut() {
        let local = if unit.is_procedure() {
            local_pointers(unit)
        } else {
            BTreeSet::new()
        };
        strip_pointer_inits(&mut unit.decls, &local);
    }
    // The modules' pointers each procedure uses.
    let globals: Vec<Selectors> = units
        .iter()
        .map(|u| {
            if !u.is_procedure() || modules.is_empty() {
                return Selectors::new();
            }
            let named = module::names_used(&u.body);
            let mut visible = module::visible(u, units, modules);
            visible.retain(|p, _| named.contains(p));
            visible
        })
        .collect();
    // Most files declare no pointer: nothing to walk then.
    let hosts: BTreeSet<String> = units
        .iter()
        .filter(|u| u.is_procedure() && !local_pointers(u).is_empty())
        .map(|u| key(&u.name))
        .collect();
    if hosts.is_empty() && globals.iter().all(BTreeMap::is_empty) && foreign.is_empty() {
        return;
    }
    let reassociating = allocatable::reassociating(units);
    let mut taken = selectors::names_of(units);
    // What internal procedures refer to, by host: a host's pointer they use by host
    // association cannot be replaced in the host alone.
    let mut by_host: BTreeMap<String, Vec<(BTreeSet<String>, Span)>> = BTreeMap::new();
    for u in units.iter() {
        if let Some(host) = u.internal_of.as_ref().filter(|h| hosts.contains(&key(h))) {
            // Its own names (dummies, locals) hide the host's.
            let mut names = visit::referenced_names(&u.body);
            for a in &u.args {
                names.remove(&key(a));
            }
            for d in &u.decls {
                if let DeclKind::Var { entities, .. } = &d.kind {
                    for e in entities {
                        names.remove(&key(&e.name));
                    }
                }
            }
            by_host.entry(key(host)).or_default().push((names, u.span));
        }
    }
    for (unit, globals) in units.iter_mut().zip(globals) {
        if !unit.is_procedure() {
            continue;
        }
        let mut pointers = local_pointers(unit);
        let locals = pointers.clone();
        // `p => t` of a pointer another file declares that is not a module's pointer
        // followed here (a dummy's of an interface, a module's without targets).
        let mut refused = None;
        visit::walk_stmts(&unit.body, &mut |s| {
            if let StmtKind::Assign { lhs, .. } = &s.kind
                && foreign.contains(&lhs.span)
                && let ExprKind::Var(p) = &lhs.kind
                && !globals.contains_key(&key(p))
            {
                refused.get_or_insert_with(|| allocatable::foreign_association(p, lhs.span));
            }
        });
        if let Some(d) = refused {
            diags.push(d);
            keep_declared(unit);
            continue;
        }
        if let Some((span, p)) = module::allocated(&unit.body, &globals) {
            let s = &globals[&key(&p)];
            diags.push(module::refusal(
                s.follows.as_deref().unwrap_or(&p),
                &s.candidates,
                span,
                "it is given or freed memory of its own (ALLOCATE, DEALLOCATE)",
            ));
            keep_declared(unit);
            continue;
        }
        pointers.extend(globals.keys().cloned());
        unit.followed_pointers = globals.keys().cloned().collect();
        if pointers.is_empty() {
            continue;
        }
        let shared = by_host.get(&key(&unit.name)).and_then(|internals| {
            internals.iter().find_map(|(names, span)| {
                locals
                    .iter()
                    .find(|p| names.contains(*p))
                    .map(|p| (p.clone(), *span))
            })
        });
        if let Some((p, span)) = shared {
            diags.push(
                Diagnostic::error(
                    CODE,
                    format!("the host's pointer `{p}` is used in this internal procedure: adgen replaces a pointer by its target only in the procedure that declares it"),
                )
                .at(span)
                .with_help("pass the target to the internal procedure as an argument"),
            );
            keep_declared(unit);
            continue;
        }
        let allocated = allocated_pointers(unit, &locals, marked);
        if !allocated.is_empty() {
            make_allocatable(unit, &allocated);
            allocatable::nullify_owners(unit, &allocated, marked);
            pointers.retain(|p| !allocated.contains(p));
        }
        if pointers.is_empty() {
            continue;
        }
        let is_association = |s: &Stmt| {
            matches!(&s.kind, StmtKind::Assign { lhs, .. }
                if marked.contains(&lhs.span)
                    && matches!(&lhs.kind, ExprKind::Var(n) if pointers.contains(&key(n))))
        };
        // First with every target known where it is used; a pointer refused because its
        // target depends on the path then gets a selector, and the unit is walked again.
        let families = selectors::Families::of(unit, &pointers, &is_association);
        let saved = selectors::saved_pointers(unit, &pointers);
        let (lower_bounds, intent_in) = (declared_lower_bounds(unit), intent_in(unit));
        // The modules' pointers are followed by their selectors from the start, and the
        // local pointers of their families by selectors of their targets.
        let mut selected: BTreeMap<String, selectors::Selector> = globals.clone();
        if let Err((p, q)) = join_globals(&families, &globals, &saved, &mut taken, &mut selected) {
            // Where the two are associated with one another.
            let mut span = unit.span;
            visit::walk_stmts(&unit.body, &mut |s| {
                if is_association(s)
                    && let StmtKind::Assign { lhs, rhs } = &s.kind
                    && let (ExprKind::Var(a), ExprKind::Var(b)) = (&lhs.kind, &rhs.kind)
                    && [key(a), key(b)].iter().all(|n| *n == p || *n == q)
                    && span == unit.span
                {
                    span = s.span;
                }
            });
            let s = &globals[&p];
            let here = format!("it is associated with `{q}`, whose targets are others");
            diags.push(module::refusal(
                s.follows.as_deref().unwrap_or(&p),
                &s.candidates,
                span,
                &here,
            ));
            keep_declared(unit);
            continue;
        }
        let vars: BTreeSet<String> = pointers
            .iter()
            .cloned()
            .chain(unit.args.iter().map(|a| key(a)))
            .chain(visit::decls_names(&unit.decls).iter().map(|n| key(n)))
            .collect();
        let may_call = |s: &Stmt| !globals.is_empty() && module::may_call(s, &vars);
        let (body, error) = loop {
            let order: Vec<String> = selected.keys().cloned().collect();
            let states = match selectors::reachable(
                &unit.body,
                &order,
                &selected,
                &is_association,
                &may_call,
            ) {
                _ if order.is_empty() => BTreeMap::new(),
                Ok(states) => states,
                Err(span) => {
                    break (
                        Vec::new(),
                        Some(
                            Diagnostic::error(
                                CODE,
                                format!("the target of the pointer `{}` depends on the path, which adgen follows only in a procedure without GO TO", order[0]),
                            )
                            .at(span)
                            .with_help("rewrite the jumps with IF, DO, EXIT or CYCLE, or use the targets themselves"),
                        ),
                    );
                }
            };
            if let Some((span, p)) = selectors::earlier_target_used(
                &unit.body,
                &order,
                &states,
                &pointers,
                &is_association,
            ) {
                break (
                    Vec::new(),
                    Some(
                        Diagnostic::error(
                            CODE,
                            format!("the target of the pointer `{p}` depends on the path, and it keeps its association between calls (SAVE, or an initialization in its declaration): here it may still have an earlier call's target, which adgen cannot follow"),
                        )
                        .at(span)
                        .with_help("associate it before this use in every call (NULLIFY it on entry instead of initializing it), or use the targets themselves"),
                    ),
                );
            }
            let mut rewriter = Rewriter {
                lower_bounds: lower_bounds.clone(),
                intent_in: intent_in.clone(),
                pointers: &pointers,
                selected: &selected,
                order: &order,
                states: &states,
                next_id,
                reassociating: &reassociating,
                current: BTreeMap::new(),
                assumed: BTreeSet::new(),
                unknown: BTreeMap::new(),
                error: None,
                path_dependent: None,
                globals: globals.keys().cloned().collect(),
                may_call: &may_call,
            };
            let body = rewriter.block(unit.body.clone(), false, &is_association);
            let (error, path_dependent) = (rewriter.error, rewriter.path_dependent);
            match (error, path_dependent) {
                (None, _) => break (body, None),
                (Some(_), Some(p)) if !selected.contains_key(&p) => {
                    // Its whole family: `p => q` copies a selector.
                    let mut refusal = None;
                    for q in families.members(&p) {
                        let var = selectors::selector_name(&q, &mut taken);
                        match families.selector(&q, var, saved.contains(&q)) {
                            Ok(selector) => {
                                selected.insert(q, selector);
                            }
                            Err(d) => {
                                refusal = Some(d);
                                break;
                            }
                        }
                    }
                    if let Some(d) = refusal {
                        break (body, Some(d));
                    }
                }
                (Some(d), _) => break (body, Some(d)),
            }
        };
        if let Some(d) = error {
            // One refusal.
            diags.push(d);
            keep_declared(unit);
            continue;
        }
        unit.body = body;
        selectors::declare(unit, &selected, next_id);
        pointers.retain(|p| !selected.contains_key(p));
        drop_declarations(unit, &pointers);
    }
}

/// The local pointers of the families of the modules' pointers `globals` get selectors
/// (in `selected`) among those pointers' targets: `tmp => u` copies `u`'s selector.
/// A family with two modules' pointers of different targets is refused: the two
/// (keys).
fn join_globals(
    families: &selectors::Families,
    globals: &Selectors,
    saved: &BTreeSet<String>,
    taken: &mut BTreeSet<String>,
    selected: &mut BTreeMap<String, selectors::Selector>,
) -> Result<(), (String, String)> {
    for (p, global) in globals {
        for q in families.members(p) {
            match (selected.get(&q), globals.get(&q)) {
                (_, Some(other)) if other.candidates != global.candidates => {
                    return Err((p.clone(), q));
                }
                (Some(_), _) => {}
                (None, _) => {
                    let var = selectors::selector_name(&q, taken);
                    selected.insert(
                        q.clone(),
                        selectors::Selector {
                            var,
                            candidates: global.candidates.clone(),
                            saved: saved.contains(&q),
                            global: false,
                            follows: global.follows.clone(),
                        },
                    );
                }
            }
        }
    }
    Ok(())
}

/// Takes the initialization (`=> null()`) away from the POINTER entities of `decls` but
/// `keep`'s (keys), type components included.
fn strip_pointer_inits(decls: &mut [crate::il::Decl], keep: &BTreeSet<String>) {
    for d in decls {
        match &mut d.kind {
            DeclKind::Var {
                attrs, entities, ..
            } if attrs.iter().any(|a| matches!(a, Attr::Pointer)) => {
                for e in entities
                    .iter_mut()
                    .filter(|e| !keep.contains(&key(&e.name)))
                {
                    e.init = None;
                }
            }
            DeclKind::TypeDef { components, .. } => {
                strip_pointer_inits(components, &BTreeSet::new());
            }
            _ => {}
        }
    }
}

/// The local pointers that get their memory from ALLOCATE and are never associated
/// with `=>` (keys): pointers written where ALLOCATABLE is meant, as Fortran 90 code
/// often does.
fn allocated_pointers(
    unit: &Unit,
    pointers: &BTreeSet<String>,
    marked: &BTreeSet<Span>,
) -> BTreeSet<String> {
    let name_of = item_name;
    let mut allocated = BTreeSet::new();
    let mut associated = BTreeSet::new();
    visit::walk_stmts(&unit.body, &mut |s| match &s.kind {
        StmtKind::Allocate(items) => {
            allocated.extend(items.iter().filter_map(name_of));
        }
        // Passed whole to a procedure that allocates it (a POINTER dummy that owns
        // its memory, `allocatable`): a pointer never associated gets memory no other way.
        StmtKind::Call { name, args } if !name.eq_ignore_ascii_case("nullify") => {
            allocated.extend(args.iter().filter_map(|a| match &a.value.kind {
                ExprKind::Var(n) => Some(key(n)),
                _ => None,
            }));
        }
        StmtKind::Assign { lhs, rhs }
            if marked.contains(&lhs.span) && !allocatable::is_null(rhs) =>
        {
            associated.extend(name_of(lhs));
        }
        _ => {}
    });
    allocated
        .into_iter()
        .filter(|n| pointers.contains(n) && !associated.contains(n))
        .collect()
}

/// The array (key) an item of ALLOCATE, DEALLOCATE or NULLIFY names: `p`, `p(n)`, or
/// `p(n)` still read as a call before `sema`.
fn item_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) => Some(key(n)),
        _ => None,
    }
}

/// The declaration of some of a POINTER declaration's entities, from its type and
/// attributes (`split_pointer_decls`).
pub(super) type MakeDecl<'a> =
    dyn Fn(&crate::il::TypeSpec, &[Attr], Vec<crate::il::Entity>) -> DeclKind + 'a;

/// The POINTER declarations of `unit` with the entities named in `names` (keys) made
/// into a declaration of their own by `make`, in the same place (before the others'
/// when `first`, after them otherwise).
pub(super) fn split_pointer_decls(
    unit: &mut Unit,
    names: &BTreeSet<String>,
    first: bool,
    make: &MakeDecl<'_>,
) {
    unit.decls = split_pointer_decls_in(std::mem::take(&mut unit.decls), names, first, make);
}

/// [`split_pointer_decls`] of a list of declarations (a type's components, an
/// interface body's).
pub(super) fn split_pointer_decls_in(
    decls: Vec<crate::il::Decl>,
    names: &BTreeSet<String>,
    first: bool,
    make: &MakeDecl<'_>,
) -> Vec<crate::il::Decl> {
    let mut out = Vec::with_capacity(decls.len());
    for d in decls {
        let DeclKind::Var {
            spec,
            attrs,
            entities,
        } = &d.kind
        else {
            out.push(d);
            continue;
        };
        if !attrs.iter().any(|a| matches!(a, Attr::Pointer))
            || !entities.iter().any(|e| names.contains(&key(&e.name)))
        {
            out.push(d);
            continue;
        }
        let (moved, kept): (Vec<_>, Vec<_>) = entities
            .iter()
            .cloned()
            .partition(|e| names.contains(&key(&e.name)));
        let kept = (!kept.is_empty()).then(|| crate::il::Decl {
            kind: DeclKind::Var {
                spec: spec.clone(),
                attrs: attrs.clone(),
                entities: kept,
            },
            span: d.span,
        });
        let moved = crate::il::Decl {
            kind: make(spec, attrs, moved),
            span: d.span,
        };
        if first {
            out.extend(std::iter::once(moved).chain(kept));
        } else {
            out.extend(kept.into_iter().chain(std::iter::once(moved)));
        }
    }
    out
}

/// Declares `names` ALLOCATABLE beside POINTER, which `sema` reads as an owning
/// pointer array and the back-end prints as the source did (a declaration that also
/// declares other pointers is split); ASSOCIATED of them is ALLOCATED (`sema`).
fn make_allocatable(unit: &mut Unit, names: &BTreeSet<String>) {
    split_pointer_decls(unit, names, false, &|spec, attrs, moved| {
        allocatable::owned(spec, attrs, moved, false)
    });
}

/// The dummies a procedure declares INTENT(IN) (keys).
fn intent_in(unit: &Unit) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for d in &unit.decls {
        match &d.kind {
            DeclKind::Var {
                attrs, entities, ..
            } if attrs
                .iter()
                .any(|a| matches!(a, Attr::Intent(crate::il::Intent::In))) =>
            {
                out.extend(entities.iter().map(|e| key(&e.name)));
            }
            DeclKind::Intent(crate::il::Intent::In, names) => {
                out.extend(names.iter().map(|n| key(n)));
            }
            _ => {}
        }
    }
    out
}

/// The pointers a procedure (or a module) declares as its own variables (keys).
fn local_pointers(unit: &Unit) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for d in &unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
            && attrs.iter().any(|a| matches!(a, Attr::Pointer))
        {
            for e in entities {
                let dummy = unit.args.iter().any(|a| key(a) == key(&e.name));
                let result = unit.result.as_ref().is_some_and(|r| key(r) == key(&e.name))
                    || (unit.result.is_none()
                        && unit.is_function()
                        && key(&unit.name) == key(&e.name));
                if !dummy && !result {
                    out.insert(key(&e.name));
                }
            }
        }
    }
    out
}

/// The lower bound of each dimension of the arrays the unit declares with their shape
/// (explicit or assumed: 1 unless written), not ALLOCATABLE or POINTER, when every one
/// is a literal.
fn declared_lower_bounds(unit: &Unit) -> BTreeMap<String, Vec<Expr>> {
    let mut out = BTreeMap::new();
    for d in &unit.decls {
        let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
        else {
            continue;
        };
        if attrs
            .iter()
            .any(|a| matches!(a, Attr::Allocatable | Attr::Pointer))
        {
            continue;
        }
        let attr_dims = attrs.iter().find_map(|a| match a {
            Attr::Dimension(d) => Some(d),
            _ => None,
        });
        for e in entities {
            if let Some(dims) = e.dims.as_ref().or(attr_dims) {
                // A bound that reads variables may not hold any longer: LBOUND then.
                let lows: Option<Vec<Expr>> = dims
                    .iter()
                    .map(|d| match &d.lower {
                        None => Some(Expr::int(1)),
                        Some(l) if matches!(l.kind, ExprKind::Int(_)) => Some(l.clone()),
                        Some(_) => None,
                    })
                    .collect();
                if let Some(lows) = lows {
                    out.insert(key(&e.name), lows);
                }
            }
        }
    }
    out
}

/// After a refusal: the pointers stay declared, as plain variables (their uses raise
/// no false "not declared"), without the POINTER attribute (not refused again).
/// ASSOCIATED of them, and their NULLIFY, which would be refused again, go too: the
/// procedure is refused once, for the pointer.
fn keep_declared(unit: &mut Unit) {
    let mut pointers = BTreeSet::new();
    for d in &mut unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &mut d.kind
            && attrs.iter().any(|a| matches!(a, Attr::Pointer))
        {
            attrs.retain(|a| !matches!(a, Attr::Pointer));
            pointers.extend(entities.iter().map(|e| key(&e.name)));
            // `=> null()` is no value of a plain variable.
            entities.iter_mut().for_each(|e| e.init = None);
        }
    }
    let is_pointer = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if pointers.contains(&key(n)));
    visit::walk_stmts_mut(&mut unit.body, &mut |s| {
        if let StmtKind::Call { name, args } = &s.kind
            && name.eq_ignore_ascii_case("nullify")
            && args.iter().all(|a| is_pointer(&a.value))
        {
            s.kind = StmtKind::Continue;
        }
        for e in visit::stmt_exprs_mut(s) {
            visit::walk_expr_mut_post(e, &mut |x| {
                if let ExprKind::Call(f, args) = &x.kind
                    && f.eq_ignore_ascii_case("associated")
                    && args.first().is_some_and(|a| is_pointer(&a.value))
                {
                    x.kind = ExprKind::Logical(true);
                }
            });
        }
    });
}

/// The pointers' declarations go (a declaration left empty goes too).
fn drop_declarations(unit: &mut Unit, pointers: &BTreeSet<String>) {
    unit.decls.retain_mut(|d| match &mut d.kind {
        DeclKind::Var { entities, .. } => {
            entities.retain(|e| !pointers.contains(&key(&e.name)));
            !entities.is_empty()
        }
        _ => true,
    });
}

/// The pointers (keys) associated by the statements of `stmts`, at any depth.
fn associated_in(stmts: &[Stmt], is_association: &dyn Fn(&Stmt) -> bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    visit::walk_stmts(stmts, &mut |x| {
        if is_association(x)
            && let StmtKind::Assign { lhs, .. } = &x.kind
            && let ExprKind::Var(n) = &lhs.kind
        {
            out.insert(key(n));
        }
    });
    out
}

fn pointer_base(pointers: &BTreeSet<String>, name: &str) -> bool {
    pointers.contains(&key(name.split('%').next().unwrap_or(name)))
}

/// `lo + i - 1`: the element of a section starting at `lo` at the pointer's index `i`.
fn shifted(lo: &Expr, i: Expr) -> Expr {
    match &lo.kind {
        ExprKind::Int(t) if t.parse::<i64>() == Ok(1) => i,
        ExprKind::Int(t) => match t.parse::<i64>() {
            Ok(v) if v > 1 => Expr::binary(BinOp::Add, i, Expr::int(v - 1)),
            Ok(v) => Expr::binary(BinOp::Sub, i, Expr::int(1 - v)),
            Err(_) => Expr::binary(
                BinOp::Sub,
                Expr::binary(BinOp::Add, lo.clone(), i),
                Expr::int(1),
            ),
        },
        _ => Expr::binary(
            BinOp::Sub,
            Expr::binary(BinOp::Add, lo.clone(), i),
            Expr::int(1),
        ),
    }
}
