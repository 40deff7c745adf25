//! The IR built over the IL: call graph, flow graphs and zones (seeds/000 §3, §5.1), and
//! the check that every root of the request exists with the arguments it names: its
//! independents and dependents are dummy arguments, the function's result, or variables
//! of a module the root sees (INTERFACE.md §1; E0120 unknown root, E0121 unknown name,
//! E0122 not real, E0123/E0124 against the INTENT, E0125 a variable of a COMMON block
//! that cannot carry derivatives, E0126 an
//! internal procedure).

pub mod callgraph;
pub mod commons;
pub mod flow;
pub mod zones;

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, suggest};
use crate::il::visit::called_names;
use crate::il::{self, Unit, key};
use crate::request::{Request, RootRequest};

pub use callgraph::CallGraph;
pub use flow::{FlowGraph, NodeId, NodeKind};
pub use zones::{GlobalInfo, ZoneId, ZoneSet, Zones};

/// One unit with its zones and flow graph.
#[derive(Debug)]
pub struct UnitIr<'p> {
    pub unit: &'p Unit,
    pub zones: Zones,
    pub flow: FlowGraph<'p>,
}

/// Call graph, flow graphs and zones of a program. Units are indexed in program order.
#[derive(Debug)]
pub struct Ir<'p> {
    pub units: Vec<UnitIr<'p>>,
    pub call_graph: CallGraph,
    /// The program's module variables, then the variables of its COMMON blocks that
    /// can carry derivatives: every unit has a zone for each.
    pub globals: Vec<GlobalInfo>,
    /// The program's COMMON blocks.
    pub commons: Vec<commons::CommonBlock<'p>>,
    by_key: BTreeMap<String, usize>,
    /// Per unit, the globals it or its callees may overwrite (keys), computed once by
    /// `analysis::access::global_writes`.
    pub global_writes: std::sync::OnceLock<GlobalWrites>,
}

/// Sets of globals (module, name keys) per unit, shared where they are equal.
pub type GlobalWrites = Vec<std::sync::Arc<std::collections::BTreeSet<(String, String)>>>;

impl<'p> Ir<'p> {
    pub fn build(program: &'p il::Program, request: &Request) -> Result<Ir<'p>, Vec<Diagnostic>> {
        let mut units = Vec::new();
        let mut by_key = BTreeMap::new();
        let mut errors = Vec::new();
        let commons = commons::common_blocks(program);
        let mut globals: Vec<GlobalInfo> = program
            .units()
            .filter(|u| u.is_module())
            .flat_map(|m| {
                m.symbols
                    .iter()
                    // Its own variables: not those it uses from other modules.
                    .filter(|s| {
                        s.is_variable()
                            && !s.name.contains('%')
                            && s.global
                                .as_ref()
                                .is_none_or(|g| il::key(&g.module) == il::key(&m.name))
                    })
                    .map(|s| GlobalInfo {
                        global: il::GlobalRef {
                            module: m.name.clone(),
                            name: s.name.clone(),
                        },
                        ty: s.ty,
                        is_array: s.is_array(),
                    })
            })
            .collect();
        for block in commons.iter().filter(|b| b.is_active_capable()) {
            for v in &block.variables {
                let Some(s) = block.declared_by.symbols.get(v) else {
                    continue;
                };
                globals.push(GlobalInfo {
                    global: il::GlobalRef {
                        module: block.module.clone(),
                        name: s.name.clone(),
                    },
                    ty: s.ty,
                    is_array: s.is_array(),
                });
            }
        }
        for unit in program.procedures() {
            if let Some(&first) = by_key.get(crate::il::key_ref(&unit.name).as_ref()) {
                let first: &UnitIr = &units[first];
                errors.push(
                    Diagnostic::error(
                        "E0312",
                        format!("procedure `{}` is defined twice", unit.name),
                    )
                    .at(unit.span)
                    .with_help(format!(
                        "the first definition is at byte {} of the same or another source; \
                         keep one",
                        first.unit.span.lo
                    )),
                );
                continue;
            }
            by_key.insert(key(&unit.name), units.len());
            units.push(UnitIr {
                unit,
                zones: Zones::of_unit(unit, &globals),
                flow: FlowGraph::build(&unit.body),
            });
        }
        let mut calls = Vec::new();
        for (caller, u) in units.iter().enumerate() {
            for callee in called_names(u.unit) {
                if let Some(&c) = by_key.get(crate::il::key_ref(&callee).as_ref()) {
                    calls.push((caller, c));
                }
            }
        }
        let ir = Ir {
            call_graph: CallGraph::new(units.len(), &calls),
            units,
            globals,
            commons,
            by_key,
            global_writes: Default::default(),
        };
        for root in &request.roots {
            errors.extend(ir.check_root(root));
        }
        if errors.is_empty() {
            Ok(ir)
        } else {
            Err(errors)
        }
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.by_key.get(crate::il::key_ref(name).as_ref()).copied()
    }

    /// The program global (index into [`Ir::globals`]) that `name` is in unit `u`: a
    /// module variable it sees by USE or host association, or a variable of a COMMON
    /// block it declares.
    pub fn global_of(&self, u: usize, name: &str) -> Option<usize> {
        let sym = self.units[u].unit.symbols.get(name)?;
        let g = sym.global.as_ref()?;
        if !sym.is_variable() {
            return None;
        }
        self.globals.iter().position(|x| x.global.key() == g.key())
    }

    /// The COMMON block of global module `module` (`/name/`).
    pub fn common(&self, module: &str) -> Option<&commons::CommonBlock<'p>> {
        self.commons.iter().find(|b| key(&b.module) == key(module))
    }

    fn check_root(&self, root: &RootRequest) -> Vec<Diagnostic> {
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
        let mut candidates: Vec<&str> = unit.args.iter().map(String::as_str).collect();
        for (what, names) in [
            ("independent", &root.independents),
            ("dependent", &root.dependents),
        ] {
            if what == "dependent" {
                candidates.extend(unit.result.as_deref());
                candidates.push(unit.name.as_str());
            }
            for name in names {
                // Each problem at the list entry that names the variable.
                let locate =
                    |d: Diagnostic| d.at_origin(root.entry_origin(what == "dependent", name));
                if let Some(d) = self.global_root_variable(index, what, name, &root.name) {
                    errors.extend(d.map(locate));
                    continue;
                }
                let is_arg = unit.args.iter().any(|a| a.eq_ignore_ascii_case(name));
                let is_result = what == "dependent"
                    && (unit
                        .result
                        .as_deref()
                        .is_some_and(|r| r.eq_ignore_ascii_case(name))
                        || (unit.is_function() && unit.name.eq_ignore_ascii_case(name)));
                if !is_arg && !is_result {
                    let mut d = Diagnostic::error(
                        "E0121",
                        format!(
                            "{what} `{name}` of root `{}` is not one of its arguments",
                            root.name
                        ),
                    );
                    d = match suggest(name, candidates.iter().copied()) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None => {
                            d.with_help(format!("`{}` takes ({})", unit.name, unit.args.join(", ")))
                        }
                    };
                    errors.push(locate(d));
                    continue;
                }
                let symbol = if is_result {
                    unit.result.as_deref().and_then(|r| unit.symbols.get(r))
                } else {
                    unit.symbols.get(name)
                };
                if let Some(s) = symbol {
                    if !s.ty.is_differentiable() {
                        errors.push(locate(
                            Diagnostic::error(
                                "E0122",
                                format!(
                                    "{what} `{name}` of root `{}` is not real, so it has no \
                                     derivative",
                                    root.name
                                ),
                            )
                            .with_help(
                                "only REAL (any kind) variables can be independent or dependent",
                            ),
                        ));
                    }
                    if what == "independent" && s.intent == Some(il::Intent::Out) {
                        errors.push(locate(
                            Diagnostic::error(
                                "E0123",
                                format!(
                                    "independent `{name}` of root `{}` is INTENT(OUT), so it is \
                                     not an input",
                                    root.name
                                ),
                            )
                            .with_help(
                                "independents must be inputs; name it as a dependent instead",
                            ),
                        ));
                    }
                    if what == "dependent" && s.intent == Some(il::Intent::In) {
                        errors.push(locate(
                            Diagnostic::error(
                                "E0124",
                                format!(
                                    "dependent `{name}` of root `{}` is INTENT(IN), so it is \
                                     not an output",
                                    root.name
                                ),
                            )
                            .with_help("dependents must be outputs of the root"),
                        ));
                    }
                }
            }
        }
        errors
    }

    /// For an independent or dependent `name` of a root that is not one of its arguments:
    /// `Some` when it is a variable of a module the root sees (INTERFACE.md §1), with the
    /// problem if it cannot be one (not real; a COMMON variable); `None` otherwise.
    fn global_root_variable(
        &self,
        u: usize,
        what: &str,
        name: &str,
        root: &str,
    ) -> Option<Option<Diagnostic>> {
        let unit = self.units[u].unit;
        if unit.args.iter().any(|a| a.eq_ignore_ascii_case(name)) {
            return None;
        }
        let sym = unit.symbols.get(name).filter(|s| s.is_variable())?;
        let g = sym.global.as_ref()?;
        if let Some(refusal) = self.common(&g.module).and_then(|b| b.refusal.as_ref()) {
            return Some(Some(
                Diagnostic::error(
                    "E0125",
                    format!(
                        "{what} `{name}` of root `{root}` is in COMMON {}, which cannot \
                         carry derivatives: {refusal}",
                        g.module
                    ),
                )
                .with_help(
                    "declare the block with the same variables everywhere (an INCLUDE \
                     file), or pass the variable to the root as an argument",
                ),
            ));
        }
        if !sym.ty.is_differentiable() {
            return Some(Some(
                Diagnostic::error(
                    "E0122",
                    format!(
                        "{what} `{name}` of root `{root}` is not real, so it has no derivative"
                    ),
                )
                .with_help("only REAL (any kind) variables can be independent or dependent"),
            ));
        }
        Some(None)
    }
}
