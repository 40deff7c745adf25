//! `adgen validate` (INTERFACE.md §2): every root of a manifest checked by running it,
//! the tangent against central divided differences and the adjoint against the tangent
//! by the dot-product test (seeds/000 §6; seeds/004 §9.1, Tapenade's validation
//! framework, which the user writes by hand there and adgen writes here).
//!
//! The user's sources are compiled as they are, in place (their INCLUDE files and
//! headers where they are), with gfortran and gcc; the derivatives the manifest asks
//! for, the runtime and one driver per root are compiled into a work directory, linked
//! and run. How a root's arguments get values comes from the manifest's `[validate]`
//! table ([`super::settings`]): integer arguments such as sizes and the extents of arrays
//! that arrive without one must be given there, as nothing in the sources says them.

use std::path::{Path, PathBuf};

use crate::Mode;
use crate::manifest::LoadedManifest;

use super::build::{Context, Failure, Roots, check_derivatives};
use super::checks::{self, CheckLine};
use super::fortran_driver as driver;
use super::settings::{self, CheckConfig, RootSpec};
use super::toolchain;

/// A `[validate]` value `adgen validate` cannot use, a `--root` that names no root, or
/// a work directory that cannot be made.
pub const E_VALIDATE: &str = "E0906";

/// A plain message as a rendered diagnostic.
fn error(message: String) -> String {
    crate::Diagnostic::error(E_VALIDATE, message).render(&crate::SourceMap::default())
}

/// What `adgen validate` was asked besides the manifest.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Validate this root only.
    pub root: Option<String>,
    /// Keep the work directory (its path is in the report) instead of removing it.
    pub keep: bool,
}

/// What the validation found.
#[derive(Debug, Default)]
pub struct Report {
    /// Per root, in manifest order: its name and the checks its driver printed.
    pub roots: Vec<(String, Vec<CheckLine>)>,
    /// Everything that went wrong: a check out of tolerance, a driver that could not be
    /// written, built or run.
    pub failures: Vec<Failure>,
    /// The kept work directory.
    pub kept: Option<PathBuf>,
    /// The settings the checks were judged by.
    pub tolerance: f64,
    pub adjoint_tolerance: f64,
}

impl Report {
    /// Whether every derivative agreed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// The report as printed: one line per check and root, then the failures.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (root, lines) in &self.roots {
            out.push_str(&format!("root `{root}`\n"));
            for line in lines {
                let Some((what, tolerance)) = self.describe(&line.kind) else {
                    continue;
                };
                let relerr = line.values.get("relerr").copied().unwrap_or(f64::NAN);
                // A zero reference proves nothing (`checks::evaluate` fails it too).
                let vacuous = line.vacuous();
                let verdict = if vacuous {
                    "FAILED (zero or no reference)"
                } else if relerr < tolerance {
                    "ok"
                } else {
                    "FAILED"
                };
                out.push_str(&format!(
                    "  {what:<44} relative error {relerr:9.2e}  (tolerance {tolerance:.0e})  {verdict}\n"
                ));
                if line.kind == "fd-consistency" && vacuous {
                    out.push_str(
                        "  (the differences are zero: the dependents do not vary with the \
                         independents at this point, so nothing can be checked)\n",
                    );
                } else if line.kind == "fd-consistency" && verdict == "FAILED" {
                    out.push_str(
                        "  (differences with two steps disagree: the root is not smooth \
                         enough at this point for differences to judge its derivatives; \
                         try other inputs with [validate.range], or fd-step)\n",
                    );
                }
            }
        }
        for f in &self.failures {
            // A check's figures are in the table above; its driver's whole output is in
            // the work directory (`--keep`).
            let detail = match f.detail.split_once("\ndriver output:") {
                Some((problems, _)) if f.stage == "check" => problems,
                _ => f.detail.trim_end(),
            };
            out.push_str(&format!("\nerror [{}]: {detail}\n", f.stage));
        }
        if let Some(dir) = &self.kept {
            out.push_str(&format!("\nwork directory kept: {}\n", dir.display()));
        }
        out
    }

    fn describe(&self, kind: &str) -> Option<(&'static str, f64)> {
        Some(match kind {
            "fd-consistency" => ("differences with steps h and 10h agree", self.tolerance),
            "tangent-primal" => (
                "tangent's primal results as the original's",
                self.adjoint_tolerance,
            ),
            "tangent" => ("tangent vs central differences", self.tolerance),
            "adjoint" => ("adjoint vs tangent (dot product)", self.adjoint_tolerance),
            "adjoint-fd" => ("adjoint vs differences (dot product)", self.tolerance),
            _ => return None,
        })
    }
}

/// Reads the `[validate]` table of the manifest at `manifest_path` (defaults when
/// absent); `Err` holds the rendered diagnostic.
pub fn settings_of(manifest_path: &Path, display_path: &str) -> Result<CheckConfig, String> {
    settings_in(manifest_path, display_path).map_err(error)
}

fn settings_in(manifest_path: &Path, display_path: &str) -> Result<CheckConfig, String> {
    let text = std::fs::read_to_string(manifest_path)
        .map_err(|e| format!("cannot read {display_path}: {e}"))?;
    let table: toml::Table = text.parse().map_err(|e| format!("{display_path}: {e}"))?;
    let what = format!("{display_path} [validate]");
    match table.get("validate") {
        None => Ok(CheckConfig {
            origin: what,
            ..CheckConfig::default()
        }),
        Some(toml::Value::Table(t)) => settings::from_table(t, &what),
        Some(_) => Err(format!("{what}: `validate` must be a table: `[validate]`")),
    }
}

/// Validates the roots of `loaded` (all, or `options.root`) with `check`; `Err` holds
/// the rendered diagnostics of what kept it from running.
pub fn validate(
    loaded: &LoadedManifest,
    mut check: CheckConfig,
    options: &Options,
) -> Result<Report, String> {
    let mut request = loaded.request.clone();
    extents_from_sizes(&request, &mut check);
    if let Some(only) = &options.root {
        request.roots.retain(|r| r.name.eq_ignore_ascii_case(only));
        if request.roots.is_empty() {
            let names: Vec<&str> = loaded
                .request
                .roots
                .iter()
                .map(|r| r.name.as_str())
                .collect();
            return Err(error(format!(
                "`--root {only}`: the manifest has no such root (its roots: {})",
                names.join(", ")
            )));
        }
    }
    let mut map = crate::SourceMap::default();
    let program = crate::parse_sources(&loaded.sources, &mut map)
        .map_err(|d| crate::Diagnostics(d).render(&map))?;
    let work = tempfile::Builder::new()
        .prefix("adgen-validate-")
        .tempdir()
        .map_err(|e| error(format!("cannot make a work directory: {e}")))?;
    let print = |e: &crate::il::Expr| crate::back::fortran::write_expr(e);
    let mut include_dirs: Vec<PathBuf> = loaded
        .source_files
        .iter()
        .filter_map(|f| f.parent().map(Path::to_path_buf))
        .chain(loaded.include_dirs.iter().cloned())
        .collect();
    include_dirs.sort();
    include_dirs.dedup();
    let specs: Vec<RootSpec> = request
        .roots
        .iter()
        .map(|r| RootSpec {
            name: r.name.clone(),
            independents: r.independents.clone(),
            dependents: r.dependents.clone(),
            tangent: r.modes.contains(&Mode::Tangent),
            adjoint: r.modes.contains(&Mode::Adjoint),
        })
        .collect();
    let mut roots = Vec::new();
    for spec in &specs {
        let spelled_as = || {
            program
                .procedures()
                .find(|u| crate::il::names::spelled(&u.name) == spec.name)
        };
        let unit = program
            .unit(&spec.name)
            .or_else(spelled_as)
            .ok_or_else(|| error(format!("no procedure `{}` in the sources", spec.name)))?;
        roots.push((unit, spec));
    }
    // Each root is driven in its own language.
    let in_c = |root: &crate::il::Unit| {
        program
            .files
            .iter()
            .any(|f| toolchain::is_c(&f.path) && f.units.iter().any(|u| std::ptr::eq(u, root)))
    };
    let mut report = Report {
        tolerance: check.tolerance,
        adjoint_tolerance: check.adjoint_tolerance,
        ..Report::default()
    };
    let types = driver::collect_types(&program);
    let originals = work.path().join("original");
    let context = |dir: PathBuf, c: bool| Context {
        name: loaded.display_path.clone(),
        work: dir,
        check: check.clone(),
        print: &print,
        c,
        types: types.clone(),
        sources: loaded.sources.clone(),
        strict: false,
        // The user's modules, compiled into the main work directory.
        include_dirs: include_dirs
            .iter()
            .cloned()
            .chain([originals.clone()])
            .collect(),
        outputs: Default::default(),
    };
    let objects = match compile_originals(&context(work.path().to_path_buf(), false), loaded) {
        Ok(o) => o,
        Err(f) => {
            report.failures = f;
            report.kept = keep(work, options.keep);
            return Ok(report);
        }
    };
    let generated =
        crate::differentiate(&loaded.sources, &request).map_err(|failure| failure.rendered)?;
    let mut outputs = Vec::new();
    let both = roots.iter().any(|(u, _)| in_c(u)) && roots.iter().any(|(u, _)| !in_c(u));
    for c in [false, true] {
        let group: Vec<_> = roots
            .iter()
            .copied()
            .filter(|(u, _)| in_c(u) == c)
            .collect();
        if group.is_empty() {
            continue;
        }
        let dir = match (both, c) {
            (false, _) => work.path().to_path_buf(),
            (true, false) => work.path().join("fortran-roots"),
            (true, true) => work.path().join("c-roots"),
        };
        let ctx = context(dir, c);
        let group: &Roots = &group;
        report.failures.extend(check_derivatives(
            &ctx,
            &objects,
            &generated.files,
            &generated.signatures,
            group,
        ));
        outputs.extend(ctx.outputs.into_inner());
    }
    for spec in &specs {
        let lines = outputs
            .iter()
            .filter(|(root, _)| *root == spec.name)
            .flat_map(|(_, out)| checks::parse_checks(out))
            .collect();
        report.roots.push((spec.name.clone(), lines));
    }
    report.kept = keep(work, options.keep);
    Ok(report)
}

/// The extents `[validate.extent]` does not give, of root arguments that `[sizes]` sizes
/// from integer arguments `[validate]` gives (`[sizes.f] x = "n*m"` with `n = 4`,
/// `m = 3`: `x` has 12 elements).
fn extents_from_sizes(request: &crate::Request, check: &mut CheckConfig) {
    for hint in &request.sizes {
        let is_root = request
            .roots
            .iter()
            .any(|r| r.name.eq_ignore_ascii_case(&hint.procedure));
        if !is_root || hint.row_length.is_some() || check.extent_of(&hint.argument).is_some() {
            continue;
        }
        if let Some(n) = evaluate(&hint.size, check).filter(|n| *n > 0) {
            check.extent.insert(hint.argument.clone(), n);
        }
    }
}

/// The value of a size expression from the integers of the settings.
fn evaluate(e: &crate::SizeExpr, check: &CheckConfig) -> Option<i64> {
    use crate::SizeExpr;
    Some(match e {
        SizeExpr::Int(i) => *i,
        SizeExpr::Name(n) => match check.value_of(n)? {
            settings::Value::Int(i) => *i,
            _ => return None,
        },
        SizeExpr::Binary(op, a, b) => {
            let (a, b) = (evaluate(a, check)?, evaluate(b, check)?);
            match op {
                '+' => a.checked_add(b)?,
                '-' => a.checked_sub(b)?,
                '*' => a.checked_mul(b)?,
                '/' => a.checked_div(b)?,
                _ => return None,
            }
        }
        SizeExpr::Element(..) => return None,
    })
}

/// The work directory's path when it is to be kept.
fn keep(work: tempfile::TempDir, keep: bool) -> Option<PathBuf> {
    keep.then(|| work.keep())
}

/// Compiles the user's sources where they are, and the files `[validate] link` names,
/// into `work/original`; `.mod` files go there too. Fortran modules must be compiled
/// before their users, which the manifest's order need not respect: sources that do not
/// compile are tried again while others do.
fn compile_originals(ctx: &Context, loaded: &LoadedManifest) -> Result<Vec<PathBuf>, Vec<Failure>> {
    let dir = ctx.work.join("original");
    std::fs::create_dir_all(&dir)
        .map_err(|e| vec![ctx.fail("compile-original", format!("{}: {e}", dir.display()))])?;
    let mut pending: Vec<PathBuf> = loaded.source_files.clone();
    for link in &ctx.check.link {
        pending.push(loaded.dir.join(link));
    }
    pending.retain(|p| {
        let name = p.to_string_lossy();
        toolchain::is_fortran(&name) || toolchain::is_c(&name)
    });
    let fflags = ctx.original_flags();
    // The manifest's `defines`, for C sources as for Fortran ones (without `-cpp`).
    let defines: Vec<String> = toolchain::cpp_flags(&loaded.preprocessor)
        .into_iter()
        .filter(|f| f != "-cpp")
        .collect();
    let includes = ctx.include_flags();
    let mut objects = Vec::new();
    let mut index = 0;
    loop {
        let mut failed = Vec::new();
        let mut errors = Vec::new();
        let before = objects.len();
        for src in pending {
            let name = src.to_string_lossy().to_string();
            let stem = src
                .file_name()
                .map(|f| f.to_string_lossy().replace('.', "_"))
                .unwrap_or_default();
            index += 1;
            let obj = dir.join(format!("{index:04}_{stem}.o"));
            let flags: Vec<&str> = if toolchain::is_c(&name) {
                toolchain::CFLAGS_LENIENT
                    .iter()
                    .copied()
                    .chain(defines.iter().map(String::as_str))
                    .chain(ctx.check.cflags.iter().map(String::as_str))
                    .chain(includes.iter().map(String::as_str))
                    .collect()
            } else {
                fflags
                    .iter()
                    .chain(includes.iter())
                    .map(String::as_str)
                    .collect()
            };
            let o = toolchain::compile(&src, &obj, &dir, &flags);
            if o.success {
                objects.push(obj);
            } else {
                errors.push(ctx.fail(
                    "compile-original",
                    format!("{name} does not compile\n{}", o.report()),
                ));
                failed.push(src);
            }
        }
        if failed.is_empty() {
            return Ok(objects);
        }
        if objects.len() == before {
            return Err(errors);
        }
        pending = failed;
    }
}
