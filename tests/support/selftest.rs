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
    let work = tempfile::tempdir().unwrap();
    let ctx = Context {
        name: "selftest".into(),
        work: work.path().to_path_buf(),
        check: config::parse_check("n = 5\n[extent]\nx = 5\n").unwrap(),
        print: &print,
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
            contents: ADJOINT.replace("WEIGHT", weight),
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
fn generated_code_with_warnings_is_rejected() {
    let work = tempfile::tempdir().unwrap();
    let ctx = Context {
        name: "selftest".into(),
        work: work.path().to_path_buf(),
        check: Default::default(),
        print: &print,
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
