//! The harness checked on hand-written derivatives: correct ones pass, wrong ones fail at
//! the right check. The IL units are built by hand so that this runs before the
//! front-end exists, and a small local printer stands in for the back-end's.

use adgen::diag::Span;
use adgen::diff::{SigArg, Signature};
use adgen::il::{
    self, BinOp, Bound, DimSpec, Expr, ExprKind, Intent, ScalarType, Symbol, SymbolKind,
    SymbolTable, TypeSpec, Unit, UnitKind,
};
use adgen::{GeneratedFile, Mode};

use super::case::{self, Context};
use super::config::{self, RootSpec};
use super::driver;
use super::toolchain;

/// Enough of a Fortran expression printer for bounds.
fn print(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(s) => s.clone(),
        ExprKind::Var(n) => n.clone(),
        ExprKind::Paren(inner) => format!("({})", print(inner)),
        ExprKind::Binary(op, a, b) => {
            let op = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                _ => panic!("the test printer only knows + - *"),
            };
            format!("({} {op} {})", print(a), print(b))
        }
        other => panic!("the test printer cannot print {other:?}"),
    }
}

fn symbol(name: &str, ty: ScalarType, dims: Vec<DimSpec>, intent: Option<Intent>) -> Symbol {
    Symbol {
        name: name.to_string(),
        kind: SymbolKind::Variable,
        ty,
        type_spec: TypeSpec::of(ty),
        dims,
        intent,
        arg_index: None,
        is_result: false,
        implicit: false,
        span: Span::default(),
        global: None,
        pointer: false,
    }
}

fn unit(kind: UnitKind, name: &str, args: Vec<Symbol>, result: Option<Symbol>) -> Unit {
    let mut symbols = SymbolTable::default();
    let arg_names = args.iter().map(|s| s.name.clone()).collect();
    for (i, mut s) in args.into_iter().enumerate() {
        s.arg_index = Some(i);
        symbols.insert(s);
    }
    let result_name = result.as_ref().map(|r| r.name.clone());
    if let Some(mut r) = result {
        r.is_result = true;
        symbols.insert(r);
    }
    Unit {
        kind,
        name: name.to_string(),
        args: arg_names,
        result: result_name,
        explicit_result: true,
        prefix_type: None,
        leading_comments: Vec::new(),
        decls: Vec::new(),
        body: Vec::new(),
        symbols,
        span: Span::default(),
        host: None,
        bind: None,
        recursive: false,
        source_calls: Default::default(),
        deferred: Vec::new(),
        deferred_entities: Vec::new(),
        followed_pointers: Vec::new(),
        internal_of: None,
        elemental: false,
        specialization: None,
        external: false,
    }
}

const R8: ScalarType = ScalarType::Real(8);
const I4: ScalarType = ScalarType::Integer(4);

/// `subroutine sq(n, x, y, s)` with `x(0:n-1)`, `y(n)`, `s` in-out.
fn sq_unit() -> Unit {
    let n = Expr::var("n");
    let x_dims = vec![DimSpec {
        lower: Some(Expr::int(0)),
        upper: Bound::Expr(Expr::binary(BinOp::Sub, n.clone(), Expr::int(1))),
    }];
    let y_dims = vec![DimSpec {
        lower: None,
        upper: Bound::Expr(n),
    }];
    unit(
        UnitKind::Subroutine,
        "sq",
        vec![
            symbol("n", I4, vec![], Some(Intent::In)),
            symbol("x", R8, x_dims, Some(Intent::In)),
            symbol("y", R8, y_dims, Some(Intent::Out)),
            symbol("s", R8, vec![], Some(Intent::InOut)),
        ],
        None,
    )
}

/// `function cube(n, x) result(r)` with assumed-size `x(*)`.
fn cube_unit() -> Unit {
    let x_dims = vec![DimSpec {
        lower: None,
        upper: Bound::Star,
    }];
    unit(
        UnitKind::Function,
        "cube",
        vec![
            symbol("n", I4, vec![], Some(Intent::In)),
            symbol("x", R8, x_dims, Some(Intent::In)),
        ],
        Some(symbol("r", R8, vec![], None)),
    )
}

const ORIGINAL: &str = "\
subroutine sq(n, x, y, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(0:n-1)
  real(8), intent(out) :: y(n)
  real(8), intent(inout) :: s
  integer :: i
  do i = 1, n
    y(i) = x(i-1)**2 * s
  end do
  s = s * sin(x(0))
end subroutine sq

function cube(n, x) result(r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(*)
  real(8) :: r
  integer :: i
  r = 0.0d0
  do i = 1, n
    r = r + x(i)**3
  end do
end function cube
";

/// Tangents; `FACTOR` is 2 in the correct derivative of `sq`.
const TANGENT: &str = "\
subroutine sq_d(n, x, xd, y, yd, s, sd)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(0:n-1), xd(0:n-1)
  real(8), intent(out) :: y(n), yd(n)
  real(8), intent(inout) :: s, sd
  integer :: i
  do i = 1, n
    yd(i) = FACTOR*x(i-1)*xd(i-1)*s + x(i-1)**2*sd
    y(i) = x(i-1)**2 * s
  end do
  sd = sd*sin(x(0)) + s*cos(x(0))*xd(0)
  s = s * sin(x(0))
end subroutine sq_d

function cube_d(n, x, xd, r) result(rd)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(*), xd(*)
  real(8), intent(out) :: r
  real(8) :: rd
  integer :: i
  r = 0.0d0
  rd = 0.0d0
  do i = 1, n
    rd = rd + 3*x(i)**2*xd(i)
    r = r + x(i)**3
  end do
end function cube_d
";

/// Adjoints; `WEIGHT` is 1 in the correct one.
const ADJOINT: &str = "\
subroutine sq_b(n, x, xb, y, yb, s, sb)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(0:n-1)
  real(8), intent(out) :: xb(0:n-1)
  real(8), intent(out) :: y(n)
  real(8), intent(inout) :: yb(n)
  real(8), intent(inout) :: s, sb
  real(8) :: s0b
  integer :: i
  do i = 1, n
    y(i) = x(i-1)**2 * s
  end do
  do i = 0, n - 1
    xb(i) = 0.0d0
  end do
  s0b = WEIGHT*sb*sin(x(0))
  xb(0) = xb(0) + sb*s*cos(x(0))
  do i = n, 1, -1
    xb(i-1) = xb(i-1) + yb(i)*2*x(i-1)*s
    s0b = s0b + yb(i)*x(i-1)**2
    yb(i) = 0.0d0
  end do
  sb = s0b
end subroutine sq_b

subroutine cube_b(n, x, xb, rb)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(*)
  real(8), intent(out) :: xb(*)
  real(8), intent(inout) :: rb
  integer :: i
  do i = 1, n
    xb(i) = 3*x(i)**2*rb
  end do
  rb = 0.0d0
end subroutine cube_b
";

fn arg(name: &str, original: Option<&str>, is_derivative: bool) -> SigArg {
    SigArg {
        name: name.to_string(),
        original: original.map(str::to_string),
        is_derivative,
    }
}

fn signatures() -> Vec<Signature> {
    let sq = |mode: Mode, s: &str| Signature {
        root: "sq".into(),
        mode,
        unit: format!("sq_{s}"),
        args: vec![
            arg("n", Some("n"), false),
            arg("x", Some("x"), false),
            arg(&format!("x{s}"), Some("x"), true),
            arg("y", Some("y"), false),
            arg(&format!("y{s}"), Some("y"), true),
            arg("s", Some("s"), false),
            arg(&format!("s{s}"), Some("s"), true),
        ],
        is_function: false,
        module: None,
    };
    let cube_d = Signature {
        root: "cube".into(),
        mode: Mode::Tangent,
        unit: "cube_d".into(),
        args: vec![
            arg("n", Some("n"), false),
            arg("x", Some("x"), false),
            arg("xd", Some("x"), true),
            arg("r", None, false),
        ],
        is_function: true,
        module: None,
    };
    let cube_b = Signature {
        root: "cube".into(),
        mode: Mode::Adjoint,
        unit: "cube_b".into(),
        args: vec![
            arg("n", Some("n"), false),
            arg("x", Some("x"), false),
            arg("xb", Some("x"), true),
            arg("rb", None, true),
        ],
        is_function: true,
        module: None,
    };
    vec![
        sq(Mode::Tangent, "d"),
        sq(Mode::Adjoint, "b"),
        cube_d,
        cube_b,
    ]
}

fn specs() -> Vec<RootSpec> {
    vec![
        RootSpec {
            name: "sq".into(),
            independents: vec!["x".into(), "s".into()],
            dependents: vec!["y".into(), "s".into()],
            tangent: true,
            adjoint: true,
        },
        RootSpec {
            name: "cube".into(),
            independents: vec!["x".into()],
            dependents: vec!["r".into()],
            tangent: true,
            adjoint: true,
        },
    ]
}

/// Runs the derivative checks on hand-written derivatives; returns the failures.
fn run(factor: &str, weight: &str) -> Vec<case::Failure> {
    run_with(factor, weight, false, |text| text)
}

/// `contract`: check INTERFACE.md §4's promises; `edit_adjoint` changes the adjoints.
fn run_with(
    factor: &str,
    weight: &str,
    contract: bool,
    edit_adjoint: fn(String) -> String,
) -> Vec<case::Failure> {
    let work = tempfile::tempdir().unwrap();
    let mut check = config::parse_check("n = 5\n[extent]\nx = 5\n").unwrap();
    check.contract = contract;
    let ctx = Context {
        name: "selftest".into(),
        work: work.path().to_path_buf(),
        check,
        print: &print,
        c: false,
        types: Default::default(),
        sources: Vec::new(),
        strict: true,
        include_dirs: Vec::new(),
        outputs: Default::default(),
    };
    let (sq, cube) = (sq_unit(), cube_unit());
    let specs = specs();
    let roots = [(&sq, &specs[0]), (&cube, &specs[1])];
    let originals = vec![("orig.f90".to_string(), ORIGINAL.to_string())];
    let objects = case::compile_sources(
        &ctx,
        "original",
        &originals,
        toolchain::ORIGINAL_FFLAGS,
        "compile-original",
    )
    .expect("the self-test's original compiles");
    let generated = vec![
        GeneratedFile {
            path: "orig_d.f90".into(),
            contents: TANGENT.replace("FACTOR", factor),
        },
        GeneratedFile {
            path: "orig_b.f90".into(),
            contents: edit_adjoint(ADJOINT.replace("WEIGHT", weight)),
        },
    ];
    case::check_derivatives(&ctx, &objects, &generated, &signatures(), &roots)
}

fn details(failures: &[case::Failure]) -> String {
    failures
        .iter()
        .map(|f| f.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn correct_derivatives_pass() {
    let failures = run("2", "1");
    assert!(failures.is_empty(), "{}", details(&failures));
}

#[test]
fn wrong_tangent_fails_both_checks() {
    let failures = run("2.001d0", "1");
    assert_eq!(failures.len(), 1, "{}", details(&failures));
    let text = details(&failures);
    assert_eq!(failures[0].stage, "check");
    assert!(text.contains("tangent sq: relative error"), "{text}");
    // The adjoint is right, so the dot-product test against the wrong tangent fails too.
    assert!(text.contains("adjoint sq: relative error"), "{text}");
    assert!(!text.contains("cube:"), "{text}");
}

#[test]
fn wrong_adjoint_fails_only_the_dot_product() {
    let failures = run("2", "1.0001d0");
    let text = details(&failures);
    assert_eq!(failures.len(), 1, "{text}");
    assert!(text.contains("adjoint sq: relative error"), "{text}");
    assert!(!text.contains("tangent sq: relative error"), "{text}");
}

#[test]
fn contract_mode_catches_an_accumulating_adjoint() {
    let failures = run_with("2", "1", true, |t| t);
    assert!(failures.is_empty(), "{}", details(&failures));
    let accumulate = |t: String| t.replace("xb(i) = 3*x(i)", "xb(i) = xb(i) + 3*x(i)");
    // Accumulating into a zeroed xb is invisible without the contract check...
    let failures = run_with("2", "1", false, accumulate);
    assert!(failures.is_empty(), "{}", details(&failures));
    // ...and caught with it.
    let failures = run_with("2", "1", true, accumulate);
    let text = details(&failures);
    assert!(text.contains("adjoint cube: relative error"), "{text}");
    assert!(!text.contains("sq:"), "{text}");
}

#[test]
fn contract_mode_catches_an_uncleared_output_adjoint() {
    let keep_yb = |t: String| t.replace("    yb(i) = 0.0d0\n", "");
    let failures = run_with("2", "1", false, keep_yb);
    assert!(failures.is_empty(), "{}", details(&failures));
    let failures = run_with("2", "1", true, keep_yb);
    let text = details(&failures);
    assert!(
        text.contains("adjoint-cleared sq: relative error"),
        "{text}"
    );
}

#[test]
fn generated_code_with_warnings_is_rejected() {
    let work = tempfile::tempdir().unwrap();
    let ctx = Context {
        name: "selftest".into(),
        work: work.path().to_path_buf(),
        check: Default::default(),
        print: &print,
        c: false,
        types: Default::default(),
        sources: Vec::new(),
        strict: true,
        include_dirs: Vec::new(),
        outputs: Default::default(),
    };
    let sources = vec![(
        "w_d.f90".to_string(),
        "subroutine w_d(x)\n  real(8) :: x, unused\n  x = 1.0d0\nend subroutine w_d\n".to_string(),
    )];
    let r = case::compile_sources(
        &ctx,
        "g",
        &sources,
        toolchain::GENERATED_FFLAGS,
        "compile-generated",
    );
    assert!(r.is_err(), "an unused variable must fail -Wall -Werror");
}

#[test]
fn roundtrip_detects_a_changed_result() {
    let work = tempfile::tempdir().unwrap();
    let ctx = Context {
        name: "selftest".into(),
        work: work.path().to_path_buf(),
        check: config::parse_check("n = 4\n[extent]\nx = 4\n").unwrap(),
        print: &print,
        c: false,
        types: Default::default(),
        sources: Vec::new(),
        strict: true,
        include_dirs: Vec::new(),
        outputs: Default::default(),
    };
    let (sq, cube) = (sq_unit(), cube_unit());
    let specs = specs();
    let roots = [(&sq, &specs[0]), (&cube, &specs[1])];
    let originals = vec![("orig.f90".to_string(), ORIGINAL.to_string())];
    let objects = case::compile_sources(
        &ctx,
        "original",
        &originals,
        toolchain::ORIGINAL_FFLAGS,
        "c",
    )
    .expect("compiles");
    let reference = case::primal_outputs(&ctx, "original", &objects, &roots, "primal").unwrap();
    assert!(reference.contains("PRIMAL y"), "{reference}");
    assert!(reference.contains("PRIMAL r"), "{reference}");
    // Identical sources: identical output.
    let same = case::check_roundtrip(&ctx, &reference, &originals, &roots);
    assert!(same.is_empty(), "{}", details(&same));
    // A change in the last bit of one result is caught.
    let changed = vec![(
        "orig.f90".to_string(),
        ORIGINAL.replace(
            "s = s * sin(x(0))",
            "s = s * sin(x(0)) * (1.0d0 + epsilon(1.0d0))",
        ),
    )];
    let work2 = tempfile::tempdir().unwrap();
    let ctx2 = Context {
        work: work2.path().to_path_buf(),
        ..ctx
    };
    let diff = case::check_roundtrip(&ctx2, &reference, &changed, &roots);
    assert_eq!(diff.len(), 1, "{}", details(&diff));
    assert_eq!(diff[0].stage, "roundtrip");
    let _ = il::Program::default();
}

/// A bound expression from text: integers and names joined by `+`, `-`, `*`.
fn bound_expr(text: &str) -> Expr {
    fn atom(t: &str) -> Expr {
        let t = t.trim();
        if t.chars().all(|c| c.is_ascii_digit()) {
            Expr::int(t.parse().unwrap())
        } else {
            Expr::var(t)
        }
    }
    fn product(t: &str) -> Expr {
        let mut parts = t.split('*');
        let first = atom(parts.next().unwrap());
        parts.fold(first, |acc, p| Expr::binary(BinOp::Mul, acc, atom(p)))
    }
    let mut expr: Option<Expr> = None;
    let mut op = BinOp::Add;
    let mut start = 0;
    let bytes: Vec<char> = text.chars().collect();
    for i in 0..=bytes.len() {
        if i == bytes.len() || bytes[i] == '+' || bytes[i] == '-' {
            let term = product(&text[start..i]);
            expr = Some(match expr {
                None => term,
                Some(e) => Expr::binary(op, e, term),
            });
            if i < bytes.len() {
                op = if bytes[i] == '+' {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
            }
            start = i + 1;
        }
    }
    expr.unwrap()
}

/// Dimensions from text: `n`, `0:n+1`, `2,n`, `*`, `0:*`.
fn dims(text: &str) -> Vec<DimSpec> {
    if text.is_empty() {
        return Vec::new();
    }
    text.split(',')
        .map(|d| {
            let (lower, upper) = match d.split_once(':') {
                Some((l, u)) => (Some(bound_expr(l)), u),
                None => (None, d),
            };
            DimSpec {
                lower,
                upper: if upper.trim() == "*" {
                    Bound::Star
                } else {
                    Bound::Expr(bound_expr(upper))
                },
            }
        })
        .collect()
}

fn ty(code: &str) -> ScalarType {
    match code {
        "i" => I4,
        "r8" => R8,
        "r4" => ScalarType::Real(4),
        "l" => ScalarType::Logical,
        _ => panic!("type code {code}"),
    }
}

fn intent(code: &str) -> Option<Intent> {
    match code {
        "in" => Some(Intent::In),
        "out" => Some(Intent::Out),
        "inout" => Some(Intent::InOut),
        _ => None,
    }
}

type ArgRow = (&'static str, &'static str, &'static str, &'static str);

/// The declarations of each corpus root as the front-end should lower them:
/// (directory, root, result (name, type) for functions, arguments, named constants).
#[allow(clippy::type_complexity)]
const CORPUS_ROOTS: &[(&str, &str, Option<(&str, &str)>, &[ArgRow], &[(&str, &str)])] = &[
    (
        "advection_muscl",
        "advect",
        None,
        &[
            ("n", "i", "", "in"),
            ("nsteps", "i", "", "in"),
            ("c", "r8", "", "in"),
            ("u", "r8", "n", "inout"),
            ("tv", "r8", "", "out"),
        ],
        &[],
    ),
    (
        "arrhenius_chain",
        "decay",
        None,
        &[
            ("nt", "i", "", "in"),
            ("temp", "r8", "nt", "in"),
            ("conc0", "r8", "nspec", "in"),
            ("conc", "r8", "nspec", "out"),
        ],
        &[("nspec", "4")],
    ),
    (
        "cluster_energy",
        "cluster_energy",
        Some(("e", "r8")),
        &[
            ("n", "i", "", "in"),
            ("pos", "r8", "2,n", "in"),
            ("anchor", "r8", "2,n", "in"),
            ("k0", "r8", "", "in"),
        ],
        &[],
    ),
    (
        "cluster_energy",
        "lj",
        Some(("v", "r8")),
        &[("r", "r8", "", "in")],
        &[],
    ),
    (
        "csr_residual",
        "csr_residual",
        None,
        &[
            ("n", "i", "", "in"),
            ("nnz", "i", "", "in"),
            ("rowptr", "i", "n+1", "in"),
            ("colidx", "i", "nnz", "in"),
            ("vals", "r8", "nnz", "in"),
            ("x", "r8", "n", "in"),
            ("b", "r8", "n", "in"),
            ("r", "r8", "n", "out"),
            ("rnorm", "r8", "", "out"),
        ],
        &[],
    ),
    (
        "diffusion_2d",
        "diffuse2d",
        None,
        &[
            ("nx", "i", "", "in"),
            ("ny", "i", "", "in"),
            ("nsteps", "i", "", "in"),
            ("d", "r8", "", "in"),
            ("k", "r8", "", "in"),
            ("u", "r8", "0:nx+1,0:ny+1", "inout"),
            ("total", "r8", "", "out"),
        ],
        &[],
    ),
    (
        "drag_regimes",
        "drag_total",
        None,
        &[
            ("n", "i", "", "in"),
            ("re", "r8", "n", "in"),
            ("d", "r8", "n", "in"),
            ("cd", "r8", "n", "out"),
            ("ftot", "r8", "", "out"),
        ],
        &[],
    ),
    (
        "gram_schmidt",
        "mgs_qr",
        None,
        &[
            ("m", "i", "", "in"),
            ("n", "i", "", "in"),
            ("a", "r8", "m,n", "in"),
            ("q", "r8", "m,n", "out"),
            ("r", "r8", "n,n", "out"),
        ],
        &[],
    ),
    (
        "heat_explicit",
        "heat",
        None,
        &[
            ("n", "i", "", "in"),
            ("nsteps", "i", "", "in"),
            ("kappa", "r8", "n", "in"),
            ("u", "r8", "0:n+1", "inout"),
            ("cost", "r8", "", "out"),
        ],
        &[],
    ),
    (
        "horner_poly",
        "poly_eval",
        None,
        &[
            ("deg", "i", "", "in"),
            ("c", "r8", "0:*", "in"),
            ("m", "i", "", "in"),
            ("x", "r8", "m", "in"),
            ("p", "r8", "m", "out"),
            ("dp", "r8", "m", "out"),
        ],
        &[],
    ),
    (
        "intrinsics_all",
        "response",
        None,
        &[
            ("a", "r8", "", "in"),
            ("b", "r8", "", "in"),
            ("c", "r8", "3", "in"),
            ("w", "r8", "", "out"),
            ("v", "r8", "4", "out"),
        ],
        &[],
    ),
    (
        "kepler_newton",
        "kepler",
        None,
        &[
            ("n", "i", "", "in"),
            ("mean_anom", "r8", "n", "in"),
            ("ecc", "r8", "n", "in"),
            ("tol", "r8", "", "in"),
            ("ea", "r8", "n", "out"),
            ("iters", "i", "", "out"),
        ],
        &[],
    ),
    (
        "kernel_budget",
        "kernel_sum",
        None,
        &[
            ("n", "i", "", "in"),
            ("x", "r8", "n", "in"),
            ("y", "r8", "n", "in"),
            ("sigma", "r8", "", "in"),
            ("budget", "i", "", "in"),
            ("s", "r8", "", "out"),
            ("used", "i", "", "out"),
        ],
        &[],
    ),
    (
        "logistic_legacy",
        "logistic",
        None,
        &[
            ("nsteps", "i", "", ""),
            ("r", "r4", "", ""),
            ("cap", "r4", "", ""),
            ("harvest", "r4", "nsteps", ""),
            ("p0", "r4", "", ""),
            ("pend", "r4", "", ""),
        ],
        &[],
    ),
    (
        "logreg_nll",
        "nll",
        Some(("nll", "r8")),
        &[
            ("m", "i", "", "in"),
            ("nf", "i", "", "in"),
            ("x", "r8", "m,nf", "in"),
            ("label", "r8", "m", "in"),
            ("w", "r8", "nf", "in"),
            ("lambda", "r8", "", "in"),
        ],
        &[],
    ),
    (
        "lotka_rk4",
        "lotka",
        None,
        &[
            ("nsteps", "i", "", "in"),
            ("dt", "r8", "", "in"),
            ("par", "r8", "4", "in"),
            ("y0", "r8", "2", "in"),
            ("y", "r8", "2", "out"),
        ],
        &[],
    ),
    (
        "lu_pivot",
        "lu_solve",
        None,
        &[
            ("n", "i", "", "in"),
            ("a", "r8", "n,n", "in"),
            ("b", "r8", "n", "in"),
            ("x", "r8", "n", "out"),
            ("piv", "i", "n", "out"),
        ],
        &[],
    ),
    (
        "oscillator_fit",
        "misfit",
        None,
        &[
            ("n", "i", "", "in"),
            ("t", "r8", "n", "in"),
            ("obs", "r8", "n", "in"),
            ("p", "r8", "3", "in"),
            ("j", "r8", "", "out"),
        ],
        &[],
    ),
    (
        "power_means",
        "power_means",
        None,
        &[
            ("n", "i", "", "in"),
            ("x", "r8", "n", "in"),
            ("p", "r8", "", "in"),
            ("r", "r8", "5", "out"),
        ],
        &[],
    ),
    (
        "projectile_drag",
        "trajectory",
        None,
        &[
            ("nmax", "i", "", "in"),
            ("dt", "r8", "", "in"),
            ("v0", "r8", "", "in"),
            ("angle", "r8", "", "in"),
            ("cd", "r8", "", "in"),
            ("range_x", "r8", "", "out"),
            ("peak_y", "r8", "", "out"),
            ("nsteps", "i", "", "out"),
        ],
        &[],
    ),
    (
        "quadratic_form",
        "quad_form",
        None,
        &[
            ("m", "i", "", "in"),
            ("n", "i", "", "in"),
            ("a", "r8", "m,n", "in"),
            ("x", "r8", "n", "in"),
            ("r", "r8", "m", "in"),
            ("y", "r8", "m", "out"),
            ("q", "r8", "", "out"),
        ],
        &[],
    ),
    (
        "simpson_legacy",
        "SIMPSN",
        None,
        &[
            ("N", "i", "", ""),
            ("A", "r8", "", ""),
            ("B", "r8", "", ""),
            ("P", "r8", "NP", ""),
            ("NP", "i", "", ""),
            ("RES", "r8", "", ""),
        ],
        &[],
    ),
    (
        "smooth_inplace",
        "smooth_normalize",
        None,
        &[
            ("n", "i", "", "in"),
            ("v", "r8", "n", "inout"),
            ("alpha", "r8", "", "in"),
        ],
        &[],
    ),
    (
        "softplus_net",
        "network",
        None,
        &[
            ("n", "i", "", "in"),
            ("w", "r8", "n,n", "in"),
            ("b", "r8", "n", "in"),
            ("x", "r8", "n", "in"),
            ("out", "r8", "", "out"),
        ],
        &[],
    ),
    (
        "spectral_peak",
        "spectral_peak",
        None,
        &[
            ("n", "i", "", "in"),
            ("f", "r8", "n", "in"),
            ("refine", "l", "", "in"),
            ("ipk", "i", "", "out"),
            ("xpk", "r8", "", "out"),
            ("fpk", "r8", "", "out"),
        ],
        &[],
    ),
    (
        "stiff_implicit_euler",
        "stiff_ode",
        None,
        &[
            ("nsteps", "i", "", "in"),
            ("dt", "r8", "", "in"),
            ("lambda", "r8", "", "in"),
            ("y0", "r8", "", "in"),
            ("ys", "r8", "nsteps", "out"),
            ("newton_its", "i", "", "out"),
        ],
        &[],
    ),
    (
        "tridiag_thomas",
        "thomas",
        None,
        &[
            ("n", "i", "", "in"),
            ("a", "r8", "*", "in"),
            ("b", "r8", "*", "in"),
            ("c", "r8", "*", "in"),
            ("d", "r8", "*", "in"),
            ("x", "r8", "*", "out"),
            ("s", "r8", "", "out"),
        ],
        &[],
    ),
];

fn corpus_unit(
    root: &str,
    result: Option<(&str, &str)>,
    args: &[ArgRow],
    constants: &[(&str, &str)],
) -> Unit {
    let syms = args
        .iter()
        .map(|(name, t, d, i)| symbol(name, ty(t), dims(d), intent(i)))
        .collect();
    let kind = if result.is_some() {
        UnitKind::Function
    } else {
        UnitKind::Subroutine
    };
    let mut u = unit(
        kind,
        root,
        syms,
        result.map(|(n, t)| symbol(n, ty(t), vec![], None)),
    );
    for (name, value) in constants {
        let mut c = symbol(name, I4, vec![], None);
        c.kind = SymbolKind::Constant;
        u.symbols.insert(c);
        u.decls.push(il::Decl {
            kind: il::DeclKind::Parameter(vec![(name.to_string(), bound_expr(value))]),
            span: Span::default(),
        });
    }
    u
}

/// Every corpus program's primal driver, generated from hand-written IL of its root and
/// its real `check.toml`, compiles, runs against the real sources, prints finite
/// values for every argument, and computes bitwise the same twice (so the round trip
/// can only fail because of the unparser). This proves the check files give the driver
/// all it needs before the front-end exists. Programs added later need not be listed:
/// the corpus test itself drives them through the real front-end.
#[test]
fn corpus_primal_drivers_run() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fortran");
    let mut problems = Vec::new();
    for (dir, root, result, args, constants) in CORPUS_ROOTS {
        let (manifest, check, sources) = case::load(&corpus.join(dir)).unwrap();
        let spec = manifest
            .roots
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(root))
            .unwrap();
        let u = corpus_unit(root, *result, args, constants);
        let work = tempfile::tempdir().unwrap();
        let ctx = Context {
            name: dir.to_string(),
            work: work.path().to_path_buf(),
            check,
            print: &print,
            c: false,
            types: Default::default(),
            sources: Vec::new(),
            strict: true,
            include_dirs: Vec::new(),
            outputs: Default::default(),
        };
        let originals: Vec<(String, String)> = sources
            .iter()
            .map(|s| (s.path.clone(), s.text.clone()))
            .collect();
        let roots = [(&u, spec)];
        let objects = match case::compile_sources(
            &ctx,
            "original",
            &originals,
            toolchain::ORIGINAL_FFLAGS,
            "compile-original",
        ) {
            Ok(o) => o,
            Err(f) => {
                problems.push(details(&f));
                continue;
            }
        };
        match case::primal_outputs(&ctx, "original", &objects, &roots, "primal") {
            Ok(out) => {
                for (arg, ..) in args.iter() {
                    let arg = arg.to_ascii_lowercase();
                    if !out.contains(&format!("PRIMAL {arg}\n")) {
                        problems.push(format!("{dir}: no PRIMAL block for {arg}"));
                    }
                }
                if super::checks::has_non_finite(&out) {
                    problems.push(format!("{dir}: non-finite output\n{out}"));
                }
                let again = case::check_roundtrip(&ctx, &out, &originals, &roots);
                if !again.is_empty() {
                    problems.push(details(&again));
                }
            }
            Err(f) => problems.push(f.to_string()),
        }
        // Central differences at the harness's point are well defined: steps h and 10h
        // agree and the derivative is not zero.
        let (text, _) = driver::derivative_driver(
            &u, spec, None, None, &ctx.check, &print, &ctx.types, &ctx.types,
        )
        .unwrap_or_else(|e| panic!("{dir}: {e}"));
        match case::build_and_run(&ctx, "fd", "fd_only", &text, &objects, "fd") {
            Ok(out) => {
                let expected = [super::checks::Expected {
                    kind: "fd-consistency",
                    root: root.to_string(),
                    tolerance: ctx.check.tolerance,
                }];
                for p in super::checks::evaluate(&out, &expected) {
                    problems.push(format!("{dir}: {p}"));
                }
                eprintln!("{dir}: {}", out.trim());
            }
            Err(f) => problems.push(f.to_string()),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
