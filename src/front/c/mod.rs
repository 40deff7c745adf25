//! The C front-end: the system preprocessor (`gcc -E`, line markers kept) → lang-c's
//! parser → [`lower`] into the [`il`].
//!
//! Positions: lang-c gives byte offsets into the preprocessed text; [`PosMap`] maps them
//! back through the line markers to byte offsets of the original source, or of the user
//! header the text comes from, so diagnostics point at `file:line:col` of what the user
//! wrote, in the `.c` file or in the header.
//!
//! User headers (`#include "x.h"`): the preprocessor runs in the source's directory with
//! the manifest's `include-dirs` as `-I`; each header it reads is registered as a source
//! file (for diagnostics). Its prototypes, typedefs, enumerations, `const` scalars and
//! `#define`s are used like the source's own; a function it defines (`static inline`) is
//! lowered once, by the first file including it, and called by prototype from the
//! others. A generated source never includes a user header: typedefs are expanded to
//! the C types they name, macros were expanded by the preprocessor, and the header's
//! functions are copied as `static` functions like any original the generated code
//! calls. That is the robust choice: the generated file compiles without the user's
//! include path, and it cannot clash with a header that declares the originals (the
//! copies are `static`, the header's prototypes are not) or defines functions of its
//! own. A generated *header* is included by the user's files, beside the user's
//! headers: a struct it must show complete that a user header defines (a typedef of an
//! anonymous struct, above all) it takes from that header, named as the source's
//! `#include` spells it (each struct's [`il::DeclKind::TypeDef`] `header`), since a
//! second definition would be another type.
//!
//! Accepted (the core subset): function definitions (`static`, `inline`) returning
//! `void`, `double`, `float`, `int` or `long`; by-value scalar parameters (a function that
//! assigns one works on a local copy `x_copy`, so that the parameter stays an input: the
//! `vb0` case of seeds/003); pointer and `[]` parameters (arrays, or scalars passed by
//! reference when only used as `*p`); local scalars and 1-D / 2-D arrays of constant
//! size; typedefs of those types and of arrays of them; enumeration constants (inlined);
//! pointer arithmetic that resolves to an array plus an integer offset (`*(x + i)`, `x + k`
//! as an argument, local pointers and moving pointer parameters, `*p++`, `p += n`, pointer
//! comparisons: each moving pointer becomes an integer offset variable `p_off`);
//! assignment, compound assignment, `++`/`--` as statements and inside statements
//! (`y[k++] = v`, `while (n-- > 0)`: the step runs before or after the statement, or on
//! both exits of the test; the stepped name must be used only once there), `if`/`else`,
//! `for`, `while`, `,` in expression statements, `do ... while` (as a WHILE loop with a
//! first-pass flag), `switch` (an IF chain; a case that falls through repeats the
//! following cases' statements up to the `break`; a `break` inside an `if` of a case sets
//! a flag guarding the rest), `break`, `continue`, `return`, calls; arithmetic, comparisons, `&&`, `||`, `!`,
//! side-effect-free `?:`, casts, the math.h functions, integer shifts and bitwise
//! operators (`<<`, `>>`, `&`, `|`, `^`, `~`, and their compound assignments: passive,
//! kept as Fortran's `shiftl`, `iand`, ... in the IL and printed back as the operators);
//! file-scope `const` scalars with
//! literal initializers (inlined). Whole-line comments are kept.
//!
//! 2-D array parameters `double (*a)[N]`, `double a[][N]`, `double a[m][N]` and
//! `vec3 *a` (`typedef double vec3[N]`) are 2-D arrays `a(0:N-1, 0:*)` of the IL; a row
//! `a[i]` may be passed as an array or pointed to (`double *row = a[i];`, `&a[i][j]`):
//! such a pointer keeps its row in an integer variable `row_row` besides its offset.
//! A local 2-D array `double f[M][N]` may be passed whole to such a parameter whose
//! rows have its length `N` (a literal in the prototype); to anything else it is E0605.
//! Pointers to pointers, arrays of pointers and comparisons of pointers into 2-D arrays
//! are refused.
//!
//! `malloc`, `calloc` and `free` of local work arrays (`double *w = malloc(n * sizeof
//! *w);`, or rows `double (*t)[N] = calloc(m, sizeof *t);`) are ALLOCATE and DEALLOCATE
//! of an ALLOCATABLE array: see `lower::heap` for
//! what is accepted (one allocation and one free at the top level of the function,
//! sizes known on entry) and for how the derivatives get their buffers.
//!
//! Optional outputs (`void f(const double *x, double *y, double *grad)` called with `NULL`
//! for `grad`): a pointer parameter the function tests against NULL (`grad != NULL`,
//! `grad == NULL`, `!grad`, or `grad` alone as a condition) is an OPTIONAL dummy of the
//! IL, and each test is `present(grad)`; a `NULL` actual for a pointer parameter is an
//! absent argument (the arguments after it go by keyword, named as in the prototype).
//! The derivative of an optional dummy is optional too, present exactly when the primal
//! is: derivative code passes `NULL` for both. Over the whole program
//! (`front::optional`), every use of an optional parameter must lie inside a test that
//! it is present (or pass it on to another optional parameter), and `NULL` may be
//! passed only to a parameter the callee tests; the derivative code adgen adds outside
//! the user's tests (snapshots, zeroings) is guarded by `diff::optional`.
//!
//! Anything else is refused with a located diagnostic.
//!
//! File scope (`lower::globals`): global variables (scalars, 1-D / 2-D arrays of constant
//! size, structs; `static` or not; literal initializers, nested braces for structs) and
//! struct types (`struct tag
//! {...}`, `typedef struct {...} name`, members that are scalars, arrays of 1 or 2
//! dimensions, or nested structs) go into one pseudo-module per file (a
//! [`il::UnitKind::Module`] named after the path, `src/m.c` → `src_m_c`), the host of the
//! file's functions, so that globals are module variables for analyses and
//! differentiation. Structs are used as locals, globals, pointer parameters
//! (`struct s *p`, `const` or not; passed on as `p`, `&local`, `&p->inner`), and
//! parameters passed by value (`double energy(struct state s, ...)`, called with a
//! struct variable, member or `*p`): a VALUE dummy of derived type, whose tangent is
//! passed by value too (`struct state_d sd`) and whose adjoint by reference
//! (`struct state_b *sb`), as seeds/003 has it for by-value arguments; a function that
//! changes the struct (assigns a member, takes an address, passes a member on) works on
//! a local copy `s_copy`, filled member by member (the `vb0` case). Members are
//! reached by `.`, `->` and `(*p).`, and lowered to paths (`p->v[i]` → `p%v(i)`) as
//! Fortran components are. A whole-struct assignment `a = b` becomes one assignment per
//! member, and so does a struct local's initializer (`= {x, {1.0, y}, .id = 2}`,
//! members not given zeroed, or `= other`). Arrays of structs (`lower::structarr`):
//! local and global `struct s a[N]` / `a[M][N]` (without initializers), struct pointer
//! parameters indexed as arrays (`struct s *p` used as `p[i].x`, `(p + i)->x`, and then
//! `p->x` for element 0; `struct s p[]`), passed on whole to a function taking an array
//! of structs; an element's member `p[i].v[k]` is the element `p%v(i, k)` of the
//! struct-of-arrays view `p%v` (the array's dimensions first), and a whole-element copy
//! `p[i] = q[j]` one assignment per member (array members element by element). Derivative code reaches a global through an
//! `extern` declaration, so a
//! `static` one it needs is refused (E0516, at differentiation).
//!
//! `extern` globals (`extern double g_visc;`, in the file or in a user header it
//! includes) are the global another file of the program defines: the declaring file's
//! pseudo-module leaves them out, and [`externs::resolve`] gives their symbols the
//! defining file's pseudo-module once every file is lowered, so that there is one zone,
//! and one derivative global, defined in the generated file of the defining file and
//! declared `extern` in the others.
//!
//! Diagnostic codes:
//! - W0601 `abs` of a real argument, which C converts to `int` (as gcc's
//!   `-Wabsolute-value`: `fabs` was most likely meant).
//! - E0601 the preprocessor failed, E0602 syntax error, E0603 unsupported declaration
//!   (unsupported types and typedefs), E0604 unsupported statement,
//!   E0605 unsupported expression, E0606 unknown name or function, E0607 a write to a
//!   by-value parameter that was not copied (a safety net), E0608 name clash (names differing only by case,
//!   shadowing, a nested-block local named like a global: a parameter or an outermost
//!   local hides the global from the whole function), E0609 wrong number of arguments.
//! - E0610 unsupported global declaration or struct type (unions, pointer or bit-field
//!   members, global pointers, `const` globals other than inlined scalars and literal
//!   tables, other storage classes), E0611 an `extern` variable no C source of the
//!   program defines (or defines with another type or shape), or one with an
//!   initializer, E0612 what arrays of structs
//!   do not support yet (an element used whole other than in `a[i] = b[j]`, or passed by
//!   address `&p[i]`; struct pointers that move, `p++`; initializers of local arrays of
//!   structs; subscripts that do not match the array's rank) and local struct pointers,
//!   E0613 a function returning a struct, E0614 a whole struct used as a
//!   value other than in `a = b`, E0615 unsupported initializers (designators in struct
//!   globals, brace elision or nested designators in struct locals, non-literal ones of
//!   globals), E0616 a global passed by reference to a function that also uses it
//!   directly (aliasing).
//! - E0620 a user header that cannot be found; E0621 a `malloc`ed array whose `malloc` and
//!   `free` are not a pair in one block (allocated again before it is freed, freed twice
//!   or in a loop or branch it was not allocated in and that does not give it memory
//!   again, used before its `malloc` or after its `free`, left by `return`, `goto`,
//!   `break` or `continue` while allocated or between a `realloc`'s free and allocation);
//!   E0622 is no longer issued (allocation sizes may read values the function computes);
//!   E0623 an unsupported allocation (a `realloc` of another pointer, or of one neither
//!   `malloc`ed nor NULL before, a size without one `sizeof` of the element type, `free`
//!   of something else than a local `malloc`ed array); E0624 NULL compared with a
//!   pointer that is neither a pointer parameter (an optional argument) nor a `malloc`ed
//!   array (for a `malloc`ed `w`, `w == NULL`, `w != NULL`, `!w`: allocations are taken
//!   to succeed, and an `if` that runs only when one failed is dropped; refused for a
//!   pointer that starts as NULL and gets its memory from `realloc`), or NULL passed to
//!   a function whose prototype does not name its parameters.
//! - E0640 a pointer parameter both tested against NULL and moved (`p++`); over the
//!   program (`front::optional`): E0641 an optional parameter used outside a test that
//!   it is not NULL, E0642 NULL passed for a parameter the callee does not test, E0643 an
//!   argument after a NULL named by the prototype but not by the definition.

pub mod externs;
mod lower;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_structarr;

use std::io::Write as _;
use std::process::{Command, Stdio};

use crate::diag::{Diagnostic, FileId, SourceFile, Span};
use crate::il;

/// Maps offsets in the preprocessed text back to offsets in the original files: the main
/// source and the user headers it includes (`#include "x.h"`), each a registered source
/// file, so that a diagnostic about code in `x.h` points into `x.h`.
pub(crate) struct PosMap {
    /// For each preprocessed line: its start offset and, when it comes from the main file
    /// or a user header, the index of that file in `files` and the original line (0-based).
    lines: Vec<(usize, Option<(usize, usize)>)>,
    /// The files lines come from; the main file first. For each: its id and the start
    /// offset and length of each of its lines.
    files: Vec<(FileId, Vec<(usize, usize)>)>,
    /// For each of `files`: how an `#include` names it (none for the main file).
    includes: Vec<Option<String>>,
    pub(crate) file: FileId,
}

/// Start offset and length (without the newline) of each line of `text`.
fn line_table(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        out.push((start, line.trim_end_matches(['\n', '\r']).len()));
        start += line.len();
    }
    if out.is_empty() {
        out.push((0, 0));
    }
    out
}

impl PosMap {
    /// `header` registers the user header a line marker names (as the preprocessor
    /// printed it) and gives its id and text; `None` for files that are not the user's.
    fn new(
        pp: &str,
        original: &str,
        file: FileId,
        header: &mut dyn FnMut(&str) -> Option<(FileId, String)>,
    ) -> PosMap {
        let mut files = vec![(file, line_table(original))];
        let mut includes = vec![None];
        // The texts read so far, whose `#include` lines name the headers.
        let mut texts = vec![original.to_string()];
        let mut by_name: std::collections::BTreeMap<String, Option<usize>> = Default::default();
        let mut lines = Vec::new();
        let mut offset = 0;
        let mut current: Option<(usize, usize)> = None;
        for line in pp.split_inclusive('\n') {
            match parse_marker(line) {
                Some((n, origin)) => {
                    lines.push((offset, None));
                    let index = match origin {
                        Origin::Main => Some(0),
                        Origin::Other => None,
                        Origin::User(name) => *by_name.entry(name.clone()).or_insert_with(|| {
                            header(&name).map(|(id, text)| {
                                files.push((id, line_table(&text)));
                                includes.push(Some(include_spelling(&name, &texts)));
                                texts.push(text);
                                files.len() - 1
                            })
                        }),
                    };
                    current = index.map(|i| (i, n.saturating_sub(1)));
                }
                None => {
                    lines.push((offset, current));
                    current = current.map(|(f, c)| (f, c + 1));
                }
            }
            offset += line.len();
        }
        PosMap {
            lines,
            files,
            includes,
            file,
        }
    }

    /// How an `#include` names the user header that preprocessed offset `pos` lies in:
    /// none in the main file or a system header.
    pub(crate) fn header_of(&self, pos: usize) -> Option<&str> {
        let (_, (f, _)) = self.line_of(pos)?;
        self.includes[f].as_deref()
    }

    /// The preprocessed line holding offset `pos`: its start, and its file (index in
    /// `files`) and original line, when it comes from the main file or a user header.
    fn line_of(&self, pos: usize) -> Option<(usize, (usize, usize))> {
        let i = match self.lines.binary_search_by_key(&pos, |l| l.0) {
            Ok(i) => i,
            Err(0) => return None,
            Err(i) => i - 1,
        };
        let (start, line) = self.lines[i];
        Some((start, line?))
    }

    /// The file and original offset of preprocessed offset `pos`, when it lies in the
    /// main file or a user header.
    fn locate(&self, pos: usize) -> Option<(FileId, usize)> {
        let (start, (f, line)) = self.line_of(pos)?;
        let (id, table) = &self.files[f];
        let (ostart, olen) = *table.get(line)?;
        Some((*id, ostart + (pos - start).min(olen)))
    }

    /// The original offset of preprocessed offset `pos`, when it lies in the main file.
    pub(crate) fn offset(&self, pos: usize) -> Option<usize> {
        self.locate(pos)
            .filter(|(id, _)| *id == self.file)
            .map(|(_, o)| o)
    }

    /// The original span of a preprocessed span, in the main file or the user header it
    /// lies in (the start of the main file when it lies in a system header).
    pub(crate) fn span(&self, span: lang_c::span::Span) -> Span {
        let lo = self.locate(span.start);
        let hi = self.locate(span.end.max(span.start));
        match (lo, hi) {
            (Some((f, lo)), Some((g, hi))) if f == g && hi >= lo => Span::new(f, lo, hi),
            (Some((f, lo)), _) => Span::new(f, lo, lo),
            _ => Span::new(self.file, 0, 0),
        }
    }

    /// Is this preprocessed offset in the main file (not in a header)?
    pub(crate) fn in_main(&self, pos: usize) -> bool {
        self.offset(pos).is_some()
    }

    /// Is this preprocessed offset in the main file or a user header (not a system one)?
    pub(crate) fn in_user(&self, pos: usize) -> bool {
        self.locate(pos).is_some()
    }

    /// The original offset of a 1-based line and column of the main file.
    fn line_col(&self, line: usize, col: usize) -> usize {
        let table = &self.files[0].1;
        match table.get(line.saturating_sub(1)) {
            Some(&(start, len)) => start + col.saturating_sub(1).min(len),
            None => table.last().map(|l| l.0 + l.1).unwrap_or(0),
        }
    }
}

/// Where the lines after a line marker come from.
#[derive(Debug, PartialEq)]
enum Origin {
    /// The source itself (read from standard input).
    Main,
    /// A user header, by the name the preprocessor printed.
    User(String),
    /// A system header (flag 3), or `<built-in>` / `<command-line>`.
    Other,
}

/// How the sources' `#include "..."` lines spell the header the preprocessor printed as
/// `name` (`include/model.h` found through `-Iinclude` is `model.h`; `sub/model.h` with
/// `-I.` stays `sub/model.h`): the longest spelling that ends `name` at a `/`, else the
/// file name alone.
fn include_spelling(name: &str, texts: &[String]) -> String {
    let name = name.replace('\\', "/");
    let mut best: Option<&str> = None;
    for text in texts {
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix('#') else {
                continue;
            };
            let Some(rest) = rest.trim_start().strip_prefix("include") else {
                continue;
            };
            let Some((spelled, _)) = rest
                .trim_start()
                .strip_prefix('"')
                .and_then(|r| r.split_once('"'))
            else {
                continue;
            };
            let fits = name == spelled
                || (name.ends_with(spelled) && name[..name.len() - spelled.len()].ends_with('/'));
            if fits && best.is_none_or(|b| spelled.len() > b.len()) {
                best = Some(spelled);
            }
        }
    }
    match best {
        Some(s) => s.to_string(),
        None => name.rsplit('/').next().unwrap_or(&name).to_string(),
    }
}

/// `# 12 "<stdin>" 2` → (12, Main); `# 1 "tridiag.h" 1` → (1, User("tridiag.h")).
fn parse_marker(line: &str) -> Option<(usize, Origin)> {
    let rest = line.strip_prefix("# ")?;
    let (num, rest) = rest.split_once(' ').unwrap_or((rest.trim_end(), ""));
    let n: usize = num.trim().parse().ok()?;
    let rest = rest.trim();
    let origin = match rest.strip_prefix('"').and_then(|r| r.rsplit_once('"')) {
        Some(("<stdin>", _)) => Origin::Main,
        Some((name, flags)) if !name.starts_with('<') && !flags.split(' ').any(|f| f == "3") => {
            Origin::User(name.replace("\\\\", "\\"))
        }
        _ => Origin::Other,
    };
    Some((n, origin))
}

/// Where `#include "x.h"` looks, and where the headers found are registered.
pub struct Headers<'a> {
    /// The source's own directory: the preprocessor runs there, so that quoted includes
    /// find the headers next to the source.
    pub dir: Option<&'a std::path::Path>,
    /// The manifest's `include-dirs` (`-I`).
    pub include_dirs: &'a [std::path::PathBuf],
    /// The manifest's `defines` (`-D`).
    pub defines: &'a [String],
    /// How to name a header found next to the source in diagnostics: the source's
    /// directory as given (relative).
    pub display_dir: Option<&'a str>,
    /// Registers a header (display path, text) as a source file and gives its id.
    pub register: &'a mut dyn FnMut(String, String) -> FileId,
    /// Functions defined in user headers that an earlier file already lowered: each is
    /// lowered once, by the first file that includes its header.
    pub lowered: &'a mut std::collections::BTreeSet<String>,
}

impl Headers<'_> {
    /// The id and text of the header the preprocessor printed as `name`, registered.
    fn resolve(&mut self, name: &str) -> Option<(FileId, String)> {
        let path = std::path::Path::new(name);
        let (full, display) = if path.is_absolute() {
            (path.to_path_buf(), name.to_string())
        } else {
            let display = match self.display_dir {
                Some("") | None => name.to_string(),
                Some(d) => format!("{d}/{name}"),
            };
            let full = match self.dir {
                Some(d) => d.join(path),
                None => path.to_path_buf(),
            };
            (full, display)
        };
        let bytes = std::fs::read(&full).ok()?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let id = (self.register)(display, text.clone());
        Some((id, text))
    }
}

/// Runs the preprocessor on `text` (as a C file read from standard input), in the
/// source's directory and with the include directories.
fn preprocess(text: &str, headers: &Headers) -> Result<String, String> {
    let cc = std::env::var("ADGEN_CPP").unwrap_or_else(|_| "gcc".to_string());
    let mut command = Command::new(&cc);
    command.args(["-E", "-x", "c", "-std=gnu99"]);
    // The preprocessor runs in the source's directory: relative include directories are
    // made absolute first (they are relative to adgen's own directory).
    for dir in headers.include_dirs {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        command.arg(format!("-I{}", dir.display()));
    }
    for d in headers.defines {
        command.arg(format!("-D{d}"));
    }
    command.arg("-");
    if let Some(dir) = headers.dir.filter(|d| d.is_dir()) {
        command.current_dir(dir);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run the C preprocessor `{cc} -E`: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = text.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child
        .wait_with_output()
        .map_err(|e| format!("the C preprocessor failed: {e}"))?;
    let _ = writer.join();
    if out.status.success() {
        String::from_utf8(out.stdout).map_err(|_| "the preprocessed text is not UTF-8".into())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).to_string())
    }
}

/// Deepest nesting of blocks (`{`) accepted, as for Fortran's constructs.
const MAX_BLOCK_NESTING: usize = 100;
/// Deepest nesting of parentheses and brackets accepted (the parser recurses on them).
const MAX_PAREN_NESTING: usize = 10_000;

/// Where the preprocessed text nests deeper than adgen accepts, and why: blocks beyond
/// [`MAX_BLOCK_NESTING`], parentheses beyond [`MAX_PAREN_NESTING`], or one statement of
/// more than [`crate::MAX_EXPRESSION_DEPTH`] operators (its tree would be that deep).
/// Checked before parsing, so that no input can exhaust the parser's stack.
fn too_deep(pp: &str) -> Option<(usize, String)> {
    let bytes = pp.as_bytes();
    let (mut blocks, mut parens, mut operators) = (0usize, 0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'"' | b'\'') => {
                // A literal: skip to its closing quote (escapes included).
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            // A line marker or directive left by the preprocessor.
            b'#' if i == 0 || bytes[i - 1] == b'\n' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => {
                blocks += 1;
                operators = 0;
                if blocks > MAX_BLOCK_NESTING {
                    return Some((
                        i,
                        format!("blocks are nested more than {MAX_BLOCK_NESTING} deep"),
                    ));
                }
            }
            b'}' => {
                blocks = blocks.saturating_sub(1);
                operators = 0;
            }
            b'(' | b'[' => {
                parens += 1;
                if parens > MAX_PAREN_NESTING {
                    return Some((
                        i,
                        format!(
                            "this expression nests parentheses more than {MAX_PAREN_NESTING} levels deep"
                        ),
                    ));
                }
            }
            b')' | b']' => parens = parens.saturating_sub(1),
            b';' => operators = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'&' | b'|' | b'^' | b'?' | b'=' => {
                operators += 1;
                if operators > crate::MAX_EXPRESSION_DEPTH as usize {
                    return Some((
                        i,
                        format!(
                            "this statement has more than {} operators",
                            crate::MAX_EXPRESSION_DEPTH
                        ),
                    ));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Parses and lowers one C file. Returns `Err` when any error was found.
pub fn lower_file(
    id: FileId,
    source: &SourceFile,
    path: &str,
    next_stmt_id: &mut u32,
    headers: &mut Headers,
) -> Result<il::File, Vec<Diagnostic>> {
    let orig_map = PosMap::new("", &source.text, id, &mut |_| None);
    let pp = match preprocess(&source.text, headers) {
        Ok(pp) => pp,
        Err(stderr) => return Err(preprocessor_errors(&stderr, &orig_map, id, headers)),
    };
    let map = PosMap::new(&pp, &source.text, id, &mut |name| headers.resolve(name));
    if let Some((offset, message)) = too_deep(&pp) {
        let at = map.span(lang_c::span::Span::span(offset, offset + 1));
        return Err(vec![
            Diagnostic::error("E0625", message)
                .at(at)
                .with_help("split it into several statements or functions"),
        ]);
    }
    let config = lang_c::driver::Config::with_gcc();
    let parse = match lang_c::driver::parse_preprocessed(&config, pp) {
        Ok(p) => p,
        Err(e) => {
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort();
            expected.truncate(8);
            let at = map.span(lang_c::span::Span::span(e.offset, e.offset + 1));
            return Err(vec![
                Diagnostic::error(
                    "E0602",
                    format!("C syntax error: expected one of {}", expected.join(" ")),
                )
                .at(at),
            ]);
        }
    };
    let mut diags: Vec<Diagnostic> = openmp_pragma(&source.text, id).into_iter().collect();
    let units = lower::lower_unit(
        &parse.unit,
        &map,
        path,
        &source.text,
        next_stmt_id,
        headers.lowered,
        &mut diags,
    );
    diags.sort_by_key(|d| match &d.location {
        Some(crate::diag::Location::Span(span)) => (span.file != id, span.file, span.lo),
        _ => (true, FileId(u32::MAX), u32::MAX),
    });
    if diags.iter().any(Diagnostic::is_error) {
        Err(diags)
    } else {
        Ok(il::File {
            file: id,
            path: path.to_string(),
            language: il::Language::C,
            units,
            warnings: diags,
        })
    }
}

/// W0403 at the file's first `#pragma omp`: the preprocessor passes the pragmas on, the
/// parser drops them, and the derivatives do without them (their loops run serially),
/// as the Fortran front-end says of `!$omp` directives.
fn openmp_pragma(text: &str, id: FileId) -> Option<Diagnostic> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let words: Vec<&str> = line
            .trim_start()
            .trim_start_matches('#')
            .split_whitespace()
            .take(2)
            .collect();
        if line.trim_start().starts_with('#') && words == ["pragma", "omp"] {
            let lo = offset + (line.len() - line.trim_start().len());
            let hi = offset + line.trim_end().len();
            return Some(
                Diagnostic::warning(
                    "W0403",
                    "OpenMP pragmas are not carried into the derivatives of this file: their \
                     loops run serially there",
                )
                .at(Span::new(id, lo, hi))
                .with_help("the derivatives are right; only the original runs in parallel"),
            );
        }
        offset += line.len();
    }
    None
}

/// Diagnostics from the preprocessor's `file:line:col: error: message` lines: located in
/// the source, or in the user header they name. A missing header is E0620.
fn preprocessor_errors(
    stderr: &str,
    map: &PosMap,
    id: FileId,
    headers: &mut Headers,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Headers read to locate errors in them: their name, and their id and line table
    // when they could be read.
    type Seen = (String, Option<(FileId, Vec<(usize, usize)>)>);
    let mut seen: Vec<Seen> = Vec::new();
    for line in stderr.lines() {
        let mut parts = line.splitn(4, ':');
        let (Some(file), Some(l), Some(c), Some(msg)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Ok(l), Ok(c)) = (l.trim().parse::<usize>(), c.trim().parse::<usize>()) else {
            continue;
        };
        let msg = msg.trim();
        let Some(msg) = msg
            .strip_prefix("fatal error:")
            .or_else(|| msg.strip_prefix("error:"))
        else {
            continue;
        };
        let msg = msg.trim();
        let at = if file == "<stdin>" {
            let at = map.line_col(l, c);
            Span::new(id, at, at)
        } else {
            let k = match seen.iter().position(|(n, _)| n == file) {
                Some(k) => k,
                None => {
                    let found = headers
                        .resolve(file)
                        .map(|(hid, text)| (hid, line_table(&text)));
                    seen.push((file.to_string(), found));
                    seen.len() - 1
                }
            };
            match &seen[k].1 {
                Some((hid, table)) => {
                    let at = match table.get(l.saturating_sub(1)) {
                        Some(&(start, len)) => start + c.saturating_sub(1).min(len),
                        None => 0,
                    };
                    Span::new(*hid, at, at)
                }
                None => Span::new(id, 0, 0),
            }
        };
        // `x.h: No such file or directory`
        if let Some(name) = msg.strip_suffix(": No such file or directory") {
            let mut dirs: Vec<String> = headers
                .dir
                .iter()
                .map(|d| format!("`{}`", d.display()))
                .collect();
            dirs.extend(
                headers
                    .include_dirs
                    .iter()
                    .map(|d| format!("`{}`", d.display())),
            );
            let why = if dirs.is_empty() {
                "the source was given without a directory to look in".to_string()
            } else {
                format!("no such file in {}", dirs.join(", "))
            };
            out.push(
                Diagnostic::error("E0620", format!("cannot include `{name}`: {why}"))
                    .at(at)
                    .with_help(
                        "put the header next to the source that includes it, or list its \
                         directory in the manifest's `include-dirs`",
                    ),
            );
            continue;
        }
        out.push(Diagnostic::error("E0601", format!("C preprocessor: {msg}")).at(at));
    }
    if out.is_empty() {
        out.push(
            Diagnostic::error(
                "E0601",
                format!("the C preprocessor failed: {}", stderr.trim()),
            )
            .at(Span::new(id, 0, 0)),
        );
    }
    out
}
