//! Whole derived-type assignments (`a = b`, `p(i) = q(j)`, `p = q`) into one assignment
//! per component that is not itself of derived type (`a%x = b%x`, `p%x(i, :) = q%x(j, :)`),
//! before scalarization turns the array ones into loops. The derivative rules then see
//! only real and integer assignments: the adjoint of a whole derived-type assignment
//! would otherwise be derived-type arithmetic (`sb = sb + qb`), which Fortran does not
//! have. (A C source's struct assignments were split by its front-end already.)
//!
//! A structure constructor on the right (`p = node(x1, y1)`; the front-end ordered its
//! values by component) gives one assignment per component (`p%x = x1`, `p%y = y1`), its
//! components of derived type split again. Fortran evaluates the whole right-hand side
//! first, so a constructor that reads the variable it assigns (`p = node(p%y, p%x)`)
//! is refused (E0414): one assignment per component would read values already changed.

use crate::diag::Diagnostic;
use crate::il::{Expr, ExprKind, ScalarType, Stmt, StmtId, StmtKind, SymbolTable, Unit, key};

/// Splits the whole derived-type assignments of `unit`; new statements take ids from
/// `next_id`. Returns the constructors it cannot split.
pub(super) fn split_derived_assignments(unit: &mut Unit, next_id: &mut u32) -> Vec<Diagnostic> {
    let symbols = unit.symbols.clone();
    let mut errors = Vec::new();
    split_block(&mut unit.body, &symbols, next_id, &mut errors);
    errors
}

fn split_block(
    block: &mut Vec<Stmt>,
    symbols: &SymbolTable,
    next_id: &mut u32,
    errors: &mut Vec<Diagnostic>,
) {
    let mut out = Vec::with_capacity(block.len());
    for mut s in std::mem::take(block) {
        for b in crate::il::visit::child_blocks_mut(&mut s) {
            split_block(b, symbols, next_id, errors);
        }
        let parts = match &s.kind {
            StmtKind::Assign { lhs, rhs } => match split(lhs, rhs, symbols) {
                Ok(parts) => parts,
                Err((message, help)) => {
                    errors.push(
                        Diagnostic::error("E0414", message)
                            .at(s.span)
                            .with_help(help),
                    );
                    None
                }
            },
            _ => None,
        };
        match parts {
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

type Parts = Option<Vec<(Expr, Expr)>>;

/// Why a whole derived-type assignment is refused, and what to write instead.
type Refusal = (String, &'static str);

const TEMPORARY: &str =
    "assign the constructor to a temporary of the type first, then the temporary to the variable";

/// The component assignments of `lhs = rhs`, when it assigns a whole derived-type value.
/// A POINTER component (`il::Symbol::pointer`, read as ALLOCATABLE) is refused: the
/// assignment makes it share the other's memory, where ALLOCATABLE would copy it.
fn split(lhs: &Expr, rhs: &Expr, symbols: &SymbolTable) -> Result<Parts, Refusal> {
    let Some((l, lsubs)) = whole(lhs, symbols) else {
        return Ok(None);
    };
    let Some(lbase) = symbols.get(&l) else {
        return Ok(None);
    };
    let type_name = lbase.type_spec.type_name.as_deref().map(key);
    if let ExprKind::Call(name, values) = &rhs.kind
        && Some(key(name)) == type_name
    {
        if values.iter().any(|v| {
            crate::il::visit::names_read(&v.value)
                .iter()
                .any(|n| key(n).split('%').next() == Some(&key(&l)))
        }) {
            return Err((
                format!("the structure constructor reads `{l}`, the variable it assigns"),
                TEMPORARY,
            ));
        }
        let prefix = l.len() + 1;
        let direct = symbols
            .components_of(&l)
            .filter(|c| !c.name[prefix..].contains('%'));
        let mut out = Vec::new();
        for (c, v) in direct.zip(values) {
            let rank = c.rank().saturating_sub(lbase.rank());
            let target = reference(&c.name, lsubs.as_deref(), rank);
            match split(&target, &v.value, symbols)? {
                Some(parts) => out.extend(parts),
                None if c.ty == ScalarType::Derived => {
                    return Err((
                        format!(
                            "component `{}` of the structure constructor is of derived type",
                            &c.name[prefix..]
                        ),
                        TEMPORARY,
                    ));
                }
                None if c.pointer => return Err(shares(&c.name[prefix..])),
                None => out.push((target, v.value.clone())),
            }
        }
        return Ok((!out.is_empty()).then_some(out));
    }
    let Some((r, rsubs)) = whole(rhs, symbols) else {
        return Ok(None);
    };
    let Some(rbase) = symbols.get(&r) else {
        return Ok(None);
    };
    if type_name != rbase.type_spec.type_name.as_deref().map(key) {
        return Ok(None);
    }
    let mut out = Vec::new();
    for leaf in symbols.components_of(&l) {
        if leaf.ty == ScalarType::Derived {
            continue;
        }
        if leaf.pointer {
            return Err(shares(&leaf.name[l.len() + 1..]));
        }
        let suffix = &leaf.name[l.len()..];
        let Some(other) = symbols.get(&format!("{r}{suffix}")) else {
            return Ok(None);
        };
        let lrank = leaf.rank().saturating_sub(lbase.rank());
        let rrank = other.rank().saturating_sub(rbase.rank());
        out.push((
            reference(&leaf.name, lsubs.as_deref(), lrank),
            reference(&other.name, rsubs.as_deref(), rrank),
        ));
    }
    Ok((!out.is_empty()).then_some(out))
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

/// The refusal of a structure assignment that associates the POINTER component `c`.
fn shares(c: &str) -> Refusal {
    (
        format!(
            "this assignment makes the POINTER component `{c}` point at the memory of the value assigned; adgen reads `{c}` as an array that owns its memory, so it cannot follow the sharing"
        ),
        "copy the component's values instead (`dst%x(:) = src%x(:)`), or pass the structure itself where the shared array is meant",
    )
}
