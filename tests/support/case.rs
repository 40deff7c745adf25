//! One corpus program from directory to verdict: differentiate it, build the derivative
//! drivers and the round-trip, run them and collect every failure with its stage.

use std::path::{Path, PathBuf};

use adgen::il::Program;
pub use adgen::validate::build::{
    Context, Failure, Roots, build_and_run, check_derivatives, compile_sources, primal_outputs,
};
use adgen::validate::{checks, fortran_driver as driver, toolchain};
use adgen::{Mode, RootRequest, SourceInput};

use super::config::{self, CheckConfig, Manifest};

/// Round trip: the unparsed sources must compute bitwise the same as the originals.
pub fn check_roundtrip(
    ctx: &Context,
    reference: &str,
    unparsed: &[(String, String)],
    roots: &Roots,
) -> Vec<Failure> {
    let objects = match compile_sources(
        ctx,
        "roundtrip",
        unparsed,
        &ctx.original_flags()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        "roundtrip-compile",
    ) {
        Ok(o) => o,
        Err(f) => return f,
    };
    match primal_outputs(ctx, "roundtrip", &objects, roots, "roundtrip-run") {
        Ok(out) => match checks::compare_primal(reference, &out) {
            None => Vec::new(),
            Some(diff) => vec![ctx.fail(
                "roundtrip",
                format!("the unparsed program computes something else: {diff}"),
            )],
        },
        Err(f) => vec![f],
    }
}

/// The files of a corpus directory that the sources include: Fortran INCLUDE files
/// (`*.inc`, `*.fi`) and C headers (`*.h`), sorted, as (name, text).
pub fn include_files(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".inc") || name.ends_with(".fi") || name.ends_with(".h") {
                if let Ok(text) = std::fs::read_to_string(e.path()) {
                    out.push((name, text));
                }
            }
        }
    }
    out.sort();
    out
}

/// Reads a corpus directory's manifest, check file and sources.
pub fn load(dir: &Path) -> Result<(Manifest, CheckConfig, Vec<SourceInput>), String> {
    let read =
        |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"));
    let manifest = config::parse_manifest(&read("ad.toml")?, dir)?;
    let mut check = config::parse_check(&read("check.toml")?)?;
    check.contract |= std::env::var_os("ADGEN_CORPUS_CONTRACT").is_some();
    let mut sources = Vec::new();
    for path in &manifest.sources {
        sources.push(SourceInput {
            path: path.clone(),
            text: read(path)?,
            dir: Some(dir.to_path_buf()),
            include_dirs: Vec::new(),
            fixed_line_length: manifest.fixed_line_length,
            preprocessor: manifest.preprocessor.clone(),
        });
    }
    Ok((manifest, check, sources))
}

/// The request for a manifest: joint mode (checkpoint every call) unless
/// `ADGEN_CORPUS_CHECKPOINT=0`, and the optimizations named in `ADGEN_CORPUS_DISABLE`
/// (comma-separated) switched off, so the whole corpus can be run in every
/// configuration the differentiator supports.
pub fn request(manifest: &Manifest) -> adgen::Request {
    let checkpoint_calls = !matches!(
        std::env::var("ADGEN_CORPUS_CHECKPOINT").as_deref(),
        Ok("0") | Ok("false") | Ok("no")
    );
    let disabled = std::env::var("ADGEN_CORPUS_DISABLE")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    adgen::Request {
        roots: manifest
            .roots
            .iter()
            .map(|r| RootRequest {
                name: r.name.clone(),
                independents: r.independents.clone(),
                dependents: r.dependents.clone(),
                modes: [(r.tangent, Mode::Tangent), (r.adjoint, Mode::Adjoint)]
                    .into_iter()
                    .filter(|(on, _)| *on)
                    .map(|(_, m)| m)
                    .collect(),
                origin: None,
                entry_origins: Vec::new(),
            })
            .collect(),
        sizes: manifest
            .sizes
            .iter()
            .map(|(procedure, argument, size)| adgen::SizeHint {
                procedure: procedure.clone(),
                argument: argument.clone(),
                size: adgen::SizeExpr::parse(&size[0]).expect("a size in the corpus parses"),
                row_length: size
                    .get(1)
                    .map(|s| adgen::SizeExpr::parse(s).expect("a size in the corpus parses")),
                origin: None,
            })
            .collect(),
        black_boxes: manifest.black_boxes.clone(),
        checkpoint_calls,
        disabled,
        naming: Default::default(),
        layout: Default::default(),
        option_warnings: Vec::new(),
    }
}

/// Keeps work directories when `ADGEN_CORPUS_KEEP` is set, for debugging.
pub fn work_dir(name: &str) -> std::io::Result<(PathBuf, Option<tempfile::TempDir>)> {
    let dir = tempfile::Builder::new()
        .prefix(&format!("adgen-corpus-{name}-"))
        .tempdir()?;
    if std::env::var_os("ADGEN_CORPUS_KEEP").is_some() {
        let path = dir.keep();
        Ok((path, None))
    } else {
        Ok((dir.path().to_path_buf(), Some(dir)))
    }
}

/// The whole pipeline for one corpus directory.
pub fn run_case(dir: &Path) -> Vec<Failure> {
    run_case_with(dir, &[])
}

/// Like [`run_case`], with the optimizations named in `disable` switched off too.
pub fn run_case_with(dir: &Path, disable: &[&str]) -> Vec<Failure> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let simple = |stage: &str, detail: String| {
        vec![Failure {
            case: name.clone(),
            stage: stage.to_string(),
            detail,
        }]
    };
    let (manifest, check, sources) = match load(dir) {
        Ok(x) => x,
        Err(e) => return simple("config", e),
    };
    let (work, _guard) = match work_dir(&name) {
        Ok(w) => w,
        Err(e) => return simple("config", format!("cannot make a work directory: {e}")),
    };
    let print = |e: &adgen::il::Expr| adgen::back::fortran::write_expr(e);
    let mut ctx = Context {
        name: name.clone(),
        work,
        check,
        print: &print,
        c: sources.iter().any(|s| toolchain::is_c(&s.path)),
        types: Default::default(),
        sources: Vec::new(),
        strict: true,
        include_dirs: Vec::new(),
        outputs: Default::default(),
    };
    let mut source_map = adgen::SourceMap::default();
    let program: Program = match adgen::parse_sources(&sources, &mut source_map) {
        Ok(p) => p,
        Err(d) => {
            return simple("parse", adgen::Diagnostics(d).render(&source_map));
        }
    };
    ctx.types = driver::collect_types(&program);
    ctx.sources = sources.clone();
    let mut roots = Vec::new();
    for spec in &manifest.roots {
        let spelled_as = || {
            program
                .procedures()
                .find(|u| adgen::il::names::spelled(&u.name) == spec.name)
        };
        match program.unit(&spec.name).or_else(spelled_as) {
            Some(u) => roots.push((u, spec)),
            None => {
                return simple(
                    "parse",
                    format!("the front-end produced no unit `{}`", spec.name),
                );
            }
        }
    }
    // A mixed Fortran/C program is driven in the language of its roots.
    if let Some((root, _)) = roots.first() {
        ctx.c = program
            .files
            .iter()
            .any(|f| toolchain::is_c(&f.path) && f.units.iter().any(|u| std::ptr::eq(u, *root)));
    }
    // Files the sources INCLUDE sit next to them (written first), for the compiler.
    let mut originals = include_files(dir);
    originals.extend(sources.iter().map(|s| (s.path.clone(), s.text.clone())));
    // Files adgen is not given but the program links (black boxes, their derivatives).
    let mut linked = Vec::new();
    for path in &ctx.check.link {
        match std::fs::read_to_string(dir.join(path)) {
            Ok(text) => linked.push((path.clone(), text)),
            Err(e) => return simple("config", format!("link file {path}: {e}")),
        }
    }
    originals.extend(linked.iter().cloned());
    let orig_objects = match compile_sources(
        &ctx,
        "original",
        &originals,
        &ctx.original_flags()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        "compile-original",
    ) {
        Ok(o) => o,
        Err(f) => return f,
    };
    let mut failures = Vec::new();
    match primal_outputs(&ctx, "original", &orig_objects, &roots, "primal-run") {
        Ok(reference) => {
            if checks::has_non_finite(&reference) {
                failures.push(ctx.fail(
                    "primal-run",
                    format!("the original computes non-finite values:\n{reference}"),
                ));
            }
            let mut unparsed: Vec<(String, String)> = program
                .files
                .iter()
                .map(|f| {
                    // The back-end writes free-form Fortran: a fixed-form source's
                    // round trip is a `.f90` file.
                    let path = free_form_path(&f.path);
                    (path, adgen::back::write_file(f, &program))
                })
                .collect();
            unparsed.extend(linked.iter().cloned());
            failures.extend(check_roundtrip(&ctx, &reference, &unparsed, &roots));
        }
        Err(f) => failures.push(f),
    }
    let mut request = request(&manifest);
    request
        .disabled
        .extend(disable.iter().map(|s| s.to_string()));
    match adgen::differentiate(&sources, &request) {
        Ok(generated) => failures.extend(check_derivatives(
            &ctx,
            &orig_objects,
            &generated.files,
            &generated.signatures,
            &roots,
        )),
        Err(f) => failures.push(ctx.fail("differentiate", f.rendered)),
    }
    failures
}

/// `a.f` (fixed form, or preprocessed `.F`) → `a.f90`; free-form and C paths unchanged.
fn free_form_path(path: &str) -> String {
    match path.rsplit_once('.') {
        Some((_, "f90" | "f95" | "f03" | "f08" | "c")) | None => path.to_string(),
        Some((stem, _)) => format!("{stem}.f90"),
    }
}
