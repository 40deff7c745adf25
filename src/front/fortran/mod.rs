//! The Fortran front-end: free-form source → tokens (`lexer`) → statements (`stmt`,
//! `decl`, `expr`) → units with nested blocks (`unit`) → names resolved and symbol
//! tables filled (`sema`) → [`il::File`].
//!
//! Fixed-form sources (`.f`, `.for`) are first rewritten into free form by `fixed`,
//! in place: no byte moves, so spans and diagnostics point into the original text with
//! no line map. Sources for the C preprocessor (`.F`, `.FOR`, `.F90`) first go through
//! `preprocess`, which blanks the lines `gfortran -E -cpp` drops, also in place.
//!
//! `INCLUDE 'file'` lines (and the `#include "file"` lines the preprocessor keeps) are
//! replaced by the statements of the file, found through the caller's resolver (the
//! source's directory, then `include-dirs`) and read in the including file's form; their
//! spans point into the included file, so its diagnostics do too. The IL holds the
//! expanded statements: generated and round-tripped sources need no include path.
//!
//! It never panics on any input: every problem is a [`Diagnostic`] with a location, and
//! parsing recovers at the next statement so that one run reports as many errors as it
//! reasonably can, each once.
//!
//! A construct adgen does not support yet (E0401, E0403–E0407) inside a procedure is
//! that procedure's refusal ([`il::Unit::deferred`], with the semantic errors it causes):
//! it is reported only if a root reaches the procedure (`prepare`), so a library whose
//! drivers take procedure arguments still differentiates its kernels. A file with other
//! errors reports everything at once.
//!
//! Accepted: external SUBROUTINEs and FUNCTIONs (type prefix, PURE, RESULT); IMPLICIT
//! NONE / rules / the default rule; INTEGER, REAL, DOUBLE PRECISION, LOGICAL, CHARACTER
//! with kinds (`real(8)`, `real(kind=dp)`, `real*8`, kinds from integer PARAMETERs,
//! `kind(...)`, `selected_real_kind(...)`); attributes INTENT, PARAMETER, DIMENSION,
//! EXTERNAL, INTRINSIC, SAVE and the matching statements; COMMON (named, blank, several
//! blocks per statement), DATA (kept as written), SAVE lists; explicit-shape and
//! assumed-size arrays; assignment, IF (block and logical), DO (counted, labelled, WHILE, endless),
//! EXIT, CYCLE, CALL, RETURN, CONTINUE, GO TO, computed GO TO, arithmetic IF, SELECT CASE
//! (integer, character and logical selectors, ranges, lists, DEFAULT), statement
//! functions; PRINT, WRITE, READ, OPEN, CLOSE, INQUIRE, REWIND, BACKSPACE, ENDFILE,
//! FLUSH, FORMAT and STOP (`io`, kept as written); the intrinsics of [`il::Intrinsic`]. Jumps and SELECT CASE stay in the IL
//! as written; `prepare::restructure` makes them structured before differentiation and
//! refuses what it cannot (E0410), as well as a statement function whose formula has
//! another type than the function (E0411).
//!
//! Modules: MODULE with a specification part (variables, PARAMETERs, derived types,
//! USE, PUBLIC/PRIVATE) and CONTAINS; each module procedure follows its module in the
//! file's unit list with `host` set. USE with ONLY and renames. `sema` gives every unit
//! the names of its host module and of the modules it uses (a module's names are
//! exported in full: PRIVATE is kept for the output, not enforced); variables that come
//! from a module carry [`il::GlobalRef`]. Modules of other files are found through
//! [`Modules`], filled as files are lowered (`parse_sources` lowers a file that uses a
//! module not defined yet after the others).
//!
//! Mixed programs: `BIND(C [, NAME="..."])` on a procedure header ([`il::Unit::bind`]),
//! the VALUE attribute, `USE [, INTRINSIC ::] ISO_C_BINDING` (its kinds: `c_int`,
//! `c_double`, ...), and INTERFACE blocks whose bodies are `BIND(C)` procedures
//! ([`il::DeclKind::Interface`]): the declarations of C functions, which a call links to
//! by name. `front::boundary` checks, once every file is lowered, that they agree with
//! the C definitions (E0415).
//!
//! Interfaces: unnamed INTERFACE blocks of external Fortran procedures (explicit
//! interfaces, in a procedure or a module; the derivative of a unit that has them gets
//! interface bodies of the derivatives it calls), and generic interfaces
//! (`INTERFACE name` with `MODULE PROCEDURE` / `PROCEDURE` lists and interface bodies,
//! [`il::DeclKind::Generic`]): `generic` resolves every call of a generic name to its
//! specific by type, kind and rank once all files are lowered (E0429 when none or two
//! fit), and the back-end prints the generic name again.
//!
//! Optional arguments: the OPTIONAL attribute (not the OPTIONAL statement) and the
//! PRESENT intrinsic ([`il::Attr::Optional`], [`il::Intrinsic::Present`]); a call may
//! leave an optional argument out (trailing, or by giving the later ones by keyword).
//! `front::optional` checks over the program that an optional dummy is used only under
//! `if (present(x))` or passed on to another optional dummy (E0426), and that an
//! argument left out is OPTIONAL (E0427); E0428 a keyword naming no dummy.
//!
//! Storage association: COMMON, DATA, SAVE, and EQUIVALENCE between local variables and
//! elements of local arrays ([`il::DeclKind::Equivalence`]; each set is one zone of the
//! analyses, and derivatives are EQUIVALENCEd like their primals).
//!
//! Derived types: `TYPE name ... END TYPE` in a module, `type(name)` declarations. A
//! component reference `s%x`, `s%a(i)`, `s%p%k` is a variable named by its path; `sema`
//! enters every component path of a derived-type variable in the symbol table with the
//! component's type and bounds. Arrays of derived type `type(t) :: p(n)` (locals,
//! dummies, module variables) are kept as their struct-of-arrays view (`sema::components`): the component
//! `p%x` has the bounds of `p` followed by those of `x`, and `p(i)%x(j)` is the element
//! `p%x(i, j)` (the parser marks how many subscripts `p` took, and sema checks that split
//! against the declared ranks, E0421; `p(i)%x` of an array component is the section
//! `p%x(i, :)`); the back-end prints `p(i)%x(j)` again. Components that are arrays of
//! derived type, and types defined inside procedures, are refused (E0405). An
//! ALLOCATABLE component (a deferred-shape array of intrinsic type) is a component path
//! like any other, with deferred bounds: `prepare::scalarize::alloc` keeps those of
//! local structures allocatable; an array of such a type is refused (E0405).
//!
//! Type-bound procedures (`unit::bindings`, `sema::bindings`): a type's specific
//! bindings, FINAL and PRIVATE are kept with the type; a call through a binding is a
//! call of the procedure it names, the object passed as PASS says, printed back through
//! the binding (`il::Unit::source_calls`). `CLASS(t)` is read as `TYPE(t)`, refused
//! where a type of the sources extends `t` (`polymorphic_across_files`).
//!
//! Pointers (`pointers`): a local POINTER used as an alias is replaced by its target
//! before `sema` (a target that depends on the path is followed by a selector; what
//! cannot be followed is E0401). A POINTER array that owns its memory (given by
//! ALLOCATE, never the pointer of a `=>`: a component, a module variable, a dummy or a
//! local) is declared ALLOCATABLE beside POINTER: `sema` reads it as ALLOCATABLE
//! (`il::Symbol::pointer`), the back-end prints POINTER. Other POINTER dummies, module
//! variables and components are E0405.
//!
//! ALLOCATE with SOURCE= or MOLD= of an array the unit declares (`allocate_source`) is
//! written out after parsing: the bounds of that array, and for SOURCE= an assignment.
//!
//! Diagnostic codes:
//! - E0201 unexpected character, E0202 syntax ("expected ..."), E0203 expression too
//!   deep, E0204 unclosed string, E0205 missing END, E0206 mismatched END/ELSE,
//!   E0207 declaration after executable statements, E0208 statement outside a unit,
//!   E0209 constructs nested too deep. Fixed form: E0210 a non-digit in the label
//!   field (columns 1–5), E0211 a continuation line without a statement to continue or
//!   with a label, E0212 `&` outside a character constant, E0213 a jump to a label the
//!   procedure does not define, or a label defined twice.
//! - E0301 undeclared name under IMPLICIT NONE, E0302 function without a type, E0303 bad
//!   DO variable, E0304 assignment to a named constant, E0305 EXIT/CYCLE outside a loop,
//!   E0306 wrong number of subscripts, E0307 duplicate or conflicting declaration,
//!   E0308 kind not evaluable or invalid, E0309 name used as the wrong kind of entity,
//!   E0310 wrong number of intrinsic arguments, E0311 INTENT on a non-dummy, E0312 unit
//!   defined twice in a file, E0313 a module that no source defines (or a name it does
//!   not have), E0314 an EQUIVALENCE with a dummy argument, a COMMON or module variable or
//!   a component.
//! - E0420 a DIMENSION statement for a derived-type variable after its type declaration;
//!   E0421 a component reference of an array of derived type whose subscripts do not
//!   match the declared ranks (`a(i, j)%x` for a rank-1 `a`, `a%x(j)`, `s(1)%x` for a
//!   scalar `s`), or a whole `a%x` where both `a` and `x` are arrays.
//! - E0401 unsupported statement, E0402 unsupported unit (PROGRAM, SUBMODULE, BLOCK
//!   DATA), E0403 defined assignments and operators adgen does not define, an INTERFACE
//!   block outside a unit / CONTAINS in a procedure, E0404 unsupported expression
//!   (components of elements of array components `a(i)%b(j)%x`, ...), E0405 unsupported type or attribute, E0406 unsupported procedure prefix
//!   or suffix (ELEMENTAL, a BIND other than `BIND(C[, NAME="c_name"])`), E0407 unsupported intrinsic, E0408
//!   a malformed `#include`, E0409 a line macro expansion makes longer, E0412 an included
//!   file that cannot be found or read, or INCLUDEs nested too deep. Before differentiation: E0410 a jump
//!   `prepare::restructure` cannot make structured, E0411 a statement function of another
//!   type, E0414 array syntax `prepare::scalarize` cannot turn into loops, E0545 an
//!   ALLOCATABLE local whose ALLOCATE and DEALLOCATE are not a pair in one block (used
//!   outside it, freed twice), E0546 a jump out of such a pair (`prepare::scalarize::alloc`).
//! - E0429 (`generic`) a call of a generic name that no specific, or more than one,
//!   takes.
//! - E0415 (`front::boundary`) a call between Fortran and C that the compilers would get
//!   wrong: a C function called without a BIND(C) interface, or with one that disagrees
//!   with its definition; C calling Fortran without BIND(C); a NAME= that renames.
//! - E0902 the preprocessor could not be run, E0903 the preprocessor failed.

mod allocate_source;
mod cursor;
mod decl;
mod expr;
mod fixed;
pub mod generic;
mod imported_bodies;
mod includes;
use includes::{Files, expand_includes, splice_cpp_includes};
mod intrinsics;
mod io;
mod lexer;
mod lift;
pub(crate) mod pointers;
pub use lift::rename_across_files as rename_internal_across_files;
pub use pointers::associated_in_other_files as pointers_associated_in_other_files;
pub use pointers::module_pointers_refused_everywhere;
pub use unit::polymorphic_across_files;
mod preprocess;
mod salvage;
mod sema;
mod stmt;
mod unit;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fixed;
#[cfg(test)]
mod tests_generic_bindings;
#[cfg(test)]
mod tests_namelist;
#[cfg(test)]
mod tests_shufflers;
#[cfg(test)]
mod tests_structarr;

use crate::diag::{Diagnostic, FileId, SourceFile};
use crate::il;
pub use sema::Modules;
use std::collections::BTreeMap;

/// The source form of a Fortran file, chosen by its extension.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SourceForm {
    /// `.f90`, `.f95`, `.f03`, `.f08`.
    Free,
    /// `.f`, `.for` (FORTRAN 77 columns): rewritten in place by `fixed` first. The
    /// last column of the statement field (72 unless the manifest says otherwise).
    Fixed(usize),
}

/// Parses and lowers one free-form Fortran file. Returns `Err` when any error was found
/// (the list may also hold warnings).
pub fn lower_file(
    id: FileId,
    source: &SourceFile,
    path: &str,
    next_stmt_id: &mut u32,
) -> Result<il::File, Vec<Diagnostic>> {
    let mut modules = Modules::default();
    lower_file_in_form(
        id,
        source,
        path,
        SourceForm::Free,
        next_stmt_id,
        &mut modules,
    )
}

/// Finds and reads the file an INCLUDE line names: the id under which the caller
/// registers it (diagnostics point into it) and its text, or why it cannot.
pub type IncludeResolver<'r> = dyn FnMut(&str) -> Result<(FileId, String), String> + 'r;

/// Parses and lowers a file for the C preprocessor (`.F`, `.F90`, or any with the
/// manifest's `preprocess = true`), with the manifest's `defines`: see `preprocess`.
#[allow(clippy::too_many_arguments)]
pub fn lower_preprocessed(
    id: FileId,
    source: &SourceFile,
    path: &str,
    form: SourceForm,
    defines: &[String],
    next_stmt_id: &mut u32,
    modules: &mut Modules,
    resolve: &mut IncludeResolver,
) -> Result<il::File, Vec<Diagnostic>> {
    let mut read = |name: &str| resolve(name).ok();
    let preprocessed = preprocess::apply_with_includes(id, &source.text, form, defines, &mut read)?;
    match preprocessed {
        (None, _, _) => {
            lower_file_with_includes(id, source, path, form, next_stmt_id, modules, resolve)
        }
        (Some(text), includes, warnings) => {
            let kept = SourceFile::new(source.display_path.clone(), text);
            let mut files = Files {
                resolve,
                cpp_includes: &includes,
            };
            let mut file = lower_impl(id, &kept, path, form, next_stmt_id, modules, &mut files)?;
            file.warnings.splice(0..0, warnings);
            Ok(file)
        }
    }
}

/// The procedures of module `module` (the units after it with it as host), as its own
/// declarations must see them.
/// Is unit `k` one of the internal procedures of unit `host` (which follow it)?
fn internal_of_host(units: &[il::Unit], k: usize, host: usize) -> bool {
    k > host && units[host + 1..=k].iter().all(|u| u.internal_of.is_some())
}

fn module_procedures(module: &str, after: &[il::Unit]) -> Vec<sema::ModuleProcedure> {
    let of_module = |u: &il::Unit| {
        u.host
            .as_deref()
            .is_some_and(|h| il::key(h) == il::key(module))
    };
    after
        .iter()
        .take_while(|u| of_module(u) || u.internal_of.is_some())
        .filter(|u| of_module(u))
        .map(sema::ModuleProcedure::of)
        .collect()
}

/// The named constants of the intrinsic modules adgen knows, ISO_C_BINDING and
/// ISO_FORTRAN_ENV (as gfortran gives them on the platforms adgen targets), and the
/// interfaces of OMP_LIB's common procedures, so that
/// `use, intrinsic :: iso_fortran_env, only: dp => real64` and `real(c_double)` resolve.
/// Each is lowered from its text once per set of modules; the generated code names the
/// compiler's own module.
pub const INTRINSIC_MODULES: [(&str, &str); 4] = [
    (
        "iso_c_binding",
        "module iso_c_binding
  integer, parameter :: c_int = 4, c_short = 2, c_long = 8, c_long_long = 8
  integer, parameter :: c_signed_char = 1, c_size_t = 8, c_int32_t = 4, c_int64_t = 8
  integer, parameter :: c_int8_t = 1, c_int16_t = 2, c_intptr_t = 8, c_bool = 1, c_char = 1
  integer, parameter :: c_float = 4, c_double = 8, c_long_double = 10
  integer, parameter :: c_float_complex = 4, c_double_complex = 8
  integer, parameter :: c_long_double_complex = 10
  character(len=1), parameter :: c_null_char = achar(0), c_alert = achar(7)
  character(len=1), parameter :: c_backspace = achar(8), c_horizontal_tab = achar(9)
  character(len=1), parameter :: c_new_line = achar(10), c_vertical_tab = achar(11)
  character(len=1), parameter :: c_form_feed = achar(12), c_carriage_return = achar(13)
end module iso_c_binding
",
    ),
    (
        "iso_fortran_env",
        "module iso_fortran_env
  integer, parameter :: int8 = 1, int16 = 2, int32 = 4, int64 = 8
  integer, parameter :: real32 = 4, real64 = 8, real128 = 16
  integer, parameter :: character_kinds(1) = [1], integer_kinds(4) = [1, 2, 4, 8]
  integer, parameter :: logical_kinds(4) = [1, 2, 4, 8], real_kinds(4) = [4, 8, 10, 16]
  integer, parameter :: input_unit = 5, output_unit = 6, error_unit = 0
  integer, parameter :: iostat_end = -1, iostat_eor = -2
  integer, parameter :: character_storage_size = 8, numeric_storage_size = 32
  integer, parameter :: file_storage_size = 8
end module iso_fortran_env
",
    ),
    // Its inquiry functions (IEEE_IS_NAN, IEEE_IS_FINITE, ...) are passive intrinsics.
    (
        "ieee_arithmetic",
        "module ieee_arithmetic
end module ieee_arithmetic
",
    ),
    // The OpenMP runtime library (`use omp_lib`, for timing and thread counts): its
    // procedures take and give no real value a derivative could flow through.
    (
        "omp_lib",
        "module omp_lib
  integer, parameter :: omp_lock_kind = 8, omp_nest_lock_kind = 8, omp_sched_kind = 4
  integer, parameter :: openmp_version = 201511
  interface
    integer function omp_get_thread_num()
    end function omp_get_thread_num
    integer function omp_get_num_threads()
    end function omp_get_num_threads
    integer function omp_get_max_threads()
    end function omp_get_max_threads
    integer function omp_get_num_procs()
    end function omp_get_num_procs
    logical function omp_in_parallel()
    end function omp_in_parallel
    double precision function omp_get_wtime()
    end function omp_get_wtime
    double precision function omp_get_wtick()
    end function omp_get_wtick
    subroutine omp_set_num_threads(n)
      integer, intent(in) :: n
    end subroutine omp_set_num_threads
  end interface
end module omp_lib
",
    ),
];

/// The pseudo-path of an intrinsic module's text: `<iso_fortran_env>`.
fn intrinsic_module_path(name: &str) -> String {
    format!("<{name}>")
}

fn ensure_intrinsic_modules(modules: &mut Modules) {
    for (name, text) in INTRINSIC_MODULES {
        if modules.contains_key(name) {
            continue;
        }
        let path = intrinsic_module_path(name);
        let source = SourceFile::new(&path, text);
        let mut next = 0;
        // Its own statement numbering: the module has no statements.
        let _ = lower_file_in_form(
            FileId(u32::MAX),
            &source,
            &path,
            SourceForm::Free,
            &mut next,
            modules,
        );
    }
}

/// Parses and lowers one Fortran file in the given source form. Spans are byte offsets
/// into `source.text` in both forms: the fixed-form pass keeps every offset.
pub fn lower_file_in_form(
    id: FileId,
    source: &SourceFile,
    path: &str,
    form: SourceForm,
    next_stmt_id: &mut u32,
    modules: &mut Modules,
) -> Result<il::File, Vec<Diagnostic>> {
    let mut no_files = |_: &str| -> Result<(FileId, String), String> {
        Err("this source was given without a directory to look in".to_string())
    };
    lower_file_with_includes(id, source, path, form, next_stmt_id, modules, &mut no_files)
}

/// [`lower_file_in_form`], reading INCLUDE lines' files through `resolve`.
pub fn lower_file_with_includes(
    id: FileId,
    source: &SourceFile,
    path: &str,
    form: SourceForm,
    next_stmt_id: &mut u32,
    modules: &mut Modules,
    resolve: &mut IncludeResolver,
) -> Result<il::File, Vec<Diagnostic>> {
    let mut files = Files {
        resolve,
        cpp_includes: &[],
    };
    lower_impl(id, source, path, form, next_stmt_id, modules, &mut files)
}

fn lower_impl(
    id: FileId,
    source: &SourceFile,
    path: &str,
    form: SourceForm,
    next_stmt_id: &mut u32,
    modules: &mut Modules,
    files: &mut Files,
) -> Result<il::File, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let free_text;
    let mut pads = Vec::new();
    let text: &str = match form {
        SourceForm::Free => &source.text,
        SourceForm::Fixed(last) => {
            (free_text, pads) = fixed::to_free_form_with_pads(id, &source.text, last, &mut diags);
            &free_text
        }
    };
    if !INTRINSIC_MODULES
        .iter()
        .any(|(name, _)| intrinsic_module_path(name) == path)
    {
        ensure_intrinsic_modules(modules);
    }
    let toks = lexer::lex_with_pads(id, text, &pads, &mut diags);
    let items = lexer::split(toks);
    let mut included = Vec::new();
    let items = expand_includes(items, form, files.resolve, &mut diags, &mut included, 0);
    let items = splice_cpp_includes(id, items, form, files, &mut diags, &mut included);
    let mut parser = unit::FileParser {
        stmts: stmt::StmtParser {
            src: text,
            included,
            refused: Default::default(),
            pointers: Default::default(),
            pointer_assignments: Default::default(),
            foreign_assignments: Default::default(),
            namelists: Default::default(),
            sourced: Default::default(),
            status: Default::default(),
        },
        items,
        pos: 0,
        diags: Vec::new(),
        next_id: next_stmt_id,
        headers: Vec::new(),
        in_program: false,
        in_internal: false,
        internal: Vec::new(),
    };
    let mut units = parser.units();
    allocate_source::expand_status(&mut units, &parser.stmts.status.borrow(), parser.next_id);
    allocate_source::expand(
        &mut units,
        &parser.stmts.sourced.borrow(),
        parser.next_id,
        &mut diags,
    );
    let imported: BTreeMap<String, BTreeMap<String, pointers::Shuffler>> = modules
        .iter()
        .filter(|(_, m)| !m.shufflers.is_empty())
        .map(|(k, m)| (k.clone(), m.shufflers.clone()))
        .collect();
    let selectors: BTreeMap<String, pointers::Selectors> = modules
        .iter()
        .filter(|(_, m)| !m.pointer_selectors.is_empty())
        .map(|(k, m)| (k.clone(), m.pointer_selectors.clone()))
        .collect();
    let (mut shufflers, mut own_selectors) = pointers::replace(
        &mut units,
        &pointers::Marked {
            all: &parser.stmts.pointer_assignments.borrow(),
            foreign: &parser.stmts.foreign_assignments.borrow(),
        },
        &imported,
        &selectors,
        parser.next_id,
        &mut diags,
    );
    diags.append(&mut parser.diags);
    diags.append(&mut parser.stmts.refused.borrow_mut());
    let mut names = BTreeMap::new();
    // Internal procedures of other hosts and other units: names an internal procedure
    // must not take.
    let taken_by = |units: &[il::Unit], host: usize| -> std::collections::BTreeSet<String> {
        units
            .iter()
            .enumerate()
            .filter(|(k, u)| u.internal_of.is_none() || !internal_of_host(units, *k, host))
            .map(|(_, u)| il::key(&u.name))
            .collect()
    };
    let mut index = 0;
    while index < units.len() {
        let spans = parser.headers.get(index).cloned().unwrap_or_default();
        let procedures = if units[index].is_module() {
            module_procedures(&units[index].name, &units[index + 1..])
        } else {
            Vec::new()
        };
        let internals = units[index + 1..]
            .iter()
            .take_while(|u| u.internal_of.is_some())
            .count();
        // Interface bodies first: the unit takes the types of its C functions from them.
        for unit in &mut units[index..=index + internals] {
            // What an interface body with IMPORT may take from the unit (when it has
            // interface bodies).
            let host = unit.host.clone();
            let bodies = unit.decls.iter().any(|d| {
                matches!(
                    d.kind,
                    il::DeclKind::Interface(_)
                        | il::DeclKind::Generic { .. }
                        | il::DeclKind::AbstractInterface(_)
                )
            });
            let lendable: Vec<il::Decl> = unit
                .decls
                .iter()
                .filter(|d| {
                    bodies && matches!(d.kind, il::DeclKind::Use { .. } | il::DeclKind::Var { .. })
                })
                .cloned()
                .collect();
            for decl in &mut unit.decls {
                if let il::DeclKind::Interface(bodies) | il::DeclKind::Generic { bodies, .. } =
                    &mut decl.kind
                {
                    for body in bodies {
                        imported_bodies::analyze(
                            body,
                            host.as_deref(),
                            &lendable,
                            &mut diags,
                            modules,
                        );
                    }
                } else if let il::DeclKind::AbstractInterface(bodies) = &mut decl.kind {
                    // Only for their result types (`PROCEDURE(iface)`); what an abstract
                    // body declares is the compiler's to check, never adgen's refusal.
                    for body in bodies {
                        let mut ignored = Vec::new();
                        imported_bodies::analyze(
                            body,
                            host.as_deref(),
                            &lendable,
                            &mut ignored,
                            modules,
                        );
                    }
                }
            }
        }
        if internals > 0 {
            let taken = taken_by(&units, index);
            let spans: Vec<_> = (index..=index + internals)
                .map(|k| parser.headers.get(k).cloned().unwrap_or_default())
                .collect();
            lift::lower_host(
                &mut units[index..=index + internals],
                &spans,
                &taken,
                &mut diags,
                modules,
            );
        } else if let Some(mut scope) =
            sema::analyze(&mut units[index], &spans, &mut diags, modules, &procedures)
        {
            scope.shufflers = shufflers
                .remove(&il::key(&units[index].name))
                .unwrap_or_default();
            scope.pointer_selectors = own_selectors
                .remove(&il::key(&units[index].name))
                .unwrap_or_default();
            modules.insert(il::key(&units[index].name), scope);
        }
        for unit in &units[index..=index + internals] {
            if names.insert(il::key(&unit.name), unit.span).is_some() {
                diags.push(
                    Diagnostic::error(
                        "E0312",
                        format!("a unit named `{}` is defined twice in this file", unit.name),
                    )
                    .at(unit.span),
                );
            }
        }
        index += 1 + internals;
    }
    defer_unsupported(&mut units, &mut diags);
    if diags.iter().any(Diagnostic::is_error) {
        // The file is refused anyway: every problem at once.
        // Each once: a module's refusal goes to every procedure that uses its names.
        let mut said = std::collections::BTreeSet::new();
        for u in &mut units {
            for d in u
                .deferred
                .drain(..)
                .chain(u.deferred_entities.drain(..).map(|(_, d)| d))
            {
                if said.insert(d.identity()) {
                    diags.push(d);
                }
            }
        }
    }
    directives_once(&mut diags);
    // In source order: parsing and semantic problems interleaved as a reader meets them.
    diags.sort_by_key(|d| match &d.location {
        Some(crate::diag::Location::Span(span)) => span.lo,
        _ => u32::MAX,
    });
    if diags.iter().any(Diagnostic::is_error) {
        Err(diags)
    } else {
        Ok(il::File {
            file: id,
            path: path.to_string(),
            language: il::Language::Fortran,
            units,
            warnings: diags,
        })
    }
}

/// The module whose specification part holds `d`, and the names the declaration there
/// declares (a derived type, or variables and constants).
fn module_entity(units: &[il::Unit], d: &Diagnostic) -> Option<(usize, Vec<String>)> {
    let Some(crate::diag::Location::Span(span)) = &d.location else {
        return None;
    };
    let inside = |s: &crate::diag::Span| s.file == span.file && s.lo <= span.lo && span.hi <= s.hi;
    let (m, module) = units
        .iter()
        .enumerate()
        .find(|(_, u)| u.is_module() && inside(&u.span))?;
    // A type definition's span is its TYPE line; its components have their own.
    let decl = module.decls.iter().find(|decl| {
        inside(&decl.span)
            || matches!(&decl.kind, il::DeclKind::TypeDef { components, .. }
                if components.iter().any(|c| inside(&c.span)))
    })?;
    let names = match &decl.kind {
        il::DeclKind::TypeDef { name, .. } => vec![name.clone()],
        il::DeclKind::Var { entities, .. } => entities.iter().map(|e| e.name.clone()).collect(),
        _ => return None,
    };
    Some((m, names))
}

/// The refusals that only say a construct is not supported yet (E0401, E0403–E0407)
/// move from the file's diagnostics to the procedure that holds them
/// ([`il::Unit::deferred`]), so that only a procedure a root reaches can block it. The
/// same refusal found twice (a statement classified again while skipping) is kept once.
fn defer_unsupported(units: &mut [il::Unit], diags: &mut Vec<Diagnostic>) {
    const DEFERRED: [&str; 6] = ["E0401", "E0403", "E0404", "E0405", "E0406", "E0407"];
    let mut seen = std::collections::BTreeSet::new();
    diags.retain(|d| seen.insert((d.code, format!("{:?}", d.location), d.message.clone())));
    // The innermost procedure holding it: an internal procedure's span lies in its
    // host's.
    let holder = |units: &[il::Unit], d: &Diagnostic| match &d.location {
        Some(crate::diag::Location::Span(span)) => units
            .iter()
            .enumerate()
            .filter(|(_, u)| {
                u.is_procedure()
                    && u.span.file == span.file
                    && u.span.lo <= span.lo
                    && span.hi <= u.span.hi
            })
            .min_by_key(|(_, u)| u.span.hi - u.span.lo)
            .map(|(k, _)| k),
        _ => None,
    };
    let mut kept = Vec::with_capacity(diags.len());
    for d in diags.drain(..) {
        // A USE of a module the sources lack blocks only the procedure that has it (and
        // the semantic errors about the names it would have brought go with it, below).
        if d.code == "E0313"
            && let Some(u) = holder(units, &d)
        {
            units[u].deferred.push(d);
            continue;
        }
        if !DEFERRED.contains(&d.code) {
            kept.push(d);
            continue;
        }
        match holder(units, &d) {
            Some(u) => units[u].deferred.push(d),
            None => match module_entity(units, &d) {
                // A declaration of a module's specification part: it blocks only the
                // procedures that use what it declares (`prepare`).
                Some((m, names)) => units[m].deferred_entities.push((names, d)),
                None => kept.push(d),
            },
        }
    }
    // A procedure that uses a name whose module declaration was refused gets semantic
    // errors about it (`imag` is not declared): the refusal is the cause, and it goes
    // with that procedure instead.
    let refused: Vec<(String, Diagnostic)> = units
        .iter()
        .flat_map(|u| u.deferred_entities.iter())
        .flat_map(|(names, d)| {
            names
                .iter()
                .map(move |n| (n.to_ascii_lowercase(), d.clone()))
        })
        .collect();
    let mut rest = Vec::with_capacity(kept.len());
    for d in kept {
        // The name, or a component of it (`obj%arr`), quoted in the message.
        let message = d.message.to_ascii_lowercase();
        let quoted = refused.iter().find(|(n, _)| {
            d.is_semantic()
                && (message.contains(&format!("`{n}`")) || message.contains(&format!("`{n}%")))
        });
        let at = holder(units, &d);
        // Or, for a semantic error that quotes only a component (`arr` has 0
        // dimensions) or a binding of a refused type (`.dot.` is not defined), a
        // refused name the procedure uses: in its statements, or as the type of its
        // variables.
        let cause = quoted.or_else(|| {
            let u = at.filter(|_| d.is_semantic())?;
            let mut named = il::visit::referenced_names(&units[u].body);
            named.extend(
                units[u]
                    .symbols
                    .iter()
                    .filter_map(|s| s.type_spec.type_name.as_ref().map(|t| il::key(t))),
            );
            refused.iter().find(|(n, _)| named.contains(n))
        });
        match (at, cause) {
            (Some(u), Some((_, refusal))) => {
                if !units[u]
                    .deferred
                    .iter()
                    .any(|x| x.message == refusal.message)
                {
                    units[u].deferred.push(refusal.clone());
                }
                units[u].deferred.push(d);
            }
            _ => rest.push(d),
        }
    }
    let kept = rest;
    // In a procedure with an unsupported construct, the semantic errors (E03xx) are
    // mostly its consequences (the names an internal procedure or a BLOCK declares are
    // unknown outside it): they go with it. A unit defined twice is the file's problem.
    *diags = Vec::with_capacity(kept.len());
    for d in kept {
        match holder(units, &d)
            .filter(|&u| d.is_semantic() && d.code != "E0312" && !units[u].deferred.is_empty())
        {
            // One error per unsupported construct: a semantic error about a name that a
            // refusal of the same procedure names (`the function `f` has no type`, after
            // `PROCEDURE(iface) :: f` was refused) is its consequence, not news.
            Some(u)
                if first_quoted(&d.message).is_some_and(|name| {
                    units[u].deferred.iter().any(|r| {
                        r.code.starts_with("E04") && r.message.contains(&format!("`{name}`"))
                    })
                }) => {}
            Some(u) => units[u].deferred.push(d),
            None => diags.push(d),
        }
    }
}

/// Preprocessor directives in a file that is not preprocessed are one error, at the
/// first: the semantic errors that follow (both branches of an `#if` declaring the same
/// name) are their consequences.
fn directives_once(diags: &mut Vec<Diagnostic>) {
    let is_directive = |d: &Diagnostic| {
        d.code == "E0201"
            && d.message
                .starts_with("preprocessor directives are not supported")
    };
    if !diags.iter().any(is_directive) {
        return;
    }
    let mut first = true;
    diags.retain(|d| {
        if is_directive(d) {
            std::mem::replace(&mut first, false)
        } else {
            !d.code.starts_with("E03")
        }
    });
    if let Some(d) = diags.iter_mut().find(|d| is_directive(d)) {
        d.help = Some(
            "set `preprocess = true` in ad.toml (as gfortran's `-cpp`; `defines = [\"NAME\"]` for its `-D`), or name the file with a capital extension (`.F90`, `.F`): adgen then runs the C preprocessor on it".to_string(),
        );
    }
}

/// The first name a message quotes in backticks.
fn first_quoted(message: &str) -> Option<&str> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(&message[start..start + len])
}
