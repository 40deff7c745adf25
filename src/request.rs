//! What one run is asked to do and the files it is handed and writes: the plain data
//! every stage of the pipeline may read (roots, modes, options), below all of them.

use std::collections::BTreeSet;

/// A differentiation mode.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    Tangent,
    Adjoint,
}

impl Mode {
    /// Suffix of derivative procedures (`f_d`, `f_b`), INTERFACE.md §3.
    pub fn unit_suffix(self) -> &'static str {
        match self {
            Mode::Tangent => "_d",
            Mode::Adjoint => "_b",
        }
    }
    /// Suffix of derivative variables (`xd`, `xb`).
    pub fn var_suffix(self) -> &'static str {
        match self {
            Mode::Tangent => "d",
            Mode::Adjoint => "b",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Mode::Tangent => "tangent",
            Mode::Adjoint => "adjoint",
        }
    }
}

/// One procedure to differentiate, with what varies and what is wanted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRequest {
    pub name: String,
    pub independents: Vec<String>,
    pub dependents: Vec<String>,
    pub modes: BTreeSet<Mode>,
    /// Where the manifest names this root, for diagnostics: (path, line, col).
    pub origin: Option<(String, usize, usize)>,
    /// Where the manifest gives each entry of `independents` and `dependents`, for
    /// diagnostics about one of them: (is a dependent, name, (path, line, col)).
    pub entry_origins: Vec<(bool, String, (String, usize, usize))>,
}

impl RootRequest {
    /// Where the manifest gives independent (or dependent) `name`, else where it names
    /// the root.
    pub fn entry_origin(&self, dependent: bool, name: &str) -> Option<&(String, usize, usize)> {
        self.entry_origins
            .iter()
            .find(|(d, n, _)| *d == dependent && n == name)
            .map(|(_, _, origin)| origin)
            .or(self.origin.as_ref())
    }
}

/// The extent of an assumed-size array argument (C `double *y`, Fortran `y(*)`), which
/// adgen must know to zero or save the array or its derivative: the manifest's
/// `[sizes.PROCEDURE]` table, `ARGUMENT = "EXPRESSION"` (Tapenade's DIFFSIZES).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeHint {
    pub procedure: String,
    pub argument: String,
    /// The number of elements of the assumed-size dimension (the last in Fortran); the
    /// number of rows of an array of row pointers.
    pub size: SizeExpr,
    /// For an array of row pointers (C `double **a`, `a = ["n", "m"]`): the length of
    /// each row.
    pub row_length: Option<SizeExpr>,
    /// Where the manifest gives it, for diagnostics: (path, line, col).
    pub origin: Option<(String, usize, usize)>,
}

/// A size expression: integer literals, the procedure's integer arguments and constants,
/// elements of its integer array arguments (`ia(n+1) - 1`, the number of nonzeros of a
/// compressed-row matrix, indexed as the source language indexes), `+ - * /` and
/// parentheses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeExpr {
    Int(i64),
    Name(String),
    Binary(char, Box<SizeExpr>, Box<SizeExpr>),
    /// `ia(n+1)` (Fortran) or `ia[n]` (C): one element of an integer array argument.
    Element(String, Box<SizeExpr>),
}

impl SizeExpr {
    /// Parses `n*m + 2`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<SizeExpr, String> {
        let tokens = size_tokens(text)?;
        let mut pos = 0;
        let e = size_binary(&tokens, &mut pos, 0, 0)?;
        match tokens.get(pos) {
            None => Ok(e),
            Some(t) => Err(format!("unexpected `{t}`")),
        }
    }
    /// The scalar names it reads, in order.
    pub fn names(&self) -> Vec<&str> {
        match self {
            SizeExpr::Int(_) => Vec::new(),
            SizeExpr::Name(n) => vec![n.as_str()],
            SizeExpr::Binary(_, a, b) => {
                let mut v = a.names();
                v.extend(b.names());
                v
            }
            SizeExpr::Element(_, i) => i.names(),
        }
    }
    /// The arrays whose elements it reads, in order.
    pub fn arrays(&self) -> Vec<&str> {
        match self {
            SizeExpr::Int(_) | SizeExpr::Name(_) => Vec::new(),
            SizeExpr::Binary(_, a, b) => {
                let mut v = a.arrays();
                v.extend(b.arrays());
                v
            }
            SizeExpr::Element(n, i) => {
                let mut v = vec![n.as_str()];
                v.extend(i.arrays());
                v
            }
        }
    }
}

fn size_tokens(text: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let mut word = String::new();
            while let Some(&c) = chars
                .peek()
                .filter(|c| c.is_ascii_alphanumeric() || **c == '_')
            {
                word.push(c);
                chars.next();
            }
            tokens.push(word);
        } else if "+-*/()[]".contains(c) {
            tokens.push(c.to_string());
            chars.next();
        } else {
            return Err(format!(
                "`{c}` is not allowed (integers, names, elements, + - * / and parentheses)"
            ));
        }
    }
    if tokens.is_empty() {
        return Err("it is empty".into());
    }
    Ok(tokens)
}

/// Nested parentheses allowed in a size (the manifest is no place for deep expressions).
const MAX_SIZE_NESTING: usize = 32;

/// Binary operators by precedence level, loosest first.
const SIZE_LEVELS: [&str; 2] = ["+-", "*/"];

/// Left-associative operators of `SIZE_LEVELS[level]` and tighter ones.
fn size_binary(
    t: &[String],
    pos: &mut usize,
    depth: usize,
    level: usize,
) -> Result<SizeExpr, String> {
    let operand = |pos: &mut usize| {
        if level + 1 < SIZE_LEVELS.len() {
            size_binary(t, pos, depth, level + 1)
        } else {
            size_atom(t, pos, depth)
        }
    };
    let mut e = operand(pos)?;
    while let Some(op) = t.get(*pos).and_then(|s| {
        s.chars()
            .next()
            .filter(|c| s.len() == 1 && SIZE_LEVELS[level].contains(*c))
    }) {
        *pos += 1;
        let rhs = operand(pos)?;
        e = SizeExpr::Binary(op, Box::new(e), Box::new(rhs));
    }
    Ok(e)
}

fn size_atom(t: &[String], pos: &mut usize, depth: usize) -> Result<SizeExpr, String> {
    let Some(tok) = t.get(*pos) else {
        return Err("it ends where a number or a name is expected".into());
    };
    *pos += 1;
    if tok == "(" {
        if depth >= MAX_SIZE_NESTING {
            return Err(format!("more than {MAX_SIZE_NESTING} nested parentheses"));
        }
        let e = size_binary(t, pos, depth + 1, 0)?;
        return match t.get(*pos) {
            Some(c) if c == ")" => {
                *pos += 1;
                Ok(e)
            }
            _ => Err("a `(` is not closed".into()),
        };
    }
    let first = tok.chars().next().unwrap_or(' ');
    if first.is_ascii_digit() {
        return tok
            .parse::<i64>()
            .map(SizeExpr::Int)
            .map_err(|_| format!("`{tok}` is not an integer"));
    }
    if first.is_ascii_alphabetic() || first == '_' {
        // An element: `ia(n+1)`, `ia[n]`.
        let close = match t.get(*pos).map(String::as_str) {
            Some("(") => ")",
            Some("[") => "]",
            _ => return Ok(SizeExpr::Name(tok.clone())),
        };
        if depth >= MAX_SIZE_NESTING {
            return Err(format!("more than {MAX_SIZE_NESTING} nested parentheses"));
        }
        *pos += 1;
        let index = size_binary(t, pos, depth + 1, 0)?;
        return match t.get(*pos) {
            Some(c) if c == close => {
                *pos += 1;
                Ok(SizeExpr::Element(tok.clone(), Box::new(index)))
            }
            _ => Err(format!(
                "the subscript of `{tok}` is not closed by `{close}`"
            )),
        };
    }
    Err(format!("unexpected `{tok}`"))
}

/// Everything adgen is asked to do in one run.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub roots: Vec<RootRequest>,
    /// Sizes of assumed-size array arguments (`[sizes.PROCEDURE]`).
    pub sizes: Vec<SizeHint>,
    /// Procedures differentiated by hand (`[black-box.PROCEDURE]`).
    pub black_boxes: Vec<BlackBox>,
    /// Joint mode (checkpoint every call) when true, the default.
    pub checkpoint_calls: bool,
    /// Optimizations switched off (`disable = [...]`), by name.
    pub disabled: BTreeSet<String>,
    /// How derivative names are formed (INTERFACE.md §3 by default).
    pub naming: Naming,
    /// How derivative files are laid out in the output directory.
    pub layout: OutputLayout,
    /// Warnings about options the request's maker accepted but that have no effect yet
    /// (`max-directions` without vector modes): reported with the run's own warnings.
    pub option_warnings: Vec<crate::diag::Diagnostic>,
}

/// Where the derivative files go inside the output directory, and how many there are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum OutputLayout {
    /// One file per source and mode, under the source's relative path
    /// (`src/heat.f90` → `src/heat_d.f90`): `adgen diff`.
    #[default]
    PerSource,
    /// One file per source and mode, all in the output directory itself
    /// (`heat_d.f90`): Tapenade's layout.
    Flat,
    /// One file per mode and language, named after this name like a procedure
    /// (`all_d.f90`, `all_b.f90`): Tapenade's `-o NAME`. The units of several Fortran
    /// sources follow each other in compile order; several C sources cannot share one
    /// file yet (their file-scope declarations would clash), which the Tapenade front
    /// door refuses before asking.
    Single(String),
}

/// How the names of derivative procedures, variables and modules are formed from the
/// original's, per mode: INTERFACE.md §3 by default (`f_d`, `xd`, `m_d`), or what
/// Tapenade's `-tgtfuncname`, `-tgtvarname`, `-tgtmodulename` (and `-adj...`) options
/// give. In a pattern `%` stands for the original name; a pattern without `%` is a
/// suffix, as Tapenade reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naming {
    pub tangent: NamePatterns,
    pub adjoint: NamePatterns,
}

/// The patterns of one mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamePatterns {
    /// Derivative procedures (`%_d`).
    pub procedure: String,
    /// Derivative variables and arguments (`%d`).
    pub variable: String,
    /// Derivative modules, derived types, structs and COMMON blocks (`%_d`).
    pub module: String,
}

impl Default for Naming {
    fn default() -> Naming {
        let of = |mode: Mode| NamePatterns {
            procedure: format!("%{}", mode.unit_suffix()),
            variable: format!("%{}", mode.var_suffix()),
            module: format!("%{}", mode.unit_suffix()),
        };
        Naming {
            tangent: of(Mode::Tangent),
            adjoint: of(Mode::Adjoint),
        }
    }
}

impl Naming {
    fn patterns(&self, mode: Mode) -> &NamePatterns {
        match mode {
            Mode::Tangent => &self.tangent,
            Mode::Adjoint => &self.adjoint,
        }
    }
    /// The derivative procedure of `name` (before clashes are resolved).
    pub fn procedure(&self, mode: Mode, name: &str) -> String {
        apply_pattern(&self.patterns(mode).procedure, name)
    }
    /// The derivative variable of `name`.
    pub fn variable(&self, mode: Mode, name: &str) -> String {
        apply_pattern(&self.patterns(mode).variable, name)
    }
    /// The derivative module, type or COMMON block of `name`.
    pub fn module(&self, mode: Mode, name: &str) -> String {
        apply_pattern(&self.patterns(mode).module, name)
    }
    /// Whether a pattern makes a valid name out of every valid name: letters, digits and
    /// `_` around at most one `%`, something added to the name, and a letter first when
    /// the pattern adds a prefix.
    pub fn valid_pattern(pattern: &str) -> bool {
        let rest = pattern.replacen('%', "", 1);
        let starts = !pattern.contains('%')
            || pattern.starts_with('%')
            || pattern.starts_with(|c: char| c.is_ascii_alphabetic());
        starts && !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    }
}

fn apply_pattern(pattern: &str, name: &str) -> String {
    if pattern.contains('%') {
        pattern.replacen('%', name, 1)
    } else {
        format!("{name}{pattern}")
    }
}

/// A procedure whose derivatives the user writes (Tapenade's black-box library entries,
/// seeds/004 §6.2): adgen does not read or differentiate its body, which it may not have;
/// the analyses take its dependencies from here and derivative code calls the user's
/// derivatives, whose arguments are the procedure's with a derivative after each
/// argument named in `depends` (INTERFACE.md §1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlackBox {
    pub name: String,
    /// The dummy arguments in order.
    pub arguments: Vec<String>,
    /// Each argument the procedure may overwrite (or, for a function, its own name: the
    /// result) with the arguments its new value depends on differentiably. An argument
    /// not listed here is left as it was.
    pub depends: Vec<(String, Vec<String>)>,
    /// The user's tangent and adjoint, when not `NAME_d` and `NAME_b`.
    pub tangent: Option<String>,
    pub adjoint: Option<String>,
    /// Where the manifest gives it, for diagnostics: (path, line, col).
    pub origin: Option<(String, usize, usize)>,
}

impl BlackBox {
    /// The arguments that carry derivatives in the user's derivatives, by position: every
    /// one that `depends` names, as an output or as an input.
    pub fn differentiable(&self) -> Vec<bool> {
        self.arguments
            .iter()
            .map(|a| {
                self.depends.iter().any(|(out, ins)| {
                    out.eq_ignore_ascii_case(a) || ins.iter().any(|i| i.eq_ignore_ascii_case(a))
                })
            })
            .collect()
    }
    /// The derivatives depend on the result of the function named `name`.
    pub fn result_depends(&self) -> Option<&[String]> {
        self.depends
            .iter()
            .find(|(out, _)| out.eq_ignore_ascii_case(&self.name))
            .map(|(_, ins)| ins.as_slice())
    }
}

impl Request {
    /// The root request of procedure `name`, if it is a root.
    pub fn root(&self, name: &str) -> Option<&RootRequest> {
        self.roots
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
    }

    /// Some root asks for derivatives in `mode`.
    pub fn asks(&self, mode: Mode) -> bool {
        self.roots.iter().any(|r| r.modes.contains(&mode))
    }

    /// The black-box entry of procedure `name`.
    pub fn black_box(&self, name: &str) -> Option<&BlackBox> {
        self.black_boxes
            .iter()
            .find(|b| b.name.eq_ignore_ascii_case(name))
    }
}

/// One source file handed to [`crate::differentiate`].
#[derive(Clone, Debug)]
pub struct SourceInput {
    /// Path shown in diagnostics and used to name outputs (relative, `/`-separated).
    pub path: String,
    pub text: String,
    /// The directory holding the source on disk, searched first for its INCLUDE files
    /// (`None` for a source that exists only in memory).
    pub dir: Option<std::path::PathBuf>,
    /// Further directories searched for INCLUDE files (the manifest's `include-dirs`).
    pub include_dirs: Vec<std::path::PathBuf>,
    /// The last column of fixed-form statements (the manifest's `fixed-line-length`;
    /// `None`: 72, `usize::MAX`: no limit).
    pub fixed_line_length: Option<usize>,
    /// The manifest's `preprocess` and `defines`.
    pub preprocessor: Preprocessor,
}

/// How the C preprocessor reads the sources: the manifest's `preprocess = true` runs it
/// on every Fortran source, as gfortran's `-cpp` (else only on `.F`, `.F90`, `.fpp`,
/// ...), and `defines` are its `-D` options, for Fortran and C sources alike.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preprocessor {
    pub all: bool,
    /// `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
}

impl SourceInput {
    /// A source held in memory, with no directory to look in for included files.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> SourceInput {
        SourceInput {
            path: path.into(),
            text: text.into(),
            dir: None,
            include_dirs: Vec::new(),
            fixed_line_length: None,
            preprocessor: Preprocessor::default(),
        }
    }
}

/// One file adgen writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Relative path inside the output directory.
    pub path: String,
    pub contents: String,
}

#[cfg(test)]
mod size_tests {
    use super::SizeExpr;

    #[test]
    fn sizes_parse_with_precedence_and_say_what_is_wrong() {
        let e = SizeExpr::parse("n*(m + 2) - 1").unwrap();
        assert_eq!(e.names(), ["n", "m"]);
        assert!(matches!(e, SizeExpr::Binary('-', _, _)));
        assert!(SizeExpr::parse("").unwrap_err().contains("empty"));
        assert!(SizeExpr::parse("n +").unwrap_err().contains("ends"));
        assert!(SizeExpr::parse("(n").unwrap_err().contains("not closed"));
        assert!(SizeExpr::parse("n % 2").unwrap_err().contains("`%`"));
        assert!(
            SizeExpr::parse("n m")
                .unwrap_err()
                .contains("unexpected `m`")
        );
        let deep = format!("{}n{}", "(".repeat(100), ")".repeat(100));
        assert!(SizeExpr::parse(&deep).unwrap_err().contains("nested"));
        // Elements of integer arrays, in either language's brackets.
        let e = SizeExpr::parse("ia(n + 1) - ia(1)").expect("an element size parses");
        assert_eq!(e.names(), ["n"]);
        assert_eq!(e.arrays(), ["ia", "ia"]);
        let e = SizeExpr::parse("rowptr[n]").expect("a C element size parses");
        assert_eq!(e.arrays(), ["rowptr"]);
        assert!(
            SizeExpr::parse("ia(n]")
                .unwrap_err()
                .contains("not closed by `)`")
        );
        assert!(SizeExpr::parse("ia(").unwrap_err().contains("ends"));
        let deep = format!("{}n{}", "a(".repeat(100), ")".repeat(100));
        assert!(SizeExpr::parse(&deep).unwrap_err().contains("nested"));
    }
}
