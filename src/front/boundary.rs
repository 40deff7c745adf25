//! Calls across the language boundary, checked once every source file is lowered.
//!
//! Fortran and C units live in one [`il::Program`] and a call links to its callee by
//! name, so a call between the languages is differentiated like any other. What the
//! compilers will do with it depends on declarations each front-end saw alone: a C
//! function must be called from Fortran through a `BIND(C)` interface body that agrees
//! with its definition (by-value parameters `VALUE`, pointers by reference, the same
//! types), and C may call only `BIND(C)` Fortran procedures. Anything else would compile
//! into code that passes arguments wrongly, so it is refused here (E0415), at the call
//! or at the interface.

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Span};
use crate::il::{self, Attr, DeclKind, ExprKind, Program, ScalarType, StmtKind, Unit, key};
use crate::il::{Pass, signature};

/// The problems of the calls between Fortran and C units of `program`, each deferred to
/// the unit it is found in (`Unit::deferred`): said when a root reaches that unit, so
/// that a procedure no root calls (a PNG writer beside a solver) blocks nothing.
pub fn check(program: &mut Program) {
    let found = problems(program);
    for (f, u, diags) in found {
        program.files[f].units[u].deferred.extend(diags);
    }
}

/// The problems of each unit, by file and unit index.
fn problems(program: &Program) -> Vec<(usize, usize, Vec<Diagnostic>)> {
    let mut c_units: BTreeMap<String, &Unit> = BTreeMap::new();
    let mut f_units: BTreeMap<String, &Unit> = BTreeMap::new();
    for file in &program.files {
        for u in file.units.iter().filter(|u| u.is_procedure()) {
            if file.language == il::Language::C {
                c_units.insert(key(&u.name), u);
            } else {
                f_units.insert(key(&u.name), u);
            }
        }
    }
    let mut found = Vec::new();
    for (fi, file) in program.files.iter().enumerate() {
        for (ui, u) in file.units.iter().enumerate() {
            if !u.is_procedure() {
                continue;
            }
            let mut out = Vec::new();
            problems_of(u, file.language, &c_units, &f_units, &mut out);
            if !out.is_empty() {
                found.push((fi, ui, out));
            }
        }
    }
    found
}

/// The problems of one procedure `u`, written in `language`.
fn problems_of(
    u: &Unit,
    language: il::Language,
    c_units: &BTreeMap<String, &Unit>,
    f_units: &BTreeMap<String, &Unit>,
    out: &mut Vec<Diagnostic>,
) {
    if language == il::Language::C {
        for (name, span) in calls(u) {
            let Some(f) = f_units.get(crate::il::key_ref(&name).as_ref()) else {
                continue;
            };
            if f.bind.is_none() {
                out.push(
                    Diagnostic::error(
                        "E0415",
                        format!("`{name}` is a Fortran procedure without BIND(C): C cannot call it"),
                    )
                    .at(span)
                    .with_help(format!("add BIND(C) to `subroutine {name}(...)` and declare its by-value dummies VALUE, with ISO_C_BINDING kinds")),
                );
            } else if let Some(n) = arg_count(u, &name, span)
                && n != f.args.len()
            {
                out.push(
                    Diagnostic::error(
                        "E0415",
                        format!(
                            "`{name}` takes {} arguments in Fortran, {n} here",
                            f.args.len()
                        ),
                    )
                    .at(span)
                    .with_help("make the C prototype follow the Fortran procedure"),
                );
            }
        }
        return;
    }
    check_binding_name(u, out);
    let mut interfaces: BTreeMap<String, &Unit> = BTreeMap::new();
    for d in &u.decls {
        if let DeclKind::Interface(bodies) | DeclKind::Generic { bodies, .. } = &d.kind {
            for b in bodies {
                check_binding_name(b, out);
                interfaces.insert(key(&b.name), b);
                // The interface of a procedure dummy: what is passed is checked where.
                if u.args.iter().any(|a| key(a) == key(&b.name)) {
                    continue;
                }
                if let Some(c) = c_units.get(crate::il::key_ref(&b.name).as_ref()) {
                    if b.bind.is_none() {
                        out.push(
                            Diagnostic::error(
                                "E0415",
                                format!(
                                    "`{}` is a C function, declared here without BIND(C)",
                                    b.name
                                ),
                            )
                            .at(b.span)
                            .with_help("add BIND(C) to the interface body and declare its by-value parameters VALUE, with ISO_C_BINDING kinds"),
                        );
                        continue;
                    }
                    check_interface(b, b, Some(c), out);
                } else if b.bind.is_some()
                    && !f_units.contains_key(crate::il::key_ref(&b.name).as_ref())
                    && carries_reals(b)
                {
                    // No source: its derivative would be taken as zero.
                    out.push(
                        Diagnostic::error(
                            "E0415",
                            format!(
                                "`{}` is declared BIND(C) with real arguments or result, but no source defines it",
                                b.name
                            ),
                        )
                        .at(b.span)
                        .with_help("add the C source that defines it to the manifest's `sources`, so that adgen can differentiate through it"),
                    );
                }
            }
        }
    }
    for (name, span) in calls(u) {
        let k = key(&name);
        if interfaces.contains_key(&k) {
            continue;
        }
        if c_units.contains_key(&k) {
            out.push(
                Diagnostic::error(
                    "E0415",
                    format!("`{name}` is a C function, called here without an interface"),
                )
                .at(span)
                .with_help(format!("declare `{name}` in an INTERFACE block with BIND(C), its by-value parameters VALUE")),
            );
        } else if let Some(f) = f_units.get(&k)
            && f.bind.is_some()
            && value_dummies(f).next().is_some()
        {
            out.push(
                Diagnostic::error(
                    "E0415",
                    format!("`{name}` has VALUE dummies, called here without an interface"),
                )
                .at(span)
                .with_help("without an explicit interface every argument is passed by reference"),
            );
        }
    }
}

/// adgen links calls by name: a binding name must be the procedure's own.
fn check_binding_name(u: &Unit, out: &mut Vec<Diagnostic>) {
    if let Some(il::BindC { name: Some(n) }) = &u.bind
        && key(n) != key(&u.name)
    {
        out.push(
            Diagnostic::error(
                "E0415",
                format!(
                    "BIND(C, NAME=\"{n}\") renames `{}`: adgen needs the C name to be the procedure's",
                    u.name
                ),
            )
            .at(u.span)
            .with_help(format!("name the procedure `{n}`, or drop NAME=")),
        );
    }
}

/// Some argument or the result of a declared procedure is real: it may carry derivatives.
fn carries_reals(u: &Unit) -> bool {
    u.args
        .iter()
        .chain(u.result.iter())
        .filter_map(|a| u.symbols.get(a))
        .any(|s| matches!(s.ty, ScalarType::Real(_)))
}

fn value_dummies(u: &Unit) -> impl Iterator<Item = &String> {
    u.decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Var {
                attrs, entities, ..
            } if attrs.iter().any(|a| matches!(a, Attr::Value)) => {
                Some(entities.iter().map(|e| &e.name))
            }
            _ => None,
        })
        .flatten()
}

/// The Fortran declaration `f` (an interface body, or a `BIND(C)` procedure) of a
/// procedure against its C definition `c`; problems located at `at`'s header.
fn check_interface(f: &Unit, at: &Unit, c: Option<&Unit>, out: &mut Vec<Diagnostic>) {
    let Some(c) = c else { return };
    let span: Span = at.span;
    let mut problem = |what: String| {
        out.push(
            Diagnostic::error(
                "E0415",
                format!("the Fortran interface of `{}` does not match its C definition: {what}", f.name),
            )
            .at(span)
            .with_help("make the interface say what the C prototype says: VALUE for by-value parameters, arrays or plain dummies for pointers, ISO_C_BINDING kinds of the same types"),
        );
    };
    let (params, ret) = signature(c);
    if params.len() != f.args.len() {
        problem(format!(
            "{} arguments here, {} in C",
            f.args.len(),
            params.len()
        ));
        return;
    }
    let fret = f
        .result
        .as_ref()
        .and_then(|r| f.symbols.get(r))
        .map(|s| s.ty);
    match (f.is_function(), ret) {
        (true, None) => problem("a FUNCTION here, a void function in C".to_string()),
        (false, Some(_)) => {
            problem("a SUBROUTINE here, a function returning a value in C".to_string())
        }
        (true, Some(t)) if fret.is_some_and(|ft| !same_type(ft, t)) => {
            problem("the result types differ".to_string())
        }
        _ => {}
    }
    let values: Vec<String> = value_dummies(f).map(|n| key(n)).collect();
    for (i, (a, (ty, pass))) in f.args.iter().zip(params).enumerate() {
        let by_value = values.contains(&crate::il::key(a));
        let sym = f.symbols.get(a);
        let n = i + 1;
        if by_value != (pass == Pass::Value) {
            problem(if by_value {
                format!("argument {n} `{a}` is VALUE here, a pointer in C")
            } else {
                format!("argument {n} `{a}` is passed by value in C: declare it VALUE")
            });
        } else if sym.is_some_and(|s| s.is_array()) && pass != Pass::Array && pass != Pass::Ref {
            problem(format!("argument {n} `{a}` is an array here, not in C"));
        } else if let Some(s) = sym
            && !same_type(s.ty, ty)
        {
            problem(format!("argument {n} `{a}` has another type than in C"));
        }
    }
}

fn same_type(a: ScalarType, b: ScalarType) -> bool {
    match (a, b) {
        // C has no LOGICAL: an `int` flag is an INTEGER(c_int).
        (ScalarType::Logical, _) | (_, ScalarType::Logical) => false,
        _ => a == b,
    }
}

/// The number of arguments of the call of `name` at `span` in `u`.
fn arg_count(u: &Unit, name: &str, span: Span) -> Option<usize> {
    let mut found = None;
    il::visit::walk_stmts(&u.body, &mut |s| {
        if let StmtKind::Call { name: n, args } = &s.kind
            && s.span == span
            && key(n) == key(name)
        {
            found = Some(args.len());
        }
        for e in il::visit::stmt_exprs(s) {
            il::visit::walk_expr(e, &mut |x| {
                if let ExprKind::Call(n, args) = &x.kind
                    && x.span == span
                    && key(n) == key(name)
                {
                    found = Some(args.len());
                }
            });
        }
    });
    found
}

/// Every call of a user procedure in a unit, with its location.
fn calls(u: &Unit) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    il::visit::walk_stmts(&u.body, &mut |s| {
        if let StmtKind::Call { name, .. } = &s.kind {
            out.push((name.clone(), s.span));
        }
        for e in il::visit::stmt_exprs(s) {
            il::visit::walk_expr(e, &mut |x| {
                if let ExprKind::Call(n, _) = &x.kind {
                    out.push((n.clone(), x.span));
                }
            });
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use crate::diag::{Location, SourceMap};
    use crate::{SourceInput, parse_sources};

    const C_RHS: &str = "void rhs(int n, double a, const double *y, double *f)\n{\n    for (int i = 0; i < n; i++)\n        f[i] = a * y[i];\n}\n";

    fn parse(
        files: &[(&str, &str)],
    ) -> (
        Result<crate::il::Program, Vec<crate::diag::Diagnostic>>,
        SourceMap,
    ) {
        let inputs: Vec<SourceInput> = files
            .iter()
            .map(|(p, t)| SourceInput::new(*p, *t))
            .collect();
        let mut map = SourceMap::default();
        (parse_sources(&inputs, &mut map), map)
    }

    /// Codes and 1-based lines of the errors (those deferred to the units they are
    /// found in, said when a root reaches the unit).
    fn errors(files: &[(&str, &str)]) -> Vec<(String, usize)> {
        let (r, map) = parse(files);
        let diags: Vec<crate::diag::Diagnostic> = match r {
            Err(diags) => diags,
            Ok(program) => program
                .units()
                .flat_map(|u| u.deferred.iter().cloned())
                .collect(),
        };
        assert!(!diags.is_empty(), "expected errors");
        diags
            .iter()
            .map(|d| {
                let line = match &d.location {
                    Some(Location::Span(s)) => map.get(s.file).line_col(s.lo).0,
                    _ => 0,
                };
                (d.code.to_string(), line)
            })
            .collect()
    }

    fn fortran(iface: &str, call: &str) -> String {
        format!(
            "subroutine root(n, a, y, f)\n  use, intrinsic :: iso_c_binding\n  integer :: n\n  real(8) :: a, y(n), f(n)\n{iface}  {call}\nend subroutine root\n"
        )
    }

    const GOOD: &str = "  interface\n    subroutine rhs(n, a, y, f) bind(C)\n      use, intrinsic :: iso_c_binding, only: c_int, c_double\n      integer(c_int), value :: n\n      real(c_double), value :: a\n      real(c_double), intent(in) :: y(*)\n      real(c_double) :: f(*)\n    end subroutine rhs\n  end interface\n";

    #[test]
    fn a_fortran_call_of_c_through_a_bind_c_interface_is_accepted_and_printed_back() {
        let f = fortran(GOOD, "call rhs(n, a, y, f)");
        let (r, _) = parse(&[("root.f90", &f), ("rhs.c", C_RHS)]);
        let program = r.expect("accepted");
        let text = crate::back::write_file(&program.files[0], &program);
        assert!(
            text.contains("  interface\n    subroutine rhs(n, a, y, f) bind(C)\n"),
            "{text}"
        );
        assert!(text.contains("integer(c_int), value :: n\n"), "{text}");
        assert!(text.contains("use iso_c_binding\n"), "{text}");
    }

    #[test]
    fn an_interface_that_disagrees_with_the_c_definition_is_refused_at_its_header() {
        let f = fortran(
            &GOOD.replace("real(c_double), value :: a", "real(c_double) :: a"),
            "call rhs(n, a, y, f)",
        );
        assert_eq!(
            errors(&[("root.f90", &f), ("rhs.c", C_RHS)]),
            vec![("E0415".to_string(), 6)]
        );
        let f = fortran(
            &GOOD.replace("(n, a, y, f) bind", "(n, y, f) bind"),
            "call rhs(n, y, f)",
        );
        assert_eq!(errors(&[("root.f90", &f), ("rhs.c", C_RHS)])[0].0, "E0415");
        let f = fortran(
            &GOOD
                .replace("real(c_double), value :: a", "real(c_float), value :: a")
                .replace("c_int, c_double", "c_int, c_double, c_float"),
            "call rhs(n, real(a), y, f)",
        );
        assert_eq!(errors(&[("root.f90", &f), ("rhs.c", C_RHS)])[0].0, "E0415");
    }

    /// An interface body without BIND(C) is a Fortran procedure's (a procedure dummy's,
    /// an external routine's whose source is missing: refused at the call that needs its
    /// derivative, E0503), never taken for a C function without its source.
    #[test]
    fn an_interface_body_without_bind_c_is_not_taken_for_a_c_function() {
        let dummy = "subroutine root(g, n, y)\n  interface\n    function g(x) result(z)\n      \
            real(8), intent(in) :: x\n      real(8) :: z\n    end function g\n  end interface\n  \
            integer :: n\n  real(8) :: y(n)\n  y = g(y(1))\nend subroutine root\n";
        let (r, _) = parse(&[("root.f90", dummy)]);
        let program = r.expect("accepted");
        assert!(program.units().all(|u| u.deferred.is_empty()));
        let external = dummy
            .replace("subroutine root(g, n, y)", "subroutine root(n, y)")
            .replace("function g(x) result(z)", "function h(x) result(z)")
            .replace("end function g", "end function h")
            .replace("y = g(y(1))", "y = h(y(1))");
        let (r, _) = parse(&[("root.f90", &external)]);
        let program = r.expect("accepted");
        assert!(program.units().all(|u| u.deferred.is_empty()));
    }

    #[test]
    fn a_c_function_called_from_fortran_without_an_interface_is_refused_at_the_call() {
        let f = fortran("", "call rhs(n, a, y, f)");
        assert_eq!(
            errors(&[("root.f90", &f), ("rhs.c", C_RHS)]),
            vec![("E0415".to_string(), 5)]
        );
    }

    #[test]
    fn c_may_call_only_bind_c_fortran_with_its_number_of_arguments() {
        let c = "void scale(int n, double a, double *x);\nvoid root(int n, double a, double *x)\n{\n    scale(n, a, x);\n}\n";
        let plain = "subroutine scale(n, a, x)\n  integer :: n\n  real(8) :: a, x(n)\n  x = a * x\nend subroutine scale\n";
        assert_eq!(
            errors(&[("root.c", c), ("scale.f90", plain)]),
            vec![("E0415".to_string(), 4)]
        );
        let bound = "subroutine scale(n, a, x) bind(C)\n  use, intrinsic :: iso_c_binding\n  integer(c_int), value :: n\n  real(c_double), value :: a\n  real(c_double) :: x(n)\n  x = a * x\nend subroutine scale\n";
        assert!(parse(&[("root.c", c), ("scale.f90", bound)]).0.is_ok());
        let renamed = bound.replace("bind(C)", "bind(C, name=\"scale2\")");
        assert_eq!(
            errors(&[("root.c", c), ("scale.f90", &renamed)])[0].0,
            "E0415"
        );
    }

    #[test]
    fn a_bind_c_interface_of_real_arguments_needs_its_c_source() {
        let f = fortran(GOOD, "call rhs(n, a, y, f)");
        assert_eq!(errors(&[("root.f90", &f)]), vec![("E0415".to_string(), 6)]);
    }

    #[test]
    fn a_c_function_declared_by_an_interface_without_bind_c_is_refused() {
        let body = GOOD.replace(" bind(C)", "");
        let f = fortran(&body, "call rhs(n, a, y, f)");
        assert_eq!(
            errors(&[("root.f90", &f), ("rhs.c", C_RHS)])[0].0,
            "E0415".to_string()
        );
        // A generic name over it resolves to it, and the check still holds.
        let generic = GOOD.replace("  interface\n", "  interface rhs_generic\n");
        let f = fortran(&generic, "call rhs_generic(n, a, y, f)");
        assert!(parse(&[("root.f90", &f), ("rhs.c", C_RHS)]).0.is_ok());
    }
}
