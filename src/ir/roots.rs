//! The roots of the request, checked against the program: each exists, and each of its
//! independents and dependents names a dummy argument, the function's result, or a
//! variable of a module (or COMMON block) the root sees, or a component path under one
//! of these (`s%u`, `s%cell%h`: INTERFACE.md §1, "derived-type paths allowed"). Only
//! the component a path names is independent (or dependent): the generated root takes
//! the derivatives of the structure's other components as zero (INTERFACE.md §4).
//!
//! E0120 unknown root, E0121 unknown name, E0122 not real, E0123/E0124 against the
//! INTENT, E0125 a variable of a COMMON block that cannot carry derivatives, E0126 an
//! internal procedure, E0130 a path through something that is not a structure, or to a
//! component the type does not have.

use crate::diag::{Diagnostic, suggest};
use crate::il::{self, Symbol, key};
use crate::request::RootRequest;

use super::Ir;

/// Where the variable an independent or dependent names lives, as the analyses seed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootSlot {
    /// Dummy argument `k`.
    Arg(usize),
    /// The program global ([`Ir::globals`]) `g`.
    Global(usize),
    /// The function's result.
    Result,
}

/// What one entry of a root's `independents` or `dependents` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootVariable {
    pub slot: RootSlot,
    /// The variable's name in the root (for a function's result, its result variable).
    pub base: String,
    /// The component path under it (`s%u`), when the entry names only a component.
    pub path: Option<String>,
}

/// `s%a%u` → (`s`, Some(`%a%u`)), `s` → (`s`, None).
pub fn split_path(name: &str) -> (&str, Option<&str>) {
    match name.find('%') {
        Some(i) => (&name[..i], Some(&name[i..])),
        None => (name, None),
    }
}

impl<'p> Ir<'p> {
    /// What entry `name` of root `r`'s independents (or dependents) names, or `None`
    /// when it names nothing the root has (`check_root` has said so).
    pub fn root_variable(&self, r: usize, name: &str, dependent: bool) -> Option<RootVariable> {
        let unit = self.units[r].unit;
        let (base, rest) = split_path(name);
        let (slot, base) = if let Some(k) = unit.args.iter().position(|a| key(a) == key(base)) {
            (RootSlot::Arg(k), unit.args[k].clone())
        } else if dependent && unit.is_function() && self.names_result(r, base) {
            let result = unit.result.clone().unwrap_or_else(|| unit.name.clone());
            (RootSlot::Result, result)
        } else {
            let sym = unit.symbols.get(base)?;
            (RootSlot::Global(self.global_of(r, base)?), sym.name.clone())
        };
        let path = match rest {
            Some(rest) => {
                let path = format!("{base}{rest}");
                let sym = unit.symbols.get(&path)?;
                Some(sym.name.clone())
            }
            None => None,
        };
        Some(RootVariable { slot, base, path })
    }

    /// `name` is the result of function `r`: its result variable or the function's name.
    fn names_result(&self, r: usize, name: &str) -> bool {
        let unit = self.units[r].unit;
        key(name) == key(&unit.name) || unit.result.as_deref().is_some_and(|x| key(x) == key(name))
    }

    pub(super) fn check_root(&self, root: &RootRequest) -> Vec<Diagnostic> {
        let locate = |d: Diagnostic| d.at_origin(root.origin.as_ref());
        let Some(index) = self.index_of(&root.name) else {
            let names = self.units.iter().map(|u| u.unit.name.as_str());
            let mut d = Diagnostic::error(
                "E0120",
                format!("root `{}` is not defined in any source", root.name),
            );
            d = match suggest(&root.name, names) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None => d.with_help("check the root's name and the `sources` globs"),
            };
            return vec![locate(d)];
        };
        let unit = self.units[index].unit;
        if let Some(host) = &unit.internal_of {
            return vec![locate(
                Diagnostic::error(
                    "E0126",
                    format!(
                        "root `{}` is an internal procedure of `{host}`: only `{host}` can call it",
                        root.name
                    ),
                )
                .with_help(format!(
                    "name `{host}` as the root, or move `{}` out of `{host}` (into a module, or after its END)",
                    root.name
                )),
            )];
        }
        let mut errors = Vec::new();
        for (dependent, names) in [(false, &root.independents), (true, &root.dependents)] {
            for name in names {
                // Each problem at the list entry that names the variable.
                let origin = root.entry_origin(dependent, name);
                if let Some(d) = self.check_entry(index, root, name, dependent) {
                    errors.push(d.at_origin(origin));
                }
            }
        }
        errors
    }

    /// The problem with entry `name` of `root` (unit `r`), if any.
    fn check_entry(
        &self,
        r: usize,
        root: &RootRequest,
        name: &str,
        dependent: bool,
    ) -> Option<Diagnostic> {
        let unit = self.units[r].unit;
        let what = if dependent {
            "dependent"
        } else {
            "independent"
        };
        let (base, rest) = split_path(name);
        let is_arg = unit.args.iter().any(|a| key(a) == key(base));
        let is_result = dependent && unit.is_function() && self.names_result(r, base);
        let base_sym = if is_result {
            unit.symbols
                .get(unit.result.as_deref().unwrap_or(&unit.name))
        } else {
            unit.symbols.get(base)
        };
        let global = (!is_arg && !is_result)
            .then(|| base_sym.filter(|s| s.is_variable() && s.global.is_some()))
            .flatten();
        // A variable of a COMMON block other procedures declare with other variables
        // (`prepare::common_views` EQUIVALENCEd it onto the block's piece): its
        // derivative has no place of its own in the derivative block.
        let zones = &self.units[r].zones;
        let piece = (!is_arg && !is_result && global.is_none())
            .then(|| zones.get(base))
            .flatten()
            .and_then(|z| zones.globals.iter().position(|&x| x == z))
            .map(|g| &self.globals[g].global)
            .filter(|g| g.module.starts_with('/'));
        if let Some(g) = piece {
            return Some(
                Diagnostic::error(
                    "E0125",
                    format!(
                        "{what} `{name}` of root `{}` is in COMMON {}, which other procedures \
                         declare with other variables (this storage is `{}` there): its \
                         derivative has no name of its own in the derivative block",
                        root.name, g.module, g.name
                    ),
                )
                .with_help(
                    "declare the block with the same variables everywhere (an INCLUDE \
                     file), or pass the variable to the root as an argument",
                ),
            );
        }
        let Some(base_sym) = base_sym.filter(|_| is_arg || is_result || global.is_some()) else {
            let mut candidates: Vec<&str> = unit.args.iter().map(String::as_str).collect();
            if dependent {
                candidates.extend(unit.result.as_deref());
                candidates.push(unit.name.as_str());
            }
            let d = Diagnostic::error(
                "E0121",
                format!(
                    "{what} `{name}` of root `{}` is not one of its arguments",
                    root.name
                ),
            );
            return Some(match suggest(base, candidates.iter().copied()) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None => d.with_help(format!("`{}` takes ({})", unit.name, unit.args.join(", "))),
            });
        };
        if let Some(g) = global.and_then(|s| s.global.as_ref()) {
            if let Some(refusal) = self.common(&g.module).and_then(|b| b.refusal.as_ref()) {
                return Some(
                    Diagnostic::error(
                        "E0125",
                        format!(
                            "{what} `{name}` of root `{}` is in COMMON {}, which cannot \
                             carry derivatives: {refusal}",
                            root.name, g.module
                        ),
                    )
                    .with_help(
                        "declare the block with the same variables everywhere (an INCLUDE \
                         file), or pass the variable to the root as an argument",
                    ),
                );
            }
        }
        let named = match rest {
            Some(rest) => match self.component(r, &base_sym.name, rest) {
                Ok(sym) => sym,
                Err(d) => return Some(d),
            },
            None => base_sym,
        };
        if !named.ty.is_differentiable() {
            return Some(
                Diagnostic::error(
                    "E0122",
                    format!(
                        "{what} `{name}` of root `{}` is not real, so it has no derivative",
                        root.name
                    ),
                )
                .with_help("only REAL (any kind) variables can be independent or dependent"),
            );
        }
        if global.is_some() {
            return None;
        }
        if !dependent && base_sym.intent == Some(il::Intent::Out) {
            return Some(
                Diagnostic::error(
                    "E0123",
                    format!(
                        "independent `{name}` of root `{}` is INTENT(OUT), so it is not an input",
                        root.name
                    ),
                )
                .with_help("independents must be inputs; name it as a dependent instead"),
            );
        }
        if dependent && base_sym.intent == Some(il::Intent::In) {
            return Some(
                Diagnostic::error(
                    "E0124",
                    format!(
                        "dependent `{name}` of root `{}` is INTENT(IN), so it is not an output",
                        root.name
                    ),
                )
                .with_help("dependents must be outputs of the root"),
            );
        }
        None
    }

    /// The component `base` + `rest` (`%a%u`) of unit `r`, or E0130 at the first step
    /// that is not a component of the structure before it.
    fn component(&self, r: usize, base: &str, rest: &str) -> Result<&'p Symbol, Diagnostic> {
        let symbols = &self.units[r].unit.symbols;
        let mut path = base.to_string();
        for field in rest.split('%').skip(1) {
            let parent = symbols.get(&path);
            if parent.is_none_or(|s| s.ty != il::ScalarType::Derived) {
                return Err(Diagnostic::error(
                    "E0130",
                    format!("`{path}` is not a structure, so it has no component `{field}`"),
                )
                .with_help("a path names a component of a derived-type variable: `s%u`"));
            }
            let next = format!("{path}%{field}");
            if symbols.get(&next).is_none() {
                let prefix = format!("{}%", key(&path));
                let fields: Vec<&str> = symbols
                    .components_of(&path)
                    .map(|c| &c.name[prefix.len()..])
                    .filter(|f| !f.contains('%'))
                    .collect();
                let d = Diagnostic::error("E0130", format!("`{path}` has no component `{field}`"));
                return Err(match suggest(field, fields.iter().copied()) {
                    Some(s) => d.with_help(format!("did you mean `{path}%{s}`?")),
                    None => d.with_help(format!("its components are: {}", fields.join(", "))),
                });
            }
            path = next;
        }
        symbols
            .get(&path)
            .ok_or_else(|| Diagnostic::error("E0130", format!("`{path}` is not a component path")))
    }
}
