//! `extern` globals: a global declared `extern` in one file (usually through a user
//! header) and defined in another is one global, the defining file's. Each file is
//! lowered alone, so an `extern` global's symbols leave their module empty; once every
//! file is lowered, [`resolve`] names the pseudo-module of the file that defines it
//! (`lower::globals`: one pseudo-module per file), so that analyses see one zone and the
//! derivative global is defined once, in the defining file's generated code, and
//! declared `extern` elsewhere.
//!
//! E0611: an `extern` global that no C source of the program defines, or defines with
//! another type or shape.

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::il::{self, Program, Symbol, key};

/// Gives each `extern` global its defining module; diagnostics for those undefined.
pub fn resolve(program: &mut Program) -> Vec<Diagnostic> {
    // The globals each C pseudo-module defines: name → (module, symbol).
    let mut defined: BTreeMap<String, (String, Symbol)> = BTreeMap::new();
    for file in program
        .files
        .iter()
        .filter(|f| f.language == il::Language::C)
    {
        for m in file.units.iter().filter(|u| u.is_module()) {
            for s in m.symbols.iter() {
                let own = s
                    .global
                    .as_ref()
                    .is_some_and(|g| key(&g.module) == key(&m.name));
                if own && s.is_variable() && !s.name.contains('%') {
                    defined
                        .entry(key(&s.name))
                        .or_insert((m.name.clone(), s.clone()));
                }
            }
        }
    }
    let mut out = Vec::new();
    for file in program
        .files
        .iter_mut()
        .filter(|f| f.language == il::Language::C)
    {
        let mut reported = std::collections::BTreeSet::new();
        for unit in &mut file.units {
            for s in unit.symbols.iter_mut() {
                let Some(name) = s
                    .global
                    .as_ref()
                    .filter(|g| g.module.is_empty())
                    .map(|g| g.name.clone())
                else {
                    continue;
                };
                let base = key(name.split('%').next().unwrap_or(&name));
                match defined.get(&base) {
                    Some((module, def)) if s.name.contains('%') || same_shape(s, def) => {
                        if let Some(g) = s.global.as_mut() {
                            g.module = module.clone();
                        }
                    }
                    found => {
                        if reported.insert(base.clone()) {
                            let message = match found {
                                Some((module, _)) => format!(
                                    "the `extern` global `{}` is defined with another type \
                                     or shape (in `{module}`)",
                                    s.name
                                ),
                                None => format!(
                                    "the `extern` global `{}` is defined by no C source of \
                                     the program",
                                    s.name
                                ),
                            };
                            out.push(Diagnostic::error("E0611", message).at(s.span).with_help(
                                "add the file that defines it to the manifest's \
                                     `sources`, or declare it as it is defined",
                            ));
                        }
                    }
                }
            }
        }
    }
    out
}

fn same_shape(a: &Symbol, b: &Symbol) -> bool {
    let extents = |s: &Symbol| -> Vec<String> {
        s.dims
            .iter()
            .map(|d| match &d.upper {
                il::Bound::Expr(e) => crate::il::visit::expr_key(e),
                _ => "*".to_string(),
            })
            .collect()
    };
    a.ty == b.ty && a.type_spec.type_name == b.type_spec.type_name && extents(a) == extents(b)
}
