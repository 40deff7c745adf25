//! Zones: one per storage location of a unit, indexing the bitsets of data-flow analyses
//! (seeds/000 §3: arrays are atoms; one zone per scalar or whole array). Variables that
//! share storage by EQUIVALENCE are one zone (coarser than Tapenade's fragments: a write
//! to any of them is a partial write of the zone, never a kill).

use std::collections::BTreeMap;

use bitvec::vec::BitVec;

use crate::il::{DeclKind, ScalarType, SymbolKind, Unit, key};

pub type ZoneId = usize;

/// A set of zones.
pub type ZoneSet = BitVec;

#[derive(Clone, Debug)]
pub struct Zone {
    /// The variable's name as declared.
    pub name: String,
    pub ty: ScalarType,
    pub is_array: bool,
    /// Position among the dummy arguments.
    pub arg_index: Option<usize>,
    /// Other dummies sharing this zone: a caller passes them the same storage
    /// (`ir::aliasing`).
    pub aliased_args: Vec<usize>,
    pub is_result: bool,
    /// A module variable seen by use or host association (not the unit's own storage).
    pub global: bool,
    /// Several variables share this zone's storage (EQUIVALENCE): a write to one of
    /// them never kills the zone.
    pub shared: bool,
    /// A module variable this unit does not see: only its callees reach it. Its zone
    /// carries their effects across the unit's calls (§5.2: globals are zones of every
    /// procedure).
    pub hidden: bool,
}

/// A module variable of the program, as every unit's zones include it.
#[derive(Clone, Debug)]
pub struct GlobalInfo {
    pub global: crate::il::GlobalRef,
    pub ty: ScalarType,
    pub is_array: bool,
}

/// The zones of one unit: every variable symbol (dummies, locals, function result), in
/// declaration order.
#[derive(Clone, Debug, Default)]
pub struct Zones {
    pub zones: Vec<Zone>,
    by_key: BTreeMap<String, ZoneId>,
    /// Components of derived-type variables (`s%x`, by key) and their types: a
    /// component belongs to its variable's zone (the variable is the atom).
    parts: BTreeMap<String, ScalarType>,
    /// The zone of each program global ([`GlobalInfo`], in the program's order).
    pub globals: Vec<ZoneId>,
    /// Integer (or logical, character) variables sharing a real zone's storage, by key
    /// (`EQUIVALENCE (T, K)`, or DLSODES's `WK` and `IWK` dummies given one array): they
    /// carry no derivative. A value written through one of them is not a real value, so
    /// the program reads it back as a real only after writing a real there.
    passive_members: std::collections::BTreeSet<String>,
}

/// The EQUIVALENCE classes of a unit: each variable of a set (by key) → its class number;
/// sets that share a variable are one class.
/// Variables that callers pass the same storage (`aliased`, pairs of keys: two dummies,
/// or a dummy and a module variable the unit sees) are classes too.
fn equivalence_classes(unit: &Unit, aliased: &[(String, String)]) -> BTreeMap<String, usize> {
    let mut class: BTreeMap<String, usize> = BTreeMap::new();
    let sets = unit.decls.iter().filter_map(|d| match &d.kind {
        DeclKind::Equivalence(sets) => Some(sets),
        _ => None,
    });
    let mut all: Vec<Vec<String>> = sets
        .flatten()
        .map(|set| set.iter().filter_map(|e| e.base_name()).map(key).collect())
        .collect();
    for (a, b) in aliased {
        all.push(vec![a.clone(), b.clone()]);
    }
    for (n, names) in all.into_iter().enumerate() {
        // Merge with every class a name of this set is already in.
        let merged: Vec<usize> = names.iter().filter_map(|k| class.get(k).copied()).collect();
        for c in class.values_mut() {
            if merged.contains(c) {
                *c = n;
            }
        }
        for k in names {
            class.insert(k, n);
        }
    }
    class
}

impl Zones {
    /// The zones of `unit`: its variables, then the program's globals it does not see.
    /// `aliased`: pairs of variables (keys) that share one zone (`ir::aliasing`).
    pub fn of_unit(unit: &Unit, globals: &[GlobalInfo], aliased: &[(String, String)]) -> Zones {
        let mut zones = Zones::default();
        let mut global_zone: Vec<Option<ZoneId>> = vec![None; globals.len()];
        let classes = equivalence_classes(unit, aliased);
        for symbol in unit.symbols.iter() {
            if symbol.kind != SymbolKind::Variable {
                continue;
            }
            if symbol.name.contains('%') {
                zones.parts.insert(key(&symbol.name), symbol.ty);
                continue;
            }
            // A variable EQUIVALENCEd to one already seen joins its zone; the zone has
            // the type of a real member when there is one.
            if let Some(class) = classes.get(crate::il::key_ref(&symbol.name).as_ref()) {
                let seen = unit
                    .symbols
                    .iter()
                    .map(|s| key(&s.name))
                    .filter(|k| classes.get(k) == Some(class))
                    .find_map(|k| zones.by_key.get(&k).copied());
                if let Some(z) = seen {
                    zones.by_key.insert(key(&symbol.name), z);
                    zones.zones[z].aliased_args.extend(symbol.arg_index);
                    if !zones.zones[z].ty.is_differentiable() {
                        zones.zones[z].ty = symbol.ty;
                    }
                    // A COMMON variable that locals are EQUIVALENCEd onto: the zone is
                    // that global, under its name.
                    if let Some(g) = &symbol.global {
                        if let Some(i) = globals.iter().position(|x| x.global.key() == g.key()) {
                            global_zone[i] = Some(z);
                            let zone = &mut zones.zones[z];
                            zone.name = symbol.name.clone();
                            zone.global = true;
                            zone.is_array = symbol.is_array();
                        }
                    }
                    continue;
                }
            }
            if let Some(g) = &symbol.global {
                if let Some(i) = globals.iter().position(|x| x.global.key() == g.key()) {
                    global_zone[i] = Some(zones.zones.len());
                }
            }
            zones.by_key.insert(key(&symbol.name), zones.zones.len());
            zones.zones.push(Zone {
                name: symbol.name.clone(),
                ty: symbol.ty,
                is_array: symbol.is_array(),
                arg_index: symbol.arg_index,
                aliased_args: Vec::new(),
                is_result: symbol.is_result,
                global: symbol.global.is_some(),
                shared: classes.contains_key(crate::il::key_ref(&symbol.name).as_ref()),
                hidden: false,
            });
        }
        for (i, g) in globals.iter().enumerate() {
            // A variable the unit does not see, passed to it as a dummy that its callees
            // then reach it beside (`ir::aliasing`): the dummy's zone stands for it.
            let alias = (!aliased.is_empty() && global_zone[i].is_none())
                .then(|| super::aliasing::hidden_key(&g.global))
                .and_then(|hidden| aliased.iter().find(|(_, h)| *h == hidden))
                .and_then(|(d, _)| zones.by_key.get(d).copied());
            if let (None, Some(z)) = (global_zone[i], alias) {
                global_zone[i] = Some(z);
                zones.zones[z].shared = true;
                zones.zones[z].global = true;
                continue;
            }
            if global_zone[i].is_none() {
                global_zone[i] = Some(zones.zones.len());
                // Found by name only where the unit has no name of its own like it;
                // where it has, generated code names the module variable otherwise
                // (`h_m`, used as `use m, only: h_m => h`), or it would save and
                // restore the unit's own `h` instead.
                let mut name = g.global.name.clone();
                if unit.symbols.get(&g.global.name).is_none() {
                    zones.by_key.insert(key(&g.global.name), zones.zones.len());
                } else {
                    // (A COMMON block's `/c/` gives `h_c`: a name is letters.)
                    let home = g.global.module.trim_matches('/');
                    let base = format!("{}_{}", g.global.name, home);
                    name = base.clone();
                    let mut n = 0;
                    while unit.symbols.get(&name).is_some()
                        || zones.zones.iter().any(|z| key(&z.name) == key(&name))
                    {
                        name = format!("{base}{n}");
                        n += 1;
                    }
                    zones.by_key.insert(key(&name), zones.zones.len());
                }
                zones.zones.push(Zone {
                    name,
                    ty: g.ty,
                    is_array: g.is_array,
                    arg_index: None,
                    aliased_args: Vec::new(),
                    is_result: false,
                    global: true,
                    shared: false,
                    hidden: true,
                });
            }
        }
        zones.globals = global_zone.into_iter().flatten().collect();
        for symbol in unit.symbols.iter() {
            let k = key(&symbol.name);
            if let Some(&z) = zones.by_key.get(&k) {
                if zones.zones[z].ty.is_differentiable() && !symbol.ty.is_differentiable() {
                    zones.passive_members.insert(k);
                }
            }
        }
        zones
    }
    pub fn len(&self) -> usize {
        self.zones.len()
    }
    pub fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }
    /// The zone of a variable, or of the variable a component path (`s%x`) belongs to.
    pub fn get(&self, name: &str) -> Option<ZoneId> {
        let base = name.split('%').next().unwrap_or(name);
        self.by_key.get(crate::il::key_ref(base).as_ref()).copied()
    }
    /// The variable shares its storage with others by EQUIVALENCE.
    pub fn is_shared(&self, name: &str) -> bool {
        self.get(name).is_some_and(|z| self.zones[z].shared)
    }
    /// Whether a reference by this name can carry a derivative: a real variable, a
    /// derived-type variable, or a real (or derived-type) component.
    pub fn is_differentiable(&self, name: &str) -> bool {
        if name.contains('%') {
            return self
                .parts
                .get(crate::il::key_ref(name).as_ref())
                .is_some_and(|t| t.is_differentiable());
        }
        self.get(name)
            .is_some_and(|z| self.zones[z].ty.is_differentiable())
            && !self
                .passive_members
                .contains(crate::il::key_ref(name).as_ref())
    }
    /// Whether dummy argument `index` can carry a derivative: its zone is real, and it
    /// is not an integer view of that storage.
    pub fn arg_differentiable(&self, unit: &Unit, index: usize) -> bool {
        let own = unit.args.get(index).is_some_and(|a| {
            !self
                .passive_members
                .contains(crate::il::key_ref(a).as_ref())
        });
        own && self
            .of_arg(index)
            .is_some_and(|z| self.zones[z].ty.is_differentiable())
    }
    /// A variable of another type than its zone's, sharing real storage: no derivative.
    pub fn is_passive_member(&self, name: &str) -> bool {
        self.passive_members
            .contains(crate::il::key_ref(name).as_ref())
    }
    /// An empty set over these zones.
    pub fn empty_set(&self) -> ZoneSet {
        BitVec::repeat(false, self.zones.len())
    }
    /// The zone of dummy argument `index`.
    pub fn of_arg(&self, index: usize) -> Option<ZoneId> {
        self.zones
            .iter()
            .position(|z| z.arg_index == Some(index) || z.aliased_args.contains(&index))
    }
    /// The zone of the function result.
    pub fn result(&self) -> Option<ZoneId> {
        self.zones.iter().position(|z| z.is_result)
    }
    /// Zone names of a set, for debugging and `explain`.
    pub fn names(&self, set: &ZoneSet) -> Vec<&str> {
        set.iter_ones()
            .map(|z| self.zones[z].name.as_str())
            .collect()
    }
}
