//! One corpus program from directory to verdict: differentiate it, build the derivative
//! drivers and the round-trip, run them and collect every failure with its stage.

use std::path::{Path, PathBuf};
use std::time::Duration;

use adgen::diff::Signature;
use adgen::il::{Program, Unit};
use adgen::{GeneratedFile, Mode, RootRequest, SourceInput};

use super::cdriver;
use super::checks::{self, Expected};
use super::config::{self, CheckConfig, Manifest, RootSpec};
use super::driver::{self, Printer};
use super::toolchain::{self, Outcome};

/// One thing that went wrong with one corpus program.
#[derive(Clone, Debug)]
pub struct Failure {
    pub case: String,
    pub stage: String,
    pub detail: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "=== {} [{}]", self.case, self.stage)?;
        write!(f, "{}", self.detail.trim_end())
    }
}

/// Where and how one program is built.
pub struct Context<'a> {
    pub name: String,
    pub work: PathBuf,
    pub check: CheckConfig,
    pub print: Printer<'a>,
    /// A C program: C drivers, C round trip.
    pub c: bool,
    /// The derived types the original sources define (Fortran).
    pub types: driver::Types,
    /// The original sources (parsed again with the generated files, whose modules use
    /// theirs).
    pub sources: Vec<adgen::SourceInput>,
}

impl Context<'_> {
    /// The sanitizer flags of a C case whose check.toml asks for them.
    fn sanitizer_flags(&self) -> &'static [&'static str] {
        if self.c && self.check.sanitize {
            toolchain::SANITIZE
        } else {
            &[]
        }
    }

    /// Flags for the user's sources: the fixed-form line length their manifest gives, as
    /// gfortran's `-ffixed-line-length-N`.
    fn original_flags(&self) -> Vec<String> {
        let length = self.sources.first().and_then(|s| s.fixed_line_length);
        // The manifest's preprocessing (`-cpp`, `-D`), as its build would compile them.
        let cpp = self
            .sources
            .first()
            .map(|s| config::cpp_flags(&s.preprocessor))
            .unwrap_or_default();
        toolchain::ORIGINAL_FFLAGS
            .iter()
            .map(|f| f.to_string())
            .chain(toolchain::fixed_line_length_flag(length))
            .chain(cpp)
            .collect()
    }
    fn fail(&self, stage: &str, detail: impl Into<String>) -> Failure {
        Failure {
            case: self.name.clone(),
            stage: stage.to_string(),
            detail: detail.into(),
        }
    }
    fn fail_outcome(&self, stage: &str, what: &str, o: &Outcome) -> Failure {
        self.fail(stage, format!("{what}\n{}", o.report()))
    }
    fn timeout(&self) -> Duration {
        Duration::from_secs(self.check.timeout_secs)
    }
}

fn write_file(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    // The driver is written from the IL, whose C names carry case marks.
    std::fs::write(path, adgen::il::names::spelled(text).as_ref())
}

/// The object of a source: the whole file name, extension included, so that
/// `adgen_runtime.c` and `adgen_runtime.f90` do not share one object.
fn object_name(path: &str) -> String {
    format!("{}.o", path.replace(['/', '\\', '.'], "_"))
}

/// Writes `sources` under `work/sub` and compiles them in order with `flags`.
pub fn compile_sources(
    ctx: &Context,
    sub: &str,
    sources: &[(String, String)],
    flags: &[&str],
    stage: &str,
) -> Result<Vec<PathBuf>, Vec<Failure>> {
    let dir = ctx.work.join(sub);
    let mut objects = Vec::new();
    let mut failures = Vec::new();
    for (path, text) in sources {
        let src = dir.join(path);
        if let Err(e) = write_file(&src, text) {
            failures.push(ctx.fail(stage, format!("cannot write {}: {e}", src.display())));
            continue;
        }
        if !(toolchain::is_fortran(path) || toolchain::is_c(path)) {
            continue;
        }
        let obj = dir.join(object_name(path));
        // Generated derivative modules use the original modules.
        let originals = format!("-I{}", ctx.work.join("original").display());
        let fflags: Vec<&str> = flags.iter().copied().chain([originals.as_str()]).collect();
        let cflags: Vec<&str> = if flags.contains(&"-Werror") {
            toolchain::CFLAGS
        } else {
            toolchain::CFLAGS_LENIENT
        }
        .iter()
        .chain(ctx.sanitizer_flags())
        .copied()
        .collect();
        let flags: &[&str] = if toolchain::is_c(path) {
            &cflags
        } else if sub == "original" || sub == "roundtrip" {
            flags
        } else {
            &fflags
        };
        let o = toolchain::compile(&src, &obj, &dir, flags);
        if o.success {
            objects.push(obj);
        } else {
            failures.push(ctx.fail_outcome(stage, &format!("{path} does not compile"), &o));
        }
    }
    if failures.is_empty() {
        Ok(objects)
    } else {
        Err(failures)
    }
}

/// Compiles a driver, links it with `objects` and runs it; returns its standard output.
pub fn build_and_run(
    ctx: &Context,
    sub: &str,
    driver_name: &str,
    driver_text: &str,
    objects: &[PathBuf],
    stage: &str,
) -> Result<String, Failure> {
    let dir = ctx.work.join(sub);
    let ext = if ctx.c { "c" } else { "f90" };
    let src = dir.join(format!("{driver_name}.{ext}"));
    write_file(&src, driver_text)
        .map_err(|e| ctx.fail(stage, format!("cannot write {}: {e}", src.display())))?;
    let obj = dir.join(format!("{driver_name}.o"));
    let generated_headers = format!("-I{}", ctx.work.join("generated").display());
    // The user's headers, which a generated header includes for the types they define.
    let user_headers = format!("-I{}", ctx.work.join("original").display());
    let cflags: Vec<&str> = toolchain::CFLAGS_LENIENT
        .iter()
        .copied()
        .chain([generated_headers.as_str(), user_headers.as_str()])
        .chain(ctx.sanitizer_flags().iter().copied())
        .collect();
    // A driver of a module procedure uses its module and the derivative modules.
    let module_dirs: Vec<String> = ["original", "generated", "generated-lenient"]
        .iter()
        .filter(|s| **s != sub)
        .map(|s| format!("-I{}", ctx.work.join(s).display()))
        .collect();
    let fflags: Vec<&str> = toolchain::DRIVER_FFLAGS
        .iter()
        .copied()
        .chain(module_dirs.iter().map(String::as_str))
        .collect();
    let flags: &[&str] = if ctx.c { &cflags } else { &fflags };
    let o = toolchain::compile(&src, &obj, &dir, flags);
    if !o.success {
        return Err(ctx.fail_outcome(
            stage,
            &format!("the generated driver does not compile:\n{driver_text}"),
            &o,
        ));
    }
    let mut all = objects.to_vec();
    all.push(obj);
    let exe = dir.join(driver_name);
    let o = toolchain::link(&all, &exe, &dir, ctx.sanitizer_flags());
    if !o.success {
        return Err(ctx.fail_outcome(stage, "link failed", &o));
    }
    let o = toolchain::run(&exe, &[], &dir, ctx.timeout());
    if !o.success {
        return Err(ctx.fail_outcome(stage, "the driver failed", &o));
    }
    Ok(o.stdout)
}

/// The roots with their IL units.
pub type Roots<'a> = [(&'a Unit, &'a RootSpec)];

/// Runs the primal driver of every root against `objects`; returns the combined output.
pub fn primal_outputs(
    ctx: &Context,
    sub: &str,
    objects: &[PathBuf],
    roots: &Roots,
    stage: &str,
) -> Result<String, Failure> {
    let mut all = String::new();
    for (unit, spec) in roots {
        let text = if ctx.c {
            cdriver::primal_driver(unit, spec, &ctx.check, &ctx.types)
        } else {
            driver::primal_driver(unit, spec, &ctx.check, ctx.print, &ctx.types)
        }
        .map_err(|e| ctx.fail("driver", e))?;
        let name = format!("primal_{}", spec.name.to_ascii_lowercase());
        let out = build_and_run(ctx, sub, &name, &text, objects, stage)?;
        all.push_str(&format!("ROOT {}\n{out}", spec.name));
    }
    Ok(all)
}

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

/// Generated files in compile order: `adgen-outputs.txt` when present, else as given.
fn compile_order(files: &[GeneratedFile]) -> Vec<&GeneratedFile> {
    if let Some(list) = files.iter().find(|f| f.path.ends_with("adgen-outputs.txt")) {
        let mut ordered: Vec<&GeneratedFile> = list
            .contents
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .filter_map(|l| files.iter().find(|f| f.path == l))
            .collect();
        // Files not listed (headers, the list itself) are still written.
        for f in files {
            if !ordered.iter().any(|o| o.path == f.path) {
                ordered.push(f);
            }
        }
        ordered
    } else {
        files.iter().collect()
    }
}

/// Compiles the generated files and checks each root's tangent and adjoint.
pub fn check_derivatives(
    ctx: &Context,
    original_objects: &[PathBuf],
    generated: &[GeneratedFile],
    signatures: &[Signature],
    roots: &Roots,
) -> Vec<Failure> {
    // The derivative types as generated: parsed back from the generated Fortran.
    let dtypes = if ctx.c
        || !roots.iter().any(|(u, _)| {
            u.args.iter().any(|a| {
                u.symbols
                    .get(a)
                    .is_some_and(|s| s.ty == adgen::il::ScalarType::Derived)
            })
        }) {
        driver::Types::new()
    } else {
        let mut inputs: Vec<adgen::SourceInput> = ctx.sources.clone();
        // Only the declarations matter here: a stand-in for the runtime module.
        inputs.push(adgen::SourceInput::new(
            "adgen_runtime_stub.f90",
            "module adgen_runtime\n  implicit none\nend module adgen_runtime\n",
        ));
        inputs.extend(
            compile_order(generated)
                .into_iter()
                .filter(|f| !f.path.ends_with(".c") && !f.path.ends_with(".h"))
                .filter(|f| !f.path.starts_with("adgen_runtime"))
                .map(|f| adgen::SourceInput::new(f.path.clone(), f.contents.clone())),
        );
        let mut map = adgen::SourceMap::default();
        match adgen::parse_sources(&inputs, &mut map) {
            Ok(p) => driver::collect_types(&p),
            Err(d) => {
                return vec![ctx.fail(
                    "driver",
                    format!(
                        "cannot parse the generated files for their derivative types:\n{}",
                        adgen::Diagnostics(d).render(&map)
                    ),
                )];
            }
        }
    };
    let ordered: Vec<(String, String)> = compile_order(generated)
        .into_iter()
        .map(|f| (f.path.clone(), f.contents.clone()))
        .collect();
    let mut failures = Vec::new();
    let gen_objects = match compile_sources(
        ctx,
        "generated",
        &ordered,
        toolchain::GENERATED_FFLAGS,
        "compile-generated",
    ) {
        Ok(o) => o,
        Err(f) => {
            // Warnings are failures, but the derivatives are still worth checking:
            // compile again without -Werror and go on when that works.
            failures.extend(f);
            match compile_sources(
                ctx,
                "generated-lenient",
                &ordered,
                toolchain::ORIGINAL_FFLAGS,
                "compile-generated",
            ) {
                Ok(o) => o,
                Err(_) => return failures,
            }
        }
    };
    let mut objects = original_objects.to_vec();
    objects.extend(gen_objects);
    for (unit, spec) in roots {
        let find = |mode: Mode| {
            signatures
                .iter()
                .find(|s| s.mode == mode && s.root.eq_ignore_ascii_case(&spec.name))
        };
        let tangent = if spec.tangent {
            find(Mode::Tangent)
        } else {
            None
        };
        let adjoint = if spec.adjoint {
            find(Mode::Adjoint)
        } else {
            None
        };
        if spec.tangent && tangent.is_none() || spec.adjoint && adjoint.is_none() {
            failures.push(ctx.fail(
                "signature",
                format!(
                    "adgen returned no signature for a requested mode of `{}`",
                    spec.name
                ),
            ));
            continue;
        }
        let headers: Vec<(String, String)> = generated
            .iter()
            .filter(|f| f.path.ends_with(".h") && !f.path.ends_with("adgen_runtime.h"))
            .map(|f| (f.path.clone(), f.contents.clone()))
            .collect();
        let made = if ctx.c {
            cdriver::derivative_driver(
                unit, spec, tangent, adjoint, &ctx.check, &headers, &ctx.types,
            )
        } else {
            driver::derivative_driver(
                unit, spec, tangent, adjoint, &ctx.check, ctx.print, &ctx.types, &dtypes,
            )
        };
        let (text, what) = match made {
            Ok(t) => t,
            Err(e) => {
                failures.push(ctx.fail("driver", e));
                continue;
            }
        };
        let name = format!("derivatives_{}", spec.name.to_ascii_lowercase());
        let output = match build_and_run(ctx, "derivatives", &name, &text, &objects, "check-run") {
            Ok(o) => o,
            Err(f) => {
                failures.push(f);
                continue;
            }
        };
        let root = spec.name.to_ascii_lowercase();
        // Differences with steps h and 10h agree: the function is smooth enough here.
        let mut expected = vec![Expected {
            kind: "fd-consistency",
            root: root.clone(),
            tolerance: ctx.check.tolerance,
        }];
        if what.tangent {
            expected.push(Expected {
                kind: "tangent-primal",
                root: root.clone(),
                tolerance: ctx.check.adjoint_tolerance,
            });
            expected.push(Expected {
                kind: "tangent",
                root: root.clone(),
                tolerance: ctx.check.tolerance,
            });
        }
        if what.adjoint {
            expected.push(if what.tangent {
                Expected {
                    kind: "adjoint",
                    root: root.clone(),
                    tolerance: ctx.check.adjoint_tolerance,
                }
            } else {
                Expected {
                    kind: "adjoint-fd",
                    root: root.clone(),
                    tolerance: ctx.check.tolerance,
                }
            });
        }
        if what.adjoint_cleared {
            expected.push(Expected {
                kind: "adjoint-cleared",
                root: root.clone(),
                tolerance: f64::MIN_POSITIVE,
            });
        }
        let problems = checks::evaluate(&output, &expected);
        if !problems.is_empty() {
            failures.push(ctx.fail(
                "check",
                format!("{}\ndriver output:\n{output}", problems.join("\n")),
            ));
        }
    }
    failures
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
