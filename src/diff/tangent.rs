//! Tangent mode (seeds/000 §4.3–4.6, §5.3): each active assignment is preceded by its
//! derivative assignment, each call of a differentiated procedure becomes a call of its
//! tangent, passive code is left as it was.
//!
//! Derivatives of variables that become active without being assigned (locals, and a
//! root's non-independent arguments) are set to zero on entry; a passive assignment to a
//! variable whose derivative is still needed resets that derivative (the explicit-zero
//! form of §4.6); [`super::implicit_zero`] then removes the resets nothing reads.

use std::collections::BTreeSet;

use crate::diag::Diagnostic;
use crate::il::{
    BinOp, Expr, ExprKind, Intrinsic, Stmt, StmtKind, TypeSpec, UnOp, Unit, UnitKind, key,
};

use super::partials::{Term, linearize};
use super::{UnitGen, assign, types};
use crate::analysis::effects::{CallSite, call_site};
use crate::il::bind_actuals;

pub fn tangent_unit(ug: &mut UnitGen) -> Unit {
    let unit = ug.unit;
    let (mut body, zeroed, outputs) = entry_zeroing(ug);
    let entry = body.len();
    body.extend(block(ug, &unit.body));
    drop_unread_output_zeroing(&mut body, entry, &outputs);
    let mut args = ug.derivative_args();
    let (kind, result) = match &unit.result {
        Some(r) if ug.ua.result_active => {
            args.push(r.clone());
            (UnitKind::Function, ug.deriv_name(r).map(str::to_string))
        }
        Some(r) => (UnitKind::Function, Some(r.clone())),
        None => (UnitKind::Subroutine, None),
    };
    if !ug.ctx.request.disabled.contains("implicit-zero") {
        super::implicit_zero::apply(ug, &mut body, &args, result.as_deref());
    }
    let reset = ug.reset_unreferenced_out_structures(&body);
    body.splice(0..0, reset);
    let decls = ug.declarations(&zeroed, &body);
    Unit {
        kind,
        name: ug
            .own_name()
            .expect("differentiated unit has a name")
            .to_string(),
        args,
        result,
        explicit_result: kind == UnitKind::Function,
        prefix_type: None,
        leading_comments: unit.leading_comments.clone(),
        decls,
        body,
        symbols: unit.symbols.clone(),
        span: unit.span,
        host: ug.ctx.derivative_host(unit),
        bind: ug.derivative_bind(),
        recursive: unit.recursive,
        source_calls: unit.source_calls.clone(),
        deferred: Vec::new(),
        deferred_entities: Vec::new(),
        followed_pointers: Vec::new(),
        internal_of: None,
        elemental: false,
        specialization: None,
        external: false,
    }
}

/// Zero derivatives that become active without being computed: locals, and a root's
/// derivative arguments that are not independents (their content is meaningless).
/// Also returns the derivatives of the INTENT(OUT) dummies it zeroes, by key.
fn entry_zeroing(ug: &mut UnitGen) -> (Vec<Stmt>, Vec<String>, BTreeSet<String>) {
    let mut stmts = Vec::new();
    let mut zeroed = Vec::new();
    let mut outputs = BTreeSet::new();
    let unit = ug.unit;
    // Module variables: their derivative is zero on entry unless the calling context
    // says they are varied there.
    for (name, d, varied_in, _) in ug.active_globals() {
        // A root that changes the allocation of a module array: the array may have
        // been allocated without its derivative (by the original code, run first).
        if ug.root.is_some()
            && ug.changes_allocation(&name)
            && !ug.is_independent(&name)
            && ug.root_paths(&name, false).is_empty()
        {
            stmts.push(super::heap::mirror_allocation(ug, &name, &d, false));
            continue;
        }
        if !varied_in {
            stmts.extend(global_zeroing(ug, &name, &d));
            continue;
        }
        // A root's structure of which only some components are independents.
        let paths = ug.root_paths(&name, false);
        if !paths.is_empty() {
            stmts.extend(ug.zero_on_entry_except(Expr::var(d), &name, &paths));
        }
    }
    for symbol in unit.symbols.iter() {
        if symbol.is_module_variable() || ug.is_program_global(&symbol.name) {
            continue;
        }
        let Some(d) = ug.deriv_name(&symbol.name).map(str::to_string) else {
            continue;
        };
        // Allocated (and zeroed) beside its primal.
        if unit.symbols.is_kept_allocatable(&symbol.name) {
            continue;
        }
        // A dummy of a non-root is its caller's business; an independent is seeded.
        if symbol.is_dummy() && (ug.root.is_none() || ug.is_independent(&symbol.name)) {
            continue;
        }
        // The components outside the paths the root names as independents (`s%u`).
        let kept = ug.root_paths(&symbol.name, false);
        let zeroing = ug.zero_on_entry_except(Expr::var(&d), &symbol.name, &kept);
        if symbol.is_dummy() {
            // INTENT(OUT) dummies have no meaningful value, hence no derivative, on
            // entry, but the caller's derivative may be anything: the root may pass it
            // to a callee's derivative before any statement sets it (its primal set by
            // a call that computes no derivative). Zeroed where it can be; a derivative
            // the body never reads loses the zeroing again (`drop_unread_output_zeroing`).
            if symbol.intent == Some(crate::il::Intent::Out) {
                // (No path names part of it: an independent is an input, E0123.)
                if zeroable_output(unit, symbol) {
                    stmts.extend(zeroing);
                    outputs.insert(key(&d));
                }
                continue;
            }
            // Its derivative is no longer INTENT(IN), unless a path names every
            // component that has one.
            if kept.is_empty() || !zeroing.is_empty() {
                zeroed.push(symbol.name.clone());
            }
        }
        if symbol
            .dims
            .iter()
            .any(|d| matches!(d.upper, crate::il::Bound::Star))
        {
            // A root's argument whose value on entry the root never reads: its derivative
            // is never read either, and is defined where the root writes (W0501 says so).
            let slot = symbol.arg_index.filter(|_| ug.root.is_some());
            if slot.is_some_and(|k| !ug.ua.summary.reads[k]) {
                ug.unsized_args.push(crate::diff::Unsized {
                    primal: symbol.name.clone(),
                    deriv: d.clone(),
                    mode: crate::request::Mode::Tangent,
                    span: symbol.span,
                    rows: ug.unit.is_row_pointers(&symbol.name),
                });
                continue;
            }
            ug.error(
                Diagnostic::error(
                    "E0504",
                    format!(
                        "the derivative of assumed-size array `{}` must be set to zero, but its \
                         size is unknown",
                        symbol.name
                    ),
                )
                .at(symbol.span)
                .with_help(crate::diff::unsized_args::size_help(unit, &symbol.name)),
            );
            continue;
        }
        stmts.extend(zeroing);
    }
    (stmts, zeroed, outputs)
}

/// Removes the zeroing on entry (the first `entry` statements of `body`) of the
/// derivatives of INTENT(OUT) dummies (`outputs`) that the rest of the body never
/// reads: a derivative only ever assigned (`yd(i) = ...`) holds the caller's garbage
/// only where the primal output is left undefined too.
fn drop_unread_output_zeroing(body: &mut Vec<Stmt>, entry: usize, outputs: &BTreeSet<String>) {
    if outputs.is_empty() {
        return;
    }
    let base = |n: &str| key(n.split('%').next().unwrap_or(n));
    let mut read = BTreeSet::new();
    crate::il::visit::walk_stmts(&body[entry..], &mut |s| {
        for e in crate::il::visit::stmt_exprs(s) {
            read.extend(crate::il::visit::names_read(e).into_iter().map(base));
        }
    });
    let mut k = 0;
    body.retain(|s| {
        k += 1;
        let zeroes = |lhs: &Expr| lhs.base_name().map(base);
        match &s.kind {
            StmtKind::Assign { lhs, .. } if k <= entry => {
                zeroes(lhs).is_none_or(|d| !outputs.contains(&d) || read.contains(&d))
            }
            _ => true,
        }
    });
}

/// The INTENT(OUT) dummy `symbol`'s storage is there on entry, with a known size: not
/// ALLOCATABLE (INTENT(OUT) has freed it), POINTER, OPTIONAL or assumed-size, nor a
/// structure with ALLOCATABLE components.
fn zeroable_output(unit: &crate::il::Unit, symbol: &crate::il::Symbol) -> bool {
    let sized = |s: &crate::il::Symbol| {
        !s.pointer
            && s.dims
                .iter()
                .all(|d| matches!(d.upper, crate::il::Bound::Expr(_)))
    };
    let assumed_shape = symbol
        .dims
        .iter()
        .all(|d| matches!(d.upper, crate::il::Bound::Colon));
    (sized(symbol) || (assumed_shape && !unit.declares_allocatable(&symbol.name)))
        && !symbol.pointer
        && !unit.is_optional(&symbol.name)
        && unit.symbols.components_of(&symbol.name).all(sized)
}

/// `d = 0` for the derivative `d` of module variable `name` (seen or not by the unit).
pub(crate) fn global_zeroing(ug: &UnitGen, name: &str, d: &str) -> Vec<Stmt> {
    let zeroing = global_zeroing_of(ug, name, d);
    // A module array whose allocation this unit changes may be unallocated here.
    if ug.changes_allocation(name) && !zeroing.is_empty() {
        return vec![crate::diff::heap::if_then(
            crate::diff::heap::allocated(d),
            zeroing,
        )];
    }
    zeroing
}

fn global_zeroing_of(ug: &UnitGen, name: &str, d: &str) -> Vec<Stmt> {
    if ug.unit.symbols.get(name).is_some() {
        return ug.zero_into(Expr::var(d), name);
    }
    let ty = ug
        .uir
        .zones
        .get(name)
        .map(|z| ug.uir.zones.zones[z].ty)
        .unwrap_or(crate::il::ScalarType::Real(8));
    if ty == crate::il::ScalarType::Derived {
        // Its real members, as its module declares them.
        let Some(module) = ug
            .symbol_or_global(name)
            .and_then(|s| s.global.as_ref())
            .and_then(|g| ug.ctx.program.module(&g.module))
        else {
            return Vec::new();
        };
        return module
            .symbols
            .components_of(name)
            .filter(|c| c.ty.carries_values())
            .filter(|c| ug.ctx.analyses.fields.keeps_path(&module.symbols, &c.name))
            .map(|c| {
                let rest = &c.name[name.len()..];
                assign(Expr::var(format!("{d}{rest}")), ug.zero(c.ty))
            })
            .collect();
    }
    vec![assign(Expr::var(d), ug.zero(ty))]
}

pub fn block(ug: &mut UnitGen, stmts: &[Stmt]) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        stmt(ug, s, &mut out);
    }
    out
}

fn stmt(ug: &mut UnitGen, s: &Stmt, out: &mut Vec<Stmt>) {
    if let Some(site) = call_site(s) {
        if ug.ctx.procedures.unit(site.callee).is_some() || matches!(s.kind, StmtKind::Call { .. })
        {
            call(ug, s, &site, out);
            let allocated = super::heap::allocated_by_call(ug, s);
            out.extend(super::heap::derivatives_after_call(ug, &allocated));
            let freed = super::heap::freed_by_call(ug, s);
            out.extend(super::heap::derivatives_freed_after_call(ug, &freed));
            let moved = super::heap::reallocated_by_call(ug, s);
            out.extend(super::heap::derivatives_after_reallocation(ug, &moved));
            return;
        }
        // A function adgen has no source for (`real(8), external :: g`, a procedure
        // argument no caller resolves): its derivative is unknown, never zero.
        refuse_unknown_callee(ug, s, &site);
    }
    match &s.kind {
        StmtKind::Assign { lhs, rhs } => {
            out.extend(derivative_assignment(ug, s, lhs, rhs));
            out.push(s.clone());
        }
        // A READ (kept where the procedure runs once): the values read are inputs, whose
        // derivatives are zero from here on.
        StmtKind::Io { writes, .. } => {
            out.push(s.clone());
            for w in writes {
                let Some(name) = w.base_name() else { continue };
                if let Some(d) = ug.dref(w).filter(|_| ug.useful_after(s, name)) {
                    if !read_in_implied_do(ug, s, w, writes) {
                        out.extend(ug.zero_into(d, name));
                    }
                }
            }
        }
        StmtKind::If {
            arms,
            else_body,
            logical_if,
            name,
        } => {
            let arms: Vec<(Expr, Vec<Stmt>)> = arms
                .iter()
                .map(|(c, b)| (c.clone(), block(ug, b)))
                .collect();
            let else_body = else_body.as_ref().map(|b| block(ug, b));
            let still_logical = *logical_if && arms.iter().all(|(_, b)| b.len() == 1);
            out.push(Stmt {
                kind: StmtKind::If {
                    arms,
                    else_body,
                    logical_if: still_logical,
                    name: name.clone(),
                },
                ..s.clone()
            });
        }
        StmtKind::Do {
            var,
            start,
            end,
            step,
            body,
            name,
        } => out.push(Stmt {
            kind: StmtKind::Do {
                var: var.clone(),
                start: start.clone(),
                end: end.clone(),
                step: step.clone(),
                body: block(ug, body),
                name: name.clone(),
            },
            ..s.clone()
        }),
        StmtKind::DoWhile { cond, body, name } => out.push(Stmt {
            kind: StmtKind::DoWhile {
                cond: cond.clone(),
                body: block(ug, body),
                name: name.clone(),
            },
            ..s.clone()
        }),
        StmtKind::Allocate(_) | StmtKind::Deallocate(_) => super::heap::tangent(ug, s, out),
        _ => out.push(s.clone()),
    }
}

/// An item of a READ subscripted by a variable the same statement sets (an implied DO,
/// `(a(j), j = 1, n)`): its derivative cannot be zeroed element by element after the
/// statement, so it is refused (E0513) when it has one; true then.
pub fn read_in_implied_do(ug: &mut UnitGen, s: &Stmt, w: &Expr, writes: &[Expr]) -> bool {
    let ExprKind::Index(name, subs) = &w.kind else {
        return false;
    };
    let set: Vec<&str> = writes
        .iter()
        .filter_map(|x| match &x.kind {
            ExprKind::Var(v) => Some(v.as_str()),
            _ => None,
        })
        .collect();
    let inner = subs
        .iter()
        .flat_map(crate::il::visit::names_read)
        .any(|n| set.iter().any(|v| v.eq_ignore_ascii_case(n)));
    if inner {
        ug.error(
            Diagnostic::error(
                "E0513",
                format!(
                    "`{name}`, which has a derivative, is read element by element in an implied DO"
                ),
            )
            .at(s.span)
            .with_help(format!(
                "read into `{name}` whole (`read (u, *) {name}`) or into a section \
                 (`{name}(1:n)`), or through a passive array copied into `{name}` after"
            )),
        );
    }
    inner
}

/// `lhsd = Σ ∂rhs/∂leaf · leafd`, or a reset to zero when the value is passive but its
/// derivative is still needed; nothing when the derivative is not needed. Split on the
/// active `sqrt` arguments being zero (`singular`).
fn derivative_assignment(ug: &mut UnitGen, s: &Stmt, lhs: &Expr, rhs: &Expr) -> Vec<Stmt> {
    let Some(name) = lhs.base_name() else {
        return Vec::new();
    };
    let Some(dlhs) = ug.dref(lhs) else {
        return Vec::new();
    };
    if !ug.useful_after(s, name) {
        return Vec::new();
    }
    let target_ty = ug.ty(lhs);
    let rhs = ug.as_assigned(rhs, target_ty);
    let ug: &UnitGen = ug;
    let info = ug.leaf_info(s);
    let variants = super::singular::variants(&rhs, &info);
    super::singular::statements(&variants, &mut |rhs| {
        let terms = super::singular::nonzero(linearize(rhs, &info));
        let value = tangent_sum(ug, &terms).map(|e| convert(ug, e, target_ty));
        vec![assign(
            dlhs.clone(),
            value.unwrap_or_else(|| ug.zero(target_ty)),
        )]
    })
}

/// `Σ ± coeff·leafd` over the terms, `None` when there are none.
pub fn tangent_sum(ug: &UnitGen, terms: &[Term]) -> Option<Expr> {
    let mut sum: Option<Expr> = None;
    for t in terms {
        let d = ug
            .dref(&t.leaf)
            .expect("active leaves have derivative storage");
        let term = crate::diff::partials::tangent_contribution(t, d);
        sum = Some(match sum {
            None if t.negative => Expr::unary(UnOp::Neg, term),
            None => term,
            Some(acc) => Expr::binary(if t.negative { BinOp::Sub } else { BinOp::Add }, acc, term),
        });
    }
    sum
}

/// Wraps `e` in a conversion when it is a wider real than the target (gfortran -Wall
/// warns on narrowing assignments).
pub fn convert(ug: &UnitGen, e: Expr, target: crate::il::ScalarType) -> Expr {
    let (from, to) = (
        types::real_kind(ug.ty_with_derivatives(&e)),
        types::real_kind(target),
    );
    if from > to && target.is_differentiable() && !target.is_complex() {
        Expr::intrinsic(Intrinsic::Real, vec![e, Expr::int(to as i64)])
    } else {
        e
    }
}

fn call(ug: &mut UnitGen, s: &Stmt, site: &CallSite, out: &mut Vec<Stmt>) {
    let Some(dname) = ug.ctx.derivative_of(site.callee).map(str::to_string) else {
        passive_call(ug, s, site, out);
        return;
    };
    if ug.call_is_passive(s, site) {
        passive_call(ug, s, site, out);
        return;
    }
    let (cu, ca) = ug
        .ctx
        .unit_analysis(site.callee)
        .expect("differentiated units are known");
    let callee = cu.unit;
    let actuals = bind_actuals(callee, site.args);
    let mut args = Vec::new();
    // After an absent OPTIONAL argument (and its absent derivative), arguments go by
    // keyword.
    let mut by_keyword = false;
    let mut keywords: Vec<Option<String>> = Vec::new();
    for (k, actual) in actuals.iter().enumerate() {
        let Some(actual) = actual else {
            if callee.is_optional(&callee.args[k]) {
                by_keyword = true;
                continue;
            }
            ug.error(super::missing_argument(callee, k, s.span));
            return;
        };
        let first = args.len();
        args.push((*actual).clone());
        if ca.deriv_args[k] {
            let formal = callee.symbols.get(&callee.args[k]);
            let formal_ty = formal
                .map(|f| f.ty)
                .unwrap_or(crate::il::ScalarType::Real(8));
            let formal_is_array = formal.is_some_and(|f| f.is_array());
            match ug.dref(actual) {
                Some(d) => args.push(d),
                None if formal_is_array => {
                    match ug.zero_array_argument(actual, &callee.args[k], formal_ty) {
                        Some((temp, zero)) => {
                            out.push(zero);
                            args.push(Expr::var(temp));
                        }
                        None => {
                            ug.error(super::array_expression_argument(callee, k, actual.span));
                            return;
                        }
                    }
                }
                None => {
                    let terms = linearize(actual, &ug.leaf_info(s));
                    let value = tangent_sum(ug, &terms)
                        .map(|e| convert(ug, e, formal_ty))
                        .unwrap_or_else(|| ug.zero(formal_ty));
                    let name = ug.derivative_name_of(&format!("arg{}", k + 1));
                    let temp = ug.temp(&name, TypeSpec::of(formal_ty));
                    out.push(assign(Expr::var(&temp), value));
                    args.push(Expr::var(temp));
                }
            }
        }
        if by_keyword {
            keywords.resize(first, None);
            keywords.push(Some(callee.args[k].clone()));
            if args.len() > first + 1 {
                keywords.push(super::callee_deriv_name(
                    ug.ctx,
                    site.callee,
                    &callee.args[k],
                ));
            }
        }
    }
    keywords.resize(args.len(), None);
    let Some(lhs) = site.result_lhs else {
        out.push(Stmt {
            kind: StmtKind::Call {
                name: dname,
                args: super::keyword_args(args, &keywords, by_keyword, None),
            },
            ..s.clone()
        });
        return;
    };
    // The primal result, the tangent's last argument, is the callee's result.
    let result_keyword = callee.result.clone();
    // A function: declare its tangent, which returns a value.
    let result_sym = callee.result.as_deref().and_then(|r| callee.symbols.get(r));
    let result_ty = result_sym
        .map(|r| r.ty)
        .unwrap_or(crate::il::ScalarType::Real(8));
    let spec = match ug.unit.symbols.get(site.callee) {
        Some(sym) => sym.type_spec.clone(),
        None => TypeSpec::of(result_ty),
    };
    // A module procedure's derivative is known by use or host association (a black
    // box's is external).
    if ug.ctx.derivative_host(callee).is_none() {
        ug.called_functions.insert(dname.clone(), spec.clone());
    }
    let lhs_name = lhs.base_name().unwrap_or_default().to_string();
    let needs_deriv = ug.dref(lhs).is_some() && ug.useful_after(s, &lhs_name);
    let call_expr = |args: Vec<Expr>| Expr {
        kind: ExprKind::Call(
            dname.clone(),
            super::keyword_args(args, &keywords, by_keyword, result_keyword.clone()),
        ),
        span: s.span,
    };
    if !ca.result_active {
        if needs_deriv {
            out.push(assign(ug.dref(lhs).expect("checked"), ug.zero(ug.ty(lhs))));
        }
        out.push(Stmt {
            kind: StmtKind::Assign {
                lhs: lhs.clone(),
                rhs: call_expr(args),
            },
            ..s.clone()
        });
        return;
    }
    let aliased = args.iter().any(|a| {
        crate::il::visit::names_read(a)
            .iter()
            .any(|n| key(n) == key(&lhs_name))
    });
    // A result of another type or kind than the variable it is assigned to (a `real`
    // function assigned to a double precision variable) goes through a temporary of
    // its own type: the variable cannot be the tangent's result argument.
    let converted = ug.ty(lhs) != result_ty;
    if aliased || converted || !matches!(lhs.kind, ExprKind::Var(_) | ExprKind::Index(..)) {
        let primal = ug.temp("result", spec.clone());
        // A struct result's derivative has the derivative type.
        let deriv = ug.temp(
            &ug.derivative_name_of("result"),
            ug.ctx.derivative_spec(&spec),
        );
        args.push(Expr::var(&primal));
        out.push(Stmt {
            kind: StmtKind::Assign {
                lhs: Expr::var(&deriv),
                rhs: call_expr(args),
            },
            ..s.clone()
        });
        if needs_deriv {
            let target_ty = ug.ty(lhs);
            out.push(assign(
                ug.dref(lhs).expect("checked"),
                convert(ug, Expr::var(deriv), target_ty),
            ));
        }
        out.push(assign(lhs.clone(), Expr::var(primal)));
        return;
    }
    // The variable has the result's type: it is the tangent's result argument, and
    // its derivative takes the returned value.
    args.push(lhs.clone());
    let target = if needs_deriv {
        ug.dref(lhs).expect("checked")
    } else {
        let t = ug.temp(
            &ug.derivative_name_of("result"),
            ug.ctx.derivative_spec(&spec),
        );
        Expr::var(t)
    };
    out.push(Stmt {
        kind: StmtKind::Assign {
            lhs: target,
            rhs: call_expr(args),
        },
        ..s.clone()
    });
}

/// A call of a procedure that is not differentiated: kept; refused when it could touch
/// active values (an external procedure adgen has no source for).
fn passive_call(ug: &mut UnitGen, s: &Stmt, site: &CallSite, out: &mut Vec<Stmt>) {
    refuse_unknown_callee(ug, s, site);
    if let Some(lhs) = site.result_lhs {
        let name = lhs.base_name().unwrap_or_default().to_string();
        if let Some(d) = ug.dref(lhs) {
            if ug.useful_after(s, &name) {
                out.push(assign(d, ug.zero(ug.ty(lhs))));
            }
        }
    }
    // Zeroed before the call: it may read the primals, never the derivatives.
    let zeroed = ug.passive_overwrites(s, site);
    out.extend(zeroed);
    out.push(s.clone());
}

/// E0503 for a call of a procedure adgen has no source for (no unit) that could touch
/// active values: its derivative is unknown. Both modes ask this of every such call,
/// CALL statements and function references alike.
pub fn refuse_unknown_callee(ug: &mut UnitGen, s: &Stmt, site: &CallSite) {
    if ug.ctx.procedures.unit(site.callee).is_none() && touches_active(ug, s, site) {
        ug.error(unknown_procedure(ug, site.callee, s, site.args));
    }
}

/// The call passes a value with a non-trivial derivative, or may overwrite a variable
/// whose derivative is still needed.
pub fn touches_active(ug: &UnitGen, s: &Stmt, site: &CallSite) -> bool {
    site.args.iter().any(|a| {
        !linearize(&a.value, &ug.leaf_info(s)).is_empty()
            || a.value
                .base_name()
                .is_some_and(|n| ug.deriv_ref_name(n).is_some() && ug.useful_after(s, n))
    }) || site.result_lhs.is_some_and(|l| {
        l.base_name()
            .is_some_and(|n| ug.deriv_ref_name(n).is_some() && ug.useful_after(s, n))
            && site
                .args
                .iter()
                .any(|a| !linearize(&a.value, &ug.leaf_info(s)).is_empty())
    })
}

/// E0503, whose help gives the two ways out: the source, or a black-box table of
/// `ad.toml` to fill in (arguments named after the actuals where they are variables).
pub fn unknown_procedure(
    ug: &UnitGen,
    name: &str,
    s: &Stmt,
    args: &[crate::il::Arg],
) -> Diagnostic {
    // A procedure argument that no caller resolves (`prepare::specialize`): a root's.
    if ug.unit.args.iter().any(|a| a.eq_ignore_ascii_case(name)) {
        return Diagnostic::error(
            "E0503",
            format!(
                "`{name}`, a procedure argument of `{}`, is called with active arguments: adgen \
                 differentiates a procedure argument only through a caller that passes a \
                 procedure by name",
                ug.unit.name
            ),
        )
        .at(s.span)
        .with_help(format!(
            "differentiate a procedure that calls `{}` with the procedure by name (`call {}(..., my_model, ...)`) instead",
            ug.unit.name, ug.unit.name
        ));
    }
    // From C, the table describes the function as its prototype declares it (by value or
    // by address); without a prototype there is nothing to describe it from.
    let c_prototype = ug.unit.decls.iter().find_map(|d| match &d.kind {
        crate::il::DeclKind::Interface(bodies) => bodies.iter().find(|b| b.name == name),
        _ => None,
    });
    if ug.language().calls_need_prototypes() && c_prototype.is_none() {
        return Diagnostic::error(
            "E0503",
            format!("`{name}` is called with active arguments, but adgen has no source for it"),
        )
        .at(s.span)
        .with_help(format!(
            "add the file that defines `{name}` to `sources`, so that adgen can differentiate \
             it; or declare it by its prototype before the call and describe it in a \
             `[black-box.{name}]` table of ad.toml"
        ));
    }
    // Each argument named after the prototype's parameter, else after its actual where
    // that is a variable not named already (the same array may be passed twice), else by
    // its position.
    let mut names: Vec<String> = Vec::new();
    for (k, a) in args.iter().enumerate() {
        let name = match (c_prototype, &a.value.kind) {
            (Some(p), _) => p.args.get(k).cloned(),
            (None, ExprKind::Var(v) | ExprKind::Index(v, _)) => Some(v.to_ascii_lowercase()),
            _ => None,
        }
        .filter(|n| !names.contains(n))
        .unwrap_or_else(|| format!("arg{}", k + 1));
        names.push(name);
    }
    let quoted = |v: &[String]| {
        v.iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // A function's result is named by the function's name and depends on every
    // argument; a subroutine's guess: its last argument from the others.
    let function = match c_prototype {
        Some(p) => p.result.is_some(),
        None => matches!(s.kind, StmtKind::Assign { .. }),
    };
    let depends = match names.split_last() {
        Some((last, rest)) if !function => format!("{{ {last} = [{}] }}", quoted(rest)),
        _ => format!("{{ {name} = [{}] }}", quoted(&names)),
    };
    Diagnostic::error(
        "E0503",
        format!("`{name}` is called with active arguments, but adgen has no source for it"),
    )
    .at(s.span)
    .with_help(format!(
        "add the file that defines `{name}` to `sources`, so that adgen can differentiate it; \
         or write its derivatives `{name}_d` and `{name}_b` yourself and describe it in \
         ad.toml, with what it overwrites and from which arguments:\n\
         \x20   [black-box.{name}]\n\
         \x20   arguments = [{}]\n\
         \x20   depends = {depends}",
        quoted(&names)
    ))
}
