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
                    // A module array: the backward sweep leaves it, and its adjoint, as
                    // they were before the ALLOCATE, for the caller (`diff::heap`).
                    if unit.symbols.is_heap_global(name) {
                        freed.extend(self.ug.deriv_ref_name(name).map(Expr::var));
                        freed.push(Expr::var(name));
                        continue;
                    }
                    // Allocated for the caller, which frees it and its adjoint
                    // (`free_call_allocations`); a root leaves them to its user.
                    if unit.symbols.is_allocated_argument(name) {
                        continue;
                    }
                    // Reallocated for the caller: the DEALLOCATE before re-creates both.
                    if unit.symbols.argument_allocation(name).is_some() {
                        freed.extend(self.ug.deriv_ref_name(name).map(Expr::var));
                        freed.push(Expr::var(name));
                        continue;
                    }
                    if let Some(d) = self.ug.deriv_ref_name(name) {
                        freed.push(Expr::var(d));
                    }
                    // Freed by a callee, whose adjoint re-creates it.
                    let recreated = if crate::diff::heap::is_freed_by_call(self.ug, name) {
                        true
                    } else if crate::il::lifetime::reallocated(&unit.body, name) {
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
                    let alloc = crate::diff::heap::matching_allocate(&unit.body, s.id, name)
                        .and_then(|a| crate::diff::heap::item_bounds(&a).map(|b| (a, b)))
                        .filter(|_| !crate::diff::heap::bounds_on_tape(self.ug, name));
                    let Some((alloc, bounds)) = alloc else {
                        // No ALLOCATE of this unit gives the bounds for sure: the tape
                        // does.
                        let mut pushes = Vec::new();
                        bwd = self.free_with_taped_bounds(s, name, &mut pushes);
                        fwd.extend(pushes);
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
                            self.unsavable_array(s, name);
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
                    .map(|n| crate::diff::heap::free_primal_if_allocated(self.ug, n)),
            );
        }
        out.extend(bwd);
        for name in &names {
            if let Some(d) = self.ug.deriv_ref_name(name) {
                out.push(crate::diff::heap::free_if_allocated(&d));
            }
            out.push(crate::diff::heap::free_primal_if_allocated(self.ug, name));
        }
        out
    }

    /// The backward sweep of a CALL that frees arrays of this unit and allocates them
    /// again (their bounds may change, as a swap of two buffers of different sizes
    /// does): the forward sweep pushes their bounds before the call, and the backward
    /// sweep first re-creates them with those bounds, so that the values restored for
    /// the callee's re-run, the re-run itself and the statements before the call find
    /// them as they were. When the callee has no adjoint, their adjoints are re-created
    /// too, zero: nothing flows through such a call.
    pub(super) fn reshape_reallocated(
        &mut self,
        s: &Stmt,
        fwd: &mut Vec<Stmt>,
        bwd: Vec<Stmt>,
    ) -> Vec<Stmt> {
        let freed = crate::diff::heap::freed_by_call(self.ug, s);
        let moved = crate::diff::heap::reallocated_by_call(self.ug, s);
        let mut names = moved.clone();
        names.extend(freed.iter().cloned());
        if names.is_empty() {
            return bwd;
        }
        let runs_callee = bwd.iter().any(|b| !super::is_runtime_call(b));
        let Some(at) = fwd.iter().position(|f| f.id == s.id) else {
            // The forward sweep does not make the call (nothing after it needs what it
            // does): the arrays stay as they were, and those it would free keep their
            // adjoints, made here when the callee's adjoint does not make them.
            let mut out = bwd;
            out.extend(crate::diff::heap::derivatives_after_call(self.ug, &freed));
            return out;
        };
        let mut pushes = Vec::new();
        // Per array, popped in the reverse order of the pushes.
        let mut per_name = Vec::new();
        for name in &names {
            let Some(rank) = self.ug.symbol_or_global(name).map(|sym| sym.rank()) else {
                continue;
            };
            let (push, pop, temps) = self.taped_bounds(name, rank);
            pushes.extend(push);
            let mut out = pop;
            out.push(crate::diff::heap::free_primal_if_allocated(self.ug, name));
            out.push(Stmt::generated(StmtKind::Allocate(vec![
                crate::diff::heap::item_with(name, &temps),
            ])));
            if let (false, Some(d)) = (runs_callee, self.ug.deriv_ref_name(name)) {
                let ty = self.ug.symbol_or_global(name).map(|sym| sym.ty);
                out.push(crate::diff::heap::free_if_allocated(&d));
                out.push(Stmt::generated(StmtKind::Allocate(vec![
                    crate::diff::heap::item_with(&d, &temps),
                ])));
                if let Some(ty) = ty {
                    let zero = self.ug.zero(ty);
                    out.extend(crate::diff::heap::zero_loops(self.ug, &d, &temps, zero));
                }
            }
            per_name.push(out);
        }
        fwd.splice(at..at, pushes);
        let mut out: Vec<Stmt> = per_name.into_iter().rev().flatten().collect();
        out.extend(bwd);
        // An array the callee frees for good: its adjoint buffer comes back from the
        // callee's adjoint, or is made here, zero, when that one does not take it.
        // A reallocated array whose adjoint the callee's adjoint does not take: its
        // adjoint gets the shape the array has again, zero.
        if runs_callee {
            out.extend(crate::diff::heap::derivatives_after_call(self.ug, &freed));
            out.extend(crate::diff::heap::derivatives_after_reallocation(
                self.ug, &moved,
            ));
        }
        out
    }

    /// Pushes of the bounds of array `name` (forward sweep), their pops in reverse
    /// (backward sweep), and the integer locals the pops fill, (lower, upper) per
    /// dimension.
    fn taped_bounds(
        &mut self,
        name: &str,
        rank: usize,
    ) -> (Vec<Stmt>, Vec<Stmt>, crate::diff::heap::Bounds) {
        self.ug.uses_runtime = true;
        let int = TapeType::Integer(4);
        let base = name.replace('%', "_");
        let mut push = Vec::new();
        let mut temps = Vec::new();
        for (lower, upper) in crate::diff::heap::current_bounds(name, rank) {
            push.push(tape(Tape::new(TapeOp::Push, int, lower)));
            push.push(tape(Tape::new(TapeOp::Push, int, upper)));
            let spec = crate::il::TypeSpec::of(crate::il::ScalarType::Integer(4));
            let lo = self.ug.temp(&format!("{base}_lo"), spec.clone());
            let hi = self.ug.temp(&format!("{base}_hi"), spec);
            temps.push((Expr::var(lo), Expr::var(hi)));
        }
        let mut pop = Vec::new();
        for (lo, hi) in temps.iter().rev() {
            pop.push(tape(Tape::new(TapeOp::Pop, int, hi.clone())));
            pop.push(tape(Tape::new(TapeOp::Pop, int, lo.clone())));
        }
        (push, pop, temps)
    }

    /// A DEALLOCATE of an array whose bounds no ALLOCATE of the unit gives for sure
    /// (`diff::heap::bounds_on_tape`, or ALLOCATEs written differently): the forward
    /// sweep pushes them (after the values, when the backward sweep reads those), and
    /// the backward sweep pops them to allocate the adjoint buffer (zeroed) and, when
    /// its values were saved, the primal again. A dummy is always re-created: its
    /// caller gets it back allocated, as it passed it.
    fn free_with_taped_bounds(&mut self, s: &Stmt, name: &str, fwd: &mut Vec<Stmt>) -> Vec<Stmt> {
        let mut bwd = Vec::new();
        let Some(sym) = self.ug.unit.symbols.get(name) else {
            return bwd;
        };
        let (ty, rank) = (sym.ty, sym.rank());
        self.ug.uses_runtime = true;
        let size = Expr::intrinsic(crate::il::Intrinsic::Size, vec![Expr::var(name)]);
        let saves = self.saves(s, name);
        let tape_ty = crate::diff::heap::array_tape_type(ty).filter(|_| saves);
        if saves && tape_ty.is_none() {
            self.unsavable_array(s, name);
        }
        if let Some(t) = tape_ty {
            fwd.push(tape(Tape::array(
                TapeOp::Push,
                t,
                Expr::var(name),
                size.clone(),
            )));
        }
        let (push, pop, temps) = self.taped_bounds(name, rank);
        fwd.extend(push);
        bwd.extend(pop);
        let dummy = self.ug.unit.symbols.argument_allocation(name).is_some()
            || self.ug.unit.symbols.is_heap_global(name);
        if tape_ty.is_some() || dummy {
            let item = crate::diff::heap::item_with(name, &temps);
            bwd.push(Stmt::generated(StmtKind::Allocate(vec![item])));
        }
        if let Some(t) = tape_ty {
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

    /// E0547: the values of `name` are needed after the DEALLOCATE `s`, but the tape
    /// has no whole-array stack of its type.
    fn unsavable_array(&mut self, s: &Stmt, name: &str) {
        self.ug.error(
            Diagnostic::error(
                "E0547",
                format!("the adjoint must save the values of `{name}` before it is freed, but adgen saves whole arrays of real(4), real(8) and integer(4) elements only"),
            )
            .at(s.span)
            .with_help("use an array of one of those types, or allocate it where its values are not needed after it is freed"),
        );
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
