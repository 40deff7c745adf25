//! ALLOCATABLE local arrays turned into automatic arrays before scalarization.

use super::*;

// ----- ALLOCATABLE locals -----

/// ALLOCATABLE local arrays allocated once, at the top level of the body, with bounds
/// that only read constants and dummy arguments the unit never assigns, become
/// automatic arrays with those bounds (ALLOCATE and DEALLOCATE go): their derivative
/// arrays are then declared, sized and freed with them in every derivative unit. Other
/// uses are refused (E0414).
pub(super) fn allocatables_to_automatic(
    unit: &mut Unit,
    assigned: &BTreeSet<String>,
) -> Result<(), Vec<Diagnostic>> {
    let mut names: Vec<(String, Span)> = Vec::new();
    for d in &unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
            && attrs
                .iter()
                .any(|a| matches!(a, crate::il::Attr::Allocatable))
        {
            names.extend(entities.iter().map(|e| (e.name.clone(), e.span)));
        }
    }
    let mut diags = Vec::new();
    let refuse = |span: Span, message: String, help: &str| {
        Diagnostic::error(CODE, message).at(span).with_help(help)
    };
    const HELP: &str = "allocate it once, at the top level of the procedure before its first use, with bounds from the arguments; or declare it as an automatic array such as `w(n)`";
    let mut bounds_of: Vec<(String, Vec<DimSpec>)> = Vec::new();
    for (name, span) in &names {
        if unit.symbols.get(name).is_some_and(|s| s.is_dummy()) {
            diags.push(refuse(
                *span,
                format!("the ALLOCATABLE dummy argument `{name}` is not supported yet"),
                "pass an array allocated by the caller as an assumed-shape dummy `x(:)` instead",
            ));
            continue;
        }
        let names_item = |e: &Expr| e.base_name().is_some_and(|n| key(n) == key(name));
        // Top-level ALLOCATE / DEALLOCATE of this array, and nested ones.
        let mut allocs = Vec::new();
        let mut deallocs = Vec::new();
        for (i, s) in unit.body.iter().enumerate() {
            match &s.kind {
                StmtKind::Allocate(items) if items.iter().any(names_item) => allocs.push(i),
                StmtKind::Deallocate(items) if items.iter().any(names_item) => deallocs.push(i),
                _ => {}
            }
        }
        let mut nested = None;
        for s in &unit.body {
            for child in crate::il::visit::child_blocks(s) {
                crate::il::visit::walk_stmts(child, &mut |x| {
                    if let StmtKind::Allocate(items) | StmtKind::Deallocate(items) = &x.kind
                        && items.iter().any(names_item)
                    {
                        nested.get_or_insert(x.span);
                    }
                });
            }
        }
        if let Some(at) = nested {
            diags.push(refuse(
                at,
                format!("`{name}` is allocated or freed inside a loop or a branch, which adgen does not support yet"),
                HELP,
            ));
            continue;
        }
        let (alloc, dealloc) = match (allocs.as_slice(), deallocs.as_slice()) {
            ([a], []) => (*a, None),
            ([a], [d]) if d > a => (*a, Some(*d)),
            ([], _) if !uses_name(&unit.body, name) => continue,
            _ => {
                diags.push(refuse(
                    *span,
                    format!("`{name}` is not allocated exactly once before it is freed"),
                    HELP,
                ));
                continue;
            }
        };
        if uses_name(&unit.body[..alloc], name)
            || dealloc.is_some_and(|d| uses_name(&unit.body[d + 1..], name))
        {
            diags.push(refuse(
                unit.body[alloc].span,
                format!("`{name}` is used before it is allocated or after it is freed"),
                HELP,
            ));
            continue;
        }
        let StmtKind::Allocate(items) = &unit.body[alloc].kind else {
            continue;
        };
        let item = items.iter().find(|e| names_item(e)).expect("found above");
        let ExprKind::Index(_, subs) = &item.kind else {
            diags.push(refuse(
                item.span,
                format!("ALLOCATE gives no bounds for `{name}`"),
                HELP,
            ));
            continue;
        };
        let mut dims = Vec::new();
        let mut ok = true;
        for s in subs {
            let (lower, upper) = match &s.kind {
                ExprKind::Range {
                    lower,
                    upper: Some(u),
                    stride: None,
                } => (lower.as_deref().cloned(), (**u).clone()),
                ExprKind::Range { .. } => {
                    ok = false;
                    break;
                }
                _ => (None, s.clone()),
            };
            let spec = |e: &Expr| {
                crate::il::visit::names_read(e).iter().all(|n| {
                    unit.symbols.get(n).is_some_and(|s| {
                        s.kind == crate::il::SymbolKind::Constant
                            || (s.is_dummy() && !assigned.contains(&key(n)))
                    })
                })
            };
            if !lower.as_ref().is_none_or(spec) || !spec(&upper) {
                ok = false;
                break;
            }
            dims.push(DimSpec {
                lower,
                upper: Bound::Expr(upper),
            });
        }
        if !ok {
            diags.push(refuse(
                item.span,
                format!("the bounds of `{name}` read variables the procedure computes"),
                HELP,
            ));
            continue;
        }
        bounds_of.push((key(name), dims));
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let converted = |e: &Expr| {
        e.base_name()
            .is_some_and(|n| bounds_of.iter().any(|(k, _)| *k == key(n)))
    };
    // The statements go; the declarations get the bounds.
    unit.body.retain_mut(|s| match &mut s.kind {
        StmtKind::Allocate(items) | StmtKind::Deallocate(items) => {
            items.retain(|e| !converted(e));
            !items.is_empty()
        }
        _ => true,
    });
    for d in &mut unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &mut d.kind
            && attrs
                .iter()
                .any(|a| matches!(a, crate::il::Attr::Allocatable))
        {
            let mut all = true;
            for e in entities.iter_mut() {
                match bounds_of.iter().find(|(k, _)| *k == key(&e.name)) {
                    Some((_, dims)) => e.dims = Some(dims.clone()),
                    None => all = false,
                }
            }
            if all {
                attrs.retain(|a| {
                    !matches!(
                        a,
                        crate::il::Attr::Allocatable | crate::il::Attr::Dimension(_)
                    )
                });
            }
        }
    }
    for (k, dims) in bounds_of {
        if let Some(sym) = unit.symbols.get_mut(&k) {
            sym.dims = dims;
        }
    }
    Ok(())
}

pub(super) fn uses_name(body: &[Stmt], name: &str) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(body, &mut |s| {
        found |= stmt_names(s).contains(&key(name));
        if let StmtKind::Allocate(items) | StmtKind::Deallocate(items) = &s.kind {
            found |= items
                .iter()
                .any(|e| e.base_name().is_some_and(|n| key(n) == key(name)));
        }
    });
    found
}
