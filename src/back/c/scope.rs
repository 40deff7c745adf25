//! File scope of printed C: struct types and global variables.
//!
//! A C source's pseudo-module (a unit of kind [`UnitKind::Module`], see
//! `front::c::lower::globals`) holds its struct definitions and globals; a derivative
//! module holds the derivative struct types (`struct point_d`) and the derivatives of
//! active globals (`g_stated`). Printed back (the round trip), an original module gives
//! its definitions again; in a generated file, original globals are `extern` (the user's
//! translation unit defines them), the derivative globals of the file's own derivative
//! modules are defined (once: each source's derivatives of one mode go into one file),
//! and those of other files' are `extern`. Struct types are printed wherever they are
//! needed: an identical definition in another translation unit is the same type.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{Cx, c_type};
use crate::il::calls::{VarInfo, spec_type};
use crate::il::{self, Attr, DeclKind, DimSpec, Expr, ExprKind, ScalarType, TypeSpec, Unit, key};

/// A struct type: its C name (`struct point`, or a typedef name) and members.
#[derive(Clone, Debug)]
pub(super) struct StructInfo {
    pub name: String,
    pub fields: Vec<(String, VarInfo)>,
    /// The user header that defines an original struct, as `#include` spells it.
    pub header: Option<String>,
}

/// A global variable: its declaration and where it lives.
#[derive(Clone, Debug)]
pub(super) struct GlobalDecl {
    pub name: String,
    pub info: VarInfo,
    pub init: Option<Expr>,
    pub is_static: bool,
    /// A `const` table: defined (as a `static` copy) wherever it is used.
    pub is_const: bool,
    /// The key of the module that holds it.
    pub module: String,
}

/// The struct types and globals of every module the printed file may refer to.
#[derive(Clone, Debug, Default)]
pub(super) struct Env {
    pub structs: BTreeMap<String, StructInfo>,
    pub globals: BTreeMap<String, GlobalDecl>,
}

/// The variable a declaration of `spec` with `dims` gives.
fn var_info(spec: &TypeSpec, dims: Vec<DimSpec>) -> VarInfo {
    VarInfo {
        ty: spec_type(spec),
        dims,
        pass: None,
        intent_in: false,
        type_name: spec.type_name.clone(),
        rows: false,
    }
}

impl Env {
    /// From every module unit among `units` (the first definition of a name wins).
    pub fn new<'a>(units: impl Iterator<Item = &'a Unit>) -> Env {
        let mut env = Env::default();
        for m in units.filter(|u| u.is_module()) {
            for d in &m.decls {
                match &d.kind {
                    DeclKind::TypeDef {
                        name,
                        components,
                        header,
                        ..
                    } => {
                        let mut fields = Vec::new();
                        for c in components {
                            if let DeclKind::Var { spec, entities, .. } = &c.kind {
                                for e in entities {
                                    fields.push((
                                        e.name.clone(),
                                        var_info(spec, e.dims.clone().unwrap_or_default()),
                                    ));
                                }
                            }
                        }
                        env.structs.entry(key(name)).or_insert_with(|| StructInfo {
                            name: name.clone(),
                            fields,
                            header: header.clone(),
                        });
                    }
                    DeclKind::Var {
                        spec,
                        attrs,
                        entities,
                    } => {
                        // Named constants of a C module are its `const` tables (Fortran
                        // modules never reach the C back-end).
                        if attrs.iter().any(|a| matches!(a, Attr::External)) {
                            continue;
                        }
                        for e in entities {
                            env.globals
                                .entry(key(&e.name))
                                .or_insert_with(|| GlobalDecl {
                                    name: e.name.clone(),
                                    info: var_info(spec, e.dims.clone().unwrap_or_default()),
                                    init: e.init.clone(),
                                    is_static: attrs.iter().any(|a| matches!(a, Attr::Private)),
                                    is_const: attrs.iter().any(|a| matches!(a, Attr::Parameter)),
                                    module: key(&m.name),
                                });
                        }
                    }
                    _ => {}
                }
            }
        }
        env
    }

    /// The variable a member path (`s%v`, `sd%in%x`) designates, the struct variable
    /// `base` being known.
    pub fn member(&self, base: &VarInfo, path: &[&str]) -> Option<VarInfo> {
        let mut v = base.clone();
        for part in path {
            let s = self
                .structs
                .get(crate::il::key_ref(v.type_name.as_deref()?).as_ref())?;
            let (_, f) = s.fields.iter().find(|(n, _)| key(n) == key(part))?;
            v = f.clone();
        }
        Some(v)
    }

    /// The struct types (keys) a type needs defined before it, then itself: in an order
    /// that compiles.
    pub fn type_order(&self, name: &str, out: &mut Vec<String>, seen: &mut BTreeSet<String>) {
        let k = key(name);
        if !seen.insert(k.clone()) {
            return;
        }
        if let Some(s) = self.structs.get(&k) {
            for (_, f) in &s.fields {
                if let Some(t) = &f.type_name {
                    self.type_order(t, out, seen);
                }
            }
            out.push(k);
        }
    }

    /// `struct point { double x; ... };` or `typedef struct { ... } vec;`.
    pub fn definition(&self, k: &str) -> String {
        let Some(s) = self.structs.get(k) else {
            return String::new();
        };
        let mut out = String::new();
        let members: String = s
            .fields
            .iter()
            .map(|(n, f)| format!("  {};\n", declarator(f, n)))
            .collect();
        match s.name.strip_prefix("struct ") {
            Some(_) => write!(out, "{} {{\n{members}}};\n", s.name).unwrap(),
            None => write!(out, "typedef struct {{\n{members}}} {};\n", s.name).unwrap(),
        }
        out
    }
}

/// The C type of a variable: a struct's name, or the scalar type.
pub(super) fn type_text(v: &VarInfo) -> String {
    match (v.ty, &v.type_name) {
        (ScalarType::Derived, Some(t)) => t.clone(),
        (ty, _) => c_type(ty).to_string(),
    }
}

/// `double x[3][2]`: a declaration of `name` with the variable's type and extents
/// (reversed: the IL is column-major).
pub(super) fn declarator(v: &VarInfo, name: &str) -> String {
    let mut line = format!("{} {name}", type_text(v));
    for d in v.dims.iter().rev() {
        let n = match (&d.lower, &d.upper) {
            (l, il::Bound::Expr(u)) => {
                let l = l.as_ref().and_then(super::int_value).unwrap_or(1);
                super::int_value(u).map(|u| (u - l + 1).to_string())
            }
            _ => None,
        };
        write!(line, "[{}]", n.unwrap_or_default()).unwrap();
    }
    line
}

/// A C `double **a` parameter indexed `a[i][j]` (an array of row pointers,
/// [`il::Attr::RowPointers`]): printed `double **a`, its elements `a[i][j]`.
pub(super) fn row_pointers(v: &VarInfo) -> bool {
    v.rows && v.pass.is_some() && v.dims.len() == 2
}

/// The name (key) of every variable a unit refers to in its body, paths included.
pub(super) fn referenced(unit: &Unit) -> BTreeSet<String> {
    crate::il::visit::referenced_names(&unit.body)
}

/// A path in C: `s%x%y` → `s.x.y`, or `s->x.y` when `s` is a pointer.
pub(super) fn c_path(name: &str, pointer: bool) -> String {
    let mut parts = name.split('%');
    let base = parts.next().unwrap_or(name);
    let mut out = base.to_string();
    for (i, p) in parts.enumerate() {
        out.push_str(if i == 0 && pointer { "->" } else { "." });
        out.push_str(p);
    }
    out
}

/// Completes the variables of a unit with the globals and member paths its body uses.
pub(super) fn complete_vars(unit: &Unit, vars: &mut BTreeMap<String, VarInfo>, env: &Env) {
    let mut names: Vec<String> = referenced(unit).into_iter().collect();
    // Globals first, so that the paths below them resolve.
    names.sort_by_key(|n| n.contains('%'));
    for name in names {
        if vars.contains_key(&name) {
            continue;
        }
        let mut parts = name.split('%');
        let base = parts.next().unwrap_or(&name).to_string();
        if !vars.contains_key(&base) {
            if let Some(g) = env.globals.get(&base) {
                vars.insert(base.clone(), g.info.clone());
            }
        }
        let rest: Vec<&str> = parts.collect();
        if rest.is_empty() {
            continue;
        }
        if let Some(b) = vars.get(&base)
            && let Some(mut v) = env.member(b, &rest)
        {
            // A member of an array of structs is a view of the array's shape.
            v.dims = view_dims(&b.dims, &v.dims);
            vars.insert(name.clone(), v);
        }
    }
}

/// The literal of a global's initializer: `{1.0, 2.0}` for an array.
pub(super) fn init_text(cx: &Cx, init: &Expr) -> String {
    match &init.kind {
        ExprKind::ArrayCtor(items) => {
            let items: Vec<String> = items.iter().map(|e| init_text(cx, e)).collect();
            format!("{{{}}}", items.join(", "))
        }
        _ => cx.expr(init),
    }
}

/// What a file refers to at file scope: its struct types, in an order that compiles,
/// then its globals' declarations (definitions of the original ones when `originals`,
/// the round trip).
pub(super) fn file_scope(
    env: &Env,
    file: &il::File,
    printed: &[&Unit],
    own_are_originals: bool,
    init: &dyn Fn(&Expr) -> String,
) -> String {
    // Modules of this file: their globals are defined here.
    let own_modules: BTreeSet<String> = file
        .units
        .iter()
        .filter(|u| u.is_module())
        .map(|u| key(&u.name))
        .collect();
    let mut wanted_globals: BTreeSet<String> = BTreeSet::new();
    let mut wanted_types: Vec<String> = Vec::new();
    for g in env.globals.values() {
        if own_modules.contains(&g.module) && (!g.is_const || own_are_originals) {
            wanted_globals.insert(key(&g.name));
        }
    }
    for u in printed {
        let own: BTreeSet<String> = u
            .args
            .iter()
            .map(|a| key(a))
            .chain(declared_locals(u))
            .collect();
        for name in referenced(u) {
            let base = name.split('%').next().unwrap_or(&name).to_string();
            if !own.contains(&base) && env.globals.contains_key(&base) {
                wanted_globals.insert(base);
            }
        }
        for v in crate::il::calls::unit_vars(u).values() {
            if let Some(t) = &v.type_name {
                wanted_types.push(t.clone());
            }
        }
    }
    for g in &wanted_globals {
        if let Some(t) = &env.globals[g].info.type_name {
            wanted_types.push(t.clone());
        }
    }
    let mut order = Vec::new();
    let mut seen = BTreeSet::new();
    for t in &wanted_types {
        env.type_order(t, &mut order, &mut seen);
    }
    let mut out = String::new();
    for k in &order {
        out.push_str(&env.definition(k));
        out.push('\n');
    }
    let mut globals: Vec<&GlobalDecl> = wanted_globals.iter().map(|g| &env.globals[g]).collect();
    // Definitions in the modules' declaration order, then `extern`s by name.
    globals.sort_by_key(|g| (!own_modules.contains(&g.module), g.module.clone()));
    let mut any = false;
    for g in globals {
        let decl = declarator(&g.info, &g.name);
        if g.is_const {
            // Constant data: the original's definition, or a private copy of it.
            let storage = if g.is_static || !own_modules.contains(&g.module) {
                "static "
            } else {
                ""
            };
            let value = g.init.as_ref().map(init).unwrap_or_default();
            writeln!(out, "{storage}const {decl} = {value};").unwrap();
        } else if own_modules.contains(&g.module) {
            let storage = if g.is_static { "static " } else { "" };
            match (&g.init, own_are_originals) {
                (Some(i), true) => writeln!(out, "{storage}{decl} = {};", init(i)).unwrap(),
                _ => writeln!(out, "{storage}{decl};").unwrap(),
            }
        } else {
            writeln!(out, "extern {decl};").unwrap();
        }
        any = true;
    }
    if any {
        out.push('\n');
    }
    out
}

/// Keys of the variables a unit declares itself (not the globals its symbols know).
pub(super) fn declared_locals(u: &Unit) -> Vec<String> {
    let mut out = Vec::new();
    for d in &u.decls {
        if let DeclKind::Var { entities, .. } = &d.kind {
            out.extend(entities.iter().map(|e| key(&e.name)));
        }
    }
    for s in u.symbols.iter() {
        if s.is_variable() && s.global.is_none() && !s.name.contains('%') {
            out.push(key(&s.name));
        }
    }
    out
}

/// The header's file scope: forward declarations of the original struct types the
/// prototypes name, the definitions of derivative struct types (each guarded, as
/// several headers may define one), and `extern` declarations of the derivative
/// globals the file defines.
pub(super) fn header_scope(env: &Env, file: &il::File, originals: &il::Program) -> String {
    let original_types: BTreeSet<String> = originals
        .units()
        .filter(|u| u.is_module())
        .flat_map(|m| m.decls.iter())
        .filter_map(|d| match &d.kind {
            DeclKind::TypeDef { name, .. } => Some(key(name)),
            _ => None,
        })
        .collect();
    let own_modules: BTreeSet<String> = file
        .units
        .iter()
        .filter(|u| u.is_module())
        .map(|u| key(&u.name))
        .collect();
    let mut wanted: Vec<String> = Vec::new();
    for u in file.units.iter().filter(|u| u.is_procedure()) {
        for a in &u.args {
            if let Some(t) = crate::il::calls::unit_vars(u)
                .get(crate::il::key_ref(a).as_ref())
                .and_then(|v| v.type_name.clone())
            {
                wanted.push(t);
            }
        }
    }
    let globals: Vec<&GlobalDecl> = env
        .globals
        .values()
        .filter(|g| own_modules.contains(&g.module) && !g.is_const)
        .collect();
    for g in &globals {
        if let Some(t) = &g.info.type_name {
            wanted.push(t.clone());
        }
    }
    // Every derivative type of the file's modules, for drivers that seed globals.
    for m in file.units.iter().filter(|u| u.is_module()) {
        for d in &m.decls {
            if let DeclKind::TypeDef { name, .. } = &d.kind {
                wanted.push(name.clone());
            }
        }
    }
    let mut order = Vec::new();
    let mut seen = BTreeSet::new();
    for t in &wanted {
        env.type_order(t, &mut order, &mut seen);
    }
    // Originals are declared by their tag alone, unless a type printed whole (a
    // derivative type, or an original typedef of an anonymous struct) has one as a member.
    let mut whole: BTreeSet<String> = order
        .iter()
        .filter(|k| !original_types.contains(*k) || !env.structs[*k].name.starts_with("struct "))
        .cloned()
        .collect();
    for k in order.iter().rev() {
        if whole.contains(k) {
            for (_, f) in &env.structs[k].fields {
                if let Some(t) = &f.type_name {
                    whole.insert(key(t));
                }
            }
        }
    }
    let mut out = String::new();
    // An original struct that must be complete here (a typedef of an anonymous struct,
    // or a member of a type printed whole) comes from the user header that defines it,
    // which the user's own files include too: defined again, a typedef of an anonymous
    // struct would be another type, and a tagged one a redefinition. (The generated `.c`
    // never includes a user header: it defines its own copy, the same type for the
    // linker.)
    let from_header = |k: &String| {
        original_types.contains(k) && whole.contains(k) && env.structs[k].header.is_some()
    };
    let mut headers = BTreeSet::new();
    for k in order.iter().filter(|k| from_header(k)) {
        if let Some(h) = &env.structs[k].header {
            if headers.insert(h.as_str()) {
                let guard = type_guard(h);
                writeln!(out, "#ifndef ADGEN_HEADER_{guard}\n#define ADGEN_HEADER_{guard}\n#include \"{h}\"\n#endif").unwrap();
            }
        }
    }
    for k in &order {
        if from_header(k) {
            continue;
        }
        let name = &env.structs[k].name;
        let guard = type_guard(name);
        if !whole.contains(k) {
            writeln!(out, "{name};").unwrap();
            continue;
        }
        writeln!(
            out,
            "#ifndef ADGEN_TYPE_{guard}\n#define ADGEN_TYPE_{guard}\n{}#endif",
            env.definition(k)
        )
        .unwrap();
    }
    for g in globals {
        writeln!(out, "extern {};", declarator(&g.info, &g.name)).unwrap();
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// A name as a preprocessor guard: upper case, `_` for anything else.
fn type_guard(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// `(int)(sizeof(a) / sizeof(double))`, or the product of literal extents.
pub(super) fn size_text(cx: &Cx, e: &Expr) -> String {
    let Some(name) = e.base_name() else {
        return "0".into();
    };
    if let Some(v) = cx.var(name) {
        let mut n: Option<i64> = Some(1);
        for d in &v.dims {
            let l = d.lower.as_ref().map_or(Some(1), super::int_value);
            let u = match &d.upper {
                il::Bound::Expr(u) => super::int_value(u),
                _ => None,
            };
            n = match (n, l, u) {
                (Some(n), Some(l), Some(u)) => Some(n * (u - l + 1)),
                _ => None,
            };
        }
        if let (Some(n), false) = (n, v.dims.is_empty()) {
            return n.to_string();
        }
        if v.pass.is_none() {
            let c = cx.c_name(name);
            return format!("(int)(sizeof({c}) / sizeof({}))", c_type(v.ty));
        }
    }
    "0 /* size unknown */".into()
}

/// The member path's dims as a view: those of its array-of-structs base first.
fn view_dims(base: &[DimSpec], member: &[DimSpec]) -> Vec<DimSpec> {
    let mut all = base.to_vec();
    all.extend_from_slice(member);
    all
}
