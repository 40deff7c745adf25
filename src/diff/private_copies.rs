//! PRIVATE entities of modules that derivative code needs. Derivative code of a module's
//! procedures lives in another module (`m_d` for `m`), which sees only the original's
//! PUBLIC names; what it needs and cannot see is copied into it, as private entities of
//! its own:
//! - a PRIVATE procedure (a passive helper, a primal the adjoint runs again) or named
//!   constant (a table of weights) of the original module;
//! - a procedure lifted out of its host (`internal_of`), which no module defines;
//! - the primal of a specialized copy of another module's PRIVATE procedure, relocated
//!   into this one (`prepare::relocate`, [`il::Specialization::lent`]): its original
//!   cannot be called from here;
//! - a PRIVATE procedure or constant of another module that one of these (or the
//!   original's procedures, through a relocated copy) took by host association. A
//!   procedure copied from another module gets USE statements of its own for the public
//!   names it took from its module; a constant is written with its kinds as numbers
//!   (`real(8), parameter :: epmach = ...`), so that it needs no name of its module.
//!
//! Refused (E0512), with the name: a PRIVATE module variable (its value lives in its
//! module only) or derived type, and a copy that would take a name the original module
//! already has.

use std::collections::{BTreeMap, BTreeSet};

use super::modules::is_file_module;
use super::*;

/// Copies into each derivative module of `units` what its code needs (see the module
/// doc).
pub(super) fn copy_private_procedures(
    ctx: &Ctx,
    units: &mut Vec<Unit>,
    errors: &mut Vec<Diagnostic>,
) {
    let mut m = 0;
    while m < units.len() {
        if !units[m].is_module() {
            m += 1;
            continue;
        }
        let dname = key(&units[m].name);
        let Some(original) = ctx.program.units().filter(|u| u.is_module()).find(|u| {
            ctx.module_names
                .get(crate::il::key_ref(&u.name).as_ref())
                .map(|d| key(d))
                == Some(dname.clone())
        }) else {
            m += 1;
            continue;
        };
        let end = units[m + 1..]
            .iter()
            .position(|u| u.host.as_ref().is_none_or(|h| key(h) != dname))
            .map_or(units.len(), |p| m + 1 + p);
        let mut copier = Copier::new(ctx, original, &units[m].name);
        let mut pending: Vec<BTreeSet<String>> = units[m + 1..end].iter().map(names_in).collect();
        while let Some(names) = pending.pop() {
            for name in names {
                copier.need(&name, &mut pending, errors);
            }
        }
        let Copier {
            mut constants,
            copies,
            uses,
            ..
        } = copier;
        // Constants in their modules' order: each after those it is defined from.
        constants.sort_by_key(|(at, _)| *at);
        let at = units[m]
            .decls
            .iter()
            .position(|d| matches!(d.kind, DeclKind::Implicit(_)))
            .map_or(units[m].decls.len(), |p| p + 1);
        let decls: Vec<Decl> = use_decls(uses)
            .into_iter()
            .chain(constants.into_iter().map(|(_, d)| d))
            .collect();
        for (i, d) in decls.into_iter().enumerate() {
            units[m].decls.insert(at + i, d);
        }
        let n = copies.len();
        for (i, c) in copies.into_iter().enumerate() {
            units.insert(end + i, c);
        }
        m = end + n;
    }
}

/// What one derivative module gets copied.
struct Copier<'c> {
    ctx: &'c Ctx<'c>,
    /// The original module.
    original: &'c Unit,
    /// The derivative module's name.
    host: String,
    /// The module (key) each name (key) comes from, as the units copied and the
    /// original module's procedures see it; a name not there is the original's.
    owners: BTreeMap<String, String>,
    seen: BTreeSet<String>,
    copies: Vec<Unit>,
    /// The constants, each with (its module's position, its place in the module).
    constants: Vec<((usize, usize), Decl)>,
    /// Module-level USE the copied constants need: module → (local, remote) names.
    uses: BTreeMap<String, BTreeSet<(String, String)>>,
    modules: Vec<&'c Unit>,
}

impl<'c> Copier<'c> {
    fn new(ctx: &'c Ctx<'c>, original: &'c Unit, host: &str) -> Copier<'c> {
        let mut owners = BTreeMap::new();
        for p in ctx.program.procedures().filter(|p| {
            p.host
                .as_ref()
                .is_some_and(|h| key(h) == key(&original.name))
        }) {
            note_owners(p, &mut owners);
        }
        Copier {
            ctx,
            original,
            host: host.to_string(),
            owners,
            seen: BTreeSet::new(),
            copies: Vec::new(),
            constants: Vec::new(),
            uses: BTreeMap::new(),
            modules: ctx.program.units().filter(|u| u.is_module()).collect(),
        }
    }

    /// Name (key) `name` is referred to by code of the derivative module: copies what
    /// it names if the module cannot see it, with the names that needs in `pending`.
    fn need(
        &mut self,
        name: &str,
        pending: &mut Vec<BTreeSet<String>>,
        errors: &mut Vec<Diagnostic>,
    ) {
        if !self.seen.insert(name.to_string()) {
            return;
        }
        let home = match self.owners.get(name) {
            Some(o) => self.modules.iter().position(|u| key(&u.name) == *o),
            None => self
                .modules
                .iter()
                .position(|u| std::ptr::eq(*u, self.original)),
        };
        let Some(at_module) = home else { return };
        let owner = self.modules[at_module];
        let foreign = !std::ptr::eq(owner, self.original);
        let procedure = self.ctx.program.procedures().find(|p| {
            key(&p.name) == name && p.host.as_ref().is_some_and(|h| key(h) == key(&owner.name))
        });
        // A procedure lifted out of its host, or a copy of another module's PRIVATE one,
        // is no procedure of the module: like a PRIVATE one, it gets its own copy.
        let unowned = procedure.is_some_and(|p| {
            p.internal_of.is_some() || p.specialization.as_ref().is_some_and(|s| s.lent)
        });
        if !unowned && !owner.is_private(name) {
            return;
        }
        // (sema keeps a used module's PRIVATE names in the user's table, as that
        // module's: only another entity of the name is a clash.)
        let theirs = (key(&owner.name), name.to_string());
        let clash = self
            .original
            .symbols
            .get(name)
            .is_some_and(|o| o.global.as_ref().map(il::GlobalRef::key) != Some(theirs.clone()));
        if foreign && clash {
            errors.push(
                Diagnostic::error(
                    "E0512",
                    format!(
                        "derivative code needs `{name}`, which is PRIVATE in module `{}`, and \
                         module `{}` has a name `{name}` of its own",
                        owner.name, self.original.name
                    ),
                )
                .at(self.original.span)
                .with_help(format!(
                    "rename one of the two: derivative code of `{}` gets a copy of `{name}` \
                     beside the names of `{}`",
                    self.original.name, self.original.name
                )),
            );
            return;
        }
        if let Some(p) = procedure {
            let mut copy = p.clone();
            copy.host = Some(self.host.clone());
            crate::prepare::specialize::unspecialize_calls(&mut copy, &self.ctx.procedures);
            if foreign {
                self.import_into(&mut copy, owner, errors);
            }
            note_owners(p, &mut self.owners);
            pending.push(names_in(&copy));
            self.copies.push(copy);
            return;
        }
        let Some(sym) = owner.symbols.get(name) else {
            return;
        };
        if sym.kind == il::SymbolKind::Constant {
            if let Some((at, mut decl)) = constant_decl(owner, name) {
                let names = il::visit::decls_names(std::slice::from_ref(&decl));
                if foreign {
                    numeric_kinds(&mut decl, sym.ty);
                    note_owners(owner, &mut self.owners);
                    self.import_constant_names(&names, owner, errors);
                }
                pending.push(names);
                self.constants.push(((at_module, at), decl));
            }
        } else if sym.is_variable() && !is_file_module(self.ctx, owner) {
            errors.push(
                Diagnostic::error(
                    "E0512",
                    format!(
                        "derivative code needs `{}`, which is PRIVATE in module `{}`",
                        sym.name, owner.name
                    ),
                )
                .at(if sym.span == Span::default() {
                    owner.span
                } else {
                    sym.span
                })
                .with_help(format!(
                    "make `{}` PUBLIC: derivative modules see only the public names of `{}`",
                    sym.name, owner.name
                )),
            );
        }
    }

    /// USE statements in `copy`, a procedure of module `owner` copied elsewhere, for
    /// the public names it took from `owner` by host association (those of `owner`
    /// itself, and those `owner` took from other modules).
    fn import_into(&self, copy: &mut Unit, owner: &Unit, errors: &mut Vec<Diagnostic>) {
        let own_uses: BTreeSet<String> = copy
            .decls
            .iter()
            .filter_map(|d| match &d.kind {
                DeclKind::Use { module, .. } => Some(key(module)),
                _ => None,
            })
            .collect();
        let mut uses: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
        let used = names_in(copy);
        for s in copy.symbols.iter() {
            let Some(g) = &s.global else { continue };
            if !used.contains(&key(&s.name))
                || g.module.starts_with(['/', '#'])
                || key(&s.name) == key(&copy.name)
                || own_uses.contains(&key(&g.module))
            {
                continue;
            }
            if key(&g.module) == key(&owner.name) {
                // PRIVATE ones are copied beside it.
                if !owner.is_private(&s.name) {
                    uses.entry(owner.name.clone())
                        .or_default()
                        .insert((s.name.clone(), s.name.clone()));
                }
            } else {
                uses.entry(g.module.clone())
                    .or_default()
                    .insert((s.name.clone(), g.name.clone()));
            }
        }
        for t in copy.decls.iter().filter_map(|d| match &d.kind {
            DeclKind::Var { spec, .. } => spec.type_name.clone(),
            _ => None,
        }) {
            let defines = owner
                .decls
                .iter()
                .any(|d| matches!(&d.kind, DeclKind::TypeDef { name, .. } if key(name) == key(&t)));
            if !defines {
                continue;
            }
            if owner.is_private(&t) {
                errors.push(
                    Diagnostic::error(
                        "E0512",
                        format!(
                            "derivative code needs type `{t}`, which is PRIVATE in module `{}`",
                            owner.name
                        ),
                    )
                    .at(owner.span)
                    .with_help(format!(
                        "make `{t}` PUBLIC: derivative modules see only the public names of `{}`",
                        owner.name
                    )),
                );
            } else {
                uses.entry(owner.name.clone())
                    .or_default()
                    .insert((t.clone(), t.clone()));
            }
        }
        let mut decls = use_decls(uses);
        decls.append(&mut copy.decls);
        copy.decls = decls;
    }

    /// The names a constant copied from module `owner` is defined from, where they are
    /// public: seen by the derivative module already (the original sees the same
    /// entity), else imported at its top.
    fn import_constant_names(
        &mut self,
        names: &BTreeSet<String>,
        owner: &Unit,
        errors: &mut Vec<Diagnostic>,
    ) {
        for n in names {
            let Some(s) = owner.symbols.get(n) else {
                continue;
            };
            let Some(g) = &s.global else { continue };
            let entity = g.key();
            let private = key(&g.module) == key(&owner.name) && owner.is_private(n);
            if private || g.module.starts_with(['/', '#']) {
                continue;
            }
            match self.original.symbols.get(n) {
                Some(o) if o.global.as_ref().map(|g| g.key()) == Some(entity.clone()) => {}
                Some(_) => errors.push(
                    Diagnostic::error(
                        "E0512",
                        format!(
                            "derivative code needs `{}` of module `{}`, and module `{}` has \
                             a name `{}` of its own",
                            s.name, g.module, self.original.name, s.name
                        ),
                    )
                    .at(self.original.span)
                    .with_help("rename one of the two"),
                ),
                None => {
                    self.uses
                        .entry(g.module.clone())
                        .or_default()
                        .insert((s.name.clone(), g.name.clone()));
                }
            }
        }
    }
}

/// USE declarations, one per module: `use m, only: a, b => c`.
fn use_decls(uses: BTreeMap<String, BTreeSet<(String, String)>>) -> Vec<Decl> {
    uses.into_iter()
        .map(|(module, names)| Decl {
            kind: DeclKind::Use {
                module,
                only: Some(names.iter().map(|(l, _)| l.clone()).collect()),
                renames: names
                    .into_iter()
                    .filter(|(l, r)| key(l) != key(r))
                    .collect(),
            },
            span: Span::default(),
        })
        .collect()
}

/// Records the module of each name `unit` refers to and took from a module (by host or
/// use association, under its own name). (Its symbol table also holds the names it
/// could see and does not use, PRIVATE ones of used modules included.)
fn note_owners(unit: &Unit, owners: &mut BTreeMap<String, String>) {
    let used = names_in(unit);
    for s in unit.symbols.iter() {
        if !used.contains(&key(&s.name)) {
            continue;
        }
        if let Some(g) = &s.global
            && key(&g.name) == key(&s.name)
            && !g.module.starts_with(['/', '#'])
        {
            owners.entry(key(&s.name)).or_insert_with(|| key(&g.module));
        }
    }
}

/// A constant's declaration with its kinds written as numbers: the kind of its type
/// (`real(wp)` as `real(8)`) and of the real literals of its value (`1.0_wp` as
/// `1.0d0`).
fn numeric_kinds(decl: &mut Decl, ty: ScalarType) {
    let DeclKind::Var { spec, entities, .. } = &mut decl.kind else {
        return;
    };
    if spec.kind.is_some() {
        let kind = match ty {
            ScalarType::Real(k) | ScalarType::Integer(k) | ScalarType::Complex(k) => Some(k),
            _ => None,
        };
        if let Some(k) = kind {
            spec.kind = Some(Expr::int(i64::from(k)));
            spec.kind_keyword = false;
        }
    }
    for e in entities.iter_mut().filter_map(|e| e.init.as_mut()) {
        il::visit::walk_expr_mut_post(e, &mut |x| {
            if let ExprKind::Real(lit) = &mut x.kind
                && lit.spelling.as_deref().is_some_and(|s| s.contains('_'))
            {
                lit.spelling = None;
            }
        });
    }
}

/// Names (keys) a unit refers to anywhere: in its body, its declarations' bounds, values
/// and kinds, and the kinds of its literals (`1.0_wp`).
fn names_in(u: &Unit) -> BTreeSet<String> {
    let mut names = unit_names(u);
    let literal = |text: &str| {
        text.rsplit_once('_')
            .map(|(_, kind)| kind)
            .filter(|kind| kind.starts_with(|c: char| c.is_ascii_alphabetic()))
            .map(key)
    };
    let mut kinds = |e: &Expr| {
        il::visit::walk_expr(e, &mut |x| {
            let name = match &x.kind {
                ExprKind::Real(lit) => literal(lit.spelling.as_deref().unwrap_or("")),
                ExprKind::Int(text) => literal(text),
                ExprKind::Var(n) => Some(key(n)),
                _ => None,
            };
            names.extend(name);
        })
    };
    il::visit::walk_stmts(&u.body, &mut |s| {
        for e in il::visit::stmt_exprs(s) {
            kinds(e);
        }
    });
    for d in &u.decls {
        if let DeclKind::Var { spec, entities, .. } = &d.kind {
            spec.kind.iter().for_each(&mut kinds);
            entities
                .iter()
                .filter_map(|e| e.init.as_ref())
                .for_each(&mut kinds);
        }
    }
    names
}

/// Names (keys) a unit refers to, in its body and in its declarations; not the
/// specifics it calls through a generic name, an operator or a binding
/// ([`Unit::source_calls`]), which it prints so.
fn unit_names(u: &Unit) -> BTreeSet<String> {
    let mut names = il::visit::referenced_names(&u.body);
    names.extend(il::visit::decls_names(&u.decls));
    names.retain(|n| !u.source_calls.contains_key(n));
    names
}

/// The declaration of named constant `name` of `module`, alone (`real(dp), parameter ::
/// c = ...`), with its position among the module's declarations.
fn constant_decl(module: &Unit, name: &str) -> Option<(usize, Decl)> {
    module.decls.iter().enumerate().find_map(|(at, d)| {
        if !d.is_constants() {
            return None;
        }
        d.restricted(|e| key(&e.name) == name, d.span)
            .map(|one| (at, one))
    })
}

/// The variables that procedures outside derivative modules (external roots' derivatives)
/// save and restore on the tape although a module keeps them PRIVATE (the caller's name
/// an error routine notes and returns): E0512, as for derivative modules, instead of
/// code that does not compile.
pub(super) fn private_saved(ctx: &Ctx, units: &[Unit], errors: &mut Vec<Diagnostic>) {
    for u in units
        .iter()
        // (An internal procedure also sees its host's variables, which it would not
        // declare.)
        .filter(|u| u.is_procedure() && u.host.is_none() && u.internal_of.is_none())
    {
        let own: BTreeSet<String> = u
            .args
            .iter()
            .map(|a| key(a))
            .chain(il::visit::decls_names(&u.decls).iter().map(|n| key(n)))
            .collect();
        let mut saved = BTreeSet::new();
        il::visit::walk_stmts(&u.body, &mut |s| {
            if let StmtKind::Tape(t) = &s.kind
                && let Some(n) = t.value.base_name()
                && !own.contains(&key(n))
            {
                saved.insert(key(n));
            }
        });
        for n in saved {
            // The modules that declare a variable of that name: refused only when each
            // keeps it PRIVATE (the name may be another module's public one).
            let declaring: Vec<&Unit> = ctx
                .program
                .units()
                .filter(|m| m.is_module())
                .filter(|m| {
                    m.symbols.get(&n).is_some_and(|s| {
                        s.is_variable()
                            && s.global
                                .as_ref()
                                .is_none_or(|g| key(&g.module) == key(&m.name))
                    })
                })
                .collect();
            let Some(m) = declaring.first().copied() else {
                continue;
            };
            if !declaring.iter().all(|m| m.is_private(&n)) {
                continue;
            }
            let sym = m.symbols.get(&n).expect("found");
            // Said as for derivative modules: one error where both find it.
            let d = Diagnostic::error(
                "E0512",
                format!(
                    "derivative code needs `{}`, which is PRIVATE in module `{}`",
                    sym.name, m.name
                ),
            )
            .at(if sym.span == Span::default() {
                m.span
            } else {
                sym.span
            })
            .with_help(format!(
                "make `{}` PUBLIC: derivative modules see only the public names of `{}`",
                sym.name, m.name
            ));
            if !errors.iter().any(|e| e.identity() == d.identity()) {
                errors.push(d);
            }
        }
    }
}
