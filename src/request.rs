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
}

/// Everything adgen is asked to do in one run.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub roots: Vec<RootRequest>,
    /// Joint mode (checkpoint every call) when true, the default.
    pub checkpoint_calls: bool,
    /// Optimizations switched off (`disable = [...]`), by name.
    pub disabled: BTreeSet<String>,
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
}

impl SourceInput {
    /// A source held in memory, with no directory to look in for included files.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> SourceInput {
        SourceInput {
            path: path.into(),
            text: text.into(),
            dir: None,
            include_dirs: Vec::new(),
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
