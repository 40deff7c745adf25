//! Kinds and constant integer expressions: `real(dp)`, `kind(1.0d0)`,
//! `selected_real_kind(15)`, literal suffixes such as `2.0_dp`.

use super::Sema;
use crate::diag::Span;
use crate::il::{Arg, BaseType, Expr, ExprKind, RealLit, ScalarType, TypeSpec};

fn kind_bytes(ty: ScalarType) -> i64 {
    match ty {
        ScalarType::Integer(k) | ScalarType::Real(k) | ScalarType::Complex(k) => k as i64,
        ScalarType::Logical => 4,
        ScalarType::Character => 1,
        ScalarType::Derived => 0,
    }
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

impl Sema<'_> {
    /// The meaning of a type spec; kinds must be integer constants known so far.
    pub(super) fn type_of_spec(&mut self, spec: &TypeSpec, span: Span) -> ScalarType {
        let complex = spec.base == BaseType::Complex;
        let (is_real, default) = match spec.base {
            BaseType::Integer => (false, ScalarType::Integer(4)),
            BaseType::Real => (true, ScalarType::Real(4)),
            BaseType::Complex => (true, ScalarType::Complex(4)),
            BaseType::DoubleComplex => return ScalarType::Complex(8),
            BaseType::DoublePrecision => return ScalarType::Real(8),
            BaseType::Logical => return ScalarType::Logical,
            BaseType::Character => return ScalarType::Character,
            BaseType::Derived => return ScalarType::Derived,
        };
        let (kind, where_span) = match (&spec.kind, spec.star) {
            (Some(e), _) => (self.eval_int(e, 0), e.span),
            // `complex*16`: the star counts both parts.
            (None, Some(star)) if complex => (Some(star as i64 / 2), span),
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
                if complex {
                    ScalarType::Complex(k as u8)
                } else if is_real {
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
    pub(super) fn eval_int(&self, e: &Expr, depth: u32) -> Option<i64> {
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
            ExprKind::Call(name, args) => self.eval_call(name, args, depth),
            ExprKind::Intrinsic {
                spelling: Some(name),
                args,
                ..
            } => self.eval_call(name, args, depth),
            _ => None,
        }
    }

    pub(super) fn eval_call(&self, name: &str, args: &[Arg], depth: u32) -> Option<i64> {
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
    pub(super) fn kind_of_expr(&self, e: &Expr) -> Option<i64> {
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

    pub(super) fn suffix_kind(&self, suffix: &str) -> Option<i64> {
        if let Ok(k) = suffix.parse::<i64>() {
            return Some(k);
        }
        let info = &self.infos[self.lookup(suffix)?];
        if info.constant { info.value } else { None }
    }

    /// Kind of a real literal, its suffix resolved through named constants.
    pub(super) fn real_kind(&self, lit: &RealLit) -> Option<u8> {
        let spelling = lit.spelling.as_deref()?;
        match spelling.split_once('_') {
            Some((_, suffix)) => u8::try_from(self.suffix_kind(suffix)?).ok(),
            None => Some(lit.kind),
        }
    }
}
