//! Declarations: type specs, array specs, and every [`DeclKind`] as one line.

use super::expr::write_expr;
use crate::il::TypeSpec;
use crate::il::{Attr, BaseType, Bound, DeclKind, DimSpec, Entity, ImplicitRule, Intent};

/// A type as written: `integer`, `real(8)`, `real(kind=dp)`, `real*8`,
/// `double precision`, `character(len=*)`.
pub(crate) fn write_type_spec(spec: &TypeSpec) -> String {
    let base = match spec.base {
        BaseType::Integer => "integer",
        BaseType::Real => "real",
        BaseType::DoublePrecision => "double precision",
        BaseType::Logical => "logical",
        BaseType::Character => "character",
        BaseType::Complex => "complex",
        BaseType::DoubleComplex => "double complex",
        BaseType::Derived => {
            let word = if spec.polymorphic { "class" } else { "type" };
            return format!("{word}({})", spec.type_name.as_deref().unwrap_or("?"));
        }
    };
    let mut out = base.to_string();
    let mut selectors = Vec::new();
    if let Some(len) = &spec.char_len {
        let len = len.trim();
        let bare = if len.len() > 4 && len[..4].eq_ignore_ascii_case("len=") {
            len[4..].trim()
        } else {
            len
        };
        selectors.push(format!("len={bare}"));
    }
    if let Some(kind) = &spec.kind {
        // `real(8)` keeps its short form unless the source wrote `kind=` or a length
        // selector comes first.
        if spec.kind_keyword || !selectors.is_empty() {
            selectors.push(format!("kind={}", write_expr(kind)));
        } else {
            selectors.push(write_expr(kind));
        }
    }
    if !selectors.is_empty() {
        out.push('(');
        out.push_str(&selectors.join(", "));
        out.push(')');
    } else if let Some(star) = spec.star {
        out.push_str(&format!("*{star}"));
    }
    out
}

/// An array spec: `(n)`, `(0:n + 1, *)`.
pub(crate) fn write_dims(dims: &[DimSpec]) -> String {
    let parts: Vec<String> = dims
        .iter()
        .map(|dim| {
            let upper = match &dim.upper {
                Bound::Expr(e) => write_expr(e),
                Bound::Star => "*".to_string(),
                Bound::Colon => String::new(),
            };
            match (&dim.lower, &dim.upper) {
                (Some(lower), _) => format!("{}:{upper}", write_expr(lower)),
                (None, Bound::Colon) => ":".to_string(),
                (None, _) => upper,
            }
        })
        .collect();
    format!("({})", parts.join(", "))
}

fn intent_text(intent: Intent) -> &'static str {
    match intent {
        Intent::In => "intent(in)",
        Intent::Out => "intent(out)",
        Intent::InOut => "intent(inout)",
    }
}

fn attr_text(attr: &Attr) -> String {
    match attr {
        Attr::Intent(intent) => intent_text(*intent).to_string(),
        Attr::Parameter => "parameter".to_string(),
        Attr::Dimension(dims) => format!("dimension{}", write_dims(dims)),
        Attr::External => "external".to_string(),
        Attr::Intrinsic => "intrinsic".to_string(),
        Attr::Save => "save".to_string(),
        Attr::Public => "public".to_string(),
        Attr::Private => "private".to_string(),
        Attr::Value => "value".to_string(),
        Attr::Allocatable => "allocatable".to_string(),
        Attr::Optional => "optional".to_string(),
        Attr::Target => "target".to_string(),
        Attr::Pointer => "pointer".to_string(),
        // C's alone (the C front-end's `double **`); Fortran has no such dummy.
        Attr::RowPointers => String::new(),
        // The pointer itself is what the source declares (`associations`).
        Attr::Association(_) => String::new(),
    }
}

/// `x(n) = init`.
fn entity_text(entity: &Entity) -> String {
    entity_text_of(entity, false)
}

/// A POINTER's initialization is an association: `p => null()`.
fn entity_text_of(entity: &Entity, pointer: bool) -> String {
    let mut out = entity.name.clone();
    if let Some(dims) = &entity.dims {
        out.push_str(&write_dims(dims));
    }
    if let Some(init) = &entity.init {
        out.push_str(if pointer { " => " } else { " = " });
        out.push_str(&write_expr(init));
    }
    out
}

fn implicit_rule_text(rule: &ImplicitRule) -> String {
    let ranges: Vec<String> = rule
        .ranges
        .iter()
        .map(|&(first, last)| {
            if first == last {
                first.to_string()
            } else {
                format!("{first}-{last}")
            }
        })
        .collect();
    format!("{} ({})", write_type_spec(&rule.spec), ranges.join(", "))
}

/// The text of one declaration line (a comment declaration returns `None`).
pub(crate) fn decl_text(kind: &DeclKind) -> Option<String> {
    let text = match kind {
        DeclKind::TypeDef { name, .. } => format!("type {name}"),
        DeclKind::Use {
            module,
            only,
            renames,
        } => {
            let renamed = |local: &String| match renames.iter().find(|(l, _)| l == local) {
                Some((l, r)) => format!("{l} => {r}"),
                None => local.clone(),
            };
            match only {
                None if renames.is_empty() => format!("use {module}"),
                None => {
                    let list: Vec<String> =
                        renames.iter().map(|(l, r)| format!("{l} => {r}")).collect();
                    format!("use {module}, {}", list.join(", "))
                }
                Some(names) if names.is_empty() => format!("use {module}, only:"),
                Some(names) => {
                    let list: Vec<String> = names.iter().map(renamed).collect();
                    format!("use {module}, only: {}", list.join(", "))
                }
            }
        }
        DeclKind::Access { public, names } => {
            let word = if *public { "public" } else { "private" };
            if names.is_empty() {
                word.to_string()
            } else {
                format!("{word} :: {}", names.join(", "))
            }
        }
        DeclKind::StmtFunction { name, args, body } => {
            format!(
                "{name}({}) = {}",
                args.join(", "),
                super::expr::write_expr(body)
            )
        }
        DeclKind::Implicit(rules) if rules.is_empty() => "implicit none".to_string(),
        DeclKind::Implicit(rules) => {
            let rules: Vec<String> = rules.iter().map(implicit_rule_text).collect();
            format!("implicit {}", rules.join(", "))
        }
        DeclKind::Var {
            spec,
            attrs,
            entities,
        } => {
            let mut out = write_type_spec(spec);
            // POINTER with ALLOCATABLE: a pointer the IL reads as ALLOCATABLE
            // (`front::fortran::pointers::allocatable`), declared as the source did.
            let pointer = attrs.iter().any(|a| matches!(a, Attr::Pointer));
            let hidden = |a: &Attr| match a {
                Attr::RowPointers | Attr::Association(_) => true,
                Attr::Allocatable => pointer,
                _ => false,
            };
            let shown = |a: &&Attr| !hidden(a);
            for attr in attrs.iter().filter(shown) {
                out.push_str(", ");
                out.push_str(&attr_text(attr));
            }
            let entities: Vec<String> = entities
                .iter()
                .map(|e| entity_text_of(e, pointer))
                .collect();
            format!("{out} :: {}", entities.join(", "))
        }
        DeclKind::Parameter(pairs) => {
            let pairs: Vec<String> = pairs
                .iter()
                .map(|(name, value)| format!("{name} = {}", write_expr(value)))
                .collect();
            format!("parameter ({})", pairs.join(", "))
        }
        DeclKind::Dimension(entities) => {
            let entities: Vec<String> = entities.iter().map(entity_text).collect();
            format!("dimension {}", entities.join(", "))
        }
        DeclKind::Intent(intent, names) => {
            format!("{} :: {}", intent_text(*intent), names.join(", "))
        }
        DeclKind::External(names) => format!("external {}", names.join(", ")),
        DeclKind::Procedure {
            interface,
            attrs,
            names,
        } => {
            let mut head = format!("procedure({interface})");
            for a in attrs {
                head.push_str(", ");
                head.push_str(&attr_text(a));
            }
            format!("{head} :: {}", names.join(", "))
        }
        DeclKind::Intrinsic(names) => format!("intrinsic {}", names.join(", ")),
        DeclKind::Equivalence(sets) => {
            let sets: Vec<String> = sets
                .iter()
                .map(|set| {
                    let refs: Vec<String> = set.iter().map(write_expr).collect();
                    format!("({})", refs.join(", "))
                })
                .collect();
            format!("equivalence {}", sets.join(", "))
        }
        DeclKind::Common(blocks) => {
            let blocks: Vec<String> = blocks
                .iter()
                .map(|(block, entities)| {
                    let entities: Vec<String> = entities.iter().map(entity_text).collect();
                    format!(
                        "/{}/ {}",
                        block.as_deref().unwrap_or(""),
                        entities.join(", ")
                    )
                })
                .collect();
            format!("common {}", blocks.join(" "))
        }
        DeclKind::Data(sets) => {
            let sets: Vec<String> = sets
                .iter()
                .map(|d| format!("{} /{}/", d.objects, d.values))
                .collect();
            format!("data {}", sets.join(", "))
        }
        DeclKind::Import(names) if names.is_empty() => "import".to_string(),
        DeclKind::Import(names) => format!("import :: {}", names.join(", ")),
        DeclKind::Save(names) if names.is_empty() => "save".to_string(),
        DeclKind::Save(names) => format!("save {}", names.join(", ")),
        DeclKind::Namelist(groups) => {
            let groups: Vec<String> = groups
                .iter()
                .map(|(g, names)| format!("/{g}/ {}", names.join(", ")))
                .collect();
            format!("namelist {}", groups.join(", "))
        }
        DeclKind::Comment(_)
        | DeclKind::Interface(_)
        | DeclKind::AbstractInterface(_)
        | DeclKind::Generic { .. } => return None,
    };
    Some(text)
}
