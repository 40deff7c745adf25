//! Lowering of a function definition: its signature, parameters, local scopes and the
//! block structure of its body.

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};
use lang_c::visit::Visit;

use super::*;
use crate::il::{
    self, Attr, BinOp, Bound, Decl, DeclKind, DimSpec, Entity, Expr, Intent, StmtKind, Symbol,
    SymbolKind, key,
};

impl FnCx<'_, '_> {
    pub(super) fn function(&mut self, fd: &Node<FunctionDefinition>) -> R<il::Unit> {
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

    pub(super) fn function_inner(
        &mut self,
        fd: &Node<FunctionDefinition>,
        leading_comments: Vec<String>,
    ) -> R<il::Unit> {
        let f = &fd.node;
        let unit_span = self.span(fd.span);
        let name_node = declarator_name(&f.declarator.node)
            .ok_or_else(|| self.unsupported("E0603", "this function declarator", fd.span))?;
        let name = name_node.node.il();
        self.own_name = name.clone();
        let no_parameters = FunctionDeclarator {
            parameters: Vec::new(),
            ellipsis: Ellipsis::None,
        };
        let params = match f.declarator.node.derived.as_slice() {
            [
                Node {
                    node: DerivedDeclarator::Function(p),
                    ..
                },
            ] => &p.node,
            // `double r8_epsilon ( ) { ... }`: a definition with no parameters.
            [
                Node {
                    node: DerivedDeclarator::KRFunction(ids),
                    ..
                },
            ] if ids.is_empty() && f.declarations.is_empty() => &no_parameters,
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
        self.shadowed = shadowing_names(f, params);
        self.targets = pointer_targets(&f.statement.node);
        self.see_globals();
        let mut indexed = Indexed::default();
        indexed.visit_statement(&f.statement.node, &f.statement.span);
        let mut assigned = Assigned::default();
        assigned.visit_statement(&f.statement.node, &f.statement.span);
        let mut direct = DirectTargets::default();
        direct.visit_statement(&f.statement.node, &f.statement.span);
        self.idents = indexed.idents.clone();
        self.passes = indexed.passes.clone();
        self.in_arguments = offset_arguments(&f.statement);
        let mut heap_targets = heap::HeapTargets::default();
        heap_targets.visit_statement(&f.statement.node, &f.statement.span);
        self.heap.names = heap_targets.names;
        self.heap.realloced = heap_targets.realloced;
        self.heap.sizes.clear();
        self.heap.assigned = assigned.names.clone();

        // Parameters.
        let mut args = Vec::new();
        let mut ok = true;
        let mut copies = Vec::new();
        let mut moving = Vec::new();
        let mut struct_values = BTreeSet::new();
        let mut struct_writes = StructWrites::default();
        struct_writes.visit_statement(&f.statement.node, &f.statement.span);
        let mut null_tests = NullTests::default();
        null_tests.visit_statement(&f.statement.node, &f.statement.span);
        self.optional.clear();
        for p in &params.parameters {
            let Some(d) = &p.node.declarator else {
                if decl_type(&p.node.specifiers, self.typedefs) == Ok(Ty::Void) {
                    continue;
                }
                self.unsupported("E0603", "a parameter without a name", p.span);
                ok = false;
                continue;
            };
            // `double (*a)[N]`: a pointer to rows, named inside the parentheses.
            let pointer_to_rows = rows_pointer_name(&d.node);
            let Some(pname) = declarator_name(&d.node)
                .map(|n| n.node.il())
                .or(pointer_to_rows.clone())
            else {
                self.unsupported(
                    "E0603",
                    "this parameter declarator (pointers to pointers and arrays of pointers \
                     are not supported)",
                    p.span,
                );
                ok = false;
                continue;
            };
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
            // Rows of N elements: `(*a)[N]`, `a[][N]`, `a[M][N]`, `vec3 *a`, `vec3 a[]`.
            let row_length = match (d.node.derived.as_slice(), typedef_ext.as_slice()) {
                (
                    [
                        Node {
                            node: DerivedDeclarator::Array(n),
                            ..
                        },
                    ],
                    [],
                ) if pointer_to_rows.is_some() => Some(&n.node.size),
                (
                    [
                        Node {
                            node: DerivedDeclarator::Array(_),
                            ..
                        },
                        Node {
                            node: DerivedDeclarator::Array(n),
                            ..
                        },
                    ],
                    [],
                ) => Some(&n.node.size),
                (
                    [
                        Node {
                            node: DerivedDeclarator::Array(_) | DerivedDeclarator::Pointer(_),
                            ..
                        },
                    ],
                    [_],
                ) => None,
                _ => None,
            };
            let typedef_rows = matches!(
                (d.node.derived.as_slice(), typedef_ext.as_slice()),
                (
                    [Node {
                        node: DerivedDeclarator::Array(_) | DerivedDeclarator::Pointer(_),
                        ..
                    }],
                    [_]
                )
            );
            let rows = match row_length {
                Some(ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e)) => {
                    match const_int_in(&e.node, self.enums) {
                        Some(n) if n > 0 => Some(n),
                        _ => {
                            self.unsupported(
                                "E0603",
                                "a row length that is not a positive integer constant",
                                e.span,
                            );
                            ok = false;
                            continue;
                        }
                    }
                }
                Some(_) => {
                    self.unsupported("E0603", "an array parameter without a row length", p.span);
                    ok = false;
                    continue;
                }
                None if typedef_rows => Some(typedef_ext[0]),
                None => None,
            };
            let kind = match d.node.derived.as_slice() {
                [
                    Node {
                        node: DerivedDeclarator::Pointer(_),
                        ..
                    },
                ] if matches!(ty, Ty::Struct(_)) => {
                    // Indexed (`p[i].x`, `(p + i)->x`), or passed on to a parameter
                    // that is: an array of structs.
                    let passed_as_array = self
                        .arrays
                        .get(&name)
                        .and_then(|m| m.get(&pname))
                        .copied()
                        .unwrap_or(false);
                    if indexed.names.contains(&pname) || passed_as_array {
                        VarKind::ArrayParam
                    } else {
                        VarKind::StructPtr
                    }
                }
                // A struct passed by value: a struct variable of the function, VALUE in
                // the IL (seeds/003: its tangent goes by value too, its adjoint by
                // reference).
                [] if matches!(ty, Ty::Struct(_)) && typedef_ext.is_empty() => {
                    struct_values.insert(key(&pname));
                    VarKind::Local
                }
                [
                    Node {
                        node: DerivedDeclarator::Array(_),
                        ..
                    },
                ] if matches!(ty, Ty::Struct(_)) && typedef_ext.is_empty() => VarKind::ArrayParam,
                _ if matches!(ty, Ty::Struct(_)) => {
                    self.unsupported(
                        "E0612",
                        &format!("the parameter `{pname}`, an array of structs,"),
                        p.span,
                    );
                    ok = false;
                    continue;
                }
                _ if rows.is_some() => VarKind::RowsParam(rows.expect("checked")),
                _ if pointer_to_rows.is_some() => {
                    self.unsupported("E0603", "this pointer parameter", p.span);
                    ok = false;
                    continue;
                }
                [
                    Node {
                        node: DerivedDeclarator::Pointer(_),
                        ..
                    },
                    Node {
                        node: DerivedDeclarator::Pointer(_),
                        ..
                    },
                ] if typedef_ext.is_empty() && matches!(ty, Ty::Real(_) | Ty::Int(_)) => {
                    VarKind::RowPtrs
                }
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
            let by_value = kind == VarKind::Value
                || struct_values.contains(crate::il::key_ref(&pname).as_ref());
            if (kind == VarKind::Value && assigned.names.contains(&pname))
                || (struct_values.contains(crate::il::key_ref(&pname).as_ref())
                    && struct_writes.names.contains(&pname))
            {
                let mut copy = format!("{pname}_copy");
                let mut n = 0;
                while indexed.idents.contains(crate::il::key_ref(&copy).as_ref())
                    || self.vars.contains_key(crate::il::key_ref(&copy).as_ref())
                    || self.protos.contains_key(&copy)
                {
                    copy = format!("{pname}_copy{n}");
                    n += 1;
                }
                copies.push((pname.clone(), copy, ty, p.span));
            }
            let constant = is_const(&p.node.specifiers);
            let intent = match kind {
                _ if by_value => Some(Intent::In),
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
            if by_value {
                attrs.push(Attr::Value);
            }
            if kind == VarKind::RowPtrs {
                attrs.push(Attr::RowPointers);
            }
            // A pointer parameter tested against NULL: an OPTIONAL dummy, its tests
            // PRESENT (see `null_test`).
            let pointer = matches!(
                kind,
                VarKind::RefScalar | VarKind::ArrayParam | VarKind::RowsParam(_) | VarKind::RowPtrs
            );
            if pointer && null_tests.names.contains(&pname) {
                attrs.push(Attr::Optional);
                self.optional.insert(key(&pname));
                if direct.names.contains(&pname) {
                    self.unsupported(
                        "E0640",
                        &format!(
                            "the pointer parameter `{pname}` is both tested against NULL and \
                             moved (`{pname}++`, `{pname} += n`)"
                        ),
                        p.span,
                    );
                    ok = false;
                    continue;
                }
            }
            // `double x[n]` (n an earlier int parameter) and `double x[N]` give the array
            // its extent; `double *x` and `double x[]` are assumed-size.
            let upper = match d.node.derived.first().map(|dd| &dd.node) {
                _ if pointer_to_rows.is_some() => Bound::Star,
                None if typedef_ext.len() == 1 => Bound::Expr(int_lit(typedef_ext[0] - 1)),
                Some(DerivedDeclarator::Array(a)) => match &a.node.size {
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        match (&e.node, const_int_in(&e.node, self.enums)) {
                            (_, Some(c)) if c > 0 => Bound::Expr(int_lit(c - 1)),
                            (Expression::Identifier(id), _)
                                if matches!(
                                    self.vars.get(crate::il::key_ref(&id.node.il()).as_ref()),
                                    Some(Var {
                                        ty: Ty::Int(_),
                                        kind: VarKind::Value,
                                        ..
                                    })
                                ) =>
                            {
                                Bound::Expr(Expr::binary(
                                    BinOp::Sub,
                                    Expr::var(id.node.il()),
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
            let dims = match kind {
                VarKind::ArrayParam => Some(vec![DimSpec {
                    lower: Some(int_lit(0)),
                    upper,
                }]),
                // Column-major: the position in the row varies fastest.
                VarKind::RowsParam(n) => Some(vec![
                    DimSpec {
                        lower: Some(int_lit(0)),
                        upper: Bound::Expr(int_lit(n - 1)),
                    },
                    DimSpec {
                        lower: Some(int_lit(0)),
                        upper,
                    },
                ]),
                // Rows of their own memory: no extent is known, not even the rows'.
                VarKind::RowPtrs => Some(vec![
                    DimSpec {
                        lower: Some(int_lit(0)),
                        upper: Bound::Star,
                    },
                    DimSpec {
                        lower: Some(int_lit(0)),
                        upper: Bound::Star,
                    },
                ]),
                _ => None,
            };
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
            // A struct is copied member by member.
            let mut typed_leaves = Vec::new();
            self.struct_leaves(ty, String::new(), &mut typed_leaves);
            let mut leaves: Vec<String> = typed_leaves.into_iter().map(|(p, _)| p).collect();
            if leaves.is_empty() {
                leaves.push(String::new());
            }
            for (i, leaf) in leaves.iter().enumerate() {
                let mut st = self.stmt(
                    StmtKind::Assign {
                        lhs: Expr::var(format!("{copy}{leaf}")),
                        rhs: Expr::var(format!("{pname}{leaf}")),
                    },
                    at,
                );
                if i == 0 {
                    st.trailing_comment = Some(
                        format!(
                            " the by-value parameter `{pname}` is assigned below: work on a copy"
                        )
                        .into(),
                    );
                }
                body.push(st);
            }
        }
        for (pname, at) in moving {
            let off = self.offset_var(&pname, at);
            self.pointers.insert(
                key(&pname),
                PtrVar {
                    off: off.clone(),
                    base: Some(pname.clone()),
                    row: None,
                    switch: None,
                },
            );
            let mut st = self.stmt(
                StmtKind::Assign {
                    lhs: Expr::var(&off),
                    rhs: int_lit(0),
                },
                at,
            );
            st.trailing_comment = Some(format!(" `{pname}` moves: `{off}` is its offset").into());
            body.push(st);
        }
        // The result variable.
        let kind = if ret == Ty::Void {
            il::UnitKind::Subroutine
        } else {
            let mut rname = "result".to_string();
            let mut n = 0;
            while indexed.idents.contains(crate::il::key_ref(&rname).as_ref())
                || key(&rname) == key(&name)
            {
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
        self.global_symbols();
        self.check_heap(&body)?;
        // Left in `called` for the caller (`prototypes::declare_external`).
        for callee in &self.called {
            let ty = self.protos.get(callee).map(|p| p.ret).unwrap_or(Ty::Void);
            self.symbols.insert(Symbol {
                name: callee.clone(),
                kind: SymbolKind::Procedure,
                ty: ty.scalar(),
                type_spec: match ty {
                    Ty::Struct(_) => spec_of(ty, self.structs),
                    _ => real_spec(ty),
                },
                dims: Vec::new(),
                intent: None,
                arg_index: None,
                is_result: false,
                implicit: false,
                span: unit_span,
                global: None,
                pointer: false,
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
            source_calls: Default::default(),
            deferred: Vec::new(),
            deferred_entities: Vec::new(),
            followed_pointers: Vec::new(),
            internal_of: None,
            elemental: false,
            specialization: None,
            external: false,
        })
    }

    /// Declares a variable in the current scope.
    pub(super) fn declare(&mut self, name: &str, ty: Ty, kind: VarKind, at: CSpan) -> R<bool> {
        let k = key(name);
        if let Some(g) = self.globals.get(&k).filter(|_| !self.shadowed.contains(&k)) {
            let g = g.name.clone();
            return Err(self.err(
                "E0608",
                format!(
                    "`{name}` shadows the global variable `{g}` in a nested block: not \
                     supported yet"
                ),
                at,
            ));
        }
        if let Some(prev) = self.vars.get(&k) {
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
        // A local named as its own function hides it (the function cannot call itself
        // then); any other function's name is refused.
        if self.protos.contains_key(name) && name != self.own_name {
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
    pub(super) fn push_decl(
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
        let mut parts = Vec::new();
        if let Ty::Struct(i) = ty {
            self.used_structs.insert(i);
            component_symbols(name, ty, self.structs, None, span, &mut parts);
            prepend_dims(&mut parts, dims.as_deref().unwrap_or_default());
        }
        self.decls.push(Decl {
            kind: DeclKind::Var {
                spec: spec_of(ty, self.structs),
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
            type_spec: spec_of(ty, self.structs),
            dims: dims.unwrap_or_default(),
            intent,
            arg_index,
            is_result,
            implicit: false,
            span,
            global: None,
            pointer: false,
        });
        for p in parts {
            self.symbols.insert(p);
        }
    }

    /// Is `name` (with this spelling) a variable of the function?
    pub(super) fn is_variable(&self, name: &str) -> bool {
        self.vars
            .get(crate::il::key_ref(name).as_ref())
            .is_some_and(|v| v.name == name)
    }

    pub(super) fn var(&mut self, name: &str, at: CSpan) -> R<Var> {
        if let Some(copy) = self.copies.get(crate::il::key_ref(name).as_ref()) {
            if self
                .vars
                .get(crate::il::key_ref(name).as_ref())
                .is_some_and(|v| v.name == name)
            {
                return Ok(self.vars[&key(copy)].clone());
            }
        }
        match self.vars.get(crate::il::key_ref(name).as_ref()) {
            Some(v) if v.name == name => Ok(v.clone()),
            _ => {
                // A global adgen refused: why, rather than "not a variable".
                let k = key(name);
                if let Some(refusals) = self
                    .refused_globals
                    .get(&k)
                    .filter(|_| !self.shadowed.contains(&k))
                {
                    self.diags.extend(refusals.iter().cloned());
                    return Err(Reported);
                }
                // A local whose declaration was refused: said there.
                if self.refused_locals.contains(&k) {
                    return Err(Reported);
                }
                Err(self.err(
                    "E0606",
                    format!("`{name}` is not a variable of this function"),
                    at,
                ))
            }
        }
    }
}

/// Keys of the names a function's parameters and the declarations of its outermost block
/// give: they shadow globals of the same name for the whole rest of the function.
fn shadowing_names(f: &FunctionDefinition, params: &FunctionDeclarator) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for p in &params.parameters {
        if let Some(n) = p
            .node
            .declarator
            .as_ref()
            .and_then(|d| declarator_name(&d.node))
        {
            out.insert(key(&n.node.il()));
        }
    }
    if let Statement::Compound(items) = &f.statement.node {
        for item in items {
            if let BlockItem::Declaration(d) = &item.node {
                for i in &d.node.declarators {
                    if let Some(n) = declarator_name(&i.node.declarator.node) {
                        out.insert(key(&n.node.il()));
                    }
                }
            }
        }
    }
    out
}

/// The name of `(*a)[N]`: a declarator in parentheses that is one pointer, followed by
/// one array (pointers to pointers and arrays of pointers have none).
pub(super) fn rows_pointer_name(d: &Declarator) -> Option<String> {
    let DeclaratorKind::Declarator(inner) = &d.kind.node else {
        return None;
    };
    let DeclaratorKind::Identifier(id) = &inner.node.kind.node else {
        return None;
    };
    let one_pointer = matches!(
        inner.node.derived.as_slice(),
        [Node {
            node: DerivedDeclarator::Pointer(_),
            ..
        }]
    );
    let one_array = matches!(
        d.derived.as_slice(),
        [Node {
            node: DerivedDeclarator::Array(_),
            ..
        }]
    );
    (one_pointer && one_array).then(|| id.node.il())
}

/// Names of by-value struct parameters the body may change: the root of an assigned or
/// incremented member (`s.x = 1`, `s.v[k] -= d`), of an address taken (`&s`, `&s.x`), or
/// of a member passed to a function (an array member is passed as a pointer). Such a
/// parameter gets a local copy, as an assigned by-value scalar does.
#[derive(Default)]
struct StructWrites {
    names: BTreeSet<String>,
}

/// The variable at the root of a member, element or dereference (`s.v[k]` → `s`).
fn struct_root(e: &Expression) -> Option<String> {
    match e {
        Expression::Identifier(id) => Some(id.node.il()),
        Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            struct_root(&m.node.expression.node)
        }
        Expression::BinaryOperator(b)
            if matches!(
                b.node.operator.node,
                BinaryOperator::Index | BinaryOperator::Plus | BinaryOperator::Minus
            ) =>
        {
            struct_root(&b.node.lhs.node)
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
            struct_root(&u.node.operand.node)
        }
        _ => None,
    }
}

impl<'ast> Visit<'ast> for StructWrites {
    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        if let Some(n) = assign_target(b).and_then(struct_root) {
            self.names.insert(n.to_string());
        }
        lang_c::visit::visit_binary_operator_expression(self, b, span);
    }
    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast UnaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        if let Some(n) = unary_target(u).and_then(struct_root) {
            self.names.insert(n.to_string());
        }
        lang_c::visit::visit_unary_operator_expression(self, u, span);
    }
    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast CSpan) {
        for a in &c.arguments {
            let decays = match &a.node {
                Expression::Member(_) => true,
                Expression::BinaryOperator(b) => {
                    matches!(
                        b.node.operator.node,
                        BinaryOperator::Plus | BinaryOperator::Minus
                    )
                }
                _ => false,
            };
            if decays {
                if let Some(n) = struct_root(&a.node) {
                    self.names.insert(n.to_string());
                }
            }
        }
        lang_c::visit::visit_call_expression(self, c, span);
    }
}

/// Names tested against NULL in a function body: `p == NULL`, `p != NULL` (either order),
/// `!p`, and `p` alone as a condition (`if (p)`, `p && ...`, `p ? a : b`).
#[derive(Default)]
struct NullTests {
    names: BTreeSet<String>,
}

impl NullTests {
    fn condition(&mut self, e: &Expression) {
        if let Expression::Identifier(id) = e {
            self.names.insert(id.node.il());
        }
    }
}

impl<'ast> Visit<'ast> for NullTests {
    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        use BinaryOperator::*;
        match b.operator.node {
            Equals | NotEquals => {
                if heap::is_null_pointer(&b.rhs.node) {
                    self.condition(&b.lhs.node);
                } else if heap::is_null_pointer(&b.lhs.node) {
                    self.condition(&b.rhs.node);
                }
            }
            LogicalAnd | LogicalOr => {
                self.condition(&b.lhs.node);
                self.condition(&b.rhs.node);
            }
            _ => {}
        }
        lang_c::visit::visit_binary_operator_expression(self, b, span);
    }
    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast UnaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        if u.operator.node == UnaryOperator::Negate {
            self.condition(&u.operand.node);
        }
        lang_c::visit::visit_unary_operator_expression(self, u, span);
    }
    fn visit_if_statement(&mut self, s: &'ast IfStatement, span: &'ast CSpan) {
        self.condition(&s.condition.node);
        lang_c::visit::visit_if_statement(self, s, span);
    }
    fn visit_conditional_expression(&mut self, c: &'ast ConditionalExpression, span: &'ast CSpan) {
        self.condition(&c.condition.node);
        lang_c::visit::visit_conditional_expression(self, c, span);
    }
}
