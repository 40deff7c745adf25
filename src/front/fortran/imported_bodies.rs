//! Interface bodies that IMPORT names of their host (Fortran 2018 §8.8): `import :: dp`
//! in the interface of a procedure dummy of a module procedure, whose `dp` the module
//! took from `use kinds`. An interface body is a scope of its own, analyzed before the
//! unit it is in (the unit takes the types of the procedures it declares from it); what
//! it imports is made known to it for that analysis:
//! - the names of the enclosing unit's host module (host association of the unit; all
//!   of them, whatever the IMPORT list: adgen is lenient there, gfortran is not);
//! - the enclosing unit's USE statements, restricted to the imported names;
//! - the enclosing unit's named constants that are imported, with those they are
//!   defined from.
//!
//! These are lent to the body for its analysis and taken back after it, so the body is
//! printed as written. A local variable of the enclosing procedure that the body imports
//! (for a bound, say) is not lent: its name stays unknown, as before.

use std::collections::BTreeSet;

use super::sema::{self, Modules};
use crate::diag::Diagnostic;
use crate::il::{self, Decl, DeclKind, key};

/// Analyzes interface body `body` of a unit whose host module is `host` and whose
/// declarations are `decls` (see the module doc).
pub(super) fn analyze(
    body: &mut il::Unit,
    host: Option<&str>,
    decls: &[Decl],
    diags: &mut Vec<Diagnostic>,
    modules: &Modules,
) {
    let Some((names, span)) = body.decls.iter().find_map(|d| match &d.kind {
        DeclKind::Import(names) => Some((names.clone(), d.span)),
        _ => None,
    }) else {
        sema::analyze(body, &Default::default(), diags, modules, &[]);
        return;
    };
    let all = names.is_empty();
    let mut wanted: BTreeSet<String> = names.iter().map(|n| key(n)).collect();
    let lent = lent_decls(decls, &mut wanted, all, modules, span);
    let count = lent.len();
    let own = std::mem::replace(&mut body.decls, lent);
    body.decls.extend(own);
    let own_host = body.host.clone();
    if body.host.is_none() {
        body.host = host
            .filter(|h| modules.contains_key(il::key_ref(h).as_ref()))
            .map(str::to_string);
    }
    sema::analyze(body, &Default::default(), diags, modules, &[]);
    body.host = own_host;
    // The lent declarations are the first `count` (with the import's span); the
    // analysis may have split or moved some, so they go by span and kind.
    let mut left = count;
    body.decls.retain(|d| {
        let lent = left > 0
            && d.span == span
            && matches!(d.kind, DeclKind::Use { .. } | DeclKind::Var { .. });
        if lent {
            left -= 1;
        }
        !lent
    });
}

/// The USE statements and named constants among `decls` that give the `wanted` names
/// (every name when `all`), at `span`; `wanted` grows by the names the constants are
/// defined from.
fn lent_decls(
    decls: &[Decl],
    wanted: &mut BTreeSet<String>,
    all: bool,
    modules: &Modules,
    span: crate::diag::Span,
) -> Vec<Decl> {
    let constants: Vec<(&Decl, &il::Entity)> = decls
        .iter()
        .filter(|d| d.is_constants())
        .flat_map(|d| match &d.kind {
            DeclKind::Var { entities, .. } => entities.iter().map(move |e| (d, e)).collect(),
            _ => Vec::new(),
        })
        .collect();
    // The constants wanted, with those their values and bounds name (to a fixed point).
    loop {
        let before = wanted.len();
        for (d, e) in &constants {
            if all || wanted.contains(&key(&e.name)) {
                let Some(one) = d.restricted(|x| key(&x.name) == key(&e.name), span) else {
                    continue;
                };
                wanted.extend(il::visit::decls_names(std::slice::from_ref(&one)));
                if let DeclKind::Var { spec, .. } = &one.kind {
                    wanted.extend(spec_names(spec));
                }
            }
        }
        if wanted.len() == before {
            break;
        }
    }
    let mut out = Vec::new();
    for d in decls {
        let DeclKind::Use {
            module,
            only,
            renames,
        } = &d.kind
        else {
            continue;
        };
        if all {
            out.push(Decl {
                kind: d.kind.clone(),
                span,
            });
            continue;
        }
        let renames: Vec<(String, String)> = renames
            .iter()
            .filter(|(local, _)| wanted.contains(&key(local)))
            .cloned()
            .collect();
        let visible: Vec<String> = match only {
            Some(list) => list.clone(),
            None => modules
                .get(il::key_ref(module).as_ref())
                .map(|m| m.names())
                .unwrap_or_default(),
        };
        let mut only: Vec<String> = visible
            .into_iter()
            .filter(|n| wanted.contains(&key(n)))
            .collect();
        // A rename of a USE without ONLY (`use m, x_local => x`) is listed under its
        // local name, as in `only: x_local => x`.
        for (local, _) in &renames {
            if !only.iter().any(|n| key(n) == key(local)) {
                only.push(local.clone());
            }
        }
        if only.is_empty() && renames.is_empty() {
            continue;
        }
        out.push(Decl {
            kind: DeclKind::Use {
                module: module.clone(),
                only: Some(only),
                renames,
            },
            span,
        });
    }
    out.extend(
        decls
            .iter()
            .filter(|d| d.is_constants())
            .filter_map(|d| d.restricted(|e| all || wanted.contains(&key(&e.name)), span)),
    );
    out
}

/// Names a type spec reads: its kind (`real(wp)`) and derived type.
fn spec_names(spec: &il::TypeSpec) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = spec.type_name.iter().map(|t| key(t)).collect();
    for e in spec.kind.iter() {
        il::visit::walk_expr(e, &mut |x| {
            if let il::ExprKind::Var(n) = &x.kind {
                names.insert(key(n));
            }
        });
    }
    names
}

#[cfg(test)]
mod tests {
    const TEXT: &str = "\
module kinds
  implicit none
  integer, parameter :: dp = kind(1.0d0)
end module kinds

module quad
  use kinds
  implicit none
  integer, parameter :: n = 3
contains
  subroutine simpson(f, a, b, r)
    use, intrinsic :: iso_fortran_env, wp => real64
    integer, parameter :: ik = kind(1)
    interface
      function f(x) result(y)
        import :: dp, wp, n, ik
        real(dp), intent(in) :: x(n)
        real(wp) :: y
        integer(ik) :: unused
      end function f
    end interface
    real(dp), intent(in) :: a, b
    real(dp), intent(out) :: r
    r = (b - a)*f([a, (a + b)/2, b])
  end subroutine simpson
end module quad
";

    fn parse(text: &str) -> Result<crate::il::Program, String> {
        let mut map = crate::diag::SourceMap::default();
        crate::parse_sources(&[crate::SourceInput::new("x.f90", text)], &mut map)
            .map_err(|d| format!("{d:?}"))
    }

    fn body(program: &crate::il::Program) -> crate::il::Unit {
        let unit = program.unit("simpson").expect("unit");
        unit.decls
            .iter()
            .find_map(|d| match &d.kind {
                crate::il::DeclKind::Interface(bodies) => bodies.first().cloned(),
                _ => None,
            })
            .expect("an interface body")
    }

    /// A host module's USE, its constant, the procedure's own USE (renamed, without
    /// ONLY) and its own constant are known in the body: its kinds and bounds evaluate,
    /// and the body prints back as written (nothing lent is left in it).
    #[test]
    fn imported_names_are_known_in_the_body_and_left_out_of_it() {
        let program = parse(TEXT).expect("parses");
        let f = body(&program);
        let y = f.symbols.get("y").expect("y");
        assert_eq!(y.ty, crate::il::ScalarType::Real(8));
        let x = f.symbols.get("x").expect("x");
        assert_eq!(x.dims.len(), 1);
        assert_eq!(
            f.symbols.get("unused").expect("unused").ty,
            crate::il::ScalarType::Integer(4)
        );
        let printed = crate::back::fortran::write_unit(&f);
        assert!(
            !printed.contains("use ") && !printed.contains("parameter"),
            "{printed}"
        );
        assert!(printed.contains("import :: dp, wp, n, ik"), "{printed}");
    }

    /// Without IMPORT, an interface body sees nothing of its host (Fortran 2018
    /// §15.4.3.2): its `dp` is unknown.
    #[test]
    fn a_body_without_import_sees_nothing_of_its_host() {
        let text = TEXT.replace("        import :: dp, wp, n, ik\n", "");
        let err = parse(&text).expect_err("dp is not imported");
        assert!(err.contains("E0308"), "{err}");
    }
}
