//! A call left as written in derivative code (its callee has no derivative: a black box
//! whose outputs depend on no active input, `depends = { t = [] }`) still overwrites the
//! arguments its callee writes: their new values depend on nothing active, so their
//! derivatives after the call are zero. The tangent zeroes them after the call, the
//! adjoint at the call in its backward sweep (their adjoints do not flow to before it).

use super::{UnitGen, assign};
use crate::analysis::effects::CallSite;
use crate::diag::Diagnostic;
use crate::il::{ExprKind, Stmt, bind_actuals};

impl UnitGen<'_, '_> {
    /// The zeroing of the derivatives a call left as written overwrites (those useful
    /// after it).
    pub fn passive_overwrites(&mut self, s: &Stmt, site: &CallSite) -> Vec<Stmt> {
        let Some((cu, ca)) = self.ctx.unit_analysis(site.callee) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, actual) in bind_actuals(cu.unit, site.args).iter().enumerate() {
            let Some(actual) = actual else { continue };
            if !ca.summary.writes.get(k).is_some_and(|w| *w) {
                continue;
            }
            let Some(name) = actual.base_name().map(str::to_string) else {
                continue;
            };
            if self.deriv_ref_name(&name).is_none() || !self.useful_after(s, &name) {
                continue;
            }
            // Derivative storage that follows its primal's allocation is given (zeroed)
            // where the primal gets memory, not here, where it may have none.
            let symbols = &self.unit.symbols;
            if symbols.get(&name).is_some_and(|v| v.pointer) || symbols.is_kept_allocatable(&name) {
                continue;
            }
            let formal_is_array = cu
                .unit
                .symbols
                .get(&cu.unit.args[k])
                .is_some_and(|f| f.is_array());
            let assumed_size = symbols.get(&name).is_some_and(|v| {
                v.dims
                    .iter()
                    .any(|d| matches!(d.upper, crate::il::Bound::Star))
            });
            match (&actual.kind, formal_is_array) {
                // A whole array of unknown size cannot be zeroed.
                (ExprKind::Var(_), _) if assumed_size => self.error(
                    Diagnostic::error(
                        "E0504",
                        format!(
                            "`{}` overwrites the assumed-size array `{name}` with values \
                             that depend on no active input: its derivative must be set to \
                             zero, but its size is unknown",
                            site.callee
                        ),
                    )
                    .at(s.span)
                    .with_help(crate::diff::unsized_args::size_help(self.unit, &name)),
                ),
                (ExprKind::Var(_), _) => {
                    if let Some(d) = self.dref(actual) {
                        out.extend(self.zero_on_entry_except(d, &name, &[]));
                    }
                }
                (_, false) => {
                    if let Some(d) = self.dref(actual) {
                        out.push(assign(d, self.zero_of(&name)));
                    }
                }
                // `t(i)` to an array dummy: the elements from `t(i)` on, how many unknown.
                (_, true) => self.error(
                    Diagnostic::error(
                        "E0503",
                        format!(
                            "`{}` overwrites `{name}` from an element on, with values that \
                             depend on no active input, and adgen cannot tell which \
                             elements' derivatives to reset",
                            site.callee
                        ),
                    )
                    .at(s.span)
                    .with_help(format!(
                        "pass the whole array `{name}`, or give `{}` a derivative",
                        site.callee
                    )),
                ),
            }
        }
        out
    }
}
