//! Struct members in function bodies: member accesses (`s.x`, `p->v[i]`, `a[i].x`) lowered
//! to the IL's member paths, struct assignments and struct-valued expressions member by
//! member, and struct initializers (`= {...}`, designated or positional, zero-filled
//! where C zero-fills).

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::il::ExprKind;

/// A brace-enclosed list of literals (nested lists allowed, no designators), as nested
/// [`ExprKind::ArrayCtor`]s.
pub(super) fn literal_list(items: &[Node<InitializerListItem>], span: Span) -> Option<Expr> {
    let mut out = Vec::new();
    for item in items {
        if !item.node.designation.is_empty() {
            return None;
        }
        out.push(match &item.node.initializer.node {
            Initializer::Expression(e) => literal(&e.node, span)?,
            Initializer::List(inner) => literal_list(inner, span)?,
        });
    }
    Some(Expr::new(ExprKind::ArrayCtor(out)).spanned(span))
}

impl FnCx<'_, '_> {
    /// The member `e` (`s.x`, `p->v`, `s.in.y`, `(*p).x`, `p[i].x`): its IL path, type,
    /// extents, and the subscripts of the element of an array of structs it is a member
    /// of (empty for a plain struct; see `structarr`).
    pub(super) fn member(&mut self, e: &Node<Expression>) -> R<(String, Ty, Vec<i64>, Vec<Expr>)> {
        let Expression::Member(m) = &e.node else {
            unreachable!("member() is called on member expressions")
        };
        let indirect = m.node.operator.node == MemberOperator::Indirect;
        let mut prefix = Vec::new();
        let (base, ty) = match (&m.node.expression.node, indirect) {
            // `b->x` of a local pointer into an array of structs.
            (Expression::Identifier(id), true)
                if self
                    .vars
                    .get(crate::il::key_ref(&id.node.il()).as_ref())
                    .is_some_and(|v| self.is_struct_pointer(v)) =>
            {
                let el = self.struct_pointer_element(&id.node.il(), m.node.expression.span)?;
                prefix = el.subs;
                (el.name, el.ty)
            }
            (Expression::Identifier(id), true)
                if self
                    .vars
                    .get(crate::il::key_ref(&id.node.il()).as_ref())
                    .and_then(Self::struct_array_rank)
                    == Some(1) =>
            {
                let v = self.var(&id.node.il(), m.node.expression.span)?;
                let el = self.first_element(&v, e.span)?;
                prefix = el.subs;
                (el.name, el.ty)
            }
            (Expression::Identifier(id), _) => {
                let v = self.var(&id.node.il(), m.node.expression.span)?;
                let ok = match v.kind {
                    VarKind::StructPtr => indirect,
                    VarKind::Local => !indirect,
                    _ => false,
                };
                if !ok || !matches!(v.ty, Ty::Struct(_)) {
                    return Err(self.err(
                        "E0605",
                        format!(
                            "`{}` is not a struct{}",
                            v.name,
                            if indirect { " pointer" } else { "" }
                        ),
                        m.node.expression.span,
                    ));
                }
                (v.name.clone(), v.ty)
            }
            (Expression::Member(_), false) => {
                let (path, ty, ext, subs) = self.member(&m.node.expression)?;
                if !ext.is_empty() {
                    return Err(self.err(
                        "E0605",
                        format!("`{}` is an array, not a struct", path.replace('%', ".")),
                        m.node.expression.span,
                    ));
                }
                prefix = subs;
                (path, ty)
            }
            (Expression::UnaryOperator(u), false)
                if u.node.operator.node == UnaryOperator::Indirection =>
            {
                if let Some(el) = self.struct_element(&m.node.expression)? {
                    prefix = el.subs;
                    (el.name, el.ty)
                } else {
                    let Expression::Identifier(id) = &u.node.operand.node else {
                        return Err(self.unsupported("E0612", "this struct reference", e.span));
                    };
                    let v = self.var(&id.node.il(), u.node.operand.span)?;
                    if v.kind != VarKind::StructPtr {
                        return Err(self.err(
                            "E0605",
                            format!("`{}` is not a struct pointer", v.name),
                            u.node.operand.span,
                        ));
                    }
                    (v.name.clone(), v.ty)
                }
            }
            (Expression::BinaryOperator(_), _) => match self.struct_element(&m.node.expression)? {
                Some(el) if indirect != is_index(&m.node.expression.node) => {
                    prefix = el.subs;
                    (el.name, el.ty)
                }
                _ => {
                    return Err(self.unsupported(
                        "E0612",
                        "this reference to an array of structs (write `p[i].x` or `(p + i)->x` \
                         for an array of structs `p`)",
                        e.span,
                    ));
                }
            },
            _ => return Err(self.unsupported("E0612", "this struct reference", e.span)),
        };
        let Ty::Struct(i) = ty else {
            return Err(self.err(
                "E0605",
                format!("`{}` is not a struct", base.replace('%', ".")),
                m.node.expression.span,
            ));
        };
        let field = &m.node.identifier.node.il();
        let Some(f) = self.structs[i as usize]
            .fields
            .iter()
            .find(|f| f.name == *field)
            .cloned()
        else {
            return Err(self.err(
                "E0606",
                format!(
                    "`{}` has no member `{field}`",
                    self.structs[i as usize].name
                ),
                m.node.identifier.span,
            ));
        };
        Ok((format!("{base}%{}", f.name), f.ty, f.extents, prefix))
    }

    /// Whole-struct assignment `a = b` (struct variables, members or `*p`): one
    /// assignment per member, arrays whole.
    pub(super) fn struct_assign(
        &mut self,
        lhs: &Node<Expression>,
        rhs: &Node<Expression>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let (l, lty, lsubs) = self.struct_place(lhs)?;
        if self.struct_call_type(&rhs.node).is_some() {
            return self.assign_struct_call((&l, lty, &lsubs), rhs, at, out);
        }
        let (r, rty, rsubs) = self.struct_place(rhs)?;
        if lty != rty {
            return Err(self.err("E0614", "assignment between different struct types", at));
        }
        let mut leaves = Vec::new();
        self.struct_leaves(lty, String::new(), &mut leaves);
        self.leaf_assignments(&leaves, (&l, &lsubs), (&r, &rsubs), at, out)
    }

    /// Member paths below a struct type that are not structs (`%x`, `%in%y`), with their
    /// extents.
    pub(super) fn struct_leaves(&self, ty: Ty, prefix: String, out: &mut Vec<(String, Vec<i64>)>) {
        let Ty::Struct(i) = ty else { return };
        for f in &self.structs[i as usize].fields {
            let p = format!("{prefix}%{}", f.name);
            if matches!(f.ty, Ty::Struct(_)) {
                self.struct_leaves(f.ty, p, out);
            } else {
                out.push((p, f.extents.clone()));
            }
        }
    }

    /// A struct-valued place: a struct variable, `*p`, a struct member, or an element of
    /// an array of structs (`p[i]`, with its subscripts).
    pub(super) fn struct_place(&mut self, e: &Node<Expression>) -> R<(String, Ty, Vec<Expr>)> {
        if let Some(el) = self.struct_element(e)? {
            return Ok((el.name, el.ty, el.subs));
        }
        match &e.node {
            Expression::Identifier(id) => {
                let v = self.var(&id.node.il(), e.span)?;
                if v.kind == VarKind::Local && matches!(v.ty, Ty::Struct(_)) {
                    return Ok((v.name, v.ty, Vec::new()));
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                if let Expression::Identifier(id) = &u.node.operand.node {
                    let v = self.var(&id.node.il(), e.span)?;
                    if v.kind == VarKind::StructPtr {
                        return Ok((v.name, v.ty, Vec::new()));
                    }
                }
            }
            Expression::Member(_) => {
                let (path, ty, ext, subs) = self.member(e)?;
                if matches!(ty, Ty::Struct(_)) && ext.is_empty() {
                    return Ok((path, ty, subs));
                }
            }
            _ => {}
        }
        Err(self.unsupported(
            "E0614",
            "this whole-struct value (assign a struct variable, member or `*p` to another)",
            e.span,
        ))
    }

    /// Is `e` a whole struct (a variable, `*p` of a struct pointer, or a struct member)?
    pub(super) fn is_struct_valued(&self, e: &Expression) -> bool {
        let var = |n: &str| {
            self.vars
                .get(crate::il::key_ref(n).as_ref())
                .filter(|v| v.name == n)
        };
        match e {
            Expression::Identifier(id) => var(&id.node.il())
                .is_some_and(|v| v.kind == VarKind::Local && matches!(v.ty, Ty::Struct(_))),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                matches!(&u.node.operand.node, Expression::Identifier(id)
                    if var(&id.node.il()).is_some_and(|v| v.kind == VarKind::StructPtr))
                    || self.struct_array_root(e).is_some()
            }
            Expression::Member(m) => self
                .member_type(m)
                .is_some_and(|(t, ext)| matches!(t, Ty::Struct(_)) && ext.is_empty()),
            _ => self.struct_array_root(e).is_some(),
        }
    }

    /// The type of a member expression, without diagnostics.
    pub(super) fn member_type(&self, m: &Node<MemberExpression>) -> Option<(Ty, Vec<i64>)> {
        let base = match &m.node.expression.node {
            Expression::Identifier(id) => {
                self.vars
                    .get(crate::il::key_ref(&id.node.il()).as_ref())
                    .filter(|v| v.name == id.node.il())?
                    .ty
            }
            Expression::Member(inner) => self.member_type(inner)?.0,
            Expression::BinaryOperator(_) => self.struct_array_root(&m.node.expression.node)?,
            Expression::UnaryOperator(u)
                if !matches!(&u.node.operand.node, Expression::Identifier(_)) =>
            {
                self.struct_array_root(&m.node.expression.node)?
            }
            Expression::UnaryOperator(u) => match &u.node.operand.node {
                Expression::Identifier(id) => {
                    self.vars
                        .get(crate::il::key_ref(&id.node.il()).as_ref())
                        .filter(|v| v.name == id.node.il())?
                        .ty
                }
                _ => return None,
            },
            _ => return None,
        };
        let Ty::Struct(i) = base else { return None };
        let f = self.structs[i as usize]
            .fields
            .iter()
            .find(|f| f.name == m.node.identifier.node.il())?;
        Some((f.ty, f.extents.clone()))
    }
}

impl FnCx<'_, '_> {
    /// The initializer of a struct local: `= {1.0, {2.0, 3.0}, .id = 4}` (positional or
    /// designated members, nested lists for array and struct members; members not given
    /// are zero, as in C), or `= other` (a whole-struct copy). One assignment per member.
    pub(super) fn struct_init(
        &mut self,
        path: &str,
        ty: Ty,
        init: &Node<Initializer>,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let Ty::Struct(i) = ty else {
            unreachable!("struct_init is called for structs")
        };
        let items = match &init.node {
            Initializer::Expression(e) if self.struct_call_type(&e.node).is_some() => {
                return self.assign_struct_call((path, ty, &[]), e, init.span, out);
            }
            Initializer::Expression(e) => {
                let (r, rty, rsubs) = self.struct_place(e)?;
                if rty != ty {
                    return Err(self.err(
                        "E0614",
                        "initialization from a different struct type",
                        e.span,
                    ));
                }
                let mut leaves = Vec::new();
                self.struct_leaves(ty, String::new(), &mut leaves);
                self.leaf_assignments(&leaves, (path, &[]), (&r, &rsubs), init.span, out)?;
                return Ok(());
            }
            Initializer::List(items) => items,
        };
        let fields = self.structs[i as usize].fields.clone();
        let mut given = vec![false; fields.len()];
        let mut next = 0usize;
        for item in items {
            let k = match item.node.designation.as_slice() {
                [] => next,
                [d] => match &d.node {
                    Designator::Member(id) => {
                        match fields.iter().position(|f| f.name == id.node.il()) {
                            Some(k) => k,
                            None => {
                                return Err(self.err(
                                    "E0606",
                                    format!(
                                        "`{}` has no member `{}`",
                                        self.structs[i as usize].name,
                                        id.node.il()
                                    ),
                                    d.span,
                                ));
                            }
                        }
                    }
                    _ => {
                        return Err(self.unsupported("E0615", "this designator", d.span));
                    }
                },
                _ => return Err(self.unsupported("E0615", "a nested designator", item.span)),
            };
            let Some(f) = fields.get(k) else {
                return Err(self.err("E0605", "more initializers than struct members", item.span));
            };
            let fpath = format!("{path}%{}", f.name);
            match (f.ty, f.extents.as_slice(), &item.node.initializer.node) {
                (Ty::Struct(_), [], _) => {
                    self.struct_init(&fpath, f.ty, &item.node.initializer, out)?;
                }
                (t, [], Initializer::Expression(e)) => {
                    let (rhs, rty) = self.value(e)?;
                    self.check_assignable(t, rty, e.span)?;
                    let st = self.stmt(
                        StmtKind::Assign {
                            lhs: Expr::var(&fpath),
                            rhs,
                        },
                        item.span,
                    );
                    out.push(st);
                }
                (t, [n], Initializer::List(elems)) if elems.len() as i64 <= *n => {
                    for (j, el) in elems.iter().enumerate() {
                        let (Initializer::Expression(e), true) =
                            (&el.node.initializer.node, el.node.designation.is_empty())
                        else {
                            return Err(self.unsupported(
                                "E0615",
                                "this initializer of an array member",
                                el.span,
                            ));
                        };
                        let (rhs, rty) = self.value(e)?;
                        self.check_assignable(t, rty, e.span)?;
                        let st = self.stmt(
                            StmtKind::Assign {
                                lhs: Expr::new(ExprKind::Index(
                                    fpath.clone(),
                                    vec![int_lit(j as i64)],
                                )),
                                rhs,
                            },
                            el.span,
                        );
                        out.push(st);
                    }
                    for j in elems.len() as i64..*n {
                        let zero = self.zero(t);
                        let st = self.stmt(
                            StmtKind::Assign {
                                lhs: Expr::new(ExprKind::Index(fpath.clone(), vec![int_lit(j)])),
                                rhs: zero,
                            },
                            item.span,
                        );
                        out.push(st);
                    }
                }
                _ => {
                    return Err(self.unsupported(
                        "E0615",
                        &format!(
                            "this initializer of the member `{}` (give arrays and structs \
                             their own braces)",
                            f.name
                        ),
                        item.span,
                    ));
                }
            }
            given[k] = true;
            next = k + 1;
        }
        // C zero-fills the members not given.
        for (k, f) in fields.iter().enumerate() {
            if !given[k] {
                self.zero_member(&format!("{path}%{}", f.name), f, init.span, out);
            }
        }
        Ok(())
    }

    /// `path = 0` for a member (an array whole), member by member for structs.
    pub(super) fn zero_member(&mut self, path: &str, f: &Field, at: CSpan, out: &mut Vec<Stmt>) {
        if let Ty::Struct(i) = f.ty {
            for g in self.structs[i as usize].fields.clone() {
                self.zero_member(&format!("{path}%{}", g.name), &g, at, out);
            }
            return;
        }
        // An array member whole (`a%v = 0`, made loops with the rest of array syntax).
        let zero = self.zero(f.ty);
        let st = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(path),
                rhs: zero,
            },
            at,
        );
        out.push(st);
    }
}
