//! Expressions: operators with the fewest parentheses that keep the IL tree's meaning,
//! literals in Fortran syntax, intrinsic names.
//!
//! Each printed expression has a precedence level ([`Level`]); an operand whose level is
//! too low for its position is wrapped in parentheses. Two further rules keep the text
//! both standard and readable: an operand that would begin with a sign (`-b`, `-2.0`) is
//! parenthesized unless it is the leftmost operand (`a*(-b)`, `a - (-b)`, `2**(-1)`), and
//! explicit [`ExprKind::Paren`] nodes are always kept.

use crate::il::{Arg, BinOp, Expr, ExprKind, Intrinsic, RealLit, UnOp};

/// Fortran operator precedence, loosest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Equiv,
    Or,
    And,
    Not,
    Relational,
    Concat,
    /// Binary `+ -` and, as the leftmost term of a sum, unary `+ -`.
    Add,
    /// Unary `+ -` (and negative literals): a signed term.
    Sign,
    Mul,
    Pow,
    Primary,
}

fn binary_level(op: BinOp) -> Level {
    match op {
        BinOp::Eqv | BinOp::Neqv => Level::Equiv,
        BinOp::Or => Level::Or,
        BinOp::And => Level::And,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Level::Relational,
        BinOp::Concat => Level::Concat,
        BinOp::Add | BinOp::Sub => Level::Add,
        BinOp::Mul | BinOp::Div => Level::Mul,
        BinOp::Pow => Level::Pow,
    }
}

/// The operator as printed, with its surrounding spaces.
fn binary_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => " + ",
        BinOp::Sub => " - ",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Pow => "**",
        BinOp::Eq => " == ",
        BinOp::Ne => " /= ",
        BinOp::Lt => " < ",
        BinOp::Le => " <= ",
        BinOp::Gt => " > ",
        BinOp::Ge => " >= ",
        BinOp::And => " .and. ",
        BinOp::Or => " .or. ",
        BinOp::Eqv => " .eqv. ",
        BinOp::Neqv => " .neqv. ",
        BinOp::Concat => " // ",
    }
}

/// The level of `expr` as printed (without added parentheses).
fn level(expr: &Expr) -> Level {
    match &expr.kind {
        ExprKind::Binary(op, _, _) => binary_level(*op),
        ExprKind::Unary(UnOp::Not, _) => Level::Not,
        ExprKind::Unary(_, _) => Level::Sign,
        ExprKind::Int(text) if text.starts_with(['-', '+']) => Level::Sign,
        ExprKind::Real(lit) if real_text(lit).starts_with(['-', '+']) => Level::Sign,
        _ => Level::Primary,
    }
}

/// Does the printed `expr` begin with a sign (so that it cannot follow an operator)?
fn starts_with_sign(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Binary(op, lhs, _) => {
            // The left operand is printed bare only when its level allows it.
            !needs_parens_left(*op, lhs) && starts_with_sign(lhs)
        }
        _ => level(expr) == Level::Sign,
    }
}

fn needs_parens_left(op: BinOp, lhs: &Expr) -> bool {
    let own = binary_level(op);
    let operand = level(lhs);
    match own {
        // Right-associative: `(a**b)**c`.
        Level::Pow => operand <= Level::Pow,
        // Non-associative: `(a < b) .eqv. c` is fine but `(a < b) < c` keeps parentheses.
        Level::Relational => operand <= Level::Relational,
        // A signed term may start a sum: `-a + b`.
        Level::Add => operand < Level::Add,
        _ => operand < own,
    }
}

fn needs_parens_right(op: BinOp, rhs: &Expr) -> bool {
    let own = binary_level(op);
    if starts_with_sign(rhs) {
        return true;
    }
    let operand = level(rhs);
    match own {
        // Right-associative: `a**b**c` is `a**(b**c)`.
        Level::Pow => operand < Level::Pow,
        // Same level on the right changes the grouping: `a - (b - c)`, `a/(b*c)`.
        _ => operand <= own,
    }
}

/// Prints `expr` in Fortran syntax.
pub(crate) fn write_expr(expr: &Expr) -> String {
    let mut out = String::new();
    push_expr(&mut out, expr);
    out
}

fn push_expr(out: &mut String, expr: &Expr) {
    match &expr.kind {
        ExprKind::Int(text) => out.push_str(text),
        ExprKind::Real(lit) => out.push_str(&real_text(lit)),
        ExprKind::Logical(true) => out.push_str(".true."),
        ExprKind::Logical(false) => out.push_str(".false."),
        ExprKind::Str(text) => push_string_literal(out, text),
        ExprKind::Var(name) => out.push_str(name),
        ExprKind::Index(name, subscripts)
            if super::ranks::base_rank(name).is_some_and(|r| r <= subscripts.len()) =>
        {
            // `p(i)%x(j)`: the subscripts of the array of derived type `p` first.
            let r = super::ranks::base_rank(name).expect("checked");
            let (base, rest) = name.split_once('%').expect("a component path");
            let parts: [(&str, &[Expr]); 2] = [(base, &subscripts[..r]), (rest, &subscripts[r..])];
            for (k, (text, subs)) in parts.into_iter().enumerate() {
                if k > 0 {
                    out.push('%');
                }
                out.push_str(text);
                if !subs.is_empty() {
                    out.push('(');
                    for (i, sub) in subs.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        push_expr(out, sub);
                    }
                    out.push(')');
                }
            }
        }
        ExprKind::Index(name, subscripts) => {
            out.push_str(name);
            out.push('(');
            for (i, sub) in subscripts.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_expr(out, sub);
            }
            out.push(')');
        }
        // A defined operator, named by its generic (`operator(.cross.)`, the primal's
        // spelling of a call of a specific): written as the operator, parenthesized.
        ExprKind::Call(name, args)
            if name.starts_with("operator(") && (1..=2).contains(&args.len()) =>
        {
            let op = &name["operator(".len()..name.len() - 1];
            out.push('(');
            if let [a, b] = args.as_slice() {
                push_expr(out, &a.value);
                out.push(' ');
                out.push_str(op);
                out.push(' ');
                push_expr(out, &b.value);
            } else {
                out.push_str(op);
                out.push(' ');
                push_expr(out, &args[0].value);
            }
            out.push(')');
        }
        ExprKind::Call(name, args) => {
            out.push_str(name);
            push_args(out, args);
        }
        ExprKind::Intrinsic {
            op: Intrinsic::ComplexPair,
            args,
            ..
        } if args.len() == 2 => {
            out.push('(');
            push_expr(out, &args[0].value);
            out.push_str(", ");
            push_expr(out, &args[1].value);
            out.push(')');
        }
        ExprKind::Intrinsic { op, args, spelling } => {
            out.push_str(spelling.as_deref().unwrap_or(intrinsic_name(*op)));
            push_args(out, args);
        }
        ExprKind::Paren(inner) => {
            out.push('(');
            push_expr(out, inner);
            out.push(')');
        }
        ExprKind::Unary(op, operand) => {
            let (text, min) = match op {
                UnOp::Neg => ("-", Level::Mul),
                UnOp::Plus => ("+", Level::Mul),
                UnOp::Not => (".not. ", Level::Relational),
            };
            out.push_str(text);
            let wrap = level(operand) < min || starts_with_sign(operand);
            push_operand(out, operand, wrap);
        }
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => {
            if let Some(lower) = lower {
                push_expr(out, lower);
            }
            out.push(':');
            if let Some(upper) = upper {
                push_expr(out, upper);
            }
            if let Some(stride) = stride {
                out.push(':');
                push_expr(out, stride);
            }
        }
        ExprKind::Substring { base, lower, upper } => {
            push_expr(out, base);
            out.push('(');
            if let Some(lower) = lower {
                push_expr(out, lower);
            }
            out.push(':');
            if let Some(upper) = upper {
                push_expr(out, upper);
            }
            out.push(')');
        }
        ExprKind::ArrayCtor(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_expr(out, item);
            }
            out.push(']');
        }
        ExprKind::ImpliedDo(d) => {
            out.push('(');
            for item in &d.items {
                push_expr(out, item);
                out.push_str(", ");
            }
            out.push_str(&d.var);
            out.push_str(" = ");
            push_expr(out, &d.lower);
            out.push_str(", ");
            push_expr(out, &d.upper);
            if let Some(stride) = &d.stride {
                out.push_str(", ");
                push_expr(out, stride);
            }
            out.push(')');
        }
        ExprKind::Binary(op, lhs, rhs) => {
            push_operand(out, lhs, needs_parens_left(*op, lhs));
            out.push_str(binary_text(*op));
            push_operand(out, rhs, needs_parens_right(*op, rhs));
        }
    }
}

fn push_operand(out: &mut String, expr: &Expr, wrap: bool) {
    if wrap {
        out.push('(');
        push_expr(out, expr);
        out.push(')');
    } else {
        push_expr(out, expr);
    }
}

/// `(a, k=b)`; an empty list prints `()`.
pub(crate) fn push_args(out: &mut String, args: &[Arg]) {
    out.push('(');
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if let Some(keyword) = &arg.keyword {
            out.push_str(keyword);
            out.push('=');
        }
        push_expr(out, &arg.value);
    }
    out.push(')');
}

/// A character literal in single quotes, internal quotes doubled.
fn push_string_literal(out: &mut String, text: &str) {
    out.push('\'');
    out.push_str(&text.replace('\'', "''"));
    out.push('\'');
}

/// The generic Fortran name of an intrinsic.
pub(crate) fn intrinsic_name(op: Intrinsic) -> &'static str {
    match op {
        Intrinsic::Sin => "sin",
        Intrinsic::Cos => "cos",
        Intrinsic::Tan => "tan",
        Intrinsic::Asin => "asin",
        Intrinsic::Acos => "acos",
        Intrinsic::Atan => "atan",
        Intrinsic::Atan2 => "atan2",
        Intrinsic::Sinh => "sinh",
        Intrinsic::Cosh => "cosh",
        Intrinsic::Tanh => "tanh",
        Intrinsic::Exp => "exp",
        Intrinsic::Log => "log",
        Intrinsic::Log10 => "log10",
        Intrinsic::Asinh => "asinh",
        Intrinsic::Acosh => "acosh",
        Intrinsic::Atanh => "atanh",
        Intrinsic::Hypot => "hypot",
        Intrinsic::Erf => "erf",
        Intrinsic::Erfc => "erfc",
        Intrinsic::Gamma => "gamma",
        Intrinsic::LogGamma => "log_gamma",
        Intrinsic::Digamma => "adgen_digamma",
        // C's: the Fortran front-end never makes them.
        Intrinsic::Exp2 => "exp2",
        Intrinsic::Log2 => "log2",
        Intrinsic::Cbrt => "cbrt",
        Intrinsic::Expm1 => "expm1",
        Intrinsic::Log1p => "log1p",
        Intrinsic::Sqrt => "sqrt",
        Intrinsic::Abs => "abs",
        Intrinsic::Max => "max",
        Intrinsic::Min => "min",
        Intrinsic::Sign => "sign",
        Intrinsic::Mod => "mod",
        Intrinsic::Dble => "dble",
        Intrinsic::Real => "real",
        Intrinsic::Int => "int",
        Intrinsic::Nint => "nint",
        Intrinsic::Floor => "floor",
        Intrinsic::Merge => "merge",
        Intrinsic::Cmplx => "cmplx",
        Intrinsic::Aimag => "aimag",
        Intrinsic::Conjg => "conjg",
        Intrinsic::ComplexPair => "",
        Intrinsic::Sum => "sum",
        Intrinsic::Product => "product",
        Intrinsic::Maxval => "maxval",
        Intrinsic::Minval => "minval",
        Intrinsic::Maxloc => "maxloc",
        Intrinsic::Minloc => "minloc",
        Intrinsic::DotProduct => "dot_product",
        Intrinsic::Matmul => "matmul",
        Intrinsic::Transpose => "transpose",
        Intrinsic::Spread => "spread",
        Intrinsic::Reshape => "reshape",
        Intrinsic::Cshift => "cshift",
        Intrinsic::Pack => "pack",
        Intrinsic::Eoshift => "eoshift",
        Intrinsic::Size => "size",
        Intrinsic::Lbound => "lbound",
        Intrinsic::Ubound => "ubound",
        Intrinsic::Shape => "shape",
        Intrinsic::Modulo => "modulo",
        Intrinsic::Present => "present",
        // Always printed by its spelling.
        Intrinsic::Passive(_) => "?",
    }
}

/// A real literal: its source spelling when known, else `value` in the syntax of `kind`
/// (`2.0d0` for kind 8, `2.0` for kind 4, `2.0_16` for other kinds).
pub(crate) fn real_text(lit: &RealLit) -> String {
    if let Some(spelling) = &lit.spelling {
        return spelling.to_string();
    }
    let value = lit.value.trim();
    let (mantissa, exponent) = match value.find(['e', 'E', 'd', 'D']) {
        Some(i) => (&value[..i], Some(&value[i + 1..])),
        None => (value, None),
    };
    let mut mantissa = mantissa.to_string();
    if !mantissa.contains('.') {
        mantissa.push_str(".0");
    } else if mantissa.ends_with('.') {
        mantissa.push('0');
    }
    let exponent = exponent.map(|e| e.strip_prefix('+').unwrap_or(e));
    match lit.kind {
        8 => format!("{mantissa}d{}", exponent.unwrap_or("0")),
        4 => match exponent {
            Some(e) => format!("{mantissa}e{e}"),
            None => mantissa,
        },
        kind => match exponent {
            Some(e) => format!("{mantissa}e{e}_{kind}"),
            None => format!("{mantissa}_{kind}"),
        },
    }
}
