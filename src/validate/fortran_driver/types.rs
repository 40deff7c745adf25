//! The derived types (C structs) of the sources as the drivers fill them: components,
//! their types and shapes, and the struct arguments of a root.

use super::*;

/// A derived-type (struct) argument of the root.
#[derive(Clone, Debug)]
pub struct StructArg {
    pub var: String,
    pub key: String,
    /// The type's name as the program spells it (`cell`, C's `struct cell`).
    pub tname: String,
}

/// One component of a derived type.
#[derive(Clone, Debug)]
pub struct Component {
    pub name: String,
    pub ty: ScalarType,
    /// For a component of derived type: its type's name.
    pub type_name: Option<String>,
    pub dims: Vec<il::DimSpec>,
}

/// A derived type: where it is defined and its components.
#[derive(Clone, Debug)]
pub struct TypeInfo {
    pub name: String,
    pub module: Option<String>,
    pub components: Vec<Component>,
    /// The user header that defines it (C), as `#include` spells it.
    pub header: Option<String>,
}

/// Derived types of a program by lower-case name.
pub type Types = BTreeMap<String, TypeInfo>;

fn scalar_of(spec: &il::TypeSpec) -> ScalarType {
    // A literal kind (the C front-end's); a named one (Fortran's `dp`) is taken as 8:
    // the Fortran driver reads kinds with `kind(x)`.
    let kind = match &spec.kind {
        Some(Expr {
            kind: il::ExprKind::Int(t),
            ..
        }) => t.parse::<u8>().ok(),
        _ => None,
    }
    .or(spec.star.map(|s| s as u8));
    match spec.base {
        BaseType::Integer => ScalarType::Integer(kind.unwrap_or(4)),
        BaseType::Real => ScalarType::Real(kind.unwrap_or(8)),
        BaseType::DoublePrecision => ScalarType::Real(8),
        BaseType::Complex => ScalarType::Complex(kind.unwrap_or(4)),
        BaseType::DoubleComplex => ScalarType::Complex(8),
        BaseType::Logical => ScalarType::Logical,
        BaseType::Character => ScalarType::Character,
        BaseType::Derived => ScalarType::Derived,
    }
}

/// The derived types (`TYPE ... END TYPE`) a program defines.
pub fn collect_types(program: &Program) -> Types {
    let mut out = Types::new();
    for unit in program.units() {
        let module = unit.is_module().then(|| unit.name.clone());
        for decl in &unit.decls {
            let DeclKind::TypeDef {
                name,
                components,
                header,
                ..
            } = &decl.kind
            else {
                continue;
            };
            let mut comps = Vec::new();
            for c in components {
                if let DeclKind::Var {
                    spec,
                    attrs,
                    entities,
                } = &c.kind
                {
                    let adims = attrs.iter().find_map(|a| match a {
                        il::Attr::Dimension(d) => Some(d.clone()),
                        _ => None,
                    });
                    for e in entities {
                        comps.push(Component {
                            name: e.name.clone(),
                            ty: scalar_of(spec),
                            type_name: spec.type_name.clone(),
                            dims: e.dims.clone().or_else(|| adims.clone()).unwrap_or_default(),
                        });
                    }
                }
            }
            out.insert(
                key(name),
                TypeInfo {
                    name: name.clone(),
                    module: module.clone(),
                    components: comps,
                    header: header.clone(),
                },
            );
        }
    }
    out
}

/// The derived-type (struct) arguments of the root.
pub fn struct_args(unit: &Unit) -> Vec<StructArg> {
    unit.args
        .iter()
        .filter_map(|a| {
            let sym = unit.symbols.get(a)?;
            (sym.ty == ScalarType::Derived).then(|| StructArg {
                var: a.clone(),
                key: key(a),
                tname: sym.type_spec.type_name.clone().unwrap_or_default(),
            })
        })
        .collect()
}

/// Does the derivative type of `tname` (`tname` + `_suffix`: Fortran's `cell_d`, C's
/// `struct cell_d`) have the component at `path` (`a%b`, `a.b`, below the argument)?
/// Names compare by `key` (Fortran's ignores case, C's does not).
pub fn has_component(
    dtypes: &Types,
    tname: &str,
    suffix: &str,
    path: &[&str],
    key: fn(&str) -> String,
) -> bool {
    let Some(info) = dtypes.get(&format!("{}_{suffix}", key(tname))) else {
        return false;
    };
    let Some((first, rest)) = path.split_first() else {
        return true;
    };
    match info.components.iter().find(|c| key(&c.name) == key(first)) {
        None => false,
        Some(c) if rest.is_empty() => c.ty != ScalarType::Derived,
        Some(c) => {
            // The derivative component's type is already a derivative type.
            let t = c.type_name.clone().unwrap_or_default();
            let base = t.strip_suffix(&format!("_{suffix}")).unwrap_or(&t);
            has_component(dtypes, base, suffix, rest, key)
        }
    }
}
