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
//! direction does (or the offset is not constant) the statement is refused (E0414) and the
//! user asked for a temporary. Everything this pass cannot rewrite is refused with its
//! location, never differentiated wrongly.

use std::collections::BTreeSet;

use crate::diag::{Diagnostic, Span};
use crate::il::types::{TypeRules, expr_type, promote};
use crate::il::{
    Arg, BinOp, Bound, Decl, DeclKind, DimSpec, Entity, Expr, ExprKind, Intrinsic, Program,
    ScalarType, Stmt, StmtId, StmtKind, Symbol, SymbolTable, TypeSpec, UnOp, Unit, key,
};

use crate::il::names::Namer;

mod alloc;
mod array_calls;
mod assign;
mod constructs;
mod derived;
mod element;
mod elemental;
mod for_caller;
mod implied_do;
mod logical;
mod module_heap;
mod move_alloc;
mod pack;
pub(super) mod shape;
mod shift;
#[cfg(test)]
mod tests;

use alloc::allocatables_to_automatic;
use constructs::free_uses;
use shape::{LoopDim, constant_difference, int_literal, paren, simplify};

/// The code of every refusal of this pass.
const CODE: &str = "E0414";

type R<T> = Result<T, Diagnostic>;

/// Returns the program with array syntax rewritten into loops, or the located reasons it
/// could not be. Units without array syntax are left untouched.
pub fn scalarize(program: Program) -> Result<Program, Vec<Diagnostic>> {
    let mut program = program;
    let mut next_id = max_stmt_id(&program) + 1;
    let mut diags = Vec::new();
    // MOVE_ALLOC first, in every unit: the callers read their callees' allocations.
    for file in &mut program.files {
        for unit in &mut file.units {
            if move_alloc::calls_move_alloc(unit) {
                diags.extend(move_alloc::lower(unit, &mut next_id));
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    diags.extend(module_heap::mark(&mut program));
    if !diags.is_empty() {
        return Err(diags);
    }
    // The units to change are changed in copies, while the program is read for the
    // procedures they call; a unit with neither array syntax nor a derived-type
    // variable is left as it is.
    let mut changed = Vec::new();
    {
        let index = program.index();
        for (f, file) in program.files.iter().enumerate() {
            for (u, unit) in file.units.iter().enumerate() {
                let derived = unit.symbols.iter().any(|s| s.type_spec.type_name.is_some());
                if !derived
                    && !unit_has_array_syntax(unit)
                    && !elemental::applies_elemental(
                        unit,
                        &elemental::elemental_procedures(unit, &index),
                    )
                {
                    continue;
                }
                let mut unit = unit.clone();
                diags.extend(derived::split_derived_assignments(&mut unit, &mut next_id));
                let elemental = elemental::elemental_procedures(&unit, &index);
                if unit_has_array_syntax(&unit) || elemental::applies_elemental(&unit, &elemental) {
                    scalarize_unit(&mut unit, &index, &mut next_id, &mut diags);
                }
                changed.push((f, u, unit));
            }
        }
    }
    let mut out = program;
    for (f, u, unit) in changed {
        out.files[f].units[u] = unit;
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
    // ALLOCATABLE arrays and components (which a callee may allocate, with no ALLOCATE
    // here) have their lifetimes checked and their DEALLOCATEs made explicit (`alloc`).
    let mut found = unit.decls.iter().any(|d| {
        matches!(&d.kind, DeclKind::Var { attrs, .. } if attrs.iter().any(|a| matches!(a, crate::il::Attr::Allocatable)))
    }) || unit
        .symbols
        .iter()
        .any(|s| s.name.contains('%') && s.is_local_allocatable())
        || move_alloc::calls_move_alloc(unit);
    crate::il::visit::walk_stmts(&unit.body, &mut |s| {
        let exprs: Vec<&Expr> = match &s.kind {
            StmtKind::Assign { lhs, rhs } => vec![lhs, rhs],
            StmtKind::Where { .. }
            | StmtKind::Forall { .. }
            | StmtKind::Allocate(_)
            | StmtKind::Deallocate(_) => {
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
        ExprKind::ArrayCtor(_) | ExprKind::ImpliedDo(_) | ExprKind::Range { .. } => true,
        // An array-valued function's call is an array (its symbol has the result's
        // dimensions).
        ExprKind::Call(name, args) => {
            symbols
                .get(name)
                .is_some_and(|f| f.kind == crate::il::SymbolKind::Procedure && f.is_array())
                || args
                    .iter()
                    .any(|a| has_array_syntax(&a.value, symbols, true))
        }
        ExprKind::Intrinsic { op, args, .. } => match op {
            Intrinsic::Present => false,
            Intrinsic::Passive(p) if p.reduction && logical::has_dim(args) => true,
            Intrinsic::Passive(p) if p.inquiry || p.reduction => false,
            // Without DIM, LBOUND and UBOUND give one bound per dimension.
            Intrinsic::Lbound | Intrinsic::Ubound if args.len() == 1 => true,
            Intrinsic::Size | Intrinsic::Lbound | Intrinsic::Ubound => args
                .iter()
                .skip(1)
                .any(|a| has_array_syntax(&a.value, symbols, false)),
            op if op.is_array_valued_or_reduction() => true,
            _ => args.iter().any(|a| rec(&a.value)),
        },
        ExprKind::Unary(_, x) | ExprKind::Paren(x) => rec(x),
        ExprKind::Binary(_, a, b) => rec(a) || rec(b),
        ExprKind::Substring { base, lower, upper } => {
            has_array_syntax(base, symbols, actual)
                || [lower, upper].into_iter().flatten().any(|x| rec(x))
        }
        ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => false,
    }
}
// ----- the pass -----

fn scalarize_unit(
    unit: &mut Unit,
    program: &crate::il::UnitIndex,
    next_id: &mut u32,
    diags: &mut Vec<Diagnostic>,
) {
    let namer = Namer::with_shared(
        program.names(),
        unit.symbols.iter().map(|s| s.name.as_str()),
    );
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
        // A callee may assign any argument but those it declares INTENT(IN).
        StmtKind::Call { name, args } => {
            let callee = program.unit(name);
            for (i, a) in args.iter().enumerate() {
                let read_only = a.keyword.is_none()
                    && callee
                        .and_then(|u| u.args.get(i))
                        .and_then(|d| callee.and_then(|u| u.symbols.get(d)))
                        .is_some_and(|s| s.intent == Some(crate::il::Intent::In));
                if let (Some(n), false) = (a.value.base_name(), read_only) {
                    assigned.insert(key(n));
                }
            }
        }
        _ => {}
    });
    let kept = match allocatables_to_automatic(unit, &assigned, program) {
        Ok(kept) => kept,
        Err(d) => {
            diags.extend(d);
            return;
        }
    };
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
        in_elementwise: false,
        array_functions: array_calls::array_functions(unit, program),
        elemental: elemental::elemental_procedures(unit, program),
        allocatable_dummies: unit
            .args
            .iter()
            .filter(|a| unit.declares_allocatable(a))
            .map(|a| key(a))
            .collect(),
    };
    let body = std::mem::take(&mut unit.body);
    let body = sc.kept_allocations(body, &kept, program);
    unit.body = sc.block(body);
    // What no rule above rewrote (array syntax inside a construct this pass does not
    // enter) is refused, never handed to the differentiator.
    if sc.diags.is_empty() {
        let symbols = &sc.symbols;
        crate::il::visit::walk_stmts(&unit.body, &mut |s| {
            if let Some(span) = leftover_array_syntax(s, symbols) {
                sc.diags.push(
                    Diagnostic::error(
                        CODE,
                        "array syntax in this statement is not supported here yet",
                    )
                    .at(span)
                    .with_help(
                        "move the array statement out of this construct, or write it as a DO loop",
                    ),
                );
            }
        });
    }
    for symbol in sc.new_locals {
        let dims = (!symbol.dims.is_empty()).then(|| symbol.dims.clone());
        // A temporary whose extents the procedure computes is ALLOCATABLE.
        let attrs = if symbol.is_local_allocatable() {
            vec![crate::il::Attr::Allocatable]
        } else {
            Vec::new()
        };
        unit.decls.push(Decl {
            kind: DeclKind::Var {
                spec: symbol.type_spec.clone(),
                attrs,
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
    /// Evaluating a scalar operand broadcast inside an elementwise loop: a function
    /// call there is made once, before the statement.
    in_elementwise: bool,
    /// The array-valued functions the unit calls.
    array_functions: array_calls::ArrayFunctions,
    /// The ELEMENTAL procedures the unit calls.
    elemental: BTreeSet<String>,
    /// The ALLOCATABLE dummies (keys): their bounds are the caller's, not `1:size`.
    allocatable_dummies: BTreeSet<String>,
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
            start: Box::new(start),
            end: Box::new(end),
            step: step.map(Box::new),
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
            || elemental::has_elemental_array_call(e, &self.elemental, &self.symbols)
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
            StmtKind::Call { name, args }
                if elemental::is_elemental_call(name, args, &self.elemental, &self.symbols) =>
            {
                let (name, args) = (name.clone(), args.clone());
                match self.elemental_subroutine_call(&name, &args) {
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
                // The conditions' hoisted reductions run before the IF: the blocks of
                // its arms must not take them as their own (`if (sum(x) < s) return`
                // lost its accumulation loop into the arm, a logical IF's only
                // statement).
                let mut r = Ok(());
                for (cond, body) in arms.iter_mut() {
                    if r.is_ok() {
                        r = self.scalar_in_place(cond);
                    }
                    let before = std::mem::take(&mut self.before);
                    *body = self.block(std::mem::take(body));
                    self.before = before;
                }
                if let Some(b) = else_body {
                    let before = std::mem::take(&mut self.before);
                    *b = self.block(std::mem::take(b));
                    self.before = before;
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
                        Ok(_) => self.array_argument(&a.value).map(|t| a.value = t),
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

    /// An array expression passed as an actual argument: evaluated before the statement
    /// into a temporary array, which is passed instead (the callee may not assign an
    /// expression argument, so nothing is copied back).
    fn array_argument(&mut self, arg: &Expr) -> R<Expr> {
        let dims = self.dims_of(arg)?;
        let Some(tmp) = self.temporary_like(arg, &dims)? else {
            return Err(self.err(
                arg.span,
                "an array expression as an actual argument needs a temporary array whose size the procedure computes".into(),
                "assign it to an array variable first and pass that variable",
            ));
        };
        // `assignment` hands back what was hoisted so far, followed by its loops.
        let stmts = self.assignment(&Expr::var(&tmp), arg, None)?;
        self.before.extend(stmts);
        Ok(Expr {
            kind: ExprKind::Var(tmp),
            span: arg.span,
        })
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
}

/// `acc + (a - b)`: the back-end needs no parentheses for a sum on the right of `+`
/// except to keep the reading order; keep them for subtractions only.
pub(super) fn paren_sum(e: Expr) -> Expr {
    match &e.kind {
        ExprKind::Binary(BinOp::Sub, _, _) => Expr::new(ExprKind::Paren(Box::new(e))),
        _ => e,
    }
}

pub(super) fn paren_product(e: Expr) -> Expr {
    match &e.kind {
        ExprKind::Binary(BinOp::Add | BinOp::Sub, _, _) => Expr::new(ExprKind::Paren(Box::new(e))),
        _ => e,
    }
}

/// References to array `name` in `e` (element references, and the whole array passed
/// anywhere but to an inquiry).
pub(super) fn refs_to(e: &Expr, name: &str, out: &mut Vec<Expr>) {
    match &e.kind {
        ExprKind::Index(n, subs) => {
            if key(n) == key(name) {
                out.push(e.clone());
            }
            subs.iter().for_each(|s| refs_to(s, name, out));
        }
        ExprKind::Var(n) if key(n) == key(name) => out.push(e.clone()),
        ExprKind::Intrinsic { op, args, .. } => {
            if *op == Intrinsic::Present {
                return;
            }
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
pub(super) fn stmt_names(s: &Stmt) -> Vec<String> {
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

/// The span of `s` when it still holds array syntax after scalarization.
fn leftover_array_syntax(s: &Stmt, symbols: &SymbolTable) -> Option<Span> {
    let has = |e: &Expr| has_array_syntax(e, symbols, false);
    let plain = |e: &Expr| match &e.kind {
        ExprKind::Var(n) => is_array_name(symbols, n),
        ExprKind::Index(_, subs) => subs.iter().all(|x| match &x.kind {
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => [lower, upper, stride]
                .into_iter()
                .flatten()
                .all(|y| !has(y)),
            _ => !has(x),
        }),
        _ => false,
    };
    let bad = match &s.kind {
        StmtKind::Where { .. } | StmtKind::Forall { .. } => true,
        // Kept as written (an error message before a STOP): the compiler reads the
        // sections it prints, which only read values.
        StmtKind::Io { .. } => false,
        // Those of arrays kept allocatable (`alloc`) stay.
        StmtKind::Allocate(items) | StmtKind::Deallocate(items) => !items.iter().all(|e| {
            e.base_name()
                .is_some_and(|n| symbols.is_kept_allocatable(n))
        }),
        _ if array_calls::is_array_call_assignment(s, symbols) => false,
        StmtKind::Assign { lhs, rhs } => has(lhs) || has(rhs),
        StmtKind::Call { args, .. } => args.iter().any(|a| has(&a.value) && !plain(&a.value)),
        _ => crate::il::visit::stmt_exprs(s).into_iter().any(has),
    };
    bad.then_some(s.span)
}
