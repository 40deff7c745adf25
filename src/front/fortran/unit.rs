//! Program units and block structure: the sequence of comments and statements of a file
//! → [`Unit`]s with declarations and nested statement blocks (names not resolved
//! yet; `sema.rs` does that).

use super::lexer::{Item, RawStmt};
use super::sema::HeaderSpans;
use super::stmt::{self, Header, Line, StmtParser};
use crate::diag::{Diagnostic, Span};
use crate::il::{Case, CaseValue, Decl, DeclKind, Expr, Stmt, StmtId, StmtKind, Unit, UnitKind};

/// Deepest nesting of IF/DO constructs accepted.
const MAX_NESTING: usize = 100;

enum FrameKind {
    If {
        arms: Vec<(Expr, Vec<Stmt>)>,
        /// Condition of the arm being filled; None once in ELSE.
        current: Option<Expr>,
    },
    Do {
        var: String,
        start: Expr,
        end: Expr,
        step: Option<Expr>,
    },
    DoWhile {
        cond: Expr,
    },
    /// SELECT CASE: the closed cases; `frame.body` fills the current one.
    Select {
        selector: Expr,
        cases: Vec<Case>,
        /// Values, comment and span of the case being filled; None before the first CASE.
        current: Option<(Vec<CaseValue>, Option<String>, Span)>,
    },
    Where {
        arms: Vec<(Expr, Vec<Stmt>)>,
        /// Mask of the part being filled; None once in the final ELSEWHERE.
        current: Option<Expr>,
    },
    Forall {
        indices: Vec<crate::il::ForallIndex>,
        mask: Option<Expr>,
        concurrent: bool,
    },
}

/// An open IF or DO construct.
struct Frame {
    kind: FrameKind,
    id: StmtId,
    span: Span,
    label: Option<String>,
    comment: Option<String>,
    name: Option<String>,
    /// For `DO 10 i = ...`: the label of the statement that ends the loop.
    end_label: Option<String>,
    body: Vec<Stmt>,
}

impl Frame {
    fn is_loop(&self) -> bool {
        matches!(self.kind, FrameKind::Do { .. } | FrameKind::DoWhile { .. })
    }
    fn what(&self) -> &'static str {
        match self.kind {
            FrameKind::If { .. } => "IF construct",
            FrameKind::Select { .. } => "SELECT CASE construct",
            FrameKind::Where { .. } => "WHERE construct",
            FrameKind::Forall {
                concurrent: true, ..
            } => "DO CONCURRENT loop",
            FrameKind::Forall { .. } => "FORALL construct",
            _ => "DO loop",
        }
    }
}

pub struct FileParser<'a> {
    pub stmts: StmtParser<'a>,
    pub items: Vec<Item>,
    pub pos: usize,
    pub diags: Vec<Diagnostic>,
    pub next_id: &'a mut u32,
    /// Spans of each parsed unit's dummy arguments, parallel to the returned units.
    pub headers: Vec<HeaderSpans>,
}

impl FileParser<'_> {
    fn new_id(&mut self) -> StmtId {
        let id = StmtId(*self.next_id);
        *self.next_id = self.next_id.saturating_add(1);
        id
    }

    /// Parses every unit of the file.
    pub fn units(&mut self) -> Vec<Unit> {
        let mut units = Vec::new();
        let mut leading = Vec::new();
        let mut stray_reported = false;
        while let Some(item) = self.items.get(self.pos) {
            match item {
                Item::Comment { text, .. } => {
                    leading.push(text.clone());
                    self.pos += 1;
                }
                Item::Stmt(raw) => {
                    let raw = raw.clone();
                    match self.stmts.classify(&raw) {
                        Ok(Line::Header(header)) => {
                            self.pos += 1;
                            self.headers.push(HeaderSpans {
                                header: raw.span,
                                args: header.args.iter().map(|(_, span)| *span).collect(),
                            });
                            let unit = self.unit(header, &raw, std::mem::take(&mut leading));
                            units.push(unit);
                        }
                        Ok(Line::Module(name)) => {
                            self.pos += 1;
                            let leading = std::mem::take(&mut leading);
                            units.extend(self.module(name, &raw, leading));
                        }
                        Ok(Line::OtherUnit(what)) => {
                            self.diags.push(
                                Diagnostic::error(
                                    "E0402",
                                    format!("{what} units are not supported yet"),
                                )
                                .at(raw.span)
                                .with_help("put the code to differentiate in external SUBROUTINEs and FUNCTIONs"),
                            );
                            self.skip_nested();
                            leading.clear();
                        }
                        Ok(Line::Interface) => {
                            self.interface_error(&raw);
                            self.skip_nested();
                            leading.clear();
                        }
                        Ok(Line::Broken) => self.pos += 1,
                        Ok(_) => {
                            // One report for a run of stray statements.
                            if !stray_reported {
                                self.diags.push(
                                    Diagnostic::error(
                                        "E0208",
                                        "this statement is outside of any SUBROUTINE or FUNCTION",
                                    )
                                    .at(raw.span)
                                    .with_help("put it inside a procedure"),
                                );
                            }
                            stray_reported = true;
                            self.pos += 1;
                            continue;
                        }
                        Err(d) => {
                            let header = stmt::looks_like_header(&raw);
                            if header || !stray_reported {
                                self.diags.push(d);
                            }
                            self.pos += 1;
                            if header {
                                // A unit whose header was refused: skip the whole unit.
                                self.skip_to_end(1);
                                leading.clear();
                            } else {
                                self.skip_unsupported_construct(&raw);
                            }
                        }
                    }
                    stray_reported = false;
                }
            }
        }
        units
    }

    /// `INTERFACE` (the cursor at it) with interface bodies of `BIND(C)` procedures, up to
    /// its `END INTERFACE`: the procedures' declarations, for calls into C. Generic,
    /// abstract and named interfaces, and bodies without BIND(C), are refused (E0403).
    fn interface_block(&mut self, raw: &RawStmt) -> Option<Decl> {
        if raw.toks.len() != 1 {
            self.diags.push(
                Diagnostic::error(
                    "E0403",
                    "generic, abstract and named INTERFACE blocks are not supported yet",
                )
                .at(raw.span)
                .with_help(
                    "an INTERFACE block may declare BIND(C) procedures defined in C sources",
                ),
            );
            self.skip_nested();
            return None;
        }
        self.pos += 1;
        let mut bodies = Vec::new();
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
            match self.stmts.classify(&inner) {
                Ok(Line::Header(header)) => {
                    self.pos += 1;
                    let body = self.unit(header, &inner, Vec::new());
                    if body.bind.is_none() {
                        self.diags.push(
                            Diagnostic::error(
                                "E0403",
                                format!(
                                    "the interface body of `{}` has no BIND(C): only interfaces of C functions are supported",
                                    body.name
                                ),
                            )
                            .at(inner.span)
                            .with_help("add BIND(C) when the procedure is a C function; declare Fortran procedures with EXTERNAL"),
                        );
                        ok = false;
                    } else if let Some(first) = body.body.first() {
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
                            "an INTERFACE block holds interface bodies (SUBROUTINE or FUNCTION ... END) only",
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
        ok.then_some(Decl {
            kind: DeclKind::Interface(bodies),
            span: raw.span,
        })
    }

    fn interface_error(&mut self, raw: &RawStmt) {
        self.diags.push(
            Diagnostic::error("E0403", "INTERFACE blocks are not supported yet")
                .at(raw.span)
                .with_help("declare external functions with their type and EXTERNAL instead"),
        );
    }

    /// After reporting the opening statement of an unsupported block construct (SELECT
    /// CASE, ...): skips to just after its END, so its inside is not reported line by
    /// line. Stops before the END of the enclosing unit if the construct's END is missing.
    fn skip_unsupported_construct(&mut self, opener: &RawStmt) {
        let Some(what) = stmt::unsupported_construct(opener) else {
            return;
        };
        let start = self.pos;
        let mut depth = 1usize;
        while let Some(item) = self.items.get(self.pos) {
            if let Item::Stmt(raw) = item {
                if stmt::unsupported_construct(raw) == Some(what) {
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
    fn skip_nested(&mut self) {
        self.skip_to_end(0);
    }

    /// Skips statements until `depth` open units are closed.
    fn skip_to_end(&mut self, mut depth: usize) {
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
    fn module(&mut self, name: String, header_raw: &RawStmt, leading: Vec<String>) -> Vec<Unit> {
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
                    self.diags.push(d);
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
                Line::Broken => self.pos += 1,
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
                    let components = self.type_components(&type_name);
                    module.decls.push(Decl {
                        kind: DeclKind::TypeDef {
                            name: type_name,
                            components,
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
                Line::Interface => {
                    self.interface_error(&raw);
                    self.skip_nested();
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

    /// The component declarations of a derived type, up to its END TYPE.
    fn type_components(&mut self, name: &str) -> Vec<Decl> {
        let mut out = Vec::new();
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
            self.pos += 1;
            match self.stmts.classify(&raw) {
                Ok(Line::EndOther(what)) if what == "TYPE" => return out,
                Ok(Line::Decl(kind @ DeclKind::Var { .. })) => out.push(Decl {
                    kind,
                    span: raw.span,
                }),
                Ok(Line::Broken) => {}
                Ok(_) => self.error(
                    "E0405",
                    format!("only component declarations can appear in type `{name}`"),
                    raw.span,
                ),
                Err(d) => self.diags.push(d),
            }
        }
        self.error(
            "E0205",
            format!("type `{name}` has no END TYPE"),
            Span::default(),
        );
        out
    }

    fn unit(&mut self, header: Header, header_raw: &RawStmt, leading: Vec<String>) -> Unit {
        let mut unit = Unit {
            kind: header.kind,
            name: header.name.clone(),
            args: header.args.iter().map(|(n, _)| n.clone()).collect(),
            result: match header.kind {
                UnitKind::Function => {
                    Some(header.result.clone().unwrap_or_else(|| header.name.clone()))
                }
                UnitKind::Subroutine | UnitKind::Module => None,
            },
            explicit_result: header.result.is_some(),
            prefix_type: header.prefix_type.clone(),
            leading_comments: leading,
            decls: Vec::new(),
            body: Vec::new(),
            symbols: Default::default(),
            span: header_raw.span,
            host: None,
            bind: header.bind.clone(),
            recursive: header.recursive,
        };
        let unit_word = match header.kind {
            UnitKind::Subroutine => "SUBROUTINE",
            UnitKind::Function => "FUNCTION",
            UnitKind::Module => "MODULE",
        };
        // A comment at the end of the header line opens the declaration part.
        if let Some(text) = header_raw.comment.clone() {
            unit.decls.push(Decl {
                kind: DeclKind::Comment(text),
                span: header_raw.span,
            });
        }
        let mut frames: Vec<Frame> = Vec::new();
        let mut in_body = false;
        // Comments seen in the declaration part, not yet placed.
        let mut pending: Vec<(String, Span)> = Vec::new();
        loop {
            let Some(item) = self.items.get(self.pos).cloned() else {
                self.diags.push(
                    Diagnostic::error(
                        "E0205",
                        format!("{unit_word} `{}` has no END statement", header.name),
                    )
                    .at(header_raw.span)
                    .with_help(format!("add `END {unit_word} {}`", header.name)),
                );
                break;
            };
            let raw = match item {
                Item::Comment { text, span } => {
                    self.pos += 1;
                    if in_body {
                        let stmt = self.simple(StmtKind::Comment(text), span, None, None);
                        push(&mut frames, &mut unit.body, stmt);
                    } else {
                        pending.push((text, span));
                    }
                    continue;
                }
                Item::Stmt(raw) => raw,
            };
            let line = match self.stmts.classify(&raw) {
                Ok(line) => line,
                Err(d) => {
                    self.diags.push(d);
                    self.pos += 1;
                    // A refused statement still ends the `DO label` loops it labels.
                    self.close_labeled(&mut frames, &mut unit.body, raw.label.as_deref());
                    self.skip_unsupported_construct(&raw);
                    continue;
                }
            };
            match line {
                Line::Broken => {
                    self.pos += 1;
                    self.close_labeled(&mut frames, &mut unit.body, raw.label.as_deref());
                }
                Line::Header(_) | Line::OtherUnit(_) | Line::Module(_) => {
                    self.diags.push(
                        Diagnostic::error(
                            "E0205",
                            format!("{unit_word} `{}` has no END statement", header.name),
                        )
                        .at(header_raw.span)
                        .with_help(format!(
                            "add `END {unit_word} {}` before the next unit",
                            header.name
                        )),
                    );
                    break;
                }
                Line::Interface => {
                    if let Some(decl) = self.interface_block(&raw) {
                        for (text, span) in pending.drain(..) {
                            unit.decls.push(Decl {
                                kind: DeclKind::Comment(text),
                                span,
                            });
                        }
                        unit.decls.push(decl);
                    }
                    continue;
                }
                Line::Contains => {
                    self.diags.push(
                        Diagnostic::error(
                            "E0403",
                            "CONTAINS (internal procedures) is not supported yet",
                        )
                        .at(raw.span)
                        .with_help("make the internal procedures external ones"),
                    );
                    self.skip_nested();
                    break;
                }
                Line::EndUnit { kind, name } => {
                    self.pos += 1;
                    if kind.is_some_and(|k| k != header.kind) {
                        self.diags.push(
                            Diagnostic::error(
                                "E0206",
                                format!("this END does not match {unit_word} `{}`", header.name),
                            )
                            .at(raw.span),
                        );
                    }
                    if let Some((name, span)) = name
                        && !name.eq_ignore_ascii_case(&header.name)
                    {
                        self.diags.push(
                            Diagnostic::error(
                                "E0206",
                                format!("END names `{name}` but the unit is `{}`", header.name),
                            )
                            .at(span),
                        );
                    }
                    for frame in frames.drain(..).rev() {
                        self.diags.push(
                            Diagnostic::error(
                                "E0205",
                                format!(
                                    "this {} is not closed before the END of the unit",
                                    frame.what()
                                ),
                            )
                            .at(frame.span),
                        );
                    }
                    for (text, span) in pending.drain(..) {
                        let stmt = self.simple(StmtKind::Comment(text), span, None, None);
                        unit.body.push(stmt);
                    }
                    unit.span = header_raw.span.to(raw.span);
                    stmt::check_labels(&unit.body, &mut self.diags);
                    break;
                }
                Line::EndOther(what) => {
                    self.diags.push(
                        Diagnostic::error(
                            "E0206",
                            format!("END {what} does not match {unit_word} `{}`", header.name),
                        )
                        .at(raw.span),
                    );
                    self.pos += 1;
                }
                Line::TypeDef(_) => {
                    self.diags.push(
                        Diagnostic::error(
                            "E0405",
                            "derived types defined inside a procedure are not supported yet",
                        )
                        .at(raw.span)
                        .with_help("define the type in a module and USE the module"),
                    );
                    self.pos += 1;
                    self.skip_unsupported_construct(&raw);
                }
                Line::Decl(kind) => {
                    self.pos += 1;
                    // DATA may follow executable statements (it is static initialization).
                    if in_body && !matches!(kind, DeclKind::Data(_)) {
                        self.diags.push(
                            Diagnostic::error(
                                "E0207",
                                "a declaration cannot follow executable statements",
                            )
                            .at(raw.span)
                            .with_help("move it up, before the first executable statement"),
                        );
                        // Still declared, so that its names cause no further errors.
                    }
                    for (text, span) in pending.drain(..) {
                        unit.decls.push(Decl {
                            kind: DeclKind::Comment(text),
                            span,
                        });
                    }
                    unit.decls.push(Decl {
                        kind,
                        span: raw.span,
                    });
                    // The IL's declarations have no end-of-line comment: keep it as a
                    // comment line right after the declaration.
                    if let Some(text) = raw.comment.clone() {
                        unit.decls.push(Decl {
                            kind: DeclKind::Comment(text),
                            span: raw.span,
                        });
                    }
                }
                Line::Action(kind)
                    if !in_body && stmt::statement_function(&kind, &unit.decls).is_some() =>
                {
                    self.pos += 1;
                    for (text, span) in pending.drain(..) {
                        unit.decls.push(Decl {
                            kind: DeclKind::Comment(text),
                            span,
                        });
                    }
                    if let Some(kind) = stmt::statement_function(&kind, &unit.decls) {
                        unit.decls.push(Decl {
                            kind,
                            span: raw.span,
                        });
                    }
                }
                exec => {
                    self.pos += 1;
                    if !in_body {
                        in_body = true;
                        for (text, span) in pending.drain(..) {
                            let stmt = self.simple(StmtKind::Comment(text), span, None, None);
                            unit.body.push(stmt);
                        }
                    }
                    self.exec(exec, &raw, &mut frames, &mut unit.body);
                }
            }
        }
        unit
    }

    fn simple(
        &mut self,
        kind: StmtKind,
        span: Span,
        label: Option<String>,
        comment: Option<String>,
    ) -> Stmt {
        Stmt {
            id: self.new_id(),
            kind,
            span,
            label,
            trailing_comment: comment,
        }
    }

    fn error(&mut self, code: &'static str, msg: String, span: Span) {
        self.diags.push(Diagnostic::error(code, msg).at(span));
    }

    /// One executable line of the body.
    fn exec(&mut self, line: Line, raw: &RawStmt, frames: &mut Vec<Frame>, body: &mut Vec<Stmt>) {
        let label = raw.label.clone();
        let comment = raw.comment.clone();
        let span = raw.span;
        match line {
            Line::Action(kind) => {
                if let StmtKind::Exit { name } | StmtKind::Cycle { name } = &kind {
                    let word = if matches!(kind, StmtKind::Exit { .. }) {
                        "EXIT"
                    } else {
                        "CYCLE"
                    };
                    if !self.check_loop_target(frames, name.as_deref(), word, span) {
                        return;
                    }
                }
                let stmt = self.simple(kind, span, label.clone(), comment);
                push(frames, body, stmt);
                self.close_labeled(frames, body, label.as_deref());
            }
            Line::LogicalIf {
                cond,
                inner,
                inner_span,
            } => {
                if let StmtKind::Exit { name } | StmtKind::Cycle { name } = &inner {
                    let word = if matches!(inner, StmtKind::Exit { .. }) {
                        "EXIT"
                    } else {
                        "CYCLE"
                    };
                    if !self.check_loop_target(frames, name.as_deref(), word, inner_span) {
                        return;
                    }
                }
                let id = self.new_id();
                let inner = self.simple(inner, inner_span, None, None);
                let stmt = Stmt {
                    id,
                    kind: StmtKind::If {
                        arms: vec![(cond, vec![inner])],
                        else_body: None,
                        logical_if: true,
                        name: None,
                    },
                    span,
                    label: label.clone(),
                    trailing_comment: comment,
                };
                push(frames, body, stmt);
                self.close_labeled(frames, body, label.as_deref());
            }
            Line::IfThen { cond, name } => self.open(
                frames,
                FrameKind::If {
                    arms: Vec::new(),
                    current: Some(cond),
                },
                raw,
                name,
                None,
            ),
            Line::Do {
                var,
                start,
                end,
                step,
                name,
                end_label,
                ..
            } => self.open(
                frames,
                FrameKind::Do {
                    var,
                    start,
                    end,
                    step,
                },
                raw,
                name,
                end_label,
            ),
            Line::DoWhile {
                cond,
                name,
                end_label,
            } => self.open(frames, FrameKind::DoWhile { cond }, raw, name, end_label),
            Line::ElseIf { cond, name } => self.else_arm(frames, Some(cond), name, raw),
            Line::Else { name } => self.else_arm(frames, None, name, raw),
            Line::EndIf { name } => {
                if !matches!(frames.last().map(|f| &f.kind), Some(FrameKind::If { .. })) {
                    self.error(
                        "E0206",
                        "END IF without a matching IF ... THEN".to_string(),
                        span,
                    );
                    return;
                }
                self.close(frames, body, name, raw);
            }
            Line::SelectCase { selector, name } => self.open(
                frames,
                FrameKind::Select {
                    selector,
                    cases: Vec::new(),
                    current: None,
                },
                raw,
                name,
                None,
            ),
            Line::WhereStmt {
                mask,
                inner,
                inner_span,
            } => {
                let inner = self.simple(inner, inner_span, None, None);
                let stmt = self.simple(
                    StmtKind::Where {
                        arms: vec![(mask, vec![inner])],
                        else_body: None,
                        construct: false,
                    },
                    span,
                    label.clone(),
                    comment,
                );
                push(frames, body, stmt);
                self.close_labeled(frames, body, label.as_deref());
            }
            Line::Where { mask } => self.open(
                frames,
                FrameKind::Where {
                    arms: Vec::new(),
                    current: Some(mask),
                },
                raw,
                None,
                None,
            ),
            Line::ElseWhere { mask } => {
                let Some(frame) = frames.last_mut() else {
                    self.error(
                        "E0206",
                        "ELSEWHERE without a matching WHERE".to_string(),
                        span,
                    );
                    return;
                };
                let FrameKind::Where { arms, current } = &mut frame.kind else {
                    let what = frame.what();
                    self.error(
                        "E0206",
                        format!("ELSEWHERE inside a {what} that is not closed"),
                        span,
                    );
                    return;
                };
                let Some(before) = current.take() else {
                    self.error(
                        "E0206",
                        "ELSEWHERE after the final ELSEWHERE of the same WHERE".to_string(),
                        span,
                    );
                    return;
                };
                arms.push((before, std::mem::take(&mut frame.body)));
                *current = mask;
            }
            Line::EndWhere => {
                if !matches!(
                    frames.last().map(|f| &f.kind),
                    Some(FrameKind::Where { .. })
                ) {
                    self.error(
                        "E0206",
                        "END WHERE without a matching WHERE".to_string(),
                        span,
                    );
                    return;
                }
                self.close(frames, body, None, raw);
            }
            Line::Forall {
                indices,
                mask,
                inner: Some((inner, inner_span)),
                concurrent,
                name,
            } => {
                let inner = self.simple(inner, inner_span, None, None);
                let stmt = self.simple(
                    StmtKind::Forall {
                        indices,
                        mask,
                        body: vec![inner],
                        construct: false,
                        concurrent,
                        name,
                    },
                    span,
                    label.clone(),
                    comment,
                );
                push(frames, body, stmt);
                self.close_labeled(frames, body, label.as_deref());
            }
            Line::Forall {
                indices,
                mask,
                inner: None,
                concurrent,
                name,
            } => self.open(
                frames,
                FrameKind::Forall {
                    indices,
                    mask,
                    concurrent,
                },
                raw,
                name,
                None,
            ),
            Line::Case { values, name } => self.case_arm(frames, values, name, raw),
            Line::EndSelect { name } => {
                if !matches!(
                    frames.last().map(|f| &f.kind),
                    Some(FrameKind::Select { .. })
                ) {
                    self.error(
                        "E0206",
                        "END SELECT without a matching SELECT CASE".to_string(),
                        span,
                    );
                    return;
                }
                self.close(frames, body, name, raw);
            }
            Line::EndForall { name } => {
                if !matches!(
                    frames.last().map(|f| &f.kind),
                    Some(FrameKind::Forall {
                        concurrent: false,
                        ..
                    })
                ) {
                    self.error(
                        "E0206",
                        "END FORALL without a matching FORALL".to_string(),
                        span,
                    );
                    return;
                }
                self.close(frames, body, name, raw);
            }
            Line::EndDo { name }
                if matches!(
                    frames.last().map(|f| &f.kind),
                    Some(FrameKind::Forall {
                        concurrent: true,
                        ..
                    })
                ) =>
            {
                self.close(frames, body, name, raw);
            }
            Line::EndDo { name } => {
                if !frames.last().is_some_and(Frame::is_loop) {
                    self.error("E0206", "END DO without a matching DO".to_string(), span);
                    return;
                }
                let closes_label = label.is_some()
                    && frames.last().and_then(|f| f.end_label.as_deref()) == label.as_deref();
                self.close(frames, body, name, raw);
                if closes_label {
                    self.close_labeled(frames, body, label.as_deref());
                }
            }
            _ => self.error(
                "E0202",
                "expected an executable statement".to_string(),
                span,
            ),
        }
    }

    /// EXIT/CYCLE must be inside a loop (the named one, when named).
    fn check_loop_target(
        &mut self,
        frames: &[Frame],
        name: Option<&str>,
        word: &str,
        span: Span,
    ) -> bool {
        let ok = match name {
            None => frames.iter().any(Frame::is_loop),
            Some(n) => frames.iter().any(|f| {
                f.is_loop() && f.name.as_deref().is_some_and(|m| m.eq_ignore_ascii_case(n))
            }),
        };
        if !ok {
            let msg = match name {
                None => format!("{word} is not inside a DO loop"),
                Some(n) => format!("{word} names `{n}`, which is not an enclosing DO loop"),
            };
            self.error("E0305", msg, span);
        }
        ok
    }

    fn open(
        &mut self,
        frames: &mut Vec<Frame>,
        kind: FrameKind,
        raw: &RawStmt,
        name: Option<String>,
        end_label: Option<String>,
    ) {
        if frames.len() >= MAX_NESTING {
            self.error(
                "E0209",
                format!("IF and DO constructs are nested more than {MAX_NESTING} deep"),
                raw.span,
            );
            return;
        }
        let id = self.new_id();
        frames.push(Frame {
            kind,
            id,
            span: raw.span,
            label: raw.label.clone(),
            comment: raw.comment.clone(),
            name,
            end_label,
            body: Vec::new(),
        });
    }

    fn else_arm(
        &mut self,
        frames: &mut [Frame],
        cond: Option<Expr>,
        name: Option<String>,
        raw: &RawStmt,
    ) {
        let Some(frame) = frames.last_mut() else {
            self.error(
                "E0206",
                "ELSE without a matching IF ... THEN".to_string(),
                raw.span,
            );
            return;
        };
        let FrameKind::If { arms, current } = &mut frame.kind else {
            self.error(
                "E0206",
                format!("ELSE inside a {} that is not closed", frame.what()),
                raw.span,
            );
            return;
        };
        let Some(cond_before) = current.take() else {
            self.error(
                "E0206",
                "ELSE or ELSE IF after the ELSE of the same IF".to_string(),
                raw.span,
            );
            return;
        };
        if let (Some(n), Some(m)) = (&name, &frame.name)
            && !n.eq_ignore_ascii_case(m)
        {
            self.error(
                "E0206",
                format!("ELSE names `{n}` but the IF is named `{m}`"),
                raw.span,
            );
        }
        arms.push((cond_before, std::mem::take(&mut frame.body)));
        *current = cond;
        let mut carry = Vec::new();
        if let Some(label) = &raw.label {
            carry.push(Stmt {
                id: StmtId(0),
                kind: StmtKind::Continue,
                span: raw.span,
                label: Some(label.clone()),
                trailing_comment: None,
            });
        }
        if let Some(text) = &raw.comment {
            carry.push(Stmt {
                id: StmtId(0),
                kind: StmtKind::Comment(text.clone()),
                span: raw.span,
                label: None,
                trailing_comment: None,
            });
        }
        for mut stmt in carry {
            stmt.id = self.new_id();
            frame.body.push(stmt);
        }
    }

    /// `CASE (...)` or `CASE DEFAULT` inside SELECT CASE.
    fn case_arm(
        &mut self,
        frames: &mut [Frame],
        values: Vec<CaseValue>,
        name: Option<String>,
        raw: &RawStmt,
    ) {
        let Some(frame) = frames.last_mut() else {
            self.error(
                "E0206",
                "CASE outside of a SELECT CASE construct".to_string(),
                raw.span,
            );
            return;
        };
        let FrameKind::Select { cases, current, .. } = &mut frame.kind else {
            self.error(
                "E0206",
                format!("CASE inside a {} that is not closed", frame.what()),
                raw.span,
            );
            return;
        };
        if let (Some(n), Some(m)) = (&name, &frame.name)
            && !n.eq_ignore_ascii_case(m)
        {
            self.error(
                "E0206",
                format!("CASE names `{n}` but the SELECT CASE is named `{m}`"),
                raw.span,
            );
        }
        if values.is_empty() && cases.iter().any(|c| c.values.is_empty()) {
            self.error(
                "E0206",
                "a second CASE DEFAULT in the same SELECT CASE".to_string(),
                raw.span,
            );
        }
        let body = std::mem::take(&mut frame.body);
        match current.take() {
            Some((values, comment, span)) => cases.push(Case {
                values,
                body,
                comment,
                span,
            }),
            None => {
                if body.iter().any(|s| !matches!(s.kind, StmtKind::Comment(_))) {
                    self.error(
                        "E0206",
                        "statements between SELECT CASE and its first CASE".to_string(),
                        raw.span,
                    );
                }
            }
        }
        *current = Some((values, raw.comment.clone(), raw.span));
    }

    /// Closes the innermost frame with END IF / END DO.
    fn close(
        &mut self,
        frames: &mut Vec<Frame>,
        body: &mut Vec<Stmt>,
        name: Option<String>,
        raw: &RawStmt,
    ) {
        let Some(mut frame) = frames.pop() else {
            return;
        };
        match (&name, &frame.name) {
            (Some(n), Some(m)) if !n.eq_ignore_ascii_case(m) => self.error(
                "E0206",
                format!("END names `{n}` but the construct is named `{m}`"),
                raw.span,
            ),
            (Some(n), None) => self.error(
                "E0206",
                format!("END names `{n}` but the construct has no name"),
                raw.span,
            ),
            (None, Some(m)) => self.error(
                "E0206",
                format!("the END of construct `{m}` must repeat its name"),
                raw.span,
            ),
            _ => {}
        }
        // A label or comment on the END line is kept inside the closed block.
        if raw.label.is_some() && frame.end_label.as_deref() != raw.label.as_deref() {
            let stmt = self.simple(StmtKind::Continue, raw.span, raw.label.clone(), None);
            frame.body.push(stmt);
        }
        if let Some(text) = &raw.comment {
            let stmt = self.simple(StmtKind::Comment(text.clone()), raw.span, None, None);
            frame.body.push(stmt);
        }
        let stmt = finish(frame, raw.span);
        push(frames, body, stmt);
    }

    /// After a labelled statement: close every `DO label` loop it ends.
    fn close_labeled(
        &mut self,
        frames: &mut Vec<Frame>,
        body: &mut Vec<Stmt>,
        label: Option<&str>,
    ) {
        let Some(label) = label else { return };
        while let Some(frame) = frames.last() {
            if frame.end_label.as_deref() != Some(label) {
                break;
            }
            let end_span = frame.body.last().map(|s| s.span).unwrap_or(frame.span);
            let Some(mut frame) = frames.pop() else { break };
            // The block DO of the IL needs no terminating label: a `CONTINUE` that only
            // ended the loop goes, another statement keeps its place without the label.
            // (Nothing can jump to it: GOTO is not accepted yet.)
            // A CONTINUE that GO TOs in the loop jump to stays, with its label.
            let targeted = {
                let mut found = false;
                crate::il::visit::walk_stmts(&frame.body, &mut |s| {
                    found |= stmt::jump_targets(&s.kind)
                        .contains(&stmt::normalize_label(label).as_str());
                });
                found
            };
            if let Some(last) = frame.body.last_mut()
                && !targeted
                && last.label.as_deref() == Some(label)
            {
                last.label = None;
                if matches!(last.kind, StmtKind::Continue) && last.trailing_comment.is_none() {
                    frame.body.pop();
                }
            }
            let stmt = finish(frame, end_span);
            push(frames, body, stmt);
        }
    }
}

/// Appends a statement to the innermost open block.
/// The name after `END MODULE`, if the statement gives one.
fn raw_end_name(raw: &RawStmt, src: &str) -> Option<String> {
    let text = src.get(raw.span.lo as usize..raw.span.hi as usize)?;
    let last = text.split_whitespace().last()?;
    let lower = last.to_ascii_lowercase();
    (lower != "module" && lower != "endmodule")
        .then(|| last.trim_end_matches(';').to_string())
        .filter(|n| n.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_'))
}

fn push(frames: &mut [Frame], body: &mut Vec<Stmt>, stmt: Stmt) {
    match frames.last_mut() {
        Some(frame) => frame.body.push(stmt),
        None => body.push(stmt),
    }
}

/// Turns a closed frame into its statement.
fn finish(frame: Frame, end_span: Span) -> Stmt {
    let span = frame.span.to(end_span);
    let kind = match frame.kind {
        FrameKind::If { mut arms, current } => {
            let else_body = match current {
                Some(cond) => {
                    arms.push((cond, frame.body));
                    None
                }
                None => Some(frame.body),
            };
            StmtKind::If {
                arms,
                else_body,
                logical_if: false,
                name: frame.name.clone(),
            }
        }
        FrameKind::Do {
            var,
            start,
            end,
            step,
        } => StmtKind::Do {
            var,
            start,
            end,
            step,
            body: frame.body,
            name: frame.name.clone(),
        },
        FrameKind::DoWhile { cond } => StmtKind::DoWhile {
            cond,
            body: frame.body,
            name: frame.name.clone(),
        },
        FrameKind::Select {
            selector,
            mut cases,
            current,
        } => {
            if let Some((values, comment, span)) = current {
                cases.push(Case {
                    values,
                    body: frame.body,
                    comment,
                    span,
                });
            }
            StmtKind::Select {
                selector,
                cases,
                name: frame.name.clone(),
            }
        }
        FrameKind::Where { mut arms, current } => {
            let else_body = match current {
                Some(mask) => {
                    arms.push((mask, frame.body));
                    None
                }
                None => Some(frame.body),
            };
            StmtKind::Where {
                arms,
                else_body,
                construct: true,
            }
        }
        FrameKind::Forall {
            indices,
            mask,
            concurrent,
        } => StmtKind::Forall {
            indices,
            mask,
            body: frame.body,
            construct: true,
            concurrent,
            name: frame.name.clone(),
        },
    };
    Stmt {
        id: frame.id,
        kind,
        span,
        label: frame.label,
        trailing_comment: frame.comment,
    }
}
