//! How the validation drivers call a root: the values of its integer and logical
//! arguments, the extents of arrays that arrive without one, where real inputs are drawn
//! from, and the tolerances the checks are judged by. `adgen validate` reads them from the
//! manifest's `[validate]` table, the corpus harness from each program's `check.toml`;
//! both have the same keys (every one optional):
//!
//! ```toml
//! seed = 7                  # of the driver's pseudo-random numbers
//! tolerance = 1e-6          # tangent against central differences (norm-wise relative)
//! adjoint_tolerance = 1e-10 # dot-product test (relative)
//! fd_step = 1e-6            # relative step: the direction of each input is scaled by its magnitude
//! timeout = 60              # seconds per program run
//! link = ["lib.f90"]        # sources compiled and linked but not differentiated
//! fflags = ["-std=legacy"]  # extra options for gfortran (and `cflags` for gcc) on the
//!                           #   user's sources and the generated ones
//! n = 10                    # integer or logical dummy arguments of the root, by name;
//! idx = [1, 3, 2]           #   integer arrays as lists
//! [extent]                  # extent of the last dimension of assumed-size arrays
//! x = 20
//! [row_length]              # a matrix of row pointers (C `double **a`): the length of a
//! a = 4                     #   row ([extent] gives its rows)
//! [range]                   # where real inputs are drawn from (default 0.5..1.5)
//! x = [0.1, 0.9]
//! ```
//!
//! In `ad.toml` the keys may also be spelled with hyphens (`adjoint-tolerance`,
//! `fd-step`, `row-length`), as the manifest's other keys are.

use std::collections::BTreeMap;

/// One root as the validation drivers see it: its name, independents, dependents and the
/// modes to check.
#[derive(Clone, Debug, PartialEq)]
pub struct RootSpec {
    pub name: String,
    pub independents: Vec<String>,
    pub dependents: Vec<String>,
    pub tangent: bool,
    pub adjoint: bool,
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
    /// Where the settings were read, for messages: `check.toml`, `ad.toml [validate]`.
    pub origin: String,
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
    /// Extra options for gfortran and gcc on the user's sources and the generated ones
    /// (`fflags = ["-std=legacy"]`, `cflags = ["-DNDEBUG"]`).
    pub fflags: Vec<String>,
    pub cflags: Vec<String>,
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
            origin: "check.toml".to_string(),
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
            fflags: Vec::new(),
            cflags: Vec::new(),
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
    let name = crate::il::names::spelled(name);
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

/// Reads a corpus program's `check.toml`.
pub fn parse_check(text: &str) -> Result<CheckConfig, String> {
    let table: toml::Table = text.parse().map_err(|e| format!("check.toml: {e}"))?;
    from_table(&table, "check.toml")
}

/// Reads the settings of a TOML table; `what` names where it stands in messages
/// (`check.toml`, `ad.toml [validate]`).
pub fn from_table(table: &toml::Table, what: &str) -> Result<CheckConfig, String> {
    let mut cfg = CheckConfig {
        origin: what.to_string(),
        ..CheckConfig::default()
    };
    for (key, value) in table {
        let bad = || format!("{what}: bad value for `{key}`: {value}");
        match key.as_str() {
            "seed" => {
                let s = value.as_integer().filter(|s| *s > 0).ok_or_else(bad)?;
                cfg.seed = s as u64;
            }
            "tolerance" => cfg.tolerance = as_f64(value).ok_or_else(bad)?,
            "adjoint_tolerance" | "adjoint-tolerance" => {
                cfg.adjoint_tolerance = as_f64(value).ok_or_else(bad)?
            }
            "fd_step" | "fd-step" => cfg.fd_step = as_f64(value).ok_or_else(bad)?,
            "link" | "fflags" | "cflags" => {
                let items = value.as_array().ok_or_else(bad)?;
                let list = match key.as_str() {
                    "link" => &mut cfg.link,
                    "fflags" => &mut cfg.fflags,
                    _ => &mut cfg.cflags,
                };
                for i in items {
                    list.push(i.as_str().ok_or_else(bad)?.to_string());
                }
            }
            "sanitize" => cfg.sanitize = value.as_bool().ok_or_else(bad)?,
            "contract" => cfg.contract = value.as_bool().ok_or_else(bad)?,
            "timeout" => cfg.timeout_secs = value.as_integer().ok_or_else(bad)? as u64,
            "extent" | "row_length" | "row-length" => {
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
                            "{what}: `{name}` is neither a known key nor an integer, \
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
}
