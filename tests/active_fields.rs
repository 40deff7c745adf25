//! Derivative types hold only the fields that can carry a derivative
//! (`analysis::fields`): the generated `t_d`/`t_b` of the corpus programs
//! `c/cells_passive_fields` and `fortran/cells_passive_types` (whose derivatives the
//! corpus checks) lack their passive real fields, and keep every field with activity
//! analysis switched off.

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus(lang: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(lang)
        .join(name)
}

/// Copies a corpus program into a temporary directory, with `extra` appended to its
/// manifest, runs `adgen diff` there and returns the generated texts (name, text).
fn generate(dir: &Path, extra: &str) -> (tempfile::TempDir, Vec<(String, String)>) {
    let work = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_owned();
        std::fs::copy(&path, work.path().join(name)).unwrap();
    }
    let manifest = work.path().join("ad.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    // `[options]` must come before the `[[root]]` tables.
    let text = match text.split_once("[[root]]") {
        Some((head, roots)) => format!("{head}{extra}\n[[root]]{roots}"),
        None => text,
    };
    std::fs::write(&manifest, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_adgen"))
        .args(["diff", "--out-dir", "out"])
        .current_dir(work.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "adgen failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files = Vec::new();
    for entry in std::fs::read_dir(work.path().join("out")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("adgen_runtime") {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(&path) {
            files.push((name, text));
        }
    }
    files.sort();
    (work, files)
}

/// The field names of the C struct `name` defined in `text`.
fn c_fields(text: &str, name: &str) -> Option<Vec<String>> {
    let start = text.find(&format!("struct {name} {{\n"))?;
    let body = &text[start..];
    let body = &body[body.find('\n')? + 1..body.find("};")?];
    Some(
        body.lines()
            .filter_map(|l| l.trim().trim_end_matches(';').split_whitespace().last())
            .map(|n| n.split('[').next().unwrap_or(n).to_string())
            .collect(),
    )
}

/// The component names of the Fortran derived type `name` defined in `text`.
fn fortran_fields(text: &str, name: &str) -> Option<Vec<String>> {
    let start = text.find(&format!("type {name}\n"))?;
    let body = &text[start..];
    let body = &body[body.find('\n')? + 1..body.find(&format!("end type {name}"))?];
    let mut out = Vec::new();
    for line in body.lines() {
        let Some((_, names)) = line.split_once("::") else {
            continue;
        };
        let mut depth = 0;
        let mut cur = String::new();
        for ch in names.chars() {
            match ch {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => out.push(std::mem::take(&mut cur).trim().to_string()),
                _ if depth == 0 => cur.push(ch),
                _ => {}
            }
        }
        out.push(cur.trim().to_string());
    }
    Some(out)
}

fn fields_in(
    files: &[(String, String)],
    name: &str,
    parse: fn(&str, &str) -> Option<Vec<String>>,
) -> Vec<String> {
    files
        .iter()
        .find_map(|(_, text)| parse(text, name))
        .unwrap_or_else(|| panic!("no definition of `{name}` in the generated files"))
}

#[test]
fn c_struct_derivatives_hold_only_active_members() {
    let (_work, files) = generate(&corpus("c", "cells_passive_fields"), "");
    for suffix in ["d", "b"] {
        assert_eq!(
            fields_in(&files, &format!("cell_{suffix}"), c_fields),
            ["rho", "mom"]
        );
        assert_eq!(
            fields_in(&files, &format!("params_{suffix}"), c_fields),
            ["visc"]
        );
    }
    // No derivative of a dropped member is referenced anywhere.
    for (name, text) in &files {
        for dropped in ["xc", "nupd", "cap", "cfl", "gamma"] {
            for base in ["ad", "ab", "bd", "bb", "cd", "cb", "g_pard", "g_parb"] {
                for op in [".", "->"] {
                    let r = format!("{base}{op}{dropped}");
                    assert!(!text.contains(&r), "{name} refers to `{r}`");
                }
            }
        }
    }
}

#[test]
fn fortran_derivative_types_hold_only_active_components() {
    let (_work, files) = generate(&corpus("fortran", "cells_passive_types"), "");
    for suffix in ["d", "b"] {
        let f = |t: &str| fields_in(&files, &format!("{t}_{suffix}"), fortran_fields);
        assert_eq!(f("cell_t"), ["rho", "mom", "pr"]);
        assert_eq!(f("params_t"), ["visc"]);
        assert_eq!(f("probe_t"), ["val"]);
        // No field of `tag_t` is ever active: it keeps its first one (never empty), and
        // `cell_t` drops its `tag` component.
        assert_eq!(f("tag_t"), ["stamp"]);
    }
    for (name, text) in &files {
        for dropped in ["%xc", "%nupd", "%cap", "%cfl", "%gamma", "%weight", "%tag"] {
            for base in ["ad", "ab", "bd", "bb", "cd", "cb", "pard", "parb"] {
                let r = format!("{base}{dropped}");
                assert!(!text.contains(&r), "{name} refers to `{r}`");
            }
        }
    }
}

#[test]
fn activity_off_keeps_every_field() {
    let off = "[options]\ndisable = [\"activity\"]\n";
    let (_work, files) = generate(&corpus("c", "cells_passive_fields"), off);
    assert_eq!(
        fields_in(&files, "cell_d", c_fields),
        ["rho", "mom", "xc", "nupd", "cap"]
    );
    assert_eq!(
        fields_in(&files, "params_b", c_fields),
        ["visc", "cfl", "gamma"]
    );
    let (_work, files) = generate(&corpus("fortran", "cells_passive_types"), off);
    assert_eq!(
        fields_in(&files, "cell_t_d", fortran_fields),
        ["rho", "mom", "xc", "nupd", "cap", "pr", "tag"]
    );
    assert_eq!(
        fields_in(&files, "probe_t_b", fortran_fields),
        ["val", "weight"]
    );
}

#[test]
fn explain_lists_the_derivative_fields() {
    let dir = corpus("c", "cells_passive_fields");
    let out = Command::new(env!("CARGO_BIN_EXE_adgen"))
        .args(["explain", "--manifest"])
        .arg(dir.join("ad.toml"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "type struct cell: derivative fields: rho, mom; without derivative: xc, nupd, cap"
        ),
        "{text}"
    );
}
