//! The ranks of the arrays of derived type in scope while a unit is written, and of the
//! components below them: what splitting the IL's view `p%x(i, j)` into `p(i)%x(j)` needs
//! (see [`super::structarr`]). The expression printer and the statement printer ask.

use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::il::{Attr, DeclKind, ScalarType, Unit, key};

thread_local! {
    /// Arrays of derived type → their rank; component paths below them (`p%x`) → the
    /// rank of the component (that of `p%x` minus that of `p`), when the symbols tell.
    static RANKS: RefCell<Ranks> = const { RefCell::new((BTreeMap::new(), BTreeMap::new())) };
}

type Ranks = (BTreeMap<String, usize>, BTreeMap<String, usize>);

/// The arrays of derived type of a unit in scope while it lives; the previous ones come
/// back when it is dropped.
pub(crate) struct Scope(Ranks);

impl Scope {
    pub(crate) fn enter(unit: &Unit) -> Scope {
        Scope::enter_all(std::iter::once(unit))
    }

    /// The arrays of derived type of several units at once (the modules a file's units
    /// may USE: the derivative module of `g` declares `gb`, used by name elsewhere).
    pub(crate) fn enter_all<'u>(units: impl Iterator<Item = &'u Unit>) -> Scope {
        let prev = RANKS.with(|r| r.borrow().clone());
        let (mut now, mut parts) = prev.clone();
        for unit in units {
            add_unit(unit, &mut now, &mut parts);
        }
        RANKS.with(|r| *r.borrow_mut() = (now, parts));
        Scope(prev)
    }
}

fn add_unit(unit: &Unit, now: &mut BTreeMap<String, usize>, parts: &mut BTreeMap<String, usize>) {
    {
        for d in &unit.decls {
            let DeclKind::Var {
                spec,
                attrs,
                entities,
            } = &d.kind
            else {
                continue;
            };
            if spec.type_name.is_none() {
                continue;
            }
            let attr_rank = attrs.iter().find_map(|a| match a {
                Attr::Dimension(dims) => Some(dims.len()),
                _ => None,
            });
            for e in entities {
                match e.dims.as_ref().map(Vec::len).or(attr_rank) {
                    Some(r) if r > 0 => now.insert(key(&e.name), r),
                    _ => now.remove(&key(&e.name)),
                };
            }
        }
        for s in unit.symbols.iter() {
            if s.ty == ScalarType::Derived && s.is_array() && !s.name.contains('%') {
                now.entry(key(&s.name)).or_insert(s.rank());
            }
        }
        for s in unit.symbols.iter() {
            let Some((base, _)) = s.name.split_once('%') else {
                continue;
            };
            if let Some(&r) = now.get(crate::il::key_ref(base).as_ref()) {
                parts.insert(key(&s.name), s.rank().saturating_sub(r));
            }
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let prev = std::mem::take(&mut self.0);
        RANKS.with(|r| *r.borrow_mut() = prev);
    }
}

/// For a component path `p%x` of an array of derived type `p`: the rank of `p`.
pub(crate) fn base_rank(path: &str) -> Option<usize> {
    let (base, _) = path.split_once('%')?;
    RANKS.with(|r| r.borrow().0.get(crate::il::key_ref(base).as_ref()).copied())
}

/// For a component path `p%x` of an array of derived type: the rank of `x`, if known.
pub(crate) fn component_rank(path: &str) -> Option<usize> {
    RANKS.with(|r| r.borrow().1.get(crate::il::key_ref(path).as_ref()).copied())
}
