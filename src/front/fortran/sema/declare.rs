//! Pass 1 over the declarations: what each declaration statement says of its names (type,
//! dimensions, INTENT, PARAMETER values, attributes), derived-type definitions and the
//! component symbols of derived-type variables, with the conflicts refused.

use super::*;

impl Sema<'_> {
    /// The procedures that interface bodies declare: external, typed by their results.
    fn declare_bodies(&mut self, bodies: &[Unit], span: Span) {
        for body in bodies {
            let i = self.get_or_create(&body.name, span);
            if self.infos[i].external {
                self.duplicate(&body.name, "interface", span);
            }
            self.infos[i].external = true;
            let result = body.result.as_ref().and_then(|r| body.symbols.get(r));
            if let Some(r) = result {
                self.infos[i].spec = Some(r.type_spec.clone());
                self.infos[i].ty = Some(r.ty);
            }
            self.declare_interface(body);
        }
    }

    /// An interface that `PROCEDURE(name)` declarations may name, with its result's
    /// type: as declared in the body, its kind evaluated here (where an IMPORTed `dp`
    /// is known), else as the body's own analysis found it (a kind from its own USE).
    fn declare_interface(&mut self, body: &Unit) {
        let result = body.result.as_deref().filter(|_| body.is_function());
        let declared = result.and_then(|r| {
            body.decls.iter().find_map(|d| match &d.kind {
                DeclKind::Var { spec, entities, .. }
                    if entities.iter().any(|e| key(&e.name) == key(r)) =>
                {
                    Some(spec.clone())
                }
                _ => None,
            })
        });
        let spec = body.prefix_type.clone().or(declared);
        let here = spec.and_then(|spec| {
            let before = self.diags.len();
            let ty = self.type_of_spec(&spec, body.span);
            let known = self.diags.len() == before;
            self.diags.truncate(before);
            known.then_some((spec, ty))
        });
        let typed = here.or_else(|| {
            result
                .and_then(|r| body.symbols.get(r))
                .map(|r| (r.type_spec.clone(), r.ty))
        });
        self.interfaces.insert(key(&body.name), typed);
    }

    /// `PROCEDURE(iface) :: f, g`: external procedures typed by the interface's result
    /// (an abstract interface, an interface body, or a procedure with that name).
    fn declare_procedures_with(
        &mut self,
        interface: &str,
        attrs: &[Attr],
        names: &[String],
        span: Span,
    ) {
        let typed = match self.interfaces.get(crate::il::key_ref(interface).as_ref()) {
            Some(result) => Some(result.clone()),
            None => self.lookup(interface).and_then(|i| {
                let info = &self.infos[i];
                info.external.then(|| info.spec.clone().zip(info.ty))
            }),
        };
        let Some(result) = typed else {
            self.error(
                "E0301",
                format!("the interface `{interface}` is not declared"),
                span,
            )
            .help = Some(format!(
                "declare it in an ABSTRACT INTERFACE block (or an INTERFACE block) before `procedure({interface})`"
            ));
            // Still procedures, whose missing type is this error's consequence.
            for name in names {
                let i = self.get_or_create(name, span);
                self.infos[i].external = true;
                self.reported.insert(key(name));
            }
            return;
        };
        for name in names {
            let i = self.get_or_create(name, span);
            if self.infos[i].external {
                self.duplicate(name, "PROCEDURE", span);
            }
            self.infos[i].external = true;
            if let Some((spec, ty)) = &result {
                self.infos[i].spec = Some(spec.clone());
                self.infos[i].ty = Some(*ty);
            }
            for attr in attrs {
                if let Attr::Intent(intent) = attr {
                    self.infos[i].intent = Some(*intent);
                }
            }
        }
    }

    /// Pass 1: what one declaration says about its names.
    pub(super) fn declare(&mut self, kind: &DeclKind, span: Span) {
        match kind {
            DeclKind::Var {
                spec,
                attrs,
                entities,
            } => {
                let ty = self.type_of_spec(spec, span);
                let mut attr_dims = None;
                let mut intent = None;
                let mut parameter = false;
                let mut external = false;
                // POINTER with ALLOCATABLE: an owning pointer array, read as ALLOCATABLE
                // (`pointers::allocatable`).
                let owner = attrs.iter().any(|a| matches!(a, Attr::Allocatable));
                for attr in attrs {
                    match attr {
                        Attr::Dimension(d) => attr_dims = Some(d.clone()),
                        Attr::Intent(i) => intent = Some(*i),
                        Attr::Parameter => parameter = true,
                        Attr::External => external = true,
                        Attr::Pointer if owner => {}
                        Attr::Pointer => {
                            // Local aliases are gone, and owning arrays carry
                            // ALLOCATABLE too (`pointers`).
                            self.error(
                                "E0405",
                                "this POINTER is not supported yet: adgen follows local pointers used as aliases, and POINTER arrays of intrinsic type that own their memory (given by ALLOCATE, never the pointer of a `=>`)".to_string(),
                                span,
                            ).help = Some("pass or use the target itself instead of a pointer, or declare the array ALLOCATABLE".to_string());
                        }
                        Attr::Intrinsic
                        | Attr::Save
                        | Attr::Value
                        | Attr::Public
                        | Attr::Private
                        | Attr::Optional
                        | Attr::Target
                        | Attr::RowPointers
                        | Attr::Association(_)
                        | Attr::Allocatable => {}
                    }
                }
                for entity in entities {
                    let i = self.local(&entity.name, entity.span);
                    if self.infos[i].spec.is_some() {
                        self.duplicate(&entity.name, "type", entity.span);
                    } else {
                        self.infos[i].spec = Some(spec.clone());
                        self.infos[i].ty = Some(ty);
                        self.infos[i].span = entity.span;
                    }
                    if let Some(dims) = entity.dims.clone().or_else(|| attr_dims.clone()) {
                        self.set_dims(i, dims, entity.span);
                    }
                    if ty == ScalarType::Derived {
                        self.derived_variable(i, spec, entity.span);
                    }
                    if let Some(intent) = intent {
                        self.set_intent(i, intent, entity.span);
                    }
                    if external {
                        self.infos[i].external = true;
                    }
                    if owner && attrs.iter().any(|a| matches!(a, Attr::Pointer)) {
                        self.infos[i].pointer = true;
                    }
                    if parameter && let Some(init) = &entity.init {
                        self.set_constant(i, init, entity.span);
                    }
                }
            }
            DeclKind::Parameter(list) => {
                for (name, value) in list {
                    let i = self.local(name, span);
                    self.set_constant(i, value, span);
                }
            }
            DeclKind::Dimension(entities) => {
                for entity in entities {
                    let i = self.local(&entity.name, entity.span);
                    if self.infos[i].ty == Some(ScalarType::Derived) {
                        // Its components were made with the dimensions it had then.
                        self.error(
                            "E0420",
                            format!(
                                "a DIMENSION statement after the type declaration of `{}`, of \
                                 derived type, is not supported",
                                entity.name
                            ),
                            entity.span,
                        )
                        .help = Some("give the dimensions in the type declaration".to_string());
                        continue;
                    }
                    if let Some(dims) = entity.dims.clone() {
                        self.set_dims(i, dims, entity.span);
                    }
                }
            }
            DeclKind::Intent(intent, names) => {
                for name in names {
                    let i = self.get_or_create(name, span);
                    self.set_intent(i, *intent, span);
                }
            }
            DeclKind::External(names) => {
                for name in names {
                    let i = self.get_or_create(name, span);
                    if self.infos[i].external {
                        self.duplicate(name, "EXTERNAL", span);
                    }
                    self.infos[i].external = true;
                }
            }
            DeclKind::Intrinsic(names) => {
                for name in names {
                    if intrinsics::lookup(name).is_none() {
                        self.error(
                            "E0407",
                            format!("the intrinsic `{name}` is not supported yet"),
                            span,
                        );
                    }
                }
            }
            DeclKind::StmtFunction { name, .. } => {
                let i = self.get_or_create(name, span);
                if self.infos[i].dims.is_some() {
                    self.error(
                        "E0309",
                        format!("`{name}` is an array; `{name}(...) = ...` among the declarations is a statement function"),
                        span,
                    );
                }
                self.infos[i].external = true;
            }
            DeclKind::TypeDef {
                name,
                components,
                bindings,
                ..
            } => {
                self.define_type(name, components, span);
                self.bind_procedures(name, bindings);
            }
            DeclKind::Generic { name, bodies, .. } => {
                let i = self.local(name, span);
                // A generic may be extended by several INTERFACE blocks of the same
                // name (Fortran 2018 §15.4.3.4): their specifics add up.
                let extended = self.infos[i].generic && self.infos[i].import == Import::Local;
                if !extended && (self.infos[i].external || self.infos[i].spec.is_some()) {
                    self.duplicate(name, "generic interface", span);
                }
                self.infos[i].external = true;
                self.infos[i].generic = true;
                self.declare_bodies(bodies, span);
            }
            DeclKind::Interface(bodies) => self.declare_bodies(bodies, span),
            // Names of interfaces, not of procedures: only `PROCEDURE(iface)` uses them.
            DeclKind::AbstractInterface(bodies) => {
                bodies.iter().for_each(|b| self.declare_interface(b));
            }
            DeclKind::Procedure {
                interface,
                attrs,
                names,
            } => self.declare_procedures_with(interface, attrs, names, span),
            // Host names seen in an interface body: no new name.
            DeclKind::Import(_) => {}
            DeclKind::Common(blocks) => {
                for (block, entity) in blocks
                    .iter()
                    .flat_map(|(b, es)| es.iter().map(move |e| (b, e)))
                {
                    let module = crate::il::common_global_module(block.as_deref());
                    let i = self.local(&entity.name, entity.span);
                    if self.infos[i].arg_index.is_some() {
                        self.error(
                            "E0307",
                            format!(
                                "the dummy argument `{}` cannot be in a COMMON block",
                                entity.name
                            ),
                            entity.span,
                        );
                        continue;
                    }
                    if let Some(g) = &self.infos[i].global {
                        let g = g.module.clone();
                        self.error(
                            "E0307",
                            format!("`{}` is already in COMMON {g}", entity.name),
                            entity.span,
                        )
                        .help = Some("a variable belongs to one COMMON block".to_string());
                        continue;
                    }
                    if let Some(dims) = entity.dims.clone() {
                        self.set_dims(i, dims, entity.span);
                    }
                    self.infos[i].global = Some(GlobalRef {
                        module,
                        name: entity.name.clone(),
                    });
                }
            }
            DeclKind::Data(sets) => {
                for set in sets {
                    for name in &set.names {
                        let i = self.get_or_create(name, span);
                        self.infos[i].used_var = true;
                    }
                }
            }
            DeclKind::Equivalence(sets) => {
                for e in sets.iter().flatten() {
                    if let Some(name) = e.base_name() {
                        let i = self.get_or_create(name, e.span);
                        self.infos[i].used_var = true;
                    }
                }
            }
            DeclKind::Save(names) => {
                for name in names.iter().filter(|n| !n.starts_with('/')) {
                    self.get_or_create(name, span);
                }
            }
            DeclKind::Namelist(groups) => {
                for name in groups.iter().flat_map(|(_, names)| names) {
                    self.get_or_create(name, span);
                }
            }
            DeclKind::Implicit(_)
            | DeclKind::Comment(_)
            | DeclKind::Use { .. }
            | DeclKind::Access { .. } => {}
        }
    }

    /// `TYPE name ... END TYPE`: the components' meaning, in this scope.
    pub(super) fn define_type(&mut self, name: &str, components: &[crate::il::Decl], span: Span) {
        let mut list = Vec::new();
        for c in components {
            let DeclKind::Var {
                spec,
                attrs,
                entities,
            } = &c.kind
            else {
                continue;
            };
            let ty = self.type_of_spec(spec, c.span);
            let attr_dims = attrs.iter().find_map(|a| match a {
                Attr::Dimension(d) => Some(d.clone()),
                _ => None,
            });
            let allocatable = attrs.iter().any(|a| matches!(a, Attr::Allocatable));
            // POINTER with ALLOCATABLE: an owning pointer array (`pointers::allocatable`).
            let pointer = allocatable && attrs.iter().any(|a| matches!(a, Attr::Pointer));
            let supported = |a: &Attr| match a {
                Attr::Dimension(_) | Attr::Allocatable => true,
                Attr::Pointer => pointer,
                _ => false,
            };
            if let Some(a) = attrs.iter().find(|a| !supported(a)) {
                let message = match a {
                    Attr::Pointer => "this POINTER component is not supported yet: adgen follows POINTER components that are arrays of intrinsic type with deferred shape (`real, pointer :: x(:)`), read as ALLOCATABLE".to_string(),
                    _ => format!("the attribute {a:?} on a component is not supported yet"),
                };
                self.error("E0405", message, c.span);
            }
            let spec = match ty {
                ScalarType::Real(_) | ScalarType::Integer(_) if spec.kind.is_some() => {
                    TypeSpec::of(ty)
                }
                _ => spec.clone(),
            };
            for e in entities {
                let dims = e
                    .dims
                    .clone()
                    .or_else(|| attr_dims.clone())
                    .map(|d| self.fold_component_dims(d));
                if ty == ScalarType::Derived && dims.is_some() {
                    self.error(
                        "E0405",
                        "arrays of derived type are not supported yet".to_string(),
                        e.span,
                    );
                }
                let deferred = dims.as_ref().is_some_and(|d| {
                    !d.is_empty()
                        && d.iter().all(|b| {
                            b.lower.is_none() && matches!(b.upper, crate::il::Bound::Colon)
                        })
                });
                if allocatable && (!deferred || ty == ScalarType::Derived) {
                    self.error(
                        "E0405",
                        format!(
                            "the ALLOCATABLE component `{}` is not supported yet: only arrays of intrinsic type with deferred shape, such as `h(:)`",
                            e.name
                        ),
                        e.span,
                    );
                    continue;
                }
                list.push(Component {
                    name: e.name.clone(),
                    spec: spec.clone(),
                    ty,
                    dims,
                    allocatable,
                    pointer,
                });
            }
        }
        if self.types.contains_key(crate::il::key_ref(name).as_ref()) {
            self.error("E0307", format!("type `{name}` is defined twice"), span);
        }
        self.types.insert(
            key(name),
            TypeInfo {
                components: list,
                bindings: Vec::new(),
                owner: None,
            },
        );
    }

    /// The bounds of an array component are constant expressions, often of the module's
    /// PARAMETERs (`real :: u(ncell)`); a unit that sees the type through `USE ..., ONLY`
    /// may not see those names, so the bounds are kept as numbers.
    pub(super) fn fold_component_dims(&self, dims: Vec<DimSpec>) -> Vec<DimSpec> {
        let fold = |e: Expr| match self.eval_int(&e, 0) {
            Some(v) => Expr::int(v),
            None => e,
        };
        dims.into_iter()
            .map(|d| DimSpec {
                lower: d.lower.map(fold),
                upper: match d.upper {
                    crate::il::Bound::Expr(e) => crate::il::Bound::Expr(fold(e)),
                    other => other,
                },
            })
            .collect()
    }

    /// A variable of derived type: each component becomes a name of its own, by path
    /// (`s%x`, `s%inner%y`), so that expressions, types and derivatives find it.
    pub(super) fn derived_variable(&mut self, i: usize, spec: &TypeSpec, span: Span) {
        let name = self.infos[i].name.clone();
        let type_name = spec.type_name.clone().unwrap_or_default();
        self.components_of(&name, &type_name, span, &[]);
    }

    /// The component symbols of `path`, at every depth. Those of an array of derived type
    /// `p(n)` are the struct-of-arrays view: `p%x` has the dimensions of `p` followed by
    /// those of `x`, and `p(i)%x(j)` is the element `(i, j)` of `p%x`.
    ///
    /// `outer` holds the types of the enclosing paths: a type that contains itself (only
    /// legal through POINTER components, which adgen refuses; or a type whose END TYPE
    /// is missing, so that what follows became its components) is one error, not an
    /// expansion without end.
    pub(super) fn components_of(
        &mut self,
        path: &str,
        type_name: &str,
        span: Span,
        outer: &[String],
    ) {
        if outer.contains(&crate::il::key(type_name)) {
            let message =
                format!("the derived type `{type_name}` contains a component of its own type");
            // Once, however many components and variables lead back to it.
            if !self.diags.iter().any(|d| d.message == message) {
                self.error("E0405", message, span).help = Some(
                    "a type may contain itself only through POINTER components, which adgen \
                     does not support yet"
                        .to_string(),
                );
            }
            return;
        }
        let Some(t) = self
            .types
            .get(crate::il::key_ref(type_name).as_ref())
            .cloned()
        else {
            self.error(
                "E0301",
                format!("the derived type `{type_name}` is not defined here"),
                span,
            )
            .help = Some("define it in a module and USE the module".to_string());
            return;
        };
        let mut enclosing = outer.to_vec();
        enclosing.push(key(type_name));
        for c in &t.components {
            let leaf = format!("{path}%{}", c.name);
            let j = self.get_or_create(&leaf, span);
            self.infos[j].spec = Some(c.spec.clone());
            self.infos[j].ty = Some(c.ty);
            self.infos[j].pointer = c.pointer;
            let base = path.split('%').next().unwrap_or(path);
            let outer = self.lookup(base).and_then(|b| self.infos[b].dims.clone());
            if c.allocatable && outer.is_some() {
                let message = format!(
                    "an array of type `{type_name}`, whose component `{}` is ALLOCATABLE, is not supported yet",
                    c.name
                );
                if !self.diags.iter().any(|d| d.message == message) {
                    self.error("E0405", message, span).help = Some(
                        "use a scalar of this type, or a type with a fixed-size component"
                            .to_string(),
                    );
                }
                return;
            }
            self.infos[j].dims = match (outer, &c.dims) {
                (Some(mut o), Some(d)) => {
                    o.extend(d.iter().cloned());
                    Some(o)
                }
                (Some(o), None) => Some(o),
                (None, d) => d.clone(),
            };
            self.infos[j].arg_index = None;
            if c.ty == ScalarType::Derived {
                let inner = c.spec.type_name.clone().unwrap_or_default();
                self.components_of(&leaf, &inner, span, &enclosing);
            }
        }
    }

    pub(super) fn duplicate(&mut self, name: &str, what: &str, span: Span) {
        self.error("E0307", format!("`{name}` is given its {what} twice"), span)
            .help = Some("remove one of the declarations".to_string());
    }

    pub(super) fn set_dims(&mut self, i: usize, dims: Vec<DimSpec>, span: Span) {
        if self.infos[i].dims.is_some() {
            let name = self.infos[i].name.clone();
            self.duplicate(&name, "array bounds", span);
        } else {
            self.infos[i].dims = Some(dims);
        }
    }

    pub(super) fn set_intent(&mut self, i: usize, intent: Intent, span: Span) {
        let name = self.infos[i].name.clone();
        if self.infos[i].arg_index.is_none() {
            self.error(
                "E0311",
                format!("INTENT is given for `{name}`, which is not a dummy argument"),
                span,
            );
        } else if self.infos[i].intent.is_some() {
            self.duplicate(&name, "INTENT", span);
        } else {
            self.infos[i].intent = Some(intent);
        }
    }

    pub(super) fn set_constant(&mut self, i: usize, value: &Expr, span: Span) {
        let name = self.infos[i].name.clone();
        if self.infos[i].constant {
            self.duplicate(&name, "value", span);
            return;
        }
        if self.infos[i].arg_index.is_some() {
            self.error(
                "E0307",
                format!("the dummy argument `{name}` cannot be a named constant"),
                span,
            );
            return;
        }
        let ty = self.type_of(i);
        self.infos[i].constant = true;
        if matches!(ty, Some(ScalarType::Integer(_))) {
            self.infos[i].value = self.eval_int(value, 0);
        }
    }
}
