//! What the adjoint's forward sweep saves before a statement overwrites it (seeds/000 §4.3,
//! save-on-kill): the plan's decisions, pushes and pops of scalars, elements, whole arrays
//! and the leaves of derived-type variables, and the sizes those need.

use super::*;

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    /// The plan's decision: save zone `name` before `stmt` overwrites it. Records
    /// overwrites without a save (the unit then does not give that variable back).
    pub(super) fn saves(&mut self, stmt: &Stmt, name: &str) -> bool {
        let Some(sym) = self.ug.symbol_or_global(name) else {
            return false;
        };
        if !sym.is_variable() {
            return false;
        }
        let decided = match (self.ug.node(stmt), self.ug.uir.zones.get(name)) {
            (Some(node), Some(z)) => self.plan.save[node][z],
            _ => true,
        };
        if !decided {
            self.unsaved.insert(key(name));
        }
        decided
    }

    /// The statement runs in the forward sweep.
    pub(super) fn present(&self, stmt: &Stmt) -> bool {
        self.ug.node(stmt).is_none_or(|n| self.plan.present[n])
    }

    /// The IF or loop is kept in the forward sweep.
    pub(super) fn live(&self, stmt: &Stmt) -> bool {
        self.plan.keep_all || self.plan.live_constructs.contains(&stmt.id)
    }

    /// The value of `name` before `stmt` is read again by the backward sweep (TBR⁻).
    pub(super) fn needed_before(&self, stmt: &Stmt, name: &str) -> bool {
        match (self.ug.node(stmt), self.ug.uir.zones.get(name)) {
            (Some(node), Some(z)) => self.plan.tbr_before[node][z],
            _ => true,
        }
    }

    /// Push and pop of a variable; a whole derived-type variable is saved component by
    /// component: those under `parts` (paths relative to it, `""` for all), when given.
    pub(super) fn save_all(
        &mut self,
        target: &Expr,
        s: &Stmt,
        parts: Option<&BTreeSet<String>>,
    ) -> Vec<(Stmt, Stmt)> {
        // An array the statement (a CALL) allocates has no values before it.
        let mut fresh = crate::diff::heap::allocated_by_call(self.ug, s);
        fresh.extend(crate::diff::heap::transient_by_call(self.ug, s));
        let is_fresh = |n: &str| fresh.iter().any(|f| key(f) == key(n));
        if matches!(&target.kind, ExprKind::Var(n) if is_fresh(n)) {
            return Vec::new();
        }
        let whole_derived = match &target.kind {
            ExprKind::Var(n) => self
                .ug
                .unit
                .symbols
                .get(n)
                .is_some_and(|sym| sym.ty == ScalarType::Derived)
                .then(|| n.clone()),
            _ => None,
        };
        let Some(name) = whole_derived else {
            if let Some(saves) = self.save_element_components(target, s) {
                return saves;
            }
            return self.save(target, s).into_iter().collect();
        };
        let leaves: Vec<String> = self
            .value_components(&name)
            .into_iter()
            .map(|(l, _)| l)
            .filter(|l| !is_fresh(l))
            .filter(|l| {
                let path = key(l.get(name.len()..).unwrap_or_default());
                parts.is_none_or(|parts| {
                    parts
                        .iter()
                        .any(|p| p.is_empty() || path == *p || path.starts_with(&format!("{p}%")))
                })
            })
            .collect();
        leaves
            .iter()
            .filter_map(|l| self.save(&Expr::var(l), s))
            .collect()
    }

    /// The components of structure `name` that hold values (not structures
    /// themselves), at every depth, with their ranks.
    fn value_components(&self, name: &str) -> Vec<(String, usize)> {
        self.ug
            .unit
            .symbols
            .components_of(name)
            .filter(|l| l.ty != ScalarType::Derived)
            .map(|l| (l.name.clone(), l.rank()))
            .collect()
    }

    /// An element `q(i)` of an array of derived type, saved component by component
    /// (`q%x(i)`, `q%y(i)` in the struct-of-arrays view); an array component whole, as
    /// the section `q%v(i, :)` (the element's `q(i)%v`, contiguous), of `size` elements.
    /// `None` for anything else.
    fn save_element_components(&mut self, target: &Expr, s: &Stmt) -> Option<Vec<(Stmt, Stmt)>> {
        let ExprKind::Index(name, subs) = &target.kind else {
            return None;
        };
        let sym = self.ug.unit.symbols.get(name)?;
        if sym.ty != ScalarType::Derived || subs.len() != sym.rank() {
            return None;
        }
        let leaves = self.value_components(name);
        if leaves.iter().any(|(_, rank)| *rank < subs.len()) {
            return None;
        }
        let mut out = Vec::new();
        for (l, rank) in leaves {
            let mut at = subs.clone();
            at.extend((subs.len()..rank).map(|_| {
                Expr::new(ExprKind::Range {
                    lower: None,
                    upper: None,
                    stride: None,
                })
            }));
            let element = Expr {
                kind: ExprKind::Index(l.clone(), at),
                span: target.span,
            };
            if rank == subs.len() {
                out.extend(self.save(&element, s));
                continue;
            }
            let ty = self
                .ug
                .unit
                .symbols
                .get(&l)
                .and_then(|c| crate::diff::heap::array_tape_type(c.ty));
            let Some(ty) = ty else {
                // No whole-array stack for its type: said as for a whole variable.
                out.extend(self.save(&Expr::var(name), s));
                continue;
            };
            self.ug.uses_runtime = true;
            let size = Expr::intrinsic(crate::il::Intrinsic::Size, vec![element.clone()]);
            out.push((
                tape(Tape::array(TapeOp::Push, ty, element.clone(), size.clone())),
                tape(Tape::array(TapeOp::Pop, ty, element, size)),
            ));
        }
        Some(out)
    }

    /// Push and pop of a scalar or an array element.
    pub(super) fn save(&mut self, target: &Expr, s: &Stmt) -> Option<(Stmt, Stmt)> {
        let name = target.base_name()?;
        let sym = self.ug.symbol_or_global(name)?;
        let ty = match sym.ty {
            ScalarType::Derived => {
                self.ug.error(
                    Diagnostic::error(
                        "E0506",
                        format!(
                            "derived-type variable `{name}` would have to be saved whole for the adjoint; adgen saves only its components yet"
                        ),
                    )
                    .at(s.span)
                    .with_help("assign the components one by one instead of passing the whole variable to a procedure that overwrites it"),
                );
                return None;
            }
            other => match TapeType::of(other) {
                Some(ty) => ty,
                None => {
                    self.ug.error(
                        Diagnostic::error(
                            "E0506",
                            format!(
                                "`{name}` would have to be saved for the adjoint, but the tape has no stack for its kind ({})",
                                other.describe()
                            ),
                        )
                        .at(s.span)
                        .with_help("declare it with a kind the tape stores: real(4), real(8), integer(4), integer(8), logical or character"),
                    );
                    return None;
                }
            },
        };
        let whole_array = sym.is_array() && matches!(target.kind, ExprKind::Var(_));
        self.ug.uses_runtime = true;
        if whole_array {
            let size = self.array_size(name, s)?;
            return Some((
                tape(Tape::array(TapeOp::Push, ty, target.clone(), size.clone())),
                tape(Tape::array(TapeOp::Pop, ty, target.clone(), size)),
            ));
        }
        Some((
            tape(Tape::new(TapeOp::Push, ty, target.clone())),
            tape(Tape::new(TapeOp::Pop, ty, target.clone())),
        ))
    }

    /// The number of elements of array `name`, from its declaration.
    pub(super) fn array_size(&mut self, name: &str, s: &Stmt) -> Option<Expr> {
        let sym = self.ug.symbol_or_global(name)?;
        // An array kept allocatable: the bounds of the ALLOCATE in force here.
        // One a CALL allocated or reallocated knows its size.
        if self.ug.unit.symbols.is_kept_allocatable(name)
            && !crate::diff::heap::bounds_on_tape(self.ug, name)
        {
            let item = crate::diff::heap::allocation_at(&self.ug.unit.body, s.id, name);
            return Some(crate::diff::heap::size_of(
                &item.and_then(|i| crate::diff::heap::item_bounds(&i))?,
            ));
        }
        // Assumed or deferred shape, or a module's array whose bounds may use names this
        // unit does not see: the array knows its size.
        // (Constant bounds give a constant: F77 names variables `SIZE`, ODEPACK's
        // DLSODE, and its COMMON arrays have constant bounds.)
        let constant =
            crate::il::storage::constant_bounds(Some(self.ug.ctx.program), self.ug.unit, sym)
                .map(|b| b.iter().map(|(l, u)| u - l + 1).product::<i64>());
        if let Some(n) = constant.filter(|_| sym.is_array()) {
            return Some(Expr::int(n));
        }
        if sym.dims.iter().any(|d| matches!(d.upper, Bound::Colon))
            || sym.global.is_some()
            || self.ug.unit.symbols.get(name).is_none()
        {
            return Some(Expr::intrinsic(
                crate::il::Intrinsic::Size,
                vec![Expr::var(name)],
            ));
        }
        let mut size: Option<Expr> = None;
        for d in &sym.dims {
            let Bound::Expr(upper) = &d.upper else {
                // Once per array: its other saves have the same cure. The members of an
                // array of structs (`bodies%vx`) are sized by the array's (`bodies`).
                let name = name.split('%').next().unwrap_or(name);
                let first =
                    !self.ug.errors.iter().any(|e| {
                        e.code == "E0507" && e.message.contains(&format!("array `{name}` "))
                    });
                if first {
                    self.ug.error(
                        Diagnostic::error(
                            "E0507",
                            format!(
                                "adgen must save array `{name}` here, but its size is unknown \
                                 (assumed-size)"
                            ),
                        )
                        .at(s.span)
                        .with_help(crate::diff::unsized_args::size_help(self.ug.unit, name)),
                    );
                }
                return None;
            };
            let literal = |e: &Expr| match &e.kind {
                ExprKind::Int(t) => t.parse::<i64>().ok(),
                _ => None,
            };
            let extent = match &d.lower {
                None => upper.clone(),
                Some(lower) if literal(lower) == Some(1) => upper.clone(),
                Some(lower) if literal(lower) == Some(0) => match &upper.kind {
                    // C's `n - 1`: the extent is `n`.
                    ExprKind::Binary(BinOp::Sub, a, one) if literal(one) == Some(1) => {
                        (**a).clone()
                    }
                    _ => Expr::binary(BinOp::Add, upper.clone(), Expr::int(1)),
                },
                Some(lower) => Expr::binary(
                    BinOp::Add,
                    Expr::binary(BinOp::Sub, paren(upper), paren(lower)),
                    Expr::int(1),
                ),
            };
            size = Some(match size {
                None => extent,
                Some(acc) => Expr::binary(BinOp::Mul, acc, paren(&extent)),
            });
        }
        size
    }

    /// The plan saves `name` before the statement `s` (without recording it unsaved).
    pub(super) fn saved_at(&self, s: &Stmt, name: &str) -> bool {
        let has_push = self
            .ug
            .unit
            .symbols
            .get(name)
            .and_then(|sym| crate::diff::heap::array_tape_type(sym.ty))
            .is_some();
        has_push
            && match (self.ug.node(s), self.ug.uir.zones.get(name)) {
                (Some(node), Some(z)) => self.plan.save[node][z],
                _ => true,
            }
    }
}
