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
        let lhs_ty = self.ug.ty(lhs);
        let rhs = self.ug.as_assigned(rhs, lhs_ty);
        // Split on the active `sqrt` arguments being zero (`diff::singular`).
        let variants = crate::diff::singular::variants(&rhs, &self.ug.leaf_info(s));
        crate::diff::singular::statements(&variants, &mut |rhs| {
            self.assignment_adjoint_of(s, lhs, name, &lhs_b, rhs)
        })
    }

    /// [`Self::assignment_adjoint`] for one right-hand side.
    fn assignment_adjoint_of(
        &mut self,
        s: &Stmt,
        lhs: &Expr,
        name: &str,
        lhs_b: &Expr,
        rhs: &Expr,
    ) -> Vec<Stmt> {
        let lhs_b = lhs_b.clone();
        let lhs_ty = self.ug.ty(lhs);
        let terms = crate::diff::singular::nonzero(linearize(rhs, &self.ug.leaf_info(s)));
        let zero = self.ug.zero_of(name);
        if terms.is_empty() {
            return vec![assign(lhs_b, zero)];
        }
        let mut out = Vec::new();
        let lhs_key = crate::diff::partials::expr_key(lhs);
        // Leaves of the left-hand side's own storage: its variable, or another name of
        // it (EQUIVALENCE, dummies passed the same actual argument).
        let zones = &self.ug.uir.zones;
        let storage = |n: &str| {
            key(n) == key(name) || (zones.is_shared(name) && zones.get(n) == zones.get(name))
        };
        let same_base: Vec<&Term> = terms
            .iter()
            .filter(|t| t.leaf.base_name().is_some_and(storage))
            .collect();
        if same_base.len() == 1 && crate::diff::partials::expr_key(&same_base[0].leaf) == lhs_key {
            // `x = c*x + f(y)`: increment the others with xb, then scale xb in place.
            let own = same_base[0].clone();
            for t in terms
                .iter()
                .filter(|t| crate::diff::partials::expr_key(&t.leaf) != lhs_key)
            {
                out.push(self.increment(s, t, &lhs_b, lhs_ty.is_complex()));
            }
            let scaled = match (own.coeff.is_none() && own.complex.is_none(), own.negative) {
                (true, false) => None,
                (true, true) => Some(Expr::unary(crate::il::UnOp::Neg, lhs_b.clone())),
                (false, negative) => {
                    let v = crate::diff::partials::adjoint_contribution(
                        &own,
                        lhs_b.clone(),
                        lhs_ty.is_complex(),
                        &self.ug.leaf_info(s),
                    );
                    Some(if negative {
                        Expr::unary(crate::il::UnOp::Neg, v)
                    } else {
                        v
                    })
                }
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
            out.push(self.increment(s, t, &weight, lhs_ty.is_complex()));
        }
        if !self_ref {
            out.push(assign(lhs_b, zero));
        }
        out
    }

    /// `leafb = leafb ± coeff·weight` (`weight_complex`: the weight is COMPLEX).
    pub(super) fn increment(
        &self,
        s: &Stmt,
        t: &Term,
        weight: &Expr,
        weight_complex: bool,
    ) -> Stmt {
        let leaf_b = self
            .ug
            .dref(&t.leaf)
            .expect("active leaves have derivative storage");
        let product = match (&t.coeff, &t.complex, weight_complex) {
            (Some(c), None, false) => Expr::binary(BinOp::Mul, c.clone(), weight.clone()),
            (None, None, false) => weight.clone(),
            _ => {
                let info = self.ug.leaf_info(s);
                crate::diff::partials::adjoint_contribution(
                    t,
                    weight.clone(),
                    weight_complex,
                    &info,
                )
            }
        };
        let product = convert(self.ug, product, self.ug.ty(&t.leaf));
        let op = if t.negative { BinOp::Sub } else { BinOp::Add };
        assign(leaf_b.clone(), Expr::binary(op, leaf_b, product))
    }
}
