//! `malloc` / `calloc` / `free` of local work arrays.
//!
//! `double *w = malloc(n * sizeof(double));` (or `calloc(n, sizeof *w)`, or a later
//! `w = malloc(...)`) makes `w` an ALLOCATABLE array of the IL: the call becomes
//! `ALLOCATE(w(0:n-1))` (followed, for `calloc`, by a loop zeroing it) and `free(w)`
//! becomes `DEALLOCATE(w)`. `double (*t)[N] = malloc(m * sizeof *t);` or `row_t *t`
//! with `typedef double row_t[N]` (rows of a constant length, the size counted in rows
//! by `sizeof *t`) is a 2-D array `t(0:N-1, 0:m-1)`.
//!
//! Differentiation (seeds/000 §7, dynamic memory; `prepare::scalarize::alloc` and
//! `diff::heap`) gives an array allocated once at the top level with a size known on
//! entry, and its derivative, the lifetime of the whole procedure (no tape). Any other
//! keeps its `malloc` and `free`: the derivative buffer is allocated beside the primal
//! one, and the adjoint's backward sweep re-creates both where the original was freed
//! (the primal from the tape when the backward sweep reads its values) and frees them
//! where it was allocated. So a `malloc` may sit in a loop (a per-iteration work buffer)
//! or a branch, and its size may read anything (integer locals initialized once from
//! values known on entry are replaced by those values, so that more arrays get the
//! cheaper whole-procedure lifetime). The front-end checks (E0621, E0623):
//! - each `malloc` finds the array free, and its `free` comes later in the same block (a
//!   loop body, a branch, or the function body, where a `malloc` may also stay unfreed:
//!   differentiation frees it at the end); the array is used only in between, not freed
//!   twice, and no `return`, `goto`, `break` or `continue` leaves the pair (E0621);
//! - the size is a product with one `sizeof` of the element type (`sizeof(double)`,
//!   `sizeof *w`, `sizeof w[0]`); `free` of anything else is refused (E0623).
//!
//! `w = realloc(w, m * sizeof *w)` is what `malloc`, copy and `free` say: the elements it
//! keeps go to a new work array `w_old`, `w` is freed and allocated again, and they come
//! back (`reallocate`). An array that a `realloc` resizes keeps the number of its
//! elements in an integer local `w_size`, set at each allocation. Being a `free` and a
//! `malloc` of `w` in one block, a `realloc` may stand in a loop or a branch around
//! which `w` was allocated (a buffer grown inside the loop that fills it): `il::lifetime`
//! calls that a reallocation, and `diff::heap` re-creates each array it replaced from
//! the size in force, `w_size`. A pointer that starts as NULL and first gets memory from
//! `realloc` (`double *w = NULL; ... w = realloc(w, cap * sizeof *w);`, the usual way to
//! grow a buffer) is given an allocation of no element where it is NULL, so that every
//! `realloc` finds it allocated; its tests against NULL are refused (E0624), as that
//! allocation is not NULL. `realloc(NULL, n)` is `malloc(n)`.
//!
//! The pointer itself cannot escape: returning a pointer, storing it in a global or
//! through a pointer to pointer is refused elsewhere (E0603).

use std::collections::{BTreeMap, BTreeSet};

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};
use lang_c::visit::Visit;

use super::*;
use crate::il::{Attr, BinOp, Bound, DimSpec, Expr, ExprKind, Stmt, StmtKind, key};

/// What the lowering of one function knows about its `malloc`ed arrays.
#[derive(Default)]
pub(super) struct HeapState {
    /// Local pointers given memory by `malloc`/`calloc`/`realloc` (C names).
    pub(super) names: BTreeSet<String>,
    /// Those given new memory by `realloc`, and the integer local holding the number of
    /// elements of each one's allocation in force (by C name).
    pub(super) realloced: BTreeSet<String>,
    pub(super) sizes: BTreeMap<String, String>,
    /// Those that start as NULL and first get memory from `realloc`: allocated with no
    /// element where they are set to NULL (C names).
    pub(super) null_started: BTreeSet<String>,
    /// Names the function assigns (parameters and locals).
    pub(super) assigned: BTreeSet<String>,
    /// Integer locals initialized once and never assigned again: their initial value
    /// (which a size may read in their place), by key.
    pub(super) frozen: BTreeMap<String, Expr>,
}

/// The allocation function a call is (`malloc`, `calloc`, `realloc`), under casts, and
/// its arguments.
pub(super) fn alloc_call(e: &Expression) -> Option<(&str, &[Node<Expression>])> {
    match e {
        Expression::Cast(c) => alloc_call(&c.node.expression.node),
        Expression::Call(c) => match &c.node.callee.node {
            Expression::Identifier(id)
                if matches!(id.node.name.as_str(), "malloc" | "calloc" | "realloc") =>
            {
                Some((id.node.name.as_str(), &c.node.arguments))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The local pointers a function body gives memory from the heap.
#[derive(Default)]
pub(super) struct HeapTargets {
    pub(super) names: BTreeSet<String>,
    pub(super) realloced: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for HeapTargets {
    fn visit_init_declarator(&mut self, d: &'ast InitDeclarator, span: &'ast CSpan) {
        let name = declarator_name(&d.declarator.node)
            .map(|n| n.node.il())
            .or_else(|| func::rows_pointer_name(&d.declarator.node));
        if let (Some(name), Some(init)) = (name, &d.initializer) {
            if let Initializer::Expression(e) = &init.node {
                if alloc_call(&e.node).is_some() {
                    self.names.insert(name);
                }
            }
        }
        lang_c::visit::visit_init_declarator(self, d, span);
    }

    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast CSpan,
    ) {
        if b.operator.node == BinaryOperator::Assign {
            if let (Some((func, _)), Expression::Identifier(id)) =
                (alloc_call(&b.rhs.node), &b.lhs.node)
            {
                self.names.insert(id.node.il());
                if func == "realloc" {
                    self.realloced.insert(id.node.il());
                }
            }
        }
        lang_c::visit::visit_binary_operator_expression(self, b, span);
    }
}

impl FnCx<'_, '_> {
    /// `double *w;` or `double *w = malloc(...);` for a pointer given heap memory.
    /// `row`: the row length of `double (*t)[N]`.
    pub(super) fn heap_decl(
        &mut self,
        name: &str,
        ty: Ty,
        row: Option<i64>,
        init: &Node<InitDeclarator>,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        // Arrays of reals and integers only (not of structs or pointers).
        if !matches!(ty, Ty::Real(_) | Ty::Int(_)) {
            return Err(self.err(
                "E0623",
                format!("`{name}` is given memory by `malloc`: only arrays of `double`, `float`, `int` or `long` can be"),
                init.span,
            ));
        }
        if self.declare(name, ty, VarKind::Heap(row), init.span)? {
            let mut dims = vec![DimSpec {
                lower: Some(int_lit(0)),
                upper: Bound::Colon,
            }];
            if let Some(n) = row {
                dims.insert(
                    0,
                    DimSpec {
                        lower: Some(int_lit(0)),
                        upper: Bound::Expr(int_lit(n - 1)),
                    },
                );
            }
            self.push_decl(
                name,
                ty,
                vec![Attr::Allocatable],
                Some(dims),
                None,
                None,
                false,
                init.span,
            );
        }
        let Some(i) = &init.node.initializer else {
            return Ok(());
        };
        match &i.node {
            Initializer::Expression(e) => self.allocate(name, e, init.span, out),
            _ => Err(self.unsupported("E0605", "this pointer initializer", i.span)),
        }
    }

    /// `w = malloc(...)` (or the initializer of `w`'s declaration).
    pub(super) fn allocate(
        &mut self,
        name: &str,
        call: &Node<Expression>,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        // `double *w = NULL;` before the allocation, `w = NULL;` after the `free`: the
        // array has no memory then, which the IL says by not using it. But a pointer a
        // `realloc` gives memory before any `malloc` (`w = realloc(w, ...)` from NULL,
        // the usual way to grow a buffer) gets an allocation of no element there, so
        // that each `realloc` finds it allocated, as C's finds a pointer or NULL.
        if is_null_pointer(&call.node) {
            // No size yet: no allocation before this one (the first makes `w_size`).
            if self.heap.realloced.contains(name) && !self.heap.sizes.contains_key(name) {
                self.heap.null_started.insert(name.to_string());
                return self.allocate_count(name, "malloc", int_lit(0), at, out);
            }
            return Ok(());
        }
        let Some((func, args)) = alloc_call(&call.node) else {
            return Err(self.err(
                "E0623",
                format!(
                    "`{name}` is given memory by `malloc`, so it can only be assigned the \
                     result of `malloc` or `calloc`"
                ),
                call.span,
            ));
        };
        let v = self.var(name, at)?;
        let row = match v.kind {
            VarKind::Heap(row) => row,
            _ => None,
        };
        // `realloc(NULL, n)` is `malloc(n)`.
        let from_null = matches!((func, args), ("realloc", [old, _]) if is_null_pointer(&old.node));
        let factors: Vec<&Node<Expression>> = match (func, args) {
            ("malloc", [size]) => product_factors(size),
            ("calloc", [count, size]) => {
                let mut f = product_factors(count);
                f.extend(product_factors(size));
                f
            }
            ("realloc", [old, size])
                if row.is_none()
                    && matches!(&old.node, Expression::Identifier(id) if id.node.il() == name) =>
            {
                product_factors(size)
            }
            ("realloc", [_, size]) if from_null => product_factors(size),
            ("realloc", _) => {
                return Err(self.err(
                    "E0623",
                    format!(
                        "this `realloc`: adgen supports `{name} = realloc({name}, n * sizeof \
                         *{name})` of an array of numbers"
                    ),
                    call.span,
                ));
            }
            _ => {
                return Err(self.err(
                    "E0623",
                    format!("`{func}` with {} argument(s)", args.len()),
                    call.span,
                ));
            }
        };
        // One `sizeof` of the element type; the other factors count elements.
        let mut count: Option<Expr> = None;
        let mut sizeofs = 0;
        for f in factors {
            // For rows `double (*t)[N]`, `sizeof *t` (a row) counts rows.
            let of_row = matches!(f.node, Expression::SizeOfVal(_));
            match self.sizeof_type(name, &f.node) {
                Some(Ok(t)) if t == v.ty && (row.is_none() || of_row) => sizeofs += 1,
                Some(_) => {
                    return Err(self.err(
                        "E0623",
                        format!(
                            "this `sizeof` is not the size of an element of `{name}`: write \
                             `sizeof *{name}`"
                        ),
                        f.span,
                    ));
                }
                None => {
                    let (x, xty) = self.value(f)?;
                    if !matches!(xty, Ty::Int(_)) {
                        return Err(self.err(
                            "E0623",
                            "the size of an allocation must be an integer",
                            f.span,
                        ));
                    }
                    let x = paren_if_binary(x);
                    count = Some(match count {
                        None => x,
                        Some(c) => Expr::binary(BinOp::Mul, c, x),
                    });
                }
            }
        }
        if sizeofs != 1 {
            return Err(self.err(
                "E0623",
                format!(
                    "adgen needs the size of `{name}` as a number of elements times `sizeof \
                     *{name}`"
                ),
                call.span,
            ));
        }
        let count = count.unwrap_or_else(|| int_lit(1));
        let count = self.size_on_entry(count);
        let func = if from_null { "malloc" } else { func };
        self.allocate_count(name, func, count, at, out)
    }

    /// The allocation of `count` elements to `name` by `func` (`realloc`: of `name`
    /// itself).
    fn allocate_count(
        &mut self,
        name: &str,
        func: &str,
        count: Expr,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let v = self.var(name, at)?;
        let row = match v.kind {
            VarKind::Heap(row) => row,
            _ => None,
        };
        if func == "realloc" {
            return self.reallocate(name, v.ty, count, at, out);
        }
        // An array that a `realloc` resizes keeps the number of its elements.
        let count = match self.realloc_size(name, at) {
            Some(n) => {
                let set = self.stmt(
                    StmtKind::Assign {
                        lhs: Expr::var(&n),
                        rhs: count,
                    },
                    at,
                );
                out.push(set);
                Expr::var(&n)
            }
            None => count,
        };
        let upper = Expr::binary(BinOp::Sub, paren_if_binary(count.clone()), int_lit(1));
        let range = |upper: Expr| {
            Expr::new(ExprKind::Range {
                lower: Some(Box::new(int_lit(0))),
                upper: Some(Box::new(upper)),
                stride: None,
            })
        };
        let mut subs = vec![range(upper.clone())];
        if let Some(n) = row {
            subs.insert(0, range(int_lit(n - 1)));
        }
        let item = Expr::new(ExprKind::Index(v.name.clone(), subs));
        let st = self.stmt(StmtKind::Allocate(vec![item]), at);
        out.push(st);
        if func == "calloc" {
            // `calloc` zeroes: a loop says so, for the derivatives too.
            let k = self.int_var(&format!("{name}_k"), at);
            let j = row.map(|_| self.int_var(&format!("{name}_j"), at));
            let zero = self.zero(v.ty);
            let mut element = vec![Expr::var(&k)];
            if let Some(j) = &j {
                element.insert(0, Expr::var(j));
            }
            let set = self.stmt(
                StmtKind::Assign {
                    lhs: Expr::new(ExprKind::Index(v.name.clone(), element)),
                    rhs: zero,
                },
                at,
            );
            let mut body = vec![set];
            if let (Some(j), Some(n)) = (j, row) {
                let inner = self.stmt(
                    StmtKind::Do {
                        var: j,
                        start: Box::new(int_lit(0)),
                        end: Box::new(int_lit(n - 1)),
                        step: None,
                        body,
                        name: None,
                    },
                    at,
                );
                body = vec![inner];
            }
            let mut st = self.stmt(
                StmtKind::Do {
                    var: k,
                    start: Box::new(int_lit(0)),
                    end: Box::new(upper),
                    step: None,
                    body,
                    name: None,
                },
                at,
            );
            st.trailing_comment = Some(format!(" `calloc` zeroes `{name}`").into());
            out.push(st);
        }
        Ok(())
    }

    /// The integer local holding the number of elements of `name`'s allocation, when a
    /// `realloc` resizes it (made at its first allocation).
    fn realloc_size(&mut self, name: &str, at: CSpan) -> Option<String> {
        if !self.heap.realloced.contains(name) {
            return None;
        }
        if let Some(n) = self.heap.sizes.get(name) {
            return Some(n.clone());
        }
        let n = self.int_var(&format!("{name}_size"), at);
        self.heap.sizes.insert(name.to_string(), n.clone());
        Some(n)
    }

    /// `w = realloc(w, count * sizeof *w)`, as `malloc`, copy and `free` say it (so that
    /// differentiation sees allocations it knows): the kept elements go to a new work
    /// array `w_old`, `w` is freed and allocated again with `count` elements, and the
    /// kept elements come back. Like any `malloc` of `w`, it must find `w` allocated in
    /// the same block (E0621 otherwise).
    fn reallocate(
        &mut self,
        name: &str,
        ty: Ty,
        count: Expr,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let Some(size) = self.heap.sizes.get(name).cloned() else {
            return Err(self.err(
                "E0623",
                format!(
                    "this `realloc` of `{name}` comes before any `malloc` of it: adgen needs \
                     `{name}` allocated by `malloc` or `calloc` first"
                ),
                at,
            ));
        };
        let v = self.var(name, at)?;
        let keep = self.int_var(&format!("{name}_keep"), at);
        let old = self.fresh_local(&format!("{name}_old"), ty, at);
        if let Some(o) = self.vars.get_mut(crate::il::key_ref(&old).as_ref()) {
            o.kind = VarKind::Heap(None);
        }
        self.decls.pop();
        let dims = vec![DimSpec {
            lower: Some(int_lit(0)),
            upper: Bound::Colon,
        }];
        self.push_decl(
            &old,
            ty,
            vec![Attr::Allocatable],
            Some(dims),
            None,
            None,
            false,
            at,
        );
        let assign =
            |cx: &mut Self, lhs: Expr, rhs: Expr| cx.stmt(StmtKind::Assign { lhs, rhs }, at);
        let upto = |n: &str| Expr::binary(BinOp::Sub, Expr::var(n), int_lit(1));
        let item = |a: &str, n: &str| {
            Expr::new(ExprKind::Index(
                a.to_string(),
                vec![Expr::new(ExprKind::Range {
                    lower: Some(Box::new(int_lit(0))),
                    upper: Some(Box::new(upto(n))),
                    stride: None,
                })],
            ))
        };
        let copy = |cx: &mut Self, to: &str, from: &str| {
            let k = cx.int_var(&format!("{name}_k"), at);
            let element = |a: &str| Expr::new(ExprKind::Index(a.to_string(), vec![Expr::var(&k)]));
            let body = vec![assign(cx, element(to), element(from))];
            cx.stmt(
                StmtKind::Do {
                    var: k.clone(),
                    start: Box::new(int_lit(0)),
                    end: Box::new(upto(&keep)),
                    step: None,
                    body,
                    name: None,
                },
                at,
            )
        };
        let min = Expr::intrinsic(il::Intrinsic::Min, vec![Expr::var(&size), count.clone()]);
        let mut st = assign(self, Expr::var(&keep), min);
        st.trailing_comment = Some(format!(" `realloc` of `{name}`: the elements it keeps").into());
        out.push(st);
        let st = self.stmt(StmtKind::Allocate(vec![item(&old, &keep)]), at);
        out.push(st);
        let st = copy(self, &old, &v.name);
        out.push(st);
        let st = self.stmt(StmtKind::Deallocate(vec![Expr::var(&v.name)]), at);
        out.push(st);
        let st = assign(self, Expr::var(&size), count);
        out.push(st);
        let st = self.stmt(StmtKind::Allocate(vec![item(&v.name, &size)]), at);
        out.push(st);
        let st = copy(self, &v.name, &old);
        out.push(st);
        let st = self.stmt(StmtKind::Deallocate(vec![Expr::var(&old)]), at);
        out.push(st);
        Ok(())
    }

    /// The size `count`, with the integer locals initialized once from values known on
    /// entry replaced by those values: a size known on entry lets differentiation give
    /// the array the lifetime of the whole function (no tape); any other size is kept
    /// as written, and its array re-created in the backward sweep.
    fn size_on_entry(&mut self, count: Expr) -> Expr {
        self.on_entry(&count)
    }

    /// `e` with the integer locals initialized once replaced by their initial value.
    fn on_entry(&self, e: &Expr) -> Expr {
        let sub = |x: &Expr| Box::new(self.on_entry(x));
        let kind = match &e.kind {
            ExprKind::Var(n) => match self.heap.frozen.get(crate::il::key_ref(n).as_ref()) {
                Some(v) => return paren_if_binary(v.clone()),
                None => return e.clone(),
            },
            ExprKind::Unary(op, x) => ExprKind::Unary(*op, sub(x)),
            ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, sub(a), sub(b)),
            ExprKind::Paren(x) => ExprKind::Paren(sub(x)),
            ExprKind::Intrinsic { op, args, spelling } => ExprKind::Intrinsic {
                op: *op,
                args: args
                    .iter()
                    .map(|a| il::Arg {
                        value: self.on_entry(&a.value),
                        ..a.clone()
                    })
                    .collect(),
                spelling: spelling.clone(),
            },
            _ => return e.clone(),
        };
        Expr { kind, ..e.clone() }
    }

    /// The first name `e` reads that is not known on entry: neither a by-value integer
    /// parameter the function never assigns nor a constant (inlined already).
    fn entry_problem(&self, e: &Expr) -> Option<String> {
        let mut bad = None;
        il::visit::walk_expr(e, &mut |x| match &x.kind {
            ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) => {
                let ok = matches!(
                    self.vars.get(crate::il::key_ref(n).as_ref()),
                    Some(Var {
                        kind: VarKind::Value,
                        ty: Ty::Int(_),
                        name,
                    }) if name == n && !self.heap.assigned.contains(name.as_str())
                );
                if !ok && bad.is_none() {
                    bad = Some(n.clone());
                }
            }
            _ => {}
        });
        bad
    }

    /// `int m = n + 2;` (an integer local initialized once): remembered when its value
    /// is known on entry, for the sizes of work arrays.
    pub(super) fn note_initialized(&mut self, name: &str, ty: Ty, value: &Expr) {
        if !matches!(ty, Ty::Int(_)) || self.heap.assigned.contains(name) {
            return;
        }
        let value = self.on_entry(value);
        if self.entry_problem(&value).is_none() {
            self.heap.frozen.insert(key(name), value);
        }
    }

    /// `free(w)`.
    pub(super) fn free_stmt(
        &mut self,
        args: &[Node<Expression>],
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let target = match args {
            [a] => match &a.node {
                Expression::Identifier(id) => Some(id.node.il()),
                _ => None,
            },
            _ => None,
        };
        let heap = target.and_then(|n| {
            self.vars
                .get(crate::il::key_ref(&n).as_ref())
                .filter(|v| matches!(v.kind, VarKind::Heap(_)) && v.name == n)
                .map(|v| v.name.clone())
        });
        let Some(name) = heap else {
            return Err(self.err(
                "E0623",
                "`free` of something else than a local array this function allocated",
                at,
            ));
        };
        let st = self.stmt(StmtKind::Deallocate(vec![Expr::var(&name)]), at);
        out.push(st);
        Ok(())
    }

    /// The type a `sizeof` factor measures: `Some(Ok(ty))`, `Some(Err(()))` for a
    /// `sizeof` of something else, `None` when the factor is no `sizeof`.
    fn sizeof_type(&mut self, name: &str, e: &Expression) -> Option<Result<Ty, ()>> {
        match e {
            Expression::SizeOfTy(t) => {
                if t.node.0.node.declarator.is_some() {
                    return Some(Err(()));
                }
                let ty = base_type(
                    t.node
                        .0
                        .node
                        .specifiers
                        .iter()
                        .filter_map(|s| match &s.node {
                            SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                            _ => None,
                        }),
                    self.typedefs,
                );
                Some(ty.map_err(|_| ()))
            }
            Expression::SizeOfVal(v) => {
                let inner = &v.node.0.node;
                let target = match inner {
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Indirection =>
                    {
                        &u.node.operand.node
                    }
                    Expression::BinaryOperator(b)
                        if b.node.operator.node == BinaryOperator::Index =>
                    {
                        &b.node.lhs.node
                    }
                    _ => return Some(Err(())),
                };
                match target {
                    Expression::Identifier(id) if id.node.il() == name => Some(Ok(self
                        .vars
                        .get(crate::il::key_ref(name).as_ref())
                        .map(|v| v.ty)
                        .unwrap_or(Ty::Void))),
                    _ => Some(Err(())),
                }
            }
            _ => None,
        }
    }

    /// After the body is lowered: each `malloc` of a heap array is paired with a `free`
    /// later in the same block (loop body, branch or function body; a `malloc` at the top
    /// level may stay unfreed), the array used only in between, and no `return`, `goto`,
    /// `break` or `continue` leaves the pair (E0621).
    pub(super) fn check_heap(&mut self, body: &[Stmt]) -> R<()> {
        use il::lifetime::Problem;
        let names: Vec<String> = self
            .vars
            .values()
            .filter(|v| matches!(v.kind, VarKind::Heap(_)))
            .map(|v| v.name.clone())
            .collect();
        let mut ok = true;
        for name in names {
            let Err((problem, at)) = il::lifetime::check(body, &name) else {
                continue;
            };
            let message = match problem {
                Problem::AllocatedTwice => {
                    format!("`{name}` is given memory by `malloc` again before it is freed")
                }
                Problem::FreedUnallocated => {
                    format!("`{name}` is freed twice, or before its `malloc`")
                }
                Problem::FreedOutside => format!(
                    "`{name}` is freed in a loop or a branch that does not give it memory \
                     again, but its `malloc` is outside it"
                ),
                Problem::UsedUnallocated => {
                    format!("`{name}` is used before its `malloc` or after its `free`")
                }
                Problem::NotFreedInBlock => {
                    format!("`{name}` is allocated in this loop or branch but not freed in it")
                }
                Problem::JumpOut => format!(
                    "this `return` or `goto` leaves the function while `{name}` is allocated"
                ),
                Problem::ExitOut => format!(
                    "this `break` or `continue` leaves the loop iteration that allocated `{name}` before its `free`"
                ),
            };
            self.diags.push(
                Diagnostic::error("E0621", message).at(at).with_help(
                    "free the work array in the same block (loop body, branch or function body) as its `malloc`, before any `return`, `break` or `continue`, and use it only in between",
                ),
            );
            ok = false;
        }
        if ok { Ok(()) } else { Err(Reported) }
    }
}

/// The factors of a product `a * b * c` (the expression itself when it is no product).
fn product_factors(e: &Node<Expression>) -> Vec<&Node<Expression>> {
    match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Multiply => {
            let mut out = product_factors(&b.node.lhs);
            out.extend(product_factors(&b.node.rhs));
            out
        }
        _ => vec![e],
    }
}

/// The value of a condition made of constants only (`!w || !z` for `malloc`ed arrays).
pub(super) fn const_logical(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Logical(b) => Some(*b),
        ExprKind::Paren(x) => const_logical(x),
        ExprKind::Unary(il::UnOp::Not, x) => const_logical(x).map(|b| !b),
        ExprKind::Binary(BinOp::And, a, b) => match (const_logical(a), const_logical(b)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        ExprKind::Binary(BinOp::Or, a, b) => match (const_logical(a), const_logical(b)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// `NULL` as the preprocessor leaves it: `((void *)0)`, or a plain `0`.
pub(super) fn is_null_pointer(e: &Expression) -> bool {
    match e {
        Expression::Cast(c) => {
            let to_void_pointer = c.node.type_name.node.declarator.is_some()
                && c.node.type_name.node.specifiers.iter().any(|s| {
                    matches!(&s.node, SpecifierQualifier::TypeSpecifier(t)
                        if matches!(t.node, TypeSpecifier::Void))
                });
            to_void_pointer && is_null_pointer(&c.node.expression.node)
        }
        Expression::Constant(c) => {
            matches!(&c.node, Constant::Integer(i) if i.number.trim_start_matches('0').is_empty())
        }
        _ => false,
    }
}

impl FnCx<'_, '_> {
    /// In `p == NULL` / `p != NULL` (either order), with `p` a pointer: the pointer side.
    pub(super) fn null_compared<'e>(
        &self,
        b: &'e Node<BinaryOperatorExpression>,
    ) -> Option<&'e Expression> {
        let pointer = |e: &Expression| match e {
            Expression::Identifier(id) => matches!(
                self.vars
                    .get(crate::il::key_ref(&id.node.il()).as_ref())
                    .map(|v| &v.kind),
                Some(
                    VarKind::RefScalar
                        | VarKind::ArrayParam
                        | VarKind::Pointer
                        | VarKind::Heap(_)
                        | VarKind::RowsParam(_)
                        | VarKind::RowPtrs
                )
            ),
            _ => false,
        };
        let (l, r) = (&b.node.lhs.node, &b.node.rhs.node);
        if pointer(l) && is_null_pointer(r) {
            Some(l)
        } else if pointer(r) && is_null_pointer(l) {
            Some(r)
        } else {
            None
        }
    }

    /// Is `e` the name of a `malloc`ed array?
    pub(super) fn is_heap_name(&self, e: &Expression) -> bool {
        matches!(e, Expression::Identifier(id)
            if self.vars.get(crate::il::key_ref(&id.node.il()).as_ref())
                .is_some_and(|v| matches!(v.kind, VarKind::Heap(_)) && v.name == id.node.il()))
    }

    /// `w == NULL` (`equals`) or `w != NULL`: for a `malloc`ed `w`, whether the
    /// allocation failed, taken as never (adgen's own allocations of the derivative
    /// buffers assume the same); for other pointers, E0624.
    pub(super) fn null_test(
        &mut self,
        b: &Node<BinaryOperatorExpression>,
        equals: bool,
        at: CSpan,
    ) -> R<(Expr, Ty)> {
        if let Some(Expression::Identifier(id)) = self.null_compared(b) {
            if self.is_optional(&id.node.il()) {
                let present = self.present(&id.node.il(), at);
                let test = if equals {
                    Expr::unary(il::UnOp::Not, present)
                } else {
                    present
                };
                return Ok((test.spanned(self.span(at)), Ty::Bool));
            }
        }
        let heap = self.null_compared(b).filter(|p| self.is_heap_name(p));
        let Some(pointer) = heap else {
            return Err(self.refuse_null(b.node.lhs.span, true));
        };
        self.refuse_null_started(pointer, at)?;
        let span = self.span(at);
        Ok((self.allocation_failed(equals).spanned(span), Ty::Bool))
    }

    /// The value of the test `w == NULL` (`failed`) or `w != NULL` for a `malloc`ed `w`:
    /// false, resp. true, as adgen takes allocations to succeed.
    pub(super) fn allocation_failed(&self, failed: bool) -> Expr {
        Expr::new(ExprKind::Logical(!failed))
    }

    /// E0624 for `w == NULL` or `!w` when `w` starts as NULL and gets its memory from
    /// `realloc`: adgen gives it an allocation of no element, so it cannot tell where
    /// the C pointer is still NULL.
    pub(super) fn refuse_null_started(&mut self, pointer: &Expression, at: CSpan) -> R<()> {
        let Expression::Identifier(id) = pointer else {
            return Ok(());
        };
        let name = id.node.il();
        if !self.heap.null_started.contains(&name) {
            return Ok(());
        }
        let span = self.span(at);
        self.diags.push(
            Diagnostic::error(
                "E0624",
                format!(
                    "`{name}` starts as NULL and gets its memory from `realloc`, so testing \
                     it against NULL is not supported (adgen cannot tell where it is still NULL)"
                ),
            )
            .at(span)
            .with_help("test the number of elements it holds instead (`if (cap == 0)`)"),
        );
        Err(Reported)
    }

    /// Is `name` (with this spelling) an OPTIONAL pointer parameter?
    pub(super) fn is_optional(&self, name: &str) -> bool {
        self.optional.contains(crate::il::key_ref(name).as_ref()) && self.is_variable(name)
    }

    /// `present(p)`: the test `p != NULL` of an optional pointer parameter.
    pub(super) fn present(&self, name: &str, at: CSpan) -> Expr {
        Expr::intrinsic(
            il::Intrinsic::Present,
            vec![Expr::var(name).spanned(self.span(at))],
        )
    }

    /// E0624: NULL where adgen cannot take a pointer to be absent.
    pub(super) fn refuse_null(&mut self, at: CSpan, compared: bool) -> Reported {
        let span = self.span(at);
        let (message, help) = if compared {
            (
                "comparing this pointer with NULL is not supported: only a pointer \
                 parameter may be tested (an optional argument), or a `malloc`ed array",
                "test the pointer parameter itself (`if (grad != NULL)`), or always pass \
                 the array",
            )
        } else {
            (
                "NULL is supported only as an argument, for a pointer parameter the \
                 called function tests against NULL (an optional argument)",
                "pass a work array (or a scalar's address) instead of NULL",
            )
        };
        self.diags
            .push(Diagnostic::error("E0624", message).at(span).with_help(help));
        Reported
    }
}
