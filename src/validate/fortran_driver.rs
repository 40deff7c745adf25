//! Generates the Fortran driver programs that exercise a root: from the root's IL unit
//! (types, dimensions, intents of its dummy arguments), the derivative [`Signature`]s
//! and the corpus program's [`CheckConfig`].
//!
//! Two drivers per root:
//! - [`primal_driver`] calls the original once and prints every argument (and the result)
//!   as `PRIMAL` blocks in `es25.16e3`, for the round-trip comparison;
//! - [`derivative_driver`] checks the tangent against central finite differences and the
//!   adjoint against the tangent by the dot-product test, printing `CHECK` lines that
//!   [`super::checks`] reads.
//!
//! Driver variables for the dummies keep the dummies' names, so that the bound
//! expressions of the declarations, printed from the IL, mean the same thing in the
//! driver. Everything the driver adds is prefixed `adg_`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::diff::Signature;
use crate::il::{
    self, BaseType, Bound, DeclKind, Expr, Intent, Program, ScalarType, SymbolKind, Unit,
};

use super::settings::{CheckConfig, RootSpec, Value};

mod derivative;
mod globals;
mod types;

use derivative::type_uses;
pub use derivative::{DerivativeChecks, derivative_driver};
use globals::{global_slot, global_uses};
pub use types::{Component, StructArg, TypeInfo, Types, collect_types, has_component, struct_args};

/// Prints an IL expression as Fortran.
pub type Printer<'a> = &'a dyn Fn(&Expr) -> String;

/// One argument of the root (or its function result) as the driver holds it.
#[derive(Clone, Debug)]
struct Slot {
    /// Driver variable: the dummy's own name, or `adg_res` for a function result.
    var: String,
    /// Lower-case name used to match independents, dependents and signature arguments.
    key: String,
    ty: ScalarType,
    dims: Vec<il::DimSpec>,
    intent: Option<Intent>,
    is_result: bool,
    independent: bool,
    dependent: bool,
    /// A component of a derived-type argument: the argument's name (`var` is then
    /// `s%a`, a path into it).
    parent: Option<String>,
    /// The component exists in the tangent / adjoint derivative type.
    in_d: bool,
    in_b: bool,
    /// A module variable the root reads or writes (an independent or dependent of a
    /// root, INTERFACE.md §1): the module; `var` is its name there. The driver uses it
    /// and its derivatives (`ud`, `ub` of `m_d`, `m_b`, INTERFACE.md §3) instead of
    /// declaring them.
    module: Option<String>,
}

impl Slot {
    fn rank(&self) -> usize {
        self.dims.len()
    }
    fn is_real(&self) -> bool {
        matches!(self.ty, ScalarType::Real(_))
    }
    /// `adg_<prefix>_<dummy>`; for the result `adg_<prefix>_0res`, which no dummy name
    /// (starting with a letter) can produce.
    fn helper(&self, prefix: &str) -> String {
        if let (Some(p), "s") = (&self.parent, prefix) {
            return format!("adg_s_{p}{}", &self.var[p.len()..]);
        }
        let base = if self.is_result {
            "0res".to_string()
        } else {
            self.var.replace('%', "_")
        };
        format!("adg_{prefix}_{base}")
    }
    /// Derivative variable passed to `f_d` / `f_b` (`mode` `d` or `b`); for a component
    /// its place in the derivative structure, or a zero placeholder when the derivative
    /// type lacks it.
    fn dvar_of(&self, mode: char) -> String {
        if self.module.is_some() {
            return format!("{}{mode}", self.var);
        }
        match &self.parent {
            Some(p) => {
                if (mode == 'd' && self.in_d) || (mode == 'b' && self.in_b) {
                    format!("adg_{mode}_{p}{}", &self.var[p.len()..])
                } else {
                    self.helper("z")
                }
            }
            None => self.helper("d"),
        }
    }
    fn placeholder(&self) -> bool {
        self.parent.is_some() && !(self.in_d && self.in_b)
    }
    /// Declaration of a driver variable shaped like this slot: allocatable when an array.
    fn declare(&self, ty: &str, name: &str) -> String {
        if self.rank() == 0 {
            format!("  {ty} :: {name}\n")
        } else {
            format!("  {ty}, allocatable :: {name}{}\n", self.deferred())
        }
    }
    fn deferred(&self) -> String {
        if self.rank() == 0 {
            String::new()
        } else {
            format!("({})", vec![":"; self.rank()].join(","))
        }
    }
    /// `lbound(x,1):ubound(x,1), ...` of the driver's primal variable.
    fn same_bounds(&self) -> String {
        (1..=self.rank())
            .map(|d| format!("lbound({v},{d}):ubound({v},{d})", v = self.var))
            .collect::<Vec<_>>()
            .join(", ")
    }
    /// `sum(e)` for arrays, `(e)` for scalars.
    fn total(&self, e: &str) -> String {
        if self.rank() == 0 {
            format!("({e})")
        } else {
            format!("sum({e})")
        }
    }
}

fn type_name(ty: ScalarType) -> Result<String, String> {
    Ok(match ty {
        ScalarType::Integer(k) => format!("integer({k})"),
        ScalarType::Real(k) => format!("real({k})"),
        ScalarType::Logical => "logical".to_string(),
        ScalarType::Character => {
            return Err("the driver cannot pass CHARACTER arguments".to_string());
        }
        ScalarType::Derived => {
            return Err("the driver cannot pass derived-type arguments".to_string());
        }
        ScalarType::Complex(_) => {
            return Err("the driver cannot pass COMPLEX arguments".to_string());
        }
    })
}

fn key(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// Member `member` (`s%a%u`, or C's `s.a.u`) is named by `names` (keys): whole, or by
/// the path of one of its enclosing components (`s%a`), or by its own (INTERFACE.md §1).
pub(super) fn covers(names: &BTreeSet<String>, member: &str) -> bool {
    let member = key(member).replace('.', "%");
    names.iter().any(|n| {
        let n = n.replace('.', "%");
        member == n || member.strip_prefix(&n).is_some_and(|r| r.starts_with('%'))
    })
}

/// The components of `var` (of type `tname`) as slots, recursively.
#[allow(clippy::too_many_arguments)]
fn expand(
    out: &mut Vec<Slot>,
    types: &Types,
    parent: &str,
    var: &str,
    tname: &str,
    intent: Option<Intent>,
    roles: (&BTreeSet<String>, &BTreeSet<String>),
    depth: usize,
) -> Result<(), String> {
    let info = types
        .get(&key(tname))
        .ok_or_else(|| format!("the driver finds no definition of the type `{tname}`"))?;
    if depth > 8 {
        return Err(format!("the type `{tname}` nests too deeply"));
    }
    for c in &info.components {
        let v = format!("{var}%{}", c.name);
        if c.ty == ScalarType::Derived {
            if !c.dims.is_empty() {
                return Err(format!(
                    "the driver cannot fill the array component `{v}` of derived type"
                ));
            }
            let t = c.type_name.clone().unwrap_or_default();
            expand(out, types, parent, &v, &t, intent, roles, depth + 1)?;
            continue;
        }
        if c.dims.iter().any(|d| !matches!(d.upper, Bound::Expr(_))) {
            return Err(format!(
                "the driver cannot fill the deferred-shape component `{v}`"
            ));
        }
        let (independent, dependent) = (covers(roles.0, &v), covers(roles.1, &v));
        out.push(Slot {
            key: key(&v),
            var: v,
            ty: c.ty,
            dims: c.dims.clone(),
            intent,
            is_result: false,
            independent: independent && matches!(c.ty, ScalarType::Real(_)),
            dependent: dependent && matches!(c.ty, ScalarType::Real(_)),
            parent: Some(parent.to_string()),
            in_d: true,
            in_b: true,
            module: None,
        });
    }
    Ok(())
}

/// The root's arguments and result, with their roles.
fn slots(unit: &Unit, spec: &RootSpec, types: &Types) -> Result<Vec<Slot>, String> {
    let indep: BTreeSet<String> = spec.independents.iter().map(|s| key(s)).collect();
    let dep: BTreeSet<String> = spec.dependents.iter().map(|s| key(s)).collect();
    let mut out = Vec::new();
    for arg in &unit.args {
        let sym = unit
            .symbols
            .get(arg)
            .ok_or_else(|| format!("dummy argument `{arg}` of `{}` has no symbol", unit.name))?;
        if sym.kind != SymbolKind::Variable {
            return Err(format!(
                "dummy argument `{arg}` of `{}` is a procedure; the driver cannot pass it",
                unit.name
            ));
        }
        if sym.ty == ScalarType::Derived {
            if !sym.dims.is_empty() {
                return Err(format!(
                    "the driver cannot pass the array of derived type `{arg}`"
                ));
            }
            let t = sym.type_spec.type_name.clone().unwrap_or_default();
            expand(&mut out, types, arg, arg, &t, sym.intent, (&indep, &dep), 0)?;
            continue;
        }
        out.push(Slot {
            var: arg.clone(),
            key: key(arg),
            ty: sym.ty,
            dims: sym.dims.clone(),
            intent: sym.intent,
            is_result: false,
            independent: indep.contains(&key(arg)),
            dependent: dep.contains(&key(arg)),
            parent: None,
            in_d: true,
            in_b: true,
            module: None,
        });
    }
    if unit.is_function() {
        let result = unit.result.clone().unwrap_or_else(|| unit.name.clone());
        let ty = unit
            .symbols
            .get(&result)
            .map(|s| s.ty)
            .ok_or_else(|| format!("the result `{result}` of `{}` has no symbol", unit.name))?;
        let named = dep.contains(&key(&result)) || dep.contains(&key(&unit.name));
        out.push(Slot {
            var: "adg_res".to_string(),
            key: key(&result),
            ty,
            dims: Vec::new(),
            intent: Some(Intent::Out),
            is_result: true,
            independent: false,
            dependent: named || spec.dependents.is_empty(),
            parent: None,
            in_d: true,
            in_b: true,
            module: None,
        });
    }
    for name in spec.independents.iter().chain(&spec.dependents) {
        let k = key(name);
        let known = out.iter().any(|s| {
            s.key == k
                || s.parent.as_deref().map(key) == Some(k.clone())
                || covers(&BTreeSet::from([k.clone()]), &s.key)
                || (s.is_result && k == key(&unit.name))
        });
        if !known {
            out.push(global_slot(unit, name, (&indep, &dep))?);
        }
    }
    Ok(out)
}

/// The names the bounds of the slots' dimensions read.
fn bound_names<'a>(slots: impl IntoIterator<Item = &'a Slot>) -> BTreeSet<&'a str> {
    let mut names = BTreeSet::new();
    for d in slots.into_iter().flat_map(|s| &s.dims) {
        names.extend(d.lower.iter().flat_map(il::visit::names_read));
        if let Bound::Expr(u) = &d.upper {
            names.extend(il::visit::names_read(u));
        }
    }
    names
}

/// Named constants used by the dimension expressions, with their definitions, in
/// declaration order (so that a constant defined from another comes after it).
fn constants(unit: &Unit, used: &BTreeSet<String>) -> Vec<(String, ScalarType, Expr)> {
    let mut wanted = used.clone();
    let mut defs: Vec<(String, ScalarType, Expr)> = Vec::new();
    // Definitions in declaration order.
    let mut all: Vec<(String, Expr)> = Vec::new();
    for decl in &unit.decls {
        match &decl.kind {
            DeclKind::Parameter(pairs) => all.extend(pairs.iter().cloned()),
            DeclKind::Var {
                attrs, entities, ..
            } if attrs.iter().any(|a| matches!(a, il::Attr::Parameter)) => {
                for e in entities {
                    if let Some(init) = &e.init {
                        all.push((e.name.clone(), init.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    // Close over constants referenced by the definitions of wanted ones.
    loop {
        let before = wanted.len();
        for (name, init) in &all {
            if wanted.contains(&key(name)) {
                for n in il::visit::names_read(init) {
                    wanted.insert(key(n));
                }
            }
        }
        if wanted.len() == before {
            break;
        }
    }
    for (name, init) in all {
        if !wanted.contains(&key(&name)) {
            continue;
        }
        if let Some(sym) = unit.symbols.get(&name) {
            if sym.kind == SymbolKind::Constant {
                defs.push((name, sym.ty, init));
            }
        }
    }
    defs
}

/// The common part of both drivers: declarations, setting integer and logical inputs,
/// allocating arrays, filling reals with pseudo-random values, and saving the inputs.
struct Setup {
    decls: String,
    body: String,
}

fn setup(
    unit: &Unit,
    slots: &[Slot],
    structs: &[StructArg],
    check: &CheckConfig,
    print: Printer,
) -> Result<Setup, String> {
    let mut decls = String::new();
    let mut body = String::new();
    // Constants used in bounds.
    let used: BTreeSet<String> = bound_names(slots).into_iter().map(key).collect();
    for (name, ty, init) in constants(unit, &used) {
        writeln!(
            decls,
            "  {}, parameter :: {name} = {}",
            type_name(ty)?,
            print(&init)
        )
        .unwrap();
    }
    for st in structs {
        writeln!(
            decls,
            "  type({}) :: {}, adg_s_{}",
            st.tname, st.var, st.var
        )
        .unwrap();
    }
    for s in slots {
        let t = type_name(s.ty)?;
        if s.parent.is_some() {
            continue;
        }
        if s.module.is_none() {
            decls.push_str(&s.declare(&t, &s.var));
        }
        decls.push_str(&s.declare(&t, &s.helper("s")));
    }
    writeln!(decls, "  integer(8) :: adg_state").unwrap();
    writeln!(decls, "  real(8), allocatable :: adg_tmp(:)").unwrap();
    writeln!(body, "  adg_state = {}_8", 1 + check.seed % 2_147_483_646).unwrap();

    // Scalars that are not real: from check.toml.
    for s in slots.iter().filter(|s| s.rank() == 0 && !s.is_real()) {
        let comp = s.var.rsplit('%').next().unwrap_or(&s.var);
        let given = check.value_of(&s.var).or_else(|| {
            if s.parent.is_some() {
                check.value_of(comp)
            } else {
                None
            }
        });
        if given.is_none() && s.parent.is_some() {
            // A component check.toml does not name: a fixed small value.
            let v = if s.ty == ScalarType::Logical {
                ".false."
            } else {
                "1"
            };
            writeln!(body, "  {} = {v}", s.var).unwrap();
            continue;
        }
        match (given, s.ty) {
            (Some(Value::Int(v)), ScalarType::Integer(_)) => {
                writeln!(body, "  {} = {v}", s.var).unwrap()
            }
            (Some(Value::Bool(b)), ScalarType::Logical) => writeln!(
                body,
                "  {} = {}",
                s.var,
                if *b { ".true." } else { ".false." }
            )
            .unwrap(),
            (None, _) if s.intent == Some(Intent::Out) || s.is_result => {
                let zero = if s.ty == ScalarType::Logical {
                    ".false."
                } else {
                    "0"
                };
                writeln!(body, "  {} = {zero}", s.var).unwrap()
            }
            (None, _) => {
                return Err(format!(
                    "{} gives no value for the argument `{}` of `{}`: add `{} = ...` there",
                    check.origin,
                    s.var,
                    unit.name,
                    key(&s.var)
                ));
            }
            (Some(v), _) => {
                return Err(format!(
                    "{}: {v:?} does not fit the argument `{}` of `{}`",
                    check.origin, s.var, unit.name
                ));
            }
        }
    }
    // Arrays: allocate with the declared bounds (a module's arrays are its own).
    for s in slots.iter().filter(|s| s.rank() > 0 && s.module.is_none()) {
        let mut bounds = Vec::new();
        for (i, d) in s.dims.iter().enumerate() {
            let lower = d.lower.as_ref().map(print);
            let upper = match &d.upper {
                Bound::Expr(e) => print(e),
                // Assumed shape: every dimension gets the `[extent]` of the argument.
                // Assumed shape (every dimension) or assumed size (the last): the
                // argument's `[extent]`.
                Bound::Colon | Bound::Star => {
                    let what = if matches!(d.upper, Bound::Colon) {
                        "assumed-shape"
                    } else if i + 1 == s.rank() {
                        "assumed-size"
                    } else {
                        return Err(format!("`{}`: `*` not in the last dimension", s.var));
                    };
                    let extent = check.extent_of(&s.var).ok_or_else(|| {
                        format!(
                            "{}: `[extent] {}` is needed for the {what} argument `{}` of `{}`",
                            check.origin,
                            key(&s.var),
                            s.var,
                            unit.name
                        )
                    })?;
                    match &lower {
                        Some(l) => format!("({l}) + {}", extent - 1),
                        None => extent.to_string(),
                    }
                }
            };
            bounds.push(match lower {
                Some(l) => format!("{l}:{upper}"),
                None => upper,
            });
        }
        if s.parent.is_none() {
            writeln!(body, "  allocate({}({}))", s.var, bounds.join(", ")).unwrap();
        }
        match s.ty {
            ScalarType::Real(_) => {}
            ScalarType::Integer(_) => match check.value_of(&s.var) {
                Some(Value::IntList(list)) => {
                    let items: Vec<String> = list.iter().map(|i| i.to_string()).collect();
                    writeln!(
                        body,
                        "  {v} = reshape([integer :: {}], shape({v}))",
                        items.join(", "),
                        v = s.var
                    )
                    .unwrap()
                }
                None if s.intent == Some(Intent::Out) || s.parent.is_some() => {
                    writeln!(body, "  {} = 1", s.var).unwrap()
                }
                _ => {
                    return Err(format!(
                        "{} must give the integer array `{}` of `{}` as a list",
                        check.origin, s.var, unit.name
                    ));
                }
            },
            ScalarType::Logical => writeln!(body, "  {} = .false.", s.var).unwrap(),
            ScalarType::Character | ScalarType::Derived | ScalarType::Complex(_) => {
                unreachable!("rejected by type_name")
            }
        }
    }
    // Reals: pseudo-random in the configured range (also outputs, so that nothing is
    // read uninitialized).
    for s in slots.iter().filter(|s| s.is_real()) {
        let (lo, hi) = check.range_of(&s.var);
        let (lo, hi) = (real8(lo), real8(hi));
        if s.rank() == 0 {
            writeln!(body, "  {} = real(adg_rand({lo}, {hi}), kind({0}))", s.var).unwrap();
        } else {
            writeln!(body, "  allocate(adg_tmp(size({})))", s.var).unwrap();
            writeln!(body, "  call adg_fill(adg_tmp, {lo}, {hi})").unwrap();
            writeln!(
                body,
                "  {v} = real(reshape(adg_tmp, shape({v})), kind({v}))",
                v = s.var
            )
            .unwrap();
            writeln!(body, "  deallocate(adg_tmp)").unwrap();
        }
    }
    for s in slots {
        if s.rank() == 0 || s.parent.is_some() {
            writeln!(body, "  {} = {}", s.helper("s"), s.var).unwrap();
        } else {
            writeln!(body, "  allocate({}, source={})", s.helper("s"), s.var).unwrap();
        }
    }
    Ok(Setup { decls, body })
}

/// A real(8) literal.
fn real8(v: f64) -> String {
    format!("{v:e}").replace('e', "d")
}

fn restore(slots: &[Slot]) -> String {
    let mut s = String::new();
    for slot in slots.iter().filter(|s| !s.is_result) {
        writeln!(s, "  {} = {}", slot.var, slot.helper("s")).unwrap();
    }
    s
}

/// `call f(x, y)` or `adg_res = g(x)`.
fn primal_call(unit: &Unit, _slots: &[Slot]) -> String {
    let args: Vec<&str> = unit.args.iter().map(|s| s.as_str()).collect();
    if unit.is_function() {
        format!("  adg_res = {}({})\n", unit.name, args.join(", "))
    } else {
        format!("  call {}({})\n", unit.name, args.join(", "))
    }
}

const CONTAINS: &str = "\
contains
  function adg_rand(lo, hi) result(r)
    real(8), intent(in) :: lo, hi
    real(8) :: r
    adg_state = mod(16807_8 * adg_state, 2147483647_8)
    r = lo + (hi - lo) * (real(adg_state, 8) / 2147483647.0d0)
  end function adg_rand
  subroutine adg_fill(a, lo, hi)
    real(8), intent(out) :: a(:)
    real(8), intent(in) :: lo, hi
    integer :: i
    do i = 1, size(a)
      a(i) = adg_rand(lo, hi)
    end do
  end subroutine adg_fill
";

/// `use` lines for a root that is a module procedure (and for its derivatives, which
/// live in derivative modules: such procedures are not declared EXTERNAL), and for the
/// modules defining the types `types` (module, type name).
fn module_uses_with(unit: &Unit, sigs: &[&Signature], types: &[(String, String)]) -> String {
    let mut out = String::new();
    for (m, t) in types {
        writeln!(out, "  use {m}, only: {t}").unwrap();
    }
    if let Some(m) = &unit.host {
        writeln!(out, "  use {m}, only: {}", unit.name).unwrap();
    }
    for sig in sigs {
        if let Some(m) = &sig.module {
            writeln!(out, "  use {m}, only: {}", sig.unit).unwrap();
        }
    }
    out
}

/// Does the root have assumed-shape dummies (which need an explicit interface)?
fn needs_interface(slots: &[Slot]) -> bool {
    slots
        .iter()
        .any(|s| s.dims.iter().any(|d| matches!(d.upper, Bound::Colon)))
}

/// An INTERFACE block for a subroutine root with assumed-shape dummies and for its
/// derivatives (`procs`: name and arguments as (dummy name, slot, is_derivative)).
fn interface_block(
    unit: &Unit,
    procs: &[(String, Vec<(String, &Slot)>)],
    print: Printer,
) -> Result<String, String> {
    if unit.is_function() {
        return Err(format!(
            "the driver cannot call the function `{}` with assumed-shape dummies; make it a subroutine",
            unit.name
        ));
    }
    let mut out = String::from("  interface\n");
    for (name, args) in procs {
        let names: Vec<&str> = args.iter().map(|(n, _)| n.as_str()).collect();
        writeln!(out, "    subroutine {name}({})", names.join(", ")).unwrap();
        writeln!(out, "      import").unwrap();
        for (n, slot) in args {
            let dims = if slot.rank() == 0 {
                String::new()
            } else {
                let parts: Vec<String> = slot
                    .dims
                    .iter()
                    .map(|d| {
                        let lower = d.lower.as_ref().map(|l| format!("{}:", print(l)));
                        match &d.upper {
                            Bound::Expr(e) => format!("{}{}", lower.unwrap_or_default(), print(e)),
                            Bound::Colon => lower.unwrap_or_else(|| ":".to_string()),
                            Bound::Star => format!("{}*", lower.unwrap_or_default()),
                        }
                    })
                    .collect();
                format!("({})", parts.join(", "))
            };
            writeln!(out, "      {} :: {n}{dims}", type_name(slot.ty)?).unwrap();
        }
        writeln!(out, "    end subroutine {name}").unwrap();
    }
    out.push_str("  end interface\n");
    Ok(out)
}

/// The interface of the root itself, by its dummies' names.
fn root_interface(unit: &Unit, slots: &[Slot], print: Printer) -> Result<String, String> {
    let args = slots
        .iter()
        .filter(|s| !s.is_result && s.module.is_none())
        .map(|s| (s.var.clone(), s))
        .collect();
    interface_block(unit, &[(unit.name.clone(), args)], print)
}

fn externals(unit: &Unit, slots: &[Slot], names: &[String]) -> Result<String, String> {
    if !unit.is_function() || unit.host.is_some() {
        return Ok(String::new());
    }
    let res = slots
        .iter()
        .find(|s| s.is_result)
        .expect("functions have a result slot");
    Ok(format!(
        "  {}, external :: {}\n",
        type_name(res.ty)?,
        names.join(", ")
    ))
}

/// The driver that calls the original root once and prints every argument and result.
pub fn primal_driver(
    unit: &Unit,
    spec: &RootSpec,
    check: &CheckConfig,
    print: Printer,
    types: &Types,
) -> Result<String, String> {
    let slots = slots(unit, spec, types)?;
    let structs = struct_args(unit);
    if !structs.is_empty() && needs_interface(&slots) {
        return Err(
            "the driver cannot pass derived-type arguments next to assumed-shape ones".into(),
        );
    }
    let setup = setup(unit, &slots, &structs, check, print)?;
    let mut out = String::new();
    out.push_str("program adgen_primal_driver\n");
    out.push_str(&module_uses_with(
        unit,
        &[],
        &type_uses(&structs, types, &[])?,
    ));
    out.push_str(&global_uses(unit, &slots, false, false));
    out.push_str("  implicit none\n");
    out.push_str(&setup.decls);
    // A module procedure (and its derivatives) has its interface by use association.
    if needs_interface(&slots) && unit.host.is_none() {
        out.push_str(&root_interface(unit, &slots, print)?);
    } else {
        out.push_str(&externals(unit, &slots, std::slice::from_ref(&unit.name))?);
    }
    out.push_str(&setup.body);
    out.push_str(&restore(&slots));
    out.push_str(&primal_call(unit, &slots));
    for s in &slots {
        let fmt = match s.ty {
            ScalarType::Real(_) => "(es25.16e3)",
            ScalarType::Integer(_) => "(i0)",
            _ => "(l1)",
        };
        writeln!(out, "  write(*,'(a)') 'PRIMAL {}'", s.key).unwrap();
        writeln!(out, "  write(*,'{fmt}') {}", s.var).unwrap();
    }
    out.push_str(CONTAINS);
    out.push_str("end program adgen_primal_driver\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_literals() {
        assert_eq!(real8(0.5), "5d-1");
        assert_eq!(real8(1.5), "1.5d0");
        assert_eq!(real8(-1.0), "-1d0");
        assert_eq!(real8(1e-6), "1d-6");
    }
}
