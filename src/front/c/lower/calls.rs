//! Calls in function bodies: the callee and its prototype, each argument lowered by how
//! its parameter is passed (by value, by reference, an array, a row of a local 2-D array,
//! NULL for an absent optional argument).

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::il::{self, Expr};

impl FnCx<'_, '_> {
    pub(super) fn callee(&mut self, c: &Node<CallExpression>) -> R<String> {
        match &c.node.callee.node {
            Expression::Identifier(id) => Ok(id.node.il()),
            _ => Err(self.unsupported("E0605", "a call through a function pointer", c.span)),
        }
    }

    pub(super) fn proto(&mut self, name: &str, at: CSpan) -> R<Proto> {
        if let (None, Some(refusals)) = (self.protos.get(name), self.refused_protos.get(name)) {
            self.diags.extend(refusals.iter().cloned());
            return Err(Reported);
        }
        match self.protos.get(name) {
            Some(p) => Ok(p.clone()),
            None => Err(self.err(
                "E0606",
                format!("`{name}` is not a function of this file, nor one adgen knows from math.h"),
                at,
            )),
        }
    }

    /// Actual arguments: values for by-value parameters; `&x`, `&a[i]`, an array or a
    /// pointer parameter for pointer parameters.
    pub(super) fn call_args(
        &mut self,
        name: &str,
        proto: &Proto,
        c: &Node<CallExpression>,
    ) -> R<Vec<il::Arg>> {
        if proto.params.len() != c.node.arguments.len() {
            return Err(self.err(
                "E0609",
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    proto.params.len(),
                    c.node.arguments.len()
                ),
                c.span,
            ));
        }
        self.called.insert(name.to_string());
        let mut out = Vec::new();
        // After an absent argument (`NULL`), the others are given by keyword.
        let mut by_keyword = false;
        for (i, (pass, a)) in proto.params.iter().zip(&c.node.arguments).enumerate() {
            if *pass == Pass::Ref && heap::is_null_pointer(&a.node) {
                if proto.names.iter().all(|n| !n.is_empty()) {
                    // An absent argument: the callee must test it (checked over the
                    // program, `front::optional`).
                    by_keyword = true;
                    continue;
                }
                return Err(self.refuse_null(a.span, false));
            }
            let v = match pass {
                // A struct passed by value: the struct variable, member or `*p`.
                Pass::Value if self.struct_call_type(&a.node).is_some() => {
                    self.struct_call_argument(a)?
                }
                Pass::Value if self.is_struct_valued(&a.node) => {
                    let (path, _, subs) = self.struct_place(a)?;
                    if !subs.is_empty() {
                        return Err(self.unsupported(
                            "E0613",
                            "passing an element of an array of structs by value (copy it \
                             into a local struct first)",
                            a.span,
                        ));
                    }
                    Expr::var(path).spanned(self.span(a.span))
                }
                Pass::Value => self.value(a)?.0,
                Pass::Ref => match self.local_rows_arg(a, proto.rows[i]) {
                    Some(v) => v,
                    None => self.ref_arg(a)?,
                },
            };
            out.push(il::Arg {
                keyword: by_keyword.then(|| proto.names[i].clone()),
                value: v,
            });
        }
        Ok(out)
    }

    /// A local 2-D array `double f[M][N]` passed whole to a parameter that is rows of the
    /// same length `N`: the same array on both sides.
    pub(super) fn local_rows_arg(
        &mut self,
        a: &Node<Expression>,
        rows: Option<i64>,
    ) -> Option<Expr> {
        let Expression::Identifier(id) = &a.node else {
            return None;
        };
        // Looked up quietly: `ref_arg` reports an unknown name.
        let v = self
            .vars
            .get(crate::il::key_ref(&id.node.il()).as_ref())
            .filter(|v| v.name == id.node.il())?;
        match &v.kind {
            VarKind::LocalArray(ext) if ext.len() == 2 && rows == Some(ext[1]) => {
                Some(Expr::var(&v.name).spanned(self.span(a.span)))
            }
            _ => None,
        }
    }

    pub(super) fn ref_arg(&mut self, a: &Node<Expression>) -> R<Expr> {
        let span = self.span(a.span);
        match &a.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let (v, _) = self.place(&u.node.operand)?;
                if let Some(n) = v.base_name() {
                    let n = n.split('%').next().unwrap_or(n);
                    if self.var(n, a.span)?.kind == VarKind::Value {
                        return Err(self.err(
                            "E0607",
                            format!("passing the address of the by-value parameter `{n}`: not supported yet"),
                            a.span,
                        ));
                    }
                }
                Ok(v)
            }
            Expression::Identifier(id)
                if self
                    .pointers
                    .contains_key(crate::il::key_ref(&id.node.il()).as_ref())
                    || self.var(&id.node.il(), a.span)?.kind == VarKind::Pointer =>
            {
                // A local pointer to an element of an array of structs, passed on: refused
                // as `&p[i]` is.
                let v = self.var(&id.node.il(), a.span)?;
                if self.is_struct_pointer(&v) {
                    return Err(self.unsupported(
                        "E0612",
                        &format!(
                            "passing `{}`, a pointer to an element of an array of structs, to \
                             a function (pass the array and the index, or the members)",
                            id.node.il()
                        ),
                        a.span,
                    ));
                }
                let (base, off, _) = self.ptr_ident(&id.node.il(), a.span)?;
                Ok(element_at(base, off).spanned(span))
            }
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::Plus | BinaryOperator::Minus
                ) || (b.node.operator.node == BinaryOperator::Index
                    && self.row_of(&b.node.lhs.node).is_some()) =>
            {
                let (base, off, _) = self.ptr_expr(a)?;
                Ok(element_at(base, off).spanned(span))
            }
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    UnaryOperator::PostIncrement
                        | UnaryOperator::PostDecrement
                        | UnaryOperator::PreIncrement
                        | UnaryOperator::PreDecrement
                ) =>
            {
                let (base, off, _) = self.ptr_expr(a)?;
                Ok(element_at(base, off).spanned(span))
            }
            Expression::Member(_) => {
                let (path, _, ext, prefix) = self.member(a)?;
                if !prefix.is_empty() && ext.len() == 1 {
                    // `p[i].v` for an array member `v`: its first element, like `a(i)`
                    // passed as an array.
                    let r = Self::member_ref(path, &prefix, vec![int_lit(0)]);
                    return Ok(r.spanned(span));
                }
                match ext.len() {
                    0 => Err(self.err(
                        "E0605",
                        format!(
                            "`{}` is not a pointer or an array (pass `&{0}`)",
                            path.replace('%', ".")
                        ),
                        a.span,
                    )),
                    1 => Ok(Expr::var(path).spanned(span)),
                    _ => Err(self.unsupported(
                        "E0605",
                        "passing a 2-D array to a pointer parameter",
                        a.span,
                    )),
                }
            }
            Expression::Identifier(id) => {
                let v = self.var(&id.node.il(), a.span)?;
                match v.kind {
                    VarKind::StructPtr => Ok(Expr::var(&v.name).spanned(span)),
                    VarKind::RefScalar
                    | VarKind::ArrayParam
                    | VarKind::LocalArray(_)
                    | VarKind::Heap(_)
                    | VarKind::RowsParam(_)
                    | VarKind::RowPtrs => {
                        if let VarKind::LocalArray(ext) = &v.kind {
                            if ext.len() > 1 {
                                return Err(self.unsupported(
                                    "E0605",
                                    "passing a 2-D array to a pointer parameter",
                                    a.span,
                                ));
                            }
                        }
                        Ok(Expr::var(&v.name).spanned(span))
                    }
                    _ => Err(self.err(
                        "E0605",
                        format!("`{}` is not a pointer or an array (pass `&{0}`)", v.name),
                        a.span,
                    )),
                }
            }
            _ => Err(self.unsupported(
                "E0605",
                "this pointer argument; pass `&a[i]`, `a + i`, `&x` or an array",
                a.span,
            )),
        }
    }
}
