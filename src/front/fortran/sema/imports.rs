//! What a unit sees from outside itself: its host module's names (host association), the
//! names a USE statement brings in (ONLY lists and renames included), and the derived
//! types their components need.

use super::*;

impl Sema<'_> {
    /// A module procedure sees every name of its module, and its implicit rules, unless
    /// it declares the name itself (its dummies and result are always its own).
    pub(super) fn import_host(&mut self, scope: &ModuleScope, unit: &Unit) {
        self.types.extend(scope.types.clone());
        self.interfaces.extend(scope.interfaces.clone());
        self.implicit = scope.implicit.clone();
        self.implicit_none = scope.implicit_none;
        let own: BTreeSet<String> = unit
            .args
            .iter()
            .chain(unit.result.iter())
            .map(|n| key(n))
            .chain(std::iter::once(key(&unit.name)))
            .collect();
        for info in &scope.infos {
            if own.contains(crate::il::key_ref(&info.name).as_ref()) {
                continue;
            }
            let mut info = info.clone();
            info.import = Import::Host;
            self.by_key.insert(key(&info.name), self.infos.len());
            self.infos.push(info);
        }
    }

    /// The types of the components of `t`, nested at any depth: a variable of type `t`
    /// has those components even where ONLY did not name their types.
    pub(super) fn import_component_types(&mut self, scope: &ModuleScope, t: &TypeInfo) {
        for c in &t.components {
            if c.ty != ScalarType::Derived {
                continue;
            }
            let Some(name) = &c.spec.type_name else {
                continue;
            };
            if self.types.contains_key(crate::il::key_ref(name).as_ref()) {
                continue;
            }
            if let Some(inner) = scope.types.get(crate::il::key_ref(name).as_ref()) {
                self.types.insert(key(name), inner.clone());
                self.import_component_types(scope, inner);
            }
        }
    }

    /// `USE module [, ONLY: ...]`: the module's names under their local names.
    pub(super) fn import_use(
        &mut self,
        modules: &Modules,
        module: &str,
        only: Option<&[String]>,
        renames: &[(String, String)],
        span: Span,
    ) {
        let Some(scope) = modules.get(crate::il::key_ref(module).as_ref()) else {
            self.error(
                "E0313",
                format!("module `{module}` is not defined in the sources"),
                span,
            )
            .help = Some("add the file that defines it to `sources` in ad.toml".to_string());
            return;
        };
        // Interfaces are not names of entities: all of them come with the module, for
        // the `PROCEDURE(iface)` declarations that name them.
        self.interfaces.extend(scope.interfaces.clone());
        // (local, remote) pairs to import.
        let mut wanted: Vec<(String, String)> = Vec::new();
        match only {
            Some(names) => {
                for local in names {
                    if let Some(t) = scope.types.get(crate::il::key_ref(local).as_ref()) {
                        self.types.insert(key(local), t.clone());
                        self.import_component_types(scope, t);
                        continue;
                    }
                    let remote = renames
                        .iter()
                        .find(|(l, _)| key(l) == key(local))
                        .map_or(local.clone(), |(_, r)| r.clone());
                    wanted.push((local.clone(), remote));
                }
            }
            None => {
                self.types.extend(scope.types.clone());
                for info in &scope.infos {
                    if info.name.contains('%') {
                        continue;
                    }
                    let renamed: Vec<&(String, String)> = renames
                        .iter()
                        .filter(|(_, r)| key(r) == key(&info.name))
                        .collect();
                    if renamed.is_empty() {
                        wanted.push((info.name.clone(), info.name.clone()));
                    }
                    for (l, r) in renamed {
                        wanted.push((l.clone(), r.clone()));
                    }
                }
            }
        }
        for (local, remote) in wanted {
            // An intrinsic module's procedures are intrinsics adgen knows by name.
            if scope.infos.iter().all(|i| key(&i.name) != key(&remote))
                && local == remote
                && intrinsics::lookup(&remote).is_some()
                && super::super::INTRINSIC_MODULES
                    .iter()
                    .any(|(m, _)| m.eq_ignore_ascii_case(module))
            {
                continue;
            }
            let Some(found) = scope.infos.iter().find(|i| key(&i.name) == key(&remote)) else {
                self.error(
                    "E0313",
                    format!("module `{module}` has no entity named `{remote}`"),
                    span,
                );
                continue;
            };
            if let Some(i) = self.lookup(&local) {
                let same = self.infos[i].global.as_ref().map(GlobalRef::key)
                    == found.global.as_ref().map(GlobalRef::key);
                if self.infos[i].import == Import::Use && same {
                    continue;
                }
                if self.infos[i].import == Import::Host {
                    self.infos[i] = found.clone();
                    self.infos[i].name = local.clone();
                    self.infos[i].import = Import::Use;
                    continue;
                }
                self.error(
                    "E0307",
                    format!("`{local}` is imported twice with different meanings"),
                    span,
                );
                continue;
            }
            // The components of a derived-type variable come with it.
            let prefix = format!("{}%", key(&remote));
            let parts: Vec<Info> = scope
                .infos
                .iter()
                .filter(|i| key(&i.name).starts_with(&prefix))
                .cloned()
                .collect();
            for mut part in parts {
                part.name = format!("{local}{}", &part.name[remote.len()..]);
                part.import = Import::Use;
                part.span = span;
                if self.lookup(&part.name).is_none() {
                    self.by_key.insert(key(&part.name), self.infos.len());
                    self.infos.push(part);
                }
            }
            let mut info = found.clone();
            info.name = local.clone();
            info.import = Import::Use;
            info.span = span;
            // The kind may be a name of the module's scope (`real(dp)`), which this unit
            // may not see: state it as a number.
            if let (Some(spec), Some(ty)) = (&info.spec, info.ty)
                && spec.kind.is_some()
                && matches!(ty, ScalarType::Real(_) | ScalarType::Integer(_))
            {
                info.spec = Some(TypeSpec::of(ty));
            }
            self.by_key.insert(key(&local), self.infos.len());
            self.infos.push(info);
        }
    }
}
