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

mod scope;
mod structarr;
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
        ScalarType::Integer(8) => "long",
        ScalarType::Integer(_) => "int",
        ScalarType::Logical => "int",
        ScalarType::Character => "char",
        // Derived types reach the C back-end only from Fortran, which it refuses.
        ScalarType::Derived => "void",
    }
}

/// `double f(double x, double *y)`.
pub fn prototype(unit: &Unit) -> String {
    prototype_in(unit, &BTreeMap::new())
}

/// The prototype of `unit` when the units it calls are in `table` (by key): an INTENT(IN)
/// pointer passed on by value only stays `const`.
pub fn prototype_in(unit: &Unit, table: &BTreeMap<String, &Unit>) -> String {
    let vars = unit_vars(unit);
    let ret = match unit.kind {
        UnitKind::Subroutine | UnitKind::Module => "void",
        UnitKind::Function => unit
            .result
            .as_ref()
            .and_then(|r| vars.get(&key(r)))
            .map(|v| c_type(v.ty))
            .unwrap_or("double"),
    };
    // INTENT(IN) pointers the body neither writes nor passes on are `const`
    // (INTERFACE.md §3); passing one on to a callee would need the callee's to be too.
    let touched = RefCell::new(BTreeSet::new());
    let by_reference = |callee: &str, args: &[Arg]| {
        let mut touched = touched.borrow_mut();
        let kinds = table.get(&key(callee)).map(|u| param_kinds(u));
        for (i, a) in args.iter().enumerate() {
            let by_value = kinds
                .as_ref()
                .is_some_and(|k| k.get(i) == Some(&Pass::Value));
            if let (false, Some(n)) = (by_value, a.value.base_name()) {
                touched.insert(key(n.split('%').next().unwrap_or(n)));
            }
        }
    };
    il::visit::walk_stmts(&unit.body, &mut |s| {
        match &s.kind {
            StmtKind::Assign { lhs, .. } => {
                if let Some(n) = lhs.base_name() {
                    touched
                        .borrow_mut()
                        .insert(key(n.split('%').next().unwrap_or(n)));
                }
            }
            StmtKind::Do { var, .. } => {
                touched.borrow_mut().insert(key(var));
            }
            StmtKind::Call { name, args } => by_reference(name, args),
            // Pushes read through const pointers; pops and looks write their operands.
            StmtKind::Tape(t) if t.op.writes() => {
                let mut touched = touched.borrow_mut();
                for e in t.operands() {
                    if let Some(n) = e.base_name() {
                        touched.insert(key(n.split('%').next().unwrap_or(n)));
                    }
                }
            }
            _ => {}
        }
        for e in il::visit::stmt_exprs(s) {
            il::visit::walk_expr(e, &mut |x| {
                if let ExprKind::Call(f, args) = &x.kind {
                    by_reference(f, args);
                }
            });
        }
    });
    let params: Vec<String> = unit
        .args
        .iter()
        .map(|a| {
            let v = &vars[&key(a)];
            let t = scope::type_text(v);
            match v.pass {
                Some(Pass::Value) => format!("{t} {a}"),
                _ if v.intent_in && !touched.borrow().contains(&key(a)) => {
                    format!("const {t} *{a}")
                }
                _ => format!("{t} *{a}"),
            }
        })
        .collect();
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    format!("{ret} {}({params})", unit.name)
}

/// Every unit a file's units may call, by key: originals, then generated units.
fn call_table<'a>(
    file: &'a il::File,
    originals: &'a il::Program,
    siblings: &'a [il::File],
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
    table
}

/// Prints a whole C file. `originals` is the program the file was generated from (its
/// procedures are copied as `static` functions when called); `siblings` are the other
/// generated files, whose units may be called too.
pub fn write_file(file: &il::File, originals: &il::Program, siblings: &[il::File]) -> String {
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
            if is_original(&k) && !own_are_originals && !foreign.contains(&k) {
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
    if uses_heap {
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
        writeln!(out, "{};", prototype_in(u, &table)).unwrap();
    }
    for u in &copies {
        writeln!(out, "static {};", prototype_in(u, &table)).unwrap();
    }
    for u in file.units.iter().filter(|u| u.is_procedure()) {
        writeln!(out, "{};", prototype_in(u, &table)).unwrap();
    }
    let is_copy: BTreeSet<String> = copies.iter().map(|u| key(&u.name)).collect();
    for u in all {
        out.push('\n');
        let prefix = if is_copy.contains(&key(&u.name)) {
            "static "
        } else {
            ""
        };
        write_unit_into(&mut out, u, &table, &env, prefix);
    }
    out
}

/// A header declaring every unit of a generated file.
pub fn write_header(
    file: &il::File,
    guard: &str,
    originals: &il::Program,
    siblings: &[il::File],
) -> String {
    let table = call_table(file, originals, siblings);
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
        writeln!(out, "{};", prototype_in(u, &table)).unwrap();
    }
    writeln!(out, "\n#ifdef __cplusplus\n}}\n#endif\n\n#endif").unwrap();
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

fn uses_runtime(u: &Unit) -> bool {
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
    env: &scope::Env,
    prefix: &str,
) {
    let cx = Cx::new(unit, table, env);
    for c in &unit.leading_comments {
        writeln!(out, "/*{} */", c.replace("*/", "* /")).unwrap();
    }
    writeln!(out, "{prefix}{} {{", prototype_in(unit, table)).unwrap();
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
                .filter(|e| shape_names.contains(&key(&e.name)))
            {
                if let Some(init) = &e.init {
                    more.extend(il::visit::names_read(init).into_iter().map(key));
                }
            }
            shape_names.extend(more);
        }
    }
    let mut declared = BTreeSet::new();
    let pushes = uses_runtime(unit);
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
        if !read.contains(&key(a)) && !assigned(&unit.body).contains(&key(a)) {
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

/// C operator precedence, loosest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Cond,
    Or,
    And,
    Equality,
    Relational,
    Add,
    Mul,
    Unary,
    Primary,
}

fn int_value(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(t) => t.split('_').next()?.parse().ok(),
        ExprKind::Unary(UnOp::Neg, x) => int_value(x).map(|v| -v),
        ExprKind::Paren(x) => int_value(x),
        _ => None,
    }
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
        self.vars.get(&key(name))
    }

    fn type_of(&self, e: &Expr) -> ScalarType {
        let variable = |n: &str| self.var(n).map(|v| v.ty).unwrap_or(ScalarType::Real(8));
        let function = |n: &str| {
            self.table
                .get(&key(n))
                .and_then(|u| {
                    let r = u.result.as_ref()?;
                    unit_vars(u).get(&key(r)).map(|v| v.ty)
                })
                .unwrap_or(ScalarType::Real(8))
        };
        il::types::expr_type(
            e,
            &il::types::TypeRules {
                variable: &variable,
                function: &function,
                default_real: 8,
            },
        )
    }

    /// The number of elements of one dimension.
    fn extent(&self, d: &DimSpec) -> String {
        let upper = match &d.upper {
            Bound::Expr(e) => e,
            Bound::Star | Bound::Colon => return String::new(),
        };
        let lower = d.lower.as_ref();
        match (lower.map(int_value).unwrap_or(Some(1)), int_value(upper)) {
            (Some(l), Some(u)) => (u - l + 1).max(0).to_string(),
            (Some(1), None) => self.expr(upper),
            // `n - 1` with lower bound 0 (C's `w[n]`) has `n` elements.
            (Some(l), None) => match &upper.kind {
                ExprKind::Binary(BinOp::Sub, x, k) if int_value(k) == Some(1 - l) => self.expr(x),
                _ if l < 1 => format!("{} + {}", self.expr_at(upper, Level::Add), 1 - l),
                _ => format!("{} - {}", self.expr_at(upper, Level::Add), l - 1),
            },
            _ => format!(
                "{} - {} + 1",
                self.expr_at(upper, Level::Add),
                self.expr_at(
                    lower.expect("a lower bound that is not a literal is present"),
                    Level::Mul
                )
            ),
        }
    }

    /// `s - lower` with constants folded.
    fn offset(&self, s: &Expr, d: &DimSpec) -> String {
        let lower = d.lower.as_ref();
        let l = match lower {
            None => Some(1),
            Some(l) => int_value(l),
        };
        match (l, int_value(s)) {
            (Some(l), Some(v)) => (v - l).to_string(),
            (Some(0), None) => self.expr(s),
            (Some(l), None) if l > 0 => format!("{} - {l}", self.expr_at(s, Level::Add)),
            (Some(l), None) => format!("{} + {}", self.expr_at(s, Level::Add), -l),
            (None, _) => format!(
                "{} - {}",
                self.expr_at(s, Level::Add),
                self.expr_at(
                    lower.expect("a lower bound that is not a literal is present"),
                    Level::Mul
                )
            ),
        }
    }

    /// A variable's name in C: a member path `s%x%y` is `s.x.y`, or `s->x.y` when the
    /// struct `s` is passed by reference.
    fn c_name(&self, name: &str) -> String {
        if !name.contains('%') {
            return name.to_string();
        }
        let base = name.split('%').next().unwrap_or(name);
        let pointer = self.var(base).is_some_and(|v| v.pass == Some(Pass::Ref));
        scope::c_path(name, pointer)
    }

    /// An array element as a C lvalue.
    fn element(&self, name: &str, subs: &[Expr]) -> String {
        if let Some(text) = self.view_element(name, subs) {
            return text;
        }
        let Some(v) = self.var(name) else {
            let s: Vec<String> = subs.iter().map(|s| self.expr(s)).collect();
            return format!("{}[{}]", self.c_name(name), s.join("]["));
        };
        let name = &self.c_name(name);
        if v.pass.is_some() {
            // A pointer: column-major linearization.
            let mut text = String::new();
            for (i, s) in subs.iter().enumerate().rev() {
                let Some(d) = v.dims.get(i) else { continue };
                let off = self.offset(s, d);
                if text.is_empty() {
                    text = off;
                } else {
                    text = format!("{off} + ({})*({text})", self.extent(d));
                }
            }
            format!("{name}[{text}]")
        } else {
            let mut text = name.to_string();
            for (i, s) in subs.iter().enumerate().rev() {
                let off = match v.dims.get(i) {
                    Some(d) => self.offset(s, d),
                    None => self.expr(s),
                };
                write!(text, "[{off}]").unwrap();
            }
            text
        }
    }

    /// A variable read or written as a value: `(*x)` for a scalar by reference.
    fn var_value(&self, name: &str) -> String {
        match self.var(name) {
            Some(v) if v.pass == Some(Pass::Ref) && v.ty != ScalarType::Derived => {
                format!("(*{name})")
            }
            _ => self.c_name(name),
        }
    }

    /// The address of an lvalue (or of a copy of an rvalue, as a compound literal).
    fn address(&self, e: &Expr, ty: ScalarType) -> String {
        match &e.kind {
            ExprKind::Var(n) => match self.var(n) {
                Some(v) if v.pass == Some(Pass::Ref) || v.pass == Some(Pass::Array) => n.clone(),
                Some(v) if !v.dims.is_empty() => {
                    if v.dims.len() == 1 {
                        self.c_name(n)
                    } else {
                        format!("&{}{}", self.c_name(n), "[0]".repeat(v.dims.len()))
                    }
                }
                Some(_) => format!("&{}", self.c_name(n)),
                None => format!("&{}", self.c_name(n)),
            },
            ExprKind::Index(n, subs) => format!("&{}", self.element(n, subs)),
            ExprKind::Paren(x) if x.base_name().is_some() => self.address(x, ty),
            _ => format!("&({}){{{}}}", c_type(ty), self.expr(e)),
        }
    }

    fn expr(&self, e: &Expr) -> String {
        self.expr_at(e, Level::Cond)
    }

    /// `e` printed so that it binds at least as tightly as `min`.
    fn expr_at(&self, e: &Expr, min: Level) -> String {
        let (text, level) = self.expr_level(e);
        if level < min {
            format!("({text})")
        } else {
            text
        }
    }

    fn expr_level(&self, e: &Expr) -> (String, Level) {
        match &e.kind {
            ExprKind::Int(t) => {
                let (digits, kind) = t.split_once('_').unwrap_or((t, ""));
                let text = if kind == "8" {
                    format!("{digits}L")
                } else {
                    digits.to_string()
                };
                let level = if text.starts_with('-') {
                    Level::Unary
                } else {
                    Level::Primary
                };
                (text, level)
            }
            ExprKind::Real(lit) => {
                let text = real_text(lit);
                let level = if text.starts_with('-') {
                    Level::Unary
                } else {
                    Level::Primary
                };
                (text, level)
            }
            ExprKind::Logical(b) => ((if *b { "1" } else { "0" }).to_string(), Level::Primary),
            ExprKind::Str(s) => (format!("{s:?}"), Level::Primary),
            ExprKind::Var(n) => (self.var_value(n), Level::Primary),
            ExprKind::Index(n, subs) => (self.element(n, subs), Level::Primary),
            ExprKind::Paren(x) => (format!("({})", self.expr(x)), Level::Primary),
            // Fortran array syntax never reaches the C back-end (the C front-end makes none).
            ExprKind::Range { .. } | ExprKind::ArrayCtor(_) => {
                ("0 /* array syntax */".into(), Level::Primary)
            }
            ExprKind::Call(n, args) => (
                format!("{n}({})", self.call_args(n, args).join(", ")),
                Level::Primary,
            ),
            ExprKind::Unary(op, x) => {
                let sym = match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    UnOp::Not => "!",
                };
                let inner = self.expr_at(x, Level::Primary.min(Level::Unary));
                // `- -x` and `-(-1)`: keep the operand's own sign apart.
                let inner = if inner.starts_with(['-', '+']) {
                    format!("({inner})")
                } else {
                    inner
                };
                (format!("{sym}{inner}"), Level::Unary)
            }
            ExprKind::Binary(op, a, b) => {
                if *op == BinOp::Pow {
                    return (
                        format!("pow({}, {})", self.expr(a), self.expr(b)),
                        Level::Primary,
                    );
                }
                let (sym, level) = match op {
                    BinOp::Add => (" + ", Level::Add),
                    BinOp::Sub => (" - ", Level::Add),
                    BinOp::Mul => ("*", Level::Mul),
                    BinOp::Div => ("/", Level::Mul),
                    BinOp::Eq | BinOp::Eqv => (" == ", Level::Equality),
                    BinOp::Ne | BinOp::Neqv => (" != ", Level::Equality),
                    BinOp::Lt => (" < ", Level::Relational),
                    BinOp::Le => (" <= ", Level::Relational),
                    BinOp::Gt => (" > ", Level::Relational),
                    BinOp::Ge => (" >= ", Level::Relational),
                    BinOp::And => (" && ", Level::And),
                    BinOp::Or => (" || ", Level::Or),
                    BinOp::Pow | BinOp::Concat => (" /* concat */ + ", Level::Add),
                };
                // Relational operands of relational operators and `&&` inside `||` get
                // parentheses (gcc's -Wparentheses).
                let left_min = match level {
                    Level::Or => Level::Equality,
                    Level::Equality | Level::Relational => Level::Add,
                    l => l,
                };
                let right_min = match level {
                    Level::Or => Level::Equality,
                    Level::Equality | Level::Relational => Level::Add,
                    Level::And => Level::Equality,
                    l => next_level(l),
                };
                let mut lhs = self.expr_at(a, left_min);
                let mut rhs = self.expr_at(b, right_min);
                if level == Level::And {
                    lhs = self.expr_at(a, Level::Equality);
                }
                // A signed right operand: `a - (-b)`, `a*(-b)`.
                if rhs.starts_with(['-', '+']) {
                    rhs = format!("({rhs})");
                }
                if level >= Level::Mul
                    && lhs.starts_with(['-', '+'])
                    && !matches!(a.kind, ExprKind::Unary(..))
                {
                    lhs = format!("({lhs})");
                }
                (format!("{lhs}{sym}{rhs}"), level)
            }
            ExprKind::Intrinsic { op, args, .. } => self.intrinsic(*op, args),
        }
    }

    fn intrinsic(&self, op: Intrinsic, args: &[Arg]) -> (String, Level) {
        let a: Vec<&Expr> = args.iter().map(|a| &a.value).collect();
        let arg = |i: usize| a.get(i).map(|e| self.expr(e)).unwrap_or_default();
        let is_real = |i: usize| {
            a.get(i)
                .is_some_and(|e| matches!(self.type_of(e), ScalarType::Real(_)))
        };
        let any_real = (0..a.len()).any(is_real);
        let f = |name: &str| {
            let list: Vec<String> = (0..a.len()).map(arg).collect();
            (format!("{name}({})", list.join(", ")), Level::Primary)
        };
        match op {
            Intrinsic::Sin => f("sin"),
            Intrinsic::Cos => f("cos"),
            Intrinsic::Tan => f("tan"),
            Intrinsic::Asin => f("asin"),
            Intrinsic::Acos => f("acos"),
            Intrinsic::Atan if a.len() == 2 => f("atan2"),
            Intrinsic::Atan => f("atan"),
            Intrinsic::Atan2 => f("atan2"),
            Intrinsic::Sinh => f("sinh"),
            Intrinsic::Cosh => f("cosh"),
            Intrinsic::Tanh => f("tanh"),
            Intrinsic::Exp => f("exp"),
            Intrinsic::Log => f("log"),
            Intrinsic::Log10 => f("log10"),
            Intrinsic::Sqrt => f("sqrt"),
            Intrinsic::Abs if any_real => f("fabs"),
            Intrinsic::Abs => {
                let x = self.expr_at(a[0], Level::Unary);
                (format!("{x} < 0 ? -{x} : {x}"), Level::Cond)
            }
            Intrinsic::Max | Intrinsic::Min => {
                if a.is_empty() {
                    return ("0".into(), Level::Primary);
                }
                let name = if op == Intrinsic::Max { "fmax" } else { "fmin" };
                let cmp = if op == Intrinsic::Max { ">" } else { "<" };
                let mut text = arg(0);
                for i in 1..a.len() {
                    text = if any_real {
                        format!("{name}({text}, {})", arg(i))
                    } else {
                        let (x, y) = (format!("({text})"), format!("({})", arg(i)));
                        format!("({x} {cmp} {y} ? {x} : {y})")
                    };
                }
                (text, Level::Primary)
            }
            Intrinsic::Sign if any_real => (
                format!("copysign(fabs({}), {})", arg(0), arg(1)),
                Level::Primary,
            ),
            Intrinsic::Sign => {
                let x = self.expr_at(a[0], Level::Unary);
                let y = self.expr_at(a[1], Level::Relational);
                (
                    format!("({y} >= 0 ? ({x} < 0 ? -{x} : {x}) : ({x} < 0 ? {x} : -{x}))"),
                    Level::Primary,
                )
            }
            Intrinsic::Mod if any_real => f("fmod"),
            Intrinsic::Mod => (
                format!(
                    "{} % {}",
                    self.expr_at(a[0], Level::Mul),
                    self.expr_at(a[1], Level::Unary)
                ),
                Level::Mul,
            ),
            Intrinsic::Dble => (
                format!("(double){}", self.expr_at(a[0], Level::Unary)),
                Level::Unary,
            ),
            Intrinsic::Real => {
                let kind = a.get(1).and_then(|k| int_value(k)).unwrap_or(4);
                let t = if kind == 8 { "double" } else { "float" };
                (
                    format!("({t}){}", self.expr_at(a[0], Level::Unary)),
                    Level::Unary,
                )
            }
            Intrinsic::Int => (
                format!("(int){}", self.expr_at(a[0], Level::Unary)),
                Level::Unary,
            ),
            Intrinsic::Nint => (format!("(int)lround({})", arg(0)), Level::Unary),
            Intrinsic::Floor => (format!("(int)floor({})", arg(0)), Level::Unary),
            Intrinsic::Modulo if any_real => (
                format!("({0} - floor({0}/{1})*{1})", arg(0), arg(1)),
                Level::Primary,
            ),
            // Fortran's array intrinsics: the C front-end makes none.
            Intrinsic::Sum
            | Intrinsic::Product
            | Intrinsic::Maxval
            | Intrinsic::Minval
            | Intrinsic::Maxloc
            | Intrinsic::Minloc
            | Intrinsic::DotProduct
            | Intrinsic::Matmul
            | Intrinsic::Transpose
            | Intrinsic::Spread
            | Intrinsic::Reshape
            | Intrinsic::Lbound
            | Intrinsic::Ubound
            | Intrinsic::Shape
            | Intrinsic::Modulo => (format!("0 /* {op:?} */"), Level::Primary),
            // An optional dummy is a pointer that may be NULL.
            Intrinsic::Present => (
                format!(
                    "{} != NULL",
                    a.first()
                        .and_then(|e| e.base_name())
                        .map(|n| self.c_name(n))
                        .unwrap_or_default()
                ),
                Level::Equality,
            ),
            Intrinsic::Size => (
                a.first()
                    .map(|e| scope::size_text(self, e))
                    .unwrap_or_default(),
                Level::Unary,
            ),
            Intrinsic::Merge => (
                format!(
                    "{} ? {} : {}",
                    self.expr_at(a[2], Level::Or),
                    self.expr_at(a[0], Level::Or),
                    self.expr_at(a[1], Level::Cond)
                ),
                Level::Cond,
            ),
        }
    }

    /// Actual arguments of a call of `name`, by the callee's parameter kinds. Arguments
    /// given by keyword go to their parameter's position; an absent one (an OPTIONAL
    /// dummy) is `NULL`.
    fn call_args(&self, name: &str, args: &[Arg]) -> Vec<String> {
        let callee = self.table.get(&key(name));
        let absent =
            |u: &&&Unit| args.len() < u.args.len() || args.iter().any(|a| a.keyword.is_some());
        if let Some(u) = callee.filter(absent) {
            let bound = crate::il::bind_actuals(u, args);
            let positional: Vec<Arg> = bound
                .iter()
                .map(|a| match a {
                    Some(e) => Arg::positional((*e).clone()),
                    None => Arg::positional(Expr::var("")),
                })
                .collect();
            return self
                .call_args(name, &positional)
                .into_iter()
                .zip(&bound)
                .map(|(text, a)| if a.is_some() { text } else { "NULL".into() })
                .collect();
        }
        let kinds = callee.map(|u| param_kinds(u)).unwrap_or_default();
        let ctypes: Vec<ScalarType> = callee
            .map(|u| {
                let vars = unit_vars(u);
                u.args
                    .iter()
                    .map(|a| {
                        vars.get(&key(a))
                            .map(|v| v.ty)
                            .unwrap_or(ScalarType::Real(8))
                    })
                    .collect()
            })
            .unwrap_or_default();
        args.iter()
            .enumerate()
            .map(|(i, a)| {
                let ty = ctypes
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| self.type_of(&a.value));
                match kinds.get(i).copied().unwrap_or(Pass::Ref) {
                    // A struct passed by reference, passed on by value.
                    Pass::Value
                        if matches!(&a.value.kind, ExprKind::Var(n) if self.var(n).is_some_and(
                            |v| v.pass == Some(Pass::Ref) && v.ty == ScalarType::Derived)) =>
                    {
                        format!("(*{})", self.expr(&a.value))
                    }
                    Pass::Value => self.expr(&a.value),
                    Pass::Ref | Pass::Array => self.address(&a.value, ty),
                }
            })
            .collect()
    }

    fn block(&self, out: &mut String, body: &[Stmt], depth: usize) {
        for s in body {
            self.stmt(out, s, depth);
        }
    }

    fn stmt(&self, out: &mut String, s: &Stmt, depth: usize) {
        let ind = indent(depth);
        if let Some(label) = &s.label {
            if self.goto_targets.contains(label) {
                writeln!(out, "{}L{label}:;", indent(depth.saturating_sub(1))).unwrap();
            }
        }
        let trailing = s
            .trailing_comment
            .as_ref()
            .map(|c| format!(" /*{} */", c.replace("*/", "* /")))
            .unwrap_or_default();
        match &s.kind {
            StmtKind::Assign { lhs, rhs } if self.whole_array(lhs).is_some() => {
                self.array_assign(out, lhs, rhs, depth, &trailing);
            }
            StmtKind::Assign { lhs, rhs } => {
                let l = match &lhs.kind {
                    ExprKind::Var(n) => self.var_value(n),
                    ExprKind::Index(n, subs) => self.element(n, subs),
                    _ => self.expr(lhs),
                };
                writeln!(out, "{ind}{l} = {};{trailing}", self.expr(rhs)).unwrap();
            }
            StmtKind::If {
                arms, else_body, ..
            } => {
                for (i, (c, b)) in arms.iter().enumerate() {
                    if i == 0 {
                        writeln!(out, "{ind}if ({}) {{{trailing}", self.expr(c)).unwrap();
                    } else {
                        writeln!(out, "{ind}}} else if ({}) {{", self.expr(c)).unwrap();
                    }
                    self.block(out, b, depth + 1);
                }
                if let Some(b) = else_body {
                    if arms.is_empty() {
                        self.block(out, b, depth);
                        return;
                    }
                    writeln!(out, "{ind}}} else {{").unwrap();
                    self.block(out, b, depth + 1);
                }
                if !arms.is_empty() {
                    writeln!(out, "{ind}}}").unwrap();
                }
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                name,
            } => self.do_loop(out, s, var, start, end, step.as_ref(), body, name, depth),
            StmtKind::DoWhile { cond, body, name } => {
                writeln!(out, "{ind}while ({}) {{{trailing}", self.expr(cond)).unwrap();
                self.loop_body(out, body, name, depth);
                writeln!(out, "{ind}}}").unwrap();
                self.after_loop(out, depth);
            }
            StmtKind::Exit { name } => {
                let text = self.jump(name.as_deref(), true);
                writeln!(out, "{ind}{text}{trailing}").unwrap();
            }
            StmtKind::Cycle { name } => {
                let text = self.jump(name.as_deref(), false);
                writeln!(out, "{ind}{text}{trailing}").unwrap();
            }
            StmtKind::Call { name, args } => {
                writeln!(
                    out,
                    "{ind}{name}({});{trailing}",
                    self.call_args(name, args).join(", ")
                )
                .unwrap();
            }
            // The default lowering: a call of the bundled runtime.
            StmtKind::Tape(t) => {
                let cname = runtime_routine(t);
                if let Some(text) = cname.strip_suffix("_array").and_then(|scalar| {
                    let pop = t.op == TapeOp::Pop;
                    self.view_push_pop(scalar, pop, &t.value, depth, &trailing)
                }) {
                    out.push_str(&text);
                    return;
                }
                let value = &t.value;
                let a: Vec<String> = if let Some(count) = &t.count {
                    vec![self.address(value, self.type_of(value)), self.expr(count)]
                } else if t.op == TapeOp::Push && t.ty.pushed_by_value() {
                    vec![self.expr(value)]
                } else {
                    vec![self.address(value, self.type_of(value))]
                };
                writeln!(out, "{ind}{cname}({});{trailing}", a.join(", ")).unwrap();
            }
            StmtKind::Return => {
                let text = match (&self.unit.kind, &self.unit.result) {
                    (UnitKind::Function, Some(r)) => format!("return {};", self.var_value(r)),
                    _ => "return;".to_string(),
                };
                out.push_str(&self.free_heap(depth));
                writeln!(out, "{ind}{text}{trailing}").unwrap();
            }
            StmtKind::Continue => {
                if !trailing.is_empty() {
                    writeln!(out, "{ind};{trailing}").unwrap();
                }
            }
            StmtKind::Goto { label } => {
                writeln!(out, "{ind}goto L{label};{trailing}").unwrap();
            }
            // The C front-end makes none of these; print their IF form should one come.
            StmtKind::ComputedGoto { .. }
            | StmtKind::ArithmeticIf { .. }
            | StmtKind::Select { .. } => {
                if let Some(kind) = crate::il::structured::lowered(&s.kind) {
                    let lowered = Stmt { kind, ..s.clone() };
                    self.stmt(out, &lowered, depth);
                }
            }
            StmtKind::Comment(text) => {
                writeln!(out, "{ind}/*{} */", text.replace("*/", "* /")).unwrap();
            }
            // Fortran I/O never reaches the C back-end (no C front-end makes it).
            StmtKind::Io { text, .. } => {
                writeln!(out, "{ind}/* {} */", text.replace("*/", "* /")).unwrap();
            }
            // `w = malloc(...)` of a C source (printed for the round trip; differentiation
            // turns such arrays into heap arrays of the whole procedure first).
            StmtKind::Allocate(items) => {
                for item in items {
                    let text = match &item.kind {
                        ExprKind::Index(name, subs) => {
                            let extents: Vec<String> = subs
                                .iter()
                                .map(|s| {
                                    let dim = match &s.kind {
                                        ExprKind::Range {
                                            lower,
                                            upper: Some(upper),
                                            stride: None,
                                        } => DimSpec {
                                            lower: lower.as_deref().cloned(),
                                            upper: Bound::Expr((**upper).clone()),
                                        },
                                        _ => DimSpec {
                                            lower: None,
                                            upper: Bound::Expr(s.clone()),
                                        },
                                    };
                                    format!("({})", self.extent(&dim))
                                })
                                .collect();
                            let ty = self.var(name).map(|v| v.ty).unwrap_or(ScalarType::Real(8));
                            format!(
                                "{name} = malloc(sizeof({}) * {});",
                                c_type(ty),
                                extents.join(" * ")
                            )
                        }
                        _ => "/* unsupported allocation */".to_string(),
                    };
                    writeln!(out, "{ind}{text}{trailing}").unwrap();
                }
            }
            StmtKind::Deallocate(items) => {
                for item in items {
                    writeln!(out, "{ind}free({});{trailing}", self.expr(item)).unwrap();
                }
            }
            // Fortran array constructs never reach the C back-end (scalarized first).
            StmtKind::Where { .. } | StmtKind::Forall { .. } => {
                writeln!(out, "{ind}/* array construct */").unwrap();
            }
        }
    }

    /// The dimensions of `e` when it names a whole array.
    fn whole_array(&self, e: &Expr) -> Option<&[DimSpec]> {
        match &e.kind {
            ExprKind::Var(n) => self
                .var(n)
                .filter(|v| !v.dims.is_empty())
                .map(|v| v.dims.as_slice()),
            ExprKind::Paren(x) => self.whole_array(x),
            _ => None,
        }
    }

    /// `e` with every whole array of the given rank replaced by its element `subs`.
    fn elementwise(&self, e: &Expr, subs: &[Expr]) -> Expr {
        let mut e = e.clone();
        self.elementwise_in(&mut e, subs);
        e
    }

    fn elementwise_in(&self, e: &mut Expr, subs: &[Expr]) {
        match &mut e.kind {
            ExprKind::Var(n) if self.whole_array(&Expr::var(n.clone())).is_some() => {
                e.kind = ExprKind::Index(n.clone(), subs.to_vec());
            }
            ExprKind::Var(_) | ExprKind::Index(..) => {}
            ExprKind::Call(_, args) | ExprKind::Intrinsic { args, .. } => {
                for a in args {
                    self.elementwise_in(&mut a.value, subs);
                }
            }
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => self.elementwise_in(x, subs),
            ExprKind::Binary(_, a, b) => {
                self.elementwise_in(a, subs);
                self.elementwise_in(b, subs);
            }
            _ => {}
        }
    }

    /// Opens a block `{ int adgen_iN_0, ...;` and one `for` per dimension over all the
    /// elements, the last dimension outermost (the first subscript runs fastest, as in
    /// memory); `down` runs every loop from its upper bound down. Returns the loop
    /// variables and the depth of the innermost body; the caller closes the block.
    fn open_loop_nest(
        &self,
        out: &mut String,
        dims: &[DimSpec],
        depth: usize,
        trailing: &str,
        down: bool,
    ) -> (Vec<String>, usize) {
        let ind = indent(depth);
        let n = {
            let mut f = self.fresh.borrow_mut();
            *f += 1;
            *f
        };
        let names: Vec<String> = (0..dims.len()).map(|k| format!("adgen_i{n}_{k}")).collect();
        writeln!(out, "{ind}{{{trailing}").unwrap();
        writeln!(out, "{ind}  int {};", names.join(", ")).unwrap();
        let mut d = depth + 1;
        for (k, dim) in dims.iter().enumerate().rev() {
            let lower = dim
                .lower
                .as_ref()
                .map(|l| self.expr(l))
                .unwrap_or_else(|| "1".into());
            let upper = match &dim.upper {
                Bound::Expr(u) => self.expr_at(u, Level::Add),
                Bound::Star | Bound::Colon => "0 /* assumed size */".into(),
            };
            let i = &names[k];
            let head = if down {
                format!("for ({i} = {upper}; {i} >= {lower}; {i}--)")
            } else {
                format!("for ({i} = {lower}; {i} <= {upper}; {i}++)")
            };
            writeln!(out, "{}{head}", indent(d)).unwrap();
            d += 1;
        }
        (names, d)
    }

    /// A whole-array assignment `a = e` as loops over the elements.
    fn array_assign(&self, out: &mut String, lhs: &Expr, rhs: &Expr, depth: usize, trailing: &str) {
        let dims = self.whole_array(lhs).expect("a whole array").to_vec();
        let ind = indent(depth);
        let (names, d) = self.open_loop_nest(out, &dims, depth, trailing, false);
        let subs: Vec<Expr> = names.iter().map(|x| Expr::var(x.clone())).collect();
        let name = lhs.base_name().unwrap_or_default().to_string();
        let rhs = self.elementwise(rhs, &subs);
        writeln!(
            out,
            "{}{} = {};",
            indent(d),
            self.element(&name, &subs),
            self.expr(&rhs)
        )
        .unwrap();
        writeln!(out, "{ind}}}").unwrap();
    }

    /// `break`/`continue`, or a `goto` to a label after / at the end of an outer loop.
    fn jump(&self, name: Option<&str>, exit: bool) -> String {
        let mut loops = self.loops.borrow_mut();
        let plain = if exit { "break;" } else { "continue;" };
        let Some(name) = name else {
            return plain.to_string();
        };
        let n = loops.len();
        let Some(i) = loops
            .iter()
            .rposition(|l| l.name.as_deref().is_some_and(|x| key(x) == key(name)))
        else {
            return plain.to_string();
        };
        if i + 1 == n {
            return plain.to_string();
        }
        if exit {
            loops[i].exit_label = true;
            format!("goto adgen_exit_{name};")
        } else {
            loops[i].cycle_label = true;
            format!("goto adgen_cycle_{name};")
        }
    }

    fn loop_body(&self, out: &mut String, body: &[Stmt], name: &Option<String>, depth: usize) {
        self.loops.borrow_mut().push(LoopState {
            name: name.clone(),
            exit_label: false,
            cycle_label: false,
        });
        self.block(out, body, depth + 1);
        let state = self.loops.borrow_mut().pop().expect("pushed");
        if state.cycle_label {
            writeln!(
                out,
                "{}adgen_cycle_{}:;",
                indent(depth + 1),
                state.name.as_deref().unwrap_or("")
            )
            .unwrap();
        }
        if state.exit_label {
            self.pending_exit(state.name.unwrap_or_default());
        }
    }

    fn pending_exit(&self, name: String) {
        // Written by `after_loop` once the loop's closing brace is out.
        self.loops.borrow_mut().push(LoopState {
            name: Some(format!("\u{0}{name}")),
            exit_label: true,
            cycle_label: false,
        });
    }

    fn after_loop(&self, out: &mut String, depth: usize) {
        let mut loops = self.loops.borrow_mut();
        if let Some(last) = loops.last() {
            if let Some(n) = last.name.as_deref().and_then(|n| n.strip_prefix('\u{0}')) {
                writeln!(out, "{}adgen_exit_{n}:;", indent(depth)).unwrap();
                loops.pop();
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn do_loop(
        &self,
        out: &mut String,
        s: &Stmt,
        var: &str,
        start: &Expr,
        end: &Expr,
        step: Option<&Expr>,
        body: &[Stmt],
        name: &Option<String>,
        depth: usize,
    ) {
        let ind = indent(depth);
        let trailing = s
            .trailing_comment
            .as_ref()
            .map(|c| format!(" /*{} */", c.replace("*/", "* /")))
            .unwrap_or_default();
        let v = self.var_value(var);
        let step_value = match step {
            None => Some(1),
            Some(e) => int_value(e),
        };
        // The bound is evaluated once, as in Fortran: hoist it when the body may change it.
        let changed = assigned(body);
        let end_reads: Vec<String> = il::visit::names_read(end).into_iter().map(key).collect();
        let mut has_call = false;
        il::visit::walk_expr(end, &mut |x| {
            has_call |= matches!(x.kind, ExprKind::Call(..))
        });
        let hoist = has_call
            || end_reads
                .iter()
                .any(|n| changed.contains(n) || *n == key(var));
        let mut depth_in = depth;
        let mut open_block = false;
        let n = {
            let mut f = self.fresh.borrow_mut();
            *f += 1;
            *f
        };
        let ity = c_type(
            self.var(var)
                .map(|x| x.ty)
                .unwrap_or(ScalarType::Integer(4)),
        );
        let end_text = if hoist || step_value.is_none() {
            writeln!(out, "{ind}{{").unwrap();
            open_block = true;
            depth_in += 1;
            let i2 = indent(depth_in);
            writeln!(out, "{i2}{ity} adgen_end{n} = {};", self.expr(end)).unwrap();
            format!("adgen_end{n}")
        } else {
            self.expr_at(end, Level::Add)
        };
        let i2 = indent(depth_in);
        match step_value {
            Some(k) => {
                let (cmp, inc) = if k > 0 {
                    (
                        "<=",
                        if k == 1 {
                            format!("{v}++")
                        } else {
                            format!("{v} += {k}")
                        },
                    )
                } else {
                    (
                        ">=",
                        if k == -1 {
                            format!("{v}--")
                        } else {
                            format!("{v} -= {}", -k)
                        },
                    )
                };
                writeln!(
                    out,
                    "{i2}for ({v} = {}; {v} {cmp} {end_text}; {inc}) {{{trailing}",
                    self.expr(start)
                )
                .unwrap();
            }
            None => {
                let st = step.expect("a variable step");
                writeln!(out, "{i2}{ity} adgen_step{n} = {};", self.expr(st)).unwrap();
                writeln!(out, "{i2}{ity} adgen_start{n} = {};", self.expr(start)).unwrap();
                writeln!(
                    out,
                    "{i2}{ity} adgen_trips{n} = (adgen_end{n} - adgen_start{n} + adgen_step{n}) / adgen_step{n};"
                )
                .unwrap();
                writeln!(
                    out,
                    "{i2}for ({v} = adgen_start{n}; adgen_trips{n} > 0; adgen_trips{n}--, {v} += adgen_step{n}) {{{trailing}"
                )
                .unwrap();
            }
        }
        self.loop_body(out, body, name, depth_in);
        writeln!(out, "{i2}}}").unwrap();
        self.after_loop(out, depth_in);
        if open_block {
            writeln!(out, "{ind}}}").unwrap();
        }
    }
}

fn next_level(l: Level) -> Level {
    match l {
        Level::Cond => Level::Or,
        Level::Or => Level::And,
        Level::And => Level::Equality,
        Level::Equality => Level::Relational,
        Level::Relational => Level::Add,
        Level::Add => Level::Mul,
        Level::Mul => Level::Unary,
        Level::Unary | Level::Primary => Level::Primary,
    }
}

/// A real literal in C: the source spelling when it is C, else the value.
fn real_text(lit: &il::RealLit) -> String {
    if let Some(s) = &lit.spelling {
        let body = s.strip_suffix(['f', 'F']).unwrap_or(s);
        let is_c = !body.is_empty()
            && body
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
            && body.contains(['.', 'e', 'E']);
        let has_f = s.ends_with(['f', 'F']);
        if is_c && has_f == (lit.kind == 4) {
            return s.clone();
        }
    }
    let mut v = lit.value.replace(['d', 'D'], "e");
    if !v.contains(['.', 'e', 'E']) {
        v.push_str(".0");
    }
    if lit.kind == 4 {
        v.push('f');
    }
    v
}
