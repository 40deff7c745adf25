//! The IR built over the IL: call graph, flow graphs and zones (seeds/000 §3, §5.1), and
//! the check that every root of the request exists with the variables it names
//! (`roots`).

pub mod aliasing;
pub mod callgraph;
pub mod commons;
pub mod flow;
pub mod roots;
pub mod zones;

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::il::visit::called_names;
use crate::il::{self, Unit, key};
use crate::request::Request;

pub use callgraph::CallGraph;
pub use flow::{FlowGraph, NodeId, NodeKind};
pub use roots::{RootSlot, RootVariable};
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
                zones: Zones::of_unit(unit, &globals, &[]),
                flow: FlowGraph::build(&unit.body),
            });
        }
        // Dummies that a call passes the same storage share a zone, as does a dummy
        // given a module variable the callee sees (`aliasing`): each round may make a
        // callee pass two of its merged variables on.
        let mut aliased: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
        loop {
            let pairs = aliasing::aliased_dummies(&units, &by_key);
            if pairs.is_empty() {
                break;
            }
            let mut changed = std::collections::BTreeSet::new();
            for (c, a, b) in pairs {
                aliased.entry(c).or_default().push((a, b));
                changed.insert(c);
            }
            for c in changed {
                units[c].zones = Zones::of_unit(units[c].unit, &globals, &aliased[&c]);
            }
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
}
