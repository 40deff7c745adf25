//! Semantics of one unit: implicit typing, declarations → symbol table, kind parameters,
//! and name resolution (`name(args)` → array element, intrinsic or user function), with
//! the checks that need symbols (undeclared names, DO variables, named constants,
//! subscript counts, duplicate declarations).
//!
//! Declarations are read in order first (so `real(dp)` sees `dp`), then every expression
//! of the declarations and of the body is resolved.

//!
//! Split in three: this file (declarations, symbol table, final checks), `kinds.rs`
//! (constant expressions and kinds) and `resolve.rs` (name resolution in expressions
//! and statements).

mod bindings;
pub use bindings::bound_generic_name;
mod components;
mod constructor;
mod declare;
mod imports;
mod kinds;
mod resolve;

use std::collections::{BTreeMap, BTreeSet};

use super::intrinsics;
use crate::diag::{Diagnostic, Span};
use crate::il::{
    Attr, DeclKind, DimSpec, Expr, GlobalRef, Intent, ScalarType, Symbol, SymbolKind, SymbolTable,
    TypeSpec, Unit, UnitKind, key,
};

/// What the unit says about one name.
#[derive(Clone, Debug)]
struct Info {
    name: String,
    span: Span,
    spec: Option<TypeSpec>,
    ty: Option<ScalarType>,
    dims: Option<Vec<DimSpec>>,
    intent: Option<Intent>,
    constant: bool,
    /// Value of an integer named constant, when it could be computed.
    value: Option<i64>,
    external: bool,
    arg_index: Option<usize>,
    is_result: bool,
    used_var: bool,
    /// Referenced as a user function or CALLed.
    used_proc: bool,
    /// Referenced as an intrinsic function (a typed intrinsic name).
    used_intrinsic: bool,
    /// A generic interface's name: calls of it are resolved to a specific procedure
    /// once every unit is analyzed (`front::fortran::generic`).
    generic: bool,
    /// Where the name comes from when it is not the unit's own.
    import: Import,
    /// For an entity of a module: the module and its name there.
    global: Option<GlobalRef>,
    /// Declared POINTER, read as ALLOCATABLE (`front::fortran::pointers::allocatable`).
    pointer: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Import {
    Local,
    /// From the host module: a local declaration hides it.
    Host,
    /// By USE: it cannot be declared again.
    Use,
}

/// What a module makes visible to the units that use it or that it contains.
#[derive(Clone, Debug)]
pub struct ModuleScope {
    infos: Vec<Info>,
    types: BTreeMap<String, TypeInfo>,
    interfaces: BTreeMap<String, Interface>,
    implicit: Vec<Option<(TypeSpec, ScalarType)>>,
    implicit_none: bool,
    /// Its procedures that only exchange the associations of their POINTER dummies
    /// (`pointers::Shuffler`), by key: the units that use it inline their calls.
    pub shufflers: BTreeMap<String, crate::front::fortran::pointers::Shuffler>,
    /// The POINTER variables adgen follows by selectors (`pointers::module`), its own
    /// and those it brings by USE, by key: the units that use it follow them too.
    pub pointer_selectors: crate::front::fortran::pointers::Selectors,
}

impl ModuleScope {
    /// The names it makes visible.
    pub fn names(&self) -> Vec<String> {
        self.infos.iter().map(|i| i.name.clone()).collect()
    }
}

/// The modules analyzed so far, by key.
pub type Modules = BTreeMap<String, ModuleScope>;

/// A procedure of a module, as the module's other units see it before it is analyzed.
#[derive(Clone, Debug)]
pub struct ModuleProcedure {
    pub name: String,
    /// Its dummy arguments, in order.
    pub args: Vec<String>,
    /// The result type of a function, `None` for a subroutine.
    pub result_type: Option<TypeSpec>,
    /// The dimensions of an array-valued function's result, in its own dummies' names.
    pub result_dims: Option<Vec<DimSpec>>,
    pub span: Span,
}

impl ModuleProcedure {
    /// A procedure as the units that see it know it: name, result type and dimensions.
    pub fn of(u: &Unit) -> ModuleProcedure {
        let mut result_type = u.prefix_type.clone();
        let mut result_dims = None;
        if let Some(r) = &u.result {
            for d in &u.decls {
                if let DeclKind::Var {
                    spec,
                    attrs,
                    entities,
                } = &d.kind
                    && let Some(e) = entities.iter().find(|e| key(&e.name) == key(r))
                {
                    result_type.get_or_insert_with(|| spec.clone());
                    let attr_dims = attrs.iter().find_map(|a| match a {
                        Attr::Dimension(d) => Some(d.clone()),
                        _ => None,
                    });
                    result_dims = e.dims.clone().or(attr_dims);
                }
            }
        }
        ModuleProcedure {
            name: u.name.clone(),
            args: u.args.clone(),
            result_type: u.result.as_ref().and(result_type),
            result_dims,
            span: u.span,
        }
    }
}

impl Info {
    fn new(name: &str, span: Span) -> Info {
        Info {
            name: name.to_string(),
            span,
            spec: None,
            ty: None,
            dims: None,
            intent: None,
            constant: false,
            value: None,
            external: false,
            arg_index: None,
            is_result: false,
            used_var: false,
            used_proc: false,
            used_intrinsic: false,
            generic: false,
            import: Import::Local,
            global: None,
            pointer: false,
        }
    }
}

struct Sema<'d> {
    diags: &'d mut Vec<Diagnostic>,
    infos: Vec<Info>,
    by_key: BTreeMap<String, usize>,
    /// Implicit type per letter, `None` under IMPLICIT NONE.
    implicit: Vec<Option<(TypeSpec, ScalarType)>>,
    implicit_none: bool,
    /// Names already reported, so each problem is reported once.
    reported: BTreeSet<String>,
    args: Vec<String>,
    arg_spans: Vec<Span>,
    header_span: Span,
    in_decl: bool,
    /// Set while resolving the right side of an assignment to a whole array.
    quiet_whole_arrays: bool,
    /// Resolving the whole right-hand side of an assignment: the one place a structure
    /// constructor `node(a, b)` is taken (`prepare` splits it by component).
    at_assignment_rhs: bool,
    /// For `FUNCTION f(...) RESULT(r)`: `f`, which is then not a variable.
    result_renamed_from: Option<String>,
    /// Derived types visible here, by key.
    types: BTreeMap<String, TypeInfo>,
    /// Interfaces a `PROCEDURE(iface)` declaration may name (abstract interfaces and
    /// interface bodies), by key.
    interfaces: BTreeMap<String, Interface>,
    /// Calls written through type-bound procedures: key of the specific → how.
    source_calls: BTreeMap<String, crate::il::SourceCall>,
}

/// An interface: the type of its function result (`None` for a subroutine).
type Interface = Option<(TypeSpec, ScalarType)>;

/// A derived type: its components with their meaning, in order.
#[derive(Clone, Debug)]
pub struct TypeInfo {
    pub components: Vec<Component>,
    /// Its type-bound procedures (`bindings`): specific bindings, and GENERIC ones.
    bindings: Vec<BoundProcedure>,
    /// The module that defines it (known at the module's end): its generic bindings
    /// are generics of that module (`front::fortran::generic`).
    owner: Option<String>,
}

/// A specific binding of a type, as calls through it need it: the procedure, the
/// position of the object among its arguments (`None`: NOPASS), and what the module
/// that defines the type knows of the procedure (for units that do not see it).
#[derive(Clone, Debug)]
struct BoundProcedure {
    binding: crate::il::Binding,
    pass: Option<usize>,
    info: Option<Info>,
}

#[derive(Clone, Debug)]
pub struct Component {
    pub name: String,
    /// With a literal kind, valid wherever the type is used.
    pub spec: TypeSpec,
    pub ty: ScalarType,
    pub dims: Option<Vec<DimSpec>>,
    /// ALLOCATABLE (deferred shape): allocated with the variable it belongs to.
    pub allocatable: bool,
    /// Declared POINTER, read as ALLOCATABLE (`front::fortran::pointers::allocatable`).
    pub pointer: bool,
}

fn default_implicit() -> Vec<Option<(TypeSpec, ScalarType)>> {
    (b'a'..=b'z')
        .map(|l| {
            let ty = if (b'i'..=b'n').contains(&l) {
                ScalarType::Integer(4)
            } else {
                ScalarType::Real(4)
            };
            Some((TypeSpec::of(ty), ty))
        })
        .collect()
}

/// Where the parts of a unit's header are.
#[derive(Clone, Debug, Default)]
pub struct HeaderSpans {
    /// The SUBROUTINE or FUNCTION statement.
    pub header: Span,
    /// Each dummy argument, in order.
    pub args: Vec<Span>,
}

/// Analyzes `unit` in place: fills its symbol table and resolves every name. Names of
/// its host module and of the modules it uses come from `modules`. For a module, returns
/// what it makes visible, its `procedures` included.
pub fn analyze(
    unit: &mut Unit,
    spans: &HeaderSpans,
    diags: &mut Vec<Diagnostic>,
    modules: &Modules,
    procedures: &[ModuleProcedure],
) -> Option<ModuleScope> {
    let label = unit.is_module().then(|| unit.name.clone());
    analyze_unit(unit, spans, diags, modules, procedures, label)
}

/// What a procedure with internal procedures makes visible to them (host association):
/// its names, with the variables and constants of its own marked as globals of the
/// pseudo-module `#host` (`lift` turns those into arguments and copies).
pub fn host_scope(
    unit: &mut Unit,
    spans: &HeaderSpans,
    diags: &mut Vec<Diagnostic>,
    modules: &Modules,
    procedures: &[ModuleProcedure],
) -> ModuleScope {
    let label = host_label(&unit.name);
    analyze_unit(unit, spans, diags, modules, procedures, Some(label)).expect("a scope")
}

/// The pseudo-module name under which a host procedure's own names are globals of its
/// internal procedures.
pub fn host_label(host: &str) -> String {
    format!("#{}", key(host))
}

/// `procedures`: for a module, its procedures; for a procedure, its internal procedures
/// (declared before its body is resolved). `scope`: the name under which the unit's own
/// names are globals of the units that see it, when it has such units.
fn analyze_unit(
    unit: &mut Unit,
    spans: &HeaderSpans,
    diags: &mut Vec<Diagnostic>,
    modules: &Modules,
    procedures: &[ModuleProcedure],
    scope: Option<String>,
) -> Option<ModuleScope> {
    let mut sema = Sema {
        diags,
        infos: Vec::new(),
        by_key: BTreeMap::new(),
        implicit: default_implicit(),
        implicit_none: false,
        reported: BTreeSet::new(),
        args: unit.args.iter().map(|a| key(a)).collect(),
        arg_spans: spans.args.clone(),
        header_span: spans.header,
        in_decl: true,
        quiet_whole_arrays: false,
        at_assignment_rhs: false,
        result_renamed_from: unit.explicit_result.then(|| unit.name.clone()),
        types: BTreeMap::new(),
        interfaces: BTreeMap::new(),
        source_calls: BTreeMap::new(),
    };
    sema.header(unit);
    let mut decls = std::mem::take(&mut unit.decls);
    if let Some(host) = &unit.host {
        match modules.get(crate::il::key_ref(host).as_ref()) {
            Some(scope) => sema.import_host(scope, unit),
            None => {
                sema.error(
                    "E0313",
                    format!(
                        "the host module `{host}` of `{}` was not analyzed",
                        unit.name
                    ),
                    unit.span,
                );
            }
        }
    }
    for decl in &decls {
        if let DeclKind::Use {
            module,
            only,
            renames,
        } = &decl.kind
        {
            sema.import_use(modules, module, only.as_deref(), renames, decl.span);
        }
    }
    // In a procedure, an initializer implies SAVE: made explicit, for the analyses. The
    // initialized entities of a declaration that also has others move to a declaration
    // of their own, right after it (`real :: t, c = 2` saves `c`, not `t`).
    if !unit.is_module() {
        let mut split = Vec::with_capacity(decls.len());
        for mut decl in decls {
            let mut saved = None;
            if let DeclKind::Var {
                spec,
                attrs,
                entities,
            } = &mut decl.kind
            {
                let initialized = entities.iter().any(|e| e.init.is_some());
                let already = attrs
                    .iter()
                    .any(|a| matches!(a, Attr::Parameter | Attr::Save));
                if initialized && !already {
                    if entities.iter().all(|e| e.init.is_some()) {
                        attrs.push(Attr::Save);
                    } else {
                        let (with, without): (Vec<_>, Vec<_>) =
                            entities.drain(..).partition(|e| e.init.is_some());
                        *entities = without;
                        let mut attrs = attrs.clone();
                        attrs.push(Attr::Save);
                        saved = Some(crate::il::Decl {
                            kind: DeclKind::Var {
                                spec: spec.clone(),
                                attrs,
                                entities: with,
                            },
                            span: decl.span,
                        });
                    }
                }
            }
            split.push(decl);
            split.extend(saved);
        }
        decls = split;
    }
    sema.implicit_rules(&decls);
    for decl in &decls {
        sema.declare(&decl.kind, decl.span);
    }
    sema.finish_header(unit);
    if !unit.is_module() {
        sema.declare_procedures(procedures);
    }
    for decl in &mut decls {
        sema.resolve_decl(&mut decl.kind);
    }
    unit.decls = decls;
    sema.in_decl = false;
    let mut body = std::mem::take(&mut unit.body);
    sema.resolve_block(&mut body);
    sema.check_untyped_names();
    sema.check_variable_and_function();
    unit.body = body;
    unit.source_calls.append(&mut sema.source_calls);
    unit.symbols = sema.symbols();
    let module = scope?;
    if unit.is_module() {
        for symbol in unit.symbols.iter_mut() {
            if symbol.global.is_none() {
                symbol.global = Some(GlobalRef {
                    module: unit.name.clone(),
                    name: symbol.name.clone(),
                });
            }
        }
        sema.declare_procedures(procedures);
        sema.resolve_bindings(procedures, &unit.name);
    }
    let infos = sema
        .infos
        .iter()
        .map(|info| {
            let mut info = info.clone();
            if info.global.is_none() {
                info.global = Some(GlobalRef {
                    module: module.clone(),
                    name: info.name.clone(),
                });
            }
            info.used_var = false;
            // A host's dummies and result are not those of the units that see them.
            info.arg_index = None;
            info.is_result = false;
            info.used_proc = false;
            info.used_intrinsic = false;
            info
        })
        .collect();
    Some(ModuleScope {
        infos,
        types: sema.types.clone(),
        interfaces: sema.interfaces.clone(),
        implicit: sema.implicit.clone(),
        implicit_none: sema.implicit_none,
        shufflers: BTreeMap::new(),
        pointer_selectors: BTreeMap::new(),
    })
}

impl Sema<'_> {
    fn declare_procedures(&mut self, procedures: &[ModuleProcedure]) {
        for p in procedures {
            let i = self.get_or_create(&p.name, p.span);
            self.infos[i].external = true;
            if let Some(spec) = &p.result_type {
                let ty = self.type_of_spec(spec, p.span);
                self.infos[i].spec = Some(spec.clone());
                self.infos[i].ty = Some(ty);
            }
            // An array-valued function: its calls are array expressions.
            if let Some(dims) = &p.result_dims {
                self.infos[i].dims = Some(dims.clone());
            }
        }
    }

    /// The entry a declaration of `name` fills: a name of the host module is hidden by
    /// a new local one; a use-associated name cannot be declared again.
    fn local(&mut self, name: &str, span: Span) -> usize {
        if let Some(i) = self.lookup(name) {
            match self.infos[i].import {
                Import::Local => {}
                Import::Host => {
                    let arg_index = self.args.iter().position(|a| *a == key(name));
                    self.infos[i] = Info::new(name, span);
                    self.infos[i].arg_index = arg_index;
                }
                Import::Use => {
                    let module = self.infos[i]
                        .global
                        .as_ref()
                        .map(|g| g.module.clone())
                        .unwrap_or_default();
                    self.error(
                        "E0307",
                        format!("`{name}` comes from module `{module}` by USE; it cannot be declared again"),
                        span,
                    )
                    .help = Some(format!("rename it in the USE statement (`local => {name}`) or remove this declaration"));
                    // Reported once: from here on the name is the unit's own.
                    let arg_index = self.args.iter().position(|a| *a == key(name));
                    self.infos[i] = Info::new(name, span);
                    self.infos[i].arg_index = arg_index;
                }
            }
            return i;
        }
        self.get_or_create(name, span)
    }

    fn error(&mut self, code: &'static str, msg: String, span: Span) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(code, msg).at(span));
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.by_key.get(crate::il::key_ref(name).as_ref()).copied()
    }

    fn get_or_create(&mut self, name: &str, span: Span) -> usize {
        if let Some(i) = self.lookup(name) {
            return i;
        }
        let mut info = Info::new(name, span);
        info.arg_index = self.args.iter().position(|a| *a == key(name));
        self.by_key.insert(key(name), self.infos.len());
        self.infos.push(info);
        self.infos.len() - 1
    }

    fn implicit_of(&self, name: &str) -> Option<(TypeSpec, ScalarType)> {
        let first = name.bytes().next()?.to_ascii_lowercase();
        if !first.is_ascii_lowercase() {
            return None;
        }
        self.implicit
            .get((first - b'a') as usize)
            .cloned()
            .flatten()
    }

    /// Type of a name: declared, else implicit.
    fn type_of(&self, i: usize) -> Option<ScalarType> {
        let info = &self.infos[i];
        info.ty
            .or_else(|| self.implicit_of(&info.name).map(|(_, t)| t))
    }

    fn arg_span(&self, index: usize, fallback: Span) -> Span {
        self.arg_spans.get(index).copied().unwrap_or(fallback)
    }

    fn header(&mut self, unit: &Unit) {
        let mut seen = BTreeSet::new();
        for (index, arg) in unit.args.iter().enumerate() {
            if !seen.insert(key(arg)) {
                let span = self.arg_span(index, unit.span);
                self.error(
                    "E0307",
                    format!("`{arg}` appears twice among the dummy arguments"),
                    span,
                );
            }
        }
        if let Some(result) = &unit.result
            && self.args.contains(&crate::il::key(result))
        {
            self.error(
                "E0307",
                format!("the result `{result}` is also a dummy argument"),
                self.header_span,
            );
        }
    }

    fn implicit_rules(&mut self, decls: &[crate::il::Decl]) {
        // Only this unit's own statements conflict: a procedure may repeat the IMPLICIT
        // NONE of its host module, or give IMPLICIT rules of its own under it.
        let (mut saw_rules, mut saw_none) = (false, false);
        for decl in decls {
            let DeclKind::Implicit(rules) = &decl.kind else {
                continue;
            };
            if rules.is_empty() {
                if saw_none || saw_rules {
                    self.error(
                        "E0307",
                        "IMPLICIT NONE must be the only IMPLICIT statement".to_string(),
                        decl.span,
                    );
                }
                self.implicit_none = true;
                saw_none = true;
                self.implicit = vec![None; 26];
                continue;
            }
            if saw_none {
                self.error(
                    "E0307",
                    "IMPLICIT rules cannot follow IMPLICIT NONE".to_string(),
                    decl.span,
                );
                continue;
            }
            saw_rules = true;
            for rule in rules {
                let ty = self.type_of_spec(&rule.spec, decl.span);
                for &(lo, hi) in &rule.ranges {
                    for letter in lo..=hi {
                        if letter.is_ascii_lowercase() {
                            self.implicit[(letter as u8 - b'a') as usize] =
                                Some((rule.spec.clone(), ty));
                        }
                    }
                }
            }
        }
    }

    /// After the declarations: dummy arguments and the result exist, with their types.
    fn finish_header(&mut self, unit: &Unit) {
        for (index, arg) in unit.args.iter().enumerate() {
            let span = self.arg_span(index, unit.span);
            let i = self.get_or_create(arg, span);
            self.infos[i].arg_index = Some(index);
        }
        if unit.kind == UnitKind::Function {
            let result = unit.result.clone().unwrap_or_else(|| unit.name.clone());
            let i = self.get_or_create(&result, self.header_span);
            self.infos[i].is_result = true;
            if let Some(prefix) = &unit.prefix_type {
                if self.infos[i].spec.is_some() {
                    self.duplicate(
                        &result,
                        "type (in the FUNCTION statement and in a declaration)",
                        self.infos[i].span,
                    );
                } else {
                    let ty = self.type_of_spec(prefix, self.header_span);
                    self.infos[i].spec = Some(prefix.clone());
                    self.infos[i].ty = Some(ty);
                    // `type(vec) function twist(a)`: the result's components, as a
                    // declaration `type(vec) :: twist` gives them.
                    if let (ScalarType::Derived, Some(t)) = (ty, prefix.type_name.clone()) {
                        self.components_of(&result, &t, self.header_span, &[]);
                    }
                }
            }
        }
    }

    /// A name both called as a function and used as a variable is one or the other.
    fn check_variable_and_function(&mut self) {
        for i in 0..self.infos.len() {
            let info = &self.infos[i];
            if info.used_proc
                && info.used_var
                && info.dims.is_none()
                && !info.external
                && !info.is_result
                && info.arg_index.is_none()
            {
                let (name, span) = (info.name.clone(), info.span);
                self.error(
                    "E0309",
                    format!("`{name}` is used both as a variable and as a function"),
                    span,
                )
                .help = Some(format!(
                    "declare `{name}` EXTERNAL if it is a function passed as an argument, or rename one of them"
                ));
            }
        }
    }

    /// After the body: every name needs a type (under IMPLICIT NONE, a declaration),
    /// except procedures only ever called.
    fn check_untyped_names(&mut self) {
        for i in 0..self.infos.len() {
            let info = &self.infos[i];
            let only_called = (info.used_proc || info.used_intrinsic) && !info.used_var;
            if self.type_of(i).is_none() && !info.external && !only_called {
                let name = info.name.clone();
                let span = info.span;
                self.undeclared(&name, span);
            }
        }
    }

    pub(super) fn undeclared(&mut self, name: &str, span: Span) {
        if self.reported.insert(key(name)) {
            self.error(
                "E0301",
                format!("`{name}` is not declared (IMPLICIT NONE is in effect)"),
                span,
            )
            .help = Some(format!("declare it, e.g. `real(8) :: {name}`"));
        }
    }

    /// The symbol table, in order of first declaration or use.
    fn symbols(&self) -> SymbolTable {
        let mut table = SymbolTable::default();
        for info in &self.infos {
            let kind = if info.constant {
                SymbolKind::Constant
            } else if info.is_result {
                SymbolKind::Variable
            } else if info.external
                || (info.used_proc && (!info.used_var || info.arg_index.is_some()))
                || (info.used_intrinsic && !info.used_var)
            {
                SymbolKind::Procedure
            } else {
                SymbolKind::Variable
            };
            let implicit_rule = self.implicit_of(&info.name);
            let (type_spec, ty, implicit) = match (&info.spec, info.ty, implicit_rule) {
                (Some(spec), Some(ty), _) => (spec.clone(), ty, false),
                (_, _, Some((spec, ty))) => (spec, ty, true),
                _ => {
                    // An untyped procedure (a subroutine named EXTERNAL): its type is
                    // never used; take Fortran's default rule.
                    let first = info
                        .name
                        .bytes()
                        .next()
                        .unwrap_or(b'a')
                        .to_ascii_lowercase();
                    let ty = if (b'i'..=b'n').contains(&first) {
                        ScalarType::Integer(4)
                    } else {
                        ScalarType::Real(4)
                    };
                    (TypeSpec::of(ty), ty, true)
                }
            };
            table.insert(Symbol {
                name: info.name.clone(),
                kind,
                ty,
                type_spec,
                dims: info.dims.clone().unwrap_or_default(),
                intent: info.intent,
                arg_index: info.arg_index,
                is_result: info.is_result,
                implicit,
                span: info.span,
                // COMMON variables are the unit's own declarations but global storage.
                global: if info.import == Import::Local
                    && !info
                        .global
                        .as_ref()
                        .is_some_and(|g| g.module.starts_with('/'))
                {
                    None
                } else {
                    info.global.clone()
                },
                pointer: info.pointer,
            });
        }
        table
    }
}
