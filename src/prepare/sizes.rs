//! The manifest's size hints (`[sizes.PROCEDURE]`, INTERFACE.md §1; Tapenade's DIFFSIZES)
//! applied: an assumed-size array argument (C `double *y`, Fortran `y(*)`, `a(lda, *)`)
//! whose extent a hint gives becomes an explicit-shape array, so that its derivative can
//! be zeroed and the array saved like any other. Problems are located in the manifest.

use crate::diag::Diagnostic;
use crate::il::{
    Attr, BinOp, Bound, DeclKind, DimSpec, Expr, ExprKind, Language, Program, ScalarType, Unit, key,
};
use crate::request::{Request, SizeExpr, SizeHint};

use super::scalarize::shape::{int_literal, paren};

/// A size hint that does not fit the sources.
pub const E_SIZE_HINT: &str = "E0119";

/// The program with every hinted argument given its extent, or the hints' problems.
pub fn apply(program: Program, request: &Request) -> Result<Program, Vec<Diagnostic>> {
    let problems = check(&program, request);
    if !problems.is_empty() {
        return Err(problems);
    }
    if request.sizes.is_empty() {
        return Ok(program);
    }
    let mut out = program;
    for file in &mut out.files {
        let lang = file.language;
        for unit in file.units.iter_mut().filter(|u| u.is_procedure()) {
            let name = unit.name.clone();
            for hint in request
                .sizes
                .iter()
                .filter(|h| same(lang, &h.procedure, &name))
            {
                give_extent(unit, lang, hint);
            }
        }
    }
    Ok(out)
}

/// Problems with the hints that the sources reveal: no such procedure, no such argument,
/// an argument that is not an assumed-size array, a size that names what the procedure
/// does not have as an integer argument, constant, or COMMON or module variable.
pub fn check(program: &Program, request: &Request) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for hint in &request.sizes {
        let here = |message: String, help: &str| {
            Diagnostic::error(E_SIZE_HINT, message)
                .with_help(help.to_string())
                .at_origin(hint.origin.as_ref())
        };
        let units: Vec<(Language, &Unit)> = program
            .files
            .iter()
            .flat_map(|f| f.units.iter().map(move |u| (f.language, u)))
            .filter(|(lang, u)| u.is_procedure() && same(*lang, &hint.procedure, &u.name))
            .collect();
        // The stand-in of a function the front-end refused: its refusal is said later.
        if units.iter().any(|(_, u)| u.is_stand_in()) {
            continue;
        }
        if units.is_empty() {
            problems.push(here(
                format!(
                    "`sizes.{}`: no source defines `{}`",
                    hint.procedure, hint.procedure
                ),
                "name a procedure of the sources",
            ));
            continue;
        }
        for (lang, unit) in units {
            let symbol = unit
                .symbols
                .iter()
                .find(|s| s.is_dummy() && same(lang, &hint.argument, &s.name));
            let Some(symbol) = symbol else {
                problems.push(here(
                    format!(
                        "`sizes.{}.{}`: `{}` has no argument `{}`",
                        hint.procedure, hint.argument, unit.name, hint.argument
                    ),
                    "name an array argument of the procedure",
                ));
                continue;
            };
            if !symbol
                .dims
                .last()
                .is_some_and(|d| matches!(d.upper, Bound::Star))
            {
                problems.push(here(
                    format!(
                        "`sizes.{}.{}`: `{}` is not an assumed-size array (`double *{}`, `{}(*)`): \
                         adgen knows its size already",
                        hint.procedure, hint.argument, symbol.name, symbol.name, symbol.name
                    ),
                    "remove this line",
                ));
                continue;
            }
            let rows = unit.is_row_pointers(&hint.argument);
            // Two sizes for a matrix of row pointers only; its rows alone are allowed
            // (its row length may not be needed).
            if hint.row_length.is_some() && !rows {
                problems.push(here(
                    format!(
                        "`sizes.{}.{}`: `{}` is not a matrix of row pointers (`double **`), \
                         so it takes one size",
                        hint.procedure, hint.argument, symbol.name
                    ),
                    &format!("write `{} = \"n\"`, its number of elements", hint.argument),
                ));
                continue;
            }
            let mut names = hint.size.names();
            names.extend(hint.row_length.iter().flat_map(SizeExpr::names));
            // Each name once, however often the size uses it.
            let mut said = std::collections::BTreeSet::new();
            names.retain(|n| {
                said.insert(if lang == Language::C {
                    n.to_string()
                } else {
                    key(n)
                })
            });
            for name in names {
                let known = unit.symbols.iter().find(|s| same(lang, name, &s.name));
                // Arguments, constants, and (Fortran) variables of a COMMON block or a
                // module, as a specification expression may use them (ODEPACK's `N`).
                let usable = known.is_some_and(|s| {
                    matches!(s.ty, ScalarType::Integer(_))
                        && !s.is_array()
                        && (s.is_dummy()
                            || s.kind == crate::il::SymbolKind::Constant
                            || (lang != Language::C && s.is_variable() && s.global.is_some()))
                });
                if !usable {
                    problems.push(here(
                        format!(
                            "`sizes.{}.{}`: the size uses `{name}`, which is not an integer \
                             argument, constant or global variable of `{}`",
                            hint.procedure, hint.argument, unit.name
                        ),
                        "write the size with the procedure's integer arguments, constants and COMMON or module variables",
                    ));
                }
            }
            // Elements: of an integer vector argument (`ia(n+1) - 1`).
            let mut arrays = hint.size.arrays();
            arrays.extend(hint.row_length.iter().flat_map(SizeExpr::arrays));
            arrays.retain(|n| said.insert(format!("[{n}]")));
            for name in arrays {
                let known = unit.symbols.iter().find(|s| same(lang, name, &s.name));
                let usable = known.is_some_and(|s| {
                    matches!(s.ty, ScalarType::Integer(_)) && s.is_dummy() && s.rank() == 1
                });
                if !usable {
                    problems.push(here(
                        format!(
                            "`sizes.{}.{}`: the size takes an element of `{name}`, which is not \
                             an integer vector argument of `{}`",
                            hint.procedure, hint.argument, unit.name
                        ),
                        "an element in a size must be of an integer vector argument (`ia(n+1) - 1`)",
                    ));
                }
            }
        }
    }
    problems
}

/// C names are case-sensitive, Fortran names are not.
fn same(lang: Language, a: &str, b: &str) -> bool {
    match lang {
        Language::C => a == b,
        _ => key(a) == key(b),
    }
}

fn give_extent(unit: &mut Unit, lang: Language, hint: &SizeHint) {
    give_one_extent(unit, lang, hint, &hint.size);
    // An array of row pointers: the row length is its other (first) assumed extent.
    if let Some(row) = &hint.row_length {
        give_one_extent(unit, lang, hint, row);
    }
}

/// Gives the argument of `hint` the `size` of its last assumed-size dimension.
fn give_one_extent(unit: &mut Unit, lang: Language, hint: &SizeHint, size: &SizeExpr) {
    // Names as the procedure declares them (`N`, not the manifest's `n`), so the
    // derivative reads `WM(2 + N*N)` like the rest of the procedure.
    let spelled = |n: &str| match lang {
        Language::C => n.to_string(),
        _ => unit
            .symbols
            .get(n)
            .map_or_else(|| n.to_string(), |s| s.name.clone()),
    };
    let extent = to_expr(size, &spelled);
    // The assumed-size dimension: the last one, or for a member of an array of structs
    // (`bodies%vx`, the struct array's dimensions first) the last of the array's.
    let set = |dims: &mut Vec<DimSpec>| {
        if let Some(last) = dims
            .iter_mut()
            .rev()
            .find(|d| matches!(d.upper, Bound::Star))
        {
            {
                // upper = lower + extent - 1 (lower 1 when absent).
                last.upper = Bound::Expr(match &last.lower {
                    None => extent.clone(),
                    Some(lower) if int_literal(lower) == Some(1) => extent.clone(),
                    Some(lower) if int_literal(lower) == Some(0) => {
                        Expr::binary(BinOp::Sub, paren(extent.clone()), Expr::int(1))
                    }
                    Some(lower) => Expr::binary(
                        BinOp::Sub,
                        Expr::binary(BinOp::Add, paren(lower.clone()), paren(extent.clone())),
                        Expr::int(1),
                    ),
                });
            }
        }
    };
    for symbol in unit.symbols.iter_mut() {
        let member = symbol
            .name
            .split_once('%')
            .is_some_and(|(root, _)| same(lang, &hint.argument, root));
        if (symbol.is_dummy() && same(lang, &hint.argument, &symbol.name)) || member {
            set(&mut symbol.dims);
        }
    }
    for decl in &mut unit.decls {
        // `real, dimension(*) :: q`: the shape is the attribute's, which other entities
        // may share; the argument gets its own (`q(n)` overrides `dimension(*)`).
        let (attr_dims, entities) = match &mut decl.kind {
            DeclKind::Var {
                attrs, entities, ..
            } => (
                attrs.iter().find_map(|a| match a {
                    Attr::Dimension(d) => Some(d.clone()),
                    _ => None,
                }),
                entities,
            ),
            DeclKind::Dimension(entities) => (None, entities),
            _ => continue,
        };
        for e in entities.iter_mut() {
            if same(lang, &hint.argument, &e.name) {
                match &mut e.dims {
                    Some(dims) => set(dims),
                    None => {
                        if let Some(mut dims) = attr_dims.clone() {
                            set(&mut dims);
                            e.dims = Some(dims);
                        }
                    }
                }
            }
        }
    }
}

fn to_expr(size: &SizeExpr, spelled: &dyn Fn(&str) -> String) -> Expr {
    match size {
        SizeExpr::Int(v) => Expr::int(*v),
        SizeExpr::Name(n) => Expr::var(spelled(n)),
        SizeExpr::Binary(op, a, b) => {
            let op = match op {
                '+' => BinOp::Add,
                '-' => BinOp::Sub,
                '*' => BinOp::Mul,
                _ => BinOp::Div,
            };
            let (a, b) = (to_expr(a, spelled), to_expr(b, spelled));
            // Operands keep their grouping: n - (m - 1), (n + 1)*m.
            let b = if matches!(op, BinOp::Sub | BinOp::Div | BinOp::Mul) {
                paren(b)
            } else {
                b
            };
            let a = if matches!(op, BinOp::Mul | BinOp::Div) {
                paren(a)
            } else {
                a
            };
            Expr::binary(op, a, b)
        }
        SizeExpr::Element(n, i) => {
            Expr::new(ExprKind::Index(spelled(n), vec![to_expr(i, spelled)]))
        }
    }
}

/// Sizes from the calling context: an assumed-size vector dummy of a procedure that is
/// not a root (so adgen sees every call of its derivatives) takes the extent that every
/// call site passes, when they all pass the same constant one (`double proj[2]` passed
/// as `proj`, `&cam[9]` of `double cam[11]`). Repeated until nothing changes, so extents
/// flow down call chains. A procedure called with different or unknown extents keeps
/// its `*` (then E0504/E0507 ask for a `[sizes]` line where a size is needed).
pub fn from_callers(program: Program, request: &Request) -> Program {
    use std::collections::BTreeMap;
    let roots: std::collections::BTreeSet<String> =
        request.roots.iter().map(|r| key(&r.name)).collect();
    let mut program = program;
    // Each round fixes at least one dummy, and there are finitely many.
    loop {
        // (callee key, dummy index) -> the one extent every call passes (None: several).
        let mut seen: BTreeMap<(String, usize), Option<i64>> = BTreeMap::new();
        let index = program.index();
        for caller in program.units().filter(|u| u.is_procedure()) {
            let mut calls: Vec<(&str, &[crate::il::Arg])> = Vec::new();
            crate::il::visit::walk_stmts(&caller.body, &mut |s| {
                if let crate::il::StmtKind::Call { name, args } = &s.kind {
                    calls.push((name, args));
                }
                for e in crate::il::visit::stmt_exprs(s) {
                    crate::il::visit::walk_expr(e, &mut |x| {
                        if let crate::il::ExprKind::Call(name, args) = &x.kind {
                            calls.push((name, args));
                        }
                    });
                }
            });
            for (name, args) in calls {
                let Some(callee) = index.unit(name) else {
                    continue;
                };
                if roots.contains(crate::il::key_ref(&callee.name).as_ref()) {
                    continue;
                }
                for (i, actual) in crate::il::bind_actuals(callee, args)
                    .into_iter()
                    .enumerate()
                {
                    let Some(dummy) = callee.args.get(i).and_then(|a| callee.symbols.get(a)) else {
                        continue;
                    };
                    let open = dummy.dims.len() == 1 && matches!(dummy.dims[0].upper, Bound::Star);
                    if !open {
                        continue;
                    }
                    let extent = actual.and_then(|a| actual_extent(caller, a));
                    let slot = seen.entry((key(&callee.name), i)).or_insert(extent);
                    if *slot != extent {
                        *slot = None;
                    }
                }
            }
        }
        let fixed: Vec<((String, usize), i64)> = seen
            .into_iter()
            .filter_map(|(k, v)| Some((k, v?)))
            .filter(|(_, v)| *v > 0)
            .collect();
        if fixed.is_empty() {
            return program;
        }
        for file in &mut program.files {
            let lang = file.language;
            for unit in file.units.iter_mut().filter(|u| u.is_procedure()) {
                for ((callee, i), extent) in &fixed {
                    if key(&unit.name) != *callee {
                        continue;
                    }
                    let Some(argument) = unit.args.get(*i).cloned() else {
                        continue;
                    };
                    let hint = SizeHint {
                        procedure: unit.name.clone(),
                        argument,
                        size: SizeExpr::Int(*extent),
                        row_length: None,
                        origin: None,
                    };
                    give_extent(unit, lang, &hint);
                }
            }
        }
    }
}

/// The number of elements from `actual` to the end of its array, when constant: a whole
/// array of constant shape, or an element of a constant-size vector (sequence
/// association: `&a[k]`, `a(k)`).
fn actual_extent(caller: &Unit, actual: &Expr) -> Option<i64> {
    use crate::il::ExprKind;
    let (name, subs) = match &actual.kind {
        ExprKind::Var(n) => (n, None),
        ExprKind::Index(n, subs) if subs.len() == 1 => (n, Some(&subs[0])),
        _ => return None,
    };
    let symbol = caller.symbols.get(name)?;
    if symbol.dims.is_empty() {
        return None;
    }
    let bounds: Option<Vec<(i64, i64)>> = symbol
        .dims
        .iter()
        .map(|d| {
            let lower = match &d.lower {
                None => 1,
                Some(l) => constant(l)?,
            };
            match &d.upper {
                Bound::Expr(u) => Some((lower, constant(u)?)),
                _ => None,
            }
        })
        .collect();
    let bounds = bounds?;
    match subs {
        None => bounds
            .iter()
            .try_fold(1i64, |acc, (l, u)| acc.checked_mul(u - l + 1)),
        Some(k) if bounds.len() == 1 => {
            let k = constant(k)?;
            let (l, u) = bounds[0];
            (l..=u).contains(&k).then(|| u - k + 1)
        }
        Some(_) => None,
    }
}

/// The value of an integer constant expression of literals (`N - 1` after the C
/// front-end has replaced `N`). Not `scalarize::shape::linear`: that one divides nothing
/// and does not check overflow, which hostile input reaches here.
fn constant(e: &Expr) -> Option<i64> {
    use crate::il::ExprKind;
    match &e.kind {
        ExprKind::Int(t) => t.parse().ok(),
        ExprKind::Paren(inner) => constant(inner),
        ExprKind::Unary(crate::il::UnOp::Neg, inner) => constant(inner)?.checked_neg(),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (constant(a)?, constant(b)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => a.checked_div(b),
                _ => None,
            }
        }
        _ => None,
    }
}
