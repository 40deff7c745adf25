//! Derivative code of internal procedures whose host is an external procedure.
//!
//! The front-end lifted each internal procedure out of its host ([`Unit::internal_of`]),
//! with the host variables it uses as extra arguments. In derivative code, what derivative
//! units of a host call among its internal procedures (their derivatives, and the
//! originals that the adjoint's forward sweep runs, which have no name outside the host
//! in the original program) become internal procedures of the derivative host again:
//! they get an explicit interface there (keyword arguments, function types) and add no
//! global name a user's program could already have. (Internal procedures of a module
//! procedure are procedures of the derivative module, where `modules` copies the
//! originals.)

use std::collections::{BTreeMap, BTreeSet};

use crate::il::{self, Program, Unit, key};

/// The derivative units of one file's external hosts, while the file's derivative units
/// are gathered in order.
#[derive(Default)]
pub(super) struct Hosts {
    /// Derivative unit name (key) → key of its original host.
    hosts: BTreeMap<String, String>,
    /// The last external procedure's key and its derivative unit's name.
    last: Option<(String, String)>,
    /// The file's procedures that have internal procedures (keys), found once.
    with_internals: Option<BTreeSet<String>>,
}

impl Hosts {
    /// Notes `generated`, the derivative of `original` (a unit of `file_units`): the
    /// derivative of an internal procedure of an external host becomes internal to the
    /// derivative of that host, which precedes it.
    pub(super) fn place(&mut self, original: &Unit, generated: &mut Unit, file_units: &[Unit]) {
        if original.host.is_some() {
            return;
        }
        match &original.internal_of {
            None => {
                self.last = Some((key(&original.name), generated.name.clone()));
                let with_internals = self.with_internals.get_or_insert_with(|| {
                    file_units
                        .iter()
                        .filter_map(|x| x.internal_of.as_deref().map(key))
                        .collect()
                });
                if with_internals.contains(crate::il::key_ref(&original.name).as_ref()) {
                    self.hosts.insert(key(&generated.name), key(&original.name));
                }
            }
            Some(h) => {
                if let Some((orig, dname)) = &self.last
                    && *orig == key(h)
                {
                    generated.internal_of = Some(dname.clone());
                }
            }
        }
    }

    /// Nests, in the units of one derivative file, the derivatives of internal
    /// procedures under the derivative unit of their host that precedes them, and adds
    /// after them a copy of every original internal procedure that derivative code calls.
    pub(super) fn nest_internal_procedures(&self, program: &Program, units: &mut Vec<Unit>) {
        let hosts = &self.hosts;
        let mut out: Vec<Unit> = Vec::with_capacity(units.len());
        let mut units_in = std::mem::take(units).into_iter().peekable();
        while let Some(d) = units_in.next() {
            let Some(host) = hosts.get(crate::il::key_ref(&d.name).as_ref()) else {
                out.push(d);
                continue;
            };
            // Its group: the derivative units of the host's internal procedures after it.
            let mut group = Vec::new();
            while let Some(u) =
                units_in.next_if(|u| u.internal_of.as_deref().map(key) == Some(key(&d.name)))
            {
                group.push(u);
            }
            let originals: Vec<&Unit> = program
                .procedures()
                .filter(|p| {
                    p.host.is_none()
                        && p.internal_of.as_deref().map(key).as_deref() == Some(host.as_str())
                })
                .collect();
            let mut present: BTreeSet<String> = group.iter().map(|u| key(&u.name)).collect();
            let mut pending: Vec<BTreeSet<String>> = std::iter::once(&d)
                .chain(group.iter())
                .map(names_of)
                .collect();
            while let Some(names) = pending.pop() {
                for p in &originals {
                    if names.contains(crate::il::key_ref(&p.name).as_ref())
                        && present.insert(key(&p.name))
                    {
                        let mut copy = (*p).clone();
                        copy.internal_of = Some(d.name.clone());
                        pending.push(names_of(&copy));
                        group.push(copy);
                    }
                }
            }
            // Internal procedures have an explicit interface: no EXTERNAL declaration of
            // theirs may stay (in the host or in a sibling).
            let nested: BTreeSet<String> = group.iter().map(|u| key(&u.name)).collect();
            let mut d = d;
            d.drop_external_declarations(&nested);
            for u in &mut group {
                u.drop_external_declarations(&nested);
            }
            out.push(d);
            out.extend(group);
        }
        *units = out;
    }
}

/// The procedures `u` calls (keys).
fn names_of(u: &Unit) -> BTreeSet<String> {
    il::visit::called_names(u).iter().map(|n| key(n)).collect()
}
