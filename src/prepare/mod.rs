//! Preparation: the rewrites of the lowered program that run before any analysis, in this
//! order (as [`crate::differentiate`] calls them), each IL in, IL out:
//!
//! 0. [`reached`] keeps the Fortran procedures the roots reach (and every module and
//!    C unit but the stand-ins of C functions the front-end refused): a construct adgen
//!    cannot rewrite or lower in a procedure no root calls never blocks a root.
//!    [`common_views::unify`] then makes every procedure declare each COMMON block with
//!    the same variables (the others EQUIVALENCEd onto them).
//! 1. [`io::strip`] drops output statements from what gets differentiated (the
//!    derivative computes, it does not print); a procedure holding input is kept as
//!    written, for the analyses to judge (`analysis::input`).
//! 2. [`restructure::restructure`] turns jumps (GO TO, arithmetic IF, computed GO TO,
//!    SELECT CASE) into structured IF, DO, EXIT and RETURN, which the adjoint reverses
//!    (seeds/000 §4.4, §5.5).
//! 3. [`scalarize::scalarize`] turns array syntax into loops over scalars (seeds/000
//!    §4.11).
//! 4. [`normalize::normalize`] hoists function calls out of larger expressions
//!    (seeds/000 §4.5).
//!
//! One more runs later, only when the analyses refuse SAVE locals (E0514, E0515):
//! [`saved_state::relocate`] gives them modules of their own, and the analyses run
//! again on the program it returns.
//!
//! The parsed program keeps the source's own form for the round trip; only the prepared
//! copy goes on to the call graph, the analyses and the differentiator. This layer
//! reads and writes the IL only: it knows nothing of the stages after it, the front-ends
//! or the back-ends.

pub mod black_box;
pub mod common_views;
pub mod directives;
pub mod io;
pub mod normalize;
pub mod relocate;
pub mod restructure;
pub mod saved_state;
pub mod scalarize;
pub mod sizes;
pub mod specialize;
pub mod spelling;
mod unspecialized;

use crate::diag::Diagnostic;
use crate::il::Program;
use crate::request::Request;

/// The four rewrites in order: the program that the analyses and the differentiator read.
pub fn prepare(program: Program, request: &Request) -> Result<Program, Vec<Diagnostic>> {
    // Each pass takes the program and gives it back changed: the passes that need the
    // unchanged program while they change it copy just the units they change.
    // Size hints first: they may name a procedure that no root reaches.
    let program = sizes::apply(program, request)?;
    // Black boxes before the reach: a defined one loses its body and what it calls.
    let program = black_box::apply(program, request)?;
    // Procedure arguments: a copy of the callee per procedure passed, before the reach
    // (a copy's calls are what the roots reach).
    let mut program = specialize::specialize(program);
    unspecialized::refuse(&mut program);
    let program = reached(program, request);
    // A reached procedure's refusals: its unsupported constructs (E04xx), and a module it
    // USEs that the sources lack (E0313). The semantic errors found beside them are
    // their consequences and are not repeated.
    // The C front-end's (E06xx) wait in the stand-in of a function it could not lower.
    // Each is said once, however many units repeat it.
    let mut deferred: Vec<Diagnostic> = Vec::new();
    let mut said = std::collections::BTreeSet::new();
    for u in program.units() {
        for d in &u.deferred {
            // (E0313: a procedure that USEs a module the sources lack.)
            let refusal = ((d.code.starts_with("E04") || d.code.starts_with("E06"))
                && !d.is_semantic())
                || d.code == "E0313"
                || d.code == "E0503";
            if refusal && said.insert(d.identity()) {
                deferred.push(d.clone());
            }
        }
    }
    for d in refused_module_entities(&program) {
        if said.insert(d.identity()) {
            deferred.push(d);
        }
    }
    if !deferred.is_empty() {
        return Err(deferred);
    }
    let program = common_views::unify(program);
    let program = sizes::from_callers(program, request);
    let program = io::strip(program, request);
    let program = restructure::restructure(program)?;
    let program = scalarize::scalarize(program)?;
    Ok(normalize::normalize(program))
}

/// The refusals of module declarations (`Unit::deferred_entities`) that a reached
/// procedure needs: it uses one of the names they declare (by USE or host association),
/// or a variable of a type that is one of them or contains one, at any depth. Each is
/// said once.
fn refused_module_entities(program: &Program) -> Vec<Diagnostic> {
    use crate::il::{DeclKind, key};
    use std::collections::{BTreeMap, BTreeSet};
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let mut diags: Vec<&Diagnostic> = Vec::new();
    for m in program.units().filter(|u| u.is_module()) {
        for (names, d) in &m.deferred_entities {
            for n in names {
                refused.insert(key(n), diags.len());
            }
            diags.push(d);
        }
    }
    if refused.is_empty() {
        return Vec::new();
    }
    // Types containing a refused type are refused with it.
    loop {
        let mut grown = false;
        for m in program.units().filter(|u| u.is_module()) {
            for d in &m.decls {
                let DeclKind::TypeDef {
                    name, components, ..
                } = &d.kind
                else {
                    continue;
                };
                if refused.contains_key(crate::il::key_ref(name).as_ref()) {
                    continue;
                }
                let inner = components.iter().find_map(|c| match &c.kind {
                    DeclKind::Var { spec, .. } => spec
                        .type_name
                        .as_ref()
                        .and_then(|t| refused.get(crate::il::key_ref(t).as_ref()).copied()),
                    _ => None,
                });
                if let Some(i) = inner {
                    refused.insert(key(name), i);
                    grown = true;
                }
            }
        }
        if !grown {
            break;
        }
    }
    let mut said = BTreeSet::new();
    let mut out = Vec::new();
    for u in program.units().filter(|u| u.is_procedure()) {
        // A module variable the procedure sees but never names blocks nothing.
        let named = crate::il::visit::referenced_names(&u.body);
        for sym in u.symbols.iter() {
            let by_name = sym
                .global
                .as_ref()
                .filter(|_| named.contains(&key(&sym.name)))
                .and_then(|g| refused.get(crate::il::key_ref(&g.name).as_ref()));
            let by_type = sym
                .type_spec
                .type_name
                .as_ref()
                .and_then(|t| refused.get(crate::il::key_ref(t).as_ref()));
            for &i in by_name.into_iter().chain(by_type) {
                if said.insert(i) {
                    out.push(diags[i].clone());
                }
            }
        }
    }
    out
}

/// The program without the Fortran procedures that no root reaches: reached are the
/// roots and every procedure whose name a reached unit mentions (called, or passed as an
/// argument). Modules and C units are all kept (their names bind in other ways).
pub fn reached(program: Program, request: &Request) -> Program {
    use crate::il::{Language, key, visit};
    use std::collections::BTreeSet;
    // C functions are kept (their names bind in other ways), but for the stand-ins of
    // those the front-end refused.
    let is_candidate = |lang: Language, u: &crate::il::Unit| {
        u.is_procedure() && (lang == Language::Fortran || u.is_stand_in())
    };
    let mut reached: BTreeSet<String> = request.roots.iter().map(|r| key(&r.name)).collect();
    let mut work: Vec<String> = reached.iter().cloned().collect();
    let mut by_name: std::collections::BTreeMap<String, Vec<&crate::il::Unit>> = Default::default();
    for u in program.units() {
        by_name.entry(key(&u.name)).or_default().push(u);
    }
    while let Some(name) = work.pop() {
        for u in by_name.get(&name).into_iter().flatten() {
            for n in visit::referenced_names(&u.body) {
                if reached.insert(n.clone()) {
                    work.push(n);
                }
            }
        }
    }
    let mut out = program;
    for file in &mut out.files {
        let lang = file.language;
        file.units.retain(|u| {
            !is_candidate(lang, u) || reached.contains(crate::il::key_ref(&u.name).as_ref())
        });
    }
    out
}
