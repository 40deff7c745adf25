//! Prototypes of the C back-end: `double f(double x, const double *y)`.
//!
//! A pointer parameter is `const` (INTERFACE.md §3) when it is INTENT(IN), the body
//! writes nothing through it, and every call it is passed to takes it as `const` too: the
//! callee is looked up in the call table, so that `const` follows a read-only array down a
//! call chain as the user wrote it (ADBench's LSTM passes its `const double *` weights
//! down three levels).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use super::scope;
use crate::il::calls::{Pass, param_kinds, unit_vars};
use crate::il::{self, Arg, ExprKind, StmtKind, Unit, UnitKind, key};

/// How deep `const` is followed down a call chain; a deeper callee counts as writing.
const MAX_DEPTH: usize = 64;

/// `double f(double x, double *y)`.
pub fn prototype(unit: &Unit) -> String {
    prototype_in(unit, &BTreeMap::new())
}

/// The prototype of `unit` when the units it calls are in `table` (by key).
pub fn prototype_in(unit: &Unit, table: &BTreeMap<String, &Unit>) -> String {
    Prototypes::default().of(unit, table)
}

/// Which parameters of the units of one call table are `const` pointers, found once per
/// unit (by key): the prototypes of one file agree with each other.
#[derive(Default)]
pub(super) struct Prototypes {
    memo: RefCell<BTreeMap<String, Vec<bool>>>,
}

impl Prototypes {
    /// The prototype of `unit`, whose callees are in `table`.
    pub(super) fn of(&self, unit: &Unit, table: &BTreeMap<String, &Unit>) -> String {
        let vars = unit_vars(unit);
        let ret = match unit.kind {
            UnitKind::Subroutine | UnitKind::Module => "void".to_string(),
            // A struct result (`vec2 add(vec2 a, vec2 b)`) prints its struct type.
            UnitKind::Function => unit
                .result
                .as_ref()
                .and_then(|r| vars.get(crate::il::key_ref(r).as_ref()))
                .map(scope::type_text)
                .unwrap_or_else(|| "double".to_string()),
        };
        let consts = self.const_params(unit, table, 0);
        let params: Vec<String> = unit
            .args
            .iter()
            .zip(&consts)
            .map(|(a, &constant)| {
                let v = &vars[&key(a)];
                let t = scope::type_text(v);
                match v.pass {
                    Some(Pass::Value) => format!("{t} {a}"),
                    // Rows of their own memory: as written, never `const` (C does not
                    // convert `double **` to `const double **`).
                    _ if scope::row_pointers(v) => format!("{t} **{a}"),
                    _ if constant => format!("const {t} *{a}"),
                    _ => format!("{t} *{a}"),
                }
            })
            .collect();
        let params = if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        };
        format!("{ret} {}({params})", unit.name)
    }

    /// For each parameter of `unit`: is it a `const` pointer? A unit met again while its
    /// own answer is being found (recursion) takes none as `const`, as does one deeper
    /// than [`MAX_DEPTH`].
    fn const_params(
        &self,
        unit: &Unit,
        table: &BTreeMap<String, &Unit>,
        depth: usize,
    ) -> Vec<bool> {
        let name = key(&unit.name);
        if let Some(c) = self.memo.borrow().get(&name) {
            return c.clone();
        }
        let none = vec![false; unit.args.len()];
        if depth >= MAX_DEPTH {
            return none;
        }
        self.memo.borrow_mut().insert(name.clone(), none);
        let vars = unit_vars(unit);
        let touched = RefCell::new(BTreeSet::new());
        let by_reference = |callee: &str, args: &[Arg]| {
            let found = table.get(crate::il::key_ref(callee).as_ref());
            let kinds = found.map(|u| param_kinds(u));
            let consts = found.map(|u| self.const_params(u, table, depth + 1));
            let mut touched = touched.borrow_mut();
            for (i, a) in args.iter().enumerate() {
                let by_value = kinds
                    .as_ref()
                    .is_some_and(|k| k.get(i) == Some(&Pass::Value));
                // A keyword argument's position says nothing of the callee's parameter.
                let read_only =
                    a.keyword.is_none() && consts.as_ref().is_some_and(|c| c.get(i) == Some(&true));
                if let (false, false, Some(n)) = (by_value, read_only, a.value.base_name()) {
                    touched.insert(key(n.split('%').next().unwrap_or(n)));
                }
            }
        };
        il::visit::walk_stmts(&unit.body, &mut |s| {
            match &s.kind {
                StmtKind::Assign { lhs, .. } => {
                    if let Some(n) = lhs.base_name() {
                        touched
                            .borrow_mut()
                            .insert(key(n.split('%').next().unwrap_or(n)));
                    }
                }
                StmtKind::Do { var, .. } => {
                    touched.borrow_mut().insert(key(var));
                }
                StmtKind::Call { name, args } => by_reference(name, args),
                // Pushes read through const pointers; pops and looks write their value
                // (not the count: `adgen_pop_real8_array(val, rowptr[n])` reads `rowptr`).
                StmtKind::Tape(t) if t.op.writes() => {
                    if let Some(n) = t.value.base_name() {
                        touched
                            .borrow_mut()
                            .insert(key(n.split('%').next().unwrap_or(n)));
                    }
                }
                _ => {}
            }
            for e in il::visit::stmt_exprs(s) {
                il::visit::walk_expr(e, &mut |x| {
                    if let ExprKind::Call(f, args) = &x.kind {
                        by_reference(f, args);
                    }
                });
            }
        });
        let touched = touched.into_inner();
        let consts: Vec<bool> = unit
            .args
            .iter()
            .map(|a| {
                let v = &vars[&key(a)];
                v.pass != Some(Pass::Value)
                    && v.intent_in
                    && !touched.contains(crate::il::key_ref(a).as_ref())
            })
            .collect();
        self.memo.borrow_mut().insert(name, consts.clone());
        consts
    }
}
