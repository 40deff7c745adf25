//! Declaration statements: type specs, attributes, entity lists, IMPLICIT, PARAMETER,
//! DIMENSION, INTENT, EXTERNAL, INTRINSIC.

use super::cursor::{Cursor, PResult};
use super::expr::parse_expr;
use super::lexer::{Tok, TokKind};
use crate::diag::Diagnostic;
use crate::il::{Attr, BaseType, Bound, DeclKind, DimSpec, Entity, ImplicitRule, Intent, TypeSpec};

fn unsupported(span: crate::diag::Span, what: &str, help: &str) -> Diagnostic {
    Diagnostic::error("E0405", format!("{what} is not supported yet"))
        .at(span)
        .with_help(help.to_string())
}

/// Whether the statement at the cursor starts with a type keyword.
pub fn at_type_spec(c: &Cursor) -> bool {
    let Some(word) = c.ident_at(0) else {
        return false;
    };
    match word.to_ascii_lowercase().as_str() {
        "integer" | "real" | "logical" | "character" | "doubleprecision" | "complex"
        | "doublecomplex" => true,
        "double" => c.ident_at(1).is_some_and(|w| {
            w.eq_ignore_ascii_case("precision") || w.eq_ignore_ascii_case("complex")
        }),
        "type" | "class" => c.nth(1) == Some(&TokKind::LParen),
        _ => false,
    }
}

/// Parses a type spec at the cursor (which must satisfy [`at_type_spec`]).
/// With `implicit_stmt`, a parenthesis is a kind selector only if another `(` follows it.
pub fn parse_type_spec(c: &mut Cursor, implicit_stmt: bool) -> PResult<TypeSpec> {
    let (word, span) = c.expect_ident("a type")?;
    let base = match word.to_ascii_lowercase().as_str() {
        "integer" => BaseType::Integer,
        "real" => BaseType::Real,
        "logical" => BaseType::Logical,
        "character" => BaseType::Character,
        "doubleprecision" => BaseType::DoublePrecision,
        "double" => {
            let (second, _) = c.expect_ident("`precision` or `complex`")?;
            if second.eq_ignore_ascii_case("complex") {
                return Ok(TypeSpec::simple(BaseType::DoubleComplex));
            }
            BaseType::DoublePrecision
        }
        "complex" => BaseType::Complex,
        "doublecomplex" => return Ok(TypeSpec::simple(BaseType::DoubleComplex)),
        "type" => {
            c.expect(&TokKind::LParen, "`(` after TYPE")?;
            let (name, _) = c.expect_ident("a derived type's name")?;
            c.expect(&TokKind::RParen, "`)` after the type's name")?;
            let mut spec = TypeSpec::simple(BaseType::Derived);
            spec.type_name = Some(name);
            return Ok(spec);
        }
        // CLASS(name): read as TYPE(name), since no type of an accepted program extends
        // another; CLASS(*) has no declared type to read.
        "class" => {
            c.expect(&TokKind::LParen, "`(` after CLASS")?;
            if c.is(&TokKind::Star) {
                return Err(unsupported(
                    span,
                    "an unlimited polymorphic declaration (CLASS(*))",
                    "declare it with the type it holds",
                ));
            }
            let (name, _) = c.expect_ident("a derived type's name")?;
            c.expect(&TokKind::RParen, "`)` after the type's name")?;
            let mut spec = TypeSpec::simple(BaseType::Derived);
            spec.type_name = Some(name);
            spec.polymorphic = true;
            return Ok(spec);
        }
        _ => {
            return Err(unsupported(
                span,
                "this type",
                "adgen handles INTEGER, REAL, DOUBLE PRECISION, COMPLEX, LOGICAL, CHARACTER and TYPE(name)",
            ));
        }
    };
    let mut spec = TypeSpec::simple(base);
    if base == BaseType::DoublePrecision {
        return Ok(spec);
    }
    if c.is(&TokKind::LParen) {
        let is_selector = !implicit_stmt
            || c.matching_paren(c.pos).is_some_and(|close| {
                c.toks.get(close + 1).map(|t| &t.kind) == Some(&TokKind::LParen)
            });
        if is_selector {
            if base == BaseType::Character {
                parse_char_selector(c, &mut spec)?;
            } else {
                c.bump();
                if c.is_kw("kind") && c.nth(1) == Some(&TokKind::Assign) {
                    c.pos += 2;
                    spec.kind_keyword = true;
                }
                spec.kind = Some(parse_expr(c)?);
                c.expect(&TokKind::RParen, "`)` after the kind")?;
            }
        }
    } else if c.eat(&TokKind::Star) {
        if base == BaseType::Character {
            spec.char_len = Some(parse_char_len_star(c)?);
        } else {
            match c.peek() {
                Some(TokKind::Int(n)) => {
                    let star = n.parse::<u32>().map_err(|_| c.expected("a byte size"))?;
                    c.bump();
                    spec.star = Some(star);
                }
                _ => return Err(c.expected("a byte size such as 8 after `*`")),
            }
        }
    }
    Ok(spec)
}

/// `*10` or `*(*)` or `*(n)` after CHARACTER or after an entity name: the length text.
fn parse_char_len_star(c: &mut Cursor) -> PResult<String> {
    match c.peek() {
        Some(TokKind::Int(n)) => {
            let n = n.clone();
            c.bump();
            Ok(n)
        }
        Some(TokKind::LParen) => {
            c.bump();
            let text = if c.is(&TokKind::Star) {
                c.bump();
                "*".to_string()
            } else {
                let lo = c.lo();
                parse_expr(c)?;
                c.text_from(lo)
            };
            c.expect(&TokKind::RParen, "`)` after the length")?;
            Ok(text)
        }
        _ => Err(c.expected("a character length")),
    }
}

/// `( [len=] l [, [kind=] k] )` for CHARACTER.
fn parse_char_selector(c: &mut Cursor, spec: &mut TypeSpec) -> PResult<()> {
    c.expect(&TokKind::LParen, "`(`")?;
    let mut position = 0;
    loop {
        let keyword = match (c.ident_at(0), c.nth(1)) {
            (Some(kw), Some(TokKind::Assign)) => {
                let kw = kw.to_ascii_lowercase();
                c.pos += 2;
                Some(kw)
            }
            _ => None,
        };
        let is_len = match keyword.as_deref() {
            Some("len") => true,
            Some("kind") => false,
            Some(_) => return Err(c.expected("`len=` or `kind=`")),
            None => position == 0,
        };
        let lo = c.lo();
        let text = if c.is(&TokKind::Star) || c.is(&TokKind::Colon) {
            c.bump();
            c.text_from(lo)
        } else {
            let e = parse_expr(c)?;
            if !is_len {
                spec.kind = Some(e);
                spec.kind_keyword = keyword.is_some();
            }
            c.text_from(lo)
        };
        if is_len {
            spec.char_len = Some(text);
        }
        position += 1;
        if c.eat(&TokKind::Comma) {
            continue;
        }
        c.expect(&TokKind::RParen, "`)` to close the character selector")?;
        return Ok(());
    }
}

/// `( dim, dim, ... )` of an array declaration; the cursor on `(`.
pub fn parse_dims(c: &mut Cursor) -> PResult<Vec<DimSpec>> {
    c.expect(&TokKind::LParen, "`(`")?;
    let mut dims = Vec::new();
    loop {
        let dim = if c.eat(&TokKind::Colon) {
            // Assumed shape (a dummy) or deferred shape (an allocatable): `x(:)`.
            DimSpec {
                lower: None,
                upper: Bound::Colon,
            }
        } else if c.eat(&TokKind::Star) {
            DimSpec {
                lower: None,
                upper: Bound::Star,
            }
        } else {
            let first = parse_expr(c)?;
            if c.eat(&TokKind::Colon) {
                if c.eat(&TokKind::Star) {
                    DimSpec {
                        lower: Some(first),
                        upper: Bound::Star,
                    }
                } else if matches!(c.peek(), Some(TokKind::Comma | TokKind::RParen)) {
                    // Assumed shape with a lower bound: `x(0:)`.
                    DimSpec {
                        lower: Some(first),
                        upper: Bound::Colon,
                    }
                } else {
                    DimSpec {
                        lower: Some(first),
                        upper: Bound::Expr(parse_expr(c)?),
                    }
                }
            } else {
                DimSpec {
                    lower: None,
                    upper: Bound::Expr(first),
                }
            }
        };
        dims.push(dim);
        if c.eat(&TokKind::Comma) {
            continue;
        }
        c.expect(&TokKind::RParen, "`,` or `)` in the array bounds")?;
        return Ok(dims);
    }
}

fn parse_intent_spec(c: &mut Cursor) -> PResult<Intent> {
    c.expect(&TokKind::LParen, "`(` after INTENT")?;
    let (word, _) = c.expect_ident("IN, OUT or INOUT")?;
    let intent = match word.to_ascii_lowercase().as_str() {
        "in" if c.eat_kw("out") => Intent::InOut,
        "in" => Intent::In,
        "out" => Intent::Out,
        "inout" => Intent::InOut,
        _ => {
            c.pos -= 1;
            return Err(c.expected("IN, OUT or INOUT"));
        }
    };
    c.expect(&TokKind::RParen, "`)` after the intent")?;
    Ok(intent)
}

/// A type declaration: `type-spec [, attr]... [::] entity, ...`. An attribute adgen does
/// not support yet is reported into `refused` and left out, and the entities are still
/// declared, so that their uses cause no further errors; `pointers` gets the names a
/// POINTER attribute declared.
pub fn parse_type_decl(
    c: &mut Cursor,
    refused: &mut Vec<Diagnostic>,
    pointers: &mut Vec<String>,
) -> PResult<DeclKind> {
    let spec = parse_type_spec(c, false)?;
    let mut attrs = Vec::new();
    let mut is_pointer = false;
    while c.eat(&TokKind::Comma) {
        let (word, span) = c.expect_ident("an attribute such as INTENT or DIMENSION")?;
        let attr = match word.to_ascii_lowercase().as_str() {
            "intent" => Attr::Intent(parse_intent_spec(c)?),
            "parameter" => Attr::Parameter,
            "dimension" => Attr::Dimension(parse_dims(c)?),
            "external" => Attr::External,
            "intrinsic" => Attr::Intrinsic,
            "save" => Attr::Save,
            "public" => Attr::Public,
            "private" => Attr::Private,
            "allocatable" => Attr::Allocatable,
            "value" => Attr::Value,
            "optional" => Attr::Optional,
            "target" => Attr::Target,
            "pointer" => {
                is_pointer = true;
                Attr::Pointer
            }
            "bind" | "volatile" | "asynchronous" | "contiguous" | "protected" => {
                if refused.is_empty() {
                    refused.push(unsupported(
                        span,
                        &format!("the {} attribute", word.to_ascii_uppercase()),
                        "remove it or rewrite the declaration with supported attributes",
                    ));
                }
                if c.is(&TokKind::LParen) {
                    // `bind(c, name="...")`: skip the parenthesis.
                    let close = c.matching_paren(c.pos).unwrap_or(c.pos);
                    c.pos = close + 1;
                }
                continue;
            }
            _ => {
                c.pos -= 1;
                return Err(c.expected("an attribute such as INTENT, DIMENSION or PARAMETER"));
            }
        };
        attrs.push(attr);
    }
    let has_colons = c.eat(&TokKind::DoubleColon);
    let is_parameter = attrs.iter().any(|a| matches!(a, Attr::Parameter));
    let mut entities = Vec::new();
    loop {
        let (name, span) = c.expect_ident("a variable name")?;
        let mut dims = None;
        if c.is(&TokKind::LParen) {
            dims = Some(parse_dims(c)?);
        }
        if c.is(&TokKind::Star) {
            // The IL keeps one length per declaration, so `s*10` would be lost.
            return Err(unsupported(
                c.here(),
                "a length given on one entity (`name*len`)",
                "give the length in the type instead, e.g. `character(len=10) :: name`",
            ));
        }
        let mut init = None;
        if is_pointer && c.eat(&TokKind::Arrow) {
            // `p => null()`: disassociated until its first `=>`, and SAVEd by it
            // (`pointers`, which takes the initialization away).
            init = Some(parse_expr(c)?);
        } else if c.is(&TokKind::Arrow) {
            return Err(unsupported(
                c.here(),
                "pointer initialization (`=>`)",
                "remove the POINTER attribute and initialization",
            ));
        }
        if c.is(&TokKind::Assign) {
            if !has_colons {
                return Err(c.expected("`::` before an initialized declaration (or `,`)"));
            }
            c.bump();
            init = Some(parse_expr(c)?);
        } else if is_parameter {
            return Err(c.expected(&format!("`= value` for the named constant `{name}`")));
        }
        entities.push(Entity {
            name,
            dims,
            init,
            span: c.span_from(span.lo),
        });
        if c.eat(&TokKind::Comma) {
            continue;
        }
        c.expect_end()?;
        if is_pointer {
            pointers.extend(entities.iter().map(|e| e.name.clone()));
        }
        return Ok(DeclKind::Var {
            spec,
            attrs,
            entities,
        });
    }
}

/// `IMPLICIT NONE` or `IMPLICIT type (a-h, o-z), ...`; the cursor after IMPLICIT.
pub fn parse_implicit(c: &mut Cursor) -> PResult<DeclKind> {
    if c.eat_kw("none") {
        if c.is(&TokKind::LParen) {
            // `implicit none (type, external)` (F2018): the same for our purposes.
            let close = c.matching_paren(c.pos).ok_or_else(|| c.expected("`)`"))?;
            c.pos = close + 1;
        }
        c.expect_end()?;
        return Ok(DeclKind::Implicit(Vec::new()));
    }
    let mut rules = Vec::new();
    loop {
        if !at_type_spec(c) {
            return Err(c.expected("NONE or a type such as DOUBLE PRECISION"));
        }
        let spec = parse_type_spec(c, true)?;
        c.expect(
            &TokKind::LParen,
            "`(` and a letter range such as `(a-h, o-z)`",
        )?;
        let mut ranges = Vec::new();
        loop {
            let first = parse_letter(c)?;
            let last = if c.eat(&TokKind::Minus) {
                parse_letter(c)?
            } else {
                first
            };
            if last < first {
                return Err(Diagnostic::error(
                    "E0202",
                    format!("the letter range `{first}-{last}` is empty"),
                )
                .at(c.span_from(c.lo())));
            }
            ranges.push((first, last));
            if c.eat(&TokKind::Comma) {
                continue;
            }
            c.expect(&TokKind::RParen, "`,` or `)` in the letter list")?;
            break;
        }
        rules.push(ImplicitRule { spec, ranges });
        if c.eat(&TokKind::Comma) {
            continue;
        }
        c.expect_end()?;
        return Ok(DeclKind::Implicit(rules));
    }
}

fn parse_letter(c: &mut Cursor) -> PResult<char> {
    match c.ident_at(0) {
        Some(w) if w.len() == 1 => {
            let letter = w.to_ascii_lowercase().chars().next().unwrap_or('a');
            c.bump();
            Ok(letter)
        }
        _ => Err(c.expected("a single letter")),
    }
}

/// `PARAMETER (n = 10, m = 2*n)`; the cursor after PARAMETER.
pub fn parse_parameter_stmt(c: &mut Cursor) -> PResult<DeclKind> {
    c.expect(&TokKind::LParen, "`(` after PARAMETER")?;
    let mut list = Vec::new();
    loop {
        let (name, _) = c.expect_ident("a constant name")?;
        c.expect(&TokKind::Assign, "`=` and the constant's value")?;
        list.push((name, parse_expr(c)?));
        if c.eat(&TokKind::Comma) {
            continue;
        }
        c.expect(&TokKind::RParen, "`,` or `)` in the PARAMETER list")?;
        c.expect_end()?;
        return Ok(DeclKind::Parameter(list));
    }
}

/// `DIMENSION [::] a(n), b(10)`; the cursor after DIMENSION.
pub fn parse_dimension_stmt(c: &mut Cursor) -> PResult<DeclKind> {
    c.eat(&TokKind::DoubleColon);
    let mut entities = Vec::new();
    loop {
        let (name, span) = c.expect_ident("an array name")?;
        if !c.is(&TokKind::LParen) {
            return Err(c.expected(&format!("the bounds of `{name}`")));
        }
        let dims = parse_dims(c)?;
        entities.push(Entity {
            name,
            dims: Some(dims),
            init: None,
            span: c.span_from(span.lo),
        });
        if c.eat(&TokKind::Comma) {
            continue;
        }
        c.expect_end()?;
        return Ok(DeclKind::Dimension(entities));
    }
}

/// `[::] a, b, c` after INTENT(...), EXTERNAL or INTRINSIC.
pub fn parse_name_list(c: &mut Cursor) -> PResult<Vec<String>> {
    c.eat(&TokKind::DoubleColon);
    let mut names = Vec::new();
    loop {
        names.push(c.expect_ident("a name")?.0);
        if c.eat(&TokKind::Comma) {
            continue;
        }
        c.expect_end()?;
        return Ok(names);
    }
}

/// `INTENT(IN) [::] a, b`; the cursor after INTENT.
pub fn parse_intent_stmt(c: &mut Cursor) -> PResult<DeclKind> {
    let intent = parse_intent_spec(c)?;
    Ok(DeclKind::Intent(intent, parse_name_list(c)?))
}

/// `USE module [, ONLY: [items]]` or `USE module, local => remote, ...`; the cursor after
/// USE. Items of an ONLY list are names or renames.
pub fn parse_use(c: &mut Cursor) -> PResult<DeclKind> {
    if c.eat(&TokKind::Comma) {
        // `USE, INTRINSIC :: m` / `USE, NON_INTRINSIC :: m`.
        let (word, span) = c.expect_ident("INTRINSIC or NON_INTRINSIC")?;
        // ISO_C_BINDING and ISO_FORTRAN_ENV are the intrinsic modules adgen knows (their
        // kinds and constants): printed back as a plain USE, which names the same module
        // when no source defines one.
        let known = c.nth(1).is_some_and(|t| {
            matches!(t, TokKind::Ident(m) if super::INTRINSIC_MODULES
                .iter()
                .any(|(name, _)| m.eq_ignore_ascii_case(name)))
        });
        if word.eq_ignore_ascii_case("intrinsic") && !known {
            return Err(unsupported(
                span,
                "USE of an intrinsic module other than ISO_FORTRAN_ENV, ISO_C_BINDING and IEEE_ARITHMETIC",
                "adgen knows those three; declare the kinds you need with SELECTED_REAL_KIND, or keep what needs this module out of the differentiated sources",
            ));
        }
        c.expect(&TokKind::DoubleColon, "`::`")?;
    } else {
        c.eat(&TokKind::DoubleColon);
    }
    let (module, _) = c.expect_ident("a module name")?;
    let mut only = None;
    let mut renames = Vec::new();
    if c.eat(&TokKind::Comma) {
        if c.is_kw("only") && c.nth(1) == Some(&TokKind::Colon) {
            c.bump();
            c.bump();
            let mut names = Vec::new();
            while !c.at_end() {
                let (local, span) = c.expect_ident("a name in the ONLY list")?;
                // `operator(+)`, `assignment(=)`: generics, by those names.
                match generic_spec(c, &local) {
                    Some(Ok(spec)) => {
                        names.push(spec);
                        if !c.eat(&TokKind::Comma) {
                            break;
                        }
                        continue;
                    }
                    Some(Err(())) => {
                        return Err(unsupported(
                            span,
                            "this operator in an ONLY list",
                            "import the procedures by name",
                        ));
                    }
                    None => {}
                }
                if c.eat(&TokKind::Arrow) {
                    let (remote, _) = c.expect_ident("the module's name after `=>`")?;
                    renames.push((local.clone(), remote));
                }
                names.push(local);
                if !c.eat(&TokKind::Comma) {
                    break;
                }
            }
            only = Some(names);
        } else {
            loop {
                let (local, _) = c.expect_ident("a rename `local => name`")?;
                c.expect(&TokKind::Arrow, "`=>`")?;
                let (remote, _) = c.expect_ident("the module's name after `=>`")?;
                renames.push((local, remote));
                if !c.eat(&TokKind::Comma) {
                    break;
                }
            }
        }
    }
    c.expect_end()?;
    Ok(DeclKind::Use {
        module,
        only,
        renames,
    })
}

/// `PRIVATE` / `PUBLIC` statements, with or without a list; the cursor after the word.
/// The list may name defined operators (`operator(+)`) and assignments.
pub fn parse_access(c: &mut Cursor, public: bool) -> PResult<DeclKind> {
    c.eat(&TokKind::DoubleColon);
    let mut names = Vec::new();
    while !c.at_end() {
        let (name, span) = c.expect_ident("a name")?;
        match generic_spec(c, &name) {
            Some(Ok(spec)) => names.push(spec),
            Some(Err(())) => {
                return Err(unsupported(
                    span,
                    "this operator in an access list",
                    "list the procedures by name",
                ));
            }
            None => names.push(name),
        }
        if !c.eat(&TokKind::Comma) {
            c.expect_end()?;
        }
    }
    Ok(DeclKind::Access { public, names })
}

/// After the word `operator` or `assignment` (the cursor at `(`): the generic's name,
/// `operator(+)`, `operator(.cross.)`, `assignment(=)`, the cursor after it; `None`
/// when `word` is neither or no `(` follows, `Some(Err)` for an operator adgen does not
/// define.
fn generic_spec(c: &mut Cursor, word: &str) -> Option<Result<String, ()>> {
    let spec = generic_spec_at(c.toks, c.pos, word);
    if let Some(Ok(_)) = spec {
        c.pos += 3;
    }
    spec
}

/// [`generic_spec`] on tokens, `(` at `at`; the spec takes three tokens.
pub(super) fn generic_spec_at(toks: &[Tok], at: usize, word: &str) -> Option<Result<String, ()>> {
    let kind = |k: usize| toks.get(at + k).map(|t| &t.kind);
    if kind(0) != Some(&TokKind::LParen) {
        return None;
    }
    let inner = if word.eq_ignore_ascii_case("operator") {
        kind(1).and_then(super::expr::operator_spelling)
    } else if word.eq_ignore_ascii_case("assignment") {
        (kind(1) == Some(&TokKind::Assign)).then(|| "=".to_string())
    } else {
        return None;
    };
    match (inner, kind(2)) {
        (Some(op), Some(TokKind::RParen)) => {
            Some(Ok(format!("{}({op})", word.to_ascii_lowercase())))
        }
        _ => Some(Err(())),
    }
}

/// `COMMON [/[name]/] a, b(10) [[,] /[name]/ c ...]`; the cursor after COMMON.
pub fn parse_common(c: &mut Cursor) -> PResult<DeclKind> {
    let mut blocks: Vec<(Option<String>, Vec<Entity>)> = Vec::new();
    loop {
        // The block name, if any: `/name/`, `//` (blank) or nothing (blank, first only).
        let block = if c.eat(&TokKind::Concat) {
            None
        } else if c.eat(&TokKind::Slash) {
            let name = if c.is(&TokKind::Slash) {
                None
            } else {
                Some(c.expect_ident("the COMMON block's name")?.0)
            };
            c.expect(&TokKind::Slash, "`/` after the COMMON block's name")?;
            name
        } else if blocks.is_empty() {
            None
        } else {
            return Err(c.expected("`/name/` or the end of the COMMON statement"));
        };
        let mut entities = Vec::new();
        loop {
            let (name, span) = c.expect_ident("a variable name")?;
            let dims = if c.is(&TokKind::LParen) {
                Some(parse_dims(c)?)
            } else {
                None
            };
            entities.push(Entity {
                name,
                dims,
                init: None,
                span: c.span_from(span.lo),
            });
            if c.eat(&TokKind::Comma) {
                if c.is(&TokKind::Slash) || c.is(&TokKind::Concat) {
                    break;
                }
                continue;
            }
            break;
        }
        match blocks.iter_mut().find(|(b, _)| {
            b.as_deref().map(str::to_ascii_lowercase)
                == block.as_deref().map(str::to_ascii_lowercase)
        }) {
            Some((_, list)) => list.extend(entities),
            None => blocks.push((block, entities)),
        }
        if c.at_end() {
            return Ok(DeclKind::Common(blocks));
        }
    }
}

/// `DATA objects /values/ [[,] objects /values/ ...]`; the cursor after DATA. Objects and
/// values are kept as written; the variables are the names of the objects (the array of
/// an implied DO included).
pub fn parse_data(c: &mut Cursor) -> PResult<DeclKind> {
    let mut sets = Vec::new();
    loop {
        let start = c.pos;
        let mut names = Vec::new();
        let mut depth = 0usize;
        let mut first_in_group = false;
        while !(depth == 0 && c.is(&TokKind::Slash)) {
            let Some(kind) = c.peek() else {
                return Err(c.expected("`/` before the DATA values"));
            };
            match kind {
                TokKind::LParen => {
                    depth += 1;
                    // An implied DO opens where an object starts; a subscript follows a name.
                    if depth == 1 {
                        first_in_group =
                            c.pos == start || matches!(c.toks[c.pos - 1].kind, TokKind::Comma);
                    }
                }
                TokKind::RParen => depth = depth.saturating_sub(1),
                TokKind::Ident(name) if depth == 0 || first_in_group => {
                    names.push(name.clone());
                    first_in_group = false;
                }
                _ => {}
            }
            c.bump();
        }
        if names.is_empty() || c.pos == start {
            return Err(c.expected("a variable before the DATA values"));
        }
        let objects = c.tokens_text(start, c.pos);
        c.bump();
        let vstart = c.pos;
        while !c.is(&TokKind::Slash) {
            if c.at_end() {
                return Err(c.expected("`/` after the DATA values"));
            }
            c.bump();
        }
        let values = c.tokens_text(vstart, c.pos);
        c.bump();
        names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        sets.push(crate::il::DataSet {
            objects,
            values,
            names,
        });
        c.eat(&TokKind::Comma);
        if c.at_end() {
            return Ok(DeclKind::Data(sets));
        }
    }
}

/// `EQUIVALENCE (a, b(3)) [, (c, d) ...]`; the cursor after EQUIVALENCE. Each set has at
/// least two references.
pub fn parse_equivalence(c: &mut Cursor) -> PResult<DeclKind> {
    let mut sets = Vec::new();
    loop {
        c.expect(&TokKind::LParen, "`(` opening an EQUIVALENCE set")?;
        let mut set = Vec::new();
        loop {
            set.push(super::expr::parse_expr(c)?);
            if !c.eat(&TokKind::Comma) {
                break;
            }
        }
        c.expect(&TokKind::RParen, "`)` closing the EQUIVALENCE set")?;
        if set.len() < 2 {
            return Err(c.expected("a second variable in the EQUIVALENCE set"));
        }
        sets.push(set);
        if c.at_end() {
            return Ok(DeclKind::Equivalence(sets));
        }
        c.expect(&TokKind::Comma, "`,` between EQUIVALENCE sets")?;
    }
}

/// `NAMELIST /group/ a, b [,] /other/ c` (the cursor after NAMELIST).
pub fn parse_namelist(c: &mut Cursor) -> PResult<DeclKind> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    while !c.at_end() {
        c.expect(&TokKind::Slash, "`/` before the NAMELIST group's name")?;
        let (group, _) = c.expect_ident("the NAMELIST group's name")?;
        c.expect(&TokKind::Slash, "`/` after the NAMELIST group's name")?;
        let mut names = Vec::new();
        loop {
            names.push(c.expect_ident("a variable name")?.0);
            // `a, b /g2/ c` or `a, b, /g2/ c`: a comma before the next group is optional.
            if !c.eat(&TokKind::Comma) || c.is(&TokKind::Slash) {
                break;
            }
        }
        groups.push((group, names));
    }
    if groups.is_empty() {
        return Err(c.expected("`/group/` after NAMELIST"));
    }
    Ok(DeclKind::Namelist(groups))
}

/// `SAVE [[::] a, /block/, ...]`; the cursor after SAVE.
pub fn parse_save(c: &mut Cursor) -> PResult<DeclKind> {
    c.eat(&TokKind::DoubleColon);
    let mut names = Vec::new();
    while !c.at_end() {
        if c.eat(&TokKind::Slash) {
            let (name, _) = c.expect_ident("the COMMON block's name")?;
            c.expect(&TokKind::Slash, "`/` after the COMMON block's name")?;
            names.push(format!("/{name}/"));
        } else {
            names.push(c.expect_ident("a variable name")?.0);
        }
        if !c.eat(&TokKind::Comma) {
            c.expect_end()?;
        }
    }
    Ok(DeclKind::Save(names))
}

/// `PROCEDURE(iface) [, attrs] :: f, g` (the cursor after PROCEDURE): procedures declared
/// with the interface `iface`. INTENT, OPTIONAL, PUBLIC, PRIVATE and SAVE are kept; a
/// procedure pointer (POINTER, `=> null()`) is refused, its names still declared.
pub fn parse_procedure_decl(c: &mut Cursor, refused: &mut Vec<Diagnostic>) -> PResult<DeclKind> {
    c.expect(&TokKind::LParen, "`(` after PROCEDURE")?;
    let (interface, _) = c.expect_ident("the name of an interface")?;
    c.expect(&TokKind::RParen, "`)` after the interface's name")?;
    let mut attrs = Vec::new();
    while c.eat(&TokKind::Comma) {
        let (word, span) = c.expect_ident("an attribute such as INTENT or OPTIONAL")?;
        match word.to_ascii_lowercase().as_str() {
            "intent" => attrs.push(Attr::Intent(parse_intent_spec(c)?)),
            "optional" => attrs.push(Attr::Optional),
            "public" => attrs.push(Attr::Public),
            "private" => attrs.push(Attr::Private),
            "save" => attrs.push(Attr::Save),
            _ => refused.push(unsupported(
                span,
                &format!(
                    "a procedure declared with the {} attribute",
                    word.to_ascii_uppercase()
                ),
                "pass the procedure as an argument, declared `procedure(iface) :: f`, or call it by its name",
            )),
        }
        if c.is(&TokKind::LParen) {
            // `bind(c)` and the like, refused above: skip the parenthesis.
            let close = c.matching_paren(c.pos).unwrap_or(c.pos);
            c.pos = close + 1;
        }
    }
    c.eat(&TokKind::DoubleColon);
    let mut names = Vec::new();
    loop {
        let (name, span) = c.expect_ident("a procedure name")?;
        names.push(name);
        if c.eat(&TokKind::Arrow) {
            refused.push(unsupported(
                span,
                "a procedure pointer's initialization (`=>`)",
                "pass the procedure as an argument, declared `procedure(iface) :: f`, or call it by its name",
            ));
            while !c.at_end() && !c.is(&TokKind::Comma) {
                c.bump();
            }
        }
        if !c.eat(&TokKind::Comma) {
            break;
        }
    }
    if !c.at_end() {
        return Err(c.expected("`,` or the end of the statement"));
    }
    Ok(DeclKind::Procedure {
        interface,
        attrs,
        names,
    })
}
