//! Varied fields: the components of derived types (struct fields) that can carry a
//! nonzero derivative anywhere in the program, so that a derivative type `t_d`/`t_b`
//! holds only those (seeds/000 §4.2: "the derivative type holds the active fields").
//!
//! Activity works per variable (a component belongs to its variable's zone), so it
//! cannot tell `s%x` from `s%count`. This analysis runs once over the whole program after
//! activity, flow-insensitive in the fields: a set of (type, field) pairs, grown to a
//! fixed point over every statement of every unit activity reached. A value stored in
//! field `f` of a value of type `T` (whatever variable holds it) can depend on an
//! independent only if (T, f) is in the set. A component reference `v%...%f` is varied
//! at a statement when its variable is (per-variable activity) and its field is in the
//! set; a field enters the set when
//! - an independent of a root is a whole structure (all its real fields, recursively) or
//!   a path `s%f` given in the manifest (that field; `Ir::build` refuses such paths yet);
//! - an assignment stores into it a value with a varied reference (or one from a module
//!   variable, through a function);
//! - a call may overwrite an actual that ends in it, with a value depending on a varied
//!   actual or module variable (the callee's `diff_dep` summary; every actual for a
//!   procedure adgen has no source of);
//! - a whole structure receives a value other than another structure of its type
//!   (through an unknown procedure, an expression), or is EQUIVALENCEd: every real field
//!   of its type, recursively.
//!
//! Assigning a whole structure to another of the same type adds nothing. A derived-type
//! component is kept when its type has a varied field. A type with no varied field still
//! keeps its first one (whose derivative is then always zero), so that no derivative type
//! is empty: C has no empty structs, and a variable of the type may have a derivative. With activity analysis switched off every field is kept.
//!
//! A field outside the set has a derivative that is zero everywhere, in both modes (the
//! tangent: zero; the adjoint: what is accumulated into it never reaches an independent),
//! so the differentiator drops it: reads of its derivative are zero, writes are omitted.

use std::collections::{BTreeMap, BTreeSet};

use super::UnitAnalysis;
use super::effects::{call_site, diff_refs};
use crate::il::bind_actuals;
use crate::il::{self, BaseType, DeclKind, Expr, ExprKind, Program, ScalarType, StmtKind, key};
use crate::ir::Ir;
use crate::ir::flow::NodeKind;
use crate::request::Request;

/// The fields of derived types whose derivatives are kept.
#[derive(Clone, Debug)]
pub struct ActiveFields {
    /// Every field is kept (activity analysis off, or nothing analyzed).
    all: bool,
    /// (type key, field key).
    kept: BTreeSet<(String, String)>,
    /// The types analyzed (keys); a field of another (a type known by a rename) is kept.
    types: BTreeSet<String>,
    /// Fields kept only so that their type is not empty: never varied.
    fillers: BTreeSet<(String, String)>,
}

impl Default for ActiveFields {
    fn default() -> Self {
        ActiveFields {
            all: true,
            kept: BTreeSet::new(),
            types: BTreeSet::new(),
            fillers: BTreeSet::new(),
        }
    }
}

impl ActiveFields {
    /// Field `field` of type `ty` keeps its derivative.
    pub fn keeps(&self, ty: &str, field: &str) -> bool {
        let t = key(ty);
        self.all || !self.types.contains(&t) || self.kept.contains(&(t, key(field)))
    }
    /// Every field along component path `path` (`s%a%x`) keeps its derivative; the types
    /// come from `symbols` (a step whose type is unknown is kept).
    pub fn keeps_path(&self, symbols: &il::SymbolTable, path: &str) -> bool {
        if self.all {
            return true;
        }
        let mut parent = match path.split_once('%') {
            Some((base, _)) => base.to_string(),
            None => return true,
        };
        for field in path.split('%').skip(1) {
            let ty = symbols
                .get(&parent)
                .and_then(|s| s.type_spec.type_name.as_deref());
            if let Some(ty) = ty {
                if !self.keeps(ty, field) {
                    return false;
                }
            }
            parent = format!("{parent}%{field}");
        }
        true
    }
    /// Field `field` of `ty` is kept only so that the derivative type is not empty.
    pub fn is_filler(&self, ty: &str, field: &str) -> bool {
        self.fillers.contains(&(key(ty), key(field)))
    }
}

/// One differentiable component of a derived type.
struct Component {
    name: String,
    /// The component's own derived type (key), for a nested structure.
    derived: Option<String>,
}

/// The differentiable components of every derived type of the program, by type key.
fn type_components(program: &Program) -> BTreeMap<String, Vec<Component>> {
    let mut out: BTreeMap<String, Vec<Component>> = BTreeMap::new();
    for unit in program.units() {
        for d in &unit.decls {
            let DeclKind::TypeDef {
                name, components, ..
            } = &d.kind
            else {
                continue;
            };
            let comps = out.entry(key(name)).or_default();
            for c in components {
                let DeclKind::Var { spec, entities, .. } = &c.kind else {
                    continue;
                };
                let derived = match spec.base {
                    BaseType::Real
                    | BaseType::DoublePrecision
                    | BaseType::Complex
                    | BaseType::DoubleComplex => None,
                    BaseType::Derived => spec.type_name.as_deref().map(key),
                    _ => continue,
                };
                for e in entities {
                    if !comps.iter().any(|c| key(&c.name) == key(&e.name)) {
                        comps.push(Component {
                            name: key(&e.name),
                            derived: derived.clone(),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The derived types (keys) of the program that hold no real or complex value, at any
/// depth (a log of integer counters): a variable of one has nothing to differentiate.
pub(super) fn valueless_types(program: &Program) -> BTreeSet<String> {
    let types = type_components(program);
    let mut valued: BTreeSet<String> = BTreeSet::new();
    loop {
        let before = valued.len();
        for (t, comps) in &types {
            if comps
                .iter()
                .any(|c| c.derived.as_ref().is_none_or(|d| valued.contains(d)))
            {
                valued.insert(t.clone());
            }
        }
        if valued.len() == before {
            break;
        }
    }
    types.into_keys().filter(|t| !valued.contains(t)).collect()
}

struct State {
    types: BTreeMap<String, Vec<Component>>,
    kept: BTreeSet<(String, String)>,
}

impl State {
    fn insert(&mut self, ty: &str, field: &str) -> bool {
        if !self.types.contains_key(crate::il::key_ref(ty).as_ref()) {
            // A type known by another name (a rename): every field of that name.
            return self.insert_named(field);
        }
        self.kept.insert((key(ty), key(field)))
    }
    /// Field `field` of every type that has one, for a structure of unknown type.
    fn insert_named(&mut self, field: &str) -> bool {
        let f = key(field);
        let types: Vec<String> = self
            .types
            .iter()
            .filter(|(_, cs)| cs.iter().any(|c| c.name == f))
            .map(|(t, _)| t.clone())
            .collect();
        let mut changed = false;
        for t in types {
            changed |= self.kept.insert((t, f.clone()));
        }
        changed
    }
    /// Every field of type `ty`, recursively (of every type, when `ty` is unknown).
    fn insert_all(&mut self, ty: &str) -> bool {
        if !self.types.contains_key(crate::il::key_ref(ty).as_ref()) {
            let all: Vec<String> = self.types.keys().cloned().collect();
            return all.iter().fold(false, |c, t| self.insert_all(t) | c);
        }
        let mut changed = false;
        let mut stack = vec![key(ty)];
        let mut seen = BTreeSet::new();
        while let Some(t) = stack.pop() {
            if !seen.insert(t.clone()) {
                continue;
            }
            let fields: Vec<(String, Option<String>)> = self
                .types
                .get(&t)
                .map(|cs| {
                    cs.iter()
                        .map(|c| (c.name.clone(), c.derived.clone()))
                        .collect()
                })
                .unwrap_or_default();
            for (f, derived) in fields {
                changed |= self.kept.insert((t.clone(), f));
                stack.extend(derived);
            }
        }
        changed
    }
}

/// The type (key) of the structure holding the last field of path `name`, and that
/// field: `s%a%x` → (type of `s%a`, `x`).
fn last_field(symbols: &il::SymbolTable, name: &str) -> Option<(String, String)> {
    let (parent, field) = name.rsplit_once('%')?;
    let ty = symbols.get(parent)?.type_spec.type_name.as_deref()?;
    Some((key(ty), key(field)))
}

/// The derived type (key) of a whole structure reference, if it is one.
fn struct_type(symbols: &il::SymbolTable, name: &str) -> Option<String> {
    let s = symbols.get(name)?;
    if s.ty != ScalarType::Derived {
        return None;
    }
    s.type_spec.type_name.as_deref().map(key)
}

fn ref_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Var(n) | ExprKind::Index(n, _) => Some(n),
        ExprKind::Paren(inner) => ref_name(inner),
        _ => None,
    }
}

pub fn varied_fields(
    program: &Program,
    ir: &Ir,
    units: &[UnitAnalysis],
    request: &Request,
) -> ActiveFields {
    if request.disabled.contains("activity") {
        return ActiveFields::default();
    }
    let mut st = State {
        types: type_components(program),
        kept: BTreeSet::new(),
    };
    // Independents.
    for root in &request.roots {
        let Some(r) = ir.index_of(&root.name) else {
            continue;
        };
        let symbols = &ir.units[r].unit.symbols;
        for name in &root.independents {
            let path = name.replace('.', "%");
            if let Some(t) = struct_type(symbols, &path) {
                st.insert_all(&t);
            }
            let mut prefix = String::new();
            for part in path.split('%') {
                if !prefix.is_empty() {
                    if let Some((t, f)) = last_field(symbols, &format!("{prefix}%{part}")) {
                        st.insert(&t, &f);
                    }
                    prefix.push('%');
                }
                prefix.push_str(part);
            }
        }
    }
    // EQUIVALENCEd structures: every field.
    for uir in &ir.units {
        for zone in &uir.zones.zones {
            if zone.shared {
                if let Some(t) = struct_type(&uir.unit.symbols, &zone.name) {
                    st.insert_all(&t);
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for (u, uir) in ir.units.iter().enumerate() {
            let state = &units[u];
            let (true, Some(varied)) = (state.has_context, &state.varied) else {
                continue;
            };
            let symbols = &uir.unit.symbols;
            for (node, kind) in uir.flow.nodes.iter().enumerate() {
                let NodeKind::Simple(stmt) = kind else {
                    continue;
                };
                let before = &varied.before[node];
                let kept = &st.kept;
                // A reference carries a nonzero derivative here.
                let ref_varied = |name: &str, z: usize| {
                    before[z]
                        && (!name.contains('%')
                            || struct_type(symbols, name).is_some()
                            || last_field(symbols, name).is_none_or(|tf| kept.contains(&tf)))
                };
                let expr_varied = |e: &Expr| {
                    diff_refs(e, &uir.zones)
                        .into_iter()
                        .any(|(n, z)| ref_varied(n, z))
                };
                // What the statement stores, with whether the stored value is varied.
                let mut stores: Vec<(&Expr, bool)> = Vec::new();
                match call_site(stmt) {
                    Some(site) => {
                        let callee = ir.index_of(site.callee);
                        let actuals: Vec<Option<&Expr>> = match callee {
                            Some(c) => bind_actuals(ir.units[c].unit, site.args),
                            None => site.args.iter().map(|a| Some(&a.value)).collect(),
                        };
                        let any_varied = actuals.iter().flatten().any(|a| expr_varied(a));
                        // Whether slot `k` of the callee may leave with a varied value.
                        let slot_varied = |k: usize| -> bool {
                            let Some(c) = callee else {
                                return any_varied;
                            };
                            let s = &units[c].summary;
                            let Some(dep) = s.diff_dep.get(k) else {
                                return any_varied;
                            };
                            let n_args = actuals.len();
                            dep.iter_ones().any(|j| {
                                if j < n_args {
                                    actuals[j].is_some_and(&expr_varied)
                                } else {
                                    // A module variable (the result slot has no input).
                                    j > n_args
                                        && uir
                                            .zones
                                            .globals
                                            .get(j - n_args - 1)
                                            .is_some_and(|&z| before[z])
                                }
                            })
                        };
                        for (k, actual) in actuals.iter().enumerate() {
                            let Some(actual) = actual else { continue };
                            let writes = match callee {
                                Some(c) => units[c].summary.writes.get(k).is_none_or(|b| *b),
                                None => true,
                            };
                            // A structure passed whole to a procedure adgen has the source
                            // of is followed there, in its own statements.
                            let whole =
                                ref_name(actual).is_some_and(|n| struct_type(symbols, n).is_some());
                            if writes && (callee.is_none() || !whole) {
                                stores.push((actual, slot_varied(k)));
                            }
                        }
                        if let Some(lhs) = site.result_lhs {
                            let whole =
                                ref_name(lhs).is_some_and(|n| struct_type(symbols, n).is_some());
                            if callee.is_none() || !whole {
                                stores.push((lhs, slot_varied(actuals.len())));
                            }
                        }
                    }
                    None => {
                        if let StmtKind::Assign { lhs, rhs } = &stmt.kind {
                            // A whole structure assigned another of its type: nothing new.
                            let copy =
                                ref_name(rhs).is_some_and(|n| struct_type(symbols, n).is_some());
                            if !copy {
                                let varied = expr_varied(rhs)
                                    || ref_name(lhs)
                                        .is_some_and(|n| struct_type(symbols, n).is_some())
                                        && il::visit::names_read(rhs)
                                            .iter()
                                            .any(|n| uir.zones.get(n).is_some_and(|z| before[z]));
                                stores.push((lhs, varied));
                            }
                        }
                    }
                }
                for (target, varied) in stores {
                    if !varied {
                        continue;
                    }
                    let Some(name) = ref_name(target) else {
                        continue;
                    };
                    if let Some(t) = struct_type(symbols, name) {
                        changed |= st.insert_all(&t);
                    } else if let Some((_, f)) = name.rsplit_once('%') {
                        changed |= match last_field(symbols, name) {
                            Some((t, f)) => st.insert(&t, &f),
                            None => st.insert_named(f),
                        };
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    finish(st)
}

/// Nested structures, then types left with no field.
fn finish(mut st: State) -> ActiveFields {
    // A derived-type component is kept when its type keeps a field.
    loop {
        let nested: Vec<(String, String)> = st
            .types
            .iter()
            .flat_map(|(t, cs)| {
                cs.iter()
                    .filter(|c| {
                        c.derived
                            .as_ref()
                            .is_some_and(|d| st.kept.iter().any(|(k, _)| k == d))
                    })
                    .map(move |c| (t.clone(), c.name.clone()))
            })
            .filter(|tf| !st.kept.contains(tf))
            .collect();
        if nested.is_empty() {
            break;
        }
        st.kept.extend(nested);
    }
    // No empty derivative type (a variable may still be declared of it): keep the first
    // field of a type that has none, though its derivative is always zero.
    let firsts: Vec<(String, String)> = st
        .types
        .iter()
        .filter(|(t, cs)| !cs.is_empty() && !st.kept.iter().any(|(k, _)| k == *t))
        .map(|(t, cs)| (t.clone(), cs[0].name.clone()))
        .collect();
    st.kept.extend(firsts.iter().cloned());
    ActiveFields {
        all: false,
        kept: st.kept,
        types: st.types.into_keys().collect(),
        fillers: firsts.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests;
