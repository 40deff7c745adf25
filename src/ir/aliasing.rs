//! Dummy arguments that share storage: a call passes one variable to two dummies of
//! which the callee writes one (ODEPACK's `CALL DSTODE (..., RWORK(LYH), NYH,
//! RWORK(LYH), ...)`, the history array `YH(NYH,*)` and its flat view `YH1(*)`). The
//! standard forbids it, compilers accept it, and FORTRAN 77 libraries rely on it.
//! seeds/004 §5.3: a tool that assumes the two distinct computes wrong derivatives. So
//! such dummies are one zone of the callee, as EQUIVALENCEd variables are (a write to
//! one is a partial write of both, never a kill): the analyses see the sharing, and the
//! derivative dummies share storage as the caller passes them. Merging is decided per
//! callee for all its callers (the analyses are context-insensitive), and repeated until
//! no call passes two merged dummies on to two more.
//!
//! A module (or COMMON) variable passed to a procedure that also sees it through its
//! module (`CALL FCN(N, X, F)` with `X` in a COMMON block FCN declares) is the same
//! case: the dummy joins the variable's zone in the callee, and the derivative dummy is
//! given the variable's derivative.

use std::collections::{BTreeMap, BTreeSet};

use crate::il::visit::{stmt_calls, walk_stmts};
use crate::il::{Expr, ExprKind, Unit, bind_actuals, key, work_array_parts};

use super::UnitIr;

/// Whether two actual arguments share storage: one variable passed whole twice, a whole
/// array and one of its elements or sections, the same element twice, or two members of
/// one EQUIVALENCE set (or dummies merged by this module) whose storage overlaps.
/// Different elements (`a(i)`, `a(j)`) are taken as distinct: adgen cannot tell when
/// `i = j`. Returns the variable, and the other member for an EQUIVALENCE.
pub fn overlap(a: &Expr, b: &Expr, uir: &UnitIr) -> Option<(String, Option<String>)> {
    let (na, nb) = (a.base_name()?, b.base_name()?);
    let whole = |e: &Expr| matches!(e.kind, ExprKind::Var(_));
    let za = uir.zones.get(na);
    let equivalenced = za.is_some_and(|z| uir.zones.zones[z].shared) && za == uir.zones.get(nb);
    if equivalenced && key(na) != key(nb) {
        // Distinct parts of one storage (ODEPACK's `ELCO` and `TESCO`, both EQUIVALENCEd
        // onto one piece of a COMMON block) do not overlap.
        let ranges = crate::il::storage::equivalence_ranges(None, uir.unit);
        let range = |name: &str| ranges.get(crate::il::key_ref(name).as_ref()).copied();
        match (range(na), range(nb)) {
            (Some((sa, la)), Some((sb, lb))) => {
                let end = |s: i64, l: u64| s.saturating_add(i64::try_from(l).unwrap_or(i64::MAX));
                let (ea, eb) = (end(sa, la), end(sb, lb));
                if ea <= sb || eb <= sa {
                    return None;
                }
            }
            // Dummies merged by this module (a caller passes them one array): parts of
            // them are taken as distinct, as parts `a(i)`, `a(j)` of one array are
            // (DLSODES's `CDRV(N, IWK(IPR), ..., WK(IPA), ...)` hands out disjoint
            // pieces of its work array).
            _ if !whole(a) && !whole(b) => return None,
            _ => {}
        }
        return Some((na.to_string(), Some(nb.to_string())));
    }
    if key(na) != key(nb) {
        // A component and its variable (`s%x`, `s`), or two paths of one variable.
        let (ra, rb) = (na.split('%').next()?, nb.split('%').next()?);
        let prefix = |long: &str, short: &str| key(long).starts_with(&format!("{}%", key(short)));
        if ra.eq_ignore_ascii_case(rb) && (prefix(na, nb) || prefix(nb, na)) {
            return Some((ra.to_string(), None));
        }
        return None;
    }
    let same =
        whole(a) || whole(b) || crate::il::visit::expr_key(a) == crate::il::visit::expr_key(b);
    same.then(|| (na.to_string(), None))
}

/// The dummies a procedure may write, by their own statements or by passing them to a
/// procedure (any, without looking at what it does): by key.
fn written_dummies(unit: &Unit) -> BTreeSet<String> {
    let dummies: BTreeSet<String> = unit.args.iter().map(|a| key(a)).collect();
    crate::il::writes::names_written(unit)
        .into_iter()
        .map(|n| key(n.split('%').next().unwrap_or(n)))
        .filter(|k| dummies.contains(k))
        .collect()
}

/// New pairs of variables (callee index, key, key) that some call passes overlapping
/// storage, and that the callee's zones do not merge yet: two dummies of which the
/// callee may write one, or a dummy and a module variable of the same type the callee
/// names in its statements (always: what it writes through its callees is not known
/// here; one it reaches only through its callees stays distinct, refused when active).
pub fn aliased_dummies(
    units: &[UnitIr],
    by_key: &BTreeMap<String, usize>,
) -> Vec<(usize, String, String)> {
    let mut written: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    let mut reach = Reach::default();
    let mut out = Vec::new();
    for uir in units {
        walk_stmts(&uir.unit.body, &mut |s| {
            stmt_calls(s, &mut |name, args| {
                let Some(&c) = by_key.get(crate::il::key_ref(name).as_ref()) else {
                    return;
                };
                let callee = &units[c];
                let actuals = bind_actuals(callee.unit, args);
                for (k, a) in actuals.iter().enumerate() {
                    let Some(a) = a else { continue };
                    if let Some((d, g)) = global_alias(uir, c, k, a, units, by_key, &mut reach) {
                        let pair = (c, d, g);
                        if !out.contains(&pair) {
                            out.push(pair);
                        }
                    }
                }
                for (i, a) in actuals.iter().enumerate() {
                    for (j, b) in actuals.iter().enumerate().skip(i + 1) {
                        let (Some(a), Some(b)) = (a, b) else { continue };
                        if work_array_parts(callee.unit, i, a, j, b) || overlap(a, b, uir).is_none()
                        {
                            continue;
                        }
                        let (zi, zj) = (callee.zones.of_arg(i), callee.zones.of_arg(j));
                        let (di, dj) = (key(&callee.unit.args[i]), key(&callee.unit.args[j]));
                        if zi.is_none() || zi == zj || out.contains(&(c, di.clone(), dj.clone())) {
                            continue;
                        }
                        // Storage seen as reals by one dummy and integers by the other
                        // (DLSODES passes RWORK(LWM) as WK and as IWK) is one real zone,
                        // the integer view without derivative. Two kinds of real are not
                        // merged: the bits of one are not a value of the other (the check
                        // of the call refuses it where they are active, E0508).
                        let ty =
                            |k: usize| callee.unit.symbols.get(&callee.unit.args[k]).map(|s| s.ty);
                        let real = |k: usize| ty(k).is_some_and(|t| t.is_differentiable());
                        if ty(i) != ty(j) && real(i) && real(j) {
                            continue;
                        }
                        let w = written
                            .entry(c)
                            .or_insert_with(|| written_dummies(callee.unit));
                        if w.contains(&di) || w.contains(&dj) {
                            out.push((c, di, dj));
                        }
                    }
                }
            });
        });
    }
    out
}

/// The dummy `k` of callee `c` (key) and the key of the module variable that the actual
/// argument `a` of a call in `caller` is, or is part of, when the two do not share a
/// zone in the callee yet and the callee reaches the variable beside the dummy:
/// - it sees the variable and names that storage in its statements (under the
///   variable's name or that of a variable EQUIVALENCEd onto it, as a COMMON block
///   declared with other names is): the key is the callee's name of it;
/// - it does not see it, but a procedure it calls names it, and the whole variable is
///   passed (the dummy's saves in the callee then stand for the variable's; a part,
///   `u(2)`, would leave the rest unsaved): the key is [`hidden_key`].
fn global_alias(
    caller: &UnitIr,
    c: usize,
    k: usize,
    a: &Expr,
    units: &[UnitIr],
    by_key: &BTreeMap<String, usize>,
    reach: &mut Reach,
) -> Option<(String, String)> {
    let callee = &units[c];
    let z = caller.zones.get(a.base_name()?)?;
    let g = caller.zones.globals.iter().position(|&x| x == z)?;
    let zg = *callee.zones.globals.get(g)?;
    let zone = &callee.zones.zones[zg];
    let dummy = callee.unit.args.get(k)?;
    let symbol = callee.unit.symbols.get(dummy)?;
    if callee.zones.of_arg(k) == Some(zg) || symbol.ty != zone.ty {
        return None;
    }
    if !zone.hidden {
        let named = reach.named(c, units);
        let reached = callee.unit.symbols.iter().any(|s| {
            !s.name.contains('%')
                && callee.zones.get(&s.name) == Some(zg)
                && named.contains(crate::il::key_ref(&s.name).as_ref())
        });
        // The variable as the callee declares it (a COMMON piece, or a module variable
        // as renamed by USE).
        let own = callee.unit.symbols.get(&zone.name)?;
        own.global.as_ref()?;
        return reached.then(|| (key(dummy), key(&own.name)));
    }
    let own = caller
        .unit
        .symbols
        .iter()
        .find(|s| s.global.is_some() && caller.zones.get(&s.name) == Some(z))?;
    let global = own.global.clone()?;
    let assumed_shape = symbol
        .dims
        .iter()
        .all(|d| matches!(d.upper, crate::il::Bound::Colon))
        && symbol.rank() == own.rank();
    let bytes = |unit, s| crate::il::storage::variable_bytes(None, unit, s);
    let same_size = bytes(callee.unit, symbol).is_some_and(|b| bytes(caller.unit, own) == Some(b));
    let whole = matches!(a.kind, ExprKind::Var(_)) && (assumed_shape || same_size);
    // The callee does not see the variable: it reaches it if a procedure it calls does.
    (whole && reach.reaches(c, &global, units, by_key)).then(|| (key(dummy), hidden_key(&global)))
}

/// The key standing, in a pair of aliased variables, for a module variable the unit does
/// not see (its zone is hidden): no name of the sources can take it.
pub fn hidden_key(global: &crate::il::GlobalRef) -> String {
    format!("\u{0}{}%{}", key(&global.module), key(&global.name))
}

/// Which units reach which module variables, themselves or through the procedures they
/// call, by the names those procedures use: (unit, variable) → reached, and each unit's
/// names, filled as asked.
#[derive(Default)]
struct Reach {
    known: BTreeMap<(usize, (String, String)), bool>,
    named: BTreeMap<usize, BTreeSet<String>>,
}

impl Reach {
    /// The names (keys) unit `u`'s statements use.
    fn named(&mut self, u: usize, units: &[UnitIr]) -> &BTreeSet<String> {
        self.named
            .entry(u)
            .or_insert_with(|| crate::il::visit::referenced_names(&units[u].unit.body))
    }

    /// Whether unit `u` or a procedure it calls, at any depth, names `global`.
    fn reaches(
        &mut self,
        u: usize,
        global: &crate::il::GlobalRef,
        units: &[UnitIr],
        by_key: &BTreeMap<String, usize>,
    ) -> bool {
        let g = global.key();
        if let Some(&r) = self.known.get(&(u, g.clone())) {
            return r;
        }
        // On a cycle of calls (recursion), a unit asked again while its answer is open
        // counts as not reaching: a unit may then be taken as not reaching what it does
        // through the cycle, which leaves its dummy distinct (refused when active, E0508),
        // never wrong.
        self.known.insert((u, g.clone()), false);
        let unit = units[u].unit;
        let names = self.named(u, units);
        let own = unit.symbols.iter().any(|s| {
            s.global.as_ref().is_some_and(|r| r.key() == g) && names.contains(&key(&s.name))
        });
        let reached = own
            || crate::il::visit::called_names(unit).iter().any(|c| {
                by_key
                    .get(crate::il::key_ref(c).as_ref())
                    .is_some_and(|&c| self.reaches(c, global, units, by_key))
            });
        self.known.insert((u, g), reached);
        reached
    }
}
