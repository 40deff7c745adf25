//! Functions that return a struct (`vec2 add(vec2 a, vec2 b)`, the way C physics code
//! writes small vector algebra): the IL function's result is a variable of derived type,
//! as a Fortran `type(vec2) function` has. The struct a call returns is assigned whole
//! to a struct variable (`v = add(v, w);`, `vec2 c = add(a, b);`, `return add(a, b);`);
//! passed by value to another call (`add(v, scale(dt, a))`) it goes through a temporary
//! assigned just before the statement. Anywhere else (`add(a, b).x`, a condition) it is
//! refused (E0613).

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::il::{Expr, ExprKind, Stmt, StmtKind};

impl FnCx<'_, '_> {
    /// The struct type a call returns, if `e` calls a function that returns one.
    pub(super) fn struct_call_type(&self, e: &Expression) -> Option<Ty> {
        let Expression::Call(c) = e else {
            return None;
        };
        let Expression::Identifier(id) = &c.node.callee.node else {
            return None;
        };
        match self.protos.get(&id.node.il())?.ret {
            t @ Ty::Struct(_) => Some(t),
            _ => None,
        }
    }

    /// The call `e` of a function that returns a struct, and that struct's type.
    fn struct_call(&mut self, e: &Node<Expression>) -> R<(Expr, Ty)> {
        let Expression::Call(c) = &e.node else {
            unreachable!("struct_call is called on calls")
        };
        let name = self.callee(c)?;
        let proto = self.proto(&name, c.span)?;
        let args = self.call_args(&name, &proto, c)?;
        Ok((
            Expr::new(ExprKind::Call(name, args)).spanned(self.span(e.span)),
            proto.ret,
        ))
    }

    /// `place = f(...)`: the struct a call returns, assigned whole to a struct variable
    /// or member (`path`), not to an element of an array of structs (`subs`).
    pub(super) fn assign_struct_call(
        &mut self,
        (path, ty, subs): (&str, Ty, &[Expr]),
        call: &Node<Expression>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        if !subs.is_empty() {
            return Err(self.unsupported(
                "E0613",
                "assigning the struct a function returns to an element of an array of structs \
                 (assign it to a local struct first)",
                at,
            ));
        }
        let (value, rty) = self.struct_call(call)?;
        if rty != ty {
            return Err(self.err("E0614", "assignment between different struct types", at));
        }
        let st = self.stmt(
            StmtKind::Assign {
                lhs: Self::member_ref(path.to_string(), &[], Vec::new()),
                rhs: value,
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// `return c;` or `return add(a, b);` in a function returning a struct: the result
    /// variable `r` assigned whole.
    pub(super) fn return_struct(
        &mut self,
        e: &Node<Expression>,
        r: &str,
        rty: Ty,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        if self.struct_call_type(&e.node).is_some() {
            return self.assign_struct_call((r, rty, &[]), e, at, out);
        }
        let (v, vty, subs) = self.struct_place(e)?;
        if vty != rty {
            return Err(self.err("E0614", "returning another struct type", e.span));
        }
        let mut leaves = Vec::new();
        self.struct_leaves(rty, String::new(), &mut leaves);
        self.leaf_assignments(&leaves, (r, &[]), (&v, &subs), at, out)
    }

    /// A call returning a struct passed by value to another call: a temporary, assigned
    /// before the statement.
    pub(super) fn struct_call_argument(&mut self, e: &Node<Expression>) -> R<Expr> {
        if !self.effects_ok {
            return Err(self.unsupported(
                "E0613",
                "a call returning a struct inside a condition, a loop header or a branch of \
                 `?:`",
                e.span,
            ));
        }
        let (value, ty) = self.struct_call(e)?;
        let callee = match &value.kind {
            ExprKind::Call(n, _) => n.clone(),
            _ => unreachable!("struct_call gives a call"),
        };
        let tmp = self.fresh_local(&format!("{callee}_value"), ty, e.span);
        let st = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&tmp),
                rhs: value,
            },
            e.span,
        );
        self.fx.pre.push(st);
        Ok(Expr::var(tmp).spanned(self.span(e.span)))
    }
}
