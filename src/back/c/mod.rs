//! The C back-end: IL → readable C99 that `gcc -std=c99 -Wall -Wextra -Werror` compiles.
//!
//! - Scalars declared `Attr::Value` are passed by value; other scalar dummies are
//!   pointers, read and written as `(*x)`; array dummies are pointers indexed
//!   `x[i - lower]`, linearized column-major for rank > 1. Local arrays are C arrays with
//!   their dimensions reversed (`a(0:9, 0:4)` → `double a[5][10]`, `a(i, j)` → `a[j][i]`).
//! - A function unit returns its result variable.
//! - To pass `&x` or `x`, a call looks its callee up in a table built from every unit of
//!   the program it is given (originals and generated units).
//! - Original procedures that generated code calls are copied into the file as `static`
//!   functions, so that the generated file links whatever their linkage was (`static`,
//!   `inline`) in the user's source.
//! - File scope ([`scope`]): struct types are defined where needed; a module unit's
//!   globals are defined by the file that holds the module (original, or derivative
//!   globals such as `g_stated`) and declared `extern` elsewhere; member paths print as
//!   `s.x` or `p->x` (a struct passed by reference).
//! - The runtime's Fortran-style names (`pushreal8(x)`, `popcontrol(k)`,
//!   `pushreal8array(a, n)`) become its C API (`adgen_push_real8(&x)`, ...).

mod expr;
mod proto;
mod scope;
mod stmt;
mod structarr;
use expr::{Level, int_value};
use proto::Prototypes;
pub use proto::{prototype, prototype_in};
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_structarr;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::il::calls::{Pass, VarInfo, param_kinds, unit_vars};
use crate::il::{
    self, Arg, Attr, BinOp, Bound, DeclKind, DimSpec, Expr, ExprKind, Intrinsic, ScalarType, Stmt,
    StmtKind, Tape, TapeOp, UnOp, Unit, UnitKind, key,
};

/// The C type of a scalar type.
pub fn c_type(ty: ScalarType) -> &'static str {
    match ty {
        ScalarType::Real(8) => "double",
        ScalarType::Real(_) => "float",
        ScalarType::Complex(8) => "double _Complex",
        ScalarType::Complex(_) => "float _Complex",
        ScalarType::Integer(8) => "long",
        ScalarType::Integer(_) => "int",
        ScalarType::Logical => "int",
        ScalarType::Character => "char",
        // Derived types reach the C back-end only from Fortran, which it refuses.
        ScalarType::Derived => "void",
    }
}

/// Every unit a file's units may call, by key: originals, then generated units.
fn call_table<'a>(
    file: &'a il::File,
    originals: &'a il::Program,
    siblings: &'a [&'a il::File],
) -> BTreeMap<String, &'a Unit> {
    let mut table: BTreeMap<String, &Unit> = BTreeMap::new();
    for u in originals.units() {
        table.insert(key(&u.name), u);
    }
    for u in siblings.iter().flat_map(|f| f.units.iter()) {
        table.insert(key(&u.name), u);
    }
    for u in &file.units {
        table.insert(key(&u.name), u);
    }
    // Functions the sources call by prototype alone: their interface bodies, unless a
    // unit above defines them.
    for u in originals.units().chain(&file.units) {
        for d in &u.decls {
            if let DeclKind::Interface(bodies) = &d.kind {
                for b in bodies {
                    table.entry(key(&b.name)).or_insert(b);
                }
            }
        }
    }
    table
}

/// Prints a whole C file. `originals` is the program the file was generated from (its
/// procedures are copied as `static` functions when called); `siblings` are the other
/// generated files, whose units may be called too.
pub fn write_file(file: &il::File, originals: &il::Program, siblings: &[&il::File]) -> String {
    // C is case-sensitive: every reference takes its declaration's spelling.
    let spelling = |n: &str| {
        originals
            .units()
            .chain(siblings.iter().flat_map(|f| f.units.iter()))
            .find(|u| u.name.eq_ignore_ascii_case(n))
            .map(|u| u.name.clone())
    };
    let mut file = file.clone();
    for unit in &mut file.units {
        il::visit::canonical_spelling(unit, &spelling);
    }
    let file = &file;
    let table = call_table(file, originals, siblings);
    let protos = Prototypes::default();
    let generated: BTreeSet<String> = siblings
        .iter()
        .flat_map(|f| f.units.iter())
        .map(|u| key(&u.name))
        .collect();
    let own: BTreeSet<String> = file.units.iter().map(|u| key(&u.name)).collect();
    let is_original =
        |k: &str| !generated.contains(k) && originals.units().any(|u| key(&u.name) == k);
    // Originals of another language (Fortran `BIND(C)` procedures) are linked to, not
    // copied.
    let foreign: BTreeSet<String> = originals
        .files
        .iter()
        .filter(|f| f.language != il::Language::C)
        .flat_map(|f| f.units.iter())
        .map(|u| key(&u.name))
        .collect();
    // A file of originals (the round trip) copies nothing of its own.
    let own_are_originals = file.units.iter().all(|u| is_original(&key(&u.name)));
    // Originals the file calls, transitively, copied as static functions.
    let mut copies: Vec<&Unit> = Vec::new();
    let mut externs: Vec<&Unit> = Vec::new();
    let mut seen: BTreeSet<String> = own.clone();
    let mut work: Vec<&Unit> = file.units.iter().collect();
    while let Some(u) = work.pop() {
        for callee in callees(u) {
            let k = key(&callee);
            if !seen.insert(k.clone()) {
                continue;
            }
            let Some(cu) = table.get(&k) else { continue };
            if is_original(&k) && !own_are_originals && !foreign.contains(&k) && !cu.external {
                copies.push(cu);
                work.push(cu);
            } else {
                externs.push(cu);
            }
        }
    }
    copies.sort_by_key(|u| key(&u.name));
    externs.sort_by_key(|u| key(&u.name));
    let mut all: Vec<&Unit> = copies.clone();
    all.extend(file.units.iter().filter(|u| u.is_procedure()));
    let uses_runtime = all.iter().any(|u| uses_runtime(u));
    let uses_heap = all.iter().any(|u| uses_heap(u));
    let env = scope::Env::new(
        originals
            .units()
            .chain(siblings.iter().flat_map(|f| f.units.iter()))
            .chain(file.units.iter()),
    );
    let file_scope = {
        // Initializers are literals: any unit's context prints them.
        let first = file.units.first();
        let printer = |e: &Expr| match first {
            Some(u) => scope::init_text(&Cx::new(u, &table, &env), e),
            None => String::new(),
        };
        scope::file_scope(&env, file, &all, own_are_originals, &printer)
    };

    let mut out = String::new();
    writeln!(
        out,
        "/* @generated by adgen from {}. Do not edit. */",
        file.path
    )
    .unwrap();
    out.push_str("#include <math.h>\n");
    // `printf`/`fprintf` and `exit` kept as written.
    let io: Vec<&str> = all.iter().flat_map(|u| io_texts(u)).collect();
    if io.iter().any(|t| !t.starts_with("exit")) {
        out.push_str("#include <stdio.h>\n");
    }
    if uses_heap || io.iter().any(|t| t.starts_with("exit")) {
        out.push_str("#include <stdlib.h>\n");
    }
    // OPTIONAL dummies are tested, and absent arguments passed, as NULL.
    if table
        .values()
        .any(|u| u.args.iter().any(|a| u.is_optional(a)))
    {
        out.push_str("#include <stddef.h>\n");
    }
    if uses_runtime {
        out.push_str("#include \"adgen_runtime.h\"\n");
    }
    out.push('\n');
    out.push_str(&file_scope);
    for u in &externs {
        writeln!(out, "{};", protos.of(u, &table)).unwrap();
    }
    for u in &copies {
        writeln!(out, "static {};", protos.of(u, &table)).unwrap();
    }
    for u in file.units.iter().filter(|u| u.is_procedure()) {
        writeln!(out, "{};", protos.of(u, &table)).unwrap();
    }
    let is_copy: BTreeSet<String> = copies.iter().map(|u| key(&u.name)).collect();
    for u in all {
        out.push('\n');
        let prefix = if is_copy.contains(crate::il::key_ref(&u.name).as_ref()) {
            "static "
        } else {
            ""
        };
        write_unit_into(&mut out, u, &table, &protos, &env, prefix);
    }
    out
}

/// A header declaring every unit of a generated file.
pub fn write_header(
    file: &il::File,
    guard: &str,
    originals: &il::Program,
    siblings: &[&il::File],
) -> String {
    let table = call_table(file, originals, siblings);
    let protos = Prototypes::default();
    let guard: String = guard
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    let mut out = String::new();
    writeln!(
        out,
        "/* @generated by adgen from {}. Do not edit. */",
        file.path
    )
    .unwrap();
    writeln!(out, "#ifndef ADGEN_{guard}_H\n#define ADGEN_{guard}_H\n").unwrap();
    writeln!(out, "#ifdef __cplusplus\nextern \"C\" {{\n#endif\n").unwrap();
    let env = scope::Env::new(
        originals
            .units()
            .chain(siblings.iter().flat_map(|f| f.units.iter()))
            .chain(file.units.iter()),
    );
    out.push_str(&scope::header_scope(&env, file, originals));
    for u in file.units.iter().filter(|u| u.is_procedure()) {
        writeln!(out, "{};", protos.of(u, &table)).unwrap();
    }
    writeln!(out, "\n#ifdef __cplusplus\n}}\n#endif\n\n#endif").unwrap();
    out
}

/// The texts of the C output and `exit` statements of a unit (a C statement's text
/// ends with its `;`).
fn io_texts(u: &Unit) -> Vec<&str> {
    let mut out = Vec::new();
    il::visit::walk_stmts(&u.body, &mut |s| {
        if let StmtKind::Io { text, .. } = &s.kind {
            if text.ends_with(';') {
                out.push(text.as_str());
            }
        }
    });
    out
}

/// Names of the procedures a unit calls (not the runtime's).
fn callees(u: &Unit) -> Vec<String> {
    let mut out = Vec::new();
    il::visit::walk_stmts(&u.body, &mut |s| {
        if let StmtKind::Call { name, .. } = &s.kind {
            out.push(name.clone());
        }
        for e in il::visit::stmt_exprs(s) {
            il::visit::walk_expr(e, &mut |x| {
                if let ExprKind::Call(n, _) = &x.kind {
                    out.push(n.clone());
                }
            });
        }
    });
    out
}

/// Pushes and pops, or the runtime's `adgen_digamma`.
fn uses_runtime(u: &Unit) -> bool {
    uses_tape(u) || il::visit::calls_intrinsic(&u.body, il::Intrinsic::Digamma)
}

fn uses_tape(u: &Unit) -> bool {
    let mut found = false;
    il::visit::walk_stmts(&u.body, &mut |s| {
        found |= matches!(s.kind, StmtKind::Tape(_));
    });
    found
}

/// The runtime routine a tape statement calls: `adgen_push_real8`, `adgen_pop_integer4_array`.
fn runtime_routine(t: &Tape) -> String {
    let suffix = if t.count.is_some() { "_array" } else { "" };
    format!("adgen_{}_{}{suffix}", t.op.name(), t.ty.name())
}

struct Cx<'a> {
    unit: &'a Unit,
    vars: BTreeMap<String, VarInfo>,
    table: &'a BTreeMap<String, &'a Unit>,
    goto_targets: BTreeSet<String>,
    /// Open loops: their names, and whether a named exit / cycle needs a label.
    loops: RefCell<Vec<LoopState>>,
    fresh: RefCell<u32>,
    /// Local arrays whose extents are not constants (from `malloc`ed work arrays of a C
    /// source, and their derivatives): on the heap, freed before every return.
    heap: Vec<String>,
}

struct LoopState {
    name: Option<String>,
    exit_label: bool,
    cycle_label: bool,
}

impl<'a> Cx<'a> {
    fn new(unit: &'a Unit, table: &'a BTreeMap<String, &'a Unit>, env: &'a scope::Env) -> Cx<'a> {
        let mut goto_targets = BTreeSet::new();
        il::visit::walk_stmts(&unit.body, &mut |s| {
            if let StmtKind::Goto { label } = &s.kind {
                goto_targets.insert(label.clone());
            }
        });
        let mut vars = unit_vars(unit);
        scope::complete_vars(unit, &mut vars, env);
        Cx {
            unit,
            vars,
            table,
            goto_targets,
            loops: RefCell::new(Vec::new()),
            fresh: RefCell::new(0),
            heap: heap_arrays(unit),
        }
    }
}

fn write_unit_into(
    out: &mut String,
    unit: &Unit,
    table: &BTreeMap<String, &Unit>,
    protos: &Prototypes,
    env: &scope::Env,
    prefix: &str,
) {
    let cx = Cx::new(unit, table, env);
    for c in &unit.leading_comments {
        writeln!(out, "/*{} */", c.replace("*/", "* /")).unwrap();
    }
    writeln!(out, "{prefix}{} {{", protos.of(unit, table)).unwrap();
    // Declarations of locals, in declaration order.
    let args: BTreeSet<String> = unit.args.iter().map(|a| key(a)).collect();
    let read = names_read(&unit.body);
    // Named constants are needed where the body or a declared shape reads them.
    let mut shape_names = read.clone();
    for v in cx.vars.values() {
        for d in &v.dims {
            for e in d.lower.iter().chain(match &d.upper {
                Bound::Expr(e) => Some(e),
                Bound::Star | Bound::Colon => None,
            }) {
                shape_names.extend(il::visit::names_read(e).into_iter().map(key));
            }
        }
    }
    for decl in &unit.decls {
        if let DeclKind::Var { entities, .. } = &decl.kind {
            let mut more = Vec::new();
            for e in entities
                .iter()
                .filter(|e| shape_names.contains(crate::il::key_ref(&e.name).as_ref()))
            {
                if let Some(init) = &e.init {
                    more.extend(il::visit::names_read(init).into_iter().map(key));
                }
            }
            shape_names.extend(more);
        }
    }
    let mut declared = BTreeSet::new();
    let pushes = uses_tape(unit);
    for decl in &unit.decls {
        match &decl.kind {
            DeclKind::Comment(text) => {
                writeln!(out, "  /*{} */", text.replace("*/", "* /")).unwrap()
            }
            DeclKind::Var {
                attrs, entities, ..
            } => {
                if attrs
                    .iter()
                    .any(|a| matches!(a, Attr::External | Attr::Intrinsic))
                {
                    continue;
                }
                let is_parameter = attrs.iter().any(|a| matches!(a, Attr::Parameter));
                for e in entities {
                    let k = key(&e.name);
                    let Some(v) = cx.vars.get(&k) else { continue };
                    // Named constants only used in declarations (kinds) are not needed.
                    let mut has_call = false;
                    if let Some(init) = &e.init {
                        il::visit::walk_expr(init, &mut |x| {
                            has_call |= matches!(x.kind, ExprKind::Call(..))
                        });
                    }
                    if is_parameter && (!shape_names.contains(&k) || has_call) {
                        continue;
                    }
                    if args.contains(&k) || !declared.insert(k.clone()) {
                        continue;
                    }
                    if attrs.iter().any(|a| matches!(a, Attr::Allocatable)) {
                        // Given its memory by an ALLOCATE (`malloc`) statement; a 2-D
                        // one is a pointer to rows: `double (*t)[n] = 0;`.
                        let rows: String = v
                            .dims
                            .iter()
                            .rev()
                            .skip(1)
                            .map(|d| format!("[{}]", cx.extent(d)))
                            .collect();
                        let pointer = if rows.is_empty() {
                            format!("*{}", e.name)
                        } else {
                            format!("(*{}){rows}", e.name)
                        };
                        writeln!(out, "  {} {pointer} = 0;", c_type(v.ty)).unwrap();
                        continue;
                    }
                    if cx.heap.iter().any(|h| key(h) == k) {
                        writeln!(out, "{}", cx.heap_decl(&e.name, v)).unwrap();
                        continue;
                    }
                    let constant = if is_parameter { "const " } else { "" };
                    let mut line = format!("  {constant}{} {}", scope::type_text(v), e.name);
                    for d in v.dims.iter().rev() {
                        write!(line, "[{}]", cx.extent(d)).unwrap();
                    }
                    if let Some(init) = &e.init {
                        write!(line, " = {}", cx.expr(init)).unwrap();
                    } else if v.ty == ScalarType::Derived {
                        line.push_str(" = {0}");
                    } else if v.dims.is_empty() {
                        // Adjoints save variables before their first assignment; a
                        // defined value keeps gcc's -Wmaybe-uninitialized quiet.
                        line.push_str(" = 0");
                    } else if pushes && v.dims.iter().all(|d| cx.extent(d).parse::<i64>().is_ok()) {
                        // The same for local arrays whose elements an adjoint pushes
                        // (variable-length arrays take no initializer).
                        line.push_str(" = {0}");
                    }
                    writeln!(out, "{line};").unwrap();
                }
            }
            _ => {}
        }
    }
    for s in unit.symbols.iter() {
        let k = key(&s.name);
        if s.kind == il::SymbolKind::Variable
            && !args.contains(&k)
            && !declared.contains(&k)
            && s.global.is_none()
            && !s.name.contains('%')
        {
            let Some(v) = cx.vars.get(&k) else { continue };
            if cx.heap.iter().any(|h| key(h) == k) {
                writeln!(out, "{}", cx.heap_decl(&s.name, v)).unwrap();
                declared.insert(k);
                continue;
            }
            let mut line = format!("  {} {}", scope::type_text(v), s.name);
            for d in v.dims.iter().rev() {
                write!(line, "[{}]", cx.extent(d)).unwrap();
            }
            if v.ty == ScalarType::Derived {
                line.push_str(" = {0}");
            } else if v.dims.is_empty() {
                line.push_str(" = 0");
            }
            writeln!(out, "{line};").unwrap();
            declared.insert(k);
        }
    }
    // Silence unused parameters and never-read locals (C warns where Fortran does not).
    let result_key = unit.result.as_deref().map(key);
    for a in &unit.args {
        if !read.contains(crate::il::key_ref(a).as_ref())
            && !assigned(&unit.body).contains(crate::il::key_ref(a).as_ref())
        {
            writeln!(out, "  (void){a};").unwrap();
        }
    }
    for d in &declared {
        if !read.contains(d) && Some(d) != result_key.as_ref() {
            let name = unit
                .decls
                .iter()
                .find_map(|decl| match &decl.kind {
                    DeclKind::Var { entities, .. } => entities
                        .iter()
                        .find(|e| key(&e.name) == *d)
                        .map(|e| e.name.clone()),
                    _ => None,
                })
                .or_else(|| unit.symbols.get(d).map(|s| s.name.clone()))
                .unwrap_or_else(|| d.clone());
            writeln!(out, "  (void){name};").unwrap();
        }
    }
    let mut body = String::new();
    cx.block(&mut body, &unit.body, 1);
    out.push_str(&body);
    out.push_str(&cx.free_heap(1));
    if let (UnitKind::Function, Some(r)) = (unit.kind, &unit.result) {
        writeln!(out, "  return {};", cx.var_value(r)).unwrap();
    }
    out.push_str("}\n");
}

/// Names (keys) read anywhere in a block, array names and call arguments included.
fn names_read(body: &[Stmt]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    il::visit::walk_stmts(body, &mut |s| {
        for e in il::visit::stmt_exprs(s) {
            for n in il::visit::names_read(e) {
                out.insert(key(n));
            }
        }
        match &s.kind {
            StmtKind::Assign { lhs, .. } => {
                // `x = x + 1` reads x (counted above); `a(i) = ...` does not read a.
                let _ = lhs;
            }
            StmtKind::Do { var, .. } => {
                out.insert(key(var));
            }
            _ => {}
        }
    });
    out
}

fn assigned(body: &[Stmt]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    il::visit::walk_stmts(body, &mut |s| match &s.kind {
        StmtKind::Assign { lhs, .. } => {
            if let Some(n) = lhs.base_name() {
                out.insert(key(n));
            }
        }
        StmtKind::Do { var, .. } => {
            out.insert(key(var));
        }
        StmtKind::Call { args, .. } => {
            for a in args {
                if let Some(n) = a.value.base_name() {
                    out.insert(key(n));
                }
            }
        }
        _ => {}
    });
    out
}

/// Local arrays (not arguments) with an extent that is not an integer constant: from
/// `malloc`ed work arrays, whose derivative units declare them with their sizes. They
/// live on the heap (a large work array would overflow the stack as a variable-length
/// array), from the start of the procedure to each of its returns.
fn heap_arrays(unit: &Unit) -> Vec<String> {
    let args: BTreeSet<String> = unit.args.iter().map(|a| key(a)).collect();
    unit_vars(unit)
        .into_iter()
        .filter(|(k, v)| {
            v.pass.is_none()
                && !args.contains(k)
                // A member of an array of structs is no variable of its own.
                && !k.contains('%')
                && !v.dims.is_empty()
                && v.dims.iter().any(|d| match &d.upper {
                    Bound::Expr(u) => {
                        int_value(u).is_none()
                            || d.lower.as_ref().is_some_and(|l| int_value(l).is_none())
                    }
                    Bound::Star | Bound::Colon => false,
                })
                && v.dims.iter().all(|d| matches!(d.upper, Bound::Expr(_)))
        })
        .map(|(k, _)| {
            // C is case-sensitive: the declared spelling.
            unit.decls
                .iter()
                .find_map(|d| match &d.kind {
                    DeclKind::Var { entities, .. } => entities
                        .iter()
                        .find(|e| key(&e.name) == k)
                        .map(|e| e.name.clone()),
                    _ => None,
                })
                .or_else(|| unit.symbols.get(&k).map(|s| s.name.clone()))
                .unwrap_or(k)
        })
        .collect()
}

/// Does the unit need `<stdlib.h>` (`calloc`, `malloc`, `free`)?
fn uses_heap(unit: &Unit) -> bool {
    let mut found = !heap_arrays(unit).is_empty();
    il::visit::walk_stmts(&unit.body, &mut |s| {
        found |= matches!(s.kind, StmtKind::Allocate(_) | StmtKind::Deallocate(_));
    });
    found
}

fn indent(n: usize) -> String {
    "  ".repeat(n)
}

impl Cx<'_> {
    /// `double (*w)[n1] = calloc(n2 * n1, sizeof(double));`: a heap array indexed like
    /// the C array `double w[n2][n1]`, zeroed (as the adjoint's pushes of its elements
    /// want defined values, and as a `calloc`ed original was).
    fn heap_decl(&self, name: &str, v: &VarInfo) -> String {
        let extents: Vec<String> = v.dims.iter().rev().map(|d| self.extent(d)).collect();
        let mut pointer = format!("*{name}");
        if extents.len() > 1 {
            pointer = format!("({pointer})");
            for e in &extents[1..] {
                write!(pointer, "[{e}]").unwrap();
            }
        }
        let count: Vec<String> = if extents.len() == 1 {
            extents.clone()
        } else {
            extents.iter().map(|e| format!("({e})")).collect()
        };
        format!(
            "  {} {pointer} = calloc({}, sizeof({}));",
            c_type(v.ty),
            count.join(" * "),
            c_type(v.ty)
        )
    }

    /// `free(w);` for each heap array, before a return.
    fn free_heap(&self, depth: usize) -> String {
        let ind = indent(depth);
        let mut out = String::new();
        for name in &self.heap {
            writeln!(out, "{ind}free({name});").unwrap();
        }
        out
    }

    fn var(&self, name: &str) -> Option<&VarInfo> {
        self.vars.get(crate::il::key_ref(name).as_ref())
    }
}
