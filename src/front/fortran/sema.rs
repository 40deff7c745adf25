//! Semantics of one unit: implicit typing, declarations → symbol table, kind parameters,
//! and name resolution (`name(args)` → array element, intrinsic or user function), with
//! the checks that need symbols (undeclared names, DO variables, named constants,
//! subscript counts, duplicate declarations).
//!
//! Declarations are read in order first (so `real(dp)` sees `dp`), then every expression
//! of the declarations and of the body is resolved.

use std::collections::{BTreeMap, BTreeSet};

use super::intrinsics;
use crate::diag::{Diagnostic, Span};
use crate::il::{
    Arg, Attr, BaseType, DeclKind, DimSpec, Expr, ExprKind, Intent, RealLit, ScalarType, Stmt,
    StmtKind, Symbol, SymbolKind, SymbolTable, TypeSpec, Unit, UnitKind, key,
};

/// What the unit says about one name.
#[derive(Clone, Debug)]
struct Info {
    name: String,
    span: Span,
    spec: Option<TypeSpec>,
    ty: Option<ScalarType>,
    dims: Option<Vec<DimSpec>>,
    intent: Option<Intent>,
    constant: bool,
    /// Value of an integer named constant, when it could be computed.
    value: Option<i64>,
    external: bool,
    arg_index: Option<usize>,
    is_result: bool,
    used_var: bool,
    /// Referenced as a user function or CALLed.
    used_proc: bool,
    /// Referenced as an intrinsic function (a typed intrinsic name).
    used_intrinsic: bool,
}

impl Info {
    fn new(name: &str, span: Span) -> Info {
        Info {
            name: name.to_string(),
            span,
            spec: None,
            ty: None,
            dims: None,
            intent: None,
            constant: false,
            value: None,
            external: false,
            arg_index: None,
            is_result: false,
            used_var: false,
            used_proc: false,
            used_intrinsic: false,
        }
    }
}

struct Sema<'d> {
    diags: &'d mut Vec<Diagnostic>,
    infos: Vec<Info>,
    by_key: BTreeMap<String, usize>,
    /// Implicit type per letter, `None` under IMPLICIT NONE.
    implicit: Vec<Option<(TypeSpec, ScalarType)>>,
    implicit_none: bool,
    /// Names already reported, so each problem is reported once.
    reported: BTreeSet<String>,
    args: Vec<String>,
    arg_spans: Vec<Span>,
    header_span: Span,
    in_decl: bool,
    /// Set while resolving the right side of an assignment to a whole array.
    quiet_whole_arrays: bool,
    /// For `FUNCTION f(...) RESULT(r)`: `f`, which is then not a variable.
    result_renamed_from: Option<String>,
}

fn kind_bytes(ty: ScalarType) -> i64 {
    match ty {
        ScalarType::Integer(k) | ScalarType::Real(k) => k as i64,
        ScalarType::Logical => 4,
        ScalarType::Character => 1,
    }
}

fn default_implicit() -> Vec<Option<(TypeSpec, ScalarType)>> {
    (b'a'..=b'z')
        .map(|l| {
            let ty = if (b'i'..=b'n').contains(&l) {
                ScalarType::Integer(4)
            } else {
                ScalarType::Real(4)
            };
            Some((TypeSpec::of(ty), ty))
        })
        .collect()
}

fn selected_real_kind(p: i64, r: i64) -> i64 {
    if p <= 6 && r <= 37 {
        4
    } else if p <= 15 && r <= 307 {
        8
    } else if p <= 18 && r <= 4931 {
        10
    } else if p <= 33 && r <= 4931 {
        16
    } else {
        -1
    }
}

fn selected_int_kind(r: i64) -> i64 {
    match r {
        i64::MIN..=2 => 1,
        3..=4 => 2,
        5..=9 => 4,
        10..=18 => 8,
        19..=38 => 16,
        _ => -1,
    }
}

/// Where the parts of a unit's header are.
#[derive(Clone, Debug, Default)]
pub struct HeaderSpans {
    /// The SUBROUTINE or FUNCTION statement.
    pub header: Span,
    /// Each dummy argument, in order.
    pub args: Vec<Span>,
}

/// Analyzes `unit` in place: fills its symbol table and resolves every name.
pub fn analyze(unit: &mut Unit, spans: &HeaderSpans, diags: &mut Vec<Diagnostic>) {
    let mut sema = Sema {
        diags,
        infos: Vec::new(),
        by_key: BTreeMap::new(),
        implicit: default_implicit(),
        implicit_none: false,
        reported: BTreeSet::new(),
        args: unit.args.iter().map(|a| key(a)).collect(),
        arg_spans: spans.args.clone(),
        header_span: spans.header,
        in_decl: true,
        quiet_whole_arrays: false,
        result_renamed_from: unit.explicit_result.then(|| unit.name.clone()),
    };
    sema.header(unit);
    let mut decls = std::mem::take(&mut unit.decls);
    sema.implicit_rules(&decls);
    for decl in &decls {
        sema.declare(&decl.kind, decl.span);
    }
    sema.finish_header(unit);
    for decl in &mut decls {
        sema.resolve_decl(&mut decl.kind);
    }
    unit.decls = decls;
    sema.in_decl = false;
    let mut body = std::mem::take(&mut unit.body);
    sema.resolve_block(&mut body);
    sema.check_untyped_names();
    sema.check_variable_and_function();
    unit.body = body;
    unit.symbols = sema.symbols();
}

impl Sema<'_> {
    fn error(&mut self, code: &'static str, msg: String, span: Span) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(code, msg).at(span));
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.by_key.get(&key(name)).copied()
    }

    fn get_or_create(&mut self, name: &str, span: Span) -> usize {
        if let Some(i) = self.lookup(name) {
            return i;
        }
        let mut info = Info::new(name, span);
        info.arg_index = self.args.iter().position(|a| *a == key(name));
        self.by_key.insert(key(name), self.infos.len());
        self.infos.push(info);
        self.infos.len() - 1
    }

    fn implicit_of(&self, name: &str) -> Option<(TypeSpec, ScalarType)> {
        let first = name.bytes().next()?.to_ascii_lowercase();
        if !first.is_ascii_lowercase() {
            return None;
        }
        self.implicit
            .get((first - b'a') as usize)
            .cloned()
            .flatten()
    }

    /// Type of a name: declared, else implicit.
    fn type_of(&self, i: usize) -> Option<ScalarType> {
        let info = &self.infos[i];
        info.ty
            .or_else(|| self.implicit_of(&info.name).map(|(_, t)| t))
    }

    fn arg_span(&self, index: usize, fallback: Span) -> Span {
        self.arg_spans.get(index).copied().unwrap_or(fallback)
    }

    fn header(&mut self, unit: &Unit) {
        let mut seen = BTreeSet::new();
        for (index, arg) in unit.args.iter().enumerate() {
            if !seen.insert(key(arg)) {
                let span = self.arg_span(index, unit.span);
                self.error(
                    "E0307",
                    format!("`{arg}` appears twice among the dummy arguments"),
                    span,
                );
            }
        }
        if let Some(result) = &unit.result
            && self.args.contains(&key(result))
        {
            self.error(
                "E0307",
                format!("the result `{result}` is also a dummy argument"),
                self.header_span,
            );
        }
    }

    fn implicit_rules(&mut self, decls: &[crate::il::Decl]) {
        let mut saw_rules = false;
        for decl in decls {
            let DeclKind::Implicit(rules) = &decl.kind else {
                continue;
            };
            if rules.is_empty() {
                if self.implicit_none || saw_rules {
                    self.error(
                        "E0307",
                        "IMPLICIT NONE must be the only IMPLICIT statement".to_string(),
                        decl.span,
                    );
                }
                self.implicit_none = true;
                self.implicit = vec![None; 26];
                continue;
            }
            if self.implicit_none {
                self.error(
                    "E0307",
                    "IMPLICIT rules cannot follow IMPLICIT NONE".to_string(),
                    decl.span,
                );
                continue;
            }
            saw_rules = true;
            for rule in rules {
                let ty = self.type_of_spec(&rule.spec, decl.span);
                for &(lo, hi) in &rule.ranges {
                    for letter in lo..=hi {
                        if letter.is_ascii_lowercase() {
                            self.implicit[(letter as u8 - b'a') as usize] =
                                Some((rule.spec.clone(), ty));
                        }
                    }
                }
            }
        }
    }

    /// The meaning of a type spec; kinds must be integer constants known so far.
    fn type_of_spec(&mut self, spec: &TypeSpec, span: Span) -> ScalarType {
        let (is_real, default) = match spec.base {
            BaseType::Integer => (false, ScalarType::Integer(4)),
            BaseType::Real => (true, ScalarType::Real(4)),
            BaseType::DoublePrecision => return ScalarType::Real(8),
            BaseType::Logical => return ScalarType::Logical,
            BaseType::Character => return ScalarType::Character,
        };
        let (kind, where_span) = match (&spec.kind, spec.star) {
            (Some(e), _) => (self.eval_int(e, 0), e.span),
            (None, Some(star)) => (Some(star as i64), span),
            (None, None) => return default,
        };
        let valid: &[i64] = if is_real {
            &[4, 8, 10, 16]
        } else {
            &[1, 2, 4, 8, 16]
        };
        match kind {
            Some(k) if valid.contains(&k) => {
                if is_real {
                    ScalarType::Real(k as u8)
                } else {
                    ScalarType::Integer(k as u8)
                }
            }
            Some(k) => {
                self.error(
                    "E0308",
                    format!("kind {k} is not a valid kind for this type"),
                    where_span,
                )
                .help = Some(format!("valid kinds here are {valid:?}"));
                default
            }
            None => {
                self.error(
                    "E0308",
                    "this kind is not an integer constant adgen can evaluate".to_string(),
                    where_span,
                )
                .help = Some(
                    "use a literal such as 8 or an integer PARAMETER declared before".to_string(),
                );
                default
            }
        }
    }

    /// Value of a constant integer expression, using named constants declared so far.
    fn eval_int(&self, e: &Expr, depth: u32) -> Option<i64> {
        if depth > 64 {
            return None;
        }
        match &e.kind {
            ExprKind::Int(text) => text.split('_').next()?.parse().ok(),
            ExprKind::Var(name) => {
                let info = &self.infos[self.lookup(name)?];
                if info.constant { info.value } else { None }
            }
            ExprKind::Paren(x) => self.eval_int(x, depth + 1),
            ExprKind::Unary(op, x) => {
                let v = self.eval_int(x, depth + 1)?;
                match op {
                    crate::il::UnOp::Neg => v.checked_neg(),
                    crate::il::UnOp::Plus => Some(v),
                    crate::il::UnOp::Not => None,
                }
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.eval_int(a, depth + 1)?;
                let b = self.eval_int(b, depth + 1)?;
                use crate::il::BinOp::*;
                match op {
                    Add => a.checked_add(b),
                    Sub => a.checked_sub(b),
                    Mul => a.checked_mul(b),
                    Div => a.checked_div(b),
                    Pow => u32::try_from(b).ok().and_then(|b| a.checked_pow(b)),
                    _ => None,
                }
            }
            ExprKind::Call(name, args)
            | ExprKind::Intrinsic {
                spelling: Some(name),
                args,
                ..
            } => self.eval_call(name, args, depth),
            _ => None,
        }
    }

    fn eval_call(&self, name: &str, args: &[Arg], depth: u32) -> Option<i64> {
        let arg = |i: usize, kw: &str| -> Option<&Expr> {
            args.iter()
                .find(|a| {
                    a.keyword
                        .as_deref()
                        .is_some_and(|k| k.eq_ignore_ascii_case(kw))
                })
                .or_else(|| args.get(i).filter(|a| a.keyword.is_none()))
                .map(|a| &a.value)
        };
        match name.to_ascii_lowercase().as_str() {
            "kind" => self.kind_of_expr(arg(0, "x")?),
            "selected_real_kind" => {
                let p = match arg(0, "p") {
                    Some(e) => self.eval_int(e, depth + 1)?,
                    None => 0,
                };
                let r = match arg(1, "r") {
                    Some(e) => self.eval_int(e, depth + 1)?,
                    None => 0,
                };
                Some(selected_real_kind(p, r))
            }
            "selected_int_kind" => Some(selected_int_kind(self.eval_int(arg(0, "r")?, depth + 1)?)),
            "max" | "min" | "max0" | "min0" => {
                let values: Option<Vec<i64>> = args
                    .iter()
                    .map(|a| self.eval_int(&a.value, depth + 1))
                    .collect();
                let values = values?;
                if name.to_ascii_lowercase().starts_with("max") {
                    values.into_iter().max()
                } else {
                    values.into_iter().min()
                }
            }
            "abs" | "iabs" => self.eval_int(arg(0, "a")?, depth + 1)?.checked_abs(),
            "mod" => {
                let a = self.eval_int(arg(0, "a")?, depth + 1)?;
                let p = self.eval_int(arg(1, "p")?, depth + 1)?;
                a.checked_rem(p)
            }
            "int" | "nint" => self.eval_int(arg(0, "a")?, depth + 1),
            _ => None,
        }
    }

    /// `kind(x)` for a literal or a variable.
    fn kind_of_expr(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Real(lit) => self.real_kind(lit).map(|k| k as i64),
            ExprKind::Int(text) => match text.split_once('_') {
                Some((_, suffix)) => self.suffix_kind(suffix),
                None => Some(4),
            },
            ExprKind::Logical(_) => Some(4),
            ExprKind::Str(_) => Some(1),
            ExprKind::Var(name) => Some(kind_bytes(self.type_of(self.lookup(name)?)?)),
            ExprKind::Paren(x) | ExprKind::Unary(_, x) => self.kind_of_expr(x),
            ExprKind::Call(name, _) if name.eq_ignore_ascii_case("dble") => Some(8),
            _ => None,
        }
    }

    fn suffix_kind(&self, suffix: &str) -> Option<i64> {
        if let Ok(k) = suffix.parse::<i64>() {
            return Some(k);
        }
        let info = &self.infos[self.lookup(suffix)?];
        if info.constant { info.value } else { None }
    }

    /// Kind of a real literal, its suffix resolved through named constants.
    fn real_kind(&self, lit: &RealLit) -> Option<u8> {
        let spelling = lit.spelling.as_deref()?;
        match spelling.split_once('_') {
            Some((_, suffix)) => u8::try_from(self.suffix_kind(suffix)?).ok(),
            None => Some(lit.kind),
        }
    }

    /// Pass 1: what one declaration says about its names.
    fn declare(&mut self, kind: &DeclKind, span: Span) {
        match kind {
            DeclKind::Var {
                spec,
                attrs,
                entities,
            } => {
                let ty = self.type_of_spec(spec, span);
                let mut attr_dims = None;
                let mut intent = None;
                let mut parameter = false;
                let mut external = false;
                for attr in attrs {
                    match attr {
                        Attr::Dimension(d) => attr_dims = Some(d.clone()),
                        Attr::Intent(i) => intent = Some(*i),
                        Attr::Parameter => parameter = true,
                        Attr::External => external = true,
                        Attr::Intrinsic | Attr::Save => {}
                    }
                }
                for entity in entities {
                    let i = self.get_or_create(&entity.name, entity.span);
                    if self.infos[i].spec.is_some() {
                        self.duplicate(&entity.name, "type", entity.span);
                    } else {
                        self.infos[i].spec = Some(spec.clone());
                        self.infos[i].ty = Some(ty);
                        self.infos[i].span = entity.span;
                    }
                    if let Some(dims) = entity.dims.clone().or_else(|| attr_dims.clone()) {
                        self.set_dims(i, dims, entity.span);
                    }
                    if let Some(intent) = intent {
                        self.set_intent(i, intent, entity.span);
                    }
                    if external {
                        self.infos[i].external = true;
                    }
                    if parameter && let Some(init) = &entity.init {
                        self.set_constant(i, init, entity.span);
                    }
                }
            }
            DeclKind::Parameter(list) => {
                for (name, value) in list {
                    let i = self.get_or_create(name, span);
                    self.set_constant(i, value, span);
                }
            }
            DeclKind::Dimension(entities) => {
                for entity in entities {
                    let i = self.get_or_create(&entity.name, entity.span);
                    if let Some(dims) = entity.dims.clone() {
                        self.set_dims(i, dims, entity.span);
                    }
                }
            }
            DeclKind::Intent(intent, names) => {
                for name in names {
                    let i = self.get_or_create(name, span);
                    self.set_intent(i, *intent, span);
                }
            }
            DeclKind::External(names) => {
                for name in names {
                    let i = self.get_or_create(name, span);
                    if self.infos[i].external {
                        self.duplicate(name, "EXTERNAL", span);
                    }
                    self.infos[i].external = true;
                }
            }
            DeclKind::Intrinsic(names) => {
                for name in names {
                    if intrinsics::lookup(name).is_none() {
                        self.error(
                            "E0407",
                            format!("the intrinsic `{name}` is not supported yet"),
                            span,
                        );
                    }
                }
            }
            DeclKind::Implicit(_) | DeclKind::Comment(_) | DeclKind::Use { .. } => {}
        }
    }

    fn duplicate(&mut self, name: &str, what: &str, span: Span) {
        self.error("E0307", format!("`{name}` is given its {what} twice"), span)
            .help = Some("remove one of the declarations".to_string());
    }

    fn set_dims(&mut self, i: usize, dims: Vec<DimSpec>, span: Span) {
        if self.infos[i].dims.is_some() {
            let name = self.infos[i].name.clone();
            self.duplicate(&name, "array bounds", span);
        } else {
            self.infos[i].dims = Some(dims);
        }
    }

    fn set_intent(&mut self, i: usize, intent: Intent, span: Span) {
        let name = self.infos[i].name.clone();
        if self.infos[i].arg_index.is_none() {
            self.error(
                "E0311",
                format!("INTENT is given for `{name}`, which is not a dummy argument"),
                span,
            );
        } else if self.infos[i].intent.is_some() {
            self.duplicate(&name, "INTENT", span);
        } else {
            self.infos[i].intent = Some(intent);
        }
    }

    fn set_constant(&mut self, i: usize, value: &Expr, span: Span) {
        let name = self.infos[i].name.clone();
        if self.infos[i].constant {
            self.duplicate(&name, "value", span);
            return;
        }
        if self.infos[i].arg_index.is_some() {
            self.error(
                "E0307",
                format!("the dummy argument `{name}` cannot be a named constant"),
                span,
            );
            return;
        }
        let ty = self.type_of(i);
        self.infos[i].constant = true;
        if matches!(ty, Some(ScalarType::Integer(_))) {
            self.infos[i].value = self.eval_int(value, 0);
        }
    }

    /// After the declarations: dummy arguments and the result exist, with their types.
    fn finish_header(&mut self, unit: &Unit) {
        for (index, arg) in unit.args.iter().enumerate() {
            let span = self.arg_span(index, unit.span);
            let i = self.get_or_create(arg, span);
            self.infos[i].arg_index = Some(index);
        }
        if unit.kind == UnitKind::Function {
            let result = unit.result.clone().unwrap_or_else(|| unit.name.clone());
            let i = self.get_or_create(&result, self.header_span);
            self.infos[i].is_result = true;
            if let Some(prefix) = &unit.prefix_type {
                if self.infos[i].spec.is_some() {
                    self.duplicate(
                        &result,
                        "type (in the FUNCTION statement and in a declaration)",
                        self.infos[i].span,
                    );
                } else {
                    let ty = self.type_of_spec(prefix, self.header_span);
                    self.infos[i].spec = Some(prefix.clone());
                    self.infos[i].ty = Some(ty);
                }
            }
        }
        if let Some(i) = unit.result.as_deref().and_then(|r| self.lookup(r))
            && self.infos[i].dims.is_some()
        {
            self.error(
                "E0405",
                "array-valued functions are not supported yet".to_string(),
                self.infos[i].span,
            )
            .help = Some("return the array through an argument of a SUBROUTINE".to_string());
        }
    }

    /// A name both called as a function and used as a variable is one or the other.
    fn check_variable_and_function(&mut self) {
        for i in 0..self.infos.len() {
            let info = &self.infos[i];
            if info.used_proc
                && info.used_var
                && info.dims.is_none()
                && !info.external
                && !info.is_result
                && info.arg_index.is_none()
            {
                let (name, span) = (info.name.clone(), info.span);
                self.error(
                    "E0309",
                    format!("`{name}` is used both as a variable and as a function"),
                    span,
                )
                .help = Some(format!(
                    "declare `{name}` EXTERNAL if it is a function passed as an argument, or rename one of them"
                ));
            }
        }
    }

    /// After the body: every name needs a type (under IMPLICIT NONE, a declaration),
    /// except procedures only ever called.
    fn check_untyped_names(&mut self) {
        for i in 0..self.infos.len() {
            let info = &self.infos[i];
            let only_called = (info.used_proc || info.used_intrinsic) && !info.used_var;
            if self.type_of(i).is_none() && !info.external && !only_called {
                let name = info.name.clone();
                let span = info.span;
                self.undeclared(&name, span);
            }
        }
    }

    fn undeclared(&mut self, name: &str, span: Span) {
        if self.reported.insert(key(name)) {
            self.error(
                "E0301",
                format!("`{name}` is not declared (IMPLICIT NONE is in effect)"),
                span,
            )
            .help = Some(format!("declare it, e.g. `real(8) :: {name}`"));
        }
    }

    /// Pass 2 over one declaration: resolve the names in bounds, kinds and values.
    fn resolve_decl(&mut self, kind: &mut DeclKind) {
        match kind {
            DeclKind::Var {
                spec,
                attrs,
                entities,
            } => {
                self.resolve_spec(spec);
                for attr in attrs {
                    if let Attr::Dimension(dims) = attr {
                        self.resolve_dims(dims);
                    }
                }
                for entity in entities {
                    if let Some(dims) = &mut entity.dims {
                        self.resolve_dims(dims);
                    }
                    if let Some(init) = &mut entity.init {
                        self.resolve_expr(init, false);
                    }
                }
            }
            DeclKind::Parameter(list) => {
                for (_, value) in list {
                    self.resolve_expr(value, false);
                }
            }
            DeclKind::Dimension(entities) => {
                for entity in entities {
                    if let Some(dims) = &mut entity.dims {
                        self.resolve_dims(dims);
                    }
                }
            }
            DeclKind::Implicit(rules) => {
                for rule in rules {
                    self.resolve_spec(&mut rule.spec);
                }
            }
            _ => {}
        }
    }

    fn resolve_spec(&mut self, spec: &mut TypeSpec) {
        // A kind that could not be evaluated was reported (E0308) in the first pass.
        if let Some(kind) = &mut spec.kind
            && self.eval_int(kind, 0).is_some()
        {
            self.resolve_expr(kind, false);
        }
    }

    fn resolve_dims(&mut self, dims: &mut [DimSpec]) {
        for dim in dims {
            if let Some(lower) = &mut dim.lower {
                self.resolve_expr(lower, false);
            }
            if let crate::il::Bound::Expr(upper) = &mut dim.upper {
                self.resolve_expr(upper, false);
            }
        }
    }

    /// A name used as a value. `actual_arg`: it is a whole actual argument of a call,
    /// where arrays and procedures may appear by name.
    fn use_var(&mut self, name: &str, span: Span, actual_arg: bool) {
        if let Some(unit_name) = &self.result_renamed_from
            && key(unit_name) == key(name)
            && self.lookup(name).is_none()
        {
            self.error(
                "E0309",
                format!("`{name}` is the function's name; with RESULT, assign the result variable instead"),
                span,
            );
            return;
        }
        let i = match self.lookup(name) {
            Some(i) => i,
            None => {
                if self.implicit_of(name).is_none() {
                    self.undeclared(name, span);
                    return;
                }
                self.get_or_create(name, span)
            }
        };
        self.infos[i].used_var = true;
        if self.type_of(i).is_none() && !self.infos[i].external {
            self.undeclared(name, span);
        }
        if self.infos[i].dims.is_some() && !actual_arg && !self.quiet_whole_arrays {
            self.error(
                "E0404",
                format!("whole-array expressions are not supported yet: `{name}` is an array"),
                span,
            )
            .help = Some(format!("use a DO loop over the elements of `{name}`"));
        }
    }

    fn resolve_expr(&mut self, e: &mut Expr, actual_arg: bool) {
        let span = e.span;
        match &mut e.kind {
            ExprKind::Var(name) => {
                let name = name.clone();
                self.use_var(&name, span, actual_arg);
            }
            ExprKind::Call(name, args) => {
                let name = name.clone();
                let args = std::mem::take(args);
                e.kind = self.resolve_call(name, args, span);
            }
            ExprKind::Real(lit) => match self.real_kind(lit) {
                Some(k) if [4, 8, 10, 16].contains(&k) => lit.kind = k,
                _ => self.bad_suffix(lit.spelling.clone().unwrap_or_default(), span),
            },
            ExprKind::Int(text) => {
                if let Some((_, suffix)) = text.split_once('_') {
                    let ok = self
                        .suffix_kind(suffix)
                        .is_some_and(|k| [1, 2, 4, 8, 16].contains(&k));
                    if !ok {
                        self.bad_suffix(text.clone(), span);
                    } else if let Some(i) = self.lookup(suffix) {
                        self.infos[i].used_var = true;
                    }
                }
            }
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => self.resolve_expr(x, false),
            ExprKind::Binary(_, a, b) => {
                self.resolve_expr(a, false);
                self.resolve_expr(b, false);
            }
            ExprKind::Index(_, subs) => {
                for s in subs {
                    self.resolve_expr(s, false);
                }
            }
            ExprKind::Intrinsic { args, .. } => {
                for a in args {
                    self.resolve_expr(&mut a.value, false);
                }
            }
            ExprKind::Logical(_) | ExprKind::Str(_) => {}
        }
    }

    fn bad_suffix(&mut self, spelling: String, span: Span) {
        self.error(
            "E0308",
            format!("the kind of `{spelling}` is not a known kind or integer named constant"),
            span,
        )
        .help = Some("declare it, e.g. `integer, parameter :: dp = 8`, before its use".to_string());
    }

    /// `name(args)`: an array element, an intrinsic, or a user function.
    fn resolve_call(&mut self, name: String, mut args: Vec<Arg>, span: Span) -> ExprKind {
        let existing = self.lookup(&name);
        if let Some(i) = existing {
            let info = &self.infos[i];
            if let Some(dims) = &info.dims {
                let rank = dims.len();
                self.infos[i].used_var = true;
                if args.len() != rank {
                    self.error(
                        "E0306",
                        format!(
                            "`{name}` has {rank} dimension{} but {} subscript{} given",
                            if rank == 1 { "" } else { "s" },
                            args.len(),
                            if args.len() == 1 { " is" } else { "s are" }
                        ),
                        span,
                    );
                }
                if let Some(kw) = args.iter().find_map(|a| a.keyword.clone()) {
                    self.error(
                        "E0202",
                        format!(
                            "a subscript of the array `{name}` cannot be given by keyword `{kw}=`"
                        ),
                        span,
                    );
                }
                let mut subs: Vec<Expr> = args.into_iter().map(|a| a.value).collect();
                for s in &mut subs {
                    self.resolve_expr(s, false);
                }
                return ExprKind::Index(name, subs);
            }
            if info.constant || info.is_result {
                let what = if info.constant {
                    "a named constant"
                } else {
                    "the function's result variable"
                };
                self.error(
                    "E0309",
                    format!("`{name}` is {what}; it cannot be called or subscripted"),
                    span,
                );
                return ExprKind::Call(name, args);
            }
        }
        let external = existing.is_some_and(|i| self.infos[i].external);
        let dummy = existing.is_some_and(|i| self.infos[i].arg_index.is_some());
        if !external && !dummy {
            if let Some(intr) = intrinsics::lookup(&name) {
                if let Some(i) = existing {
                    self.infos[i].used_intrinsic = true;
                }
                if args.len() < intr.min_args || args.len() > intr.max_args {
                    self.error(
                        "E0310",
                        format!(
                            "the intrinsic `{name}` does not take {} argument{}",
                            args.len(),
                            if args.len() == 1 { "" } else { "s" }
                        ),
                        span,
                    );
                }
                for a in &mut args {
                    self.resolve_expr(&mut a.value, false);
                }
                return ExprKind::Intrinsic {
                    op: intr.op,
                    args,
                    spelling: Some(name),
                };
            }
            if self.in_decl && intrinsics::is_constant_inquiry(&name) {
                for a in &mut args {
                    self.resolve_expr(&mut a.value, false);
                }
                return ExprKind::Call(name, args);
            }
            if existing.is_none() && intrinsics::is_other_intrinsic(&name) {
                self.error(
                    "E0407",
                    format!("the intrinsic `{name}` is not supported yet"),
                    span,
                )
                .help = Some("rewrite it with DO loops and the supported intrinsics".to_string());
                return ExprKind::Call(name, args);
            }
        }
        // A user function.
        let i = match existing {
            Some(i) => i,
            None => self.get_or_create(&name, span),
        };
        self.infos[i].used_proc = true;
        if self.type_of(i).is_none() && self.reported.insert(key(&name)) {
            self.error(
                "E0302",
                format!("the function `{name}` has no type (IMPLICIT NONE is in effect)"),
                span,
            )
            .help = Some(format!(
                "declare it, e.g. `real(8), external :: {name}`, or make `{name}` an array"
            ));
        }
        for a in &mut args {
            self.resolve_expr(&mut a.value, true);
        }
        ExprKind::Call(name, args)
    }

    /// The variable assigned by `lhs` (a name or an element).
    /// Returns true when `lhs` is a whole array (already reported).
    fn resolve_target(&mut self, lhs: &mut Expr) -> bool {
        let span = lhs.span;
        match &mut lhs.kind {
            ExprKind::Var(name) => {
                let name = name.clone();
                let Some(i) = self.lookup(&name) else {
                    self.use_var(&name, span, false);
                    return false;
                };
                let info = &self.infos[i];
                if info.constant {
                    self.error(
                        "E0304",
                        format!("`{name}` is a named constant and cannot be assigned"),
                        span,
                    );
                } else if info.dims.is_some() {
                    self.error(
                        "E0401",
                        format!(
                            "unsupported statement: array syntax on whole arrays is not supported yet (`{name}` is an array)"
                        ),
                        span,
                    )
                    .help = Some(format!("assign the elements of `{name}` in a DO loop"));
                    return true;
                } else if info.external && !info.is_result {
                    self.error(
                        "E0309",
                        format!("`{name}` is a procedure and cannot be assigned"),
                        span,
                    );
                } else {
                    self.use_var(&name, span, false);
                }
            }
            ExprKind::Call(name, _) => {
                let name = name.clone();
                let info = self.lookup(&name).map(|i| &self.infos[i]);
                let is_array = info.is_some_and(|info| info.dims.is_some());
                let is_declared_scalar = info.is_some_and(|info| {
                    info.dims.is_none()
                        && (info.spec.is_some() || info.arg_index.is_some() || info.constant)
                });
                if is_declared_scalar {
                    self.error(
                        "E0309",
                        format!("`{name}` is not an array; it cannot be subscripted"),
                        span,
                    )
                    .help = Some(format!("declare `{name}` with bounds, e.g. `{name}(n)`"));
                    return false;
                }
                if !is_array {
                    self.error(
                        "E0401",
                        format!(
                            "unsupported statement: `{name}(...) = ...` where `{name}` is not an array (a statement function) is not supported yet"
                        ),
                        span,
                    )
                    .help = Some(format!(
                        "declare `{name}` as an array, or write the formula where it is used"
                    ));
                    return false;
                }
                self.resolve_expr(lhs, false);
            }
            _ => {}
        }
        false
    }

    fn resolve_block(&mut self, block: &mut [Stmt]) {
        for stmt in block {
            self.resolve_stmt(stmt);
        }
    }

    fn resolve_stmt(&mut self, stmt: &mut Stmt) {
        let span = stmt.span;
        match &mut stmt.kind {
            StmtKind::Assign { lhs, rhs } => {
                // `a = b + c` on whole arrays: one report for the statement.
                self.quiet_whole_arrays = self.resolve_target(lhs);
                self.resolve_expr(rhs, false);
                self.quiet_whole_arrays = false;
            }
            StmtKind::If {
                arms, else_body, ..
            } => {
                for (cond, body) in arms {
                    self.resolve_expr(cond, false);
                    self.resolve_block(body);
                }
                if let Some(body) = else_body {
                    self.resolve_block(body);
                }
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let var = var.clone();
                self.check_do_var(&var, span);
                self.resolve_expr(start, false);
                self.resolve_expr(end, false);
                if let Some(step) = step {
                    self.resolve_expr(step, false);
                }
                self.resolve_block(body);
            }
            StmtKind::DoWhile { cond, body, .. } => {
                self.resolve_expr(cond, false);
                self.resolve_block(body);
            }
            StmtKind::Call { name, args } => {
                let name = name.clone();
                if let Some(i) = self.lookup(&name) {
                    let info = &self.infos[i];
                    if info.constant || info.dims.is_some() || info.is_result {
                        self.error(
                            "E0309",
                            format!("`{name}` is a variable, not a subroutine"),
                            span,
                        );
                    } else {
                        self.infos[i].used_proc = true;
                    }
                }
                for a in args {
                    self.resolve_expr(&mut a.value, true);
                }
            }
            StmtKind::Exit { .. }
            | StmtKind::Cycle { .. }
            | StmtKind::Return
            | StmtKind::Continue
            | StmtKind::Comment(_) => {}
        }
    }

    fn check_do_var(&mut self, var: &str, span: Span) {
        let i = match self.lookup(var) {
            Some(i) => i,
            None => {
                if self.implicit_of(var).is_none() {
                    self.undeclared(var, span);
                    return;
                }
                self.get_or_create(var, span)
            }
        };
        self.infos[i].used_var = true;
        let info = &self.infos[i];
        let ok = !info.constant
            && info.dims.is_none()
            && !info.external
            && matches!(self.type_of(i), Some(ScalarType::Integer(_)));
        if !ok {
            self.error(
                "E0303",
                format!("the DO variable `{var}` must be an integer scalar variable"),
                span,
            )
            .help = Some(format!("declare `{var}` as `integer :: {var}`"));
        }
    }

    /// The symbol table, in order of first declaration or use.
    fn symbols(&self) -> SymbolTable {
        let mut table = SymbolTable::default();
        for info in &self.infos {
            let kind = if info.constant {
                SymbolKind::Constant
            } else if info.is_result {
                SymbolKind::Variable
            } else if info.external
                || (info.used_proc && (!info.used_var || info.arg_index.is_some()))
                || (info.used_intrinsic && !info.used_var)
            {
                SymbolKind::Procedure
            } else {
                SymbolKind::Variable
            };
            let implicit_rule = self.implicit_of(&info.name);
            let (type_spec, ty, implicit) = match (&info.spec, info.ty, implicit_rule) {
                (Some(spec), Some(ty), _) => (spec.clone(), ty, false),
                (_, _, Some((spec, ty))) => (spec, ty, true),
                _ => {
                    // An untyped procedure (a subroutine named EXTERNAL): its type is
                    // never used; take Fortran's default rule.
                    let first = info
                        .name
                        .bytes()
                        .next()
                        .unwrap_or(b'a')
                        .to_ascii_lowercase();
                    let ty = if (b'i'..=b'n').contains(&first) {
                        ScalarType::Integer(4)
                    } else {
                        ScalarType::Real(4)
                    };
                    (TypeSpec::of(ty), ty, true)
                }
            };
            table.insert(Symbol {
                name: info.name.clone(),
                kind,
                ty,
                type_spec,
                dims: info.dims.clone().unwrap_or_default(),
                intent: info.intent,
                arg_index: info.arg_index,
                is_result: info.is_result,
                implicit,
                span: info.span,
            });
        }
        table
    }
}
