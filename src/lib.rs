//! adgen: source-to-source automatic differentiation of Fortran and C, shaped as a
//! build-system plugin.
//!
//! The pipeline (DESIGN.md §1), one stage a folder, each plain data in and out, wired by
//! [`differentiate`] here and nowhere else:
//!
//! 1. [`front`]: each source file lowered by the front-end of its language into the
//!    [`il`] (one [`il::File`] each, which records its [`il::Language`]);
//! 2. [`prepare`]: the rewrites before analysis (I/O stripped, jumps restructured, array
//!    syntax scalarized, calls hoisted out of expressions);
//! 3. [`ir`]: call graph, flow graphs and zones;
//! 4. [`analysis`]: activity, in-out, diff-liveness, TBR: what the adjoint must save
//!    (SAVE locals it refuses get modules of their own, [`prepare::saved_state`], and
//!    stages 3 and 4 run again on that program);
//! 5. [`diff`]: tangent and adjoint units, as IL (tape operations are IL statements);
//! 6. [`back`]: each generated file printed by the back-end of its language.
//!
//! The layers import one way: `il <- prepare <- ir <- analysis <- diff`, with [`front`]
//! and [`back`] on [`il`] (and [`diag`]) only, never on each other or on the stages
//! between them; [`request`] (what a run is asked) and [`diag`] sit below everything.
//! Nothing outside `front/` and `back/` tests a source language: what differs is asked of
//! the IL ([`il::Language::file_is_module`], [`il::calls::signature`]).
//! `build-support/snapshot/run.sh` writes the generated code of the whole corpus, so a
//! change meant to move code without changing output can be shown to change no byte.
//!
//! [`differentiate`] runs it all on in-memory sources; the CLI, [`Build`] (for
//! `build.rs`) and the tests call it. This library never prints; it returns diagnostics.

pub mod analysis;
pub mod back;
pub mod bindings;
pub mod cargo;
pub mod diag;
pub mod diff;
pub mod explain;
pub mod front;
pub mod il;
pub mod init;
pub mod ir;
pub mod manifest;
pub mod output;
pub mod prepare;
pub mod request;
pub mod runtime;
pub mod tapenade;
pub mod validate;

pub use cargo::{Build, BuildError};
pub use diag::{Diagnostic, Diagnostics, SourceMap};
pub use explain::explain;
pub use request::{
    GeneratedFile, Mode, Preprocessor, Request, RootRequest, SizeExpr, SizeHint, SourceInput,
};

use diag::FileId;

/// What a successful run produced.
#[derive(Clone, Debug)]
pub struct Generated {
    /// Generated and runtime sources, in an order that compiles (runtime first).
    pub files: Vec<GeneratedFile>,
    /// Warnings, rendered.
    pub warnings: String,
    /// The derivative signature of each root in each mode.
    pub signatures: Vec<diff::Signature>,
}

/// A run that stopped on errors: the rendered diagnostics and the raw ones.
#[derive(Clone, Debug)]
pub struct Failure {
    pub rendered: String,
    pub diagnostics: Vec<Diagnostic>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.rendered.trim_end())
    }
}

impl std::error::Error for Failure {}

impl Failure {
    /// The errors among the diagnostics (the rest are warnings).
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }
}

/// Whether a procedure of `file` USEs a module that no file lowered so far defines
/// (E0313, kept with the procedure: `front::fortran`).
fn uses_missing_module(file: &il::File) -> bool {
    file.units
        .iter()
        .any(|u| u.deferred.iter().any(|d| d.code == "E0313"))
}

/// Parses every source into one [`il::Program`].
pub fn parse_sources(
    inputs: &[SourceInput],
    sources: &mut SourceMap,
) -> Result<il::Program, Vec<Diagnostic>> {
    let mut program = il::Program::default();
    let mut errors = Vec::new();
    let mut next_stmt_id = 0u32;
    let mut context = front::Context::default();
    let ids: Vec<FileId> = inputs
        .iter()
        .map(|input| {
            sources.add(diag::SourceFile::new(
                input.path.clone(),
                input.text.clone(),
            ))
        })
        .collect();
    context.first_include_id = sources.files().count() as u32;
    // Files are lowered in the manifest's order, except that a file using a module
    // another file defines waits for it: rounds until every file is lowered or a round
    // lowers no more (then the last errors are the answer). A file that failed for
    // another reason is tried again too while the rounds progress: its errors may come
    // from a module whose own file was still waiting (its kinds unknown). A file whose
    // procedure uses a module no file defined yet (E0313, kept with that procedure)
    // waits as well, and is taken as it is at the end.
    let mut waiting: Vec<usize> = (0..inputs.len()).collect();
    loop {
        let mut again = Vec::new();
        let mut last_errors = Vec::new();
        let mut parked = Vec::new();
        let mut progressed = false;
        for &k in &waiting {
            let (id, input) = (ids[k], &inputs[k]);
            context.include_search = input
                .dir
                .iter()
                .chain(&input.include_dirs)
                .cloned()
                .collect();
            context.fixed_line_length = input.fixed_line_length;
            context.preprocessor = input.preprocessor.clone();
            context.include_display_dir = input.dir.as_ref().map(|_| {
                input
                    .path
                    .rsplit_once('/')
                    .map(|(d, _)| d.to_string())
                    .unwrap_or_default()
            });
            match front::lower_source_in(
                &mut context,
                id,
                sources.get(id),
                &input.path,
                &mut next_stmt_id,
            ) {
                Ok(file) if uses_missing_module(&file) => {
                    again.push(k);
                    parked.push(file);
                }
                Ok(file) => {
                    program.files.push(file);
                    progressed = true;
                }
                Err(diags) => {
                    again.push(k);
                    last_errors.push(diags);
                }
            }
        }
        if again.is_empty() || !progressed {
            program.files.extend(parked);
            errors.extend(last_errors.into_iter().flatten());
            break;
        }
        waiting = again;
    }
    // The files INCLUDE lines read, under the ids their spans carry.
    for file in std::mem::take(&mut context.included) {
        sources.add(file);
    }
    if errors.is_empty() {
        errors.extend(front::c::externs::resolve(&mut program));
    }
    if errors.is_empty() {
        front::fortran::rename_internal_across_files(&mut program);
        front::fortran::pointers_associated_in_other_files(&mut program);
        front::fortran::module_pointers_refused_everywhere(&mut program);
        front::fortran::polymorphic_across_files(&mut program);
        front::fortran::generic::resolve(&mut program);
    }
    if errors.is_empty() {
        // Deferred to the units they are found in: said when a root reaches one.
        front::boundary::check(&mut program);
        front::optional::defer(&mut program);
    }
    if errors.iter().any(Diagnostic::is_error) {
        Err(errors)
    } else {
        Ok(program)
    }
}

/// The stack adgen's passes run on: they recurse over expression trees, whose depth the
/// input sets (a flat sum of n terms is n deep). The front-ends refuse trees deeper than
/// [`MAX_EXPRESSION_DEPTH`], and this stack holds every pass at that depth.
pub const STACK_BYTES: usize = 1 << 30;

/// The deepest expression tree accepted (a flat sum of this many terms; nested
/// parentheses are limited further by each front-end's parser).
pub const MAX_EXPRESSION_DEPTH: u32 = 100_000;

/// Runs `f` on a thread with [`STACK_BYTES`] of stack (reserved, used only as needed)
/// and returns its result; a panic in `f` continues in the caller.
pub fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("adgen".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, f);
        match handle {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(e) => panic!("adgen could not start its worker thread: {e}"),
        }
    })
}

/// Runs the whole pipeline on in-memory sources.
pub fn differentiate(inputs: &[SourceInput], request: &Request) -> Result<Generated, Failure> {
    on_big_stack(|| differentiate_here(inputs, request))
}

fn differentiate_here(inputs: &[SourceInput], request: &Request) -> Result<Generated, Failure> {
    let mut sources = SourceMap::default();
    let fail = |sources: &SourceMap, diagnostics: Vec<Diagnostic>| Failure {
        rendered: Diagnostics(diagnostics.clone()).render(sources),
        diagnostics,
    };
    let mut program = match parse_sources(inputs, &mut sources) {
        Ok(p) => p,
        Err(d) => return Err(fail(&sources, d)),
    };
    // What the front-ends warned of in files they accepted (text past a fixed-form
    // line's last column, ...): said with the run's warnings, never dropped.
    let front_warnings: Vec<Diagnostic> = program
        .files
        .iter_mut()
        .flat_map(|f| std::mem::take(&mut f.warnings))
        .collect();
    // The manifest's names as the IL spells them (C's capitals are marked).
    let request = &*prepare::spelling::spell_request(request, &program);
    let request = &*prepare::black_box::with_intrinsics(request, &program);
    // I/O dropped, jumps restructured, array syntax scalarized, calls hoisted out of
    // expressions: the program the rest reads (the parsed one is not kept).
    let mut program = match prepare::prepare(program, request) {
        Ok(p) => p,
        Err(d) => return Err(fail(&sources, d)),
    };
    // `$AD` directives said; OpenMP in comments said, then left out of the derivatives.
    let directive_warnings = prepare::directives::check(&program);
    prepare::directives::strip_openmp(&mut program);
    let program_owned = program;
    let mut relocated = None;
    let (program, ir, analyses) = match analyzed(&program_owned, &mut relocated, request) {
        Ok(done) => done,
        Err(d) => return Err(fail(&sources, d)),
    };
    if !analyses.errors.is_empty() {
        return Err(fail(&sources, analyses.errors.clone()));
    }
    // Each mode's files are printed as soon as the mode is generated, and its code
    // dropped before the next mode is: a large program never holds both at once.
    // The modes come in any order; their files are listed tangent first.
    let mut printed_by_mode: Vec<(Mode, Vec<GeneratedFile>)> = Vec::new();
    let mut any_fortran = false;
    let differentiated =
        diff::differentiate_by_mode(program, &ir, &analyses, request, &mut |mode, mode_files| {
            any_fortran |= mode_files
                .iter()
                .any(|(_, f)| f.language == il::Language::Fortran);
            let siblings: Vec<&il::File> = mode_files.iter().map(|(_, f)| f).collect();
            let mut printed = Vec::new();
            for (stem, file) in &mode_files {
                for (path, contents) in back::write_outputs(stem, file, program, &siblings) {
                    // Names as the user spelled them (C's capitals lose their marks).
                    printed.push(GeneratedFile {
                        path: il::names::spelled(&path).into_owned(),
                        contents: il::names::spelled(&contents).into_owned(),
                    });
                }
            }
            printed_by_mode.push((mode, printed));
            // The mode's code is dropped here; the next mode starts after it.
            drop(mode_files);
            if let Some(release) = BETWEEN_MODES.get() {
                release();
            }
        });
    printed_by_mode.sort_by_key(|(mode, _)| *mode);
    let mut printed: Vec<GeneratedFile> = printed_by_mode
        .into_iter()
        .flat_map(|(_, files)| files)
        .collect();
    let differentiated = match differentiated {
        Ok(d) => d,
        Err(d) => return Err(fail(&sources, d)),
    };
    let mut analyses = analyses;
    let analysis_warnings = std::mem::take(&mut analyses.warnings);
    // The Fortran module of the runtime only for generated code with Fortran in it.
    let mut files = runtime::runtime_files_for(differentiated.needs_runtime, any_fortran);
    // The modules of SAVE state and the primal copies, shared by every mode.
    if let Some(saved) = prepare::saved_state::saved_file(program) {
        let stem = prepare::saved_state::SAVED_FILE.trim_end_matches(".f90");
        for (path, contents) in back::write_outputs(stem, &saved, program, &[&saved]) {
            files.push(GeneratedFile {
                path: il::names::spelled(&path).into_owned(),
                contents: il::names::spelled(&contents).into_owned(),
            });
        }
    }
    files.append(&mut printed);
    let mut warnings = front_warnings;
    warnings.extend(directive_warnings);
    warnings.extend(prepare::black_box::unused(program, request));
    warnings.extend(analysis_warnings);
    warnings.extend(differentiated.warnings.iter().cloned());
    warnings.extend(unimplemented_options(request));
    // The same warning from each copy of a procedure (one per procedure argument it is
    // given, `DPREP_FRB_JRB`) is said once.
    let mut said = std::collections::BTreeSet::new();
    warnings.retain(|w| said.insert(format!("{:?}", (w.code, &w.message, &w.location))));
    let generated = Generated {
        files,
        warnings: Diagnostics(warnings).render(&sources),
        signatures: differentiated
            .signatures
            .into_iter()
            .map(diff::Signature::spelled)
            .collect(),
    };
    if !FREE_AT_END.load(std::sync::atomic::Ordering::Relaxed) {
        // The process ends next (the command line): freeing a large program's trees
        // node by node would only delay its exit (issue 16).
        std::mem::forget(analyses);
        std::mem::forget(ir);
        std::mem::forget(relocated);
        std::mem::forget(program_owned);
    }
    Ok(generated)
}

/// The IR and analyses of the prepared `program`. When the analyses refuse SAVE locals
/// that `prepare::saved_state` can give modules of their own, the program with those
/// modules goes into `relocated` and is analysed instead: the program returned is the
/// one analysed.
pub(crate) fn analyzed<'p>(
    program: &'p il::Program,
    relocated: &'p mut Option<il::Program>,
    request: &Request,
) -> Result<(&'p il::Program, ir::Ir<'p>, analysis::Analyses), Vec<Diagnostic>> {
    let first_ir = ir::Ir::build(program, request)?;
    let first = analysis::analyze(program, &first_ir, request);
    let moved = if first.errors.is_empty() {
        None
    } else {
        prepare::saved_state::relocate(program, &first.saved_state)
    };
    let Some(moved) = moved else {
        return Ok((program, first_ir, first));
    };
    drop(first);
    drop(first_ir);
    let moved: &'p il::Program = relocated.insert(moved);
    let ir = ir::Ir::build(moved, request)?;
    let analyses = analysis::analyze(moved, &ir, request);
    Ok((moved, ir, analyses))
}

/// Called after each mode's code is printed and dropped (`set_between_modes`).
static BETWEEN_MODES: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Gives the pipeline a function to call between modes, once a mode's code is dropped:
/// the command-line tool hands its allocator's memory back to the system there, so that
/// the next mode's peak does not come on top of memory held but unused (issue 16).
pub fn set_between_modes(release: fn()) {
    let _ = BETWEEN_MODES.set(release);
}

/// Whether the pipeline frees what it built before it returns (the default). The
/// command-line tool, which exits right after, turns this off with
/// [`skip_freeing_at_end`]: the operating system takes the memory back at once.
static FREE_AT_END: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Lets [`differentiate`] leave its program, IR and analyses to the end of the process
/// instead of freeing them (for a process that exits after one run).
pub fn skip_freeing_at_end() {
    FREE_AT_END.store(false, std::sync::atomic::Ordering::Relaxed);
}

/// Options the manifest accepts whose effect is not implemented yet: said, never ignored
/// silently. The derivatives stay correct; only their cost differs.
fn unimplemented_options(request: &Request) -> Vec<Diagnostic> {
    let mut out = request.option_warnings.clone();
    if !request.checkpoint_calls {
        out.push(
            Diagnostic::warning(
                "W0103",
                "`checkpoint-calls = false` (split mode) is not implemented yet: adjoints checkpoint every call",
            )
            .with_help("the derivatives are correct either way; remove the option to silence this"),
        );
    }
    out
}
