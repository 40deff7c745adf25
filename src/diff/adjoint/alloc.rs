//! ALLOCATE and DEALLOCATE in the adjoint (see `diff::heap`): the forward sweep saves what a
//! freed array held when the backward sweep still needs it; the backward sweep allocates
//! the array and its adjoint again where the forward sweep freed them, and frees them
//! where it allocated them.

use super::*;

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    /// ALLOCATE and DEALLOCATE of arrays kept allocatable (`diff::heap`): the forward
    /// sweep allocates and frees the primal where it was, pushing its values before the
    /// DEALLOCATE when the backward sweep reads them; the backward sweep allocates the
    /// adjoint buffer (zeroed) at the DEALLOCATE, with the primal popped when it was
    /// pushed, and frees them at the ALLOCATE.
    pub(super) fn heap_stmt(&mut self, s: &Stmt) -> (Vec<Stmt>, Vec<Stmt>) {
        let unit = self.ug.unit;
        let kept = |name: &str| unit.symbols.is_kept_allocatable(name);
        let mut fwd = Vec::new();
        let mut bwd = Vec::new();
        match &s.kind {
            StmtKind::Allocate(items) => {
                fwd.push(s.clone());
                let mut freed = Vec::new();
                for item in items {
                    let Some(name) = item.base_name().filter(|n| kept(n)) else {
                        continue;
                    };
                    // Allocated for the caller, which frees it and its adjoint
                    // (`free_call_allocations`); a root leaves them to its user.
                    if unit.symbols.is_allocated_argument(name) {
                        continue;
                    }
                    if let Some(d) = self.ug.deriv_ref_name(name) {
                        freed.push(Expr::var(d));
                    }
                    let recreated = if crate::il::lifetime::reallocated(&unit.body, name) {
                        self.recreates(name)
                    } else {
                        crate::diff::heap::matching_deallocate(&unit.body, s.id, name)
                            .is_some_and(|dealloc| self.saved_at(dealloc, name))
                    };
                    if recreated {
                        freed.push(Expr::var(name));
                    }
                }
                if !freed.is_empty() {
                    bwd.push(Stmt::generated(StmtKind::Deallocate(freed)));
                }
            }
            StmtKind::Deallocate(items) => {
                // The items' values are pushed in their order and popped in the reverse.
                let mut per_item = Vec::new();
                for item in items {
                    if !bwd.is_empty() {
                        per_item.push(std::mem::take(&mut bwd));
                    }
                    let Some(name) = item.base_name().filter(|n| kept(n)) else {
                        continue;
                    };
                    if crate::diff::heap::is_allocated_by_call(self.ug, name) {
                        let mut pushes = Vec::new();
                        bwd = self.free_call_allocated(s, name, &mut pushes);
                        fwd.extend(pushes);
                        continue;
                    }
                    let alloc = crate::diff::heap::matching_allocate(&unit.body, s.id, name);
                    let Some((alloc, bounds)) =
                        alloc.and_then(|a| crate::diff::heap::item_bounds(&a).map(|b| (a, b)))
                    else {
                        // `prepare::scalarize::alloc` gives every ALLOCATE of a
                        // reallocated array the same bounds.
                        self.ug.error(
                            Diagnostic::error(
                                "E0547",
                                format!("adgen cannot find the ALLOCATE of `{name}` this DEALLOCATE frees, or its bounds"),
                            )
                            .at(s.span)
                            .with_help("allocate the array with explicit bounds in the same block as this DEALLOCATE"),
                        );
                        continue;
                    };
                    let saves = self.saves(s, name);
                    if !saves
                        && crate::il::lifetime::reallocated(&unit.body, name)
                        && self.recreates(name)
                    {
                        // Another DEALLOCATE of it saves: every ALLOCATE frees it.
                        bwd.push(Stmt::generated(StmtKind::Allocate(vec![alloc.clone()])));
                    }
                    if saves {
                        let ty = unit.symbols.get(name).map(|sym| sym.ty);
                        let tape_ty = ty.and_then(crate::diff::heap::array_tape_type);
                        if tape_ty.is_none() {
                            self.ug.error(
                                Diagnostic::error(
                                    "E0547",
                                    format!("the adjoint must save the values of `{name}` before it is freed, but adgen saves whole arrays of real(4), real(8) and integer(4) elements only"),
                                )
                                .at(s.span)
                                .with_help("use an array of one of those types, or allocate it where its values are not needed after it is freed"),
                            );
                        }
                        if let Some(ty) = tape_ty {
                            self.ug.uses_runtime = true;
                            let size = crate::diff::heap::size_of(&bounds);
                            fwd.push(tape(Tape::array(
                                TapeOp::Push,
                                ty,
                                Expr::var(name),
                                size.clone(),
                            )));
                            bwd.push(Stmt::generated(StmtKind::Allocate(vec![alloc.clone()])));
                            bwd.push(tape(Tape::array(TapeOp::Pop, ty, Expr::var(name), size)));
                        }
                    }
                    if let Some((d, bounds, zero)) =
                        crate::diff::heap::derivative_of_item(self.ug, &alloc)
                    {
                        bwd.push(Stmt::generated(StmtKind::Allocate(vec![
                            crate::diff::heap::renamed(&alloc, &d),
                        ])));
                        bwd.extend(crate::diff::heap::zero_loops(self.ug, &d, &bounds, zero));
                    }
                }
                per_item.push(std::mem::take(&mut bwd));
                bwd = per_item.into_iter().rev().flatten().collect();
                fwd.push(s.clone());
            }
            _ => fwd.push(s.clone()),
        }
        (fwd, bwd)
    }

    /// The backward sweep of a CALL that allocates arrays of this unit (`diff::heap`):
    /// the primal is freed before the callee's adjoint runs (which allocates it again in
    /// its forward sweep, and frees it and its adjoint in its backward sweep); whatever
    /// is still allocated after it (the adjoint of an array the callee's adjoint does not
    /// take) is freed, as the array was before the call.
    pub(super) fn free_call_allocations(&mut self, s: &Stmt, bwd: Vec<Stmt>) -> Vec<Stmt> {
        let names = crate::diff::heap::allocated_by_call(self.ug, s);
        if names.is_empty() {
            return bwd;
        }
        let mut out = Vec::new();
        let runs_callee = bwd.iter().any(|b| !super::is_runtime_call(b));
        if runs_callee {
            out.extend(
                names
                    .iter()
                    .map(|n| crate::diff::heap::free_if_allocated(n)),
            );
        }
        out.extend(bwd);
        for name in &names {
            if let Some(d) = self.ug.deriv_ref_name(name) {
                out.push(crate::diff::heap::free_if_allocated(&d));
            }
            out.push(crate::diff::heap::free_if_allocated(name));
        }
        out
    }

    /// A DEALLOCATE of an array a CALL allocated (`diff::heap`): no ALLOCATE gives its
    /// bounds, so the forward sweep pushes them (after the values, when the backward
    /// sweep reads those), and the backward sweep pops them to allocate the adjoint
    /// buffer (zeroed) and, when its values were saved, the primal again.
    fn free_call_allocated(&mut self, s: &Stmt, name: &str, fwd: &mut Vec<Stmt>) -> Vec<Stmt> {
        let mut bwd = Vec::new();
        let Some(sym) = self.ug.unit.symbols.get(name) else {
            return bwd;
        };
        let (ty, rank) = (sym.ty, sym.rank());
        self.ug.uses_runtime = true;
        let int = TapeType::Integer(4);
        let size = Expr::intrinsic(crate::il::Intrinsic::Size, vec![Expr::var(name)]);
        let saves = self.saves(s, name);
        let tape_ty = crate::diff::heap::array_tape_type(ty).filter(|_| saves);
        if saves && tape_ty.is_none() {
            self.ug.error(
                Diagnostic::error(
                    "E0547",
                    format!("the adjoint must save the values of `{name}` before it is freed, but adgen saves whole arrays of real(4), real(8) and integer(4) elements only"),
                )
                .at(s.span)
                .with_help("use an array of one of those types, or free it where its values are not needed after"),
            );
        }
        if let Some(t) = tape_ty {
            fwd.push(tape(Tape::array(
                TapeOp::Push,
                t,
                Expr::var(name),
                size.clone(),
            )));
        }
        let base = name.replace('%', "_");
        let mut temps = Vec::new();
        for (lower, upper) in crate::diff::heap::current_bounds(name, rank) {
            fwd.push(tape(Tape::new(TapeOp::Push, int, lower)));
            fwd.push(tape(Tape::new(TapeOp::Push, int, upper)));
            let spec = crate::il::TypeSpec::of(crate::il::ScalarType::Integer(4));
            let lo = self.ug.temp(&format!("{base}_lo"), spec.clone());
            let hi = self.ug.temp(&format!("{base}_hi"), spec);
            temps.push((Expr::var(lo), Expr::var(hi)));
        }
        for (lo, hi) in temps.iter().rev() {
            bwd.push(tape(Tape::new(TapeOp::Pop, int, hi.clone())));
            bwd.push(tape(Tape::new(TapeOp::Pop, int, lo.clone())));
        }
        if let Some(t) = tape_ty {
            let item = crate::diff::heap::item_with(name, &temps);
            bwd.push(Stmt::generated(StmtKind::Allocate(vec![item])));
            bwd.push(tape(Tape::array(TapeOp::Pop, t, Expr::var(name), size)));
        }
        if let Some(d) = self.ug.deriv_ref_name(name) {
            let item = crate::diff::heap::item_with(&d, &temps);
            bwd.push(Stmt::generated(StmtKind::Allocate(vec![item])));
            let zero = self.ug.zero(ty);
            bwd.extend(crate::diff::heap::zero_loops(self.ug, &d, &temps, zero));
        }
        bwd
    }

    /// A reallocated array (`diff::heap`): some DEALLOCATE of it saves its values, so the
    /// backward sweep re-creates it at each DEALLOCATE and frees it at each ALLOCATE.
    fn recreates(&self, name: &str) -> bool {
        let mut found = false;
        crate::il::visit::walk_stmts(&self.ug.unit.body, &mut |s| {
            if let StmtKind::Deallocate(items) = &s.kind {
                found |= items
                    .iter()
                    .any(|e| e.base_name().is_some_and(|n| key(n) == key(name)))
                    && self.saved_at(s, name);
            }
        });
        found
    }
}
