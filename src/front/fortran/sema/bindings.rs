//! Calls through type-bound procedures (`front::fortran::unit::bindings`): `call
//! m%advance(dt)` and `m%energy()` are calls of the procedure the binding names, with
//! the object inserted as the argument PASS says (none for NOPASS). The unit records how
//! the source wrote them (`il::Unit::source_calls`) so that the back-end prints the
//! primal's calls through the binding again: the procedure may be PRIVATE to its module.
//!
//! The call goes to the procedure of the object's declared type: no type of an accepted
//! program extends another (EXTENDS is refused), so that is the one that runs.

use super::*;
use crate::il::{Arg, BindingPass, ExprKind, SourceCall};

impl Sema<'_> {
    /// Records the bindings of type `name` (the procedures are known at the end of the
    /// module, `resolve_bindings`).
    pub(super) fn bind_procedures(&mut self, name: &str, bindings: &[crate::il::Binding]) {
        let Some(t) = self.types.get_mut(crate::il::key_ref(name).as_ref()) else {
            return;
        };
        t.bindings = bindings
            .iter()
            .filter(|b| b.specific.is_some() || !b.generic.is_empty())
            .map(|b| BoundProcedure {
                binding: b.clone(),
                pass: None,
                info: None,
            })
            .collect();
    }

    /// At the end of module `module`: each binding's procedure among the module's
    /// `procedures`, the object's position among its dummies, and what the module knows
    /// of it.
    pub(super) fn resolve_bindings(&mut self, procedures: &[ModuleProcedure], module: &str) {
        let mut types = std::mem::take(&mut self.types);
        for t in types.values_mut() {
            if t.owner.is_none() && !t.bindings.is_empty() {
                t.owner = Some(module.to_string());
            }
            for b in &mut t.bindings {
                if b.info.is_some() || b.binding.specific.is_none() {
                    continue;
                }
                let specific = b.binding.specific.clone().unwrap_or_default();
                let Some(p) = procedures.iter().find(|p| key(&p.name) == key(&specific)) else {
                    continue;
                };
                b.pass = match &b.binding.pass {
                    BindingPass::First => Some(0),
                    BindingPass::Named(n) => p.args.iter().position(|a| key(a) == key(n)),
                    BindingPass::NoPass => None,
                };
                b.info = self.lookup(&specific).map(|i| self.infos[i].clone());
            }
        }
        self.types = types;
    }

    /// For `object%binding(args)` (`name` is `object%binding`; `args` may start with the
    /// object's own subscripts, marked `%N`) where `binding` is a type-bound procedure of
    /// the object's type: the procedure's name, with `args` made its actual arguments.
    /// For a GENERIC binding, the name of the generic that stands for it
    /// ([`bound_generic_name`]), resolved with the other generics once every unit is
    /// analyzed (`front::fortran::generic`).
    pub(super) fn bound_call(
        &mut self,
        name: &str,
        args: &mut Vec<Arg>,
        span: Span,
    ) -> Option<String> {
        let (prefix, binding) = name.rsplit_once('%')?;
        let type_name = self
            .lookup(prefix)
            .and_then(|i| self.infos[i].spec.as_ref())
            .and_then(|s| s.type_name.clone())?;
        let t = self.types.get(crate::il::key_ref(&type_name).as_ref())?;
        let bound = t
            .bindings
            .iter()
            .find(|b| key(&b.binding.name) == key(binding))?
            .clone();
        // The procedure called, how the object is passed (the binding's PASS, and its
        // position), and what a unit that does not see the procedure knows of it.
        let (callee, pass_kind, pass, info) = if bound.binding.generic.is_empty() {
            let specific = bound.binding.specific.clone()?;
            (
                specific,
                bound.binding.pass.clone(),
                bound.pass,
                bound.info.clone(),
            )
        } else {
            let listed: Vec<&BoundProcedure> = bound
                .binding
                .generic
                .iter()
                .filter_map(|b| {
                    t.bindings
                        .iter()
                        .find(|x| key(&x.binding.name) == key(b) && x.binding.specific.is_some())
                })
                .collect();
            let passes =
                |x: &&BoundProcedure| (matches!(x.binding.pass, BindingPass::NoPass), x.pass);
            let same = listed.windows(2).all(|w| passes(&w[0]) == passes(&w[1]));
            if listed.len() != bound.binding.generic.len() || !same {
                // Said once per procedure, at its first call through the binding.
                if !self
                    .reported
                    .insert(format!("{}%{}", key(&type_name), key(binding)))
                {
                    return None;
                }
                let why = if same {
                    "it lists a name that is not a specific binding of the type"
                } else {
                    "its specifics take the object as different arguments"
                };
                self.error(
                    "E0405",
                    format!("this call through the generic binding `{binding}` of type `{type_name}` is not supported yet: {why}"),
                    span,
                )
                .help = Some("call the specific binding, or the procedure itself".to_string());
                return None;
            }
            let first = listed.first()?;
            // Known once the module defining the type is analyzed, which comes first.
            let Some(owner) = t.owner.clone() else {
                self.error(
                    "E0405",
                    format!("this call through the generic binding `{binding}` of type `{type_name}` is not supported yet: the type is not defined in a module"),
                    span,
                )
                .help = Some("define the type in a module".to_string());
                return None;
            };
            let generic = bound_generic_name(&type_name, binding);
            let mut info = Info::new(&generic, span);
            info.external = true;
            info.generic = true;
            info.import = Import::Use;
            info.global = Some(GlobalRef {
                module: owner,
                name: generic.clone(),
            });
            // A function's result: its specifics' type (they differ in the arguments).
            let result = |x: &&BoundProcedure| {
                x.info.as_ref().map(|i| {
                    let name = i
                        .spec
                        .as_ref()
                        .and_then(|s| s.type_name.as_ref().map(|n| key(n)));
                    (i.ty, name, i.dims.as_ref().map(Vec::len))
                })
            };
            if let Some(specific_info) = &first.info
                && listed.iter().all(|x| result(x) == result(first))
            {
                info.spec = specific_info.spec.clone();
                info.ty = specific_info.ty;
                info.dims = specific_info.dims.clone();
            }
            (generic, first.binding.pass.clone(), first.pass, Some(info))
        };
        let outer = match args.first().and_then(|a| a.keyword.as_deref()) {
            Some(k) if k.starts_with('%') => k[1..].parse::<usize>().unwrap_or(0),
            _ => 0,
        };
        let mut subscripts: Vec<Arg> = args.drain(..outer.min(args.len())).collect();
        if let Some(first) = subscripts.first_mut() {
            first.keyword = None;
        }
        let object = if subscripts.is_empty() {
            Expr {
                kind: ExprKind::Var(prefix.to_string()),
                span,
            }
        } else {
            Expr {
                kind: ExprKind::Call(prefix.to_string(), subscripts),
                span,
            }
        };
        let pass = match (&pass_kind, pass) {
            (BindingPass::NoPass, _) => None,
            (_, Some(k)) if k <= args.len() && args.iter().take(k).all(|a| a.keyword.is_none()) => {
                Some(k)
            }
            _ => {
                self.error(
                    "E0405",
                    format!("this call through the type-bound procedure `{binding}` of type `{type_name}` is not supported yet: adgen cannot place the object among the arguments of `{callee}`"),
                    span,
                )
                .help = Some(format!("call `{callee}` itself, with the object as its argument"));
                return None;
            }
        };
        if let Some(k) = pass {
            args.insert(k, Arg::positional(object.clone()));
        }
        // A procedure this unit does not see (PRIVATE to its module, or left out of an
        // ONLY list) is known as its module knows it.
        if self.lookup(&callee).is_none()
            && let Some(mut info) = info
        {
            info.import = Import::Use;
            self.by_key.insert(key(&callee), self.infos.len());
            self.infos.push(info);
        }
        self.source_calls.insert(
            key(&callee),
            SourceCall::Bound {
                binding: binding.to_string(),
                pass,
                object: pass.is_none().then_some(object),
            },
        );
        Some(callee)
    }

    /// For `operator(.op.)`, when a type seen here has a GENERIC binding of it: the
    /// result type its specifics share (`None` inside when they do not, or are not
    /// known).
    pub(super) fn bound_operator(&self, name: &str) -> Option<Option<(TypeSpec, ScalarType)>> {
        let mut results = Vec::new();
        let mut found = false;
        for t in self.types.values() {
            for b in t
                .bindings
                .iter()
                .filter(|b| key(&b.binding.name) == key(name))
            {
                found = true;
                for listed in &b.binding.generic {
                    let result = t
                        .bindings
                        .iter()
                        .find(|x| {
                            key(&x.binding.name) == key(listed) && x.binding.specific.is_some()
                        })
                        .and_then(|x| x.info.as_ref())
                        .and_then(|i| Some((i.spec.clone()?, i.ty?)));
                    results.push(result);
                }
            }
        }
        if !found {
            return None;
        }
        let first = results.first().cloned().flatten();
        let same = results.iter().all(|r| {
            r.as_ref()
                .map(|(s, t)| (*t, s.type_name.as_ref().map(|n| key(n))))
                == first
                    .as_ref()
                    .map(|(s, t)| (*t, s.type_name.as_ref().map(|n| key(n))))
        });
        Some(first.filter(|_| same))
    }
}

/// The name of the generic that a GENERIC binding `binding` of type `type_name` is, in
/// the module defining the type: no Fortran name can be spelled so (`t@norm`).
pub fn bound_generic_name(type_name: &str, binding: &str) -> String {
    format!("{}@{}", key(type_name), key(binding))
}
