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
            .filter(|b| b.specific.is_some())
            .map(|b| BoundProcedure {
                binding: b.clone(),
                pass: None,
                info: None,
            })
            .collect();
    }

    /// At the end of a module: each binding's procedure among the module's `procedures`,
    /// the object's position among its dummies, and what the module knows of it.
    pub(super) fn resolve_bindings(&mut self, procedures: &[ModuleProcedure]) {
        let mut types = std::mem::take(&mut self.types);
        for t in types.values_mut() {
            for b in &mut t.bindings {
                if b.info.is_some() {
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
        let bound = self
            .types
            .get(crate::il::key_ref(&type_name).as_ref())?
            .bindings
            .iter()
            .find(|b| key(&b.binding.name) == key(binding))?
            .clone();
        let specific = bound.binding.specific.clone()?;
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
        let pass = match (&bound.binding.pass, bound.pass) {
            (BindingPass::NoPass, _) => None,
            (_, Some(k)) if k <= args.len() && args.iter().take(k).all(|a| a.keyword.is_none()) => {
                Some(k)
            }
            _ => {
                self.error(
                    "E0405",
                    format!("this call through the type-bound procedure `{binding}` of type `{type_name}` is not supported yet: adgen cannot place the object among the arguments of `{specific}`"),
                    span,
                )
                .help = Some(format!("call `{specific}` itself, with the object as its argument"));
                return None;
            }
        };
        if let Some(k) = pass {
            args.insert(k, Arg::positional(object.clone()));
        }
        // A procedure this unit does not see (PRIVATE to its module, or left out of an
        // ONLY list) is known as its module knows it.
        if self.lookup(&specific).is_none()
            && let Some(mut info) = bound.info.clone()
        {
            info.import = Import::Use;
            self.by_key.insert(key(&specific), self.infos.len());
            self.infos.push(info);
        }
        self.source_calls.insert(
            key(&specific),
            SourceCall::Bound {
                binding: binding.to_string(),
                pass,
                object: pass.is_none().then_some(object),
            },
        );
        Some(specific)
    }
}
