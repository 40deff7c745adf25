//! Functions a file calls by prototype alone (`double law(double a, double b);`, defined
//! in another translation unit or a library): each calling unit gets an interface body
//! for them ([`il::DeclKind::Interface`], as a Fortran caller declares an external
//! procedure), so that the back-end passes each argument as the prototype says (by
//! value, or by address) and declares the function where the generated code calls it.
//! A function that another source of the program defines is called through that
//! definition; the interface body then only restates its prototype.

use std::collections::{BTreeMap, BTreeSet};

use super::{Proto, Ty, int_lit, real_spec};
use crate::diag::Span;
use crate::il::symbols::{Symbol, SymbolTable};
use crate::il::{Attr, Bound, Decl, DeclKind, DimSpec, Entity, Intent, Unit};

/// Adds to `unit` the interface bodies of the functions it calls (`called`) that this
/// file only declares. A prototype adgen cannot state (a struct or a pointer to pointer
/// among its parameters) gets none: such calls stay as they were.
pub(super) fn declare_external(
    unit: &mut Unit,
    called: &BTreeSet<String>,
    protos: &BTreeMap<String, Proto>,
    defined: &BTreeSet<String>,
) {
    let bodies: Vec<Unit> = called
        .iter()
        .filter(|n| !defined.contains(*n) && **n != unit.name)
        .filter_map(|n| interface_body(n, protos.get(n)?, unit.span))
        .collect();
    if !bodies.is_empty() {
        unit.decls.push(Decl {
            kind: DeclKind::Interface(bodies),
            span: unit.span,
        });
    }
}

/// The interface body of `name` from its prototype: by-value parameters are VALUE
/// dummies, pointers assumed-size arrays (the callee may reach any element), `const`
/// ones INTENT(IN).
fn interface_body(name: &str, proto: &Proto, span: Span) -> Option<Unit> {
    let result_ty = match proto.ret {
        Ty::Void => None,
        t @ (Ty::Int(_) | Ty::Real(_)) => Some(t),
        Ty::Bool | Ty::Struct(_) => return None,
    };
    let mut decls = Vec::new();
    let mut symbols = SymbolTable::default();
    let mut args = Vec::new();
    for (k, pass) in proto.params.iter().enumerate() {
        let (ty, constant) = (*proto.scalars.get(k)?)?;
        let arg = match proto.names.get(k).filter(|n| !n.is_empty()) {
            Some(n) => n.clone(),
            None => format!("arg{}", k + 1),
        };
        let by_value = *pass == super::Pass::Value;
        let dims = (!by_value).then(|| {
            vec![DimSpec {
                lower: Some(int_lit(0)),
                upper: Bound::Star,
            }]
        });
        let intent = (by_value || constant).then_some(Intent::In);
        let mut attrs = Vec::new();
        if let Some(i) = intent {
            attrs.push(Attr::Intent(i));
        }
        if by_value {
            attrs.push(Attr::Value);
        }
        decls.push(var_decl(&arg, ty, attrs, dims.clone(), span));
        let mut sym = Symbol::local(&arg, ty.scalar(), real_spec(ty), dims.unwrap_or_default());
        sym.intent = intent;
        sym.arg_index = Some(k);
        sym.span = span;
        symbols.insert(sym);
        args.push(arg);
    }
    let result = result_ty.map(|ty| {
        decls.push(var_decl(name, ty, Vec::new(), None, span));
        let mut sym = Symbol::local(name, ty.scalar(), real_spec(ty), Vec::new());
        sym.is_result = true;
        sym.span = span;
        symbols.insert(sym);
        name.to_string()
    });
    Some(Unit::declaration(name, args, result, decls, symbols, span))
}

fn var_decl(name: &str, ty: Ty, attrs: Vec<Attr>, dims: Option<Vec<DimSpec>>, span: Span) -> Decl {
    Decl {
        kind: DeclKind::Var {
            spec: real_spec(ty),
            attrs,
            entities: vec![Entity {
                name: name.to_string(),
                dims,
                init: None,
                span,
            }],
        },
        span,
    }
}
