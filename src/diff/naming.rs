//! Names of derivative procedures (INTERFACE.md §3): `f_d`, `f_b`, made fresh against
//! every name of the program, except the user's derivatives of black boxes, which keep
//! the names the manifest gives them.

use std::collections::BTreeMap;

use crate::analysis::Analyses;
use crate::il::key;
use crate::il::names::Namer;
use crate::ir::Ir;
use crate::request::{Mode, Request};

/// The derivative procedure of each differentiated unit (by key of the original): the
/// user's derivatives of black boxes keep the names the manifest gives them (or `f_d`,
/// `f_b`), and the generated names avoid them.
pub(super) fn derivative_unit_names(
    ir: &Ir,
    analyses: &Analyses,
    request: &Request,
    mode: Mode,
    taken: &mut Namer,
) -> BTreeMap<String, String> {
    let mut unit_names = BTreeMap::new();
    for b in &request.black_boxes {
        let name = match mode {
            Mode::Tangent => b.tangent.clone(),
            Mode::Adjoint => b.adjoint.clone(),
        }
        .unwrap_or_else(|| format!("{}{}", b.name, mode.unit_suffix()));
        taken.reserve(&name);
        if let Some(i) = ir.index_of(&b.name) {
            if analyses.units[i].is_differentiated() {
                unit_names.insert(key(&b.name), name);
            }
        }
    }
    for (i, uir) in ir.units.iter().enumerate() {
        if analyses.units[i].is_differentiated() && !unit_names.contains_key(&key(&uir.unit.name)) {
            let name = taken.fresh(&format!("{}{}", uir.unit.name, mode.unit_suffix()));
            unit_names.insert(key(&uir.unit.name), name);
        }
    }
    unit_names
}
