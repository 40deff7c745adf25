//! What `build.rs` calls (DESIGN.md §7): differentiate into `OUT_DIR`, compile, link.
//!
//! ```no_run
//! // In build.rs's `fn main()`:
//! adgen::Build::new().manifest("ad.toml").compile();
//! ```
//!
//! [`Build::try_compile`]:
//! 1. loads the manifest (relative to `CARGO_MANIFEST_DIR`) and prints
//!    `cargo:rerun-if-changed` for it, every source and every include directory;
//! 2. differentiates, and writes the derivative sources with
//!    [`write_outputs`](crate::output::write_outputs) into `$OUT_DIR/adgen`;
//! 3. compiles the user's original sources, then every file of `adgen-outputs.txt` in its
//!    order (C with the `cc` crate, Fortran by running `FC`, default `gfortran`, with
//!    `-J` pointing into the output directory so `.mod` files stay there);
//! 4. archives every object into `libadgen_derivatives.a` and prints the `cargo:` lines
//!    that link it, and libgfortran.
//!
//! Every environment variable that changes the result is read through [`Build::env`],
//! which prints `cargo:rerun-if-env-changed`. Nothing is written outside `OUT_DIR`.

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Failure;
use crate::manifest::LoadedManifest;
use crate::output::{outputs_list, write_outputs};

/// Name of the static library that holds the user's code and its derivatives.
pub const LIBRARY_NAME: &str = "adgen_derivatives";

/// Builder for use from `build.rs`, in the style of `cc::Build`.
#[derive(Clone, Debug, Default)]
pub struct Build {
    manifest: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    fortran_compiler: Option<PathBuf>,
    flags: Vec<String>,
    bindings: bool,
}

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The manifest is missing or invalid.
    #[error("invalid manifest\n{0}")]
    Manifest(Failure),
    /// A source could not be differentiated.
    #[error("differentiation failed\n{0}")]
    Differentiate(Failure),
    /// Reading or writing a file failed.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: io::Error,
    },
    /// A compiler or archiver ran and failed.
    #[error("`{command}` failed ({status})\n{stderr}")]
    Compiler {
        command: String,
        status: String,
        stderr: String,
    },
    /// An environment variable that Cargo sets for build scripts is missing.
    #[error("environment variable `{0}` is not set; is this running from build.rs?")]
    Env(String),
}

impl BuildError {
    fn io(context: impl Into<String>) -> impl FnOnce(io::Error) -> BuildError {
        let context = context.into();
        move |source| BuildError::Io { context, source }
    }

    /// One line saying what went wrong, for `panic!`.
    pub fn summary(&self) -> String {
        match self {
            // The diagnostics themselves are printed above the summary; repeating one
            // here would list it twice.
            BuildError::Manifest(f) => {
                format!("invalid manifest: {}, listed above", error_count(f))
            }
            BuildError::Differentiate(f) => {
                format!("differentiation failed: {}, listed above", error_count(f))
            }
            BuildError::Compiler {
                command, status, ..
            } => {
                format!("`{command}` failed ({status})")
            }
            other => other.to_string(),
        }
    }
}

/// "1 error", "3 errors".
fn error_count(failure: &Failure) -> String {
    match failure.errors().count() {
        1 => "1 error".into(),
        n => format!("{n} errors"),
    }
}

impl Build {
    pub fn new() -> Build {
        Build::default()
    }

    /// The manifest, relative to `CARGO_MANIFEST_DIR` (default `ad.toml`).
    pub fn manifest(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.manifest = Some(path.as_ref().to_path_buf());
        self
    }

    /// Where the generated sources go, relative to `OUT_DIR` (default `$OUT_DIR/adgen`).
    /// It must lie inside `OUT_DIR`.
    pub fn out_dir(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.out_dir = Some(path.as_ref().to_path_buf());
        self
    }

    /// The Fortran compiler (default: `FC` from the environment, else `gfortran`).
    pub fn fortran_compiler(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.fortran_compiler = Some(path.as_ref().to_path_buf());
        self
    }

    /// An extra flag for every Fortran compilation, after `FFLAGS`.
    pub fn flag(&mut self, flag: impl Into<String>) -> &mut Build {
        self.flags.push(flag.into());
        self
    }

    /// Also generate Rust bindings (default: no): `bind(C)` Fortran wrappers compiled
    /// into the library and `$OUT_DIR/adgen/adgen_bindings.rs`, a module `derivatives`
    /// of safe functions taking slices, included with [`include_derivatives!`]
    /// (see [`crate::bindings`]). Only with the default output directory.
    pub fn bindings(&mut self, enable: bool) -> &mut Build {
        self.bindings = enable;
        self
    }

    /// Like [`Build::try_compile`], but prints the error and panics with one line.
    pub fn compile(&mut self) {
        if let Err(e) = self.try_compile() {
            eprintln!("adgen: {e}");
            panic!("adgen: {}", e.summary());
        }
    }

    /// Differentiates, compiles and links; see the module documentation.
    pub fn try_compile(&mut self) -> Result<(), BuildError> {
        crate::on_big_stack(|| self.try_compile_here())
    }

    fn try_compile_here(&mut self) -> Result<(), BuildError> {
        let manifest_dir = PathBuf::from(cargo_env("CARGO_MANIFEST_DIR")?);
        let cargo_out_dir = PathBuf::from(cargo_env("OUT_DIR")?);
        let manifest_path =
            manifest_dir.join(self.manifest.as_deref().unwrap_or(Path::new("ad.toml")));
        let out_dir = match &self.out_dir {
            Some(dir) => cargo_out_dir.join(dir),
            None => cargo_out_dir.join("adgen"),
        };
        if !lexically_inside(&out_dir, &cargo_out_dir) {
            return Err(BuildError::Io {
                context: format!("output directory `{}`", out_dir.display()),
                source: io::Error::new(io::ErrorKind::InvalidInput, "it must lie inside OUT_DIR"),
            });
        }
        let build_dir = cargo_out_dir.join("adgen-build");
        std::fs::create_dir_all(&build_dir).map_err(BuildError::io(format!(
            "creating `{}`",
            build_dir.display()
        )))?;

        let (loaded, units) = generate(&manifest_path, &out_dir, self.bindings)?;
        let tools = Tools::from_env(self)?;
        let (objects, any_fortran) =
            self.compile_units(&tools, &loaded, &units, &out_dir, &build_dir)?;

        let library = build_dir.join(format!("lib{LIBRARY_NAME}.a"));
        if library.exists() {
            std::fs::remove_file(&library)
                .map_err(BuildError::io(format!("removing `{}`", library.display())))?;
        }
        let mut ar = Command::new(&tools.archiver);
        // `D`: zero timestamps, uids and modes, for a reproducible archive.
        ar.arg("crsD").arg(&library).args(&objects);
        run(&mut ar)?;

        println!("cargo:rustc-link-search=native={}", build_dir.display());
        println!("cargo:rustc-link-lib=static={LIBRARY_NAME}");
        if any_fortran {
            println!("cargo:rustc-link-lib=gfortran");
        }
        Ok(())
    }

    /// Compiles every unit into `build_dir`: Fortran with `FC`, C with `cc`. Returns the
    /// objects and whether any Fortran was compiled.
    fn compile_units(
        &self,
        tools: &Tools,
        loaded: &LoadedManifest,
        units: &[PathBuf],
        out_dir: &Path,
        build_dir: &Path,
    ) -> Result<(Vec<PathBuf>, bool), BuildError> {
        let mut include_dirs = vec![out_dir.to_path_buf()];
        include_dirs.extend(loaded.include_dirs.iter().cloned());
        let prefix_maps = reproducible_flags(loaded, &self.cargo_dirs()?);

        let mut objects = Vec::new();
        let mut c_files = Vec::new();
        let mut any_fortran = false;
        for (index, unit) in units.iter().enumerate() {
            let name = unit.file_name().and_then(|n| n.to_str()).unwrap_or("unit");
            match source_kind(name) {
                Some(SourceKind::C) => {
                    c_files.push(unit.clone());
                    continue;
                }
                Some(SourceKind::Fortran) => any_fortran = true,
                // Headers and INCLUDE files are not compiled on their own.
                None => continue,
            }
            let object = build_dir.join(format!("{index:03}-{name}.o"));
            let mut cmd = Command::new(&tools.fortran);
            cmd.current_dir(&loaded.dir)
                .arg("-c")
                .args(&tools.fortran_opt)
                .arg("-fPIC")
                .arg("-J")
                .arg(out_dir);
            for dir in &include_dirs {
                cmd.arg("-I").arg(dir);
            }
            // The line the manifest says fixed-form sources were written for.
            match loaded.fixed_line_length {
                Some(usize::MAX) => {
                    cmd.arg("-ffixed-line-length-none");
                }
                Some(n) => {
                    cmd.arg(format!("-ffixed-line-length-{n}"));
                }
                None => {}
            }
            // The manifest's preprocessor settings, as it read the sources.
            if loaded.preprocessor.all {
                cmd.arg("-cpp");
            }
            cmd.args(loaded.preprocessor.defines.iter().map(|d| format!("-D{d}")));
            cmd.args(&prefix_maps)
                .args(&tools.fortran_flags)
                .args(&self.flags)
                .arg(unit)
                .arg("-o")
                .arg(&object);
            run(&mut cmd)?;
            objects.push(object);
        }
        if !c_files.is_empty() {
            let mut cc = cc::Build::new();
            cc.cargo_metadata(false)
                .emit_rerun_if_env_changed(false)
                .out_dir(build_dir.join("c"))
                .files(&c_files)
                .includes(&include_dirs)
                .flags(&prefix_maps)
                .pic(true);
            for d in &loaded.preprocessor.defines {
                let (name, value) = match d.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (d.as_str(), None),
                };
                cc.define(name, value);
            }
            if let Some(compiler) = &tools.c_compiler {
                cc.compiler(compiler);
            }
            let c_objects = cc
                .try_compile_intermediates()
                .map_err(|e| BuildError::Compiler {
                    command: "cc (C compiler)".into(),
                    status: "failed".into(),
                    stderr: e.to_string(),
                })?;
            objects.extend(c_objects);
        }
        Ok((objects, any_fortran))
    }

    /// The directories Cargo gives the build script: the package's and `OUT_DIR`.
    fn cargo_dirs(&self) -> Result<CargoDirs, BuildError> {
        Ok(CargoDirs {
            manifest_dir: PathBuf::from(cargo_env("CARGO_MANIFEST_DIR")?),
            out_dir: PathBuf::from(cargo_env("OUT_DIR")?),
        })
    }

    /// Reads a tool setting the way cc-rs does: `NAME_<target>`, `NAME_<target_with_underscores>`,
    /// `TARGET_NAME` or `HOST_NAME`, then `NAME`; the first one set wins. Prints
    /// `cargo:rerun-if-env-changed` for every variable it looks at.
    pub fn env(&self, name: &str) -> Option<String> {
        env_names(name).iter().find_map(|var| watched_env(var))
    }

    /// Reads a flags setting the way cc-rs does: every variant that is set, most general
    /// first (`NAME`, `TARGET_NAME`/`HOST_NAME`, `NAME_<target>`), split on whitespace.
    pub fn env_flags(&self, name: &str) -> Vec<String> {
        env_names(name)
            .iter()
            .rev()
            .filter_map(|var| watched_env(var))
            .flat_map(|v| v.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .collect()
    }
}

/// Loads the manifest, tells Cargo what to watch, differentiates and writes the outputs.
/// Returns the manifest and every file to compile, in order: the user's sources (modules
/// before their users), then the generated ones (already in an order that compiles).
fn generate(
    manifest_path: &Path,
    out_dir: &Path,
    bindings: bool,
) -> Result<(LoadedManifest, Vec<PathBuf>), BuildError> {
    println!("cargo:rerun-if-changed={}", manifest_path.display());
    let loaded = crate::manifest::load_checked(manifest_path).map_err(BuildError::Manifest)?;
    for source in &loaded.source_files {
        println!("cargo:rerun-if-changed={}", source.display());
    }
    for dir in loaded.include_dirs.iter().chain(&loaded.glob_dirs) {
        println!("cargo:rerun-if-changed={}", dir.display());
    }

    let mut generated = crate::differentiate(&loaded.sources, &loaded.request)
        .map_err(BuildError::Differentiate)?;
    if bindings {
        add_bindings(&loaded, &mut generated)?;
    }
    for line in generated.warnings.lines() {
        println!("cargo:warning={line}");
    }
    write_outputs(out_dir, &generated)
        .map_err(BuildError::io(format!("writing `{}`", out_dir.display())))?;

    let texts: Vec<&str> = loaded.sources.iter().map(|s| s.text.as_str()).collect();
    let mut units: Vec<PathBuf> = fortran_compile_order(&texts)
        .into_iter()
        .map(|i| loaded.source_files[i].clone())
        .collect();
    units.extend(outputs_list(&generated).lines().map(|l| out_dir.join(l)));
    Ok((loaded, units))
}

/// Adds the Rust bindings' two files to the generated ones: the Fortran wrappers are
/// then compiled with the rest, in `adgen-outputs.txt` order.
fn add_bindings(
    loaded: &LoadedManifest,
    generated: &mut crate::Generated,
) -> Result<(), BuildError> {
    let mut source_map = crate::SourceMap::default();
    let program = crate::parse_sources(&loaded.sources, &mut source_map).map_err(|d| {
        BuildError::Differentiate(Failure {
            rendered: crate::Diagnostics(d.clone()).render(&source_map),
            diagnostics: d,
        })
    })?;
    let bindings = crate::bindings::generate(&program, &generated.signatures);
    for warning in &bindings.warnings {
        println!("cargo:warning=adgen: {warning}");
    }
    for (path, contents) in [
        (crate::bindings::FORTRAN_FILE, bindings.fortran),
        (crate::bindings::RUST_FILE, bindings.rust),
    ] {
        generated.files.push(crate::GeneratedFile {
            path: path.to_string(),
            contents,
        });
    }
    Ok(())
}

/// Where Cargo builds: the package directory and `OUT_DIR`.
struct CargoDirs {
    manifest_dir: PathBuf,
    out_dir: PathBuf,
}

/// Flags that keep absolute build paths out of compiled objects (DESIGN.md §7): every
/// directory a path may start with is mapped to a relative name with
/// `-ffile-prefix-map` (sources, debug information, `__FILE__`), and the command line is
/// not recorded in the debug information (`-gno-record-gcc-switches`, whose `-J`/`-I`
/// would name absolute directories). GCC lets the last matching map win, so the maps are
/// ordered from the shortest directory to the longest: `OUT_DIR`, usually inside the
/// package, maps to `out` and not to `./target/...`.
fn reproducible_flags(loaded: &LoadedManifest, dirs: &CargoDirs) -> Vec<String> {
    let mut maps: Vec<(PathBuf, String)> = vec![
        (dirs.manifest_dir.clone(), ".".into()),
        (loaded.dir.clone(), ".".into()),
        (dirs.out_dir.clone(), "out".into()),
    ];
    for (index, dir) in loaded.include_dirs.iter().enumerate() {
        maps.push((dir.clone(), format!("include{index}")));
    }
    for source in &loaded.source_files {
        if let Some(parent) = source.parent() {
            if !maps.iter().any(|(dir, _)| parent.starts_with(dir)) {
                let index = maps.len();
                maps.push((parent.to_path_buf(), format!("src{index}")));
            }
        }
    }
    maps.sort_by_key(|(dir, _)| dir.as_os_str().len());
    maps.dedup_by(|a, b| a.0 == b.0);
    let mut flags: Vec<String> = maps
        .iter()
        .map(|(dir, to)| format!("-ffile-prefix-map={}={to}", dir.display()))
        .collect();
    flags.push("-gno-record-gcc-switches".into());
    flags
}

/// The tools and flags one build uses, resolved from the builder and the environment.
struct Tools {
    fortran: PathBuf,
    /// `-O0` or `-O2` after `OPT_LEVEL`, and `-g` when `DEBUG` is true.
    fortran_opt: Vec<String>,
    fortran_flags: Vec<String>,
    c_compiler: Option<String>,
    archiver: String,
}

impl Tools {
    fn from_env(build: &Build) -> Result<Tools, BuildError> {
        let fortran = match &build.fortran_compiler {
            Some(path) => path.clone(),
            None => PathBuf::from(build.env("FC").unwrap_or_else(|| "gfortran".into())),
        };
        let opt_level = cargo_env("OPT_LEVEL").unwrap_or_else(|_| "0".into());
        let mut fortran_opt = vec![if opt_level == "0" { "-O0" } else { "-O2" }.to_string()];
        if std::env::var("DEBUG").is_ok_and(|d| d != "false" && d != "0") {
            fortran_opt.push("-g".into());
        }
        let fortran_flags = build.env_flags("FFLAGS");
        // cc applies CC and CFLAGS itself with the same precedence; reading them here
        // makes Cargo rerun the build when they change.
        let c_compiler = build.env("CC");
        let _ = build.env_flags("CFLAGS");
        let archiver = build.env("AR").unwrap_or_else(|| "ar".into());
        Ok(Tools {
            fortran,
            fortran_opt,
            fortran_flags,
            c_compiler,
            archiver,
        })
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SourceKind {
    Fortran,
    C,
}

/// What compiles a file, by its extension: Fortran (fixed or free form, preprocessed or
/// not) or C; `None` for anything else (headers, INCLUDE files).
fn source_kind(file_name: &str) -> Option<SourceKind> {
    let ext = file_name.rsplit_once('.')?.1;
    match ext.to_ascii_lowercase().as_str() {
        "f" | "for" | "ftn" | "f77" | "f90" | "f95" | "f03" | "f08" => Some(SourceKind::Fortran),
        "c" if ext == "c" => Some(SourceKind::C),
        _ => None,
    }
}

/// Names to look up for a tool variable, most specific first (as cc-rs does).
fn env_names(name: &str) -> Vec<String> {
    let target = std::env::var("TARGET").unwrap_or_default();
    let host = std::env::var("HOST").unwrap_or_default();
    let kind = if target == host { "HOST" } else { "TARGET" };
    let mut names = Vec::new();
    if !target.is_empty() {
        names.push(format!("{name}_{target}"));
        names.push(format!("{name}_{}", target.replace(['-', '.'], "_")));
    }
    names.push(format!("{kind}_{name}"));
    names.push(name.to_string());
    names
}

/// The one place that reads a user-settable variable: tells Cargo to watch it.
fn watched_env(var: &str) -> Option<String> {
    println!("cargo:rerun-if-env-changed={var}");
    std::env::var(var).ok().filter(|v| !v.is_empty())
}

/// A variable that Cargo sets for build scripts (no need to watch it).
fn cargo_env(var: &str) -> Result<String, BuildError> {
    std::env::var(var).map_err(|_| BuildError::Env(var.to_string()))
}

/// An order in which Fortran sources compile: a file that defines a module comes before
/// the files that `use` it; otherwise the given order is kept. Cycles (which gfortran
/// rejects anyway) keep the given order.
pub fn fortran_compile_order(texts: &[&str]) -> Vec<usize> {
    let scanned: Vec<(Vec<String>, Vec<String>)> = texts.iter().map(|t| scan_modules(t)).collect();
    let definer = |module: &str| {
        scanned
            .iter()
            .position(|(defined, _)| defined.iter().any(|d| d == module))
    };
    let mut done = vec![false; texts.len()];
    let mut order = Vec::with_capacity(texts.len());
    while order.len() < texts.len() {
        let ready = (0..texts.len()).find(|&i| {
            !done[i]
                && scanned[i].1.iter().all(|m| match definer(m) {
                    Some(j) => j == i || done[j],
                    None => true,
                })
        });
        // A cycle: take the first file left.
        let next = ready.unwrap_or_else(|| {
            (0..texts.len())
                .find(|&i| !done[i])
                .expect("a file is left")
        });
        done[next] = true;
        order.push(next);
    }
    order
}

/// The modules a Fortran source defines and the modules it uses, lower-cased.
fn scan_modules(text: &str) -> (Vec<String>, Vec<String>) {
    let mut defined = Vec::new();
    let mut used = Vec::new();
    for line in text.lines() {
        let code = line
            .split('!')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let mut words = code
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty());
        match (words.next(), words.next()) {
            (Some("module"), Some(name))
                if !matches!(name, "procedure" | "function" | "subroutine") =>
            {
                defined.push(name.to_string());
            }
            (Some("use"), Some(name)) => {
                // `use, intrinsic :: iso_c_binding` names a compiler module.
                if name != "intrinsic" && name != "non_intrinsic" {
                    used.push(name.to_string());
                } else if name == "non_intrinsic" {
                    if let Some(real) = words.next() {
                        used.push(real.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    (defined, used)
}

/// True when `path` lies inside `dir`, after removing `.` and resolving `..` lexically.
fn lexically_inside(path: &Path, dir: &Path) -> bool {
    fn normal(p: &Path) -> Vec<std::path::Component<'_>> {
        let mut parts = Vec::new();
        for c in p.components() {
            match c {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    parts.pop();
                }
                other => parts.push(other),
            }
        }
        parts
    }
    let (path, dir) = (normal(path), normal(dir));
    path.len() > dir.len() && path.starts_with(&dir)
}

fn run(cmd: &mut Command) -> Result<(), BuildError> {
    let shown = format!("{cmd:?}");
    let output = cmd
        .output()
        .map_err(BuildError::io(format!("running {shown}")))?;
    if output.status.success() {
        // Compiler warnings reach the user through Cargo.
        for line in String::from_utf8_lossy(&output.stderr).lines() {
            if !line.trim().is_empty() {
                println!("cargo:warning={line}");
            }
        }
        Ok(())
    } else {
        Err(BuildError::Compiler {
            command: shown,
            status: output.status.to_string(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_dir_must_stay_inside() {
        let out = Path::new("/build/out");
        assert!(lexically_inside(&out.join("adgen"), out));
        assert!(lexically_inside(&out.join("./a/../b"), out));
        assert!(!lexically_inside(&out.join("../elsewhere"), out));
        assert!(!lexically_inside(out, out));
        assert!(!lexically_inside(Path::new("/tmp/x"), out));
    }

    #[test]
    fn modules_compile_before_their_users() {
        let main = "program p\n  use physics, only: step\nend program p\n";
        let physics = "module physics\n  use constants\n  use, intrinsic :: iso_c_binding\ncontains\nend module physics\n";
        let constants =
            "MODULE Constants ! the numbers\n  real, parameter :: pi = 3.14\nEND MODULE\n";
        let plain = "subroutine f()\n  ! use nothing\nend subroutine f\n";
        assert_eq!(
            fortran_compile_order(&[main, physics, plain, constants]),
            [2, 3, 1, 0]
        );
        assert_eq!(fortran_compile_order(&[plain, constants]), [0, 1]);
        let a = "module a\n use b\nend module\n";
        let b = "module b\n use a\nend module\n";
        assert_eq!(fortran_compile_order(&[a, b]), [0, 1]);
    }

    #[test]
    fn source_kinds() {
        assert_eq!(source_kind("a.f90"), Some(SourceKind::Fortran));
        assert_eq!(source_kind("a.F90"), Some(SourceKind::Fortran));
        assert_eq!(source_kind("legacy.f"), Some(SourceKind::Fortran));
        assert_eq!(source_kind("rt.c"), Some(SourceKind::C));
        assert_eq!(source_kind("rt.h"), None);
        assert_eq!(source_kind("common.inc"), None);
        assert_eq!(source_kind("Makefile"), None);
    }

    #[test]
    fn env_names_follow_cc() {
        let names = env_names("FC");
        assert_eq!(names.last().map(String::as_str), Some("FC"));
        assert!(names.iter().any(|n| n == "HOST_FC" || n == "TARGET_FC"));
    }

    #[test]
    fn errors_summarize_in_one_line() {
        let e = BuildError::Compiler {
            command: "gfortran -c x.f90".into(),
            status: "exit status: 1".into(),
            stderr: "x.f90:1: Error\nmore".into(),
        };
        assert_eq!(e.summary(), "`gfortran -c x.f90` failed (exit status: 1)");
        assert!(!BuildError::Env("OUT_DIR".into()).summary().contains('\n'));
    }
}
