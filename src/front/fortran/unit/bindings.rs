//! The type-bound procedure part of a derived type (after CONTAINS, up to END TYPE):
//! specific bindings (`PROCEDURE [, PASS[(arg)] | NOPASS | access | NON_OVERRIDABLE] ::
//! name [=> procedure]`, several per statement), FINAL and PRIVATE statements. A call
//! through a binding (`call m%advance(dt)`, `e = m%energy()`) is a call of the
//! procedure it names, with the object as the argument PASS says (`sema`); the type is
//! printed back with its bindings. GENERIC bindings (a name, `OPERATOR(op)`,
//! `ASSIGNMENT(=)` for specific bindings of the type) are resolved like generic
//! interfaces (`front::fortran::generic`). DEFERRED bindings and `PROCEDURE(iface)` are
//! refused (E0405), at the TYPE line, for the procedures that use the type.

use super::*;
use crate::front::fortran::lexer::{Tok, TokKind};
use crate::il::{Binding, BindingPass, key};

/// A statement of a type-bound procedure part, or why it is refused.
pub(super) fn binding_stmt(toks: &[Tok], span: Span) -> Result<Vec<Binding>, String> {
    let word = |t: &Tok| match &t.kind {
        TokKind::Ident(w) => Some(w.to_ascii_lowercase()),
        _ => None,
    };
    let first = toks.first().and_then(word).unwrap_or_default();
    let other = |text: String| {
        Ok(vec![Binding {
            name: String::new(),
            specific: None,
            generic: Vec::new(),
            pass: BindingPass::First,
            text,
            span,
        }])
    };
    match first.as_str() {
        "private" | "public" if toks.len() == 1 => return other(first),
        "final" => {
            let names: Vec<String> = toks
                .iter()
                .skip(1)
                .filter_map(|t| match &t.kind {
                    TokKind::Ident(w) => Some(w.clone()),
                    _ => None,
                })
                .collect();
            return other(format!("final :: {}", names.join(", ")));
        }
        "generic" => return generic_stmt(toks, span).map(|b| vec![b]),
        "procedure" => {}
        _ => return Err("statements of this kind in a type-bound procedure part".to_string()),
    }
    let mut k = 1;
    if matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::LParen)) {
        return Err(
            "type-bound procedures with an interface name (`PROCEDURE(iface)`)".to_string(),
        );
    }
    // Attributes up to `::`.
    let mut pass = BindingPass::First;
    let mut attrs: Vec<String> = Vec::new();
    while matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::Comma)) {
        k += 1;
        let Some(attr) = toks.get(k).and_then(word) else {
            return Err("binding attributes of this form".to_string());
        };
        k += 1;
        match attr.as_str() {
            "nopass" => {
                pass = BindingPass::NoPass;
                attrs.push(attr);
            }
            "pass" => {
                if matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::LParen)) {
                    let Some(TokKind::Ident(arg)) = toks.get(k + 1).map(|t| &t.kind) else {
                        return Err("PASS attributes of this form".to_string());
                    };
                    if !matches!(toks.get(k + 2).map(|t| &t.kind), Some(TokKind::RParen)) {
                        return Err("PASS attributes of this form".to_string());
                    }
                    pass = BindingPass::Named(arg.clone());
                    attrs.push(format!("pass({arg})"));
                    k += 3;
                } else {
                    attrs.push(attr);
                }
            }
            "public" | "private" | "non_overridable" => attrs.push(attr),
            "deferred" => return Err("DEFERRED type-bound procedures".to_string()),
            _ => {
                return Err(format!(
                    "bindings with the attribute {}",
                    attr.to_ascii_uppercase()
                ));
            }
        }
    }
    if matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::DoubleColon)) {
        k += 1;
    }
    let head = std::iter::once("procedure".to_string())
        .chain(attrs)
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = Vec::new();
    loop {
        let Some(TokKind::Ident(name)) = toks.get(k).map(|t| &t.kind) else {
            return Err("bindings of this form".to_string());
        };
        k += 1;
        let mut specific = name.clone();
        if matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::Arrow)) {
            let Some(TokKind::Ident(p)) = toks.get(k + 1).map(|t| &t.kind) else {
                return Err("bindings of this form".to_string());
            };
            specific = p.clone();
            k += 2;
        }
        let text = if key(&specific) == key(name) {
            format!("{head} :: {name}")
        } else {
            format!("{head} :: {name} => {specific}")
        };
        out.push(Binding {
            name: name.clone(),
            specific: Some(specific),
            generic: Vec::new(),
            pass: pass.clone(),
            text,
            span,
        });
        match toks.get(k).map(|t| &t.kind) {
            None | Some(TokKind::Newline | TokKind::Semi) => break,
            Some(TokKind::Comma) => k += 1,
            Some(_) => return Err("this binding".to_string()),
        }
    }
    Ok(out)
}

/// `GENERIC [, access] :: spec => binding [, binding ...]`, the spec a name,
/// `OPERATOR(op)` or `ASSIGNMENT(=)` (Fortran 2018 §7.5.5).
fn generic_stmt(toks: &[Tok], span: Span) -> Result<Binding, String> {
    let malformed = || "GENERIC statements of this form".to_string();
    let mut k = 1;
    let mut access = None;
    if matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::Comma)) {
        match toks.get(k + 1).map(|t| &t.kind) {
            Some(TokKind::Ident(w))
                if w.eq_ignore_ascii_case("public") || w.eq_ignore_ascii_case("private") =>
            {
                access = Some(w.to_ascii_lowercase());
            }
            _ => return Err(malformed()),
        }
        k += 2;
    }
    if !matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::DoubleColon)) {
        return Err(malformed());
    }
    k += 1;
    let Some(TokKind::Ident(word)) = toks.get(k).map(|t| &t.kind) else {
        return Err(malformed());
    };
    k += 1;
    let spec = match crate::front::fortran::decl::generic_spec_at(toks, k, word) {
        Some(Ok(spec)) => {
            k += 3;
            spec
        }
        Some(Err(())) => return Err("GENERIC bindings of this operator".to_string()),
        None => word.clone(),
    };
    if !matches!(toks.get(k).map(|t| &t.kind), Some(TokKind::Arrow)) {
        return Err(malformed());
    }
    k += 1;
    let mut listed = Vec::new();
    loop {
        let Some(TokKind::Ident(name)) = toks.get(k).map(|t| &t.kind) else {
            return Err(malformed());
        };
        listed.push(name.clone());
        k += 1;
        match toks.get(k).map(|t| &t.kind) {
            None | Some(TokKind::Newline | TokKind::Semi) => break,
            Some(TokKind::Comma) => k += 1,
            Some(_) => return Err(malformed()),
        }
    }
    let head = match access {
        Some(a) => format!("generic, {a}"),
        None => "generic".to_string(),
    };
    Ok(Binding {
        text: format!("{head} :: {spec} => {}", listed.join(", ")),
        name: spec,
        specific: None,
        generic: listed,
        pass: BindingPass::First,
        span,
    })
}

/// The start of the refusal of `TYPE, EXTENDS(parent)` (`stmt`), which names the parent.
const EXTENDS: &str = "the type attribute EXTENDS(";

/// A `CLASS(t)` dummy is read as `TYPE(t)`: right only if no type extends `t`, for
/// otherwise the object may be an extension whose bindings run other procedures. The
/// sources' extensions are refused where they are defined (`TYPE, EXTENDS(t)`); this
/// refuses (E0405, reported if a root reaches the procedure) every CLASS(t) dummy of a
/// type that one extends, in any file.
pub fn polymorphic_across_files(program: &mut crate::il::Program) {
    let parents: std::collections::BTreeSet<String> = program
        .units()
        .flat_map(|u| {
            u.deferred
                .iter()
                .chain(u.deferred_entities.iter().map(|(_, d)| d))
        })
        .filter_map(|d| d.message.strip_prefix(EXTENDS))
        .filter_map(|rest| rest.split(')').next())
        .map(key)
        .collect();
    if parents.is_empty() {
        return;
    }
    for file in &mut program.files {
        for unit in &mut file.units {
            let refusals: Vec<Diagnostic> = unit
                .symbols
                .iter()
                .filter(|s| s.type_spec.polymorphic)
                .filter_map(|s| {
                    let t = s.type_spec.type_name.as_deref()?;
                    parents.contains(&key(t)).then(|| {
                        Diagnostic::error(
                            "E0405",
                            format!("`{}` is CLASS({t}), and a type of the sources extends `{t}`: adgen follows the procedures of the declared type only", s.name),
                        )
                        .at(s.span)
                        .with_help(format!("declare it TYPE({t}) where only `{t}` objects are passed"))
                    })
                })
                .collect();
            unit.deferred.extend(refusals);
        }
    }
}
