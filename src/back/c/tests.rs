//! The C back-end against gfortran: Fortran units lowered to the IL are printed as C,
//! compiled with `gcc -Wall -Wextra -Werror` and run side by side with the gfortran
//! build of the same source; both must print the same numbers.

use std::process::Command;

use crate::diag::{SourceFile, SourceMap};
use crate::il;

const KERNEL: &str = "\
subroutine kern(n, a, b, s, k)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(0:n-1, 2)
  real(8), intent(out) :: b(3)
  real(8), intent(out) :: s
  integer, intent(out) :: k
  integer :: i, j, st
  logical :: flag
  real(8) :: w(2, 0:2)
  ! a comment line
  b(1) = 0.5d0
  b(2) = 0.5d0
  b(3) = 0.5d0
  do i = 1, 2
    do j = 0, 2
      w(i, j) = 1.0d0 + i - j
    end do
  end do
  s = 0.0d0
  k = 0
  st = -2
  outer: do j = 1, 2
    inner: do i = n - 1, 0, st
      if (i == 1) cycle outer
      s = s + a(i, j) * sign(1.5d0, a(i, j) - 1.0d0) + w(j, i / 3)
      k = k + mod(i, 3) + max(i, 2) - min(j, 1) + sign(2, 1 - i)
      if (s > 100.0d0) exit outer
    end do inner
  end do outer
  do i = 1, 3, 2
    b(i) = b(i) + mod(s, 2.5d0) + nint(s) + max(s, 1.0d0, b(2)) + floor(s / 3.0d0)
  end do
  flag = s > 0.0d0 .and. .not. (k < 0) .or. n == 3
  if (flag) s = s + abs(-2.0d0) - abs(k - 100)
  a(0, 1) = s**2 + dble(k)/3 + real(k, 8) + (-s)**2 - (-1.0d0) * int(s)
end subroutine kern
";

const MAIN: &str = "\
#include <stdio.h>
void kern_(int *n, double *a, double *b, double *s, int *k);
void kern_c(int *n, double *a, double *b, double *s, int *k);
int main(void) {
  for (int v = 0; v < 2; v++) {
    int n = 7, k = 0;
    double a[14], b[3], s = 0;
    for (int i = 0; i < 14; i++) a[i] = 0.3 * i - 1.0;
    if (v == 0) kern_(&n, a, b, &s, &k); else kern_c(&n, a, b, &s, &k);
    printf(\"%.17g %.17g %.17g %.17g %d\\n\", a[0], b[0], b[2], s, k);
  }
  return 0;
}
";

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

#[test]
fn printed_c_computes_what_gfortran_computes() {
    if !tool("gcc") || !tool("gfortran") {
        eprintln!("skipped: gcc or gfortran missing");
        return;
    }
    let mut map = SourceMap::default();
    let id = map.add(SourceFile::new("kern.f90", KERNEL));
    let mut next = 0;
    let file = crate::front::fortran::lower_file(id, map.get(id), "kern.f90", &mut next)
        .map_err(|d| crate::Diagnostics(d).render(&map))
        .unwrap();
    let mut renamed = file.clone();
    renamed.units[0].name = "kern_c".into();
    let program = il::Program {
        files: vec![renamed.clone()],
    };
    let c = super::write_file(&renamed, &program, &[]);
    assert!(c.contains("/* a comment line */"), "{c}");
    assert!(c.contains("goto adgen_cycle_outer;"), "{c}");
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).display().to_string();
    std::fs::write(p("kern.f90"), KERNEL).unwrap();
    std::fs::write(p("kern_c.c"), &c).unwrap();
    std::fs::write(p("main.c"), MAIN).unwrap();
    let run = |cmd: &str, args: &[&str]| {
        let o = Command::new(cmd).args(args).output().unwrap();
        assert!(
            o.status.success(),
            "{cmd} {args:?}\n{}\n{}\n{c}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    run("gfortran", &["-c", &p("kern.f90"), "-o", &p("kern.o")]);
    let strict = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-c"];
    run(
        "gcc",
        &[&strict[..], &[&p("kern_c.c"), "-o", &p("kern_c.o")]].concat(),
    );
    run("gcc", &["-std=c99", "-c", &p("main.c"), "-o", &p("main.o")]);
    run(
        "gfortran",
        &[
            &p("main.o"),
            &p("kern.o"),
            &p("kern_c.o"),
            "-o",
            &p("main"),
            "-lm",
        ],
    );
    let out = run(&p("main"), &[]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], lines[1], "gfortran vs printed C:\n{out}\n{c}");
}

/// Every derivative of the Fortran corpus, printed as C, compiles warning-free: the
/// back-end copes with every IL shape the differentiator makes (pushes of array
/// sections, reversed loops, early-return jumps, whole-array zeroing, ...).
#[test]
fn fortran_corpus_derivatives_print_as_warning_free_c() {
    if !tool("gcc") {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fortran");
    let Ok(entries) = std::fs::read_dir(&root) else {
        return;
    };
    let mut dirs: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    dirs.sort();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        work.path().join("adgen_runtime.h"),
        crate::runtime::RUNTIME_HEADER,
    )
    .unwrap();
    let mut problems = Vec::new();
    for dir in dirs {
        let Ok(loaded) = crate::manifest::load(&dir.join("ad.toml")) else {
            continue;
        };
        let (inputs, request) = (loaded.sources, loaded.request);
        // Black boxes are called through the user's derivatives, which have no C
        // prototypes to print.
        if !request.black_boxes.is_empty() {
            continue;
        }
        // Implicitly typed Fortran (fixed-form libraries, IMPLICIT DOUBLE PRECISION) is
        // not printed as C yet: the C back-end declares only what the IL declares.
        if inputs.iter().any(|i| {
            !i.path.to_ascii_lowercase().ends_with(".f90")
                || !i.text.to_ascii_lowercase().contains("implicit none")
        }) {
            continue;
        }
        let mut sources = SourceMap::default();
        let program = crate::parse_sources(&inputs, &mut sources).unwrap();
        // The manifest's `[sizes]`, which `prepare` applies.
        let program = crate::prepare::sizes::apply(program, &request).unwrap();
        // Modules have no C form: their variables and scopes stay Fortran.
        if program.units().any(|u| u.is_module()) {
            continue;
        }
        // Procedure arguments are specialized by `prepare`, which this test bypasses.
        if program
            .units()
            .any(|u| !crate::prepare::specialize::procedure_dummies(u).is_empty())
        {
            continue;
        }
        // Whole-array ANY, ALL and COUNT have no C form yet.
        let mut whole_reduction = false;
        for u in program.units() {
            il::visit::walk_stmts(&u.body, &mut |s| {
                for e in il::visit::stmt_exprs(s) {
                    il::visit::walk_expr(e, &mut |x| {
                        if matches!(&x.kind, il::ExprKind::Intrinsic { op: il::Intrinsic::Passive(p), .. } if p.reduction)
                        {
                            whole_reduction = true;
                        }
                    });
                }
            });
        }
        if whole_reduction {
            continue;
        }
        // Character data and the input that reads it have no C form yet.
        if program
            .units()
            .any(|u| u.symbols.iter().any(|s| s.ty == il::ScalarType::Character))
        {
            continue;
        }
        let program =
            crate::prepare::scalarize::scalarize(program).expect("the test program scalarizes");
        // Assumed-shape dummies have no C counterpart (their extents travel with them).
        if program.units().any(|u| {
            u.symbols
                .iter()
                .any(|s| s.dims.iter().any(|d| matches!(d.upper, il::Bound::Colon)))
        }) {
            continue;
        }
        let program = crate::prepare::normalize::normalize(program);
        let ir = crate::ir::Ir::build(&program, &request).unwrap();
        let analyses = crate::analysis::analyze(&program, &ir, &request);
        let d = crate::diff::differentiate(&program, &ir, &analyses, &request).unwrap();
        let siblings: Vec<&il::File> = d.files.iter().map(|(_, f)| f).collect();
        for (path, file) in &d.files {
            let c = super::write_file(file, &program, &siblings);
            let name = format!(
                "{}_{}.c",
                dir.file_name().unwrap().to_string_lossy(),
                path.replace(['/', '.'], "_")
            );
            let p = work.path().join(&name);
            std::fs::write(&p, &c).unwrap();
            let o = Command::new("gcc")
                .args([
                    "-std=c99",
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-fsyntax-only",
                    "-I",
                ])
                .arg(work.path())
                .arg(&p)
                .output()
                .unwrap();
            if !o.status.success() {
                problems.push(format!(
                    "{name}:\n{}",
                    String::from_utf8_lossy(&o.stderr)
                        .lines()
                        .take(12)
                        .collect::<Vec<_>>()
                        .join("\n")
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The C source `src` (as `t.c`) lowered and printed back by the C back-end.
fn printed_c(src: &str) -> String {
    let mut map = SourceMap::default();
    let id = map.add(SourceFile::new("t.c", src));
    let mut next = 0;
    let file = crate::front::lower_source(id, map.get(id), "t.c", &mut next)
        .map_err(|d| crate::Diagnostics(d).render(&map))
        .unwrap();
    let program = il::Program {
        files: vec![file.clone()],
    };
    super::write_file(&file, &program, &[])
}

/// A C file with structs and globals, printed back: the pseudo-module gives the struct
/// definitions and the global definitions (`static` and initializers kept), members are
/// `.` or `->` paths, and the result compiles warning-free.
#[test]
fn structs_and_globals_print_back() {
    let src = "\
struct vec { double v[3]; };
struct point { double x, y; int id; struct vec w; };
typedef struct { double k; double m[2][2]; } spring;
double g_state[4];
double g_scale = 2.0;
static double g_table[3] = {1.0, 2.5, -3};
struct point g_origin = {0.5, 1.5, 7, {{1.0, 2.0, 3.0}}};

static void push(struct point *p, const spring *s, double f) {
  p->x += f * s->k + s->m[1][0];
  p->w.v[1] = (*p).y * g_scale + g_table[2];
}

void run(double a, double *r) {
  struct point q;
  spring sp;
  g_state[2] = a;
  q.x = a; q.y = 1.0; q.id = 3;
  sp.k = g_state[2]; sp.m[1][0] = a;
  push(&q, &sp, 0.5);
  *r = q.x * q.w.v[1] + g_origin.w.v[2];
}
";
    let c = printed_c(src);
    for want in [
        "struct vec {\n  double v[3];\n};",
        "struct point {\n  double x;\n  double y;\n  int id;\n  struct vec w;\n};",
        "typedef struct {\n  double k;\n  double m[2][2];\n} spring;",
        "double g_scale = 2.0;",
        "double g_state[4];",
        "static double g_table[3] = {1.0, 2.5, -3};",
        "struct point g_origin = {0.5, 1.5, 7, {{1.0, 2.0, 3.0}}};",
        "void push(struct point *p, const spring *s, double f)",
        "p->x = p->x + (f*s->k + s->m[1][0]);",
        "p->w.v[1] = p->y*g_scale + g_table[2];",
        "push(&q, &sp, 0.5);",
        "(*r) = q.x*q.w.v[1] + g_origin.w.v[2];",
    ] {
        assert!(c.contains(want), "missing {want:?} in:\n{c}");
    }
    if !tool("gcc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.c");
    std::fs::write(&path, &c).unwrap();
    let o = Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}\n{c}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `const` follows a read-only array down a call chain: a pointer passed on to a callee
/// that takes it as `const` stays `const`; one passed to a callee that writes it, or that
/// calls itself, does not.
#[test]
fn const_follows_read_only_arrays_down_calls() {
    let src = "\
static double first(const double *a) { return a[0]; }
static double twice(const double *a) { return 2.0 * first(a); }
static void scale(double *w) { w[0] = 2.0 * w[0]; }
double top(const double *a, double *b) {
  scale(b);
  return twice(a) + b[0];
}
";
    let c = printed_c(src);
    for want in [
        "double first(const double *a)",
        "double twice(const double *a)",
        "void scale(double *w)",
        "double top(const double *a, double *b)",
    ] {
        assert!(c.contains(want), "missing {want:?} in:\n{c}");
    }
}
