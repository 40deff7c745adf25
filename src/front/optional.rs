//! OPTIONAL dummies over the whole program (Fortran `OPTIONAL` / `PRESENT`, a C pointer
//! parameter tested against `NULL`): what adgen checks so that no code, original or
//! derivative, touches an absent argument.
//!
//! - Every use of an optional dummy lies where it is known present: in the branch of an
//!   `IF` whose condition is `present(x)` (or a conjunction holding it), or after an arm
//!   testing `.not. present(x)`; the test itself, and passing the dummy on to an
//!   optional dummy of a callee, are uses too. Derivative code is generated next to the
//!   original statements, so it inherits these guards, and the derivative of an
//!   optional dummy is optional and present exactly when its primal is.
//! - An absent actual argument (C `NULL`, an omitted Fortran argument) is given only
//!   for an optional dummy of the callee, and a keyword names one of its dummies.
//!
//! Diagnostic codes: E0641 / E0426 an optional dummy used where it may be absent (C /
//! Fortran), E0642 / E0427 an argument absent for a dummy that is not optional (for C:
//! `NULL` passed to a pointer parameter the callee never tests), E0643 / E0428 a keyword
//! that names no dummy of the callee.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{Diagnostic, Span};
use crate::il::{BinOp, Expr, ExprKind, Intrinsic, Program, Stmt, StmtKind, UnOp, Unit, key};

/// The problems of optional dummies and absent arguments in `program`.
pub fn check(program: &Program) -> Vec<Diagnostic> {
    by_unit(program)
        .into_iter()
        .flat_map(|(_, _, d)| d)
        .collect()
}

/// The problems of `program`, each deferred to the unit it is found in
/// (`Unit::deferred`): said when a root reaches that unit.
pub fn defer(program: &mut Program) {
    for (f, u, diags) in by_unit(program) {
        program.files[f].units[u].deferred.extend(diags);
    }
}

/// The problems of each unit, by file and unit index.
fn by_unit(program: &Program) -> Vec<(usize, usize, Vec<Diagnostic>)> {
    let mut units: BTreeMap<String, &Unit> = BTreeMap::new();
    for u in program.units().filter(|u| u.is_procedure()) {
        units.insert(key(&u.name), u);
    }
    let mut found = Vec::new();
    for (fi, file) in program.files.iter().enumerate() {
        let c = file.language == crate::il::Language::C;
        for (ui, u) in file.units.iter().enumerate() {
            if !u.is_procedure() {
                continue;
            }
            let mut out = Vec::new();
            let optional: BTreeSet<String> = u
                .args
                .iter()
                .filter(|a| u.is_optional(a))
                .map(|a| key(a))
                .collect();
            let mut cx = Check {
                units: &units,
                optional,
                c,
                out: &mut out,
            };
            cx.block(&u.body, &BTreeSet::new());
            if !out.is_empty() {
                found.push((fi, ui, out));
            }
        }
    }
    found
}

struct Check<'a, 'o> {
    units: &'a BTreeMap<String, &'a Unit>,
    /// The optional dummies of the unit being checked (keys).
    optional: BTreeSet<String>,
    /// Is the unit C (for the codes and wording of the diagnostics)?
    c: bool,
    out: &'o mut Vec<Diagnostic>,
}

/// The names `cond` proves present: `present(x)`, and the conjuncts of an `.and.`.
fn proves_present(cond: &Expr, out: &mut BTreeSet<String>) {
    match &cond.kind {
        ExprKind::Intrinsic {
            op: Intrinsic::Present,
            args,
            ..
        } => {
            if let Some(n) = args.first().and_then(|a| a.value.base_name()) {
                out.insert(key(n));
            }
        }
        ExprKind::Binary(BinOp::And, a, b) => {
            proves_present(a, out);
            proves_present(b, out);
        }
        ExprKind::Paren(x) => proves_present(x, out),
        _ => {}
    }
}

/// The name `cond` proves absent: `.not. present(x)`.
fn proves_absent(cond: &Expr) -> Option<String> {
    match &cond.kind {
        ExprKind::Unary(UnOp::Not, x) | ExprKind::Paren(x) => {
            let mut set = BTreeSet::new();
            if matches!(cond.kind, ExprKind::Paren(_)) {
                return proves_absent(x);
            }
            proves_present(x, &mut set);
            (set.len() == 1).then(|| set.into_iter().next().expect("one"))
        }
        _ => None,
    }
}

impl Check<'_, '_> {
    fn block(&mut self, body: &[Stmt], present: &BTreeSet<String>) {
        for s in body {
            self.stmt(s, present);
        }
    }

    fn stmt(&mut self, s: &Stmt, present: &BTreeSet<String>) {
        match &s.kind {
            StmtKind::If {
                arms, else_body, ..
            } => {
                let mut after = present.clone();
                for (cond, body) in arms {
                    self.expr(cond, &after);
                    let mut inside = after.clone();
                    proves_present(cond, &mut inside);
                    self.block(body, &inside);
                    if let Some(n) = proves_absent(cond) {
                        after.insert(n);
                    }
                }
                if let Some(b) = else_body {
                    self.block(b, &after);
                }
                return;
            }
            StmtKind::Assign { lhs, .. } => {
                if let Some(n) = lhs.base_name() {
                    self.name(n, lhs.span, present);
                }
            }
            StmtKind::Call { name, args } => {
                self.call(name, args, s.span, present);
                for b in crate::il::visit::child_blocks(s) {
                    self.block(b, present);
                }
                return;
            }
            _ => {}
        }
        for e in crate::il::visit::stmt_exprs(s) {
            self.expr(e, present);
        }
        for b in crate::il::visit::child_blocks(s) {
            self.block(b, present);
        }
    }

    /// A use of the variable `n` (a path `s%x` uses `s`).
    fn name(&mut self, n: &str, at: Span, present: &BTreeSet<String>) {
        let base = key(n.split('%').next().unwrap_or(n));
        if !self.optional.contains(&base) || present.contains(&base) {
            return;
        }
        let (code, message, help) = if self.c {
            (
                "E0641",
                format!(
                    "`{base}` may be NULL here: the function tests it against NULL \
                     elsewhere, so it is an optional argument, and every use must be \
                     guarded"
                ),
                format!("use `{base}` only inside `if ({base} != NULL) {{ ... }}`"),
            )
        } else {
            (
                "E0426",
                format!("the OPTIONAL dummy `{base}` may be absent here"),
                format!("use `{base}` only inside `if (present({base})) then ... end if`"),
            )
        };
        self.out
            .push(Diagnostic::error(code, message).at(at).with_help(help));
    }

    fn expr(&mut self, e: &Expr, present: &BTreeSet<String>) {
        match &e.kind {
            ExprKind::Intrinsic {
                op: Intrinsic::Present,
                ..
            } => {}
            ExprKind::Var(n) => self.name(n, e.span, present),
            ExprKind::Index(n, subs) => {
                self.name(n, e.span, present);
                for x in subs {
                    self.expr(x, present);
                }
            }
            ExprKind::Call(name, args) => self.call(name, args, e.span, present),
            ExprKind::Intrinsic { args, .. } => {
                for a in args {
                    self.expr(&a.value, present);
                }
            }
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => self.expr(x, present),
            ExprKind::Binary(_, a, b) => {
                self.expr(a, present);
                self.expr(b, present);
            }
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => {
                for x in [lower, upper, stride].into_iter().flatten() {
                    self.expr(x, present);
                }
            }
            ExprKind::ArrayCtor(items) => {
                for x in items {
                    self.expr(x, present);
                }
            }
            ExprKind::ImpliedDo(d) => {
                for x in d.exprs() {
                    self.expr(x, present);
                }
            }
            ExprKind::Substring { base, lower, upper } => {
                self.expr(base, present);
                for x in [lower, upper].into_iter().flatten() {
                    self.expr(x, present);
                }
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
        }
    }

    /// A call: its actual arguments bind to the callee's dummies; an optional dummy of
    /// ours may be passed on, whole, to an optional dummy of the callee.
    fn call(&mut self, name: &str, args: &[crate::il::Arg], at: Span, present: &BTreeSet<String>) {
        let callee = self.units.get(crate::il::key_ref(name).as_ref()).copied();
        if let Some(callee) = callee {
            for a in args {
                if let Some(k) = &a.keyword {
                    if !callee.args.iter().any(|d| d.eq_ignore_ascii_case(k)) {
                        let code = if self.c { "E0643" } else { "E0428" };
                        self.out.push(
                            Diagnostic::error(
                                code,
                                format!("`{}` has no parameter named `{k}`", callee.name),
                            )
                            .at(if a.value.span == Span::default() {
                                at
                            } else {
                                a.value.span
                            })
                            .with_help("name the parameters of the prototype as in the definition"),
                        );
                    }
                }
            }
            let bound = crate::il::bind_actuals(callee, args);
            for (k, actual) in bound.iter().enumerate() {
                let dummy = &callee.args[k];
                if actual.is_none() && !callee.is_optional(dummy) {
                    let (code, message, help) = if self.c {
                        (
                            "E0642",
                            format!(
                                "NULL is passed for `{dummy}`, which `{}` uses without testing \
                                 it against NULL",
                                callee.name
                            ),
                            format!(
                                "pass an array, or make `{}` test `{dummy}` (`if ({dummy} != \
                                 NULL)`) around its uses",
                                callee.name
                            ),
                        )
                    } else {
                        (
                            "E0427",
                            format!(
                                "the argument `{dummy}` of `{}` is missing, and it is not \
                                 OPTIONAL",
                                callee.name
                            ),
                            format!("pass `{dummy}`, or declare it OPTIONAL"),
                        )
                    };
                    self.out
                        .push(Diagnostic::error(code, message).at(at).with_help(help));
                }
            }
        }
        let bound = callee.map(|c| crate::il::bind_actuals(c, args));
        for (i, a) in args.iter().enumerate() {
            let passed_on = matches!(&a.value.kind, ExprKind::Var(n) if self.optional.contains(crate::il::key_ref(n).as_ref()))
                && callee.is_some_and(|c| {
                    let slot = bound
                        .as_ref()
                        .and_then(|b| {
                            b.iter()
                                .position(|x| x.is_some_and(|x| std::ptr::eq(x, &a.value)))
                        })
                        .unwrap_or(i);
                    c.args.get(slot).is_some_and(|d| c.is_optional(d))
                });
            if !passed_on {
                self.expr(&a.value, present);
            }
        }
    }
}
