//! File scope: struct types and global variables, held by the file's pseudo-module.
//!
//! Every C file that defines structs or global variables gets one unit of kind
//! [`il::UnitKind::Module`] (named after the file's path, `src/model.c` → `src_model_c`)
//! holding the struct definitions ([`DeclKind::TypeDef`], named `struct tag`, or the
//! typedef name of an anonymous struct) and the globals (each symbol's `global` names the
//! module); the file's functions have it as their host and see every global as a symbol,
//! so the module-variable machinery of analyses and differentiation applies unchanged.
//! A member is a variable named by its path (`s.x`, `p->v[i]` → `s%x`, `p%v(i)`), as
//! Fortran components are.

use std::collections::{BTreeMap, BTreeSet};

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::il::{Attr, BaseType, DeclKind, DimSpec, Entity, ExprKind, GlobalRef, RealLit, Symbol};

/// A struct type of the file.
#[derive(Clone, Debug)]
pub(super) struct StructDef {
    /// The IL type name: `struct point`, or `vec` for `typedef struct { ... } vec;`.
    pub(super) name: String,
    pub(super) fields: Vec<Field>,
    /// Where it is defined, in the preprocessed text.
    pub(super) at: usize,
}

/// A member of a struct: a scalar, a struct, or an array (1-D or 2-D) of scalars.
#[derive(Clone, Debug)]
pub(super) struct Field {
    pub(super) name: String,
    pub(super) ty: Ty,
    /// Extents in C order; empty for a scalar or a struct.
    pub(super) extents: Vec<i64>,
}

pub(super) type Structs = Vec<StructDef>;

/// The key under which a struct specifier is found among the typedefs: `struct tag`, or
/// `struct@offset` for an anonymous one (no typedef name can hold a space or `@`).
pub(super) fn struct_key(st: &Node<StructType>) -> String {
    match &st.node.identifier {
        Some(id) => format!("struct {}", id.node.il()),
        None => format!("struct@{}", st.span.start),
    }
}

/// Registers the struct definitions among `specs` (and those nested in their members)
/// in `structs`, and their keys in `typedefs`. `typedef_name` names an anonymous struct
/// defined in a typedef.
pub(super) fn define_structs<'a>(
    specs: impl Iterator<Item = &'a TypeSpecifier>,
    typedef_name: Option<&str>,
    typedefs: &mut Typedefs,
    structs: &mut Structs,
) {
    for s in specs {
        let TypeSpecifier::Struct(st) = s else {
            continue;
        };
        let Some(decls) = &st.node.declarations else {
            continue;
        };
        let k = struct_key(st);
        if st.node.kind.node == StructKind::Union {
            typedefs.insert(k, Err("a union".into()));
            continue;
        }
        let name = match (&st.node.identifier, typedef_name) {
            (Some(id), _) => format!("struct {}", id.node.il()),
            (None, Some(t)) => t.to_string(),
            (None, None) => {
                typedefs.insert(
                    k,
                    Err("an anonymous struct outside a typedef (give it a tag)".into()),
                );
                continue;
            }
        };
        let mut fields = Vec::new();
        let mut problem: Option<String> = None;
        for d in decls {
            let StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let tspecs: Vec<&TypeSpecifier> = f
                .node
                .specifiers
                .iter()
                .filter_map(|s| match &s.node {
                    SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                    _ => None,
                })
                .collect();
            define_structs(tspecs.iter().copied(), None, typedefs, structs);
            let base = base_type(tspecs.iter().copied(), typedefs);
            let inner: Vec<i64> = tspecs
                .iter()
                .find_map(|t| match t {
                    TypeSpecifier::TypedefName(n) => match typedefs.get(&n.node.il()) {
                        Some(Ok((_, ext))) => Some(ext.clone()),
                        _ => None,
                    },
                    _ => None,
                })
                .unwrap_or_default();
            for sd in &f.node.declarators {
                if sd.node.bit_width.is_some() {
                    problem.get_or_insert("a bit-field member".into());
                    continue;
                }
                let Some(decl) = &sd.node.declarator else {
                    continue;
                };
                let Some(fname) = declarator_name(&decl.node) else {
                    problem.get_or_insert("a member of this form".into());
                    continue;
                };
                let mut extents = Vec::new();
                for dd in &decl.node.derived {
                    match &dd.node {
                        DerivedDeclarator::Array(a) => match &a.node.size {
                            ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                                match const_int(&e.node) {
                                    Some(n) if n > 0 => extents.push(n),
                                    _ => {
                                        problem.get_or_insert(
                                            "an array member without a constant size".into(),
                                        );
                                    }
                                }
                            }
                            _ => {
                                problem.get_or_insert("an array member without a size".into());
                            }
                        },
                        _ => {
                            problem
                                .get_or_insert(format!("the pointer member `{}`", fname.node.il()));
                        }
                    }
                }
                extents.extend(inner.iter().copied());
                match &base {
                    Ok(Ty::Struct(_)) if !extents.is_empty() => {
                        problem.get_or_insert(format!(
                            "the member `{}`, an array of structs",
                            fname.node.il()
                        ));
                    }
                    Ok(Ty::Void | Ty::Bool) => {
                        problem.get_or_insert("a `void` member".into());
                    }
                    Ok(_) if extents.len() > 2 => {
                        problem.get_or_insert("an array member of more than 2 dimensions".into());
                    }
                    Ok(t) => {
                        if fields
                            .iter()
                            .any(|x: &Field| key(&x.name) == key(&fname.node.il()))
                        {
                            problem.get_or_insert(format!(
                                "members differing only by case (`{}`)",
                                fname.node.il()
                            ));
                        }
                        fields.push(Field {
                            name: fname.node.il(),
                            ty: *t,
                            extents,
                        });
                    }
                    Err(w) => {
                        problem.get_or_insert(format!("a member of {w}"));
                    }
                }
            }
        }
        let info = match problem {
            Some(p) => Err(format!("`{name}` ({p})")),
            None => {
                let index = structs.len() as u16;
                structs.push(StructDef {
                    name: name.clone(),
                    fields,
                    at: st.span.start,
                });
                Ok((Ty::Struct(index), Vec::new()))
            }
        };
        typedefs.insert(k, info);
    }
}

/// A variable at file scope.
#[derive(Clone, Debug)]
pub(super) struct GlobalVar {
    pub(super) name: String,
    pub(super) ty: Ty,
    /// Extents in C order; empty for scalars and structs.
    pub(super) extents: Vec<i64>,
    pub(super) is_static: bool,
    /// `const`, with a literal initializer: a named constant (a table), copied wherever
    /// derivative code reads it.
    pub(super) is_const: bool,
    /// The literal initializer (an [`ExprKind::ArrayCtor`] for an array), kept so that
    /// the file printed back defines the same value.
    pub(super) init: Option<Expr>,
    pub(super) span: Span,
    /// Declared `extern` only (`extern double g;`, usually in a header): defined by
    /// another file of the program, whose pseudo-module holds it (see `c::externs`).
    pub(super) is_extern: bool,
}

/// The IL of a literal expression (`9.81`, `-1`, `2 * 3.0`): what a file-scope
/// initializer may hold.
pub(super) fn literal(e: &Expression, span: Span) -> Option<Expr> {
    let out = match e {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) if !i.suffix.unsigned && !i.suffix.imaginary => {
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                let v = i64::from_str_radix(&i.number, radix).ok()?;
                if i.suffix.size != IntegerSize::Int || v > i32::MAX as i64 {
                    Expr::new(ExprKind::Int(format!("{v}_8")))
                } else {
                    Expr::int(v)
                }
            }
            Constant::Float(f)
                if f.base == FloatBase::Decimal
                    && !f.suffix.imaginary
                    && matches!(f.suffix.format, FloatFormat::Double | FloatFormat::Float) =>
            {
                let kind = if f.suffix.format == FloatFormat::Float {
                    4
                } else {
                    8
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
                Expr::new(ExprKind::Real(RealLit {
                    value,
                    kind,
                    spelling: Some(format!("{}{suffix}", f.number).into()),
                }))
            }
            _ => return None,
        },
        Expression::UnaryOperator(u) => {
            let x = literal(&u.node.operand.node, span)?;
            match u.node.operator.node {
                UnaryOperator::Minus => Expr::unary(il::UnOp::Neg, paren_if_binary(x)),
                UnaryOperator::Plus => x,
                _ => return None,
            }
        }
        Expression::BinaryOperator(b) => {
            let op = match b.node.operator.node {
                BinaryOperator::Plus => il::BinOp::Add,
                BinaryOperator::Minus => il::BinOp::Sub,
                BinaryOperator::Multiply => il::BinOp::Mul,
                BinaryOperator::Divide => il::BinOp::Div,
                _ => return None,
            };
            let l = literal(&b.node.lhs.node, span)?;
            let r = literal(&b.node.rhs.node, span)?;
            Expr::binary(op, paren_if_binary(l), paren_if_binary(r))
        }
        _ => return None,
    };
    Some(out.spanned(span))
}

/// The name of a file's pseudo-module: its path with every other character than letters
/// and digits made `_` (`src/model.c` → `src_model_c`), kept apart from the functions'.
pub(super) fn module_name(path: &str, protos: &BTreeMap<String, Proto>) -> String {
    let mut base: String = path
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
        base.insert(0, 'f');
    }
    let mut name = base.clone();
    let mut n = 0;
    while protos.keys().any(|p| key(p) == key(&name)) {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

/// The type spec of a C type: a struct's carries its IL type name.
pub(super) fn spec_of(ty: Ty, structs: &Structs) -> TypeSpec {
    match ty {
        Ty::Struct(i) => TypeSpec {
            type_name: Some(structs[i as usize].name.clone()),
            ..TypeSpec::simple(BaseType::Derived)
        },
        t => real_spec(t),
    }
}

/// `[0:n-1]` per C extent, in the IL's column-major order.
pub(super) fn dims_of(extents: &[i64]) -> Vec<DimSpec> {
    extents
        .iter()
        .rev()
        .map(|n| DimSpec {
            lower: Some(int_lit(0)),
            upper: il::Bound::Expr(int_lit(n - 1)),
        })
        .collect()
}

/// The symbols of the members of a struct variable, at every depth (`s%x`, `s%in%y`).
pub(super) fn component_symbols(
    path: &str,
    ty: Ty,
    structs: &Structs,
    global: Option<&GlobalRef>,
    span: Span,
    out: &mut Vec<Symbol>,
) {
    let Ty::Struct(i) = ty else {
        return;
    };
    for f in &structs[i as usize].fields {
        let name = format!("{path}%{}", f.name);
        out.push(Symbol {
            name: name.clone(),
            kind: il::SymbolKind::Variable,
            ty: f.ty.scalar(),
            type_spec: spec_of(f.ty, structs),
            dims: dims_of(&f.extents),
            intent: None,
            arg_index: None,
            is_result: false,
            implicit: false,
            span,
            global: global.map(|g| GlobalRef {
                module: g.module.clone(),
                name: name.clone(),
            }),
            pointer: false,
        });
        component_symbols(&name, f.ty, structs, global, span, out);
    }
}

/// The symbol of global `g` of `module` (and those of its members), as every function of
/// the file sees them.
pub(super) fn global_symbols(g: &GlobalVar, module: &str, structs: &Structs) -> Vec<Symbol> {
    // An `extern` global's module is the defining file's, found over the program.
    let module = if g.is_extern { "" } else { module };
    let global = GlobalRef {
        module: module.to_string(),
        name: g.name.clone(),
    };
    let mut out = vec![Symbol {
        name: g.name.clone(),
        kind: if g.is_const {
            il::SymbolKind::Constant
        } else {
            il::SymbolKind::Variable
        },
        ty: g.ty.scalar(),
        type_spec: spec_of(g.ty, structs),
        dims: dims_of(&g.extents),
        intent: None,
        arg_index: None,
        is_result: false,
        implicit: false,
        span: g.span,
        global: Some(global.clone()),
        pointer: false,
    }];
    let mut parts = Vec::new();
    component_symbols(&g.name, g.ty, structs, Some(&global), g.span, &mut parts);
    prepend_dims(&mut parts, &out[0].dims);
    out.extend(parts);
    out
}

/// The pseudo-module of a file: its struct definitions, then its globals (a `static`
/// one is PRIVATE: another translation unit cannot reach it).
pub(super) fn module_unit(
    map: &crate::front::c::PosMap,
    name: &str,
    structs: &Structs,
    used: &BTreeSet<u16>,
    globals: &BTreeMap<String, GlobalVar>,
    span: Span,
) -> il::Unit {
    let mut decls = Vec::new();
    for s in used.iter().map(|&i| &structs[i as usize]) {
        let components = s
            .fields
            .iter()
            .map(|f| Decl {
                kind: DeclKind::Var {
                    spec: spec_of(f.ty, structs),
                    attrs: Vec::new(),
                    entities: vec![Entity {
                        name: f.name.clone(),
                        dims: (!f.extents.is_empty()).then(|| dims_of(&f.extents)),
                        init: None,
                        span,
                    }],
                },
                span,
            })
            .collect();
        decls.push(Decl {
            kind: DeclKind::TypeDef {
                bindings: Vec::new(),
                name: s.name.clone(),
                components,
                header: map.header_of(s.at).map(str::to_string),
            },
            span,
        });
    }
    let mut ordered: Vec<&GlobalVar> = globals.values().filter(|g| !g.is_extern).collect();
    ordered.sort_by_key(|g| g.span.lo);
    let mut symbols = SymbolTable::default();
    for g in ordered {
        let mut attrs = Vec::new();
        if g.is_const {
            attrs.push(Attr::Parameter);
        }
        if g.is_static {
            attrs.push(Attr::Private);
        }
        decls.push(Decl {
            kind: DeclKind::Var {
                spec: spec_of(g.ty, structs),
                attrs,
                entities: vec![Entity {
                    name: g.name.clone(),
                    dims: (!g.extents.is_empty()).then(|| dims_of(&g.extents)),
                    init: g.init.clone(),
                    span: g.span,
                }],
            },
            span: g.span,
        });
        for s in global_symbols(g, name, structs) {
            symbols.insert(s);
        }
    }
    il::Unit {
        kind: il::UnitKind::Module,
        name: name.to_string(),
        args: Vec::new(),
        result: None,
        explicit_result: false,
        prefix_type: None,
        leading_comments: Vec::new(),
        decls,
        body: Vec::new(),
        symbols,
        span,
        host: None,
        bind: None,
        recursive: false,
        source_calls: Default::default(),
        deferred: Vec::new(),
        deferred_entities: Vec::new(),
        followed_pointers: Vec::new(),
        internal_of: None,
        elemental: false,
        specialization: None,
        external: false,
    }
}

/// Reads the file-scope variable declaration `d` into `globals`; `Err` after a
/// diagnostic.
pub(super) fn global_declaration(
    d: &Node<Declaration>,
    map: &PosMap,
    typedefs: &Typedefs,
    globals: &mut BTreeMap<String, GlobalVar>,
    diags: &mut Vec<Diagnostic>,
) {
    let err = |diags: &mut Vec<Diagnostic>, code: &'static str, msg: String, at: CSpan| {
        diags.push(Diagnostic::error(code, msg).at(map.span(at)));
    };
    let mut is_static = false;
    let mut is_extern = false;
    for s in &d.node.specifiers {
        match &s.node {
            DeclarationSpecifier::StorageClass(sc) => match sc.node {
                StorageClassSpecifier::Static => is_static = true,
                StorageClassSpecifier::Extern => {
                    if d.node
                        .declarators
                        .iter()
                        .any(|i| i.node.initializer.is_some())
                    {
                        diags.push(
                            Diagnostic::error(
                                "E0611",
                                "an `extern` declaration with an initializer is not supported",
                            )
                            .at(map.span(sc.span))
                            .with_help("drop `extern` from the definition"),
                        );
                        return;
                    }
                    is_extern = true;
                }
                _ => {
                    err(
                        diags,
                        "E0610",
                        "this storage class at file scope is not supported yet".into(),
                        sc.span,
                    );
                    return;
                }
            },
            DeclarationSpecifier::TypeQualifier(q) if q.node != TypeQualifier::Const => {
                err(
                    diags,
                    "E0610",
                    "this type qualifier on a global variable is not supported yet".into(),
                    q.span,
                );
                return;
            }
            DeclarationSpecifier::Function(_) | DeclarationSpecifier::Alignment(_) => {
                err(
                    diags,
                    "E0610",
                    "this global declaration is not supported yet".into(),
                    d.span,
                );
                return;
            }
            _ => {}
        }
    }
    let ty = match decl_type(&d.node.specifiers, typedefs) {
        Ok(Ty::Void | Ty::Bool) => {
            err(
                diags,
                "E0610",
                "a `void` global is not supported".into(),
                d.span,
            );
            return;
        }
        Ok(t) => t,
        Err(w) => {
            err(
                diags,
                "E0610",
                format!("a global variable of {w} is not supported yet"),
                d.span,
            );
            return;
        }
    };
    let constant = is_const(&d.node.specifiers);
    if constant
        && (matches!(ty, Ty::Struct(_))
            || d.node
                .declarators
                .iter()
                .any(|i| i.node.initializer.is_none()))
    {
        err(
            diags,
            "E0610",
            "a `const` global needs a literal initializer, and cannot be a struct yet".into(),
            d.span,
        );
        return;
    }
    let typedef_ext = typedef_extents(&d.node.specifiers, typedefs);
    for init in &d.node.declarators {
        let decl = &init.node.declarator;
        let Some(name) = declarator_name(&decl.node) else {
            err(
                diags,
                "E0610",
                "this global declarator is not supported yet".into(),
                decl.span,
            );
            continue;
        };
        let name = name.node.il();
        let mut extents = Vec::new();
        let mut ok = true;
        for dd in &decl.node.derived {
            match &dd.node {
                DerivedDeclarator::Array(a) => match &a.node.size {
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        match const_int(&e.node) {
                            Some(n) if n > 0 => extents.push(n),
                            _ => {
                                err(
                                    diags,
                                    "E0610",
                                    "a global array whose size is not a positive integer \
                                     constant is not supported yet"
                                        .into(),
                                    e.span,
                                );
                                ok = false;
                            }
                        }
                    }
                    _ => {
                        err(
                            diags,
                            "E0610",
                            "a global array without a size is not supported yet".into(),
                            dd.span,
                        );
                        ok = false;
                    }
                },
                _ => {
                    err(
                        diags,
                        "E0610",
                        format!("the global pointer `{name}` is not supported yet"),
                        dd.span,
                    );
                    ok = false;
                }
            }
        }
        if !ok {
            continue;
        }
        extents.extend(typedef_ext.iter().copied());
        if extents.len() > 2 {
            err(
                diags,
                "E0610",
                "a global array of more than 2 dimensions is not supported yet".into(),
                decl.span,
            );
            continue;
        }
        let span = map.span(init.span);
        let mut value = None;
        if let Some(i) = &init.node.initializer {
            let lit = match (&i.node, extents.len(), ty) {
                (Initializer::Expression(e), 0, Ty::Int(_) | Ty::Real(_)) => literal(&e.node, span),
                // A struct's: positional literals, nested braces for its arrays and
                // structs (printed back as written; the analyses never read initial
                // values).
                (Initializer::List(items), 0, Ty::Struct(_)) => literal_list(items, span),
                (Initializer::List(items), 1, Ty::Int(_) | Ty::Real(_))
                    if items.len() as i64 <= extents[0] =>
                {
                    items
                        .iter()
                        .map(|item| match &item.node.initializer.node {
                            Initializer::Expression(e) if item.node.designation.is_empty() => {
                                literal(&e.node, span)
                            }
                            _ => None,
                        })
                        .collect::<Option<Vec<Expr>>>()
                        .map(|v| Expr::new(ExprKind::ArrayCtor(v)).spanned(span))
                }
                _ => None,
            };
            match lit {
                Some(v) => value = Some(v),
                None => {
                    diags.push(
                        Diagnostic::error(
                            "E0615",
                            format!("the initializer of the global `{name}` is not supported yet"),
                        )
                        .at(map.span(i.span))
                        .with_help(
                            "initialize scalars and 1-D arrays with literals, or assign the \
                             values in an initialization function",
                        ),
                    );
                    continue;
                }
            }
        }
        // `extern double g;` (a header) and the definition `double g;` are one global.
        if let Some(prev) = globals.get(crate::il::key_ref(&name).as_ref()) {
            let same = prev.name == name && prev.ty == ty && prev.extents == extents;
            if same && (is_extern || prev.is_extern) {
                if !is_extern {
                    globals.remove(&key(&name));
                } else {
                    continue;
                }
            }
        }
        if let Some(prev) = globals.get(crate::il::key_ref(&name).as_ref()) {
            if prev.name != name {
                diags.push(
                    Diagnostic::error(
                        "E0608",
                        format!(
                            "`{name}` and `{}` differ only by case: adgen's IL does not tell \
                             them apart",
                            prev.name
                        ),
                    )
                    .at(span),
                );
            } else {
                diags.push(
                    Diagnostic::error(
                        "E0610",
                        format!("the global `{name}` is declared twice: not supported yet"),
                    )
                    .at(span),
                );
            }
            continue;
        }
        globals.insert(
            key(&name),
            GlobalVar {
                name,
                ty,
                extents,
                is_static,
                is_const: constant,
                init: value,
                span,
                is_extern,
            },
        );
    }
}

impl FnCx<'_, '_> {
    /// The global variables of the file, as variables of the function being lowered.
    pub(super) fn see_globals(&mut self) {
        for g in self.globals.values() {
            if self.shadowed.contains(crate::il::key_ref(&g.name).as_ref()) {
                continue;
            }
            let kind = if g.extents.is_empty() {
                VarKind::Local
            } else {
                VarKind::LocalArray(g.extents.clone())
            };
            self.vars.insert(
                key(&g.name),
                Var {
                    name: g.name.clone(),
                    ty: g.ty,
                    kind,
                },
            );
        }
    }

    /// The symbols of the globals, once the function's own are known.
    pub(super) fn global_symbols(&mut self) {
        for g in self.globals.values() {
            // A name the function made for itself (its result variable) when it does not
            // use the global: the function does not see the global.
            if self.shadowed.contains(crate::il::key_ref(&g.name).as_ref())
                || self.symbols.contains(&g.name)
            {
                continue;
            }
            for s in global_symbols(g, self.module, self.structs) {
                self.symbols.insert(s);
            }
        }
    }
}

/// Adds to `out` the struct types the members of struct `i` use, at every depth.
pub(super) fn struct_closure(i: u16, structs: &Structs, out: &mut BTreeSet<u16>) {
    for f in &structs[i as usize].fields {
        if let Ty::Struct(j) = f.ty {
            if out.insert(j) {
                struct_closure(j, structs, out);
            }
        }
    }
}

/// `struct point { ... };`: a declaration that only defines a struct (or union) type.
pub(super) fn is_struct_definition(d: &Declaration) -> bool {
    d.declarators.is_empty()
        && d.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                if matches!(&t.node, TypeSpecifier::Struct(_)))
        })
}

/// E0616: a global (or one of its members) passed by reference to a function that also
/// uses that global directly, or through the functions it calls: the two names would
/// alias one storage, which the analyses do not see. Only functions of the same file can
/// see its globals (`extern` is refused), so the file's call graph tells.
pub(super) fn check_global_aliasing(
    units: &[il::Unit],
    globals: &BTreeMap<String, GlobalVar>,
    diags: &mut Vec<Diagnostic>,
) {
    if globals.is_empty() {
        return;
    }
    let by_name: BTreeMap<String, &il::Unit> = units.iter().map(|u| (key(&u.name), u)).collect();
    // Globals each function uses directly, then through its callees.
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut calls: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for u in units {
        let mut direct = BTreeSet::new();
        for name in crate::il::visit::referenced_names(&u.body) {
            let base = name.split('%').next().unwrap_or(&name).to_string();
            if globals.contains_key(&base)
                && u.symbols.get(&base).is_some_and(|s| s.global.is_some())
            {
                direct.insert(base);
            }
        }
        uses.insert(key(&u.name), direct);
        calls.insert(
            key(&u.name),
            crate::il::visit::called_names(u)
                .iter()
                .map(|c| key(c))
                .collect(),
        );
    }
    loop {
        let mut changed = false;
        for (f, callees) in &calls {
            let mut more = BTreeSet::new();
            for c in callees {
                if let Some(cu) = uses.get(c) {
                    more.extend(cu.iter().cloned());
                }
            }
            let mine = uses.get_mut(f).expect("every function has a use set");
            let before = mine.len();
            mine.extend(more);
            changed |= mine.len() != before;
        }
        if !changed {
            break;
        }
    }
    for u in units {
        let mut check = |callee: &str, args: &[il::Arg]| {
            let Some(cu) = by_name.get(crate::il::key_ref(callee).as_ref()) else {
                return;
            };
            for (k, a) in args.iter().enumerate() {
                let Some(n) = a.value.base_name() else {
                    continue;
                };
                let base = n.split('%').next().unwrap_or(n);
                let is_global = u.symbols.get(base).is_some_and(|s| s.global.is_some());
                // A value passed by value is a copy.
                let by_value = cu.args.get(k).is_some_and(|p| {
                    cu.decls.iter().any(|d| {
                        matches!(&d.kind, DeclKind::Var { attrs, entities, .. }
                            if attrs.iter().any(|a| matches!(a, Attr::Value))
                                && entities.iter().any(|e| e.name == *p))
                    })
                });
                if by_value {
                    continue;
                }
                if is_global && uses[&key(callee)].contains(crate::il::key_ref(base).as_ref()) {
                    diags.push(
                        Diagnostic::error(
                            "E0616",
                            format!(
                                "the global `{base}` is passed to `{callee}`, which also uses \
                                 it directly: aliasing is not supported"
                            ),
                        )
                        .at(a.value.span)
                        .with_help(format!(
                            "let `{callee}` use the global directly, or pass a local copy"
                        )),
                    );
                }
            }
        };
        il::visit::walk_stmts(&u.body, &mut |s| {
            if let StmtKind::Call { name, args } = &s.kind {
                check(name, args);
            }
            for e in il::visit::stmt_exprs(s) {
                il::visit::walk_expr(e, &mut |x| {
                    if let ExprKind::Call(n, args) = &x.kind {
                        check(n, args);
                    }
                });
            }
        });
    }
}

impl FnCx<'_, '_> {}
