//! Subroutines that only exchange the associations of their POINTER dummies, as
//! time-stepping codes write them to swap two time levels without copying:
//!
//! ```fortran
//! subroutine swap(f, fn)
//!   real, pointer, intent(inout) :: f(:, :), fn(:, :)
//!   real, pointer :: tmp(:, :)
//!   tmp => f;  f => fn;  fn => tmp
//! end subroutine
//! ```
//!
//! Such a subroutine has no effect but on the pointers its caller passes, so a call of
//! it whose actual arguments are local pointers of the caller is replaced by its
//! statements, written on those pointers (its own local pointers become locals of the
//! caller, named after the callee: `tmp_swap`). The caller's pointers are then followed
//! as any local pointer is (the parent module: replaced by their targets, through
//! selectors where the target depends on the path), and nothing downstream sees the
//! call. seeds/000 §7 gives a pointer a derivative pointer that follows the primal one;
//! here the associations the callee makes are the caller's, whose derivatives are the
//! targets'.
//!
//! A call whose actual arguments are not all local pointers of the caller (a module's
//! pointer, a dummy, a component) is left as it is, and the callee's POINTER dummies
//! are refused (E0405) for the roots that reach it.
//!
//! A shuffler may declare named constants for its kinds (`integer, parameter :: PREC =
//! real64`): its local pointers, written into the caller, are replaced there like the
//! caller's own, and their declarations go with them. A generic name whose specifics
//! are shufflers for each rank (and maybe plain subroutines of other ranks: a library's
//! `swap` for scalars and pointers alike) is a shuffler for the calls whose actual
//! pointers have the rank of its shufflers' dummies, when those shufflers all associate
//! alike and no other specific takes that rank.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::Span;
use crate::il::{Attr, Decl, DeclKind, Expr, ExprKind, Stmt, StmtId, StmtKind, Unit, key};

/// A subroutine whose statements only re-associate its POINTER dummies and local
/// pointers among themselves (`=>`, `=> null()`, NULLIFY).
#[derive(Clone, Debug)]
pub struct Shuffler {
    /// Its name, as written.
    pub name: String,
    /// The module it is a procedure of (key); `None` for an external subroutine.
    pub host: Option<String>,
    /// Its dummies (keys), in order.
    pub args: Vec<String>,
    /// The declarations of its local pointers, one entity each (key → declaration).
    pub locals: BTreeMap<String, Decl>,
    pub body: Vec<Stmt>,
    /// The ranks of its dummies, in order.
    pub ranks: Vec<usize>,
    /// For a generic name: its specifics that are shufflers (the fields above are the
    /// first one's), and the ranks of the dummies of its other specifics.
    pub specifics: Vec<Shuffler>,
    pub others: Vec<Vec<usize>>,
}

/// The subroutines of `units` that are shufflers, by key; `marked` holds the spans of
/// the pointers on the left of `=>` statements.
pub fn find(units: &[Unit], marked: &BTreeSet<Span>) -> BTreeMap<String, Shuffler> {
    let hosts: BTreeSet<String> = units
        .iter()
        .filter_map(|u| u.internal_of.as_ref().map(|h| key(h)))
        .collect();
    let mut found: BTreeMap<String, Shuffler> = units
        .iter()
        .filter(|u| u.is_procedure() && !u.is_function() && u.internal_of.is_none())
        .filter(|u| !hosts.contains(&key(&u.name)))
        .filter_map(|u| shuffler(u, marked))
        .map(|s| (key(&s.name), s))
        .collect();
    if found.is_empty() {
        return found;
    }
    // Generic names of modules, their INTERFACE blocks merged.
    for m in units.iter().filter(|u| u.is_module()) {
        let mut generics: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
        for d in &m.decls {
            if let DeclKind::Generic {
                name,
                procedures,
                bodies,
            } = &d.kind
                && bodies.is_empty()
            {
                let entry = generics
                    .entry(key(name))
                    .or_insert_with(|| (name.clone(), Vec::new()));
                entry.1.extend(procedures.iter().map(|p| key(p)));
            }
        }
        for (k, (name, procedures)) in generics {
            if found.contains_key(&k) {
                continue;
            }
            let mut specifics = Vec::new();
            let mut others = Vec::new();
            for p in &procedures {
                match found
                    .get(p)
                    .filter(|s| s.host.as_deref() == Some(&key(&m.name)))
                {
                    Some(s) => specifics.push(s.clone()),
                    None => match units
                        .iter()
                        .find(|u| u.is_procedure() && key(&u.name) == *p && u.host.is_some())
                    {
                        Some(u) => others.push(dummy_ranks(u)),
                        // A specific of another file: its ranks are not known here.
                        None => {
                            specifics.clear();
                            break;
                        }
                    },
                }
            }
            let Some(first) = specifics.first() else {
                continue;
            };
            let mut generic = first.clone();
            generic.name = name;
            generic.specifics = specifics;
            generic.others = others;
            found.insert(k, generic);
        }
    }
    found
}

/// The rank of each dummy of `unit`, in order.
fn dummy_ranks(unit: &Unit) -> Vec<usize> {
    unit.args
        .iter()
        .map(|a| declared_rank(&unit.decls, a).unwrap_or(0))
        .collect()
}

/// The rank of variable `name` as `decls` declare it (its entity's dimensions, or the
/// declaration's DIMENSION).
fn declared_rank(decls: &[Decl], name: &str) -> Option<usize> {
    decls.iter().find_map(|d| match &d.kind {
        DeclKind::Var {
            attrs, entities, ..
        } => entities
            .iter()
            .find(|e| key(&e.name) == key(name))
            .map(|e| {
                let attr = attrs.iter().find_map(|a| match a {
                    Attr::Dimension(d) => Some(d.len()),
                    _ => None,
                });
                e.dims.as_ref().map(Vec::len).or(attr).unwrap_or(0)
            }),
        _ => None,
    })
}

/// What a shuffler does, with its dummies by position and its locals by first
/// appearance: two that do the same are interchangeable.
fn program(s: &Shuffler) -> Vec<(String, String)> {
    let mut locals: Vec<String> = Vec::new();
    let mut role = |e: &Expr| -> String {
        match &e.kind {
            ExprKind::Var(n) => match s.args.iter().position(|a| *a == key(n)) {
                Some(i) => format!("arg{i}"),
                None => {
                    let k = key(n);
                    let i = locals.iter().position(|l| *l == k).unwrap_or_else(|| {
                        locals.push(k);
                        locals.len() - 1
                    });
                    format!("local{i}")
                }
            },
            _ => "null".to_string(),
        }
    };
    let mut out = Vec::new();
    for t in &s.body {
        match &t.kind {
            StmtKind::Assign { lhs, rhs } => {
                let l = role(lhs);
                out.push((l, role(rhs)));
            }
            StmtKind::Call { args, .. } => {
                for a in args {
                    let l = role(&a.value);
                    out.push((l, "null".to_string()));
                }
            }
            _ => {}
        }
    }
    out
}

fn shuffler(unit: &Unit, marked: &BTreeSet<Span>) -> Option<Shuffler> {
    if unit.args.is_empty() || unit.body.is_empty() {
        return None;
    }
    let args: Vec<String> = unit.args.iter().map(|a| key(a)).collect();
    let mut pointers = BTreeSet::new();
    let mut locals = BTreeMap::new();
    for d in &unit.decls {
        match &d.kind {
            // Its kinds (`integer, parameter :: PREC = real64`).
            DeclKind::Var { attrs, .. } if attrs.iter().any(|a| matches!(a, Attr::Parameter)) => {}
            DeclKind::Var {
                spec,
                attrs,
                entities,
            } => {
                if !attrs.iter().any(|a| matches!(a, Attr::Pointer)) {
                    return None;
                }
                for e in entities {
                    let name = key(&e.name);
                    if !args.contains(&name) {
                        let attrs: Vec<Attr> = attrs
                            .iter()
                            .filter(|a| !matches!(a, Attr::Intent(_) | Attr::Save))
                            .cloned()
                            .collect();
                        let mut entity = e.clone();
                        entity.init = None;
                        let kind = DeclKind::Var {
                            spec: spec.clone(),
                            attrs,
                            entities: vec![entity],
                        };
                        locals.insert(name.clone(), Decl { kind, span: d.span });
                    }
                    pointers.insert(name);
                }
            }
            DeclKind::Implicit(_) | DeclKind::Comment(_) | DeclKind::Use { .. } => {}
            _ => return None,
        }
    }
    if !args.iter().all(|a| pointers.contains(a)) {
        return None;
    }
    let is_pointer = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if pointers.contains(&key(n)));
    let mut associations = 0;
    for s in &unit.body {
        if s.label.is_some() {
            return None;
        }
        match &s.kind {
            StmtKind::Comment(_) | StmtKind::Continue => {}
            StmtKind::Assign { lhs, rhs }
                if marked.contains(&lhs.span)
                    && is_pointer(lhs)
                    && (is_pointer(rhs) || super::allocatable::is_null(rhs)) =>
            {
                associations += 1;
            }
            StmtKind::Call { name, args }
                if name.eq_ignore_ascii_case("nullify")
                    && args.iter().all(|a| is_pointer(&a.value)) => {}
            _ => return None,
        }
    }
    (associations > 0).then(|| Shuffler {
        name: unit.name.clone(),
        host: unit.host.as_ref().map(|h| key(h)),
        args,
        locals,
        body: unit.body.clone(),
        ranks: dummy_ranks(unit),
        specifics: Vec::new(),
        others: Vec::new(),
    })
}

/// The shufflers `unit` can call, by key: the file's external ones and those of its own
/// module, and those of the modules it (or its module) uses, of this file (`own`) or
/// analyzed before (`imported`: module key → its shufflers).
fn visible<'a>(
    unit: &Unit,
    units: &[Unit],
    own: &'a BTreeMap<String, Shuffler>,
    imported: &'a BTreeMap<String, BTreeMap<String, Shuffler>>,
) -> BTreeMap<String, &'a Shuffler> {
    let home = unit.host.as_ref().map(|h| key(h));
    let mut out: BTreeMap<String, &Shuffler> = own
        .iter()
        .filter(|(_, s)| s.host.is_none() || s.host == home)
        .map(|(k, s)| (k.clone(), s))
        .collect();
    // The unit's USE statements, and its host module's.
    let host = unit.host.as_ref().and_then(|h| {
        units
            .iter()
            .find(|u| u.is_module() && key(&u.name) == key(h))
    });
    for d in unit.decls.iter().chain(host.iter().flat_map(|h| &h.decls)) {
        let DeclKind::Use {
            module,
            only,
            renames,
        } = &d.kind
        else {
            continue;
        };
        let module = key(module);
        let theirs = own
            .iter()
            .filter(|(_, s)| s.host.as_ref() == Some(&module))
            .chain(imported.get(&module).into_iter().flatten());
        for (k, s) in theirs {
            if super::use_brings(only, renames, k) {
                out.insert(k.clone(), s);
            }
        }
    }
    out
}

/// Replaces the calls of shufflers whose actual arguments are local pointers of the
/// caller by the shufflers' statements, in every procedure of `units`. The statements
/// written are said to be where the call is: `marked` gets that span for the pointers on
/// the left of their `=>`.
pub fn inline(
    units: &mut [Unit],
    own: &BTreeMap<String, Shuffler>,
    imported: &BTreeMap<String, BTreeMap<String, Shuffler>>,
    marked: &mut BTreeSet<Span>,
    next_id: &mut u32,
) {
    if own.is_empty() && imported.values().all(BTreeMap::is_empty) {
        return;
    }
    for k in 0..units.len() {
        if !units[k].is_procedure() {
            continue;
        }
        let mut callable = visible(&units[k], units, own, imported);
        callable.remove(&key(&units[k].name));
        if callable.is_empty() {
            continue;
        }
        let unit = &mut units[k];
        let locals = super::local_pointers(unit);
        let mut taken = super::selectors::names_of(std::slice::from_ref(unit));
        let mut inliner = Inliner {
            callable: &callable,
            caller_decls: &unit.decls,
            locals: &locals,
            taken: &mut taken,
            next_id,
            marked,
            decls: Vec::new(),
        };
        let body = std::mem::take(&mut unit.body);
        unit.body = inliner.block(body);
        let decls = std::mem::take(&mut inliner.decls);
        // The callee's pointers go after the caller's last declaration of a variable.
        let at = unit
            .decls
            .iter()
            .rposition(|d| matches!(d.kind, DeclKind::Var { .. }))
            .map_or(unit.decls.len(), |i| i + 1);
        unit.decls.splice(at..at, decls);
    }
}

struct Inliner<'a> {
    callable: &'a BTreeMap<String, &'a Shuffler>,
    /// The caller's declarations.
    caller_decls: &'a [Decl],
    /// The caller's local pointers (keys).
    locals: &'a BTreeSet<String>,
    taken: &'a mut BTreeSet<String>,
    next_id: &'a mut u32,
    marked: &'a mut BTreeSet<Span>,
    /// Declarations of the callees' local pointers, renamed for the caller.
    decls: Vec<Decl>,
}

impl Inliner<'_> {
    fn block(&mut self, body: Vec<Stmt>) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(body.len());
        for mut s in body {
            if let Some(stmts) = self.expand(&s) {
                out.extend(stmts);
                continue;
            }
            for b in crate::il::visit::child_blocks_mut(&mut s) {
                let inner = std::mem::take(b);
                *b = self.block(inner);
            }
            out.push(s);
        }
        out
    }

    /// The specific shuffler of generic `generic` that a call with `args` (positional,
    /// the caller's pointers) calls: the one whose dummies have the actual pointers'
    /// ranks, when no other specific has them and the shufflers that do associate alike.
    fn specific<'s>(&self, generic: &'s Shuffler, args: &[crate::il::Arg]) -> Option<&'s Shuffler> {
        let mut ranks = Vec::with_capacity(args.len());
        for a in args {
            let (None, ExprKind::Var(n)) = (&a.keyword, &a.value.kind) else {
                return None;
            };
            ranks.push(declared_rank(self.caller_decls, n)?);
        }
        if generic.others.contains(&ranks) {
            return None;
        }
        let fitting: Vec<&Shuffler> = generic
            .specifics
            .iter()
            .filter(|s| s.ranks == ranks)
            .collect();
        let first = fitting.first()?;
        let alike = fitting.iter().all(|s| program(s) == program(first));
        alike.then_some(*first)
    }

    /// The statements that replace `s` when it calls a shuffler on local pointers.
    fn expand(&mut self, s: &Stmt) -> Option<Vec<Stmt>> {
        let StmtKind::Call { name, args } = &s.kind else {
            return None;
        };
        let mut callee: &Shuffler = self.callable.get(&key(name))?;
        if !callee.specifics.is_empty() {
            callee = self.specific(callee, args)?;
        }
        if s.label.is_some() || args.len() != callee.args.len() {
            return None;
        }
        // Dummy (key) → the caller's pointer, as written; keywords bind by name.
        let mut bound: BTreeMap<String, String> = BTreeMap::new();
        for (pos, a) in args.iter().enumerate() {
            let dummy = match &a.keyword {
                Some(kw) => key(kw),
                None => callee.args[pos].clone(),
            };
            let ExprKind::Var(actual) = &a.value.kind else {
                return None;
            };
            if !self.locals.contains(&key(actual)) || !callee.args.contains(&dummy) {
                return None;
            }
            bound.insert(dummy, actual.clone());
        }
        // Two dummies bound to one pointer would alias in the callee.
        let distinct: BTreeSet<String> = bound.values().map(|a| key(a)).collect();
        if bound.len() != callee.args.len() || distinct.len() != bound.len() {
            return None;
        }
        for (local, decl) in &callee.locals {
            // `tmp_swap` for local `tmp` of `swap`.
            let base = format!("{local}_{}", name.to_ascii_lowercase());
            let fresh = super::selectors::numbered(&base, self.taken);
            bound.insert(local.clone(), fresh.clone());
            let mut decl = decl.clone();
            if let DeclKind::Var { entities, .. } = &mut decl.kind {
                for e in entities {
                    e.name = fresh.clone();
                }
            }
            self.decls.push(decl);
        }
        let rename = |e: &mut Expr| {
            if let ExprKind::Var(n) = &mut e.kind
                && let Some(to) = bound.get(&key(n))
            {
                *n = to.clone();
            }
            e.span = s.span;
        };
        self.marked.insert(s.span);
        // The call, as a comment where its statements start.
        let written: Vec<String> = args
            .iter()
            .map(|a| match (&a.keyword, &a.value.kind) {
                (Some(kw), ExprKind::Var(n)) => format!("{kw}={n}"),
                (_, ExprKind::Var(n)) => n.clone(),
                _ => String::new(),
            })
            .collect();
        let mut note = Stmt::generated(StmtKind::Comment(format!(
            " call {}({}): its pointer associations, inlined",
            name,
            written.join(", ")
        )));
        note.span = s.span;
        note.id = StmtId(*self.next_id);
        *self.next_id = self.next_id.saturating_add(1);
        let mut out = vec![note];
        for t in &callee.body {
            if matches!(t.kind, StmtKind::Comment(_) | StmtKind::Continue) {
                continue;
            }
            let mut t = t.clone();
            match &mut t.kind {
                StmtKind::Assign { lhs, rhs } => {
                    rename(lhs);
                    rename(rhs);
                }
                StmtKind::Call { args, .. } => args.iter_mut().for_each(|a| rename(&mut a.value)),
                _ => {}
            }
            t.id = StmtId(*self.next_id);
            *self.next_id = self.next_id.saturating_add(1);
            // Said where the call is.
            t.span = s.span;
            t.trailing_comment = None;
            out.push(t);
        }
        if let Some(last) = out.last_mut() {
            last.trailing_comment = s.trailing_comment.clone();
        }
        Some(out)
    }
}
