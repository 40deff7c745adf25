//! Lowering of lang-c's tree into the IL: one [`il::Unit`] per function definition.

use std::collections::{BTreeMap, BTreeSet};

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};
use lang_c::visit::Visit;

use super::PosMap;
use crate::diag::{Diagnostic, Span};
use crate::il::{
    self, Attr, BinOp, Bound, Decl, DeclKind, DimSpec, Entity, Expr, ExprKind, Intent, RealLit,
    ScalarType, Stmt, StmtId, StmtKind, Symbol, SymbolKind, SymbolTable, TypeSpec, UnOp, key,
};

/// A C scalar type of the subset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ty {
    Void,
    Int(u8),
    Real(u8),
    /// The value of a comparison or logical operator.
    Bool,
}

impl Ty {
    fn scalar(self) -> ScalarType {
        match self {
            Ty::Int(k) => ScalarType::Integer(k),
            Ty::Real(k) => ScalarType::Real(k),
            Ty::Bool => ScalarType::Logical,
            Ty::Void => ScalarType::Integer(4),
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
    text: &str,
    next_id: &mut u32,
    diags: &mut Vec<Diagnostic>,
) -> Vec<il::Unit> {
    let (comments, trailing) = whole_line_comments(text);
    let mut comment_cursor = 0usize;
    let typedefs = collect_typedefs(tu);
    let enums = collect_enums(tu);
    let mut protos: BTreeMap<String, Proto> = BTreeMap::new();
    for ext in &tu.0 {
        match &ext.node {
            ExternalDeclaration::FunctionDefinition(fd) => {
                if let Some((name, proto)) =
                    proto_of(&fd.node.specifiers, &fd.node.declarator, &typedefs)
                {
                    protos.insert(name, proto);
                }
            }
            ExternalDeclaration::Declaration(d) if map.in_main(d.span.start) => {
                for init in &d.node.declarators {
                    if let Some((name, proto)) =
                        proto_of(&d.node.specifiers, &init.node.declarator, &typedefs)
                    {
                        protos.entry(name).or_insert(proto);
                    }
                }
            }
            _ => {}
        }
    }
    let arrays = pointer_kinds(tu);
    // File-scope `const` scalars initialized by constant expressions: replaced by their
    // value where they are used.
    let mut consts: BTreeMap<String, (Ty, Node<Expression>)> = BTreeMap::new();
    let mut const_decls: BTreeSet<usize> = BTreeSet::new();
    for (index, ext) in tu.0.iter().enumerate() {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        if !map.in_main(ext.span.start) || !is_const(&d.node.specifiers) {
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
                        found.push((name.node.name.clone(), (ty, (**e).clone())));
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
    let mut units = Vec::new();
    let mut defined: BTreeMap<String, String> = BTreeMap::new();
    for (index, ext) in tu.0.iter().enumerate() {
        if !map.in_main(ext.span.start) || const_decls.contains(&index) {
            continue;
        }
        match &ext.node {
            ExternalDeclaration::FunctionDefinition(fd) => {
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
                    idents: BTreeSet::new(),
                    effects_ok: false,
                    fx: Effects::default(),
                    loops: Vec::new(),
                    called: BTreeSet::new(),
                    arrays: &arrays,
                    typedefs: &typedefs,
                    enums: &enums,
                    comments: &comments,
                    comment_cursor: &mut comment_cursor,
                    consts: &consts,
                    trailing: &trailing,
                    text,
                    used_trailing: BTreeSet::new(),
                };
                if let Ok(unit) = cx.function(fd) {
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
                            typedefs.get(&name.node.name)?.as_ref().err()
                        })
                    })
                    .flatten();
                if let Some(what) = typedef_error {
                    diags.push(
                        Diagnostic::error("E0603", format!("{what} is not supported yet"))
                            .at(map.span(d.span))
                            .with_help(
                                "typedefs of `double`, `float`, `int`, `long` and of arrays \
                                 of them with constant sizes are supported",
                            ),
                    );
                } else if !is_proto && !is_typedef && !is_enum_definition(&d.node) {
                    diags.push(
                        Diagnostic::error(
                            "E0603",
                            "global variables (other than `const` scalars with a constant \
                             initializer) and structs are not supported yet",
                        )
                        .at(map.span(d.span))
                        .with_help(
                            "pass the data as function arguments, or use #define for constants",
                        ),
                    );
                }
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    units
}

/// What a `typedef` name stands for: a scalar type and, for an array typedef
/// (`typedef double vec3[3];`), its extents in C order. `Err` describes a typedef adgen
/// cannot use (structs, pointers, ...), reported where the name is used.
type Typedefs = BTreeMap<String, Result<(Ty, Vec<i64>), String>>;

/// The typedefs of the translation unit (headers included), in declaration order, so that
/// a typedef may use an earlier one (`typedef real_t vec3[3];`).
fn collect_typedefs(tu: &TranslationUnit) -> Typedefs {
    let mut typedefs = Typedefs::new();
    for ext in &tu.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let is_typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if c.node == StorageClassSpecifier::Typedef)
        });
        if !is_typedef {
            continue;
        }
        let base = decl_type(&d.node.specifiers, &typedefs);
        let inner = typedef_extents(&d.node.specifiers, &typedefs);
        for init in &d.node.declarators {
            let Some(name) = declarator_name(&init.node.declarator.node) else {
                continue;
            };
            let mut extents = Vec::new();
            let mut what = Ok(());
            for dd in &init.node.declarator.node.derived {
                match &dd.node {
                    DerivedDeclarator::Array(a) => match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                            match const_int(&e.node) {
                                Some(n) if n > 0 => extents.push(n),
                                _ => what = Err("an array typedef without a constant size"),
                            }
                        }
                        _ => what = Err("an array typedef without a size"),
                    },
                    _ => what = Err("a pointer or function typedef"),
                }
            }
            extents.extend(inner.iter().copied());
            let info = match (&base, what) {
                (Ok(Ty::Void | Ty::Bool), _) => {
                    Err(format!("the typedef `{}` (void)", name.node.name))
                }
                (Ok(t), Ok(())) => Ok((*t, extents)),
                (Err(w), _) => Err(format!("the typedef `{}` ({w})", name.node.name)),
                (_, Err(w)) => Err(format!("the typedef `{}` ({w})", name.node.name)),
            };
            typedefs.insert(name.node.name.clone(), info);
        }
    }
    typedefs
}

/// `enum kind { A, B };`: a declaration that only defines enumeration constants.
fn is_enum_definition(d: &Declaration) -> bool {
    d.declarators.is_empty()
        && d.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                if matches!(&t.node, TypeSpecifier::Enum(_)))
        })
}

/// The array extents a typedef name among the specifiers brings (empty for scalars).
fn typedef_extents(specs: &[Node<DeclarationSpecifier>], typedefs: &Typedefs) -> Vec<i64> {
    specs
        .iter()
        .find_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
                TypeSpecifier::TypedefName(n) => match typedefs.get(&n.node.name) {
                    Some(Ok((_, ext))) => Some(ext.clone()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .unwrap_or_default()
}

/// Enumeration constants of the file, by name: used as integer constants.
type Enums = BTreeMap<String, i64>;

/// The constants of every `enum { A, B = 4, C }` of the translation unit (headers
/// included), each the previous plus one unless given.
fn collect_enums(tu: &TranslationUnit) -> Enums {
    struct Finder<'a> {
        enums: &'a mut Enums,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_enum_type(&mut self, e: &'ast EnumType, _span: &'ast CSpan) {
            let mut next = 0i64;
            for en in &e.enumerators {
                let value = match &en.node.expression {
                    Some(x) => match const_int_in(&x.node, self.enums) {
                        Some(v) => v,
                        None => continue,
                    },
                    None => next,
                };
                self.enums
                    .insert(en.node.identifier.node.name.clone(), value);
                next = value.saturating_add(1);
            }
        }
    }
    let mut enums = Enums::new();
    for ext in &tu.0 {
        if let ExternalDeclaration::Declaration(d) = &ext.node {
            Finder { enums: &mut enums }.visit_declaration(&d.node, &d.span);
        }
    }
    enums
}

/// Base type of declaration specifiers; `Err` with a description when unsupported.
fn base_type<'a>(
    specs: impl Iterator<Item = &'a TypeSpecifier>,
    typedefs: &Typedefs,
) -> Result<Ty, String> {
    let mut long = 0;
    let mut seen = Vec::new();
    let mut specs = specs.peekable();
    if let Some(TypeSpecifier::TypedefName(n)) = specs.peek() {
        let name = &n.node.name;
        let ty = match typedefs.get(name) {
            Some(Ok((ty, _))) => Ok(*ty),
            Some(Err(w)) => Err(w.clone()),
            None => Err(format!("the typedef name `{name}`")),
        };
        specs.next();
        return match specs.next() {
            None => ty,
            Some(_) => Err("this combination of type specifiers".into()),
        };
    }
    for s in specs {
        match s {
            TypeSpecifier::Long => long += 1,
            TypeSpecifier::Void => seen.push("void"),
            TypeSpecifier::Int => seen.push("int"),
            TypeSpecifier::Signed => seen.push("signed"),
            TypeSpecifier::Float => seen.push("float"),
            TypeSpecifier::Double => seen.push("double"),
            TypeSpecifier::Unsigned => return Err("unsigned types".into()),
            TypeSpecifier::Char => return Err("`char`".into()),
            TypeSpecifier::Short => return Err("`short`".into()),
            TypeSpecifier::Bool => return Err("`_Bool`".into()),
            TypeSpecifier::Struct(_) => return Err("structs and unions".into()),
            // An enumeration is an `int`.
            TypeSpecifier::Enum(_) => seen.push("int"),
            TypeSpecifier::TypedefName(n) => {
                return Err(format!("the typedef name `{}`", n.node.name));
            }
            _ => return Err("this type".into()),
        }
    }
    seen.retain(|s| *s != "signed" || long == 0);
    match (seen.as_slice(), long) {
        (["double"], 0) => Ok(Ty::Real(8)),
        (["float"], 0) => Ok(Ty::Real(4)),
        (["void"], 0) => Ok(Ty::Void),
        (["int"] | ["signed"] | ["signed", "int"] | ["int", "signed"], 0) => Ok(Ty::Int(4)),
        ([] | ["int"] | ["signed"] | ["signed", "int"], 1 | 2) => Ok(Ty::Int(8)),
        (["double"], _) => Err("`long double`".into()),
        _ => Err("this combination of type specifiers".into()),
    }
}

fn decl_type(specs: &[Node<DeclarationSpecifier>], typedefs: &Typedefs) -> Result<Ty, String> {
    base_type(
        specs.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        }),
        typedefs,
    )
}

fn is_const(specs: &[Node<DeclarationSpecifier>]) -> bool {
    specs.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Const)
    })
}

fn declarator_name(d: &Declarator) -> Option<&Node<Identifier>> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id),
        _ => None,
    }
}

/// The prototype of a function declarator (`None` when not a function).
fn proto_of(
    specs: &[Node<DeclarationSpecifier>],
    d: &Node<Declarator>,
    typedefs: &Typedefs,
) -> Option<(String, Proto)> {
    let name = declarator_name(&d.node)?.node.name.clone();
    let [
        Node {
            node: DerivedDeclarator::Function(f),
            ..
        },
    ] = d.node.derived.as_slice()
    else {
        return None;
    };
    let ret = decl_type(specs, typedefs).unwrap_or(Ty::Void);
    let mut params = Vec::new();
    for p in &f.node.parameters {
        // A parameter of an array typedef is a pointer.
        let typedef_array = !typedef_extents(&p.node.specifiers, typedefs).is_empty();
        let pass = match &p.node.declarator {
            None => {
                if decl_type(&p.node.specifiers, typedefs) == Ok(Ty::Void) {
                    continue;
                }
                if typedef_array {
                    Pass::Ref
                } else {
                    Pass::Value
                }
            }
            Some(d) => {
                if d.node.derived.is_empty() && !typedef_array {
                    Pass::Value
                } else {
                    Pass::Ref
                }
            }
        };
        params.push(pass);
    }
    Some((name, Proto { ret, params }))
}

/// Names used as `p[...]` in a function body.
#[derive(Default)]
struct Indexed {
    names: BTreeSet<String>,
    idents: BTreeSet<String>,
    /// Names used as `*p`.
    derefs: BTreeSet<String>,
    /// Names passed whole as arguments: (name, callee, position).
    passes: Vec<(String, String, usize)>,
}

impl<'ast> Visit<'ast> for Indexed {
    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        use BinaryOperator as B;
        if b.operator.node == B::Index {
            if let Expression::Identifier(id) = &b.lhs.node {
                self.names.insert(id.node.name.clone());
            }
        }
        // Pointer arithmetic (`x + k`, `p = x`, `x += n`) makes a pointer parameter an
        // array; marking scalars too is harmless, only pointers are looked up.
        if matches!(
            b.operator.node,
            B::Plus | B::Minus | B::Assign | B::AssignPlus | B::AssignMinus
        ) {
            for side in [&b.lhs.node, &b.rhs.node] {
                if let Expression::Identifier(id) = side {
                    self.names.insert(id.node.name.clone());
                }
            }
        }
        lang_c::visit::visit_binary_operator_expression(self, b, span);
    }
    fn visit_identifier(&mut self, identifier: &'ast Identifier, _span: &'ast CSpan) {
        self.idents.insert(key(&identifier.name));
    }
    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast UnaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        use UnaryOperator as U;
        if let Expression::Identifier(id) = &u.operand.node {
            match u.operator.node {
                U::Indirection => {
                    self.derefs.insert(id.node.name.clone());
                }
                U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                    self.names.insert(id.node.name.clone());
                }
                _ => {}
            }
        }
        lang_c::visit::visit_unary_operator_expression(self, u, span);
    }
    fn visit_init_declarator(&mut self, d: &'ast InitDeclarator, span: &'ast CSpan) {
        if let Some(Node {
            node: Initializer::Expression(e),
            ..
        }) = &d.initializer
        {
            if let Expression::Identifier(id) = &e.node {
                self.names.insert(id.node.name.clone());
            }
        }
        lang_c::visit::visit_init_declarator(self, d, span);
    }
    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast CSpan) {
        if let Expression::Identifier(callee) = &c.callee.node {
            for (k, a) in c.arguments.iter().enumerate() {
                if let Expression::Identifier(id) = &a.node {
                    self.passes
                        .push((id.node.name.clone(), callee.node.name.clone(), k));
                }
            }
        }
        lang_c::visit::visit_call_expression(self, c, span);
    }
}

/// For each function of the file, which of its pointer parameters are arrays: those
/// indexed `p[i]`; not those only dereferenced `*p`; those only passed on take the kind
/// of the parameter they are passed to (arrays when nothing tells).
fn pointer_kinds(tu: &TranslationUnit) -> BTreeMap<String, BTreeMap<String, bool>> {
    struct Info {
        params: Vec<String>,
        usage: Indexed,
    }
    let mut infos: BTreeMap<String, Info> = BTreeMap::new();
    for ext in &tu.0 {
        let ExternalDeclaration::FunctionDefinition(fd) = &ext.node else {
            continue;
        };
        let Some(name) = declarator_name(&fd.node.declarator.node) else {
            continue;
        };
        let mut params = Vec::new();
        if let [
            Node {
                node: DerivedDeclarator::Function(f),
                ..
            },
        ] = fd.node.declarator.node.derived.as_slice()
        {
            for p in &f.node.parameters {
                let n = p
                    .node
                    .declarator
                    .as_ref()
                    .and_then(|d| declarator_name(&d.node))
                    .map(|i| i.node.name.clone())
                    .unwrap_or_default();
                params.push(n);
            }
        }
        let mut usage = Indexed::default();
        usage.visit_statement(&fd.node.statement.node, &fd.node.statement.span);
        infos.insert(name.node.name.clone(), Info { params, usage });
    }
    // None: undecided (only passed on).
    let mut kinds: BTreeMap<String, BTreeMap<String, Option<bool>>> = infos
        .iter()
        .map(|(f, i)| {
            let m = i
                .params
                .iter()
                .map(|p| {
                    let k = if i.usage.names.contains(p) {
                        Some(true)
                    } else if i.usage.derefs.contains(p) {
                        Some(false)
                    } else {
                        None
                    };
                    (p.clone(), k)
                })
                .collect();
            (f.clone(), m)
        })
        .collect();
    for _ in 0..8 {
        let mut changed = false;
        for (f, i) in &infos {
            for p in &i.params {
                if kinds[f][p].is_some() {
                    continue;
                }
                let decided = i.usage.passes.iter().find_map(|(n, callee, k)| {
                    if n != p {
                        return None;
                    }
                    let cp = infos.get(callee)?.params.get(*k)?;
                    kinds.get(callee)?.get(cp).copied().flatten()
                });
                if let Some(d) = decided {
                    kinds
                        .get_mut(f)
                        .expect("every function has a kind table")
                        .insert(p.clone(), Some(d));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    kinds
        .into_iter()
        .map(|(f, m)| {
            (
                f,
                m.into_iter().map(|(p, k)| (p, k.unwrap_or(true))).collect(),
            )
        })
        .collect()
}

/// Names a statement assigns (`=`, `op=`, `++`, `--`, `&x`).
#[derive(Default)]
struct Assigned {
    names: BTreeSet<String>,
}

fn target_name(e: &Expression) -> Option<&str> {
    match e {
        Expression::Identifier(id) => Some(&id.node.name),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            target_name(&b.node.lhs.node)
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
            target_name(&u.node.operand.node)
        }
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Assigned {
    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        use BinaryOperator::*;
        if matches!(
            b.operator.node,
            Assign
                | AssignMultiply
                | AssignDivide
                | AssignModulo
                | AssignPlus
                | AssignMinus
                | AssignShiftLeft
                | AssignShiftRight
                | AssignBitwiseAnd
                | AssignBitwiseXor
                | AssignBitwiseOr
        ) {
            if let Some(n) = target_name(&b.lhs.node) {
                self.names.insert(n.to_string());
            }
        }
        lang_c::visit::visit_binary_operator_expression(self, b, span);
    }
    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast UnaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        use UnaryOperator::*;
        if matches!(
            u.operator.node,
            PostIncrement | PostDecrement | PreIncrement | PreDecrement | Address
        ) {
            if let Some(n) = target_name(&u.operand.node) {
                self.names.insert(n.to_string());
            }
        }
        lang_c::visit::visit_unary_operator_expression(self, u, span);
    }
}

/// Names assigned themselves (`x = ...`, `x += ...`, `x++`), not through `*x` or `x[i]`:
/// for a pointer parameter, the pointer moves.
#[derive(Default)]
struct DirectTargets {
    names: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for DirectTargets {
    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        use BinaryOperator::*;
        if matches!(b.operator.node, Assign | AssignPlus | AssignMinus) {
            if let Expression::Identifier(id) = &b.lhs.node {
                self.names.insert(id.node.name.clone());
            }
        }
        lang_c::visit::visit_binary_operator_expression(self, b, span);
    }
    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast UnaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        use UnaryOperator::*;
        if matches!(
            u.operator.node,
            PostIncrement | PostDecrement | PreIncrement | PreDecrement
        ) {
            if let Expression::Identifier(id) = &u.operand.node {
                self.names.insert(id.node.name.clone());
            }
        }
        lang_c::visit::visit_unary_operator_expression(self, u, span);
    }
}

/// How often `name` appears in an expression.
fn count_identifier(e: &Expression, name: &str) -> usize {
    struct Counter<'a> {
        name: &'a str,
        count: usize,
    }
    impl<'ast> Visit<'ast> for Counter<'_> {
        fn visit_identifier(&mut self, id: &'ast Identifier, _span: &'ast CSpan) {
            if id.name == self.name {
                self.count += 1;
            }
        }
    }
    let mut c = Counter { name, count: 0 };
    c.visit_expression(e, &CSpan::none());
    c.count
}

/// Does an expression hold a `++` or `--`?
fn has_steps(e: &Expression) -> bool {
    #[derive(Default)]
    struct Finder {
        found: bool,
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_unary_operator_expression(
            &mut self,
            u: &'ast UnaryOperatorExpression,
            span: &'ast CSpan,
        ) {
            use UnaryOperator::*;
            self.found |= matches!(
                u.operator.node,
                PostIncrement | PostDecrement | PreIncrement | PreDecrement
            );
            lang_c::visit::visit_unary_operator_expression(self, u, span);
        }
    }
    let mut f = Finder::default();
    f.visit_expression(e, &CSpan::none());
    f.found
}

/// Does a statement contain a `continue` that belongs to the loop around it?
fn has_own_continue(s: &Statement) -> bool {
    match s {
        Statement::Continue => true,
        Statement::Compound(items) => items.iter().any(|i| match &i.node {
            BlockItem::Statement(s) => has_own_continue(&s.node),
            _ => false,
        }),
        Statement::If(i) => {
            has_own_continue(&i.node.then_statement.node)
                || i.node
                    .else_statement
                    .as_ref()
                    .is_some_and(|e| has_own_continue(&e.node))
        }
        Statement::Labeled(l) => has_own_continue(&l.node.statement.node),
        // A `continue` in a switch goes to the loop around the switch.
        Statement::Switch(sw) => has_own_continue(&sw.node.statement.node),
        _ => false,
    }
}

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

/// Gives fresh ids to copied statements (a case body repeated for fall-through), so that
/// statement ids stay unique.
fn renumber(stmts: &mut [Stmt], next_id: &mut u32) {
    for s in stmts {
        s.id = StmtId(*next_id);
        *next_id += 1;
        match &mut s.kind {
            StmtKind::If {
                arms, else_body, ..
            } => {
                for (_, body) in arms {
                    renumber(body, next_id);
                }
                if let Some(body) = else_body {
                    renumber(body, next_id);
                }
            }
            StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => renumber(body, next_id),
            _ => {}
        }
    }
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
    typedefs: &'m Typedefs,
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
            trailing_comment,
        }
    }

    fn function(&mut self, fd: &Node<FunctionDefinition>) -> R<il::Unit> {
        let mut leading = Vec::new();
        if let Some(at) = self.original(fd.span.start) {
            self.comments_before(at, &mut leading);
        }
        let leading_comments = leading
            .into_iter()
            .filter_map(|s| match s.kind {
                StmtKind::Comment(c) => Some(c),
                _ => None,
            })
            .collect();
        let r = self.function_inner(fd, leading_comments);
        if let Some(end) = self.original(fd.span.end) {
            self.skip_comments(end);
        }
        r
    }

    fn function_inner(
        &mut self,
        fd: &Node<FunctionDefinition>,
        leading_comments: Vec<String>,
    ) -> R<il::Unit> {
        let f = &fd.node;
        let unit_span = self.span(fd.span);
        let name_node = declarator_name(&f.declarator.node)
            .ok_or_else(|| self.unsupported("E0603", "this function declarator", fd.span))?;
        let name = name_node.node.name.clone();
        let params = match f.declarator.node.derived.as_slice() {
            [
                Node {
                    node: DerivedDeclarator::Function(p),
                    ..
                },
            ] => &p.node,
            _ => {
                return Err(self.unsupported(
                    "E0603",
                    "a function returning a pointer, or a K&R-style definition,",
                    f.declarator.span,
                ));
            }
        };
        if params.ellipsis == Ellipsis::Some {
            return Err(self.unsupported("E0603", "a variadic function", f.declarator.span));
        }
        for s in &f.specifiers {
            if let DeclarationSpecifier::StorageClass(sc) = &s.node {
                if sc.node != StorageClassSpecifier::Static {
                    return Err(self.unsupported("E0603", "this storage class", sc.span));
                }
            }
        }
        let ret = decl_type(&f.specifiers, self.typedefs).map_err(|w| {
            self.unsupported("E0603", &format!("a function returning {w}"), fd.span)
        })?;
        let mut indexed = Indexed::default();
        indexed.visit_statement(&f.statement.node, &f.statement.span);
        let mut assigned = Assigned::default();
        assigned.visit_statement(&f.statement.node, &f.statement.span);
        let mut direct = DirectTargets::default();
        direct.visit_statement(&f.statement.node, &f.statement.span);
        self.idents = indexed.idents.clone();

        // Parameters.
        let mut args = Vec::new();
        let mut ok = true;
        let mut copies = Vec::new();
        let mut moving = Vec::new();
        for p in &params.parameters {
            let Some(d) = &p.node.declarator else {
                if decl_type(&p.node.specifiers, self.typedefs) == Ok(Ty::Void) {
                    continue;
                }
                self.unsupported("E0603", "a parameter without a name", p.span);
                ok = false;
                continue;
            };
            let Some(pname) = declarator_name(&d.node) else {
                self.unsupported("E0603", "this parameter declarator", p.span);
                ok = false;
                continue;
            };
            let pname = pname.node.name.clone();
            let ty = match decl_type(&p.node.specifiers, self.typedefs) {
                Ok(Ty::Void) | Ok(Ty::Bool) => {
                    self.unsupported("E0603", "a `void` parameter", p.span);
                    ok = false;
                    continue;
                }
                Ok(t) => t,
                Err(w) => {
                    self.unsupported("E0603", &format!("a parameter of {w}"), p.span);
                    ok = false;
                    continue;
                }
            };
            let typedef_ext = typedef_extents(&p.node.specifiers, self.typedefs);
            let kind = match d.node.derived.as_slice() {
                [_, ..] if !typedef_ext.is_empty() => {
                    self.unsupported(
                        "E0603",
                        "a pointer to, or an array of, an array typedef as a parameter",
                        p.span,
                    );
                    ok = false;
                    continue;
                }
                [] if typedef_ext.len() == 1 => VarKind::ArrayParam,
                [] if typedef_ext.is_empty() => VarKind::Value,
                [
                    Node {
                        node: DerivedDeclarator::Pointer(_),
                        ..
                    },
                ] => {
                    let is_array = self
                        .arrays
                        .get(&name)
                        .and_then(|m| m.get(&pname))
                        .copied()
                        .unwrap_or(true);
                    if is_array {
                        VarKind::ArrayParam
                    } else {
                        VarKind::RefScalar
                    }
                }
                [
                    Node {
                        node: DerivedDeclarator::Array(_),
                        ..
                    },
                ] => VarKind::ArrayParam,
                _ => {
                    self.unsupported(
                        "E0603",
                        "a pointer to pointer or multi-dimensional array parameter",
                        p.span,
                    );
                    ok = false;
                    continue;
                }
            };
            // A by-value parameter the function assigns (the `vb0` case of seeds/003):
            // the body works on a local copy, so that the parameter itself is only read.
            // Its derivative is then that of an input: in the adjoint, the copy's adjoint
            // is a local that is added to the caller's (`*xb += x_copyb`) when the
            // adjoint returns, which is Tapenade's `*vb0 += vb`.
            if kind == VarKind::Value && assigned.names.contains(&pname) {
                let mut copy = format!("{pname}_copy");
                let mut n = 0;
                while indexed.idents.contains(&key(&copy))
                    || self.vars.contains_key(&key(&copy))
                    || self.protos.contains_key(&copy)
                {
                    copy = format!("{pname}_copy{n}");
                    n += 1;
                }
                copies.push((pname.clone(), copy, ty, p.span));
            }
            let constant = is_const(&p.node.specifiers);
            let intent = match kind {
                VarKind::Value => Some(Intent::In),
                _ if constant => Some(Intent::In),
                _ => None,
            };
            if self.declare(&pname, ty, kind.clone(), p.span).is_err() {
                ok = false;
                continue;
            }
            let index = args.len();
            args.push(pname.clone());
            let mut attrs = Vec::new();
            if let Some(i) = intent {
                attrs.push(Attr::Intent(i));
            }
            if kind == VarKind::Value {
                attrs.push(Attr::Value);
            }
            // `double x[n]` (n an earlier int parameter) and `double x[N]` give the array
            // its extent; `double *x` and `double x[]` are assumed-size.
            let upper = match d.node.derived.first().map(|dd| &dd.node) {
                None if typedef_ext.len() == 1 => Bound::Expr(int_lit(typedef_ext[0] - 1)),
                Some(DerivedDeclarator::Array(a)) => match &a.node.size {
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        match (&e.node, const_int_in(&e.node, self.enums)) {
                            (_, Some(c)) if c > 0 => Bound::Expr(int_lit(c - 1)),
                            (Expression::Identifier(id), _)
                                if matches!(
                                    self.vars.get(&key(&id.node.name)),
                                    Some(Var {
                                        ty: Ty::Int(_),
                                        kind: VarKind::Value,
                                        ..
                                    })
                                ) =>
                            {
                                Bound::Expr(Expr::binary(
                                    BinOp::Sub,
                                    Expr::var(&id.node.name),
                                    int_lit(1),
                                ))
                            }
                            _ => {
                                self.unsupported(
                                    "E0603",
                                    "an array parameter whose size is not a constant or an \
                                     earlier int parameter",
                                    e.span,
                                );
                                ok = false;
                                continue;
                            }
                        }
                    }
                    _ => Bound::Star,
                },
                _ => Bound::Star,
            };
            let dims = (kind == VarKind::ArrayParam).then(|| {
                vec![DimSpec {
                    lower: Some(int_lit(0)),
                    upper,
                }]
            });
            self.push_decl(&pname, ty, attrs, dims, intent, Some(index), false, p.span);
            if kind == VarKind::ArrayParam && direct.names.contains(&pname) {
                moving.push((pname.clone(), p.span));
            }
        }
        if !ok {
            return Err(Reported);
        }
        let mut body = Vec::new();
        for (pname, copy, ty, at) in copies {
            self.vars.insert(
                key(&copy),
                Var {
                    name: copy.clone(),
                    ty,
                    kind: VarKind::Local,
                },
            );
            self.push_decl(&copy, ty, Vec::new(), None, None, None, false, at);
            self.copies.insert(key(&pname), copy.clone());
            let mut st = self.stmt(
                StmtKind::Assign {
                    lhs: Expr::var(&copy),
                    rhs: Expr::var(&pname),
                },
                at,
            );
            st.trailing_comment = Some(format!(
                " the by-value parameter `{pname}` is assigned below: work on a copy"
            ));
            body.push(st);
        }
        for (pname, at) in moving {
            let off = self.offset_var(&pname, at);
            self.pointers.insert(
                key(&pname),
                PtrVar {
                    off: off.clone(),
                    base: Some(pname.clone()),
                },
            );
            let mut st = self.stmt(
                StmtKind::Assign {
                    lhs: Expr::var(&off),
                    rhs: int_lit(0),
                },
                at,
            );
            st.trailing_comment = Some(format!(" `{pname}` moves: `{off}` is its offset"));
            body.push(st);
        }
        // The result variable.
        let kind = if ret == Ty::Void {
            il::UnitKind::Subroutine
        } else {
            let mut rname = "result".to_string();
            let mut n = 0;
            while indexed.idents.contains(&key(&rname)) || key(&rname) == key(&name) {
                rname = format!("result{n}");
                n += 1;
            }
            self.vars.insert(
                key(&rname),
                Var {
                    name: rname.clone(),
                    ty: ret,
                    kind: VarKind::Local,
                },
            );
            self.push_decl(&rname, ret, Vec::new(), None, None, None, true, fd.span);
            self.result = Some((rname, ret));
            il::UnitKind::Function
        };
        let r = self.block_body(&f.statement, &mut body);
        // A final `return` needs no statement of its own.
        if matches!(body.last().map(|s| &s.kind), Some(StmtKind::Return)) {
            body.pop();
        }
        r?;
        for callee in std::mem::take(&mut self.called) {
            let ty = self.protos.get(&callee).map(|p| p.ret).unwrap_or(Ty::Void);
            self.symbols.insert(Symbol {
                name: callee.clone(),
                kind: SymbolKind::Procedure,
                ty: ty.scalar(),
                type_spec: real_spec(ty),
                dims: Vec::new(),
                intent: None,
                arg_index: None,
                is_result: false,
                implicit: false,
                span: unit_span,
                global: None,
            });
        }
        Ok(il::Unit {
            kind,
            name,
            args,
            result: self.result.as_ref().map(|r| r.0.clone()),
            explicit_result: kind == il::UnitKind::Function,
            prefix_type: None,
            leading_comments,
            decls: std::mem::take(&mut self.decls),
            body,
            symbols: std::mem::take(&mut self.symbols),
            span: unit_span,
            host: None,
            bind: None,
            recursive: false,
        })
    }

    /// Declares a variable in the current scope.
    fn declare(&mut self, name: &str, ty: Ty, kind: VarKind, at: CSpan) -> R<bool> {
        let k = key(name);
        if let Some(prev) = self.vars.get(&k) {
            if prev.name != name {
                return Err(self.err(
                    "E0608",
                    format!(
                        "`{name}` and `{}` differ only by case: adgen's IL does not tell \
                         them apart",
                        prev.name
                    ),
                    at,
                ));
            }
            let visible = self.scopes.iter().any(|s| s.contains(&k));
            if visible || prev.ty != ty || prev.kind != kind {
                return Err(self.err(
                    "E0608",
                    format!(
                        "`{name}` is declared again (shadowing or a different type): not \
                         supported yet"
                    ),
                    at,
                ));
            }
            self.scopes
                .last_mut()
                .expect("a function scope is open")
                .push(k);
            return Ok(false);
        }
        if self.protos.contains_key(name) {
            return Err(self.err(
                "E0608",
                format!("the variable `{name}` has the name of a function"),
                at,
            ));
        }
        self.vars.insert(
            k.clone(),
            Var {
                name: name.to_string(),
                ty,
                kind,
            },
        );
        self.scopes
            .last_mut()
            .expect("a function scope is open")
            .push(k);
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    fn push_decl(
        &mut self,
        name: &str,
        ty: Ty,
        attrs: Vec<Attr>,
        dims: Option<Vec<DimSpec>>,
        intent: Option<Intent>,
        arg_index: Option<usize>,
        is_result: bool,
        at: CSpan,
    ) {
        let span = self.span(at);
        self.decls.push(Decl {
            kind: DeclKind::Var {
                spec: real_spec(ty),
                attrs,
                entities: vec![Entity {
                    name: name.to_string(),
                    dims: dims.clone(),
                    init: None,
                    span,
                }],
            },
            span,
        });
        self.symbols.insert(Symbol {
            name: name.to_string(),
            kind: SymbolKind::Variable,
            ty: ty.scalar(),
            type_spec: real_spec(ty),
            dims: dims.unwrap_or_default(),
            intent,
            arg_index,
            is_result,
            implicit: false,
            span,
            global: None,
        });
    }

    /// Is `name` (with this spelling) a variable of the function?
    fn is_variable(&self, name: &str) -> bool {
        self.vars.get(&key(name)).is_some_and(|v| v.name == name)
    }

    fn var(&mut self, name: &str, at: CSpan) -> R<Var> {
        if let Some(copy) = self.copies.get(&key(name)) {
            if self.vars.get(&key(name)).is_some_and(|v| v.name == name) {
                return Ok(self.vars[&key(copy)].clone());
            }
        }
        match self.vars.get(&key(name)) {
            Some(v) if v.name == name => Ok(v.clone()),
            _ => Err(self.err(
                "E0606",
                format!("`{name}` is not a variable of this function"),
                at,
            )),
        }
    }

    // ---------------------------------------------------------------- statements

    fn block_body(&mut self, s: &Node<Statement>, out: &mut Vec<Stmt>) -> R<()> {
        self.scopes.push(Vec::new());
        let r = match &s.node {
            Statement::Compound(items) => {
                let r = self.items(items, out);
                if let Some(end) = self.original(s.span.end) {
                    self.comments_before(end, out);
                }
                r
            }
            _ => self.statement(s, out),
        };
        self.scopes.pop();
        r
    }

    /// Comments placed before the original offset `before`, as statements.
    fn comments_before(&mut self, before: usize, out: &mut Vec<Stmt>) {
        while let Some(c) = self.comments.get(*self.comment_cursor) {
            if c.start >= before {
                break;
            }
            *self.comment_cursor += 1;
            for line in &c.lines {
                let id = StmtId(*self.next_id);
                *self.next_id += 1;
                out.push(Stmt {
                    id,
                    kind: StmtKind::Comment(line.clone()),
                    span: Span::new(self.map.file, c.start, c.start),
                    label: None,
                    trailing_comment: None,
                });
            }
        }
    }

    /// Skips the comments before `before` (inside constructs that keep none).
    fn skip_comments(&mut self, before: usize) {
        while let Some(c) = self.comments.get(*self.comment_cursor) {
            if c.start >= before {
                break;
            }
            *self.comment_cursor += 1;
        }
    }

    fn original(&self, pos: usize) -> Option<usize> {
        self.map.offset(pos)
    }

    fn items(&mut self, items: &[Node<BlockItem>], out: &mut Vec<Stmt>) -> R<()> {
        let mut result = Ok(());
        for item in items {
            if let Some(at) = self.original(item.span.start) {
                self.comments_before(at, out);
            }
            let r = match &item.node {
                BlockItem::Declaration(d) => self.declaration(d, out),
                BlockItem::StaticAssert(_) => Ok(()),
                BlockItem::Statement(s) => self.statement(s, out),
            };
            if r.is_err() {
                result = r;
            }
        }
        result
    }

    fn declaration(&mut self, d: &Node<Declaration>, out: &mut Vec<Stmt>) -> R<()> {
        for s in &d.node.specifiers {
            match &s.node {
                DeclarationSpecifier::StorageClass(sc) => {
                    return Err(self.unsupported(
                        "E0603",
                        "a storage class (`static`, `extern`, `typedef`) on a local declaration",
                        sc.span,
                    ));
                }
                DeclarationSpecifier::Function(_) | DeclarationSpecifier::Alignment(_) => {
                    return Err(self.unsupported("E0603", "this declaration", d.span));
                }
                _ => {}
            }
        }
        let ty = match decl_type(&d.node.specifiers, self.typedefs) {
            Ok(Ty::Void) | Ok(Ty::Bool) => {
                return Err(self.unsupported("E0603", "a `void` variable", d.span));
            }
            Ok(t) => t,
            Err(w) => return Err(self.unsupported("E0603", &format!("a variable of {w}"), d.span)),
        };
        for init in &d.node.declarators {
            let decl = &init.node.declarator;
            let Some(name) = declarator_name(&decl.node) else {
                return Err(self.unsupported("E0603", "this declarator", decl.span));
            };
            let name = name.node.name.clone();
            let mut extents = Vec::new();
            let typedef_ext = typedef_extents(&d.node.specifiers, self.typedefs);
            for dd in &decl.node.derived {
                match &dd.node {
                    DerivedDeclarator::Array(a) => match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                            match const_int_in(&e.node, self.enums) {
                                Some(n) if n > 0 => extents.push(n),
                                _ => {
                                    return Err(self.unsupported(
                                        "E0603",
                                        "an array whose size is not a positive integer constant",
                                        e.span,
                                    ));
                                }
                            }
                        }
                        _ => {
                            return Err(self.unsupported(
                                "E0603",
                                "a local array without a size",
                                dd.span,
                            ));
                        }
                    },
                    DerivedDeclarator::Pointer(_)
                        if decl.node.derived.len() == 1 && typedef_ext.is_empty() =>
                    {
                        return self.pointer_decl(&name, ty, init, out);
                    }
                    _ => {
                        return Err(self.unsupported(
                            "E0603",
                            "pointers to pointers, pointers to arrays, and function local \
                             variables",
                            dd.span,
                        ));
                    }
                }
            }
            extents.extend(typedef_ext);
            if extents.len() > 2 {
                return Err(self.unsupported(
                    "E0603",
                    "an array of more than 2 dimensions",
                    decl.span,
                ));
            }
            let kind = if extents.is_empty() {
                VarKind::Local
            } else {
                VarKind::LocalArray(extents.clone())
            };
            if self.declare(&name, ty, kind, init.span)? {
                let dims = (!extents.is_empty()).then(|| {
                    extents
                        .iter()
                        .rev()
                        .map(|n| DimSpec {
                            lower: Some(int_lit(0)),
                            upper: Bound::Expr(int_lit(n - 1)),
                        })
                        .collect()
                });
                self.push_decl(&name, ty, Vec::new(), dims, None, None, false, init.span);
            }
            if let Some(i) = &init.node.initializer {
                match &i.node {
                    Initializer::Expression(e) if extents.is_empty() => {
                        self.with_effects(out, e, |cx, out| {
                            let (rhs, rty) = cx.value(e)?;
                            cx.check_assignable(ty, rty, e.span)?;
                            let s = cx.stmt(
                                StmtKind::Assign {
                                    lhs: Expr::var(&name),
                                    rhs,
                                },
                                init.span,
                            );
                            out.push(s);
                            Ok(())
                        })?;
                    }
                    Initializer::List(items) if extents.len() == 1 => {
                        if items.len() as i64 > extents[0] {
                            return Err(self.err(
                                "E0605",
                                "more initializers than array elements",
                                i.span,
                            ));
                        }
                        for (k, item) in items.iter().enumerate() {
                            let Initializer::Expression(e) = &item.node.initializer.node else {
                                return Err(self.unsupported(
                                    "E0605",
                                    "a nested initializer",
                                    item.span,
                                ));
                            };
                            if !item.node.designation.is_empty() {
                                return Err(self.unsupported(
                                    "E0605",
                                    "a designated initializer",
                                    item.span,
                                ));
                            }
                            let (rhs, rty) = self.value(e)?;
                            self.check_assignable(ty, rty, e.span)?;
                            let s = self.stmt(
                                StmtKind::Assign {
                                    lhs: Expr::new(ExprKind::Index(
                                        name.clone(),
                                        vec![int_lit(k as i64)],
                                    )),
                                    rhs,
                                },
                                item.span,
                            );
                            out.push(s);
                        }
                        // C zero-fills the rest.
                        for k in items.len() as i64..extents[0] {
                            let zero = self.zero(ty);
                            let s = self.stmt(
                                StmtKind::Assign {
                                    lhs: Expr::new(ExprKind::Index(name.clone(), vec![int_lit(k)])),
                                    rhs: zero,
                                },
                                i.span,
                            );
                            out.push(s);
                        }
                    }
                    _ => {
                        return Err(self.unsupported("E0605", "this initializer", i.span));
                    }
                }
            }
        }
        Ok(())
    }

    fn zero(&self, ty: Ty) -> Expr {
        match ty {
            Ty::Real(k) => Expr::new(ExprKind::Real(RealLit {
                value: "0.0".into(),
                kind: k,
                spelling: None,
            })),
            _ => int_lit(0),
        }
    }

    fn check_assignable(&mut self, to: Ty, from: Ty, at: CSpan) -> R<()> {
        if to.is_numeric() && from.is_numeric() {
            Ok(())
        } else {
            Err(self.unsupported(
                "E0605",
                "using the value of a comparison or logical operator as a number",
                at,
            ))
        }
    }

    fn statement(&mut self, s: &Node<Statement>, out: &mut Vec<Stmt>) -> R<()> {
        match &s.node {
            Statement::Compound(_) => self.block_body(s, out),
            Statement::Expression(None) => Ok(()),
            Statement::Expression(Some(e)) => self.expr_stmt(e, out),
            Statement::If(i) => {
                let mut arms = Vec::new();
                let mut else_body = None;
                let mut cur = i;
                let mut result = Ok(());
                loop {
                    let cond = self.cond(&cur.node.condition);
                    let mut body = Vec::new();
                    let r = self.block_body(&cur.node.then_statement, &mut body);
                    match cond {
                        Ok(c) => arms.push((c, body)),
                        Err(e) => result = Err(e),
                    }
                    if r.is_err() {
                        result = r;
                    }
                    match &cur.node.else_statement {
                        None => break,
                        Some(e) => match &e.node {
                            Statement::If(next) => cur = next,
                            _ => {
                                let mut b = Vec::new();
                                if self.block_body(e, &mut b).is_err() {
                                    result = Err(Reported);
                                }
                                else_body = Some(b);
                                break;
                            }
                        },
                    }
                }
                result?;
                let st = self.stmt(
                    StmtKind::If {
                        arms,
                        else_body,
                        logical_if: false,
                        name: None,
                    },
                    s.span,
                );
                out.push(st);
                Ok(())
            }
            Statement::While(w) => {
                if has_steps(&w.node.expression.node) {
                    return self.while_with_steps(w, s.span, out);
                }
                let cond = self.cond(&w.node.expression);
                self.loops.push(LoopKind::Plain);
                let mut body = Vec::new();
                let r = self.block_body(&w.node.statement, &mut body);
                self.loops.pop();
                let cond = cond?;
                r?;
                let st = self.stmt(
                    StmtKind::DoWhile {
                        cond,
                        body,
                        name: None,
                    },
                    s.span,
                );
                out.push(st);
                Ok(())
            }
            Statement::For(f) => self.for_loop(f, s.span, out),
            Statement::DoWhile(w) => {
                if has_steps(&w.node.expression.node) {
                    return self.do_while_with_steps(w, s.span, out);
                }
                // `do B while (c);` → `first = 1; while (first || c) { first = 0; B }`:
                // a `continue` in B still goes to the test.
                let first = self.first_pass_var(s.span);
                let cond = self.cond(&w.node.expression);
                self.loops.push(LoopKind::Plain);
                let mut body = vec![self.stmt(
                    StmtKind::Assign {
                        lhs: Expr::var(&first),
                        rhs: Expr::new(ExprKind::Logical(false)),
                    },
                    s.span,
                )];
                let r = self.block_body(&w.node.statement, &mut body);
                self.loops.pop();
                let cond = cond?;
                r?;
                let init = self.stmt(
                    StmtKind::Assign {
                        lhs: Expr::var(&first),
                        rhs: Expr::new(ExprKind::Logical(true)),
                    },
                    s.span,
                );
                out.push(init);
                let st = self.stmt(
                    StmtKind::DoWhile {
                        cond: Expr::binary(BinOp::Or, Expr::var(&first), cond),
                        body,
                        name: None,
                    },
                    s.span,
                );
                out.push(st);
                Ok(())
            }
            Statement::Continue => {
                if !self.loops.contains(&LoopKind::Plain) {
                    return Err(self.err("E0604", "`continue` outside a loop", s.span));
                }
                let st = self.stmt(StmtKind::Cycle { name: None }, s.span);
                out.push(st);
                Ok(())
            }
            Statement::Break => match self.loops.last() {
                None => Err(self.err("E0604", "`break` outside a loop or a switch", s.span)),
                Some(LoopKind::Switch) => {
                    // A `break` of the switch inside an `if` of a case: a marker that
                    // `guard_switch_breaks` turns into a flag.
                    let st = self.stmt(
                        StmtKind::Exit {
                            name: Some(SWITCH_BREAK.into()),
                        },
                        s.span,
                    );
                    out.push(st);
                    Ok(())
                }
                Some(LoopKind::Plain) => {
                    let st = self.stmt(StmtKind::Exit { name: None }, s.span);
                    out.push(st);
                    Ok(())
                }
            },
            Statement::Return(e) => {
                match (e, self.result.clone()) {
                    (Some(e), Some((r, rty))) => {
                        self.with_effects(out, e, |cx, out| {
                            let (v, ty) = cx.value(e)?;
                            cx.check_assignable(rty, ty, e.span)?;
                            let st = cx.stmt(
                                StmtKind::Assign {
                                    lhs: Expr::var(&r),
                                    rhs: v,
                                },
                                s.span,
                            );
                            out.push(st);
                            Ok(())
                        })?;
                    }
                    (None, None) => {}
                    _ => {
                        return Err(self.err(
                            "E0604",
                            "`return` does not match the function's return type",
                            s.span,
                        ));
                    }
                }
                let st = self.stmt(StmtKind::Return, s.span);
                out.push(st);
                Ok(())
            }
            Statement::Switch(sw) => self.switch(sw, s.span, out),
            Statement::Labeled(l) if !matches!(l.node.label.node, Label::Identifier(_)) => {
                Err(self.unsupported(
                    "E0604",
                    "a `case` or `default` label that is not directly in the body of its \
                     `switch`",
                    s.span,
                ))
            }
            Statement::Goto(_) | Statement::Labeled(_) => {
                Err(self.unsupported("E0604", "`goto` and labels", s.span))
            }
            Statement::Asm(_) => Err(self.unsupported("E0604", "inline assembly", s.span)),
        }
    }

    /// `switch (sel) { case a: A; case b: B; break; default: D; }` as an IF chain:
    /// `if (sel == a) { A B } else if (sel == b) { B } else { D }`. A case that falls
    /// through continues with the statements of the following cases up to the `break`
    /// (copied). A `break` must end its case at the top level of the case's statements;
    /// one nested in an `if` is refused.
    fn switch(&mut self, sw: &Node<SwitchStatement>, at: CSpan, out: &mut Vec<Stmt>) -> R<()> {
        let (sel, sel_ty) = self.value(&sw.node.expression)?;
        if !matches!(sel_ty, Ty::Int(_)) {
            return Err(self.err(
                "E0604",
                "a `switch` needs an integer selector",
                sw.node.expression.span,
            ));
        }
        let mut has_call = false;
        il::visit::walk_expr(&sel, &mut |y| {
            has_call |= matches!(y.kind, ExprKind::Call(..));
        });
        if has_call {
            let e = self.unsupported(
                "E0604",
                "a function call in a `switch` selector (it would be evaluated once per case)",
                sw.node.expression.span,
            );
            self.diags
                .last_mut()
                .expect("a diagnostic was just pushed")
                .help = Some("store the value in a variable and switch on that".into());
            return Err(e);
        }
        let one;
        let stmts: Vec<&Node<BlockItem>> = match &sw.node.statement.node {
            Statement::Compound(items) => items.iter().collect(),
            _ => {
                one = Node::new(
                    BlockItem::Statement((*sw.node.statement).clone()),
                    sw.node.statement.span,
                );
                vec![&one]
            }
        };
        self.scopes.push(Vec::new());
        self.loops.push(LoopKind::Switch);
        let r = self.switch_segments(&sel, &stmts);
        self.loops.pop();
        self.scopes.pop();
        if let Some(end) = self.original(sw.node.statement.span.end) {
            self.skip_comments(end);
        }
        let segments = r?;
        let mut arms = Vec::new();
        let mut else_body = None;
        let mut originals: Vec<Option<Vec<Stmt>>> =
            segments.iter().map(|seg| Some(seg.body.clone())).collect();
        let mut done_flag: Option<String> = None;
        for (j, seg) in segments.iter().enumerate() {
            let mut body = originals[j].take().unwrap_or_default();
            let mut k = j;
            while !segments[k].ends && k + 1 < segments.len() {
                k += 1;
                let mut copy = segments[k].body.clone();
                renumber(&mut copy, self.next_id);
                body.extend(copy);
            }
            if has_switch_break(&body) {
                let flag = match &done_flag {
                    Some(f) => f.clone(),
                    None => {
                        let f = self.flag_var("switch_done", at);
                        done_flag = Some(f.clone());
                        f
                    }
                };
                body = self.guard_switch_breaks(body, &flag);
            }
            if seg.is_default {
                else_body = Some(body);
            } else {
                let mut tests = seg.tests.clone().into_iter();
                let Some(first) = tests.next() else {
                    continue;
                };
                let cond = tests.fold(first, |acc, t| Expr::binary(BinOp::Or, acc, t));
                arms.push((cond, body));
            }
        }
        if else_body.is_none() {
            arms.retain(|(_, body)| !body.is_empty());
        }
        if let Some(flag) = &done_flag {
            let st = self.stmt(
                StmtKind::Assign {
                    lhs: Expr::var(flag),
                    rhs: Expr::new(ExprKind::Logical(false)),
                },
                at,
            );
            out.push(st);
        }
        if arms.is_empty() {
            out.extend(else_body.unwrap_or_default());
            return Ok(());
        }
        let st = self.stmt(
            StmtKind::If {
                arms,
                else_body,
                logical_if: false,
                name: None,
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// A `break` nested in an `if` of a case sets `flag`; the statements after that `if`
    /// run only while `flag` is unset: `if (c) { A; break; } B` becomes
    /// `if (c) { A; flag = 1; } if (!flag) { B }`.
    fn guard_switch_breaks(&mut self, stmts: Vec<Stmt>, flag: &str) -> Vec<Stmt> {
        let mut out = Vec::new();
        let mut rest = stmts.into_iter();
        while let Some(mut s) = rest.next() {
            let holds_break = has_switch_break(std::slice::from_ref(&s));
            match &mut s.kind {
                StmtKind::Exit { name: Some(n) } if n == SWITCH_BREAK => {
                    s.kind = StmtKind::Assign {
                        lhs: Expr::var(flag),
                        rhs: Expr::new(ExprKind::Logical(true)),
                    };
                    out.push(s);
                    // What follows a `break` in its block never runs.
                    return out;
                }
                StmtKind::If {
                    arms, else_body, ..
                } if holds_break => {
                    for (_, body) in arms.iter_mut() {
                        *body = self.guard_switch_breaks(std::mem::take(body), flag);
                    }
                    if let Some(body) = else_body {
                        *body = self.guard_switch_breaks(std::mem::take(body), flag);
                    }
                    out.push(s);
                    let after: Vec<Stmt> = rest.collect();
                    if !after.is_empty() {
                        let guarded = self.guard_switch_breaks(after, flag);
                        let mut st = Stmt::generated(StmtKind::If {
                            arms: vec![(Expr::unary(UnOp::Not, Expr::var(flag)), guarded)],
                            else_body: None,
                            logical_if: false,
                            name: None,
                        });
                        st.id = StmtId(*self.next_id);
                        *self.next_id += 1;
                        out.push(st);
                    }
                    return out;
                }
                _ => out.push(s),
            }
        }
        out
    }

    /// The segments of a switch body, each lowered once.
    fn switch_segments(&mut self, sel: &Expr, items: &[&Node<BlockItem>]) -> R<Vec<CaseSegment>> {
        let mut segments: Vec<CaseSegment> = Vec::new();
        let mut result = Ok(());
        // Statements before the first label, or after a `break` and before the next
        // label, are never executed.
        let mut live = false;
        for item in items {
            let stmt = match &item.node {
                BlockItem::Statement(s) => s,
                BlockItem::StaticAssert(_) => continue,
                BlockItem::Declaration(d) => {
                    let e = self.unsupported(
                        "E0603",
                        "a declaration directly in a `switch` body",
                        d.span,
                    );
                    self.diags
                        .last_mut()
                        .expect("a diagnostic was just pushed")
                        .help = Some("put the case's statements in braces `{ ... }`".into());
                    result = Err(e);
                    continue;
                }
            };
            // Comments before a label go with the case they end when it falls through,
            // else with the case the label starts.
            if let (true, Some(seg), Some(start)) =
                (live, segments.last_mut(), self.original(item.span.start))
            {
                let mut body = std::mem::take(&mut seg.body);
                self.comments_before(start, &mut body);
                segments.last_mut().expect("a segment is open").body = body;
            }
            let mut s = stmt;
            let mut labelled = false;
            let mut tests = Vec::new();
            let mut is_default = false;
            while let Statement::Labeled(l) = &s.node {
                match &l.node.label.node {
                    Label::Case(v) => match self.case_value(v) {
                        Ok(v) => tests.push(Expr::binary(BinOp::Eq, sel.clone(), v)),
                        Err(e) => result = Err(e),
                    },
                    Label::CaseRange(r) => {
                        match (self.case_value(&r.node.low), self.case_value(&r.node.high)) {
                            (Ok(lo), Ok(hi)) => tests.push(Expr::binary(
                                BinOp::And,
                                Expr::binary(BinOp::Le, lo, sel.clone()),
                                Expr::binary(BinOp::Le, sel.clone(), hi),
                            )),
                            _ => result = Err(Reported),
                        }
                    }
                    Label::Default => is_default = true,
                    Label::Identifier(_) => {
                        result = Err(self.unsupported("E0604", "`goto` and labels", l.span));
                    }
                }
                labelled = true;
                s = &l.node.statement;
            }
            if labelled {
                segments.push(CaseSegment {
                    tests,
                    is_default,
                    body: Vec::new(),
                    ends: false,
                });
                live = true;
            }
            let Some(seg) = segments.last_mut().filter(|_| live) else {
                if let Some(end) = self.original(item.span.end) {
                    self.skip_comments(end);
                }
                continue;
            };
            let mut body = std::mem::take(&mut seg.body);
            if let Some(start) = self.original(s.span.start) {
                self.comments_before(start, &mut body);
            }
            let ended = match self.case_body(s, &mut body) {
                Ok(ended) => ended,
                Err(e) => {
                    result = Err(e);
                    false
                }
            };
            let ends = ended
                || matches!(
                    body.last().map(|st| &st.kind),
                    Some(StmtKind::Return | StmtKind::Cycle { .. })
                );
            let seg = segments.last_mut().expect("a segment is open");
            seg.body = body;
            if ends {
                seg.ends = true;
                live = false;
            }
        }
        result.map(|()| segments)
    }

    /// The value of a `case` label: an integer constant.
    fn case_value(&mut self, v: &Node<Expression>) -> R<Expr> {
        match const_int_in(&v.node, self.enums) {
            Some(n) => Ok(int_lit(n).spanned(self.span(v.span))),
            None => Err(self.unsupported(
                "E0604",
                "a `case` label that is not an integer constant",
                v.span,
            )),
        }
    }

    /// Lowers one statement of a case; true when it ends with a `break` of the switch
    /// (at its top level, or at the top level of a block).
    fn case_body(&mut self, s: &Node<Statement>, out: &mut Vec<Stmt>) -> R<bool> {
        match &s.node {
            Statement::Break => Ok(true),
            Statement::Compound(items) => {
                self.scopes.push(Vec::new());
                let mut result = Ok(false);
                for item in items {
                    if let Some(at) = self.original(item.span.start) {
                        self.comments_before(at, out);
                    }
                    let r = match &item.node {
                        BlockItem::Declaration(d) => self.declaration(d, out).map(|()| false),
                        BlockItem::StaticAssert(_) => Ok(false),
                        BlockItem::Statement(st) => self.case_body(st, out),
                    };
                    match r {
                        Ok(true) => {
                            result = result.map(|_| true);
                            break;
                        }
                        Ok(false) => {}
                        Err(e) => result = Err(e),
                    }
                }
                self.scopes.pop();
                if let Some(end) = self.original(s.span.end) {
                    if matches!(result, Ok(true)) {
                        self.skip_comments(end);
                    } else {
                        self.comments_before(end, out);
                    }
                }
                result
            }
            _ => self.statement(s, out).map(|()| false),
        }
    }

    /// An expression statement: assignment, compound assignment, `++`/`--`, call.
    fn expr_stmt(&mut self, e: &Node<Expression>, out: &mut Vec<Stmt>) -> R<()> {
        if let Expression::Comma(items) = &e.node {
            // `i++, p++` (a `for` step): one statement per operand, in order.
            for item in items.iter() {
                self.expr_stmt(item, out)?;
            }
            return Ok(());
        }
        self.with_effects(out, e, |cx, out| cx.expr_stmt_inner(e, out))
    }

    /// Lowers one statement in which pointers may be stepped (`*q++ = *p++;`): the steps
    /// run after it (`p++`) or before it (`++p`). A pointer stepped there must not be
    /// used twice in it (C leaves the order unspecified).
    fn with_effects(
        &mut self,
        out: &mut Vec<Stmt>,
        source: &Node<Expression>,
        f: impl FnOnce(&mut Self, &mut Vec<Stmt>) -> R<()>,
    ) -> R<()> {
        let saved_ok = std::mem::replace(&mut self.effects_ok, true);
        let saved = std::mem::take(&mut self.fx);
        let mut body = Vec::new();
        let r = f(self, &mut body);
        let fx = std::mem::replace(&mut self.fx, saved);
        self.effects_ok = saved_ok;
        r?;
        self.check_steps(&fx, source)?;
        out.extend(fx.pre);
        out.extend(body);
        out.extend(fx.post);
        Ok(())
    }

    /// A pointer or variable stepped inside a statement or a condition (`*p++`, `y[k++]`,
    /// `n-- > 0`) must be used only once there: C leaves the order of the other uses
    /// unspecified.
    fn check_steps(&mut self, fx: &Effects, source: &Node<Expression>) -> R<()> {
        let at = self.span(source.span);
        let twice = |what: &str, name: &str| {
            Diagnostic::error(
                "E0605",
                format!(
                    "{what} `{name}` is stepped (`++`/`--`) and used again in the same \
                     statement: C leaves the order unspecified"
                ),
            )
            .at(at)
            .with_help("step it in a statement of its own")
        };
        for p in &fx.stepped {
            if fx.ptr_uses.get(p).copied().unwrap_or(0) > 1 {
                self.diags.push(twice("the pointer", p));
                return Err(Reported);
            }
        }
        for name in &fx.stepped_vars {
            if count_identifier(&source.node, name) > 1 {
                self.diags.push(twice("the variable", name));
                return Err(Reported);
            }
        }
        Ok(())
    }

    /// `k++`, `--n` inside an expression: the value of `k` (of `n` after the step), with
    /// the step run after (before) the statement.
    fn scalar_step(&mut self, u: &Node<UnaryOperatorExpression>, at: CSpan) -> R<(Expr, Ty)> {
        use UnaryOperator as U;
        if self.is_ptr(&u.node.operand.node) {
            return Err(self.unsupported(
                "E0605",
                "a pointer step used as a pointer value (write `*p++`, or step `p` apart)",
                at,
            ));
        }
        let var = match &u.node.operand.node {
            Expression::Identifier(id) => self.var(&id.node.name, u.node.operand.span)?,
            _ => {
                return Err(self.unsupported(
                    "E0605",
                    "`++`/`--` of an array element or of `*p` inside an expression",
                    at,
                ));
            }
        };
        if var.kind != VarKind::Local || !var.ty.is_numeric() {
            return Err(self.unsupported(
                "E0605",
                &format!("`++`/`--` of `{}` inside an expression", var.name),
                at,
            ));
        }
        if !self.effects_ok {
            return Err(self.unsupported(
                "E0605",
                "`++`/`--` in an `if` or `for` condition or in a branch of `?:` (they are \
                 accepted in statements and in `while` and `do ... while` conditions)",
                at,
            ));
        }
        let one = match var.ty {
            Ty::Real(k) => Expr::real("1.0", k),
            _ => int_lit(1),
        };
        let op = &u.node.operator.node;
        let bin = if matches!(op, U::PostDecrement | U::PreDecrement) {
            BinOp::Sub
        } else {
            BinOp::Add
        };
        let step = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&var.name),
                rhs: Expr::binary(bin, Expr::var(&var.name), one),
            },
            at,
        );
        if matches!(op, U::PostIncrement | U::PostDecrement) {
            self.fx.post.push(step);
        } else {
            self.fx.pre.push(step);
        }
        if let Expression::Identifier(id) = &u.node.operand.node {
            self.fx.stepped_vars.insert(id.node.name.clone());
        }
        Ok((Expr::var(&var.name).spanned(self.span(at)), var.ty))
    }

    /// `while (n-- > 0) B`, a step in the condition: `while (1) { if (!(n > 0)) { n--;
    /// break; } n--; B }`: the steps run whether the test passes or not, and `continue`
    /// in B goes back to the test.
    fn while_with_steps(
        &mut self,
        w: &Node<WhileStatement>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let mut body = self.stepped_test(&w.node.expression, at)?;
        self.loops.push(LoopKind::Plain);
        let r = self.block_body(&w.node.statement, &mut body);
        self.loops.pop();
        r?;
        let st = self.stmt(
            StmtKind::DoWhile {
                cond: Expr::new(ExprKind::Logical(true)),
                body,
                name: None,
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    fn expr_stmt_inner(&mut self, e: &Node<Expression>, out: &mut Vec<Stmt>) -> R<()> {
        use BinaryOperator as B;
        if let Some(name) = self.moving_target(e) {
            return self.pointer_assign(&name, e, out);
        }
        match &e.node {
            Expression::BinaryOperator(b) => {
                let op = match b.node.operator.node {
                    B::Assign => None,
                    B::AssignPlus => Some(BinOp::Add),
                    B::AssignMinus => Some(BinOp::Sub),
                    B::AssignMultiply => Some(BinOp::Mul),
                    B::AssignDivide => Some(BinOp::Div),
                    B::AssignModulo => {
                        let (lhs, lty) = self.lvalue(&b.node.lhs)?;
                        let (rhs, rty) = self.value(&b.node.rhs)?;
                        if !matches!((lty, rty), (Ty::Int(_), Ty::Int(_))) {
                            return Err(self.err("E0605", "`%=` needs integer operands", e.span));
                        }
                        let rhs = Expr::intrinsic(il::Intrinsic::Mod, vec![lhs.clone(), rhs]);
                        let st = self.stmt(StmtKind::Assign { lhs, rhs }, e.span);
                        out.push(st);
                        return Ok(());
                    }
                    B::AssignShiftLeft
                    | B::AssignShiftRight
                    | B::AssignBitwiseAnd
                    | B::AssignBitwiseOr
                    | B::AssignBitwiseXor => {
                        return Err(self.unsupported("E0605", "bitwise assignment", e.span));
                    }
                    _ => return Err(self.no_effect(e)),
                };
                let (lhs, lty) = self.lvalue(&b.node.lhs)?;
                let (rhs, rty) = self.value(&b.node.rhs)?;
                self.check_assignable(lty, rty, b.node.rhs.span)?;
                let rhs = match op {
                    None => rhs,
                    Some(op) => Expr::binary(op, lhs.clone(), paren_if_binary(rhs)),
                };
                let st = self.stmt(StmtKind::Assign { lhs, rhs }, e.span);
                out.push(st);
                Ok(())
            }
            Expression::UnaryOperator(u) => {
                use UnaryOperator as U;
                let op = match u.node.operator.node {
                    U::PostIncrement | U::PreIncrement => BinOp::Add,
                    U::PostDecrement | U::PreDecrement => BinOp::Sub,
                    _ => return Err(self.no_effect(e)),
                };
                let (lhs, lty) = self.lvalue(&u.node.operand)?;
                let one = match lty {
                    Ty::Real(k) => Expr::real("1.0", k),
                    _ => int_lit(1),
                };
                let rhs = Expr::binary(op, lhs.clone(), one);
                let st = self.stmt(StmtKind::Assign { lhs, rhs }, e.span);
                out.push(st);
                Ok(())
            }
            Expression::Call(c) => {
                let name = self.callee(c)?;
                if math(&name).is_some() {
                    return Err(self.no_effect(e));
                }
                let proto = self.proto(&name, c.span)?;
                if proto.ret != Ty::Void {
                    return Err(self.unsupported(
                        "E0605",
                        "calling a function and discarding its value",
                        e.span,
                    ));
                }
                let args = self.call_args(&name, &proto, c)?;
                let st = self.stmt(
                    StmtKind::Call {
                        name,
                        args: args.into_iter().map(il::Arg::positional).collect(),
                    },
                    e.span,
                );
                out.push(st);
                Ok(())
            }
            Expression::Comma(_) => Err(self.unsupported("E0605", "the comma operator", e.span)),
            _ => Err(self.no_effect(e)),
        }
    }

    fn no_effect(&mut self, e: &Node<Expression>) -> Reported {
        self.unsupported("E0604", "an expression statement without effect", e.span)
    }

    fn for_loop(&mut self, f: &Node<ForStatement>, at: CSpan, out: &mut Vec<Stmt>) -> R<()> {
        self.scopes.push(Vec::new());
        let r = self.for_loop_inner(f, at, out);
        self.scopes.pop();
        r
    }

    fn for_loop_inner(&mut self, f: &Node<ForStatement>, at: CSpan, out: &mut Vec<Stmt>) -> R<()> {
        let mut init = Vec::new();
        match &f.node.initializer.node {
            ForInitializer::Empty => {}
            ForInitializer::Expression(e) => self.expr_stmt(e, &mut init)?,
            ForInitializer::Declaration(d) => self.declaration(d, &mut init)?,
            ForInitializer::StaticAssert(_) => {}
        }
        if let Some(st) = self.counted(f, &init)? {
            out.push(st);
            return Ok(());
        }
        out.extend(init);
        let cond = match &f.node.condition {
            Some(c) => self.cond(c)?,
            None => Expr::new(ExprKind::Logical(true)),
        };
        let mut step = Vec::new();
        if let Some(s) = &f.node.step {
            self.expr_stmt(s, &mut step)?;
        }
        let continue_ok = step.is_empty() || !has_own_continue(&f.node.statement.node);
        if !continue_ok {
            // `continue` must reach the increment: `first_pass = 1; while (1) { if
            // (!first_pass) step; first_pass = 0; if (!cond) break; body }`.
            let first = self.first_pass_var(at);
            let set = |cx: &mut Self, v: bool| {
                cx.stmt(
                    StmtKind::Assign {
                        lhs: Expr::var(&first),
                        rhs: Expr::new(ExprKind::Logical(v)),
                    },
                    at,
                )
            };
            let init_flag = set(self, true);
            out.push(init_flag);
            let mut body = vec![self.stmt(
                StmtKind::If {
                    arms: vec![(Expr::unary(UnOp::Not, Expr::var(&first)), step)],
                    else_body: None,
                    logical_if: false,
                    name: None,
                },
                at,
            )];
            let clear = set(self, false);
            body.push(clear);
            let exit = self.stmt(StmtKind::Exit { name: None }, at);
            let test = self.stmt(
                StmtKind::If {
                    arms: vec![(Expr::unary(UnOp::Not, paren_if_binary(cond)), vec![exit])],
                    else_body: None,
                    logical_if: false,
                    name: None,
                },
                at,
            );
            body.push(test);
            self.loops.push(LoopKind::Plain);
            let r = self.block_body(&f.node.statement, &mut body);
            self.loops.pop();
            r?;
            let st = self.stmt(
                StmtKind::DoWhile {
                    cond: Expr::new(ExprKind::Logical(true)),
                    body,
                    name: None,
                },
                at,
            );
            out.push(st);
            return Ok(());
        }
        self.loops.push(LoopKind::Plain);
        let mut body = Vec::new();
        let r = self.block_body(&f.node.statement, &mut body);
        self.loops.pop();
        r?;
        body.extend(step);
        let st = self.stmt(
            StmtKind::DoWhile {
                cond,
                body,
                name: None,
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// A new logical local `first_pass` (made unique) for loops that must tell their
    /// first iteration.
    fn first_pass_var(&mut self, at: CSpan) -> String {
        self.flag_var("first_pass", at)
    }

    /// A new logical local named after `base` (made unique).
    fn flag_var(&mut self, base: &str, at: CSpan) -> String {
        let mut n = 0;
        let mut first = base.to_string();
        while self.vars.contains_key(&key(&first))
            || self.protos.contains_key(&first)
            || self.idents.contains(&key(&first))
        {
            first = format!("{base}{n}");
            n += 1;
        }
        self.vars.insert(
            key(&first),
            Var {
                name: first.clone(),
                ty: Ty::Bool,
                kind: VarKind::Local,
            },
        );
        self.push_decl(&first, Ty::Bool, Vec::new(), None, None, None, false, at);
        first
    }

    /// The test of a loop whose condition steps a variable, as statements that leave the
    /// loop: `pre-steps; if (!c) { post-steps; break; } post-steps`.
    fn stepped_test(&mut self, e: &Node<Expression>, at: CSpan) -> R<Vec<Stmt>> {
        let saved_ok = std::mem::replace(&mut self.effects_ok, true);
        let saved = std::mem::take(&mut self.fx);
        let r = self.expr(e);
        let fx = std::mem::replace(&mut self.fx, saved);
        self.effects_ok = saved_ok;
        let (v, ty) = r?;
        let cond = self.to_bool(v, ty);
        self.check_steps(&fx, e)?;
        let mut exit_body = fx.post.clone();
        renumber(&mut exit_body, self.next_id);
        let exit = self.stmt(StmtKind::Exit { name: None }, at);
        exit_body.push(exit);
        let mut test = fx.pre;
        let leave = self.stmt(
            StmtKind::If {
                arms: vec![(Expr::unary(UnOp::Not, paren_if_binary(cond)), exit_body)],
                else_body: None,
                logical_if: false,
                name: None,
            },
            at,
        );
        test.push(leave);
        test.extend(fx.post);
        Ok(test)
    }

    /// `do B while (--n > 0);`, a step in the condition: `first = 1; while (1) { if
    /// (!first) { <stepped test> } first = 0; B }`, so that `continue` in B reaches the
    /// test.
    fn do_while_with_steps(
        &mut self,
        w: &Node<DoWhileStatement>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let first = self.first_pass_var(at);
        let test = self.stepped_test(&w.node.expression, at)?;
        let mut body = vec![self.stmt(
            StmtKind::If {
                arms: vec![(Expr::unary(UnOp::Not, Expr::var(&first)), test)],
                else_body: None,
                logical_if: false,
                name: None,
            },
            at,
        )];
        let clear = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&first),
                rhs: Expr::new(ExprKind::Logical(false)),
            },
            at,
        );
        body.push(clear);
        self.loops.push(LoopKind::Plain);
        let r = self.block_body(&w.node.statement, &mut body);
        self.loops.pop();
        r?;
        let init = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&first),
                rhs: Expr::new(ExprKind::Logical(true)),
            },
            at,
        );
        out.push(init);
        let st = self.stmt(
            StmtKind::DoWhile {
                cond: Expr::new(ExprKind::Logical(true)),
                body,
                name: None,
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// `for (i = a; i < b; i++)` and its kin as a counted DO loop, when the body
    /// assigns neither `i` nor the variables of `b`.
    fn counted(&mut self, f: &Node<ForStatement>, init: &[Stmt]) -> R<Option<Stmt>> {
        let [
            Stmt {
                kind: StmtKind::Assign { lhs, rhs: start },
                ..
            },
        ] = init
        else {
            return Ok(None);
        };
        let ExprKind::Var(var) = &lhs.kind else {
            return Ok(None);
        };
        if !matches!(
            self.vars.get(&key(var)),
            Some(Var {
                ty: Ty::Int(_),
                kind: VarKind::Local,
                ..
            })
        ) {
            return Ok(None);
        }
        let (Some(cond), Some(step)) = (&f.node.condition, &f.node.step) else {
            return Ok(None);
        };
        // The step: a literal increment.
        let Some(inc) = literal_step(&step.node, var) else {
            return Ok(None);
        };
        let Expression::BinaryOperator(c) = &cond.node else {
            return Ok(None);
        };
        let Expression::Identifier(cv) = &c.node.lhs.node else {
            return Ok(None);
        };
        if cv.node.name != *var {
            return Ok(None);
        }
        use BinaryOperator as B;
        let (adjust, up) = match c.node.operator.node {
            B::Less => (-1, true),
            B::LessOrEqual => (0, true),
            B::Greater => (1, false),
            B::GreaterOrEqual => (0, false),
            _ => return Ok(None),
        };
        if (inc > 0) != up || inc == 0 {
            return Ok(None);
        }
        // The body must not change the variable or the bound.
        let mut assigned = Assigned::default();
        assigned.visit_statement(&f.node.statement.node, &f.node.statement.span);
        let mut bound_names = Indexed::default();
        bound_names.visit_expression(&c.node.rhs.node, &c.node.rhs.span);
        if assigned.names.contains(var)
            || bound_names
                .idents
                .iter()
                .any(|n| assigned.names.iter().any(|a| key(a) == *n))
        {
            return Ok(None);
        }
        let (bound, bty) = self.value(&c.node.rhs)?;
        if !matches!(bty, Ty::Int(_)) {
            return Ok(None);
        }
        let end = match (&bound.kind, adjust) {
            (_, 0) => bound,
            (ExprKind::Int(t), a) if t.parse::<i64>().is_ok() => {
                int_lit(t.parse::<i64>().expect("checked by the guard") + a)
            }
            (_, a) if a < 0 => Expr::binary(BinOp::Sub, bound, int_lit(-a)),
            (_, a) => Expr::binary(BinOp::Add, bound, int_lit(a)),
        };
        self.loops.push(LoopKind::Plain);
        let mut body = Vec::new();
        let r = self.block_body(&f.node.statement, &mut body);
        self.loops.pop();
        r?;
        let st = self.stmt(
            StmtKind::Do {
                var: var.clone(),
                start: start.clone(),
                end,
                step: (inc != 1).then(|| int_lit(inc)),
                body,
                name: None,
            },
            f.span,
        );
        Ok(Some(st))
    }

    // --------------------------------------------------------------- expressions

    /// A condition: a comparison or logical operation, or a number compared with zero.
    fn cond(&mut self, e: &Node<Expression>) -> R<Expr> {
        let saved = std::mem::replace(&mut self.effects_ok, false);
        let r = self.expr(e);
        self.effects_ok = saved;
        let (v, ty) = r?;
        Ok(self.to_bool(v, ty))
    }

    fn to_bool(&self, v: Expr, ty: Ty) -> Expr {
        match ty {
            Ty::Bool => v,
            t => Expr::binary(BinOp::Ne, v, self.zero(t)),
        }
    }

    /// A numeric value.
    fn value(&mut self, e: &Node<Expression>) -> R<(Expr, Ty)> {
        let (v, ty) = self.expr(e)?;
        if !ty.is_numeric() {
            return Err(self.unsupported(
                "E0605",
                "using the value of a comparison or logical operator as a number",
                e.span,
            ));
        }
        Ok((v, ty))
    }

    /// An assignable place: a scalar variable, `*p`, `a[i]`, `a[i][j]`.
    fn lvalue(&mut self, e: &Node<Expression>) -> R<(Expr, Ty)> {
        let (v, ty) = self.place(e)?;
        if !matches!(v.kind, ExprKind::Var(_) | ExprKind::Index(..)) {
            return Err(self.err("E0605", "assignment to a constant", e.span));
        }
        if let Some(n) = v.base_name() {
            let var = self.var(n, e.span)?;
            if var.kind == VarKind::Value {
                return Err(self.err(
                    "E0607",
                    format!("the by-value parameter `{n}` is assigned: not supported yet"),
                    e.span,
                ));
            }
        }
        Ok((v, ty))
    }

    /// A variable reference (scalar or element).
    fn place(&mut self, e: &Node<Expression>) -> R<(Expr, Ty)> {
        match &e.node {
            // Enumeration and file-scope constants are inlined, so they may differ from a
            // variable by case only (`INFLOW` and `inflow`).
            Expression::Identifier(id)
                if !self.is_variable(&id.node.name) && self.enums.contains_key(&id.node.name) =>
            {
                let v = self.enums[&id.node.name];
                Ok((int_lit(v).spanned(self.span(e.span)), Ty::Int(4)))
            }
            Expression::Identifier(id)
                if !self.is_variable(&id.node.name) && self.consts.contains_key(&id.node.name) =>
            {
                let (ty, init) = self.consts[&id.node.name].clone();
                let (v, vty) = self.value(&init)?;
                let v = match (ty, vty, &v.kind) {
                    (a, b, _) if a == b => v,
                    (Ty::Real(k), _, ExprKind::Real(lit)) => Expr::new(ExprKind::Real(RealLit {
                        value: lit.value.clone(),
                        kind: k,
                        spelling: None,
                    })),
                    (Ty::Real(8), _, _) => Expr::intrinsic(il::Intrinsic::Dble, vec![v]),
                    (Ty::Real(_), _, _) => {
                        Expr::intrinsic(il::Intrinsic::Real, vec![v, int_lit(4)])
                    }
                    _ => Expr::intrinsic(il::Intrinsic::Int, vec![v]),
                };
                Ok((paren_if_binary(v).spanned(self.span(e.span)), ty))
            }
            Expression::Identifier(id) => {
                let v = self.var(&id.node.name, e.span)?;
                match v.kind {
                    VarKind::Value | VarKind::Local => {
                        Ok((Expr::var(&v.name).spanned(self.span(e.span)), v.ty))
                    }
                    VarKind::RefScalar | VarKind::Pointer => Err(self.unsupported(
                        "E0605",
                        &format!(
                            "using the pointer `{}` itself as a value (write `*{0}` or `{0}[i]`)",
                            v.name
                        ),
                        e.span,
                    )),
                    _ => Err(self.unsupported(
                        "E0605",
                        &format!("using the whole array `{}` as a value", v.name),
                        e.span,
                    )),
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let span = self.span(e.span);
                if let Expression::Identifier(id) = &u.node.operand.node {
                    let v = self.var(&id.node.name, e.span)?;
                    match v.kind {
                        VarKind::RefScalar => {
                            return Ok((Expr::var(&v.name).spanned(span), v.ty));
                        }
                        VarKind::Value | VarKind::Local => {
                            return Err(self.unsupported(
                                "E0605",
                                &format!("dereferencing `{}`, which is not a pointer", v.name),
                                e.span,
                            ));
                        }
                        _ => {}
                    }
                }
                let (base, off, ty) = self.ptr_expr(&u.node.operand)?;
                Ok((
                    Expr::new(ExprKind::Index(
                        base,
                        vec![off.unwrap_or_else(|| int_lit(0))],
                    ))
                    .spanned(span),
                    ty,
                ))
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let (name, subs_c) = match &b.node.lhs.node {
                    Expression::Identifier(id) => (id.node.name.clone(), vec![&*b.node.rhs]),
                    Expression::BinaryOperator(inner)
                        if inner.node.operator.node == BinaryOperator::Index =>
                    {
                        let Expression::Identifier(id) = &inner.node.lhs.node else {
                            return Err(self.unsupported("E0605", "this array reference", e.span));
                        };
                        (id.node.name.clone(), vec![&*inner.node.rhs, &*b.node.rhs])
                    }
                    _ => {
                        return Err(self.unsupported(
                            "E0605",
                            "indexing an expression that is not an array name (pointer arithmetic)",
                            e.span,
                        ));
                    }
                };
                let v = self.var(&name, e.span)?;
                if v.kind == VarKind::Pointer || self.pointers.contains_key(&key(&name)) {
                    let [sub] = subs_c.as_slice() else {
                        return Err(self.unsupported(
                            "E0605",
                            &format!("indexing the pointer `{name}` twice"),
                            e.span,
                        ));
                    };
                    let (base, off, ty) = self.ptr_ident(&name, b.node.lhs.span)?;
                    let (x, xty) = self.value(sub)?;
                    if !matches!(xty, Ty::Int(_)) {
                        return Err(self.err(
                            "E0605",
                            "an array subscript must be an integer",
                            sub.span,
                        ));
                    }
                    return Ok((
                        Expr::new(ExprKind::Index(base, vec![add_offset(off, x, false)]))
                            .spanned(self.span(e.span)),
                        ty,
                    ));
                }
                let rank = match &v.kind {
                    VarKind::ArrayParam => 1,
                    VarKind::LocalArray(ext) => ext.len(),
                    _ => {
                        return Err(self.unsupported(
                            "E0605",
                            &format!("indexing `{name}`, which is not an array"),
                            e.span,
                        ));
                    }
                };
                if rank != subs_c.len() {
                    return Err(self.unsupported(
                        "E0605",
                        &format!("a reference to `{name}` with {} subscript(s) for its {rank} dimension(s)", subs_c.len()),
                        e.span,
                    ));
                }
                let mut subs = Vec::new();
                for s in subs_c {
                    let (x, ty) = self.value(s)?;
                    if !matches!(ty, Ty::Int(_)) {
                        return Err(self.err(
                            "E0605",
                            "an array subscript must be an integer",
                            s.span,
                        ));
                    }
                    subs.push(x);
                }
                // The IL is column-major: the last C subscript varies fastest.
                subs.reverse();
                Ok((
                    Expr::new(ExprKind::Index(v.name.clone(), subs)).spanned(self.span(e.span)),
                    v.ty,
                ))
            }
            _ => Err(self.unsupported("E0605", "assigning to this expression", e.span)),
        }
    }

    fn expr(&mut self, e: &Node<Expression>) -> R<(Expr, Ty)> {
        let span = self.span(e.span);
        match &e.node {
            Expression::Identifier(_) => self.place(e),
            Expression::Constant(c) => self.constant(c),
            Expression::UnaryOperator(u) => {
                use UnaryOperator as U;
                match u.node.operator.node {
                    U::Indirection => self.place(e),
                    U::Minus | U::Plus => {
                        let (v, ty) = self.value(&u.node.operand)?;
                        let op = if u.node.operator.node == U::Minus {
                            UnOp::Neg
                        } else {
                            UnOp::Plus
                        };
                        Ok((Expr::unary(op, paren_if_binary(v)).spanned(span), ty))
                    }
                    U::Negate => {
                        let (v, ty) = self.expr(&u.node.operand)?;
                        let v = match ty {
                            Ty::Bool => Expr::unary(UnOp::Not, paren_if_binary(v)),
                            t => Expr::binary(BinOp::Eq, v, self.zero(t)),
                        };
                        Ok((v.spanned(span), Ty::Bool))
                    }
                    U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                        self.scalar_step(u, e.span)
                    }
                    U::Address => Err(self.unsupported(
                        "E0605",
                        "taking an address outside a call argument",
                        e.span,
                    )),
                    U::Complement => Err(self.unsupported("E0605", "the `~` operator", e.span)),
                }
            }
            Expression::BinaryOperator(b) => {
                use BinaryOperator as B;
                let op = match b.node.operator.node {
                    B::Index => return self.place(e),
                    B::Plus => BinOp::Add,
                    B::Minus => BinOp::Sub,
                    B::Multiply => BinOp::Mul,
                    B::Divide => BinOp::Div,
                    B::Modulo => {
                        let (l, lt) = self.value(&b.node.lhs)?;
                        let (r, rt) = self.value(&b.node.rhs)?;
                        if !matches!((lt, rt), (Ty::Int(_), Ty::Int(_))) {
                            return Err(self.err("E0605", "`%` needs integer operands", e.span));
                        }
                        return Ok((
                            Expr::intrinsic(il::Intrinsic::Mod, vec![l, r]).spanned(span),
                            promote(lt, rt),
                        ));
                    }
                    B::Less
                    | B::Greater
                    | B::LessOrEqual
                    | B::GreaterOrEqual
                    | B::Equals
                    | B::NotEquals
                        if self.is_ptr(&b.node.lhs.node) || self.is_ptr(&b.node.rhs.node) =>
                    {
                        return self.pointer_compare(b, e.span);
                    }
                    B::Less => BinOp::Lt,
                    B::Greater => BinOp::Gt,
                    B::LessOrEqual => BinOp::Le,
                    B::GreaterOrEqual => BinOp::Ge,
                    B::Equals => BinOp::Eq,
                    B::NotEquals => BinOp::Ne,
                    B::LogicalAnd | B::LogicalOr => {
                        // A step (`--n > 0 && ...`) may stand in the left operand, which
                        // always runs, not in the right one.
                        let (lv, lt) = self.expr(&b.node.lhs)?;
                        let l = self.to_bool(lv, lt);
                        let r = self.cond(&b.node.rhs)?;
                        let op = if b.node.operator.node == B::LogicalAnd {
                            BinOp::And
                        } else {
                            BinOp::Or
                        };
                        return Ok((Expr::binary(op, l, r).spanned(span), Ty::Bool));
                    }
                    B::Assign
                    | B::AssignMultiply
                    | B::AssignDivide
                    | B::AssignModulo
                    | B::AssignPlus
                    | B::AssignMinus
                    | B::AssignShiftLeft
                    | B::AssignShiftRight
                    | B::AssignBitwiseAnd
                    | B::AssignBitwiseXor
                    | B::AssignBitwiseOr => {
                        return Err(self.unsupported(
                            "E0605",
                            "an assignment inside an expression (a side effect)",
                            e.span,
                        ));
                    }
                    _ => {
                        return Err(self.unsupported(
                            "E0605",
                            "shift and bitwise operators",
                            e.span,
                        ));
                    }
                };
                let (l, lt) = self.value(&b.node.lhs)?;
                let (r, rt) = self.value(&b.node.rhs)?;
                let ty = if op.is_arithmetic() {
                    promote(lt, rt)
                } else {
                    Ty::Bool
                };
                Ok((Expr::binary(op, l, r).spanned(span), ty))
            }
            Expression::Conditional(c) => {
                let cond = self.cond(&c.node.condition)?;
                let saved = std::mem::replace(&mut self.effects_ok, false);
                let a = self.value(&c.node.then_expression);
                let b = self.value(&c.node.else_expression);
                self.effects_ok = saved;
                let ((a, at), (b, bt)) = (a?, b?);
                for (x, s) in [
                    (&a, c.node.then_expression.span),
                    (&b, c.node.else_expression.span),
                ] {
                    let mut has_call = false;
                    il::visit::walk_expr(x, &mut |y| {
                        has_call |= matches!(y.kind, ExprKind::Call(..));
                    });
                    if has_call {
                        return Err(self.unsupported(
                            "E0605",
                            "a function call in a branch of `?:` (both branches would be evaluated)",
                            s,
                        ));
                    }
                }
                Ok((
                    Expr::intrinsic(il::Intrinsic::Merge, vec![a, b, cond]).spanned(span),
                    promote(at, bt),
                ))
            }
            Expression::Cast(c) => {
                let ty = base_type(
                    c.node
                        .type_name
                        .node
                        .specifiers
                        .iter()
                        .filter_map(|s| match &s.node {
                            SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                            _ => None,
                        }),
                    self.typedefs,
                );
                if c.node.type_name.node.declarator.is_some() {
                    return Err(self.unsupported("E0605", "a cast to a pointer type", e.span));
                }
                let (v, _) = self.value(&c.node.expression)?;
                let (op, args, ty) = match ty {
                    Ok(Ty::Real(8)) => (il::Intrinsic::Dble, vec![v], Ty::Real(8)),
                    Ok(Ty::Real(4)) => (il::Intrinsic::Real, vec![v, int_lit(4)], Ty::Real(4)),
                    Ok(Ty::Int(4)) => (il::Intrinsic::Int, vec![v], Ty::Int(4)),
                    _ => return Err(self.unsupported("E0605", "a cast to this type", e.span)),
                };
                Ok((Expr::intrinsic(op, args).spanned(span), ty))
            }
            Expression::Call(c) => {
                let name = self.callee(c)?;
                if let Some((op, n)) = math(&name) {
                    if c.node.arguments.len() != n {
                        return Err(self.err(
                            "E0609",
                            format!("`{name}` takes {n} argument(s)"),
                            e.span,
                        ));
                    }
                    let mut args = Vec::new();
                    let mut ty = Ty::Int(4);
                    for a in &c.node.arguments {
                        let (v, t) = self.value(a)?;
                        ty = promote(ty, t);
                        args.push(v);
                    }
                    let ty = match ty {
                        Ty::Int(_) => Ty::Real(8),
                        t => t,
                    };
                    let result_ty = if name.starts_with("floor") {
                        Ty::Int(4)
                    } else {
                        ty
                    };
                    let v = match op {
                        Math::Op(op) => Expr::intrinsic(op, args),
                        Math::Pow => {
                            let b = args.pop().expect("arity checked above");
                            let a = args.pop().expect("arity checked above");
                            Expr::binary(BinOp::Pow, paren_if_binary(a), paren_if_binary(b))
                        }
                        Math::Hypot => {
                            let b = paren_if_binary(args.pop().expect("arity checked above"));
                            let a = paren_if_binary(args.pop().expect("arity checked above"));
                            Expr::intrinsic(
                                il::Intrinsic::Sqrt,
                                vec![Expr::binary(
                                    BinOp::Add,
                                    Expr::binary(BinOp::Mul, a.clone(), a),
                                    Expr::binary(BinOp::Mul, b.clone(), b),
                                )],
                            )
                        }
                    };
                    return Ok((v.spanned(span), result_ty));
                }
                let proto = self.proto(&name, c.span)?;
                if proto.ret == Ty::Void {
                    return Err(self.err("E0605", format!("`{name}` returns no value"), e.span));
                }
                let args = self.call_args(&name, &proto, c)?;
                Ok((
                    Expr::new(ExprKind::Call(
                        name,
                        args.into_iter().map(il::Arg::positional).collect(),
                    ))
                    .spanned(span),
                    proto.ret,
                ))
            }
            Expression::Comma(_) => Err(self.unsupported("E0605", "the comma operator", e.span)),
            Expression::Member(_) => Err(self.unsupported("E0605", "struct members", e.span)),
            Expression::StringLiteral(_) => {
                Err(self.unsupported("E0605", "a string literal", e.span))
            }
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => {
                Err(self.unsupported("E0605", "`sizeof`", e.span))
            }
            _ => Err(self.unsupported("E0605", "this expression", e.span)),
        }
    }

    fn constant(&mut self, c: &Node<Constant>) -> R<(Expr, Ty)> {
        let span = self.span(c.span);
        match &c.node {
            Constant::Integer(i) => {
                if i.suffix.unsigned || i.suffix.imaginary {
                    return Err(self.unsupported(
                        "E0605",
                        "an unsigned or imaginary constant",
                        c.span,
                    ));
                }
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                let Ok(v) = i64::from_str_radix(&i.number, radix) else {
                    return Err(self.err("E0605", "this integer constant is too large", c.span));
                };
                let long = i.suffix.size != IntegerSize::Int || v > i32::MAX as i64;
                let text = if i.base == IntegerBase::Decimal {
                    i.number.to_string()
                } else {
                    v.to_string()
                };
                let (text, ty) = if long {
                    (format!("{text}_8"), Ty::Int(8))
                } else {
                    (text, Ty::Int(4))
                };
                Ok((Expr::new(ExprKind::Int(text)).spanned(span), ty))
            }
            Constant::Float(f) => {
                if f.base != FloatBase::Decimal || f.suffix.imaginary {
                    return Err(self.unsupported(
                        "E0605",
                        "a hexadecimal or imaginary float constant",
                        c.span,
                    ));
                }
                let kind = match f.suffix.format {
                    FloatFormat::Double => 8,
                    FloatFormat::Float => 4,
                    _ => {
                        return Err(self.unsupported("E0605", "a `long double` constant", c.span));
                    }
                };
                let mut value = f.number.to_ascii_lowercase();
                if value.starts_with('.') {
                    value.insert(0, '0');
                }
                if let Some(p) = value.find('.') {
                    if !value[p + 1..].starts_with(|ch: char| ch.is_ascii_digit()) {
                        value.insert(p + 1, '0');
                    }
                }
                let suffix = if kind == 4 { "f" } else { "" };
                Ok((
                    Expr::new(ExprKind::Real(RealLit {
                        value,
                        kind,
                        spelling: Some(format!("{}{suffix}", f.number)),
                    }))
                    .spanned(span),
                    Ty::Real(kind),
                ))
            }
            Constant::Character(_) => {
                Err(self.unsupported("E0605", "a character constant", c.span))
            }
        }
    }

    fn callee(&mut self, c: &Node<CallExpression>) -> R<String> {
        match &c.node.callee.node {
            Expression::Identifier(id) => Ok(id.node.name.clone()),
            _ => Err(self.unsupported("E0605", "a call through a function pointer", c.span)),
        }
    }

    fn proto(&mut self, name: &str, at: CSpan) -> R<Proto> {
        match self.protos.get(name) {
            Some(p) => Ok(p.clone()),
            None => Err(self.err(
                "E0606",
                format!("`{name}` is not a function of this file, nor one adgen knows from math.h"),
                at,
            )),
        }
    }

    /// Actual arguments: values for by-value parameters; `&x`, `&a[i]`, an array or a
    /// pointer parameter for pointer parameters.
    fn call_args(&mut self, name: &str, proto: &Proto, c: &Node<CallExpression>) -> R<Vec<Expr>> {
        if proto.params.len() != c.node.arguments.len() {
            return Err(self.err(
                "E0609",
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    proto.params.len(),
                    c.node.arguments.len()
                ),
                c.span,
            ));
        }
        self.called.insert(name.to_string());
        let mut out = Vec::new();
        for (pass, a) in proto.params.iter().zip(&c.node.arguments) {
            let v = match pass {
                Pass::Value => self.value(a)?.0,
                Pass::Ref => self.ref_arg(a)?,
            };
            out.push(v);
        }
        Ok(out)
    }

    fn ref_arg(&mut self, a: &Node<Expression>) -> R<Expr> {
        let span = self.span(a.span);
        match &a.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let (v, _) = self.place(&u.node.operand)?;
                if let Some(n) = v.base_name() {
                    if self.var(n, a.span)?.kind == VarKind::Value {
                        return Err(self.err(
                            "E0607",
                            format!("passing the address of the by-value parameter `{n}`: not supported yet"),
                            a.span,
                        ));
                    }
                }
                Ok(v)
            }
            Expression::Identifier(id)
                if self.pointers.contains_key(&key(&id.node.name))
                    || self.var(&id.node.name, a.span)?.kind == VarKind::Pointer =>
            {
                let (base, off, _) = self.ptr_ident(&id.node.name, a.span)?;
                Ok(element_at(base, off).spanned(span))
            }
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::Plus | BinaryOperator::Minus
                ) =>
            {
                let (base, off, _) = self.ptr_expr(a)?;
                Ok(element_at(base, off).spanned(span))
            }
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    UnaryOperator::PostIncrement
                        | UnaryOperator::PostDecrement
                        | UnaryOperator::PreIncrement
                        | UnaryOperator::PreDecrement
                ) =>
            {
                let (base, off, _) = self.ptr_expr(a)?;
                Ok(element_at(base, off).spanned(span))
            }
            Expression::Identifier(id) => {
                let v = self.var(&id.node.name, a.span)?;
                match v.kind {
                    VarKind::RefScalar | VarKind::ArrayParam | VarKind::LocalArray(_) => {
                        if let VarKind::LocalArray(ext) = &v.kind {
                            if ext.len() > 1 {
                                return Err(self.unsupported(
                                    "E0605",
                                    "passing a 2-D array to a pointer parameter",
                                    a.span,
                                ));
                            }
                        }
                        Ok(Expr::var(&v.name).spanned(span))
                    }
                    _ => Err(self.err(
                        "E0605",
                        format!("`{}` is not a pointer or an array (pass `&{0}`)", v.name),
                        a.span,
                    )),
                }
            }
            _ => Err(self.unsupported(
                "E0605",
                "this pointer argument; pass `&a[i]`, `a + i`, `&x` or an array",
                a.span,
            )),
        }
    }

    // ------------------------------------------------------------------ pointers

    /// A new integer local holding the offset of the moving pointer `name`.
    fn offset_var(&mut self, name: &str, at: CSpan) -> String {
        let mut off = format!("{name}_off");
        let mut n = 0;
        while self.idents.contains(&key(&off))
            || self.vars.contains_key(&key(&off))
            || self.protos.contains_key(&off)
        {
            off = format!("{name}_off{n}");
            n += 1;
        }
        self.vars.insert(
            key(&off),
            Var {
                name: off.clone(),
                ty: Ty::Int(4),
                kind: VarKind::Local,
            },
        );
        self.push_decl(&off, Ty::Int(4), Vec::new(), None, None, None, false, at);
        off
    }

    /// `double *p [= init];` in a function body.
    fn pointer_decl(
        &mut self,
        name: &str,
        ty: Ty,
        init: &Node<InitDeclarator>,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        if self.declare(name, ty, VarKind::Pointer, init.span)? {
            let off = self.offset_var(name, init.span);
            self.pointers.insert(key(name), PtrVar { off, base: None });
        }
        let Some(i) = &init.node.initializer else {
            return Ok(());
        };
        let Initializer::Expression(e) = &i.node else {
            return Err(self.unsupported("E0605", "this pointer initializer", i.span));
        };
        self.with_effects(out, e, |cx, out| cx.point_to(name, e, init.span, out))
    }

    /// The moving pointer an expression statement sets (`p = ...`, `p += k`, `p++`).
    fn moving_target(&self, e: &Node<Expression>) -> Option<String> {
        use BinaryOperator as B;
        use UnaryOperator as U;
        let target = match &e.node {
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    B::Assign | B::AssignPlus | B::AssignMinus
                ) =>
            {
                &b.node.lhs.node
            }
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement
                ) =>
            {
                &u.node.operand.node
            }
            _ => return None,
        };
        match target {
            Expression::Identifier(id) if self.pointers.contains_key(&key(&id.node.name)) => {
                Some(id.node.name.clone())
            }
            _ => None,
        }
    }

    /// `p = q + k;`, `p += k;`, `p -= k;`, `p++;`: the offset of `p` changes.
    fn pointer_assign(&mut self, name: &str, e: &Node<Expression>, out: &mut Vec<Stmt>) -> R<()> {
        use BinaryOperator as B;
        let (step, negative) = match &e.node {
            Expression::BinaryOperator(b) => match b.node.operator.node {
                B::Assign => return self.point_to(name, &b.node.rhs, e.span, out),
                B::AssignPlus => (Some(&*b.node.rhs), false),
                _ => (Some(&*b.node.rhs), true),
            },
            Expression::UnaryOperator(u) => (
                None,
                matches!(
                    u.node.operator.node,
                    UnaryOperator::PostDecrement | UnaryOperator::PreDecrement
                ),
            ),
            _ => unreachable!("moving_target accepts only these"),
        };
        let (_, off, _) = self.ptr_ident(name, e.span)?;
        let off = off.expect("a moving pointer has an offset variable");
        let k = match step {
            Some(k) => {
                let (v, ty) = self.value(k)?;
                if !matches!(ty, Ty::Int(_)) {
                    return Err(self.err("E0605", "a pointer moves by an integer", k.span));
                }
                v
            }
            None => int_lit(1),
        };
        let st = self.stmt(
            StmtKind::Assign {
                lhs: off.clone(),
                rhs: add_offset(Some(off), k, negative),
            },
            e.span,
        );
        out.push(st);
        Ok(())
    }

    /// `p = <pointer expression>`: the first such assignment fixes the array `p` points
    /// into; later ones must point into the same array.
    fn point_to(
        &mut self,
        name: &str,
        value: &Node<Expression>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let (base, off, ty) = self.ptr_expr(value)?;
        let var = self.var(name, at)?;
        if ty != var.ty {
            return Err(self.unsupported(
                "E0605",
                &format!("making `{name}` point into an array of another type"),
                value.span,
            ));
        }
        let ptr = self
            .pointers
            .get_mut(&key(name))
            .expect("point_to is called for moving pointers");
        match &ptr.base {
            None => ptr.base = Some(base),
            Some(b) if *b == base => {}
            Some(b) => {
                let msg = format!(
                    "the pointer `{name}` points into `{b}` elsewhere and into `{base}` here: \
                     adgen follows a pointer only within one array"
                );
                let e = self.err("E0605", msg, value.span);
                self.diags
                    .last_mut()
                    .expect("a diagnostic was just pushed")
                    .help = Some("use one pointer per array, or index the arrays".into());
                return Err(e);
            }
        }
        let off_var = ptr.off.clone();
        let st = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&off_var),
                rhs: off.unwrap_or_else(|| int_lit(0)),
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// Is this expression syntactically a pointer into an array?
    fn is_ptr(&self, e: &Expression) -> bool {
        use BinaryOperator as B;
        use UnaryOperator as U;
        match e {
            Expression::Identifier(id) => matches!(
                self.vars.get(&key(&id.node.name)).map(|v| &v.kind),
                Some(VarKind::ArrayParam | VarKind::LocalArray(_) | VarKind::Pointer)
            ),
            Expression::UnaryOperator(u) => match u.node.operator.node {
                U::Address => true,
                U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                    self.is_ptr(&u.node.operand.node)
                }
                _ => false,
            },
            Expression::BinaryOperator(b) => match b.node.operator.node {
                B::Plus => self.is_ptr(&b.node.lhs.node) || self.is_ptr(&b.node.rhs.node),
                B::Minus => self.is_ptr(&b.node.lhs.node),
                _ => false,
            },
            _ => false,
        }
    }

    /// A pointer expression as an array and an integer offset (`None`: element 0).
    fn ptr_expr(&mut self, e: &Node<Expression>) -> R<(String, Option<Expr>, Ty)> {
        use BinaryOperator as B;
        use UnaryOperator as U;
        match &e.node {
            Expression::Identifier(id) => self.ptr_ident(&id.node.name, e.span),
            Expression::BinaryOperator(b) if matches!(b.node.operator.node, B::Plus | B::Minus) => {
                let minus = b.node.operator.node == B::Minus;
                let (p, k) = match (
                    self.is_ptr(&b.node.lhs.node),
                    !minus && self.is_ptr(&b.node.rhs.node),
                ) {
                    (true, false) => (&b.node.lhs, &b.node.rhs),
                    (false, true) => (&b.node.rhs, &b.node.lhs),
                    _ => {
                        return Err(self.unsupported(
                            "E0605",
                            "this pointer arithmetic (adgen follows pointers as an array plus \
                             an integer offset)",
                            e.span,
                        ));
                    }
                };
                let (base, off, ty) = self.ptr_expr(p)?;
                let (k, kty) = self.value(k)?;
                if !matches!(kty, Ty::Int(_)) {
                    return Err(self.err("E0605", "a pointer moves by an integer", e.span));
                }
                Ok((base, Some(add_offset(off, k, minus)), ty))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == U::Address => {
                let (v, ty) = self.place(&u.node.operand)?;
                match v.kind {
                    ExprKind::Index(base, subs) if subs.len() == 1 => {
                        let sub = subs.into_iter().next().expect("one subscript");
                        Ok((base, Some(sub), ty))
                    }
                    _ => Err(self.unsupported(
                        "E0605",
                        "pointer arithmetic from the address of a scalar or of an element of a \
                         2-D array",
                        e.span,
                    )),
                }
            }
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement
                ) =>
            {
                let Expression::Identifier(id) = &u.node.operand.node else {
                    return Err(self.unsupported("E0605", "this pointer step", e.span));
                };
                let name = id.node.name.clone();
                if !self.pointers.contains_key(&key(&name)) {
                    return Err(self.unsupported(
                        "E0605",
                        &format!("stepping `{name}`, which is not a pointer"),
                        e.span,
                    ));
                }
                if !self.effects_ok {
                    return Err(self.unsupported(
                        "E0605",
                        "stepping a pointer (`p++`, `p--`) in a condition or in a branch of `?:`",
                        e.span,
                    ));
                }
                let (base, off, ty) = self.ptr_ident(&name, e.span)?;
                let off = off.expect("a moving pointer has an offset variable");
                let op = &u.node.operator.node;
                let down = matches!(op, U::PostDecrement | U::PreDecrement);
                let step = self.stmt(
                    StmtKind::Assign {
                        lhs: off.clone(),
                        rhs: add_offset(Some(off.clone()), int_lit(1), down),
                    },
                    e.span,
                );
                if matches!(op, U::PostIncrement | U::PostDecrement) {
                    self.fx.post.push(step);
                } else {
                    self.fx.pre.push(step);
                }
                self.fx.stepped.insert(key(&name));
                Ok((base, Some(off), ty))
            }
            Expression::Cast(_) => Err(self.unsupported("E0605", "a pointer cast", e.span)),
            _ => Err(self.unsupported(
                "E0605",
                "this pointer expression (adgen follows pointers as an array plus an integer \
                 offset)",
                e.span,
            )),
        }
    }

    /// A name used as a pointer: an array (element 0), or a moving pointer.
    fn ptr_ident(&mut self, name: &str, at: CSpan) -> R<(String, Option<Expr>, Ty)> {
        let v = self.var(name, at)?;
        if let Some(p) = self.pointers.get(&key(name)).cloned() {
            *self.fx.ptr_uses.entry(key(name)).or_insert(0) += 1;
            let Some(base) = p.base else {
                return Err(self.err(
                    "E0605",
                    format!("the pointer `{name}` is used before it is set to point into an array"),
                    at,
                ));
            };
            return Ok((base, Some(Expr::var(&p.off)), v.ty));
        }
        match &v.kind {
            VarKind::ArrayParam => Ok((v.name, None, v.ty)),
            VarKind::LocalArray(ext) if ext.len() == 1 => Ok((v.name, None, v.ty)),
            VarKind::LocalArray(_) => Err(self.unsupported(
                "E0605",
                &format!("a pointer into the 2-D array `{name}`"),
                at,
            )),
            _ => Err(self.unsupported(
                "E0605",
                &format!("using `{name}` as a pointer into an array"),
                at,
            )),
        }
    }

    /// `p < q`, `p != end`: pointers into the same array compare their offsets.
    fn pointer_compare(&mut self, b: &Node<BinaryOperatorExpression>, at: CSpan) -> R<(Expr, Ty)> {
        use BinaryOperator as B;
        let (lbase, loff, _) = self.ptr_expr(&b.node.lhs)?;
        let (rbase, roff, _) = self.ptr_expr(&b.node.rhs)?;
        if lbase != rbase {
            return Err(self.unsupported("E0605", "comparing pointers into different arrays", at));
        }
        let op = match b.node.operator.node {
            B::Less => BinOp::Lt,
            B::Greater => BinOp::Gt,
            B::LessOrEqual => BinOp::Le,
            B::GreaterOrEqual => BinOp::Ge,
            B::Equals => BinOp::Eq,
            _ => BinOp::Ne,
        };
        let l = loff.unwrap_or_else(|| int_lit(0));
        let r = roff.unwrap_or_else(|| int_lit(0));
        Ok((Expr::binary(op, l, r).spanned(self.span(at)), Ty::Bool))
    }
}

/// `off + k` (`off - k`), without `0 +`.
fn add_offset(off: Option<Expr>, k: Expr, minus: bool) -> Expr {
    // `p[-1]` is `off - 1`, not `off + (-1)`.
    if let (Some(_), ExprKind::Unary(UnOp::Neg, inner)) = (&off, &k.kind) {
        let inner = (**inner).clone();
        return add_offset(off, inner, !minus);
    }
    let is_zero = matches!(&k.kind, ExprKind::Int(t) if t == "0");
    match off {
        None if minus => Expr::unary(UnOp::Neg, paren_if_binary(k)),
        None => k,
        Some(off) if is_zero => off,
        Some(off) => Expr::binary(
            if minus { BinOp::Sub } else { BinOp::Add },
            off,
            paren_if_binary(k),
        ),
    }
}

/// The actual argument for a pointer into `base` at `off`: the whole array, or the
/// element where the callee's array starts (sequence association).
fn element_at(base: String, off: Option<Expr>) -> Expr {
    match off {
        None => Expr::var(base),
        Some(off) => Expr::new(ExprKind::Index(base, vec![off])),
    }
}

enum Math {
    Op(il::Intrinsic),
    Pow,
    Hypot,
}

/// math.h functions: the IL operation and the argument count.
fn math(name: &str) -> Option<(Math, usize)> {
    use il::Intrinsic::*;
    let base = name.strip_suffix('f').filter(|b| {
        matches!(
            *b,
            "sin"
                | "cos"
                | "tan"
                | "asin"
                | "acos"
                | "atan"
                | "atan2"
                | "sinh"
                | "cosh"
                | "tanh"
                | "exp"
                | "log"
                | "log10"
                | "sqrt"
                | "fabs"
                | "fmax"
                | "fmin"
                | "floor"
                | "fmod"
                | "pow"
                | "hypot"
        )
    });
    let base = base.unwrap_or(name);
    let (op, n) = match base {
        "sin" => (Sin, 1),
        "cos" => (Cos, 1),
        "tan" => (Tan, 1),
        "asin" => (Asin, 1),
        "acos" => (Acos, 1),
        "atan" => (Atan, 1),
        "atan2" => (Atan2, 2),
        "sinh" => (Sinh, 1),
        "cosh" => (Cosh, 1),
        "tanh" => (Tanh, 1),
        "exp" => (Exp, 1),
        "log" => (Log, 1),
        "log10" => (Log10, 1),
        "sqrt" => (Sqrt, 1),
        "fabs" => (Abs, 1),
        "fmax" => (Max, 2),
        "fmin" => (Min, 2),
        "floor" => (Floor, 1),
        "fmod" => (Mod, 2),
        "pow" => return Some((Math::Pow, 2)),
        "hypot" => return Some((Math::Hypot, 2)),
        _ => return None,
    };
    Some((Math::Op(op), n))
}

fn paren_if_binary(e: Expr) -> Expr {
    if matches!(e.kind, ExprKind::Binary(..)) {
        let span = e.span;
        Expr {
            kind: ExprKind::Paren(Box::new(e)),
            span,
        }
    } else {
        e
    }
}

trait Spanned {
    fn spanned(self, span: Span) -> Self;
}

impl Spanned for Expr {
    fn spanned(mut self, span: Span) -> Expr {
        self.span = span;
        self
    }
}

/// The step of a counted loop over `var`: `i++`, `--i`, `i += 2`, `i -= 2`, `i = i + 2`.
fn literal_step(e: &Expression, var: &str) -> Option<i64> {
    let is_var = |x: &Expression| matches!(x, Expression::Identifier(id) if id.node.name == var);
    match e {
        Expression::UnaryOperator(u) if is_var(&u.node.operand.node) => {
            match u.node.operator.node {
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => Some(1),
                UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => Some(-1),
                _ => None,
            }
        }
        Expression::BinaryOperator(b) if is_var(&b.node.lhs.node) => {
            let lit = |x: &Expression| const_int(x);
            match b.node.operator.node {
                BinaryOperator::AssignPlus => lit(&b.node.rhs.node),
                BinaryOperator::AssignMinus => lit(&b.node.rhs.node).map(|v| -v),
                BinaryOperator::Assign => match &b.node.rhs.node {
                    Expression::BinaryOperator(r) if is_var(&r.node.lhs.node) => {
                        match r.node.operator.node {
                            BinaryOperator::Plus => lit(&r.node.rhs.node),
                            BinaryOperator::Minus => lit(&r.node.rhs.node).map(|v| -v),
                            _ => None,
                        }
                    }
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// The value of an integer constant expression made of literals and `+ - * / ( )`.
fn const_int(e: &Expression) -> Option<i64> {
    const_int_in(e, &Enums::new())
}

/// [`const_int`], where enumeration constants may appear too.
fn const_int_in(e: &Expression, enums: &Enums) -> Option<i64> {
    let const_int = |e: &Expression| const_int_in(e, enums);
    if let Expression::Identifier(id) = e {
        return enums.get(&id.node.name).copied();
    }
    match e {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) if !i.suffix.unsigned => {
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                i64::from_str_radix(&i.number, radix).ok()
            }
            _ => None,
        },
        Expression::UnaryOperator(u) => match u.node.operator.node {
            UnaryOperator::Minus => const_int(&u.node.operand.node).map(|v| -v),
            UnaryOperator::Plus => const_int(&u.node.operand.node),
            _ => None,
        },
        Expression::BinaryOperator(b) => {
            let l = const_int(&b.node.lhs.node)?;
            let r = const_int(&b.node.rhs.node)?;
            match b.node.operator.node {
                BinaryOperator::Plus => l.checked_add(r),
                BinaryOperator::Minus => l.checked_sub(r),
                BinaryOperator::Multiply => l.checked_mul(r),
                BinaryOperator::Divide if r != 0 => Some(l / r),
                _ => None,
            }
        }
        _ => None,
    }
}
