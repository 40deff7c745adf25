//! Arrays of structs: `struct pt p[N]` (locals and globals, 1-D or 2-D) and struct
//! pointer parameters indexed as arrays (`void f(struct pt *p, int n) { ... p[i].x ... }`).
//!
//! The IL has no arrays of derived type as such: it keeps the "struct-of-arrays view" of
//! one. The variable `p` is an array of derived type, and each member path below it is a
//! variable whose dimensions are those of `p` followed by those of the member: with
//! `struct pt { double x[3]; double m; }`, `p%x` has dims `(0:N-1, 0:2)` and `p%m` has
//! `(0:N-1)`. An element's member `p[i].x[k]` is `p%x(i, k)`: the subscripts of the
//! array of structs come first (column-major, like every C array of the IL), then those
//! of the member. The analyses see `p%x` as an array of `p`'s zone, which is what it is;
//! the back-ends split the subscripts back at the rank of `p` (`p[i].x[k]`).
//!
//! Seeds/000 §3 ("arrays as atoms", "distinguished structure components"): each
//! component of an array of structs is one array for the analyses, every element's
//! component blurred together, components kept apart; §4.2: the derivative of an array
//! of structs is an array of the derivative struct type, of the same dimensions.
//!
//! Accepted: `p[i].x`, `p[i][j].x` (a 2-D local array of structs), `p[i].v[k]`,
//! `p[i].in.y`, `(p + i)->x`, `p->x` (element 0) for a pointer parameter, and whole
//! elements `p[i] = q[j]` (member by member; array members element by element).
//! A local struct pointer into a 1-D array of structs (`struct planet *b = &bodies[i];`,
//! as the Benchmarks Game's n-body steps its planets) is the array plus an integer
//! offset, like a pointer into an array of numbers ([`PtrVar`]): `b->x`, `(*b).x`,
//! `b[k].x` and `*b` are elements of `bodies` at `b_off` (plus `k`), and `b = q + 1`,
//! `b++` move the offset. Refused with E0612: an element passed as a pointer (`&p[i]`,
//! `p + i`) or a whole array of structs passed to a function, struct pointer parameters
//! that move (`p++`), arrays of structs of more than 2 dimensions, and struct members that
//! are arrays of structs.

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::il::{DimSpec, ExprKind, StmtKind, key};

/// The element of an array of structs an expression designates: the array's name, its
/// struct type, and the subscripts (IL order).
pub(super) struct Element {
    pub(super) name: String,
    pub(super) ty: Ty,
    pub(super) subs: Vec<Expr>,
}

impl FnCx<'_, '_> {
    /// The rank of `v` as an array of structs, if it is one.
    pub(super) fn struct_array_rank(v: &Var) -> Option<usize> {
        if !matches!(v.ty, Ty::Struct(_)) {
            return None;
        }
        match &v.kind {
            VarKind::ArrayParam => Some(1),
            VarKind::LocalArray(ext) => Some(ext.len()),
            _ => None,
        }
    }

    /// `p[i]`, `p[i][j]` or `*(p + i)` / `(p + i)` for an array of structs `p`: the element.
    /// `Ok(None)` when `e` is not of that form (the caller reports).
    pub(super) fn struct_element(&mut self, e: &Node<Expression>) -> R<Option<Element>> {
        match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let (name_node, subs_c) = match &b.node.lhs.node {
                    Expression::Identifier(id) => (id, vec![&*b.node.rhs]),
                    Expression::BinaryOperator(inner)
                        if inner.node.operator.node == BinaryOperator::Index =>
                    {
                        let Expression::Identifier(id) = &inner.node.lhs.node else {
                            return Ok(None);
                        };
                        (id, vec![&*inner.node.rhs, &*b.node.rhs])
                    }
                    _ => return Ok(None),
                };
                let v = self.var(&name_node.node.il(), name_node.span)?;
                if self.is_struct_pointer(&v) && subs_c.len() == 1 {
                    let mut el = self.struct_pointer_element(&v.name, name_node.span)?;
                    let k = self.subscript(subs_c[0])?;
                    el.subs = vec![add_offset(el.subs.pop(), k, false)];
                    return Ok(Some(el));
                }
                let Some(rank) = Self::struct_array_rank(&v) else {
                    return Ok(None);
                };
                self.no_moving_struct_pointer(&v.name, e.span)?;
                if rank != subs_c.len() {
                    return Err(self.unsupported(
                        "E0612",
                        &format!(
                            "a reference to the array of structs `{}` with {} subscript(s) for \
                             its {rank} dimension(s)",
                            v.name,
                            subs_c.len()
                        ),
                        e.span,
                    ));
                }
                let mut subs = Vec::new();
                for s in subs_c {
                    subs.push(self.subscript(s)?);
                }
                subs.reverse();
                Ok(Some(Element {
                    name: v.name.clone(),
                    ty: v.ty,
                    subs,
                }))
            }
            // `(p + i)` as the operand of `->`, or `*(p + i)`.
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::Plus | BinaryOperator::Minus
                ) =>
            {
                let (id, off, minus) = match (&b.node.lhs.node, &b.node.rhs.node) {
                    (Expression::Identifier(id), _) => (
                        id,
                        &*b.node.rhs,
                        b.node.operator.node == BinaryOperator::Minus,
                    ),
                    (_, Expression::Identifier(id))
                        if b.node.operator.node == BinaryOperator::Plus =>
                    {
                        (id, &*b.node.lhs, false)
                    }
                    _ => return Ok(None),
                };
                let v = self.var(&id.node.il(), id.span)?;
                if Self::struct_array_rank(&v) != Some(1) {
                    return Ok(None);
                }
                self.no_moving_struct_pointer(&v.name, e.span)?;
                let x = self.subscript(off)?;
                let x = if minus {
                    Expr::unary(il::UnOp::Neg, paren_if_binary(x))
                } else {
                    x
                };
                Ok(Some(Element {
                    name: v.name.clone(),
                    ty: v.ty,
                    subs: vec![x],
                }))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                match &u.node.operand.node {
                    Expression::BinaryOperator(_) => self.struct_element(&u.node.operand),
                    // `*b` of a local struct pointer.
                    Expression::Identifier(id) => {
                        let v = self.var(&id.node.il(), id.span)?;
                        if !self.is_struct_pointer(&v) {
                            return Ok(None);
                        }
                        self.struct_pointer_element(&v.name, id.span).map(Some)
                    }
                    _ => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// Is `v` a local pointer into an array of structs?
    pub(super) fn is_struct_pointer(&self, v: &Var) -> bool {
        v.kind == VarKind::Pointer && matches!(v.ty, Ty::Struct(_))
    }

    /// `b = &bodies[i]`, `b = bodies + i`, `b = bodies`, `b = q` (another struct pointer):
    /// the array `b` points into, and its offset.
    pub(super) fn point_struct(
        &mut self,
        name: &str,
        value: &Node<Expression>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let el = match &value.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                self.struct_element(&u.node.operand)?
            }
            Expression::Identifier(id) => {
                let v = self.var(&id.node.il(), id.span)?;
                if self.is_struct_pointer(&v) {
                    Some(self.struct_pointer_element(&v.name, id.span)?)
                } else if Self::struct_array_rank(&v) == Some(1) {
                    Some(self.first_element(&v, value.span)?)
                } else {
                    None
                }
            }
            _ => self.struct_element(value)?,
        };
        let Some(Element {
            name: base, subs, ..
        }) = el.filter(|el| el.subs.len() == 1)
        else {
            return Err(self.unsupported(
                "E0612",
                &format!(
                    "making `{name}` point here (a local struct pointer points into a 1-D \
                     array of structs: `&a[i]`, `a + i`, `a`)"
                ),
                value.span,
            ));
        };
        let ptr = self
            .pointers
            .get_mut(crate::il::key_ref(name).as_ref())
            .expect("struct pointers are moving pointers");
        match &ptr.base {
            None => ptr.base = Some(base),
            Some(b) if *b == base => {}
            Some(b) => {
                let msg = format!(
                    "the struct pointer `{name}` points into `{b}` elsewhere and into `{base}` \
                     here: adgen follows a struct pointer only within one array"
                );
                return Err(self.err("E0612", msg, value.span));
            }
        }
        let off = ptr.off.clone();
        let sub = subs.into_iter().next().expect("one subscript");
        let st = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&off),
                rhs: sub,
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// The element a local struct pointer designates (`*b`, `b->x`).
    pub(super) fn struct_pointer_element(&mut self, name: &str, at: CSpan) -> R<Element> {
        let v = self.var(name, at)?;
        let p = self.pointers[&key(name)].clone();
        *self.fx.ptr_uses.entry(key(name)).or_insert(0) += 1;
        let Some(base) = p.base else {
            return Err(self.err(
                "E0605",
                format!("the pointer `{name}` is used before it is set to point into an array"),
                at,
            ));
        };
        Ok(Element {
            name: base,
            ty: v.ty,
            subs: vec![Expr::var(&p.off)],
        })
    }

    /// The element `p[0]` a struct pointer parameter indexed elsewhere designates as `p->x`.
    pub(super) fn first_element(&mut self, v: &Var, at: CSpan) -> R<Element> {
        self.no_moving_struct_pointer(&v.name, at)?;
        Ok(Element {
            name: v.name.clone(),
            ty: v.ty,
            subs: vec![int_lit(0)],
        })
    }

    fn no_moving_struct_pointer(&mut self, name: &str, at: CSpan) -> R<()> {
        if self
            .pointers
            .contains_key(crate::il::key_ref(name).as_ref())
        {
            return Err(self.unsupported(
                "E0612",
                &format!("moving the struct pointer `{name}` (`{name}++`, `{name} += n`)"),
                at,
            ));
        }
        Ok(())
    }

    /// An integer subscript.
    fn subscript(&mut self, s: &Node<Expression>) -> R<Expr> {
        let (x, ty) = self.value(s)?;
        if !matches!(ty, Ty::Int(_)) {
            return Err(self.err("E0605", "an array subscript must be an integer", s.span));
        }
        Ok(x)
    }

    /// A member reference `path` of an element with subscripts `prefix` (empty for a
    /// plain struct), with more subscripts `subs` of the member itself.
    pub(super) fn member_ref(path: String, prefix: &[Expr], subs: Vec<Expr>) -> Expr {
        if prefix.is_empty() && subs.is_empty() {
            return Expr::var(path);
        }
        let mut all = prefix.to_vec();
        all.extend(subs);
        Expr::new(ExprKind::Index(path, all))
    }

    /// Whole-element assignments of leaves: `l%leaf = r%leaf` with each side's element
    /// subscripts; an array member element by element (small constant extents).
    pub(super) fn leaf_assignments(
        &mut self,
        leaf_paths: &[(String, Vec<i64>)],
        (l, lsubs): (&str, &[Expr]),
        (r, rsubs): (&str, &[Expr]),
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        for (leaf, ext) in leaf_paths {
            let lp = format!("{l}{leaf}");
            let rp = format!("{r}{leaf}");
            if ext.is_empty() || (lsubs.is_empty() && rsubs.is_empty()) {
                let st = self.stmt(
                    StmtKind::Assign {
                        lhs: Self::member_ref(lp, lsubs, Vec::new()),
                        rhs: Self::member_ref(rp, rsubs, Vec::new()),
                    },
                    at,
                );
                out.push(st);
                continue;
            }
            let total: i64 = ext.iter().product();
            if total > 64 {
                return Err(self.unsupported(
                    "E0612",
                    &format!(
                        "assigning a whole element with the array member `{}` of more than 64 \
                         elements (assign the members in a loop)",
                        leaf.trim_start_matches('%')
                    ),
                    at,
                ));
            }
            for flat in 0..total {
                // C order: the last extent varies fastest; IL subscripts reversed.
                let mut rest = flat;
                let mut c_subs = Vec::new();
                for n in ext.iter().rev() {
                    c_subs.push(int_lit(rest % n));
                    rest /= n;
                }
                // c_subs is already last-C-extent first, which is the IL order.
                let st = self.stmt(
                    StmtKind::Assign {
                        lhs: Self::member_ref(lp.clone(), lsubs, c_subs.clone()),
                        rhs: Self::member_ref(rp.clone(), rsubs, c_subs),
                    },
                    at,
                );
                out.push(st);
            }
        }
        Ok(())
    }
}

/// The member symbols of an array of structs have its dimensions first.
pub(super) fn prepend_dims(parts: &mut [il::Symbol], dims: &[DimSpec]) {
    if dims.is_empty() {
        return;
    }
    for p in parts {
        let mut all = dims.to_vec();
        all.append(&mut p.dims);
        p.dims = all;
    }
}

/// `a[i]` (not pointer arithmetic).
pub(super) fn is_index(e: &Expression) -> bool {
    matches!(e, Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index)
}

impl FnCx<'_, '_> {
    /// The struct type of `p[i]`, `p[i][j]`, `(p + i)` or `*(p + i)` for an array of
    /// structs `p`, without diagnostics.
    pub(super) fn struct_array_root(&self, e: &Expression) -> Option<Ty> {
        let id = match e {
            Expression::BinaryOperator(b) => match (&b.node.lhs.node, &b.node.operator.node) {
                (Expression::Identifier(id), _) => id,
                (Expression::BinaryOperator(inner), BinaryOperator::Index)
                    if inner.node.operator.node == BinaryOperator::Index =>
                {
                    match &inner.node.lhs.node {
                        Expression::Identifier(id) => id,
                        _ => return None,
                    }
                }
                (_, BinaryOperator::Plus) => match &b.node.rhs.node {
                    Expression::Identifier(id) => id,
                    _ => return None,
                },
                _ => return None,
            },
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                // `*b` of a local struct pointer is an element.
                if let Expression::Identifier(id) = &u.node.operand.node {
                    let v = self
                        .vars
                        .get(crate::il::key_ref(&id.node.il()).as_ref())
                        .filter(|v| v.name == id.node.il())?;
                    if self.is_struct_pointer(v) {
                        return Some(v.ty);
                    }
                }
                return self.struct_array_root(&u.node.operand.node);
            }
            _ => return None,
        };
        let v = self
            .vars
            .get(crate::il::key_ref(&id.node.il()).as_ref())
            .filter(|v| v.name == id.node.il())?;
        if self.is_struct_pointer(v) {
            return Some(v.ty);
        }
        Self::struct_array_rank(v).map(|_| v.ty)
    }
}
