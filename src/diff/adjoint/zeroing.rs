//! The adjoints' values where the backward sweep starts and where it ends (INTERFACE.md
//! §4): zero except the weights the caller passes in, and, on exit of a root, zero except
//! the independents'.

use super::*;

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    /// Adjoints start at zero, except the weights: the adjoint arguments of non-roots, and
    /// the dependents of a root.
    pub(super) fn backward_start_zeroing(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        let unit = self.ug.unit;
        // Module variables: their adjoint is the caller's weight when the calling context
        // needs them after the call, else zero.
        for (name, d, _, useful_out) in self.ug.active_globals() {
            if self.ug.root.is_some() && self.ug.changes_allocation(&name) {
                out.push(crate::diff::heap::mirror_allocation(
                    self.ug, &name, &d, useful_out,
                ));
                continue;
            }
            if !useful_out {
                out.extend(crate::diff::tangent::global_zeroing(self.ug, &name, &d));
                continue;
            }
            // A root's structure of which only some components are dependents.
            let paths = self.ug.root_paths(&name, true);
            if !paths.is_empty() {
                out.extend(self.ug.zero_on_entry_except(Expr::var(d), &name, &paths));
            }
        }
        for symbol in unit.symbols.iter() {
            if symbol.is_module_variable() || self.ug.is_program_global(&symbol.name) {
                continue;
            }
            let Some(d) = self.ug.deriv_name(&symbol.name).map(str::to_string) else {
                continue;
            };
            let is_weight_arg =
                symbol.is_dummy() || (self.is_result(&symbol.name) && self.ug.ua.result_active);
            if is_weight_arg && (self.ug.root.is_none() || self.is_root_dependent(&symbol.name)) {
                continue;
            }
            // The components outside the paths the root names as dependents (`s%u`).
            let kept = if is_weight_arg {
                self.ug.root_paths(&symbol.name, true)
            } else {
                Vec::new()
            };
            // Allocated (and zeroed) where the forward sweep freed its primal.
            if unit.symbols.is_kept_allocatable(&symbol.name) {
                continue;
            }
            if symbol.dims.iter().any(|d| matches!(d.upper, Bound::Star)) {
                let deriv = d.clone();
                self.ug.unsized_args.push(crate::diff::Unsized {
                    primal: symbol.name.clone(),
                    deriv,
                    mode: crate::request::Mode::Adjoint,
                    span: symbol.span,
                    rows: self.ug.unit.is_row_pointers(&symbol.name),
                });
                continue;
            }
            out.extend(
                self.ug
                    .zero_on_entry_except(Expr::var(d), &symbol.name, &kept),
            );
        }
        out
    }

    /// On exit of a root's adjoint, only the independents' adjoints mean something: the
    /// others are set to zero (INTERFACE.md §4).
    pub(super) fn exit_zeroing(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        if self.ug.root.is_none() {
            return out;
        }
        let unit = self.ug.unit;
        for symbol in unit.symbols.iter() {
            let Some(d) = self.ug.deriv_name(&symbol.name).map(str::to_string) else {
                continue;
            };
            let is_arg =
                symbol.is_dummy() || (self.is_result(&symbol.name) && self.ug.ua.result_active);
            if !is_arg || self.ug.is_independent(&symbol.name) {
                continue;
            }
            if symbol.dims.iter().any(|d| matches!(d.upper, Bound::Star)) {
                continue;
            }
            // The components outside the paths the root names as independents.
            let kept = self.ug.root_paths(&symbol.name, false);
            out.extend(
                self.ug
                    .zero_on_entry_except(Expr::var(d), &symbol.name, &kept),
            );
        }
        out
    }
}
