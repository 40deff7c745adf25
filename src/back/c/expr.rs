//! C expressions: operators with C's precedence levels, array elements flattened to
//! column-major offsets, addresses of by-reference arguments, and the Fortran intrinsics the
//! IL uses as their <math.h> counterparts.

use super::*;

/// C operator precedence, loosest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Level {
    Cond,
    Or,
    And,
    Equality,
    Relational,
    Add,
    Mul,
    Unary,
    Primary,
}

pub(super) fn int_value(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(t) => t.split('_').next()?.parse().ok(),
        ExprKind::Unary(UnOp::Neg, x) => int_value(x).map(|v| -v),
        ExprKind::Paren(x) => int_value(x),
        _ => None,
    }
}

pub(super) fn next_level(l: Level) -> Level {
    match l {
        Level::Cond => Level::Or,
        Level::Or => Level::And,
        Level::And => Level::Equality,
        Level::Equality => Level::Relational,
        Level::Relational => Level::Add,
        Level::Add => Level::Mul,
        Level::Mul => Level::Unary,
        Level::Unary | Level::Primary => Level::Primary,
    }
}

/// A real literal in C: the source spelling when it is C, else the value.
pub(super) fn real_text(lit: &il::RealLit) -> String {
    if let Some(s) = &lit.spelling {
        let body = s.strip_suffix(['f', 'F']).unwrap_or(s);
        let is_c = !body.is_empty()
            && body
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
            && body.contains(['.', 'e', 'E']);
        let has_f = s.ends_with(['f', 'F']);
        if is_c && has_f == (lit.kind == 4) {
            return s.to_string();
        }
    }
    let mut v = lit.value.replace(['d', 'D'], "e");
    if !v.contains(['.', 'e', 'E']) {
        v.push_str(".0");
    }
    if lit.kind == 4 {
        v.push('f');
    }
    v
}

impl Cx<'_> {
    pub(super) fn type_of(&self, e: &Expr) -> ScalarType {
        let variable = |n: &str| self.var(n).map(|v| v.ty).unwrap_or(ScalarType::Real(8));
        let function = |n: &str| {
            self.table
                .get(crate::il::key_ref(n).as_ref())
                .and_then(|u| {
                    let r = u.result.as_ref()?;
                    unit_vars(u)
                        .get(crate::il::key_ref(r).as_ref())
                        .map(|v| v.ty)
                })
                .unwrap_or(ScalarType::Real(8))
        };
        il::types::expr_type(
            e,
            &il::types::TypeRules {
                variable: &variable,
                function: &function,
                default_real: 8,
            },
        )
    }

    /// The number of elements of one dimension.
    pub(super) fn extent(&self, d: &DimSpec) -> String {
        let upper = match &d.upper {
            Bound::Expr(e) => e,
            Bound::Star | Bound::Colon => return String::new(),
        };
        let lower = d.lower.as_ref();
        match (lower.map(int_value).unwrap_or(Some(1)), int_value(upper)) {
            (Some(l), Some(u)) => (u - l + 1).max(0).to_string(),
            (Some(1), None) => self.expr(upper),
            // `n - 1` with lower bound 0 (C's `w[n]`) has `n` elements.
            (Some(l), None) => match &upper.kind {
                ExprKind::Binary(BinOp::Sub, x, k) if int_value(k) == Some(1 - l) => self.expr(x),
                _ if l < 1 => format!("{} + {}", self.expr_at(upper, Level::Add), 1 - l),
                _ => format!("{} - {}", self.expr_at(upper, Level::Add), l - 1),
            },
            _ => format!(
                "{} - {} + 1",
                self.expr_at(upper, Level::Add),
                self.expr_at(
                    lower.expect("a lower bound that is not a literal is present"),
                    Level::Mul
                )
            ),
        }
    }

    /// `s - lower` with constants folded.
    pub(super) fn offset(&self, s: &Expr, d: &DimSpec) -> String {
        let lower = d.lower.as_ref();
        let l = match lower {
            None => Some(1),
            Some(l) => int_value(l),
        };
        match (l, int_value(s)) {
            (Some(l), Some(v)) => (v - l).to_string(),
            (Some(0), None) => self.expr(s),
            (Some(l), None) if l > 0 => format!("{} - {l}", self.expr_at(s, Level::Add)),
            (Some(l), None) => format!("{} + {}", self.expr_at(s, Level::Add), -l),
            (None, _) => format!(
                "{} - {}",
                self.expr_at(s, Level::Add),
                self.expr_at(
                    lower.expect("a lower bound that is not a literal is present"),
                    Level::Mul
                )
            ),
        }
    }

    /// A variable's name in C: a member path `s%x%y` is `s.x.y`, or `s->x.y` when the
    /// struct `s` is passed by reference.
    pub(super) fn c_name(&self, name: &str) -> String {
        if !name.contains('%') {
            return name.to_string();
        }
        let base = name.split('%').next().unwrap_or(name);
        let pointer = self.var(base).is_some_and(|v| v.pass == Some(Pass::Ref));
        scope::c_path(name, pointer)
    }

    /// An array element as a C lvalue.
    pub(super) fn element(&self, name: &str, subs: &[Expr]) -> String {
        if let Some(text) = self.view_element(name, subs) {
            return text;
        }
        let Some(v) = self.var(name) else {
            let s: Vec<String> = subs.iter().map(|s| self.expr(s)).collect();
            return format!("{}[{}]", self.c_name(name), s.join("]["));
        };
        let name = &self.c_name(name);
        if scope::row_pointers(v) {
            // Row pointers: `a[i][j]`, the row index last in the IL.
            let row = subs
                .get(1)
                .map(|s| self.offset(s, &v.dims[1]))
                .unwrap_or_default();
            let col = subs
                .first()
                .map(|s| self.offset(s, &v.dims[0]))
                .unwrap_or_default();
            format!("{name}[{row}][{col}]")
        } else if v.pass.is_some() {
            // A pointer: column-major linearization.
            let mut text = String::new();
            for (i, s) in subs.iter().enumerate().rev() {
                let Some(d) = v.dims.get(i) else { continue };
                let off = self.offset(s, d);
                if text.is_empty() {
                    text = off;
                } else {
                    text = format!("{off} + ({})*({text})", self.extent(d));
                }
            }
            format!("{name}[{text}]")
        } else {
            let mut text = name.to_string();
            for (i, s) in subs.iter().enumerate().rev() {
                let off = match v.dims.get(i) {
                    Some(d) => self.offset(s, d),
                    None => self.expr(s),
                };
                write!(text, "[{off}]").unwrap();
            }
            text
        }
    }

    /// A variable read or written as a value: `(*x)` for a scalar by reference.
    pub(super) fn var_value(&self, name: &str) -> String {
        match self.var(name) {
            // A struct by reference used whole (`tb = (*resultb);`) is dereferenced too;
            // its members print as `p->x` elsewhere.
            Some(v) if v.pass == Some(Pass::Ref) => format!("(*{name})"),
            _ => self.c_name(name),
        }
    }

    /// The address of an lvalue (or of a copy of an rvalue, as a compound literal).
    pub(super) fn address(&self, e: &Expr, ty: ScalarType) -> String {
        match &e.kind {
            ExprKind::Var(n) => match self.var(n) {
                Some(v) if v.pass == Some(Pass::Ref) || v.pass == Some(Pass::Array) => n.clone(),
                Some(v) if !v.dims.is_empty() => {
                    if v.dims.len() == 1 {
                        self.c_name(n)
                    } else {
                        format!("&{}{}", self.c_name(n), "[0]".repeat(v.dims.len()))
                    }
                }
                Some(_) => format!("&{}", self.c_name(n)),
                None => format!("&{}", self.c_name(n)),
            },
            ExprKind::Index(n, subs) => format!("&{}", self.element(n, subs)),
            ExprKind::Paren(x) if x.base_name().is_some() => self.address(x, ty),
            _ => format!("&({}){{{}}}", c_type(ty), self.expr(e)),
        }
    }

    pub(super) fn expr(&self, e: &Expr) -> String {
        self.expr_at(e, Level::Cond)
    }

    /// `e` printed so that it binds at least as tightly as `min`.
    pub(super) fn expr_at(&self, e: &Expr, min: Level) -> String {
        let (text, level) = self.expr_level(e);
        if level < min {
            format!("({text})")
        } else {
            text
        }
    }

    pub(super) fn expr_level(&self, e: &Expr) -> (String, Level) {
        match &e.kind {
            ExprKind::Int(t) => {
                let (digits, kind) = t.split_once('_').unwrap_or((t, ""));
                let text = if kind == "8" {
                    format!("{digits}L")
                } else {
                    digits.to_string()
                };
                let level = if text.starts_with('-') {
                    Level::Unary
                } else {
                    Level::Primary
                };
                (text, level)
            }
            ExprKind::Real(lit) => {
                let text = real_text(lit);
                let level = if text.starts_with('-') {
                    Level::Unary
                } else {
                    Level::Primary
                };
                (text, level)
            }
            ExprKind::Logical(b) => ((if *b { "1" } else { "0" }).to_string(), Level::Primary),
            ExprKind::Str(s) => (format!("{s:?}"), Level::Primary),
            ExprKind::Var(n) => (self.var_value(n), Level::Primary),
            ExprKind::Index(n, subs) => (self.element(n, subs), Level::Primary),
            ExprKind::Paren(x) => (format!("({})", self.expr(x)), Level::Primary),
            // Fortran array syntax and substrings never reach the C back-end (the C
            // front-end makes none).
            ExprKind::Range { .. }
            | ExprKind::ArrayCtor(_)
            | ExprKind::ImpliedDo(_)
            | ExprKind::Substring { .. } => ("0 /* array syntax */".into(), Level::Primary),
            ExprKind::Call(n, args) => (
                format!("{n}({})", self.call_args(n, args).join(", ")),
                Level::Primary,
            ),
            ExprKind::Unary(op, x) => {
                let sym = match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    UnOp::Not => "!",
                };
                let inner = self.expr_at(x, Level::Primary.min(Level::Unary));
                // `- -x` and `-(-1)`: keep the operand's own sign apart.
                let inner = if inner.starts_with(['-', '+']) {
                    format!("({inner})")
                } else {
                    inner
                };
                (format!("{sym}{inner}"), Level::Unary)
            }
            ExprKind::Binary(op, a, b) => {
                if *op == BinOp::Pow {
                    return (
                        format!("pow({}, {})", self.expr(a), self.expr(b)),
                        Level::Primary,
                    );
                }
                let (sym, level) = match op {
                    BinOp::Add => (" + ", Level::Add),
                    BinOp::Sub => (" - ", Level::Add),
                    BinOp::Mul => ("*", Level::Mul),
                    BinOp::Div => ("/", Level::Mul),
                    BinOp::Eq | BinOp::Eqv => (" == ", Level::Equality),
                    BinOp::Ne | BinOp::Neqv => (" != ", Level::Equality),
                    BinOp::Lt => (" < ", Level::Relational),
                    BinOp::Le => (" <= ", Level::Relational),
                    BinOp::Gt => (" > ", Level::Relational),
                    BinOp::Ge => (" >= ", Level::Relational),
                    BinOp::And => (" && ", Level::And),
                    BinOp::Or => (" || ", Level::Or),
                    BinOp::Pow | BinOp::Concat => (" /* concat */ + ", Level::Add),
                };
                // Relational operands of relational operators and `&&` inside `||` get
                // parentheses (gcc's -Wparentheses).
                let left_min = match level {
                    Level::Or => Level::Equality,
                    Level::Equality | Level::Relational => Level::Add,
                    l => l,
                };
                let right_min = match level {
                    Level::Or => Level::Equality,
                    Level::Equality | Level::Relational => Level::Add,
                    Level::And => Level::Equality,
                    l => next_level(l),
                };
                let mut lhs = self.expr_at(a, left_min);
                let mut rhs = self.expr_at(b, right_min);
                if level == Level::And {
                    lhs = self.expr_at(a, Level::Equality);
                }
                // A signed right operand: `a - (-b)`, `a*(-b)`.
                if rhs.starts_with(['-', '+']) {
                    rhs = format!("({rhs})");
                }
                if level >= Level::Mul
                    && lhs.starts_with(['-', '+'])
                    && !matches!(a.kind, ExprKind::Unary(..))
                {
                    lhs = format!("({lhs})");
                }
                (format!("{lhs}{sym}{rhs}"), level)
            }
            // Integer shifts and bitwise operations, which the front-end names by their
            // Fortran intrinsics: the operator again, parenthesized whole.
            ExprKind::Intrinsic {
                op: Intrinsic::Passive(_),
                args,
                spelling: Some(name),
            } if bit_operator(name).is_some() => {
                let operand = |e: &Expr| match self.expr_level(e) {
                    (t, Level::Primary) => t,
                    (t, _) => format!("({t})"),
                };
                let op = bit_operator(name).unwrap_or_default();
                let text = match args.as_slice() {
                    [a] => format!("({op}{})", operand(&a.value)),
                    [a, b] => format!("({} {op} {})", operand(&a.value), operand(&b.value)),
                    _ => format!("{name}()"),
                };
                (text, Level::Primary)
            }
            // Kept as written: piecewise constant functions (`ceil(x)`), and math.h's
            // float variants (`sinf(x)`: the front-end keeps the name only for them).
            ExprKind::Intrinsic {
                op,
                args,
                spelling: Some(name),
            } if matches!(op, Intrinsic::Passive(_)) || is_float_variant(name) => {
                // Fortran's whole-number truncation and rounding (from Fortran IL) are
                // math.h's, without the KIND argument.
                let (name, args) = match name.to_ascii_lowercase().as_str() {
                    "aint" | "dint" => ("trunc", &args[..args.len().min(1)]),
                    "anint" | "dnint" => ("round", &args[..args.len().min(1)]),
                    _ => (&**name, &args[..]),
                };
                let list: Vec<String> = args.iter().map(|a| self.expr(&a.value)).collect();
                (format!("{name}({})", list.join(", ")), Level::Primary)
            }
            ExprKind::Intrinsic { op, args, .. } => self.intrinsic(*op, args),
        }
    }

    pub(super) fn intrinsic(&self, op: Intrinsic, args: &[Arg]) -> (String, Level) {
        let a: Vec<&Expr> = args.iter().map(|a| &a.value).collect();
        let arg = |i: usize| a.get(i).map(|e| self.expr(e)).unwrap_or_default();
        let is_real = |i: usize| {
            a.get(i)
                .is_some_and(|e| matches!(self.type_of(e), ScalarType::Real(_)))
        };
        let any_real = (0..a.len()).any(is_real);
        let f = |name: &str| {
            let list: Vec<String> = (0..a.len()).map(arg).collect();
            (format!("{name}({})", list.join(", ")), Level::Primary)
        };
        match op {
            Intrinsic::Sin => f("sin"),
            Intrinsic::Cos => f("cos"),
            Intrinsic::Tan => f("tan"),
            Intrinsic::Asin => f("asin"),
            Intrinsic::Acos => f("acos"),
            Intrinsic::Atan if a.len() == 2 => f("atan2"),
            Intrinsic::Atan => f("atan"),
            Intrinsic::Atan2 => f("atan2"),
            Intrinsic::Sinh => f("sinh"),
            Intrinsic::Cosh => f("cosh"),
            Intrinsic::Tanh => f("tanh"),
            Intrinsic::Exp => f("exp"),
            Intrinsic::Log => f("log"),
            Intrinsic::Log10 => f("log10"),
            Intrinsic::Asinh => f("asinh"),
            Intrinsic::Acosh => f("acosh"),
            Intrinsic::Atanh => f("atanh"),
            Intrinsic::Exp2 => f("exp2"),
            Intrinsic::Log2 => f("log2"),
            Intrinsic::Cbrt => f("cbrt"),
            Intrinsic::Expm1 => f("expm1"),
            Intrinsic::Log1p => f("log1p"),
            Intrinsic::Hypot => f("hypot"),
            Intrinsic::Erf => f("erf"),
            Intrinsic::Erfc => f("erfc"),
            Intrinsic::Gamma => f("tgamma"),
            Intrinsic::LogGamma => f("lgamma"),
            Intrinsic::Digamma => f("adgen_digamma"),
            Intrinsic::Sqrt => f("sqrt"),
            Intrinsic::Abs if any_real => f("fabs"),
            Intrinsic::Abs => {
                let x = self.expr_at(a[0], Level::Unary);
                (format!("{x} < 0 ? -{x} : {x}"), Level::Cond)
            }
            Intrinsic::Max | Intrinsic::Min => {
                if a.is_empty() {
                    return ("0".into(), Level::Primary);
                }
                let name = if op == Intrinsic::Max { "fmax" } else { "fmin" };
                let cmp = if op == Intrinsic::Max { ">" } else { "<" };
                let mut text = arg(0);
                for i in 1..a.len() {
                    text = if any_real {
                        format!("{name}({text}, {})", arg(i))
                    } else {
                        let (x, y) = (format!("({text})"), format!("({})", arg(i)));
                        format!("({x} {cmp} {y} ? {x} : {y})")
                    };
                }
                (text, Level::Primary)
            }
            Intrinsic::Sign if any_real => (
                format!("copysign(fabs({}), {})", arg(0), arg(1)),
                Level::Primary,
            ),
            Intrinsic::Sign => {
                let x = self.expr_at(a[0], Level::Unary);
                let y = self.expr_at(a[1], Level::Relational);
                (
                    format!("({y} >= 0 ? ({x} < 0 ? -{x} : {x}) : ({x} < 0 ? {x} : -{x}))"),
                    Level::Primary,
                )
            }
            Intrinsic::Mod if any_real => f("fmod"),
            Intrinsic::Mod => (
                format!(
                    "{} % {}",
                    self.expr_at(a[0], Level::Mul),
                    self.expr_at(a[1], Level::Unary)
                ),
                Level::Mul,
            ),
            Intrinsic::Dble => (
                format!("(double){}", self.expr_at(a[0], Level::Unary)),
                Level::Unary,
            ),
            Intrinsic::Real => {
                let kind = a.get(1).and_then(|k| int_value(k)).unwrap_or(4);
                let t = if kind == 8 { "double" } else { "float" };
                (
                    format!("({t}){}", self.expr_at(a[0], Level::Unary)),
                    Level::Unary,
                )
            }
            Intrinsic::Int => (
                format!("(int){}", self.expr_at(a[0], Level::Unary)),
                Level::Unary,
            ),
            Intrinsic::Nint => (format!("(int)lround({})", arg(0)), Level::Unary),
            Intrinsic::Floor => (format!("(int)floor({})", arg(0)), Level::Unary),
            Intrinsic::Modulo if any_real => (
                format!("({0} - floor({0}/{1})*{1})", arg(0), arg(1)),
                Level::Primary,
            ),
            // Fortran's array intrinsics: the C front-end makes none.
            Intrinsic::Sum
            | Intrinsic::Product
            | Intrinsic::Maxval
            | Intrinsic::Minval
            | Intrinsic::Maxloc
            | Intrinsic::Minloc
            | Intrinsic::DotProduct
            | Intrinsic::Matmul
            | Intrinsic::Transpose
            | Intrinsic::Spread
            | Intrinsic::Reshape
            | Intrinsic::Cshift
            | Intrinsic::Eoshift
            | Intrinsic::Pack
            | Intrinsic::Lbound
            | Intrinsic::Ubound
            | Intrinsic::Shape
            | Intrinsic::Passive(_)
            | Intrinsic::Modulo => (format!("0 /* {op:?} */"), Level::Primary),
            // An optional dummy is a pointer that may be NULL.
            Intrinsic::Present => (
                format!(
                    "{} != NULL",
                    a.first()
                        .and_then(|e| e.base_name())
                        .map(|n| self.c_name(n))
                        .unwrap_or_default()
                ),
                Level::Equality,
            ),
            Intrinsic::Size => (
                a.first()
                    .map(|e| scope::size_text(self, e))
                    .unwrap_or_default(),
                Level::Unary,
            ),
            // COMPLEX reaches the C back-end only from Fortran, which it refuses.
            Intrinsic::Cmplx | Intrinsic::ComplexPair => f("CMPLX"),
            Intrinsic::Aimag => f("cimag"),
            Intrinsic::Conjg => f("conj"),
            Intrinsic::Merge => (
                format!(
                    "{} ? {} : {}",
                    self.expr_at(a[2], Level::Or),
                    self.expr_at(a[0], Level::Or),
                    self.expr_at(a[1], Level::Cond)
                ),
                Level::Cond,
            ),
        }
    }

    /// Actual arguments of a call of `name`, by the callee's parameter kinds. Arguments
    /// given by keyword go to their parameter's position; an absent one (an OPTIONAL
    /// dummy) is `NULL`.
    pub(super) fn call_args(&self, name: &str, args: &[Arg]) -> Vec<String> {
        let callee = self.table.get(crate::il::key_ref(name).as_ref());
        let absent =
            |u: &&&Unit| args.len() < u.args.len() || args.iter().any(|a| a.keyword.is_some());
        if let Some(u) = callee.filter(absent) {
            let bound = crate::il::bind_actuals(u, args);
            let positional: Vec<Arg> = bound
                .iter()
                .map(|a| match a {
                    Some(e) => Arg::positional((*e).clone()),
                    None => Arg::positional(Expr::var("")),
                })
                .collect();
            return self
                .call_args(name, &positional)
                .into_iter()
                .zip(&bound)
                .map(|(text, a)| if a.is_some() { text } else { "NULL".into() })
                .collect();
        }
        let kinds = callee.map(|u| param_kinds(u)).unwrap_or_default();
        let ctypes: Vec<ScalarType> = callee
            .map(|u| {
                let vars = unit_vars(u);
                u.args
                    .iter()
                    .map(|a| {
                        vars.get(crate::il::key_ref(a).as_ref())
                            .map(|v| v.ty)
                            .unwrap_or(ScalarType::Real(8))
                    })
                    .collect()
            })
            .unwrap_or_default();
        args.iter()
            .enumerate()
            .map(|(i, a)| {
                let ty = ctypes
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| self.type_of(&a.value));
                // The bundled runtime's functions (`adgen_binomial_start`) take values;
                // a procedure adgen has no source for, Fortran-style references.
                let default = if callee.is_none() && name.starts_with("adgen_") {
                    Pass::Value
                } else {
                    Pass::Ref
                };
                match kinds.get(i).copied().unwrap_or(default) {
                    // A struct passed by reference and passed on by value prints `(*p)`.
                    Pass::Value => self.expr(&a.value),
                    Pass::Ref | Pass::Array => self.address(&a.value, ty),
                }
            })
            .collect()
    }
}

/// math.h's `float` variant of a function (`sinf`, `lgammaf`).
fn is_float_variant(name: &str) -> bool {
    const MATH: &[&str] = &[
        "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
        "acosh", "atanh", "exp", "exp2", "expm1", "log", "log10", "log2", "log1p", "sqrt", "cbrt",
        "hypot", "erf", "erfc", "tgamma", "lgamma", "fabs", "fmax", "fmin", "copysign", "floor",
        "fmod",
    ];
    name.strip_suffix('f')
        .is_some_and(|base| MATH.contains(&base))
}

/// The C operator of an integer shift or bitwise intrinsic (see the C front-end).
fn bit_operator(name: &str) -> Option<&'static str> {
    Some(match name {
        "shiftl" => "<<",
        "shiftr" => ">>",
        "iand" => "&",
        "ior" => "|",
        "ieor" => "^",
        "not" => "~",
        _ => return None,
    })
}
