//! Building and running the validation drivers: the user's sources, the generated
//! files and the runtime compiled with gfortran and gcc into a work directory, one driver
//! per root linked against them and run, and its `CHECK` lines judged
//! ([`super::checks`]). `adgen validate` and the corpus harness both go through here.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::diff::Signature;
use crate::il::Unit;
use crate::{GeneratedFile, Mode};

use super::c_driver;
use super::checks::{self, Expected};
use super::fortran_driver::{self as driver, Printer};
use super::settings::{CheckConfig, RootSpec};
use super::toolchain::{self, Outcome};

/// One thing that went wrong with one program (a corpus case, or a manifest's roots).
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
    pub sources: Vec<crate::SourceInput>,
    /// Generated code must compile without a warning (`-Wall -Werror`), as the corpus
    /// demands; otherwise it is compiled as the user's code is.
    pub strict: bool,
    /// Directories the generated files and the drivers also search for modules, INCLUDE
    /// files and headers: the user's source and include directories.
    pub include_dirs: Vec<PathBuf>,
    /// What each root's derivative driver printed, by root name, in the order run.
    pub outputs: std::cell::RefCell<Vec<(String, String)>>,
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
    pub fn original_flags(&self) -> Vec<String> {
        let length = self.sources.first().and_then(|s| s.fixed_line_length);
        // The manifest's preprocessing (`-cpp`, `-D`), as its build would compile them.
        let cpp = self
            .sources
            .first()
            .map(|s| toolchain::cpp_flags(&s.preprocessor))
            .unwrap_or_default();
        self.base_fflags()
            .iter()
            .map(|f| f.to_string())
            .chain(toolchain::fixed_line_length_flag(length))
            .chain(cpp)
            .chain(self.check.fflags.iter().cloned())
            .collect()
    }

    /// gfortran's flags for the user's code and, unless strict, the generated code.
    fn base_fflags(&self) -> &'static [&'static str] {
        if self.strict {
            toolchain::ORIGINAL_FFLAGS
        } else {
            toolchain::USER_FFLAGS
        }
    }

    /// `-I` options for [`Context::include_dirs`].
    pub fn include_flags(&self) -> Vec<String> {
        self.include_dirs
            .iter()
            .map(|d| format!("-I{}", d.display()))
            .collect()
    }
    pub fn fail(&self, stage: &str, detail: impl Into<String>) -> Failure {
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
    std::fs::write(path, crate::il::names::spelled(text).as_ref())
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
        let includes = ctx.include_flags();
        let fflags: Vec<&str> = flags
            .iter()
            .copied()
            .chain([originals.as_str()])
            .chain(includes.iter().map(String::as_str))
            .collect();
        let cflags: Vec<&str> = if flags.contains(&"-Werror") {
            toolchain::CFLAGS
        } else {
            toolchain::CFLAGS_LENIENT
        }
        .iter()
        .chain(ctx.sanitizer_flags())
        .copied()
        .chain(includes.iter().map(String::as_str))
        .chain(ctx.check.cflags.iter().map(String::as_str))
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
    let includes = ctx.include_flags();
    let cflags: Vec<&str> = toolchain::CFLAGS_LENIENT
        .iter()
        .copied()
        .chain([generated_headers.as_str(), user_headers.as_str()])
        .chain(includes.iter().map(String::as_str))
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
        .chain(includes.iter().map(String::as_str))
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
            c_driver::primal_driver(unit, spec, &ctx.check, &ctx.types)
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
                    .is_some_and(|s| s.ty == crate::il::ScalarType::Derived)
            })
        }) {
        driver::Types::new()
    } else {
        let mut inputs: Vec<crate::SourceInput> = ctx.sources.clone();
        // Only the declarations matter here: a stand-in for the runtime module.
        inputs.push(crate::SourceInput::new(
            "adgen_runtime_stub.f90",
            "module adgen_runtime\n  implicit none\nend module adgen_runtime\n",
        ));
        inputs.extend(
            compile_order(generated)
                .into_iter()
                .filter(|f| !f.path.ends_with(".c") && !f.path.ends_with(".h"))
                .filter(|f| !f.path.starts_with("adgen_runtime"))
                .map(|f| crate::SourceInput::new(f.path.clone(), f.contents.clone())),
        );
        let mut map = crate::SourceMap::default();
        match crate::parse_sources(&inputs, &mut map) {
            Ok(p) => driver::collect_types(&p),
            Err(d) => {
                return vec![ctx.fail(
                    "driver",
                    format!(
                        "cannot parse the generated files for their derivative types:\n{}",
                        crate::Diagnostics(d).render(&map)
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
    let lenient: Vec<String> = ctx
        .base_fflags()
        .iter()
        .map(|f| f.to_string())
        .chain(ctx.check.fflags.iter().cloned())
        .collect();
    let lenient: Vec<&str> = lenient.iter().map(String::as_str).collect();
    let gen_objects = if !ctx.strict {
        match compile_sources(ctx, "generated", &ordered, &lenient, "compile-generated") {
            Ok(o) => o,
            Err(f) => return f,
        }
    } else {
        match compile_sources(
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
                    &lenient,
                    "compile-generated",
                ) {
                    Ok(o) => o,
                    Err(_) => return failures,
                }
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
            c_driver::derivative_driver(
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
        ctx.outputs
            .borrow_mut()
            .push((spec.name.clone(), output.clone()));
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
