//! The C drivers of C roots: the same checks as [`super::driver`] (same `PRIMAL` and
//! `CHECK` lines), written in C.
//!
//! Every argument is held in a C array (scalars in arrays of one element), so that one
//! loop shape serves all: a by-value parameter is passed as `x[0]`, a pointer parameter
//! as `x`. How the root is called comes from its IL (`adgen::back::c::param_kinds`); how
//! its derivatives are called, from the prototypes of the generated header, which the
//! driver includes (so the header is checked too).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use adgen::back::c::{Pass, c_type, param_kinds};
use adgen::diff::Signature;
use adgen::il::{BinOp, Bound, Expr, ExprKind, ScalarType, SymbolKind, UnOp, Unit};

use super::config::{CheckConfig, RootSpec, Value};
use super::driver::DerivativeChecks;

#[derive(Clone, Debug)]
struct Slot {
    var: String,
    key: String,
    ty: ScalarType,
    len: i64,
    pass: Pass,
    /// INTENT(IN): a by-value parameter or a `const` pointer.
    input_only: bool,
    is_result: bool,
    independent: bool,
    dependent: bool,
}

impl Slot {
    fn is_real(&self) -> bool {
        matches!(self.ty, ScalarType::Real(_))
    }
    fn helper(&self, p: &str) -> String {
        let base = if self.is_result { "0res" } else { &self.var };
        format!("adg_{p}_{base}")
    }
    fn dvar(&self) -> String {
        self.helper("d")
    }
    fn c(&self) -> &'static str {
        c_type(self.ty)
    }
    /// `for (adg_k = 0; adg_k < len; adg_k++) `.
    fn each(&self) -> String {
        format!("for (adg_k = 0; adg_k < {}; adg_k++) ", self.len)
    }
}

fn key(s: &str) -> String {
    s.to_ascii_lowercase()
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

fn slots(unit: &Unit, spec: &RootSpec, check: &CheckConfig) -> Result<Vec<Slot>, String> {
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
        // Arrays of any rank are passed as flat arrays of all their elements (C's 2-D
        // parameters `double (*u)[N]` are pointers to the first element as well); an
        // assumed-size last dimension takes `[extent]`.
        let mut len = 1;
        for (k, d) in sym.dims.iter().enumerate() {
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
            len,
            pass: kinds[i],
            input_only: sym.intent == Some(adgen::il::Intent::In),
            is_result: false,
            independent: indep.contains(&key(arg)),
            dependent: dep.contains(&key(arg)),
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
            input_only: false,
            is_result: true,
            independent: false,
            dependent: named || spec.dependents.is_empty(),
        });
    }
    for name in spec.independents.iter().chain(&spec.dependents) {
        let k = key(name);
        if !out
            .iter()
            .any(|s| s.key == k || (s.is_result && k == key(&unit.name)))
        {
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
fn setup(unit: &Unit, slots: &[Slot], check: &CheckConfig) -> Result<(String, String), String> {
    let mut d = String::new();
    let mut b = String::new();
    for s in slots {
        writeln!(d, "  {} {}[{}];", s.c(), s.var, s.len).unwrap();
        writeln!(d, "  {} {}[{}];", s.c(), s.helper("s"), s.len).unwrap();
    }
    d.push_str("  int adg_k = 0;\n");
    writeln!(b, "  adg_state = {}L;", 1 + check.seed % 2_147_483_646).unwrap();
    for s in slots.iter().filter(|s| !s.is_real()) {
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
            "  {}{}[adg_k] = ({})adg_rand({}, {});",
            s.each(),
            s.var,
            s.c(),
            real_c(lo),
            real_c(hi)
        )
        .unwrap();
    }
    for s in slots {
        writeln!(
            b,
            "  {}{}[adg_k] = {}[adg_k];",
            s.each(),
            s.helper("s"),
            s.var
        )
        .unwrap();
    }
    Ok((d, b))
}

fn restore(slots: &[Slot]) -> String {
    let mut out = String::new();
    for s in slots.iter().filter(|s| !s.is_result) {
        writeln!(
            out,
            "  {}{}[adg_k] = {}[adg_k];",
            s.each(),
            s.var,
            s.helper("s")
        )
        .unwrap();
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
    let args: Vec<String> = slots
        .iter()
        .filter(|s| !s.is_result)
        .map(|s| pass(&s.var, s.pass != Pass::Value))
        .collect();
    if unit.is_function() {
        format!("  adg_res[0] = {}({});\n", unit.name, args.join(", "))
    } else {
        format!("  {}({});\n", unit.name, args.join(", "))
    }
}

fn prototype_line(unit: &Unit) -> String {
    format!("{};\n", adgen::back::c::prototype(unit))
}

/// The driver calling the original root once and printing every argument.
pub fn primal_driver(unit: &Unit, spec: &RootSpec, check: &CheckConfig) -> Result<String, String> {
    let slots = slots(unit, spec, check)?;
    let (d, b) = setup(unit, &slots, check)?;
    let mut out = String::from(PRELUDE);
    out.push_str(&prototype_line(unit));
    out.push_str("\nint main(void) {\n");
    out.push_str(&d);
    out.push_str(&b);
    out.push_str(&restore(&slots));
    out.push_str(&primal_call(unit, &slots));
    for s in &slots {
        writeln!(out, "  printf(\"PRIMAL {}\\n\");", s.key).unwrap();
        let fmt = if s.is_real() { "%25.16e" } else { "%ld" };
        let cast = if s.is_real() { "(double)" } else { "(long)" };
        writeln!(
            out,
            "  {}printf(\"{fmt}\\n\", {cast}{}[adg_k]);",
            s.each(),
            s.var
        )
        .unwrap();
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

fn sig_call(sig: &Signature, slots: &[Slot], ptrs: &[bool]) -> Result<Vec<String>, String> {
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
        let slot = match &a.original {
            Some(o) => slots
                .iter()
                .find(|s| s.key == key(o) || (s.is_result && key(o) == key(&sig.root)))
                .ok_or_else(|| format!("{}: `{o}` is no dummy of the root", sig.unit))?,
            None => result.ok_or_else(|| format!("{}: a result argument", sig.unit))?,
        };
        let name = if a.is_derivative {
            slot.dvar()
        } else {
            slot.var.clone()
        };
        out.push(pass(&name, p));
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
) -> Result<(String, DerivativeChecks), String> {
    let slots = slots(unit, spec, check)?;
    let root = key(&unit.name);
    let (d0, b0) = setup(unit, &slots, check)?;
    let mut d = d0;
    let mut b = b0;
    let reals: Vec<&Slot> = slots.iter().filter(|s| s.is_real()).collect();
    let indeps: Vec<&Slot> = slots.iter().filter(|s| s.independent).collect();
    let deps: Vec<&Slot> = slots.iter().filter(|s| s.dependent).collect();
    for s in &reals {
        writeln!(d, "  {} {}[{}];", s.c(), s.dvar(), s.len).unwrap();
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
        let sv = s.helper("s");
        writeln!(
            b,
            "  {}{h}[adg_k] = adg_rand(-1.0, 1.0) * ({sv}[adg_k] != 0 ? fabs((double){sv}[adg_k]) : 1.0);",
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
            writeln!(
                b,
                "  {}{}[adg_k] = {}[adg_k];",
                s.each(),
                s.helper(prefix),
                s.var
            )
            .unwrap();
        }
    };
    let zero = |b: &mut String| {
        for s in &reals {
            writeln!(b, "  {}{}[adg_k] = 0;", s.each(), s.dvar()).unwrap();
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
                    "  {}{v}[adg_k] = ({})({} {sign} {mult}adg_h * {}[adg_k]);",
                    s.each(),
                    s.c(),
                    format_args!("{}[adg_k]", s.helper("s")),
                    s.helper("dir"),
                    v = s.var
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
        zero(&mut b);
        if check.contract {
            for s in reals.iter().filter(|s| !s.independent && !s.is_result) {
                writeln!(b, "  {}{}[adg_k] = 7.0;", s.each(), s.dvar()).unwrap();
            }
        }
        for s in &indeps {
            writeln!(
                b,
                "  {}{}[adg_k] = ({}){}[adg_k];",
                s.each(),
                s.dvar(),
                s.c(),
                s.helper("dir")
            )
            .unwrap();
        }
        let args = sig_call(sig, &slots, &p)?.join(", ");
        if sig.is_function {
            let r = slots.iter().find(|s| s.is_result).expect("result slot");
            writeln!(b, "  {}[0] = {}({args});", r.dvar(), sig.unit).unwrap();
        } else {
            writeln!(b, "  {}({args});", sig.unit).unwrap();
        }
        for s in &deps {
            writeln!(
                b,
                "  {}{}[adg_k] = {}[adg_k];",
                s.each(),
                s.helper("td"),
                s.dvar()
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
        zero(&mut b);
        if check.contract {
            for s in indeps
                .iter()
                .filter(|s| s.pass == Pass::Value && !s.dependent)
            {
                writeln!(b, "  {}{}[adg_k] = 7.0;", s.each(), s.dvar()).unwrap();
            }
        }
        for s in &deps {
            writeln!(
                b,
                "  {}{}[adg_k] = ({}){}[adg_k];",
                s.each(),
                s.dvar(),
                s.c(),
                s.helper("w")
            )
            .unwrap();
        }
        let args = sig_call(sig, &slots, &p)?.join(", ");
        writeln!(b, "  {}({args});", sig.unit).unwrap();
        b.push_str("  adg_lhs = 0.0;\n  adg_rhs = 0.0;\n");
        for s in &indeps {
            sum(
                &mut b,
                "adg_lhs",
                s,
                format!("{}[adg_k] * {}[adg_k]", s.helper("dir"), s.dvar()),
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
    out.push_str(&prototype_line(unit));
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
