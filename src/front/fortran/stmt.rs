//! Classifying and parsing one statement into a [`Line`]: a unit header or END, a
//! declaration, an action statement, or one line of a block construct (IF/DO headers,
//! ELSE, END IF, END DO). Block structure is assembled by `unit.rs`.

mod actions;
mod control;
mod labels;
pub use labels::{check_labels, jump_targets, normalize_label};

use super::cursor::{Cursor, PResult};
use super::decl;
use super::expr::{parse_args, parse_expr};
use super::lexer::{RawStmt, TokKind};
use crate::diag::{Diagnostic, FileId, Span};
use crate::il::{
    CaseValue, DeclKind, Expr, ExprKind, ForallIndex, Stmt, StmtKind, TypeSpec, UnitKind,
};

/// A SUBROUTINE or FUNCTION statement.
#[derive(Clone, Debug)]
pub struct Header {
    pub kind: UnitKind,
    pub name: String,
    pub args: Vec<(String, Span)>,
    pub result: Option<String>,
    pub prefix_type: Option<TypeSpec>,
    /// `BIND(C [, NAME="..."])` after the arguments.
    pub bind: Option<crate::il::BindC>,
    /// `RECURSIVE` among the prefixes.
    pub recursive: bool,
    pub elemental: bool,
}

#[derive(Clone, Debug)]
pub enum Line {
    /// A statement with a lexing error, already reported.
    Broken,
    Header(Header),
    /// PROGRAM, SUBMODULE, BLOCK DATA: a unit kind not supported yet.
    OtherUnit(&'static str),
    /// `MODULE name`.
    Module(String),
    /// `TYPE [, attributes ::] name`: opens a derived-type definition.
    TypeDef(String),
    Interface,
    Contains,
    /// `END`, `END SUBROUTINE [name]`, `END FUNCTION [name]`.
    EndUnit {
        kind: Option<UnitKind>,
        name: Option<(String, Span)>,
    },
    /// `END PROGRAM`, `END MODULE`, `END INTERFACE`, ... (never matches an open unit).
    EndOther(String),
    Decl(DeclKind),
    Action(StmtKind),
    LogicalIf {
        cond: Expr,
        inner: StmtKind,
        inner_span: Span,
    },
    IfThen {
        cond: Expr,
        name: Option<String>,
    },
    ElseIf {
        cond: Expr,
        name: Option<String>,
    },
    Else {
        name: Option<String>,
    },
    EndIf {
        name: Option<String>,
    },
    /// `[name:] BLOCK`: a BLOCK construct, its own declarations first.
    BlockStart {
        name: Option<String>,
    },
    /// `END BLOCK [name]`.
    EndBlock {
        name: Option<String>,
    },
    Do {
        var: String,
        start: Expr,
        end: Expr,
        step: Option<Expr>,
        name: Option<String>,
        end_label: Option<String>,
    },
    DoWhile {
        cond: Expr,
        name: Option<String>,
        end_label: Option<String>,
    },
    EndDo {
        name: Option<String>,
    },
    /// `[name:] SELECT CASE (selector)`.
    SelectCase {
        selector: Expr,
        name: Option<String>,
    },
    /// `CASE (values) [name]`; `values` empty for `CASE DEFAULT`.
    Case {
        values: Vec<CaseValue>,
        name: Option<String>,
    },
    EndSelect {
        name: Option<String>,
    },
    /// `WHERE (mask) assignment`.
    WhereStmt {
        mask: Expr,
        inner: StmtKind,
        inner_span: Span,
    },
    /// `WHERE (mask)` opening a construct.
    Where {
        mask: Expr,
    },
    /// `ELSEWHERE [(mask)]`.
    ElseWhere {
        mask: Option<Expr>,
    },
    EndWhere,
    /// `FORALL (...) assignment` (`inner` set) or the opening of a FORALL construct;
    /// `DO CONCURRENT (...)` opens a construct closed by END DO.
    Forall {
        indices: Vec<ForallIndex>,
        mask: Option<Expr>,
        inner: Option<(StmtKind, Span)>,
        concurrent: bool,
        name: Option<String>,
    },
    EndForall {
        name: Option<String>,
    },
}

/// Statement keywords that are valid Fortran but not supported yet.
const UNSUPPORTED: &[&str] = &[
    "error",
    "pause",
    "entry",
    "include",
    "sequence",
    "allocatable",
    "pointer",
    "target",
    "optional",
    "value",
    "volatile",
    "associate",
    "endassociate",
    "sync",
    "procedure",
    "enum",
];

fn unsupported_statement(word: &str, span: Span) -> Diagnostic {
    let shown = match word.to_ascii_lowercase().as_str() {
        "go" => "GO TO".to_string(),
        "select" | "selectcase" | "case" | "endselect" => "SELECT CASE".to_string(),
        _ => word.to_ascii_uppercase(),
    };
    let help = match shown.as_str() {
        "GO TO" | "GOTO" => "rewrite the jump with IF, DO, EXIT or CYCLE",
        "SELECT CASE" => "rewrite it as IF / ELSE IF / ELSE",
        "PRINT" | "WRITE" | "READ" | "OPEN" | "CLOSE" | "FORMAT" | "INQUIRE" | "REWIND"
        | "BACKSPACE" | "ENDFILE" | "FLUSH" => {
            "move input/output out of the code to differentiate, into the caller"
        }
        "SAVE" => "use the SAVE attribute in a type declaration instead",
        "INCLUDE" => {
            "the front-end reads one file at a time and cannot open included files yet: paste the included text in its place"
        }
        _ => "rewrite this part with the supported statements (assignment, IF, DO, CALL)",
    };
    Diagnostic::error(
        "E0401",
        format!("unsupported statement: {shown} is not supported yet"),
    )
    .at(span)
    .with_help(help)
}

/// Index of the first top-level `=` (not inside parentheses), if the statement has the
/// shape `name [ (...) ] = ...`.
fn assignment_shape(c: &Cursor) -> bool {
    if c.ident_at(0).is_none() {
        return false;
    }
    match c.nth(1) {
        Some(TokKind::Assign) => true,
        Some(TokKind::LParen) => match c.matching_paren(c.pos + 1) {
            Some(close) => {
                let after = c.toks.get(close + 1).map(|t| &t.kind);
                let keyword = c.ident_at(0).is_some_and(|w| {
                    let w = w.to_ascii_lowercase();
                    UNSUPPORTED.contains(&w.as_str())
                        || super::io::IO_KEYWORDS.contains(&w.as_str())
                });
                match after {
                    Some(TokKind::Assign | TokKind::Percent) => true,
                    // `a(i)(1:2) = ...`, but not `write(*,*) (x(i), i=1,n)`.
                    Some(TokKind::LParen) => !keyword,
                    _ => false,
                }
            }
            None => false,
        },
        Some(TokKind::Percent) => true,
        _ => false,
    }
}

/// `p => target`, `s%p => t`, `p(1:n) => t`: the pointer's name.
fn pointer_assignment(c: &Cursor) -> Option<String> {
    let name = c.ident_at(0)?.to_string();
    let mut i = c.pos + 1;
    loop {
        match c.toks.get(i).map(|t| &t.kind) {
            Some(TokKind::Arrow) => return Some(name),
            Some(TokKind::LParen) => i = c.matching_paren(i)? + 1,
            Some(TokKind::Percent) => i += 2,
            _ => return None,
        }
    }
}

pub struct StmtParser<'a> {
    pub src: &'a str,
    /// The texts of the files INCLUDE lines brought in (spans of their statements
    /// point into them).
    pub included: Vec<(FileId, String)>,
    /// Errors of statements that were still understood (a declaration with a refused
    /// attribute declares its names all the same); the file's parser collects them.
    pub refused: std::cell::RefCell<Vec<Diagnostic>>,
    /// Names declared with a refused POINTER attribute: their pointer assignments are
    /// part of the same refusal.
    pub pointers: std::cell::RefCell<Vec<String>>,
    /// The spans of the pointers on the left of `p => target` statements: the
    /// assignments `front::fortran::pointers` takes for associations.
    pub pointer_assignments: std::cell::RefCell<std::collections::BTreeSet<Span>>,
    /// Those of them whose pointer this file does not declare: `pointers` refuses
    /// them unless the pointer is a module's it follows.
    pub foreign_assignments: std::cell::RefCell<std::collections::BTreeSet<Span>>,
    /// The NAMELIST groups the file declared so far (key → variables): a READ or WRITE
    /// with `NML=` sets or reads them.
    pub namelists: std::cell::RefCell<std::collections::BTreeMap<String, Vec<String>>>,
    /// `allocate(w, source=x)` and `allocate(w, mold=x)`, parsed as `allocate(w)`: by the
    /// span of the item `w`, whether it copies (SOURCE=) and the array `x`, which
    /// `front::fortran::allocate_source` turns into bounds (and an assignment).
    pub sourced: std::cell::RefCell<std::collections::BTreeMap<Span, (bool, Expr)>>,
    /// `allocate(w(n), stat=ierr)` and DEALLOCATE alike, parsed without the STAT=: by
    /// the span of the first item, the variable, which `allocate_source::expand_status`
    /// sets to zero after the statement.
    pub status: std::cell::RefCell<std::collections::BTreeMap<Span, Expr>>,
}

impl StmtParser<'_> {
    /// `p => target`: an assignment the unit's pointer pass recognizes by its left
    /// side's span (`pointers`), and replaces or follows; a pointer another file
    /// declares (a module's) is marked foreign too, refused there unless followed.
    /// `x => null()` of a pointer the file does not declare (a module's, a dummy's, a
    /// component `s%x`) is its NULLIFY, which `pointers` and `sema` follow where the
    /// pointer is read as ALLOCATABLE.
    fn pointer_assignment(&self, c: &mut Cursor, name: String) -> PResult<StmtKind> {
        let word_span = c.here();
        let declared = self
            .pointers
            .borrow()
            .iter()
            .any(|p| p.eq_ignore_ascii_case(&name));
        let start = c.pos;
        if !declared
            && let Ok(lhs) = parse_expr(c)
            && matches!(lhs.kind, crate::il::ExprKind::Var(_))
            && c.eat(&TokKind::Arrow)
            && c.eat_kw("null")
            && c.eat(&TokKind::LParen)
            && c.eat(&TokKind::RParen)
            && c.at_end()
        {
            return Ok(StmtKind::Call {
                name: "nullify".to_string(),
                args: vec![crate::il::Arg::positional(lhs)],
            });
        }
        c.pos = start;
        if c.nth(1) != Some(&TokKind::Arrow) {
            return Err(super::pointers::foreign_association(&name, word_span));
        }
        c.bump();
        c.bump();
        let target = parse_expr(c)?;
        c.expect_end()?;
        self.pointer_assignments.borrow_mut().insert(word_span);
        if !declared {
            self.foreign_assignments.borrow_mut().insert(word_span);
        }
        Ok(StmtKind::Assign {
            lhs: Expr {
                kind: crate::il::ExprKind::Var(name),
                span: word_span,
            },
            rhs: target,
        })
    }

    /// The text that spans of `file` index: the file's own or an included one.
    pub fn source_of(&self, file: FileId) -> &str {
        self.included
            .iter()
            .find(|(id, _)| *id == file)
            .map(|(_, text)| text.as_str())
            .unwrap_or(self.src)
    }

    pub fn classify(&self, raw: &RawStmt) -> PResult<Line> {
        if raw.toks.iter().any(|t| t.kind == TokKind::Error) {
            return Ok(Line::Broken);
        }
        let file = raw.span.file;
        let mut c = Cursor::new(&raw.toks, self.source_of(file), file);
        self.line(&mut c)
    }

    /// Appends to `decls` what a statement with a syntax error still declares
    /// ([`super::salvage::salvaged_declaration`]).
    pub fn salvage_into(&self, raw: &RawStmt, decls: &mut Vec<crate::il::Decl>) {
        if let Some(kind) = super::salvage::salvaged_declaration(raw, self.source_of(raw.span.file))
        {
            decls.push(crate::il::Decl {
                kind,
                span: raw.span,
            });
        }
    }

    fn line(&self, c: &mut Cursor) -> PResult<Line> {
        // Construct name: `name: do ...`.
        let mut construct = None;
        if c.ident_at(0).is_some() && c.nth(1) == Some(&TokKind::Colon) {
            construct = c.ident_at(0).map(str::to_string);
            c.pos += 2;
        }
        if construct.is_none()
            && let Some(name) = pointer_assignment(c)
        {
            return self.pointer_assignment(c, name).map(Line::Action);
        }
        if construct.is_none() && assignment_shape(c) {
            return Ok(Line::Action(self.assignment(c)?));
        }
        let Some(word) = c.ident_at(0) else {
            return Err(c.expected("a statement"));
        };
        let word_span = c.here();
        let lower = word.to_ascii_lowercase();
        if let Some(name) = &construct
            && !matches!(
                lower.as_str(),
                "do" | "dowhile" | "if" | "select" | "selectcase" | "forall"
            )
        {
            if lower == "block" && c.nth(1).is_none() {
                c.bump();
                return Ok(Line::BlockStart {
                    name: Some(name.clone()),
                });
            }
            if matches!(lower.as_str(), "block" | "associate") {
                return Err(unsupported_statement(&lower, word_span));
            }
            return Err(c.expected(&format!("DO or IF after the construct name `{name}:`")));
        }
        if let Some(header) = self.try_header(c)? {
            return Ok(Line::Header(header));
        }
        if decl::at_type_spec(c) {
            let mut refused = Vec::new();
            let mut pointers = Vec::new();
            let decl = decl::parse_type_decl(c, &mut refused, &mut pointers)?;
            self.refused.borrow_mut().extend(refused);
            self.pointers.borrow_mut().extend(pointers);
            return Ok(Line::Decl(decl));
        }
        c.bump();
        let line = match lower.as_str() {
            // `PROCEDURE(iface) [, attrs] :: f`: a procedure passed as an argument, typed
            // by its interface. What is refused in it (a procedure pointer) leaves its
            // names declared, so that their calls raise no false "not declared".
            "procedure" if c.is(&TokKind::LParen) => {
                let mut refused = Vec::new();
                let decl = decl::parse_procedure_decl(c, &mut refused)?;
                self.refused.borrow_mut().extend(refused);
                Line::Decl(decl)
            }
            // `ERROR STOP [code]`: kept as written, like STOP.
            "error" if c.is_kw("stop") => {
                let start = c.pos - 1;
                c.bump();
                Line::Action(super::io::parse_io(
                    c,
                    "stop",
                    start,
                    &self.namelists.borrow(),
                )?)
            }
            "import" if c.at_end() => Line::Decl(DeclKind::Import(Vec::new())),
            "import" => Line::Decl(DeclKind::Import(decl::parse_name_list(c)?)),
            "implicit" => Line::Decl(decl::parse_implicit(c)?),
            "parameter" => Line::Decl(decl::parse_parameter_stmt(c)?),
            "dimension" => Line::Decl(decl::parse_dimension_stmt(c)?),
            "intent" => Line::Decl(decl::parse_intent_stmt(c)?),
            "external" => Line::Decl(DeclKind::External(decl::parse_name_list(c)?)),
            "intrinsic" => Line::Decl(DeclKind::Intrinsic(decl::parse_name_list(c)?)),
            w if super::io::IO_KEYWORDS.contains(&w) => Line::Action(super::io::parse_io(
                c,
                w,
                c.pos - 1,
                &self.namelists.borrow(),
            )?),
            "common" => Line::Decl(decl::parse_common(c)?),
            "data" => Line::Decl(decl::parse_data(c)?),
            "equivalence" => Line::Decl(decl::parse_equivalence(c)?),
            "save" => Line::Decl(decl::parse_save(c)?),
            "namelist" => {
                let decl = decl::parse_namelist(c)?;
                if let DeclKind::Namelist(groups) = &decl {
                    self.namelists.borrow_mut().extend(
                        groups
                            .iter()
                            .map(|(g, names)| (crate::il::key(g), names.clone())),
                    );
                }
                Line::Decl(decl)
            }
            "program" => Line::OtherUnit("PROGRAM"),
            "module" if c.is_kw("procedure") => {
                return Err(unsupported_statement("module procedure", word_span));
            }
            "module" => {
                let (name, _) = c.expect_ident("the module's name")?;
                c.expect_end()?;
                Line::Module(name)
            }
            "use" => Line::Decl(decl::parse_use(c)?),
            "private" => Line::Decl(decl::parse_access(c, false)?),
            "public" => Line::Decl(decl::parse_access(c, true)?),
            "submodule" => Line::OtherUnit("SUBMODULE"),
            "blockdata" => Line::OtherUnit("BLOCK DATA"),
            "block" if c.is_kw("data") => Line::OtherUnit("BLOCK DATA"),
            "block" if c.at_end() => Line::BlockStart { name: None },
            "endblock" => Line::EndBlock {
                name: self.opt_name(c)?,
            },
            "interface" => Line::Interface,
            "abstract" if c.is_kw("interface") => Line::Interface,
            "contains" => {
                c.expect_end()?;
                Line::Contains
            }
            "type" => {
                // `type, public :: name` / `type :: name` / `type name`.
                while c.eat(&TokKind::Comma) {
                    let (attr, span) = c.expect_ident("a type attribute")?;
                    if !matches!(attr.to_ascii_lowercase().as_str(), "public" | "private") {
                        // EXTENDS names its parent: a CLASS(parent) dummy elsewhere may
                        // then hold this type (`polymorphic_across_files`).
                        let mut shown = attr.to_ascii_uppercase();
                        if attr.eq_ignore_ascii_case("extends")
                            && c.eat(&TokKind::LParen)
                            && let Ok((parent, _)) = c.expect_ident("the parent type")
                        {
                            shown = format!("{shown}({parent})");
                        }
                        return Err(Diagnostic::error(
                            "E0405",
                            format!("the type attribute {shown} is not supported yet"),
                        )
                        .at(span)
                        .with_help("remove it; adgen handles plain derived types"));
                    }
                }
                c.eat(&TokKind::DoubleColon);
                let (name, _) = c.expect_ident("the type's name")?;
                if c.is(&TokKind::LParen) {
                    return Err(Diagnostic::error(
                        "E0405",
                        "parameterized derived types are not supported yet",
                    )
                    .at(c.here()));
                }
                c.expect_end()?;
                Line::TypeDef(name)
            }
            "if" => self.if_stmt(c, construct)?,
            "elseif" => self.else_if(c)?,
            "else" if c.is_kw("where") => {
                c.bump();
                let mask = if c.is(&TokKind::LParen) {
                    Some(self.paren_cond(c, "ELSE WHERE")?)
                } else {
                    None
                };
                c.expect_end()?;
                Line::ElseWhere { mask }
            }
            "else" => {
                if c.eat_kw("if") {
                    self.else_if(c)?
                } else {
                    let name = self.opt_name(c)?;
                    Line::Else { name }
                }
            }
            "endif" => Line::EndIf {
                name: self.opt_name(c)?,
            },
            "enddo" => Line::EndDo {
                name: self.opt_name(c)?,
            },
            "do" if c.is_kw("concurrent") => {
                c.bump();
                let (indices, mask) = self.forall_header(c)?;
                c.expect_end()?;
                Line::Forall {
                    indices,
                    mask,
                    inner: None,
                    concurrent: true,
                    name: construct,
                }
            }
            "do" => self.do_stmt(c, construct)?,
            "go" if c.is_kw("to") => {
                c.bump();
                Line::Action(self.goto(c, word_span)?)
            }
            "goto" => Line::Action(self.goto(c, word_span)?),
            "assign" => Line::Action(self.assign_label(c)?),
            "select" if c.is_kw("case") => {
                c.bump();
                self.select(c, construct)?
            }
            "selectcase" => self.select(c, construct)?,
            // SELECT TYPE (and SELECT RANK): one refusal, its inside skipped.
            "select" if c.is_kw("type") || c.is_kw("rank") => {
                let what = if c.is_kw("type") {
                    "SELECT TYPE"
                } else {
                    "SELECT RANK"
                };
                return Err(Diagnostic::error(
                    "E0401",
                    format!("unsupported statement: {what} is not supported yet"),
                )
                .at(word_span)
                .with_help("give each case its own procedure, called where the type is known"));
            }
            "case" => self.case(c)?,
            "endselect" => Line::EndSelect {
                name: self.opt_name(c)?,
            },
            "where" => self.where_stmt(c)?,
            "elsewhere" => {
                let mask = if c.is(&TokKind::LParen) {
                    Some(self.paren_cond(c, "ELSEWHERE")?)
                } else {
                    None
                };
                c.expect_end()?;
                Line::ElseWhere { mask }
            }
            "endwhere" => {
                c.expect_end()?;
                Line::EndWhere
            }
            "endforall" => Line::EndForall {
                name: self.opt_name(c)?,
            },
            "forall" => {
                let (indices, mask) = self.forall_header(c)?;
                let inner = if c.at_end() {
                    None
                } else {
                    Some(self.nested_assignment(c, "FORALL")?)
                };
                Line::Forall {
                    indices,
                    mask,
                    inner,
                    concurrent: false,
                    name: construct,
                }
            }
            // Fixed form ignores blanks, so libraries also write `DOWHILE (...)`.
            "dowhile" if c.is(&TokKind::LParen) => {
                let cond = self.paren_cond(c, "DO WHILE")?;
                c.expect_end()?;
                Line::DoWhile {
                    cond,
                    name: construct,
                    end_label: None,
                }
            }
            "end" => self.end_stmt(c)?,
            "endsubroutine" => self.end_unit_name(c, Some(UnitKind::Subroutine))?,
            "endfunction" => self.end_unit_name(c, Some(UnitKind::Function))?,
            "endprogram" | "endmodule" | "endinterface" | "endtype" | "endsubmodule"
            | "endblockdata" => Line::EndOther(lower[3..].to_ascii_uppercase()),
            _ => {
                if let Some(kind) = self.action_keyword(c, &lower)? {
                    return Ok(Line::Action(kind));
                }
                if UNSUPPORTED.contains(&lower.as_str()) {
                    return Err(unsupported_statement(&lower, word_span));
                }
                return Err(Diagnostic::error(
                    "E0202",
                    format!("expected a statement, found `{word}`"),
                )
                .at(word_span)
                .with_help("adgen did not recognise this statement; check its spelling"));
            }
        };
        Ok(line)
    }

    fn opt_name(&self, c: &mut Cursor) -> PResult<Option<String>> {
        let name = match c.ident_at(0) {
            Some(n) => {
                let n = n.to_string();
                c.bump();
                Some(n)
            }
            None => None,
        };
        c.expect_end()?;
        Ok(name)
    }

    fn end_stmt(&self, c: &mut Cursor) -> PResult<Line> {
        let Some(word) = c.ident_at(0) else {
            c.expect_end()?;
            return Ok(Line::EndUnit {
                kind: None,
                name: None,
            });
        };
        let lower = word.to_ascii_lowercase();
        c.bump();
        match lower.as_str() {
            "do" => Ok(Line::EndDo {
                name: self.opt_name(c)?,
            }),
            "if" => Ok(Line::EndIf {
                name: self.opt_name(c)?,
            }),
            "select" => Ok(Line::EndSelect {
                name: self.opt_name(c)?,
            }),
            "subroutine" => self.end_unit_name(c, Some(UnitKind::Subroutine)),
            "function" => self.end_unit_name(c, Some(UnitKind::Function)),
            "where" => {
                c.expect_end()?;
                Ok(Line::EndWhere)
            }
            "forall" => Ok(Line::EndForall {
                name: self.opt_name(c)?,
            }),
            "program" | "module" | "interface" | "type" | "submodule" | "associate" | "enum" => {
                Ok(Line::EndOther(lower.to_ascii_uppercase()))
            }
            "block" if c.is_kw("data") => Ok(Line::EndOther("BLOCK DATA".to_string())),
            "block" => Ok(Line::EndBlock {
                name: self.opt_name(c)?,
            }),
            _ => {
                c.pos -= 1;
                Err(c
                    .expected("the end of the statement, DO, IF, SUBROUTINE or FUNCTION after END"))
            }
        }
    }

    fn end_unit_name(&self, c: &mut Cursor, kind: Option<UnitKind>) -> PResult<Line> {
        let name = match c.ident_at(0) {
            Some(n) => {
                let span = c.here();
                let n = n.to_string();
                c.bump();
                Some((n, span))
            }
            None => None,
        };
        c.expect_end()?;
        Ok(Line::EndUnit { kind, name })
    }

    /// `[prefix...] SUBROUTINE name [(args)]` or `[prefix...] FUNCTION name (args)
    /// [RESULT(r)]`. Returns None (cursor unmoved) when the statement is not a header.
    pub fn try_header(&self, c: &mut Cursor) -> PResult<Option<Header>> {
        let start = c.pos;
        let mut prefix_type = None;
        let mut recursive = false;
        let mut elemental = false;
        loop {
            let Some(word) = c.ident_at(0) else {
                c.pos = start;
                return Ok(None);
            };
            let lower = word.to_ascii_lowercase();
            match lower.as_str() {
                "subroutine" | "function" => break,
                "pure" | "impure" => {
                    c.bump();
                }
                "recursive" if self.header_follows(c) => {
                    recursive = true;
                    c.bump();
                }
                "elemental" if self.header_follows(c) => {
                    elemental = true;
                    c.bump();
                }
                "module" if self.header_follows(c) => {
                    return Err(Diagnostic::error(
                        "E0406",
                        format!(
                            "{} procedures are not supported yet",
                            lower.to_ascii_uppercase()
                        ),
                    )
                    .at(c.here())
                    .with_help("remove the prefix if the procedure does not need it"));
                }
                _ if decl::at_type_spec(c) && prefix_type.is_none() => {
                    let save = c.pos;
                    match decl::parse_type_spec(c, false) {
                        Ok(spec) => prefix_type = Some(spec),
                        Err(_) => {
                            c.pos = save;
                            break;
                        }
                    }
                }
                _ => {
                    c.pos = start;
                    return Ok(None);
                }
            }
        }
        let kind = if c.eat_kw("subroutine") {
            UnitKind::Subroutine
        } else if c.eat_kw("function") {
            UnitKind::Function
        } else {
            c.pos = start;
            return Ok(None);
        };
        if kind == UnitKind::Subroutine && prefix_type.is_some() {
            return Err(
                Diagnostic::error("E0202", "a SUBROUTINE cannot have a type")
                    .at(c.span_from(c.toks[start].span.lo)),
            );
        }
        let (name, _) = c.expect_ident("the procedure's name")?;
        let mut args = Vec::new();
        if c.eat(&TokKind::LParen) {
            if !c.eat(&TokKind::RParen) {
                loop {
                    if c.is(&TokKind::Star) {
                        return Err(Diagnostic::error(
                            "E0404",
                            "alternate return arguments (`*`) are not supported yet",
                        )
                        .at(c.here()));
                    }
                    args.push(c.expect_ident("a dummy argument name")?);
                    if c.eat(&TokKind::Comma) {
                        continue;
                    }
                    c.expect(&TokKind::RParen, "`,` or `)` in the argument list")?;
                    break;
                }
            }
        } else if kind == UnitKind::Function {
            return Err(c.expected("`(` and the function's arguments"));
        }
        let mut result = None;
        let mut bind = None;
        loop {
            if c.eat_kw("result") {
                c.expect(&TokKind::LParen, "`(` after RESULT")?;
                result = Some(c.expect_ident("the result variable's name")?.0);
                c.expect(&TokKind::RParen, "`)` after the result name")?;
            } else if c.is_kw("bind") && bind.is_none() {
                bind = Some(parse_bind_c(c)?);
            } else {
                break;
            }
        }
        c.expect_end()?;
        Ok(Some(Header {
            kind,
            name,
            args,
            result,
            prefix_type,
            bind,
            recursive,
            elemental,
        }))
    }

    /// After a prefix keyword: does SUBROUTINE or FUNCTION come later in the statement?
    fn header_follows(&self, c: &Cursor) -> bool {
        c.toks[c.pos..].iter().any(|t| {
            matches!(&t.kind, TokKind::Ident(w)
                if w.eq_ignore_ascii_case("subroutine") || w.eq_ignore_ascii_case("function"))
        }) && !c
            .nth(1)
            .is_some_and(|k| k == &TokKind::Ident("procedure".into()))
    }

    fn assignment(&self, c: &mut Cursor) -> PResult<StmtKind> {
        let lhs_lo = c.lo();
        let lhs = parse_expr(c)?;
        if !matches!(lhs.kind, ExprKind::Var(_) | ExprKind::Call(..)) {
            return Err(Diagnostic::error(
                "E0202",
                "expected a variable or array element on the left of `=`",
            )
            .at(c.span_from(lhs_lo)));
        }
        c.expect(&TokKind::Assign, "`=` in the assignment")?;
        let rhs = parse_expr(c)?;
        c.expect_end()?;
        Ok(StmtKind::Assign { lhs, rhs })
    }
}

/// `f(x, y) = expr` before the first executable statement, where `f` is not declared as
/// an array and the arguments are distinct names: a statement function.
pub fn statement_function(kind: &StmtKind, decls: &[crate::il::Decl]) -> Option<DeclKind> {
    let StmtKind::Assign { lhs, rhs } = kind else {
        return None;
    };
    let ExprKind::Call(name, args) = &lhs.kind else {
        return None;
    };
    let mut names: Vec<String> = Vec::new();
    for a in args {
        match (&a.keyword, &a.value.kind) {
            (None, ExprKind::Var(n)) if !names.iter().any(|m| m.eq_ignore_ascii_case(n)) => {
                names.push(n.clone())
            }
            _ => return None,
        }
    }
    let k = name.to_ascii_lowercase();
    let is_array = decls.iter().any(|d| match &d.kind {
        DeclKind::Var {
            attrs, entities, ..
        } => entities.iter().any(|e| {
            e.name.eq_ignore_ascii_case(&k)
                && (e.dims.is_some()
                    || attrs
                        .iter()
                        .any(|a| matches!(a, crate::il::Attr::Dimension(_))))
        }),
        DeclKind::Dimension(entities) => entities.iter().any(|e| e.name.eq_ignore_ascii_case(&k)),
        _ => false,
    });
    if is_array {
        return None;
    }
    Some(DeclKind::StmtFunction {
        name: name.clone(),
        args: names,
        body: rhs.clone(),
    })
}

/// The statement's words, lower case, after an optional construct name.
fn leading_words(raw: &RawStmt) -> (Vec<String>, usize) {
    let toks = &raw.toks;
    let start = match (toks.first().map(|t| &t.kind), toks.get(1).map(|t| &t.kind)) {
        (Some(TokKind::Ident(_)), Some(TokKind::Colon)) => 2,
        _ => 0,
    };
    let words = toks[start.min(toks.len())..]
        .iter()
        .take(2)
        .map(|t| match &t.kind {
            TokKind::Ident(w) => w.to_ascii_lowercase(),
            _ => String::new(),
        })
        .collect();
    (words, start)
}

/// Whether `raw` opens a SELECT construct of any kind (CASE, TYPE, RANK): an END SELECT
/// inside a skipped SELECT TYPE may close one of those.
pub fn opens_select(raw: &RawStmt) -> bool {
    let (words, _) = leading_words(raw);
    match words.as_slice() {
        [first, ..] if first == "selectcase" => true,
        [first, second] => first == "select" && matches!(second.as_str(), "case" | "type" | "rank"),
        _ => false,
    }
}

/// If `raw` opens a block construct adgen does not support (ASSOCIATE, a derived TYPE
/// definition, ENUM), the word its END repeats.
pub fn unsupported_construct(raw: &RawStmt) -> Option<&'static str> {
    let (words, start) = leading_words(raw);
    let first = words.first()?.as_str();
    let toks = &raw.toks[start..];
    match first {
        "associate" => Some("associate"),
        "select" if words.get(1).is_some_and(|w| w == "type" || w == "rank") => Some("select"),
        "type" if toks.get(1).map(|t| &t.kind) != Some(&TokKind::LParen) => Some("type"),
        "enum" => Some("enum"),
        _ => None,
    }
}

/// Whether `raw` is `END <what>` (or `END<what>`).
pub fn is_end_of(raw: &RawStmt, what: &str) -> bool {
    let (words, _) = leading_words(raw);
    match words.as_slice() {
        [first, rest @ ..] if first == "end" => rest.first().is_some_and(|w| w == what),
        [first, ..] => first.strip_prefix("end") == Some(what),
        _ => false,
    }
}

/// Whether the statement has the shape of a SUBROUTINE or FUNCTION header (used to
/// skip a whole unit whose header was refused).
pub fn looks_like_header(raw: &RawStmt) -> bool {
    raw.toks
        .windows(2)
        .any(|pair| match (&pair[0].kind, &pair[1].kind) {
            (TokKind::Ident(w), TokKind::Ident(_)) => {
                w.eq_ignore_ascii_case("subroutine") || w.eq_ignore_ascii_case("function")
            }
            _ => false,
        })
}

/// `BIND(C [, NAME="name"])`; the cursor at BIND.
fn parse_bind_c(c: &mut Cursor) -> PResult<crate::il::BindC> {
    c.bump();
    c.expect(&TokKind::LParen, "`(` after BIND")?;
    let (lang, span) = c.expect_ident("`C`")?;
    if !lang.eq_ignore_ascii_case("c") {
        return Err(
            Diagnostic::error("E0406", "only BIND(C) is a language binding")
                .at(span)
                .with_help("write BIND(C) or BIND(C, NAME=\"...\")"),
        );
    }
    let mut name = None;
    if c.eat(&TokKind::Comma) {
        let (word, span) = c.expect_ident("NAME=")?;
        if !word.eq_ignore_ascii_case("name") {
            return Err(Diagnostic::error("E0406", "expected NAME= in BIND(C, ...)").at(span));
        }
        c.expect(&TokKind::Assign, "`=` after NAME")?;
        let at = c.here();
        match c.peek() {
            Some(TokKind::Str(s)) => {
                let s = s.trim().to_string();
                c.bump();
                let valid = s
                    .chars()
                    .next()
                    .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
                    && s.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
                if !valid {
                    return Err(Diagnostic::error(
                        "E0406",
                        format!("`{s}` is not a C identifier adgen can bind to"),
                    )
                    .at(at));
                }
                name = Some(s);
            }
            _ => return Err(c.expected("a character constant with the C name")),
        }
    }
    c.expect(&TokKind::RParen, "`)` after BIND(C")?;
    Ok(crate::il::BindC { name })
}
