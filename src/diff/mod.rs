//! Differentiation: tangent and adjoint units (seeds/000 §4, §5.3–5.4).
//!
//! One derivative per procedure and mode, generalized over its calling contexts (§4.5):
//! [`crate::analysis`] decides which units are differentiated, which of their variables
//! get derivatives and which dummies get derivative arguments; [`tangent`] and [`adjoint`]
//! write the units; this module holds what both share: names, declarations, signatures.

pub mod adjoint;
mod call_diagnostics;
pub mod commons;
mod decls;
mod file_order;
pub use decls::var_decl;
pub mod heap;
pub mod implicit_zero;
mod interfaces;
mod internal;
mod modules;
mod naming;
mod private_copies;
pub use call_diagnostics::{array_expression_argument, missing_argument};
mod runtime_use;
mod singular;
pub(crate) use runtime_use::use_runtime_module;
use runtime_use::uses_runtime_function;
mod generate;
pub mod optional;
pub mod partials;
mod passive_writes;
pub mod plan;
pub mod tangent;
pub mod types;
mod unsized_args;
mod zeros;

use modules::{
    derivative_globals, derivative_module, derivative_types, file_static_globals,
    global_derivative_names, modules_used_by_derivatives, original_uses,
    types_used_by_derivative_types,
};
pub use unsized_args::Unsized;
use unsized_args::unsized_advice;

use std::collections::BTreeMap;

use crate::analysis::{Analyses, UnitAnalysis};
use crate::diag::{Diagnostic, Span};
use crate::il::names::Namer;
use crate::il::{
    self, Attr, Decl, DeclKind, Entity, Expr, ExprKind, Intent, Program, ScalarType, Stmt,
    StmtKind, TypeSpec, Unit, key,
};
use crate::ir::{Ir, UnitIr};
use crate::request::{Mode, Naming, OutputLayout, Request, RootRequest};
use partials::LeafInfo;

/// The calling sequence of one derivative of a root, for drivers and bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub root: String,
    pub mode: Mode,
    /// Name of the generated procedure (`f_d`, `f_b`).
    pub unit: String,
    /// The generated procedure's arguments in order. Each original argument is followed
    /// by its derivative when it has one.
    pub args: Vec<SigArg>,
    /// Tangent of a function: the derivative is returned and the primal result stored in
    /// the last argument. Adjoint of a function: the result weight is the last argument.
    pub is_function: bool,
    /// For a module procedure: the derivative module that holds the generated procedure
    /// (a caller needs `use` of it).
    pub module: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SigArg {
    /// The generated procedure's dummy name.
    pub name: String,
    /// The original argument this is, or whose derivative this is (`None` for the
    /// function-result arguments).
    pub original: Option<String>,
    /// True for a derivative argument.
    pub is_derivative: bool,
}

/// What differentiation produced.
#[derive(Clone, Debug, Default)]
pub struct Differentiated {
    /// One file per source file and mode: the output path without its extension
    /// (`heat_d`, `heat_b`; the back-end adds the extension of its language) and the
    /// units, whose `path` is the source they come from.
    pub files: Vec<(String, il::File)>,
    pub signatures: Vec<Signature>,
    pub warnings: Vec<Diagnostic>,
    /// Some generated code uses the runtime stack.
    pub needs_runtime: bool,
}

/// Program-wide facts every unit generator reads.
pub struct Ctx<'a> {
    pub program: &'a Program,
    pub ir: &'a Ir<'a>,
    pub analyses: &'a Analyses,
    pub request: &'a Request,
    pub mode: Mode,
    /// Derivative procedure name of each differentiated unit (by key of the original):
    /// the one other derivatives call.
    pub unit_names: BTreeMap<String, String>,
    /// The root's own derivative of a root other derivatives call (`naming::called_root`),
    /// by key of the original.
    pub root_names: BTreeMap<String, String>,
    /// For each unit whose adjoint is generated (by index): the dummies (keys) that its
    /// adjoint gives back with their values on entry, because it saves every overwrite.
    pub restored: std::cell::RefCell<BTreeMap<usize, std::collections::BTreeSet<String>>>,
    /// Derivative module of each module (by key of the original): `m` → `m_d`.
    pub module_names: BTreeMap<String, String>,
    /// Derivative type of each derived type (by key of the original): `t` → `t_d`.
    pub type_names: BTreeMap<String, String>,
    /// Derivative of each module variable (`Ir::globals` order) that is active in some
    /// unit: `u` → `ud`, declared in the derivative module.
    pub global_names: Vec<Option<String>>,
    /// Derivative block of each COMMON block with derivatives (by key of its global
    /// module `/c/`): `c_d` and the derivatives it holds.
    pub common_blocks: BTreeMap<String, commons::DerivativeBlock>,
    /// Names no generated local may take: the program's units, the derivative units and
    /// the derivatives of module variables (keys).
    pub reserved_names: std::sync::Arc<std::collections::BTreeSet<String>>,
    /// The program's procedures by name.
    pub procedures: il::UnitIndex<'a>,
}

impl<'a> Ctx<'a> {
    pub fn unit_analysis(&self, name: &str) -> Option<(&'a UnitIr<'a>, &'a UnitAnalysis)> {
        let i = self.ir.index_of(name)?;
        Some((&self.ir.units[i], &self.analyses.units[i]))
    }
    /// The derivative procedure of `name`, when it is differentiated.
    pub fn derivative_of(&self, name: &str) -> Option<&str> {
        self.unit_names
            .get(crate::il::key_ref(name).as_ref())
            .map(String::as_str)
    }
    /// The spec of a variable's derivative: a derived type's is its derivative type.
    pub fn derivative_spec(&self, spec: &TypeSpec) -> TypeSpec {
        let mut out = spec.clone();
        if let Some(t) = &spec.type_name {
            out.type_name = Some(
                self.type_names
                    .get(crate::il::key_ref(t).as_ref())
                    .cloned()
                    .unwrap_or_else(|| self.request.naming.module(self.mode, t)),
            );
        }
        out
    }
    /// The derivative module that holds the derivative of module procedure `unit`.
    pub fn derivative_host(&self, unit: &Unit) -> Option<String> {
        // A black box's derivatives are the user's external procedures.
        if self.request.black_box(&unit.name).is_some() {
            return None;
        }
        let host = unit.host.as_ref()?;
        self.module_names
            .get(crate::il::key_ref(host).as_ref())
            .cloned()
    }
}

pub fn differentiate(
    program: &Program,
    ir: &Ir,
    analyses: &Analyses,
    request: &Request,
) -> Result<Differentiated, Vec<Diagnostic>> {
    let mut files = Vec::new();
    let mut by_mode = Vec::new();
    let mut out = differentiate_by_mode(program, ir, analyses, request, &mut |mode, f| {
        by_mode.push((mode, f))
    })?;
    by_mode.sort_by_key(|(mode, _)| *mode);
    for (_, mut f) in by_mode {
        files.append(&mut f);
    }
    out.files = files;
    Ok(out)
}

/// As [`differentiate`], giving each mode's files to `emit` as soon as the mode is
/// generated (tangent first), and only while there is no error: a caller that prints
/// them then drops a mode's code before the next is generated, which bounds the memory a
/// large program takes. The result's `files` is empty.
pub fn differentiate_by_mode(
    program: &Program,
    ir: &Ir,
    analyses: &Analyses,
    request: &Request,
    emit: &mut dyn FnMut(Mode, Vec<(String, il::File)>),
) -> Result<Differentiated, Vec<Diagnostic>> {
    let mut out = Differentiated::default();
    let mut errors = Vec::new();
    let mut taken = Namer::new(program.units().map(|u| u.name.as_str()));
    let mut unsized_args: BTreeMap<usize, Vec<Unsized>> = BTreeMap::new();
    // Units of Fortran files, whose derivatives may need interface bodies.
    let fortran: std::collections::BTreeSet<String> = program
        .files
        .iter()
        .filter(|f| f.language == il::Language::Fortran)
        .flat_map(|f| f.units.iter().map(|u| key(&u.name)))
        .collect();
    // The names of both modes are taken first, tangent then adjoint as always; then the
    // adjoint is generated first: the larger of the two then starts on an empty heap,
    // which lowers the peak (issue 16). What each mode reports and emits is put back in
    // tangent-then-adjoint order.
    let mut named = Vec::new();
    for mode in [Mode::Tangent, Mode::Adjoint] {
        if !request.asks(mode) {
            continue;
        }
        let (unit_names, root_names) =
            naming::derivative_unit_names(ir, analyses, request, mode, &mut taken);
        let mut module_names = BTreeMap::new();
        let mut type_names = BTreeMap::new();
        for m in program.units().filter(|u| u.is_module()) {
            let name = taken.fresh(&request.naming.module(mode, &m.name));
            module_names.insert(key(&m.name), name);
            for d in &m.decls {
                if let DeclKind::TypeDef { name, .. } = &d.kind {
                    // C files that share a struct (through a header) share its derivative.
                    type_names
                        .entry(key(name))
                        .or_insert_with(|| taken.fresh(&request.naming.module(mode, name)));
                }
            }
        }
        let global_names = global_derivative_names(program, ir, analyses, &request.naming, mode);
        let common_blocks =
            commons::derivative_blocks(ir, &global_names, &mut taken, &request.naming, mode);
        named.push((
            mode,
            (unit_names, root_names),
            module_names,
            type_names,
            global_names,
            common_blocks,
        ));
    }
    let mut marks = Vec::new();
    for (mode, (unit_names, root_names), module_names, type_names, global_names, common_blocks) in
        named.into_iter().rev()
    {
        marks.push((
            errors.len(),
            out.warnings.len(),
            unsized_args
                .iter()
                .map(|(&i, v)| (i, v.len()))
                .collect::<BTreeMap<_, _>>(),
        ));
        let reserved_names = Namer::shared_keys(
            program
                .units()
                .map(|u| u.name.as_str())
                .chain(unit_names.values().map(String::as_str))
                .chain(root_names.values().map(String::as_str))
                .chain(global_names.iter().flatten().map(String::as_str)),
        );
        let ctx = Ctx {
            reserved_names,
            procedures: program.index(),
            program,
            ir,
            analyses,
            request,
            mode,
            unit_names,
            root_names,
            restored: Default::default(),
            module_names,
            type_names,
            global_names,
            common_blocks,
        };
        let mut generated_units =
            generate::generate_units(&ctx, &mut out, &mut errors, &mut unsized_args);
        out.signatures.sort_by_key(|s| (key(&s.root), s.mode));
        let callers_need = modules_used_by_derivatives(&ctx, &generated_units);
        for (i, uses) in callers_need {
            if let Some(u) = generated_units.get_mut(&i) {
                for (pos, decl) in uses.into_iter().enumerate() {
                    u.decls.insert(pos, decl);
                }
            }
        }
        interfaces::declare_black_box_derivatives(&ctx, &mut generated_units);
        interfaces::add_derivative_interfaces(
            &mut generated_units,
            &|i| fortran.contains(crate::il::key_ref(&ir.units[i].unit.name).as_ref()),
            &|i| interfaces::sees_interface_bodies(program, ir.units[i].unit),
        );
        for file in &program.files {
            let mut units = Vec::new();
            let mut opened: Option<String> = None;
            let mut hosts = internal::Hosts::default();
            for unit in &file.units {
                if unit.is_module() {
                    let mut types = derivative_types(&ctx, unit);
                    types.extend(derivative_globals(&ctx, unit));
                    if !types.is_empty() {
                        let dname = ctx.module_names[&key(&unit.name)].clone();
                        let mut m = derivative_module(&dname, &unit.name, unit.span);
                        for (pos, decl) in original_uses(unit).into_iter().enumerate() {
                            m.decls.insert(1 + pos, decl);
                        }
                        // Components of types from other modules: their derivative types
                        // come from those modules' derivative modules.
                        for (pos, decl) in types_used_by_derivative_types(&ctx, unit, &types)
                            .into_iter()
                            .enumerate()
                        {
                            m.decls.insert(1 + pos, decl);
                        }
                        m.decls.extend(types);
                        units.push(m);
                        opened = Some(dname);
                    }
                    continue;
                }
                let Some(i) = ir.index_of(&unit.name) else {
                    continue;
                };
                if std::ptr::eq(ir.units[i].unit, unit) {
                    let forms = [(i, true), (i, false)];
                    for u in forms.iter().filter_map(|f| generated_units.remove(f)) {
                        // The derivatives of a module's procedures go into the derivative
                        // module, which uses the original one.
                        if let (Some(host), Some(dhost)) = (&unit.host, &u.host) {
                            if opened.as_deref() != Some(dhost.as_str()) {
                                let mut m = derivative_module(dhost, host, unit.span);
                                if let Some(original) = ctx.program.module(host) {
                                    for (pos, decl) in
                                        original_uses(original).into_iter().enumerate()
                                    {
                                        m.decls.insert(1 + pos, decl);
                                    }
                                }
                                units.push(m);
                                opened = Some(dhost.clone());
                            }
                        }
                        let mut u = u;
                        hosts.place(unit, &mut u, &file.units);
                        units.push(u);
                    }
                }
            }
            hosts.nest_internal_procedures(program, &mut units);
            private_copies::copy_private_procedures(&ctx, &mut units, &mut errors);
            private_copies::private_saved(&ctx, &units, &mut errors);
            if file.language.file_is_module() {
                errors.extend(file_static_globals(&ctx, &units));
            }
            if !units.is_empty() {
                let stem = naming::derivative_file_stem(
                    &request.layout,
                    &request.naming,
                    mode,
                    &file.path,
                );
                // One file for several sources (`OutputLayout::Single`) gathers them.
                let same = match request.layout {
                    OutputLayout::Single(_) => out
                        .files
                        .iter_mut()
                        .find(|(s, f)| *s == stem && f.language == file.language),
                    _ => None,
                };
                if let Some((_, merged)) = same {
                    merged.path = format!("{}, {}", merged.path, file.path);
                    merged.units.extend(units);
                } else {
                    out.files.push((
                        stem,
                        il::File {
                            file: file.file,
                            path: file.path.clone(),
                            language: file.language,
                            units,
                            warnings: Vec::new(),
                        },
                    ));
                }
            }
        }
        if errors.is_empty() {
            file_order::modules_first(&mut out.files);
            emit(mode, std::mem::take(&mut out.files));
        } else {
            out.files.clear();
        }
    }
    // Two modes, generated adjoint first: the tangent's diagnostics first again.
    if let [_, (errs, warns, sizes)] = &marks[..] {
        errors.rotate_left(*errs);
        out.warnings.rotate_left(*warns);
        for (i, items) in unsized_args.iter_mut() {
            let first = sizes.get(i).copied().unwrap_or(0);
            items.rotate_left(first);
        }
    }
    for root in &request.roots {
        if let Some((uir, ua)) = ir
            .index_of(&root.name)
            .map(|i| (&ir.units[i], &analyses.units[i]))
        {
            if !ua.is_differentiated() {
                errors.push(
                    Diagnostic::error(
                        "E0501",
                        format!(
                            "no dependent of root `{}` depends on its independents",
                            root.name
                        ),
                    )
                    .at(uir.unit.span)
                    .with_help("check the independents and dependents named in the manifest"),
                );
            }
        }
    }
    // Each mode finds the problems of the code it generates (a call of a procedure
    // without source, a file-scope problem): say each once.
    let mut said = std::collections::BTreeSet::new();
    errors.retain(|d| said.insert(format!("{} {:?} {}", d.code, d.location, d.message)));
    for (i, items) in unsized_args {
        out.warnings
            .extend(unsized_advice(&ir.units[i].unit.name, items));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// A temporary the generator declared.
#[derive(Clone, Debug)]
pub struct Temp {
    pub name: String,
    pub spec: TypeSpec,
    /// Empty for a scalar.
    pub dims: Vec<il::DimSpec>,
}

/// The state of the generation of one derivative unit.
pub struct UnitGen<'c, 'a> {
    pub ctx: &'c Ctx<'a>,
    pub uir: &'a UnitIr<'a>,
    pub ua: &'a UnitAnalysis,
    pub unit: &'a Unit,
    pub namer: Namer,
    /// Derivative variable name of each primal variable with derivative storage.
    pub deriv_names: BTreeMap<String, String>,
    pub temps: Vec<Temp>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    pub root: Option<&'a RootRequest>,
    pub uses_runtime: bool,
    /// A root's assumed-size array arguments whose derivatives the generated code leaves
    /// to the caller (not zeroed: the size is unknown), with what the caller must know;
    /// one W0501 per root says it (`unsized_advice`).
    pub unsized_args: Vec<Unsized>,
    /// Functions whose derivative is called as a function here, to be declared.
    pub called_functions: BTreeMap<String, TypeSpec>,
    /// The arrays whose allocation the unit's CALLs change (`heap`).
    pub call_heap: heap::CallHeap,
}

impl<'c, 'a> UnitGen<'c, 'a> {
    /// The language of the file the unit comes from.
    pub fn language(&self) -> il::Language {
        self.ctx
            .program
            .files
            .iter()
            .find(|f| f.units.iter().any(|u| std::ptr::eq(u, self.unit)))
            .map_or(il::Language::Fortran, |f| f.language)
    }

    /// A derivative of a procedure callable from another language is callable the same
    /// way, under the derivative's name (`BIND(C, NAME="f")` → `NAME="f_d"`).
    pub fn derivative_bind(&self) -> Option<il::BindC> {
        let bind = self.unit.bind.as_ref()?;
        let dname = self.own_name()?;
        let suffix = dname.get(self.unit.name.len()..).unwrap_or_default();
        Some(il::BindC {
            name: bind.name.as_ref().map(|n| format!("{n}{suffix}")),
        })
    }
    pub fn new(ctx: &'c Ctx<'a>, index: usize) -> UnitGen<'c, 'a> {
        let uir = &ctx.ir.units[index];
        let ua = &ctx.analyses.units[index];
        let unit = uir.unit;
        let mut namer = Namer::with_shared(
            &ctx.reserved_names,
            unit.symbols.iter().map(|s| s.name.as_str()),
        );
        let mut deriv_names = BTreeMap::new();
        // Module variables have one derivative, in the derivative module.
        // (Not under the name of a local that hides it: `integer :: k` in a procedure
        // of the module of an active `k` has no derivative.)
        for (g, &z) in uir.zones.globals.iter().enumerate() {
            let name = &uir.zones.zones[z].name;
            let hidden = unit.symbols.get(name).is_some_and(|s| {
                s.global
                    .as_ref()
                    .is_none_or(|r| r.key() != ctx.ir.globals[g].global.key())
            });
            if let (true, false, Some(d)) = (ua.deriv_zones[z], hidden, &ctx.global_names[g]) {
                deriv_names.insert(key(name), d.clone());
            }
        }
        // Other variables, COMMON ones included (always passive, E0511: a derivative of
        // theirs is local storage of zeros).
        let mut errors = Vec::new();
        for z in ua.deriv_zones.iter_ones() {
            let zone = &uir.zones.zones[z];
            if uir.zones.globals.contains(&z) && (!zone.shared || zone.hidden) {
                continue;
            }
            if !zone.shared {
                let d = namer.fresh(&ctx.request.naming.variable(ctx.mode, &zone.name));
                deriv_names.insert(key(&zone.name), d);
                continue;
            }
            // EQUIVALENCEd variables: each gets a derivative, and the derivatives are
            // EQUIVALENCEd like their primals (see `declarations`). (Onto a variable of a
            // COMMON block, the block's derivative has its derivative.)
            for s in unit.symbols.iter() {
                if s.name.contains('%')
                    || uir.zones.get(&s.name) != Some(z)
                    || deriv_names.contains_key(crate::il::key_ref(&s.name).as_ref())
                    || uir.zones.is_passive_member(&s.name)
                {
                    continue;
                }
                if s.ty != zone.ty {
                    errors.push(
                        Diagnostic::error(
                            "E0525",
                            format!(
                                "`{}` shares storage with `{}` by EQUIVALENCE, whose derivative is needed, but its type differs",
                                s.name, zone.name
                            ),
                        )
                        .at(s.span)
                        .with_help(
                            "variables of different types (or kinds) in one EQUIVALENCE set cannot carry derivatives; use separate storage",
                        ),
                    );
                    continue;
                }
                let d = namer.fresh(&ctx.request.naming.variable(ctx.mode, &s.name));
                deriv_names.insert(key(&s.name), d);
            }
        }
        let root = ctx.request.root(&unit.name);
        UnitGen {
            ctx,
            uir,
            ua,
            unit,
            namer,
            deriv_names,
            temps: Vec::new(),
            errors,
            warnings: Vec::new(),
            root,
            uses_runtime: false,
            unsized_args: Vec::new(),
            called_functions: BTreeMap::new(),
            call_heap: heap::CallHeap::of(unit, &|n| ctx.procedures.unit(n)),
        }
    }

    pub fn mode(&self) -> Mode {
        self.ctx.mode
    }

    /// The name a derivative of `name` takes by the request's naming (`xd`, `xb`), before
    /// clashes are resolved: for temporaries such as `arg1d` and `resultd`.
    pub fn derivative_name_of(&self, name: &str) -> String {
        self.ctx.request.naming.variable(self.ctx.mode, name)
    }

    pub fn deriv_name(&self, name: &str) -> Option<&str> {
        self.deriv_names
            .get(crate::il::key_ref(name).as_ref())
            .map(String::as_str)
    }

    /// The derivative of a reference by name: `x` → `xd`, and for a component of a
    /// derived-type variable `s%x` → `sd%x` (real and derived-type components only, and
    /// only those the derivative type keeps: `analysis::fields`).
    pub fn deriv_ref_name(&self, name: &str) -> Option<String> {
        match name.split_once('%') {
            None => self.deriv_name(name).map(str::to_string),
            Some((base, rest)) => {
                if !self.uir.zones.is_differentiable(name)
                    || !self
                        .ctx
                        .analyses
                        .fields
                        .keeps_path(&self.unit.symbols, name)
                {
                    return None;
                }
                Some(format!("{}%{rest}", self.deriv_name(base)?))
            }
        }
    }

    /// For `r = s` between whole derived-type variables: the pairs of real components
    /// (`r%u`, `s%u`) whose derivatives the derivative type keeps.
    pub fn structure_copy(&self, lhs: &Expr, rhs: &Expr) -> Option<Vec<(Expr, Expr)>> {
        let (ExprKind::Var(l), ExprKind::Var(r)) = (&lhs.kind, &rhs.kind) else {
            return None;
        };
        let (ls, rs) = (self.unit.symbols.get(l)?, self.unit.symbols.get(r)?);
        if ls.ty != ScalarType::Derived || rs.ty != ScalarType::Derived || ls.is_array() {
            return None;
        }
        let pairs = self
            .unit
            .symbols
            .components_of(l)
            .filter(|c| c.ty.carries_values())
            .filter(|c| self.deriv_ref_name(&c.name).is_some())
            .map(|c| {
                let rest = &c.name[l.len()..];
                (
                    Expr {
                        kind: ExprKind::Var(c.name.clone()),
                        span: lhs.span,
                    },
                    Expr {
                        kind: ExprKind::Var(format!("{r}{rest}")),
                        span: rhs.span,
                    },
                )
            })
            .collect();
        Some(pairs)
    }

    /// Module variables with a derivative in this unit: (zone name, derivative name,
    /// varied on entry, useful on exit) from the calling context.
    pub fn active_globals(&self) -> Vec<(String, String, bool, bool)> {
        let mut out = Vec::new();
        for (g, &z) in self.uir.zones.globals.iter().enumerate() {
            if !self.ua.deriv_zones[z] {
                continue;
            }
            let Some(d) = &self.ctx.global_names[g] else {
                continue;
            };
            let slot = crate::analysis::summary::global_slot(self.uir, g);
            out.push((
                self.uir.zones.zones[z].name.clone(),
                d.clone(),
                self.ua.varied_in[slot],
                self.ua.useful_out[slot],
            ));
        }
        out
    }

    /// `name` is a program global here (a module variable, or a variable of a COMMON
    /// block with derivatives): its derivative lives as long as the program.
    pub fn is_program_global(&self, name: &str) -> bool {
        self.uir
            .zones
            .get(name)
            .is_some_and(|z| self.uir.zones.globals.contains(&z))
    }

    /// The symbol of `name` in the unit, or, for a module variable the unit does not see,
    /// its symbol in its module.
    pub fn symbol_or_global(&self, name: &str) -> Option<&'a crate::il::Symbol> {
        if let Some(s) = self.unit.symbols.get(name) {
            return Some(s);
        }
        let z = self.uir.zones.get(name)?;
        let g = self.uir.zones.globals.iter().position(|&x| x == z)?;
        let info = &self.ctx.ir.globals[g].global;
        if let Some(block) = self.ctx.ir.common(&info.module) {
            return block.declared_by.symbols.get(&info.name);
        }
        self.ctx
            .program
            .module(&info.module)?
            .symbols
            .get(&info.name)
    }

    /// Whether this unit changes the allocation of module array `name`, itself or through
    /// the procedures it calls (`il::heap_globals`): its derivative may be unallocated
    /// on entry or on exit.
    pub fn changes_allocation(&self, name: &str) -> bool {
        let Some(z) = self.uir.zones.get(name) else {
            return false;
        };
        let Some(g) = self.uir.zones.globals.iter().position(|&x| x == z) else {
            return false;
        };
        let k = self.ctx.ir.globals[g].global.key();
        self.unit
            .symbols
            .global_allocations()
            .any(|(other, _)| *other == k)
    }

    /// The variable a component path belongs to (`s` for `s%x`), or the symbol itself.
    pub fn owner<'s>(&'s self, symbol: &'s crate::il::Symbol) -> &'s crate::il::Symbol {
        match symbol.name.split_once('%') {
            Some((base, _)) => self.unit.symbols.get(base).unwrap_or(symbol),
            None => symbol,
        }
    }

    /// The derivative of a variable reference (`x` → `xd`, `a(i)` → `ad(i)`).
    pub fn dref(&self, e: &Expr) -> Option<Expr> {
        let kind = match &e.kind {
            ExprKind::Var(n) => ExprKind::Var(self.deriv_ref_name(n)?),
            ExprKind::Index(n, subs) => ExprKind::Index(self.deriv_ref_name(n)?, subs.clone()),
            ExprKind::Paren(inner) => return self.dref(inner),
            _ => return None,
        };
        Some(Expr { kind, span: e.span })
    }

    pub fn ty(&self, e: &Expr) -> ScalarType {
        types::type_of(e, &self.unit.symbols, self.ctx.program)
    }

    pub fn zero(&self, ty: ScalarType) -> Expr {
        Expr::real("0.0", types::real_kind(ty))
    }

    /// The zero of the derivative of variable `name`.
    pub fn zero_of(&self, name: &str) -> Expr {
        let ty = self
            .unit
            .symbols
            .get(name)
            .map(|s| s.ty)
            .unwrap_or(ScalarType::Real(8));
        self.zero(ty)
    }

    /// A new temporary of the given type.
    pub fn temp(&mut self, base: &str, spec: TypeSpec) -> String {
        self.temp_array(base, spec, Vec::new())
    }

    /// A temporary array with the given dimensions.
    pub fn temp_array(&mut self, base: &str, spec: TypeSpec, dims: Vec<il::DimSpec>) -> String {
        let name = self.namer.fresh(base);
        self.temps.push(Temp {
            name: name.clone(),
            spec,
            dims,
        });
        name
    }

    /// The flow node of a simple statement.
    pub fn node(&self, stmt: &Stmt) -> Option<usize> {
        self.uir.flow.node_of.get(&stmt.id).copied()
    }

    /// Zone of variable `name` is varied just before `stmt`.
    pub fn varied_before(&self, stmt: &Stmt, name: &str) -> bool {
        let (Some(node), Some(z), Some(v)) =
            (self.node(stmt), self.uir.zones.get(name), &self.ua.varied)
        else {
            return true;
        };
        v.before[node][z]
    }

    /// Zone of variable `name` is useful just after `stmt`.
    pub fn useful_after(&self, stmt: &Stmt, name: &str) -> bool {
        let (Some(node), Some(z), Some(u)) =
            (self.node(stmt), self.uir.zones.get(name), &self.ua.useful)
        else {
            return true;
        };
        u.after[node][z]
    }

    /// Linearization context at `stmt`: leaves with derivative storage varied there.
    pub fn leaf_info<'g>(&'g self, stmt: &'g Stmt) -> StmtLeaves<'g, 'c, 'a> {
        StmtLeaves { ug: self, stmt }
    }

    /// A call of a differentiated procedure that needs no derivative here: no argument
    /// carries a non-trivial derivative, and nothing it overwrites has a derivative that
    /// is still needed (a function's result is reset by the caller).
    pub fn call_is_passive(&self, s: &Stmt, site: &crate::analysis::effects::CallSite) -> bool {
        let Some((cu, ca)) = self.ctx.unit_analysis(site.callee) else {
            return false;
        };
        // Its derivative updates derivative module variables.
        if ca.global_active {
            return false;
        }
        let info = self.leaf_info(s);
        for (k, actual) in crate::il::bind_actuals(cu.unit, site.args)
            .iter()
            .enumerate()
        {
            let Some(actual) = actual else { continue };
            if partials::is_active(actual, &info) {
                return false;
            }
            if ca.summary.writes[k] {
                if let Some(n) = actual.base_name() {
                    if self.deriv_ref_name(n).is_some() && self.useful_after(s, n) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Reports an error once: the adjoint regenerates a body until its saves settle, and
    /// each pass would report the same problem again.
    pub fn error(&mut self, d: Diagnostic) {
        let same =
            |e: &Diagnostic| e.code == d.code && e.message == d.message && e.location == d.location;
        if !self.errors.iter().any(same) {
            self.errors.push(d);
        }
    }

    /// Dummies of the generated unit, in order, with derivative dummies after their primal.
    pub fn derivative_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for (k, a) in self.unit.args.iter().enumerate() {
            args.push(a.clone());
            if self.ua.deriv_args[k] {
                if let Some(d) = self.deriv_name(a) {
                    args.push(d.to_string());
                }
            }
        }
        args
    }

    /// The root's independents (keys), empty for non-roots.
    pub fn is_independent(&self, name: &str) -> bool {
        self.root
            .is_some_and(|r| r.independents.iter().any(|i| key(i) == key(name)))
    }
    pub fn is_dependent(&self, name: &str) -> bool {
        self.root
            .is_some_and(|r| r.dependents.iter().any(|i| key(i) == key(name)))
    }
    /// The component paths under variable `base` that the root names as independents
    /// (or dependents) instead of the whole variable (`s%u`, INTERFACE.md §1); empty
    /// for non-roots and for variables named whole or not at all. A function's result
    /// may be named by the function's name.
    pub fn root_paths(&self, base: &str, dependent: bool) -> Vec<String> {
        let Some(root) = self.root else {
            return Vec::new();
        };
        let names = if dependent {
            &root.dependents
        } else {
            &root.independents
        };
        let is_result = self.unit.is_function()
            && key(self.unit.result.as_deref().unwrap_or(&self.unit.name)) == key(base);
        names
            .iter()
            .filter_map(|n| {
                let (b, rest) = crate::ir::roots::split_path(n);
                let same = key(b) == key(base)
                    || (dependent && is_result && key(b) == key(&self.unit.name));
                Some(format!("{base}{}", rest.filter(|_| same)?))
            })
            .collect()
    }
}

/// Linearization context of one statement.
pub struct StmtLeaves<'g, 'c, 'a> {
    ug: &'g UnitGen<'c, 'a>,
    stmt: &'g Stmt,
}

impl LeafInfo for StmtLeaves<'_, '_, '_> {
    fn is_active(&self, leaf: &Expr) -> bool {
        let Some(name) = leaf.base_name() else {
            return false;
        };
        self.ug.deriv_ref_name(name).is_some() && self.ug.varied_before(self.stmt, name)
    }
    fn kind_of(&self, expr: &Expr) -> u8 {
        types::real_kind(self.ug.ty(expr))
    }
    fn is_integer(&self, expr: &Expr) -> bool {
        matches!(self.ug.ty(expr), ScalarType::Integer(_))
    }
    fn is_complex(&self, expr: &Expr) -> bool {
        self.ug.ty(expr).is_complex()
    }
}

/// `lhs = rhs` as a generated statement.
pub fn assign(lhs: Expr, rhs: Expr) -> Stmt {
    Stmt::generated(StmtKind::Assign { lhs, rhs })
}

/// `call name(args)` as a generated statement.
/// A tape statement.
pub fn tape(t: il::Tape) -> Stmt {
    Stmt::generated(StmtKind::Tape(t))
}

pub fn call(name: &str, args: Vec<Expr>) -> Stmt {
    Stmt::generated(StmtKind::Call {
        name: name.to_string(),
        args: args.into_iter().map(il::Arg::positional).collect(),
    })
}

/// The name of the derivative of dummy `formal` in the derivative of `callee`: the
/// keyword of a derivative argument after an absent (OPTIONAL) one.
pub fn callee_deriv_name(ctx: &Ctx, callee: &str, formal: &str) -> Option<String> {
    let index = ctx.ir.index_of(callee)?;
    UnitGen::new(ctx, index)
        .deriv_name(formal)
        .map(str::to_string)
}

/// The arguments of a derivative call: `keywords[i]` names argument `i` when some
/// argument before it was absent (`by_keyword`); arguments beyond `keywords` (the
/// function result that follows) are named `trailing` then.
pub fn keyword_args(
    args: Vec<Expr>,
    keywords: &[Option<String>],
    by_keyword: bool,
    trailing: Option<String>,
) -> Vec<il::Arg> {
    let keywords = if by_keyword { keywords } else { &[] };
    args.into_iter()
        .enumerate()
        .map(|(i, value)| il::Arg {
            keyword: match keywords.get(i) {
                Some(k) => k.clone(),
                None if by_keyword => trailing.clone(),
                None => None,
            },
            value,
        })
        .collect()
}
