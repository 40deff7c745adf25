//! The C drivers of C roots: the same checks as [`super::fortran_driver`] (same `PRIMAL` and
//! `CHECK` lines), written in C.
//!
//! Every argument is held in a C array (scalars in arrays of one element), so that one
//! loop shape serves all: a by-value parameter is passed as `x[0]`, a pointer parameter
//! as `x`. How the root is called comes from its IL (`crate::il::calls::param_kinds`); how
//! its derivatives are called, from the prototypes of the generated header, which the
//! driver includes (so the header is checked too).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::back::c::c_type;
use crate::diff::Signature;
use crate::il::calls::{Pass, param_kinds};
use crate::il::{BinOp, Bound, Expr, ExprKind, ScalarType, SymbolKind, UnOp, Unit};

use super::fortran_driver::{
    Component, DerivativeChecks, StructArg, Types, covers, has_component, struct_args,
};

mod derivative;
mod structs;

use super::settings::{CheckConfig, RootSpec, Value};
pub use derivative::derivative_driver;
use structs::{expand, header_structs, struct_definitions};

#[derive(Clone, Debug)]
struct Slot {
    var: String,
    key: String,
    ty: ScalarType,
    len: i64,
    pass: Pass,
    is_result: bool,
    independent: bool,
    dependent: bool,
    /// A member of a struct argument: the argument (`var` is then `s.a.b`, `path`
    /// `.a.b`).
    parent: Option<String>,
    path: String,
    /// An array member.
    arr: bool,
    /// The member exists in the tangent / adjoint derivative struct.
    in_d: bool,
    in_b: bool,
    /// A matrix of row pointers (C `double **a`): the length of a row. Its storage is
    /// flat, and `{storage}_rows` holds the row pointers passed for it.
    row_len: Option<i64>,
}

impl Slot {
    /// Element `adg_k` of this slot in the storage `base` (the argument's array, its
    /// saved copy, its derivative struct).
    fn at(&self, base: &str) -> String {
        match &self.parent {
            None => format!("{base}[adg_k]"),
            Some(_) if !self.arr => format!("{base}[0]{}", self.path),
            Some(_) => format!("(({} *){base}[0]{})[adg_k]", self.c(), self.path),
        }
    }
    fn v(&self) -> String {
        match &self.parent {
            Some(p) => self.at(p),
            None => self.at(&self.var),
        }
    }
    fn sv(&self) -> String {
        match &self.parent {
            Some(p) => self.at(&format!("adg_s_{p}")),
            None => self.at(&self.helper("s")),
        }
    }
    /// The derivative element for mode `d` / `b`; a zero placeholder for a member the
    /// derivative struct lacks.
    fn dv(&self, mode: char) -> String {
        match &self.parent {
            Some(p) if (mode == 'd' && self.in_d) || (mode == 'b' && self.in_b) => {
                self.at(&format!("adg_{mode}_{p}"))
            }
            Some(_) => format!("{}[adg_k]", self.helper("z")),
            None => format!("{}[adg_k]", self.helper("d")),
        }
    }
    fn placeholder(&self) -> bool {
        self.parent.is_some() && !(self.in_d && self.in_b)
    }
    fn is_real(&self) -> bool {
        matches!(self.ty, ScalarType::Real(_))
    }
    fn helper(&self, p: &str) -> String {
        let base = if self.is_result {
            "0res".to_string()
        } else {
            self.var.replace('.', "_")
        };
        format!("adg_{p}_{base}")
    }
    fn c(&self) -> &'static str {
        c_type(self.ty)
    }
    /// For a matrix of row pointers: `storage_rows`, the pointers to the rows of the
    /// flat `storage`, declared and set.
    fn rows_of(&self, storage: &str) -> String {
        let Some(m) = self.row_len else {
            return String::new();
        };
        let n = self.len / m;
        format!(
            "  {t} *{storage}_rows[{n}];\n  for (int adg_r = 0; adg_r < {n}; adg_r++) \
             {storage}_rows[adg_r] = {storage} + adg_r * {m};\n",
            t = self.c()
        )
    }
    /// What is passed for `storage` (this slot's array, or its derivative's).
    fn passed(&self, storage: &str, pointer: bool) -> String {
        match self.row_len {
            Some(_) => format!("{storage}_rows"),
            None => pass(storage, pointer),
        }
    }
    /// `for (adg_k = 0; adg_k < len; adg_k++) `.
    fn each(&self) -> String {
        format!("for (adg_k = 0; adg_k < {}; adg_k++) ", self.len)
    }
}

/// C names are case-sensitive: their capitals keep the IL's marks in the key.
fn key(s: &str) -> String {
    crate::il::key(&crate::il::names::cased(&crate::il::names::spelled(s)))
}

/// The value of a bound expression, from the integers of check.toml.
fn eval(e: &Expr, check: &CheckConfig) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(t) => t.split('_').next()?.parse().ok(),
        ExprKind::Var(n) => match check.value_of(n)? {
            Value::Int(v) => Some(*v),
            _ => None,
        },
        ExprKind::Paren(x) => eval(x, check),
        ExprKind::Unary(UnOp::Neg, x) => eval(x, check).map(|v| -v),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (eval(a, check)?, eval(b, check)?);
            match op {
                BinOp::Add => Some(a + b),
                BinOp::Sub => Some(a - b),
                BinOp::Mul => Some(a * b),
                BinOp::Div if b != 0 => Some(a / b),
                _ => None,
            }
        }
        _ => None,
    }
}

fn slots(
    unit: &Unit,
    spec: &RootSpec,
    check: &CheckConfig,
    types: &Types,
) -> Result<Vec<Slot>, String> {
    let indep: BTreeSet<String> = spec.independents.iter().map(|s| key(s)).collect();
    let dep: BTreeSet<String> = spec.dependents.iter().map(|s| key(s)).collect();
    let kinds = param_kinds(unit);
    let mut out = Vec::new();
    for (i, arg) in unit.args.iter().enumerate() {
        let sym = unit
            .symbols
            .get(arg)
            .ok_or_else(|| format!("dummy `{arg}` has no symbol"))?;
        if sym.kind != SymbolKind::Variable {
            return Err(format!("dummy `{arg}` is a procedure"));
        }
        if sym.ty == ScalarType::Derived {
            if !sym.dims.is_empty() {
                return Err(format!("the driver cannot pass the struct array `{arg}`"));
            }
            let t = sym.type_spec.type_name.clone().unwrap_or_default();
            expand(&mut out, types, check, arg, "", &t, (&indep, &dep), 0)?;
            continue;
        }
        // A matrix of row pointers: `[extent]` rows of `[row_length]`.
        let row_len = if unit.is_row_pointers(arg) {
            let need = |what: &str, v: Option<i64>| {
                v.ok_or_else(|| format!("{}: `[{what}] {arg}` is needed for `{arg}`", check.origin))
            };
            Some((
                need("extent", check.extent_of(arg))?,
                need("row_length", check.row_length_of(arg))?,
            ))
        } else {
            None
        };
        // Arrays of any rank are passed as flat arrays of all their elements (C's 2-D
        // parameters `double (*u)[N]` are pointers to the first element as well); an
        // assumed-size last dimension takes `[extent]`.
        let mut len = 1;
        for (k, d) in sym.dims.iter().enumerate().filter(|_| row_len.is_none()) {
            len *= match &d.upper {
                Bound::Star | Bound::Colon if k + 1 == sym.dims.len() => {
                    check.extent_of(arg).ok_or_else(|| {
                        format!(
                            "{}: `[extent] {}` is needed for `{arg}`",
                            check.origin,
                            key(arg)
                        )
                    })?
                }
                Bound::Star | Bound::Colon => {
                    return Err(format!(
                        "`{arg}`: an assumed extent before the last dimension"
                    ));
                }
                Bound::Expr(e) => {
                    let upper = eval(e, check)
                        .ok_or_else(|| format!("`{arg}`: cannot evaluate its size"))?;
                    let lower = d.lower.as_ref().map(|l| eval(l, check)).unwrap_or(Some(1));
                    upper - lower.ok_or_else(|| format!("`{arg}`: cannot evaluate its bound"))? + 1
                }
            };
        }
        out.push(Slot {
            var: arg.clone(),
            key: key(arg),
            ty: sym.ty,
            len: row_len.map_or(len, |(n, m)| n * m),
            pass: kinds[i],
            is_result: false,
            independent: indep.contains(&key(arg)),
            dependent: dep.contains(&key(arg)),
            parent: None,
            path: String::new(),
            arr: false,
            in_d: true,
            in_b: true,
            row_len: row_len.map(|(_, m)| m),
        });
    }
    if unit.is_function() {
        let result = unit.result.clone().unwrap_or_else(|| unit.name.clone());
        let ty = unit
            .symbols
            .get(&result)
            .map(|s| s.ty)
            .ok_or_else(|| format!("the result `{result}` has no symbol"))?;
        let named = dep.contains(&key(&result)) || dep.contains(&key(&unit.name));
        out.push(Slot {
            var: "adg_res".into(),
            key: key(&result),
            ty,
            len: 1,
            pass: Pass::Ref,
            is_result: true,
            independent: false,
            dependent: named || spec.dependents.is_empty(),
            parent: None,
            path: String::new(),
            arr: false,
            in_d: true,
            in_b: true,
            row_len: None,
        });
    }
    for name in spec.independents.iter().chain(&spec.dependents) {
        let k = key(name);
        if !out.iter().any(|s| {
            s.key == k
                || s.parent.as_deref().map(key) == Some(k.clone())
                || covers(&BTreeSet::from([k.clone()]), &s.key)
                || (s.is_result && k == key(&unit.name))
        }) {
            return Err(format!("`{name}` is not an argument or the result"));
        }
    }
    Ok(out)
}

const PRELUDE: &str = "\
#include <math.h>
#include <stdio.h>

static long adg_state;

static double adg_rand(double lo, double hi) {
  adg_state = (16807L * adg_state) % 2147483647L;
  return lo + (hi - lo) * ((double)adg_state / 2147483647.0);
}

";

fn real_c(v: f64) -> String {
    format!("{v:e}")
}

/// Declarations and the filling of inputs, shared by both drivers.
fn setup(
    unit: &Unit,
    slots: &[Slot],
    structs: &[StructArg],
    check: &CheckConfig,
) -> Result<(String, String), String> {
    let mut d = String::new();
    let mut b = String::new();
    for st in structs {
        writeln!(d, "  {} {}[1], adg_s_{}[1];", st.tname, st.var, st.var).unwrap();
    }
    for s in slots.iter().filter(|s| s.parent.is_none()) {
        writeln!(d, "  {} {}[{}];", s.c(), s.var, s.len).unwrap();
        writeln!(d, "  {} {}[{}];", s.c(), s.helper("s"), s.len).unwrap();
        d.push_str(&s.rows_of(&s.var));
    }
    d.push_str("  int adg_k = 0;\n");
    writeln!(b, "  adg_state = {}L;", 1 + check.seed % 2_147_483_646).unwrap();
    for s in slots.iter().filter(|s| !s.is_real()) {
        if s.parent.is_some() {
            // A member: check.toml by its path or its name, else a small value.
            let name = s.path.rsplit('.').next().unwrap_or("");
            let v = match check.value_of(&s.var).or_else(|| check.value_of(name)) {
                Some(Value::Int(v)) => *v,
                _ => 1,
            };
            writeln!(b, "  {}{} = {v};", s.each(), s.v()).unwrap();
            continue;
        }
        match (check.value_of(&s.var), s.ty) {
            (Some(Value::Int(v)), ScalarType::Integer(_)) if s.len == 1 => {
                writeln!(b, "  {}[0] = {v};", s.var).unwrap()
            }
            (Some(Value::IntList(list)), ScalarType::Integer(_)) => {
                if list.len() as i64 != s.len {
                    return Err(format!(
                        "{}: `{}` has {} values for {} elements",
                        check.origin,
                        s.var,
                        list.len(),
                        s.len
                    ));
                }
                for (k, v) in list.iter().enumerate() {
                    writeln!(b, "  {}[{k}] = {v};", s.var).unwrap();
                }
            }
            (None, _) if s.is_result => writeln!(b, "  {}[0] = 0;", s.var).unwrap(),
            _ => {
                return Err(format!(
                    "{} gives no fitting value for `{}` of `{}`",
                    check.origin, s.var, unit.name
                ));
            }
        }
    }
    for s in slots.iter().filter(|s| s.is_real()) {
        let (lo, hi) = check.range_of(&s.var);
        writeln!(
            b,
            "  {}{} = ({})adg_rand({}, {});",
            s.each(),
            s.v(),
            s.c(),
            real_c(lo),
            real_c(hi)
        )
        .unwrap();
    }
    for s in slots {
        writeln!(b, "  {}{} = {};", s.each(), s.sv(), s.v()).unwrap();
    }
    Ok((d, b))
}

fn restore(slots: &[Slot]) -> String {
    let mut out = String::new();
    for s in slots.iter().filter(|s| !s.is_result) {
        writeln!(out, "  {}{} = {};", s.each(), s.v(), s.sv()).unwrap();
    }
    out
}

fn pass(name: &str, pointer: bool) -> String {
    if pointer {
        name.to_string()
    } else {
        format!("{name}[0]")
    }
}

fn primal_call(unit: &Unit, slots: &[Slot]) -> String {
    let kinds = param_kinds(unit);
    let args: Vec<String> = unit
        .args
        .iter()
        .zip(kinds)
        .map(
            |(a, k)| match slots.iter().find(|s| s.parent.is_none() && s.var == *a) {
                Some(s) => s.passed(a, k != Pass::Value),
                None => pass(a, k != Pass::Value),
            },
        )
        .collect();
    if unit.is_function() {
        format!("  adg_res[0] = {}({});\n", unit.name, args.join(", "))
    } else {
        format!("  {}({});\n", unit.name, args.join(", "))
    }
}

/// The root's prototype, unless the driver includes a user header (`structs`, the
/// driver's struct definitions, say so): that header declares it, `const` and all, as
/// the IL does not.
fn prototype_line(unit: &Unit, structs: &str) -> String {
    if structs.contains("#include") {
        return String::new();
    }
    format!("{};\n", crate::back::c::prototype(unit))
}

/// The driver calling the original root once and printing every argument.
pub fn primal_driver(
    unit: &Unit,
    spec: &RootSpec,
    check: &CheckConfig,
    types: &Types,
) -> Result<String, String> {
    let slots = slots(unit, spec, check, types)?;
    let structs = struct_args(unit);
    let (d, b) = setup(unit, &slots, &structs, check)?;
    let mut out = String::from(PRELUDE);
    let definitions = struct_definitions(&structs, types, check)?;
    out.push_str(&definitions);
    out.push_str(&prototype_line(unit, &definitions));
    out.push_str("\nint main(void) {\n");
    out.push_str(&d);
    out.push_str(&b);
    out.push_str(&restore(&slots));
    out.push_str(&primal_call(unit, &slots));
    for s in &slots {
        writeln!(out, "  printf(\"PRIMAL {}\\n\");", s.key).unwrap();
        let fmt = if s.is_real() { "%25.16e" } else { "%ld" };
        let cast = if s.is_real() { "(double)" } else { "(long)" };
        writeln!(out, "  {}printf(\"{fmt}\\n\", {cast}{});", s.each(), s.v()).unwrap();
    }
    out.push_str("  return 0;\n}\n");
    Ok(out)
}
