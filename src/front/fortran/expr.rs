//! Expressions with Fortran's precedence, lowest first:
//! `.eqv. .neqv.` < `.or.` < `.and.` < `.not.` < relational < `//` < binary `+ -`
//! (with a leading unary sign) < `* /` < `**` (right-associative).
//! So `-a**2` is `-(a**2)` and `a**b**c` is `a**(b**c)`.
//!
//! `name(args)` is produced as [`ExprKind::Call`]; name resolution later turns it into an
//! array element, an intrinsic or a user function call. The depth of the tree is bounded
//! ([`crate::MAX_EXPRESSION_DEPTH`]: a flat sum of that many terms) so that no later
//! recursive walk can overflow adgen's stack, and the nesting of parentheses and calls,
//! which the parser itself recurses on, by [`MAX_NESTING`].

use super::cursor::{Cursor, PResult};
use super::lexer::TokKind;
use crate::diag::{Diagnostic, Span};
use crate::il::types::{BaseType, TypeSpec};
use crate::il::{Arg, BinOp, Expr, ExprKind, Intrinsic, RealLit, UnOp};

/// Deepest expression tree accepted.
pub const MAX_DEPTH: u32 = crate::MAX_EXPRESSION_DEPTH;

/// Deepest nesting of parentheses, calls and constructors accepted.
pub const MAX_NESTING: u32 = 10_000;

type Parsed = (Expr, u32);

fn too_deep(c: &Cursor) -> Diagnostic {
    Diagnostic::error(
        "E0203",
        format!("this expression is more than {MAX_DEPTH} operations deep"),
    )
    .at(c.here())
    .with_help("split it into several assignments")
}

fn too_nested(c: &Cursor) -> Diagnostic {
    Diagnostic::error(
        "E0203",
        format!("this expression nests parentheses or calls more than {MAX_NESTING} levels deep"),
    )
    .at(c.here())
    .with_help("split it into several assignments")
}

fn unsupported(c: &Cursor, what: &str) -> Diagnostic {
    Diagnostic::error("E0404", format!("{what} are not supported yet"))
        .at(c.here())
        .with_help("rewrite the expression with scalars and array elements")
}

fn node(kind: ExprKind, span: crate::diag::Span) -> Expr {
    Expr { kind, span }
}

fn binary(op: BinOp, (l, dl): Parsed, (r, dr): Parsed, c: &Cursor) -> PResult<Parsed> {
    let depth = dl.max(dr) + 1;
    if depth > MAX_DEPTH {
        return Err(too_deep(c));
    }
    let span = l.span.to(r.span);
    Ok((
        node(ExprKind::Binary(op, Box::new(l), Box::new(r)), span),
        depth,
    ))
}

fn unary(op: UnOp, (e, d): Parsed, lo: u32, c: &Cursor) -> PResult<Parsed> {
    if d + 1 > MAX_DEPTH {
        return Err(too_deep(c));
    }
    let span = c.span_from(lo).to(e.span);
    Ok((node(ExprKind::Unary(op, Box::new(e)), span), d + 1))
}

/// Parses one expression.
pub fn parse_expr(c: &mut Cursor) -> PResult<Expr> {
    parse_level(c).map(|(e, _)| e)
}

fn enter(c: &mut Cursor) -> PResult<()> {
    c.nesting += 1;
    if c.nesting > MAX_NESTING {
        Err(too_nested(c))
    } else {
        Ok(())
    }
}

fn parse_level(c: &mut Cursor) -> PResult<Parsed> {
    enter(c)?;
    let result = parse_defined_binary(c);
    c.nesting -= 1;
    result
}

/// `a .cross. b`: a defined binary operator, of the lowest precedence; a call of the
/// generic `operator(.cross.)`, which generic resolution turns into its specific.
fn parse_defined_binary(c: &mut Cursor) -> PResult<Parsed> {
    let mut lhs = parse_equiv(c)?;
    while let Some(name) = dot_op(c).filter(|n| !is_intrinsic_dot_operator(n)) {
        let name = format!("operator(.{}.)", name.to_ascii_lowercase());
        c.bump();
        let (rhs, dr) = parse_equiv(c)?;
        let (l, dl) = lhs;
        let depth = dl.max(dr) + 1;
        if depth > MAX_DEPTH {
            return Err(too_deep(c));
        }
        let span = l.span.to(rhs.span);
        let args = vec![Arg::positional(l), Arg::positional(rhs)];
        lhs = (node(ExprKind::Call(name, args), span), depth);
    }
    Ok(lhs)
}

/// The spelling of an operator a generic interface may define.
pub(crate) fn operator_spelling(op: &TokKind) -> Option<String> {
    Some(match op {
        TokKind::Plus => "+".to_string(),
        TokKind::Minus => "-".to_string(),
        TokKind::Star => "*".to_string(),
        TokKind::Slash => "/".to_string(),
        TokKind::Pow => "**".to_string(),
        // Relational operators: `.eq.` and `==` name the same generic.
        TokKind::Eq => "==".to_string(),
        TokKind::Ne => "/=".to_string(),
        TokKind::Lt => "<".to_string(),
        TokKind::Le => "<=".to_string(),
        TokKind::Gt => ">".to_string(),
        TokKind::Ge => ">=".to_string(),
        TokKind::DotOp(name) => match name.to_ascii_lowercase().as_str() {
            "eq" => "==".to_string(),
            "ne" => "/=".to_string(),
            "lt" => "<".to_string(),
            "le" => "<=".to_string(),
            "gt" => ">".to_string(),
            "ge" => ">=".to_string(),
            n if !is_intrinsic_dot_operator(n) => format!(".{n}."),
            _ => return None,
        },
        _ => return None,
    })
}

/// `.and.`, `.eq.`, ...: the intrinsic operators spelled with dots.
pub(crate) fn is_intrinsic_dot_operator(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "and" | "or" | "not" | "eqv" | "neqv" | "eq" | "ne" | "lt" | "le" | "gt" | "ge"
    )
}

fn dot_op<'a>(c: &Cursor<'a>) -> Option<&'a str> {
    match c.peek() {
        Some(TokKind::DotOp(s)) => Some(s.as_str()),
        _ => None,
    }
}

fn parse_equiv(c: &mut Cursor) -> PResult<Parsed> {
    let mut lhs = parse_or(c)?;
    loop {
        let op = match dot_op(c) {
            Some("eqv") => BinOp::Eqv,
            Some("neqv") => BinOp::Neqv,
            _ => return Ok(lhs),
        };
        c.bump();
        let rhs = parse_or(c)?;
        lhs = binary(op, lhs, rhs, c)?;
    }
}

fn parse_or(c: &mut Cursor) -> PResult<Parsed> {
    let mut lhs = parse_and(c)?;
    while dot_op(c) == Some("or") {
        c.bump();
        let rhs = parse_and(c)?;
        lhs = binary(BinOp::Or, lhs, rhs, c)?;
    }
    Ok(lhs)
}

fn parse_and(c: &mut Cursor) -> PResult<Parsed> {
    let mut lhs = parse_not(c)?;
    while dot_op(c) == Some("and") {
        c.bump();
        let rhs = parse_not(c)?;
        lhs = binary(BinOp::And, lhs, rhs, c)?;
    }
    Ok(lhs)
}

fn parse_not(c: &mut Cursor) -> PResult<Parsed> {
    if dot_op(c) == Some("not") {
        let lo = c.lo();
        c.bump();
        enter(c)?;
        let operand = parse_not(c);
        c.nesting -= 1;
        return unary(UnOp::Not, operand?, lo, c);
    }
    parse_rel(c)
}

fn rel_op(c: &Cursor) -> Option<BinOp> {
    Some(match c.peek()? {
        TokKind::Eq => BinOp::Eq,
        TokKind::Ne => BinOp::Ne,
        TokKind::Lt => BinOp::Lt,
        TokKind::Le => BinOp::Le,
        TokKind::Gt => BinOp::Gt,
        TokKind::Ge => BinOp::Ge,
        TokKind::DotOp(s) => match s.as_str() {
            "eq" => BinOp::Eq,
            "ne" => BinOp::Ne,
            "lt" => BinOp::Lt,
            "le" => BinOp::Le,
            "gt" => BinOp::Gt,
            "ge" => BinOp::Ge,
            _ => return None,
        },
        _ => return None,
    })
}

fn parse_rel(c: &mut Cursor) -> PResult<Parsed> {
    let lhs = parse_concat(c)?;
    match rel_op(c) {
        Some(op) => {
            c.bump();
            let rhs = parse_concat(c)?;
            binary(op, lhs, rhs, c)
        }
        None => Ok(lhs),
    }
}

fn parse_concat(c: &mut Cursor) -> PResult<Parsed> {
    let mut lhs = parse_add(c)?;
    while c.eat(&TokKind::Concat) {
        let rhs = parse_add(c)?;
        lhs = binary(BinOp::Concat, lhs, rhs, c)?;
    }
    Ok(lhs)
}

fn add_op(c: &Cursor) -> Option<BinOp> {
    match c.peek() {
        Some(TokKind::Plus) => Some(BinOp::Add),
        Some(TokKind::Minus) => Some(BinOp::Sub),
        _ => None,
    }
}

fn parse_add(c: &mut Cursor) -> PResult<Parsed> {
    let mut lhs = match add_op(c) {
        Some(op) => {
            let lo = c.lo();
            c.bump();
            let operand = parse_mul(c)?;
            let op = if op == BinOp::Add {
                UnOp::Plus
            } else {
                UnOp::Neg
            };
            unary(op, operand, lo, c)?
        }
        None => parse_mul(c)?,
    };
    while let Some(op) = add_op(c) {
        c.bump();
        // `a - -b`: a sign after a binary `+`/`-` is a common extension.
        let rhs = match add_op(c) {
            Some(sign) => {
                let lo = c.lo();
                c.bump();
                let operand = parse_mul(c)?;
                let sign = if sign == BinOp::Add {
                    UnOp::Plus
                } else {
                    UnOp::Neg
                };
                unary(sign, operand, lo, c)?
            }
            None => parse_mul(c)?,
        };
        lhs = binary(op, lhs, rhs, c)?;
    }
    Ok(lhs)
}

fn parse_mul(c: &mut Cursor) -> PResult<Parsed> {
    let mut lhs = parse_pow(c)?;
    loop {
        let op = match c.peek() {
            Some(TokKind::Star) => BinOp::Mul,
            // `/)` closes an array constructor `(/ ... /)`.
            Some(TokKind::Slash) if c.nth(1) == Some(&TokKind::RParen) => return Ok(lhs),
            Some(TokKind::Slash) => BinOp::Div,
            _ => return Ok(lhs),
        };
        c.bump();
        let rhs = parse_signed_operand(c)?;
        lhs = binary(op, lhs, rhs, c)?;
    }
}

/// The operand after `*`, `/` or `**`: a sign there is a common extension (`a*-b`),
/// taken as applying to the following power (`a*-b**2` is `a*(-(b**2))`).
fn parse_signed_operand(c: &mut Cursor) -> PResult<Parsed> {
    let op = match c.peek() {
        Some(TokKind::Minus) => UnOp::Neg,
        Some(TokKind::Plus) => UnOp::Plus,
        _ => return parse_pow(c),
    };
    let lo = c.lo();
    c.bump();
    enter(c)?;
    let operand = parse_pow(c);
    c.nesting -= 1;
    unary(op, operand?, lo, c)
}

fn parse_pow(c: &mut Cursor) -> PResult<Parsed> {
    let base = parse_primary(c)?;
    if c.eat(&TokKind::Pow) {
        enter(c)?;
        let exponent = parse_signed_operand(c);
        c.nesting -= 1;
        return binary(BinOp::Pow, base, exponent?, c);
    }
    Ok(base)
}

/// `value` of a real literal: kind suffix dropped, exponent letter written `e`.
pub fn real_value(spelling: &str) -> String {
    let body = spelling.split('_').next().unwrap_or(spelling);
    body.chars()
        .map(|ch| match ch {
            'd' | 'D' | 'E' => 'e',
            other => other,
        })
        .collect()
}

/// Kind of a real literal that does not depend on named constants: 8 for a `d`
/// exponent or a numeric suffix 8, else 4. Named suffixes are resolved later.
pub fn real_literal_kind(spelling: &str) -> u8 {
    if let Some((_, suffix)) = spelling.split_once('_')
        && let Ok(k) = suffix.parse::<u8>()
    {
        return k;
    }
    if spelling.contains(['d', 'D']) { 8 } else { 4 }
}

fn parse_primary(c: &mut Cursor) -> PResult<Parsed> {
    let lo = c.lo();
    let Some(tok) = c.toks.get(c.pos) else {
        return Err(c.expected("an expression"));
    };
    let span = tok.span;
    let kind = match &tok.kind {
        TokKind::Int(text) => {
            c.bump();
            ExprKind::Int(text.clone())
        }
        TokKind::Real(text) => {
            c.bump();
            ExprKind::Real(RealLit {
                value: real_value(text),
                kind: real_literal_kind(text),
                spelling: Some(text.as_str().into()),
            })
        }
        TokKind::Str(value) => {
            c.bump();
            if c.is(&TokKind::LParen) {
                return Err(unsupported(c, "substrings"));
            }
            ExprKind::Str(value.clone())
        }
        TokKind::Logical(value) => {
            c.bump();
            ExprKind::Logical(*value)
        }
        TokKind::LParen => {
            if c.nth(1) == Some(&TokKind::Slash) {
                c.bump();
                c.bump();
                return parse_ctor_items(c, lo, &TokKind::Slash);
            }
            c.bump();
            let (inner, depth) = parse_level(c)?;
            if c.eat(&TokKind::Comma) {
                // A complex constant `(re, im)`.
                let (im, im_depth) = parse_level(c)?;
                c.expect(&TokKind::RParen, "`)` to close the complex constant")?;
                if depth.max(im_depth) + 1 > MAX_DEPTH {
                    return Err(too_deep(c));
                }
                let args = vec![Arg::positional(inner), Arg::positional(im)];
                let e = node(
                    ExprKind::Intrinsic {
                        op: Intrinsic::ComplexPair,
                        args,
                        spelling: None,
                    },
                    c.span_from(lo),
                );
                return Ok((e, depth.max(im_depth) + 1));
            }
            c.expect(&TokKind::RParen, "`)` to close the parenthesis")?;
            if depth + 1 > MAX_DEPTH {
                return Err(too_deep(c));
            }
            let e = node(ExprKind::Paren(Box::new(inner)), c.span_from(lo));
            return Ok((e, depth + 1));
        }
        TokKind::LBracket => {
            c.bump();
            return parse_ctor_items(c, lo, &TokKind::RBracket);
        }
        TokKind::Ident(name) => {
            let mut name = name.clone();
            c.bump();
            // A component of a derived-type scalar: `s%x`, `s%inner%a`. The IL names
            // it by its whole path; the parts after `%` follow the type's definition.
            while c.is(&TokKind::Percent) {
                c.bump();
                let (part, _) = c.expect_ident("a component name after `%`")?;
                name.push('%');
                name.push_str(&part);
            }
            if c.is(&TokKind::LParen) {
                let (mut args, mut depth) = parse_args(c)?;
                if c.is(&TokKind::LParen) {
                    // `names(k)(1:3)`: a substring of an element, kept as one more
                    // subscript (sema makes it an `ExprKind::Substring`).
                    let (more, d) = parse_args(c)?;
                    let is_range = matches!(
                        more.as_slice(),
                        [Arg {
                            keyword: None,
                            value: Expr {
                                kind: ExprKind::Range { stride: None, .. },
                                ..
                            }
                        }]
                    );
                    if !is_range || c.is(&TokKind::LParen) {
                        return Err(unsupported(c, "such substrings"));
                    }
                    depth = depth.max(d);
                    args.extend(more);
                }
                if c.is(&TokKind::Percent) {
                    // A component of an array element: `a(i)%x`, `a(i)%x(j)`. The IL names
                    // it by its path with all subscripts, the element's first; the number
                    // of those is kept as the keyword `%N` of the first (no source keyword
                    // starts with `%`) for sema to check against the declared ranks.
                    let outer = args.len();
                    if outer == 0 || args[0].keyword.is_some() {
                        return Err(unsupported(c, "such references to components"));
                    }
                    args[0].keyword = Some(format!("%{outer}"));
                    while c.is(&TokKind::Percent) {
                        c.bump();
                        let (part, _) = c.expect_ident("a component name after `%`")?;
                        name.push('%');
                        name.push_str(&part);
                    }
                    if c.is(&TokKind::LParen) {
                        let (more, d) = parse_args(c)?;
                        depth = depth.max(d);
                        args.extend(more);
                    }
                    if c.is(&TokKind::Percent) || c.is(&TokKind::LParen) {
                        return Err(unsupported(
                            c,
                            "components of elements of array components (`a(i)%b(j)%x`)",
                        ));
                    }
                }
                let e = node(ExprKind::Call(name, args), c.span_from(lo));
                return Ok((e, depth + 1));
            }
            ExprKind::Var(name)
        }
        // `.norm. v`: a defined unary operator, of the highest precedence.
        TokKind::DotOp(op) if !is_intrinsic_dot_operator(op) => {
            let name = format!("operator(.{}.)", op.to_ascii_lowercase());
            c.bump();
            let (operand, d) = parse_primary(c)?;
            if d + 1 > MAX_DEPTH {
                return Err(too_deep(c));
            }
            let e = node(
                ExprKind::Call(name, vec![Arg::positional(operand)]),
                c.span_from(lo),
            );
            return Ok((e, d + 1));
        }
        TokKind::DotOp(op) => {
            return Err(Diagnostic::error(
                "E0404",
                format!("the operator `.{op}.` is not supported here"),
            )
            .at(span)
            .with_help("write it between two operands"));
        }
        _ => return Err(c.expected("an expression")),
    };
    Ok((node(kind, span), 1))
}

/// The items of an array constructor after `[` or `(/`, up to `]` (`close` is
/// `RBracket`) or `/)` (`close` is `Slash`, then the `)`).
fn parse_ctor_items(c: &mut Cursor, lo: u32, close: &TokKind) -> PResult<Parsed> {
    let mut items = Vec::new();
    let mut depth = 0;
    let spec = if super::decl::at_type_spec(c) && type_spec_ahead(c) {
        let at = c.here();
        let spec = super::decl::parse_type_spec(c, false)?;
        c.expect(&TokKind::DoubleColon, "`::` after the constructor's type")?;
        Some((spec, at))
    } else {
        None
    };
    loop {
        if items.is_empty() && c.eat(close) {
            break;
        }
        let (item, d) = if c.is(&TokKind::LParen) && implied_do_ahead(c) {
            parse_implied_do(c)?
        } else {
            parse_level(c)?
        };
        depth = depth.max(d);
        items.push(item);
        if c.eat(&TokKind::Comma) {
            continue;
        }
        if !c.eat(close) {
            let what = if *close == TokKind::Slash {
                "`,` or `/)` in the array constructor"
            } else {
                "`,` or `]` in the array constructor"
            };
            return Err(c.expected(what));
        }
        break;
    }
    if *close == TokKind::Slash {
        c.expect(
            &TokKind::RParen,
            "`)` after `/` to close the array constructor",
        )?;
    }
    if items.is_empty() {
        return Err(unsupported(c, "empty array constructors"));
    }
    if depth + 1 > MAX_DEPTH {
        return Err(too_deep(c));
    }
    if let Some((spec, at)) = spec {
        items = items
            .into_iter()
            .map(|item| typed_item(item, &spec, at))
            .collect::<PResult<_>>()?;
    }
    Ok((node(ExprKind::ArrayCtor(items), c.span_from(lo)), depth + 1))
}

/// At a type keyword inside `[`: is a `::` ahead at the top level (a typed constructor
/// `[real(dp) :: ...]`, not an item such as `[real(x), y]`)?
fn type_spec_ahead(c: &Cursor) -> bool {
    let mut depth = 0usize;
    for t in &c.toks[c.pos..] {
        match t.kind {
            TokKind::LParen => depth += 1,
            TokKind::RParen => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            TokKind::DoubleColon if depth == 0 => return true,
            TokKind::Comma | TokKind::RBracket | TokKind::Slash if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

/// An item of a typed constructor `[spec :: ...]` made of the given type (F2018 7.8):
/// numbers converted with INT, REAL or DBLE, character literals padded (or cut) to the
/// length. The IL's constructors are untyped, so the conversion is written out.
fn typed_item(item: Expr, spec: &TypeSpec, at: Span) -> PResult<Expr> {
    let span = item.span;
    if let ExprKind::ImpliedDo(mut d) = item.kind {
        d.items = d
            .items
            .into_iter()
            .map(|x| typed_item(x, spec, at))
            .collect::<PResult<_>>()?;
        return Ok(node(ExprKind::ImpliedDo(d), span));
    }
    let refuse = |what: &str| {
        Diagnostic::error(
            "E0404",
            format!("array constructors of type {what} are not supported yet"),
        )
        .at(at)
        .with_help("list items of the array's own type, without the type spec")
    };
    let convert = |op: Intrinsic, name: &str| {
        let mut args = vec![Arg::positional(item.clone())];
        if let Some(k) = &spec.kind {
            args.push(Arg::positional(k.clone()));
        }
        node(
            ExprKind::Intrinsic {
                op,
                args,
                spelling: Some(name.into()),
            },
            span,
        )
    };
    Ok(match spec.base {
        BaseType::Integer if spec.star.is_none() => convert(Intrinsic::Int, "int"),
        BaseType::Real if spec.star.is_none() => convert(Intrinsic::Real, "real"),
        BaseType::DoublePrecision => convert(Intrinsic::Dble, "dble"),
        BaseType::Logical if spec.kind.is_none() => item,
        BaseType::Character => {
            let len = spec
                .char_len
                .as_deref()
                .and_then(|l| l.trim().parse::<usize>().ok());
            match (&item.kind, len) {
                (ExprKind::Str(text), Some(len)) => {
                    let mut text: String = text.chars().take(len).collect();
                    let short = len.saturating_sub(text.chars().count());
                    text.extend(std::iter::repeat_n(' ', short));
                    node(ExprKind::Str(text), span)
                }
                _ => {
                    return Err(refuse(
                        "CHARACTER with items that are not literals, or a length that is not a number",
                    ));
                }
            }
        }
        _ => return Err(refuse("this kind")),
    })
}

/// An implied DO `(items, var = lower, upper [, stride])` in an array constructor, the
/// cursor at its `(`; items may be implied DOs themselves.
fn parse_implied_do(c: &mut Cursor) -> PResult<Parsed> {
    let lo = c.lo();
    c.expect(&TokKind::LParen, "`(` to open the implied DO")?;
    let mut items = Vec::new();
    let mut depth = 0;
    loop {
        if c.ident_at(0).is_some() && c.nth(1) == Some(&TokKind::Assign) {
            break;
        }
        let (item, d) = if c.is(&TokKind::LParen) && implied_do_ahead(c) {
            parse_implied_do(c)?
        } else {
            parse_level(c)?
        };
        depth = depth.max(d);
        items.push(item);
        c.expect(&TokKind::Comma, "`,` in the implied DO")?;
    }
    if items.is_empty() {
        return Err(c.expected("an item before the implied DO's variable"));
    }
    let (var, _) = c.expect_ident("the implied DO's variable")?;
    c.expect(&TokKind::Assign, "`=` after the implied DO's variable")?;
    let mut bound = |c: &mut Cursor| -> PResult<Expr> {
        let (e, d) = parse_level(c)?;
        depth = depth.max(d);
        Ok(e)
    };
    let lower = bound(c)?;
    c.expect(&TokKind::Comma, "`,` before the implied DO's upper bound")?;
    let upper = bound(c)?;
    let stride = if c.eat(&TokKind::Comma) {
        Some(bound(c)?)
    } else {
        None
    };
    c.expect(&TokKind::RParen, "`)` to close the implied DO")?;
    let d = crate::il::ImpliedDo {
        items,
        var,
        lower,
        upper,
        stride,
    };
    Ok((
        node(ExprKind::ImpliedDo(Box::new(d)), c.span_from(lo)),
        depth + 1,
    ))
}

/// At `(`: is this an implied DO `(expr, var = ...)`? Looks for a top-level `=` before
/// the matching `)`.
fn implied_do_ahead(c: &Cursor) -> bool {
    let Some(close) = c.matching_paren(c.pos) else {
        return false;
    };
    let mut depth = 0;
    for t in &c.toks[c.pos + 1..close] {
        match t.kind {
            TokKind::LParen | TokKind::LBracket => depth += 1,
            TokKind::RParen | TokKind::RBracket => depth -= 1,
            TokKind::Assign if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// One subscript triplet `[lower] : [upper] [: stride]`, the cursor after `lower` (or at
/// the first `:` when there is none).
fn parse_triplet(c: &mut Cursor, lower: Option<Expr>, lo: u32) -> PResult<(Expr, u32)> {
    c.expect(&TokKind::Colon, "`:` in the subscript triplet")?;
    let ends_part = |c: &Cursor| {
        matches!(
            c.peek(),
            Some(TokKind::Comma | TokKind::RParen | TokKind::Colon) | None
        )
    };
    let mut depth = 0;
    let upper = if ends_part(c) {
        None
    } else {
        let (e, d) = parse_level(c)?;
        depth = depth.max(d);
        Some(Box::new(e))
    };
    let stride = if c.eat(&TokKind::Colon) {
        let (e, d) = parse_level(c)?;
        depth = depth.max(d);
        Some(Box::new(e))
    } else {
        None
    };
    let e = node(
        ExprKind::Range {
            lower: lower.map(Box::new),
            upper,
            stride,
        },
        c.span_from(lo),
    );
    Ok((e, depth + 1))
}

/// `( [kw =] expr, ... )`, the cursor on the `(`. Returns the arguments and the deepest
/// argument's depth.
pub fn parse_args(c: &mut Cursor) -> PResult<(Vec<Arg>, u32)> {
    c.expect(&TokKind::LParen, "`(`")?;
    let mut args = Vec::new();
    let mut depth = 0;
    if c.eat(&TokKind::RParen) {
        return Ok((args, depth));
    }
    loop {
        let keyword = match (c.ident_at(0), c.nth(1)) {
            (Some(kw), Some(TokKind::Assign)) => {
                let kw = kw.to_string();
                c.pos += 2;
                Some(kw)
            }
            _ => None,
        };
        let lo = c.lo();
        if c.is(&TokKind::Colon) {
            let (value, d) = parse_triplet(c, None, lo)?;
            depth = depth.max(d);
            args.push(Arg { keyword, value });
            if c.eat(&TokKind::Comma) {
                continue;
            }
            c.expect(&TokKind::RParen, "`,` or `)` in the subscript list")?;
            // Exact: a one-argument call would otherwise hold room for four (an `Arg`
            // is ~100 bytes, and a large unit has hundreds of thousands of calls).
            args.shrink_to_fit();
            return Ok((args, depth));
        }
        if c.is(&TokKind::Star) {
            return Err(unsupported(c, "alternate return arguments"));
        }
        let (mut value, mut d) = parse_level(c)?;
        if c.is(&TokKind::Colon) {
            (value, d) = parse_triplet(c, Some(value), lo)?;
        }
        depth = depth.max(d);
        args.push(Arg { keyword, value });
        if c.eat(&TokKind::Comma) {
            continue;
        }
        c.expect(&TokKind::RParen, "`,` or `)` in the argument list")?;
        args.shrink_to_fit();
        return Ok((args, depth));
    }
}
