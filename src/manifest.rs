//! The `ad.toml` manifest (INTERFACE.md §1): schema, validation and source globs.
//!
//! Loading goes in three steps, each collecting every problem it finds, so that a user
//! sees all of them in one run:
//!
//! 1. the text is parsed into a spanned TOML tree ([`toml::de::DeTable`]), recovering from
//!    syntax errors;
//! 2. each table (top level, `[options]`, every `[[root]]`) is checked against its serde
//!    schema ([`RawManifest`], [`RawOptions`], [`RawRoot`], all `deny_unknown_fields` and
//!    kebab-case): unknown keys are reported with a "did you mean" suggestion, and every
//!    key is decoded on its own, so one bad value does not hide the next;
//! 3. the decoded values are checked for meaning (modes, optimization names, root
//!    heads, identifiers) and the source globs are expanded against the file system.
//!
//! Every problem is a [`Diagnostic`] with code `E01xx` located at `path:line:col` of the
//! offending key or value in the manifest.

mod black_box;
mod head;
mod roots;
mod sizes;
mod syntax;
pub use black_box::E_BAD_BLACK_BOX;
pub use head::{Head, parse_head, parse_heads};
pub use sizes::E_BAD_SIZE;

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

use crate::diag::{Diagnostic, SourceFile};
use crate::{Failure, Mode, Request, RootRequest, SourceInput};

/// Cannot read the manifest file.
pub const E_READ: &str = "E0100";
/// TOML syntax error.
pub const E_SYNTAX: &str = "E0101";
/// A key that the schema does not know.
pub const E_UNKNOWN_KEY: &str = "E0102";
/// A value of the wrong type.
pub const E_TYPE: &str = "E0103";
/// A required key is missing.
pub const E_MISSING: &str = "E0104";
/// A source glob that does not parse.
pub const E_BAD_GLOB: &str = "E0105";
/// A source glob that matches no file.
pub const E_NO_MATCH: &str = "E0106";
/// An unknown mode name.
pub const E_UNKNOWN_MODE: &str = "E0107";
/// An unknown optimization name in `disable`.
pub const E_UNKNOWN_DISABLE: &str = "E0108";
/// A root with neither `name` nor `head`, or with both.
pub const E_ROOT_NAME: &str = "E0109";
/// A `head` string that does not parse.
pub const E_BAD_HEAD: &str = "E0110";
/// A procedure or variable name that is not an identifier.
pub const E_BAD_NAME: &str = "E0111";
/// Two roots name the same procedure.
pub const E_DUPLICATE_ROOT: &str = "E0112";
/// An include directory that does not exist.
pub const E_INCLUDE_DIR: &str = "E0113";
/// `max-directions` out of range.
pub const E_MAX_DIRECTIONS: &str = "E0114";
/// A mode that adgen knows but does not implement yet.
pub const E_MODE_NOT_IMPLEMENTED: &str = "E0115";
/// A list that must not be empty is empty.
pub const E_EMPTY: &str = "E0116";
/// Cannot read a source file.
pub const E_READ_SOURCE: &str = "E0117";
/// `fixed-line-length` neither a column count from 72 nor `"none"`.
pub const E_LINE_LENGTH: &str = "E0127";
/// A `defines` entry that is not `NAME` or `NAME=VALUE`.
pub const E_DEFINE: &str = "E0131";

/// Mode names the manifest accepts; the last two are not implemented yet.
pub const MODE_NAMES: [&str; 4] = ["tangent", "adjoint", "tangent-vector", "adjoint-vector"];

/// Optimizations that `disable = [...]` can switch off.
pub const DISABLE_NAMES: [&str; 5] = [
    "activity",
    "diff-liveness",
    "tbr",
    "snapshot",
    "implicit-zero",
];

/// The top level of `ad.toml`.
///
/// `[options]` and `[[root]]` are decoded separately, table by table, so that a problem in
/// one does not hide problems in the others; here they are only declared, so that the
/// schema knows their names.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawManifest {
    pub sources: Option<Vec<Spanned<String>>>,
    pub include_dirs: Option<Vec<Spanned<String>>>,
    pub max_directions: Option<Spanned<i64>>,
    pub fixed_line_length: Option<Spanned<LineLength>>,
    pub preprocess: Option<bool>,
    pub defines: Option<Vec<Spanned<String>>>,
    pub options: Option<IgnoredAny>,
    pub root: Option<IgnoredAny>,
    pub sizes: Option<IgnoredAny>,
    pub black_box: Option<IgnoredAny>,
    /// `[validate]`: read by `adgen validate` only (`validate::settings`).
    pub validate: Option<IgnoredAny>,
}

/// `fixed-line-length`: the last column of fixed-form statements, as gfortran's
/// `-ffixed-line-length-N` (`"none"`: no limit).
#[derive(Deserialize, Debug)]
#[serde(untagged)]
pub enum LineLength {
    Columns(i64),
    Named(String),
}

/// `[options]`: defaults for every root.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawOptions {
    pub modes: Option<Spanned<Vec<Spanned<String>>>>,
    pub checkpoint_calls: Option<bool>,
    pub disable: Option<Vec<Spanned<String>>>,
}

/// One `[[root]]` table.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawRoot {
    pub name: Option<Spanned<String>>,
    pub head: Option<Spanned<String>>,
    pub independents: Option<Spanned<Vec<Spanned<String>>>>,
    pub dependents: Option<Spanned<Vec<Spanned<String>>>>,
    pub modes: Option<Spanned<Vec<Spanned<String>>>>,
}

/// A manifest, read, validated, with its sources read.
#[derive(Clone, Debug)]
pub struct LoadedManifest {
    /// The directory holding the manifest; source paths are relative to it.
    pub dir: PathBuf,
    /// The manifest's path as diagnostics show it.
    pub display_path: String,
    pub request: Request,
    /// Every source, in manifest order (glob by glob, each glob's matches sorted), with
    /// its path relative to `dir`, `/`-separated.
    pub sources: Vec<SourceInput>,
    /// The same sources as absolute paths (for `cargo:rerun-if-changed`).
    pub source_files: Vec<PathBuf>,
    /// `include-dirs`, absolute.
    pub include_dirs: Vec<PathBuf>,
    /// The directories the source globs search (their literal prefixes, absolute),
    /// except the manifest's own directory: a build system watches them for new files.
    pub glob_dirs: Vec<PathBuf>,
    /// `max-directions`, when given.
    pub max_directions: Option<u32>,
    /// `fixed-line-length`, when given (`usize::MAX` for `"none"`).
    pub fixed_line_length: Option<usize>,
    /// `preprocess` and `defines`.
    pub preprocessor: crate::request::Preprocessor,
}

/// Maps a mode name to a [`Mode`]; `Err` holds the diagnostic's code and message.
pub fn parse_mode(name: &str) -> Result<Mode, (&'static str, String)> {
    match name {
        "tangent" => Ok(Mode::Tangent),
        "adjoint" => Ok(Mode::Adjoint),
        "tangent-vector" | "adjoint-vector" => Err((
            E_MODE_NOT_IMPLEMENTED,
            format!("mode `{name}` is not implemented yet"),
        )),
        _ => Err((E_UNKNOWN_MODE, format!("unknown mode `{name}`"))),
    }
}

/// Reads and validates the manifest at `manifest_path`, expands its globs and reads its
/// sources. Every problem found is in the returned [`Failure`]. The roots are not looked
/// up in the sources; [`load_checked`] does that too.
pub fn load(manifest_path: &Path) -> Result<LoadedManifest, Failure> {
    load_inner(manifest_path, false)
}

/// Like [`load`], and also checks every root against the sources (a root that no source
/// defines, an independent that is not an input, ...), reporting those problems with
/// the manifest's own, each once, located in the manifest. What the CLI and
/// [`Build`](crate::Build) use.
pub fn load_checked(manifest_path: &Path) -> Result<LoadedManifest, Failure> {
    load_inner(manifest_path, true)
}

fn load_inner(manifest_path: &Path, check_roots: bool) -> Result<LoadedManifest, Failure> {
    let display_path = display_path(manifest_path);
    let text = match std::fs::read_to_string(manifest_path) {
        Ok(t) => t,
        Err(e) => {
            let d = Diagnostic::error(
                E_READ,
                format!("cannot read the manifest `{display_path}`: {e}"),
            )
            .with_help("pass the manifest's path with `--manifest PATH`");
            return Err(failure(vec![d]));
        }
    };
    let dir = manifest_path
        .parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .unwrap_or(Path::new("."));
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let file = SourceFile::new(display_path.clone(), text);
    let mut checker = Checker {
        file: &file,
        diagnostics: Vec::new(),
        glob_dirs: Vec::new(),
    };
    let checked = checker.check(&dir);
    let mut diagnostics = checker.diagnostics;
    let Some(checked) = checked else {
        // Syntax errors: nothing was decoded.
        return Err(failure(diagnostics));
    };
    let mut sources = Vec::new();
    let mut read_errors = Vec::new();
    for (rel, abs) in checked.source_paths.iter().zip(&checked.source_files) {
        match std::fs::read(abs) {
            Ok(bytes) => sources.push(SourceInput {
                path: rel.clone(),
                text: String::from_utf8_lossy(&bytes).into_owned(),
                dir: abs.parent().map(Path::to_path_buf),
                include_dirs: checked.include_dirs.clone(),
                fixed_line_length: checked.fixed_line_length,
                preprocessor: checked.preprocessor.clone(),
            }),
            Err(e) => read_errors.push(Diagnostic::error(
                E_READ_SOURCE,
                format!("cannot read source `{rel}`: {e}"),
            )),
        }
    }
    // With the manifest otherwise right, differentiation finds these itself (parsing
    // the sources once): they are looked for here only to be reported with the rest.
    if check_roots && read_errors.is_empty() && diagnostics.iter().any(Diagnostic::is_error) {
        diagnostics.extend(root_problems(&sources, &checked.request, &display_path));
    }
    diagnostics.sort_by_key(|d| match &d.location {
        Some(crate::diag::Location::Path { line, col, .. }) => (*line, *col),
        _ => (usize::MAX, 0),
    });
    if diagnostics.iter().any(Diagnostic::is_error) {
        diagnostics.extend(read_errors);
        return Err(failure(diagnostics));
    }
    if !read_errors.is_empty() {
        return Err(failure(read_errors));
    }
    Ok(LoadedManifest {
        dir,
        display_path,
        request: checked.request,
        sources,
        source_files: checked.source_files,
        include_dirs: checked.include_dirs,
        glob_dirs: checked.glob_dirs,
        max_directions: checked.max_directions,
        fixed_line_length: checked.fixed_line_length,
        preprocessor: checked.preprocessor,
    })
}

/// Problems with the roots that only the sources reveal (a root that no source defines,
/// an independent that is not an input, a dependent that is not an output), located in
/// the manifest, so that they are reported together with the manifest's own problems.
/// Checks the roots that decoded without error; problems in the sources themselves
/// (syntax, unsupported constructs) are left to differentiation, which locates them in
/// the sources.
fn root_problems(sources: &[SourceInput], request: &Request, manifest: &str) -> Vec<Diagnostic> {
    if request.roots.is_empty() || sources.is_empty() {
        return Vec::new();
    }
    let mut source_map = crate::diag::SourceMap::default();
    let Ok(program) = crate::parse_sources(sources, &mut source_map) else {
        return Vec::new();
    };
    let program = crate::prepare::normalize::normalize(program);
    let mut problems = crate::prepare::sizes::check(&program, request);
    problems.extend(
        crate::ir::Ir::build(&program, request)
            .err()
            .unwrap_or_default(),
    );
    problems
        .into_iter()
        .filter(|d| {
            matches!(&d.location, Some(crate::diag::Location::Path { path, .. }) if path == manifest)
        })
        .collect()
}

/// How a path is shown to users: relative to the current directory when it lies below
/// it, with `/` separators.
pub fn display_path(path: &Path) -> String {
    let shown = match std::env::current_dir() {
        Ok(cwd) if path.is_absolute() => path.strip_prefix(&cwd).unwrap_or(path).to_path_buf(),
        _ => path.to_path_buf(),
    };
    slash_path(&shown)
}

fn slash_path(path: &Path) -> String {
    let mut parts = Vec::new();
    for c in path.components() {
        match c {
            Component::RootDir => parts.push(String::new()),
            Component::CurDir => {}
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    if parts.len() == 1 && parts[0].is_empty() {
        return "/".into();
    }
    parts.join("/")
}

/// Renders manifest diagnostics with the offending line and a caret under the column.
fn failure(diagnostics: Vec<Diagnostic>) -> Failure {
    let diagnostics = bounded(diagnostics);
    // Each shows its manifest line under it (`Diagnostic::render` reads it back).
    let rendered = crate::diag::Diagnostics(diagnostics.clone()).render(&Default::default());
    Failure {
        rendered,
        diagnostics,
    }
}

/// Diagnostics of the same code on the same line (a list of N bad entries) beyond
/// which the rest are summed up in one note.
const PER_CAUSE: usize = 3;

/// At most [`PER_CAUSE`] diagnostics per code and manifest line, then one saying how many
/// more there are: a list of 10,000 bad entries is four diagnostics, not 10,000.
fn bounded(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    use std::collections::BTreeMap;
    let cause = |d: &Diagnostic| match &d.location {
        Some(crate::diag::Location::Path { path, line, .. }) => Some((d.code, path.clone(), *line)),
        _ => None,
    };
    let mut seen: BTreeMap<(&'static str, String, usize), usize> = BTreeMap::new();
    let mut out = Vec::new();
    let mut more: Vec<(Diagnostic, usize)> = Vec::new();
    for d in diagnostics {
        let Some(key) = cause(&d) else {
            out.push(d);
            continue;
        };
        let n = seen.entry(key).or_insert(0);
        *n += 1;
        match *n {
            n if n <= PER_CAUSE => out.push(d),
            n if n == PER_CAUSE + 1 => more.push((d, 1)),
            _ => {
                if let Some(last) = more.iter_mut().rev().find(|(m, _)| cause(m) == cause(&d)) {
                    last.1 += 1;
                }
            }
        }
    }
    for (d, n) in more {
        let Some(crate::diag::Location::Path { path, line, col }) = d.location.clone() else {
            continue;
        };
        let mut summary = Diagnostic::error(
            d.code,
            format!(
                "and {n} more error{} like these on line {line}",
                if n == 1 { "" } else { "s" }
            ),
        )
        .at_path(path, line, col);
        summary.help = Some("fix the ones above first; the rest are probably the same".into());
        // After the last one shown for its line.
        let at = out
            .iter()
            .rposition(|o| cause(o) == cause(&d))
            .map_or(out.len(), |i| i + 1);
        out.insert(at, summary);
    }
    out
}

/// What step 2 and 3 produce for a manifest without errors.
struct Checked {
    request: Request,
    source_paths: Vec<String>,
    source_files: Vec<PathBuf>,
    include_dirs: Vec<PathBuf>,
    glob_dirs: Vec<PathBuf>,
    max_directions: Option<u32>,
    fixed_line_length: Option<usize>,
    preprocessor: crate::request::Preprocessor,
}

struct Checker<'a> {
    file: &'a SourceFile,
    diagnostics: Vec<Diagnostic>,
    glob_dirs: Vec<PathBuf>,
}

impl<'a> Checker<'a> {
    fn error(
        &mut self,
        code: &'static str,
        span: Range<usize>,
        message: String,
    ) -> &mut Diagnostic {
        let (line, col) = self.file.line_col(span.start as u32);
        let d = Diagnostic::error(code, message).at_path(&self.file.display_path, line, col);
        self.diagnostics.push(d);
        self.diagnostics.last_mut().expect("just pushed")
    }

    fn check(&mut self, dir: &Path) -> Option<Checked> {
        let (document, syntax_errors) = DeTable::parse_recoverable(&self.file.text);
        // One error, at the first cause: the parser's later errors follow from it (one
        // missing `]` gave seven, the last ones nonsense).
        if let Some(e) = syntax_errors.first() {
            let span = e.span().unwrap_or(0..0);
            let unclosed = syntax::unclosed_array(&self.file.text, span.start);
            let (span, message) = match unclosed {
                Some(open) => (
                    open..open + 1,
                    "invalid TOML: this `[` is not closed".to_string(),
                ),
                None => (span, format!("invalid TOML: {}", e.message())),
            };
            let d = self.error(E_SYNTAX, span, message);
            if unclosed.is_some() {
                d.help = Some("add the `]` that ends the list".into());
            }
            return None;
        }
        let document = document.into_inner();
        let (top, top_invalid): (RawManifest, _) = self.decode_table(&document, "");

        // Sources.
        let mut source_paths = Vec::new();
        let mut source_files = Vec::new();
        match &top.sources {
            None if top_invalid.contains("sources") => {}
            None => {
                self.error(E_MISSING, 0..0, "the manifest has no `sources`".into())
                    .help =
                    Some("add `sources = [\"src/*.f90\"]`, globs relative to the manifest".into());
            }
            Some(globs) if globs.is_empty() => {
                self.error(
                    E_EMPTY,
                    key_span(&document, "sources"),
                    "`sources` is empty".into(),
                );
            }
            Some(globs) => {
                for glob in globs {
                    for (rel, abs) in self.expand_glob(dir, glob) {
                        if !source_paths.contains(&rel) {
                            source_paths.push(rel);
                            source_files.push(abs);
                        }
                    }
                }
            }
        }

        // Include directories.
        let mut include_dirs = Vec::new();
        for inc in top.include_dirs.iter().flatten() {
            let path = dir.join(inc.get_ref());
            if !path.is_dir() {
                self.error(
                    E_INCLUDE_DIR,
                    inc.span(),
                    format!(
                        "`include-dirs` entry `{}` is not a directory",
                        inc.get_ref()
                    ),
                );
            }
            include_dirs.push(path);
        }

        // Vector directions.
        let mut max_directions = None;
        let mut option_warnings = Vec::new();
        if let Some(n) = &top.max_directions {
            match u32::try_from(*n.get_ref()) {
                Ok(v) if v >= 1 => {
                    max_directions = Some(v);
                    let (line, col) = self.file.line_col(n.span().start as u32);
                    option_warnings.push(
                        Diagnostic::warning(
                            "W0105",
                            "`max-directions` has no effect yet: it is for vector modes, which are not implemented",
                        )
                        .at_path(&self.file.display_path, line, col)
                        .with_help("remove it to silence this; the derivatives do not depend on it"),
                    );
                }
                _ => {
                    self.error(
                        E_MAX_DIRECTIONS,
                        n.span(),
                        format!("`max-directions` must be at least 1, not {}", n.get_ref()),
                    );
                }
            }
        }

        // Fixed-form line length.
        let mut fixed_line_length = None;
        if let Some(n) = &top.fixed_line_length {
            match n.get_ref() {
                LineLength::Columns(c) if (72..=100_000).contains(c) => {
                    fixed_line_length = Some(*c as usize)
                }
                LineLength::Named(s) if s == "none" => fixed_line_length = Some(usize::MAX),
                other => {
                    let shown = match other {
                        LineLength::Columns(c) => c.to_string(),
                        LineLength::Named(s) => format!("\"{s}\""),
                    };
                    self.error(
                        E_LINE_LENGTH,
                        n.span(),
                        format!(
                            "`fixed-line-length` must be a column from 72 (as gfortran's `-ffixed-line-length-132`) or \"none\", not {shown}"
                        ),
                    );
                }
            }
        }

        // The C preprocessor.
        let mut defines = Vec::new();
        for d in top.defines.iter().flatten() {
            let (name, _) = d.get_ref().split_once('=').unwrap_or((d.get_ref(), ""));
            if check_identifier(name).is_err() {
                self.error(
                    E_DEFINE,
                    d.span(),
                    format!(
                        "`defines` entry `{}` is not `NAME` or `NAME=VALUE` (as the preprocessor's `-D`)",
                        d.get_ref()
                    ),
                );
            } else {
                defines.push(d.get_ref().clone());
            }
        }
        let preprocessor = crate::request::Preprocessor {
            all: top.preprocess.unwrap_or(false),
            defines,
        };

        // Options.
        let options: RawOptions = match document.get("options") {
            None => RawOptions::default(),
            Some(value) => match value.get_ref() {
                DeValue::Table(t) => self.decode_table(t, "options.").0,
                _ => {
                    self.error(
                        E_TYPE,
                        value.span(),
                        "`options` must be a table: `[options]`".into(),
                    );
                    RawOptions::default()
                }
            },
        };
        let default_modes = match &options.modes {
            Some(modes) => self.modes(modes, "options.modes"),
            None => [Mode::Tangent, Mode::Adjoint].into_iter().collect(),
        };
        let mut disabled = BTreeSet::new();
        for name in options.disable.iter().flatten() {
            if DISABLE_NAMES.contains(&name.get_ref().as_str()) {
                disabled.insert(name.get_ref().clone());
            } else {
                let d = self.error(
                    E_UNKNOWN_DISABLE,
                    name.span(),
                    format!(
                        "`options.disable` names an unknown optimization `{}`",
                        name.get_ref()
                    ),
                );
                d.help = Some(suggestion_help(name.get_ref(), &DISABLE_NAMES));
            }
        }

        // Roots.
        let mut roots = Vec::new();
        match document.get("root") {
            None if top_invalid.contains("root") => {}
            None => {
                self.error(E_MISSING, 0..0, "the manifest names no root".into())
                    .help = Some(
                    "add a `[[root]]` table with `name`, `independents` and `dependents`".into(),
                );
            }
            Some(value) => match value.get_ref() {
                DeValue::Array(tables) if tables.iter().all(|t| t.get_ref().is_table()) => {
                    if tables.iter().next().is_none() {
                        self.error(E_MISSING, value.span(), "the manifest names no root".into());
                    }
                    for (i, table) in tables.iter().enumerate() {
                        let DeValue::Table(t) = table.get_ref() else {
                            unreachable!("checked above: every root is a table")
                        };
                        let (raw, invalid): (RawRoot, _) = self.decode_table(t, "root.");
                        let span = table.span();
                        if let Some(root) = self.root(raw, &invalid, span, i, &default_modes) {
                            roots.push(root);
                        }
                    }
                }
                _ => {
                    self.error(
                        E_TYPE,
                        value.span(),
                        "`root` must be an array of tables: `[[root]]`".into(),
                    );
                }
            },
        }
        let mut seen: Vec<(String, usize)> = Vec::new();
        for root in &roots {
            let key = root.name.to_ascii_lowercase();
            if let Some((_, line)) = seen.iter().find(|(k, _)| *k == key) {
                let (path, l, c) = root
                    .origin
                    .clone()
                    .expect("roots from a manifest have an origin");
                self.diagnostics.push(
                    Diagnostic::error(
                        E_DUPLICATE_ROOT,
                        format!("root `{}` is already named on line {line}", root.name),
                    )
                    .at_path(path, l, c),
                );
            } else {
                let line = root.origin.as_ref().map(|o| o.1).unwrap_or(0);
                seen.push((key, line));
            }
        }

        let sizes = self.sizes(&document);
        let black_boxes = self.black_boxes(&document);

        Some(Checked {
            request: Request {
                roots,
                sizes,
                black_boxes,
                checkpoint_calls: options.checkpoint_calls.unwrap_or(true),
                naming: Default::default(),
                layout: Default::default(),
                option_warnings,
                disabled,
            },
            source_paths,
            source_files,
            include_dirs,
            glob_dirs: std::mem::take(&mut self.glob_dirs),
            max_directions,
            fixed_line_length,
            preprocessor,
        })
    }

    /// Checks one table against `T`'s serde schema, reporting unknown keys and badly typed
    /// values one by one, and decodes what is valid. Also returns the keys whose values
    /// were invalid or that were misspelt, so that later checks do not report them again
    /// as missing.
    fn decode_table<T: DeserializeOwned + Default>(
        &mut self,
        table: &DeTable<'_>,
        prefix: &str,
    ) -> (T, BTreeSet<String>) {
        let mut invalid = BTreeSet::new();
        let known = field_names::<T>();
        let mut valid = DeTable::new();
        for (key, value) in table.iter() {
            let name = key.get_ref().as_ref();
            if !known.contains(&name) {
                let message = format!("unknown key `{prefix}{name}`");
                let help = suggestion_help(name, &known);
                self.error(E_UNKNOWN_KEY, key.span(), message).help = Some(help);
                // A misspelt key: do not report the key it was meant to be as missing.
                if let Some(meant) = suggest(name, &known) {
                    invalid.insert(meant.to_string());
                }
                continue;
            }
            let mut single = DeTable::new();
            single.insert(key.clone(), value.clone());
            match decode::<T>(single, 0..0) {
                Ok(_) => {
                    valid.insert(key.clone(), value.clone());
                }
                Err(e) => {
                    let message = format!(
                        "invalid value for `{prefix}{name}`: {}",
                        e.message().trim_end()
                    );
                    self.error(E_TYPE, value.span(), message);
                    invalid.insert(name.to_string());
                }
            }
        }
        (decode::<T>(valid, 0..0).unwrap_or_default(), invalid)
    }

    /// Expands one glob into (as written, on disk) paths, sorted: relative to the
    /// manifest's directory, or absolute when the glob is (its derivatives then go under
    /// `_root/` in the output directory).
    fn expand_glob(&mut self, dir: &Path, glob: &Spanned<String>) -> Vec<(String, PathBuf)> {
        let pattern = glob.get_ref();
        let matcher = match globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
        {
            Ok(g) => g.compile_matcher(),
            Err(e) => {
                let kind = e.kind().to_string();
                self.error(
                    E_BAD_GLOB,
                    glob.span(),
                    format!("source glob `{pattern}` is invalid: {kind}"),
                );
                return Vec::new();
            }
        };
        // Walk only below the glob's literal prefix.
        let mut base = Vec::new();
        for part in pattern.split('/') {
            if part.contains(['*', '?', '[', '{', '\\']) {
                break;
            }
            base.push(part);
        }
        let whole_is_literal = base.len() == pattern.split('/').count();
        if whole_is_literal {
            base.pop();
        }
        let base_rel = base.join("/");
        let base_abs = dir.join(&base_rel);
        if !base_rel.is_empty() && base_abs.is_dir() && !self.glob_dirs.contains(&base_abs) {
            self.glob_dirs.push(base_abs.clone());
        }
        let mut found = Vec::new();
        if base_abs.is_dir() {
            for entry in walkdir::WalkDir::new(&base_abs)
                .follow_links(true)
                .sort_by_file_name()
                .into_iter()
                .filter_map(Result::ok)
            {
                if !entry.file_type().is_file() {
                    continue;
                }
                let Ok(below) = entry.path().strip_prefix(&base_abs) else {
                    continue;
                };
                let below = slash_path(below);
                let rel = if base_rel.is_empty() {
                    below
                } else {
                    format!("{base_rel}/{below}")
                };
                if matcher.is_match(&rel) {
                    found.push((rel, entry.path().to_path_buf()));
                }
            }
        }
        found.sort();
        if found.is_empty() {
            self.error(
                E_NO_MATCH,
                glob.span(),
                format!("source glob `{pattern}` matches no file"),
            )
            .help = Some(format!(
                "globs are relative to the manifest's directory `{}`",
                slash_path(dir)
            ));
        }
        found
    }
}

/// Decodes a table into `T` through serde.
fn decode<T: DeserializeOwned>(
    table: DeTable<'_>,
    span: Range<usize>,
) -> Result<T, toml::de::Error> {
    T::deserialize(ValueDeserializer::from(Spanned::new(
        span,
        DeValue::Table(table),
    )))
}

/// The span of a top-level key, for diagnostics about its value as a whole.
fn key_span(table: &DeTable<'_>, key: &str) -> Range<usize> {
    table
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == key)
        .map(|(_, v)| v.span())
        .unwrap_or(0..0)
}

/// A name is a procedure identifier: a letter or `_`, then letters, digits, `_`.
fn check_identifier(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let good = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if good {
        Ok(())
    } else if name.is_empty() {
        Err("is empty".into())
    } else {
        Err(format!("`{name}` is not an identifier"))
    }
}

/// A variable is an identifier, or a derived-type path `s%u` (`s.u` for C structs).
fn check_variable(name: &str) -> Result<(), String> {
    for part in name.split(['%', '.']) {
        if check_identifier(part).is_err() {
            return Err(format!("`{name}` is not a variable name or component path"));
        }
    }
    Ok(())
}

/// The field names a serde struct declares, found by asking it to deserialize from a
/// deserializer that only records what `deserialize_struct` is told.
fn field_names<T: DeserializeOwned>() -> Vec<&'static str> {
    let mut fields = Vec::new();
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

#[derive(Debug)]
struct FieldNamesDone;

impl std::fmt::Display for FieldNamesDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field names recorded")
    }
}

impl std::error::Error for FieldNamesDone {}

impl serde::de::Error for FieldNamesDone {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        FieldNamesDone
    }
}

struct FieldNames<'a>(&'a mut Vec<&'static str>);

impl<'de> serde::Deserializer<'de> for FieldNames<'_> {
    type Error = FieldNamesDone;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(FieldNamesDone)
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.extend_from_slice(fields);
        Err(FieldNamesDone)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// "did you mean `x`?" when a candidate is close, else the list of valid names.
fn suggestion_help(word: &str, candidates: &[&str]) -> String {
    match suggest(word, candidates) {
        Some(best) => format!("did you mean `{best}`?"),
        None => format!(
            "expected one of: {}",
            candidates
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The closest candidate within an edit distance of a third of the word (1 to 3).
pub fn suggest<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    let word_lower = word.to_ascii_lowercase().replace('_', "-");
    let limit = (word.chars().count() / 3).clamp(1, 3);
    candidates
        .iter()
        .map(|c| (crate::diag::edit_distance(&word_lower, c), *c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(manifest: &str, files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ad.toml"), manifest).unwrap();
        for f in files {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "subroutine f(x, y)\nend subroutine\n").unwrap();
        }
        dir
    }

    fn errors(manifest: &str, files: &[&str]) -> Vec<Diagnostic> {
        let dir = project(manifest, files);
        match load(&dir.path().join("ad.toml")) {
            Ok(_) => panic!("manifest accepted:\n{manifest}"),
            Err(f) => f.diagnostics,
        }
    }

    fn place(d: &Diagnostic) -> (usize, usize) {
        match &d.location {
            Some(crate::diag::Location::Path { line, col, .. }) => (*line, *col),
            _ => panic!("no location: {d:?}"),
        }
    }

    const GOOD: &str = r#"
sources = ["src/*.f90"]

[[root]]
name = "f"
independents = ["x"]
dependents = ["y"]
"#;

    #[test]
    fn loads_a_good_manifest() {
        let dir = project(
            GOOD,
            &["src/b.f90", "src/a.f90", "src/sub/c.f90", "other.f90"],
        );
        let m = load(&dir.path().join("ad.toml")).unwrap();
        let paths: Vec<&str> = m.sources.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(paths, ["src/a.f90", "src/b.f90"]);
        assert_eq!(m.source_files.len(), 2);
        assert_eq!(m.glob_dirs, [dir.path().join("src")]);
        assert!(m.source_files.iter().all(|p| p.is_absolute()));
        assert!(m.request.checkpoint_calls);
        assert!(m.request.disabled.is_empty());
        let root = &m.request.roots[0];
        assert_eq!(root.name, "f");
        assert_eq!(root.independents, ["x"]);
        assert_eq!(root.dependents, ["y"]);
        assert_eq!(
            root.modes,
            [Mode::Tangent, Mode::Adjoint].into_iter().collect()
        );
        let (path, line, col) = root.origin.clone().unwrap();
        assert!(path.ends_with("ad.toml"));
        assert_eq!((line, col), (5, 8));
    }

    /// A size is a string, or for a matrix of row pointers two (rows, row length).
    #[test]
    fn sizes_take_one_size_or_rows_and_row_length() {
        let manifest = format!("{GOOD}[sizes.f]\nx = \"n\"\ny = [\"n\", \"m + 1\"]\n");
        let dir = project(&manifest, &["src/a.f90"]);
        let m = load(&dir.path().join("ad.toml")).unwrap();
        let sizes: Vec<(&str, bool)> = m
            .request
            .sizes
            .iter()
            .map(|h| (h.argument.as_str(), h.row_length.is_some()))
            .collect();
        assert_eq!(sizes, [("x", false), ("y", true)]);
        for bad in ["[]", "[\"n\"]", "[\"n\", 2]", "[\"n\", \"m\", \"k\"]"] {
            let e = errors(&format!("{GOOD}[sizes.f]\ny = {bad}\n"), &["src/a.f90"]);
            assert_eq!(e.len(), 1, "{bad}: {e:?}");
            assert!(e[0].message.contains("rows and row length"), "{bad}: {e:?}");
        }
    }

    #[test]
    fn head_and_options() {
        let manifest = r#"
sources = ["**/*.f90"]
max-directions = 4
fixed-line-length = "none"
[options]
modes = ["adjoint"]
checkpoint-calls = false
disable = ["tbr", "diff-liveness"]
[[root]]
head = "cost(j)/(u0, k)"
[[root]]
name = "g"
independents = ["s%u"]
dependents = ["r"]
modes = ["tangent"]
"#;
        let dir = project(manifest, &["src/sub/c.f90"]);
        let m = load(&dir.path().join("ad.toml")).unwrap();
        assert_eq!(m.sources[0].path, "src/sub/c.f90");
        assert_eq!(m.max_directions, Some(4));
        assert_eq!(m.fixed_line_length, Some(usize::MAX));
        assert_eq!(m.sources[0].fixed_line_length, Some(usize::MAX));
        assert!(!m.request.checkpoint_calls);
        assert_eq!(
            m.request.disabled.iter().collect::<Vec<_>>(),
            ["diff-liveness", "tbr"]
        );
        let cost = &m.request.roots[0];
        assert_eq!(cost.name, "cost");
        assert_eq!(cost.dependents, ["j"]);
        assert_eq!(cost.independents, ["u0", "k"]);
        assert_eq!(cost.modes, [Mode::Adjoint].into_iter().collect());
        assert_eq!(cost.origin.as_ref().unwrap().1, 10);
        assert_eq!(
            m.request.roots[1].modes,
            [Mode::Tangent].into_iter().collect()
        );
    }

    #[test]
    fn reports_every_problem_once_with_place() {
        let manifest = r#"sources = ["src/*.f90", "nothing/*.f90", "bad/[.f90"]
max-direction = 3
[options]
modes = ["tangnet", "adjoint-vector"]
disable = ["tbrr", "whatever"]
checkpoint-calls = "yes"
[[root]]
independents = ["x"]
dependents = ["y"]
[[root]]
name = "f"
head = "f(y)/(x)"
[[root]]
nmae = "g"
"#;
        let diags = errors(manifest, &["src/a.f90"]);
        let summary: Vec<(&str, (usize, usize))> =
            diags.iter().map(|d| (d.code, place(d))).collect();
        assert_eq!(
            summary,
            [
                (E_NO_MATCH, (1, 25)),
                (E_BAD_GLOB, (1, 42)),
                (E_UNKNOWN_KEY, (2, 1)),
                (E_UNKNOWN_MODE, (4, 10)),
                (E_MODE_NOT_IMPLEMENTED, (4, 21)),
                (E_UNKNOWN_DISABLE, (5, 12)),
                (E_UNKNOWN_DISABLE, (5, 20)),
                (E_TYPE, (6, 20)),
                (E_ROOT_NAME, (7, 1)),
                (E_ROOT_NAME, (12, 8)),
                // `nmae`: reported as unknown, not again as a missing name.
                (E_UNKNOWN_KEY, (14, 1)),
            ]
        );
        let text: Vec<String> = diags
            .iter()
            .map(|d| format!("{} {:?}", d.message, d.help))
            .collect();
        assert!(
            text[2].contains("max-direction") && text[2].contains("did you mean `max-directions`"),
            "{text:?}"
        );
        assert!(
            text[3].contains("tangnet") && text[3].contains("did you mean `tangent`"),
            "{text:?}"
        );
        assert!(text[4].contains("not implemented yet"), "{text:?}");
        assert!(text[5].contains("did you mean `tbr`"), "{text:?}");
    }

    #[test]
    fn missing_sources_and_roots() {
        let diags = errors("", &[]);
        let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, [E_MISSING, E_MISSING]);
        let diags = errors("sources = [\"a.f90\"]\nroot = 3\n", &["a.f90"]);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, E_TYPE);
        assert_eq!(place(&diags[0]), (2, 8));
        // A badly typed value is reported once, not again as missing.
        let diags = errors(
            "sources = 3\n[[root]]\nname = 4\n[[root]]\nname = \"f\"\nindependents = \"x\"\ndependents = [\"y\"]\n",
            &[],
        );
        let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, [E_TYPE, E_TYPE, E_TYPE], "{diags:?}");
        // So is a misspelt key.
        let diags = errors(
            "source = [\"a.f90\"]\n[[roots]]\nname = \"f\"\n[[root]]\nnmae = \"f\"\nindependent = [\"x\"]\ndependents = [\"y\"]\n",
            &["a.f90"],
        );
        let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, [E_UNKNOWN_KEY; 4], "{diags:?}");
    }

    #[test]
    fn syntax_error_has_place() {
        let diags = errors("sources = [\"a.f90\"\n[[root]]\n", &["a.f90"]);
        assert_eq!(diags[0].code, E_SYNTAX);
    }

    #[test]
    fn rendering_shows_the_line() {
        let dir = project("sources = [\"src/*.f90\"]\nroots = 1\n", &["src/a.f90"]);
        let failure = load(&dir.path().join("ad.toml")).unwrap_err();
        assert!(
            failure
                .rendered
                .contains("error[E0102]: unknown key `roots`"),
            "{}",
            failure.rendered
        );
        assert!(
            failure.rendered.contains("2 | roots = 1\n  | ^\n"),
            "{}",
            failure.rendered
        );
        assert!(
            failure.rendered.contains("did you mean `root`?"),
            "{}",
            failure.rendered
        );
    }

    #[test]
    fn heads() {
        assert_eq!(
            parse_head("cost(j)/(u0 k)").unwrap(),
            Head {
                name: "cost".into(),
                dependents: vec!["j".into()],
                independents: vec!["u0".into(), "k".into()],
            }
        );
        assert_eq!(
            parse_head(" f ( y1, y2 ) / ( x ) ").unwrap().dependents,
            ["y1", "y2"]
        );
        assert_eq!(parse_head("f").unwrap().independents, Vec::<String>::new());
        assert!(parse_head("f(y)(x)").is_err());
        assert!(parse_head("f(y)/(x").is_err());
        assert!(parse_head("1f(y)/(x)").is_err());
        assert!(parse_head("f(y)/(x) g").is_err());
        let two = parse_heads("f(y)/(x) g (z w)/(v)").unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(two[1].name, "g");
        assert_eq!(two[1].dependents, ["z", "w"]);
        assert!(parse_heads("  ").is_err());
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("tangnet", &MODE_NAMES), Some("tangent"));
        assert_eq!(
            suggest("diff_liveness", &DISABLE_NAMES),
            Some("diff-liveness")
        );
        assert_eq!(suggest("zzz", &DISABLE_NAMES), None);
        assert_eq!(crate::diag::edit_distance("tangnet", "tangent"), 1);
        assert_eq!(crate::diag::edit_distance("kitten", "sitting"), 3);
        assert_eq!(
            field_names::<RawRoot>(),
            ["name", "head", "independents", "dependents", "modes"]
        );
    }
}
