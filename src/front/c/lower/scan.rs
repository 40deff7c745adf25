//! Whole-translation-unit scans before lowering: typedefs, enumerations, prototypes, which
//! pointer parameters are arrays, and small queries on lang-c expressions.

use std::collections::{BTreeMap, BTreeSet};

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};
use lang_c::visit::Visit;

use super::*;
use crate::il::key;

/// The typedefs of the translation unit (headers included), in declaration order, so that
/// a typedef may use an earlier one (`typedef real_t vec3[3];`).
/// Struct definitions are collected on the way ([`define_structs`]).
pub(super) fn collect_typedefs(tu: &TranslationUnit) -> (Typedefs, Structs) {
    let mut typedefs = Typedefs::new();
    let mut structs = Structs::new();
    for ext in &tu.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let is_typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if c.node == StorageClassSpecifier::Typedef)
        });
        let typedef_name = d
            .node
            .declarators
            .first()
            .and_then(|i| declarator_name(&i.node.declarator.node))
            .map(|n| n.node.il())
            .filter(|_| is_typedef);
        define_structs(
            d.node.specifiers.iter().filter_map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
                _ => None,
            }),
            typedef_name.as_deref(),
            &mut typedefs,
            &mut structs,
        );
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
                    Err(format!("the typedef `{}` (void)", name.node.il()))
                }
                (Ok(t), Ok(())) => Ok((*t, extents)),
                (Err(w), _) => Err(format!("the typedef `{}` ({w})", name.node.il())),
                (_, Err(w)) => Err(format!("the typedef `{}` ({w})", name.node.il())),
            };
            typedefs.insert(name.node.il(), info);
        }
    }
    (typedefs, structs)
}

/// `enum kind { A, B };`: a declaration that only defines enumeration constants.
pub(super) fn is_enum_definition(d: &Declaration) -> bool {
    d.declarators.is_empty()
        && d.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                if matches!(&t.node, TypeSpecifier::Enum(_)))
        })
}

/// The array extents a typedef name among the specifiers brings (empty for scalars).
pub(super) fn typedef_extents(
    specs: &[Node<DeclarationSpecifier>],
    typedefs: &Typedefs,
) -> Vec<i64> {
    specs
        .iter()
        .find_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
                TypeSpecifier::TypedefName(n) => match typedefs.get(&n.node.il()) {
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
pub(super) type Enums = BTreeMap<String, i64>;

/// The constants of every `enum { A, B = 4, C }` of the translation unit (headers
/// included), each the previous plus one unless given.
pub(super) fn collect_enums(tu: &TranslationUnit) -> Enums {
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
                self.enums.insert(en.node.identifier.node.il(), value);
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
pub(super) fn base_type<'a>(
    specs: impl Iterator<Item = &'a TypeSpecifier>,
    typedefs: &Typedefs,
) -> Result<Ty, String> {
    let mut long = 0;
    let mut seen = Vec::new();
    let mut specs = specs.peekable();
    if let Some(TypeSpecifier::TypedefName(n)) = specs.peek() {
        let name = &n.node.il();
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
            TypeSpecifier::Struct(st) => {
                if !seen.is_empty() || long > 0 {
                    return Err("this combination of type specifiers".into());
                }
                return match typedefs.get(&struct_key(st)) {
                    Some(Ok((ty, ext))) if ext.is_empty() => Ok(*ty),
                    Some(Ok(_)) => Err("an array struct type".into()),
                    Some(Err(w)) => Err(w.clone()),
                    None => Err(format!(
                        "`{}`, a struct not defined at file scope",
                        struct_key(st)
                    )),
                };
            }
            // An enumeration is an `int`.
            TypeSpecifier::Enum(_) => seen.push("int"),
            TypeSpecifier::TypedefName(n) => {
                return Err(format!("the typedef name `{}`", n.node.il()));
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

pub(super) fn decl_type(
    specs: &[Node<DeclarationSpecifier>],
    typedefs: &Typedefs,
) -> Result<Ty, String> {
    base_type(
        specs.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        }),
        typedefs,
    )
}

pub(super) fn is_const(specs: &[Node<DeclarationSpecifier>]) -> bool {
    specs.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Const)
    })
}

/// The name a function declarator declares (`double *mc(double s0, ...)`, `f(void)`).
pub(super) fn function_declarator_name(d: &Node<Declarator>) -> Option<String> {
    let is_function = d.node.derived.iter().any(|dd| {
        matches!(
            dd.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    });
    is_function
        .then(|| declarator_name(&d.node))
        .flatten()
        .map(|n| n.node.il())
}

pub(super) fn declarator_name(d: &Declarator) -> Option<&Node<Identifier>> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id),
        _ => None,
    }
}

/// The prototype of a function declarator (`None` when not a function).
pub(super) fn proto_of(
    specs: &[Node<DeclarationSpecifier>],
    d: &Node<Declarator>,
    typedefs: &Typedefs,
) -> Option<(String, Proto)> {
    let name = declarator_name(&d.node)?.node.il();
    let parameters: &[Node<ParameterDeclaration>] = match d.node.derived.as_slice() {
        [
            Node {
                node: DerivedDeclarator::Function(f),
                ..
            },
        ] => &f.node.parameters,
        // `double r8_epsilon ( );`: no parameters said (as jburkardt's headers write).
        [
            Node {
                node: DerivedDeclarator::KRFunction(ids),
                ..
            },
        ] if ids.is_empty() => &[],
        _ => return None,
    };
    let ret = decl_type(specs, typedefs).unwrap_or(Ty::Void);
    let mut params = Vec::new();
    let mut names = Vec::new();
    let mut rows = Vec::new();
    let mut scalars = Vec::new();
    for p in parameters {
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
        // `double x`, `const double *x`, `double x[]`: one level of pointer or array.
        let plain = match &p.node.declarator {
            None => !typedef_array,
            Some(d) => !typedef_array && d.node.derived.len() <= 1,
        };
        scalars.push(match decl_type(&p.node.specifiers, typedefs) {
            Ok(t @ (Ty::Int(_) | Ty::Real(_))) if plain => Some((t, is_const(&p.node.specifiers))),
            _ => None,
        });
        rows.push(
            p.node
                .declarator
                .as_ref()
                .and_then(|d| param_row_length(d, &typedef_extents(&p.node.specifiers, typedefs))),
        );
        names.push(
            p.node
                .declarator
                .as_ref()
                .and_then(|d| declarator_name(&d.node))
                .map(|n| n.node.il())
                .unwrap_or_default(),
        );
    }
    Some((
        name,
        Proto {
            ret,
            params,
            names,
            rows,
            scalars,
        },
    ))
}

/// The row length of a parameter that is rows of a constant length: `a[][N]`,
/// `a[M][N]`, `(*a)[N]`, or `vec3 *a` / `vec3 a[]` for `typedef double vec3[N]`. `None`
/// for anything else, and for a length that is not a literal (the prototype is read
/// without the file's enumerations, so such a parameter accepts no local 2-D array).
fn param_row_length(d: &Node<Declarator>, typedef_ext: &[i64]) -> Option<i64> {
    let literal = |size: &ArraySize| match size {
        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
            super::expr::const_int_in(&e.node, &Enums::new()).filter(|&n| n > 0)
        }
        _ => None,
    };
    let pointer_to_rows = super::func::rows_pointer_name(&d.node).is_some();
    match (d.node.derived.as_slice(), typedef_ext) {
        ([n], []) if pointer_to_rows => match &n.node {
            DerivedDeclarator::Array(a) => literal(&a.node.size),
            _ => None,
        },
        ([first, n], []) => match (&first.node, &n.node) {
            (DerivedDeclarator::Array(_), DerivedDeclarator::Array(a)) => literal(&a.node.size),
            _ => None,
        },
        ([one], [len]) => matches!(
            one.node,
            DerivedDeclarator::Array(_) | DerivedDeclarator::Pointer(_)
        )
        .then_some(*len),
        _ => None,
    }
}

/// Names used as `p[...]` in a function body.
#[derive(Default)]
pub(super) struct Indexed {
    pub(super) names: BTreeSet<String>,
    pub(super) idents: BTreeSet<String>,
    /// Names used as `*p`.
    pub(super) derefs: BTreeSet<String>,
    /// Names passed whole as arguments: (name, callee, position).
    pub(super) passes: Vec<(String, String, usize)>,
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
                self.names.insert(id.node.il());
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
                    self.names.insert(id.node.il());
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
                    self.derefs.insert(id.node.il());
                }
                U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                    self.names.insert(id.node.il());
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
                self.names.insert(id.node.il());
            }
        }
        lang_c::visit::visit_init_declarator(self, d, span);
    }
    /// `p->x`: `p` is used as a pointer to one struct (unless also indexed).
    fn visit_member_expression(&mut self, m: &'ast MemberExpression, span: &'ast CSpan) {
        if m.operator.node == MemberOperator::Indirect
            && let Expression::Identifier(id) = &m.expression.node
        {
            self.derefs.insert(id.node.il());
        }
        lang_c::visit::visit_member_expression(self, m, span);
    }
    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast CSpan) {
        if let Expression::Identifier(callee) = &c.callee.node {
            for (k, a) in c.arguments.iter().enumerate() {
                if let Expression::Identifier(id) = &a.node {
                    self.passes.push((id.node.il(), callee.node.il(), k));
                }
            }
        }
        lang_c::visit::visit_call_expression(self, c, span);
    }
}

/// For each function of the file, which of its pointer parameters are arrays: those
/// indexed `p[i]`; not those only dereferenced `*p`; those only passed on take the kind
/// of the parameter they are passed to (arrays when nothing tells).
/// Names passed to a call as a pointer into them (`a + 2`, `(double *)(a - 1)`): the
/// callee may write through it. (`&a[1]` counts as assigned: [`Assigned`].)
pub(super) fn offset_arguments(s: &Node<Statement>) -> BTreeSet<String> {
    fn base(e: &Expression) -> Option<String> {
        match e {
            Expression::Identifier(id) => Some(id.node.il()),
            Expression::Cast(c) => base(&c.node.expression.node),
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::Plus | BinaryOperator::Minus
                ) =>
            {
                base(&b.node.lhs.node).or_else(|| base(&b.node.rhs.node))
            }
            _ => None,
        }
    }
    #[derive(Default)]
    struct Finder {
        names: BTreeSet<String>,
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast CSpan) {
            for a in &c.arguments {
                if !matches!(a.node, Expression::Identifier(_)) {
                    self.names.extend(base(&a.node));
                }
            }
            lang_c::visit::visit_call_expression(self, c, span);
        }
    }
    let mut f = Finder::default();
    f.visit_statement(&s.node, &s.span);
    f.names
}

/// For each function of the file, the positions of the parameters it may write through
/// or move: assigned (`p[i] = ...`, `*p = ...`, `p++`) or passed whole to a call (which
/// may write, as far as this scan knows).
pub(super) fn written_params(tu: &TranslationUnit) -> BTreeMap<String, BTreeSet<usize>> {
    let mut out = BTreeMap::new();
    for ext in &tu.0 {
        let ExternalDeclaration::FunctionDefinition(fd) = &ext.node else {
            continue;
        };
        let Some(name) = declarator_name(&fd.node.declarator.node) else {
            continue;
        };
        let [
            Node {
                node: DerivedDeclarator::Function(f),
                ..
            },
        ] = fd.node.declarator.node.derived.as_slice()
        else {
            continue;
        };
        let mut assigned = Assigned::default();
        assigned.visit_statement(&fd.node.statement.node, &fd.node.statement.span);
        let mut usage = Indexed::default();
        usage.visit_statement(&fd.node.statement.node, &fd.node.statement.span);
        let written: BTreeSet<usize> = f
            .node
            .parameters
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                let n = param_name(p);
                assigned.names.contains(&n) || usage.passes.iter().any(|(a, _, _)| *a == n)
            })
            .map(|(k, _)| k)
            .collect();
        out.insert(name.node.il(), written);
    }
    out
}

/// The IL name of a parameter (empty when it has none).
fn param_name(p: &Node<ParameterDeclaration>) -> String {
    p.node
        .declarator
        .as_ref()
        .and_then(|d| declarator_name(&d.node))
        .map(|i| i.node.il())
        .unwrap_or_default()
}

pub(super) fn pointer_kinds(tu: &TranslationUnit) -> BTreeMap<String, BTreeMap<String, bool>> {
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
                let n = param_name(p);
                params.push(n);
            }
        }
        let mut usage = Indexed::default();
        usage.visit_statement(&fd.node.statement.node, &fd.node.statement.span);
        infos.insert(name.node.il(), Info { params, usage });
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
pub(super) struct Assigned {
    pub(super) names: BTreeSet<String>,
}

pub(super) fn target_name(e: &Expression) -> Option<String> {
    match e {
        Expression::Identifier(id) => Some(id.node.il()),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            target_name(&b.node.lhs.node)
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
            target_name(&u.node.operand.node)
        }
        _ => None,
    }
}

/// The target a binary operator assigns: `x` of `x = e` and `x op= e`.
pub(super) fn assign_target(b: &BinaryOperatorExpression) -> Option<&Expression> {
    use BinaryOperator::*;
    matches!(
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
    )
    .then_some(&b.lhs.node)
}

/// The operand a unary operator changes or exposes to changes: `x` of `x++`, `--x`, `&x`.
pub(super) fn unary_target(u: &UnaryOperatorExpression) -> Option<&Expression> {
    use UnaryOperator::*;
    matches!(
        u.operator.node,
        PostIncrement | PostDecrement | PreIncrement | PreDecrement | Address
    )
    .then_some(&u.operand.node)
}

impl<'ast> Visit<'ast> for Assigned {
    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        if let Some(n) = assign_target(b).and_then(target_name) {
            self.names.insert(n.to_string());
        }
        lang_c::visit::visit_binary_operator_expression(self, b, span);
    }
    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast UnaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        if let Some(n) = unary_target(u).and_then(target_name) {
            self.names.insert(n.to_string());
        }
        lang_c::visit::visit_unary_operator_expression(self, u, span);
    }
}

/// Names assigned themselves (`x = ...`, `x += ...`, `x++`), not through `*x` or `x[i]`:
/// for a pointer parameter, the pointer moves.
#[derive(Default)]
pub(super) struct DirectTargets {
    pub(super) names: BTreeSet<String>,
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
                self.names.insert(id.node.il());
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
                self.names.insert(id.node.il());
            }
        }
        lang_c::visit::visit_unary_operator_expression(self, u, span);
    }
}

/// How often `name` appears in an expression.
pub(super) fn count_identifier(e: &Expression, name: &str) -> usize {
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

/// Does an expression hold a `++` or `--`, or an assignment (`(t = f(x)) > m`)?
pub(super) fn has_steps(e: &Expression) -> bool {
    #[derive(Default)]
    struct Finder {
        found: bool,
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_binary_operator_expression(
            &mut self,
            b: &'ast BinaryOperatorExpression,
            span: &'ast CSpan,
        ) {
            self.found |= assign_target(b).is_some();
            lang_c::visit::visit_binary_operator_expression(self, b, span);
        }
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
pub(super) fn has_own_continue(s: &Statement) -> bool {
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
