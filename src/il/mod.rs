//! The intermediate language (IL): one abstract imperative language for every source
//! language (seeds/000 §3, §5.1).
//!
//! Front-ends lower their parse trees into these types; analyses and differentiation read
//! and build them; back-ends print them. Nothing here is specific to one source language.
//!
//! Invariants:
//! - The IL keeps what a reader needs: declaration order, comments (as [`StmtKind::Comment`]
//!   and [`DeclKind::Comment`]), the spelling of names and of literal constants.
//! - Names are compared through [`key`], without case (C marks capitals: [`names::cased`]).
//! - After lowering, every array element reference is [`ExprKind::Index`], every call of an
//!   intrinsic is [`ExprKind::Intrinsic`] and every call of a user function is
//!   [`ExprKind::Call`]; each unit's [`SymbolTable`] knows every name its body uses.
//! - Statement ids are unique within a [`Program`] for statements that came from sources;
//!   statements created by transformations carry [`StmtId::GENERATED`].

pub mod calls;
pub mod directive;
pub mod fold;
pub mod heap_globals;
pub mod intrinsic;
pub mod lifetime;
pub mod names;
pub mod storage;
pub mod structured;
pub mod symbols;
pub mod tape;
pub mod types;
pub mod visit;
pub mod writes;

pub use calls::{Pass, bind_actuals, signature, work_array_parts};
pub use intrinsic::{Intrinsic, PassiveIntrinsic, ScalarResult};
pub use symbols::{GlobalRef, Intent, Symbol, SymbolKind, SymbolTable};
pub use tape::{Tape, TapeOp, TapeType};
pub use types::{Association, BaseType, ScalarType, TypeSpec};

use std::collections::BTreeMap;

use crate::diag::{FileId, Span};

/// The lower-case form under which a name is looked up.
pub fn key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// [`key`] for a lookup: the name itself when it is already lower case (no allocation).
pub fn key_ref(name: &str) -> std::borrow::Cow<'_, str> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(name.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

/// Identity of a statement that came from a source file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StmtId(pub u32);

impl StmtId {
    pub const GENERATED: StmtId = StmtId(u32::MAX);
}

/// A whole run's input: every source file, lowered.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub files: Vec<File>,
}

impl Program {
    /// Every unit of every file, in file then source order.
    pub fn units(&self) -> impl Iterator<Item = &Unit> {
        self.files.iter().flat_map(|f| f.units.iter())
    }
    /// Every subroutine and function (modules left out), in file then source order.
    pub fn procedures(&self) -> impl Iterator<Item = &Unit> {
        self.units().filter(|u| u.is_procedure())
    }
    /// The procedure named `name` (case-insensitive), if any source defines it.
    pub fn unit(&self, name: &str) -> Option<&Unit> {
        self.procedures()
            .find(|u| u.name.eq_ignore_ascii_case(name))
    }
    /// An index of the procedures by name, for passes that look many up: what
    /// [`Program::unit`] finds, in time logarithmic in the program's size.
    pub fn index(&self) -> UnitIndex<'_> {
        let mut by_key = BTreeMap::new();
        for u in self.procedures() {
            by_key.entry(key(&u.name)).or_insert(u);
        }
        UnitIndex {
            program: self,
            by_key,
            names: Default::default(),
        }
    }
    /// The module named `name` (case-insensitive).
    pub fn module(&self, name: &str) -> Option<&Unit> {
        self.units()
            .find(|u| u.is_module() && u.name.eq_ignore_ascii_case(name))
    }
}

/// The procedures of a [`Program`] by name (see [`Program::index`]).
#[derive(Clone, Debug)]
pub struct UnitIndex<'p> {
    program: &'p Program,
    by_key: BTreeMap<String, &'p Unit>,
    /// Found at the first call of [`UnitIndex::names`].
    names: std::sync::OnceLock<std::sync::Arc<std::collections::BTreeSet<String>>>,
}

impl<'p> UnitIndex<'p> {
    /// The procedure named `name` (case-insensitive), as [`Program::unit`] finds it.
    pub fn unit(&self, name: &str) -> Option<&'p Unit> {
        self.by_key.get(key_ref(name).as_ref()).copied()
    }
    /// The keys of every unit's name, modules included: the names no generated local
    /// may take (for [`names::Namer::with_shared`]).
    pub fn names(&self) -> &std::sync::Arc<std::collections::BTreeSet<String>> {
        self.names.get_or_init(|| {
            names::Namer::shared_keys(self.program.units().map(|u| u.name.as_str()))
        })
    }
}

/// One source file (or one generated file).
#[derive(Clone, Debug)]
pub struct File {
    pub file: FileId,
    /// Path as given in the manifest's source list (relative, `/`-separated).
    pub path: String,
    /// The language the file is written in, set by the front-end that lowered it; the
    /// back-end that prints it is chosen by it.
    pub language: Language,
    pub units: Vec<Unit>,
    /// What its front-end said of it without refusing it (warnings, W-codes), for the
    /// run's warnings; empty for generated files.
    pub warnings: Vec<crate::diag::Diagnostic>,
}

/// The source language of a [`File`]. Stages between the front-ends and the back-ends
/// never test it: they ask the properties below, which say what differs for them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    Fortran,
    C,
}

impl Language {
    /// The file is its own module: its globals and types belong to a pseudo-module unit
    /// whose PRIVATE variables are visible in the file only (C's `static`), so a
    /// generated file can neither use nor re-export them.
    pub fn file_is_module(self) -> bool {
        self == Language::C
    }
    /// A call needs a declaration of what it calls, with its parameter types (C
    /// prototypes): generated code can declare only procedures adgen has a unit for.
    pub fn calls_need_prototypes(self) -> bool {
        self == Language::C
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnitKind {
    Subroutine,
    Function,
    /// A module: its declarations are global variables, constants and the interfaces of
    /// its procedures (seeds/000 §4.2). Its procedures are the units that follow it in
    /// the same file with `host` naming it; its `body` is empty.
    Module,
}

/// A procedure: subroutine or function.
#[derive(Clone, Debug)]
pub struct Unit {
    pub kind: UnitKind,
    pub name: String,
    /// Dummy argument names, in order.
    pub args: Vec<String>,
    /// For functions: the name of the result variable (the RESULT name, or the function's
    /// own name when there is no RESULT clause).
    pub result: Option<String>,
    /// True when the source wrote `RESULT(r)`; the back-end reproduces it.
    pub explicit_result: bool,
    /// Type given in the function header (`real(8) function f(x)`), if any.
    pub prefix_type: Option<TypeSpec>,
    /// Comment lines just before the unit header.
    pub leading_comments: Vec<String>,
    pub decls: Vec<Decl>,
    pub body: Vec<Stmt>,
    pub symbols: SymbolTable,
    pub span: Span,
    /// For a module procedure: the module that contains it (it sees the module's names
    /// by host association). Units of one module follow the module in their file.
    pub host: Option<String>,
    /// `BIND(C)` on the header: the procedure is callable from C (and a unit of another
    /// language calls it) under its binding name.
    pub bind: Option<BindC>,
    /// `RECURSIVE` in the header (recursion is analysed on the call graph's cycles).
    pub recursive: bool,
    /// Calls this unit writes other than by the specific's name: through a generic name
    /// (`norm(x)` for the specific `norm_vec`) or a type-bound procedure (`call
    /// m%advance(dt)` for `advance_model(m, dt)`): key of the specific → how the source
    /// wrote it. The IL calls the specific (analyses and derivatives need it); the
    /// back-end prints the primal's calls as the source wrote them.
    pub source_calls: std::collections::BTreeMap<String, SourceCall>,
    /// Constructs of this procedure that adgen does not support (E04xx), found while
    /// reading it: reported only if a root reaches the procedure (`prepare::reached`),
    /// so one unsupported line in an uncalled procedure blocks no root.
    pub deferred: Vec<crate::diag::Diagnostic>,
    /// For a module: the refusals of declarations in its specification part, with the
    /// names they declare (a derived type with allocatable components, a COMPLEX
    /// constant). Only a procedure a root reaches that uses one of those names (or a
    /// type containing one) is blocked by it.
    pub deferred_entities: Vec<(Vec<String>, crate::diag::Diagnostic)>,
    /// For a procedure: the modules' POINTER variables (keys) its statements used,
    /// which the front-end wrote as uses of their targets
    /// (`front::fortran::pointers::module`). A refusal of such a pointer blocks it,
    /// though it no longer names the pointer.
    pub followed_pointers: Vec<String>,
    /// For an internal procedure (after CONTAINS in a procedure): its host procedure.
    /// The front-end lifts it out of the host: the host variables it uses became extra
    /// dummy arguments, appended after its own, and every call passes them, so that it
    /// is an ordinary procedure for the analyses. Derivative code that calls it gets its
    /// own copy (it has no name outside its host in the original program).
    pub internal_of: Option<String>,
    /// `ELEMENTAL` in the header: its calls with array arguments apply it element by
    /// element (`prepare::scalarize` writes the loops). Its derivatives are ordinary
    /// procedures, called once per element.
    pub elemental: bool,
    /// A copy of a procedure specialized to the procedures passed for its procedure
    /// dummies (`prepare::specialize`).
    pub specialization: Option<Specialization>,
    /// Known by its interface alone (a black box, a C function declared by prototype):
    /// generated code declares it and links to the user's, never defines it.
    pub external: bool,
}

/// What a specialized copy ([`Unit::specialization`]) stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct Specialization {
    /// The procedure it is a copy of.
    pub original: String,
    /// (position among the original's dummies, procedure) for each dummy it no longer
    /// has. Derivative code calls its primal as the original, with the procedures put
    /// back.
    pub bound: Vec<(usize, String)>,
    /// The original is a PRIVATE procedure of another module than the copy's
    /// (`prepare::relocate`): it cannot be called where the copy's derivatives are,
    /// which carry the copy's primal instead (`diff::private_copies`).
    pub lent: bool,
}

/// `BIND(C [, NAME="..."])` of a procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindC {
    /// The NAME= string as written; `None` when absent (the binding name is then the
    /// procedure's name in lower case).
    pub name: Option<String>,
}

impl BindC {
    /// The name a C unit knows the procedure by.
    pub fn binding_name(&self, unit_name: &str) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| unit_name.to_ascii_lowercase())
    }
}

impl Unit {
    /// Whether this module keeps `name` PRIVATE: by an attribute, a PRIVATE/PUBLIC
    /// list, or its default.
    pub fn is_private(&self, name: &str) -> bool {
        let k = key(name);
        let mut default_private = false;
        for d in &self.decls {
            match &d.kind {
                DeclKind::Access { public, names } if names.is_empty() => default_private = !public,
                DeclKind::Access { public, names } if names.iter().any(|n| key(n) == k) => {
                    return !public;
                }
                DeclKind::Var {
                    attrs, entities, ..
                } if entities.iter().any(|e| key(&e.name) == k) => {
                    if attrs.iter().any(|a| matches!(a, Attr::Private)) {
                        return true;
                    }
                    if attrs.iter().any(|a| matches!(a, Attr::Public)) {
                        return false;
                    }
                }
                _ => {}
            }
        }
        default_private
    }

    /// A procedure known by its interface alone: its dummies (and result) declared by
    /// `decls` and `symbols`, no body; every other field empty. A black box adgen has no
    /// source for, or a C function called by prototype.
    pub fn declaration(
        name: &str,
        args: Vec<String>,
        result: Option<String>,
        decls: Vec<Decl>,
        symbols: SymbolTable,
        span: Span,
    ) -> Unit {
        Unit {
            kind: if result.is_some() {
                UnitKind::Function
            } else {
                UnitKind::Subroutine
            },
            name: name.to_string(),
            args,
            result,
            explicit_result: false,
            prefix_type: None,
            leading_comments: Vec::new(),
            decls,
            body: Vec::new(),
            symbols,
            span,
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
            external: true,
        }
    }

    /// The value `name` is given where it is declared: the initializer of its entity
    /// (`real, parameter :: pi = 3.14`, `integer :: n = 5`) or its PARAMETER statement.
    pub fn initial_value(&self, name: &str) -> Option<&Expr> {
        self.decls.iter().find_map(|d| match &d.kind {
            DeclKind::Var { entities, .. } => entities
                .iter()
                .find(|e| key(&e.name) == key(name))
                .and_then(|e| e.init.as_ref()),
            DeclKind::Parameter(list) => list
                .iter()
                .find(|(n, _)| key(n) == key(name))
                .map(|(_, e)| e),
            _ => None,
        })
    }

    /// Is the variable `name` declared OPTIONAL?
    pub fn is_optional(&self, name: &str) -> bool {
        self.decls.iter().any(|d| match &d.kind {
            DeclKind::Var {
                attrs, entities, ..
            } => {
                attrs.iter().any(|a| matches!(a, Attr::Optional))
                    && entities.iter().any(|e| e.name.eq_ignore_ascii_case(name))
            }
            _ => false,
        })
    }
    pub fn is_function(&self) -> bool {
        self.kind == UnitKind::Function
    }
    pub fn is_module(&self) -> bool {
        self.kind == UnitKind::Module
    }
    /// A subroutine or function (not a module).
    pub fn is_procedure(&self) -> bool {
        self.kind != UnitKind::Module
    }

    /// The stand-in of a procedure a front-end could not lower: no body, only its
    /// refusals (`deferred`), said when a root reaches it.
    pub fn is_stand_in(&self) -> bool {
        self.is_procedure() && self.body.is_empty() && !self.deferred.is_empty()
    }
}

/// A declaration statement, kept in source order for the output.
#[derive(Clone, Debug)]
pub struct Decl {
    pub kind: DeclKind,
    pub span: Span,
}

/// How the source wrote a call the IL makes to a specific procedure
/// (`Unit::source_calls`).
#[derive(Clone, Debug)]
pub enum SourceCall {
    /// Through a generic name, as this unit spells it.
    Generic(String),
    /// Through a type-bound procedure: `object%binding(...)`, the object being the
    /// argument at `pass`, or, for a NOPASS binding, `object`.
    Bound {
        binding: String,
        pass: Option<usize>,
        object: Option<Expr>,
    },
}

/// A binding of a type-bound procedure part (`PROCEDURE :: advance => advance_model`),
/// or another statement of it (FINAL, PRIVATE), printed back as `text`.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// The binding name (empty for a FINAL or PRIVATE statement).
    pub name: String,
    /// The procedure it names, for a specific binding.
    pub specific: Option<String>,
    /// For a GENERIC binding (`name` is then the generic spec: `norm`, `operator(+)`,
    /// `assignment(=)`): the specific bindings it lists, as written.
    pub generic: Vec<String>,
    pub pass: BindingPass,
    /// The statement as the source wrote it.
    pub text: String,
    pub span: Span,
}

/// Which argument of the specific a binding passes the object as.
#[derive(Clone, Debug, PartialEq)]
pub enum BindingPass {
    /// The first (the default, PASS without a name).
    First,
    /// PASS(name).
    Named(String),
    /// NOPASS.
    NoPass,
}

#[derive(Clone, Debug)]
pub enum DeclKind {
    /// `USE module [, ONLY: names]`, with renames `local => remote` (in the ONLY list or
    /// after the module name). `only` lists local names.
    Use {
        module: String,
        only: Option<Vec<String>>,
        renames: Vec<(String, String)>,
    },
    /// `IMPLICIT NONE` when the list is empty, else the rules.
    Implicit(Vec<ImplicitRule>),
    /// A type declaration: `real(8), intent(in) :: x(n), y`.
    Var {
        spec: TypeSpec,
        attrs: Vec<Attr>,
        entities: Vec<Entity>,
    },
    /// `PARAMETER (n = 10, m = 2*n)`.
    Parameter(Vec<(String, Expr)>),
    /// `DIMENSION a(n), b(10)`.
    Dimension(Vec<Entity>),
    /// `INTENT(IN) a, b` as a statement.
    Intent(Intent, Vec<String>),
    /// `EXTERNAL f, g`.
    External(Vec<String>),
    /// `PROCEDURE(iface) [, attrs] :: f, g`: procedures (procedure arguments, mostly)
    /// whose interface is the abstract interface or procedure `interface`; as EXTERNAL,
    /// typed as the interface's result.
    Procedure {
        interface: String,
        attrs: Vec<Attr>,
        names: Vec<String>,
    },
    /// `INTRINSIC sin`.
    Intrinsic(Vec<String>),
    /// `TYPE name ... END TYPE`: a derived type; its components are type declarations.
    /// `header` is the user header that defines it, as an `#include` spells it (a C
    /// struct declared in `model.h`): code that declares the type for the user's own
    /// files includes that header rather than defining the type again.
    TypeDef {
        name: String,
        components: Vec<Decl>,
        header: Option<String>,
        /// The type-bound procedure part, after CONTAINS.
        bindings: Vec<Binding>,
    },
    /// `PRIVATE` / `PUBLIC` in a module, for the listed names or (empty list) the
    /// module's default.
    Access { public: bool, names: Vec<String> },
    /// A whole comment line among the declarations (text after the comment marker).
    Comment(String),
    /// `INTERFACE ... END INTERFACE`: the interface bodies (units with declarations and
    /// no body) of procedures defined elsewhere, such as C functions called through
    /// `BIND(C)`.
    Interface(Vec<Unit>),
    /// `IMPORT [[::] names]` in an interface body: host names it sees (all when empty).
    Import(Vec<String>),
    /// `ABSTRACT INTERFACE ... END INTERFACE`: the interfaces of procedures passed as
    /// arguments (`PROCEDURE(func) :: f`), kept for output.
    AbstractInterface(Vec<Unit>),
    /// `INTERFACE name ... END INTERFACE`: a generic name for the specific procedures it
    /// lists, module procedures (`MODULE PROCEDURE a, b`, `PROCEDURE :: a`) and external
    /// ones given by interface bodies. `sema` resolves each call of the generic name to
    /// one specific by the types, kinds and ranks of its arguments.
    Generic {
        name: String,
        procedures: Vec<String>,
        bodies: Vec<Unit>,
    },
    /// `COMMON /block/ a, b(10), c /other/ d` (block `None` for blank COMMON): storage shared
    /// between units by position. Its variables are globals of the units that declare
    /// them (their symbols' `global` module is `/block/`, or `//` for blank COMMON).
    Common(Vec<(Option<String>, Vec<Entity>)>),
    /// `DATA objects /values/, ...`: initial values (which imply SAVE), kept as text.
    Data(Vec<DataSet>),
    /// `EQUIVALENCE (a(3), x), (b, c)`: each set lists references (variables, or array
    /// elements with constant subscripts) that share their first storage unit. The
    /// variables of a set are one zone of the analyses.
    Equivalence(Vec<Vec<Expr>>),
    /// `SAVE a, /block/` (an empty list saves every local).
    Save(Vec<String>),
    /// `NAMELIST /group/ a, b /other/ c`: each group with its variables, as written. A
    /// READ or WRITE with `NML=group` sets or reads those variables.
    Namelist(Vec<(String, Vec<String>)>),
    /// A statement function `f(x, y) = expr`: inlined before differentiation.
    StmtFunction {
        name: String,
        args: Vec<String>,
        body: Expr,
    },
}

/// One `objects /values/` pair of a DATA statement, as written (implied DOs and repeat
/// counts included), with the variables it initializes.
#[derive(Clone, Debug)]
pub struct DataSet {
    pub objects: String,
    pub values: String,
    pub names: Vec<String>,
}

/// The block name under which the variables of a COMMON are globals: `/name/`, or `//`
/// for blank COMMON.
pub fn common_global_module(block: Option<&str>) -> String {
    format!("/{}/", block.map(key).unwrap_or_default())
}

#[derive(Clone, Debug)]
pub struct ImplicitRule {
    pub spec: TypeSpec,
    /// Inclusive letter ranges, lower case.
    pub ranges: Vec<(char, char)>,
}

#[derive(Clone, Debug)]
pub enum Attr {
    Intent(Intent),
    Parameter,
    Dimension(Vec<DimSpec>),
    External,
    Intrinsic,
    Save,
    /// Module accessibility.
    Public,
    Private,
    /// `ALLOCATABLE`: a deferred-shape array given its bounds by [`StmtKind::Allocate`].
    Allocatable,
    /// The dummy is passed by value (Fortran `VALUE`, every C scalar parameter). The
    /// adjoint of such a dummy is passed by reference (seeds/000 §4.5, seeds/003).
    Value,
    /// `OPTIONAL` (a C pointer parameter the function tests against `NULL`): the actual
    /// argument may be absent, which [`Intrinsic::Present`] tells. The derivative of an
    /// optional dummy is optional too, present exactly when its primal is.
    Optional,
    /// `TARGET` (Fortran): kept as written; adgen makes no pointer to it.
    Target,
    /// `POINTER` (Fortran): the Fortran front-end replaces a local pointer by its
    /// target (`front::fortran::pointers`); any other is refused where it is declared.
    Pointer,
    /// A rank-2 dummy of row pointers, each row its own memory (C `double **a`).
    RowPointers,
    /// On a module's integer variable that stands for a POINTER of that module which
    /// procedures associate with `=>` (`front::fortran::pointers::module`): its value is
    /// which of `candidates` (whole variables of the module, in order, from 1) the
    /// pointer is associated with, 0 for none. The IL reads and sets it like any
    /// integer; the back-end prints it as the pointer itself (a read as the target
    /// ASSOCIATED asks, a value set as `pointer => target`), so the original program and
    /// the derivatives share the one association.
    Association(Box<Association>),
}

/// One declared name with its own array spec and initial value.
#[derive(Clone, Debug)]
pub struct Entity {
    pub name: String,
    pub dims: Option<Vec<DimSpec>>,
    pub init: Option<Expr>,
    pub span: Span,
}

/// One dimension of an array declaration: `lower:upper`, lower defaulting to 1.
#[derive(Clone, Debug)]
pub struct DimSpec {
    pub lower: Option<Expr>,
    pub upper: Bound,
}

#[derive(Clone, Debug)]
pub enum Bound {
    Expr(Expr),
    /// Assumed size: `*`.
    Star,
    /// Assumed or deferred shape: nothing after the `:` (`a(:)`, `a(0:)`). The extent is
    /// the actual argument's (assumed shape) or the allocation's (deferred shape).
    Colon,
}

/// A statement. Blocks are plain `Vec<Stmt>`.
#[derive(Clone, Debug)]
pub struct Stmt {
    pub id: StmtId,
    pub kind: StmtKind,
    pub span: Span,
    /// A numeric statement label, as written.
    pub label: Option<Box<str>>,
    /// A comment on the same line, after the statement.
    pub trailing_comment: Option<Box<str>>,
}

impl StmtKind {
    /// EXIT, CYCLE, RETURN or a GO TO of any form: the statement may leave the block it
    /// is in.
    pub fn is_jump(&self) -> bool {
        matches!(
            self,
            StmtKind::Exit { .. }
                | StmtKind::Cycle { .. }
                | StmtKind::Return
                | StmtKind::Goto { .. }
                | StmtKind::ComputedGoto { .. }
                | StmtKind::ArithmeticIf { .. }
        )
    }
}

impl Stmt {
    /// An input statement: one that sets variables other than implied-DO indices (READ,
    /// INQUIRE, or a specifier such as IOSTAT=). Derivative code cannot run it twice.
    pub fn is_input(&self) -> bool {
        let StmtKind::Io { text, writes, .. } = &self.kind else {
            return false;
        };
        if writes.is_empty() {
            return false;
        }
        let lower = text.to_ascii_lowercase();
        let word: String = lower
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        matches!(word.as_str(), "read" | "inquire")
            || ["iostat", "iomsg", "size"].iter().any(|k| {
                lower
                    .match_indices(k)
                    .any(|(i, _)| lower[i + k.len()..].trim_start().starts_with('='))
            })
    }

    /// A statement made by a transformation.
    pub fn generated(kind: StmtKind) -> Stmt {
        Stmt {
            id: StmtId::GENERATED,
            kind,
            span: Span::default(),
            label: None,
            trailing_comment: None,
        }
    }
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Assign {
        lhs: Expr,
        rhs: Expr,
    },
    /// `IF (c1) THEN ... ELSE IF (c2) THEN ... ELSE ... END IF`; a logical IF
    /// (`IF (c) stmt`) has one arm with one statement and `logical_if` set.
    If {
        arms: Vec<(Expr, Vec<Stmt>)>,
        else_body: Option<Vec<Stmt>>,
        logical_if: bool,
        name: Option<String>,
    },
    /// Counted loop `DO var = start, end [, step]`.
    Do {
        var: String,
        start: Box<Expr>,
        end: Box<Expr>,
        step: Option<Box<Expr>>,
        body: Vec<Stmt>,
        name: Option<String>,
    },
    /// `DO WHILE (cond)`.
    DoWhile {
        cond: Expr,
        body: Vec<Stmt>,
        name: Option<String>,
    },
    /// Leave the innermost (or the named) loop.
    Exit {
        name: Option<String>,
    },
    /// Next iteration of the innermost (or the named) loop.
    Cycle {
        name: Option<String>,
    },
    Call {
        name: String,
        args: Vec<Arg>,
    },
    /// A push, pop or look of the adjoint's tape (generated code only).
    Tape(Tape),
    Return,
    Continue,
    /// Jump to the statement carrying `label`. Front-ends of the skeleton produce none;
    /// the adjoint uses it to leave its forward sweep on an early return.
    Goto {
        label: String,
    },
    /// A whole comment line (text after the comment marker).
    Comment(String),
    /// `GO TO (l1, l2, ...), index`: jump to the index-th label, fall through when
    /// `index` is out of range. Restructured before differentiation (`prepare::restructure`).
    ComputedGoto {
        labels: Vec<String>,
        index: Expr,
    },
    /// Arithmetic IF `IF (expr) l1, l2, l3`: jump to `labels[0]`, `[1]` or `[2]` when
    /// `expr` is negative, zero or positive. Restructured before differentiation.
    ArithmeticIf {
        expr: Expr,
        labels: [String; 3],
    },
    /// `SELECT CASE (selector)`: the first case whose values match runs; the case with
    /// no values (`CASE DEFAULT`) runs when none does. Lowered to IF before
    /// differentiation.
    Select {
        selector: Expr,
        cases: Vec<Case>,
        name: Option<String>,
    },
    /// `WHERE (m1) ... ELSEWHERE (m2) ... ELSEWHERE ... END WHERE` over array
    /// assignments; the statement form `WHERE (m) a = b` has one arm holding one
    /// assignment and `construct` unset. `prepare::scalarize` rewrites it into loops.
    Where {
        arms: Vec<(Expr, Vec<Stmt>)>,
        else_body: Option<Vec<Stmt>>,
        construct: bool,
    },
    /// An input/output or program-control statement kept as written (Fortran PRINT,
    /// WRITE, READ, OPEN, CLOSE, REWIND, FORMAT, STOP): `text` is the whole statement,
    /// `reads` the expressions it evaluates, `writes` the variables it overwrites (a
    /// READ's list), `stops` set when it ends the program. Never differentiated: the
    /// derivative code keeps it where the primal runs (tangent, adjoint's forward sweep).
    Io {
        text: String,
        reads: Vec<Expr>,
        writes: Vec<Expr>,
        stops: bool,
    },
    /// `FORALL (i = l:u[:s], ... [, mask])` (statement or construct) and, with
    /// `concurrent` set, `DO CONCURRENT (...) ... END DO`. `prepare::scalarize` rewrites it
    /// into DO loops.
    /// `ALLOCATE(a(n), b(0:m))`: each item an array reference giving the bounds.
    Allocate(Vec<Expr>),
    /// `DEALLOCATE(a, b)`.
    Deallocate(Vec<Expr>),
    Forall {
        indices: Vec<ForallIndex>,
        mask: Option<Expr>,
        body: Vec<Stmt>,
        construct: bool,
        concurrent: bool,
        name: Option<String>,
    },
}

/// One `CASE (...)` of a SELECT CASE: `values` empty for `CASE DEFAULT`.
#[derive(Clone, Debug)]
pub struct Case {
    pub values: Vec<CaseValue>,
    pub body: Vec<Stmt>,
    /// A comment on the CASE line.
    pub comment: Option<String>,
    pub span: Span,
}

/// One value of a CASE selector: `v`, `lo:`, `:hi` or `lo:hi`.
#[derive(Clone, Debug)]
pub enum CaseValue {
    Single(Expr),
    Range(Option<Expr>, Option<Expr>),
}

/// One index of a FORALL or DO CONCURRENT header: `var = lower:upper[:stride]`.
#[derive(Clone, Debug)]
pub struct ForallIndex {
    pub var: String,
    pub lower: Expr,
    pub upper: Expr,
    pub stride: Option<Expr>,
}

/// An actual argument, optionally given by keyword.
#[derive(Clone, Debug)]
pub struct Arg {
    pub keyword: Option<String>,
    pub value: Expr,
}

impl Arg {
    pub fn positional(value: Expr) -> Arg {
        Arg {
            keyword: None,
            value,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::default(),
        }
    }
    pub fn var(name: impl Into<String>) -> Expr {
        Expr::new(ExprKind::Var(name.into()))
    }
    pub fn int(value: i64) -> Expr {
        Expr::new(ExprKind::Int(value.to_string()))
    }
    /// A real constant of the given kind (bytes), printed by each back-end in its syntax.
    pub fn real(value: &str, kind: u8) -> Expr {
        Expr::new(ExprKind::Real(RealLit {
            value: value.to_string(),
            kind,
            spelling: None,
        }))
    }
    pub fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)))
    }
    pub fn unary(op: UnOp, operand: Expr) -> Expr {
        Expr::new(ExprKind::Unary(op, Box::new(operand)))
    }
    pub fn intrinsic(op: Intrinsic, args: Vec<Expr>) -> Expr {
        Expr::new(ExprKind::Intrinsic {
            op,
            args: args.into_iter().map(Arg::positional).collect(),
            spelling: None,
        })
    }
    /// The variable an lvalue designates (`x` for `x` and for `x(i, j)`).
    pub fn base_name(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Var(n) | ExprKind::Index(n, _) => Some(n),
            ExprKind::Paren(inner) | ExprKind::Substring { base: inner, .. } => inner.base_name(),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// Integer literal as written (digits, optional kind suffix).
    Int(String),
    Real(RealLit),
    Logical(bool),
    Str(String),
    Var(String),
    /// Array element `a(i, j)`.
    Index(String, Vec<Expr>),
    /// Call of a user function.
    Call(String, Vec<Arg>),
    /// Call of an intrinsic; `spelling` keeps the source's name (`DSQRT`) when it differs
    /// from the back-end's default.
    Intrinsic {
        op: Intrinsic,
        args: Vec<Arg>,
        spelling: Option<Box<str>>,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Paren(Box<Expr>),
    /// A subscript triplet `lower:upper:stride`, each part optional; only as a subscript
    /// of [`ExprKind::Index`], which then designates an array section.
    Range {
        lower: Option<Box<Expr>>,
        upper: Option<Box<Expr>>,
        stride: Option<Box<Expr>>,
    },
    /// An array constructor `[a, b, c]` of scalar items (rank 1); an item may be an
    /// [`ExprKind::ImpliedDo`].
    ArrayCtor(Vec<Expr>),
    /// An implied DO `(items, var = lower, upper [, stride])`, only as an item of an
    /// [`ExprKind::ArrayCtor`] (or of another implied DO).
    ImpliedDo(Box<ImpliedDo>),
    /// A character substring `base(lower:upper)`, either bound optional; `base` is a
    /// character variable or element (`task`, `names(k)`). Passive, like all character
    /// data; a designator, so it may be assigned.
    Substring {
        base: Box<Expr>,
        lower: Option<Box<Expr>>,
        upper: Option<Box<Expr>>,
    },
}

/// The loop of an [`ExprKind::ImpliedDo`]: `var` runs from `lower` to `upper` by `stride`
/// and each trip gives `items` in order. `var` is an integer variable of the unit, whose
/// own value the implied DO does not change (F2018 19.4).
#[derive(Clone, Debug)]
pub struct ImpliedDo {
    pub items: Vec<Expr>,
    pub var: String,
    pub lower: Expr,
    pub upper: Expr,
    pub stride: Option<Expr>,
}

impl ImpliedDo {
    /// The sub-expressions: the items, then the bounds.
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        self.items
            .iter()
            .chain([&self.lower, &self.upper])
            .chain(self.stride.as_ref())
    }
    pub fn exprs_mut(&mut self) -> impl Iterator<Item = &mut Expr> {
        self.items
            .iter_mut()
            .chain([&mut self.lower, &mut self.upper])
            .chain(self.stride.as_mut())
    }
}

/// A real literal: `value` in plain decimal/exponent form with `e` (`"2.5"`, `"1e-3"`),
/// `kind` its size in bytes (4 or 8), `spelling` the source text when it came from one.
#[derive(Clone, Debug)]
pub struct RealLit {
    pub value: String,
    pub kind: u8,
    pub spelling: Option<Box<str>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Eqv,
    Neqv,
    Concat,
}

impl BinOp {
    pub fn is_arithmetic(self) -> bool {
        matches!(
            self,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Pow
        )
    }
}

#[cfg(test)]
mod size_tests {
    /// Statements and expressions are most of adgen's memory on a large input (issue 16):
    /// a variant that grows them (an inline `Expr` where a `Box` would do) shows here.
    #[test]
    fn statements_and_expressions_stay_small() {
        assert!(std::mem::size_of::<super::Expr>() <= 72);
        assert!(std::mem::size_of::<super::Stmt>() <= 200);
    }
}
