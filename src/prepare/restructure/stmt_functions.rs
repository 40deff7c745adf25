//! Statement functions (`f(x) = x**2` among the declarations) inlined at every use, their
//! dummies replaced by the actual arguments.

use super::*;

/// Statement functions are replaced by their value at every reference, the dummies by
/// the actual arguments (in parentheses); the definitions go. A statement function
/// whose value has another type than the one declared for it converts on return: that
/// case is refused (E0411) rather than given a wrong type.
pub(super) fn inline_statement_functions(unit: &mut Unit, errors: &mut Vec<Diagnostic>) {
    let mut defs: Vec<StmtFunction> = Vec::new();
    let mut kept = Vec::new();
    for decl in std::mem::take(&mut unit.decls) {
        match decl.kind {
            DeclKind::StmtFunction {
                name,
                args,
                mut body,
            } => {
                inline_expr(&mut body, &defs);
                let declared = unit.symbols.get(&name).map(|s| s.ty);
                let rules = crate::il::types::TypeRules {
                    variable: &|n| {
                        unit.symbols
                            .get(n)
                            .map(|s| s.ty)
                            .unwrap_or(ScalarType::Real(4))
                    },
                    function: &|n| {
                        unit.symbols
                            .get(n)
                            .map(|s| s.ty)
                            .unwrap_or(ScalarType::Real(4))
                    },
                    default_real: 4,
                };
                let value = crate::il::types::expr_type(&body, &rules);
                if declared.is_some_and(|d| d != value) {
                    errors.push(
                        Diagnostic::error(
                            "E0411",
                            format!(
                                "the statement function `{name}` is declared {:?} but its formula has type {:?}",
                                declared.unwrap_or(value),
                                value
                            ),
                        )
                        .at(decl.span)
                        .with_help(format!(
                            "convert the formula to the type of `{name}` (e.g. with DBLE or REAL)"
                        )),
                    );
                }
                defs.push((name, args, body));
            }
            _ => kept.push(decl),
        }
    }
    unit.decls = kept;
    if defs.is_empty() {
        return;
    }
    walk_mut(&mut unit.body, &mut |s| {
        for e in crate::il::visit::stmt_exprs_mut(s) {
            inline_expr(e, &defs);
        }
    });
}

fn inline_expr(e: &mut Expr, defs: &[StmtFunction]) {
    match &mut e.kind {
        ExprKind::Call(name, args) => {
            for a in args.iter_mut() {
                inline_expr(&mut a.value, defs);
            }
            let Some((_, params, body)) = defs
                .iter()
                .rev()
                .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
            else {
                return;
            };
            if params.len() != args.len() {
                return;
            }
            let mut value = body.clone();
            substitute(&mut value, params, args);
            let span = e.span;
            *e = Expr {
                kind: ExprKind::Paren(Box::new(value)),
                span,
            };
        }
        ExprKind::Index(_, subs) => subs.iter_mut().for_each(|x| inline_expr(x, defs)),
        ExprKind::Intrinsic { args, .. } => args
            .iter_mut()
            .for_each(|a| inline_expr(&mut a.value, defs)),
        ExprKind::Unary(_, x) | ExprKind::Paren(x) => inline_expr(x, defs),
        ExprKind::Binary(_, a, b) => {
            inline_expr(a, defs);
            inline_expr(b, defs);
        }
        _ => {}
    }
}

/// Replaces the dummies `params` in `e` by the actual arguments.
fn substitute(e: &mut Expr, params: &[String], args: &[crate::il::Arg]) {
    if let ExprKind::Var(n) = &e.kind
        && let Some(i) = params.iter().position(|p| p.eq_ignore_ascii_case(n))
    {
        let actual = args[i].value.clone();
        *e = match actual.kind {
            ExprKind::Var(_)
            | ExprKind::Index(..)
            | ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::Paren(_)
            | ExprKind::Call(..)
            | ExprKind::Intrinsic { .. } => actual,
            _ => Expr::new(ExprKind::Paren(Box::new(actual))),
        };
        return;
    }
    match &mut e.kind {
        ExprKind::Index(_, subs) => subs.iter_mut().for_each(|x| substitute(x, params, args)),
        ExprKind::Call(_, a) | ExprKind::Intrinsic { args: a, .. } => a
            .iter_mut()
            .for_each(|x| substitute(&mut x.value, params, args)),
        ExprKind::Unary(_, x) | ExprKind::Paren(x) => substitute(x, params, args),
        ExprKind::Binary(_, a, b) => {
            substitute(a, params, args);
            substitute(b, params, args);
        }
        _ => {}
    }
}
