//! Pointer arithmetic resolved to an array plus an integer offset: moving pointers get an
//! offset variable `p_off`.

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::il::{BinOp, Expr, ExprKind, Stmt, StmtKind, UnOp, key};

/// What a pointer points into: the 1-D array `name`, or row `row` of the 2-D array
/// `name` (`a[i]` of `double (*a)[N]` or `double a[M][N]`).
#[derive(Clone, Debug)]
pub(super) struct Base {
    pub(super) name: String,
    pub(super) row: Option<Expr>,
}

impl Base {
    pub(super) fn array(name: String) -> Base {
        Base { name, row: None }
    }

    /// The element at offset `off` (in its row, for a row).
    pub(super) fn element(&self, off: Expr) -> Expr {
        let subs = match &self.row {
            None => vec![off],
            Some(r) => vec![off, r.clone()],
        };
        Expr::new(ExprKind::Index(self.name.clone(), subs))
    }
}

impl FnCx<'_, '_> {
    // ------------------------------------------------------------------ pointers

    /// A new integer local holding the offset of the moving pointer `name`.
    pub(super) fn offset_var(&mut self, name: &str, at: CSpan) -> String {
        self.int_var(&format!("{name}_off"), at)
    }

    /// A new integer local named `name` (or `name0`, `name1`, ... when taken).
    pub(super) fn int_var(&mut self, name: &str, at: CSpan) -> String {
        self.fresh_local(name, Ty::Int(4), at)
    }

    /// A new local of type `ty` named `name` (or `name0`, `name1`, ... when taken).
    pub(super) fn fresh_local(&mut self, name: &str, ty: Ty, at: CSpan) -> String {
        let mut local = name.to_string();
        let mut n = 0;
        while self.idents.contains(crate::il::key_ref(&local).as_ref())
            || self.vars.contains_key(crate::il::key_ref(&local).as_ref())
            || self.protos.contains_key(&local)
        {
            local = format!("{name}{n}");
            n += 1;
        }
        self.vars.insert(
            key(&local),
            Var {
                name: local.clone(),
                ty,
                kind: VarKind::Local,
            },
        );
        self.push_decl(&local, ty, Vec::new(), None, None, None, false, at);
        local
    }

    /// `double *p [= init];` or `struct planet *b [= &bodies[i]];` in a function body
    /// ([`point_to`](Self::point_to) tells the two apart by the pointer's type).
    pub(super) fn pointer_decl(
        &mut self,
        name: &str,
        ty: Ty,
        init: &Node<InitDeclarator>,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let is_struct = matches!(ty, Ty::Struct(_));
        if self.declare(name, ty, VarKind::Pointer, init.span)? {
            let off = self.offset_var(name, init.span);
            // Pointers into arrays of structs stay within one array.
            let switch = if is_struct {
                None
            } else {
                self.switch_of(name, init.span)
            };
            self.pointers.insert(
                key(name),
                PtrVar {
                    off,
                    base: None,
                    row: None,
                    switch,
                },
            );
        }
        let Some(i) = &init.node.initializer else {
            return Ok(());
        };
        let Initializer::Expression(e) = &i.node else {
            let (code, what) = if is_struct {
                ("E0612", "this struct pointer initializer")
            } else {
                ("E0605", "this pointer initializer")
            };
            return Err(self.unsupported(code, what, i.span));
        };
        self.with_effects(out, e, |cx, out| cx.point_to(name, e, init.span, out))
    }

    /// The moving pointer an expression statement sets (`p = ...`, `p += k`, `p++`).
    pub(super) fn moving_target(&self, e: &Node<Expression>) -> Option<String> {
        use BinaryOperator as B;
        use UnaryOperator as U;
        let target = match &e.node {
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    B::Assign | B::AssignPlus | B::AssignMinus
                ) =>
            {
                &b.node.lhs.node
            }
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement
                ) =>
            {
                &u.node.operand.node
            }
            _ => return None,
        };
        match target {
            Expression::Identifier(id)
                if self
                    .pointers
                    .contains_key(crate::il::key_ref(&id.node.il()).as_ref()) =>
            {
                Some(id.node.il())
            }
            _ => None,
        }
    }

    /// `p = q + k;`, `p += k;`, `p -= k;`, `p++;`: the offset of `p` changes.
    pub(super) fn pointer_assign(
        &mut self,
        name: &str,
        e: &Node<Expression>,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        use BinaryOperator as B;
        let (step, negative) = match &e.node {
            Expression::BinaryOperator(b) => match b.node.operator.node {
                B::Assign => return self.point_to(name, &b.node.rhs, e.span, out),
                B::AssignPlus => (Some(&*b.node.rhs), false),
                _ => (Some(&*b.node.rhs), true),
            },
            Expression::UnaryOperator(u) => (
                None,
                matches!(
                    u.node.operator.node,
                    UnaryOperator::PostDecrement | UnaryOperator::PreDecrement
                ),
            ),
            _ => unreachable!("moving_target accepts only these"),
        };
        let (_, off, _) = self.ptr_ident(name, e.span)?;
        let off = off.expect("a moving pointer has an offset variable");
        let k = match step {
            Some(k) => {
                let (v, ty) = self.value(k)?;
                if !matches!(ty, Ty::Int(_)) {
                    return Err(self.err("E0605", "a pointer moves by an integer", k.span));
                }
                v
            }
            None => int_lit(1),
        };
        let st = self.stmt(
            StmtKind::Assign {
                lhs: off.clone(),
                rhs: add_offset(Some(off), k, negative),
            },
            e.span,
        );
        out.push(st);
        Ok(())
    }

    /// `p = <pointer expression>`: the first such assignment fixes the array `p` points
    /// into; later ones must point into the same array.
    pub(super) fn point_to(
        &mut self,
        name: &str,
        value: &Node<Expression>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        if matches!(self.var(name, at)?.ty, Ty::Struct(_)) {
            return self.point_struct(name, value, at, out);
        }
        let (base, off, ty) = self.ptr_expr(value)?;
        let Base { name: base, row } = base;
        let var = self.var(name, at)?;
        if ty != var.ty {
            return Err(self.unsupported(
                "E0605",
                &format!("making `{name}` point into an array of another type"),
                value.span,
            ));
        }
        if let Some(sw) = self.pointers[&key(name)].switch.clone() {
            return self.point_switch(&sw, name, base, row, off, value.span, at, out);
        }
        let ptr = self
            .pointers
            .get_mut(crate::il::key_ref(name).as_ref())
            .expect("point_to is called for moving pointers");
        let rows_before = ptr.base.is_some() && ptr.row.is_some();
        match &ptr.base {
            None => ptr.base = Some(base.clone()),
            Some(b) if *b == base && rows_before == row.is_some() => {}
            Some(b) => {
                let msg = format!(
                    "the pointer `{name}` points into `{b}` elsewhere and into `{base}` here: \
                     adgen follows a pointer only within one array"
                );
                let e = self.err("E0605", msg, value.span);
                self.diags
                    .last_mut()
                    .expect("a diagnostic was just pushed")
                    .help = Some("use one pointer per array, or index the arrays".into());
                return Err(e);
            }
        }
        let off_var = ptr.off.clone();
        // A pointer to a row keeps the row in a variable of its own: `row_row = i`.
        if let Some(r) = row {
            let row_var = match self.pointers[&key(name)].row.clone() {
                Some(v) => v,
                None => {
                    let v = self.int_var(&format!("{name}_row"), at);
                    self.pointers
                        .get_mut(crate::il::key_ref(name).as_ref())
                        .expect("found above")
                        .row = Some(v.clone());
                    v
                }
            };
            let st = self.stmt(
                StmtKind::Assign {
                    lhs: Expr::var(&row_var),
                    rhs: r,
                },
                at,
            );
            out.push(st);
        }
        let st = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&off_var),
                rhs: off.unwrap_or_else(|| int_lit(0)),
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// Is this expression syntactically a pointer into an array?
    pub(super) fn is_ptr(&self, e: &Expression) -> bool {
        use BinaryOperator as B;
        use UnaryOperator as U;
        match e {
            Expression::Identifier(id) => matches!(
                self.vars
                    .get(crate::il::key_ref(&id.node.il()).as_ref())
                    .map(|v| &v.kind),
                Some(
                    VarKind::ArrayParam
                        | VarKind::LocalArray(_)
                        | VarKind::Pointer
                        | VarKind::Heap(None)
                )
            ),
            // `a[i]`: a row of a 2-D array.
            Expression::BinaryOperator(b) if b.node.operator.node == B::Index => {
                self.row_of(&b.node.lhs.node).is_some()
            }
            Expression::UnaryOperator(u) => match u.node.operator.node {
                U::Address => true,
                U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                    self.is_ptr(&u.node.operand.node)
                }
                _ => false,
            },
            Expression::BinaryOperator(b) => match b.node.operator.node {
                B::Plus => self.is_ptr(&b.node.lhs.node) || self.is_ptr(&b.node.rhs.node),
                B::Minus => self.is_ptr(&b.node.lhs.node),
                _ => false,
            },
            _ => false,
        }
    }

    /// A pointer expression as an array and an integer offset (`None`: element 0).
    pub(super) fn ptr_expr(&mut self, e: &Node<Expression>) -> R<(Base, Option<Expr>, Ty)> {
        use BinaryOperator as B;
        use UnaryOperator as U;
        match &e.node {
            Expression::Identifier(id) => self.ptr_ident(&id.node.il(), e.span),
            Expression::BinaryOperator(b)
                if b.node.operator.node == B::Index && self.row_of(&b.node.lhs.node).is_some() =>
            {
                let (name, ty) = self.row_of(&b.node.lhs.node).expect("checked");
                let (i, ity) = self.value(&b.node.rhs)?;
                if !matches!(ity, Ty::Int(_)) {
                    return Err(self.err(
                        "E0605",
                        "an array subscript must be an integer",
                        b.node.rhs.span,
                    ));
                }
                Ok((Base { name, row: Some(i) }, None, ty))
            }
            Expression::BinaryOperator(b) if matches!(b.node.operator.node, B::Plus | B::Minus) => {
                let minus = b.node.operator.node == B::Minus;
                let (p, k) = match (
                    self.is_ptr(&b.node.lhs.node),
                    !minus && self.is_ptr(&b.node.rhs.node),
                ) {
                    (true, false) => (&b.node.lhs, &b.node.rhs),
                    (false, true) => (&b.node.rhs, &b.node.lhs),
                    // A local whose declaration was refused: said there.
                    _ if [&b.node.lhs, &b.node.rhs].iter().any(|x| {
                        matches!(&x.node, Expression::Identifier(id)
                            if self.refused_locals.contains(&key(&id.node.il())))
                    }) =>
                    {
                        return Err(Reported);
                    }
                    _ => {
                        return Err(self.unsupported(
                            "E0605",
                            "this pointer arithmetic (adgen follows pointers as an array plus \
                             an integer offset)",
                            e.span,
                        ));
                    }
                };
                let (base, off, ty) = self.ptr_expr(p)?;
                let (k, kty) = self.value(k)?;
                if !matches!(kty, Ty::Int(_)) {
                    return Err(self.err("E0605", "a pointer moves by an integer", e.span));
                }
                Ok((base, Some(add_offset(off, k, minus)), ty))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == U::Address => {
                let (v, ty) = self.place(&u.node.operand)?;
                match v.kind {
                    ExprKind::Index(base, subs) if subs.len() == 1 => {
                        let sub = subs.into_iter().next().expect("one subscript");
                        Ok((Base::array(base), Some(sub), ty))
                    }
                    // `&a[i][j]`: element j of row i (the IL is column-major).
                    ExprKind::Index(base, subs) if subs.len() == 2 => {
                        let mut subs = subs.into_iter();
                        let j = subs.next().expect("two subscripts");
                        let i = subs.next().expect("two subscripts");
                        Ok((
                            Base {
                                name: base,
                                row: Some(i),
                            },
                            Some(j),
                            ty,
                        ))
                    }
                    _ => Err(self.unsupported(
                        "E0605",
                        "pointer arithmetic from the address of a scalar",
                        e.span,
                    )),
                }
            }
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement
                ) =>
            {
                let Expression::Identifier(id) = &u.node.operand.node else {
                    return Err(self.unsupported("E0605", "this pointer step", e.span));
                };
                let name = id.node.il();
                if !self
                    .pointers
                    .contains_key(crate::il::key_ref(&name).as_ref())
                {
                    return Err(self.unsupported(
                        "E0605",
                        &format!("stepping `{name}`, which is not a pointer"),
                        e.span,
                    ));
                }
                if !self.effects_ok {
                    return Err(self.unsupported(
                        "E0605",
                        "stepping a pointer (`p++`, `p--`) in an `else if` condition or after \
                         `&&`/`||`",
                        e.span,
                    ));
                }
                let (base, off, ty) = self.ptr_ident(&name, e.span)?;
                let off = off.expect("a moving pointer has an offset variable");
                let op = &u.node.operator.node;
                let down = matches!(op, U::PostDecrement | U::PreDecrement);
                let step = self.stmt(
                    StmtKind::Assign {
                        lhs: off.clone(),
                        rhs: add_offset(Some(off.clone()), int_lit(1), down),
                    },
                    e.span,
                );
                if matches!(op, U::PostIncrement | U::PostDecrement) {
                    self.fx.post.push(step);
                } else {
                    self.fx.pre.push(step);
                }
                self.fx.stepped.insert(key(&name));
                Ok((base, Some(off), ty))
            }
            Expression::Cast(_) => Err(self.unsupported("E0605", "a pointer cast", e.span)),
            _ => Err(self.unsupported(
                "E0605",
                "this pointer expression (adgen follows pointers as an array plus an integer \
                 offset)",
                e.span,
            )),
        }
    }

    /// A name used as a pointer: an array (element 0), or a moving pointer.
    pub(super) fn ptr_ident(&mut self, name: &str, at: CSpan) -> R<(Base, Option<Expr>, Ty)> {
        let v = self.var(name, at)?;
        if let Some(p) = self
            .pointers
            .get(crate::il::key_ref(name).as_ref())
            .cloned()
        {
            *self.fx.ptr_uses.entry(key(name)).or_insert(0) += 1;
            if let Some(sw) = &p.switch {
                let base = self.switched_base(sw, at)?;
                return Ok((base, Some(Expr::var(&p.off)), v.ty));
            }
            let Some(base) = p.base else {
                return Err(self.err(
                    "E0605",
                    format!("the pointer `{name}` is used before it is set to point into an array"),
                    at,
                ));
            };
            let base = Base {
                name: base,
                row: p.row.as_deref().map(Expr::var),
            };
            return Ok((base, Some(Expr::var(&p.off)), v.ty));
        }
        match &v.kind {
            VarKind::ArrayParam | VarKind::Heap(None) => Ok((Base::array(v.name), None, v.ty)),
            VarKind::LocalArray(ext) if ext.len() == 1 => Ok((Base::array(v.name), None, v.ty)),
            VarKind::LocalArray(_)
            | VarKind::RowsParam(_)
            | VarKind::RowPtrs
            | VarKind::Heap(Some(_)) => Err(self.unsupported(
                "E0605",
                &format!(
                    "`{name}` as a pointer: it is a 2-D array (a pointer to its row `{name}[i]` \
                     is supported)"
                ),
                at,
            )),
            _ => Err(self.unsupported(
                "E0605",
                &format!("using `{name}` as a pointer into an array"),
                at,
            )),
        }
    }

    /// `p < q`, `p != end`: pointers into the same array compare their offsets.
    pub(super) fn pointer_compare(
        &mut self,
        b: &Node<BinaryOperatorExpression>,
        at: CSpan,
    ) -> R<(Expr, Ty)> {
        use BinaryOperator as B;
        let (lbase, loff, _) = self.ptr_expr(&b.node.lhs)?;
        let (rbase, roff, _) = self.ptr_expr(&b.node.rhs)?;
        if lbase.name != rbase.name {
            return Err(self.unsupported("E0605", "comparing pointers into different arrays", at));
        }
        if lbase.row.is_some() || rbase.row.is_some() {
            return Err(self.unsupported("E0605", "comparing pointers into a 2-D array", at));
        }
        let op = match b.node.operator.node {
            B::Less => BinOp::Lt,
            B::Greater => BinOp::Gt,
            B::LessOrEqual => BinOp::Le,
            B::GreaterOrEqual => BinOp::Ge,
            B::Equals => BinOp::Eq,
            _ => BinOp::Ne,
        };
        let l = loff.unwrap_or_else(|| int_lit(0));
        let r = roff.unwrap_or_else(|| int_lit(0));
        Ok((Expr::binary(op, l, r).spanned(self.span(at)), Ty::Bool))
    }
}

/// `off + k` (`off - k`), without `0 +`.
pub(super) fn add_offset(off: Option<Expr>, k: Expr, minus: bool) -> Expr {
    // `p[-1]` is `off - 1`, not `off + (-1)`.
    if let (Some(_), ExprKind::Unary(UnOp::Neg, inner)) = (&off, &k.kind) {
        let inner = (**inner).clone();
        return add_offset(off, inner, !minus);
    }
    let is_zero = matches!(&k.kind, ExprKind::Int(t) if t == "0");
    match off {
        None if minus => Expr::unary(UnOp::Neg, paren_if_binary(k)),
        None => k,
        Some(off) if is_zero => off,
        Some(off) => Expr::binary(
            if minus { BinOp::Sub } else { BinOp::Add },
            off,
            paren_if_binary(k),
        ),
    }
}

/// The actual argument for a pointer into `base` at `off`: the whole array, or the
/// element where the callee's array starts (sequence association).
pub(super) fn element_at(base: Base, off: Option<Expr>) -> Expr {
    match (off, &base.row) {
        (None, None) => Expr::var(base.name),
        (None, Some(_)) => base.element(int_lit(0)),
        (Some(off), _) => base.element(off),
    }
}

impl FnCx<'_, '_> {
    /// `a` in `a[i]` used as a pointer: a 2-D array (parameter or local) whose row `a[i]`
    /// is meant; its IL name and element type.
    pub(super) fn row_of(&self, e: &Expression) -> Option<(String, Ty)> {
        let Expression::Identifier(id) = e else {
            return None;
        };
        let v = self.vars.get(crate::il::key_ref(&id.node.il()).as_ref())?;
        match &v.kind {
            VarKind::RowsParam(_) | VarKind::RowPtrs | VarKind::Heap(Some(_)) => {
                Some((v.name.clone(), v.ty))
            }
            VarKind::LocalArray(ext) if ext.len() == 2 => Some((v.name.clone(), v.ty)),
            _ => None,
        }
        .filter(|_| v.name == id.node.il())
    }
}
