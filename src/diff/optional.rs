//! Guards for OPTIONAL dummies in derivative units: a statement the differentiator adds
//! where an optional dummy (or its derivative, optional too) is not known present —
//! a snapshot before a call (`pushreal8array(grad, n)`), a zeroing at entry or exit —
//! runs only when it is present: `if (present(grad)) ...`. Original statements are
//! already guarded (`front::optional` checks it), and so are the derivative statements
//! placed next to them. Skipping such a statement when the dummy is absent is exact: an
//! absent argument has no value to save and no derivative to set.

use std::collections::{BTreeMap, BTreeSet};

use crate::il::bind_actuals;
use crate::il::{Arg, BinOp, Expr, ExprKind, Intrinsic, Stmt, StmtKind, Unit, key, visit};

/// Wraps the statements of `unit` that touch an optional dummy not known present.
/// `callee` finds a called unit by name (to pass an optional dummy on, unguarded, to an
/// optional dummy of the callee); `derivatives` names the derivative of each primal (by
/// key): a test that the primal is present proves its derivative present too.
pub fn guard(
    unit: &mut Unit,
    callee: &dyn Fn(&str) -> Option<Unit>,
    derivatives: &BTreeMap<String, String>,
) {
    let optional: BTreeMap<String, String> = unit
        .args
        .iter()
        .filter(|a| unit.is_optional(a))
        .map(|a| (key(a), a.clone()))
        .collect();
    if optional.is_empty() {
        return;
    }
    let g = Guard {
        optional,
        callee,
        derivatives,
    };
    let body = std::mem::take(&mut unit.body);
    unit.body = g.block(body, &BTreeSet::new());
}

struct Guard<'a> {
    /// The optional dummies, by key: their spelling.
    optional: BTreeMap<String, String>,
    callee: &'a dyn Fn(&str) -> Option<Unit>,
    derivatives: &'a BTreeMap<String, String>,
}

/// The names `cond` proves present: `present(x)` and the conjuncts of an `.and.`; with
/// `x`, its derivative.
fn proves_present(cond: &Expr, derivatives: &BTreeMap<String, String>, out: &mut BTreeSet<String>) {
    match &cond.kind {
        ExprKind::Intrinsic {
            op: Intrinsic::Present,
            args,
            ..
        } => {
            if let Some(n) = args.first().and_then(|a| a.value.base_name()) {
                out.insert(key(n));
                if let Some(d) = derivatives.get(crate::il::key_ref(n).as_ref()) {
                    out.insert(key(d));
                }
            }
        }
        ExprKind::Binary(BinOp::And, a, b) => {
            proves_present(a, derivatives, out);
            proves_present(b, derivatives, out);
        }
        ExprKind::Paren(x) => proves_present(x, derivatives, out),
        _ => {}
    }
}

impl Guard<'_> {
    /// The statements of a block, successive ones needing the same guard under one.
    fn block(&self, body: Vec<Stmt>, present: &BTreeSet<String>) -> Vec<Stmt> {
        let mut out: Vec<Stmt> = Vec::new();
        let mut last_guard: Option<BTreeSet<String>> = None;
        for s in body {
            let (s, guard) = self.stmt(s, present);
            match (&guard, &last_guard, out.last_mut()) {
                (Some(g), Some(l), Some(prev)) if g == l && s.label.is_none() => {
                    if let StmtKind::If { arms, .. } = &mut prev.kind {
                        if let StmtKind::If { arms: new, .. } = s.kind {
                            arms[0].1.extend(new.into_iter().flat_map(|(_, b)| b));
                        }
                        continue;
                    }
                    out.push(s);
                }
                _ => out.push(s),
            }
            last_guard = guard;
        }
        out
    }

    /// The statement, guarded when it touches an optional dummy not known present (then
    /// also the names the guard tests).
    fn stmt(&self, mut s: Stmt, present: &BTreeSet<String>) -> (Stmt, Option<BTreeSet<String>>) {
        let mut touched = BTreeSet::new();
        self.touched(&s, &mut touched);
        touched.retain(|n| !present.contains(n));
        if !touched.is_empty() {
            let names: Vec<&str> = touched.iter().map(|k| self.optional[k].as_str()).collect();
            return (wrap(s, &names), Some(touched));
        }
        if let StmtKind::If {
            arms, else_body, ..
        } = &mut s.kind
        {
            for (cond, body) in arms.iter_mut() {
                let mut inside = present.clone();
                proves_present(cond, self.derivatives, &mut inside);
                *body = self.block(std::mem::take(body), &inside);
            }
            if let Some(b) = else_body {
                *b = self.block(std::mem::take(b), present);
            }
            return (s, None);
        }
        for b in visit::child_blocks_mut(&mut s) {
            *b = self.block(std::mem::take(b), present);
        }
        (s, None)
    }

    /// The optional dummies the statement itself (not its nested blocks) touches.
    fn touched(&self, s: &Stmt, out: &mut BTreeSet<String>) {
        match &s.kind {
            StmtKind::Assign { lhs, .. } => {
                if let Some(n) = lhs.base_name() {
                    self.name(n, out);
                }
            }
            StmtKind::Call { name, args } => {
                self.call(name, args, out);
                return;
            }
            _ => {}
        }
        for e in visit::stmt_exprs(s) {
            self.expr(e, out);
        }
    }

    fn name(&self, n: &str, out: &mut BTreeSet<String>) {
        let base = key(n.split('%').next().unwrap_or(n));
        if self.optional.contains_key(&base) {
            out.insert(base);
        }
    }

    fn expr(&self, e: &Expr, out: &mut BTreeSet<String>) {
        match &e.kind {
            ExprKind::Intrinsic {
                op: Intrinsic::Present,
                ..
            } => {}
            ExprKind::Call(name, args) => self.call(name, args, out),
            ExprKind::Var(n) => self.name(n, out),
            ExprKind::Index(n, subs) => {
                self.name(n, out);
                subs.iter().for_each(|x| self.expr(x, out));
            }
            ExprKind::Intrinsic { args, .. } => args.iter().for_each(|a| self.expr(&a.value, out)),
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => self.expr(x, out),
            ExprKind::Binary(_, a, b) => {
                self.expr(a, out);
                self.expr(b, out);
            }
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => [lower, upper, stride]
                .into_iter()
                .flatten()
                .for_each(|x| self.expr(x, out)),
            ExprKind::ArrayCtor(items) => items.iter().for_each(|x| self.expr(x, out)),
            ExprKind::ImpliedDo(d) => d.exprs().for_each(|x| self.expr(x, out)),
            ExprKind::Substring { base, lower, upper } => {
                self.expr(base, out);
                [lower, upper]
                    .into_iter()
                    .flatten()
                    .for_each(|x| self.expr(x, out));
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
        }
    }

    /// A call's arguments; an optional dummy passed whole to an optional dummy of the
    /// callee is no use of it.
    fn call(&self, name: &str, args: &[Arg], out: &mut BTreeSet<String>) {
        let callee = (self.callee)(name);
        let bound = callee.as_ref().map(|c| bind_actuals(c, args));
        for (i, a) in args.iter().enumerate() {
            let passed_on = matches!(&a.value.kind, ExprKind::Var(_))
                && match (&callee, &bound) {
                    (Some(c), Some(b)) => {
                        let slot = b
                            .iter()
                            .position(|x| x.is_some_and(|x| std::ptr::eq(x, &a.value)))
                            .unwrap_or(i);
                        c.args.get(slot).is_some_and(|d| c.is_optional(d))
                    }
                    _ => false,
                };
            if !passed_on {
                self.expr(&a.value, out);
            }
        }
    }
}

/// `if (present(a) .and. present(b)) s`.
fn wrap(s: Stmt, names: &[&str]) -> Stmt {
    let cond = names
        .iter()
        .map(|n| Expr::intrinsic(Intrinsic::Present, vec![Expr::var(*n)]))
        .reduce(|a, b| Expr::binary(BinOp::And, a, b))
        .expect("a name to test");
    let label = s.label.clone();
    let mut inner = s;
    inner.label = None;
    let mut wrapped = Stmt::generated(StmtKind::If {
        arms: vec![(cond, vec![inner])],
        else_body: None,
        logical_if: false,
        name: None,
    });
    wrapped.label = label;
    wrapped
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use crate::{Mode, Request, RootRequest, SourceInput, differentiate};

    /// The adjoint of `s(x, y)` in `t.f90`.
    fn adjoint(text: &str) -> String {
        let request = Request {
            roots: vec![RootRequest {
                name: "s".to_string(),
                independents: vec!["x".to_string()],
                dependents: vec!["y".to_string()],
                modes: BTreeSet::from([Mode::Adjoint]),
                origin: None,
                entry_origins: Vec::new(),
            }],
            sizes: Vec::new(),
            black_boxes: Vec::new(),
            checkpoint_calls: true,
            naming: Default::default(),
            layout: Default::default(),
            option_warnings: Vec::new(),
            disabled: BTreeSet::new(),
        };
        let out = differentiate(&[SourceInput::new("t.f90", text)], &request)
            .unwrap_or_else(|f| panic!("{f}"));
        out.files
            .iter()
            .filter(|f| f.path.ends_with("_b.f90"))
            .map(|f| f.contents.clone())
            .collect()
    }

    #[test]
    fn presence_tests_are_asked_again_not_saved() {
        let text = "subroutine g(x, y, w)\n  real(8), intent(in) :: x\n  \
                    real(8), intent(inout) :: y\n  real(8), intent(inout), optional :: w\n  \
                    if (present(w)) then\n    w = w + x*x\n    y = y + w\n  else\n    \
                    y = y + sin(x)\n  end if\nend subroutine g\n\n\
                    subroutine s(x, y)\n  real(8), intent(in) :: x\n  \
                    real(8), intent(inout) :: y\n  real(8) :: w\n  w = 1.0d0\n  \
                    call g(x, y, w)\n  call g(x, y)\nend subroutine s\n";
        let b = adjoint(text);
        let g_b = &b[b.find("subroutine g_b").expect("g_b")..];
        let g_b = &g_b[..g_b.find("end subroutine g_b").expect("end")];
        assert!(
            !g_b.contains("pushcontrol") && !g_b.contains("popcontrol"),
            "{g_b}"
        );
        assert_eq!(g_b.matches("if (present(w)) then").count(), 2, "{g_b}");
    }
}
