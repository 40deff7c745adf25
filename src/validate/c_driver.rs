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

use super::fortran_driver::{Component, DerivativeChecks, StructArg, Types, covers, struct_args};
use super::settings::{CheckConfig, RootSpec, Value};

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

/// The members of the struct argument `parent` (type `tname`) below `path`, as slots.
#[allow(clippy::too_many_arguments)]
fn expand(
    out: &mut Vec<Slot>,
    types: &Types,
    check: &CheckConfig,
    parent: &str,
    path: &str,
    tname: &str,
    roles: (&BTreeSet<String>, &BTreeSet<String>),
    depth: usize,
) -> Result<(), String> {
    let info = types
        .get(&key(tname))
        .ok_or_else(|| format!("the driver finds no definition of `{tname}`"))?;
    if depth > 8 {
        return Err(format!("`{tname}` nests too deeply"));
    }
    for c in &info.components {
        let p = format!("{path}.{}", c.name);
        let mut len = 1;
        for d in &c.dims {
            let Bound::Expr(e) = &d.upper else {
                return Err(format!("`{parent}{p}`: a member of unknown size"));
            };
            let upper =
                eval(e, check).ok_or_else(|| format!("`{parent}{p}`: cannot evaluate its size"))?;
            let lower = d.lower.as_ref().map(|l| eval(l, check)).unwrap_or(Some(1));
            len *= upper
                - lower.ok_or_else(|| format!("`{parent}{p}`: cannot evaluate its bound"))?
                + 1;
        }
        if c.ty == ScalarType::Derived {
            if !c.dims.is_empty() {
                return Err(format!(
                    "the driver cannot fill the struct array member `{parent}{p}`"
                ));
            }
            let t = c.type_name.clone().unwrap_or_default();
            expand(out, types, check, parent, &p, &t, roles, depth + 1)?;
            continue;
        }
        let real = matches!(c.ty, ScalarType::Real(_));
        out.push(Slot {
            var: format!("{parent}{p}"),
            key: key(&format!("{parent}{p}")),
            ty: c.ty,
            len,
            pass: Pass::Ref,
            is_result: false,
            independent: covers(roles.0, &format!("{parent}{p}")) && real,
            dependent: covers(roles.1, &format!("{parent}{p}")) && real,
            parent: Some(parent.to_string()),
            path: p,
            arr: !c.dims.is_empty(),
            in_d: true,
            in_b: true,
            row_len: None,
        });
    }
    Ok(())
}

/// C definitions of the struct types of the arguments (members first), from the IL.
fn struct_definitions(
    structs: &[StructArg],
    types: &Types,
    check: &CheckConfig,
) -> Result<String, String> {
    fn visit(
        t: &str,
        types: &Types,
        check: &CheckConfig,
        done: &mut BTreeSet<String>,
        out: &mut String,
    ) -> Result<(), String> {
        if !done.insert(key(t)) {
            return Ok(());
        }
        let info = types
            .get(&key(t))
            .ok_or_else(|| format!("the driver finds no definition of `{t}`"))?;
        // A struct of a user header: the driver includes the header, as a user's does.
        if let Some(h) = &info.header {
            let line = format!("#include \"{h}\"\n");
            if !out.contains(&line) {
                out.insert_str(0, &line);
            }
            return Ok(());
        }
        if !info.name.starts_with("struct ") {
            return Err(format!("the driver cannot define the typedef `{t}`"));
        }
        for c in info
            .components
            .iter()
            .filter(|c| c.ty == ScalarType::Derived)
        {
            visit(
                c.type_name.as_deref().unwrap_or(""),
                types,
                check,
                done,
                out,
            )?;
        }
        writeln!(out, "{} {{", info.name).unwrap();
        for c in &info.components {
            let ty = if c.ty == ScalarType::Derived {
                c.type_name.clone().unwrap_or_default()
            } else {
                c_type(c.ty).to_string()
            };
            let mut ext = String::new();
            for d in c.dims.iter().rev() {
                let Bound::Expr(e) = &d.upper else {
                    return Err(format!("`{}`: a member of unknown size", c.name));
                };
                let upper = eval(e, check)
                    .ok_or_else(|| format!("`{}`: cannot evaluate its size", c.name))?;
                let lower = d
                    .lower
                    .as_ref()
                    .map(|l| eval(l, check))
                    .unwrap_or(Some(1))
                    .unwrap_or(1);
                write!(ext, "[{}]", upper - lower + 1).unwrap();
            }
            writeln!(out, "  {ty} {}{ext};", c.name).unwrap();
        }
        out.push_str("};\n");
        Ok(())
    }
    let mut done = BTreeSet::new();
    let mut out = String::new();
    for st in structs {
        visit(&st.tname, types, check, &mut done, &mut out)?;
    }
    Ok(out)
}

/// The derivative structs (`struct cell_d { ... };`) of the generated headers.
fn header_structs(headers: &[(String, String)]) -> Types {
    let mut out = Types::new();
    for (_, text) in headers {
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let l = line.trim();
            // `struct cell_d {`, or `typedef struct {` named at its end (`} state_t_d;`).
            let mut name = l
                .strip_prefix("struct ")
                .and_then(|r| r.strip_suffix(" {"))
                .map(|n| format!("struct {n}"));
            if name.is_none() && l != "typedef struct {" {
                continue;
            }
            let mut comps = Vec::new();
            for m in lines.by_ref() {
                let m = m.trim();
                if let Some(end) = m.strip_prefix('}') {
                    if name.is_none() {
                        name = Some(end.trim().trim_end_matches(';').trim().to_string());
                    }
                    break;
                }
                let m = m.trim_end_matches(';');
                let base = m.split('[').next().unwrap_or(m);
                let Some((ty, field)) = base.rsplit_once(' ') else {
                    continue;
                };
                let nested = ty.strip_prefix("struct ");
                comps.push(Component {
                    name: field.trim().to_string(),
                    ty: if nested.is_some() {
                        ScalarType::Derived
                    } else {
                        ScalarType::Real(8)
                    },
                    type_name: nested.map(|n| format!("struct {}", n.trim())),
                    dims: Vec::new(),
                });
            }
            let Some(name) = name else { continue };
            out.insert(
                key(&name),
                super::fortran_driver::TypeInfo {
                    name,
                    module: None,
                    components: comps,
                    header: None,
                },
            );
        }
    }
    out
}

/// Does the derivative struct of `tname` (`struct cell` → `struct cell_d`) have the
/// member at `path`?
fn has_member(dtypes: &Types, tname: &str, suffix: &str, path: &[&str]) -> bool {
    let Some(info) = dtypes.get(&format!("{}_{suffix}", key(tname))) else {
        return false;
    };
    let Some((first, rest)) = path.split_first() else {
        return true;
    };
    match info.components.iter().find(|c| key(&c.name) == key(first)) {
        None => false,
        Some(c) if rest.is_empty() => c.ty != ScalarType::Derived,
        Some(c) => {
            let t = c.type_name.clone().unwrap_or_default();
            let base = t
                .strip_suffix(&format!("_{suffix}"))
                .unwrap_or(&t)
                .to_string();
            has_member(dtypes, &base, suffix, rest)
        }
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
                v.ok_or_else(|| format!("check.toml: `[{what}] {arg}` is needed for `{arg}`"))
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
                        format!("check.toml: `[extent] {}` is needed for `{arg}`", key(arg))
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
                        "check.toml: `{}` has {} values for {} elements",
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
                    "check.toml gives no fitting value for `{}` of `{}`",
                    s.var, unit.name
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

/// Which parameters of `unit` are pointers, from the generated headers.
fn header_pointers(
    unit: &str,
    headers: &[(String, String)],
) -> Result<(String, Vec<bool>), String> {
    for (path, text) in headers {
        for line in text.lines() {
            let Some(open) = line.find(&format!(" {unit}(")) else {
                continue;
            };
            let params = &line[open + unit.len() + 2..];
            let params = params.trim_end_matches(';').trim_end_matches(')');
            let ptrs = if params.trim() == "void" {
                Vec::new()
            } else {
                params.split(',').map(|p| p.contains('*')).collect()
            };
            return Ok((path.clone(), ptrs));
        }
    }
    Err(format!("no generated header declares `{unit}`"))
}

fn sig_call(
    sig: &Signature,
    slots: &[Slot],
    structs: &[StructArg],
    ptrs: &[bool],
) -> Result<Vec<String>, String> {
    if ptrs.len() != sig.args.len() {
        return Err(format!(
            "{}: the header has {} parameters, the signature {}",
            sig.unit,
            ptrs.len(),
            sig.args.len()
        ));
    }
    let result = slots.iter().find(|s| s.is_result);
    let mut out = Vec::new();
    for (a, &p) in sig.args.iter().zip(ptrs) {
        if let Some(st) = a
            .original
            .as_ref()
            .and_then(|o| structs.iter().find(|st| st.key == key(o)))
        {
            let name = if a.is_derivative {
                format!("adg_{}_{}", sig.mode.var_suffix(), st.var)
            } else {
                st.var.clone()
            };
            out.push(pass(&name, p));
            continue;
        }
        let slot = match &a.original {
            Some(o) => slots
                .iter()
                .find(|s| s.key == key(o) || (s.is_result && key(o) == key(&sig.root)))
                .ok_or_else(|| format!("{}: `{o}` is no dummy of the root", sig.unit))?,
            None => result.ok_or_else(|| format!("{}: a result argument", sig.unit))?,
        };
        let name = if a.is_derivative {
            slot.helper("d")
        } else {
            slot.var.clone()
        };
        out.push(slot.passed(&name, p));
    }
    Ok(out)
}

/// The derivative driver: same checks and CHECK lines as the Fortran one.
pub fn derivative_driver(
    unit: &Unit,
    spec: &RootSpec,
    tangent: Option<&Signature>,
    adjoint: Option<&Signature>,
    check: &CheckConfig,
    headers: &[(String, String)],
    types: &Types,
) -> Result<(String, DerivativeChecks), String> {
    let mut slots = slots(unit, spec, check, types)?;
    let structs = struct_args(unit);
    let dtypes = header_structs(headers);
    for s in slots.iter_mut() {
        let Some(p) = s.parent.clone() else { continue };
        let st = structs
            .iter()
            .find(|st| st.var == p)
            .expect("struct of a member");
        let path: Vec<&str> = s.path.split('.').skip(1).collect();
        s.in_d = tangent.is_some() && has_member(&dtypes, &st.tname, "d", &path);
        s.in_b = adjoint.is_some() && has_member(&dtypes, &st.tname, "b", &path);
    }
    let root = key(&unit.name);
    let (d0, b0) = setup(unit, &slots, &structs, check)?;
    let mut d = d0;
    let mut b = b0;
    for st in &structs {
        for (m, present) in [("d", tangent.is_some()), ("b", adjoint.is_some())] {
            let dt = format!("{}_{m}", st.tname);
            if present && dtypes.contains_key(&key(&dt)) {
                writeln!(d, "  {dt} adg_{m}_{}[1];", st.var).unwrap();
            }
        }
    }
    let reals: Vec<&Slot> = slots.iter().filter(|s| s.is_real()).collect();
    let indeps: Vec<&Slot> = slots.iter().filter(|s| s.independent).collect();
    let deps: Vec<&Slot> = slots.iter().filter(|s| s.dependent).collect();
    for s in &reals {
        if s.parent.is_none() {
            writeln!(d, "  {} {}[{}];", s.c(), s.helper("d"), s.len).unwrap();
            d.push_str(&s.rows_of(&s.helper("d")));
        } else if s.placeholder() {
            writeln!(d, "  double {}[{}];", s.helper("z"), s.len).unwrap();
        }
    }
    for s in &indeps {
        writeln!(d, "  double {}[{}];", s.helper("dir"), s.len).unwrap();
    }
    for s in &deps {
        for p in ["w", "td", "t0", "p0", "yp", "ym", "fd"] {
            writeln!(d, "  double {}[{}];", s.helper(p), s.len).unwrap();
        }
    }
    d.push_str("  double adg_h, adg_num, adg_den, adg_tn, adg_lhs, adg_rhs;\n");
    d.push_str("  const double adg_tiny = 2.2250738585072014e-308;\n");
    let mut includes = BTreeSet::new();
    let mut sig_ptrs = Vec::new();
    for sig in tangent.iter().chain(adjoint.iter()) {
        let (h, p) = header_pointers(&sig.unit, headers)?;
        includes.insert(h);
        sig_ptrs.push(p);
    }
    for s in &indeps {
        let h = s.helper("dir");
        let sv = s.sv();
        writeln!(
            b,
            "  {}{h}[adg_k] = adg_rand(-1.0, 1.0) * ({sv} != 0 ? fabs((double){sv}) : 1.0);",
            s.each()
        )
        .unwrap();
    }
    for s in &deps {
        writeln!(
            b,
            "  {}{}[adg_k] = adg_rand(-1.0, 1.0);",
            s.each(),
            s.helper("w")
        )
        .unwrap();
    }
    let copy = |b: &mut String, prefix: &str| {
        for s in &deps {
            writeln!(b, "  {}{}[adg_k] = {};", s.each(), s.helper(prefix), s.v()).unwrap();
        }
    };
    let zero = |b: &mut String, mode: char| {
        for s in &reals {
            writeln!(b, "  {}{} = 0;", s.each(), s.dv(mode)).unwrap();
        }
    };
    let sum = |b: &mut String, acc: &str, s: &Slot, term: String| {
        writeln!(b, "  {}{acc} += {term};", s.each()).unwrap();
    };
    b.push_str("  /* primal reference */\n");
    b.push_str(&restore(&slots));
    b.push_str(&primal_call(unit, &slots));
    copy(&mut b, "p0");
    b.push_str("  /* central finite differences */\n");
    writeln!(b, "  adg_h = {};", real_c(check.fd_step)).unwrap();
    for (mult, names) in [("", ("yp", "ym")), ("10.0 * ", ("yp", "ym"))] {
        for (sign, prefix) in [("+", names.0), ("-", names.1)] {
            b.push_str(&restore(&slots));
            for s in &indeps {
                writeln!(
                    b,
                    "  {}{v} = ({})({} {sign} {mult}adg_h * {}[adg_k]);",
                    s.each(),
                    s.c(),
                    s.sv(),
                    s.helper("dir"),
                    v = s.v()
                )
                .unwrap();
            }
            b.push_str(&primal_call(unit, &slots));
            copy(&mut b, prefix);
        }
        if mult.is_empty() {
            for s in &deps {
                writeln!(
                    b,
                    "  {}{}[adg_k] = ({}[adg_k] - {}[adg_k]) / (2.0 * adg_h);",
                    s.each(),
                    s.helper("fd"),
                    s.helper("yp"),
                    s.helper("ym")
                )
                .unwrap();
            }
        }
    }
    b.push_str("  adg_num = 0.0;\n  adg_den = 0.0;\n");
    for s in &deps {
        let (fd, yp, ym) = (s.helper("fd"), s.helper("yp"), s.helper("ym"));
        sum(
            &mut b,
            "adg_num",
            s,
            format!("pow({fd}[adg_k] - ({yp}[adg_k] - {ym}[adg_k]) / (20.0 * adg_h), 2)"),
        );
        sum(&mut b, "adg_den", s, format!("{fd}[adg_k] * {fd}[adg_k]"));
    }
    writeln!(
        b,
        "  printf(\"CHECK fd-consistency {root} relerr=%25.16e fdnorm=%25.16e\\n\", \
         sqrt(adg_num) / fmax(sqrt(adg_den), adg_tiny), sqrt(adg_den));"
    )
    .unwrap();

    let mut ptrs = sig_ptrs.into_iter();
    if let Some(sig) = tangent {
        let p = ptrs.next().expect("one per signature");
        b.push_str("  /* tangent */\n");
        b.push_str(&restore(&slots));
        zero(&mut b, 'd');
        if check.contract {
            for s in reals
                .iter()
                .filter(|s| !s.independent && !s.is_result && (s.parent.is_none() || s.in_d))
            {
                writeln!(b, "  {}{} = 7.0;", s.each(), s.dv('d')).unwrap();
            }
        }
        for s in &indeps {
            writeln!(
                b,
                "  {}{} = ({}){}[adg_k];",
                s.each(),
                s.dv('d'),
                s.c(),
                s.helper("dir")
            )
            .unwrap();
        }
        let args = sig_call(sig, &slots, &structs, &p)?.join(", ");
        if sig.is_function {
            let r = slots.iter().find(|s| s.is_result).expect("result slot");
            writeln!(b, "  {}[0] = {}({args});", r.helper("d"), sig.unit).unwrap();
        } else {
            writeln!(b, "  {}({args});", sig.unit).unwrap();
        }
        for s in &deps {
            writeln!(
                b,
                "  {}{}[adg_k] = {};",
                s.each(),
                s.helper("td"),
                s.dv('d')
            )
            .unwrap();
        }
        copy(&mut b, "t0");
        b.push_str("  adg_num = 0.0;\n  adg_den = 0.0;\n");
        for s in &deps {
            let (t0, p0) = (s.helper("t0"), s.helper("p0"));
            sum(
                &mut b,
                "adg_num",
                s,
                format!("pow({t0}[adg_k] - {p0}[adg_k], 2)"),
            );
            sum(&mut b, "adg_den", s, format!("{p0}[adg_k] * {p0}[adg_k]"));
        }
        writeln!(
            b,
            "  printf(\"CHECK tangent-primal {root} relerr=%25.16e\\n\", \
             sqrt(adg_num) / fmax(sqrt(adg_den), adg_tiny));"
        )
        .unwrap();
        b.push_str("  adg_num = 0.0;\n  adg_den = 0.0;\n  adg_tn = 0.0;\n");
        for s in &deps {
            let (td, fd) = (s.helper("td"), s.helper("fd"));
            sum(
                &mut b,
                "adg_num",
                s,
                format!("pow({td}[adg_k] - {fd}[adg_k], 2)"),
            );
            sum(&mut b, "adg_den", s, format!("{fd}[adg_k] * {fd}[adg_k]"));
            sum(&mut b, "adg_tn", s, format!("{td}[adg_k] * {td}[adg_k]"));
        }
        writeln!(
            b,
            "  printf(\"CHECK tangent {root} relerr=%25.16e fdnorm=%25.16e tnorm=%25.16e\\n\", \
             sqrt(adg_num) / fmax(fmax(sqrt(adg_den), sqrt(adg_tn)), adg_tiny), sqrt(adg_den), sqrt(adg_tn));"
        )
        .unwrap();
    }
    if let Some(sig) = adjoint {
        let p = ptrs.next().expect("one per signature");
        b.push_str("  /* adjoint */\n");
        b.push_str(&restore(&slots));
        zero(&mut b, 'b');
        if check.contract {
            // INTERFACE.md §4: the adjoints of input-only independents passed by value
            // are overwritten; those of the members of a struct that are not
            // dependents (the struct is not, or a path names other members) weigh
            // nothing, whatever they hold. (The adjoint of an array behind a pointer of
            // unknown size is added to: W0501.)
            for s in reals.iter().filter(|s| {
                !s.dependent
                    && !s.is_result
                    && ((s.pass == Pass::Value && s.independent && s.parent.is_none())
                        || (s.parent.is_some() && s.in_b))
            }) {
                writeln!(b, "  {}{} = 7.0;", s.each(), s.dv('b')).unwrap();
            }
        }
        for s in &deps {
            writeln!(
                b,
                "  {}{} = ({}){}[adg_k];",
                s.each(),
                s.dv('b'),
                s.c(),
                s.helper("w")
            )
            .unwrap();
        }
        let args = sig_call(sig, &slots, &structs, &p)?.join(", ");
        writeln!(b, "  {}({args});", sig.unit).unwrap();
        b.push_str("  adg_lhs = 0.0;\n  adg_rhs = 0.0;\n");
        for s in &indeps {
            sum(
                &mut b,
                "adg_lhs",
                s,
                format!("{}[adg_k] * {}", s.helper("dir"), s.dv('b')),
            );
        }
        let reference = if tangent.is_some() { "td" } else { "fd" };
        for s in &deps {
            sum(
                &mut b,
                "adg_rhs",
                s,
                format!("{}[adg_k] * {}[adg_k]", s.helper(reference), s.helper("w")),
            );
        }
        let kind = if tangent.is_some() {
            "adjoint"
        } else {
            "adjoint-fd"
        };
        writeln!(
            b,
            "  printf(\"CHECK {kind} {root} relerr=%25.16e lhs=%25.16e rhs=%25.16e\\n\", \
             fabs(adg_lhs - adg_rhs) / fmax(fmax(fabs(adg_lhs), fabs(adg_rhs)), adg_tiny), adg_lhs, adg_rhs);"
        )
        .unwrap();
    }
    let mut out = String::from(PRELUDE);
    let definitions = struct_definitions(&structs, types, check)?;
    out.push_str(&definitions);
    out.push_str(&prototype_line(unit, &definitions));
    for h in &includes {
        writeln!(out, "#include \"{h}\"").unwrap();
    }
    out.push_str("\nint main(void) {\n");
    out.push_str(&d);
    out.push_str(&b);
    out.push_str("  return 0;\n}\n");
    Ok((
        out,
        DerivativeChecks {
            tangent: tangent.is_some(),
            adjoint: adjoint.is_some(),
            adjoint_cleared: false,
        },
    ))
}
