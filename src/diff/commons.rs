//! Derivative COMMON blocks (INTERFACE.md §3: `/c/` → `/c_d/` in tangent code, `/c_b/`
//! in adjoint code). The variables of a block that every unit declares alike
//! (`ir::commons`) are program globals like module variables; the derivatives of those
//! active somewhere are the derivative block, in the block's order, under the names
//! `Ctx::global_names` gives. Every derivative unit that refers to one of them declares
//! the whole derivative block, so that all units agree on its layout. A unit whose
//! original does not declare the block (a root that only calls the procedures that
//! do) declares the original block too when its derivative saves, restores or zeroes
//! anything of it, with constant dimensions (the declaring unit's PARAMETERs folded).

use super::*;
use crate::il::fold::fold_int;
use crate::ir::commons::CommonBlock;

/// The derivative block of a COMMON block that has derivatives.
pub struct DerivativeBlock {
    /// `c_d`, `c_b`; `blank_d`, `blank_b` for blank COMMON.
    pub name: String,
    /// The derivatives of its variables, in the block's order: (primal, derivative).
    pub variables: Vec<(String, String)>,
}

/// The derivative block of each block that has derivatives (by key of its global
/// module `/c/`).
pub(super) fn derivative_blocks(
    ir: &Ir,
    global_names: &[Option<String>],
    taken: &mut Namer,
    naming: &Naming,
    mode: Mode,
) -> BTreeMap<String, DerivativeBlock> {
    for b in &ir.commons {
        taken.reserve(b.name.as_deref().unwrap_or("blank"));
    }
    let mut out = BTreeMap::new();
    for b in &ir.commons {
        let mut variables = Vec::new();
        for v in &b.variables {
            let g = ir.globals.iter().position(|g| {
                key(&g.global.module) == key(&b.module) && key(&g.global.name) == key(v)
            });
            if let Some(d) = g.and_then(|g| global_names[g].clone()) {
                variables.push((v.clone(), d));
            }
        }
        if !variables.is_empty() {
            let base = b.name.as_deref().unwrap_or("blank");
            let name = taken.fresh(&naming.module(mode, base));
            out.insert(key(&b.module), DerivativeBlock { name, variables });
        }
    }
    out
}

impl UnitGen<'_, '_> {
    /// Adds to `decls` the derivative blocks the generated `body` refers to, and the
    /// original blocks it refers to that the original unit does not declare.
    /// `referenced`: the names (keys) the body refers to.
    pub(super) fn add_common_declarations(
        &mut self,
        decls: &mut Vec<Decl>,
        referenced: &std::collections::BTreeSet<String>,
    ) {
        let declared = |decls: &[Decl], name: &str| {
            decls.iter().any(|d| match &d.kind {
                DeclKind::Var { entities, .. } | DeclKind::Dimension(entities) => {
                    entities.iter().any(|e| key(&e.name) == key(name))
                }
                _ => false,
            })
        };
        // A C function has no COMMON to declare.
        let in_c = self.language() == il::Language::C;
        for block in &self.ctx.ir.commons {
            // A block without derivatives is still declared where the derivative saves
            // or restores its variables and the original does not declare it.
            let dblock = self
                .ctx
                .common_blocks
                .get(crate::il::key_ref(&block.module).as_ref());
            let derivs: &[(String, String)] = dblock.map_or(&[], |b| &b.variables);
            let in_unit = self.unit.decls.iter().any(|d| match &d.kind {
                DeclKind::Common(parts) => parts
                    .iter()
                    .any(|(n, _)| il::common_global_module(n.as_deref()) == key(&block.module)),
                _ => false,
            });
            let wants_derivatives = derivs.iter().any(|(_, d)| {
                referenced.contains(crate::il::key_ref(d).as_ref()) || declared(decls, d)
            });
            // The name a variable of the block has here: a variable of the unit's own
            // of its name makes its zone another (`ir::zones`: `h_c` for `h` of `/c/`).
            let local_of = |v: &str| -> String {
                self.ctx
                    .ir
                    .globals
                    .iter()
                    .position(|g| {
                        key(&g.global.module) == key(&block.module) && key(&g.global.name) == key(v)
                    })
                    .and_then(|g| self.uir.zones.globals.get(g))
                    .map_or_else(|| v.to_string(), |&z| self.uir.zones.zones[z].name.clone())
            };
            let wants_primals = !in_unit
                && block.variables.iter().any(|v| {
                    let local = local_of(v);
                    referenced.contains(crate::il::key_ref(&local).as_ref())
                        && self.unit.symbols.get(&local).is_none()
                });
            if !wants_derivatives && !wants_primals {
                continue;
            }
            let mut added = Vec::new();
            if in_c {
                self.block_error(
                    format!(
                        "C function `{}` calls Fortran procedures whose COMMON {} {}; its derivative could not reach it",
                        self.unit.name,
                        block.module,
                        if wants_derivatives {
                            "carries derivatives"
                        } else {
                            "its derivative must save and restore"
                        }
                    ),
                    "call the Fortran procedures from a Fortran procedure, and that one from C"
                        .to_string(),
                );
                continue;
            }
            if !in_unit {
                // The original block, as its first declaration has it.
                if let Some(v) = block
                    .variables
                    .iter()
                    .find(|v| self.unit.symbols.get(&local_of(v)).is_some())
                {
                    self.block_error(
                        format!(
                            "`{}` has a variable `{v}` of its own, and the procedures it calls use `{v}` of COMMON {}: its derivative must declare the block, which would hide its own `{v}`",
                            self.unit.name, block.module
                        ),
                        format!(
                            "rename `{v}` in `{}`, or declare COMMON {} there",
                            self.unit.name, block.module
                        ),
                    );
                    continue;
                }
                let mut entities = Vec::new();
                for v in &block.variables {
                    let local = local_of(v);
                    match self.hidden_declaration(block, v, &local, false, false) {
                        Some(d) => added.push(d),
                        None => return self.undeclarable(block, v),
                    }
                    entities.push(bare_entity(&local));
                }
                added.push(common_decl(block.name.clone(), entities));
            }
            if let Some(dblock) = dblock.filter(|_| wants_derivatives) {
                let mut entities = Vec::new();
                for (v, d) in derivs {
                    if !declared(decls, d) && !declared(&added, d) {
                        match self.hidden_declaration(block, v, d, in_unit, true) {
                            Some(decl) => added.push(decl),
                            None => return self.undeclarable(block, v),
                        }
                    }
                    entities.push(bare_entity(d));
                }
                added.push(common_decl(Some(dblock.name.clone()), entities));
            }
            // Beside the original COMMON statement when there is one.
            let at = decls
                .iter()
                .rposition(|d| match &d.kind {
                    DeclKind::Common(parts) => parts
                        .iter()
                        .any(|(n, _)| il::common_global_module(n.as_deref()) == key(&block.module)),
                    _ => false,
                })
                .map(|i| i + 1)
                .unwrap_or(decls.len());
            for (k, d) in added.into_iter().enumerate() {
                decls.insert(at + k, d);
            }
        }
    }

    /// The declaration of `name`, the primal `v` of `block` (under the name it has
    /// here) or its derivative (`derivative`): with the unit's own declaration of `v`
    /// when `own`, else with the first declaring unit's, dimensions and kind folded to
    /// constants (`None` when they are not constant).
    fn hidden_declaration(
        &self,
        block: &CommonBlock,
        v: &str,
        name: &str,
        own: bool,
        derivative: bool,
    ) -> Option<Decl> {
        if own {
            let s = self.unit.symbols.get(v)?;
            let spec = if derivative {
                self.ctx.derivative_spec(&s.type_spec)
            } else {
                s.type_spec.clone()
            };
            return Some(var_decl(spec, Vec::new(), name, &s.dims));
        }
        let from = block.declared_by;
        let s = from.symbols.get(v)?;
        let mut spec = s.type_spec.clone();
        if let Some(k) = &spec.kind {
            spec.kind = Some(Expr::int(fold_int(None, from, k)?));
        }
        if derivative {
            spec = self.ctx.derivative_spec(&spec);
        }
        let mut dims = Vec::new();
        for d in &s.dims {
            let lower = match &d.lower {
                Some(l) => Some(Expr::int(fold_int(None, from, l)?)),
                None => None,
            };
            let il::Bound::Expr(upper) = &d.upper else {
                return None;
            };
            dims.push(il::DimSpec {
                lower,
                upper: il::Bound::Expr(Expr::int(fold_int(None, from, upper)?)),
            });
        }
        Some(var_decl(spec, Vec::new(), name, &dims))
    }

    fn undeclarable(&mut self, block: &CommonBlock, v: &str) {
        self.block_error(
            format!(
                "the derivative of `{}` must declare COMMON {} (the procedures it calls use it), but the type or dimensions of `{v}` are not constant where `{}` declares them",
                self.unit.name, block.module, block.declared_by.name
            ),
            format!("declare COMMON {} in `{}`", block.module, self.unit.name),
        );
    }

    /// E0514 at the unit: its derivative cannot declare a COMMON block it needs.
    fn block_error(&mut self, message: String, help: String) {
        self.errors.push(
            Diagnostic::error("E0514", message)
                .at(self.unit.span)
                .with_help(help),
        );
    }
}

fn bare_entity(name: &str) -> Entity {
    Entity {
        name: name.to_string(),
        dims: None,
        init: None,
        span: Span::default(),
    }
}

fn common_decl(block: Option<String>, entities: Vec<Entity>) -> Decl {
    Decl {
        kind: DeclKind::Common(vec![(block, entities)]),
        span: Span::default(),
    }
}
