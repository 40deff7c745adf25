//! Adjoint mode (placeholder while the tangent lands).
use super::UnitGen;
use crate::il::Unit;
pub fn adjoint_unit(ug: &mut UnitGen) -> Unit {
    ug.unit.clone()
}
