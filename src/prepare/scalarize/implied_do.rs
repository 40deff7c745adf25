//! Implied DO loops in array constructors: `[(f(i), i = 1, n)]` (F2018 7.8).
//!
//! The constructor's size is the sum of its items' counts: one for a scalar, the trip
//! count times the items' counts for an implied DO (the loop's [`LoopDim`]: its extent is
//! the trip count, its index at offset `o` is `lower + o*stride`).
//!
//! A constructor of one implied DO with one item (`[(x(i)**2, i = 1, n)]`, or nested
//! `[((a(i, j), i = 1, n), j = 1, m)]` when the inner bounds do not depend on the outer
//! variable) is taken element by element: the element at offset `o` is the item with the
//! variable replaced by its value there, so `y = [(x(i)**2, i = 1, n)]` becomes the loop
//! `y(i1) = x(i1)**2`, whose derivatives need nothing more. Any other constructor with
//! implied DOs is filled into a temporary array before the statement, by DO loops over
//! fresh integer locals that count the elements; the temporary's size must then be a
//! specification expression.
//!
//! The implied DO's variable keeps its own value (F2018 19.4): the loops never assign it.

use super::*;
use crate::il::ImpliedDo;

impl Scalarizer<'_> {
    /// The number of elements the items of a constructor give.
    pub(super) fn ctor_count(&self, items: &[Expr]) -> R<Expr> {
        let mut total = Expr::int(0);
        for item in items {
            let count = match &item.kind {
                ExprKind::ImpliedDo(d) => {
                    let inner = self.ctor_count(&d.items)?;
                    let trips = loop_dim(d).extent();
                    if int_literal(&inner) == Some(1) {
                        trips
                    } else {
                        Expr::binary(BinOp::Mul, paren(trips), paren(inner))
                    }
                }
                _ if self.rank(item)? != 0 => return Err(self.ctor_item_error(item)),
                _ => Expr::int(1),
            };
            total = simplify(&Expr::binary(BinOp::Add, total, count));
        }
        Ok(total)
    }

    /// The element at 0-based `offset` of a constructor of one implied DO with one item
    /// (nested ones too), or None when the constructor has another form.
    pub(super) fn implied_do_element(&self, items: &[Expr], offset: &Expr) -> R<Option<Expr>> {
        let [item] = items else {
            return Ok(None);
        };
        let ExprKind::ImpliedDo(d) = &item.kind else {
            return Ok(None);
        };
        let [inner] = d.items.as_slice() else {
            return Ok(None);
        };
        let dim = loop_dim(d);
        if !matches!(inner.kind, ExprKind::ImpliedDo(_)) {
            if self.rank(inner)? != 0 {
                return Err(self.ctor_item_error(inner));
            }
            return Ok(Some(substitute(inner, &d.var, &dim.index_at(offset))));
        }
        // Nested: the inner loop runs fastest. Its count must not depend on this loop.
        let count = self.ctor_count(&d.items)?;
        if crate::il::visit::names_read(&count)
            .iter()
            .any(|n| key(n) == key(&d.var))
        {
            return Ok(None);
        }
        let outer = Expr::binary(BinOp::Div, paren(offset.clone()), paren(count.clone()));
        let inner_offset = Expr::intrinsic(Intrinsic::Mod, vec![offset.clone(), count]);
        let value = dim.index_at(&outer);
        let inner = substitute(inner, &d.var, &value);
        let ExprKind::ImpliedDo(_) = &inner.kind else {
            unreachable!("substitution keeps the kind")
        };
        self.implied_do_element(std::slice::from_ref(&inner), &simplify(&inner_offset))
    }

    /// Statements that fill `name(1:)` with the elements of `items` in order, counted by
    /// the integer local `counter`.
    pub(super) fn fill_ctor(&mut self, name: &str, counter: &str, items: &[Expr]) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        for item in items {
            match &item.kind {
                ExprKind::ImpliedDo(d) => {
                    let var = self.temp(&format!("{}_ido", d.var), ScalarType::Integer(4));
                    let renamed: Vec<Expr> = d
                        .items
                        .iter()
                        .map(|x| substitute(x, &d.var, &Expr::var(&var)))
                        .collect();
                    let body = self.fill_ctor(name, counter, &renamed)?;
                    let dim = loop_dim(d);
                    let mut pre = Vec::new();
                    let mut bound = |x: &Expr, s: &mut Self| s.element(x, &[], 0, &mut pre);
                    let dim = LoopDim {
                        lo: bound(&dim.lo, self)?,
                        hi: bound(&dim.hi, self)?,
                        stride: match &dim.stride {
                            Some(st) => Some(bound(st, self)?),
                            None => None,
                        },
                    };
                    out.extend(pre);
                    out.push(self.do_loop(&var, &dim, false, body));
                }
                _ => {
                    let mut pre = Vec::new();
                    let value = self.element(item, &[], 0, &mut pre)?;
                    out.extend(pre);
                    let next = Expr::binary(BinOp::Add, Expr::var(counter), Expr::int(1));
                    out.push(self.assign(Expr::var(counter), next));
                    let target = Expr::new(ExprKind::Index(name.into(), vec![Expr::var(counter)]));
                    out.push(self.assign(target, value));
                }
            }
        }
        Ok(out)
    }
}

/// The index range of an implied DO's variable.
fn loop_dim(d: &ImpliedDo) -> LoopDim {
    LoopDim {
        lo: d.lower.clone(),
        hi: d.upper.clone(),
        stride: d.stride.clone(),
    }
}

/// `e` with every reference to variable `var` replaced by `value`.
fn substitute(e: &Expr, var: &str, value: &Expr) -> Expr {
    let mut out = e.clone();
    crate::il::visit::walk_expr_mut_post(&mut out, &mut |x| {
        if let ExprKind::Var(n) = &x.kind
            && key(n) == key(var)
        {
            // The tree keeps the grouping; the back-ends print the parentheses it needs.
            let span = x.span;
            *x = value.clone();
            x.span = span;
        }
    });
    out
}
