//! Structure constructors `node(x1, y1)`, `node(y=y1, x=x1)` (F2018 7.5.10).
//!
//! Taken as the whole right-hand side of an assignment to a variable of the type, where
//! `prepare` splits the assignment into one per component (`p%x = x1`, `p%y = y1`), so
//! that the derivative rules see only real and integer assignments. The IL keeps the
//! constructor as a call of the type's name with one positional argument per component,
//! in the type's order. Elsewhere (inside an expression, as an actual argument) it is
//! refused (E0404, reported if a root reaches the procedure), and so is a component left
//! out (default initialization).

use super::*;
use crate::il::{Arg, Expr, ExprKind};

impl Sema<'_> {
    pub(super) fn structure_constructor(
        &mut self,
        name: String,
        args: Vec<Arg>,
        t: &TypeInfo,
        top: bool,
        span: Span,
    ) -> ExprKind {
        if !top {
            self.error(
                "E0404",
                format!("the structure constructor `{name}(...)` is supported only as the whole right-hand side of an assignment"),
                span,
            )
            .help = Some(format!(
                "assign it to a variable of type `{name}` first, e.g. `p = {name}(...)`, and use the variable"
            ));
            return ExprKind::Call(name, args);
        }
        let mut slots: Vec<Option<Expr>> = vec![None; t.components.len()];
        let mut next = 0;
        for mut a in args {
            let at = match &a.keyword {
                Some(kw) => t.components.iter().position(|c| key(&c.name) == key(kw)),
                None => Some(next),
            };
            let Some(k) = at.filter(|&k| k < slots.len() && slots[k].is_none()) else {
                let what = match &a.keyword {
                    Some(kw) => format!("names `{kw}`, which is not a component given once"),
                    None => format!("has more values than `{name}` has components"),
                };
                self.error(
                    "E0310",
                    format!("the structure constructor `{name}(...)` {what}"),
                    a.value.span,
                )
                .help = Some(format!(
                    "give one value per component of `{name}`: {}",
                    t.components
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                return ExprKind::Call(name, Vec::new());
            };
            self.resolve_expr(&mut a.value, false);
            slots[k] = Some(a.value);
            next = k + 1;
        }
        let mut out = Vec::with_capacity(slots.len());
        for (slot, c) in slots.into_iter().zip(&t.components) {
            match slot {
                Some(v) => out.push(Arg::positional(v)),
                None => {
                    self.error(
                        "E0404",
                        format!("the structure constructor `{name}(...)` gives no value for component `{}`; default initialization is not supported yet", c.name),
                        span,
                    )
                    .help = Some(format!("give a value for `{}`", c.name));
                    return ExprKind::Call(name, Vec::new());
                }
            }
        }
        ExprKind::Call(name, out)
    }
}
