//! Generic interfaces: each call of a generic name (`norm(x)`, `call swap(a, b)`) is
//! resolved to the one specific procedure whose dummy arguments agree with the actual
//! ones in type, kind and rank (Fortran 2018 §15.5.5.2), once every unit of the program
//! is analyzed, so that specifics in any file and of any module are known.
//!
//! The IL then calls the specific: the call graph, the analyses and the derivatives see
//! the procedure that runs (`norm_vec_d` is the derivative of that call). The unit
//! records the generic's spelling ([`il::Unit::source_calls`]) so that the back-end
//! prints the primal's calls as the source wrote them.
//!
//! A call that no specific takes, or that two take, is E0429, with the specifics listed.

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::il::{
    self, Arg, Attr, DeclKind, Expr, ExprKind, GlobalRef, Intrinsic, ScalarType, StmtKind,
    SymbolKind, SymbolTable, Unit, key,
};

/// A generic interface: where it is declared and what it lists.
struct Generic<'p> {
    name: String,
    /// The module (or procedure) that declares it.
    owner: String,
    procedures: Vec<String>,
    bodies: &'p [Unit],
}

/// One dummy argument of a specific, as generic resolution compares it.
struct Dummy {
    name: String,
    ty: ScalarType,
    type_name: Option<String>,
    rank: usize,
    optional: bool,
}

struct Specific {
    name: String,
    /// The module whose procedure it is, if any.
    host: Option<String>,
    dummies: Vec<Dummy>,
    result: Option<il::Symbol>,
    /// ELEMENTAL: scalar dummies take conformable arrays too.
    elemental: bool,
}

/// The spelling of an intrinsic operator that a generic interface may define.
fn operator_symbol(op: il::BinOp) -> Option<&'static str> {
    Some(match op {
        il::BinOp::Add => "+",
        il::BinOp::Sub => "-",
        il::BinOp::Mul => "*",
        il::BinOp::Div => "/",
        il::BinOp::Pow => "**",
        il::BinOp::Eq => "==",
        il::BinOp::Ne => "/=",
        il::BinOp::Lt => "<",
        il::BinOp::Le => "<=",
        il::BinOp::Gt => ">",
        il::BinOp::Ge => ">=",
        _ => return None,
    })
}

/// The generics of the program: by (owner, generic) keys, the generic's name as
/// messages say it and its specifics.
type Table = BTreeMap<(String, String), (String, Vec<Specific>)>;

/// Resolves every call of a generic name in the program's Fortran procedures. A call
/// that no specific (or more than one) takes is refused, E0429, with the procedure
/// that makes it (`il::Unit::deferred`): it blocks only the roots that reach it.
pub fn resolve(program: &mut il::Program) {
    // (owner, generic) keys → the specifics, computed from the program before rewriting.
    let mut table: Table = BTreeMap::new();
    // (type, operator) keys → the specifics of the type's GENERIC bindings of operators
    // and assignment: they go wherever a value of the type does.
    let mut by_type: Table = BTreeMap::new();
    {
        let generics: Vec<Generic> = program
            .units()
            .flat_map(|u| {
                u.decls.iter().filter_map(move |d| match &d.kind {
                    DeclKind::Generic {
                        name,
                        procedures,
                        bodies,
                    } => Some(Generic {
                        name: name.clone(),
                        owner: u.name.clone(),
                        procedures: procedures.clone(),
                        bodies,
                    }),
                    _ => None,
                })
            })
            .collect();
        for g in &generics {
            let specifics: Vec<Specific> = g
                .procedures
                .iter()
                .filter_map(|p| module_procedure(program, &g.owner, p))
                .chain(g.bodies.iter().map(|b| signature(b, None)))
                .collect();
            // Several INTERFACE blocks of one name extend one generic.
            table
                .entry((key(&g.owner), key(&g.name)))
                .or_insert_with(|| (g.name.clone(), Vec::new()))
                .1
                .extend(specifics);
        }
        for (owner, type_name, binding, procedures) in bound_generics(program) {
            let specifics: Vec<Specific> = procedures
                .iter()
                .filter_map(|p| module_procedure(program, &owner, p))
                .collect();
            if binding.contains('(') {
                by_type.insert((key(&type_name), key(&binding)), (binding, specifics));
            } else {
                let name = crate::front::fortran::sema::bound_generic_name(&type_name, &binding);
                table.insert((key(&owner), name), (binding, specifics));
            }
        }
    }
    if table.is_empty() && by_type.is_empty() {
        return;
    }
    let bound_operators = by_type.keys().any(|(_, op)| op.starts_with("operator("));
    let bound_assignment = by_type.keys().any(|(_, op)| op == "assignment(=)");
    for file in &mut program.files {
        if file.language != il::Language::Fortran {
            continue;
        }
        for unit in file.units.iter_mut().filter(|u| u.is_procedure()) {
            let symbols = unit.symbols.clone();
            let mut errors = Vec::new();
            let derived = symbols.iter().any(|s| s.ty == ScalarType::Derived);
            let mut resolver = Resolver {
                table: &table,
                by_type: &by_type,
                unit_name: unit.name.clone(),
                symbols: &symbols,
                resolved: BTreeMap::new(),
                errors: &mut errors,
                operators: derived
                    && (bound_operators || symbols.iter().any(|s| s.name.starts_with("operator("))),
                assignment: derived && (bound_assignment || symbols.get("assignment(=)").is_some()),
            };
            let mut body = std::mem::take(&mut unit.body);
            il::visit::walk_stmts_mut(&mut body, &mut |s| resolver.stmt(s));
            unit.body = body;
            let resolved = std::mem::take(&mut resolver.resolved);
            for (k, (generic, specific)) in resolved {
                if unit.symbols.get(&specific.name).is_none() {
                    unit.symbols
                        .insert(specific_symbol(unit.symbols.get(&generic), specific));
                }
                // A call through a GENERIC binding prints back through the binding
                // (`sema::bindings`), a defined operator as the operator (`(a + b)`).
                let source = match unit.source_calls.get(&key(&generic)) {
                    Some(bound @ il::SourceCall::Bound { .. }) => bound.clone(),
                    _ => il::SourceCall::Generic(generic),
                };
                unit.source_calls.insert(k, source);
            }
            // The GENERIC bindings' own names (`sema::bound_generic_name`): every call is
            // now of a specific.
            unit.source_calls.retain(|k, _| !k.contains('@'));
            unit.deferred.append(&mut errors);
        }
    }
}

/// The symbol of a specific procedure that a unit calls through a generic: the
/// generic's own (`generic`), when the unit has one (a module's generic, by use or
/// host association), made the specific's; else (a type's GENERIC binding) from the
/// specific alone.
fn specific_symbol(generic: Option<&il::Symbol>, specific: &Specific) -> il::Symbol {
    let mut sym = generic.cloned().unwrap_or_else(|| {
        let (ty, spec) = specific.result.as_ref().map_or(
            (ScalarType::Real(8), il::TypeSpec::of(ScalarType::Real(8))),
            |r| (r.ty, r.type_spec.clone()),
        );
        il::Symbol::local(&specific.name, ty, spec, Vec::new())
    });
    sym.name = specific.name.clone();
    sym.kind = SymbolKind::Procedure;
    if let Some(r) = &specific.result {
        sym.ty = r.ty;
        sym.type_spec = r.type_spec.clone();
        sym.implicit = false;
    }
    sym.global = specific.host.as_ref().map(|h| GlobalRef {
        module: h.clone(),
        name: specific.name.clone(),
    });
    sym
}

/// The GENERIC bindings of the program's derived types: (the module defining the type,
/// the type, the generic spec as written, the procedures of the specific bindings it
/// lists).
fn bound_generics(program: &il::Program) -> Vec<(String, String, String, Vec<String>)> {
    let mut out = Vec::new();
    for u in program.units().filter(|u| u.is_module()) {
        for d in &u.decls {
            let DeclKind::TypeDef { name, bindings, .. } = &d.kind else {
                continue;
            };
            for b in bindings.iter().filter(|b| !b.generic.is_empty()) {
                let procedures = b
                    .generic
                    .iter()
                    .filter_map(|listed| {
                        bindings
                            .iter()
                            .find(|x| key(&x.name) == key(listed) && x.generic.is_empty())
                            .and_then(|x| x.specific.clone())
                    })
                    .collect();
                out.push((u.name.clone(), name.clone(), b.name.clone(), procedures));
            }
        }
    }
    out
}

/// The specific `name` of a generic declared in `owner`: a procedure of that module, or
/// else a procedure of that name anywhere in the program (of a module it uses).
fn module_procedure(program: &il::Program, owner: &str, name: &str) -> Option<Specific> {
    let all: Vec<&Unit> = program
        .procedures()
        .filter(|u| key(&u.name) == key(name))
        .collect();
    let unit = all
        .iter()
        .find(|u| u.host.as_deref().is_some_and(|h| key(h) == key(owner)))
        .or(all.first())?;
    Some(signature(unit, unit.host.clone()))
}

fn signature(unit: &Unit, host: Option<String>) -> Specific {
    let dummies = unit
        .args
        .iter()
        .map(|a| {
            let sym = unit.symbols.get(a);
            Dummy {
                name: a.clone(),
                ty: sym.map_or(ScalarType::Real(4), |s| s.ty),
                type_name: sym.and_then(|s| s.type_spec.type_name.as_ref().map(|t| key(t))),
                rank: sym.map_or(0, |s| s.dims.len()),
                optional: is_optional(unit, a),
            }
        })
        .collect();
    Specific {
        name: unit.name.clone(),
        host,
        elemental: unit.elemental,
        dummies,
        result: unit
            .result
            .as_ref()
            .and_then(|r| unit.symbols.get(r))
            .cloned(),
    }
}

fn is_optional(unit: &Unit, name: &str) -> bool {
    unit.decls.iter().any(|d| match &d.kind {
        DeclKind::Var {
            attrs, entities, ..
        } => {
            attrs.iter().any(|a| matches!(a, Attr::Optional))
                && entities.iter().any(|e| key(&e.name) == key(name))
        }
        _ => false,
    })
}

struct Resolver<'a> {
    table: &'a Table,
    /// The types' GENERIC bindings of operators and assignment (`resolve`).
    by_type: &'a Table,
    unit_name: String,
    symbols: &'a SymbolTable,
    /// Key of each specific called → (the generic as spelled here, the specific).
    resolved: BTreeMap<String, (String, &'a Specific)>,
    errors: &'a mut Vec<Diagnostic>,
    /// The unit sees a derived-type name (a variable or a function's result) and a
    /// defined operator: only then may an operator be a defined one, whose operands'
    /// types are computed (at every operator of the body, so not otherwise).
    operators: bool,
    /// The unit sees a derived-type name and a defined assignment.
    assignment: bool,
}

impl<'a> Resolver<'a> {
    fn stmt(&mut self, s: &mut il::Stmt) {
        let span = s.span;
        for e in il::visit::stmt_exprs_mut(s) {
            il::visit::walk_expr_mut_post(e, &mut |e| self.expr(e));
        }
        if let StmtKind::Call { name, args } = &mut s.kind {
            self.call(name, args, span);
        }
        // `a = b` on a derived type, where an `assignment(=)` specific takes the two
        // (else it is the intrinsic assignment): a call of that subroutine.
        if let StmtKind::Assign { lhs, rhs } = &s.kind
            && self.assignment
        {
            let args = vec![Arg::positional(lhs.clone()), Arg::positional(rhs.clone())];
            let actuals: Vec<(Option<String>, Actual)> =
                args.iter().map(|a| (None, self.actual(&a.value))).collect();
            let Some((_, specifics)) = self.candidates("assignment(=)", &actuals) else {
                return;
            };
            let fitting: Vec<&Specific> = specifics
                .into_iter()
                .filter(|s| fits(s, &actuals))
                .collect();
            if let [one] = fitting.as_slice() {
                self.resolved
                    .insert(key(&one.name), ("assignment(=)".to_string(), *one));
                s.kind = StmtKind::Call {
                    name: one.name.clone(),
                    args,
                };
            }
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        let span = e.span;
        if let ExprKind::Call(name, args) = &mut e.kind {
            self.call(name, args, span);
        }
        // An intrinsic operator on a derived type is a call of the specific function of
        // its generic `operator(+)`.
        if !self.operators {
            return;
        }
        let operands: Option<(&str, Vec<&Expr>)> = match &e.kind {
            ExprKind::Binary(op, a, b) => operator_symbol(*op).map(|s| (s, vec![&**a, &**b])),
            ExprKind::Unary(il::UnOp::Neg, a) => Some(("-", vec![&**a])),
            ExprKind::Unary(il::UnOp::Plus, a) => Some(("+", vec![&**a])),
            _ => None,
        };
        let Some((symbol, operands)) = operands else {
            return;
        };
        if !operands
            .iter()
            .any(|x| self.actual(x).ty == ScalarType::Derived)
        {
            return;
        }
        let mut name = format!("operator({symbol})");
        let actuals: Vec<(Option<String>, Actual)> =
            operands.iter().map(|x| (None, self.actual(x))).collect();
        if self.candidates(&name, &actuals).is_none() {
            // Fortran has no intrinsic arithmetic on derived types.
            let type_name = operands
                .iter()
                .find_map(|x| self.actual(x).type_name)
                .unwrap_or_default();
            self.errors.push(
                Diagnostic::error(
                    "E0429",
                    format!("the operator `{symbol}` is not defined for `type({type_name})` here"),
                )
                .at(span)
                .with_help(format!(
                    "define it with `interface operator({symbol})` or a GENERIC binding of the type, and its function, or use the module that does"
                )),
            );
            return;
        }
        let args: Vec<Arg> = operands
            .into_iter()
            .map(|x| Arg::positional(x.clone()))
            .collect();
        self.call(&mut name, &args, span);
        e.kind = ExprKind::Call(name, args);
    }

    /// The generic `name` names here: by its global reference (a module's generic, under
    /// any local name), or one this unit declares.
    fn generic(&self, name: &str) -> Option<&'a (String, Vec<Specific>)> {
        let sym = self.symbols.get(name)?;
        if sym.kind != SymbolKind::Procedure {
            return None;
        }
        match &sym.global {
            Some(g) => self.table.get(&(key(&g.module), key(&g.name))),
            None => self.table.get(&(key(&self.unit_name), key(name))),
        }
    }

    /// The specifics a call of generic `name` with `actuals` chooses among, and the
    /// generic's name as messages say it: those of the generic the name has here, and,
    /// for an operator or assignment, those of the GENERIC bindings of the derived
    /// types of the actual arguments. `None` when there is no such generic.
    fn candidates(
        &self,
        name: &str,
        actuals: &[(Option<String>, Actual)],
    ) -> Option<(String, Vec<&'a Specific>)> {
        let mut found = self
            .generic(name)
            .map(|(generic, specifics)| (generic.clone(), specifics.iter().collect::<Vec<_>>()));
        if name.contains('(') && !self.by_type.is_empty() {
            for type_name in actuals.iter().filter_map(|(_, a)| a.type_name.as_ref()) {
                if let Some((generic, specifics)) = self.by_type.get(&(key(type_name), key(name))) {
                    let (_, list) = found.get_or_insert_with(|| (generic.clone(), Vec::new()));
                    for s in specifics {
                        if !list.iter().any(|x| key(&x.name) == key(&s.name)) {
                            list.push(s);
                        }
                    }
                }
            }
        }
        found
    }

    fn call(&mut self, name: &mut String, args: &[Arg], span: crate::diag::Span) {
        // Most calls are of no generic: no argument types to compute then.
        let bound = name.contains('(') && !self.by_type.is_empty();
        if !bound && self.generic(name).is_none() {
            return;
        }
        let actuals: Vec<(Option<String>, Actual)> = args
            .iter()
            .map(|a| (a.keyword.clone(), self.actual(&a.value)))
            .collect();
        let Some((generic, specifics)) = self.candidates(name, &actuals) else {
            return;
        };
        let mut fits: Vec<&Specific> = specifics
            .iter()
            .copied()
            .filter(|s| fits(s, &actuals))
            .collect();
        // A non-elemental specific that fits is taken before an elemental one (Fortran
        // 2018 §15.5.5.2).
        if fits.iter().any(|s| !s.elemental) {
            fits.retain(|s| !s.elemental);
        }
        match fits.as_slice() {
            [one] => {
                self.resolved.insert(key(&one.name), (name.clone(), *one));
                *name = one.name.clone();
            }
            _ => {
                let listed: Vec<String> =
                    specifics.iter().map(|s| format!("`{}`", s.name)).collect();
                let what = if fits.is_empty() {
                    format!(
                        "no specific procedure of the generic `{generic}` takes these arguments"
                    )
                } else {
                    format!(
                        "this call of the generic `{generic}` fits more than one specific procedure"
                    )
                };
                self.errors.push(
                    Diagnostic::error("E0429", what)
                        .at(span)
                        .with_help(format!(
                            "its specifics are {}; each differs from the others in the type, kind or rank of an argument",
                            listed.join(", ")
                        )),
                );
            }
        }
    }

    /// The type (and derived type's name) and rank of an actual argument.
    fn actual(&self, e: &Expr) -> Actual {
        let rules = il::types::TypeRules {
            variable: &|n| self.symbols.get(n).map_or(ScalarType::Real(4), |s| s.ty),
            function: &|n| match self
                .resolved
                .get(crate::il::key_ref(n).as_ref())
                .and_then(|(_, s)| s.result.as_ref())
            {
                Some(r) => r.ty,
                None => self.symbols.get(n).map_or(ScalarType::Real(4), |s| s.ty),
            },
            default_real: 4,
        };
        let ty = il::types::expr_type(e, &rules);
        let type_name = self.type_name(e);
        Actual {
            ty,
            type_name,
            rank: self.rank(e),
        }
    }

    /// The name (key) of the derived type of `e`: a variable's, an element's, a
    /// function result's (a specific already resolved, such as an operator's).
    fn type_name(&self, e: &Expr) -> Option<String> {
        let declared = |s: &il::Symbol| s.type_spec.type_name.as_ref().map(|t| key(t));
        match &e.kind {
            ExprKind::Var(n) | ExprKind::Index(n, _) => self.symbols.get(n).and_then(declared),
            ExprKind::Call(n, _) => match self.resolved.get(crate::il::key_ref(n).as_ref()) {
                Some((_, s)) => s.result.as_ref().and_then(declared),
                None => self.symbols.get(n).and_then(declared),
            },
            ExprKind::Paren(x) => self.type_name(x),
            _ => None,
        }
    }

    fn rank(&self, e: &Expr) -> usize {
        let r = |x: &Expr| self.rank(x);
        let args_max = |args: &[Arg]| args.iter().map(|a| r(&a.value)).max().unwrap_or(0);
        match &e.kind {
            ExprKind::Var(n) => self.symbols.get(n).map_or(0, |s| {
                if s.kind == SymbolKind::Variable || s.kind == SymbolKind::Constant {
                    s.dims.len()
                } else {
                    0
                }
            }),
            ExprKind::Index(_, subs) => subs.iter().filter(|s| is_section(s) || r(s) > 0).count(),
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => r(x),
            ExprKind::Binary(_, a, b) => r(a).max(r(b)),
            ExprKind::Substring { base, .. } => r(base),
            ExprKind::ArrayCtor(_) => 1,
            ExprKind::Intrinsic { op, args, .. } => {
                let first = args.first().map_or(0, |a| r(&a.value));
                let has_dim = args.iter().skip(1).any(|a| {
                    a.keyword
                        .as_deref()
                        .is_none_or(|k| k.eq_ignore_ascii_case("dim"))
                        && !matches!(a.value.kind, ExprKind::Logical(_))
                });
                match op {
                    Intrinsic::Sum | Intrinsic::Product | Intrinsic::Maxval | Intrinsic::Minval => {
                        if has_dim {
                            first.saturating_sub(1)
                        } else {
                            0
                        }
                    }
                    Intrinsic::Maxloc | Intrinsic::Minloc => usize::from(!has_dim),
                    Intrinsic::Shape => 1,
                    Intrinsic::DotProduct
                    | Intrinsic::Size
                    | Intrinsic::Lbound
                    | Intrinsic::Ubound
                    | Intrinsic::Present => 0,
                    Intrinsic::Transpose => 2,
                    Intrinsic::Matmul => (first + args.get(1).map_or(0, |a| r(&a.value)))
                        .saturating_sub(2)
                        .max(1),
                    Intrinsic::Spread => first + 1,
                    Intrinsic::Reshape => match args.get(1).map(|a| &a.value.kind) {
                        Some(ExprKind::ArrayCtor(items)) => items.len(),
                        _ => first,
                    },
                    _ => args_max(args),
                }
            }
            // A resolved elemental specific applied to arrays is an array.
            ExprKind::Call(n, args)
                if self
                    .resolved
                    .get(crate::il::key_ref(n).as_ref())
                    .is_some_and(|(_, s)| s.elemental) =>
            {
                args_max(args)
            }
            // An array-valued function: the rank of its result.
            ExprKind::Call(n, _) => match self.resolved.get(crate::il::key_ref(n).as_ref()) {
                Some((_, s)) => s.result.as_ref().map_or(0, |r| r.dims.len()),
                None => self
                    .symbols
                    .get(n)
                    .filter(|s| s.kind == SymbolKind::Procedure)
                    .map_or(0, |s| s.dims.len()),
            },
            _ => 0,
        }
    }
}

fn is_section(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Range { .. })
}

struct Actual {
    ty: ScalarType,
    type_name: Option<String>,
    rank: usize,
}

/// Whether the actual arguments (keyword, type and rank) fit the specific's dummies.
fn fits(s: &Specific, actuals: &[(Option<String>, Actual)]) -> bool {
    let mut given = vec![false; s.dummies.len()];
    for (i, (keyword, actual)) in actuals.iter().enumerate() {
        let at = match keyword {
            Some(k) => match s.dummies.iter().position(|d| key(&d.name) == key(k)) {
                Some(at) => at,
                None => return false,
            },
            None => i,
        };
        let Some(d) = s.dummies.get(at) else {
            return false;
        };
        if std::mem::replace(&mut given[at], true) {
            return false;
        }
        let a = actual;
        let same_type = match (a.ty, d.ty) {
            (ScalarType::Derived, ScalarType::Derived) => {
                a.type_name.is_none() || d.type_name.is_none() || a.type_name == d.type_name
            }
            (x, y) => x == y,
        };
        // An elemental procedure's scalar dummy takes an array of any rank.
        let elementwise = s.elemental && d.rank == 0 && a.rank > 0;
        if !same_type || (a.rank != d.rank && !elementwise) {
            return false;
        }
    }
    // The arrays of an elemental reference must conform: one rank.
    if s.elemental {
        let ranks: std::collections::BTreeSet<usize> = actuals
            .iter()
            .map(|(_, a)| a.rank)
            .filter(|&r| r > 0)
            .collect();
        if ranks.len() > 1 {
            return false;
        }
    }
    s.dummies.iter().zip(&given).all(|(d, &g)| g || d.optional)
}
