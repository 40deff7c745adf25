//! Program units and block structure: the sequence of comments and statements of a file
//! → [`Unit`]s with declarations and nested statement blocks (names not resolved
//! yet; `sema.rs` does that).

mod bindings;
pub use bindings::polymorphic_across_files;
mod block;
mod constructs;
mod module;
use constructs::{push, raw_end_name};

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
    /// A BLOCK construct: its declarations, hoisted into the procedure when it closes
    /// (`block::close_block`).
    Block {
        decls: Vec<Decl>,
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
            FrameKind::Block { .. } => "BLOCK construct",
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
    /// Set while a main PROGRAM is parsed (as a unit without arguments): `END PROGRAM`
    /// closes it.
    pub in_program: bool,
    /// Set while an internal procedure is parsed: it cannot have a CONTAINS of its own.
    pub in_internal: bool,
    /// The internal procedures of the unit just parsed, in order: its caller places them
    /// right after it (their headers follow its own in `headers`).
    pub internal: Vec<Unit>,
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
                            units.append(&mut self.internal);
                        }
                        Ok(Line::Module(name)) => {
                            self.pos += 1;
                            let leading = std::mem::take(&mut leading);
                            units.extend(self.module(name, &raw, leading));
                        }
                        Ok(Line::OtherUnit("PROGRAM")) => {
                            self.pos += 1;
                            let unit = self.program(&raw, std::mem::take(&mut leading), true);
                            units.push(unit);
                            units.append(&mut self.internal);
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
                        // A bare END where no unit is open is a whole main program with
                        // nothing in it (gfortran accepts it): nothing to read.
                        Ok(Line::EndUnit {
                            kind: None,
                            name: None,
                        }) if !stray_reported => {
                            self.pos += 1;
                            leading.clear();
                        }
                        // Statements before a bare END, outside any unit: a main
                        // program without its PROGRAM statement, as F77 drivers write
                        // it. Read from this statement on (it is the first of the body).
                        Ok(ref line)
                            if !stray_reported
                                && !matches!(
                                    line,
                                    Line::EndOther(_) | Line::Contains | Line::EndUnit { .. }
                                )
                                && self.ends_with_bare_end() =>
                        {
                            let unit = self.program(&raw, std::mem::take(&mut leading), false);
                            units.push(unit);
                            units.append(&mut self.internal);
                        }
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

    /// Whether the statements from the current one on reach a bare `END` before any
    /// unit starts: they are then a main program without a PROGRAM statement.
    fn ends_with_bare_end(&self) -> bool {
        for item in &self.items[self.pos..] {
            let Item::Stmt(raw) = item else { continue };
            match self.stmts.classify(raw) {
                Ok(Line::EndUnit {
                    kind: None,
                    name: None,
                }) => return true,
                Ok(
                    Line::Header(_)
                    | Line::Module(_)
                    | Line::OtherUnit(_)
                    | Line::EndUnit { .. }
                    | Line::EndOther(_),
                ) => return false,
                _ => {}
            }
        }
        false
    }

    /// A main PROGRAM: read as a unit without arguments, so that its statements are
    /// checked and its calls known, with E0402 as its deferred refusal: a main program
    /// is never differentiated, and blocks no root. From its PROGRAM statement `raw`
    /// (the cursor after it) when `named`, else from its first statement `raw` (the
    /// cursor on it).
    fn program(&mut self, raw: &RawStmt, leading: Vec<String>, named: bool) -> Unit {
        let name = match raw.toks.get(1).map(|t| &t.kind) {
            Some(super::lexer::TokKind::Ident(n)) if named => n.clone(),
            _ => "main".to_string(),
        };
        self.headers.push(HeaderSpans {
            header: raw.span,
            args: Vec::new(),
        });
        let header = Header {
            kind: UnitKind::Subroutine,
            name: name.clone(),
            args: Vec::new(),
            result: None,
            prefix_type: None,
            bind: None,
            recursive: false,
            elemental: false,
        };
        self.in_program = true;
        let mut unit = self.unit(header, raw, leading);
        self.in_program = false;
        unit.deferred.push(
            Diagnostic::error(
                "E0402",
                format!("`{name}` is a main PROGRAM, which cannot be differentiated"),
            )
            .at(raw.span)
            .with_help("put the code to differentiate in a SUBROUTINE and name it as the root"),
        );
        unit
    }

    /// The internal procedures after a host's CONTAINS, up to (not including) the host's
    /// END, into `self.internal`.
    fn internal_procedures(&mut self, host: &str) {
        let mut pending = Vec::new();
        while let Some(item) = self.items.get(self.pos).cloned() {
            let raw = match item {
                Item::Comment { text, .. } => {
                    self.pos += 1;
                    pending.push(text);
                    continue;
                }
                Item::Stmt(raw) => raw,
            };
            match self.stmts.classify(&raw) {
                Ok(Line::Header(header)) => {
                    self.pos += 1;
                    self.headers.push(HeaderSpans {
                        header: raw.span,
                        args: header.args.iter().map(|(_, span)| *span).collect(),
                    });
                    self.in_internal = true;
                    let mut unit = self.unit(header, &raw, std::mem::take(&mut pending));
                    self.in_internal = false;
                    unit.internal_of = Some(host.to_string());
                    self.internal.push(unit);
                }
                Ok(
                    Line::EndUnit { .. } | Line::EndOther(_) | Line::Module(_) | Line::OtherUnit(_),
                ) => return,
                Ok(Line::Broken) => self.pos += 1,
                Ok(_) | Err(_) => {
                    self.pos += 1;
                    self.diags.push(
                        Diagnostic::error(
                            "E0208",
                            "only SUBROUTINEs and FUNCTIONs can follow CONTAINS",
                        )
                        .at(raw.span)
                        .with_help("move this statement before CONTAINS"),
                    );
                }
            }
        }
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
            elemental: header.elemental,
            specialization: None,
            external: false,
            source_calls: Default::default(),
            deferred: Vec::new(),
            deferred_entities: Vec::new(),
            followed_pointers: Vec::new(),
            internal_of: None,
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
                    self.stmts.salvage_into(&raw, &mut unit.decls);
                    self.pos += 1;
                    // Its label stays (on a CONTINUE), so that the jumps to it are not
                    // refused too; it still ends the `DO label` loops it labels.
                    if in_body && let Some(label) = raw.label.clone() {
                        let stmt = self.simple(StmtKind::Continue, raw.span, Some(label), None);
                        push(&mut frames, &mut unit.body, stmt);
                    }
                    self.close_labeled(&mut frames, &mut unit.body, raw.label.as_deref());
                    self.skip_unsupported_construct(&raw);
                    continue;
                }
            };
            match line {
                Line::Broken => {
                    self.stmts.salvage_into(&raw, &mut unit.decls);
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
                Line::Contains if !self.in_internal => {
                    // The host's END stays: the next turn of this loop closes the unit.
                    self.pos += 1;
                    self.internal_procedures(&header.name);
                }
                Line::Contains => {
                    self.diags.push(
                        Diagnostic::error(
                            "E0403",
                            "CONTAINS in an internal procedure is not allowed",
                        )
                        .at(raw.span)
                        .with_help("move these procedures to the host's CONTAINS"),
                    );
                    self.skip_nested();
                    // The unit ends at its END, past the internal procedures: the
                    // refusal is the unit's own (reported if a root reaches it).
                    if let Some(Item::Stmt(end)) =
                        self.pos.checked_sub(1).and_then(|p| self.items.get(p))
                    {
                        unit.span = header_raw.span.to(end.span);
                    }
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
                Line::EndOther(what) if what == "PROGRAM" && self.in_program => {
                    self.pos += 1;
                    for (text, span) in pending.drain(..) {
                        let stmt = self.simple(StmtKind::Comment(text), span, None, None);
                        unit.body.push(stmt);
                    }
                    unit.span = header_raw.span.to(raw.span);
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
                // The declarations at the top of a BLOCK construct are its own.
                Line::Decl(kind)
                    if frames.last().is_some_and(|f| {
                        matches!(f.kind, FrameKind::Block { .. })
                            && f.body
                                .iter()
                                .all(|s| matches!(s.kind, StmtKind::Comment(_)))
                    }) =>
                {
                    self.pos += 1;
                    if let Some(Frame {
                        kind: FrameKind::Block { decls },
                        ..
                    }) = frames.last_mut()
                    {
                        decls.push(Decl {
                            kind,
                            span: raw.span,
                        });
                    }
                }
                Line::EndBlock { name } => {
                    self.pos += 1;
                    self.close_block(&mut frames, &mut unit, name, &raw);
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

    /// Gives ids to the statements a statement's parse made inside it (the jumps of an
    /// assigned GO TO's IF chain).
    fn number_nested(&mut self, s: &mut Stmt) {
        for block in crate::il::visit::child_blocks_mut(s) {
            for inner in block.iter_mut() {
                if inner.id == StmtId::GENERATED {
                    inner.id = self.new_id();
                }
                self.number_nested(inner);
            }
        }
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
            label: label.map(Into::into),
            trailing_comment: comment.map(Into::into),
        }
    }

    fn error(&mut self, code: &'static str, msg: String, span: Span) {
        self.diags.push(Diagnostic::error(code, msg).at(span));
    }
}
