//! adgen must never panic. Every procedure of every corpus program (Fortran and C) is
//! made a root, with all its real dummies (and its result) independent and dependent,
//! in both modes: the differentiator must either produce code or refuse with
//! diagnostics, whatever the calling context.

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn every_procedure_as_a_root_never_panics() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut dirs = Vec::new();
    for lang in ["fortran", "c"] {
        for entry in std::fs::read_dir(corpus.join(lang)).unwrap().flatten() {
            dirs.push(entry.path());
        }
    }
    dirs.sort();
    let mut panics = Vec::new();
    let mut not_compiling = Vec::new();
    let mut roots_tried = 0;
    for dir in &dirs {
        let Ok(loaded) = adgen::manifest::load(&dir.join("ad.toml")) else {
            continue;
        };
        let mut sources = adgen::SourceMap::default();
        let Ok(program) = adgen::parse_sources(&loaded.sources, &mut sources) else {
            continue;
        };
        for unit in program.procedures() {
            let mut names: Vec<String> = unit
                .args
                .iter()
                .filter(|a| {
                    unit.symbols
                        .get(a)
                        .is_some_and(|s| s.ty.is_differentiable())
                })
                .cloned()
                .collect();
            let mut dependents = names.clone();
            if let Some(r) = &unit.result {
                if unit
                    .symbols
                    .get(r)
                    .is_some_and(|s| s.ty.is_differentiable())
                {
                    dependents.push(unit.name.clone());
                }
            }
            // INTENT(OUT) dummies cannot be independents, nor INTENT(IN) dependents.
            names.retain(|a| {
                unit.symbols
                    .get(a)
                    .is_none_or(|s| s.intent != Some(adgen::il::Intent::Out))
            });
            dependents.retain(|a| {
                unit.symbols
                    .get(a)
                    .is_none_or(|s| s.intent != Some(adgen::il::Intent::In))
            });
            if names.is_empty() || dependents.is_empty() {
                continue;
            }
            let request = adgen::Request {
                roots: vec![adgen::RootRequest {
                    name: unit.name.clone(),
                    independents: names,
                    dependents,
                    modes: BTreeSet::from([adgen::Mode::Tangent, adgen::Mode::Adjoint]),
                    origin: None,
                    entry_origins: Vec::new(),
                }],
                sizes: Vec::new(),
                black_boxes: Vec::new(),
                checkpoint_calls: true,
                naming: Default::default(),
                layout: Default::default(),
                option_warnings: Vec::new(),
                disabled: BTreeSet::new(),
            };
            roots_tried += 1;
            let inputs = loaded.sources.clone();
            let result = std::panic::catch_unwind(move || {
                let _ = adgen::explain(&inputs, &request);
                adgen::differentiate(&inputs, &request).ok()
            });
            match result {
                Err(_) => panics.push(format!("{}: root {}", dir.display(), unit.name)),
                Ok(Some(generated)) => {
                    if let Err(e) = compiles(&generated, &loaded.sources) {
                        not_compiling.push(format!("{}: root {}: {e}", dir.display(), unit.name));
                    }
                }
                Ok(None) => {}
            }
        }
    }
    assert!(roots_tried > 50, "only {roots_tried} roots tried");
    assert!(
        panics.is_empty(),
        "adgen panicked on:\n{}",
        panics.join("\n")
    );
    assert!(
        not_compiling.is_empty(),
        "generated code that does not compile warning-free:\n{}",
        not_compiling.join("\n")
    );
}

/// The generated Fortran compiles with `gfortran -Wall -Werror`, the generated C with
/// `gcc -std=c99 -Wall -Wextra -Werror`.
fn compiles(generated: &adgen::Generated, sources: &[adgen::SourceInput]) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    // Derivative modules use the original modules: their `.mod` files come first (the
    // corpus lists module files before their users).
    for s in sources
        .iter()
        .filter(|s| s.path.ends_with(".f90") && s.text.to_ascii_lowercase().contains("module"))
    {
        let name = format!("orig_{}", s.path.replace('/', "_"));
        std::fs::write(dir.path().join(&name), &s.text).map_err(|e| e.to_string())?;
        let out = std::process::Command::new("gfortran")
            .args(["-fsyntax-only", "-w", "-J"])
            .arg(dir.path())
            .arg(&name)
            .current_dir(dir.path())
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("original {} does not compile", s.path));
        }
    }
    for f in &generated.files {
        std::fs::write(dir.path().join(&f.path), &f.contents).map_err(|e| e.to_string())?;
    }
    for f in generated.files.iter().filter(|f| f.path.ends_with(".f90")) {
        let out = std::process::Command::new("gfortran")
            .args(["-c", "-Wall", "-Werror", "-J"])
            .arg(dir.path())
            .arg(&f.path)
            .arg("-o")
            .arg(format!("{}.o", f.path))
            .current_dir(dir.path())
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let first: Vec<&str> = err
                .lines()
                .filter(|l| l.contains("Error") || l.contains(".f90:"))
                .take(2)
                .collect();
            return Err(format!("{}: {}", f.path, first.join(" ")));
        }
    }
    for f in generated.files.iter().filter(|f| f.path.ends_with(".c")) {
        let out = std::process::Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "-I"])
            .arg(dir.path())
            .arg(&f.path)
            .arg("-o")
            .arg(format!("{}.o", f.path))
            .current_dir(dir.path())
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let first: Vec<&str> = err
                .lines()
                .filter(|l| l.contains("error"))
                .take(2)
                .collect();
            return Err(format!("{}: {}", f.path, first.join(" ")));
        }
    }
    Ok(())
}
