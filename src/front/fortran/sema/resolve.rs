//! Name resolution: every expression of the declarations and of the body, with the
//! checks that need symbols (undeclared names, DO variables, named constants,
//! subscript counts, whole arrays).

use super::{Import, Sema};
use crate::diag::Span;
use crate::front::fortran::intrinsics;
use crate::il::{
    Arg, Attr, DeclKind, DimSpec, Expr, ExprKind, ScalarType, Stmt, StmtKind, TypeSpec, key,
};

impl Sema<'_> {
    /// Pass 2 over one declaration: resolve the names in bounds, kinds and values.
    pub(super) fn resolve_decl(&mut self, kind: &mut DeclKind) {
        match kind {
            DeclKind::Var {
                spec,
                attrs,
                entities,
            } => {
                self.resolve_spec(spec);
                for attr in attrs {
                    if let Attr::Dimension(dims) = attr {
                        self.resolve_dims(dims);
                    }
                }
                for entity in entities {
                    if let Some(dims) = &mut entity.dims {
                        self.resolve_dims(dims);
                    }
                    if let Some(init) = &mut entity.init {
                        self.resolve_expr(init, false);
                    }
                }
            }
            DeclKind::Parameter(list) => {
                for (_, value) in list {
                    self.resolve_expr(value, false);
                }
            }
            DeclKind::Dimension(entities) => {
                for entity in entities {
                    if let Some(dims) = &mut entity.dims {
                        self.resolve_dims(dims);
                    }
                }
            }
            DeclKind::Equivalence(sets) => {
                for e in sets.iter_mut().flatten() {
                    self.resolve_expr(e, true);
                    self.check_equivalenced(e);
                }
            }
            DeclKind::Common(blocks) => {
                for entity in blocks.iter_mut().flat_map(|b| b.1.iter_mut()) {
                    if let Some(dims) = &mut entity.dims {
                        self.resolve_dims(dims);
                    }
                }
            }
            DeclKind::Implicit(rules) => {
                for rule in rules {
                    self.resolve_spec(&mut rule.spec);
                }
            }
            DeclKind::StmtFunction { args, body, .. } => {
                for arg in args.iter() {
                    self.use_var(arg, body.span, false);
                }
                self.resolve_expr(body, false);
            }
            _ => {}
        }
    }

    pub(super) fn resolve_spec(&mut self, spec: &mut TypeSpec) {
        // A kind that could not be evaluated was reported (E0308) in the first pass.
        if let Some(kind) = &mut spec.kind
            && self.eval_int(kind, 0).is_some()
        {
            self.resolve_expr(kind, false);
        }
    }

    pub(super) fn resolve_dims(&mut self, dims: &mut [DimSpec]) {
        for dim in dims {
            if let Some(lower) = &mut dim.lower {
                self.resolve_expr(lower, false);
            }
            if let crate::il::Bound::Expr(upper) = &mut dim.upper {
                self.resolve_expr(upper, false);
            }
        }
    }

    /// A reference of an EQUIVALENCE set: a local variable or an element of a local array
    /// (its constant subscripts are the compiler's to check).
    fn check_equivalenced(&mut self, e: &Expr) {
        let name = match &e.kind {
            ExprKind::Index(_, subs)
                if subs
                    .iter()
                    .any(|s| matches!(s.kind, ExprKind::Range { .. })) =>
            {
                self.error(
                    "E0314",
                    "EQUIVALENCE lists variables and array elements, not sections".to_string(),
                    e.span,
                );
                return;
            }
            ExprKind::Var(n) | ExprKind::Index(n, _) => n.clone(),
            _ => {
                self.error(
                    "E0314",
                    "EQUIVALENCE lists variables and array elements only".to_string(),
                    e.span,
                );
                return;
            }
        };
        let Some(i) = self.lookup(&name) else {
            return;
        };
        let why = if name.contains('%') {
            Some("a component of a derived type")
        } else if self.infos[i].arg_index.is_some() {
            Some("a dummy argument")
        } else if self.infos[i].global.is_some() {
            Some("a COMMON or module variable")
        } else {
            None
        };
        if let Some(why) = why {
            self.error(
                "E0314",
                format!("`{name}` in EQUIVALENCE is {why}: not supported"),
                e.span,
            )
            .help = Some(
                "EQUIVALENCE is supported between local variables and elements of local arrays; \
                 use separate variables otherwise"
                    .to_string(),
            );
        }
    }

    /// A name used as a value. `actual_arg`: it is a whole actual argument of a call,
    /// where arrays and procedures may appear by name.
    pub(super) fn use_var(&mut self, name: &str, span: Span, actual_arg: bool) {
        if let Some(unit_name) = &self.result_renamed_from
            && key(unit_name) == key(name)
            && self.lookup(name).is_none()
        {
            self.error(
                "E0309",
                format!("`{name}` is the function's name; with RESULT, assign the result variable instead"),
                span,
            );
            return;
        }
        let i = match self.lookup(name) {
            Some(i) => i,
            None => {
                if self.implicit_of(name).is_none() {
                    self.undeclared(name, span);
                    return;
                }
                self.get_or_create(name, span)
            }
        };
        self.infos[i].used_var = true;
        if self.type_of(i).is_none() && !self.infos[i].external {
            self.undeclared(name, span);
        }
        // Whole arrays in expressions are array syntax: `prepare::scalarize` rewrites them
        // into loops, and refuses those in places it cannot (E0408).
        let _ = actual_arg;
        self.check_whole_component(name, span);
    }

    pub(super) fn resolve_expr(&mut self, e: &mut Expr, actual_arg: bool) {
        let span = e.span;
        // Only the top of an assignment's right-hand side is `at_assignment_rhs`.
        let top = std::mem::replace(&mut self.at_assignment_rhs, false);
        match &mut e.kind {
            ExprKind::Var(name) => {
                let name = name.clone();
                self.use_var(&name, span, actual_arg);
            }
            ExprKind::Call(name, args) => {
                let name = name.clone();
                let args = std::mem::take(args);
                self.at_assignment_rhs = top;
                e.kind = self.resolve_call(name, args, span);
            }
            ExprKind::Real(lit) => match self.real_kind(lit) {
                Some(k) if [4, 8, 10, 16].contains(&k) => lit.kind = k,
                _ => self.bad_suffix(
                    lit.spelling.as_deref().unwrap_or_default().to_string(),
                    span,
                ),
            },
            ExprKind::Int(text) => {
                if let Some((_, suffix)) = text.split_once('_') {
                    let ok = self
                        .suffix_kind(suffix)
                        .is_some_and(|k| [1, 2, 4, 8, 16].contains(&k));
                    if !ok {
                        self.bad_suffix(text.clone(), span);
                    } else if let Some(i) = self.lookup(suffix) {
                        self.infos[i].used_var = true;
                    }
                }
            }
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => self.resolve_expr(x, false),
            ExprKind::Binary(_, a, b) => {
                self.resolve_expr(a, false);
                self.resolve_expr(b, false);
            }
            ExprKind::Index(_, subs) => {
                for s in subs {
                    self.resolve_expr(s, false);
                }
            }
            ExprKind::Intrinsic { args, .. } => {
                for a in args {
                    self.resolve_expr(&mut a.value, false);
                }
            }
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => {
                for part in [lower, upper, stride].into_iter().flatten() {
                    self.resolve_expr(part, false);
                }
            }
            ExprKind::ArrayCtor(items) => {
                for item in items {
                    self.resolve_expr(item, false);
                }
            }
            ExprKind::ImpliedDo(d) => {
                let mut var = Expr::var(&d.var);
                var.span = span;
                self.resolve_expr(&mut var, false);
                for x in d.exprs_mut() {
                    self.resolve_expr(x, false);
                }
            }
            ExprKind::Substring { base, lower, upper } => {
                self.resolve_expr(base, false);
                for part in [lower, upper].into_iter().flatten() {
                    self.resolve_expr(part, false);
                }
            }
            ExprKind::Logical(_) | ExprKind::Str(_) => {}
        }
    }

    pub(super) fn bad_suffix(&mut self, spelling: String, span: Span) {
        self.error(
            "E0308",
            format!("the kind of `{spelling}` is not a known kind or integer named constant"),
            span,
        )
        .help = Some("declare it, e.g. `integer, parameter :: dp = 8`, before its use".to_string());
    }

    /// `name(args)`: an array element, an intrinsic, or a user function.
    pub(super) fn resolve_call(
        &mut self,
        name: String,
        mut args: Vec<Arg>,
        span: Span,
    ) -> ExprKind {
        if name.contains('%')
            && let Some(specific) = self.bound_call(&name, &mut args, span)
        {
            return self.resolve_call(specific, args, span);
        }
        if name.contains('%') && !self.element_component(&name, &mut args, span) {
            return ExprKind::Call(name, args);
        }
        let existing = self.lookup(&name);
        let top = std::mem::replace(&mut self.at_assignment_rhs, false);
        if existing.is_none()
            && let Some(t) = self.types.get(crate::il::key_ref(&name).as_ref()).cloned()
        {
            return self.structure_constructor(name, args, &t, top, span);
        }
        if let Some(i) = existing.filter(|&i| self.is_substring(i, &args)) {
            self.infos[i].used_var = true;
            let mut subs: Vec<Expr> = args.into_iter().map(|a| a.value).collect();
            for s in &mut subs {
                self.resolve_expr(s, false);
            }
            // `is_substring` checked that the last subscript is a range.
            let (lower, upper) = match subs.pop().map(|e| e.kind) {
                Some(ExprKind::Range { lower, upper, .. }) => (lower, upper),
                _ => (None, None),
            };
            let base = if subs.is_empty() {
                ExprKind::Var(name)
            } else {
                ExprKind::Index(name, subs)
            };
            return ExprKind::Substring {
                base: Box::new(Expr { kind: base, span }),
                lower,
                upper,
            };
        }
        // `x(1:2)` of a declared scalar that is neither an array nor character data.
        if let Some(i) = existing {
            let info = &self.infos[i];
            let declared_scalar = info.dims.is_none()
                && !info.external
                && (info.spec.is_some() || info.arg_index.is_some());
            if declared_scalar
                && args
                    .iter()
                    .any(|a| matches!(a.value.kind, ExprKind::Range { .. }))
            {
                self.error(
                    "E0309",
                    format!("`{name}` is not an array; it cannot be subscripted"),
                    span,
                )
                .help = Some(format!(
                    "declare `{name}` with bounds, e.g. `{name}(n)`, or as CHARACTER for a substring"
                ));
                return ExprKind::Call(name, args);
            }
        }
        if let Some(i) = existing {
            let info = &self.infos[i];
            // (A procedure with dimensions is an array-valued function.)
            if let Some(dims) = info.dims.as_ref().filter(|_| !info.external) {
                let rank = dims.len();
                self.infos[i].used_var = true;
                if args.len() != rank {
                    self.error(
                        "E0306",
                        format!(
                            "`{name}` has {rank} dimension{} but {} subscript{} given",
                            if rank == 1 { "" } else { "s" },
                            args.len(),
                            if args.len() == 1 { " is" } else { "s are" }
                        ),
                        span,
                    );
                }
                if let Some(kw) = args.iter().find_map(|a| a.keyword.clone()) {
                    self.error(
                        "E0202",
                        format!(
                            "a subscript of the array `{name}` cannot be given by keyword `{kw}=`"
                        ),
                        span,
                    );
                }
                let mut subs: Vec<Expr> = args.into_iter().map(|a| a.value).collect();
                for s in &mut subs {
                    self.resolve_expr(s, false);
                }
                return ExprKind::Index(name, subs);
            }
            if info.constant || info.is_result {
                let what = if info.constant {
                    "a named constant"
                } else {
                    "the function's result variable"
                };
                self.error(
                    "E0309",
                    format!("`{name}` is {what}; it cannot be called or subscripted"),
                    span,
                );
                return ExprKind::Call(name, args);
            }
        }
        if existing.is_none()
            && let Some(kind) = self.associated_of_owner(&name, &args)
        {
            return kind;
        }
        let external = existing.is_some_and(|i| self.infos[i].external);
        let dummy = existing.is_some_and(|i| self.infos[i].arg_index.is_some());
        if !external && !dummy {
            // Kinds in declarations: evaluated by sema, never printed.
            if self.in_decl && intrinsics::is_constant_inquiry(&name) {
                for a in &mut args {
                    self.resolve_expr(&mut a.value, false);
                }
                return ExprKind::Call(name, args);
            }
            if let Some(intr) = intrinsics::lookup(&name) {
                if let Some(i) = existing {
                    self.infos[i].used_intrinsic = true;
                }
                drop_kind_argument(intr.op, &mut args);
                // ANY, ALL: MASK and DIM; COUNT also KIND (its DIM form is scalarized).
                if args.len() < intr.min_args || args.len() > intr.max_args {
                    self.error(
                        "E0310",
                        format!(
                            "the intrinsic `{name}` does not take {} argument{}",
                            args.len(),
                            if args.len() == 1 { "" } else { "s" }
                        ),
                        span,
                    );
                }
                for a in &mut args {
                    self.resolve_expr(&mut a.value, false);
                }
                return ExprKind::Intrinsic {
                    op: intr.op,
                    args,
                    spelling: Some(name.into()),
                };
            }
            if existing.is_none() && intrinsics::is_other_intrinsic(&name) {
                // ASSOCIATED of a pointer array that owns its memory is taken above.
                let help = if name.eq_ignore_ascii_case("associated") {
                    "adgen follows pointers that own their memory (ASSOCIATED of one asks whether it is allocated) and local aliases; compare the targets' indices instead of the associations"
                } else {
                    "rewrite it with DO loops and the supported intrinsics"
                };
                self.error(
                    "E0407",
                    format!("the intrinsic `{name}` is not supported yet"),
                    span,
                )
                .help = Some(help.to_string());
                return ExprKind::Call(name, args);
            }
        }
        // A user function; a RECURSIVE function with RESULT calls itself by its name,
        // typed by its result.
        let i = match existing {
            Some(i) => i,
            None => {
                let i = self.get_or_create(&name, span);
                let own = self
                    .result_renamed_from
                    .as_ref()
                    .is_some_and(|f| key(f) == key(&name));
                if let Some(r) = own
                    .then(|| self.infos.iter().position(|x| x.is_result))
                    .flatten()
                {
                    self.infos[i].spec = self.infos[r].spec.clone();
                    self.infos[i].ty = self.type_of(r);
                    self.infos[i].external = true;
                }
                i
            }
        };
        self.infos[i].used_proc = true;
        self.refuse_renamed_procedure(i, span);
        // A named operator of a type's GENERIC binding (`a .dot. b`): resolved by the
        // operands' types with the other generics (`front::fortran::generic`).
        if !self.infos[i].generic
            && name.starts_with("operator(")
            && let Some(result) = self.bound_operator(&name)
        {
            self.infos[i].generic = true;
            self.infos[i].external = true;
            if let Some((spec, ty)) = result {
                self.infos[i].spec = Some(spec);
                self.infos[i].ty = Some(ty);
            }
        }
        if let Some(op) = name
            .strip_prefix("operator(")
            .and_then(|o| o.strip_suffix(')'))
            .filter(|_| !self.infos[i].generic)
        {
            if self.reported.insert(key(&name)) {
                self.error(
                    "E0302",
                    format!("the operator `{op}` is not defined here"),
                    span,
                )
                .help = Some(format!(
                    "define it with `interface operator({op})` and its function, or use that module"
                ));
            }
        } else if self.type_of(i).is_none()
            && !self.infos[i].generic
            && self.reported.insert(key(&name))
        {
            self.error(
                "E0302",
                format!("the function `{name}` has no type (IMPLICIT NONE is in effect)"),
                span,
            )
            .help = Some(format!(
                "declare it, e.g. `real(8), external :: {name}`, or make `{name}` an array"
            ));
        }
        for a in &mut args {
            self.resolve_expr(&mut a.value, true);
        }
        ExprKind::Call(name, args)
    }

    /// `name(args)` is a substring of character variable `i`: `task(1:2)` of a scalar,
    /// `names(k, 2:)` of an element (il::Symbol::is_substring: the subscripts, then one
    /// range of characters).
    /// `associated(p)` of a pointer array read as ALLOCATABLE (`pointers`): the test
    /// ALLOCATED makes, spelled ASSOCIATED where the compiler sees a POINTER declaration.
    fn associated_of_owner(&mut self, name: &str, args: &[Arg]) -> Option<ExprKind> {
        if !name.eq_ignore_ascii_case("associated") {
            return None;
        }
        let [arg] = args else {
            return None;
        };
        let ExprKind::Var(p) = &arg.value.kind else {
            return None;
        };
        let i = self.lookup(p)?;
        let deferred = self.infos[i].dims.as_ref().is_some_and(|d| {
            !d.is_empty() && d.iter().all(|b| matches!(b.upper, crate::il::Bound::Colon))
        });
        if arg.keyword.is_some() || !deferred {
            return None;
        }
        let spelling = if self.infos[i].pointer {
            "associated"
        } else {
            "allocated"
        };
        let intr = intrinsics::lookup("allocated")?;
        let mut args = args.to_vec();
        for a in &mut args {
            self.resolve_expr(&mut a.value, false);
        }
        Some(ExprKind::Intrinsic {
            op: intr.op,
            args,
            spelling: Some(spelling.into()),
        })
    }

    fn is_substring(&self, i: usize, args: &[Arg]) -> bool {
        let info = &self.infos[i];
        let rank = info.dims.as_ref().map_or(0, |d| d.len());
        self.type_of(i) == Some(ScalarType::Character)
            && args.len() == rank + 1
            && args.iter().all(|a| a.keyword.is_none())
            && args
                .last()
                .is_some_and(|a| matches!(a.value.kind, ExprKind::Range { stride: None, .. }))
    }

    /// A procedure called under a USE rename (`only: step => advance`): the differentiator
    /// finds procedures by their own names, so such a call would be taken for a call of
    /// an unknown procedure, whose derivative is silently zero. Refused until calls are
    /// resolved through renames.
    fn refuse_renamed_procedure(&mut self, i: usize, span: Span) {
        let info = &self.infos[i];
        let Some(global) = &info.global else {
            return;
        };
        if key(&global.name) == key(&info.name) || self.infos[i].import != Import::Use {
            return;
        }
        let (local, remote) = (info.name.clone(), global.name.clone());
        if self.reported.insert(format!("rename {}", key(&local))) {
            self.error(
                "E0405",
                format!(
                    "`{local}` is procedure `{remote}` renamed by USE; calls through a rename are not supported yet"
                ),
                span,
            )
            .help = Some(format!("import `{remote}` under its own name and call it so"));
        }
    }

    /// The variable assigned by `lhs` (a name or an element).
    /// Returns true when `lhs` is a whole array (already reported).
    pub(super) fn resolve_target(&mut self, lhs: &mut Expr) -> bool {
        let span = lhs.span;
        match &mut lhs.kind {
            ExprKind::Var(name) => {
                let name = name.clone();
                let Some(i) = self.lookup(&name) else {
                    self.use_var(&name, span, false);
                    return false;
                };
                self.check_whole_component(&name, span);
                let info = &self.infos[i];
                if info.constant {
                    self.error(
                        "E0304",
                        format!("`{name}` is a named constant and cannot be assigned"),
                        span,
                    );
                } else if info.dims.is_some() {
                    // A whole-array assignment: scalarized later.
                    self.infos[i].used_var = true;
                } else if info.external && !info.is_result {
                    self.error(
                        "E0309",
                        format!("`{name}` is a procedure and cannot be assigned"),
                        span,
                    );
                } else {
                    self.use_var(&name, span, false);
                }
            }
            ExprKind::Call(name, args)
                if self
                    .lookup(name)
                    .is_some_and(|i| self.is_substring(i, args)) =>
            {
                self.resolve_expr(lhs, false);
            }
            ExprKind::Call(name, _) => {
                let name = name.clone();
                let info = self.lookup(&name).map(|i| &self.infos[i]);
                let is_array = info.is_some_and(|info| info.dims.is_some());
                let is_declared_scalar = info.is_some_and(|info| {
                    info.dims.is_none()
                        && (info.spec.is_some() || info.arg_index.is_some() || info.constant)
                });
                if is_declared_scalar {
                    self.error(
                        "E0309",
                        format!("`{name}` is not an array; it cannot be subscripted"),
                        span,
                    )
                    .help = Some(format!("declare `{name}` with bounds, e.g. `{name}(n)`"));
                    return false;
                }
                // Under IMPLICIT NONE a statement function is declared too: an
                // undeclared name is just that (an array the code forgot to declare).
                let undeclared = self.implicit_none
                    && info.is_none_or(|info| info.spec.is_none() && !info.external);
                if !is_array && undeclared {
                    // Once, at its first use, as for every undeclared name.
                    let first = info.map_or(span, |info| info.span);
                    self.undeclared(&name, first);
                    return false;
                }
                if !is_array {
                    self.error(
                        "E0401",
                        format!(
                            "unsupported statement: `{name}(...) = ...` where `{name}` is not an array (a statement function) is not supported yet"
                        ),
                        span,
                    )
                    .help = Some(format!(
                        "declare `{name}` as an array, or write the formula where it is used"
                    ));
                    return false;
                }
                self.resolve_expr(lhs, false);
            }
            _ => {}
        }
        false
    }

    pub(super) fn resolve_block(&mut self, block: &mut [Stmt]) {
        for stmt in block {
            self.resolve_stmt(stmt);
        }
    }

    pub(super) fn resolve_stmt(&mut self, stmt: &mut Stmt) {
        let span = stmt.span;
        match &mut stmt.kind {
            StmtKind::Io { reads, writes, .. } => {
                for e in reads {
                    self.resolve_expr(e, false);
                }
                for e in writes {
                    self.resolve_target(e);
                }
            }
            StmtKind::Assign { lhs, rhs } => {
                // `a = b + c` on whole arrays: one report for the statement.
                self.quiet_whole_arrays = self.resolve_target(lhs);
                self.at_assignment_rhs = true;
                self.resolve_expr(rhs, false);
                self.at_assignment_rhs = false;
                self.quiet_whole_arrays = false;
            }
            StmtKind::If {
                arms, else_body, ..
            } => {
                for (cond, body) in arms {
                    self.resolve_expr(cond, false);
                    self.resolve_block(body);
                }
                if let Some(body) = else_body {
                    self.resolve_block(body);
                }
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let var = var.clone();
                self.check_do_var(&var, span);
                self.resolve_expr(start, false);
                self.resolve_expr(end, false);
                if let Some(step) = step {
                    self.resolve_expr(step, false);
                }
                self.resolve_block(body);
            }
            StmtKind::DoWhile { cond, body, .. } => {
                self.resolve_expr(cond, false);
                self.resolve_block(body);
            }
            StmtKind::Allocate(items) => self.resolve_allocation(items, true),
            StmtKind::Deallocate(items) => self.resolve_allocation(items, false),
            StmtKind::Where {
                arms, else_body, ..
            } => {
                for (mask, body) in arms {
                    self.resolve_expr(mask, false);
                    self.resolve_block(body);
                }
                if let Some(body) = else_body {
                    self.resolve_block(body);
                }
            }
            StmtKind::Forall {
                indices,
                mask,
                body,
                ..
            } => {
                for ix in indices {
                    let var = ix.var.clone();
                    self.check_do_var(&var, span);
                    self.resolve_expr(&mut ix.lower, false);
                    self.resolve_expr(&mut ix.upper, false);
                    if let Some(s) = &mut ix.stride {
                        self.resolve_expr(s, false);
                    }
                }
                if let Some(m) = mask {
                    self.resolve_expr(m, false);
                }
                self.resolve_block(body);
            }
            StmtKind::Call { name, args } => {
                if name.contains('%')
                    && let Some(specific) = self.bound_call(name, args, span)
                {
                    *name = specific;
                }
                let name = name.clone();
                if let Some(i) = self.lookup(&name) {
                    let info = &self.infos[i];
                    if info.constant || info.dims.is_some() || info.is_result {
                        self.error(
                            "E0309",
                            format!("`{name}` is a variable, not a subroutine"),
                            span,
                        );
                    } else {
                        self.infos[i].used_proc = true;
                        self.refuse_renamed_procedure(i, span);
                    }
                }
                for a in args {
                    self.resolve_expr(&mut a.value, true);
                }
            }
            StmtKind::ComputedGoto { index, .. } => {
                self.resolve_expr(index, false);
            }
            StmtKind::ArithmeticIf { expr, .. } => self.resolve_expr(expr, false),
            StmtKind::Select {
                selector, cases, ..
            } => {
                self.resolve_expr(selector, false);
                for case in cases {
                    for value in &mut case.values {
                        match value {
                            crate::il::CaseValue::Single(e) => self.resolve_expr(e, false),
                            crate::il::CaseValue::Range(lo, hi) => {
                                for e in [lo, hi].into_iter().flatten() {
                                    self.resolve_expr(e, false);
                                }
                            }
                        }
                    }
                    self.resolve_block(&mut case.body);
                }
            }
            StmtKind::Goto { .. }
            | StmtKind::Exit { .. }
            | StmtKind::Cycle { .. }
            | StmtKind::Return
            | StmtKind::Continue
            | StmtKind::Comment(_) => {}
            // Generated code only: no source holds one.
            StmtKind::Tape(_) => {}
        }
    }

    /// The items of ALLOCATE (`a(0:n)`, made array references) or DEALLOCATE (`a`).
    pub(super) fn resolve_allocation(&mut self, items: &mut [Expr], allocate: bool) {
        for item in items.iter_mut() {
            let name = match &item.kind {
                ExprKind::Var(n) | ExprKind::Call(n, _) => n.clone(),
                _ => String::new(),
            };
            let ok = self.lookup(&name).is_some_and(|i| {
                self.infos[i]
                    .dims
                    .as_ref()
                    .is_some_and(|d| d.iter().all(|d| matches!(d.upper, crate::il::Bound::Colon)))
            });
            if !ok {
                self.error(
                    "E0309",
                    format!("`{name}` is not an ALLOCATABLE array"),
                    item.span,
                );
                continue;
            }
            if allocate {
                // The bounds are given like a section: `a(0:n)`.
                if let ExprKind::Call(n, args) = &mut item.kind {
                    let subs = std::mem::take(args)
                        .into_iter()
                        .map(|a| a.value)
                        .collect::<Vec<_>>();
                    item.kind = ExprKind::Index(n.clone(), subs);
                }
                if let ExprKind::Index(_, subs) = &mut item.kind {
                    for s in subs {
                        self.resolve_expr(s, false);
                    }
                }
            }
            if let Some(i) = self.lookup(&name) {
                self.infos[i].used_var = true;
            }
        }
    }

    pub(super) fn check_do_var(&mut self, var: &str, span: Span) {
        let i = match self.lookup(var) {
            Some(i) => i,
            None => {
                if self.implicit_of(var).is_none() {
                    self.undeclared(var, span);
                    return;
                }
                self.get_or_create(var, span)
            }
        };
        self.infos[i].used_var = true;
        let info = &self.infos[i];
        let ok = !info.constant
            && info.dims.is_none()
            && !info.external
            && matches!(self.type_of(i), Some(ScalarType::Integer(_)));
        if !ok {
            self.error(
                "E0303",
                format!("the DO variable `{var}` must be an integer scalar variable"),
                span,
            )
            .help = Some(format!("declare `{var}` as `integer :: {var}`"));
        }
    }
}

/// The KIND argument of SIZE, LBOUND, UBOUND and SHAPE (`size(a, 1, kind=ip)`) goes: it
/// sets only the integer kind of the result, whose value the program uses as a count.
fn drop_kind_argument(op: crate::il::Intrinsic, args: &mut Vec<crate::il::Arg>) {
    use crate::il::Intrinsic::{Lbound, Shape, Size, Ubound};
    let position = match op {
        Size | Lbound | Ubound => 2,
        Shape => 1,
        _ => return,
    };
    match args.iter().position(|a| {
        a.keyword
            .as_deref()
            .is_some_and(|k| k.eq_ignore_ascii_case("kind"))
    }) {
        Some(k) => {
            args.remove(k);
        }
        None if args.len() > position && args[position].keyword.is_none() => {
            args.remove(position);
        }
        None => {}
    }
}
