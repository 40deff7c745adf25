//! Calls of array-valued functions (`k(1, :) = h*func(x, y, m)`, F2018 15.5.3).
//!
//! The result's shape comes from the function's declaration of its result, in the names
//! of its dummies: those are replaced by the actual arguments (`func(m)` called with `m`
//! gives extent `m`). The call is made once, before the statement, into a temporary
//! array of that shape (`func_tmp = func(x, y, m)`, a whole-array assignment kept as
//! written: the differentiator gives it the tangent `func_tmpd = func_d(...)` and the
//! adjoint `call func_b(...)` of any function), and the statement reads the temporary
//! element by element. The temporary's size must be a specification expression here.

use std::collections::BTreeMap;

use super::*;

/// The array-valued functions a unit calls: key → (dummy names, result dimensions).
pub(super) type ArrayFunctions = BTreeMap<String, (Vec<String>, Vec<DimSpec>)>;

/// The array-valued functions of `program` that `unit` calls.
pub(super) fn array_functions(unit: &Unit, program: &crate::il::UnitIndex) -> ArrayFunctions {
    let mut out = ArrayFunctions::new();
    for name in crate::il::visit::called_names(unit) {
        let Some(callee) = program.unit(&name).filter(|u| u.is_function()) else {
            continue;
        };
        let Some(result) = callee.result.as_deref().and_then(|r| callee.symbols.get(r)) else {
            continue;
        };
        if result.is_array() {
            out.insert(key(&name), (callee.args.clone(), result.dims.clone()));
        }
    }
    out
}

/// Is `s` the assignment of an array-valued call to a whole array (`t = f(x)`), which
/// stays as written?
pub(super) fn is_array_call_assignment(s: &Stmt, symbols: &SymbolTable) -> bool {
    let StmtKind::Assign { lhs, rhs } = &s.kind else {
        return false;
    };
    let ExprKind::Call(name, args) = &rhs.kind else {
        return false;
    };
    matches!(&lhs.kind, ExprKind::Var(n) if is_array_name(symbols, n))
        && symbols
            .get(name)
            .is_some_and(|f| f.kind == crate::il::SymbolKind::Procedure && f.is_array())
        && args
            .iter()
            .all(|a| !has_array_syntax(&a.value, symbols, true))
}

impl Scalarizer<'_> {
    /// The shape of a call of an array-valued function; None for other calls.
    pub(super) fn call_dims(
        &self,
        name: &str,
        args: &[Arg],
        span: Span,
    ) -> R<Option<Vec<LoopDim>>> {
        let Some((dummies, dims)) = self.array_functions.get(crate::il::key_ref(name).as_ref())
        else {
            return Ok(None);
        };
        let actual = |dummy: &str| -> Option<Expr> {
            args.iter()
                .find(|a| a.keyword.as_deref().map(key).as_deref() == Some(&key(dummy)))
                .or_else(|| {
                    let k = dummies.iter().position(|d| key(d) == key(dummy))?;
                    args.get(k).filter(|a| a.keyword.is_none())
                })
                .map(|a| a.value.clone())
        };
        let mut missing = None;
        let mut substitute = |e: &Expr| {
            let mut out = e.clone();
            crate::il::visit::walk_expr_mut_post(&mut out, &mut |x| {
                if let ExprKind::Var(n) = &x.kind
                    && dummies.iter().any(|d| key(d) == key(n))
                {
                    match actual(n) {
                        // A name needs no parentheses (and `size(y)` of a dummy `y` is
                        // then a specification expression the temporary can take).
                        Some(v) if matches!(v.kind, ExprKind::Var(_)) => *x = v,
                        Some(v) => *x = paren(v),
                        None => missing = Some(n.clone()),
                    }
                }
            });
            out
        };
        let mut out = Vec::with_capacity(dims.len());
        for d in dims {
            let Bound::Expr(upper) = &d.upper else {
                return Err(self.err(
                    span,
                    format!("the size of the result of `{name}` is not declared"),
                    "declare the result with explicit bounds, e.g. `real :: f(n)`",
                ));
            };
            let hi = self.declared_size(substitute(upper));
            let extent = match &d.lower {
                None => hi,
                Some(lo) => Expr::binary(
                    BinOp::Add,
                    Expr::binary(BinOp::Sub, hi, substitute(lo)),
                    Expr::int(1),
                ),
            };
            out.push(LoopDim::from_one(simplify(&extent)));
        }
        if let Some(n) = missing {
            return Err(self.err(
                span,
                format!("the size of the result of `{name}` depends on its argument `{n}`, which this call does not give"),
                &format!("give `{n}` in the call"),
            ));
        }
        Ok(Some(out))
    }

    /// `e` with each `size(a)` (`size(a, k)`) replaced by the extent of `a` here: a
    /// result declared `x(size(b))` called with a local `y(n)` has extent `n`, and called
    /// with `w*y` the extent of `w`, which a temporary can take.
    fn declared_size(&self, mut e: Expr) -> Expr {
        crate::il::visit::walk_expr_mut_post(&mut e, &mut |x| {
            // A result's declaration keeps SIZE as written: a call of the intrinsic.
            let args = match &x.kind {
                ExprKind::Call(f, args)
                    if f.eq_ignore_ascii_case("size") && !self.symbols.contains(f) =>
                {
                    args
                }
                ExprKind::Intrinsic {
                    op: Intrinsic::Size,
                    args,
                    ..
                } => args,
                _ => return,
            };
            let (Some(array), dim) = (args.first(), args.get(1)) else {
                return;
            };
            let Ok(dims) = self.dims_of(&array.value) else {
                return;
            };
            let k = match dim.map(|d| &d.value.kind) {
                None if dims.len() == 1 => 0,
                Some(ExprKind::Int(text)) => match text.parse::<usize>() {
                    Ok(k) if k >= 1 && k <= dims.len() => k - 1,
                    _ => return,
                },
                _ => return,
            };
            *x = simplify(&dims[k].extent());
        });
        e
    }

    /// The element at `offsets` of the call `e` of an array-valued function: the call
    /// goes before the statement, into a temporary.
    pub(super) fn array_call_element(
        &mut self,
        name: &str,
        args: &[Arg],
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Expr> {
        let dims = self
            .call_dims(name, args, span)?
            .expect("an array-valued function");
        let Some(tmp) = self.temporary_like(&Expr::var(name), &dims)? else {
            return Err(self.err(
                span,
                format!("the result of `{name}` needs a temporary array whose size the procedure computes"),
                "assign the result to an array variable first, in a statement of its own",
            ));
        };
        // The call goes before the statement: so does what its arguments need.
        let mut pre = Vec::new();
        let actual = self.actual_arguments(args, 0, &mut pre)?;
        self.before.extend(pre);
        let call = Expr {
            kind: ExprKind::Call(name.to_string(), actual),
            span,
        };
        let s = self.assign(Expr::var(&tmp), call);
        self.before.push(s);
        let whole = Expr {
            kind: ExprKind::Var(tmp),
            span,
        };
        self.element(&whole, offsets, depth, body)
    }
}
