//! The `adgen` command line (INTERFACE.md §2).
//!
//! Two front doors lead to the same pipeline:
//! - `adgen diff [--manifest ad.toml] [--out-dir DIR]`, parsed by clap;
//! - Tapenade's `adgen -d|-b [-vector] -head "f(y)/(x)" [-O DIR] FILES...`, with
//!   single-dash long options, parsed by hand before clap sees the arguments.
//!
//! Exit status: 0 success, 1 user error (diagnostics printed on stderr; the output
//! directory is untouched), 2 internal error (a panic inside adgen).

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use adgen::diag::Diagnostic;
use adgen::{Request, SourceInput};
use adgen::{manifest, tapenade};
use clap::{Parser, Subcommand};

/// adgen builds and frees many small trees (expressions, statements): with mimalloc a
/// run takes about a third less time than with the system allocator
/// (`build-support/bench/scaling.sh`). The library leaves the allocator to its user.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Hands the memory mimalloc holds but no longer uses back to the system.
fn release_free_memory() {
    // SAFETY: `mi_collect` takes no pointer and may be called at any time from any
    // thread; it only returns free pages of the calling thread's heap (and abandoned
    // ones) to the operating system.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

const SUCCESS: u8 = 0;
const USER_ERROR: u8 = 1;
const INTERNAL_ERROR: u8 = 2;

/// Cannot write the output directory.
const E_WRITE: &str = "E0902";
/// Cannot read a source named on the command line.
const E_READ_SOURCE: &str = "E0903";
/// The manifest's format, shown by `adgen diff --help` (README.md says the same).
const MANIFEST_HELP: &str = "\
The manifest (ad.toml; paths relative to it, every key but `sources` and `root` optional):

  sources = [\"src/*.f90\", \"../lib/*.c\"] # globs, each one's matches sorted
  include-dirs = [\"include\"]            # searched for INCLUDE and #include \"...\"
  preprocess = true                     # the C preprocessor on every Fortran source (-cpp)
  defines = [\"WITH_TIDES\", \"NX=64\"]     # its -D options (Fortran and C)

  [options]                             # defaults for every root
  modes = [\"tangent\", \"adjoint\"]
  checkpoint-calls = true               # joint mode; false = split mode
  disable = [\"tbr\"]                     # activity, diff-liveness, tbr, snapshot, implicit-zero

  [[root]]                              # one table per procedure to differentiate
  name = \"heat\"
  independents = [\"u0\", \"k\"]            # inputs to differentiate with respect to
  dependents = [\"j\"]                    # outputs to differentiate
  modes = [\"adjoint\"]                   # overrides [options]
  # head = \"heat(j)/(u0 k)\"             # Tapenade's form, instead of the three above

  [sizes.smooth]                        # extents of arrays given without one
  y = \"n*m\"                             # (C `double *y`, Fortran `y(*)`)

  [black-box.solve]                     # a procedure whose derivatives you write
  arguments = [\"n\", \"a\", \"b\", \"x\"]      # its dummy arguments, in order
  depends = { x = [\"a\", \"b\"] }          # what it overwrites, from which inputs
  tangent = \"solve_d\"                   # your derivatives (these are the defaults)
  adjoint = \"solve_b\"

  [validate]                            # for `adgen validate` only: argument values
  n = 12                                # integer arguments of the roots, by name
  [validate.extent]                     # arrays given without a size
  x = 20

`adgen init` writes a first manifest from the sources.";

#[derive(Parser, Debug)]
#[command(
    name = "adgen",
    version,
    about = "Source-to-source automatic differentiation of Fortran and C",
    arg_required_else_help = true,
    after_help = "Tapenade-compatible form:\n  adgen -d|-b [-vector] -head \"f(y)/(x)\" [-O DIR] FILES...\n  (run `adgen -help` for its options)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Differentiate what the manifest names and write the derivative sources.
    #[command(after_long_help = MANIFEST_HELP)]
    Diff {
        /// The manifest.
        #[arg(long, default_value = "ad.toml")]
        manifest: PathBuf,
        /// Where to write the generated sources and `adgen-outputs.txt`.
        #[arg(long, default_value = "adgen-out")]
        out_dir: PathBuf,
        /// Also write a Makefile-style dependency file: `OUT_DIR/adgen-outputs.txt`
        /// depends on the manifest, every source and every file in the include
        /// directories (for CMake's DEPFILE, Ninja's depfile).
        #[arg(long, value_name = "FILE")]
        depfile: Option<PathBuf>,
        /// Differentiate only in these modes, for every root, instead of the manifest's
        /// (comma-separated: tangent, adjoint).
        #[arg(long, value_delimiter = ',', value_name = "MODES")]
        modes: Vec<String>,
        /// Print the manifest's source files (absolute paths, one per line) and write
        /// nothing.
        #[arg(long, conflicts_with = "list_outputs")]
        list_sources: bool,
        /// Print every file this run would write (absolute paths, one per line,
        /// `adgen-outputs.txt` first) and write nothing.
        #[arg(long)]
        list_outputs: bool,
        /// Print the compiler options the manifest's sources are read with (`-cpp` for
        /// `preprocess = true`, `-DNAME` for each of `defines`), one per line, and write
        /// nothing: for build systems that compile the sources.
        #[arg(long, conflicts_with_all = ["list_outputs", "list_sources"])]
        list_compile_options: bool,
        /// Print nothing but diagnostics (no summary).
        #[arg(short, long, conflicts_with = "verbose")]
        quiet: bool,
        /// Also list each file, written or unchanged, after the summary.
        #[arg(short, long)]
        verbose: bool,
    },
    /// Check every root by running it: tangent vs differences, adjoint vs tangent.
    ///
    /// The tangent is checked against central divided differences, the adjoint against
    /// the tangent by the dot-product test. The sources, the derivatives and a generated
    /// driver per root are compiled with gfortran/gcc and run;
    /// the manifest's `[validate]` table gives the values of integer arguments and the
    /// extents of arrays that arrive without one (see the README).
    Validate {
        /// The manifest.
        #[arg(long, default_value = "ad.toml")]
        manifest: PathBuf,
        /// Check this root only.
        #[arg(long, value_name = "NAME")]
        root: Option<String>,
        /// Keep the work directory (sources, drivers, executables) and print its path.
        #[arg(long)]
        keep: bool,
    },
    /// Write a first ad.toml, to edit: every procedure that no other calls becomes a
    /// root, its real inputs independents and its real outputs dependents.
    Init {
        /// The Fortran and C sources (default: the .f90, .f, .F90 and .c files of the
        /// current directory and of `src/`).
        sources: Vec<PathBuf>,
        /// Where to write the manifest; source paths in it are relative to it.
        #[arg(long, default_value = "ad.toml")]
        manifest: PathBuf,
        /// Overwrite an existing manifest.
        #[arg(long)]
        force: bool,
    },
    /// Print each statement of each differentiated procedure with what the analyses
    /// found: active variables, diff-liveness, values to be recorded, what the adjoint
    /// saves and what its forward sweep drops.
    Explain {
        /// The manifest.
        #[arg(long, default_value = "ad.toml")]
        manifest: PathBuf,
    },
}

/// What `adgen diff` does besides differentiating.
#[derive(Debug, Default)]
struct DiffOptions {
    depfile: Option<PathBuf>,
    modes: Vec<String>,
    list_sources: bool,
    list_outputs: bool,
    list_compile_options: bool,
    quiet: bool,
    verbose: bool,
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error: {info}");
        eprintln!("This is a bug in adgen; please report it with the input that caused it.");
    }));
    let args: Vec<OsString> = std::env::args_os().collect();
    // One run per process: what a run built is left for the exit to take back.
    adgen::skip_freeing_at_end();
    adgen::set_between_modes(release_free_memory);
    // The whole run on adgen's big stack: its passes recurse as deep as expressions are.
    let code =
        std::panic::catch_unwind(|| adgen::on_big_stack(|| run(&args))).unwrap_or_else(|_| {
            eprintln!("adgen: internal error");
            INTERNAL_ERROR
        });
    ExitCode::from(code)
}

fn run(args: &[OsString]) -> u8 {
    if std::env::var_os("ADGEN_DEBUG_PANIC").is_some() {
        panic!("ADGEN_DEBUG_PANIC is set");
    }
    let first = args.get(1).and_then(|a| a.to_str()).unwrap_or("");
    if first.starts_with('-') && !first.starts_with("--") && !matches!(first, "-h" | "-V") {
        return match tapenade::parse(&args[1..]) {
            Ok(tapenade::Args::Help) => {
                print!("{}", tapenade::USAGE);
                SUCCESS
            }
            Ok(tapenade::Args::Run(run)) => run_tapenade(run),
            Err(d) => {
                show(&render(&d));
                eprintln!("Run `adgen -help` for the Tapenade-compatible options.");
                USER_ERROR
            }
        };
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let _ = e.print();
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => SUCCESS,
                _ => USER_ERROR,
            };
        }
    };
    match cli.command {
        Command::Diff {
            manifest,
            out_dir,
            depfile,
            modes,
            list_sources,
            list_outputs,
            list_compile_options,
            quiet,
            verbose,
        } => {
            let options = DiffOptions {
                depfile,
                modes,
                list_sources,
                list_outputs,
                list_compile_options,
                quiet,
                verbose,
            };
            run_diff(&manifest, &out_dir, &options)
        }
        Command::Explain { manifest } => run_explain(&manifest),
        Command::Validate {
            manifest,
            root,
            keep,
        } => run_validate(&manifest, adgen::validate::run::Options { root, keep }),
        Command::Init {
            sources,
            manifest,
            force,
        } => run_init(&sources, &manifest, force),
    }
}

/// `adgen init`: proposes roots from the sources and writes the manifest, never over an
/// existing one unless `--force`.
fn run_init(sources: &[PathBuf], manifest_path: &Path, force: bool) -> u8 {
    match adgen::init::write_manifest(sources, manifest_path, force) {
        Ok((roots, sources)) => {
            eprintln!(
                "adgen: wrote {} with {roots} root(s) from {sources} source(s); edit it, then \
                 run `adgen diff`",
                manifest_path.display()
            );
            SUCCESS
        }
        Err(rendered) => {
            show(&rendered);
            USER_ERROR
        }
    }
}

/// `adgen validate`: prints a line per check and root; exit status 1 when a derivative
/// disagrees or a root cannot be checked.
fn run_validate(manifest_path: &Path, options: adgen::validate::run::Options) -> u8 {
    use adgen::validate::run;
    let loaded = match manifest::load_checked(manifest_path) {
        Ok(m) => m,
        Err(failure) => {
            show(&failure.rendered);
            return USER_ERROR;
        }
    };
    let settings = match run::settings_of(manifest_path, &loaded.display_path) {
        Ok(s) => s,
        Err(rendered) => {
            show(&rendered);
            return USER_ERROR;
        }
    };
    match run::validate(&loaded, settings, &options) {
        Ok(report) => {
            print!("{}", report.render());
            let roots = report.roots.len();
            if report.passed() {
                eprintln!("adgen: validate: the derivatives of {roots} root(s) agree");
                SUCCESS
            } else {
                eprintln!(
                    "adgen: validate: {} problem(s) in {roots} root(s)",
                    report.failures.len()
                );
                USER_ERROR
            }
        }
        Err(rendered) => {
            show(&rendered);
            USER_ERROR
        }
    }
}

fn run_explain(manifest_path: &Path) -> u8 {
    let loaded = match manifest::load_checked(manifest_path) {
        Ok(m) => m,
        Err(failure) => {
            show(&failure.rendered);
            return USER_ERROR;
        }
    };
    match adgen::explain(&loaded.sources, &loaded.request) {
        Ok(text) => {
            print!("{text}");
            SUCCESS
        }
        Err(failure) => {
            show(&failure.rendered);
            USER_ERROR
        }
    }
}

fn run_diff(manifest_path: &Path, out_dir: &Path, options: &DiffOptions) -> u8 {
    let started = std::time::Instant::now();
    let mut loaded = match manifest::load_checked(manifest_path) {
        Ok(m) => m,
        Err(failure) => {
            show(&failure.rendered);
            return USER_ERROR;
        }
    };
    if options.list_sources {
        for source in &loaded.source_files {
            println!("{}", slash(source));
        }
        return SUCCESS;
    }
    if options.list_compile_options {
        if loaded.preprocessor.all {
            println!("-cpp");
        }
        for d in &loaded.preprocessor.defines {
            println!("-D{d}");
        }
        return SUCCESS;
    }
    if !options.modes.is_empty() {
        let mut modes = BTreeSet::new();
        for name in &options.modes {
            match manifest::parse_mode(name.trim()) {
                Ok(mode) => {
                    modes.insert(mode);
                }
                Err((code, message)) => {
                    let d = Diagnostic::error(code, format!("--modes: {message}"))
                        .with_help("use `tangent`, `adjoint` or both, separated by a comma");
                    show(&render(&d));
                    return USER_ERROR;
                }
            }
        }
        for root in &mut loaded.request.roots {
            root.modes = modes.clone();
        }
    }
    let Some(generated) = differentiate(&loaded.sources, &loaded.request) else {
        return USER_ERROR;
    };
    if options.list_outputs {
        let out_dir = std::path::absolute(out_dir).unwrap_or_else(|_| out_dir.to_path_buf());
        println!("{}", slash(&out_dir.join(adgen::output::OUTPUTS_LIST)));
        for file in &generated.files {
            println!("{}", slash(&out_dir.join(&file.path)));
        }
        return SUCCESS;
    }
    let report = match write(&generated, out_dir) {
        Ok(report) => report,
        Err(code) => return code,
    };
    if !options.quiet {
        eprint!(
            "{}",
            summary(
                &loaded.request,
                out_dir,
                &report,
                started.elapsed(),
                options.verbose
            )
        );
    }
    if let Some(depfile) = &options.depfile {
        let mut prerequisites = vec![manifest_path.to_path_buf()];
        prerequisites.extend(loaded.source_files.iter().cloned());
        // Every file an INCLUDE line could name: over-approximate until the front-end
        // reports the files it actually included.
        for dir in &loaded.include_dirs {
            let files = walkdir::WalkDir::new(dir)
                .sort_by_file_name()
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file());
            prerequisites.extend(files.map(|e| e.into_path()));
        }
        // C headers next to the C sources (`#include "x.h"` looks there first).
        let mut header_dirs: Vec<&Path> = loaded
            .source_files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "c"))
            .filter_map(|f| f.parent())
            .collect();
        header_dirs.sort();
        header_dirs.dedup();
        for dir in header_dirs {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut headers: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "h"))
                .collect();
            headers.sort();
            prerequisites.extend(headers);
        }
        let target = out_dir.join(adgen::output::OUTPUTS_LIST);
        if let Err(e) = write_depfile(depfile, &target, &prerequisites) {
            let d = Diagnostic::error(
                E_WRITE,
                format!("cannot write the depfile `{}`: {e}", depfile.display()),
            );
            show(&render(&d));
            return USER_ERROR;
        }
    }
    SUCCESS
}

/// A path with `/` separators, absolute.
fn slash(path: &Path) -> String {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    path.to_string_lossy().replace('\\', "/")
}

/// Writes a Makefile-style dependency file, `target: prerequisites...`, with absolute
/// paths (spaces, `#` and `$` escaped as make and Ninja read them). Written only when
/// its content changes.
fn write_depfile(depfile: &Path, target: &Path, prerequisites: &[PathBuf]) -> std::io::Result<()> {
    fn escape(path: &Path) -> String {
        let mut out = String::new();
        for c in slash(path).chars() {
            match c {
                ' ' | '#' => {
                    out.push('\\');
                    out.push(c);
                }
                '$' => out.push_str("$$"),
                _ => out.push(c),
            }
        }
        out
    }
    let mut text = format!("{}:", escape(target));
    for p in prerequisites {
        text.push_str(" \\\n  ");
        text.push_str(&escape(p));
    }
    text.push('\n');
    if std::fs::read_to_string(depfile).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(parent) = depfile.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(depfile, text)
}

fn differentiate(sources: &[SourceInput], request: &Request) -> Option<adgen::Generated> {
    match adgen::differentiate(sources, request) {
        Ok(g) => {
            show(&g.warnings);
            Some(g)
        }
        Err(failure) => {
            show(&failure.rendered);
            None
        }
    }
}

fn write(generated: &adgen::Generated, out_dir: &Path) -> Result<adgen::output::WriteReport, u8> {
    adgen::output::write_outputs(out_dir, generated).map_err(|e| {
        let d = Diagnostic::error(
            E_WRITE,
            format!(
                "cannot write the output directory `{}`: {e}",
                out_dir.display()
            ),
        );
        show(&render(&d));
        USER_ERROR
    })
}

/// `adgen diff`'s closing lines on stderr: the roots and modes, the files written or
/// unchanged, the time; with `-v`, each file.
fn summary(
    request: &Request,
    out_dir: &Path,
    report: &adgen::output::WriteReport,
    elapsed: std::time::Duration,
    verbose: bool,
) -> String {
    let roots: Vec<String> = request
        .roots
        .iter()
        .map(|r| {
            let modes: Vec<&str> = r.modes.iter().map(|m| m.name()).collect();
            format!("{} ({})", r.name, modes.join(", "))
        })
        .collect();
    let what = if roots.len() <= 3 {
        roots.join(", ")
    } else {
        let procedures: usize = request.roots.iter().map(|r| r.modes.len()).sum();
        format!("{} roots ({procedures} derivative procedures)", roots.len())
    };
    let files = |n: usize| if n == 1 { "file" } else { "files" };
    let mut text = format!(
        "adgen: differentiated {what} into {}: {} {} written, {} unchanged ({:.2} s)\n",
        out_dir.display(),
        report.written.len(),
        files(report.written.len()),
        report.unchanged.len(),
        elapsed.as_secs_f64()
    );
    if verbose {
        for path in &report.written {
            text.push_str(&format!("  written    {path}\n"));
        }
        for path in &report.unchanged {
            text.push_str(&format!("  unchanged  {path}\n"));
        }
    }
    text
}

/// Prints rendered diagnostics on stderr, their `error`/`warning` words coloured when
/// stderr is a terminal and `NO_COLOR` is not set (as cargo and rustc do).
fn show(text: &str) {
    use std::io::IsTerminal as _;
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    if colour {
        eprint!("{}", paint(text));
    } else {
        eprint!("{text}");
    }
}

/// `error[E0101]` in bold red and `warning[W0201]` in bold yellow, where a diagnostic's
/// first line names them.
fn paint(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let found = [("error[", "\x1b[1;31m"), ("warning[", "\x1b[1;33m")]
            .into_iter()
            .find_map(|(word, style)| {
                let at = if line.starts_with(word) {
                    Some(0)
                } else {
                    line.find(&format!(": {word}")).map(|i| i + 2)
                }?;
                Some((at, word.len() - 1, style))
            });
        match found {
            Some((at, len, style)) => {
                out.push_str(&line[..at]);
                out.push_str(style);
                out.push_str(&line[at..at + len]);
                out.push_str("\x1b[0m");
                out.push_str(&line[at + len..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

fn render(d: &Diagnostic) -> String {
    d.render(&adgen::SourceMap::default())
}

fn run_tapenade(run: Box<tapenade::Run>) -> u8 {
    let mut sources = Vec::new();
    let mut failed = false;
    for file in &run.files {
        match std::fs::read(file) {
            Ok(bytes) => sources.push(SourceInput {
                path: manifest::display_path(file),
                text: String::from_utf8_lossy(&bytes).into_owned(),
                dir: file.parent().map(|d| {
                    if d.as_os_str().is_empty() {
                        PathBuf::from(".")
                    } else {
                        d.to_path_buf()
                    }
                }),
                include_dirs: Vec::new(),
                fixed_line_length: None,
                preprocessor: Default::default(),
            }),
            Err(e) => {
                let d = Diagnostic::error(
                    E_READ_SOURCE,
                    format!("cannot read source `{}`: {e}", file.display()),
                );
                show(&render(&d));
                failed = true;
            }
        }
    }
    if failed {
        return USER_ERROR;
    }
    let request = run.request();
    let started = std::time::Instant::now();
    let Some(generated) = differentiate(&sources, &request) else {
        return USER_ERROR;
    };
    match write(&generated, &run.out_dir) {
        Ok(report) => {
            eprint!(
                "{}",
                summary(&request, &run.out_dir, &report, started.elapsed(), false)
            );
            // Tapenade users compile its ADFirstAidKit by hand: say what replaces it.
            let list = adgen::output::outputs_list(&generated);
            let files: Vec<&str> = list.lines().collect();
            eprintln!(
                "adgen: compile {} (listed in {})",
                files.join(" "),
                run.out_dir.join(adgen::output::OUTPUTS_LIST).display()
            );
            SUCCESS
        }
        Err(code) => code,
    }
}

#[cfg(test)]
mod tests {
    use super::paint;

    #[test]
    fn paint_colours_only_the_severity_word() {
        let text = "a.f90:3:5: error[E0202]: expected `)`\n  |\n3 | y = (x\n  |     ^\n\
                    warning[W0103]: split mode\n";
        let painted = paint(text);
        assert!(painted.starts_with("a.f90:3:5: \x1b[1;31merror\x1b[0m[E0202]: expected"));
        assert!(painted.contains("\x1b[1;33mwarning\x1b[0m[W0103]"));
        assert_eq!(
            painted
                .replace("\x1b[1;31m", "")
                .replace("\x1b[1;33m", "")
                .replace("\x1b[0m", ""),
            text
        );
    }
}
