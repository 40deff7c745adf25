//! The two files of a corpus program: the part of `ad.toml` the harness needs (sources and
//! roots) and `check.toml`, which tells the driver how to call the root.
//!
//! `check.toml` holds the settings of [`adgen::validate::settings`], read by
//! [`parse_check`]; this file reads the manifest the way the harness needs it.

pub use adgen::validate::settings::{CheckConfig, RootSpec, Value, parse_check};
pub use adgen::validate::toolchain::cpp_flags;

use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests {
    use super::*;

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
