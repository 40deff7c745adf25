use crate::diag::{SourceFile, SourceMap};
use crate::il::{self, StmtKind};

fn lower(text: &str) -> Result<il::File, String> {
    let mut map = SourceMap::default();
    let id = map.add(SourceFile::new("t.c", text));
    let mut next = 0;
    crate::front::lower_source(id, map.get(id), "t.c", &mut next)
        .and_then(refusals_now)
        .map_err(|d| crate::Diagnostics(d).render(&map))
}

/// The lowered file, or the refusals that wait in the stand-ins of the functions the
/// front-end could not lower (said when a root reaches them), as errors: what a program
/// whose roots reach every function sees.
pub(super) fn refusals_now(file: il::File) -> Result<il::File, Vec<crate::diag::Diagnostic>> {
    let mut waiting: Vec<crate::diag::Diagnostic> = file
        .units
        .iter()
        .flat_map(|u| u.deferred.iter().cloned())
        .collect();
    if waiting.is_empty() {
        return Ok(file);
    }
    waiting.sort_by_key(|d| match &d.location {
        Some(crate::diag::Location::Span(span)) => span.lo,
        _ => u32::MAX,
    });
    Err(waiting)
}

#[test]
fn lowers_a_kernel() {
    let f = lower(
        "#include <math.h>\n#define N 4\nstatic inline double sq(double x) { return x * x; }\n\
         void f(int n, const double *x, double *y, double *s) {\n  double t[N];\n  \
         for (int i = 0; i < n; i++) { y[i] = sq(x[i]) + N; }\n  *s = sin(t[0]);\n}\n",
    )
    .unwrap();
    assert_eq!(f.units.len(), 2);
    let u = &f.units[1];
    assert_eq!(u.args, ["n", "x", "y", "s"]);
    assert!(u.symbols.get("y").unwrap().is_array());
    assert!(!u.symbols.get("s").unwrap().is_array());
    assert!(matches!(u.body[0].kind, StmtKind::Do { .. }));
}

#[test]
fn refusals_are_located() {
    let e = lower("void f(double *x) {\n  x[0] = 1.0;\n  goto end;\n  end: x[1] = 2.0;\n}\n")
        .unwrap_err();
    assert!(e.contains("t.c:3:3: error[E0604]"), "{e}");
    let e = lower("void f(double *y) {\n  *y = 1.0 +;\n}\n").unwrap_err();
    assert!(e.contains("t.c:2:13: error[E0602]"), "{e}");
    let e = lower("#include \"nothere.h\"\nvoid f(void) {}\n").unwrap_err();
    assert!(e.contains("t.c:1:10: error[E0620]"), "{e}");
    let e = lower("double g;\nvoid f(double *y) { y[1] = *((double *) y); }\n").unwrap_err();
    assert!(e.contains("t.c:2:29: error[E0605]"), "{e}");
}

#[test]
fn file_scope_constants_are_inlined() {
    let f = lower(
        "static const double g = 9.81, half = 0.5;\nconst int n2 = 2 * 3;\n\
         double fall(double t) { return half * g * t * t + n2; }\n",
    )
    .unwrap();
    let u = &f.units[0];
    assert!(!u.symbols.contains("g"));
    let text = crate::back::c::prototype(u);
    assert_eq!(text, "double fall(double t)");
    let e = lower("const double g = 9.81;\nvoid f(double *y) { g = 1.0; *y = g; }\n").unwrap_err();
    assert!(e.contains("E0605"), "{e}");
    // Without `const`, a global variable of the file's pseudo-module.
    let f = lower("double g = 9.81;\nvoid f(double *y) { *y = g; }\n").unwrap();
    assert!(f.units[1].symbols.get("g").unwrap().is_module_variable());
}

/// Malformed C never panics: every line-prefix of every C corpus source, and each
/// source with one line dropped, lowers to a file or to located diagnostics.
#[test]
fn truncated_sources_never_panic() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/c");
    let Ok(entries) = std::fs::read_dir(&root) else {
        return;
    };
    let mut files = Vec::new();
    for dir in entries.flatten() {
        for f in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if f.path().extension().is_some_and(|e| e == "c") {
                files.push(f.path());
            }
        }
    }
    files.sort();
    for path in files.iter().take(4) {
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for cut in (1..lines.len()).step_by(3) {
            let prefix = lines[..cut].join("\n");
            let dropped: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != cut)
                .map(|(_, l)| *l)
                .collect();
            for variant in [prefix, dropped.join("\n")] {
                if let Err(e) = lower(&variant) {
                    assert!(e.contains("t.c:") && e.contains("error[E06"), "{e}");
                }
            }
        }
    }
}

#[test]
fn typedefs_of_scalars_and_arrays() {
    let f = lower(
        "typedef double real_t;\ntypedef real_t vec3[3];\ntypedef float single;\n\
         static real_t dot3(const vec3 a, const vec3 b) { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2]; }\n\
         void f(int n, const real_t *x, real_t *y) {\n  vec3 t;\n  vec3 m[2];\n  \
         for (int i = 0; i < 3; i++) { t[i] = x[i]; m[1][i] = (single) x[i]; }\n  \
         *y = dot3(t, m[1 - 1]) + (real_t) n;\n}\n",
    );
    // `m[1 - 1]` (a row of a 2-D array) is passed as its first element.
    let f = f.unwrap();
    let text = format!("{:?}", f.units[1].body.last().unwrap().kind);
    assert!(
        text.contains("Index(\"m\", [Expr { kind: Int(\"0\")"),
        "{text}"
    );
    let f = lower(
        "typedef double real_t;\ntypedef real_t vec3[3];\n\
         static real_t dot3(const vec3 a, const vec3 b) { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2]; }\n\
         void f(int n, const real_t *x, real_t *y) {\n  vec3 t;\n  vec3 m[2];\n  \
         for (int i = 0; i < 3; i++) { t[i] = x[i]; m[1][i] = (real_t) x[i]; }\n  \
         *y = dot3(t, t) + m[1][2] * (real_t) n;\n}\n",
    )
    .unwrap();
    let dot = &f.units[0];
    assert!(dot.symbols.get("a").unwrap().is_array());
    let u = &f.units[1];
    assert_eq!(u.symbols.get("m").unwrap().dims.len(), 2);
    assert_eq!(u.symbols.get("t").unwrap().dims.len(), 1);
    let e = lower("typedef double *dptr;\nvoid f(dptr y) { *y = 1.0; }\n").unwrap_err();
    assert!(
        e.contains("t.c:1:1: error[E0603]") && e.contains("dptr"),
        "{e}"
    );
    let e =
        lower("typedef union { double a; } u_t;\nvoid f(double *y) { *y = 1.0; }\n").unwrap_err();
    assert!(
        e.contains("t.c:1:1: error[E0603]") && e.contains("union"),
        "{e}"
    );
}

#[test]
fn switch_lowers_to_an_if_chain_with_fall_through() {
    let f = lower(
        "void f(int k, double x, double *y) {\n  switch (k) {\n  case 0:\n    x = x * x;\n  \
         case 1: case 2:\n    *y = x;\n    break;\n  case 3 ... 5: { *y = 2.0 * x; break; }\n  \
         default:\n    *y = -x;\n  }\n}\n",
    )
    .unwrap();
    let u = &f.units[0];
    // `x` is a by-value parameter that is assigned: the body works on a copy.
    let StmtKind::If {
        arms, else_body, ..
    } = &u.body.last().unwrap().kind
    else {
        panic!("{:?}", u.body);
    };
    assert_eq!(arms.len(), 3);
    // case 0 falls through into case 1's statements (copied, with fresh ids).
    assert_eq!(arms[0].1.len(), 2);
    assert_eq!(arms[1].1.len(), 1);
    assert_ne!(arms[0].1[1].id, arms[1].1[0].id);
    assert_eq!(else_body.as_ref().unwrap().len(), 1);
    // `continue` inside a switch belongs to the loop.
    let f = lower(
        "void f(int n, const int *k, double *y) {\n  for (int i = 0; i < n; i++) {\n    \
         switch (k[i]) {\n    case 1: continue;\n    default: y[i] = 1.0;\n    }\n  }\n}\n",
    )
    .unwrap();
    assert!(matches!(f.units[0].body[0].kind, StmtKind::Do { .. }));
}

#[test]
fn switch_refusals_are_located() {
    let e = lower("void f(double k, double *y) {\n  switch (k) { case 1: *y = 1.0; }\n}\n")
        .unwrap_err();
    assert!(e.contains("t.c:2:11: error[E0604]"), "{e}");
    let e = lower(
        "void f(int k, double *y) {\n  switch (k) {\n  case 1:\n    if (k) { case 2: *y = 1.0; }\n  }\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:4:14: error[E0604]"), "{e}");
    let e = lower(
        "void f(int k, double *y) {\n  switch (k) {\n  double t;\n  case 1: *y = 1.0;\n  }\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:3:3: error[E0603]"), "{e}");
    let e = lower("void f(int k, double *y) {\n  if (k) break;\n  *y = 1.0;\n}\n").unwrap_err();
    assert!(e.contains("t.c:2:10: error[E0604]"), "{e}");
}

#[test]
fn pointers_lower_to_an_array_and_an_offset() {
    let f = lower(
        "static double sum(int n, const double *a) {\n  double s = 0.0;\n  \
         for (int i = 0; i < n; i++) s += *a++;\n  return s;\n}\n\
         void f(int n, const double *x, double *y) {\n  const double *p = x + 1;\n  \
         double *q = y;\n  while (p < x + n) { *q++ = 2.0 * p[0] + *(p - 1); p += 1; }\n  \
         y[0] = sum(n - 1, x + 1) + sum(2, &y[1]);\n}\n",
    )
    .unwrap();
    let u = &f.units[1];
    // `p` and `q` are offsets into `x` and `y`; no pointer variable remains.
    assert!(u.symbols.contains("p_off") && u.symbols.contains("q_off"));
    assert!(!u.symbols.contains("p"));
    let sum = &f.units[0];
    assert!(sum.symbols.get("a").unwrap().is_array());
    assert!(sum.symbols.contains("a_off"));
}

#[test]
fn pointer_refusals_are_located() {
    // A pointer into `x` or `y`: the statement that uses it runs under `p_sel`; in a
    // condition it is refused, once.
    let f = lower(
        "void f(int n, double *x, double *y) {\n  double *p = x;\n  if (n > 2)\n    p = y;\n  \
         *p = 1.0;\n}\n",
    )
    .unwrap();
    assert!(f.units[0].symbols.contains("p_sel"));
    let e = lower(
        "void f(int n, double *x, double *y) {\n  double *p = x;\n  if (n > 2)\n    p = y;\n  \
         if (*p > 0.0) *x = 1.0;\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:5:8: error[E0605]"), "{e}");
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    let e = lower(
        "void f(int n, double *x) {\n  double a[2][2];\n  double *p = x;\n  if (n > 2)\n    \
         p = a[1];\n  *p = 1.0;\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:5:9: error[E0605]"), "{e}");
    let e = lower("void f(double *x) {\n  double *p;\n  *p = 1.0;\n}\n").unwrap_err();
    assert!(e.contains("t.c:3:4: error[E0605]"), "{e}");
    // A step after the pointer in an `if` with `else if` arms (accepted without them).
    let e = lower(
        "void f(int n, double *x) {\n  double *p = x;\n  if (*p++ > 0.0) n--;\n  \
         else if (n > 1) n++;\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:3:7: error[E0605]"), "{e}");
    let e = lower("void f(double *x) {\n  double *p = x;\n  *p++ = *p + 1.0;\n}\n").unwrap_err();
    assert!(e.contains("t.c:3:3: error[E0605]"), "{e}");
    // A pointer to a row of a 2-D array keeps the row in `p_row`.
    let f = lower(
        "void f(double *x, double *y) {\n  double a[2][2];\n  double *p = a[1];\n  *x = *p;\n}\n",
    )
    .unwrap();
    assert!(f.units[0].symbols.contains("p_row"));
    let e = lower("void f(double *x) {\n  double **p = &x;\n  **p = 1.0;\n}\n").unwrap_err();
    assert!(e.contains("t.c:2:") && e.contains("E0603"), "{e}");
    let e = lower("void f(double *x, double *y) {\n  *x = *(y + *y);\n}\n").unwrap_err();
    assert!(e.contains("t.c:2:"), "{e}");
}

#[test]
fn enumeration_constants_are_integers() {
    let f = lower(
        "enum scheme { UPWIND, CENTRED = 4, LAX };\ntypedef enum { A, B } ab_t;\n\
         void f(enum scheme s, ab_t k, double x[LAX], double *y) {\n  switch (s) {\n  \
         case UPWIND: *y = x[0]; break;\n  case LAX: *y = x[k + B]; break;\n  \
         default: *y = 0.0;\n  }\n}\n",
    )
    .unwrap();
    let u = &f.units[0];
    assert_eq!(u.args, ["s", "k", "x", "y"]);
    // An inlined constant may differ from a variable by case only.
    lower("enum { INFLOW = 2 };\nvoid f(double inflow, double *y) { *y = INFLOW * inflow; }\n")
        .unwrap();
    let e = lower("enum { A = 1 };\nvoid f(double *y) { *y = B; }\n").unwrap_err();
    assert!(e.contains("t.c:2:26: error[E0606]"), "{e}");
}

#[test]
fn nested_switch_breaks_set_a_flag() {
    let f = lower(
        "void f(int k, double *y) {\n  switch (k) {\n  case 1:\n    if (*y > 0.0) {\n      \
         *y = 2.0;\n      break;\n    }\n    *y = 1.0;\n  case 2:\n    *y += 1.0;\n    \
         break;\n  }\n}\n",
    )
    .unwrap();
    let u = &f.units[0];
    assert!(u.symbols.contains("switch_done"));
    let text = crate::back::c::write_file(&f, &il::Program::default(), &[]);
    assert!(text.contains("switch_done = 1;"), "{text}");
    assert!(text.contains("if (!switch_done)"), "{text}");
}

#[test]
fn comma_in_a_for_step_is_one_statement_per_operand() {
    let f = lower(
        "void f(int n, const double *x, double *y) {\n  const double *p;\n  int i;\n  \
         for (i = 0, p = x; i < n; i++, p++)\n    y[i] = 2.0 * *p;\n}\n",
    )
    .unwrap();
    let u = &f.units[0];
    assert!(u.symbols.contains("p_off"));
    let e = lower("void f(double *y) {\n  double a = (1.0, 2.0);\n  *y = a;\n}\n").unwrap_err();
    assert!(e.contains("t.c:2:14: error[E0605]"), "{e}");
}

#[test]
fn assigned_by_value_parameters_work_on_a_copy() {
    let f = lower(
        "static double damp(double v, int k) {\n  while (k > 0) { v = 0.5 * v; k--; }\n  \
         return v;\n}\nvoid g(double a, double *y) {\n  a *= 2.0;\n  *y = damp(a, 3);\n}\n",
    )
    .unwrap();
    let damp = &f.units[0];
    assert_eq!(damp.args, ["v", "k"]);
    assert!(damp.symbols.contains("v_copy") && damp.symbols.contains("k_copy"));
    // The parameter itself is only read, by the copy.
    let mut writes = Vec::new();
    il::visit::walk_stmts(&damp.body, &mut |s| {
        if let StmtKind::Assign { lhs, .. } = &s.kind {
            writes.push(lhs.base_name().unwrap().to_string());
        }
    });
    assert!(!writes.iter().any(|w| w == "v" || w == "k"), "{writes:?}");
    let text = crate::back::c::write_file(&f, &il::Program::default(), &[]);
    assert!(text.contains("a_copy = a;"), "{text}");
    assert!(text.contains("damp(a_copy, 3)"), "{text}");
}

#[test]
fn steps_inside_statements_and_while_conditions() {
    let f = lower(
        "void f(int n, const double *x, double *y, int *m) {\n  int k = 0;\n  \
         for (int i = 0; i < n; i++)\n    if (x[i] > 0.0)\n      y[k++] = x[i];\n  \
         *m = k;\n  const double *p = x;\n  while (n-- > 0)\n    y[--k] += *p++;\n}\n",
    )
    .unwrap();
    let u = &f.units[0];
    // `n` is a by-value parameter stepped in the condition: the body works on a copy.
    assert!(u.symbols.contains("n_copy"));
    let text = crate::back::c::write_file(&f, &il::Program::default(), &[]);
    assert!(text.contains("y[k] = x[i];\n      k = k + 1;"), "{text}");
    assert!(
        text.contains("if (!(n_copy > 0)) {\n      n_copy = n_copy - 1;"),
        "{text}"
    );
    let e = lower("void f(int n, double *y) {\n  int k = 0;\n  y[k++] = k;\n}\n").unwrap_err();
    assert!(
        e.contains("t.c:3:3: error[E0605]") && e.contains("`k`"),
        "{e}"
    );
    // In a `for` condition a step runs at each test, as in a `while` one; in the
    // condition of an `else if` it is still refused.
    let f = lower("void f(int n, double *y) {\n  for (; n-- > 0;) *y += 1.0;\n}\n").unwrap();
    let text = crate::back::c::write_file(&f, &il::Program::default(), &[]);
    assert!(
        text.contains("if (!(n_copy > 0)) {\n      n_copy = n_copy - 1;"),
        "{text}"
    );
    let e = lower(
        "void f(int n, double *y) {\n  if (*y > 1.0) *y = 0.0;\n  else if (n-- > 0) *y = 1.0;\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:3:12: error[E0605]"), "{e}");
}

const STRUCTS: &str = "\
struct vec { double v[3]; };
struct point { double x, y; int id; struct vec w; };
typedef struct { double k; double m[2][2]; } spring;
double g_state[4];
double g_scale = 2.0;
static double g_table[3] = {1.0, 2.5, -3};

static void push(struct point *p, const spring *s, double f) {
  p->x += f * s->k + s->m[1][0];
  p->w.v[1] = (*p).y * g_scale;
}

void run(double a, double *r) {
  struct point q;
  struct point copy;
  spring sp;
  g_state[2] = a;
  q.x = a; q.y = g_table[1]; q.id = 3;
  q.w.v[0] = 0.0; q.w.v[1] = 0.0; q.w.v[2] = 0.0;
  sp.k = g_state[2]; sp.m[0][0] = 1.0; sp.m[0][1] = 0.0; sp.m[1][0] = a; sp.m[1][1] = 1.0;
  push(&q, &sp, 0.5);
  copy = q;
  *r = copy.x * copy.w.v[1];
}
";

#[test]
fn structs_and_globals_lower_to_a_pseudo_module() {
    let f = lower(STRUCTS).unwrap();
    let names: Vec<&str> = f.units.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["t_c", "push", "run"]);
    let m = &f.units[0];
    assert!(m.is_module());
    let types: Vec<&str> = m
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            il::DeclKind::TypeDef { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(types, ["struct vec", "struct point", "spring"]);
    let g = m.symbols.get("g_state").unwrap();
    assert_eq!(g.global.as_ref().unwrap().module, "t_c");
    assert!(g.is_array());
    // A static global is PRIVATE to its module; its literal initializer is kept.
    let table = m
        .decls
        .iter()
        .find_map(|d| match &d.kind {
            il::DeclKind::Var {
                attrs, entities, ..
            } if entities[0].name == "g_table" => Some((attrs.clone(), entities[0].clone())),
            _ => None,
        })
        .unwrap();
    assert!(matches!(table.0.as_slice(), [il::Attr::Private]));
    assert!(matches!(
        table.1.init.unwrap().kind,
        il::ExprKind::ArrayCtor(ref v) if v.len() == 3
    ));
    let push = &f.units[1];
    assert_eq!(push.host.as_deref(), Some("t_c"));
    let p = push.symbols.get("p").unwrap();
    assert_eq!(p.ty, il::ScalarType::Derived);
    assert_eq!(p.type_spec.type_name.as_deref(), Some("struct point"));
    assert!(push.symbols.get("p%w%v").unwrap().is_array());
    assert!(push.symbols.get("g_scale").unwrap().is_module_variable());
    let StmtKind::Assign { lhs, .. } = &push.body[0].kind else {
        panic!("{:?}", push.body[0].kind)
    };
    assert!(matches!(&lhs.kind, il::ExprKind::Var(n) if n == "p%x"));
    let StmtKind::Assign { lhs, .. } = &push.body[1].kind else {
        panic!()
    };
    assert!(matches!(&lhs.kind, il::ExprKind::Index(n, _) if n == "p%w%v"));
    // `copy = q` is one assignment per member, arrays whole.
    let run = &f.units[2];
    let whole: Vec<String> = run
        .body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Assign { lhs, .. } => lhs.base_name().map(str::to_string),
            _ => None,
        })
        .filter(|n| n.starts_with("copy%"))
        .collect();
    assert_eq!(whole, ["copy%x", "copy%y", "copy%id", "copy%w%v"]);
}

#[test]
fn struct_and_global_refusals_are_located() {
    let cases: &[(&str, &str)] = &[
        // Arrays of structs: see tests_structarr.rs.
        (
            "extern double g = 1.0;\nvoid f(double *y) { *y = g; }\n",
            "t.c:1:1: error[E0611]",
        ),
        (
            "union u { double x; int i; };\nunion u g;\nvoid f(double *y) { *y = g.x; }\n",
            "t.c:2:1: error[E0610]",
        ),
        (
            "struct p { double v[2]; };\nvoid f(double *y) {\n  struct p a = {1.0, 2.0};\n  *y = a.v[0];\n}\n",
            "t.c:3:17: error[E0615]",
        ),
        (
            "double g[2] = {1.0, g0};\nvoid f(double *y) { *y = g[0]; }\n",
            "t.c:1:13: error[E0615]",
        ),
        (
            "double g;\nvoid f(double *y) {\n  if (*y > 0.0) {\n    double g = 2.0;\n    *y = g;\n  }\n}\n",
            "t.c:4:12: error[E0608]",
        ),
        (
            "struct p { double x; };\nvoid f(struct p *q, double *y) { *y = q->z; }\n",
            "t.c:2:42: error[E0606]",
        ),
        (
            "struct p { double x; };\nvoid f(struct p *q, double *y) { *y = sin(*q); }\n",
            "error[E06",
        ),
        (
            "struct p { double *x; };\nstruct p g;\nvoid f(double *y) { *y = g.x[0]; }\n",
            "t.c:2:1: error[E0610]",
        ),
        (
            "const double w[2];\nvoid f(double *y) { *y = w[0]; }\n",
            "t.c:1:1: error[E0610]",
        ),
        (
            "double g[2];\nstatic void h(double *v) { v[0] = g[1]; }\n\
             void f(double *y) {\n  h(g);\n  *y = g[0];\n}\n",
            "t.c:4:5: error[E0616]",
        ),
    ];
    for (src, want) in cases {
        let e = lower(src).unwrap_err();
        assert!(e.contains(want), "{src}\nwanted {want}, got:\n{e}");
    }
}

/// A `static` global that derivative code must reach from its own translation unit is
/// refused where it is declared.
#[test]
fn static_globals_derivatives_need_are_refused() {
    let src = "static double g_k;\nstatic void set(double a) { g_k = a; }\n\
               void f(double a, double *y) { set(a); *y = g_k * a; }\n";
    let inputs = [crate::SourceInput {
        path: "t.c".into(),
        text: src.into(),
        dir: None,
        include_dirs: Vec::new(),
        fixed_line_length: None,
        preprocessor: Default::default(),
    }];
    let request = crate::Request {
        roots: vec![crate::RootRequest {
            name: "f".into(),
            independents: vec!["a".into()],
            dependents: vec!["y".into()],
            modes: [crate::Mode::Tangent].into(),
            origin: None,
            entry_origins: Vec::new(),
        }],
        sizes: Vec::new(),
        black_boxes: Vec::new(),
        checkpoint_calls: true,
        naming: Default::default(),
        layout: Default::default(),
        option_warnings: Vec::new(),
        disabled: Default::default(),
    };
    let e = crate::differentiate(&inputs, &request)
        .unwrap_err()
        .rendered;
    assert!(e.contains("t.c:1:15: error[E0516]"), "{e}");
    // Without `static`, the derivative reaches it by an `extern` declaration.
    let mut ok = inputs.clone();
    ok[0].text = src.replacen("static double", "double", 1);
    let g = crate::differentiate(&ok, &request).unwrap();
    let c = &g.files.iter().find(|f| f.path == "t_d.c").unwrap().contents;
    assert!(c.contains("extern double g_k;"), "{c}");
    assert!(c.contains("\ndouble g_kd;"), "{c}");
    let h = &g.files.iter().find(|f| f.path == "t_d.h").unwrap().contents;
    assert!(h.contains("extern double g_kd;"), "{h}");
    // A `static const` table is constant data: copied into the generated file.
    let mut table = inputs.clone();
    table[0].text = format!(
        "static const double w[2] = {{0.5, -2}};\n{}",
        ok[0].text.replace("g_k * a", "g_k * a * w[1]")
    );
    let g = crate::differentiate(&table, &request).unwrap();
    let c = &g.files.iter().find(|f| f.path == "t_d.c").unwrap().contents;
    assert!(c.contains("static const double w[2] = {0.5, -2};"), "{c}");
}

/// A parameter or an outermost local named like a global hides it from the whole
/// function, which then does not see the global.
#[test]
fn parameters_and_outer_locals_shadow_globals() {
    let f = lower(
        "double dt = 0.1;\nstatic double step(double dt, double x) { return x + dt; }\n\
         void run(double *y) {\n  double dt = 2.0;\n  *y = step(dt, *y);\n}\n\
         void use(double *y) { *y = *y * dt; }\n",
    )
    .unwrap();
    for u in &f.units[1..3] {
        let s = u.symbols.get("dt").unwrap();
        assert!(s.global.is_none(), "{}", u.name);
    }
    assert!(f.units[3].symbols.get("dt").unwrap().is_module_variable());
}

/// Struct initializers: positional and designated members, nested braces, members not
/// given zeroed; `= other` copies member by member.
#[test]
fn struct_initializers_assign_each_member() {
    let f = lower(
        "struct in { double a; double b[2]; };\nstruct st { double x; double v[3]; struct in n; int id; };\n\
         double f(double s) {\n  struct st p = {s, {1.0, s}, .id = 2};\n  struct st q = p;\n  \
         return p.x + q.v[1];\n}\n",
    )
    .unwrap();
    let lhs: Vec<String> = f.units[1]
        .body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Assign { lhs, .. } => Some(crate::back::fortran::write_expr(lhs)),
            _ => None,
        })
        .collect();
    assert_eq!(
        lhs[..8],
        [
            "p%x", "p%v(0)", "p%v(1)", "p%v(2)", "p%id", "p%n%a", "p%n%b", "q%x"
        ],
        "{lhs:?}"
    );
}
#[test]
fn malloc_calloc_free_are_allocate_and_deallocate() {
    let f = lower(
        "#include <stdlib.h>\nvoid f(int n, const double *x, double *y) {\n  int m = 2 * n;\n  \
         double *w = malloc(m * sizeof(double));\n  double *z;\n  \
         z = (double *) calloc(n + 1, sizeof *z);\n  \
         for (int i = 0; i < n; i++) { w[i] = x[i]; z[i] = w[i] * w[i]; }\n  free(w);\n  \
         *y = z[0];\n  free(z);\n}\n",
    )
    .unwrap();
    let u = &f.units[0];
    let kinds: Vec<String> = u
        .body
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Allocate(items) => format!("alloc {:?}", items[0].base_name()),
            StmtKind::Deallocate(items) => format!("free {:?}", items[0].base_name()),
            StmtKind::Do { .. } => "do".into(),
            _ => "other".into(),
        })
        .collect();
    // m = 2n; alloc w; alloc z; zeroing loop (calloc); loop; free w; y = z[0]; free z.
    assert_eq!(
        kinds,
        [
            "other",
            "alloc Some(\"w\")",
            "alloc Some(\"z\")",
            "do",
            "do",
            "free Some(\"w\")",
            "other",
            "free Some(\"z\")"
        ]
    );
    // The size of `w` is known on entry: `2 * n` (the local `m` replaced).
    let StmtKind::Allocate(items) = &u.body[1].kind else {
        unreachable!()
    };
    let text = crate::back::fortran::write_expr(&items[0]);
    assert!(text.contains("2*n") || text.contains("2 * n"), "{text}");
    assert!(u.symbols.get("w").unwrap().is_array());
}

#[test]
fn heap_arrays_in_loops_and_of_computed_sizes_are_lowered() {
    // A work array per iteration, of a size the function computes.
    let f = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  for (int k = 0; k < 2; k++) {\n    \
         int m = n + k;\n    double *w = malloc(m * sizeof *w);\n    w[0] = *y;\n    *y = w[0];\n    \
         free(w);\n  }\n}\n",
    )
    .unwrap();
    let StmtKind::Do { body, .. } = &f.units[0].body[0].kind else {
        panic!("{:?}", f.units[0].body[0].kind)
    };
    assert!(matches!(body[1].kind, StmtKind::Allocate(_)), "{body:?}");
    assert!(matches!(body.last().unwrap().kind, StmtKind::Deallocate(_)));
    let f = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  int m = n;\n  m = m + 1;\n  \
         double *w = malloc(m * sizeof *w);\n  w[0] = *y;\n  *y = w[0];\n  free(w);\n}\n",
    );
    assert!(f.is_ok(), "{f:?}");
}

#[test]
fn heap_refusals_are_located() {
    // Used after its `free`.
    let e = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  double *w = malloc(n * sizeof *w);\n  \
         free(w);\n  *y = w[0];\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:5:3: error[E0621]"), "{e}");
    // Freed twice.
    let e = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  double *w = malloc(n * sizeof *w);\n  \
         w[0] = *y;\n  free(w);\n  free(w);\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:6:3: error[E0621]"), "{e}");
    // `break` out of the iteration that allocated it, before its `free`.
    let e = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  for (int k = 0; k < n; k++) {\n    \
         double *w = malloc(n * sizeof *w);\n    w[0] = *y;\n    if (w[0] > 1.0) break;\n    \
         *y = w[0];\n    free(w);\n  }\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:6:21: error[E0621]"), "{e}");
    // Allocated in a loop, freed after it.
    let e = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  double *w = 0;\n  \
         for (int k = 0; k < n; k++) {\n    w = malloc(n * sizeof *w);\n    w[0] = *y;\n  }\n  \
         free(w);\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:4:3: error[E0621]"), "{e}");
    let e = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  double *w = malloc(n * sizeof(float));\n  \
         w[0] = *y;\n  free(w);\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:3:26: error[E0623]"), "{e}");
    // `realloc` is malloc, copy and free, in the block of the `malloc` or in a loop
    // around which the array was allocated; before any `malloc`, or of another pointer,
    // it is refused, once, and so is a `free` in a loop that does not give new memory.
    let f = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  double *w = malloc(n * sizeof *w);\n  \
         w = realloc(w, 2 * n * sizeof *w);\n  free(w);\n  *y = 0.0;\n}\n",
    )
    .unwrap();
    let text = crate::back::c::write_file(&f, &il::Program::default(), &[]);
    assert!(text.contains("w_keep = "), "{text}");
    // From NULL: an allocation of no element where it is NULL, then reallocations in a
    // loop; `realloc(NULL, n)` is `malloc(n)`.
    let f = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  double *w = NULL;\n  \
         for (int i = 0; i < n; i++) {\n    w = realloc(w, (i + 1) * sizeof *w);\n    \
         w[i] = *y;\n  }\n  double *v = realloc(NULL, n * sizeof *v);\n  v[0] = w[0];\n  \
         *y = v[0];\n  free(v);\n  free(w);\n}\n",
    )
    .unwrap();
    let text = crate::back::c::write_file(&f, &il::Program::default(), &[]);
    assert!(text.contains("w_size = 0;"), "{text}");
    assert!(!text.contains("v_keep"), "{text}");
    let refused = [
        (
            "double *w = malloc(n * sizeof *w);\n  for (int i = 0; i < n; i++)\n    \
             if (i > 2) free(w);\n  *y = 1.0;",
            "t.c:5:16: error[E0621]",
            "does not give it memory again",
        ),
        (
            "double *w;\n  w = realloc(w, n * sizeof *w);\n  free(w);",
            "t.c:4:3: error[E0623]",
            "before any `malloc`",
        ),
        (
            "double *w = NULL;\n  for (int i = 0; i < n; i++) {\n    \
             if (w == NULL) w = realloc(w, (i + 1) * sizeof *w);\n  }\n  free(w);",
            "t.c:5:9: error[E0624]",
            "starts as NULL",
        ),
        (
            "double *w = NULL;\n  for (int i = 0; i < n; i++) {\n    \
             if (!w) w = realloc(w, (i + 1) * sizeof *w);\n  }\n  free(w);",
            "t.c:5:9: error[E0624]",
            "starts as NULL",
        ),
        (
            "double *w = malloc(n * sizeof *w);\n  double *v = malloc(n * sizeof *v);\n  \
             w = realloc(v, n * sizeof *w);\n  free(w);\n  free(v);",
            "t.c:5:7: error[E0623]",
            "this `realloc`",
        ),
    ];
    for (body, at, what) in refused {
        let src = format!(
            "#include <stdlib.h>\nvoid f(int n, double *y) {{\n  {body}\n  *y = 0.0;\n}}\n"
        );
        let e = lower(&src).unwrap_err();
        assert!(e.contains(at) && e.contains(what), "{src}\n{e}");
        assert_eq!(e.matches("error[").count(), 1, "{e}");
    }
    let e = lower("#include <stdlib.h>\nvoid f(double *y) {\n  free(y);\n}\n").unwrap_err();
    assert!(e.contains("t.c:3:3: error[E0623]"), "{e}");
}

#[test]
fn pointers_to_rows_on_the_heap() {
    let f = lower(
        "#include <stdlib.h>\n#define N 4\nvoid f(int ny, double *y) {\n  \
         double (*t)[N] = calloc(ny, sizeof *t);\n  double *row = t[1];\n  \
         row[2] = *y;\n  t[0][1] = row[2] * t[1][2];\n  *y = t[0][1];\n  free(t);\n}\n",
    )
    .unwrap();
    let u = &f.units[0];
    assert_eq!(u.symbols.get("t").unwrap().dims.len(), 2);
    let StmtKind::Allocate(items) = &u.body[0].kind else {
        panic!("{:?}", u.body[0].kind)
    };
    let text = crate::back::fortran::write_expr(&items[0]);
    assert!(text.starts_with("t(0:3, 0:"), "{text}");
    // `sizeof(double)` does not measure a row.
    let e = lower(
        "#include <stdlib.h>\n#define N 4\nvoid f(int ny, double *y) {\n  \
         double (*t)[N] = malloc(ny * sizeof(double));\n  t[0][0] = *y;\n  free(t);\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:4:") && e.contains("error[E0623]"), "{e}");
}

#[test]
fn failed_allocation_tests_are_dropped() {
    let f = lower(
        "#include <stdlib.h>\nvoid f(int n, double *y) {\n  double *w = NULL;\n  \
         w = malloc(n * sizeof *w);\n  \
         if (w == NULL || !w) {\n    free(w);\n    return;\n  }\n  w[0] = *y;\n  *y = w[0];\n  \
         free(w);\n  w = NULL;\n}\n",
    )
    .unwrap();
    assert!(
        !f.units[0]
            .body
            .iter()
            .any(|s| matches!(s.kind, StmtKind::If { .. }))
    );
}

/// Lowers `text` and runs the program-wide check of optional arguments on it.
fn lower_checked(text: &str) -> Result<il::File, String> {
    let mut map = SourceMap::default();
    let id = map.add(SourceFile::new("t.c", text));
    let mut next = 0;
    let file = crate::front::lower_source(id, map.get(id), "t.c", &mut next)
        .and_then(refusals_now)
        .map_err(|d| crate::Diagnostics(d).render(&map))?;
    let program = il::Program {
        files: vec![file.clone()],
    };
    let diags = crate::front::optional::check(&program);
    if diags.is_empty() {
        Ok(file)
    } else {
        Err(crate::Diagnostics(diags).render(&map))
    }
}

#[test]
fn null_tested_pointers_are_optional() {
    let f = lower_checked(
        "#include <stddef.h>\nstatic double c(const double *x, double *grad) {\n  \
         if (grad != NULL) grad[0] = x[0];\n  if (grad) { grad[1] = 1.0; }\n  \
         if (!grad) return x[0];\n  return 2.0 * x[0];\n}\n\
         void f(const double *x, double *y, double *g) {\n  *y = c(x, NULL) + c(x, g);\n}\n",
    )
    .unwrap();
    let c = f.units.iter().find(|u| u.name == "c").unwrap();
    assert!(c.is_optional("grad") && !c.is_optional("x"));
    let text = crate::back::c::write_file(&f, &il::Program { files: vec![] }, &[]);
    assert!(text.contains("if (grad != NULL)"), "{text}");
    assert!(text.contains("if (!(grad != NULL))"), "{text}");
    assert!(text.contains("c(x, NULL)"), "{text}");
    assert!(text.contains("#include <stddef.h>"), "{text}");
    // A NULL before other arguments: those go by keyword.
    let f = lower_checked(
        "#include <stddef.h>\nstatic void g(double *a, double *b, double *c) {\n  \
         if (a) a[0] = b[0];\n  c[0] = b[0];\n}\nvoid f(double *x, double *y) {\n  \
         g(NULL, x, y);\n}\n",
    )
    .unwrap();
    let caller = f.units.iter().find(|u| u.name == "f").unwrap();
    let StmtKind::Call { args, .. } = &caller.body[0].kind else {
        panic!("a call")
    };
    assert_eq!(args.len(), 2);
    assert_eq!(args[0].keyword.as_deref(), Some("b"));
    let text = crate::back::c::write_file(&f, &il::Program { files: vec![] }, &[]);
    assert!(text.contains("g(NULL, x, y);"), "{text}");
    // A literal 0 for a by-value parameter is a number.
    let f = lower_checked(
        "static void g(int k, double *b) { b[k] = 1.0; }\nvoid f(double *x) { g(0, x); }\n",
    )
    .unwrap();
    let text = crate::back::c::write_file(&f, &il::Program { files: vec![] }, &[]);
    assert!(text.contains("g(0, x);"), "{text}");
}

#[test]
fn struct_parameters_by_value() {
    let f = lower(
        "struct s { double r[2]; double m; };\n\
         static double e(struct s a) { return a.m * a.r[0]; }\n\
         static double k(struct s a, double h) { a.r[0] += h; return a.r[0]; }\n\
         void f(const struct s *p, double *y) { struct s b = *p; *y = e(b) + k(*p, 1.0); }\n",
    )
    .unwrap();
    let text = crate::back::c::write_file(&f, &il::Program { files: vec![] }, &[]);
    assert!(text.contains("double e(struct s a)"), "{text}");
    assert!(text.contains("a_copy.m = a.m;"), "{text}");
    assert!(text.contains("e(b) + "), "{text}");
    assert!(text.contains("k((*p), 1.0)"), "{text}");
    // A struct returned by value: the result variable, assigned member by member.
    let f =
        lower("struct s { double m; };\nstruct s f(double y) { struct s a; a.m = y; return a; }\n")
            .unwrap();
    let text = crate::back::c::write_file(&f, &il::Program { files: vec![] }, &[]);
    assert!(text.contains("struct s f(double y)"), "{text}");
    assert!(text.contains("result.m = a.m;"), "{text}");
    // Its struct used other than whole is refused.
    let e = lower(
        "struct s { double m; };\nstatic struct s g(double y) { struct s a; a.m = y; return a; }\n\
         void f(double y, double *z) { *z = g(y).m; }\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:3:36: error["), "{e}");
}

#[test]
fn null_and_pointer_to_pointer_are_refused() {
    // A use of an optional parameter outside its test.
    let e = lower_checked(
        "#include <stddef.h>\nvoid f(int n, const double *x, double *grad) {\n  \
         if (grad != NULL) grad[0] = x[0];\n  grad[1] = 0.0;\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:4:3: error[E0641]"), "{e}");
    // NULL to a parameter the callee does not test.
    let e = lower_checked(
        "#include <stddef.h>\nstatic void g(double *a, double *b) { a[0] = b[0]; }\n\
         void f(double *x) {\n  g(x, NULL);\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:4:3: error[E0642]"), "{e}");
    // NULL compared with a local pointer, or passed by value.
    let e = lower(
        "#include <stddef.h>\nvoid f(double *x) {\n  double *p = x;\n  \
         if (p != NULL) x[0] = 1.0;\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("error[E0624]"), "{e}");
    // `double **p` indexed as a matrix is an array of row pointers; more stars are not.
    let f = lower("void f(double **p, double *y) {\n  *y = p[0][1];\n}\n").unwrap();
    assert!(f.units[0].is_row_pointers("p"), "{:?}", f.units[0].decls);
    assert_eq!(f.units[0].symbols.get("p").unwrap().dims.len(), 2);
    let e = lower("void f(double ***p, double *y) {\n  *y = p[0][0][0];\n}\n").unwrap_err();
    assert!(e.contains("t.c:1:8: error[E0603]"), "{e}");
    let e = lower("void f(double *p[4], double *y) {\n  *y = p[0][0];\n}\n").unwrap_err();
    assert!(e.contains("t.c:1:8: error[E0603]"), "{e}");
}

#[test]
fn pointers_to_rows_lower_to_2d_arrays() {
    let f = lower(
        "#define NX 4\nvoid f(int ny, double (*u)[NX], double c[][NX], double *e) {\n  \
         for (int i = 0; i < ny; i++) {\n    double *row = u[i];\n    \
         *e += row[1] * c[i][2];\n  }\n}\n",
    )
    .unwrap();
    let u = &f.units[0];
    assert_eq!(u.symbols.get("u").unwrap().dims.len(), 2);
    assert_eq!(u.symbols.get("c").unwrap().dims.len(), 2);
    assert!(u.symbols.contains("row_row"));
}

/// Lowers `main.c` of a directory holding `files`, as the manifest would give it; files
/// under `inc/` are found through `include-dirs`.
fn lower_in_dir(files: &[(&str, &str)]) -> Result<crate::il::Program, String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("inc")).unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let text = files.iter().find(|f| f.0 == "main.c").unwrap().1;
    let input = crate::SourceInput {
        path: "src/main.c".into(),
        text: text.into(),
        dir: Some(dir.path().to_path_buf()),
        include_dirs: vec![dir.path().join("inc")],
        fixed_line_length: None,
        preprocessor: Default::default(),
    };
    let mut map = SourceMap::default();
    crate::parse_sources(&[input], &mut map)
        .and_then(|mut p| {
            let file = p.files.remove(0);
            p.files.insert(0, refusals_now(file)?);
            Ok(p)
        })
        .map_err(|d| crate::Diagnostics(d).render(&map))
}

#[test]
fn user_headers_are_read_and_located() {
    let header = "#define N 3\ntypedef double real_t;\n\
                  static inline real_t sq(real_t x) { return x * x; }\nvoid g(real_t *y);\n";
    let p = lower_in_dir(&[
        ("model.h", header),
        (
            "main.c",
            "#include \"model.h\"\nvoid f(real_t *y) {\n  real_t t[N];\n  t[0] = sq(*y);\n  \
             *y = t[0];\n}\n",
        ),
    ])
    .unwrap();
    let names: Vec<&str> = p.units().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["sq", "f"]);
    // A refusal in the header points into the header.
    let e = lower_in_dir(&[
        (
            "model.h",
            "static inline double sq(double x) {\n  goto out;\n  out: return x;\n}\n",
        ),
        (
            "main.c",
            "#include \"model.h\"\nvoid f(double *y) { *y = sq(*y); }\n",
        ),
    ])
    .unwrap_err();
    assert!(e.contains("src/model.h:2:3: error[E0604]"), "{e}");
    assert!(e.contains("goto out;"), "{e}");
    // A preprocessor error in the header too; a missing header is E0620.
    let e = lower_in_dir(&[
        ("model.h", "#if\n#endif\n"),
        (
            "main.c",
            "#include \"model.h\"\nvoid f(double *y) { *y = 1.0; }\n",
        ),
    ])
    .unwrap_err();
    assert!(e.contains("src/model.h:1:"), "{e}");
    let e = lower_in_dir(&[(
        "main.c",
        "#include \"gone.h\"\nvoid f(double *y) { *y = 1.0; }\n",
    )])
    .unwrap_err();
    assert!(e.contains("src/main.c:1:10: error[E0620]"), "{e}");
    // A header of an include directory, including another one next to it.
    let p = lower_in_dir(&[
        ("inc/consts.h", "#define SCALE 2.5\n"),
        (
            "inc/api.h",
            "#include \"consts.h\"\ntypedef float real_t;\n",
        ),
        (
            "main.c",
            "#include \"api.h\"\nvoid f(real_t *y) { *y = SCALE * *y; }\n",
        ),
    ])
    .unwrap();
    assert_eq!(p.units().count(), 1);
    let e = lower_in_dir(&[
        ("inc/api.h", "typedef float real_t;\ndouble *bad;\n"),
        (
            "main.c",
            "#include \"api.h\"\nvoid f(real_t *y) { *y = 2 * *y; }\n",
        ),
    ])
    .unwrap_err();
    assert!(e.contains("inc/api.h:2:1: error[E0603]"), "{e}");
}

/// Lowers each `(path, text)` as one file of a program and resolves its `extern`
/// globals.
fn lower_program(files: &[(&str, &str)]) -> Result<il::Program, String> {
    let mut map = SourceMap::default();
    let mut program = il::Program { files: vec![] };
    let mut next = 0;
    for (path, text) in files {
        let id = map.add(SourceFile::new(*path, *text));
        let file = crate::front::lower_source(id, map.get(id), path, &mut next)
            .map_err(|d| crate::Diagnostics(d).render(&map))?;
        program.files.push(file);
    }
    let diags = crate::front::c::externs::resolve(&mut program);
    if diags.is_empty() {
        Ok(program)
    } else {
        Err(crate::Diagnostics(diags).render(&map))
    }
}

#[test]
fn extern_globals_are_the_defining_files() {
    let program = lower_program(&[
        (
            "a.c",
            "extern double g;\nextern double t[3];\nvoid f(double *y) { *y = g * t[1]; g = 0.0; }\n",
        ),
        ("b.c", "double g = 2.0;\ndouble t[3];\nextern double g;\nvoid s(void) { t[1] = g; }\n"),
    ])
    .unwrap();
    let f = program.units().find(|u| u.name == "f").unwrap();
    let g = f.symbols.get("g").unwrap().global.as_ref().unwrap();
    assert_eq!(g.module, "b_c");
    // The declaring file's pseudo-module does not define it.
    let a = program.files[0]
        .units
        .iter()
        .find(|u| u.is_module())
        .unwrap();
    assert!(!a.symbols.contains("g"));
    let b = program.files[1]
        .units
        .iter()
        .find(|u| u.is_module())
        .unwrap();
    assert!(b.symbols.contains("g") && b.symbols.contains("t"));
    // Never defined, or defined with another shape.
    let e =
        lower_program(&[("a.c", "extern double h;\nvoid f(double *y) { *y = h; }\n")]).unwrap_err();
    assert!(
        e.contains("a.c:1:15: error[E0611]") && e.contains("`h`"),
        "{e}"
    );
    let e = lower_program(&[
        (
            "a.c",
            "extern double t[4];\nvoid f(double *y) { *y = t[0]; }\n",
        ),
        ("b.c", "double t[3];\n"),
    ])
    .unwrap_err();
    assert!(
        e.contains("error[E0611]") && e.contains("another type"),
        "{e}"
    );
}

#[test]
fn local_2d_arrays_pass_to_rows_of_their_length_only() {
    let src = |cols: usize| {
        format!(
            "static void g(double a[][2], int n) {{ a[n - 1][1] = 1.0; }}\n\
             void f(double *y) {{\n  double t[3][{cols}];\n  t[0][0] = *y;\n  g(t, 3);\n  \
             *y = t[0][0];\n}}\n"
        )
    };
    let f = lower(&src(2)).unwrap();
    let call = f.units[1]
        .body
        .iter()
        .find_map(|s| match &s.kind {
            StmtKind::Call { args, .. } => Some(args[0].value.base_name().map(str::to_string)),
            _ => None,
        })
        .flatten();
    assert_eq!(call.as_deref(), Some("t"));
    let e = lower(&src(4)).unwrap_err();
    assert!(e.contains("t.c:5:5: error[E0605]"), "{e}");
}

/// `(void)n;` silences an unused parameter; an expression statement that changes nothing
/// does nothing; `(void)e;` with effects does what `e;` does.
#[test]
fn expression_statements_without_effect_are_dropped() {
    let f = lower(
        "void f(int n, int k, double *y) {\n  (void)n;\n  (void)(y[0] * 2.0);\n  k + 1;\n  \
         (void)k++;\n  y[0] = k;\n}\n",
    )
    .unwrap();
    // What is left: the copy of the by-value `k` that the body changes, `k = k + 1`,
    // `y[0] = k`.
    let assigned: Vec<&str> = f.units[0]
        .body
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Assign { lhs, .. } => lhs.base_name().unwrap_or("?"),
            _ => "not an assignment",
        })
        .collect();
    assert_eq!(assigned, ["k_copy", "k_copy", "y"]);
    // A call may change anything: its value discarded is still refused, cast or not.
    let e = lower("double g(double x) { return x; }\nvoid f(double *y) {\n  (void)g(y[0]);\n}\n")
        .unwrap_err();
    assert!(e.contains("t.c:3:9: error[E0605]"), "{e}");
}

/// `if (++k > n)`: the step runs before the IF; `if (k-- > 0)`: first in each branch (an
/// ELSE made for it). With ELSE IF arms a step after the variable would have to run before
/// their conditions: refused, located.
#[test]
fn steps_in_if_conditions() {
    let f = lower(
        "void f(int n, double *y) {\n  int k = 0;\n  if (++k > n) y[0] = 1.0;\n  \
         if (k-- > 0) y[1] = 2.0;\n}\n",
    )
    .unwrap();
    let kinds: Vec<String> = f.units[0]
        .body
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Assign { lhs, .. } => format!("{} =", lhs.base_name().unwrap_or("?")),
            StmtKind::If {
                arms, else_body, ..
            } => format!(
                "if({}, {})",
                arms[0].1.len(),
                else_body.as_ref().map_or(0, Vec::len)
            ),
            _ => "other".to_string(),
        })
        .collect();
    assert_eq!(kinds, ["k =", "k =", "if(1, 0)", "if(2, 1)"]);
    let e = lower(
        "void f(int n, int k, double *y) {\n  if (k-- > n) y[0] = 1.0;\n  \
         else if (k > 1) y[0] = 2.0;\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:2:7: error[E0605]"), "{e}");
}

#[test]
fn include_spelling_is_the_directive_that_names_the_header() {
    let texts =
        vec!["#include <math.h>\n#include \"model.h\"\n  #  include \"sub/grid.h\"\n".to_string()];
    // Found through `-Iinclude`: named as the directive spells it.
    assert_eq!(
        super::include_spelling("include/model.h", &texts),
        "model.h"
    );
    // The longest spelling that ends the path at a `/`.
    assert_eq!(
        super::include_spelling("./src/sub/grid.h", &texts),
        "sub/grid.h"
    );
    // `xmodel.h` does not end with `/model.h`: no directive, the file name.
    assert_eq!(super::include_spelling("inc/xmodel.h", &texts), "xmodel.h");
}

/// Output and `exit` are kept as written; a macro of the file in them (which derivative
/// code would not have) is refused at the call.
#[test]
fn output_is_kept_unless_it_uses_the_files_macros() {
    let ok = "#include <stdio.h>\n#include <stdlib.h>\n\
              void f(int n, double *y) {\n  if (n < 1) {\n    \
              fprintf(stderr, \"n = %d\\n\", n);\n    exit(EXIT_FAILURE);\n  }\n  *y = 2.0 * *y;\n}\n";
    let f = lower(ok).unwrap();
    let text = crate::back::c::write_file(&f, &il::Program { files: vec![] }, &[]);
    assert!(
        text.contains("fprintf(stderr, \"n = %d\\n\", n);"),
        "{text}"
    );
    assert!(text.contains("exit(EXIT_FAILURE);"), "{text}");
    assert!(text.contains("#include <stdio.h>") && text.contains("#include <stdlib.h>"));
    let bad = "#include <stdio.h>\n#define MSG \"bad\\n\"\n\
               void f(int n, double *y) {\n  if (n < 1) fprintf(stderr, MSG);\n  *y = 2.0 * *y;\n}\n";
    let e = lower(bad).unwrap_err();
    assert!(e.contains("t.c:4:14: error[E0604]: `MSG`"), "{e}");
    // Nor a call of the file's functions (derivative code would not declare it).
    let call = "#include <stdio.h>\nstatic double g(double v) { return v; }\n\
                void f(double *y) {\n  printf(\"%g\\n\", g(*y));\n  *y = 2.0 * *y;\n}\n";
    let e = lower(call).unwrap_err();
    assert!(e.contains("t.c:4:3: error[E0604]: `g`"), "{e}");
}

/// C names are case-sensitive: `c` and `C` are two variables of the IL, and a
/// diagnostic names a variable as it is written.
#[test]
fn names_that_differ_by_case_are_two_names() {
    let f = lower("void f(double c, double *y) { double C = 2.0 * c; (void)c; *y = C * c; }\n")
        .unwrap();
    let u = &f.units[0];
    let c = u.symbols.get("c").unwrap();
    let big = u.symbols.get(&il::names::cased("C")).unwrap();
    assert_eq!(c.arg_index, Some(0));
    assert_eq!(big.arg_index, None);
    assert_eq!(il::names::spelled(&big.name), "C");
    let e = lower(
        "double G;\nvoid f(double *y) {\n  if (*y > 0.0) {\n    double G = 2.0;\n    *y = G;\n  }\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("`G` shadows the global variable `G`"), "{e}");
    assert!(!e.contains(il::names::CASE_MARK), "{e}");
}

/// An assignment inside an expression runs before its statement, as `++k` does; the
/// cases whose order C leaves open, or that run conditionally, are refused where they
/// are written.
#[test]
fn assignments_inside_expressions() {
    let f = lower(
        "void f(const double *x, double *y) {\n  double t, big = 0.0;\n  \
         if ((t = x[0] * 2.0) > big) big = t;\n  *y = big;\n}\n",
    )
    .unwrap();
    let body = &f.units[0].body;
    let assigned: Vec<String> = body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Assign { lhs, .. } => lhs.base_name().map(str::to_string),
            StmtKind::If { .. } => Some("if".into()),
            _ => None,
        })
        .collect();
    assert_eq!(assigned, ["big", "t", "if", "y"], "{body:?}");
    let refused = [
        (
            "void f(double x, double *y) {\n  double t;\n  *y = (t = x) + t;\n}\n",
            "t.c:3:3: error[E0605]",
        ),
        (
            "void f(double x, double *y) {\n  if ((y[0] = x) > 1.0) y[1] = x;\n}\n",
            "t.c:2:7: error[E0605]",
        ),
        (
            "void f(double x, double *y) {\n  double t;\n  if (x > 0.0 && (t = x) > 1.0) *y = t;\n}\n",
            "t.c:3:18: error[E0605]",
        ),
    ];
    for (src, want) in refused {
        let e = lower(src).unwrap_err();
        assert!(e.contains(want), "{src}\nwanted {want}, got:\n{e}");
        assert_eq!(e.matches("error[").count(), 1, "{e}");
    }
}

/// A local may take the name of its own function (it hides it), not another's.
#[test]
fn a_local_may_take_its_own_functions_name() {
    let f = lower("double s(double x) {\n  double s = 2.0 * x;\n  return s;\n}\n").unwrap();
    assert!(f.units[0].symbols.get("s").is_some_and(|v| v.is_variable()));
    let e = lower(
        "double g(double x) { return x; }\ndouble s(double x) {\n  double g = 2.0 * x;\n  return g;\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:3:10: error[E0608]"), "{e}");
}

/// A `static` local the function only reads is a local with its initializer; one without
/// an initializer, one the function changes, or one passed to a function that may change
/// it keeps its value between calls and is refused, once.
#[test]
fn static_locals_that_are_read_only_tables() {
    let f = lower(
        "static double get(double c[], int k) { return c[k]; }\n\
         void f(double x, double *y) {\n  static double c[2] = {1.0, 2.0};\n  \
         *y = get(c, 1) * x + c[0];\n}\n",
    )
    .unwrap();
    assert!(f.units[1].symbols.get("c").is_some_and(|s| s.is_array()));
    let refused = [
        "static double c[2];\n  *y = c[0] * x;",
        "static double c[2] = {1.0, 2.0};\n  c[0] = x;\n  *y = c[0];",
        "static double c[2] = {1.0, 2.0};\n  set(c);\n  *y = c[0] * x;",
        "static double c[3] = {1.0, 2.0, 0.5};\n  set(c + 1);\n  *y = c[0] * x;",
    ];
    for body in refused {
        let src = format!(
            "static void set(double c[]) {{ c[1] = 3.0; }}\n\
             void f(double x, double *y) {{\n  {body}\n}}\n"
        );
        let e = lower(&src).unwrap_err();
        assert!(
            e.contains("t.c:3:3: error[E0603]") && e.contains("`static`"),
            "{src}\n{e}"
        );
        assert_eq!(e.matches("error[").count(), 1, "{e}");
    }
}

/// `abs` takes an `int`: a real argument is converted, as C does (AS 239 writes
/// `abs(pn5)` of a `double`); it is not `fabs`.
#[test]
fn abs_of_a_real_converts_it_to_int() {
    let source = "void f(double x, double *y) {\n  *y = abs(x) + fabs(x);\n}\n";
    let f = lower(source).unwrap();
    // And says so, once, where the argument is (as gcc -Wabsolute-value does).
    assert_eq!(f.warnings.len(), 1, "{:?}", f.warnings);
    assert_eq!(f.warnings[0].code, "W0601");
    let text = crate::back::c::write_file(&f, &il::Program::default(), &[]);
    assert!(text.contains("(int)x"), "{text}");
    assert!(text.contains("fabs(x)"), "{text}");
}
