//! Calls that still pass a procedure by name once specialization is done (`specialize`
//! could not make the copy: the procedure passed by keyword, an internal procedure, a
//! copy that would need a PRIVATE variable or type of the callee's module). The callee
//! calls its procedure dummy, which the analyses cannot see through: a procedure
//! argument called with active values is refused there (E0503), but what the procedure
//! passed reads and writes in modules and COMMON blocks (`y = exp(-k*x)` with `k` set
//! by the root from an independent), or in its host if it is an internal procedure,
//! would be lost without a word, and the derivative silently wrong. Such a call is
//! refused instead (E0503, when a root reaches it), with why the copy could not be made.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::Diagnostic;
use crate::il::{Arg, ExprKind, GlobalRef, Program, Symbol, Unit, key, visit};

/// Defers E0503 onto each procedure of `program` with such a call.
pub fn refuse(program: &mut Program) {
    // The procedures that call a procedure dummy, with those dummies' positions: only
    // calls of these can pass a procedure on (found once, not per call).
    let dummies: BTreeMap<String, Vec<usize>> = program
        .procedures()
        .map(|u| (key(&u.name), super::specialize::procedure_dummies(u)))
        .filter(|(_, d)| !d.is_empty())
        .collect();
    if dummies.is_empty() {
        return;
    }
    let mut found: Vec<(usize, usize, Diagnostic)> = Vec::new();
    for (f, file) in program.files.iter().enumerate() {
        for (u, unit) in file.units.iter().enumerate() {
            if !unit.is_procedure() {
                continue;
            }
            let mut said = BTreeSet::new();
            visit::walk_stmts(&unit.body, &mut |s| {
                visit::stmt_calls(s, &mut |name, args| {
                    let Some(positions) = dummies.get(crate::il::key_ref(name).as_ref()) else {
                        return;
                    };
                    let Some(d) = check_call(program, unit, name, positions, args) else {
                        return;
                    };
                    if said.insert((key(name), d.message.clone())) {
                        found.push((f, u, d.at(s.span)));
                    }
                });
            });
        }
    }
    for (f, u, d) in found {
        program.files[f].units[u].deferred.push(d);
    }
}

/// E0503 for a call of `callee` (whose procedure dummies are at `dummies`) from
/// `caller` that passes a procedure of the sources that uses module or COMMON variables,
/// if there is one.
fn check_call(
    program: &Program,
    caller: &Unit,
    callee: &str,
    dummies: &[usize],
    args: &[Arg],
) -> Option<Diagnostic> {
    let target = program.unit(callee)?;
    for &k in dummies {
        // The actual for dummy `k`: by its keyword, else at its position.
        let by_keyword = args.iter().find(|a| {
            a.keyword
                .as_deref()
                .is_some_and(|kw| key(kw) == key(&target.args[k]))
        });
        let Some(a) = by_keyword.or_else(|| args.get(k).filter(|a| a.keyword.is_none())) else {
            continue;
        };
        let ExprKind::Var(p) = &a.value.kind else {
            continue;
        };
        if caller.args.iter().any(|d| key(d) == key(p)) {
            // The caller's own procedure dummy: resolved where the caller is copied,
            // refused where it cannot be (a root's own, E0503 in the differentiator).
            continue;
        }
        let Some(passed) = program.unit(p) else {
            continue;
        };
        // An internal procedure sees its host's variables (lifted, they are extra
        // arguments the call cannot pass): a hidden dependence like a module variable's.
        let hidden = match &passed.internal_of {
            Some(host) if takes_host_variables(target, k, passed) => {
                Some(format!("the variables of its host `{host}`"))
            }
            Some(_) => None,
            None => global_used(program, passed).map(|v| format!("`{v}`")),
        };
        let Some(variable) = hidden else {
            continue;
        };
        let why = if a.keyword.is_some() {
            (
                "it is passed by keyword".to_string(),
                format!("pass `{p}` by position"),
            )
        } else if target.internal_of.is_some() || passed.internal_of.is_some() {
            (
                "an internal procedure is involved".to_string(),
                format!("make `{callee}` and `{p}` module procedures or external ones"),
            )
        } else if let Some((name, module)) = private_variable(program, target) {
            (
                format!(
                    "the copy, in the caller's module, would need `{name}`, PRIVATE in `{module}`"
                ),
                format!("make `{name}` PUBLIC in `{module}`"),
            )
        } else {
            (
                "the copy has no module that sees both".to_string(),
                format!("call `{callee}` from a module procedure"),
            )
        };
        return Some(
            Diagnostic::error(
                "E0503",
                format!(
                    "adgen cannot make a copy of `{callee}` specialized to `{p}` ({}), and \
                     `{p}` uses {variable}: the derivative would miss what it reads and \
                     writes there",
                    why.0
                ),
            )
            .with_help(why.1),
        );
    }
    None
}

/// A module or COMMON variable that `unit` or a procedure it calls (at any depth) uses.
fn global_used(program: &Program, unit: &Unit) -> Option<String> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut pending = vec![unit];
    while let Some(u) = pending.pop() {
        if !seen.insert(key(&u.name)) {
            continue;
        }
        if let Some((s, _)) = used_globals(u).find(|(_, g)| !g.module.starts_with('#')) {
            return Some(s.name.clone());
        }
        for c in visit::called_names(u) {
            if let Some(next) = program.unit(&c) {
                pending.push(next);
            }
        }
    }
    None
}

/// A variable that `unit` uses and that its module keeps PRIVATE, with the module.
fn private_variable(program: &Program, unit: &Unit) -> Option<(String, String)> {
    let module = program.module(unit.host.as_deref()?)?;
    used_globals(unit)
        .find(|(s, g)| key(&g.module) == key(&module.name) && module.is_private(&s.name))
        .map(|(s, _)| (s.name.clone(), module.name.clone()))
}

/// The module and COMMON variables `unit`'s body uses, with where they live. (Its symbol
/// table also holds the names of its host module that it does not use.)
fn used_globals(unit: &Unit) -> impl Iterator<Item = (&Symbol, &GlobalRef)> {
    visit::referenced_names(&unit.body)
        .into_iter()
        .filter_map(|n| unit.symbols.get(&n))
        .filter(|s| s.is_variable())
        .filter_map(|s| Some((s, s.global.as_ref()?)))
}

/// Does internal procedure `passed`, lifted, take more arguments than `target` passes
/// its procedure dummy `k` (the host variables it uses, `lift`)? Yes when `target` never
/// calls the dummy itself (it passes it on): not known, so taken as so.
fn takes_host_variables(target: &Unit, k: usize, passed: &Unit) -> bool {
    let dummy = key(&target.args[k]);
    let mut counts: Vec<usize> = Vec::new();
    visit::walk_stmts(&target.body, &mut |s| {
        visit::stmt_calls(s, &mut |name, args| {
            if key(name) == dummy {
                counts.push(args.len());
            }
        });
    });
    counts.is_empty() || counts.iter().any(|&n| passed.args.len() > n)
}
