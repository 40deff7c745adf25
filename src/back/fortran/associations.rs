//! The integer variables that stand for a module's POINTER ([`il::Attr::Association`],
//! made by the Fortran front-end for pointers procedures associate with `=>`) are
//! printed as the pointer itself: the user's module, compiled as written, declares the
//! pointer, not the integer, and the original procedures the derivatives call set the
//! pointer. So, before a file is printed:
//! - a read of the variable is the position of the pointer's target among its
//!   candidates (`merge(1, merge(2, 0, associated(u, u_2)), associated(u, u_1))`),
//!   written as the test itself where it is compared (`associated(u, u_1)` for
//!   `u_target == 1`, `.not. associated(u)` for `u_target == 0`);
//! - setting it associates the pointer (`u => u_1`, `nullify(u)`, `u => un` for another
//!   such variable of the same targets; else a SELECT CASE of the value);
//! - a tape pop into it pops into a local integer of that name, then associates;
//! - an ONLY list that names it names the pointer.

use std::collections::BTreeMap;

use crate::il::{
    self, Arg, Association, Attr, BinOp, Case, CaseValue, DeclKind, Expr, ExprKind, Stmt, StmtKind,
    UnOp, key,
};

/// The association variables of `modules`' declarations, by key.
pub(super) fn of<'a>(modules: impl Iterator<Item = &'a il::Unit>) -> BTreeMap<String, Association> {
    let mut out = BTreeMap::new();
    for m in modules {
        for d in &m.decls {
            if let DeclKind::Var {
                attrs, entities, ..
            } = &d.kind
            {
                for a in attrs {
                    if let Attr::Association(assoc) = a {
                        for e in entities {
                            out.insert(key(&e.name), (**assoc).clone());
                        }
                    }
                }
            }
        }
    }
    out
}

/// Writes `unit`'s association variables as their pointers (see the module doc).
pub(super) fn lower(unit: &mut il::Unit, vars: &BTreeMap<String, Association>) {
    // Their declarations (a module's) are the pointers' in the source.
    for d in &mut unit.decls {
        if let DeclKind::Var { attrs, .. } = &d.kind
            && let Some(Attr::Association(a)) =
                attrs.iter().find(|a| matches!(a, Attr::Association(_)))
        {
            *d = (*a.declaration).clone();
        }
    }
    unit.decls.retain_mut(|d| match &mut d.kind {
        DeclKind::Use {
            only: Some(names), ..
        } => {
            let mut out: Vec<String> = Vec::with_capacity(names.len());
            for n in names.drain(..) {
                let n = vars.get(&key(&n)).map_or(n, |a| a.pointer.clone());
                if !out.iter().any(|o| key(o) == key(&n)) {
                    out.push(n);
                }
            }
            *names = out;
            true
        }
        DeclKind::Access { names, .. } => {
            for n in names.iter_mut() {
                if let Some(a) = vars.get(&key(n)) {
                    *n = a.pointer.clone();
                }
            }
            true
        }
        _ => true,
    });
    let mut popped = Vec::new();
    unit.body = block(std::mem::take(&mut unit.body), vars, &mut popped);
    // The integers the popped values go through, named as the variables.
    for name in popped {
        if visit_declares(unit, &name) {
            continue;
        }
        unit.decls.push(il::Decl {
            kind: DeclKind::Var {
                spec: il::TypeSpec::simple(il::BaseType::Integer),
                attrs: Vec::new(),
                entities: vec![il::Entity {
                    name,
                    dims: None,
                    init: None,
                    span: Default::default(),
                }],
            },
            span: Default::default(),
        });
    }
}

fn visit_declares(unit: &il::Unit, name: &str) -> bool {
    il::visit::decls_names(&unit.decls)
        .iter()
        .any(|n| key(n) == key(name))
}

fn block(
    stmts: Vec<Stmt>,
    vars: &BTreeMap<String, Association>,
    popped: &mut Vec<String>,
) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    for mut s in stmts {
        for child in il::visit::child_blocks_mut(&mut s) {
            *child = block(std::mem::take(child), vars, popped);
        }
        if let StmtKind::Assign { lhs, rhs } = &mut s.kind
            && let ExprKind::Var(v) = &lhs.kind
            && let Some(a) = vars.get(&key(v))
        {
            let kind = associate(a, rhs, vars);
            // `u_target = 1 ! u => u_1` would say it twice.
            let comment = s
                .trailing_comment
                .take()
                .filter(|c| !matches!(&kind, StmtKind::Io { text, .. } if **c == *text.as_str()));
            out.push(Stmt {
                kind,
                trailing_comment: comment,
                ..s
            });
            continue;
        }
        if let StmtKind::Tape(t) = &mut s.kind {
            if let ExprKind::Var(v) = &t.value.kind
                && let Some(a) = vars.get(&key(v))
                && t.op.writes()
            {
                let name = v.clone();
                if !popped.iter().any(|p| key(p) == key(&name)) {
                    popped.push(name.clone());
                }
                out.push(s.clone());
                out.push(Stmt::generated(associate(
                    a,
                    &Expr::var(&name),
                    &BTreeMap::new(),
                )));
                continue;
            }
            reads(&mut t.value, vars);
            if let Some(c) = &mut t.count {
                reads(c, vars);
            }
        }
        for e in il::visit::stmt_exprs_mut(&mut s) {
            reads(e, vars);
        }
        out.push(s);
    }
    out
}

/// The statement that gives association variable `a` the value `value` (its reads not
/// yet rewritten; `vars` the other association variables).
fn associate(a: &Association, value: &Expr, vars: &BTreeMap<String, Association>) -> StmtKind {
    let text = |t: String| StmtKind::Io {
        text: t,
        reads: Vec::new(),
        writes: Vec::new(),
        stops: false,
    };
    let p = &a.pointer;
    if let ExprKind::Int(k) = &value.kind {
        match k.parse::<usize>() {
            Ok(0) => return text(format!("nullify({p})")),
            Ok(k) if k <= a.candidates.len() => {
                return text(format!("{p} => {}", a.candidates[k - 1]));
            }
            _ => {}
        }
    }
    // Another pointer of the same targets: its association.
    if let ExprKind::Var(v) = &value.kind
        && let Some(q) = vars.get(&key(v)).filter(|q| q.candidates == a.candidates)
    {
        return text(format!("{p} => {}", q.pointer));
    }
    let mut selector = value.clone();
    reads(&mut selector, vars);
    let mut cases: Vec<Case> = a
        .candidates
        .iter()
        .enumerate()
        .map(|(k, c)| Case {
            values: vec![CaseValue::Single(Expr::int(k as i64 + 1))],
            body: vec![Stmt::generated(text(format!("{p} => {c}")))],
            comment: None,
            span: Default::default(),
        })
        .collect();
    cases.push(Case {
        values: Vec::new(),
        body: vec![Stmt::generated(text(format!("nullify({p})")))],
        comment: None,
        span: Default::default(),
    });
    StmtKind::Select {
        selector,
        cases,
        name: None,
    }
}

/// Rewrites every read of an association variable in `e`.
fn reads(e: &mut Expr, vars: &BTreeMap<String, Association>) {
    // Comparisons with a literal first: the test itself.
    il::visit::walk_expr_mut_post(e, &mut |x| {
        let ExprKind::Binary(op, l, r) = &x.kind else {
            return;
        };
        let (ExprKind::Var(v), ExprKind::Int(k)) = (&l.kind, &r.kind) else {
            return;
        };
        let (Some(a), Ok(k)) = (vars.get(&key(v)), k.parse::<usize>()) else {
            return;
        };
        let test = match (op, k) {
            (BinOp::Eq, 0) => Some(not(associated(a, None))),
            (BinOp::Ne, 0) => Some(associated(a, None)),
            (BinOp::Eq, k) if k <= a.candidates.len() => Some(associated(a, Some(k))),
            (BinOp::Ne, k) if k <= a.candidates.len() => Some(not(associated(a, Some(k)))),
            // `u_target <= 1`: none, or the first.
            (BinOp::Le, 1) => Some(Expr::binary(
                BinOp::Or,
                not(associated(a, None)),
                associated(a, Some(1)),
            )),
            _ => None,
        };
        if let Some(t) = test {
            *x = t;
        }
    });
    il::visit::walk_expr_mut_post(e, &mut |x| {
        if let ExprKind::Var(v) = &x.kind
            && let Some(a) = vars.get(&key(v))
        {
            // merge(1, merge(2, 0, associated(u, u_2)), associated(u, u_1))
            let mut value = Expr::int(0);
            for k in (1..=a.candidates.len()).rev() {
                value = call(
                    "merge",
                    vec![Expr::int(k as i64), value, associated(a, Some(k))],
                );
            }
            *x = value;
        }
    });
}

fn call(name: &str, args: Vec<Expr>) -> Expr {
    Expr::new(ExprKind::Call(
        name.to_string(),
        args.into_iter().map(Arg::positional).collect(),
    ))
}

/// `associated(p)`, or `associated(p, candidate k)`.
fn associated(a: &Association, k: Option<usize>) -> Expr {
    let mut args = vec![Expr::var(&a.pointer)];
    args.extend(k.map(|k| Expr::var(&a.candidates[k - 1])));
    call("associated", args)
}

fn not(e: Expr) -> Expr {
    Expr::unary(UnOp::Not, e)
}
