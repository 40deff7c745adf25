//! Arrays of structs in printed C: the IL's struct-of-arrays view (see
//! `front::c::lower::structarr`) back to C. A member path of an array of structs `p` has
//! the dimensions of `p` followed by those of the member, so `p%x(i, k)` is `p[i].x[k]`:
//! the subscripts split at the rank of `p`. Such a view is not contiguous in C, so a push
//! or pop of a whole one (the adjoint's snapshot of a member of every element) is a loop
//! of element pushes, and its pop the same loop run backwards.

use std::fmt::Write as _;

use super::{Cx, indent, scope};
use crate::il::Pass;
use crate::il::{Bound, DimSpec, Expr, ExprKind};

impl Cx<'_> {
    /// The rank of the array of structs a member path `p%x%y` belongs to, when `p` is one.
    pub(super) fn view_rank(&self, name: &str) -> Option<usize> {
        let (base, _) = name.split_once('%')?;
        let b = self.var(base)?;
        (!b.dims.is_empty()).then_some(b.dims.len())
    }

    /// `p[i].x[k]` for `p%x(i, k)` (`p` an array of structs, local or a pointer).
    pub(super) fn view_element(&self, name: &str, subs: &[Expr]) -> Option<String> {
        let r = self.view_rank(name)?;
        let (base, rest) = name.split_once('%')?;
        let b = self.var(base)?;
        let (outer, inner) = subs.split_at(r.min(subs.len()));
        let mut text = self.subscripted(base, &b.dims, b.pass.is_some(), outer);
        text.push('.');
        text.push_str(&scope::c_path(rest, false));
        let dims = self
            .var(name)
            .map(|v| v.dims.get(r..).unwrap_or_default().to_vec())
            .unwrap_or_default();
        for (i, s) in inner.iter().enumerate().rev() {
            let off = match dims.get(i) {
                Some(d) => self.offset(s, d),
                None => self.expr(s),
            };
            write!(text, "[{off}]").unwrap();
        }
        Some(text)
    }

    /// `name[i][j]` (C order), or `name[linear]` through a pointer.
    fn subscripted(&self, name: &str, dims: &[DimSpec], pointer: bool, subs: &[Expr]) -> String {
        if pointer {
            let mut text = String::new();
            for (i, s) in subs.iter().enumerate().rev() {
                let Some(d) = dims.get(i) else { continue };
                let off = self.offset(s, d);
                if text.is_empty() {
                    text = off;
                } else {
                    text = format!("{off} + ({})*({text})", self.extent(d));
                }
            }
            return format!("{name}[{text}]");
        }
        let mut text = name.to_string();
        for (i, s) in subs.iter().enumerate().rev() {
            let off = match dims.get(i) {
                Some(d) => self.offset(s, d),
                None => self.expr(s),
            };
            write!(text, "[{off}]").unwrap();
        }
        text
    }

    /// A push or pop of the whole view `name` through the scalar routine `scalar`
    /// (`adgen_push_real8`): loops over its elements, backwards for a pop. `None` when
    /// `arg` is not a whole view.
    pub(super) fn view_push_pop(
        &self,
        scalar: &str,
        pop: bool,
        arg: &Expr,
        depth: usize,
        trailing: &str,
    ) -> Option<String> {
        let ExprKind::Var(name) = &arg.kind else {
            return None;
        };
        self.view_rank(name)?;
        let v = self.var(name)?;
        if v.dims.iter().any(|d| !matches!(d.upper, Bound::Expr(_)))
            || self.var(name.split('%').next()?)?.pass == Some(Pass::Ref)
        {
            return None;
        }
        let dims = v.dims.clone();
        let ind = indent(depth);
        let mut out = String::new();
        // Pushes run the first subscript fastest (as a contiguous array would); pops undo
        // them in the reverse order.
        let (names, d) = self.open_loop_nest(&mut out, &dims, depth, trailing, pop);
        let subs: Vec<Expr> = names.iter().map(|x| Expr::var(x.clone())).collect();
        let el = self.view_element(name, &subs)?;
        writeln!(out, "{}{scalar}(&{el});", indent(d)).unwrap();
        writeln!(out, "{ind}}}").unwrap();
        Some(out)
    }
}
