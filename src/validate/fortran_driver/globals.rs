//! Module variables that are independents or dependents of a root (INTERFACE.md §1: a
//! root without arguments), which the driver uses from their module with their
//! derivatives from the derivative modules, and the module constants the arguments'
//! bounds name.

use super::*;

/// An independent or dependent of the root that is none of its arguments: a module
/// variable of explicit shape, which the driver uses from its module.
pub(super) fn global_slot(
    unit: &Unit,
    name: &str,
    (indep, dep): (&BTreeSet<String>, &BTreeSet<String>),
) -> Result<Slot, String> {
    let refuse = |what: &str| {
        Err(format!(
            "`{name}` of `{}` {what}: check this root with a driver of your own",
            unit.name
        ))
    };
    let Some(sym) = unit.symbols.get(name) else {
        return refuse("is neither an argument nor a variable it sees");
    };
    let Some(g) = sym.global.as_ref().filter(|_| sym.is_module_variable()) else {
        return refuse("is a COMMON variable, which the driver cannot declare");
    };
    if sym.dims.iter().any(|d| !matches!(d.upper, Bound::Expr(_))) {
        return refuse("is an ALLOCATABLE or POINTER module array, which the driver cannot fill");
    }
    if !matches!(sym.ty, ScalarType::Real(_)) {
        return refuse("is a module variable that is not real");
    }
    Ok(Slot {
        var: g.name.clone(),
        key: key(name),
        ty: sym.ty,
        dims: sym.dims.clone(),
        intent: None,
        is_result: false,
        independent: indep.contains(&key(name)),
        dependent: dep.contains(&key(name)),
        parent: None,
        in_d: true,
        in_b: true,
        module: Some(g.module.clone()),
    })
}

/// `use` lines for the module variables among `slots` and, in the modes asked, their
/// derivatives (INTERFACE.md §3: `u` of `m` is `ud` of `m_d`, `ub` of `m_b`); and for
/// the module constants the arguments' bounds name (`x(nx)` with `nx` from a module).
pub(super) fn global_uses(unit: &Unit, slots: &[Slot], tangent: bool, adjoint: bool) -> String {
    let mut out = String::new();
    for name in bound_names(slots.iter().filter(|s| s.module.is_none())) {
        let Some(sym) = unit.symbols.get(name) else {
            continue;
        };
        if let Some(g) = sym.global.as_ref().filter(|g| !g.module.starts_with('/')) {
            if key(&g.name) == key(name) {
                writeln!(out, "  use {}, only: {name}", g.module).unwrap();
            } else {
                writeln!(out, "  use {}, only: {name} => {}", g.module, g.name).unwrap();
            }
        }
    }
    for s in slots {
        let Some(m) = &s.module else {
            continue;
        };
        writeln!(out, "  use {m}, only: {}", s.var).unwrap();
        for (mode, on) in [('d', tangent), ('b', adjoint)] {
            if on {
                writeln!(out, "  use {m}_{mode}, only: {}", s.dvar_of(mode)).unwrap();
            }
        }
    }
    out
}
