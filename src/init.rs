//! `adgen init`: a first `ad.toml` proposed from the sources, to edit (issue 15).
//!
//! Roots are the procedures that no other procedure of the sources calls (a model's
//! entry points). For each, the real arguments it reads are proposed as independents
//! and those it may write as dependents, with the function result: from INTENT where
//! the source declares it (every C parameter has one: by value or `const` is IN), else
//! from what the body does with the argument (read in an expression, assigned, passed to
//! a call, which may do either). A procedure without real arguments works on module or
//! COMMON variables (INTERFACE.md §1): those it reads before writing them (itself or in
//! what it calls, statements in order) are proposed as independents, those it writes as
//! dependents. A procedure with no real input or no real output, or with procedure
//! arguments (adgen differentiates those through a caller), is listed commented out. Sources with preprocessor directives are read as gfortran's `-cpp` reads them,
//! and the manifest says `preprocess = true`. The text is deterministic: sources and
//! roots in source order.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, SourceMap};
use crate::il::{Intent, ScalarType, StmtKind, Unit, key, visit};
use crate::request::SourceInput;
use crate::{Failure, parse_sources};

/// What one root would differentiate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proposal {
    pub name: String,
    /// The source that defines it, and its line.
    pub path: String,
    pub line: usize,
    pub signature: String,
    pub independents: Vec<String>,
    pub dependents: Vec<String>,
    /// It takes procedure arguments: no root (adgen differentiates a procedure argument
    /// through a caller that passes a procedure by name), listed commented out.
    pub takes_procedures: bool,
}

impl Proposal {
    /// Written as a root (else commented out): it has real inputs and outputs and takes
    /// no procedure argument.
    pub fn usable(&self) -> bool {
        !self.independents.is_empty() && !self.dependents.is_empty() && !self.takes_procedures
    }
}

/// The roots `adgen init` proposes for `inputs`, in source order.
pub fn proposals(inputs: &[SourceInput]) -> Result<Vec<Proposal>, Failure> {
    let mut sources = SourceMap::default();
    let program = parse_sources(inputs, &mut sources).map_err(|d| Failure {
        rendered: crate::diag::Diagnostics(d.clone()).render(&sources),
        diagnostics: d,
    })?;
    // What a main program calls is what a user would differentiate.
    let called: std::collections::BTreeSet<String> = program
        .units()
        .filter(|u| !u.deferred.iter().any(|d| d.code == "E0402"))
        .flat_map(visit::called_names)
        .map(|n| key(&n))
        .collect();
    let mut out = Vec::new();
    for (file, input) in program.files.iter().zip(inputs) {
        // A procedure holding what adgen cannot differentiate (a main PROGRAM among
        // them) is no root to propose, nor is an internal procedure (only its host
        // calls it).
        for unit in file
            .units
            .iter()
            .filter(|u| u.is_procedure() && u.deferred.is_empty() && u.internal_of.is_none())
        {
            if called.contains(crate::il::key_ref(&unit.name).as_ref()) {
                continue;
            }
            let (mut independents, mut dependents) = roles(unit);
            // A root without real arguments works on module or COMMON variables
            // (INTERFACE.md §1): those it and its callees read and write.
            if independents.is_empty() && dependents.is_empty() {
                (independents, dependents) = global_roles(&program, unit);
            }
            let line = sources.get(unit.span.file).line_col(unit.span.lo).0;
            // Names as the user wrote them (C's capitals lose their marks).
            let spelled = |n: &String| crate::il::names::spelled(n).into_owned();
            out.push(Proposal {
                name: spelled(&unit.name),
                path: input.path.clone(),
                line,
                signature: spelled(&format!("{}({})", unit.name, unit.args.join(", "))),
                independents: independents.iter().map(spelled).collect(),
                dependents: dependents.iter().map(spelled).collect(),
                takes_procedures: !crate::prepare::specialize::procedure_dummies(unit).is_empty(),
            });
        }
    }
    Ok(out)
}

/// The real arguments `unit` reads (independents) and may write (dependents).
fn roles(unit: &Unit) -> (Vec<String>, Vec<String>) {
    let mut read = std::collections::BTreeSet::new();
    let mut written = std::collections::BTreeSet::new();
    visit::walk_stmts(&unit.body, &mut |s| {
        if let StmtKind::Assign { lhs, .. } = &s.kind {
            if let Some(n) = lhs.base_name() {
                written.insert(key(n.split('%').next().unwrap_or(n)));
            }
        }
        if let StmtKind::Call { args, .. } = &s.kind {
            for a in args {
                if let Some(n) = a.value.base_name() {
                    written.insert(key(n.split('%').next().unwrap_or(n)));
                }
            }
        }
        for e in visit::stmt_exprs(s) {
            for n in visit::names_read(e) {
                read.insert(key(n.split('%').next().unwrap_or(n)));
            }
        }
    });
    let mut independents = Vec::new();
    let mut dependents = Vec::new();
    for name in &unit.args {
        let Some(symbol) = unit.symbols.get(name) else {
            continue;
        };
        if !matches!(symbol.ty, ScalarType::Real(_) | ScalarType::Derived) {
            continue;
        }
        let k = key(name);
        let (reads, writes) = match symbol.intent {
            Some(Intent::In) => (true, false),
            Some(Intent::Out) => (false, true),
            Some(Intent::InOut) => (true, true),
            None => (read.contains(&k), written.contains(&k)),
        };
        if reads {
            independents.push(name.clone());
        }
        if writes {
            dependents.push(name.clone());
        }
    }
    // A function's result, named as the function (what the manifest accepts in every
    // language).
    if unit.is_function() {
        let result = unit.result.as_deref().unwrap_or(&unit.name);
        let real = unit
            .symbols
            .get(result)
            .is_some_and(|s| matches!(s.ty, ScalarType::Real(_) | ScalarType::Derived));
        if real {
            dependents.push(unit.name.clone());
        }
    }
    (independents, dependents)
}

/// The real module and COMMON variables that `unit` and the procedures it calls, at any
/// depth, read before they write them (independents) and write (dependents), by their
/// names in their modules, in the order first met. Statements are taken in their order,
/// a callee where it is first called.
fn global_roles(program: &crate::il::Program, unit: &Unit) -> (Vec<String>, Vec<String>) {
    let mut roles = GlobalRoles::default();
    roles.visit(program, unit);
    (roles.independents, roles.dependents)
}

#[derive(Default)]
struct GlobalRoles {
    written: std::collections::BTreeSet<String>,
    independents: Vec<String>,
    dependents: Vec<String>,
    visited: std::collections::BTreeSet<String>,
}

impl GlobalRoles {
    fn visit(&mut self, program: &crate::il::Program, u: &Unit) {
        if !self.visited.insert(key(&u.name)) {
            return;
        }
        // A real module or COMMON variable, by its name in its module.
        let global = |n: &str| -> Option<String> {
            let s = u.symbols.get(n.split('%').next().unwrap_or(n))?;
            let g = s.global.as_ref()?;
            let real = matches!(s.ty, ScalarType::Real(_) | ScalarType::Derived);
            (real && s.is_variable() && !g.module.starts_with('#')).then(|| g.name.clone())
        };
        visit::walk_stmts(&u.body, &mut |s| {
            for e in visit::stmt_exprs(s) {
                for n in visit::names_read(e) {
                    if let Some(g) = global(n)
                        && !self.written.contains(&key(&g))
                        && !self.independents.iter().any(|o| key(o) == key(&g))
                    {
                        self.independents.push(g);
                    }
                }
            }
            let mut callees: Vec<&Unit> = Vec::new();
            visit::stmt_calls(s, &mut |name, _| callees.extend(program.unit(name)));
            for callee in callees {
                self.visit(program, callee);
            }
            let target = match &s.kind {
                StmtKind::Assign { lhs, .. } => lhs.base_name().map(str::to_string),
                StmtKind::Do { var, .. } => Some(var.clone()),
                _ => None,
            };
            if let Some(g) = target.as_deref().and_then(global) {
                self.written.insert(key(&g));
                if !self.dependents.iter().any(|o| key(o) == key(&g)) {
                    self.dependents.push(g);
                }
            }
        });
    }
}

/// The commented `ad.toml` text: `source_paths` as the manifest lists them (relative
/// to it), the proposals as `[[root]]` tables.
pub fn manifest_text(source_paths: &[String], proposals: &[Proposal], preprocess: bool) -> String {
    let mut t = String::new();
    t.push_str(
        "# ad.toml, written by `adgen init`: what adgen differentiates. Edit it: keep the\n\
         # roots you want, and among their arguments the inputs to differentiate with\n\
         # respect to (independents) and the outputs to differentiate (dependents).\n\
         # `adgen diff` then writes the derivative code; `adgen diff --help` lists every key.\n\n",
    );
    t.push_str("# Paths are relative to this file; globs are allowed (\"src/*.f90\").\n");
    let quoted: Vec<String> = source_paths.iter().map(|p| toml_string(p)).collect();
    writeln!(t, "sources = [{}]", quoted.join(", ")).unwrap();
    if preprocess {
        t.push_str(
            "# Some sources have preprocessor directives: read as gfortran's -cpp reads them\n\
             # (`defines = [\"NAME\"]` for its -D options).\npreprocess = true\n",
        );
    }
    t.push_str(
        "\n[options]\nmodes = [\"tangent\", \"adjoint\"]   # or one of them; a root may override it\n",
    );
    if proposals.is_empty() {
        t.push_str(
            "\n# No procedure found that others do not call: add a [[root]] table per\n\
             # procedure to differentiate, with `name`, `independents` and `dependents`.\n",
        );
    }
    for p in proposals {
        let usable = p.usable();
        let c = if usable { "" } else { "# " };
        t.push('\n');
        writeln!(t, "# {} in {}:{}", p.signature, p.path, p.line).unwrap();
        if p.takes_procedures {
            t.push_str(
                "# (takes procedure arguments: differentiate a procedure that calls it with a\n\
                 # procedure by name instead)\n",
            );
        } else if !usable {
            writeln!(
                t,
                "# (no real {} found: complete the lists to differentiate it)",
                if p.independents.is_empty() {
                    "input"
                } else {
                    "output"
                }
            )
            .unwrap();
        }
        writeln!(t, "{c}[[root]]").unwrap();
        writeln!(t, "{c}name = {}", toml_string(&p.name)).unwrap();
        writeln!(t, "{c}independents = [{}]", list(&p.independents)).unwrap();
        writeln!(t, "{c}dependents = [{}]", list(&p.dependents)).unwrap();
    }
    t
}

fn list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| toml_string(n))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `s` as a TOML string, quoted and escaped by the `toml` crate.
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// `adgen init` cannot write its manifest, or finds no source.
pub const E_INIT: &str = "E0905";
/// `adgen init` cannot read a source.
pub const E_READ_SOURCE: &str = "E0903";

fn render(d: &Diagnostic) -> String {
    d.render(&SourceMap::default())
}

/// `adgen init`: proposes roots from `sources` (default: the Fortran and C files of the
/// current directory and of `src/`) and writes the manifest at `manifest_path`, never
/// over an existing one unless `force`. Returns the numbers of roots (those not commented
/// out) and sources, or the rendered diagnostics.
pub fn write_manifest(
    sources: &[PathBuf],
    manifest_path: &Path,
    force: bool,
) -> Result<(usize, usize), String> {
    if manifest_path.exists() && !force {
        let d = Diagnostic::error(
            E_INIT,
            format!("`{}` already exists", manifest_path.display()),
        )
        .with_help("edit it, or pass `--force` to replace it");
        return Err(render(&d));
    }
    let sources: Vec<PathBuf> = if sources.is_empty() {
        let mut found = Vec::new();
        for dir in [Path::new("."), Path::new("src")] {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut here: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .filter(|p| {
                    p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                        matches!(
                            e,
                            "f90" | "f95" | "f03" | "f08" | "f" | "for" | "F90" | "F" | "c"
                        )
                    })
                })
                .map(|p| p.strip_prefix(".").map(Path::to_path_buf).unwrap_or(p))
                .collect();
            here.sort();
            found.extend(here);
        }
        found
    } else {
        sources.to_vec()
    };
    if sources.is_empty() {
        let d = Diagnostic::error(E_INIT, "no Fortran or C source found")
            .with_help("name the sources: `adgen init src/model.f90`");
        return Err(render(&d));
    }
    let manifest_dir = manifest_path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut inputs = Vec::new();
    let mut listed = Vec::new();
    for path in &sources {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                let d = Diagnostic::error(
                    E_READ_SOURCE,
                    format!("cannot read source `{}`: {e}", path.display()),
                );
                return Err(render(&d));
            }
        };
        let relative = relative_to(path, manifest_dir);
        let mut input = SourceInput::new(relative.clone(), text);
        input.dir = path.parent().map(Path::to_path_buf);
        inputs.push(input);
        listed.push(relative);
    }
    // Sources with preprocessor directives (`#ifdef DBG` in a `.f95`) are read as
    // gfortran's `-cpp` reads them, and the manifest says so.
    let mut preprocess = false;
    let proposals = match proposals(&inputs) {
        Ok(p) => p,
        Err(failure)
            if failure
                .diagnostics
                .iter()
                .any(|d| d.code == "E0201" && d.message.starts_with("preprocessor directives")) =>
        {
            preprocess = true;
            for input in &mut inputs {
                input.preprocessor.all = true;
            }
            proposals(&inputs).map_err(|f| f.rendered)?
        }
        Err(failure) => return Err(failure.rendered),
    };
    let text = manifest_text(&listed, &proposals, preprocess);
    if let Err(e) = std::fs::write(manifest_path, text) {
        let d = Diagnostic::error(
            E_INIT,
            format!("cannot write `{}`: {e}", manifest_path.display()),
        );
        return Err(render(&d));
    }
    Ok((
        proposals.iter().filter(|p| p.usable()).count(),
        listed.len(),
    ))
}

/// `path` relative to `dir`, `/`-separated (with `..` where it lies outside).
pub fn relative_to(path: &Path, dir: &Path) -> String {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (path, dir) = (abs(path), abs(dir));
    let normal = |p: &Path| -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        for c in p.components() {
            match c {
                std::path::Component::ParentDir => {
                    parts.pop();
                }
                std::path::Component::CurDir => {}
                other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
            }
        }
        parts
    };
    let (p, d) = (normal(&path), normal(&dir));
    let common = p.iter().zip(&d).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return path.to_string_lossy().replace('\\', "/");
    }
    let mut parts: Vec<String> = vec!["..".to_string(); d.len() - common];
    parts.extend(p[common..].iter().cloned());
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_the_uncalled_procedures_with_their_real_inputs_and_outputs() {
        let f = SourceInput::new(
            "m.f90",
            "subroutine step(n, u, k)\n  integer, intent(in) :: n\n  real(8) :: u(n), k\n  \
             u = k*u\nend subroutine step\n\
             subroutine run(n, u0, k, j)\n  integer, intent(in) :: n\n  \
             real(8), intent(in) :: u0(n), k\n  real(8), intent(out) :: j\n  real(8) :: u(n)\n  \
             u = u0\n  call step(n, u, k)\n  j = sum(u)\nend subroutine run\n",
        );
        let c = SourceInput::new(
            "f.c",
            "double Norm2(int n, const double *X) { double s = 0; for (int i = 0; i < n; i++) s += X[i]*X[i]; return s; }\n",
        );
        let p = proposals(&[f, c]).unwrap();
        let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["run", "Norm2"]);
        assert_eq!(p[0].independents, ["u0", "k"]);
        assert_eq!(p[0].dependents, ["j"]);
        assert_eq!((p[0].path.as_str(), p[0].line), ("m.f90", 6));
        // C names as written: no case mark of the IL in them.
        assert_eq!(p[1].independents, ["X"]);
        assert_eq!(p[1].dependents, ["Norm2"]);
        assert_eq!(p[1].signature, "Norm2(n, X)");
        let text = manifest_text(&["m.f90".into(), "f.c".into()], &p, false);
        assert!(text.contains("sources = [\"m.f90\", \"f.c\"]\n"), "{text}");
        assert!(
            text.contains(
                "# run(n, u0, k, j) in m.f90:6\n[[root]]\nname = \"run\"\n\
                 independents = [\"u0\", \"k\"]\ndependents = [\"j\"]\n"
            ),
            "{text}"
        );
        let parsed: toml::Table = text.parse().unwrap();
        assert_eq!(parsed["root"].as_array().unwrap().len(), 2);
    }

    /// A library's integrator takes the model as a procedure argument: no root of its
    /// own (E0503 if it were), listed commented out with why; the model is one.
    #[test]
    fn a_procedure_taking_procedures_is_listed_commented_out() {
        let f = SourceInput::new(
            "q.f90",
            "subroutine integrate(f, a, b, r)\n  real(8), external :: f\n  \
             real(8), intent(in) :: a, b\n  real(8), intent(out) :: r\n  \
             r = (b - a)*f((a + b)/2)\nend subroutine integrate\n\
             real(8) function model(x)\n  real(8), intent(in) :: x\n  model = x*x\n\
             end function model\n",
        );
        let p = proposals(&[f]).unwrap();
        assert!(p[0].takes_procedures && !p[0].usable());
        assert!(p[1].usable());
        let text = manifest_text(&["q.f90".into()], &p, false);
        assert!(
            text.contains(
                "# (takes procedure arguments: differentiate a procedure that calls it with a\n\
                 # procedure by name instead)\n# [[root]]\n# name = \"integrate\"\n"
            ),
            "{text}"
        );
    }
}
