//! Storage layout as gfortran lays it out (seeds/004 §9.2: sizes decide how
//! EQUIVALENCEs and the splittings of a COMMON block are solved): the size in bytes of a
//! variable's elements (the kind in bytes; 4 for default INTEGER, REAL and LOGICAL;
//! twice the kind for COMPLEX; the length for CHARACTER), constant bounds, and the byte
//! ranges of the variables of an EQUIVALENCE class relative to one another.

use std::collections::BTreeMap;

use super::fold::fold_int;
use super::{Bound, DeclKind, Expr, ExprKind, Program, ScalarType, Symbol, Unit, key};

/// The size of one element of a variable, when it is known.
pub fn element_bytes(s: &Symbol) -> Option<u64> {
    let n = match s.ty {
        ScalarType::Integer(k) | ScalarType::Real(k) => k as u64,
        ScalarType::Complex(k) => 2 * k as u64,
        ScalarType::Logical => match (&s.type_spec.star, &s.type_spec.kind) {
            (Some(n), _) => *n as u64,
            (
                None,
                Some(Expr {
                    kind: ExprKind::Int(n),
                    ..
                }),
            ) => n.parse().ok()?,
            (None, None) => 4,
            _ => return None,
        },
        ScalarType::Character => s
            .type_spec
            .char_len
            .as_deref()
            .unwrap_or("1")
            .parse()
            .ok()?,
        ScalarType::Derived => return None,
    };
    (n > 0).then_some(n)
}

/// The constant bounds of each dimension of a variable (empty for a scalar), when all
/// are constant.
pub fn constant_bounds(
    program: Option<&Program>,
    unit: &Unit,
    s: &Symbol,
) -> Option<Vec<(i64, i64)>> {
    s.dims
        .iter()
        .map(|d| {
            let lower = match &d.lower {
                Some(e) => fold_int(program, unit, e)?,
                None => 1,
            };
            let Bound::Expr(e) = &d.upper else {
                return None;
            };
            let upper = fold_int(program, unit, e)?;
            // (Extents that overflow are not known either: bad input never panics.)
            let extent = upper.checked_sub(lower)?.checked_add(1)?;
            (extent > 0).then_some((lower, upper))
        })
        .collect()
}

/// The size of a variable in bytes, when it is known.
pub fn variable_bytes(program: Option<&Program>, unit: &Unit, s: &Symbol) -> Option<u64> {
    let mut n = element_bytes(s)?;
    for (l, u) in constant_bounds(program, unit, s)? {
        n = n.checked_mul(u64::try_from(u - l + 1).ok()?)?;
    }
    Some(n)
}

/// The byte offset of the element a reference designates from its variable's start:
/// 0 for a whole variable, the column-major position of `a(i, j)` with constant
/// subscripts.
fn reference_offset(program: Option<&Program>, unit: &Unit, e: &Expr) -> Option<(String, i64)> {
    match &e.kind {
        ExprKind::Var(n) => Some((n.clone(), 0)),
        ExprKind::Index(n, subs) => {
            let s = unit.symbols.get(n)?;
            let bounds = constant_bounds(program, unit, s)?;
            if bounds.len() != subs.len() {
                return None;
            }
            let mut linear: i64 = 0;
            let mut stride: i64 = 1;
            for ((l, u), sub) in bounds.iter().zip(subs) {
                let at = fold_int(program, unit, sub)?.checked_sub(*l)?;
                linear = linear.checked_add(at.checked_mul(stride)?)?;
                stride = stride.checked_mul(u - l + 1)?;
            }
            Some((n.clone(), linear.checked_mul(element_bytes(s)? as i64)?))
        }
        _ => None,
    }
}

/// The byte range of every EQUIVALENCEd variable of a unit (by key), relative to the
/// others of its class, for the variables whose sets have constant subscripts and whose
/// sizes are known.
pub fn equivalence_ranges(program: Option<&Program>, unit: &Unit) -> BTreeMap<String, (i64, u64)> {
    // Each set: its references as (variable key, offset of the element in it).
    let mut sets: Vec<Vec<(String, i64)>> = Vec::new();
    for d in &unit.decls {
        let DeclKind::Equivalence(list) = &d.kind else {
            continue;
        };
        for set in list {
            let refs: Option<Vec<(String, i64)>> = set
                .iter()
                .map(|e| reference_offset(program, unit, e).map(|(n, o)| (key(&n), o)))
                .collect();
            sets.push(refs.unwrap_or_default());
        }
    }
    // Places the variables of the sets that hold a placed one until nothing moves; then
    // starts the next class at the first set none of whose variables is placed.
    let mut start: BTreeMap<String, i64> = BTreeMap::new();
    loop {
        let mut moved = false;
        for set in &sets {
            let Some(anchor) = set
                .iter()
                .find_map(|(n, o)| start.get(n).and_then(|s| s.checked_add(*o)))
            else {
                continue;
            };
            for (n, o) in set {
                if !start.contains_key(n) {
                    start.insert(n.clone(), anchor.saturating_sub(*o));
                    moved = true;
                }
            }
        }
        if moved {
            continue;
        }
        let Some(set) = sets
            .iter()
            .find(|set| !set.is_empty() && set.iter().all(|(n, _)| !start.contains_key(n)))
        else {
            break;
        };
        start.insert(set[0].0.clone(), set[0].1.saturating_neg());
    }
    start
        .into_iter()
        .filter_map(|(n, s)| {
            let bytes = variable_bytes(program, unit, unit.symbols.get(&n)?)?;
            Some((n, (s, bytes)))
        })
        .collect()
}

/// The COMMON blocks a unit declares: (global module `/name/`, name as spelled,
/// variables in order), a block continued by a second COMMON statement in one list.
pub fn common_lists(unit: &Unit) -> Vec<(String, Option<String>, Vec<String>)> {
    let mut lists: Vec<(String, Option<String>, Vec<String>)> = Vec::new();
    for d in &unit.decls {
        let DeclKind::Common(parts) = &d.kind else {
            continue;
        };
        for (name, entities) in parts {
            let module = super::common_global_module(name.as_deref());
            let names = entities.iter().map(|e| e.name.clone());
            match lists.iter_mut().find(|(m, _, _)| *m == module) {
                Some(l) => l.2.extend(names),
                None => lists.push((module, name.clone(), names.collect())),
            }
        }
    }
    lists
}

/// Keys of the local variables of `unit` that keep their value between calls: SAVE
/// (attribute, statement; a bare SAVE saves them all) or DATA. (Front-ends make the
/// SAVE implied by a Fortran initializer explicit.)
pub fn saved_locals(unit: &Unit) -> std::collections::BTreeSet<String> {
    use super::Attr;
    let mut out = std::collections::BTreeSet::new();
    for d in &unit.decls {
        match &d.kind {
            DeclKind::Var {
                attrs, entities, ..
            } => {
                if attrs.iter().any(|a| matches!(a, Attr::Parameter)) {
                    continue;
                }
                if attrs.iter().any(|a| matches!(a, Attr::Save)) {
                    out.extend(entities.iter().map(|e| key(&e.name)));
                }
            }
            DeclKind::Save(names) if names.is_empty() => {
                out.extend(unit.symbols.iter().map(|s| key(&s.name)));
            }
            DeclKind::Save(names) => out.extend(names.iter().map(|n| key(n))),
            DeclKind::Data(sets) => {
                out.extend(sets.iter().flat_map(|s| s.names.iter().map(|n| key(n))));
            }
            _ => {}
        }
    }
    out
}
