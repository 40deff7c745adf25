//! Lowering of expressions and constants, and the math.h functions (calls: `calls.rs`).

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::diag::Span;
use crate::il::{self, BinOp, Expr, ExprKind, RealLit, UnOp};

impl FnCx<'_, '_> {
    // --------------------------------------------------------------- expressions

    /// A condition: a comparison or logical operation, or a number compared with zero.
    pub(super) fn cond(&mut self, e: &Node<Expression>) -> R<Expr> {
        let saved = std::mem::replace(&mut self.effects_ok, false);
        let r = self.expr(e);
        self.effects_ok = saved;
        let (v, ty) = r?;
        Ok(self.to_bool(v, ty))
    }

    pub(super) fn to_bool(&self, v: Expr, ty: Ty) -> Expr {
        match ty {
            Ty::Bool => v,
            t => Expr::binary(BinOp::Ne, v, self.zero(t)),
        }
    }

    /// A numeric value.
    pub(super) fn value(&mut self, e: &Node<Expression>) -> R<(Expr, Ty)> {
        let (v, ty) = self.expr(e)?;
        if let Ty::Struct(_) = ty {
            return Err(self.unsupported(
                "E0614",
                "using a whole struct as a value (use its members, or pass its address)",
                e.span,
            ));
        }
        if ty == Ty::Bool {
            // `swapk = (0 < ipvt[k]);`: a comparison's value is the int 1 or 0, as C says.
            let span = v.span;
            let one_or_zero =
                Expr::intrinsic(il::Intrinsic::Merge, vec![int_lit(1), int_lit(0), v]);
            return Ok((one_or_zero.spanned(span), Ty::Int(4)));
        }
        if !ty.is_numeric() {
            return Err(self.unsupported(
                "E0605",
                "using the value of a comparison or logical operator as a number",
                e.span,
            ));
        }
        Ok((v, ty))
    }

    /// An assignable place: a scalar variable, `*p`, `a[i]`, `a[i][j]`.
    pub(super) fn lvalue(&mut self, e: &Node<Expression>) -> R<(Expr, Ty)> {
        let (v, ty) = self.place(e)?;
        if !matches!(v.kind, ExprKind::Var(_) | ExprKind::Index(..)) {
            return Err(self.err("E0605", "assignment to a constant", e.span));
        }
        if let Some(n) = v.base_name() {
            let n = n.split('%').next().unwrap_or(n);
            let var = self.var(n, e.span)?;
            if var.kind == VarKind::Value {
                return Err(self.err(
                    "E0607",
                    format!("the by-value parameter `{n}` is assigned: not supported yet"),
                    e.span,
                ));
            }
        }
        Ok((v, ty))
    }

    /// A variable reference (scalar or element).
    pub(super) fn place(&mut self, e: &Node<Expression>) -> R<(Expr, Ty)> {
        match &e.node {
            // Enumeration and file-scope constants are inlined, so they may differ from a
            // variable by case only (`INFLOW` and `inflow`).
            Expression::Identifier(id)
                if !self.is_variable(&id.node.il()) && self.enums.contains_key(&id.node.il()) =>
            {
                let v = self.enums[&id.node.il()];
                Ok((int_lit(v).spanned(self.span(e.span)), Ty::Int(4)))
            }
            Expression::Identifier(id)
                if !self.is_variable(&id.node.il()) && self.consts.contains_key(&id.node.il()) =>
            {
                let (ty, init) = self.consts[&id.node.il()].clone();
                let (v, vty) = self.value(&init)?;
                let v = match (ty, vty, &v.kind) {
                    (a, b, _) if a == b => v,
                    (Ty::Real(k), _, ExprKind::Real(lit)) => Expr::new(ExprKind::Real(RealLit {
                        value: lit.value.clone(),
                        kind: k,
                        spelling: None,
                    })),
                    (Ty::Real(8), _, _) => Expr::intrinsic(il::Intrinsic::Dble, vec![v]),
                    (Ty::Real(_), _, _) => {
                        Expr::intrinsic(il::Intrinsic::Real, vec![v, int_lit(4)])
                    }
                    _ => Expr::intrinsic(il::Intrinsic::Int, vec![v]),
                };
                Ok((paren_if_binary(v).spanned(self.span(e.span)), ty))
            }
            Expression::Identifier(id) if self.is_optional(&id.node.il()) => {
                // An optional pointer parameter as a condition: `if (grad)`.
                Ok((self.present(&id.node.il(), e.span), Ty::Bool))
            }
            Expression::Identifier(id) => {
                let v = self.var(&id.node.il(), e.span)?;
                match v.kind {
                    VarKind::Value | VarKind::Local => {
                        Ok((Expr::var(&v.name).spanned(self.span(e.span)), v.ty))
                    }
                    VarKind::StructPtr => Err(self.unsupported(
                        "E0605",
                        &format!(
                            "using the struct pointer `{}` itself as a value (write `{0}->x`)",
                            v.name
                        ),
                        e.span,
                    )),
                    VarKind::RefScalar | VarKind::Pointer => Err(self.unsupported(
                        "E0605",
                        &format!(
                            "using the pointer `{}` itself as a value (write `*{0}` or `{0}[i]`)",
                            v.name
                        ),
                        e.span,
                    )),
                    _ => Err(self.unsupported(
                        "E0605",
                        &format!("using the whole array `{}` as a value", v.name),
                        e.span,
                    )),
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let span = self.span(e.span);
                if let Expression::Identifier(id) = &u.node.operand.node {
                    let v = self.var(&id.node.il(), e.span)?;
                    match v.kind {
                        VarKind::RefScalar => {
                            return Ok((Expr::var(&v.name).spanned(span), v.ty));
                        }
                        VarKind::Value | VarKind::Local => {
                            return Err(self.unsupported(
                                "E0605",
                                &format!("dereferencing `{}`, which is not a pointer", v.name),
                                e.span,
                            ));
                        }
                        _ => {}
                    }
                }
                let (base, off, ty) = self.ptr_expr(&u.node.operand)?;
                Ok((
                    base.element(off.unwrap_or_else(|| int_lit(0)))
                        .spanned(span),
                    ty,
                ))
            }
            Expression::Member(_) => {
                let (path, ty, ext, prefix) = self.member(e)?;
                if !ext.is_empty() {
                    return Err(self.unsupported(
                        "E0605",
                        &format!(
                            "using the whole array `{}` as a value",
                            path.replace('%', ".")
                        ),
                        e.span,
                    ));
                }
                let r = Self::member_ref(path, &prefix, Vec::new());
                Ok((r.spanned(self.span(e.span)), ty))
            }
            Expression::BinaryOperator(b)
                if b.node.operator.node == BinaryOperator::Index
                    && (matches!(b.node.lhs.node, Expression::Member(_))
                        || matches!(&b.node.lhs.node, Expression::BinaryOperator(inner)
                            if inner.node.operator.node == BinaryOperator::Index
                                && matches!(inner.node.lhs.node, Expression::Member(_)))) =>
            {
                self.member_element(b, e.span)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let (name, subs_c) = match &b.node.lhs.node {
                    Expression::Identifier(id) => (id.node.il(), vec![&*b.node.rhs]),
                    Expression::BinaryOperator(inner)
                        if inner.node.operator.node == BinaryOperator::Index =>
                    {
                        let Expression::Identifier(id) = &inner.node.lhs.node else {
                            return Err(self.unsupported("E0605", "this array reference", e.span));
                        };
                        (id.node.il(), vec![&*inner.node.rhs, &*b.node.rhs])
                    }
                    _ => {
                        return Err(self.unsupported(
                            "E0605",
                            "indexing an expression that is not an array name (pointer arithmetic)",
                            e.span,
                        ));
                    }
                };
                let v = self.var(&name, e.span)?;
                if v.kind == VarKind::Pointer
                    || self
                        .pointers
                        .contains_key(crate::il::key_ref(&name).as_ref())
                {
                    let [sub] = subs_c.as_slice() else {
                        return Err(self.unsupported(
                            "E0605",
                            &format!("indexing the pointer `{name}` twice"),
                            e.span,
                        ));
                    };
                    let (base, off, ty) = self.ptr_ident(&name, b.node.lhs.span)?;
                    let (x, xty) = self.value(sub)?;
                    if !matches!(xty, Ty::Int(_)) {
                        return Err(self.err(
                            "E0605",
                            "an array subscript must be an integer",
                            sub.span,
                        ));
                    }
                    return Ok((
                        base.element(add_offset(off, x, false))
                            .spanned(self.span(e.span)),
                        ty,
                    ));
                }
                if matches!(v.ty, Ty::Struct(_)) {
                    return Err(self.unsupported(
                        "E0612",
                        &format!(
                            "using an element of the array of structs `{name}` whole (as a value, \
                             or its address `&{name}[i]`; pass the array, or the members)"
                        ),
                        e.span,
                    ));
                }
                let rank = match &v.kind {
                    VarKind::ArrayParam | VarKind::Heap(None) => 1,
                    VarKind::RowsParam(_) | VarKind::RowPtrs | VarKind::Heap(Some(_)) => 2,
                    VarKind::LocalArray(ext) => ext.len(),
                    _ => {
                        return Err(self.unsupported(
                            "E0605",
                            &format!("indexing `{name}`, which is not an array"),
                            e.span,
                        ));
                    }
                };
                if rank != subs_c.len() {
                    return Err(self.unsupported(
                        "E0605",
                        &format!("a reference to `{name}` with {} subscript(s) for its {rank} dimension(s)", subs_c.len()),
                        e.span,
                    ));
                }
                let mut subs = Vec::new();
                for s in subs_c {
                    let (x, ty) = self.value(s)?;
                    if !matches!(ty, Ty::Int(_)) {
                        return Err(self.err(
                            "E0605",
                            "an array subscript must be an integer",
                            s.span,
                        ));
                    }
                    subs.push(x);
                }
                // The IL is column-major: the last C subscript varies fastest.
                subs.reverse();
                Ok((
                    Expr::new(ExprKind::Index(v.name.clone(), subs)).spanned(self.span(e.span)),
                    v.ty,
                ))
            }
            _ => Err(self.unsupported("E0605", "assigning to this expression", e.span)),
        }
    }

    pub(super) fn expr(&mut self, e: &Node<Expression>) -> R<(Expr, Ty)> {
        let span = self.span(e.span);
        match &e.node {
            Expression::Identifier(_) => self.place(e),
            Expression::Constant(c) => self.constant(c),
            Expression::UnaryOperator(u) => {
                use UnaryOperator as U;
                match u.node.operator.node {
                    U::Indirection => self.place(e),
                    U::Minus | U::Plus => {
                        let (v, ty) = self.value(&u.node.operand)?;
                        let op = if u.node.operator.node == U::Minus {
                            UnOp::Neg
                        } else {
                            UnOp::Plus
                        };
                        Ok((Expr::unary(op, paren_if_binary(v)).spanned(span), ty))
                    }
                    U::Negate
                        if matches!(&u.node.operand.node,
                        Expression::Identifier(id) if self.is_optional(&id.node.il())) =>
                    {
                        // `!grad` for an optional `grad`: it is absent.
                        let (v, _) = self.expr(&u.node.operand)?;
                        Ok((Expr::unary(UnOp::Not, v).spanned(span), Ty::Bool))
                    }
                    U::Negate if self.is_heap_name(&u.node.operand.node) => {
                        // `!w` for a `malloc`ed `w`: whether the allocation failed.
                        self.refuse_null_started(&u.node.operand.node, e.span)?;
                        Ok((self.allocation_failed(true).spanned(span), Ty::Bool))
                    }
                    U::Negate => {
                        let (v, ty) = self.expr(&u.node.operand)?;
                        let v = match ty {
                            Ty::Bool => Expr::unary(UnOp::Not, paren_if_binary(v)),
                            t => Expr::binary(BinOp::Eq, v, self.zero(t)),
                        };
                        Ok((v.spanned(span), Ty::Bool))
                    }
                    U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                        self.scalar_step(u, e.span)
                    }
                    U::Address => Err(self.unsupported(
                        "E0605",
                        "taking an address outside a call argument",
                        e.span,
                    )),
                    U::Complement => {
                        let (v, t) = self.value(&u.node.operand)?;
                        if !matches!(t, Ty::Int(_)) {
                            return Err(self.err("E0605", "`~` needs an integer operand", e.span));
                        }
                        Ok((bit_op("not", vec![v]).spanned(span), t))
                    }
                }
            }
            Expression::BinaryOperator(b) => {
                use BinaryOperator as B;
                let op = match b.node.operator.node {
                    B::Index => return self.place(e),
                    B::Plus => BinOp::Add,
                    B::Minus => BinOp::Sub,
                    B::Multiply => BinOp::Mul,
                    B::Divide => BinOp::Div,
                    B::ShiftLeft | B::ShiftRight | B::BitwiseAnd | B::BitwiseOr | B::BitwiseXor => {
                        let name = bit_op_name(&b.node.operator.node).expect("a bit operator");
                        let (l, lt) = self.value(&b.node.lhs)?;
                        let (r, rt) = self.value(&b.node.rhs)?;
                        if !matches!((lt, rt), (Ty::Int(_), Ty::Int(_))) {
                            return Err(self.err(
                                "E0605",
                                "shift and bitwise operators need integer operands",
                                e.span,
                            ));
                        }
                        return Ok((bit_op(name, vec![l, r]).spanned(span), promote(lt, rt)));
                    }
                    B::Modulo => {
                        let (l, lt) = self.value(&b.node.lhs)?;
                        let (r, rt) = self.value(&b.node.rhs)?;
                        if !matches!((lt, rt), (Ty::Int(_), Ty::Int(_))) {
                            return Err(self.err("E0605", "`%` needs integer operands", e.span));
                        }
                        return Ok((
                            Expr::intrinsic(il::Intrinsic::Mod, vec![l, r]).spanned(span),
                            promote(lt, rt),
                        ));
                    }
                    B::Equals | B::NotEquals if self.null_compared(b).is_some() => {
                        let equals = b.node.operator.node == B::Equals;
                        return self.null_test(b, equals, e.span);
                    }
                    B::Less
                    | B::Greater
                    | B::LessOrEqual
                    | B::GreaterOrEqual
                    | B::Equals
                    | B::NotEquals
                        if self.is_ptr(&b.node.lhs.node) || self.is_ptr(&b.node.rhs.node) =>
                    {
                        return self.pointer_compare(b, e.span);
                    }
                    B::Less => BinOp::Lt,
                    B::Greater => BinOp::Gt,
                    B::LessOrEqual => BinOp::Le,
                    B::GreaterOrEqual => BinOp::Ge,
                    B::Equals => BinOp::Eq,
                    B::NotEquals => BinOp::Ne,
                    B::LogicalAnd | B::LogicalOr => {
                        // A step (`--n > 0 && ...`) may stand in the left operand, which
                        // always runs, not in the right one.
                        let (lv, lt) = self.expr(&b.node.lhs)?;
                        let l = self.to_bool(lv, lt);
                        let r = self.cond(&b.node.rhs)?;
                        let op = if b.node.operator.node == B::LogicalAnd {
                            BinOp::And
                        } else {
                            BinOp::Or
                        };
                        return Ok((Expr::binary(op, l, r).spanned(span), Ty::Bool));
                    }
                    B::Assign
                    | B::AssignMultiply
                    | B::AssignDivide
                    | B::AssignModulo
                    | B::AssignPlus
                    | B::AssignMinus
                    | B::AssignShiftLeft
                    | B::AssignShiftRight
                    | B::AssignBitwiseAnd
                    | B::AssignBitwiseXor
                    | B::AssignBitwiseOr => return self.assignment_value(e, &b.node.lhs),
                };
                let (l, lt) = self.value(&b.node.lhs)?;
                let (r, rt) = self.value(&b.node.rhs)?;
                let ty = if op.is_arithmetic() {
                    promote(lt, rt)
                } else {
                    Ty::Bool
                };
                Ok((Expr::binary(op, l, r).spanned(span), ty))
            }
            Expression::Conditional(c)
                if self.effects_ok
                    && [&c.node.then_expression, &c.node.else_expression]
                        .iter()
                        .any(|b| has_steps(&b.node) || self.calls_a_function(&b.node)) =>
            {
                self.conditional_by_branches(c, e.span)
            }
            Expression::Conditional(c) => {
                let cond = self.cond(&c.node.condition)?;
                let saved = std::mem::replace(&mut self.effects_ok, false);
                let a = self.value(&c.node.then_expression);
                let b = self.value(&c.node.else_expression);
                self.effects_ok = saved;
                let ((a, at), (b, bt)) = (a?, b?);
                for (x, s) in [
                    (&a, c.node.then_expression.span),
                    (&b, c.node.else_expression.span),
                ] {
                    let mut has_call = false;
                    il::visit::walk_expr(x, &mut |y| {
                        has_call |= matches!(y.kind, ExprKind::Call(..));
                    });
                    if has_call {
                        return Err(self.unsupported(
                            "E0605",
                            "a function call in a branch of `?:` (both branches would be evaluated)",
                            s,
                        ));
                    }
                }
                Ok((
                    Expr::intrinsic(il::Intrinsic::Merge, vec![a, b, cond]).spanned(span),
                    promote(at, bt),
                ))
            }
            Expression::Cast(c) => {
                let ty = base_type(
                    c.node
                        .type_name
                        .node
                        .specifiers
                        .iter()
                        .filter_map(|s| match &s.node {
                            SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                            _ => None,
                        }),
                    self.typedefs,
                );
                if c.node.type_name.node.declarator.is_some() {
                    return Err(self.unsupported("E0605", "a cast to a pointer type", e.span));
                }
                // `(double)2.2204460492503131e-16L`, what <float.h>'s DBL_EPSILON expands
                // to: the constant rounded to the target type, written without the `L`.
                if let (Ok(Ty::Real(kind)), Expression::Constant(k)) =
                    (&ty, &c.node.expression.node)
                {
                    if let Constant::Float(f) = &k.node {
                        if f.suffix.format == FloatFormat::LongDouble
                            && f.base == FloatBase::Decimal
                            && !f.suffix.imaginary
                        {
                            let mut value = f.number.to_ascii_lowercase();
                            if value.starts_with('.') {
                                value.insert(0, '0');
                            }
                            let suffix = if *kind == 4 { "f" } else { "" };
                            let lit = Expr::new(ExprKind::Real(RealLit {
                                value,
                                kind: *kind,
                                spelling: Some(format!("{}{suffix}", f.number).into()),
                            }));
                            return Ok((lit.spanned(span), Ty::Real(*kind)));
                        }
                    }
                }
                let (v, _) = self.value(&c.node.expression)?;
                let (op, args, ty) = match ty {
                    Ok(Ty::Real(8)) => (il::Intrinsic::Dble, vec![v], Ty::Real(8)),
                    Ok(Ty::Real(4)) => (il::Intrinsic::Real, vec![v, int_lit(4)], Ty::Real(4)),
                    Ok(Ty::Int(4)) => (il::Intrinsic::Int, vec![v], Ty::Int(4)),
                    _ => return Err(self.unsupported("E0605", "a cast to this type", e.span)),
                };
                Ok((Expr::intrinsic(op, args).spanned(span), ty))
            }
            Expression::Call(c) => {
                let name = self.callee(c)?;
                if let Some((op, n)) = math(&name) {
                    if c.node.arguments.len() != n {
                        return Err(self.err(
                            "E0609",
                            format!("`{name}` takes {n} argument(s)"),
                            e.span,
                        ));
                    }
                    let mut args = Vec::new();
                    let mut ty = Ty::Int(4);
                    for a in &c.node.arguments {
                        let (mut v, t) = self.value(a)?;
                        // `abs` takes an `int`: C converts a real argument (`abs(pn5)`
                        // in AS 239 means `abs((int)pn5)`, not `fabs`).
                        if name == "abs" && matches!(t, Ty::Real(_)) {
                            v = Expr::intrinsic(il::Intrinsic::Int, vec![v]);
                            // As gcc's -Wabsolute-value: most likely `fabs` was meant.
                            let at = self.span(a.span);
                            self.diags.push(
                                Diagnostic::warning(
                                    "W0601",
                                    "`abs` takes an `int`: this real argument is converted to \
                                     an integer first, as C does, and its derivative is zero",
                                )
                                .at(at)
                                .with_help("for the absolute value of a real, write `fabs`"),
                            );
                        } else {
                            ty = promote(ty, t);
                        }
                        args.push(v);
                    }
                    let ty = match ty {
                        Ty::Int(_) => Ty::Real(8),
                        t => t,
                    };
                    // `floor`, `lround`, and `abs` of an int give an int.
                    let int_result = name.starts_with("floor")
                        || name.starts_with("lround")
                        || name == "abs"
                        || name == "labs";
                    let result_ty = if int_result { Ty::Int(4) } else { ty };
                    let v = match op {
                        // `sinf`: the float variant, printed as written.
                        Math::Op(op)
                            if name.len() > 1
                                && name.ends_with('f')
                                && math(&name[..name.len() - 1]).is_some() =>
                        {
                            Expr::new(ExprKind::Intrinsic {
                                op,
                                args: args.into_iter().map(il::Arg::positional).collect(),
                                spelling: Some(name.as_str().into()),
                            })
                        }
                        Math::Op(op) => Expr::intrinsic(op, args),
                        Math::Pow => {
                            let b = args.pop().expect("arity checked above");
                            let a = args.pop().expect("arity checked above");
                            Expr::binary(BinOp::Pow, paren_if_binary(a), paren_if_binary(b))
                        }
                        Math::Fdim => {
                            let b = paren_if_binary(args.pop().expect("arity checked above"));
                            let a = paren_if_binary(args.pop().expect("arity checked above"));
                            let kind = match ty {
                                Ty::Real(4) => 4,
                                _ => 8,
                            };
                            let zero = Expr::new(ExprKind::Real(RealLit {
                                value: "0.0".into(),
                                kind,
                                spelling: None,
                            }));
                            Expr::intrinsic(
                                il::Intrinsic::Max,
                                vec![Expr::binary(BinOp::Sub, a, b), zero],
                            )
                        }
                        Math::Fma => {
                            let c = paren_if_binary(args.pop().expect("arity checked above"));
                            let b = paren_if_binary(args.pop().expect("arity checked above"));
                            let a = paren_if_binary(args.pop().expect("arity checked above"));
                            Expr::new(ExprKind::Paren(Box::new(Expr::binary(
                                BinOp::Add,
                                Expr::binary(BinOp::Mul, a, b),
                                c,
                            ))))
                        }
                        Math::Passive => Expr::new(ExprKind::Intrinsic {
                            op: il::Intrinsic::Passive(il::PassiveIntrinsic {
                                result: il::ScalarResult::OfArgument,
                                inquiry: false,
                                reduction: false,
                            }),
                            args: args.into_iter().map(il::Arg::positional).collect(),
                            spelling: Some(name.as_str().into()),
                        }),
                    };
                    return Ok((v.spanned(span), result_ty));
                }
                let proto = self.proto(&name, c.span)?;
                if proto.ret == Ty::Void {
                    return Err(self.err("E0605", format!("`{name}` returns no value"), e.span));
                }
                let args = self.call_args(&name, &proto, c)?;
                Ok((
                    Expr::new(ExprKind::Call(name, args)).spanned(span),
                    proto.ret,
                ))
            }
            Expression::Comma(_) => Err(self.unsupported("E0605", "the comma operator", e.span)),
            Expression::Member(_) => self.place(e),
            Expression::StringLiteral(_) => {
                Err(self.unsupported("E0605", "a string literal", e.span))
            }
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => {
                Err(self.unsupported("E0605", "`sizeof`", e.span))
            }
            _ => Err(self.unsupported("E0605", "this expression", e.span)),
        }
    }

    pub(super) fn constant(&mut self, c: &Node<Constant>) -> R<(Expr, Ty)> {
        let span = self.span(c.span);
        match &c.node {
            Constant::Integer(i) => {
                if i.suffix.unsigned || i.suffix.imaginary {
                    return Err(self.unsupported(
                        "E0605",
                        "an unsigned or imaginary constant",
                        c.span,
                    ));
                }
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                let Ok(v) = i64::from_str_radix(&i.number, radix) else {
                    return Err(self.err("E0605", "this integer constant is too large", c.span));
                };
                let long = i.suffix.size != IntegerSize::Int || v > i32::MAX as i64;
                let text = if i.base == IntegerBase::Decimal {
                    i.number.to_string()
                } else {
                    v.to_string()
                };
                let (text, ty) = if long {
                    (format!("{text}_8"), Ty::Int(8))
                } else {
                    (text, Ty::Int(4))
                };
                Ok((Expr::new(ExprKind::Int(text)).spanned(span), ty))
            }
            Constant::Float(f) => {
                if f.base != FloatBase::Decimal || f.suffix.imaginary {
                    return Err(self.unsupported(
                        "E0605",
                        "a hexadecimal or imaginary float constant",
                        c.span,
                    ));
                }
                let kind = match f.suffix.format {
                    FloatFormat::Double => 8,
                    FloatFormat::Float => 4,
                    _ => {
                        return Err(self.unsupported("E0605", "a `long double` constant", c.span));
                    }
                };
                let mut value = f.number.to_ascii_lowercase();
                if value.starts_with('.') {
                    value.insert(0, '0');
                }
                if let Some(p) = value.find('.') {
                    if !value[p + 1..].starts_with(|ch: char| ch.is_ascii_digit()) {
                        value.insert(p + 1, '0');
                    }
                }
                let suffix = if kind == 4 { "f" } else { "" };
                Ok((
                    Expr::new(ExprKind::Real(RealLit {
                        value,
                        kind,
                        spelling: Some(format!("{}{suffix}", f.number).into()),
                    }))
                    .spanned(span),
                    Ty::Real(kind),
                ))
            }
            Constant::Character(_) => {
                Err(self.unsupported("E0605", "a character constant", c.span))
            }
        }
    }
}

pub(super) enum Math {
    Op(il::Intrinsic),
    Pow,
    /// `fdim(a, b)` = max(a - b, 0).
    Fdim,
    /// `fma(a, b, c)` = a*b + c.
    Fma,
    /// Piecewise constant (`ceil`, `trunc`, `round`): no derivative, kept as written.
    Passive,
}

/// math.h functions: the IL operation and the argument count. The `float` variants
/// (`sinf`) are the same operations on `float`.
pub(super) fn math(name: &str) -> Option<(Math, usize)> {
    use il::Intrinsic::*;
    let lookup = |base: &str| -> Option<(Math, usize)> {
        let (op, n) = match base {
            "sin" => (Sin, 1),
            "cos" => (Cos, 1),
            "tan" => (Tan, 1),
            "asin" => (Asin, 1),
            "acos" => (Acos, 1),
            "atan" => (Atan, 1),
            "atan2" => (Atan2, 2),
            "sinh" => (Sinh, 1),
            "cosh" => (Cosh, 1),
            "tanh" => (Tanh, 1),
            "asinh" => (Asinh, 1),
            "acosh" => (Acosh, 1),
            "atanh" => (Atanh, 1),
            "exp" => (Exp, 1),
            "exp2" => (Exp2, 1),
            "expm1" => (Expm1, 1),
            "log" => (Log, 1),
            "log10" => (Log10, 1),
            "log2" => (Log2, 1),
            "log1p" => (Log1p, 1),
            "sqrt" => (Sqrt, 1),
            "cbrt" => (Cbrt, 1),
            "hypot" => (Hypot, 2),
            "erf" => (Erf, 1),
            "erfc" => (Erfc, 1),
            "tgamma" => (Gamma, 1),
            "lgamma" => (LogGamma, 1),
            "fabs" => (Abs, 1),
            // `abs(k)` of an int: an int.
            "abs" | "labs" => (Abs, 1),
            "fmax" => (Max, 2),
            "fmin" => (Min, 2),
            "copysign" => (Sign, 2),
            "floor" => (Floor, 1),
            "fmod" => (Mod, 2),
            "pow" => return Some((Math::Pow, 2)),
            "fdim" => return Some((Math::Fdim, 2)),
            "fma" => return Some((Math::Fma, 3)),
            "ceil" | "trunc" | "round" | "rint" | "nearbyint" => return Some((Math::Passive, 1)),
            _ => return None,
        };
        Some((Math::Op(op), n))
    };
    lookup(name).or_else(|| name.strip_suffix('f').and_then(lookup))
}

pub(super) fn paren_if_binary(e: Expr) -> Expr {
    if matches!(e.kind, ExprKind::Binary(..)) {
        let span = e.span;
        Expr {
            kind: ExprKind::Paren(Box::new(e)),
            span,
        }
    } else {
        e
    }
}

pub(super) trait Spanned {
    fn spanned(self, span: Span) -> Self;
}

impl Spanned for Expr {
    fn spanned(mut self, span: Span) -> Expr {
        self.span = span;
        self
    }
}

/// The step of a counted loop over `var`: `i++`, `--i`, `i += 2`, `i -= 2`, `i = i + 2`.
pub(super) fn literal_step(e: &Expression, var: &str) -> Option<i64> {
    let is_var = |x: &Expression| matches!(x, Expression::Identifier(id) if id.node.il() == var);
    match e {
        Expression::UnaryOperator(u) if is_var(&u.node.operand.node) => {
            match u.node.operator.node {
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => Some(1),
                UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => Some(-1),
                _ => None,
            }
        }
        Expression::BinaryOperator(b) if is_var(&b.node.lhs.node) => {
            let lit = |x: &Expression| const_int(x);
            match b.node.operator.node {
                BinaryOperator::AssignPlus => lit(&b.node.rhs.node),
                BinaryOperator::AssignMinus => lit(&b.node.rhs.node).map(|v| -v),
                BinaryOperator::Assign => match &b.node.rhs.node {
                    Expression::BinaryOperator(r) if is_var(&r.node.lhs.node) => {
                        match r.node.operator.node {
                            BinaryOperator::Plus => lit(&r.node.rhs.node),
                            BinaryOperator::Minus => lit(&r.node.rhs.node).map(|v| -v),
                            _ => None,
                        }
                    }
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// The value of an integer constant expression made of literals and `+ - * / ( )`.
pub(super) fn const_int(e: &Expression) -> Option<i64> {
    const_int_in(e, &Enums::new())
}

/// [`const_int`], where enumeration constants may appear too.
pub(super) fn const_int_in(e: &Expression, enums: &Enums) -> Option<i64> {
    let const_int = |e: &Expression| const_int_in(e, enums);
    if let Expression::Identifier(id) = e {
        return enums.get(&id.node.il()).copied();
    }
    match e {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) if !i.suffix.unsigned => {
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                i64::from_str_radix(&i.number, radix).ok()
            }
            _ => None,
        },
        Expression::UnaryOperator(u) => match u.node.operator.node {
            UnaryOperator::Minus => const_int(&u.node.operand.node).map(|v| -v),
            UnaryOperator::Plus => const_int(&u.node.operand.node),
            _ => None,
        },
        Expression::BinaryOperator(b) => {
            let l = const_int(&b.node.lhs.node)?;
            let r = const_int(&b.node.rhs.node)?;
            match b.node.operator.node {
                BinaryOperator::Plus => l.checked_add(r),
                BinaryOperator::Minus => l.checked_sub(r),
                BinaryOperator::Multiply => l.checked_mul(r),
                BinaryOperator::Divide if r != 0 => Some(l / r),
                _ => None,
            }
        }
        _ => None,
    }
}

impl FnCx<'_, '_> {
    /// An element of an array member: `s.v[i]`, `p->m[i][j]`.
    fn member_element(&mut self, b: &Node<BinaryOperatorExpression>, at: CSpan) -> R<(Expr, Ty)> {
        let (member, subs_c) = match &b.node.lhs.node {
            Expression::Member(_) => (&*b.node.lhs, vec![&*b.node.rhs]),
            Expression::BinaryOperator(inner) => {
                (&*inner.node.lhs, vec![&*inner.node.rhs, &*b.node.rhs])
            }
            _ => unreachable!("checked by the caller"),
        };
        let (path, ty, ext, prefix) = self.member(member)?;
        if ext.len() != subs_c.len() {
            return Err(self.unsupported(
                "E0605",
                &format!(
                    "a reference to `{}` with {} subscript(s) for its {} dimension(s)",
                    path.replace('%', "."),
                    subs_c.len(),
                    ext.len()
                ),
                at,
            ));
        }
        let mut subs = Vec::new();
        for s in subs_c {
            let (x, xty) = self.value(s)?;
            if !matches!(xty, Ty::Int(_)) {
                return Err(self.err("E0605", "an array subscript must be an integer", s.span));
            }
            subs.push(x);
        }
        subs.reverse();
        Ok((
            Self::member_ref(path, &prefix, subs).spanned(self.span(at)),
            ty,
        ))
    }
}

/// The intrinsic of a binary shift or bitwise operator, plain or compound (`<<`, `<<=`).
pub(super) fn bit_op_name(op: &BinaryOperator) -> Option<&'static str> {
    use BinaryOperator as B;
    Some(match op {
        B::ShiftLeft | B::AssignShiftLeft => "shiftl",
        B::ShiftRight | B::AssignShiftRight => "shiftr",
        B::BitwiseAnd | B::AssignBitwiseAnd => "iand",
        B::BitwiseOr | B::AssignBitwiseOr => "ior",
        B::BitwiseXor | B::AssignBitwiseXor => "ieor",
        _ => return None,
    })
}

/// An integer shift or bitwise operation (`a << b`, `a & b`, `~a`): passive, kept as the
/// Fortran intrinsic that names it (`shiftl`, `shiftr`, `iand`, `ior`, `ieor`, `not`),
/// which the C back-end prints back as the operator.
pub(super) fn bit_op(name: &str, args: Vec<Expr>) -> Expr {
    Expr::new(ExprKind::Intrinsic {
        op: il::Intrinsic::Passive(il::PassiveIntrinsic {
            result: il::ScalarResult::OfArgument,
            inquiry: false,
            reduction: false,
        }),
        args: args.into_iter().map(il::Arg::positional).collect(),
        spelling: Some(name.into()),
    })
}
