//! How a procedure's arguments are passed and what its variables are, read from its
//! declarations: what a caller in another language, a binding or a back-end needs to call
//! it, and which actual argument is bound to which dummy; and declarations restricted to
//! some of their entities, to copy elsewhere.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    self as il, Arg, Attr, BaseType, DeclKind, DimSpec, Expr, ExprKind, ScalarType, TypeSpec, Unit,
    UnitKind, key,
};

/// How a dummy argument is passed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pass {
    Value,
    /// A scalar passed by reference: a pointer, used as `(*x)`.
    Ref,
    /// An array: a pointer to its first element.
    Array,
}

/// A variable of a unit as the back-end sees it.
#[derive(Clone, Debug)]
pub struct VarInfo {
    pub ty: ScalarType,
    pub dims: Vec<DimSpec>,
    /// `Some` for dummies.
    pub pass: Option<Pass>,
    /// Declared INTENT(IN).
    pub intent_in: bool,
    /// For a struct (a derived-type variable): its C type name, `struct point` or a
    /// typedef name.
    pub type_name: Option<String>,
    /// An array of row pointers ([`Attr::RowPointers`]).
    pub rows: bool,
}

pub fn spec_type(spec: &TypeSpec) -> ScalarType {
    let kind = match &spec.kind {
        Some(Expr {
            kind: ExprKind::Int(t),
            ..
        }) => t.parse::<u8>().ok(),
        // The kinds of ISO_C_BINDING, as a BIND(C) Fortran procedure declares them.
        Some(Expr {
            kind: ExprKind::Var(k),
            ..
        }) => match key(k).as_str() {
            "c_int" | "c_float" | "c_int32_t" => Some(4),
            "c_double" | "c_long" | "c_long_long" | "c_int64_t" | "c_size_t" => Some(8),
            "c_short" => Some(2),
            "c_signed_char" => Some(1),
            _ => None,
        },
        _ => None,
    }
    .or(spec.star.map(|s| match spec.base {
        // `complex*16`: the star counts both parts.
        BaseType::Complex => (s / 2) as u8,
        _ => s as u8,
    }));
    match spec.base {
        BaseType::Complex => ScalarType::Complex(kind.unwrap_or(4)),
        BaseType::DoubleComplex => ScalarType::Complex(8),
        BaseType::Real => ScalarType::Real(kind.unwrap_or(4)),
        BaseType::DoublePrecision => ScalarType::Real(8),
        BaseType::Integer => ScalarType::Integer(kind.unwrap_or(4)),
        BaseType::Logical => ScalarType::Logical,
        BaseType::Character => ScalarType::Character,
        BaseType::Derived => ScalarType::Derived,
    }
}

impl Unit {
    /// Removes the declarations of the procedures `names` (keys) as external: EXTERNAL
    /// statements and attributes (and the type of a name an EXTERNAL statement lists),
    /// PROCEDURE(iface) declarations, interface bodies; a declaration left empty goes.
    pub fn drop_external_declarations(&mut self, names: &BTreeSet<String>) {
        let gone = |n: &String| names.contains(super::key_ref(n).as_ref());
        let external: BTreeSet<String> = self
            .decls
            .iter()
            .flat_map(|d| match &d.kind {
                DeclKind::External(list) => list.iter().map(|n| key(n)).collect(),
                _ => Vec::new(),
            })
            .collect();
        for d in &mut self.decls {
            match &mut d.kind {
                DeclKind::External(list) | DeclKind::Procedure { names: list, .. } => {
                    list.retain(|n| !gone(n))
                }
                DeclKind::Var {
                    attrs, entities, ..
                } => {
                    let typed_external = attrs.iter().any(|a| matches!(a, super::Attr::External));
                    entities.retain(|e| {
                        !(gone(&e.name)
                            && (typed_external
                                || external.contains(super::key_ref(&e.name).as_ref())))
                    })
                }
                DeclKind::Interface(bodies) => bodies.retain(|b| !gone(&b.name)),
                _ => {}
            }
        }
        self.decls.retain(|d| match &d.kind {
            DeclKind::External(list) | DeclKind::Procedure { names: list, .. } => !list.is_empty(),
            DeclKind::Interface(bodies) => !bodies.is_empty(),
            DeclKind::Var { entities, .. } => !entities.is_empty(),
            _ => true,
        });
    }

    /// Is `name` declared an array of row pointers ([`Attr::RowPointers`], C's
    /// `double **a`)?
    pub fn is_row_pointers(&self, name: &str) -> bool {
        self.decls.iter().any(|d| match &d.kind {
            DeclKind::Var {
                attrs, entities, ..
            } => {
                attrs.iter().any(|a| matches!(a, Attr::RowPointers))
                    && entities.iter().any(|e| key(&e.name) == key(name))
            }
            _ => false,
        })
    }
}

/// The variables of a unit, from its declarations (which, unlike the symbol table of a
/// generated unit, list derivatives and temporaries), completed from its symbol table.
pub fn unit_vars(unit: &Unit) -> BTreeMap<String, VarInfo> {
    let mut vars: BTreeMap<String, VarInfo> = BTreeMap::new();
    let mut value: BTreeSet<String> = BTreeSet::new();
    for decl in &unit.decls {
        match &decl.kind {
            DeclKind::Var {
                spec,
                attrs,
                entities,
            } => {
                if attrs
                    .iter()
                    .any(|a| matches!(a, Attr::External | Attr::Intrinsic))
                {
                    continue;
                }
                let attr_dims = attrs.iter().find_map(|a| match a {
                    Attr::Dimension(d) => Some(d.clone()),
                    _ => None,
                });
                let is_value = attrs.iter().any(|a| matches!(a, Attr::Value));
                let rows = attrs.iter().any(|a| matches!(a, Attr::RowPointers));
                let intent_in = attrs
                    .iter()
                    .any(|a| matches!(a, Attr::Intent(il::Intent::In)));
                for e in entities {
                    let symbol = unit.symbols.get(&e.name);
                    // A function declared by its type (`real(8) :: f`) is no variable.
                    if symbol.is_some_and(|s| s.kind == il::SymbolKind::Procedure) {
                        continue;
                    }
                    let dims = e
                        .dims
                        .clone()
                        .or_else(|| attr_dims.clone())
                        .unwrap_or_default();
                    // The symbol knows the kind a named constant gives (`real(dp)`).
                    let ty = match (symbol, spec.kind.as_ref().map(|k| &k.kind)) {
                        (Some(s), Some(ExprKind::Var(_) | ExprKind::Call(..))) => s.ty,
                        _ => spec_type(spec),
                    };
                    if is_value {
                        value.insert(key(&e.name));
                    }
                    vars.insert(
                        key(&e.name),
                        VarInfo {
                            ty,
                            dims,
                            pass: None,
                            intent_in,
                            type_name: spec.type_name.clone(),
                            rows,
                        },
                    );
                }
            }
            DeclKind::Intent(il::Intent::In, names) => {
                for n in names {
                    if let Some(v) = vars.get_mut(crate::il::key_ref(n).as_ref()) {
                        v.intent_in = true;
                    }
                }
            }
            DeclKind::Dimension(entities) => {
                for e in entities {
                    if let Some(v) = vars.get_mut(crate::il::key_ref(&e.name).as_ref()) {
                        v.dims = e.dims.clone().unwrap_or_default();
                    }
                }
            }
            _ => {}
        }
    }
    for s in unit.symbols.iter() {
        if s.kind == il::SymbolKind::Variable
            && !vars.contains_key(crate::il::key_ref(&s.name).as_ref())
        {
            vars.insert(
                key(&s.name),
                VarInfo {
                    ty: s.ty,
                    dims: s.dims.clone(),
                    pass: None,
                    intent_in: s.intent == Some(il::Intent::In),
                    type_name: s.type_spec.type_name.clone(),
                    rows: false,
                },
            );
        }
    }
    for a in &unit.args {
        let k = key(a);
        let v = vars.entry(k.clone()).or_insert(VarInfo {
            ty: ScalarType::Real(8),
            dims: Vec::new(),
            pass: None,
            intent_in: false,
            type_name: None,
            rows: false,
        });
        v.pass = Some(if !v.dims.is_empty() {
            Pass::Array
        } else if value.contains(&k) {
            Pass::Value
        } else {
            Pass::Ref
        });
    }
    vars
}

/// Parameter kinds of a unit, in order.
pub fn param_kinds(unit: &Unit) -> Vec<Pass> {
    let vars = unit_vars(unit);
    unit.args
        .iter()
        .map(|a| {
            vars.get(crate::il::key_ref(a).as_ref())
                .and_then(|v| v.pass)
                .unwrap_or(Pass::Ref)
        })
        .collect()
}

/// The type and passing of each parameter of a unit, in order, and the type its
/// function returns (`None` for a subroutine): what another language needs to call it.
pub fn signature(unit: &Unit) -> (Vec<(ScalarType, Pass)>, Option<ScalarType>) {
    let vars = unit_vars(unit);
    let params = unit
        .args
        .iter()
        .map(|a| {
            let v = vars.get(crate::il::key_ref(a).as_ref());
            (
                v.map_or(ScalarType::Real(8), |v| v.ty),
                v.and_then(|v| v.pass).unwrap_or(Pass::Ref),
            )
        })
        .collect();
    let ret = match unit.kind {
        UnitKind::Function => Some(
            unit.result
                .as_ref()
                .and_then(|r| vars.get(crate::il::key_ref(r).as_ref()))
                .map_or(ScalarType::Real(8), |v| v.ty),
        ),
        _ => None,
    };
    (params, ret)
}

/// Whether actuals `a` (for dummy `i` of `callee`) and `b` (for dummy `j`) are the
/// partition of a work array FORTRAN 77 codes use (`call solve(work(iq), n, work)`): the
/// whole array where the dummy is an explicit-shape or assumed-size array (its first
/// elements, by sequence association) and an element of it other than the first, which
/// starts another part. Taken as distinct, as two different elements are.
pub fn work_array_parts(callee: &Unit, i: usize, a: &Expr, j: usize, b: &Expr) -> bool {
    let literal = |e: &Expr| match &e.kind {
        ExprKind::Int(t) => t.trim().parse::<i64>().ok(),
        _ => None,
    };
    let part = |k: usize, whole: &Expr, element: &Expr| {
        let (ExprKind::Var(w), ExprKind::Index(e, subs)) = (&whole.kind, &element.kind) else {
            return false;
        };
        let Some(dummy) = callee.args.get(k).and_then(|d| callee.symbols.get(d)) else {
            return false;
        };
        let sequence = !dummy.dims.is_empty()
            && dummy
                .dims
                .iter()
                .all(|d| !matches!(d.upper, super::Bound::Colon));
        // An element the dummy's part reaches, when both are known (`call g(w, w(3))`
        // with `a(3)`): the first element, or a literal within the dummy's extent.
        let within = match (dummy.dims.as_slice(), subs.as_slice()) {
            ([d], [x]) => literal(x).is_some_and(|at| {
                let lower = d.lower.as_ref().map_or(Some(1), literal);
                let upper = match &d.upper {
                    super::Bound::Expr(u) => literal(u),
                    _ => None,
                };
                at == 1 || matches!((lower, upper), (Some(l), Some(u)) if at <= u - l + 1)
            }),
            _ => subs.iter().all(|x| literal(x) == Some(1)),
        };
        key(w) == key(e)
            && sequence
            && !within
            && subs
                .iter()
                .all(|x| !matches!(x.kind, ExprKind::Range { .. }))
    };
    part(i, a, b) || part(j, b, a)
}

/// The actual argument bound to each dummy of `callee` (keywords resolved), by position.
/// Missing actuals are `None`. Actuals beyond the dummies are ignored.
pub fn bind_actuals<'a>(callee: &Unit, args: &'a [Arg]) -> Vec<Option<&'a Expr>> {
    let mut bound = vec![None; callee.args.len()];
    for (i, arg) in args.iter().enumerate() {
        let slot = match &arg.keyword {
            Some(k) => callee.args.iter().position(|d| d.eq_ignore_ascii_case(k)),
            None => Some(i),
        };
        if let Some(slot) = slot.filter(|&s| s < bound.len()) {
            bound[slot] = Some(&arg.value);
        }
    }
    bound
}

impl super::Decl {
    /// This type declaration with only the entities `keep` accepts and without its
    /// access attribute (PUBLIC, PRIVATE), at `span`: a declaration to copy elsewhere
    /// (`real(dp), parameter :: c = ...`). `None` when it is no type declaration or
    /// keeps no entity.
    pub fn restricted(
        &self,
        keep: impl Fn(&super::Entity) -> bool,
        span: crate::diag::Span,
    ) -> Option<super::Decl> {
        let DeclKind::Var {
            spec,
            attrs,
            entities,
        } = &self.kind
        else {
            return None;
        };
        let entities: Vec<super::Entity> = entities.iter().filter(|e| keep(e)).cloned().collect();
        (!entities.is_empty()).then(|| super::Decl {
            kind: DeclKind::Var {
                spec: spec.clone(),
                attrs: attrs
                    .iter()
                    .filter(|a| !matches!(a, Attr::Private | Attr::Public))
                    .cloned()
                    .collect(),
                entities,
            },
            span,
        })
    }

    /// Is it a type declaration with the PARAMETER attribute (named constants)?
    pub fn is_constants(&self) -> bool {
        matches!(&self.kind, DeclKind::Var { attrs, .. }
            if attrs.iter().any(|a| matches!(a, Attr::Parameter)))
    }
}
