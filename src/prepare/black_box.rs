//! The manifest's black boxes (`[black-box.PROCEDURE]`, INTERFACE.md §1; Tapenade's
//! black-box library entries, seeds/004 §6.2) applied to the program: each becomes a
//! procedure with its arguments and no body, which the analyses describe from the
//! manifest's `depends` and the differentiator never writes (derivative code calls the
//! user's derivatives instead).
//!
//! - A procedure the sources define loses its body: adgen neither reads it (whatever it
//!   holds cannot block a root) nor differentiates it. Its arguments must be the
//!   manifest's, in order. A module procedure's derivatives are the user's external
//!   procedures, not procedures of the derivative module.
//! - A procedure the sources only call gets a declaration made from its first call: each
//!   argument has the actual's type; an array actual, or an element of an array, makes
//!   an assumed-size array (the callee may reach the rest of the array through it).
//!
//! Problems are located in the manifest (or at the call that disagrees with it).

use crate::diag::{Diagnostic, Span};
use crate::il::symbols::{Symbol, SymbolTable};
use crate::il::types::{TypeRules, expr_type};
use std::collections::BTreeMap;

use crate::il::{
    Bound, DeclKind, DimSpec, Expr, ExprKind, Program, ScalarType, TypeSpec, Unit, key, visit,
};
use crate::request::{BlackBox, Request};

/// Fortran's intrinsic subroutines that only report on the machine (`CPU_TIME`): their
/// outputs depend on no input. L-BFGS-B times its phases into arrays that also carry
/// derivatives; without a table, each call was E0503.
const INTRINSIC_SUBROUTINES: [(&str, &str); 1] = [("cpu_time", "time")];

/// The request with a black box for each intrinsic subroutine the sources call and
/// neither define nor describe.
pub fn with_intrinsics<'r>(
    request: &'r Request,
    program: &Program,
) -> std::borrow::Cow<'r, Request> {
    let mut out = std::borrow::Cow::Borrowed(request);
    for (name, argument) in INTRINSIC_SUBROUTINES {
        let called = program.units().any(|u| {
            visit::called_names(u)
                .iter()
                .any(|c| c.eq_ignore_ascii_case(name))
        });
        let defined = program.units().any(|u| u.name.eq_ignore_ascii_case(name));
        if !called || defined || request.black_box(name).is_some() {
            continue;
        }
        out.to_mut().black_boxes.push(BlackBox {
            name: name.to_string(),
            arguments: vec![argument.to_string()],
            depends: vec![(argument.to_string(), Vec::new())],
            tangent: None,
            adjoint: None,
            origin: None,
        });
    }
    out
}

/// A black box that does not fit the sources.
pub const E_BLACK_BOX: &str = "E0129";

pub fn apply(program: Program, request: &Request) -> Result<Program, Vec<Diagnostic>> {
    if request.black_boxes.is_empty() {
        return Ok(program);
    }
    let mut out = program;
    let mut problems = Vec::new();
    for b in &request.black_boxes {
        let here = |message: String, help: &str| {
            Diagnostic::error(E_BLACK_BOX, message)
                .with_help(help.to_string())
                .at_origin(b.origin.as_ref())
        };
        let defined = out
            .files
            .iter_mut()
            .flat_map(|f| {
                let lang = f.language;
                f.units.iter_mut().map(move |u| (lang, u))
            })
            .find(|(_, u)| u.is_procedure() && u.name.eq_ignore_ascii_case(&b.name));
        if let Some((lang, unit)) = defined {
            if lang.calls_need_prototypes() {
                problems.push(here(
                    format!(
                        "`black-box.{}`: black boxes in C sources are not supported yet",
                        b.name
                    ),
                    "remove the table: adgen differentiates the function from its source",
                ));
                continue;
            }
            if unit.internal_of.is_some() {
                problems.push(here(
                    format!(
                        "`black-box.{}`: `{}` is an internal procedure, which cannot be a \
                         black box",
                        b.name, unit.name
                    ),
                    "remove the table (adgen differentiates it from its source), or make \
                     it a module or external procedure",
                ));
                continue;
            }
            let same = unit.args.len() == b.arguments.len()
                && unit
                    .args
                    .iter()
                    .zip(&b.arguments)
                    .all(|(a, m)| a.eq_ignore_ascii_case(m));
            if !same {
                problems.push(here(
                    format!(
                        "`black-box.{}.arguments` is ({}), but the source defines `{}({})`",
                        b.name,
                        b.arguments.join(", "),
                        unit.name,
                        unit.args.join(", ")
                    ),
                    "list the procedure's dummy arguments as its source does, in order",
                ));
                continue;
            }
            unit.body.clear();
            unit.external = true;
            unit.deferred.clear();
            unit.source_calls.clear();
            continue;
        }
        match stub(&out, b) {
            Ok(Some((file, unit))) => out.files[file].units.push(unit),
            Ok(None) => {}
            Err(d) => problems.push(d),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// A warning for each black box that no source calls or defines (a misspelt name would
/// otherwise describe nothing, without a word).
pub fn unused(program: &Program, request: &Request) -> Vec<Diagnostic> {
    let mut called = std::collections::BTreeSet::new();
    for u in program.units() {
        called.insert(key(&u.name));
        called.extend(visit::called_names(u).iter().map(|n| key(n)));
    }
    request
        .black_boxes
        .iter()
        .filter(|b| !called.contains(crate::il::key_ref(&b.name).as_ref()))
        .map(|b| {
            Diagnostic::warning(
                "W0104",
                format!(
                    "`black-box.{}`: no source defines or calls `{}`; the table is not used",
                    b.name, b.name
                ),
            )
            .with_help("check the spelling of the procedure's name")
            .at_origin(b.origin.as_ref())
        })
        .collect()
}

/// The declaration of a procedure the sources call but do not define, made from its first
/// call: (index of the caller's file, the unit). `None` when nothing calls it.
fn stub(program: &Program, b: &BlackBox) -> Result<Option<(usize, Unit)>, Diagnostic> {
    for (f, file) in program.files.iter().enumerate() {
        for caller in file.units.iter().filter(|u| u.is_procedure()) {
            let Some((args, is_function, span)) = first_call(caller, &b.name) else {
                continue;
            };
            if args.len() != b.arguments.len() || args.iter().any(|a| a.keyword.is_some()) {
                return Err(Diagnostic::error(
                    E_BLACK_BOX,
                    format!(
                        "`{}` is called with {} arguments here, but `black-box.{}.arguments` \
                         lists {}",
                        b.name,
                        args.len(),
                        b.name,
                        b.arguments.len()
                    ),
                )
                .at(span)
                .with_help("list every dummy argument of the procedure in the manifest, in order, and pass them all by position"));
            }
            if file.language.calls_need_prototypes() {
                return from_prototype(caller, b, span).map(|u| Some((f, u)));
            }
            let variable = |n: &str| {
                caller
                    .symbols
                    .get(n)
                    .map(|s| s.ty)
                    .unwrap_or(ScalarType::Real(8))
            };
            let rules = TypeRules {
                variable: &variable,
                function: &variable,
                default_real: 4,
            };
            let mut symbols = SymbolTable::default();
            for (k, (name, actual)) in b.arguments.iter().zip(&args).enumerate() {
                let declared = match &actual.value.kind {
                    ExprKind::Var(n) | ExprKind::Index(n, _) => caller.symbols.get(n),
                    _ => None,
                };
                let (ty, spec) = match declared {
                    Some(s) => (s.ty, s.type_spec.clone()),
                    None => {
                        let ty = expr_type(&actual.value, &rules);
                        (ty, TypeSpec::of(ty))
                    }
                };
                // An array, or an element of one (which may start the sequence an array
                // dummy is associated with, as BLAS calls pass `a(k+1,k)`): an array
                // dummy, the conservative reading (the call may touch the whole array).
                let dims = if declared.is_some_and(|s| s.is_array()) {
                    vec![DimSpec {
                        lower: None,
                        upper: Bound::Star,
                    }]
                } else {
                    Vec::new()
                };
                let mut sym = Symbol::local(name, ty, spec, dims);
                sym.arg_index = Some(k);
                symbols.insert(sym);
            }
            let result = is_function.then(|| b.name.clone());
            if let Some(r) = &result {
                let ty = caller
                    .symbols
                    .get(&b.name)
                    .map(|s| s.ty)
                    .unwrap_or(ScalarType::Real(8));
                let mut sym = Symbol::local(r, ty, TypeSpec::of(ty), Vec::new());
                sym.is_result = true;
                symbols.insert(sym);
            }
            let unit = Unit::declaration(
                &b.name,
                b.arguments.clone(),
                result,
                Vec::new(),
                symbols,
                Span::default(),
            );
            return Ok(Some((f, unit)));
        }
    }
    Ok(None)
}

/// A black box called from C: the interface body its prototype gave the caller (which
/// says what is passed by value and what by address), with the manifest's argument names.
fn from_prototype(caller: &Unit, b: &BlackBox, call: Span) -> Result<Unit, Diagnostic> {
    let body = caller.decls.iter().find_map(|d| match &d.kind {
        DeclKind::Interface(bodies) => bodies.iter().find(|u| u.name == b.name),
        _ => None,
    });
    let Some(body) = body else {
        return Err(Diagnostic::error(
            E_BLACK_BOX,
            format!(
                "`{}` is a black box, but no prototype declares it here (or its parameters \
                 are not numbers and arrays of numbers)",
                b.name
            ),
        )
        .at(call)
        .with_help(format!(
            "declare it before the call, as its library's header does: `double {}(...);`",
            b.name
        )));
    };
    let mut unit = body.clone();
    let renames: BTreeMap<String, String> = unit
        .args
        .iter()
        .zip(&b.arguments)
        .map(|(old, new)| (key(old), new.clone()))
        .collect();
    let renamed = |n: &str| renames.get(crate::il::key_ref(n).as_ref()).cloned();
    let mut symbols = SymbolTable::default();
    for sym in unit.symbols.iter() {
        let mut sym = sym.clone();
        if let Some(n) = renamed(&sym.name) {
            sym.name = n;
        }
        symbols.insert(sym);
    }
    unit.symbols = symbols;
    for d in &mut unit.decls {
        if let DeclKind::Var { entities, .. } = &mut d.kind {
            for e in entities {
                if let Some(n) = renamed(&e.name) {
                    e.name = n;
                }
            }
        }
    }
    unit.args = b.arguments.clone();
    unit.external = true;
    Ok(unit)
}

/// The arguments of the first call of `name` in `unit`, whether it is a function call,
/// and where it is.
fn first_call(unit: &Unit, name: &str) -> Option<(Vec<crate::il::Arg>, bool, Span)> {
    let mut found = None;
    visit::walk_stmts(&unit.body, &mut |s| {
        if found.is_some() {
            return;
        }
        if let crate::il::StmtKind::Call { name: n, args } = &s.kind {
            if n.eq_ignore_ascii_case(name) {
                found = Some((args.clone(), false, s.span));
                return;
            }
        }
        for e in visit::stmt_exprs(s) {
            visit::walk_expr(e, &mut |x: &Expr| {
                if let (None, ExprKind::Call(n, args)) = (&found, &x.kind) {
                    if n.eq_ignore_ascii_case(name) {
                        found = Some((args.clone(), true, x.span));
                    }
                }
            });
        }
    });
    found
}
