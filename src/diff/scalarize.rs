//! Scalarization: array syntax into DO loops over scalars, before any analysis.
//!
//! The front-end keeps array syntax in the IL as written (sections `a(2:n-1)`, whole
//! arrays, constructors `[x, y]`, array intrinsics), so that sources print back as they
//! were. Differentiation works on scalars: this pass, run first in
//! [`crate::differentiate`], rewrites every statement that uses array syntax into loops
//! whose bodies assign array elements, so that the analyses and the tangent and adjoint
//! rules need nothing more. The adjoints of seeds/000 §4.11 (Figure 13) follow: a sum
//! reduction becomes an accumulation loop whose adjoint spreads, a scalar broadcast into
//! an array becomes a loop whose adjoint sums.
//!
//! How an array expression is evaluated: each array-valued expression has dimensions
//! ([`LoopDim`]: a lower and upper index and a stride), and [`Scalarizer::element`] gives
//! the scalar expression of its element at given 0-based *offsets* along each dimension.
//! A statement `lhs = rhs` loops over the dimensions of `lhs` with the index ranges of
//! `lhs` itself (`u(2:n-1) = ...` loops `i = 2, n - 1`), so that the element references
//! read as a person would write them (`u(i - 1)`). Reductions without DIM are hoisted
//! before the statement into an accumulator; reductions with DIM and MATMUL accumulate
//! in an inner loop inside the body.
//!
//! Aliasing: Fortran evaluates the whole right-hand side before assigning. When the
//! assigned array is read at other elements, the loop direction is chosen so that every
//! element is read before it is overwritten (`u(2:n) = u(1:n-1)` runs backwards); when no
//! direction does (or the offset is not constant) the statement is refused (E0410) and the
//! user asked for a temporary. Everything this pass cannot rewrite is refused with its
//! location, never differentiated wrongly.

use std::collections::BTreeSet;

use crate::diag::{Diagnostic, Span};
use crate::il::types::{TypeRules, expr_type, promote};
use crate::il::{
    Arg, BinOp, Bound, Decl, DeclKind, DimSpec, Entity, Expr, ExprKind, Intrinsic, Program,
    ScalarType, Stmt, StmtId, StmtKind, Symbol, SymbolTable, TypeSpec, UnOp, Unit, key,
};

use super::names::Namer;

/// The code of every refusal of this pass.
const CODE: &str = "E0410";

type R<T> = Result<T, Diagnostic>;

/// Returns the program with array syntax rewritten into loops, or the located reasons it
/// could not be. Units without array syntax are left untouched.
pub fn scalarize(program: &Program) -> Result<Program, Vec<Diagnostic>> {
    let mut next_id = max_stmt_id(program) + 1;
    let mut out = program.clone();
    let mut diags = Vec::new();
    for file in &mut out.files {
        for unit in &mut file.units {
            if unit_has_array_syntax(unit) {
                scalarize_unit(unit, program, &mut next_id, &mut diags);
            }
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

fn max_stmt_id(program: &Program) -> u32 {
    let mut max = 0;
    for unit in program.units() {
        crate::il::visit::walk_stmts(&unit.body, &mut |s| {
            if s.id != StmtId::GENERATED {
                max = max.max(s.id.0);
            }
        });
    }
    max
}

fn unit_has_array_syntax(unit: &Unit) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(&unit.body, &mut |s| {
        let exprs: Vec<&Expr> = match &s.kind {
            StmtKind::Assign { lhs, rhs } => vec![lhs, rhs],
            StmtKind::Where { .. } | StmtKind::Forall { .. } => {
                found = true;
                Vec::new()
            }
            _ => crate::il::visit::stmt_exprs(s),
        };
        found |= exprs
            .iter()
            .any(|e| has_array_syntax(e, &unit.symbols, false));
    });
    found
}

fn is_array_name(symbols: &SymbolTable, name: &str) -> bool {
    symbols
        .get(name)
        .is_some_and(|s| s.is_array() && s.kind != crate::il::SymbolKind::Procedure)
}

/// Does `e` use array syntax: a whole array, a section, a constructor, an array
/// intrinsic? Whole arrays and sections passed to a user function (`f(n, x)`) or to an
/// inquiry (`size(x)`) are not array syntax. `actual`: `e` is an argument of a call.
fn has_array_syntax(e: &Expr, symbols: &SymbolTable, actual: bool) -> bool {
    let rec = |x: &Expr| has_array_syntax(x, symbols, false);
    match &e.kind {
        ExprKind::Var(n) => !actual && is_array_name(symbols, n),
        ExprKind::Index(_, subs) => {
            let section = subs
                .iter()
                .any(|s| matches!(s.kind, ExprKind::Range { .. }));
            (section && !actual)
                || subs.iter().any(|s| match &s.kind {
                    ExprKind::Range {
                        lower,
                        upper,
                        stride,
                    } => [lower, upper, stride].into_iter().flatten().any(|x| rec(x)),
                    _ => rec(s),
                })
        }
        ExprKind::ArrayCtor(_) | ExprKind::Range { .. } => true,
        ExprKind::Call(_, args) => args
            .iter()
            .any(|a| has_array_syntax(&a.value, symbols, true)),
        ExprKind::Intrinsic { op, args, .. } => match op {
            Intrinsic::Size | Intrinsic::Lbound | Intrinsic::Ubound => args
                .iter()
                .skip(1)
                .any(|a| has_array_syntax(&a.value, symbols, false)),
            op if op.is_array_valued_or_reduction() => true,
            _ => args.iter().any(|a| rec(&a.value)),
        },
        ExprKind::Unary(_, x) | ExprKind::Paren(x) => rec(x),
        ExprKind::Binary(_, a, b) => rec(a) || rec(b),
        ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => false,
    }
}

/// The index range of one dimension of an array expression: `lo`, `lo + stride`, ...,
/// up to `hi`.
#[derive(Clone, Debug)]
struct LoopDim {
    lo: Expr,
    hi: Expr,
    stride: Option<Expr>,
}

impl LoopDim {
    fn from_one(extent: Expr) -> LoopDim {
        LoopDim {
            lo: Expr::int(1),
            hi: extent,
            stride: None,
        }
    }
    /// The 0-based position of index `var` in this range.
    fn offset(&self, var: &str) -> Expr {
        let diff = Expr::binary(BinOp::Sub, Expr::var(var), self.lo.clone());
        match &self.stride {
            None => simplify(&diff),
            Some(st) => Expr::binary(BinOp::Div, paren(simplify(&diff)), paren(st.clone())),
        }
    }
    /// The index at 0-based position `off`.
    fn index_at(&self, off: &Expr) -> Expr {
        let step = match &self.stride {
            None => off.clone(),
            Some(st) => Expr::binary(BinOp::Mul, paren(off.clone()), paren(st.clone())),
        };
        simplify(&Expr::binary(BinOp::Add, step, self.lo.clone()))
    }
    fn extent(&self) -> Expr {
        let span = Expr::binary(BinOp::Sub, self.hi.clone(), self.lo.clone());
        match &self.stride {
            None => simplify(&Expr::binary(BinOp::Add, span, Expr::int(1))),
            Some(st) => simplify(&Expr::binary(
                BinOp::Add,
                Expr::binary(BinOp::Div, paren(simplify(&span)), paren(st.clone())),
                Expr::int(1),
            )),
        }
    }
}

fn paren(e: Expr) -> Expr {
    match e.kind {
        ExprKind::Var(_)
        | ExprKind::Index(..)
        | ExprKind::Paren(_)
        | ExprKind::Intrinsic { .. }
        | ExprKind::Call(..) => e,
        ExprKind::Int(ref t) if !t.starts_with('-') => e,
        _ => Expr::new(ExprKind::Paren(Box::new(e))),
    }
}

// ----- integer index arithmetic, kept readable -----

/// An integer expression as `constant + Σ coefficient·atom`, atoms in order of first
/// appearance (so the loop index written first stays first).
struct Linear {
    terms: Vec<(String, Expr, i64)>,
    constant: i64,
}

fn int_literal(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(t) if !t.contains('_') => t.parse().ok(),
        ExprKind::Paren(x) => int_literal(x),
        ExprKind::Unary(UnOp::Neg, x) => int_literal(x).map(|v| -v),
        _ => None,
    }
}

fn linear(e: &Expr) -> Linear {
    let atom = |e: &Expr| Linear {
        terms: vec![(crate::il::visit::expr_key(e), e.clone(), 1)],
        constant: 0,
    };
    match &e.kind {
        ExprKind::Int(_) => match int_literal(e) {
            Some(v) => Linear {
                terms: Vec::new(),
                constant: v,
            },
            None => atom(e),
        },
        ExprKind::Paren(x) | ExprKind::Unary(UnOp::Plus, x) => linear(x),
        ExprKind::Unary(UnOp::Neg, x) => scale(linear(x), -1),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let mut l = linear(a);
            let r = linear(b);
            let sign = if *op == BinOp::Add { 1 } else { -1 };
            l.constant += sign * r.constant;
            for (k, x, c) in r.terms {
                match l.terms.iter_mut().find(|(lk, _, _)| *lk == k) {
                    Some(t) => t.2 += sign * c,
                    None => l.terms.push((k, x, sign * c)),
                }
            }
            l
        }
        ExprKind::Binary(BinOp::Mul, a, b) => match (int_literal(a), int_literal(b)) {
            (Some(c), _) => scale(linear(b), c),
            (_, Some(c)) => scale(linear(a), c),
            _ => atom(e),
        },
        _ => atom(e),
    }
}

fn scale(mut l: Linear, c: i64) -> Linear {
    l.constant *= c;
    for t in &mut l.terms {
        t.2 *= c;
    }
    l
}

fn from_linear(l: Linear) -> Expr {
    let mut out: Option<Expr> = None;
    for (_, atom, c) in l.terms.into_iter().filter(|t| t.2 != 0) {
        let magnitude = c.abs();
        let term = if magnitude == 1 {
            atom
        } else {
            Expr::binary(BinOp::Mul, Expr::int(magnitude), atom)
        };
        out = Some(match out {
            None if c < 0 => Expr::unary(UnOp::Neg, term),
            None => term,
            Some(acc) if c < 0 => Expr::binary(BinOp::Sub, acc, term),
            Some(acc) => Expr::binary(BinOp::Add, acc, term),
        });
    }
    match out {
        None => Expr::int(l.constant),
        Some(e) if l.constant > 0 => Expr::binary(BinOp::Add, e, Expr::int(l.constant)),
        Some(e) if l.constant < 0 => Expr::binary(BinOp::Sub, e, Expr::int(-l.constant)),
        Some(e) => e,
    }
}

/// `e` with its integer additions folded: `i + 1 - 1` is `i`, `lo + (i - lo)` is `i`.
fn simplify(e: &Expr) -> Expr {
    from_linear(linear(e))
}

/// `a - b` when it is an integer constant.
fn constant_difference(a: &Expr, b: &Expr) -> Option<i64> {
    let l = linear(&Expr::binary(BinOp::Sub, a.clone(), b.clone()));
    l.terms.iter().all(|t| t.2 == 0).then_some(l.constant)
}

// ----- the pass -----

fn scalarize_unit(
    unit: &mut Unit,
    program: &Program,
    next_id: &mut u32,
    diags: &mut Vec<Diagnostic>,
) {
    let mut namer = Namer::new(unit.symbols.iter().map(|s| s.name.as_str()));
    for u in program.units() {
        namer.reserve(&u.name);
    }
    let mut assigned = BTreeSet::new();
    crate::il::visit::walk_stmts(&unit.body, &mut |s| match &s.kind {
        StmtKind::Assign { lhs, .. } => {
            if let Some(n) = lhs.base_name() {
                assigned.insert(key(n));
            }
        }
        StmtKind::Do { var, .. } => {
            assigned.insert(key(var));
        }
        // A callee may assign any argument.
        StmtKind::Call { args, .. } => {
            for a in args {
                if let Some(n) = a.value.base_name() {
                    assigned.insert(key(n));
                }
            }
        }
        _ => {}
    });
    let mut sc = Scalarizer {
        symbols: unit.symbols.clone(),
        namer,
        next_id,
        loop_vars: Vec::new(),
        new_locals: Vec::new(),
        assigned,
        free_uses: free_uses(&unit.body),
        span: unit.span,
        before: Vec::new(),
        diags: Vec::new(),
    };
    let body = std::mem::take(&mut unit.body);
    unit.body = sc.block(body);
    for symbol in sc.new_locals {
        let dims = (!symbol.dims.is_empty()).then(|| symbol.dims.clone());
        unit.decls.push(Decl {
            kind: DeclKind::Var {
                spec: symbol.type_spec.clone(),
                attrs: Vec::new(),
                entities: vec![Entity {
                    name: symbol.name.clone(),
                    dims,
                    init: None,
                    span: Span::default(),
                }],
            },
            span: Span::default(),
        });
        unit.symbols.insert(symbol);
    }
    diags.extend(sc.diags);
}

struct Scalarizer<'a> {
    symbols: SymbolTable,
    namer: Namer,
    next_id: &'a mut u32,
    /// Loop indices by nesting depth, shared by every statement of the unit.
    loop_vars: Vec<String>,
    new_locals: Vec<Symbol>,
    /// Variables assigned somewhere in the unit (keys): a declared bound that reads one
    /// is not trusted, LBOUND/UBOUND are used instead.
    assigned: BTreeSet<String>,
    /// The statement being rewritten.
    span: Span,
    /// Names (keys) the unit's body uses outside any DO, FORALL or DO CONCURRENT that
    /// binds them as its index: an index of that name must not be left changed.
    free_uses: BTreeSet<String>,
    /// Statements to run before the statement being rewritten (hoisted reductions and
    /// constructors).
    before: Vec<Stmt>,
    diags: Vec<Diagnostic>,
}

/// The parts of a reduction's arguments: `sum(array [, dim] [, mask])`.
struct Reduction {
    array: Expr,
    dim: Option<usize>,
    mask: Option<Expr>,
}

impl Scalarizer<'_> {
    fn err(&self, span: Span, message: String, help: &str) -> Diagnostic {
        let span = if span == Span::default() {
            self.span
        } else {
            span
        };
        Diagnostic::error(CODE, message).at(span).with_help(help)
    }

    fn new_stmt(&mut self, kind: StmtKind) -> Stmt {
        let id = StmtId(*self.next_id);
        *self.next_id += 1;
        Stmt {
            id,
            kind,
            span: self.span,
            label: None,
            trailing_comment: None,
        }
    }

    fn assign(&mut self, lhs: Expr, rhs: Expr) -> Stmt {
        self.new_stmt(StmtKind::Assign { lhs, rhs })
    }

    fn do_loop(&mut self, var: &str, dim: &LoopDim, reversed: bool, body: Vec<Stmt>) -> Stmt {
        let (start, end, step) = if reversed {
            (dim.hi.clone(), dim.lo.clone(), Some(Expr::int(-1)))
        } else {
            (dim.lo.clone(), dim.hi.clone(), dim.stride.clone())
        };
        self.new_stmt(StmtKind::Do {
            var: var.to_string(),
            start,
            end,
            step,
            body,
            name: None,
        })
    }

    fn loop_var(&mut self, depth: usize) -> String {
        const BASES: [&str; 6] = ["i", "j", "k", "l", "m", "n"];
        while self.loop_vars.len() <= depth {
            let d = self.loop_vars.len();
            let base = BASES
                .get(d)
                .map(|b| b.to_string())
                .unwrap_or(format!("i{d}"));
            let name = self.namer.fresh(&base);
            self.add_local(&name, ScalarType::Integer(4), Vec::new());
            self.loop_vars.push(name);
        }
        self.loop_vars[depth].clone()
    }

    fn add_local(&mut self, name: &str, ty: ScalarType, dims: Vec<DimSpec>) {
        // Declared like an existing variable of the same type, so kinds keep their
        // spelling (`real(dp)`).
        let spec = self
            .symbols
            .iter()
            .find(|s| s.is_variable() && !s.implicit && s.ty == ty)
            .map(|s| s.type_spec.clone())
            .unwrap_or_else(|| TypeSpec::of(ty));
        let symbol = Symbol::local(name, ty, spec, dims);
        self.symbols.insert(symbol.clone());
        self.new_locals.push(symbol);
    }

    fn temp(&mut self, base: &str, ty: ScalarType) -> String {
        let name = self.namer.fresh(base);
        self.add_local(&name, ty, Vec::new());
        name
    }

    fn type_of(&self, e: &Expr) -> ScalarType {
        let symbols = &self.symbols;
        let variable = |n: &str| symbols.get(n).map(|s| s.ty).unwrap_or(ScalarType::Real(4));
        let rules = TypeRules {
            variable: &variable,
            function: &variable,
            default_real: 4,
        };
        expr_type(e, &rules)
    }

    fn has(&self, e: &Expr) -> bool {
        has_array_syntax(e, &self.symbols, false)
    }

    // ----- statements -----

    fn block(&mut self, stmts: Vec<Stmt>) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            self.stmt(s, &mut out);
        }
        out
    }

    /// Appends `stmts` in place of `original`, which gives the first its label and
    /// trailing comment.
    fn emit(&self, original: &Stmt, mut stmts: Vec<Stmt>, out: &mut Vec<Stmt>) {
        if let Some(first) = stmts.first_mut() {
            first.label = original.label.clone();
            first.trailing_comment = original.trailing_comment.clone();
        }
        out.extend(stmts);
    }

    fn stmt(&mut self, mut s: Stmt, out: &mut Vec<Stmt>) {
        self.span = s.span;
        self.before.clear();
        let result: R<()> = match &mut s.kind {
            StmtKind::Assign { lhs, rhs } if self.has(lhs) || self.has(rhs) => {
                match self.assignment(lhs, rhs, None) {
                    Ok(stmts) => {
                        self.emit(&s, stmts, out);
                        return;
                    }
                    Err(d) => Err(d),
                }
            }
            StmtKind::Where {
                arms, else_body, ..
            } => match self.where_construct(arms, else_body.as_deref()) {
                Ok(stmts) => {
                    self.emit(&s, stmts, out);
                    return;
                }
                Err(d) => Err(d),
            },
            StmtKind::Forall {
                indices,
                mask,
                body,
                concurrent,
                ..
            } => {
                let (indices, mask, body, concurrent) =
                    (indices.clone(), mask.clone(), body.clone(), *concurrent);
                match self.forall(&s, indices, mask, body, concurrent) {
                    Ok(stmts) => {
                        self.emit(&s, stmts, out);
                        return;
                    }
                    Err(d) => Err(d),
                }
            }
            StmtKind::If {
                arms, else_body, ..
            } => {
                let mut r = Ok(());
                for (cond, body) in arms.iter_mut() {
                    if r.is_ok() {
                        r = self.scalar_in_place(cond);
                    }
                    *body = self.block(std::mem::take(body));
                }
                if let Some(b) = else_body {
                    *b = self.block(std::mem::take(b));
                }
                r
            }
            StmtKind::Do {
                start,
                end,
                step,
                body,
                ..
            } => {
                let mut r = self.scalar_in_place(start);
                if r.is_ok() {
                    r = self.scalar_in_place(end);
                }
                if let (Ok(()), Some(step)) = (&r, step) {
                    r = self.scalar_in_place(step);
                }
                let before = std::mem::take(&mut self.before);
                *body = self.block(std::mem::take(body));
                self.before = before;
                r
            }
            StmtKind::DoWhile { cond, body, .. } => {
                let r = if self.has(cond) {
                    Err(self.err(
                        cond.span,
                        "array syntax in the condition of DO WHILE is not supported".into(),
                        "compute the value into a scalar variable before the loop and at the end of its body",
                    ))
                } else {
                    Ok(())
                };
                *body = self.block(std::mem::take(body));
                r
            }
            StmtKind::Call { args, .. } => {
                let mut r = Ok(());
                for a in args.iter_mut() {
                    if r.is_err() || !self.has(&a.value) || self.is_plain_array_ref(&a.value) {
                        continue;
                    }
                    r = match self.rank(&a.value) {
                        Ok(0) => self.scalar_in_place(&mut a.value),
                        Ok(_) => Err(self.err(
                            a.value.span,
                            "an array expression as an actual argument is not supported".into(),
                            "assign it to an array variable first and pass that variable",
                        )),
                        Err(d) => Err(d),
                    };
                }
                r
            }
            _ => Ok(()),
        };
        match result {
            Ok(()) => {
                let mut stmts = std::mem::take(&mut self.before);
                let label = s.label.take();
                stmts.push(s);
                if let Some(first) = stmts.first_mut() {
                    first.label = label;
                }
                out.extend(stmts);
            }
            Err(d) => {
                self.diags.push(d);
                out.push(s);
            }
        }
    }

    /// A scalar expression that may hold reductions: rewritten in place, the loops going
    /// to `self.before`.
    fn scalar_in_place(&mut self, e: &mut Expr) -> R<()> {
        if !self.has(e) {
            return Ok(());
        }
        if self.rank(e)? != 0 {
            return Err(self.err(
                e.span,
                "an array expression is used where a scalar is expected".into(),
                "reduce it with SUM, MAXVAL, ... or use one element",
            ));
        }
        let mut body = Vec::new();
        let value = self.element(e, &[], 0, &mut body)?;
        self.before.extend(body);
        *e = value;
        Ok(())
    }

    fn is_plain_array_ref(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(n) => is_array_name(&self.symbols, n),
            ExprKind::Index(_, subs) => subs.iter().all(|s| match &s.kind {
                ExprKind::Range {
                    lower,
                    upper,
                    stride,
                } => [lower, upper, stride]
                    .into_iter()
                    .flatten()
                    .all(|x| !self.has(x)),
                _ => !self.has(s),
            }),
            _ => false,
        }
    }

    /// `lhs = rhs`, under the elementwise `guard` of a WHERE when given.
    fn assignment(&mut self, lhs: &Expr, rhs: &Expr, guard: Option<&Expr>) -> R<Vec<Stmt>> {
        let ldims = self.dims_of(lhs)?;
        let rrank = self.rank(rhs)?;
        if let Some(g) = guard
            && self.rank(g)? != ldims.len()
        {
            return Err(self.err(
                lhs.span,
                "the mask of WHERE and the assigned array have different ranks".into(),
                "give the mask the shape of the assigned array",
            ));
        }
        if ldims.is_empty() {
            if rrank != 0 {
                return Err(self.err(
                    rhs.span,
                    format!("an array of rank {rrank} is assigned to a scalar"),
                    "reduce it with SUM, MAXVAL, ... or assign it to an array",
                ));
            }
            if let Some(stmts) = self.direct_reduction(lhs, rhs)? {
                let mut out = std::mem::take(&mut self.before);
                out.extend(stmts);
                return Ok(out);
            }
            let mut body = Vec::new();
            let value = self.element(rhs, &[], 0, &mut body)?;
            let target = self.element(lhs, &[], 0, &mut body)?;
            let mut out = std::mem::take(&mut self.before);
            out.extend(body);
            out.push(self.assign(target, value));
            return Ok(out);
        }
        let rank = ldims.len();
        if rrank != 0 && rrank != rank {
            return Err(self.err(
                rhs.span,
                format!("the right-hand side has rank {rrank} but the left-hand side rank {rank}"),
                "make both sides the same shape",
            ));
        }
        // `v = [a, b, c]`: one assignment per item.
        if let (ExprKind::ArrayCtor(items), 1, None) = (&rhs.kind, rank, guard) {
            let mut out = Vec::new();
            for (k, item) in items.iter().enumerate() {
                if self.rank(item)? != 0 {
                    return Err(self.ctor_item_error(item));
                }
                let mut body = Vec::new();
                let value = self.element(item, &[], 0, &mut body)?;
                let target = self.element(lhs, &[Expr::int(k as i64)], 0, &mut body)?;
                out.append(&mut self.before);
                out.extend(body);
                out.push(self.assign(target, value));
            }
            return Ok(out);
        }
        let vars: Vec<String> = (0..rank).map(|d| self.loop_var(d)).collect();
        let offsets: Vec<Expr> = ldims.iter().zip(&vars).map(|(d, v)| d.offset(v)).collect();
        let mut body = Vec::new();
        let target = self.element(lhs, &offsets, rank, &mut body)?;
        let value = self.element(rhs, &offsets, rank, &mut body)?;
        let reversed = match self.loop_directions(&target, &body, &value, &ldims, rhs.span) {
            Ok(r) => r,
            Err(alias) => {
                // No loop order reads every element before it is overwritten: through a
                // temporary array, when its extents can size a local array.
                let Some(tmp) = self.temporary_like(lhs, &ldims)? else {
                    return Err(alias);
                };
                let index: Vec<Expr> = offsets
                    .iter()
                    .map(|o| simplify(&Expr::binary(BinOp::Add, o.clone(), Expr::int(1))))
                    .collect();
                let tmp_elem = Expr::new(ExprKind::Index(tmp, index));
                body.push(self.assign(tmp_elem.clone(), value));
                let fill = self.guarded(guard, &offsets, body)?;
                let copy = vec![self.assign(target, tmp_elem)];
                let copy = self.guarded(guard, &offsets, copy)?;
                let mut out = std::mem::take(&mut self.before);
                for nest in [fill, copy] {
                    let mut nest = nest;
                    for k in 0..rank {
                        let l = self.do_loop(&vars[k], &ldims[k], false, nest);
                        nest = vec![l];
                    }
                    out.extend(nest);
                }
                return Ok(out);
            }
        };
        body.push(self.assign(target, value));
        let body = self.guarded(guard, &offsets, body)?;
        let mut nest = body;
        for k in 0..rank {
            let l = self.do_loop(&vars[k], &ldims[k], reversed[k], nest);
            nest = vec![l];
        }
        let mut out = std::mem::take(&mut self.before);
        out.extend(nest);
        Ok(out)
    }

    /// `body` under the element of a WHERE mask at `offsets`, when there is one.
    fn guarded(&mut self, guard: Option<&Expr>, offsets: &[Expr], body: Vec<Stmt>) -> R<Vec<Stmt>> {
        let Some(g) = guard else {
            return Ok(body);
        };
        let mut out = Vec::new();
        let cond = self.element(g, offsets, offsets.len(), &mut out)?;
        let logical_if = body.len() == 1;
        let s = self.new_stmt(StmtKind::If {
            arms: vec![(cond, body)],
            else_body: None,
            logical_if,
            name: None,
        });
        out.push(s);
        Ok(out)
    }

    /// A new local array `tmp(ext1, ext2, ...)` with the shape of `lhs`, when every
    /// extent is a constant or depends only on dummy arguments the unit never assigns
    /// (so that it can be declared as an automatic array).
    fn temporary_like(&mut self, lhs: &Expr, ldims: &[LoopDim]) -> R<Option<String>> {
        let mut dims = Vec::new();
        for d in ldims {
            let extent = d.extent();
            if !self.is_specification(&extent) {
                return Ok(None);
            }
            dims.push(DimSpec {
                lower: None,
                upper: Bound::Expr(extent),
            });
        }
        let ty = self.type_of(lhs);
        let base = lhs
            .base_name()
            .map(|n| format!("{n}_tmp"))
            .unwrap_or("tmp".into());
        let name = self.namer.fresh(&base);
        self.add_local(&name, ty, dims);
        Ok(Some(name))
    }

    fn is_specification(&self, e: &Expr) -> bool {
        let mut ok = true;
        crate::il::visit::walk_expr(e, &mut |x| match &x.kind {
            ExprKind::Var(n) | ExprKind::Index(n, _) => {
                let fine = self.symbols.get(n).is_some_and(|s| {
                    s.kind == crate::il::SymbolKind::Constant
                        || (s.is_dummy() && !self.assigned.contains(&key(n)))
                });
                ok &= fine;
            }
            ExprKind::Call(..) => ok = false,
            _ => {}
        });
        ok
    }

    /// A WHERE statement or construct: each assignment in turn, over the elements its
    /// part's condition selects (the masks before it false, its own true).
    fn where_construct(
        &mut self,
        arms: &[(Expr, Vec<Stmt>)],
        else_body: Option<&[Stmt]>,
    ) -> R<Vec<Stmt>> {
        let mut parts: Vec<(Option<&Expr>, &[Stmt])> =
            arms.iter().map(|(m, b)| (Some(m), b.as_slice())).collect();
        if let Some(b) = else_body {
            parts.push((None, b));
        }
        if let Some(fused) = self.where_fused(&parts)? {
            return Ok(fused);
        }
        // The masks are evaluated once, before any assignment: refused when the
        // construct assigns what they read.
        let mut assigned = Vec::new();
        for (_, body) in &parts {
            for s in body.iter() {
                match &s.kind {
                    StmtKind::Assign { lhs, .. } => {
                        if let Some(n) = lhs.base_name() {
                            assigned.push(key(n));
                        }
                    }
                    StmtKind::Comment(_) => {}
                    _ => {
                        return Err(self.err(
                            s.span,
                            "only array assignments are supported inside WHERE".into(),
                            "move the other statements out of the WHERE construct",
                        ));
                    }
                }
            }
        }
        for (mask, _) in arms {
            if let Some(n) = crate::il::visit::names_read(mask)
                .into_iter()
                .find(|n| assigned.contains(&key(n)))
            {
                return Err(self.err(
                    mask.span,
                    format!("the mask reads `{n}`, which the WHERE construct assigns"),
                    "compute the mask into a LOGICAL array before the WHERE and use that",
                ));
            }
        }
        let negated =
            |m: &Expr| Expr::unary(UnOp::Not, Expr::new(ExprKind::Paren(Box::new(m.clone()))));
        let mut out = Vec::new();
        for (k, (mask, body)) in parts.iter().enumerate() {
            let mut cond: Option<Expr> = None;
            for (earlier, _) in &arms[..k.min(arms.len())] {
                let n = negated(earlier);
                cond = Some(match cond {
                    None => n,
                    Some(c) => Expr::binary(BinOp::And, c, n),
                });
            }
            if let Some(m) = mask {
                let m = if cond.is_some() {
                    Expr::new(ExprKind::Paren(Box::new((*m).clone())))
                } else {
                    (*m).clone()
                };
                cond = Some(match cond {
                    None => m,
                    Some(c) => Expr::binary(BinOp::And, c, m),
                });
            }
            let cond = cond.expect("every part has a condition");
            for s in body.iter() {
                match &s.kind {
                    StmtKind::Assign { lhs, rhs } => {
                        self.span = s.span;
                        let mut stmts = self.assignment(lhs, rhs, Some(&cond))?;
                        if let Some(first) = stmts.first_mut() {
                            first.trailing_comment = s.trailing_comment.clone();
                        }
                        out.extend(stmts);
                    }
                    _ => out.push(s.clone()),
                }
            }
        }
        Ok(out)
    }

    /// A WHERE construct as one loop nest with an IF / ELSE IF / ELSE per element, when
    /// that means the same as the construct: every assignment over the same index
    /// ranges, and every array it assigns read (by the masks and right-hand sides) only
    /// at the element being assigned, written the same way.
    fn where_fused(&mut self, parts: &[(Option<&Expr>, &[Stmt])]) -> R<Option<Vec<Stmt>>> {
        let dims_key = |dims: &[LoopDim]| {
            dims.iter()
                .map(|d| {
                    format!(
                        "{}:{}:{}",
                        crate::il::visit::expr_key(&d.lo),
                        crate::il::visit::expr_key(&d.hi),
                        d.stride
                            .as_ref()
                            .map(crate::il::visit::expr_key)
                            .unwrap_or_default()
                    )
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut shape: Option<(String, Vec<LoopDim>)> = None;
        let mut targets: Vec<(String, String)> = Vec::new();
        let mut reads: Vec<&Expr> = parts.iter().filter_map(|(m, _)| *m).collect();
        for (_, body) in parts {
            for s in body.iter() {
                let StmtKind::Assign { lhs, rhs } = &s.kind else {
                    continue;
                };
                let d = self.dims_of(lhs)?;
                let k = dims_key(&d);
                match &shape {
                    None => shape = Some((k, d)),
                    Some((k0, _)) if *k0 != k => return Ok(None),
                    _ => {}
                }
                let Some(name) = lhs.base_name() else {
                    return Ok(None);
                };
                let lk = crate::il::visit::expr_key(lhs);
                if targets.iter().any(|(n, t)| *n == key(name) && *t != lk) {
                    return Ok(None);
                }
                targets.push((key(name), lk));
                reads.push(rhs);
            }
        }
        let Some((_, ldims)) = shape else {
            return Ok(None);
        };
        for (name, lk) in &targets {
            for e in &reads {
                let mut refs = Vec::new();
                refs_to(e, name, &mut refs);
                if refs.iter().any(|r| crate::il::visit::expr_key(r) != *lk) {
                    return Ok(None);
                }
            }
        }
        let rank = ldims.len();
        let vars: Vec<String> = (0..rank).map(|d| self.loop_var(d)).collect();
        let offsets: Vec<Expr> = ldims.iter().zip(&vars).map(|(d, v)| d.offset(v)).collect();
        let mut body = Vec::new();
        let mut arms = Vec::new();
        let mut else_body = None;
        for (mask, stmts) in parts {
            let cond = match mask {
                Some(m) => Some(self.element(m, &offsets, rank, &mut body)?),
                None => None,
            };
            let mut out = Vec::new();
            for s in stmts.iter() {
                match &s.kind {
                    StmtKind::Assign { lhs, rhs } => {
                        let t = self.element(lhs, &offsets, rank, &mut out)?;
                        let v = self.element(rhs, &offsets, rank, &mut out)?;
                        let mut a = self.assign(t, v);
                        a.span = s.span;
                        a.trailing_comment = s.trailing_comment.clone();
                        out.push(a);
                    }
                    _ => out.push(s.clone()),
                }
            }
            match cond {
                Some(c) => arms.push((c, out)),
                None => else_body = Some(out),
            }
        }
        let logical_if = arms.len() == 1 && else_body.is_none() && arms[0].1.len() == 1;
        let s = self.new_stmt(StmtKind::If {
            arms,
            else_body,
            logical_if,
            name: None,
        });
        body.push(s);
        let mut nest = body;
        for k in 0..rank {
            let l = self.do_loop(&vars[k], &ldims[k], false, nest);
            nest = vec![l];
        }
        let mut out = std::mem::take(&mut self.before);
        out.extend(nest);
        Ok(Some(out))
    }

    /// FORALL and DO CONCURRENT as DO loops (the first index outermost). FORALL
    /// assigns each statement for all indices before the next, and evaluates every
    /// right-hand side before assigning: refused when an assignment reads the array it
    /// assigns at other elements.
    fn forall(
        &mut self,
        original: &Stmt,
        mut indices: Vec<crate::il::ForallIndex>,
        mut mask: Option<Expr>,
        mut body: Vec<Stmt>,
        concurrent: bool,
    ) -> R<Vec<Stmt>> {
        let span = original.span;
        // The index variables are local to the construct, the DO loops leave theirs
        // set: an index whose name the unit also uses elsewhere gets a fresh name.
        for k in 0..indices.len() {
            let name = indices[k].var.clone();
            if self.free_uses.contains(&key(&name)) {
                let fresh = self.namer.fresh(&name);
                self.add_local(&fresh, ScalarType::Integer(4), Vec::new());
                for ix in indices.iter_mut() {
                    if key(&ix.var) == key(&name) {
                        ix.var = fresh.clone();
                    }
                    rename_expr(&mut ix.lower, &name, &fresh);
                    rename_expr(&mut ix.upper, &name, &fresh);
                    if let Some(s) = &mut ix.stride {
                        rename_expr(s, &name, &fresh);
                    }
                }
                if let Some(m) = &mut mask {
                    rename_expr(m, &name, &fresh);
                }
                rename_stmts(&mut body, &name, &fresh);
            }
        }
        let make_nest = |sc: &mut Self, inner: Vec<Stmt>| -> Stmt {
            let mut nest = match &mask {
                Some(m) => vec![sc.new_stmt(StmtKind::If {
                    arms: vec![(m.clone(), inner)],
                    else_body: None,
                    logical_if: false,
                    name: None,
                })],
                None => inner,
            };
            for ix in indices.iter().rev() {
                let s = sc.new_stmt(StmtKind::Do {
                    var: ix.var.clone(),
                    start: ix.lower.clone(),
                    end: ix.upper.clone(),
                    step: ix.stride.clone(),
                    body: nest,
                    name: None,
                });
                nest = vec![s];
            }
            nest.pop().expect("at least one index")
        };
        if indices.is_empty() {
            return Err(self.err(
                span,
                "an index list without indices".into(),
                "give at least one index",
            ));
        }
        let mut loops = Vec::new();
        if concurrent {
            loops.push(make_nest(self, body));
        } else {
            let mut assigned = Vec::new();
            for s in &body {
                match &s.kind {
                    StmtKind::Assign { lhs, rhs } => {
                        let Some(name) = lhs.base_name() else {
                            continue;
                        };
                        assigned.push(key(name));
                        let mut refs = Vec::new();
                        refs_to(rhs, name, &mut refs);
                        // Safe: the very element assigned, or an element that a fixed
                        // subscript (no index in it) keeps out of the assigned part.
                        let index_names: Vec<String> =
                            indices.iter().map(|ix| key(&ix.var)).collect();
                        let same = |r: &Expr| {
                            if crate::il::visit::expr_key(r) == crate::il::visit::expr_key(lhs) {
                                return true;
                            }
                            let (ExprKind::Index(_, rs), ExprKind::Index(_, ls)) =
                                (&r.kind, &lhs.kind)
                            else {
                                return false;
                            };
                            rs.len() == ls.len()
                                && rs.iter().zip(ls).any(|(a, b)| {
                                    let fixed = crate::il::visit::names_read(b)
                                        .iter()
                                        .all(|n| !index_names.contains(&key(n)))
                                        && !matches!(b.kind, ExprKind::Range { .. })
                                        && !matches!(a.kind, ExprKind::Range { .. });
                                    fixed && constant_difference(a, b).is_some_and(|d| d != 0)
                                })
                        };
                        if let Some(r) = refs.iter().find(|r| !same(r)) {
                            return Err(self.err(
                                r.span,
                                format!("FORALL assigns `{name}` and reads it at other elements"),
                                "assign the right-hand sides to a temporary array in one FORALL, then copy in a second",
                            ));
                        }
                    }
                    StmtKind::Comment(_) => {}
                    _ => {
                        return Err(self.err(
                            s.span,
                            "only assignments are supported inside FORALL".into(),
                            "use DO CONCURRENT or DO loops for other statements",
                        ));
                    }
                }
            }
            if let Some(m) = &mask
                && let Some(n) = crate::il::visit::names_read(m)
                    .into_iter()
                    .find(|n| assigned.contains(&key(n)))
            {
                return Err(self.err(
                    m.span,
                    format!("the mask of FORALL reads `{n}`, which the FORALL assigns"),
                    "compute the mask into a LOGICAL array first",
                ));
            }
            for s in body {
                if matches!(s.kind, StmtKind::Comment(_)) {
                    continue;
                }
                loops.push(make_nest(self, vec![s]));
            }
        }
        let mut out = Vec::new();
        for l in loops {
            self.stmt(l, &mut out);
        }
        Ok(out)
    }

    fn ctor_item_error(&self, item: &Expr) -> Diagnostic {
        self.err(
            item.span,
            "an array inside an array constructor is not supported".into(),
            "list scalar items only, e.g. `[a(1), a(2), x]`",
        )
    }

    /// `s = sum(x)` (and PRODUCT, MAXVAL, MINVAL, DOT_PRODUCT) accumulates straight into
    /// `s` when `s` is not read by the argument.
    fn direct_reduction(&mut self, lhs: &Expr, rhs: &Expr) -> R<Option<Vec<Stmt>>> {
        let ExprKind::Intrinsic { op, args, .. } = &rhs.kind else {
            return Ok(None);
        };
        let Some(target) = lhs.base_name() else {
            return Ok(None);
        };
        let reads_target = crate::il::visit::names_read(rhs)
            .iter()
            .any(|n| key(n) == key(target))
            || matches!(&lhs.kind, ExprKind::Index(_, subs) if subs.iter().any(|s| self.has(s)));
        if reads_target {
            return Ok(None);
        }
        let red = match op {
            Intrinsic::Sum | Intrinsic::Product | Intrinsic::Maxval | Intrinsic::Minval => {
                self.reduction_args(*op, args, rhs.span)?
            }
            Intrinsic::DotProduct => self.dot_product_args(args, rhs.span)?,
            _ => return Ok(None),
        };
        if red.dim.is_some() {
            return Ok(None);
        }
        let op = if *op == Intrinsic::DotProduct {
            Intrinsic::Sum
        } else {
            *op
        };
        let mut out = Vec::new();
        self.reduction(op, &red, &[], 0, &mut out, Some(lhs.clone()), rhs.span)?;
        Ok(Some(out))
    }

    /// For each loop dimension of an array assignment: run it backwards? Decided by the
    /// references to the assigned array in the body; refused when no order is right.
    fn loop_directions(
        &self,
        target: &Expr,
        body: &[Stmt],
        value: &Expr,
        ldims: &[LoopDim],
        span: Span,
    ) -> R<Vec<bool>> {
        let rank = ldims.len();
        let mut reversed: Vec<Option<bool>> = vec![None; rank];
        let ExprKind::Index(name, target_subs) = &target.kind else {
            return Ok(vec![false; rank]);
        };
        // Which subscripts of the target are loop dimensions (the others are fixed).
        let mut loop_dim_of_sub = Vec::new();
        let mut looped = 0;
        for s in target_subs {
            // A subscript depending on a loop index (all loop offsets are in terms of
            // the loop indices) is a loop dimension.
            let is_loop = looped < rank
                && self.loop_vars[..rank].iter().any(|v| {
                    crate::il::visit::names_read(s)
                        .iter()
                        .any(|n| key(n) == key(v))
                });
            loop_dim_of_sub.push(is_loop.then(|| {
                looped += 1;
                looped - 1
            }));
        }
        let mut found: Vec<Expr> = Vec::new();
        refs_to(value, name, &mut found);
        crate::il::visit::walk_stmts(body, &mut |s| {
            for e in crate::il::visit::stmt_exprs(s) {
                refs_to(e, name, &mut found);
            }
        });
        let alias = || {
            self.err(
                span,
                format!(
                    "`{name}` is assigned and read at other elements in the same array statement, in an order no loop direction can keep"
                ),
                "assign the right-hand side to a temporary array first, then copy it",
            )
        };
        for r in &found {
            let ExprKind::Index(_, subs) = &r.kind else {
                return Err(alias());
            };
            if subs.len() != target_subs.len() {
                return Err(alias());
            }
            let mut diffs = Vec::new();
            for (a, b) in subs.iter().zip(target_subs) {
                match constant_difference(a, b) {
                    Some(d) => diffs.push(d),
                    None => return Err(alias()),
                }
            }
            // A different fixed subscript: another part of the array, never written.
            if diffs
                .iter()
                .zip(&loop_dim_of_sub)
                .any(|(d, l)| *d != 0 && l.is_none())
            {
                continue;
            }
            let moving: Vec<(usize, i64)> = diffs
                .iter()
                .zip(&loop_dim_of_sub)
                .filter(|(d, _)| **d != 0)
                .filter_map(|(d, l)| l.map(|l| (l, *d)))
                .collect();
            match moving.as_slice() {
                [] => {}
                [(k, d)] => {
                    if ldims[*k].stride.is_some() {
                        return Err(alias());
                    }
                    let want = *d < 0;
                    match reversed[*k] {
                        Some(w) if w != want => return Err(alias()),
                        _ => reversed[*k] = Some(want),
                    }
                }
                _ => return Err(alias()),
            }
        }
        Ok(reversed.into_iter().map(|r| r.unwrap_or(false)).collect())
    }

    // ----- shapes -----

    fn rank(&self, e: &Expr) -> R<usize> {
        Ok(self.dims_of(e)?.len())
    }

    /// The declared index ranges of array `name`.
    fn decl_dims(&self, name: &str, span: Span) -> R<Vec<LoopDim>> {
        let Some(sym) = self.symbols.get(name) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (k, d) in sym.dims.iter().enumerate() {
            let inquiry = |op: Intrinsic| {
                Expr::intrinsic(op, vec![Expr::var(&sym.name), Expr::int(k as i64 + 1)])
            };
            let trusted = |e: &Expr| {
                crate::il::visit::names_read(e)
                    .iter()
                    .all(|n| !self.assigned.contains(&key(n)))
            };
            out.push(match &d.upper {
                Bound::Colon if sym.is_dummy() => LoopDim {
                    lo: d.lower.clone().unwrap_or_else(|| Expr::int(1)),
                    hi: if d.lower.is_none() {
                        inquiry(Intrinsic::Size)
                    } else {
                        inquiry(Intrinsic::Ubound)
                    },
                    stride: None,
                },
                Bound::Colon => LoopDim {
                    lo: inquiry(Intrinsic::Lbound),
                    hi: inquiry(Intrinsic::Ubound),
                    stride: None,
                },
                Bound::Star => {
                    return Err(self.err(
                        span,
                        format!("the assumed-size array `{name}` has no upper bound to work on whole"),
                        &format!("give the upper bound of its last dimension in a section, e.g. `{name}(1:n)`"),
                    ));
                }
                Bound::Expr(upper) => {
                    let lo = d.lower.clone().unwrap_or_else(|| Expr::int(1));
                    if trusted(&lo) && trusted(upper) {
                        LoopDim {
                            lo,
                            hi: upper.clone(),
                            stride: None,
                        }
                    } else {
                        LoopDim {
                            lo: inquiry(Intrinsic::Lbound),
                            hi: inquiry(Intrinsic::Ubound),
                            stride: None,
                        }
                    }
                }
            });
        }
        Ok(out)
    }

    /// The dimensions of a section `name(subs)`: one per triplet subscript.
    fn section_dims(&self, name: &str, subs: &[Expr], span: Span) -> R<Vec<LoopDim>> {
        let mut out = Vec::new();
        let mut decl: Option<Vec<LoopDim>> = None;
        for (k, s) in subs.iter().enumerate() {
            match &s.kind {
                ExprKind::Range {
                    lower,
                    upper,
                    stride,
                } => {
                    let mut declared = |which: usize| -> R<Expr> {
                        if decl.is_none() {
                            decl = Some(self.decl_dims(name, span)?);
                        }
                        let d = &decl.as_ref().expect("just computed")[k];
                        Ok(if which == 0 {
                            d.lo.clone()
                        } else {
                            d.hi.clone()
                        })
                    };
                    let lo = match lower {
                        Some(l) => (**l).clone(),
                        None => declared(0)?,
                    };
                    let hi = match upper {
                        Some(u) => (**u).clone(),
                        None => declared(1)?,
                    };
                    let stride = stride.as_deref().cloned();
                    if stride.as_ref().is_some_and(|s| int_literal(s) == Some(1)) {
                        out.push(LoopDim {
                            lo,
                            hi,
                            stride: None,
                        });
                    } else {
                        out.push(LoopDim { lo, hi, stride });
                    }
                }
                _ => {
                    if self.rank(s)? != 0 {
                        return Err(self.err(
                            s.span,
                            "vector subscripts (an array as a subscript) are not supported".into(),
                            "index the array element by element in a DO loop",
                        ));
                    }
                }
            }
        }
        Ok(out)
    }

    /// The dimensions of an array expression; empty for a scalar.
    fn dims_of(&self, e: &Expr) -> R<Vec<LoopDim>> {
        match &e.kind {
            ExprKind::Var(n) if is_array_name(&self.symbols, n) => self.decl_dims(n, e.span),
            ExprKind::Index(n, subs) => self.section_dims(n, subs, e.span),
            ExprKind::ArrayCtor(items) => {
                Ok(vec![LoopDim::from_one(Expr::int(items.len() as i64))])
            }
            ExprKind::Paren(x) | ExprKind::Unary(_, x) => self.dims_of(x),
            ExprKind::Binary(_, a, b) => {
                let da = self.dims_of(a)?;
                let db = self.dims_of(b)?;
                if !da.is_empty() && !db.is_empty() && da.len() != db.len() {
                    return Err(self.err(
                        e.span,
                        format!("the operands have ranks {} and {}", da.len(), db.len()),
                        "operands of an array operation must have the same shape",
                    ));
                }
                Ok(if da.is_empty() { db } else { da })
            }
            ExprKind::Range { .. } => Err(self.err(
                e.span,
                "a subscript triplet is only allowed as a subscript".into(),
                "write it inside an array reference, e.g. `a(1:n)`",
            )),
            ExprKind::Intrinsic { op, args, .. } => self.intrinsic_dims(*op, args, e.span),
            _ => Ok(Vec::new()),
        }
    }

    fn arg_dims(&self, args: &[Arg], i: usize, span: Span) -> R<Vec<LoopDim>> {
        match args.get(i) {
            Some(a) => self.dims_of(&a.value),
            None => Err(self.err(
                span,
                "an argument is missing".into(),
                "see the intrinsic's arguments",
            )),
        }
    }

    fn intrinsic_dims(&self, op: Intrinsic, args: &[Arg], span: Span) -> R<Vec<LoopDim>> {
        match op {
            Intrinsic::Size => Ok(Vec::new()),
            Intrinsic::Lbound | Intrinsic::Ubound if args.len() == 2 => Ok(Vec::new()),
            Intrinsic::Lbound | Intrinsic::Ubound | Intrinsic::Shape => Err(self.err(
                span,
                "array-valued LBOUND, UBOUND and SHAPE are not supported here".into(),
                "give the dimension, e.g. `lbound(a, 1)`, or use SHAPE only as the shape of RESHAPE",
            )),
            Intrinsic::Sum
            | Intrinsic::Product
            | Intrinsic::Maxval
            | Intrinsic::Minval
            | Intrinsic::Maxloc
            | Intrinsic::Minloc => {
                let red = self.reduction_args(op, args, span)?;
                let mut d = self.dims_of(&red.array)?;
                match red.dim {
                    None if matches!(op, Intrinsic::Maxloc | Intrinsic::Minloc) => Err(self.err(
                        span,
                        "MAXLOC and MINLOC without DIM (an array of one index per dimension) are not supported".into(),
                        "give DIM, e.g. `maxloc(x, dim=1)` for a rank-1 `x`",
                    )),
                    None => Ok(Vec::new()),
                    Some(k) => {
                        d.remove(k - 1);
                        Ok(d)
                    }
                }
            }
            Intrinsic::DotProduct => Ok(Vec::new()),
            Intrinsic::Matmul => {
                let a = self.arg_dims(args, 0, span)?;
                let b = self.arg_dims(args, 1, span)?;
                match (a.len(), b.len()) {
                    (2, 2) => Ok(vec![a[0].clone(), b[1].clone()]),
                    (1, 2) => Ok(vec![b[1].clone()]),
                    (2, 1) => Ok(vec![a[0].clone()]),
                    _ => Err(self.err(span, "MATMUL needs arrays of rank 1 or 2, at least one of rank 2".into(), "check the arguments of MATMUL")),
                }
            }
            Intrinsic::Transpose => {
                let a = self.arg_dims(args, 0, span)?;
                if a.len() != 2 {
                    return Err(self.err(span, "TRANSPOSE needs an array of rank 2".into(), "check the argument of TRANSPOSE"));
                }
                Ok(vec![a[1].clone(), a[0].clone()])
            }
            Intrinsic::Spread => {
                let (source, dim, ncopies) = self.spread_args(args, span)?;
                let mut d = self.dims_of(source)?;
                if dim > d.len() + 1 {
                    return Err(self.err(span, "DIM of SPREAD is larger than the rank of the result".into(), "check the arguments of SPREAD"));
                }
                d.insert(dim - 1, LoopDim::from_one(ncopies.clone()));
                Ok(d)
            }
            Intrinsic::Reshape => {
                let extents = self.reshape_extents(args, span)?;
                Ok(extents.into_iter().map(LoopDim::from_one).collect())
            }
            _ => {
                // Elementwise: the shape of the first array argument.
                for a in args {
                    if matches!(a.keyword.as_deref().map(key).as_deref(), Some("kind")) {
                        continue;
                    }
                    let d = self.dims_of(&a.value)?;
                    if !d.is_empty() {
                        return Ok(d);
                    }
                }
                Ok(Vec::new())
            }
        }
    }

    fn dim_value(&self, e: &Expr) -> R<usize> {
        match int_literal(e) {
            Some(v) if v >= 1 => Ok(v as usize),
            _ => Err(self.err(
                e.span,
                "DIM must be an integer constant here".into(),
                "write the dimension as a literal, e.g. `dim=2`",
            )),
        }
    }

    fn reduction_args(&self, op: Intrinsic, args: &[Arg], span: Span) -> R<Reduction> {
        let mut array = None;
        let mut dim = None;
        let mut mask = None;
        let mut positional = 0;
        for a in args {
            let slot = match a.keyword.as_deref().map(key).as_deref() {
                Some("array") => 0,
                Some("dim") => 1,
                Some("mask") => 2,
                Some("kind") | Some("back") => {
                    return Err(self.err(
                        span,
                        format!(
                            "the argument `{}=` of {op:?} is not supported",
                            a.keyword.clone().unwrap_or_default()
                        ),
                        "remove it",
                    ));
                }
                Some(_) => 3,
                None => {
                    positional += 1;
                    match positional {
                        1 => 0,
                        // `sum(x, mask)`: a logical second argument is the mask.
                        2 if self.type_of(&a.value) == ScalarType::Logical => 2,
                        2 => 1,
                        _ => 2,
                    }
                }
            };
            match slot {
                0 => array = Some(a.value.clone()),
                1 => dim = Some(self.dim_value(&a.value)?),
                2 => mask = Some(a.value.clone()),
                _ => {
                    return Err(self.err(
                        span,
                        "unknown keyword argument".into(),
                        "use ARRAY=, DIM= or MASK=",
                    ));
                }
            }
        }
        let Some(array) = array else {
            return Err(self.err(
                span,
                "the array argument is missing".into(),
                "give the array to reduce",
            ));
        };
        let rank = self.rank(&array)?;
        if rank == 0 {
            return Err(self.err(
                array.span,
                "the argument of a reduction must be an array".into(),
                "pass an array or a section",
            ));
        }
        if let Some(d) = dim
            && d > rank
        {
            return Err(self.err(
                span,
                format!("DIM={d} but the array has rank {rank}"),
                "check DIM",
            ));
        }
        Ok(Reduction { array, dim, mask })
    }

    fn dot_product_args(&self, args: &[Arg], span: Span) -> R<Reduction> {
        let (Some(a), Some(b)) = (args.first(), args.get(1)) else {
            return Err(self.err(
                span,
                "DOT_PRODUCT takes two vectors".into(),
                "give both vectors",
            ));
        };
        if self.rank(&a.value)? != 1 || self.rank(&b.value)? != 1 {
            return Err(self.err(
                span,
                "DOT_PRODUCT needs two arrays of rank 1".into(),
                "pass two vectors",
            ));
        }
        Ok(Reduction {
            array: Expr::binary(BinOp::Mul, paren(a.value.clone()), paren(b.value.clone())),
            dim: None,
            mask: None,
        })
    }

    fn spread_args<'e>(&self, args: &'e [Arg], span: Span) -> R<(&'e Expr, usize, &'e Expr)> {
        let mut parts: [Option<&Expr>; 3] = [None; 3];
        let mut positional = 0;
        for a in args {
            let slot = match a.keyword.as_deref().map(key).as_deref() {
                Some("source") => 0,
                Some("dim") => 1,
                Some("ncopies") => 2,
                _ => {
                    positional += 1;
                    positional - 1
                }
            };
            if slot < 3 {
                parts[slot] = Some(&a.value);
            }
        }
        match parts {
            [Some(s), Some(d), Some(n)] => Ok((s, self.dim_value(d)?, n)),
            _ => Err(self.err(
                span,
                "SPREAD takes SOURCE, DIM and NCOPIES".into(),
                "give all three",
            )),
        }
    }

    fn reshape_extents(&self, args: &[Arg], span: Span) -> R<Vec<Expr>> {
        if args.iter().any(|a| {
            a.keyword
                .as_deref()
                .is_some_and(|k| !matches!(key(k).as_str(), "source" | "shape"))
        }) {
            return Err(self.err(
                span,
                "RESHAPE with PAD or ORDER is not supported".into(),
                "give SOURCE and SHAPE only",
            ));
        }
        let shape = args
            .iter()
            .find(|a| a.keyword.as_deref().map(key).as_deref() == Some("shape"))
            .or_else(|| args.iter().filter(|a| a.keyword.is_none()).nth(1))
            .map(|a| &a.value);
        match shape.map(|s| &s.kind) {
            Some(ExprKind::ArrayCtor(items)) => Ok(items.clone()),
            Some(ExprKind::Intrinsic {
                op: Intrinsic::Shape,
                args: inner,
                ..
            }) if inner.len() == 1 => Ok(self
                .dims_of(&inner[0].value)?
                .iter()
                .map(LoopDim::extent)
                .collect()),
            _ => Err(self.err(
                span,
                "the SHAPE of RESHAPE must be written as a constructor, e.g. `[m, n]`, or as `shape(a)`".into(),
                "write the extents in a constructor",
            )),
        }
    }

    // ----- elements -----

    /// The element of `e` at 0-based `offsets` (one per dimension of `e`). Statements
    /// that must run first for this element (inner accumulations) go to `body`; loop
    /// indices from `depth` on are free.
    fn element(
        &mut self,
        e: &Expr,
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
    ) -> R<Expr> {
        if !self.has(e) {
            return Ok(e.clone());
        }
        let span = e.span;
        let at = |kind: ExprKind| Expr { kind, span };
        match &e.kind {
            ExprKind::Var(n) => {
                let dims = self.decl_dims(n, span)?;
                let subs = dims
                    .iter()
                    .zip(offsets)
                    .map(|(d, o)| d.index_at(o))
                    .collect();
                Ok(at(ExprKind::Index(n.clone(), subs)))
            }
            ExprKind::Index(n, subs) => {
                let dims = self.section_dims(n, subs, span)?;
                let mut ranges = dims.iter().zip(offsets);
                let mut out = Vec::with_capacity(subs.len());
                for s in subs {
                    if let ExprKind::Range { .. } = s.kind {
                        let (d, o) = ranges.next().expect("one offset per triplet");
                        out.push(d.index_at(o));
                    } else {
                        out.push(self.element(s, &[], depth, body)?);
                    }
                }
                Ok(at(ExprKind::Index(n.clone(), out)))
            }
            ExprKind::ArrayCtor(items) => {
                if let Some(k) = offsets.first().and_then(int_literal)
                    && let Some(item) = usize::try_from(k).ok().and_then(|k| items.get(k))
                {
                    if self.rank(item)? != 0 {
                        return Err(self.ctor_item_error(item));
                    }
                    return self.element(item, &[], depth, body);
                }
                let name = self.hoist_ctor(items)?;
                let off = offsets.first().cloned().unwrap_or_else(|| Expr::int(0));
                let index = simplify(&Expr::binary(BinOp::Add, off, Expr::int(1)));
                Ok(at(ExprKind::Index(name, vec![index])))
            }
            ExprKind::Paren(x) => Ok(at(ExprKind::Paren(Box::new(
                self.element(x, offsets, depth, body)?,
            )))),
            ExprKind::Unary(op, x) => Ok(at(ExprKind::Unary(
                *op,
                Box::new(self.element(x, offsets, depth, body)?),
            ))),
            ExprKind::Binary(op, a, b) => {
                let ea = self.operand(a, offsets, depth, body)?;
                let eb = self.operand(b, offsets, depth, body)?;
                Ok(at(ExprKind::Binary(*op, Box::new(ea), Box::new(eb))))
            }
            ExprKind::Call(name, _) => Err(self.err(
                span,
                format!(
                    "an array expression as an argument of the function `{name}` is not supported"
                ),
                "assign the argument to an array variable first and pass that variable",
            )),
            ExprKind::Range { .. } => Err(self.err(
                span,
                "a subscript triplet is only allowed as a subscript".into(),
                "write it inside an array reference, e.g. `a(1:n)`",
            )),
            ExprKind::Intrinsic { op, args, spelling } => {
                self.intrinsic_element(*op, args, spelling, offsets, depth, body, span)
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {
                Ok(e.clone())
            }
        }
    }

    /// An operand of an elementwise operation: a scalar is broadcast.
    fn operand(
        &mut self,
        e: &Expr,
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
    ) -> R<Expr> {
        if self.rank(e)? == 0 {
            self.element(e, &[], depth, body)
        } else {
            self.element(e, offsets, depth, body)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn intrinsic_element(
        &mut self,
        op: Intrinsic,
        args: &[Arg],
        spelling: &Option<String>,
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Expr> {
        match op {
            Intrinsic::Sum
            | Intrinsic::Product
            | Intrinsic::Maxval
            | Intrinsic::Minval
            | Intrinsic::Maxloc
            | Intrinsic::Minloc
            | Intrinsic::DotProduct => {
                let (red, op) = if op == Intrinsic::DotProduct {
                    (self.dot_product_args(args, span)?, Intrinsic::Sum)
                } else {
                    (self.reduction_args(op, args, span)?, op)
                };
                if red.dim.is_none() {
                    // Independent of the element: computed once, before the statement.
                    let mut pre = Vec::new();
                    let value = self.reduction(op, &red, &[], 0, &mut pre, None, span)?;
                    self.before.extend(pre);
                    Ok(value)
                } else {
                    self.reduction(op, &red, offsets, depth, body, None, span)
                }
            }
            Intrinsic::Matmul => self.matmul_element(args, offsets, depth, body, span),
            Intrinsic::Transpose => {
                let swapped = [offsets[1].clone(), offsets[0].clone()];
                self.element(&args[0].value, &swapped, depth, body)
            }
            Intrinsic::Spread => {
                let (source, dim, _) = self.spread_args(args, span)?;
                let mut inner = offsets.to_vec();
                inner.remove(dim - 1);
                let source = source.clone();
                self.operand(&source, &inner, depth, body)
            }
            Intrinsic::Reshape => {
                let extents = self.reshape_extents(args, span)?;
                let source = args
                    .iter()
                    .find(|a| a.keyword.as_deref().map(key).as_deref() == Some("source"))
                    .or_else(|| args.iter().find(|a| a.keyword.is_none()))
                    .map(|a| a.value.clone())
                    .ok_or_else(|| {
                        self.err(
                            span,
                            "RESHAPE needs SOURCE".into(),
                            "give the array to reshape",
                        )
                    })?;
                // Column-major linear position, then the source's offsets.
                let mut linear_pos = Expr::int(0);
                let mut stride = Expr::int(1);
                for (o, ext) in offsets.iter().zip(&extents) {
                    linear_pos = simplify(&Expr::binary(
                        BinOp::Add,
                        linear_pos,
                        Expr::binary(BinOp::Mul, paren(o.clone()), paren(stride.clone())),
                    ));
                    stride = simplify(&Expr::binary(BinOp::Mul, paren(stride), paren(ext.clone())));
                }
                let sdims = self.dims_of(&source)?;
                let mut soffs = Vec::new();
                let mut below = Expr::int(1);
                for (j, d) in sdims.iter().enumerate() {
                    let ext = d.extent();
                    let quotient = if int_literal(&below) == Some(1) {
                        linear_pos.clone()
                    } else {
                        Expr::binary(BinOp::Div, paren(linear_pos.clone()), paren(below.clone()))
                    };
                    soffs.push(if j + 1 == sdims.len() {
                        quotient
                    } else {
                        Expr::intrinsic(Intrinsic::Mod, vec![quotient, ext.clone()])
                    });
                    below = simplify(&Expr::binary(BinOp::Mul, paren(below), paren(ext)));
                }
                self.element(&source, &soffs, depth, body)
            }
            Intrinsic::Size | Intrinsic::Lbound | Intrinsic::Ubound | Intrinsic::Shape => Err(self
                .err(
                    span,
                    "this inquiry is not supported in an array expression".into(),
                    "give the dimension, e.g. `size(a, 1)`",
                )),
            _ => {
                // Elementwise intrinsic.
                let mut out = Vec::with_capacity(args.len());
                for a in args {
                    let value = self.operand(&a.value, offsets, depth, body)?;
                    out.push(Arg {
                        keyword: a.keyword.clone(),
                        value,
                    });
                }
                Ok(Expr {
                    kind: ExprKind::Intrinsic {
                        op,
                        args: out,
                        spelling: spelling.clone(),
                    },
                    span,
                })
            }
        }
    }

    fn hoist_ctor(&mut self, items: &[Expr]) -> R<String> {
        let ty = items
            .iter()
            .map(|i| self.type_of(i))
            .reduce(promote)
            .unwrap_or(ScalarType::Real(4));
        let name = self.namer.fresh("arr");
        self.add_local(
            &name,
            ty,
            vec![DimSpec {
                lower: None,
                upper: Bound::Expr(Expr::int(items.len() as i64)),
            }],
        );
        for (k, item) in items.iter().enumerate() {
            if self.rank(item)? != 0 {
                return Err(self.ctor_item_error(item));
            }
            let mut pre = Vec::new();
            let value = self.element(item, &[], 0, &mut pre)?;
            self.before.extend(pre);
            let target = Expr::new(ExprKind::Index(name.clone(), vec![Expr::int(k as i64 + 1)]));
            let s = self.assign(target, value);
            self.before.push(s);
        }
        Ok(name)
    }

    fn zero(ty: ScalarType) -> Expr {
        match ty {
            ScalarType::Real(k) => Expr::real("0.0", k),
            _ => Expr::int(0),
        }
    }

    fn one(ty: ScalarType) -> Expr {
        match ty {
            ScalarType::Real(k) => Expr::real("1.0", k),
            _ => Expr::int(1),
        }
    }

    /// Emits into `out` the loops of a reduction and returns the expression holding its
    /// value (`into` when given). `outer` are the offsets of the dimensions not reduced.
    #[allow(clippy::too_many_arguments)]
    fn reduction(
        &mut self,
        op: Intrinsic,
        red: &Reduction,
        outer: &[Expr],
        depth: usize,
        out: &mut Vec<Stmt>,
        into: Option<Expr>,
        span: Span,
    ) -> R<Expr> {
        let adims = self.dims_of(&red.array)?;
        let rank = adims.len();
        let reduced: Vec<usize> = match red.dim {
            Some(d) => vec![d - 1],
            None => (0..rank).collect(),
        };
        let is_loc = matches!(op, Intrinsic::Maxloc | Intrinsic::Minloc);
        let is_extremum = matches!(op, Intrinsic::Maxval | Intrinsic::Minval) || is_loc;
        if is_extremum && red.mask.is_some() {
            return Err(self.err(
                span,
                "MAXVAL, MINVAL, MAXLOC and MINLOC with MASK are not supported".into(),
                "apply the mask with MERGE or an IF in a DO loop",
            ));
        }
        let ty = self.type_of(&red.array);
        // Offsets of every dimension of the array: the outer ones, then the loop's.
        let mut full: Vec<Option<Expr>> = vec![None; rank];
        let mut outer_it = outer.iter();
        for (k, slot) in full.iter_mut().enumerate() {
            if !reduced.contains(&k) {
                *slot = outer_it.next().cloned();
            }
        }
        let mut vars = Vec::new();
        for (j, &k) in reduced.iter().enumerate() {
            let v = self.loop_var(depth + j);
            full[k] = Some(adims[k].offset(&v));
            vars.push(v);
        }
        let full: Vec<Expr> = full
            .into_iter()
            .map(|o| o.unwrap_or_else(|| Expr::int(0)))
            .collect();
        let inner_depth = depth + reduced.len();
        let mut inner = Vec::new();
        let value = self.element(&red.array, &full, inner_depth, &mut inner)?;
        let mask = match &red.mask {
            Some(m) if self.rank(m)? == 0 => Some(self.element(m, &[], inner_depth, &mut inner)?),
            Some(m) => Some(self.element(m, &full, inner_depth, &mut inner)?),
            None => None,
        };
        let base = match op {
            Intrinsic::Sum => "total",
            Intrinsic::Product => "prod",
            Intrinsic::Maxval => "vmax",
            Intrinsic::Minval => "vmin",
            Intrinsic::Maxloc => "imax",
            _ => "imin",
        };
        let first = || -> Vec<Expr> {
            let mut f = full.clone();
            for &k in &reduced {
                f[k] = Expr::int(0);
            }
            f
        };
        let (acc, update) = if is_loc {
            let best = self.temp(
                if op == Intrinsic::Maxloc {
                    "vmax"
                } else {
                    "vmin"
                },
                ty,
            );
            let loc = match into {
                Some(e) => e,
                None => Expr::var(self.temp(base, ScalarType::Integer(4))),
            };
            let mut pre = Vec::new();
            let first_value = self.element(&red.array, &first(), depth, &mut pre)?;
            out.extend(pre);
            out.push(self.assign(Expr::var(&best), first_value));
            out.push(self.assign(loc.clone(), Expr::int(1)));
            let cmp = if op == Intrinsic::Maxloc {
                BinOp::Gt
            } else {
                BinOp::Lt
            };
            let k = reduced[0];
            let position = simplify(&Expr::binary(BinOp::Add, full[k].clone(), Expr::int(1)));
            let then = vec![
                self.assign(Expr::var(&best), value.clone()),
                self.assign(loc.clone(), position),
            ];
            let update = self.new_stmt(StmtKind::If {
                arms: vec![(Expr::binary(cmp, value, Expr::var(&best)), then)],
                else_body: None,
                logical_if: false,
                name: None,
            });
            (loc, update)
        } else {
            let acc = match into {
                Some(e) => e,
                None => Expr::var(self.temp(base, ty)),
            };
            let init = match op {
                Intrinsic::Sum => Self::zero(ty),
                Intrinsic::Product => Self::one(ty),
                _ => {
                    let mut pre = Vec::new();
                    let v = self.element(&red.array, &first(), depth, &mut pre)?;
                    out.extend(pre);
                    v
                }
            };
            out.push(self.assign(acc.clone(), init));
            let new_value = match op {
                Intrinsic::Sum => Expr::binary(BinOp::Add, acc.clone(), paren_sum(value)),
                Intrinsic::Product => Expr::binary(BinOp::Mul, acc.clone(), paren_product(value)),
                Intrinsic::Maxval => Expr::intrinsic(Intrinsic::Max, vec![acc.clone(), value]),
                _ => Expr::intrinsic(Intrinsic::Min, vec![acc.clone(), value]),
            };
            let mut update = self.assign(acc.clone(), new_value);
            if let Some(mask) = mask {
                update = self.new_stmt(StmtKind::If {
                    arms: vec![(mask, vec![update])],
                    else_body: None,
                    logical_if: true,
                    name: None,
                });
            }
            (acc, update)
        };
        inner.push(update);
        let mut nest = inner;
        for (j, &k) in reduced.iter().enumerate() {
            let l = self.do_loop(&vars[j], &adims[k], false, nest);
            nest = vec![l];
        }
        out.extend(nest);
        Ok(acc)
    }

    fn matmul_element(
        &mut self,
        args: &[Arg],
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Expr> {
        let (a, b) = (args[0].value.clone(), args[1].value.clone());
        let da = self.dims_of(&a)?;
        let db = self.dims_of(&b)?;
        let inner_dim = da.last().cloned().ok_or_else(|| {
            self.err(
                span,
                "MATMUL needs arrays".into(),
                "check the arguments of MATMUL",
            )
        })?;
        let v = self.loop_var(depth);
        let k = inner_dim.offset(&v);
        let (a_offs, b_offs) = match (da.len(), db.len()) {
            (2, 2) => (
                vec![offsets[0].clone(), k.clone()],
                vec![k, offsets[1].clone()],
            ),
            (1, 2) => (vec![k.clone()], vec![k, offsets[0].clone()]),
            _ => (vec![offsets[0].clone(), k.clone()], vec![k]),
        };
        let ty = promote(self.type_of(&a), self.type_of(&b));
        let acc = self.temp("mm", ty);
        let mut inner = Vec::new();
        let ea = self.element(&a, &a_offs, depth + 1, &mut inner)?;
        let eb = self.element(&b, &b_offs, depth + 1, &mut inner)?;
        body.push(self.assign(Expr::var(&acc), Self::zero(ty)));
        let product = Expr::binary(BinOp::Mul, paren_product(ea), paren_product(eb));
        let update = self.assign(
            Expr::var(&acc),
            Expr::binary(BinOp::Add, Expr::var(&acc), product),
        );
        inner.push(update);
        let l = self.do_loop(&v, &inner_dim, false, inner);
        body.push(l);
        Ok(Expr::var(acc))
    }
}

/// `acc + (a - b)`: the back-end needs no parentheses for a sum on the right of `+`
/// except to keep the reading order; keep them for subtractions only.
fn paren_sum(e: Expr) -> Expr {
    match &e.kind {
        ExprKind::Binary(BinOp::Sub, _, _) => Expr::new(ExprKind::Paren(Box::new(e))),
        _ => e,
    }
}

fn paren_product(e: Expr) -> Expr {
    match &e.kind {
        ExprKind::Binary(BinOp::Add | BinOp::Sub, _, _) => Expr::new(ExprKind::Paren(Box::new(e))),
        _ => e,
    }
}

/// References to array `name` in `e` (element references, and the whole array passed
/// anywhere but to an inquiry).
fn refs_to(e: &Expr, name: &str, out: &mut Vec<Expr>) {
    match &e.kind {
        ExprKind::Index(n, subs) => {
            if key(n) == key(name) {
                out.push(e.clone());
            }
            subs.iter().for_each(|s| refs_to(s, name, out));
        }
        ExprKind::Var(n) if key(n) == key(name) => out.push(e.clone()),
        ExprKind::Intrinsic { op, args, .. } => {
            let skip = matches!(op, Intrinsic::Size | Intrinsic::Lbound | Intrinsic::Ubound);
            for a in args.iter().skip(usize::from(skip)) {
                refs_to(&a.value, name, out);
            }
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| refs_to(&a.value, name, out)),
        ExprKind::Unary(_, x) | ExprKind::Paren(x) => refs_to(x, name, out),
        ExprKind::Binary(_, a, b) => {
            refs_to(a, name, out);
            refs_to(b, name, out);
        }
        ExprKind::ArrayCtor(items) => items.iter().for_each(|x| refs_to(x, name, out)),
        _ => {}
    }
}

/// Every name of the statements' expressions, assigned variables and DO variables.
fn stmt_names(s: &Stmt) -> Vec<String> {
    let mut out: Vec<String> = crate::il::visit::stmt_exprs(s)
        .into_iter()
        .flat_map(crate::il::visit::names_read)
        .map(key)
        .collect();
    match &s.kind {
        StmtKind::Assign { lhs, .. } => {
            if let Some(n) = lhs.base_name() {
                out.push(key(n));
            }
        }
        StmtKind::Do { var, .. } => out.push(key(var)),
        StmtKind::Forall { indices, .. } => out.extend(indices.iter().map(|ix| key(&ix.var))),
        _ => {}
    }
    out
}

/// Names used where no enclosing DO, FORALL or DO CONCURRENT binds them.
fn free_uses(body: &[Stmt]) -> BTreeSet<String> {
    fn walk(stmts: &[Stmt], bound: &mut Vec<String>, out: &mut BTreeSet<String>) {
        for s in stmts {
            let binds: Vec<String> = match &s.kind {
                StmtKind::Do { var, .. } => vec![key(var)],
                StmtKind::Forall { indices, .. } => indices.iter().map(|ix| key(&ix.var)).collect(),
                _ => Vec::new(),
            };
            for n in stmt_names(s) {
                if !bound.contains(&n) && !binds.contains(&n) {
                    out.insert(n);
                }
            }
            let depth = bound.len();
            bound.extend(binds);
            for child in crate::il::visit::child_blocks(s) {
                walk(child, bound, out);
            }
            bound.truncate(depth);
        }
    }
    let mut out = BTreeSet::new();
    walk(body, &mut Vec::new(), &mut out);
    out
}

fn rename_expr(e: &mut Expr, from: &str, to: &str) {
    match &mut e.kind {
        ExprKind::Var(n) => {
            if key(n) == key(from) {
                *n = to.to_string();
            }
        }
        ExprKind::Index(_, subs) => subs.iter_mut().for_each(|s| rename_expr(s, from, to)),
        ExprKind::Call(_, args) | ExprKind::Intrinsic { args, .. } => args
            .iter_mut()
            .for_each(|a| rename_expr(&mut a.value, from, to)),
        ExprKind::Unary(_, x) | ExprKind::Paren(x) => rename_expr(x, from, to),
        ExprKind::Binary(_, a, b) => {
            rename_expr(a, from, to);
            rename_expr(b, from, to);
        }
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => {
            for p in [lower, upper, stride].into_iter().flatten() {
                rename_expr(p, from, to);
            }
        }
        ExprKind::ArrayCtor(items) => items.iter_mut().for_each(|x| rename_expr(x, from, to)),
        ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
    }
}

/// Renames variable `from` (a scalar index) in every expression of `stmts`.
fn rename_stmts(stmts: &mut [Stmt], from: &str, to: &str) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::Assign { lhs, rhs } => {
                rename_expr(lhs, from, to);
                rename_expr(rhs, from, to);
            }
            StmtKind::If {
                arms, else_body, ..
            }
            | StmtKind::Where {
                arms, else_body, ..
            } => {
                for (c, b) in arms.iter_mut() {
                    rename_expr(c, from, to);
                    rename_stmts(b, from, to);
                }
                if let Some(b) = else_body {
                    rename_stmts(b, from, to);
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
                if key(var) == key(from) {
                    *var = to.to_string();
                }
                rename_expr(start, from, to);
                rename_expr(end, from, to);
                if let Some(st) = step {
                    rename_expr(st, from, to);
                }
                rename_stmts(body, from, to);
            }
            StmtKind::DoWhile { cond, body, .. } => {
                rename_expr(cond, from, to);
                rename_stmts(body, from, to);
            }
            StmtKind::Call { args, .. } => args
                .iter_mut()
                .for_each(|a| rename_expr(&mut a.value, from, to)),
            StmtKind::Forall {
                indices,
                mask,
                body,
                ..
            } => {
                for ix in indices.iter_mut() {
                    if key(&ix.var) == key(from) {
                        ix.var = to.to_string();
                    }
                    rename_expr(&mut ix.lower, from, to);
                    rename_expr(&mut ix.upper, from, to);
                    if let Some(st) = &mut ix.stride {
                        rename_expr(st, from, to);
                    }
                }
                if let Some(m) = mask {
                    rename_expr(m, from, to);
                }
                rename_stmts(body, from, to);
            }
            _ => {}
        }
    }
}
