//! Modules, derived-type definitions and INTERFACE blocks: their declarations lowered and
//! their contained procedures parsed as units of their own; the constructs adgen does not
//! take yet skipped whole with one diagnostic.

use super::*;
use crate::front::fortran::lexer::TokKind;

impl FileParser<'_> {
    /// `INTERFACE` (the cursor at it) up to its `END INTERFACE`. Unnamed: the interface
    /// bodies of external procedures (Fortran ones, or C functions with `BIND(C)`).
    /// Named (`INTERFACE norm`): a generic name for the procedures it lists by `MODULE
    /// PROCEDURE` / `PROCEDURE` and by interface bodies. Abstract: the interfaces of
    /// procedure arguments, kept for output. Defined operators and assignments are refused
    /// (E0403), the whole block once.
    pub(super) fn interface_block(&mut self, raw: &RawStmt) -> Option<Decl> {
        let words: Vec<String> = raw
            .toks
            .iter()
            .map(|t| match &t.kind {
                TokKind::Ident(w) => w.to_ascii_lowercase(),
                _ => String::new(),
            })
            .collect();
        let refuse = |this: &mut Self, what: &str, help: &str| {
            this.diags.push(
                Diagnostic::error("E0403", format!("{what} are not supported yet"))
                    .at(raw.span)
                    .with_help(help.to_string()),
            );
            this.skip_nested();
            None
        };
        let abstract_ = words.first().is_some_and(|w| w == "abstract");
        let generic = match words.as_slice() {
            [_] => None,
            [a, _] if a == "abstract" => None,
            [_, w, ..] if w == "operator" => match operator_name(raw) {
                Some(name) => Some(name),
                None => {
                    return refuse(
                        self,
                        "defined operators of this kind",
                        "call the specific function by its name",
                    );
                }
            },
            [_, w, ..] if w == "assignment" => {
                let kinds: Vec<&TokKind> = raw.toks.iter().map(|t| &t.kind).collect();
                if !matches!(
                    kinds.as_slice(),
                    [_, _, TokKind::LParen, TokKind::Assign, TokKind::RParen]
                ) {
                    return refuse(
                        self,
                        "INTERFACE statements of this form",
                        "write `INTERFACE ASSIGNMENT(=)`",
                    );
                }
                Some("assignment(=)".to_string())
            }
            [_, _] => Some(name_token(raw, 1)),
            _ => {
                return refuse(
                    self,
                    "INTERFACE statements of this form",
                    "write `INTERFACE` or `INTERFACE generic_name`",
                );
            }
        };
        self.pos += 1;
        let mut bodies = Vec::new();
        let mut procedures = Vec::new();
        let mut ok = true;
        loop {
            let Some(item) = self.items.get(self.pos).cloned() else {
                self.diags.push(
                    Diagnostic::error("E0205", "this INTERFACE has no END INTERFACE").at(raw.span),
                );
                return None;
            };
            let Item::Stmt(inner) = item else {
                self.pos += 1;
                continue;
            };
            if let Some(names) = procedure_list(&inner) {
                self.pos += 1;
                match (&generic, names) {
                    (Some(_), Some(names)) => procedures.extend(names),
                    (None, _) => {
                        self.diags.push(
                            Diagnostic::error(
                                "E0403",
                                "MODULE PROCEDURE belongs in a named (generic) INTERFACE block",
                            )
                            .at(inner.span)
                            .with_help("name the interface: `INTERFACE generic_name`"),
                        );
                        ok = false;
                    }
                    (Some(_), None) => {
                        self.diags.push(
                            Diagnostic::error(
                                "E0202",
                                "expected a list of procedure names after MODULE PROCEDURE",
                            )
                            .at(inner.span),
                        );
                        ok = false;
                    }
                }
                continue;
            }
            match self.stmts.classify(&inner) {
                Ok(Line::Header(header)) => {
                    self.pos += 1;
                    let body = self.unit(header, &inner, Vec::new());
                    let statement = body
                        .body
                        .iter()
                        .find(|s| !matches!(s.kind, crate::il::StmtKind::Comment(_)));
                    if let Some(first) = statement {
                        self.diags.push(
                            Diagnostic::error("E0403", "an interface body has only declarations")
                                .at(first.span),
                        );
                        ok = false;
                    }
                    bodies.push(body);
                }
                Ok(Line::EndOther(what)) if what == "INTERFACE" => {
                    self.pos += 1;
                    break;
                }
                Ok(_) => {
                    self.diags.push(
                        Diagnostic::error(
                            "E0403",
                            "an INTERFACE block holds interface bodies (SUBROUTINE or FUNCTION ... END) and MODULE PROCEDURE lists only",
                        )
                        .at(inner.span),
                    );
                    self.skip_nested();
                    return None;
                }
                Err(d) => {
                    self.diags.push(d);
                    self.pos += 1;
                }
            }
        }
        if !ok {
            return None;
        }
        let kind = match generic {
            None if abstract_ => DeclKind::AbstractInterface(bodies),
            Some(name) => DeclKind::Generic {
                name,
                procedures,
                bodies,
            },
            None => DeclKind::Interface(bodies),
        };
        Some(Decl {
            kind,
            span: raw.span,
        })
    }

    pub(super) fn interface_error(&mut self, raw: &RawStmt) {
        self.diags.push(
            Diagnostic::error("E0403", "INTERFACE blocks are not supported yet")
                .at(raw.span)
                .with_help("declare external functions with their type and EXTERNAL instead"),
        );
    }

    /// After reporting the opening statement of an unsupported block construct (SELECT
    /// CASE, ...): skips to just after its END, so its inside is not reported line by
    /// line. Stops before the END of the enclosing unit if the construct's END is missing.
    pub(super) fn skip_unsupported_construct(&mut self, opener: &RawStmt) {
        let Some(what) = stmt::unsupported_construct(opener) else {
            return;
        };
        let start = self.pos;
        let mut depth = 1usize;
        while let Some(item) = self.items.get(self.pos) {
            if let Item::Stmt(raw) = item {
                if stmt::unsupported_construct(raw) == Some(what)
                    || (what == "select" && stmt::opens_select(raw))
                {
                    depth += 1;
                } else if stmt::is_end_of(raw, what) {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return;
                    }
                } else if matches!(
                    self.stmts.classify(raw),
                    Ok(Line::EndUnit { .. } | Line::Header(_))
                ) {
                    return;
                }
            }
            self.pos += 1;
        }
        // No END at all: report nothing more, but do not swallow the rest silently
        // either — resume right after the opener.
        self.pos = start;
    }

    /// From an opening statement (PROGRAM, MODULE, INTERFACE, a header, CONTAINS inside a
    /// unit), skips to just after the END that closes it, counting nested units.
    pub(super) fn skip_nested(&mut self) {
        self.skip_to_end(0);
    }

    /// Skips statements until `depth` open units are closed.
    pub(super) fn skip_to_end(&mut self, mut depth: usize) {
        while let Some(item) = self.items.get(self.pos) {
            self.pos += 1;
            let Item::Stmt(raw) = item else { continue };
            if stmt::unsupported_construct(raw).is_some() {
                // SELECT CASE, a TYPE definition...: closed by an END counted below.
                depth += 1;
                continue;
            }
            match self.stmts.classify(raw) {
                Ok(Line::Header(_) | Line::OtherUnit(_) | Line::Module(_) | Line::Interface) => {
                    depth += 1
                }
                Err(_) if stmt::looks_like_header(raw) => depth += 1,
                Ok(Line::EndUnit { .. } | Line::EndOther(_)) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                Ok(Line::Contains) if depth == 0 => depth += 1,
                _ => {}
            }
        }
    }

    /// A MODULE: its specification part, then (after CONTAINS) its procedures, which
    /// follow it in the returned list with `host` set. The cursor is after the MODULE
    /// statement.
    pub(super) fn module(
        &mut self,
        name: String,
        header_raw: &RawStmt,
        leading: Vec<String>,
    ) -> Vec<Unit> {
        self.headers.push(HeaderSpans {
            header: header_raw.span,
            args: Vec::new(),
        });
        let mut module = Unit {
            kind: UnitKind::Module,
            name: name.clone(),
            args: Vec::new(),
            result: None,
            explicit_result: false,
            prefix_type: None,
            leading_comments: leading,
            decls: Vec::new(),
            body: Vec::new(),
            symbols: Default::default(),
            span: header_raw.span,
            host: None,
            bind: None,
            recursive: false,
            source_calls: Default::default(),
            deferred: Vec::new(),
            deferred_entities: Vec::new(),
            followed_pointers: Vec::new(),
            internal_of: None,
            elemental: false,
            specialization: None,
            external: false,
        };
        if let Some(text) = header_raw.comment.clone() {
            module.decls.push(Decl {
                kind: DeclKind::Comment(text),
                span: header_raw.span,
            });
        }
        let mut procedures = Vec::new();
        let mut in_contains = false;
        let mut pending: Vec<String> = Vec::new();
        let missing_end = |this: &mut Self| {
            this.diags.push(
                Diagnostic::error("E0205", format!("MODULE `{name}` has no END statement"))
                    .at(header_raw.span)
                    .with_help(format!("add `END MODULE {name}`")),
            );
        };
        loop {
            let Some(item) = self.items.get(self.pos).cloned() else {
                missing_end(self);
                break;
            };
            let raw = match item {
                Item::Comment { text, span } => {
                    self.pos += 1;
                    if in_contains {
                        pending.push(text);
                    } else {
                        module.decls.push(Decl {
                            kind: DeclKind::Comment(text),
                            span,
                        });
                    }
                    continue;
                }
                Item::Stmt(raw) => raw,
            };
            let line = match self.stmts.classify(&raw) {
                Ok(line) => line,
                Err(d) => {
                    // An unsupported declaration of the specification part (a COMPLEX
                    // constant): it blocks only the procedures that use its names.
                    let names = super::super::salvage::declared_names(&raw);
                    if !in_contains && d.code.starts_with("E040") && !names.is_empty() {
                        module.deferred_entities.push((names, d));
                    } else {
                        self.diags.push(d);
                        // Its names declared anyway: no "not declared" after this error.
                        if !in_contains {
                            self.stmts.salvage_into(&raw, &mut module.decls);
                        }
                    }
                    self.pos += 1;
                    if stmt::looks_like_header(&raw) {
                        self.skip_to_end(1);
                    } else {
                        self.skip_unsupported_construct(&raw);
                    }
                    continue;
                }
            };
            match line {
                Line::Broken => {
                    if !in_contains {
                        self.stmts.salvage_into(&raw, &mut module.decls);
                    }
                    self.pos += 1
                }
                Line::Decl(kind) if !in_contains => {
                    self.pos += 1;
                    module.decls.push(Decl {
                        kind,
                        span: raw.span,
                    });
                    if let Some(text) = raw.comment.clone() {
                        module.decls.push(Decl {
                            kind: DeclKind::Comment(text),
                            span: raw.span,
                        });
                    }
                }
                Line::Contains if !in_contains => {
                    self.pos += 1;
                    in_contains = true;
                }
                Line::TypeDef(type_name) if !in_contains => {
                    self.pos += 1;
                    let (components, bindings) = self.type_components(&type_name, raw.span);
                    module.decls.push(Decl {
                        kind: DeclKind::TypeDef {
                            name: type_name,
                            components,
                            header: None,
                            bindings,
                        },
                        span: raw.span,
                    });
                }
                Line::Header(header) if in_contains => {
                    self.pos += 1;
                    self.headers.push(HeaderSpans {
                        header: raw.span,
                        args: header.args.iter().map(|(_, span)| *span).collect(),
                    });
                    let mut unit = self.unit(header, &raw, std::mem::take(&mut pending));
                    unit.host = Some(name.clone());
                    procedures.push(unit);
                    // Internal procedures follow their host (lifted later, in sema).
                    procedures.append(&mut self.internal);
                }
                Line::EndOther(what) if what == "MODULE" => {
                    self.pos += 1;
                    if let Some(end_name) = raw_end_name(&raw, self.stmts.source_of(raw.span.file))
                        && !end_name.eq_ignore_ascii_case(&name)
                    {
                        self.diags.push(
                            Diagnostic::error(
                                "E0206",
                                format!("END MODULE names `{end_name}` but the module is `{name}`"),
                            )
                            .at(raw.span),
                        );
                    }
                    module.span = header_raw.span.to(raw.span);
                    break;
                }
                Line::EndUnit { kind: None, .. } => {
                    self.pos += 1;
                    module.span = header_raw.span.to(raw.span);
                    break;
                }
                Line::Header(_) | Line::Module(_) | Line::OtherUnit(_) => {
                    missing_end(self);
                    break;
                }
                Line::Interface if !in_contains => {
                    if let Some(decl) = self.interface_block(&raw) {
                        module.decls.push(decl);
                    }
                }
                _ => {
                    self.diags.push(
                        Diagnostic::error(
                            "E0208",
                            if in_contains {
                                "only SUBROUTINEs and FUNCTIONs can follow CONTAINS in a module"
                            } else {
                                "executable statements cannot appear in a module's specification part"
                            },
                        )
                        .at(raw.span)
                        .with_help("put the statement inside a module procedure"),
                    );
                    self.pos += 1;
                    self.skip_unsupported_construct(&raw);
                }
            }
        }
        let mut out = vec![module];
        out.extend(procedures);
        out
    }

    /// The component declarations of a derived type, up to its END TYPE, and its
    /// type-bound procedure part (`bindings`). A statement that cannot be inside a type
    /// (CONTAINS, a procedure or unit header, an END of something else) means END TYPE
    /// is missing: one error at the TYPE line, and the type ends there, so what follows
    /// is parsed as if it were present (no cascade).
    pub(super) fn type_components(
        &mut self,
        name: &str,
        header: Span,
    ) -> (Vec<Decl>, Vec<crate::il::Binding>) {
        let mut out = Vec::new();
        let missing_end = |this: &mut Self| {
            this.diags.push(
                Diagnostic::error("E0205", format!("type `{name}` has no END TYPE"))
                    .at(header)
                    .with_help(format!("add `END TYPE {name}` after its components")),
            );
        };
        while let Some(item) = self.items.get(self.pos).cloned() {
            let raw = match item {
                Item::Comment { text, span } => {
                    self.pos += 1;
                    out.push(Decl {
                        kind: DeclKind::Comment(text),
                        span,
                    });
                    continue;
                }
                Item::Stmt(raw) => raw,
            };
            // SEQUENCE fixes the storage order of the components (F2018 7.5.2.3): the
            // derivative code never depends on it (types are copied with their
            // components, never associated by storage), so it is read and kept out of
            // the IL.
            if let [t] = raw.toks.as_slice()
                && matches!(&t.kind, TokKind::Ident(w) if w.eq_ignore_ascii_case("sequence"))
            {
                self.pos += 1;
                continue;
            }
            let line = self.stmts.classify(&raw);
            let bound_end = matches!(line, Ok(Line::Contains))
                .then(|| self.type_bound_part_end())
                .flatten();
            match line {
                Ok(Line::EndOther(what)) if what == "TYPE" => {
                    self.pos += 1;
                    return (out, Vec::new());
                }
                // A type-bound procedure part, up to END TYPE. What adgen does not
                // take is one refusal, at the TYPE line, which blocks only the
                // procedures that use the type.
                Ok(Line::Contains) if bound_end.is_some() => {
                    let end = bound_end.expect("checked by the guard");
                    let mut bindings = Vec::new();
                    for k in self.pos + 1..end {
                        let Some(Item::Stmt(raw)) = self.items.get(k) else {
                            continue;
                        };
                        match super::bindings::binding_stmt(&raw.toks, raw.span) {
                            Ok(found) => bindings.extend(found),
                            Err(what) => {
                                self.error(
                                    "E0405",
                                    format!("{what} (in type `{name}`) are not supported yet"),
                                    header,
                                );
                                if let Some(d) = self.diags.last_mut() {
                                    d.help = Some("call the module procedures themselves, with the object as an argument (`call times(a, x, y)` for `call a%times(x, y)`)".to_string());
                                }
                                bindings.clear();
                                break;
                            }
                        }
                    }
                    self.pos = end + 1;
                    return (out, bindings);
                }
                Ok(
                    Line::Contains
                    | Line::Header(_)
                    | Line::Module(_)
                    | Line::OtherUnit(_)
                    | Line::TypeDef(_)
                    | Line::Interface
                    | Line::EndUnit { .. }
                    | Line::EndOther(_),
                ) => {
                    missing_end(self);
                    return (out, Vec::new());
                }
                Ok(Line::Decl(kind @ DeclKind::Var { .. })) => {
                    self.pos += 1;
                    out.push(Decl {
                        kind,
                        span: raw.span,
                    })
                }
                Ok(Line::Broken) => self.pos += 1,
                Ok(_) => {
                    self.pos += 1;
                    self.error(
                        "E0405",
                        format!("only component declarations can appear in type `{name}`"),
                        raw.span,
                    )
                }
                Err(d) => {
                    self.pos += 1;
                    self.diags.push(d)
                }
            }
        }
        missing_end(self);
        (out, Vec::new())
    }
}

impl FileParser<'_> {
    /// The index of the END TYPE that closes the type-bound procedure part starting at
    /// the CONTAINS at `self.pos`: only PROCEDURE, GENERIC and FINAL bindings (and
    /// PRIVATE) between. `None` when something else comes first (END TYPE is missing).
    fn type_bound_part_end(&self) -> Option<usize> {
        let mut k = self.pos + 1;
        while let Some(item) = self.items.get(k) {
            if let Item::Stmt(raw) = item {
                let first = raw.toks.first().and_then(|t| match &t.kind {
                    TokKind::Ident(w) => Some(w.to_ascii_lowercase()),
                    _ => None,
                });
                match first.as_deref() {
                    Some("procedure" | "generic" | "final" | "private") => {}
                    Some("end" | "endtype") => {
                        return matches!(self.stmts.classify(raw),
                            Ok(Line::EndOther(what)) if what == "TYPE")
                        .then_some(k);
                    }
                    _ => return None,
                }
            }
            k += 1;
        }
        None
    }
}

/// The name written at token `i` of a statement (an identifier, as the parser checked).
/// The generic name of `INTERFACE OPERATOR(op)`, as expressions call it:
/// `operator(+)`, `operator(.cross.)`; the arithmetic operators and named ones.
pub fn operator_name(raw: &RawStmt) -> Option<String> {
    let kinds: Vec<&TokKind> = raw.toks.iter().map(|t| &t.kind).collect();
    let op = match kinds.as_slice() {
        [_, _, TokKind::LParen, op, TokKind::RParen] => *op,
        _ => return None,
    };
    Some(format!(
        "operator({})",
        crate::front::fortran::expr::operator_spelling(op)?
    ))
}

fn name_token(raw: &RawStmt, i: usize) -> String {
    match raw.toks.get(i).map(|t| &t.kind) {
        Some(TokKind::Ident(w)) => w.clone(),
        _ => String::new(),
    }
}

/// `MODULE PROCEDURE a, b` / `PROCEDURE [::] a, b` inside an INTERFACE block: `None` when
/// the statement is something else, `Some(None)` when its list is malformed.
fn procedure_list(raw: &RawStmt) -> Option<Option<Vec<String>>> {
    let is = |i: usize, w: &str| matches!(raw.toks.get(i).map(|t| &t.kind), Some(TokKind::Ident(x)) if x.eq_ignore_ascii_case(w));
    let mut i = if is(0, "module") && is(1, "procedure") {
        2
    } else if is(0, "procedure") {
        1
    } else {
        return None;
    };
    if matches!(raw.toks.get(i).map(|t| &t.kind), Some(TokKind::DoubleColon)) {
        i += 1;
    }
    let mut names = Vec::new();
    loop {
        match raw.toks.get(i).map(|t| &t.kind) {
            Some(TokKind::Ident(w)) => names.push(w.clone()),
            _ => return Some(None),
        }
        i += 1;
        match raw.toks.get(i).map(|t| &t.kind) {
            None => return Some(Some(names)),
            Some(TokKind::Comma) => i += 1,
            _ => return Some(None),
        }
    }
}
