//! The runtime module in generated code: `USE adgen_runtime` where a derivative pushes
//! or pops, or calls the runtime's digamma.

use crate::il::Unit;

/// Derivatives of GAMMA and LOG_GAMMA call the runtime's `adgen_digamma`: the unit then
/// uses the runtime module (if it does not yet) and the runtime is needed.
pub(super) fn uses_runtime_function(original: &Unit, unit: &mut Unit) -> bool {
    use crate::il::Intrinsic;
    // ψ is the derivative of Γ and log Γ only: the original, smaller than its adjoint,
    // says whether the derivative can call it.
    if !crate::il::visit::calls_any_intrinsic(
        &original.body,
        &[Intrinsic::Gamma, Intrinsic::LogGamma],
    ) || !crate::il::visit::calls_intrinsic(&unit.body, Intrinsic::Digamma)
    {
        return false;
    }
    use_runtime_module(&mut unit.decls);
    true
}

/// `USE adgen_runtime` first among `decls`, unless it is there already.
pub(crate) fn use_runtime_module(decls: &mut Vec<crate::il::Decl>) {
    let runtime = crate::runtime::RUNTIME_MODULE;
    let used = decls
        .iter()
        .any(|d| matches!(&d.kind, crate::il::DeclKind::Use { module, .. } if module == runtime));
    if !used {
        decls.insert(
            0,
            crate::il::Decl {
                kind: crate::il::DeclKind::Use {
                    module: runtime.to_string(),
                    only: None,
                    renames: Vec::new(),
                },
                span: Default::default(),
            },
        );
    }
}
