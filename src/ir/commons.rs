//! COMMON blocks as program globals (seeds/000 §5.2: globals are zones of every
//! procedure). A block whose every declaration (in the procedures the roots reach) lists
//! the same variables (same names,
//! types and ranks, in the same order, as an INCLUDE file gives them) has one global per
//! variable, like a module variable: it may be active, and its derivatives live in a
//! derivative block `/c_d/` (INTERFACE.md §3); a variable EQUIVALENCEd onto one of them
//! shares its zone (`ir::zones`). `prepare::common_views` has already made the units
//! that declare a block differently declare it alike where the sizes allow; a block
//! still declared differently in two units stays passive-only: an active value in it is
//! refused (E0511, E0125).

use std::collections::BTreeMap;

use crate::il::{self, Unit, key};

/// One COMMON block of the program.
#[derive(Clone, Debug)]
pub struct CommonBlock<'p> {
    /// Its global module name: `/name/`, or `//` for blank COMMON.
    pub module: String,
    /// Its name as first spelled (`None` for blank COMMON).
    pub name: Option<String>,
    /// The first unit that declares it, and the variables it lists there.
    pub declared_by: &'p Unit,
    pub variables: Vec<String>,
    /// Why the block cannot carry derivatives, when it cannot.
    pub refusal: Option<String>,
}

impl CommonBlock<'_> {
    pub fn is_active_capable(&self) -> bool {
        self.refusal.is_none()
    }
}

/// The COMMON blocks of the program, in order of first declaration, with the check that
/// every unit declares each the same way.
pub fn common_blocks(program: &il::Program) -> Vec<CommonBlock<'_>> {
    let mut blocks: Vec<CommonBlock> = Vec::new();
    // Each block's index and the layout of its first declaration.
    let mut by_key: BTreeMap<String, (usize, Vec<(String, String)>)> = BTreeMap::new();
    for unit in program.units() {
        // The lists of this unit, per block (a block may be continued by a second
        // COMMON statement).
        let lists = il::storage::common_lists(unit);
        for (module, name, variables) in lists {
            let shape = layout(unit, &variables);
            let (i, first) = by_key.entry(key(&module)).or_insert_with(|| {
                blocks.push(CommonBlock {
                    module: module.clone(),
                    name: name.clone(),
                    declared_by: unit,
                    variables: variables.clone(),
                    refusal: None,
                });
                (blocks.len() - 1, shape.clone())
            });
            let block = &mut blocks[*i];
            if block.refusal.is_some() {
                continue;
            }
            if *first != shape {
                block.refusal = Some(format!(
                    "COMMON {module} lists other variables in `{}` than in `{}`",
                    unit.name, block.declared_by.name
                ));
            }
        }
    }
    blocks
}

/// What must agree between two declarations of a block: each variable's name, type and
/// dimensions (as written, spans aside).
fn layout(unit: &Unit, variables: &[String]) -> Vec<(String, String)> {
    variables
        .iter()
        .map(|v| {
            let shape = match unit.symbols.get(v) {
                Some(s) => {
                    let dims: Vec<String> = s
                        .dims
                        .iter()
                        .map(|d| {
                            let lower = d.lower.as_ref().map(il::visit::expr_key);
                            let upper = match &d.upper {
                                il::Bound::Expr(e) => Some(il::visit::expr_key(e)),
                                _ => None,
                            };
                            format!("{lower:?}:{upper:?}")
                        })
                        .collect();
                    format!(
                        "{:?} {:?} {:?} {}",
                        s.ty,
                        s.type_spec.char_len,
                        s.type_spec.type_name.as_deref().map(key),
                        dims.join(",")
                    )
                }
                None => String::new(),
            };
            (key(v), shape)
        })
        .collect()
}
