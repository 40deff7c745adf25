//! The two files of a corpus program: the part of `ad.toml` the harness needs (sources and
//! roots) and `check.toml`, which tells the driver how to call the root.
//!
//! `check.toml` (every key optional):
//!
//! ```toml
//! seed = 7                  # of the driver's pseudo-random numbers
//! tolerance = 1e-6          # tangent against central differences (norm-wise relative)
//! adjoint_tolerance = 1e-10 # dot-product test (relative)
//! fd_step = 1e-6            # relative step: the direction of each input is scaled by its magnitude
//! timeout = 60              # seconds per program run
//! n = 10                    # integer or logical dummy arguments of the root, by name;
//! idx = [1, 3, 2]           #   integer arrays as lists
//! [extent]                  # extent of the last dimension of assumed-size arrays
//! x = 20
//! [row_length]              # a matrix of row pointers (C `double **a`): the length of a
//! a = 4                     #   row ([extent] gives its rows)
//! [range]                   # where real inputs are drawn from (default 0.5..1.5)
//! x = [0.1, 0.9]
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One root as the manifest names it.
#[derive(Clone, Debug, PartialEq)]
pub struct RootSpec {
    pub name: String,
    pub independents: Vec<String>,
    pub dependents: Vec<String>,
    pub tangent: bool,
    pub adjoint: bool,
}

/// The harness's reading of an `ad.toml`.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    /// Source paths relative to the manifest's directory, sorted.
    pub sources: Vec<String>,
    pub roots: Vec<RootSpec>,
    /// `[sizes.PROCEDURE]` entries: (procedure, argument, size expressions: one, or the
    /// rows and row length of a matrix of row pointers).
    pub sizes: Vec<(String, String, Vec<String>)>,
    /// `fixed-line-length`: a column, or `usize::MAX` for `"none"`.
    pub fixed_line_length: Option<usize>,
    /// `[black-box.PROCEDURE]` tables, as adgen's own manifest loader reads them.
    pub black_boxes: Vec<adgen::request::BlackBox>,
    /// `preprocess` and `defines`: how the C preprocessor reads the sources.
    pub preprocessor: adgen::request::Preprocessor,
}

/// gfortran's flags for a manifest's preprocessing: `-cpp` and a `-D` per define (none
/// when it asks for none).
pub fn cpp_flags(p: &adgen::request::Preprocessor) -> Vec<String> {
    if !p.all && p.defines.is_empty() {
        return Vec::new();
    }
    std::iter::once("-cpp".to_string())
        .chain(p.defines.iter().map(|d| format!("-D{d}")))
        .collect()
}

/// A value given for a non-real dummy argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    IntList(Vec<i64>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct CheckConfig {
    pub seed: u64,
    pub tolerance: f64,
    pub adjoint_tolerance: f64,
    pub fd_step: f64,
    pub timeout_secs: u64,
    /// Keyed by lower-case dummy name.
    pub values: BTreeMap<String, Value>,
    pub extent: BTreeMap<String, i64>,
    /// The row length of a matrix of row pointers (C `double **a`): its `[extent]` is
    /// then the number of rows.
    pub row_length: BTreeMap<String, i64>,
    pub range: BTreeMap<String, (f64, f64)>,
    /// Files of the program's directory that adgen is not given but the program links
    /// (the black boxes' sources and the user's derivatives of them): `link = [...]`.
    pub link: Vec<String>,
    /// Also check INTERFACE.md §4's promises on derivative arguments: garbage in the
    /// tangent derivatives of non-independents and in the adjoints of input-only
    /// independents must not change the results. Set by `ADGEN_CORPUS_CONTRACT=1`, or
    /// for one program by `contract = true`.
    pub contract: bool,
    /// Build the C program (its sources, the generated ones, the driver) with
    /// AddressSanitizer and UBSan: a leak, a double free or an access out of bounds
    /// fails the case (`sanitize = true`, for programs that allocate).
    pub sanitize: bool,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            seed: 20_240_611,
            tolerance: 1e-6,
            adjoint_tolerance: 1e-10,
            fd_step: 1e-6,
            timeout_secs: 60,
            values: BTreeMap::new(),
            extent: BTreeMap::new(),
            row_length: BTreeMap::new(),
            range: BTreeMap::new(),
            link: Vec::new(),
            contract: false,
            sanitize: false,
        }
    }
}

pub const DEFAULT_RANGE: (f64, f64) = (0.5, 1.5);

impl CheckConfig {
    pub fn range_of(&self, name: &str) -> (f64, f64) {
        lookup(&self.range, name).copied().unwrap_or(DEFAULT_RANGE)
    }
    pub fn value_of(&self, name: &str) -> Option<&Value> {
        lookup(&self.values, name)
    }
    pub fn extent_of(&self, name: &str) -> Option<i64> {
        lookup(&self.extent, name).copied()
    }
    pub fn row_length_of(&self, name: &str) -> Option<i64> {
        lookup(&self.row_length, name).copied()
    }
}

/// The entry for the IL name `name`: the one spelled exactly so (C tells `x` from `X`),
/// else the one spelled so without regard to case (Fortran).
fn lookup<'a, T>(map: &'a BTreeMap<String, T>, name: &str) -> Option<&'a T> {
    let name = adgen::il::names::spelled(name);
    map.get(name.as_ref()).or_else(|| {
        map.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(&name))
            .map(|(_, v)| v)
    })
}

fn as_f64(v: &toml::Value) -> Option<f64> {
    match v {
        toml::Value::Float(f) => Some(*f),
        toml::Value::Integer(i) => Some(*i as f64),
        _ => None,
    }
}

fn string_list(v: Option<&toml::Value>, what: &str) -> Result<Vec<String>, String> {
    match v {
        None => Ok(Vec::new()),
        Some(toml::Value::Array(items)) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("`{what}` must be a list of strings"))
            })
            .collect(),
        Some(_) => Err(format!("`{what}` must be a list of strings")),
    }
}

fn modes_of(v: Option<&toml::Value>, what: &str) -> Result<Option<(bool, bool)>, String> {
    let Some(v) = v else { return Ok(None) };
    let mut modes = (false, false);
    for m in string_list(Some(v), what)? {
        match m.as_str() {
            "tangent" => modes.0 = true,
            "adjoint" => modes.1 = true,
            other => return Err(format!("`{what}`: the harness cannot check mode `{other}`")),
        }
    }
    Ok(Some(modes))
}

/// Reads the sources and roots of an `ad.toml` text; globs are expanded against `dir`.
pub fn parse_manifest(text: &str, dir: &Path) -> Result<Manifest, String> {
    let table: toml::Table = text.parse().map_err(|e| format!("ad.toml: {e}"))?;
    let default_modes = modes_of(
        table.get("options").and_then(|o| o.get("modes")),
        "options.modes",
    )?
    .unwrap_or((true, true));
    let mut sources = Vec::new();
    for pattern in string_list(table.get("sources"), "sources")? {
        let matched = expand_glob(dir, &pattern)?;
        if matched.is_empty() {
            return Err(format!(
                "ad.toml: source pattern `{pattern}` matches no file"
            ));
        }
        sources.extend(matched);
    }
    sources.sort();
    sources.dedup();
    let fixed_line_length = match table.get("fixed-line-length") {
        None => None,
        Some(toml::Value::Integer(n)) => Some(*n as usize),
        Some(toml::Value::String(s)) if s == "none" => Some(usize::MAX),
        Some(other) => return Err(format!("ad.toml: fixed-line-length = {other}?")),
    };
    let black_boxes = match table.get("black-box") {
        None => Vec::new(),
        Some(_) => {
            adgen::manifest::load(&dir.join("ad.toml"))
                .map_err(|f| format!("ad.toml: {}", f.rendered))?
                .request
                .black_boxes
        }
    };
    let preprocessor = adgen::request::Preprocessor {
        all: matches!(table.get("preprocess"), Some(toml::Value::Boolean(true))),
        defines: string_list(table.get("defines"), "defines")?,
    };
    let mut roots = Vec::new();
    let root_tables = match table.get("root") {
        Some(toml::Value::Array(a)) => a.clone(),
        _ => return Err("ad.toml: no [[root]] table".to_string()),
    };
    for root in &root_tables {
        let name = root
            .get("name")
            .and_then(|n| n.as_str())
            .ok_or("ad.toml: a [[root]] has no `name`")?
            .to_string();
        let (tangent, adjoint) =
            modes_of(root.get("modes"), "root.modes")?.unwrap_or(default_modes);
        roots.push(RootSpec {
            independents: string_list(root.get("independents"), "root.independents")?,
            dependents: string_list(root.get("dependents"), "root.dependents")?,
            name,
            tangent,
            adjoint,
        });
    }
    let mut sizes = Vec::new();
    if let Some(toml::Value::Table(procedures)) = table.get("sizes") {
        for (procedure, arguments) in procedures {
            let Some(arguments) = arguments.as_table() else {
                return Err(format!("`sizes.{procedure}` must be a table"));
            };
            for (argument, size) in arguments {
                let bad = || format!("`sizes.{procedure}.{argument}` must be a string or two");
                let size: Vec<String> = match size {
                    toml::Value::String(s) => vec![s.clone()],
                    toml::Value::Array(items) => items
                        .iter()
                        .map(|i| i.as_str().map(str::to_string).ok_or_else(bad))
                        .collect::<Result<_, _>>()?,
                    _ => return Err(bad()),
                };
                sizes.push((procedure.clone(), argument.clone(), size));
            }
        }
    }
    Ok(Manifest {
        sources,
        roots,
        sizes,
        fixed_line_length,
        black_boxes,
        preprocessor,
    })
}

/// Files of `dir` matching a one-level glob (`*.f90`, `src/*.f90`, `a.f90`), sorted.
fn expand_glob(dir: &Path, pattern: &str) -> Result<Vec<String>, String> {
    let (sub, file_pat) = match pattern.rsplit_once('/') {
        Some((s, f)) => (s, f),
        None => ("", pattern),
    };
    if sub.contains('*') {
        return Err(format!(
            "ad.toml: the harness only expands `*` in file names: `{pattern}`"
        ));
    }
    let search: PathBuf = if sub.is_empty() {
        dir.to_path_buf()
    } else {
        dir.join(sub)
    };
    let entries = std::fs::read_dir(&search).map_err(|e| format!("{}: {e}", search.display()))?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if entry.path().is_file() && wildcard_match(file_pat, &name) {
            out.push(if sub.is_empty() {
                name
            } else {
                format!("{sub}/{name}")
            });
        }
    }
    out.sort();
    Ok(out)
}

/// `*` matches any run of characters, `?` one character.
pub fn wildcard_match(pattern: &str, name: &str) -> bool {
    fn go(p: &[char], n: &[char]) -> bool {
        match p.first() {
            None => n.is_empty(),
            Some('*') => (0..=n.len()).any(|i| go(&p[1..], &n[i..])),
            Some('?') => !n.is_empty() && go(&p[1..], &n[1..]),
            Some(c) => n.first() == Some(c) && go(&p[1..], &n[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    go(&p, &n)
}

pub fn parse_check(text: &str) -> Result<CheckConfig, String> {
    let table: toml::Table = text.parse().map_err(|e| format!("check.toml: {e}"))?;
    let mut cfg = CheckConfig::default();
    for (key, value) in &table {
        let bad = || format!("check.toml: bad value for `{key}`: {value}");
        match key.as_str() {
            "seed" => {
                let s = value.as_integer().filter(|s| *s > 0).ok_or_else(bad)?;
                cfg.seed = s as u64;
            }
            "tolerance" => cfg.tolerance = as_f64(value).ok_or_else(bad)?,
            "adjoint_tolerance" => cfg.adjoint_tolerance = as_f64(value).ok_or_else(bad)?,
            "fd_step" => cfg.fd_step = as_f64(value).ok_or_else(bad)?,
            "link" => {
                let items = value.as_array().ok_or_else(bad)?;
                for i in items {
                    cfg.link.push(i.as_str().ok_or_else(bad)?.to_string());
                }
            }
            "sanitize" => cfg.sanitize = value.as_bool().ok_or_else(bad)?,
            "contract" => cfg.contract = value.as_bool().ok_or_else(bad)?,
            "timeout" => cfg.timeout_secs = value.as_integer().ok_or_else(bad)? as u64,
            "extent" | "row_length" => {
                let t = value.as_table().ok_or_else(bad)?;
                for (name, v) in t {
                    let e = v.as_integer().filter(|e| *e > 0).ok_or_else(bad)?;
                    let map = match key.as_str() {
                        "extent" => &mut cfg.extent,
                        _ => &mut cfg.row_length,
                    };
                    map.insert(name.to_string(), e);
                }
            }
            "range" => {
                let t = value.as_table().ok_or_else(bad)?;
                for (name, v) in t {
                    let pair = v.as_array().filter(|a| a.len() == 2).ok_or_else(bad)?;
                    let lo = as_f64(&pair[0]).ok_or_else(bad)?;
                    let hi = as_f64(&pair[1]).ok_or_else(bad)?;
                    if lo >= hi {
                        return Err(bad());
                    }
                    cfg.range.insert(name.to_string(), (lo, hi));
                }
            }
            name => {
                let v = match value {
                    toml::Value::Integer(i) => Value::Int(*i),
                    toml::Value::Boolean(b) => Value::Bool(*b),
                    toml::Value::Array(items) => Value::IntList(
                        items
                            .iter()
                            .map(|i| i.as_integer().ok_or_else(bad))
                            .collect::<Result<_, _>>()?,
                    ),
                    _ => {
                        return Err(format!(
                            "check.toml: `{name}` is neither a known key nor an integer, \
                             logical or integer-list value for a dummy argument"
                        ));
                    }
                };
                cfg.values.insert(name.to_string(), v);
            }
        }
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_toml_reads_values_extents_and_ranges() {
        let cfg = parse_check(
            "seed = 3\ntolerance = 1e-4\nn = 10\nflag = true\nidx = [1, 2]\n\
             [extent]\nx = 20\n[range]\nX = [0.1, 0.9]\n",
        )
        .unwrap();
        assert_eq!(cfg.seed, 3);
        assert_eq!(cfg.tolerance, 1e-4);
        assert_eq!(cfg.value_of("N"), Some(&Value::Int(10)));
        assert_eq!(cfg.value_of("flag"), Some(&Value::Bool(true)));
        assert_eq!(cfg.value_of("idx"), Some(&Value::IntList(vec![1, 2])));
        assert_eq!(cfg.extent_of("x"), Some(20));
        assert_eq!(cfg.range_of("x"), (0.1, 0.9));
        assert_eq!(cfg.range_of("y"), DEFAULT_RANGE);
    }

    #[test]
    fn check_toml_rejects_nonsense() {
        assert!(parse_check("x = \"text\"").is_err());
        assert!(parse_check("[range]\nx = [2.0, 1.0]").is_err());
        assert!(parse_check("[extent]\nx = 0").is_err());
    }

    #[test]
    fn wildcard() {
        assert!(wildcard_match("*.f90", "heat.f90"));
        assert!(!wildcard_match("*.f90", "heat.f"));
        assert!(wildcard_match("a?c", "abc"));
    }

    #[test]
    fn manifest_roots_and_modes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.f90"), "").unwrap();
        std::fs::write(dir.path().join("a.f90"), "").unwrap();
        std::fs::write(dir.path().join("c.txt"), "").unwrap();
        let m = parse_manifest(
            "sources = [\"*.f90\"]\n[options]\nmodes = [\"tangent\"]\n\
             [[root]]\nname = \"f\"\nindependents = [\"x\"]\ndependents = [\"y\"]\n\
             [[root]]\nname = \"g\"\nindependents = [\"x\"]\ndependents = [\"g\"]\n\
             modes = [\"tangent\", \"adjoint\"]\n",
            dir.path(),
        )
        .unwrap();
        assert_eq!(m.sources, vec!["a.f90", "b.f90"]);
        assert_eq!(m.roots.len(), 2);
        assert!(m.roots[0].tangent && !m.roots[0].adjoint);
        assert!(m.roots[1].tangent && m.roots[1].adjoint);
    }
}
