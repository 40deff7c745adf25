//! Lowering of lang-c's tree into the IL: one [`il::Unit`] per function definition.

use std::collections::{BTreeMap, BTreeSet};

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::PosMap;
use crate::diag::{Diagnostic, Span};
use crate::il::{self, Decl, Expr, ScalarType, Stmt, StmtId, StmtKind, SymbolTable, TypeSpec, key};

mod calls;
mod decl;
mod expr;
mod func;
mod globals;
mod heap;
mod members;
mod output;
mod pointers;
mod prototypes;
mod scan;
mod steps;
mod stmt;
mod struct_calls;
mod structarr;
mod switch;
mod switching;

use expr::*;
use globals::*;
use members::*;
use pointers::*;
use scan::*;
use structarr::*;
use switching::*;

/// The IL name of a C identifier: C names are case-sensitive, so its capitals are marked
/// ([`il::names::cased`]); every name the lowering reads from the tree goes through here.
trait IlName {
    fn il(&self) -> String;
}

impl IlName for Identifier {
    fn il(&self) -> String {
        il::names::cased(&self.name)
    }
}

/// A C scalar type of the subset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ty {
    Void,
    Int(u8),
    Real(u8),
    /// The value of a comparison or logical operator.
    Bool,
    /// A struct: its index among the file's [`Structs`].
    Struct(u16),
}

impl Ty {
    fn scalar(self) -> ScalarType {
        match self {
            Ty::Int(k) => ScalarType::Integer(k),
            Ty::Real(k) => ScalarType::Real(k),
            Ty::Bool => ScalarType::Logical,
            Ty::Void => ScalarType::Integer(4),
            Ty::Struct(_) => ScalarType::Derived,
        }
    }
    fn is_numeric(self) -> bool {
        matches!(self, Ty::Int(_) | Ty::Real(_))
    }
}

fn promote(a: Ty, b: Ty) -> Ty {
    match (a, b) {
        (Ty::Real(x), Ty::Real(y)) => Ty::Real(x.max(y)),
        (Ty::Real(x), _) | (_, Ty::Real(x)) => Ty::Real(x),
        (Ty::Int(x), Ty::Int(y)) => Ty::Int(x.max(y)),
        (x, _) => x,
    }
}

/// How a parameter is passed, from a prototype.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Pass {
    Value,
    Ref,
}

#[derive(Clone, Debug)]
struct Proto {
    ret: Ty,
    params: Vec<Pass>,
    /// The parameters' names (empty when the prototype gives none): an actual after an
    /// absent one (`NULL`) is given by keyword.
    names: Vec<String>,
    /// For a parameter that is rows of a constant length (`double a[][N]`, `double
    /// (*a)[N]`, `vec3 *a`): that length, which a local 2-D array passed to it must have.
    rows: Vec<Option<i64>>,
    /// Each parameter's type (pointed to, for a pointer), when it is a scalar one and the
    /// parameter a plain value or pointer, and whether it is `const`: what an interface
    /// body needs ([`prototypes`]).
    scalars: Vec<Option<(Ty, bool)>>,
}

/// What a name in a function is.
#[derive(Clone, Debug, PartialEq)]
enum VarKind {
    /// A by-value parameter.
    Value,
    /// A pointer parameter used only as `*p`: a scalar passed by reference.
    RefScalar,
    /// A pointer or `[]` parameter indexed as an array.
    ArrayParam,
    Local,
    /// A local array with its extents in C order.
    LocalArray(Vec<i64>),
    /// A local pointer (`const double *p = x;`): lowered to an integer offset into the
    /// one array it points into (see [`PtrVar`]).
    Pointer,
    /// A pointer parameter to a struct (`struct state *s`), used as `s->x` and `(*s).x`
    /// and passed on as `s`: the struct passed by reference.
    StructPtr,
    /// A local pointer given memory by `malloc`/`calloc`: an ALLOCATABLE 1-D array, or
    /// with `Some(n)` a 2-D one of rows of `n` elements (`double (*t)[N]`); see [`heap`].
    Heap(Option<i64>),
    /// A parameter that points to rows of this many elements: `double (*a)[N]`,
    /// `double a[][N]`, `double a[M][N]`, `vec3 *a` with `typedef double vec3[N]`.
    RowsParam(i64),
    /// A pointer-to-pointer parameter indexed as a matrix (`double **a`, `a[i][j]`): an
    /// array of row pointers, each row its own memory. A 2-D array whose extents nobody
    /// knows (`a(0:*, 0:*)`), which the C back-end prints back as `double **`.
    RowPtrs,
}

/// A pointer that moves: a local pointer, or a pointer parameter the function advances
/// (`x++`, `x += n`). It designates element `off` of the array `base`, so that `*p`,
/// `p[i]` and `*p++` become `base(off)`, `base(off + i)` and `base(off)` followed by
/// `off = off + 1`. A pointer that would point into two arrays is refused.
#[derive(Clone, Debug)]
struct PtrVar {
    /// The IL integer variable holding the offset.
    off: String,
    /// The IL array it points into, once an assignment has told (a moving parameter
    /// points into itself).
    base: Option<String>,
    /// For a pointer to a row of a 2-D array (`double *row = a[i];`): the IL integer
    /// variable holding the row; `off` is then the offset in the row.
    row: Option<String>,
    /// For a local pointer the body makes point into several arrays: which one.
    switch: Option<Switch>,
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    kind: VarKind,
}

/// An error already reported.
struct Reported;

type R<T> = Result<T, Reported>;

/// The IL of every function definition of the translation unit.
pub(crate) fn lower_unit(
    tu: &TranslationUnit,
    map: &PosMap,
    path: &str,
    text: &str,
    next_id: &mut u32,
    header_functions: &mut BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<il::Unit> {
    let (comments, trailing) = whole_line_comments(text);
    let mut comment_cursor = 0usize;
    let (typedefs, structs) = collect_typedefs(tu);
    let enums = collect_enums(tu);
    let mut protos: BTreeMap<String, Proto> = BTreeMap::new();
    let mut refused_protos: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    // The functions this translation unit defines (the others it calls by prototype).
    let mut file_functions: BTreeSet<String> = BTreeSet::new();
    for ext in &tu.0 {
        match &ext.node {
            ExternalDeclaration::FunctionDefinition(fd) => {
                if let Some((name, proto)) =
                    proto_of(&fd.node.specifiers, &fd.node.declarator, &typedefs)
                {
                    file_functions.insert(name.clone());
                    protos.insert(name, proto);
                }
            }
            ExternalDeclaration::Declaration(d) if map.in_user(d.span.start) => {
                for init in &d.node.declarators {
                    if let Some((name, proto)) =
                        proto_of(&d.node.specifiers, &init.node.declarator, &typedefs)
                    {
                        protos.entry(name).or_insert(proto);
                    } else if let Some(name) = function_declarator_name(&init.node.declarator) {
                        // A prototype adgen cannot state (`double *mc(...)`) blocks only
                        // the functions that call it: said where one does.
                        let refusal = Diagnostic::error(
                            "E0603",
                            format!(
                                "the prototype of `{name}` (a function returning a pointer, \
                                 or taking parameters adgen cannot pass) is not supported yet"
                            ),
                        )
                        .at(map.span(init.span));
                        refused_protos.insert(name, vec![refusal]);
                    }
                }
            }
            _ => {}
        }
    }
    let arrays = pointer_kinds(tu);
    let written_params = written_params(tu);
    // File-scope `const` scalars initialized by constant expressions: replaced by their
    // value where they are used.
    let mut consts: BTreeMap<String, (Ty, Node<Expression>)> = BTreeMap::new();
    let mut const_decls: BTreeSet<usize> = BTreeSet::new();
    for (index, ext) in tu.0.iter().enumerate() {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        if !map.in_user(ext.span.start) || !is_const(&d.node.specifiers) {
            continue;
        }
        let extern_or_typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if c.node != StorageClassSpecifier::Static)
        });
        let Ok(ty @ (Ty::Int(_) | Ty::Real(_))) = decl_type(&d.node.specifiers, &typedefs) else {
            continue;
        };
        let mut all = !extern_or_typedef && !d.node.declarators.is_empty();
        let mut found = Vec::new();
        for i in &d.node.declarators {
            match (
                declarator_name(&i.node.declarator.node),
                i.node.declarator.node.derived.is_empty(),
                &i.node.initializer,
            ) {
                (Some(name), true, Some(init)) => match &init.node {
                    Initializer::Expression(e) if is_literal_expr(&e.node) => {
                        found.push((name.node.il(), (ty, (**e).clone())));
                    }
                    _ => all = false,
                },
                _ => all = false,
            }
        }
        if all {
            consts.extend(found);
            const_decls.insert(index);
        }
    }
    // File-scope variables: the globals of the file's pseudo-module.
    let mut globals: BTreeMap<String, GlobalVar> = BTreeMap::new();
    let mut refused_globals: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    let mut global_decls: BTreeSet<usize> = BTreeSet::new();
    for (index, ext) in tu.0.iter().enumerate() {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        // A user header's `extern` declarations name globals another file defines.
        let is_extern = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if c.node == StorageClassSpecifier::Extern)
        });
        let here = map.in_main(ext.span.start) || (is_extern && map.in_user(ext.span.start));
        if !here || const_decls.contains(&index) {
            continue;
        }
        let is_proto = !d.node.declarators.is_empty()
            && d.node
                .declarators
                .iter()
                .all(|i| proto_of(&d.node.specifiers, &i.node.declarator, &typedefs).is_some());
        let is_typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if c.node == StorageClassSpecifier::Typedef)
        });
        if is_proto || is_typedef || d.node.declarators.is_empty() {
            continue;
        }
        global_decls.insert(index);
        // A global adgen cannot declare blocks only the functions that use it: its
        // refusal is said where a function names it (a root that never reaches one of
        // those is differentiated).
        let mut refusals = Vec::new();
        global_declaration(d, map, &typedefs, &mut globals, &mut refusals);
        if refusals.iter().any(Diagnostic::is_error) {
            for init in &d.node.declarators {
                if let Some(name) = declarator_name(&init.node.declarator.node) {
                    refused_globals.insert(key(&name.node.il()), refusals.clone());
                }
            }
        } else {
            diags.extend(refusals);
        }
    }
    // The pseudo-module's name, taken whether or not the file turns out to need one.
    let module = module_name(path, &protos);
    let mut used_structs: BTreeSet<u16> = globals
        .values()
        .filter_map(|g| match g.ty {
            Ty::Struct(i) => Some(i),
            _ => None,
        })
        .collect();
    let mut units = Vec::new();
    let mut defined: BTreeMap<String, String> = BTreeMap::new();
    for (index, ext) in tu.0.iter().enumerate() {
        if !map.in_user(ext.span.start)
            || const_decls.contains(&index)
            || global_decls.contains(&index)
        {
            continue;
        }
        match &ext.node {
            ExternalDeclaration::FunctionDefinition(fd) => {
                // A function a user header defines (`static inline`) is lowered once, by
                // the first file including the header; the others call it by prototype.
                if !map.in_main(ext.span.start) {
                    let name = declarator_name(&fd.node.declarator.node)
                        .map(|n| n.node.il())
                        .unwrap_or_default();
                    if !header_functions.insert(name) {
                        continue;
                    }
                }
                let mut cx = FnCx {
                    map,
                    diags: &mut *diags,
                    next_id: &mut *next_id,
                    protos: &protos,
                    vars: BTreeMap::new(),
                    scopes: vec![Vec::new()],
                    decls: Vec::new(),
                    symbols: SymbolTable::default(),
                    result: None,
                    copies: BTreeMap::new(),
                    pointers: BTreeMap::new(),
                    targets: BTreeMap::new(),
                    pick: BTreeMap::new(),
                    idents: BTreeSet::new(),
                    effects_ok: false,
                    fx: Effects::default(),
                    loops: Vec::new(),
                    called: BTreeSet::new(),
                    arrays: &arrays,
                    written_params: &written_params,
                    typedefs: &typedefs,
                    structs: &structs,
                    globals: &globals,
                    refused_globals: &refused_globals,
                    refused_protos: &refused_protos,
                    module: &module,
                    used_structs: &mut used_structs,
                    enums: &enums,
                    comments: &comments,
                    comment_cursor: &mut comment_cursor,
                    consts: &consts,
                    trailing: &trailing,
                    text,
                    used_trailing: BTreeSet::new(),
                    shadowed: BTreeSet::new(),
                    refused_locals: BTreeSet::new(),
                    own_name: String::new(),
                    passes: Vec::new(),
                    in_arguments: BTreeSet::new(),
                    heap: Default::default(),
                    optional: Default::default(),
                };
                let before = cx.diags.len();
                let lowered = cx.function(fd);
                if lowered.is_err() {
                    // A function adgen cannot lower blocks only the roots that reach it:
                    // its refusals wait in a stand-in that `prepare::reached` drops when
                    // no root calls it (`main(int argc, char **argv)` beside the model).
                    let refusals = cx.diags.split_off(before);
                    let name = declarator_name(&fd.node.declarator.node)
                        .map(|n| n.node.il())
                        .unwrap_or_default();
                    if !name.is_empty() && refusals.iter().any(Diagnostic::is_error) {
                        let mut stand_in = il::Unit::declaration(
                            &name,
                            Vec::new(),
                            None,
                            Vec::new(),
                            SymbolTable::default(),
                            map.span(fd.span),
                        );
                        stand_in.external = false;
                        stand_in.deferred = refusals;
                        units.push(stand_in);
                    } else {
                        cx.diags.extend(refusals);
                    }
                }
                if let Ok(mut unit) = lowered {
                    prototypes::declare_external(&mut unit, &cx.called, &protos, &file_functions);
                    if let Some(prev) = defined.insert(key(&unit.name), unit.name.clone()) {
                        diags.push(
                            Diagnostic::error(
                                "E0608",
                                format!(
                                    "`{}` and `{prev}` differ only by case: adgen's IL does not \
                                     tell them apart",
                                    unit.name
                                ),
                            )
                            .at(unit.span),
                        );
                    }
                    units.push(unit);
                }
            }
            ExternalDeclaration::Declaration(d) => {
                let is_proto =
                    d.node.declarators.iter().all(|i| {
                        proto_of(&d.node.specifiers, &i.node.declarator, &typedefs).is_some()
                    }) && !d.node.declarators.is_empty();
                let is_typedef = d.node.specifiers.iter().any(|s| {
                    matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                        if c.node == StorageClassSpecifier::Typedef)
                });
                let typedef_error = is_typedef
                    .then(|| {
                        d.node.declarators.iter().find_map(|i| {
                            let name = declarator_name(&i.node.declarator.node)?;
                            typedefs.get(&name.node.il())?.as_ref().err()
                        })
                    })
                    .flatten();
                if let Some(what) = typedef_error {
                    diags.push(
                        Diagnostic::error("E0603", format!("{what} is not supported yet"))
                            .at(map.span(d.span))
                            .with_help(
                                "typedefs of `double`, `float`, `int`, `long`, of arrays \
                                 of them with constant sizes, and of structs of those are \
                                 supported",
                            ),
                    );
                } else if !is_proto
                    && !is_typedef
                    && !is_enum_definition(&d.node)
                    && !is_struct_definition(&d.node)
                    && !d.node.declarators.iter().all(|i| {
                        function_declarator_name(&i.node.declarator)
                            .is_some_and(|n| refused_protos.contains_key(&n))
                    })
                {
                    diags.push(
                        Diagnostic::error(
                            "E0603",
                            "this file-scope declaration is not supported yet",
                        )
                        .at(map.span(d.span)),
                    );
                }
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    // The struct types the file uses (and those their members use), in definition order.
    let mut closure = used_structs.clone();
    for &i in &used_structs {
        struct_closure(i, &structs, &mut closure);
    }
    if !globals.is_empty() || !closure.is_empty() {
        let at =
            tu.0.iter()
                .find(|e| map.in_main(e.span.start))
                .map(|e| map.span(e.span))
                .unwrap_or_default();
        for u in &mut units {
            u.host = Some(module.clone());
        }
        check_global_aliasing(&units, &globals, diags);
        units.insert(
            0,
            module_unit(map, &module, &structs, &closure, &globals, at),
        );
    } else {
        // No pseudo-module: the functions saw no global.
        debug_assert!(
            units
                .iter()
                .all(|u| u.symbols.iter().all(|s| s.global.is_none()))
        );
    }
    units
}

/// What a `typedef` name stands for: a scalar type and, for an array typedef
/// (`typedef double vec3[3];`), its extents in C order. `Err` describes a typedef adgen
/// cannot use (unions, pointers, ...), reported where the name is used. Struct types are
/// found here too, under `struct tag` (or `struct@offset` when anonymous), as
/// [`Ty::Struct`].
type Typedefs = BTreeMap<String, Result<(Ty, Vec<i64>), String>>;

/// What a `break` or `continue` would leave: a loop, or a `switch` (whose `break`s the
/// lowering of the switch consumes, and which `continue` passes through).
#[derive(Copy, Clone, PartialEq)]
enum LoopKind {
    Plain,
    Switch,
}

/// One stretch of a `switch` body: the labels that enter it and its statements, up to the
/// next label.
struct CaseSegment {
    /// `sel == v` (or `v1 <= sel && sel <= v2`) for each `case` label.
    tests: Vec<Expr>,
    is_default: bool,
    body: Vec<Stmt>,
    /// Control does not fall through into the next segment (`break`, `return`,
    /// `continue`).
    ends: bool,
}

/// The steps (`p++`, `k--`) met while lowering one statement or one `while` condition.
#[derive(Default)]
struct Effects {
    /// Steps to run before (`++p`) / after (`p++`) the statement.
    pre: Vec<Stmt>,
    post: Vec<Stmt>,
    /// Moving pointers stepped (keys of their C names), and how often the statement uses
    /// each moving pointer.
    stepped: BTreeSet<String>,
    ptr_uses: BTreeMap<String, usize>,
    /// Scalar variables stepped (C names).
    stepped_vars: BTreeSet<String>,
}

/// The name of the loop a nested `break` of a switch leaves, while the switch is lowered:
/// no C identifier, and replaced before the switch is done.
const SWITCH_BREAK: &str = "<switch>";

/// Does a block hold a `break` of the switch being lowered (in `if`s: a `break` in a
/// loop belongs to the loop)?
fn has_switch_break(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Exit { name: Some(n) } => n == SWITCH_BREAK,
        StmtKind::If {
            arms, else_body, ..
        } => {
            arms.iter().any(|(_, b)| has_switch_break(b))
                || else_body.as_deref().is_some_and(has_switch_break)
        }
        _ => false,
    })
}

struct FnCx<'m, 'd> {
    map: &'m PosMap,
    diags: &'d mut Vec<Diagnostic>,
    next_id: &'d mut u32,
    protos: &'m BTreeMap<String, Proto>,
    /// Every variable of the function, by key.
    vars: BTreeMap<String, Var>,
    /// Names declared in each open block scope.
    scopes: Vec<Vec<String>>,
    decls: Vec<Decl>,
    symbols: SymbolTable,
    result: Option<(String, Ty)>,
    /// By-value parameters the function assigns, by key: the local copy the body uses.
    copies: BTreeMap<String, String>,
    /// Moving pointers, by key of their C name.
    pointers: BTreeMap<String, PtrVar>,
    /// What each local pointer of the body is made to point into (C names, see
    /// [`switching`]), and, while a statement is lowered once per array its switching
    /// pointers point into, the array (position) each points into in this copy.
    targets: BTreeMap<String, Vec<String>>,
    pick: BTreeMap<String, usize>,
    /// Every identifier of the function body (keys): names adgen makes avoid them.
    idents: BTreeSet<String>,
    /// May the expression being lowered step a pointer (`*p++`)? Only in a statement
    /// that can run the step before or after itself, never in a condition or a branch
    /// of `?:`.
    effects_ok: bool,
    /// The steps of the statement being lowered.
    fx: Effects,
    loops: Vec<LoopKind>,
    called: BTreeSet<String>,
    /// Pointer parameters that are arrays, per function.
    arrays: &'m BTreeMap<String, BTreeMap<String, bool>>,
    /// The parameters each function of the file may write (`scan::written_params`).
    written_params: &'m BTreeMap<String, BTreeSet<usize>>,
    /// Names the body passes whole to calls: (name, callee, position).
    passes: Vec<(String, String, usize)>,
    /// Names passed to calls as a pointer into them (`a + 2`: `scan::offset_arguments`).
    in_arguments: BTreeSet<String>,
    typedefs: &'m Typedefs,
    /// The file's struct types, and its global variables by key, seen by every function
    /// (members of the pseudo-module `module`).
    structs: &'m Structs,
    globals: &'m BTreeMap<String, GlobalVar>,
    /// Globals adgen could not declare (by key), with why: said where a function names one.
    refused_globals: &'m BTreeMap<String, Vec<Diagnostic>>,
    /// Prototypes adgen cannot state (by C name), with why: said where a function calls
    /// one.
    refused_protos: &'m BTreeMap<String, Vec<Diagnostic>>,
    module: &'m str,
    /// The struct types used by the functions lowered so far.
    used_structs: &'d mut BTreeSet<u16>,
    enums: &'m Enums,
    /// Whole-line comments of the file and the first one not yet placed.
    comments: &'m [Comment],
    comment_cursor: &'d mut usize,
    /// File-scope constants: their type and initializer.
    consts: &'m BTreeMap<String, (Ty, Node<Expression>)>,
    /// Comments after code on their line, by start offset.
    trailing: &'m BTreeMap<usize, String>,
    text: &'m str,
    used_trailing: BTreeSet<usize>,
    /// Globals (keys) that a parameter or a local of the function's outermost block
    /// shadows: the function does not see them.
    shadowed: BTreeSet<String>,
    /// Locals (keys) whose declaration was refused: their uses say nothing more.
    refused_locals: BTreeSet<String>,
    /// The function being lowered: a local may take its name (`double betain;` in
    /// `double betain(...)`, as code translated from Fortran keeps its result).
    own_name: String,
    /// The function's `malloc`ed work arrays.
    heap: heap::HeapState,
    /// Pointer parameters (keys) the function tests against `NULL`: OPTIONAL dummies.
    optional: BTreeSet<String>,
}

/// An expression of literals only (`9.81`, `-1`, `2 * 3.0`).
fn is_literal_expr(e: &Expression) -> bool {
    match e {
        Expression::Constant(c) => !matches!(c.node, Constant::Character(_)),
        Expression::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                UnaryOperator::Minus | UnaryOperator::Plus
            ) && is_literal_expr(&u.node.operand.node)
        }
        Expression::BinaryOperator(b) => {
            matches!(
                b.node.operator.node,
                BinaryOperator::Plus
                    | BinaryOperator::Minus
                    | BinaryOperator::Multiply
                    | BinaryOperator::Divide
            ) && is_literal_expr(&b.node.lhs.node)
                && is_literal_expr(&b.node.rhs.node)
        }
        _ => false,
    }
}

/// A comment alone on its line(s): its start offset and its lines' texts.
pub(crate) struct Comment {
    start: usize,
    lines: Vec<String>,
}

/// The comments of `text` that stand alone on their lines, in order.
fn whole_line_comments(text: &str) -> (Vec<Comment>, BTreeMap<usize, String>) {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut trailing = BTreeMap::new();
    let mut i = 0;
    let line_start = |i: usize| text[..i].rfind('\n').map(|p| p + 1).unwrap_or(0);
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') || b.get(i + 1) == Some(&b'*') => {
                let start = i;
                let block = b[i + 1] == b'*';
                let end = if block {
                    text[i + 2..]
                        .find("*/")
                        .map(|p| i + 2 + p + 2)
                        .unwrap_or(b.len())
                } else {
                    text[i..].find('\n').map(|p| i + p).unwrap_or(b.len())
                };
                let alone_before = text[line_start(start)..start].trim().is_empty();
                let rest = text[end..].split('\n').next().unwrap_or("");
                if !alone_before && rest.trim().is_empty() && !text[start..end].contains('\n') {
                    let body = if block {
                        &text[start + 2..end.saturating_sub(2).max(start + 2)]
                    } else {
                        &text[start + 2..end]
                    };
                    trailing.insert(start, format!(" {}", body.trim()));
                } else if alone_before && rest.trim().is_empty() {
                    let body = if block {
                        &text[start + 2..end.saturating_sub(2).max(start + 2)]
                    } else {
                        &text[start + 2..end]
                    };
                    let lines = body
                        .lines()
                        .map(|l| {
                            let t = l.trim();
                            let t = t.strip_prefix('*').map(str::trim_start).unwrap_or(t);
                            format!(" {t}")
                        })
                        .filter(|l| !l.trim().is_empty())
                        .collect();
                    out.push(Comment { start, lines });
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    (out, trailing)
}

fn int_lit(v: i64) -> Expr {
    Expr::int(v)
}

fn real_spec(ty: Ty) -> TypeSpec {
    TypeSpec::of(ty.scalar())
}

impl FnCx<'_, '_> {
    fn span(&self, s: CSpan) -> Span {
        self.map.span(s)
    }

    fn err(&mut self, code: &'static str, msg: impl Into<String>, at: CSpan) -> Reported {
        let span = self.span(at);
        self.diags.push(Diagnostic::error(code, msg).at(span));
        Reported
    }

    fn unsupported(&mut self, code: &'static str, what: &str, at: CSpan) -> Reported {
        let span = self.span(at);
        self.diags
            .push(Diagnostic::error(code, format!("{what} is not supported yet")).at(span));
        Reported
    }

    fn stmt(&mut self, kind: StmtKind, at: CSpan) -> Stmt {
        let id = StmtId(*self.next_id);
        *self.next_id += 1;
        // A comment after code on the line where the statement starts goes with the
        // first statement made there.
        let mut trailing_comment = None;
        if let Some(start) = self.original(at.start) {
            let line_end = self.text[start..]
                .find('\n')
                .map(|p| start + p)
                .unwrap_or(self.text.len());
            if let Some((&c, text)) = self.trailing.range(start..line_end).next() {
                if self.used_trailing.insert(c) {
                    trailing_comment = Some(text.clone());
                }
            }
        }
        Stmt {
            id,
            kind,
            span: self.span(at),
            label: None,
            trailing_comment: trailing_comment.map(Into::into),
        }
    }
}
