//! Zeroing derivatives: `d = 0` for a variable's derivative, one assignment per
//! component for a structure (only the components its derivative type keeps).

use crate::il::{Expr, ExprKind, ScalarType, Stmt};

use super::{UnitGen, assign};

impl UnitGen<'_, '_> {
    /// `d = 0` for the derivative `d` of variable `primal`; for a derived-type variable,
    /// one assignment per real component (`sd%x = 0`).
    pub fn zero_into(&self, d: Expr, primal: &str) -> Vec<Stmt> {
        self.zero_parts(d, primal, false, &[])
    }

    /// [`UnitGen::zero_into`] on entry to the unit: the ALLOCATABLE components of a
    /// local structure are not allocated yet (`diff::heap` zeroes them when they are).
    pub fn zero_on_entry(&self, d: Expr, primal: &str) -> Vec<Stmt> {
        self.zero_parts(d, primal, true, &[])
    }

    /// [`UnitGen::zero_on_entry`] of the components of structure `primal` outside the
    /// component paths `kept` (`s%u`, as [`UnitGen::root_paths`] gives them): a root's
    /// structure of which the manifest names only some components.
    pub fn zero_on_entry_except(&self, d: Expr, primal: &str, kept: &[String]) -> Vec<Stmt> {
        self.zero_parts(d, primal, true, kept)
    }

    fn zero_parts(&self, d: Expr, primal: &str, entry: bool, kept: &[String]) -> Vec<Stmt> {
        let Some(sym) = self.unit.symbols.get(primal) else {
            return vec![assign(d, self.zero_of(primal))];
        };
        if sym.ty != ScalarType::Derived {
            return vec![assign(d, self.zero(sym.ty))];
        }
        // An element `qb(i)` of an array of derived type: its components only.
        let subs = match d.kind {
            ExprKind::Index(_, subs) => Some(subs),
            _ => None,
        };
        let components = self.unit.symbols.components_of(primal);
        components
            .filter(|s| s.ty.carries_values())
            .filter(|s| !entry || !self.unit.symbols.is_kept_allocatable(&s.name))
            .filter(|s| !kept.iter().any(|p| under_path(&s.name, p)))
            .filter_map(|s| {
                let dn = self.deriv_ref_name(&s.name)?;
                let at = subs
                    .clone()
                    .map_or(Expr::var(&dn), |i| Expr::new(ExprKind::Index(dn, i)));
                Some(assign(at, self.zero(s.ty)))
            })
            .collect()
    }

    /// `t%u = 0` for each real component `%u` of the derived-type variable `primal` that
    /// has a derivative: zeroes `t`, a temporary of `primal`'s derivative type.
    pub fn zero_members_like(&self, t: &str, primal: &str) -> Vec<Stmt> {
        self.unit
            .symbols
            .components_of(primal)
            .filter(|s| s.ty.carries_values())
            .filter(|s| self.deriv_ref_name(&s.name).is_some())
            .map(|s| {
                let member = s.name.get(primal.len()..).unwrap_or_default();
                assign(Expr::var(format!("{t}{member}")), self.zero(s.ty))
            })
            .collect()
    }

    /// The derivative of an INTENT(OUT) structure that the derivative body never
    /// refers to (a procedure that sets only components without derivatives, such as
    /// sizes, of a structure whose other components are active elsewhere): reset, one
    /// statement per derivative component, so that the derivative of the overwritten
    /// structure is defined and gfortran does not warn of an INTENT(OUT) dummy left
    /// unset or unused. An ALLOCATABLE component is reset only when allocated (on entry
    /// to a tangent, INTENT(OUT) has freed it).
    pub fn reset_unreferenced_out_structures(&self, body: &[Stmt]) -> Vec<Stmt> {
        // INTENT(OUT) structures with a derivative: most units have none, and then the
        // body is not walked (a large body is slow to walk: issue 16).
        let candidates: Vec<(&String, &str)> = self
            .unit
            .args
            .iter()
            .filter(|arg| {
                self.unit.symbols.get(arg).is_some_and(|sym| {
                    sym.intent == Some(crate::il::Intent::Out)
                        && sym.ty == ScalarType::Derived
                        && !sym.is_array()
                })
            })
            .filter_map(|arg| Some((arg, self.deriv_name(arg)?)))
            .collect();
        if candidates.is_empty() {
            return Vec::new();
        }
        let referenced = crate::il::visit::referenced_names(body);
        let mut out = Vec::new();
        for (arg, d) in candidates {
            if referenced.contains(crate::il::key_ref(d).as_ref()) {
                continue;
            }
            for c in self.unit.symbols.components_of(arg) {
                if !c.ty.carries_values() {
                    continue;
                }
                let Some(dc) = self.deriv_ref_name(&c.name) else {
                    continue;
                };
                let reset = assign(Expr::var(&dc), self.zero(c.ty));
                if c.dims
                    .iter()
                    .any(|b| matches!(b.upper, crate::il::Bound::Colon))
                {
                    out.push(super::heap::if_then(
                        super::heap::allocated(&dc),
                        vec![reset],
                    ));
                } else {
                    out.push(reset);
                }
            }
        }
        out
    }

    /// A zero derivative for an array without one passed where the callee expects one
    /// (a PARAMETER table such as the coefficients of a polynomial the callee also
    /// evaluates for active ones, a passive work array): a zeroed temporary shaped as the
    /// actual, named after the dummy `formal`. `None` when the actual is not a whole
    /// array of explicit shape (then E0505).
    pub fn zero_array_argument(
        &mut self,
        actual: &Expr,
        formal: &str,
        ty: ScalarType,
    ) -> Option<(String, Stmt)> {
        let ExprKind::Var(name) = &actual.kind else {
            return None;
        };
        let sym = self.unit.symbols.get(name)?;
        let explicit = sym
            .dims
            .iter()
            .all(|d| matches!(d.upper, crate::il::Bound::Expr(_)));
        if !sym.is_array() || !explicit {
            return None;
        }
        // A module's array may have bounds written with names this unit does not see:
        // its own bounds say the same.
        let dims = if sym.global.is_some() {
            (1..=sym.dims.len())
                .map(|k| {
                    let of = |op| Expr::intrinsic(op, vec![Expr::var(name), Expr::int(k as i64)]);
                    crate::il::DimSpec {
                        lower: Some(of(crate::il::Intrinsic::Lbound)),
                        upper: crate::il::Bound::Expr(of(crate::il::Intrinsic::Ubound)),
                    }
                })
                .collect()
        } else {
            sym.dims.clone()
        };
        let base = self.derivative_name_of(formal);
        let temp = self.temp_array(&base, crate::il::TypeSpec::of(ty), dims);
        let zero = assign(Expr::var(&temp), self.zero(ty));
        Some((temp, zero))
    }
}

/// Component `name` is path `path` or one of its components (`s%a%u` under `s%a`).
fn under_path(name: &str, path: &str) -> bool {
    let (name, path) = (crate::il::key(name), crate::il::key(path));
    name == path || name.strip_prefix(&path).is_some_and(|r| r.starts_with('%'))
}
