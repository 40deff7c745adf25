//! Walking the IL: statements in blocks, sub-expressions in expressions.

use std::collections::BTreeSet;

use super::{CaseValue, Expr, ExprKind, Stmt, StmtKind, key};

/// Calls `f` on every statement of `block`, depth first, parents before children.
pub fn walk_stmts<'a, F: FnMut(&'a Stmt) + ?Sized>(block: &'a [Stmt], f: &mut F) {
    for stmt in block {
        f(stmt);
        for child in child_blocks(stmt) {
            walk_stmts(child, f);
        }
    }
}

/// The first input statement of `block` ([`Stmt::is_input`]: a READ, or a statement
/// setting variables through IOSTAT= and the like), in source order.
pub fn first_input(block: &[Stmt]) -> Option<&Stmt> {
    let mut found = None;
    walk_stmts(block, &mut |s: &Stmt| {
        if found.is_none() && s.is_input() {
            found = Some(s);
        }
    });
    found
}

/// Gives fresh ids to copied statements, their blocks included, so that statement ids
/// stay unique.
pub fn renumber(stmts: &mut [Stmt], next_id: &mut u32) {
    for s in stmts {
        s.id = super::StmtId(*next_id);
        *next_id = next_id.saturating_add(1);
        for block in child_blocks_mut(s) {
            renumber(block, next_id);
        }
    }
}

/// The nested blocks of a statement, in source order.
pub fn child_blocks(stmt: &Stmt) -> Vec<&[Stmt]> {
    match &stmt.kind {
        StmtKind::If {
            arms, else_body, ..
        } => {
            let mut blocks: Vec<&[Stmt]> = arms.iter().map(|(_, b)| b.as_slice()).collect();
            if let Some(e) = else_body {
                blocks.push(e);
            }
            blocks
        }
        StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => vec![body.as_slice()],
        StmtKind::Select { cases, .. } => cases.iter().map(|c| c.body.as_slice()).collect(),
        StmtKind::Where {
            arms, else_body, ..
        } => {
            let mut blocks: Vec<&[Stmt]> = arms.iter().map(|(_, b)| b.as_slice()).collect();
            if let Some(e) = else_body {
                blocks.push(e);
            }
            blocks
        }
        StmtKind::Forall { body, .. } => vec![body.as_slice()],
        _ => Vec::new(),
    }
}

/// The nested blocks of a statement, in source order, mutably.
pub fn child_blocks_mut(stmt: &mut Stmt) -> Vec<&mut Vec<Stmt>> {
    match &mut stmt.kind {
        StmtKind::If {
            arms, else_body, ..
        }
        | StmtKind::Where {
            arms, else_body, ..
        } => {
            let mut v: Vec<&mut Vec<Stmt>> = arms.iter_mut().map(|(_, b)| b).collect();
            v.extend(else_body.iter_mut());
            v
        }
        StmtKind::Do { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Forall { body, .. } => vec![body],
        StmtKind::Select { cases, .. } => cases.iter_mut().map(|c| &mut c.body).collect(),
        _ => Vec::new(),
    }
}

/// Calls `f` on every statement of `block`, depth first, parents before children, with
/// leave to change it.
pub fn walk_stmts_mut(block: &mut [Stmt], f: &mut dyn FnMut(&mut Stmt)) {
    for stmt in block {
        f(stmt);
        for child in child_blocks_mut(stmt) {
            walk_stmts_mut(child, f);
        }
    }
}

/// The expressions a statement holds directly (not those of nested blocks), the whole
/// left-hand side of an assignment included.
pub fn stmt_exprs_mut(s: &mut Stmt) -> Vec<&mut Expr> {
    match &mut s.kind {
        StmtKind::Assign { lhs, rhs } => vec![lhs, rhs],
        StmtKind::If { arms, .. } | StmtKind::Where { arms, .. } => {
            arms.iter_mut().map(|(c, _)| c).collect()
        }
        StmtKind::Do {
            start, end, step, ..
        } => {
            let mut v: Vec<&mut Expr> = vec![&mut **start, &mut **end];
            v.extend(step.iter_mut().map(|s| &mut **s));
            v
        }
        StmtKind::DoWhile { cond, .. } => vec![cond],
        StmtKind::Call { args, .. } => args.iter_mut().map(|a| &mut a.value).collect(),
        StmtKind::ComputedGoto { index, .. } => vec![index],
        StmtKind::ArithmeticIf { expr, .. } => vec![expr],
        StmtKind::Io { reads, .. } => reads.iter_mut().collect(),
        StmtKind::Select {
            selector, cases, ..
        } => {
            let mut v = vec![selector];
            for case in cases {
                for value in &mut case.values {
                    match value {
                        CaseValue::Single(e) => v.push(e),
                        CaseValue::Range(lo, hi) => v.extend(lo.iter_mut().chain(hi.iter_mut())),
                    }
                }
            }
            v
        }
        StmtKind::Forall { indices, mask, .. } => {
            let mut v: Vec<&mut Expr> = Vec::new();
            for ix in indices {
                v.push(&mut ix.lower);
                v.push(&mut ix.upper);
                v.extend(ix.stride.iter_mut());
            }
            v.extend(mask.iter_mut());
            v
        }
        _ => Vec::new(),
    }
}

/// Calls `f` on every sub-expression of `expr` and then on `expr` itself (children
/// first), with leave to change it.
pub fn walk_expr_mut_post(expr: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut expr.kind {
        ExprKind::Index(_, subs) => subs.iter_mut().for_each(|e| walk_expr_mut_post(e, f)),
        ExprKind::Call(_, args) | ExprKind::Intrinsic { args, .. } => args
            .iter_mut()
            .for_each(|a| walk_expr_mut_post(&mut a.value, f)),
        ExprKind::Unary(_, e) | ExprKind::Paren(e) => walk_expr_mut_post(e, f),
        ExprKind::Binary(_, a, b) => {
            walk_expr_mut_post(a, f);
            walk_expr_mut_post(b, f);
        }
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => [lower, upper, stride]
            .into_iter()
            .flatten()
            .for_each(|e| walk_expr_mut_post(e, f)),
        ExprKind::ArrayCtor(items) => items.iter_mut().for_each(|e| walk_expr_mut_post(e, f)),
        ExprKind::ImpliedDo(d) => d.exprs_mut().for_each(|e| walk_expr_mut_post(e, f)),
        ExprKind::Substring { base, lower, upper } => {
            walk_expr_mut_post(base, f);
            [lower, upper]
                .into_iter()
                .flatten()
                .for_each(|e| walk_expr_mut_post(e, f));
        }
        ExprKind::Int(_)
        | ExprKind::Real(_)
        | ExprKind::Logical(_)
        | ExprKind::Str(_)
        | ExprKind::Var(_) => {}
    }
    f(expr);
}

/// Calls `f` on `expr` and every sub-expression, parents first.
pub fn walk_expr<'a, F: FnMut(&'a Expr) + ?Sized>(expr: &'a Expr, f: &mut F) {
    f(expr);
    match &expr.kind {
        ExprKind::Index(_, subs) => subs.iter().for_each(|e| walk_expr(e, f)),
        ExprKind::Call(_, args) | ExprKind::Intrinsic { args, .. } => {
            args.iter().for_each(|a| walk_expr(&a.value, f))
        }
        ExprKind::Unary(_, e) | ExprKind::Paren(e) => walk_expr(e, f),
        ExprKind::Binary(_, a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => [lower, upper, stride]
            .into_iter()
            .flatten()
            .for_each(|e| walk_expr(e, f)),
        ExprKind::ArrayCtor(items) => items.iter().for_each(|e| walk_expr(e, f)),
        ExprKind::ImpliedDo(d) => d.exprs().for_each(|e| walk_expr(e, f)),
        ExprKind::Substring { base, lower, upper } => {
            walk_expr(base, f);
            [lower, upper]
                .into_iter()
                .flatten()
                .for_each(|e| walk_expr(e, f));
        }
        ExprKind::Int(_)
        | ExprKind::Real(_)
        | ExprKind::Logical(_)
        | ExprKind::Str(_)
        | ExprKind::Var(_) => {}
    }
}

/// Does an expression of `body` (nested blocks included) call intrinsic `op`?
pub fn calls_intrinsic(body: &[Stmt], op: super::Intrinsic) -> bool {
    calls_any_intrinsic(body, &[op])
}

/// Does an expression of `body` (nested blocks included) call one of the intrinsics
/// `ops`?
pub fn calls_any_intrinsic(body: &[Stmt], ops: &[super::Intrinsic]) -> bool {
    let mut found = false;
    walk_stmts(body, &mut |s| {
        for e in stmt_exprs(s) {
            walk_expr(e, &mut |x| {
                found |= matches!(&x.kind, ExprKind::Intrinsic { op, .. } if ops.contains(op));
            });
        }
    });
    found
}

/// Every variable name read by `expr` (array names of element references included),
/// in order of appearance, with repetitions.
pub fn names_read(expr: &Expr) -> Vec<&str> {
    let mut names = Vec::new();
    walk_expr(expr, &mut |e| match &e.kind {
        ExprKind::Var(n) | ExprKind::Index(n, _) => names.push(n.as_str()),
        _ => {}
    });
    names
}

/// The variables whose values `expr` reads: [`names_read`] without the arguments of
/// inquiry intrinsics (`SIZE(x)`, `EPSILON(x)`, `PRESENT(x)`, `LEN(s)`, ...), which ask
/// for a property of the variable, not its value (their subscripts are read).
pub fn values_read(expr: &Expr) -> Vec<&str> {
    use super::Intrinsic;
    // Each name an inquiry asks about, once per time it is asked.
    let mut inquired: std::collections::BTreeMap<&str, usize> = Default::default();
    walk_expr(expr, &mut |e| {
        if let ExprKind::Intrinsic { op, args, .. } = &e.kind
            && match op {
                Intrinsic::Size
                | Intrinsic::Lbound
                | Intrinsic::Ubound
                | Intrinsic::Shape
                | Intrinsic::Present => true,
                Intrinsic::Passive(p) => p.inquiry,
                _ => false,
            }
        {
            for a in args {
                if let ExprKind::Var(n) | ExprKind::Index(n, _) = &a.value.kind {
                    *inquired.entry(n.as_str()).or_default() += 1;
                }
            }
        }
    });
    let mut out = names_read(expr);
    out.retain(|n| match inquired.get_mut(n) {
        Some(k) if *k > 0 => {
            *k -= 1;
            false
        }
        _ => true,
    });
    out
}

/// The expressions a statement reads directly (not those of nested blocks).
/// For an assignment this includes the subscripts of the left-hand side.
pub fn stmt_exprs(stmt: &Stmt) -> Vec<&Expr> {
    match &stmt.kind {
        StmtKind::Assign { lhs, rhs } => {
            let mut v = vec![rhs];
            if let ExprKind::Index(_, subs) = &lhs.kind {
                v.extend(subs.iter());
            }
            v
        }
        StmtKind::If { arms, .. } => arms.iter().map(|(c, _)| c).collect(),
        StmtKind::Do {
            start, end, step, ..
        } => {
            let mut v: Vec<&Expr> = vec![&**start, &**end];
            v.extend(step.iter().map(|s| &**s));
            v
        }
        StmtKind::DoWhile { cond, .. } => vec![cond],
        StmtKind::Call { args, .. } => args.iter().map(|a| &a.value).collect(),
        StmtKind::Tape(t) => t.operands(),
        StmtKind::Io { reads, .. } => reads.iter().collect(),
        StmtKind::ComputedGoto { index, .. } => vec![index],
        StmtKind::ArithmeticIf { expr, .. } => vec![expr],
        StmtKind::Select {
            selector, cases, ..
        } => {
            let mut v = vec![selector];
            for case in cases {
                for value in &case.values {
                    match value {
                        super::CaseValue::Single(e) => v.push(e),
                        super::CaseValue::Range(lo, hi) => v.extend(lo.iter().chain(hi.iter())),
                    }
                }
            }
            v
        }
        StmtKind::Where { arms, .. } => arms.iter().map(|(m, _)| m).collect(),
        StmtKind::Forall { indices, mask, .. } => {
            let mut v: Vec<&Expr> = Vec::new();
            for ix in indices {
                v.push(&ix.lower);
                v.push(&ix.upper);
                v.extend(ix.stride.iter());
            }
            v.extend(mask.iter());
            v
        }
        _ => Vec::new(),
    }
}

/// A structural key of an expression, ignoring spans: equal keys, same expression.
pub fn expr_key(e: &Expr) -> String {
    fn go(e: &Expr, s: &mut String) {
        use std::fmt::Write as _;
        match &e.kind {
            ExprKind::Int(t) => {
                let _ = write!(s, "i{t}");
            }
            ExprKind::Real(l) => {
                let _ = write!(s, "r{}_{}", l.value, l.kind);
            }
            ExprKind::Logical(b) => {
                let _ = write!(s, "l{b}");
            }
            ExprKind::Str(t) => {
                let _ = write!(s, "s{t:?}");
            }
            ExprKind::Var(n) => {
                let _ = write!(s, "v{}", n.to_ascii_lowercase());
            }
            ExprKind::Index(n, subs) => {
                let _ = write!(s, "x{}(", n.to_ascii_lowercase());
                for x in subs {
                    go(x, s);
                    s.push(',');
                }
                s.push(')');
            }
            ExprKind::Call(n, args) => {
                let _ = write!(s, "c{}(", n.to_ascii_lowercase());
                for a in args {
                    go(&a.value, s);
                    s.push(',');
                }
                s.push(')');
            }
            ExprKind::Intrinsic { op, args, .. } => {
                let _ = write!(s, "f{op:?}(");
                for a in args {
                    go(&a.value, s);
                    s.push(',');
                }
                s.push(')');
            }
            ExprKind::Unary(op, x) => {
                let _ = write!(s, "u{op:?}(");
                go(x, s);
                s.push(')');
            }
            ExprKind::Binary(op, a, b) => {
                let _ = write!(s, "b{op:?}(");
                go(a, s);
                s.push(',');
                go(b, s);
                s.push(')');
            }
            ExprKind::Paren(x) => go(x, s),
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => {
                s.push('[');
                for part in [lower, upper, stride] {
                    if let Some(x) = part {
                        go(x, s);
                    }
                    s.push(':');
                }
                s.push(']');
            }
            ExprKind::Substring { base, lower, upper } => {
                s.push_str("z(");
                go(base, s);
                for part in [lower, upper] {
                    s.push(':');
                    if let Some(x) = part {
                        go(x, s);
                    }
                }
                s.push(')');
            }
            ExprKind::ArrayCtor(items) => {
                s.push_str("a[");
                for x in items {
                    go(x, s);
                    s.push(',');
                }
                s.push(']');
            }
            ExprKind::ImpliedDo(d) => {
                let _ = write!(s, "d{}(", d.var);
                for x in d.exprs() {
                    go(x, s);
                    s.push(',');
                }
                s.push_str(if d.stride.is_some() { "s)" } else { ")" });
            }
        }
    }
    let mut s = String::new();
    go(e, &mut s);
    s
}

/// Gives every reference to a name the spelling of its declaration: variables after the
/// unit's symbol table, procedures after `procedure_spelling`. Fortran does not care
/// how a name is spelled where; C does.
pub fn canonical_spelling(
    unit: &mut super::Unit,
    procedure_spelling: &dyn Fn(&str) -> Option<String>,
) {
    let symbols = unit.symbols.clone();
    let var = |n: &mut String| {
        if let Some(s) = symbols.get(n) {
            if s.kind != super::SymbolKind::Procedure {
                *n = s.name.clone();
                return;
            }
        }
        if let Some(p) = procedure_spelling(n) {
            *n = p;
        }
    };
    for a in &mut unit.args {
        var(a);
    }
    if let Some(r) = &mut unit.result {
        var(r);
    }
    fn expr(e: &mut Expr, var: &dyn Fn(&mut String)) {
        match &mut e.kind {
            ExprKind::Var(n) => var(n),
            ExprKind::Index(n, subs) => {
                var(n);
                subs.iter_mut().for_each(|s| expr(s, var));
            }
            ExprKind::Call(n, args) => {
                var(n);
                args.iter_mut().for_each(|a| expr(&mut a.value, var));
            }
            ExprKind::Intrinsic { args, .. } => {
                args.iter_mut().for_each(|a| expr(&mut a.value, var))
            }
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => expr(x, var),
            ExprKind::Binary(_, a, b) => {
                expr(a, var);
                expr(b, var);
            }
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => [lower, upper, stride]
                .into_iter()
                .flatten()
                .for_each(|x| expr(x, var)),
            ExprKind::ArrayCtor(items) => items.iter_mut().for_each(|x| expr(x, var)),
            ExprKind::ImpliedDo(d) => {
                var(&mut d.var);
                d.exprs_mut().for_each(|x| expr(x, var));
            }
            ExprKind::Substring { base, lower, upper } => {
                expr(base, var);
                [lower, upper]
                    .into_iter()
                    .flatten()
                    .for_each(|x| expr(x, var));
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
        }
    }
    fn block(stmts: &mut [Stmt], var: &dyn Fn(&mut String)) {
        for s in stmts {
            match &mut s.kind {
                StmtKind::Assign { lhs, rhs } => {
                    expr(lhs, var);
                    expr(rhs, var);
                }
                StmtKind::If {
                    arms, else_body, ..
                } => {
                    for (c, b) in arms.iter_mut() {
                        expr(c, var);
                        block(b, var);
                    }
                    if let Some(b) = else_body {
                        block(b, var);
                    }
                }
                StmtKind::Do {
                    var: v,
                    start,
                    end,
                    step,
                    body,
                    ..
                } => {
                    var(v);
                    expr(start, var);
                    expr(end, var);
                    if let Some(s) = step {
                        expr(s, var);
                    }
                    block(body, var);
                }
                StmtKind::DoWhile { cond, body, .. } => {
                    expr(cond, var);
                    block(body, var);
                }
                StmtKind::Call { name, args } => {
                    var(name);
                    args.iter_mut().for_each(|a| expr(&mut a.value, var));
                }
                _ => {}
            }
        }
    }
    block(&mut unit.body, &var);
    for d in &mut unit.decls {
        match &mut d.kind {
            super::DeclKind::Var { entities, .. } | super::DeclKind::Dimension(entities) => {
                for e in entities {
                    var(&mut e.name);
                    for dim in e.dims.iter_mut().flatten() {
                        if let Some(l) = &mut dim.lower {
                            expr(l, &var);
                        }
                        if let super::Bound::Expr(u) = &mut dim.upper {
                            expr(u, &var);
                        }
                    }
                }
            }
            super::DeclKind::Parameter(items) => {
                for (n, e) in items {
                    var(n);
                    expr(e, &var);
                }
            }
            super::DeclKind::Intent(_, names)
            | super::DeclKind::External(names)
            | super::DeclKind::Procedure { names, .. }
            | super::DeclKind::Intrinsic(names) => {
                names.iter_mut().for_each(var);
            }
            _ => {}
        }
    }
}

/// Names (keys) a generated body refers to: variables and called procedures.
pub fn referenced_names(body: &[Stmt]) -> BTreeSet<String> {
    // Collected as written, borrowed, each once; the keys are made at the end (a large
    // body names few variables many times: issue 16).
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut last = "";
    for_each_referenced_name(body, &mut |n, path| {
        if n == last {
            return;
        }
        last = n;
        seen.insert(n);
        // A component path refers to its variable too (`s%x` to `s`).
        if let (true, Some((base, _))) = (path, n.split_once('%')) {
            seen.insert(base);
        }
    });
    seen.into_iter().map(key).collect()
}

/// Calls `f` with every name a body refers to, as written, repeated: called procedures
/// and DO variables (`false`), variables and functions in expressions and assigned
/// variables (`true`: a name that may be a component path, `s%x`).
pub fn for_each_referenced_name<'a>(body: &'a [Stmt], f: &mut impl FnMut(&'a str, bool)) {
    walk_stmts(body, &mut |s| {
        match &s.kind {
            StmtKind::Call { name, .. } => f(name, false),
            StmtKind::Do { var, .. } => f(var, false),
            _ => {}
        }
        for e in stmt_exprs(s) {
            walk_expr(e, &mut |x| match &x.kind {
                ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) => f(n, true),
                _ => {}
            });
        }
        if let StmtKind::Assign { lhs, .. } = &s.kind {
            if let Some(n) = lhs.base_name() {
                f(n, true);
            }
        }
    });
}

/// `f(name, args)` for each call a statement makes itself (not those of nested blocks):
/// a CALL statement, and the function references in its expressions.
pub fn stmt_calls<'s>(stmt: &'s Stmt, f: &mut impl FnMut(&'s str, &'s [super::Arg])) {
    if let StmtKind::Call { name, args } = &stmt.kind {
        f(name, args);
    }
    for e in stmt_exprs(stmt) {
        walk_expr(e, &mut |x| {
            if let ExprKind::Call(name, args) = &x.kind {
                f(name, args);
            }
        });
    }
}

/// Names of the procedures a unit calls (subroutines and functions), with repetitions.
pub fn called_names(unit: &super::Unit) -> Vec<String> {
    let mut names = Vec::new();
    walk_stmts(&unit.body, &mut |s| {
        if let StmtKind::Call { name, .. } = &s.kind {
            names.push(name.clone());
        }
        for e in stmt_exprs(s) {
            walk_expr(e, &mut |x| {
                if let ExprKind::Call(n, _) = &x.kind {
                    names.push(n.clone());
                }
            });
        }
    });
    names
}

/// Names (keys) in the bounds and initial values of declarations.
pub fn decls_names(decls: &[super::Decl]) -> std::collections::BTreeSet<String> {
    let mut names = std::collections::BTreeSet::new();
    let mut add = |e: &Expr| {
        walk_expr(e, &mut |x| match &x.kind {
            ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) => {
                names.insert(key(n));
            }
            _ => {}
        })
    };
    for d in decls {
        let super::DeclKind::Var {
            entities, attrs, ..
        } = &d.kind
        else {
            continue;
        };
        let dims = attrs.iter().filter_map(|a| match a {
            super::Attr::Dimension(d) => Some(d),
            _ => None,
        });
        for ds in entities.iter().filter_map(|e| e.dims.as_ref()).chain(dims) {
            for dim in ds {
                if let Some(l) = &dim.lower {
                    add(l);
                }
                if let super::Bound::Expr(u) = &dim.upper {
                    add(u);
                }
            }
        }
        for e in entities.iter().filter_map(|e| e.init.as_ref()) {
            add(e);
        }
    }
    names
}

/// Renames the calls in `body` of the procedures `renames` names (keys → new names);
/// with `vars`, also the references that are variables before analysis.
pub fn rename_calls(
    body: &mut [Stmt],
    renames: &std::collections::BTreeMap<String, String>,
    vars: bool,
) {
    walk_stmts_mut(body, &mut |s| {
        if let StmtKind::Call { name, .. } = &mut s.kind
            && let Some(n) = renames.get(super::key_ref(name).as_ref())
        {
            *name = n.clone();
        }
        for e in stmt_exprs_mut(s) {
            walk_expr_mut_post(e, &mut |x| match &mut x.kind {
                ExprKind::Call(name, _) => {
                    if let Some(n) = renames.get(super::key_ref(name).as_ref()) {
                        *name = n.clone();
                    }
                }
                ExprKind::Var(name) if vars => {
                    if let Some(n) = renames.get(super::key_ref(name).as_ref()) {
                        *name = n.clone();
                    }
                }
                _ => {}
            });
        }
    });
}

/// Whether a procedure's `body` never returns to its caller: it ends in STOP (or ERROR
/// STOP), and no RETURN leaves it before (an error handler: `fatal_error` prints and
/// stops).
pub fn never_returns(body: &[Stmt]) -> bool {
    if !matches!(
        body.last().map(|s| &s.kind),
        Some(StmtKind::Io { stops: true, .. })
    ) {
        return false;
    }
    let mut returns = false;
    walk_stmts(body, &mut |s| returns |= matches!(s.kind, StmtKind::Return));
    !returns
}

/// Where the declarations after the USE and IMPLICIT statements (and comments among
/// them) begin: the place for a new type declaration.
pub fn after_uses_and_implicit(decls: &[super::Decl]) -> usize {
    decls
        .iter()
        .position(|d| {
            !matches!(
                d.kind,
                super::DeclKind::Use { .. }
                    | super::DeclKind::Implicit(_)
                    | super::DeclKind::Comment(_)
            )
        })
        .unwrap_or(decls.len())
}
