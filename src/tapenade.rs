//! Tapenade's command line (INTERFACE.md §2, seeds/004 §6.1), so that a Makefile written
//! for Tapenade works with only the command changed:
//! `adgen -d|-b -head "f(y)/(x)" [-O DIR] [-o NAME] [naming options] FILES...`.
//!
//! What it writes is what Tapenade 3 writes: one derivative file per source and mode, all
//! in the output directory itself (`-O`, default `.`), named like the derivative
//! procedures (`heat_d.f90`); or, with `-o NAME`, one file per mode and language
//! (`NAME_d.f90`, `NAME_b.f90`). The names of derivative procedures, variables and
//! modules follow `-tgtfuncname`, `-tgtvarname`, `-tgtmodulename` and their adjoint
//! twins (`%` stands for the original name), else INTERFACE.md §3. The runtime the code
//! needs is written beside it and listed in `adgen-outputs.txt`.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::PathBuf;

use crate::diag::Diagnostic;
use crate::manifest;
use crate::request::{Mode, Naming, OutputLayout, Request, RootRequest};

/// A bad Tapenade-style argument.
pub const E_ARGS: &str = "E0904";

pub const USAGE: &str = "\
Usage: adgen -d|-b [-vector] -head \"f(outputs)/(inputs)\" [-O DIR] [-o NAME] FILES...

Tapenade-compatible form: differentiate the procedure named by -head in FILES.
  -d, -tangent          tangent mode (the default when neither -d nor -b is given)
  -b, -reverse          adjoint mode (may be combined with -d)
  -vector, -multi       vector mode (not implemented yet)
  -head \"f(y)/(x)\"      root procedure with its outputs and inputs; several roots
                        may be given in one -head or in repeated -head options
  -O, -outputdirectory DIR
                        output directory (default: the current directory); one
                        derivative file per source and mode goes into it (heat_d.f90)
  -o, -output NAME      one file per mode and language instead: NAME_d.f90, NAME_b.f90
  -tgtfuncname, -adjfuncname, -difffuncname PATTERN
                        names of tangent / adjoint / both derivative procedures and
                        files (default %_d, %_b; % is the original name)
  -tgtvarname, -adjvarname, -diffvarname PATTERN
                        names of derivative variables (default %d, %b)
  -tgtmodulename, -adjmodulename, -modulename PATTERN
                        names of derivative modules, types and COMMON blocks
                        (default %_d, %_b; Tapenade's own default is %_diff)
  -nooptim NAME         switch an optimization off: activity, diffliveness, tbr,
                        snapshot, spareinit (implicit zeros); may be repeated

The runtime files the derivatives need are written beside them; adgen-outputs.txt in
the output directory lists every file to compile, in order.
";

/// What the Tapenade-style arguments ask for.
#[derive(Debug, PartialEq)]
pub enum Args {
    Help,
    Run(Box<Run>),
}

/// One Tapenade-style run.
#[derive(Debug, PartialEq)]
pub struct Run {
    pub modes: BTreeSet<Mode>,
    pub heads: Vec<manifest::Head>,
    pub out_dir: PathBuf,
    pub files: Vec<PathBuf>,
    /// Optimizations switched off with `-nooptim NAME`.
    pub disabled: BTreeSet<String>,
    pub naming: Naming,
    pub layout: OutputLayout,
}

impl Run {
    /// The request this run makes of the pipeline.
    pub fn request(&self) -> Request {
        Request {
            roots: self
                .heads
                .iter()
                .map(|h| RootRequest {
                    name: h.name.clone(),
                    independents: h.independents.clone(),
                    dependents: h.dependents.clone(),
                    modes: self.modes.clone(),
                    origin: None,
                    entry_origins: Vec::new(),
                })
                .collect(),
            sizes: Vec::new(),
            black_boxes: Vec::new(),
            checkpoint_calls: true,
            disabled: self.disabled.clone(),
            naming: self.naming.clone(),
            layout: self.layout.clone(),
            option_warnings: Vec::new(),
        }
    }
}

/// The options that take a value, and those that do not.
const WITH_VALUE: [&str; 16] = [
    "-head",
    "-root",
    "-O",
    "-outputdirectory",
    "-o",
    "-output",
    "-nooptim",
    "-tgtfuncname",
    "-adjfuncname",
    "-difffuncname",
    "-tgtvarname",
    "-adjvarname",
    "-diffvarname",
    "-tgtmodulename",
    "-adjmodulename",
    "-modulename",
];
const FLAGS: [&str; 6] = ["-d", "-b", "-tangent", "-reverse", "-vector", "-multi"];

fn arg_error(message: String) -> Diagnostic {
    Diagnostic::error(E_ARGS, message)
}

/// Reads Tapenade's arguments (without the program name).
pub fn parse(args: &[OsString]) -> Result<Args, Diagnostic> {
    let mut modes = BTreeSet::new();
    let mut vector = false;
    let mut heads = Vec::new();
    let mut out_dir = None;
    let mut single = None;
    let mut files = Vec::new();
    let mut disabled = BTreeSet::new();
    let mut naming = Naming::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let text = arg.to_string_lossy();
        let mut value = |option: &str| {
            iter.next()
                .map(|v| v.to_string_lossy().into_owned())
                .ok_or_else(|| arg_error(format!("option `{option}` needs a value")))
        };
        match text.as_ref() {
            "-d" | "-tangent" => {
                modes.insert(Mode::Tangent);
            }
            "-b" | "-reverse" => {
                modes.insert(Mode::Adjoint);
            }
            "-vector" | "-multi" => vector = true,
            "-head" | "-root" => {
                let head = value("-head")?;
                let parsed = manifest::parse_heads(&head)
                    .map_err(|e| arg_error(format!("invalid -head `{head}`: {e}")))?;
                for h in parsed {
                    if h.dependents.is_empty() || h.independents.is_empty() {
                        return Err(arg_error(format!(
                            "-head `{head}` must name outputs and inputs: `{}(outputs)/(inputs)`",
                            h.name
                        )));
                    }
                    heads.push(h);
                }
            }
            "-O" | "-outputdirectory" => out_dir = Some(PathBuf::from(value("-O")?)),
            "-o" | "-output" => {
                let name = value("-o")?;
                if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
                    return Err(arg_error(format!(
                        "`-o {name}` must be a plain file name without extension"
                    ))
                    .with_help("choose the directory with -O DIR"));
                }
                single = Some(name);
            }
            "-nooptim" => {
                let name = value("-nooptim")?;
                let ours = match name.as_str() {
                    "diffliveness" => "diff-liveness",
                    "spareinit" => "implicit-zero",
                    other => other,
                };
                if !manifest::DISABLE_NAMES.contains(&ours) {
                    let names = manifest::DISABLE_NAMES.join(", ");
                    return Err(
                        arg_error(format!("unknown optimization `{name}` after -nooptim"))
                            .with_help(format!("adgen can switch off: {names}")),
                    );
                }
                disabled.insert(ours.to_string());
            }
            option @ ("-tgtfuncname" | "-adjfuncname" | "-difffuncname" | "-tgtvarname"
            | "-adjvarname" | "-diffvarname" | "-tgtmodulename" | "-adjmodulename"
            | "-modulename") => {
                let pattern = value(option)?;
                if !Naming::valid_pattern(&pattern) {
                    return Err(arg_error(format!(
                        "`{option} {pattern}` does not make a name from every name"
                    ))
                    .with_help(
                        "give letters, digits and `_` around one `%`, which stands for the original name (`%_diff`), or a suffix (`_diff`)",
                    ));
                }
                let tangent = !option.starts_with("-adj");
                let adjoint = !option.starts_with("-tgt");
                for (wanted, patterns) in [
                    (tangent, &mut naming.tangent),
                    (adjoint, &mut naming.adjoint),
                ] {
                    if !wanted {
                        continue;
                    }
                    if option.ends_with("funcname") {
                        patterns.procedure.clone_from(&pattern);
                    } else if option.ends_with("varname") {
                        patterns.variable.clone_from(&pattern);
                    } else {
                        patterns.module.clone_from(&pattern);
                    }
                }
            }
            "-help" | "--help" | "-h" | "-?" => return Ok(Args::Help),
            option if option.starts_with('-') && option.len() > 1 => {
                let known: Vec<&str> = WITH_VALUE.iter().chain(&FLAGS).copied().collect();
                let mut d = arg_error(format!("unknown option `{option}`"));
                if let Some(s) = manifest::suggest(option, &known) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                return Err(d);
            }
            _ => files.push(PathBuf::from(arg)),
        }
    }
    if vector {
        return Err(Diagnostic::error(
            manifest::E_MODE_NOT_IMPLEMENTED,
            "vector modes (-vector) are not implemented yet",
        )
        .with_help("drop -vector and run once per direction"));
    }
    if heads.is_empty() {
        return Err(arg_error("no root given".into())
            .with_help("name it with -head \"f(outputs)/(inputs)\""));
    }
    if files.is_empty() {
        return Err(arg_error("no source files given".into()));
    }
    if modes.is_empty() {
        modes.insert(Mode::Tangent);
    }
    if modes.len() == 2 {
        check_modes_apart(&naming)?;
    }
    let layout = match single {
        Some(name) => {
            let c_files = files.iter().filter(|f| is_c(f)).count();
            if c_files > 1 {
                return Err(arg_error(format!(
                    "-o puts every derivative into one file, but {c_files} C sources cannot share one file yet"
                ))
                .with_help("drop -o: each C source then gets its own derivative file"));
            }
            OutputLayout::Single(name)
        }
        None => {
            check_distinct_stems(&files)?;
            OutputLayout::Flat
        }
    };
    Ok(Args::Run(Box::new(Run {
        modes,
        heads,
        out_dir: out_dir.unwrap_or_else(|| PathBuf::from(".")),
        files,
        disabled,
        naming,
        layout,
    })))
}

fn is_c(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e == "c")
}

/// With both modes in one run, tangent and adjoint procedures and modules need different
/// names: Tapenade puts both modes in one module (`m_diff`), adgen writes one per mode.
fn check_modes_apart(naming: &Naming) -> Result<(), Diagnostic> {
    let (t, a) = (&naming.tangent, &naming.adjoint);
    for (what, same, options) in [
        (
            "procedures",
            t.procedure == a.procedure,
            "-tgtfuncname and -adjfuncname",
        ),
        (
            "modules",
            t.module == a.module,
            "-tgtmodulename and -adjmodulename",
        ),
    ] {
        if same {
            return Err(arg_error(format!(
                "with -d and -b together, tangent and adjoint {what} would get the same names"
            ))
            .with_help(format!(
                "adgen writes the two modes apart: give different patterns with {options} (`%_d` and `%_b`), or run once per mode"
            )));
        }
    }
    Ok(())
}

/// In the flat layout two sources of one language with one stem (`a/model.f90`,
/// `b/model.f90`, or `model.f` and `model.f90`) would write one derivative file.
fn check_distinct_stems(files: &[PathBuf]) -> Result<(), Diagnostic> {
    let mut seen: Vec<((String, bool), &PathBuf)> = Vec::new();
    for f in files {
        let stem = f
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = (stem, is_c(f));
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == stem) {
            return Err(arg_error(format!(
                "`{}` and `{}` would write derivative files of the same name",
                first.display(),
                f.display()
            ))
            .with_help("put every derivative into one file per mode with -o NAME"));
        }
        seen.push((stem, f));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
