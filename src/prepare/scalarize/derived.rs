//! Whole derived-type assignments (`a = b`, `p(i) = q(j)`, `p = q`) into one assignment
//! per component that is not itself of derived type (`a%x = b%x`, `p%x(i, :) = q%x(j, :)`),
//! before scalarization turns the array ones into loops. The derivative rules then see
//! only real and integer assignments: the adjoint of a whole derived-type assignment
//! would otherwise be derived-type arithmetic (`sb = sb + qb`), which Fortran does not
//! have. (A C source's struct assignments were split by its front-end already.)

use crate::il::{Expr, ExprKind, ScalarType, Stmt, StmtId, StmtKind, SymbolTable, Unit};

/// Splits the whole derived-type assignments of `unit`; new statements take ids from
/// `next_id`.
pub(super) fn split_derived_assignments(unit: &mut Unit, next_id: &mut u32) {
    let symbols = unit.symbols.clone();
    split_block(&mut unit.body, &symbols, next_id);
}

fn split_block(block: &mut Vec<Stmt>, symbols: &SymbolTable, next_id: &mut u32) {
    let mut out = Vec::with_capacity(block.len());
    for mut s in std::mem::take(block) {
        for b in crate::il::visit::child_blocks_mut(&mut s) {
            split_block(b, symbols, next_id);
        }
        match split(&s, symbols) {
            Some(parts) => {
                for (k, (lhs, rhs)) in parts.into_iter().enumerate() {
                    let mut st = s.clone();
                    st.kind = StmtKind::Assign { lhs, rhs };
                    if k > 0 {
                        st.id = StmtId(*next_id);
                        *next_id += 1;
                        st.label = None;
                        st.trailing_comment = None;
                    }
                    out.push(st);
                }
            }
            None => out.push(s),
        }
    }
    *block = out;
}

/// The component assignments of `s`, when it assigns a whole derived-type value.
fn split(s: &Stmt, symbols: &SymbolTable) -> Option<Vec<(Expr, Expr)>> {
    let StmtKind::Assign { lhs, rhs } = &s.kind else {
        return None;
    };
    let (l, lsubs) = whole(lhs, symbols)?;
    let (r, rsubs) = whole(rhs, symbols)?;
    let lbase = symbols.get(&l)?;
    let rbase = symbols.get(&r)?;
    if lbase.type_spec.type_name.as_deref().map(crate::il::key)
        != rbase.type_spec.type_name.as_deref().map(crate::il::key)
    {
        return None;
    }
    let mut out = Vec::new();
    for leaf in symbols.components_of(&l) {
        if leaf.ty == ScalarType::Derived {
            continue;
        }
        let suffix = &leaf.name[l.len()..];
        let other = symbols.get(&format!("{r}{suffix}"))?;
        let lrank = leaf.rank().saturating_sub(lbase.rank());
        let rrank = other.rank().saturating_sub(rbase.rank());
        out.push((
            reference(&leaf.name, lsubs.as_deref(), lrank),
            reference(&other.name, rsubs.as_deref(), rrank),
        ));
    }
    (!out.is_empty()).then_some(out)
}

/// A whole derived-type value: a variable, or an element of an array of derived type
/// (its subscripts, none a section).
fn whole(e: &Expr, symbols: &SymbolTable) -> Option<(String, Option<Vec<Expr>>)> {
    let (name, subs) = match &e.kind {
        ExprKind::Var(n) => (n, None),
        ExprKind::Index(n, subs)
            if !subs
                .iter()
                .any(|x| matches!(x.kind, ExprKind::Range { .. })) =>
        {
            (n, Some(subs.clone()))
        }
        _ => return None,
    };
    let sym = symbols.get(name)?;
    if sym.ty != ScalarType::Derived || name.contains('%') || !sym.is_variable() {
        return None;
    }
    Some((name.clone(), subs))
}

/// `leaf` of the whole value, or of its element `subs` (the component's own dimensions
/// whole: `p%x(i, :)`).
fn reference(leaf: &str, subs: Option<&[Expr]>, rank: usize) -> Expr {
    match subs {
        None => Expr::var(leaf),
        Some(subs) => {
            let mut all = subs.to_vec();
            all.extend((0..rank).map(|_| {
                Expr::new(ExprKind::Range {
                    lower: None,
                    upper: None,
                    stride: None,
                })
            }));
            Expr::new(ExprKind::Index(leaf.to_string(), all))
        }
    }
}
