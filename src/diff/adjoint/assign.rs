//! The adjoint of an assignment (seeds/000 §4.3, §5.4): the increments of the adjoints of its
//! active right-hand side leaves by their partial derivatives times the adjoint of the
//! left-hand side, which is then reset (or kept when the left-hand side is also read).

use super::*;

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    /// The adjoint of `lhs = rhs`: `leafb += ∂rhs/∂leaf · lhsb` for each active leaf, then
    /// `lhsb = 0` (the old value of `lhs` does not influence anything).
    pub(super) fn assignment_adjoint(&mut self, s: &Stmt, lhs: &Expr, rhs: &Expr) -> Vec<Stmt> {
        let Some(name) = lhs.base_name() else {
            return Vec::new();
        };
        if let Some(pairs) = self.ug.structure_copy(lhs, rhs) {
            // `r = s` of a derived type: field by field (`sb%u = sb%u + rb%u; rb%u = 0`).
            return pairs
                .iter()
                .flat_map(|(l, r)| self.assignment_adjoint(s, l, r))
                .collect();
        }
        let Some(lhs_b) = self.ug.dref(lhs) else {
            return Vec::new();
        };
        if !self.ug.useful_after(s, name) {
            return Vec::new();
        }
        let terms = linearize(rhs, &self.ug.leaf_info(s));
        let zero = self.ug.zero_of(name);
        if terms.is_empty() {
            return vec![assign(lhs_b, zero)];
        }
        let mut out = Vec::new();
        let lhs_key = crate::diff::partials::expr_key(lhs);
        let same_base: Vec<&Term> = terms
            .iter()
            .filter(|t| t.leaf.base_name().is_some_and(|n| key(n) == key(name)))
            .collect();
        if same_base.len() == 1 && crate::diff::partials::expr_key(&same_base[0].leaf) == lhs_key {
            // `x = c*x + f(y)`: increment the others with xb, then scale xb in place.
            let own = same_base[0].clone();
            for t in terms
                .iter()
                .filter(|t| crate::diff::partials::expr_key(&t.leaf) != lhs_key)
            {
                out.push(self.increment(t, &lhs_b));
            }
            let scaled = match (own.coeff, own.negative) {
                (None, false) => None,
                (None, true) => Some(Expr::unary(crate::il::UnOp::Neg, lhs_b.clone())),
                (Some(c), false) => Some(Expr::binary(BinOp::Mul, c, lhs_b.clone())),
                (Some(c), true) => Some(Expr::unary(
                    crate::il::UnOp::Neg,
                    Expr::binary(BinOp::Mul, c, lhs_b.clone()),
                )),
            };
            if let Some(v) = scaled {
                let v = convert(self.ug, v, self.ug.ty(lhs));
                out.push(assign(lhs_b, v));
            }
            return out;
        }
        let self_ref = !same_base.is_empty();
        let weight = if self_ref {
            let t = self.tempb(self.ug.ty(lhs));
            out.push(assign(Expr::var(&t), lhs_b.clone()));
            out.push(assign(lhs_b.clone(), zero.clone()));
            Expr::var(t)
        } else {
            lhs_b.clone()
        };
        for t in &terms {
            out.push(self.increment(t, &weight));
        }
        if !self_ref {
            out.push(assign(lhs_b, zero));
        }
        out
    }

    /// `leafb = leafb ± coeff·weight`.
    pub(super) fn increment(&self, t: &Term, weight: &Expr) -> Stmt {
        let leaf_b = self
            .ug
            .dref(&t.leaf)
            .expect("active leaves have derivative storage");
        let product = match &t.coeff {
            Some(c) => Expr::binary(BinOp::Mul, c.clone(), weight.clone()),
            None => weight.clone(),
        };
        let product = convert(self.ug, product, self.ug.ty(&t.leaf));
        let op = if t.negative { BinOp::Sub } else { BinOp::Add };
        assign(leaf_b.clone(), Expr::binary(op, leaf_b, product))
    }
}
