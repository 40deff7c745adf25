//! `cargo adgen`: adgen as a Cargo subcommand (install with `cargo install --path .`;
//! Cargo then runs this binary for `cargo adgen ...`).
//!
//! - `cargo adgen expand`: prints the derivative code that the crate's build script
//!   generates, like `cargo expand` does for macros, without building anything;
//! - `cargo adgen check`: differentiates without building and reports every diagnostic;
//!   exit status 1 when there are errors (or warnings, with `--deny-warnings`).
//!
//! The package is found with `cargo metadata` (the one in or above the current directory,
//! or `-p NAME`, or every workspace member with `--workspace`), and its manifest is
//! `[package.metadata.adgen] manifest = "..."` when given, else `ad.toml` next to its
//! `Cargo.toml`; `--ad-manifest PATH` overrides both.
//!
//! Exit status: 0 success, 1 diagnostics (or a package or manifest not found), 2 internal
//! error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "cargo", bin_name = "cargo")]
enum CargoCli {
    /// adgen's Cargo subcommand: see the derivatives a crate generates, or check them.
    #[command(version)]
    Adgen(AdgenCli),
}

#[derive(Args, Debug)]
struct AdgenCli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the derivative code the crate's build script generates.
    Expand {
        #[command(flatten)]
        select: Select,
        /// Also print the runtime sources (adgen_runtime.*).
        #[arg(long)]
        runtime: bool,
        /// Also print the Rust bindings and their Fortran wrappers.
        #[arg(long)]
        bindings: bool,
    },
    /// Differentiate without building; report every diagnostic.
    Check {
        #[command(flatten)]
        select: Select,
        /// Fail on warnings too.
        #[arg(long)]
        deny_warnings: bool,
    },
}

#[derive(Args, Debug)]
struct Select {
    /// Path to Cargo.toml (default: found from the current directory).
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
    /// The package to use.
    #[arg(short = 'p', long, value_name = "NAME", conflicts_with = "workspace")]
    package: Option<String>,
    /// Every workspace member that has an adgen manifest.
    #[arg(long)]
    workspace: bool,
    /// The adgen manifest (default: `[package.metadata.adgen] manifest`, else `ad.toml`
    /// next to Cargo.toml).
    #[arg(long, value_name = "PATH", conflicts_with = "workspace")]
    ad_manifest: Option<PathBuf>,
}

const SUCCESS: u8 = 0;
const USER_ERROR: u8 = 1;
const INTERNAL_ERROR: u8 = 2;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error: {info}");
        eprintln!("This is a bug in adgen; please report it with the input that caused it.");
    }));
    let code = std::panic::catch_unwind(|| adgen::on_big_stack(run)).unwrap_or(INTERNAL_ERROR);
    ExitCode::from(code)
}

fn run() -> u8 {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Run directly as `cargo-adgen expand`, not through Cargo: insert the `adgen` Cargo
    // passes.
    if args.get(1).is_none_or(|a| a != "adgen") {
        args.insert(1, "adgen".into());
    }
    let CargoCli::Adgen(cli) = match CargoCli::try_parse_from(args) {
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
    let select = match &cli.command {
        Command::Expand { select, .. } | Command::Check { select, .. } => select,
    };
    let manifests = match find_manifests(select) {
        Ok(m) => m,
        Err(message) => {
            eprintln!("error: {message}");
            return USER_ERROR;
        }
    };
    let mut code = SUCCESS;
    for (package, manifest) in manifests {
        let result = match &cli.command {
            Command::Expand {
                runtime, bindings, ..
            } => expand(&manifest, *runtime, *bindings),
            Command::Check { deny_warnings, .. } => check(&package, &manifest, *deny_warnings),
        };
        code = code.max(result);
    }
    code
}

/// The packages to work on, each with its adgen manifest.
fn find_manifests(select: &Select) -> Result<Vec<(String, PathBuf)>, String> {
    let mut command = cargo_metadata::MetadataCommand::new();
    command.no_deps();
    if let Some(path) = &select.manifest_path {
        command.manifest_path(path);
    }
    let metadata = command
        .exec()
        .map_err(|e| format!("`cargo metadata` failed: {e}"))?;
    let members: Vec<&cargo_metadata::Package> = metadata.workspace_packages();
    let chosen: Vec<&cargo_metadata::Package> = if select.workspace {
        members.clone()
    } else if let Some(name) = &select.package {
        let found: Vec<_> = members
            .iter()
            .copied()
            .filter(|p| &p.name == name)
            .collect();
        if found.is_empty() {
            let names: Vec<&str> = members.iter().map(|p| p.name.as_str()).collect();
            return Err(format!(
                "package `{name}` is not in the workspace (it has: {})",
                names.join(", ")
            ));
        }
        found
    } else if let Some(root) = metadata.root_package() {
        vec![root]
    } else {
        // A virtual workspace: the member whose directory holds the current one.
        let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
        let inside: Vec<_> = members
            .iter()
            .copied()
            .filter(|p| {
                p.manifest_path
                    .parent()
                    .is_some_and(|d| cwd.starts_with(d.as_std_path()))
            })
            .collect();
        if inside.len() != 1 {
            return Err(
                "this is a virtual workspace: choose a package with `-p NAME`, or `--workspace`"
                    .into(),
            );
        }
        inside
    };
    let mut found = Vec::new();
    for package in chosen {
        let dir = package
            .manifest_path
            .parent()
            .map(|d| d.as_std_path().to_path_buf())
            .unwrap_or_default();
        let configured = package
            .metadata
            .get("adgen")
            .and_then(|a| a.get("manifest"))
            .and_then(|m| m.as_str());
        let manifest = match (&select.ad_manifest, configured) {
            (Some(path), _) => path.clone(),
            (None, Some(path)) => dir.join(path),
            (None, None) => dir.join("ad.toml"),
        };
        if manifest.is_file() {
            found.push((package.name.to_string(), manifest));
        } else if !select.workspace {
            return Err(format!(
                "package `{}` has no adgen manifest `{}`",
                package.name,
                manifest.display()
            ));
        }
    }
    if found.is_empty() {
        return Err("no workspace member has an adgen manifest (ad.toml)".into());
    }
    Ok(found)
}

/// Differentiates what `manifest` names; prints diagnostics and returns the outputs.
fn differentiate(manifest: &Path) -> Result<adgen::Generated, u8> {
    let loaded = adgen::manifest::load_checked(manifest).map_err(|failure| {
        eprint!("{}", failure.rendered);
        USER_ERROR
    })?;
    let mut generated =
        adgen::differentiate(&loaded.sources, &loaded.request).map_err(|failure| {
            eprint!("{}", failure.rendered);
            USER_ERROR
        })?;
    let mut source_map = adgen::SourceMap::default();
    if let Ok(program) = adgen::parse_sources(&loaded.sources, &mut source_map) {
        let bindings = adgen::bindings::generate(&program, &generated.signatures);
        for (path, contents) in [
            (adgen::bindings::FORTRAN_FILE, bindings.fortran),
            (adgen::bindings::RUST_FILE, bindings.rust),
        ] {
            generated.files.push(adgen::GeneratedFile {
                path: path.to_string(),
                contents,
            });
        }
    }
    Ok(generated)
}

fn expand(manifest: &Path, runtime: bool, bindings: bool) -> u8 {
    let generated = match differentiate(manifest) {
        Ok(g) => g,
        Err(code) => return code,
    };
    eprint!("{}", generated.warnings);
    let mut first = true;
    for file in &generated.files {
        let is_runtime = file.path.starts_with("adgen_runtime.");
        let is_binding = file.path.starts_with("adgen_bindings.");
        if (is_runtime && !runtime) || (is_binding && !bindings) {
            continue;
        }
        if !first {
            println!();
        }
        first = false;
        let comment =
            if file.path.ends_with(".rs") || file.path.ends_with(".c") || file.path.ends_with(".h")
            {
                "//"
            } else {
                "!"
            };
        println!("{comment} ===== {} =====", file.path);
        print!("{}", file.contents);
    }
    SUCCESS
}

fn check(package: &str, manifest: &Path, deny_warnings: bool) -> u8 {
    let generated = match differentiate(manifest) {
        Ok(g) => g,
        Err(code) => return code,
    };
    eprint!("{}", generated.warnings);
    let warnings = generated
        .warnings
        .lines()
        .filter(|l| l.contains("warning["))
        .count();
    let roots = generated.signatures.len();
    if deny_warnings && !generated.warnings.trim().is_empty() {
        eprintln!("error: `{package}`: warnings denied (--deny-warnings)");
        return USER_ERROR;
    }
    eprintln!(
        "`{package}`: {} ok: {roots} derivative procedure(s){}",
        adgen::manifest::display_path(manifest),
        if warnings > 0 {
            format!(", {warnings} warning(s)")
        } else {
            String::new()
        }
    );
    SUCCESS
}
