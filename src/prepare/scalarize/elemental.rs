//! Calls of ELEMENTAL procedures with array arguments (F2018 15.8): `y = softplus(2*x)`,
//! `call clip(y, lo)`.
//!
//! The call applies the procedure to each element: its shape is that of its array
//! arguments (the first one's index ranges are used), and at given offsets it is the
//! call with each argument's element there (scalars broadcast). A function's call is
//! then an elementwise operation like an intrinsic's; a subroutine's call becomes DO
//! loops around the scalar call. The procedure itself, and its derivatives, only ever
//! see scalars.

use std::collections::BTreeSet;

use super::*;

/// The ELEMENTAL procedures of `program` that `unit` calls (keys).
pub(super) fn elemental_procedures(
    unit: &Unit,
    program: &crate::il::UnitIndex,
) -> BTreeSet<String> {
    crate::il::visit::called_names(unit)
        .iter()
        .filter(|n| program.unit(n).is_some_and(|u| u.elemental))
        .map(|n| key(n))
        .collect()
}

/// Does `e` call one of `elemental` with an array argument?
pub(super) fn has_elemental_array_call(
    e: &Expr,
    elemental: &BTreeSet<String>,
    symbols: &SymbolTable,
) -> bool {
    if elemental.is_empty() {
        return false;
    }
    let mut found = false;
    crate::il::visit::walk_expr(e, &mut |x| {
        if let ExprKind::Call(name, args) = &x.kind {
            found |= is_elemental_call(name, args, elemental, symbols);
        }
    });
    found
}

/// Is `name(args)` a call of one of `elemental` with an array argument?
pub(super) fn is_elemental_call(
    name: &str,
    args: &[Arg],
    elemental: &BTreeSet<String>,
    symbols: &SymbolTable,
) -> bool {
    elemental.contains(crate::il::key_ref(name).as_ref())
        && args
            .iter()
            .any(|a| has_array_syntax(&a.value, symbols, false))
}

/// Does `unit` apply one of its ELEMENTAL procedures to arrays?
pub(super) fn applies_elemental(unit: &Unit, elemental: &BTreeSet<String>) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(&unit.body, &mut |s| {
        found |= matches!(&s.kind, StmtKind::Call { name, args }
            if is_elemental_call(name, args, elemental, &unit.symbols))
            || crate::il::visit::stmt_exprs(s)
                .into_iter()
                .any(|e| has_elemental_array_call(e, elemental, &unit.symbols));
    });
    found
}

impl Scalarizer<'_> {
    /// The shape of an elemental call with array arguments: its first array argument's.
    pub(super) fn elemental_dims(&self, name: &str, args: &[Arg]) -> R<Option<Vec<LoopDim>>> {
        if !self.elemental.contains(crate::il::key_ref(name).as_ref()) {
            return Ok(None);
        }
        for a in args {
            let d = self.dims_of(&a.value)?;
            if !d.is_empty() {
                return Ok(Some(d));
            }
        }
        Ok(None)
    }

    /// The call at `offsets`: each argument's element there.
    pub(super) fn elemental_element(
        &mut self,
        name: &str,
        args: &[Arg],
        offsets: &[Expr],
        depth: usize,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Expr> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            out.push(Arg {
                keyword: a.keyword.clone(),
                value: self.operand(&a.value, offsets, depth, body)?,
            });
        }
        Ok(Expr {
            kind: ExprKind::Call(name.to_string(), out),
            span,
        })
    }

    /// `call f(y, lo)` of an ELEMENTAL subroutine with array arguments: loops over the
    /// first array argument's index ranges around the scalar call.
    pub(super) fn elemental_subroutine_call(&mut self, name: &str, args: &[Arg]) -> R<Vec<Stmt>> {
        let dims = self.elemental_dims(name, args)?.expect("an array argument");
        let rank = dims.len();
        let vars: Vec<String> = (0..rank).map(|d| self.loop_var(d)).collect();
        let offsets: Vec<Expr> = dims.iter().zip(&vars).map(|(d, v)| d.offset(v)).collect();
        let mut body = Vec::new();
        let span = self.span;
        let call = self.elemental_element(name, args, &offsets, rank, &mut body, span)?;
        let ExprKind::Call(name, args) = call.kind else {
            unreachable!("a call")
        };
        body.push(self.new_stmt(StmtKind::Call { name, args }));
        let mut nest = body;
        for (d, v) in dims.iter().zip(&vars).rev() {
            nest = vec![self.do_loop(v, d, false, nest)];
        }
        let mut out = std::mem::take(&mut self.before);
        out.extend(nest);
        Ok(out)
    }
}
