//! Exact-text tests of the Fortran back-end, and a check that gfortran accepts its output.

use super::writer::MAX_COLUMNS;
use super::*;
use crate::diag::{FileId, Span};
use crate::il::{
    Arg, Attr, BaseType, BinOp, Bound, Decl, DeclKind, DimSpec, Entity, Expr, ExprKind,
    ImplicitRule, Intent, Intrinsic, RealLit, Stmt, StmtKind, SymbolTable, TypeSpec, UnOp, Unit,
    UnitKind,
};

fn var(name: &str) -> Expr {
    Expr::var(name)
}
fn int(value: i64) -> Expr {
    Expr::int(value)
}
fn bin(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::binary(op, lhs, rhs)
}
fn neg(e: Expr) -> Expr {
    Expr::unary(UnOp::Neg, e)
}
fn paren(e: Expr) -> Expr {
    Expr::new(ExprKind::Paren(Box::new(e)))
}
fn index(name: &str, subs: Vec<Expr>) -> Expr {
    Expr::new(ExprKind::Index(name.to_string(), subs))
}
fn assign(lhs: Expr, rhs: Expr) -> Stmt {
    Stmt::generated(StmtKind::Assign { lhs, rhs })
}
fn call(name: &str, args: Vec<Arg>) -> Stmt {
    Stmt::generated(StmtKind::Call {
        name: name.to_string(),
        args,
    })
}
fn decl(kind: DeclKind) -> Decl {
    Decl {
        kind,
        span: Span::default(),
    }
}
fn entity(name: &str, dims: Option<Vec<DimSpec>>, init: Option<Expr>) -> Entity {
    Entity {
        name: name.to_string(),
        dims,
        init,
        span: Span::default(),
    }
}
fn dim(upper: Expr) -> DimSpec {
    DimSpec {
        lower: None,
        upper: Bound::Expr(upper),
    }
}
fn real8() -> TypeSpec {
    TypeSpec {
        kind: Some(int(8)),
        ..TypeSpec::simple(BaseType::Real)
    }
}
fn var_decl(spec: TypeSpec, attrs: Vec<Attr>, entities: Vec<Entity>) -> Decl {
    decl(DeclKind::Var {
        spec,
        attrs,
        entities,
    })
}
fn unit(kind: UnitKind, name: &str, args: &[&str], decls: Vec<Decl>, body: Vec<Stmt>) -> Unit {
    Unit {
        kind,
        name: name.to_string(),
        args: args.iter().map(|a| a.to_string()).collect(),
        result: None,
        explicit_result: false,
        prefix_type: None,
        leading_comments: Vec::new(),
        decls,
        body,
        symbols: SymbolTable::default(),
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

// ---------------------------------------------------------------- expressions

#[test]
fn spacing_and_left_associativity() {
    // 2*x*xd + y
    let e = bin(
        BinOp::Add,
        bin(BinOp::Mul, bin(BinOp::Mul, int(2), var("x")), var("xd")),
        var("y"),
    );
    assert_eq!(write_expr(&e), "2*x*xd + y");
    // (a - b) - c needs no parentheses, a - (b - c) does.
    let left = bin(BinOp::Sub, bin(BinOp::Sub, var("a"), var("b")), var("c"));
    assert_eq!(write_expr(&left), "a - b - c");
    let right = bin(BinOp::Sub, var("a"), bin(BinOp::Sub, var("b"), var("c")));
    assert_eq!(write_expr(&right), "a - (b - c)");
    let right_add = bin(BinOp::Add, var("a"), bin(BinOp::Add, var("b"), var("c")));
    assert_eq!(write_expr(&right_add), "a + (b + c)");
    let div = bin(BinOp::Div, var("a"), bin(BinOp::Mul, var("b"), var("c")));
    assert_eq!(write_expr(&div), "a/(b*c)");
    let div_left = bin(BinOp::Mul, bin(BinOp::Div, var("a"), var("b")), var("c"));
    assert_eq!(write_expr(&div_left), "a/b*c");
    let sum_times = bin(BinOp::Mul, bin(BinOp::Add, var("a"), var("b")), var("c"));
    assert_eq!(write_expr(&sum_times), "(a + b)*c");
}

#[test]
fn power_is_right_associative() {
    let right = bin(BinOp::Pow, var("a"), bin(BinOp::Pow, var("b"), var("c")));
    assert_eq!(write_expr(&right), "a**b**c");
    let left = bin(BinOp::Pow, bin(BinOp::Pow, var("a"), var("b")), var("c"));
    assert_eq!(write_expr(&left), "(a**b)**c");
    let times = bin(BinOp::Pow, bin(BinOp::Mul, var("a"), var("b")), int(2));
    assert_eq!(write_expr(&times), "(a*b)**2");
}

#[test]
fn unary_minus_never_follows_an_operator() {
    assert_eq!(
        write_expr(&bin(BinOp::Mul, var("a"), neg(var("b")))),
        "a*(-b)"
    );
    assert_eq!(
        write_expr(&bin(BinOp::Sub, var("a"), neg(var("b")))),
        "a - (-b)"
    );
    assert_eq!(
        write_expr(&bin(BinOp::Add, neg(var("a")), var("b"))),
        "-a + b"
    );
    assert_eq!(
        write_expr(&bin(BinOp::Mul, neg(var("a")), var("b"))),
        "(-a)*b"
    );
    assert_eq!(
        write_expr(&neg(bin(BinOp::Mul, var("a"), var("b")))),
        "-a*b"
    );
    assert_eq!(
        write_expr(&neg(bin(BinOp::Add, var("a"), var("b")))),
        "-(a + b)"
    );
    assert_eq!(write_expr(&neg(neg(var("a")))), "-(-a)");
    // -a**2 is -(a**2) in Fortran; (-a)**2 keeps its parentheses.
    assert_eq!(write_expr(&neg(bin(BinOp::Pow, var("a"), int(2)))), "-a**2");
    assert_eq!(
        write_expr(&bin(BinOp::Pow, neg(var("a")), int(2))),
        "(-a)**2"
    );
    assert_eq!(write_expr(&bin(BinOp::Pow, int(2), neg(int(1)))), "2**(-1)");
    // A sum that starts with a sign, on the right of an operator.
    let signed_sum = bin(BinOp::Add, neg(var("b")), var("c"));
    assert_eq!(
        write_expr(&bin(BinOp::Lt, var("a"), signed_sum.clone())),
        "a < (-b + c)"
    );
    assert_eq!(
        write_expr(&bin(BinOp::Lt, signed_sum, var("a"))),
        "-b + c < a"
    );
    // Negative literals are signed operands too.
    let minus_two = Expr::real("-2.5", 8);
    assert_eq!(
        write_expr(&bin(BinOp::Mul, var("x"), minus_two.clone())),
        "x*(-2.5d0)"
    );
    assert_eq!(
        write_expr(&bin(BinOp::Mul, minus_two, var("x"))),
        "(-2.5d0)*x"
    );
    assert_eq!(
        write_expr(&bin(
            BinOp::Add,
            var("x"),
            Expr::new(ExprKind::Int("-3".into()))
        )),
        "x + (-3)"
    );
}

#[test]
fn explicit_parentheses_are_kept() {
    let e = bin(
        BinOp::Add,
        var("a"),
        paren(bin(BinOp::Mul, var("b"), var("c"))),
    );
    assert_eq!(write_expr(&e), "a + (b*c)");
    assert_eq!(write_expr(&paren(paren(var("x")))), "((x))");
}

#[test]
fn logical_and_relational_operators() {
    let cmp = |op, a: &str, b: &str| bin(op, var(a), var(b));
    let e = bin(
        BinOp::Or,
        bin(
            BinOp::And,
            cmp(BinOp::Lt, "a", "b"),
            cmp(BinOp::Ge, "c", "d"),
        ),
        Expr::unary(UnOp::Not, var("l")),
    );
    assert_eq!(write_expr(&e), "a < b .and. c >= d .or. .not. l");
    let grouped = bin(BinOp::And, var("p"), bin(BinOp::Or, var("q"), var("r")));
    assert_eq!(write_expr(&grouped), "p .and. (q .or. r)");
    let not_and = Expr::unary(UnOp::Not, bin(BinOp::And, var("p"), var("q")));
    assert_eq!(write_expr(&not_and), ".not. (p .and. q)");
    let not_not = Expr::unary(UnOp::Not, Expr::unary(UnOp::Not, var("p")));
    assert_eq!(write_expr(&not_not), ".not. (.not. p)");
    let not_cmp = Expr::unary(UnOp::Not, cmp(BinOp::Eq, "i", "j"));
    assert_eq!(write_expr(&not_cmp), ".not. i == j");
    let all = [
        (BinOp::Eq, "=="),
        (BinOp::Ne, "/="),
        (BinOp::Lt, "<"),
        (BinOp::Le, "<="),
        (BinOp::Gt, ">"),
        (BinOp::Ge, ">="),
    ];
    for (op, text) in all {
        assert_eq!(write_expr(&cmp(op, "x", "y")), format!("x {text} y"));
    }
    let eqv = bin(BinOp::Eqv, var("p"), bin(BinOp::Neqv, var("q"), var("r")));
    assert_eq!(write_expr(&eqv), "p .eqv. (q .neqv. r)");
    let sum_cmp = bin(BinOp::Gt, bin(BinOp::Add, var("a"), int(1)), int(0));
    assert_eq!(write_expr(&sum_cmp), "a + 1 > 0");
    let cat = bin(
        BinOp::Concat,
        Expr::new(ExprKind::Str("it's".into())),
        var("s"),
    );
    assert_eq!(write_expr(&cat), "'it''s' // s");
}

#[test]
fn literals() {
    let real = |value: &str, kind| write_expr(&Expr::real(value, kind));
    assert_eq!(real("2", 8), "2.0d0");
    assert_eq!(real("2.5", 8), "2.5d0");
    assert_eq!(real("1e-3", 8), "1.0d-3");
    assert_eq!(real("1.5E+10", 8), "1.5d10");
    assert_eq!(real("3.", 8), "3.0d0");
    assert_eq!(real("2", 4), "2.0");
    assert_eq!(real("0.5", 4), "0.5");
    assert_eq!(real("1e-3", 4), "1.0e-3");
    assert_eq!(real("1.5", 16), "1.5_16");
    let spelled = Expr::new(ExprKind::Real(RealLit {
        value: "1.5".into(),
        kind: 8,
        spelling: Some("1.5D0".into()),
    }));
    assert_eq!(write_expr(&spelled), "1.5D0");
    assert_eq!(write_expr(&Expr::new(ExprKind::Int("42_8".into()))), "42_8");
    assert_eq!(write_expr(&Expr::new(ExprKind::Logical(true))), ".true.");
    assert_eq!(write_expr(&Expr::new(ExprKind::Logical(false))), ".false.");
    assert_eq!(
        write_expr(&Expr::new(ExprKind::Str("a'b".into()))),
        "'a''b'"
    );
}

#[test]
fn calls_and_intrinsics() {
    let e = Expr::intrinsic(Intrinsic::Atan2, vec![var("y"), var("x")]);
    assert_eq!(write_expr(&e), "atan2(y, x)");
    let spelled = Expr::new(ExprKind::Intrinsic {
        op: Intrinsic::Sqrt,
        args: vec![Arg::positional(var("x"))],
        spelling: Some("DSQRT".into()),
    });
    assert_eq!(write_expr(&spelled), "DSQRT(x)");
    let real = Expr::new(ExprKind::Intrinsic {
        op: Intrinsic::Real,
        args: vec![
            Arg::positional(var("n")),
            Arg {
                keyword: Some("kind".into()),
                value: int(8),
            },
        ],
        spelling: None,
    });
    assert_eq!(write_expr(&real), "real(n, kind=8)");
    let f = Expr::new(ExprKind::Call("f".into(), vec![]));
    assert_eq!(write_expr(&f), "f()");
    let element = index("a", vec![var("i"), bin(BinOp::Add, var("j"), int(1))]);
    assert_eq!(write_expr(&element), "a(i, j + 1)");
    let names = [
        (Intrinsic::Sin, "sin"),
        (Intrinsic::Log10, "log10"),
        (Intrinsic::Dble, "dble"),
        (Intrinsic::Nint, "nint"),
        (Intrinsic::Floor, "floor"),
    ];
    for (op, name) in names {
        assert_eq!(
            write_expr(&Expr::intrinsic(op, vec![var("x")])),
            format!("{name}(x)")
        );
    }
}

// ---------------------------------------------------------------- declarations

#[test]
fn type_specs() {
    assert_eq!(
        write_type_spec(&TypeSpec::simple(BaseType::Integer)),
        "integer"
    );
    assert_eq!(
        write_type_spec(&TypeSpec::simple(BaseType::DoublePrecision)),
        "double precision"
    );
    assert_eq!(write_type_spec(&real8()), "real(8)");
    let dp = TypeSpec {
        kind: Some(var("dp")),
        kind_keyword: true,
        ..TypeSpec::simple(BaseType::Real)
    };
    assert_eq!(write_type_spec(&dp), "real(kind=dp)");
    let star = TypeSpec {
        star: Some(8),
        ..TypeSpec::simple(BaseType::Real)
    };
    assert_eq!(write_type_spec(&star), "real*8");
    let chars = TypeSpec {
        char_len: Some("*".into()),
        ..TypeSpec::simple(BaseType::Character)
    };
    assert_eq!(write_type_spec(&chars), "character(len=*)");
    let chars = TypeSpec {
        char_len: Some("len=10".into()),
        ..TypeSpec::simple(BaseType::Character)
    };
    assert_eq!(write_type_spec(&chars), "character(len=10)");
    assert_eq!(
        write_type_spec(&TypeSpec::simple(BaseType::Logical)),
        "logical"
    );
}

#[test]
fn dims() {
    let dims = [
        DimSpec {
            lower: Some(int(0)),
            upper: Bound::Expr(bin(BinOp::Add, var("n"), int(1))),
        },
        DimSpec {
            lower: None,
            upper: Bound::Star,
        },
    ];
    assert_eq!(write_dims(&dims), "(0:n + 1, *)");
    assert_eq!(write_dims(&[dim(var("n"))]), "(n)");
}

#[test]
fn every_declaration_kind() {
    let decls = vec![
        decl(DeclKind::Use {
            module: "adgen_runtime".into(),
            only: None,
            renames: vec![],
        }),
        decl(DeclKind::Use {
            module: "m".into(),
            only: Some(vec!["a".into(), "b".into()]),
            renames: vec![("b".into(), "c".into())],
        }),
        decl(DeclKind::Implicit(vec![])),
        decl(DeclKind::Implicit(vec![
            ImplicitRule {
                spec: TypeSpec::simple(BaseType::DoublePrecision),
                ranges: vec![('a', 'h'), ('o', 'z')],
            },
            ImplicitRule {
                spec: TypeSpec::simple(BaseType::Integer),
                ranges: vec![('i', 'n')],
            },
        ])),
        var_decl(
            real8(),
            vec![Attr::Intent(Intent::In)],
            vec![
                entity("x", Some(vec![dim(var("n"))]), None),
                entity("y", None, Some(Expr::real("1", 4))),
            ],
        ),
        var_decl(
            TypeSpec::simple(BaseType::Integer),
            vec![Attr::Parameter],
            vec![entity("n", None, Some(int(10)))],
        ),
        var_decl(
            real8(),
            vec![Attr::Dimension(vec![dim(int(3))]), Attr::Save],
            vec![entity("w", None, None)],
        ),
        var_decl(
            real8(),
            vec![Attr::Intent(Intent::Out), Attr::External, Attr::Intrinsic],
            vec![entity("g", None, None)],
        ),
        var_decl(
            real8(),
            vec![Attr::Intent(Intent::InOut)],
            vec![entity("z", None, None)],
        ),
        decl(DeclKind::Parameter(vec![
            ("n".into(), int(10)),
            ("m".into(), bin(BinOp::Mul, int(2), var("n"))),
        ])),
        decl(DeclKind::Dimension(vec![
            entity("a", Some(vec![dim(var("n"))]), None),
            entity("b", Some(vec![dim(int(10))]), None),
        ])),
        decl(DeclKind::Intent(Intent::In, vec!["a".into(), "b".into()])),
        decl(DeclKind::External(vec!["f".into(), "g".into()])),
        decl(DeclKind::Intrinsic(vec!["sin".into()])),
        decl(DeclKind::Comment(" a comment".into())),
        decl(DeclKind::Comment("another".into())),
    ];
    let text = write_unit(&unit(UnitKind::Subroutine, "s", &[], decls, vec![]));
    assert_eq!(
        text,
        "subroutine s()
  use adgen_runtime
  use m, only: a, b => c
  implicit none
  implicit double precision (a-h, o-z), integer (i-n)
  real(8), intent(in) :: x(n), y = 1.0
  integer, parameter :: n = 10
  real(8), dimension(3), save :: w
  real(8), intent(out), external, intrinsic :: g
  real(8), intent(inout) :: z
  parameter (n = 10, m = 2*n)
  dimension a(n), b(10)
  intent(in) :: a, b
  external f, g
  intrinsic sin
  ! a comment
  ! another
end subroutine s
"
    );
}

#[test]
fn single_declarations_at_an_indentation() {
    let d = var_decl(
        real8(),
        vec![],
        vec![entity("xb", Some(vec![dim(var("n"))]), None)],
    );
    assert_eq!(write_decl(&d, 1), "  real(8) :: xb(n)\n");
    assert_eq!(
        write_decl(&decl(DeclKind::Comment("note".into())), 2),
        "    ! note\n"
    );
}

// ---------------------------------------------------------------- statements

fn labelled(mut stmt: Stmt, label: &str) -> Stmt {
    stmt.label = Some(label.into());
    stmt
}

fn commented(mut stmt: Stmt, comment: &str) -> Stmt {
    stmt.trailing_comment = Some(comment.into());
    stmt
}

#[test]
fn every_statement_kind() {
    let body = vec![
        Stmt::generated(StmtKind::Comment(" start".into())),
        commented(
            assign(var("y"), bin(BinOp::Mul, int(2), var("x"))),
            "double it",
        ),
        Stmt::generated(StmtKind::If {
            arms: vec![
                (
                    bin(BinOp::Gt, var("x"), int(0)),
                    vec![assign(var("s"), int(1))],
                ),
                (
                    bin(BinOp::Lt, var("x"), int(0)),
                    vec![assign(var("s"), neg(int(1)))],
                ),
            ],
            else_body: Some(vec![assign(var("s"), int(0))]),
            logical_if: false,
            name: None,
        }),
        Stmt::generated(StmtKind::If {
            arms: vec![(var("flag"), vec![Stmt::generated(StmtKind::Return)])],
            else_body: None,
            logical_if: true,
            name: None,
        }),
        Stmt::generated(StmtKind::If {
            arms: vec![(var("flag"), vec![])],
            else_body: None,
            logical_if: false,
            name: Some("check".into()),
        }),
        Stmt::generated(StmtKind::Do {
            var: "i".into(),
            start: Box::new(int(1)),
            end: Box::new(var("n")),
            step: None,
            body: vec![Stmt::generated(StmtKind::Do {
                var: "j".into(),
                start: Box::new(var("n")),
                end: Box::new(int(1)),
                step: Some(Box::new(neg(int(1)))),
                body: vec![
                    Stmt::generated(StmtKind::Cycle { name: None }),
                    Stmt::generated(StmtKind::Exit {
                        name: Some("outer".into()),
                    }),
                ],
                name: None,
            })],
            name: Some("outer".into()),
        }),
        Stmt::generated(StmtKind::DoWhile {
            cond: bin(BinOp::Lt, var("k"), int(10)),
            body: vec![
                assign(var("k"), bin(BinOp::Add, var("k"), int(1))),
                Stmt::generated(StmtKind::Cycle {
                    name: Some("w".into()),
                }),
                Stmt::generated(StmtKind::Exit { name: None }),
            ],
            name: Some("w".into()),
        }),
        call(
            "f",
            vec![
                Arg::positional(var("a")),
                Arg {
                    keyword: Some("k".into()),
                    value: var("b"),
                },
            ],
        ),
        call("g", vec![]),
        labelled(Stmt::generated(StmtKind::Continue), "10"),
        Stmt::generated(StmtKind::Return),
    ];
    let text = write_unit(&unit(UnitKind::Subroutine, "s", &["x", "y"], vec![], body));
    assert_eq!(
        text,
        "subroutine s(x, y)
  ! start
  y = 2*x ! double it
  if (x > 0) then
    s = 1
  else if (x < 0) then
    s = -1
  else
    s = 0
  end if
  if (flag) return
  check: if (flag) then
  end if check
  outer: do i = 1, n
    do j = n, 1, -1
      cycle
      exit outer
    end do
  end do outer
  w: do while (k < 10)
    k = k + 1
    cycle w
    exit
  end do w
  call f(a, k=b)
  call g()
10 continue
  return
end subroutine s
"
    );
}

#[test]
fn labels_align_with_deeper_statements() {
    let stmt = labelled(Stmt::generated(StmtKind::Continue), "100");
    assert_eq!(write_stmt(&stmt, 3), "100   continue\n");
    assert_eq!(write_stmt(&stmt, 1), "100 continue\n");
    let looped = labelled(
        Stmt::generated(StmtKind::DoWhile {
            cond: var("p"),
            body: vec![],
            name: None,
        }),
        "20",
    );
    assert_eq!(write_stmt(&looped, 2), "20  do while (p)\n    end do\n");
}

#[test]
fn logical_if_falls_back_to_a_block_when_its_shape_does_not_allow_one() {
    let stmt = Stmt::generated(StmtKind::If {
        arms: vec![(
            var("p"),
            vec![Stmt::generated(StmtKind::Do {
                var: "i".into(),
                start: Box::new(int(1)),
                end: Box::new(int(2)),
                step: None,
                body: vec![],
                name: None,
            })],
        )],
        else_body: None,
        logical_if: true,
        name: None,
    });
    assert_eq!(
        write_stmt(&stmt, 0),
        "if (p) then\n  do i = 1, 2\n  end do\nend if\n"
    );
}

#[test]
fn functions_and_files() {
    let mut f = unit(
        UnitKind::Function,
        "g",
        &["x"],
        vec![var_decl(
            real8(),
            vec![Attr::Intent(Intent::In)],
            vec![entity("x", None, None)],
        )],
        vec![assign(
            var("y"),
            Expr::intrinsic(Intrinsic::Sin, vec![var("x")]),
        )],
    );
    f.result = Some("y".into());
    f.explicit_result = true;
    f.prefix_type = Some(real8());
    f.leading_comments = vec![" the sine".into()];
    let mut h = unit(
        UnitKind::Function,
        "h",
        &[],
        vec![],
        vec![assign(var("h"), int(1))],
    );
    h.result = Some("h".into());
    let file = crate::il::File {
        file: FileId(0),
        language: crate::il::Language::Fortran,
        path: "src/g.f90".into(),
        units: vec![f, h],
        warnings: Vec::new(),
    };
    assert_eq!(
        write_file(&file),
        "! @generated by adgen from src/g.f90. Do not edit.

! the sine
real(8) function g(x) result(y)
  real(8), intent(in) :: x

  y = sin(x)
end function g

function h()
  h = 1
end function h
"
    );
}

#[test]
fn comments_keep_their_text_and_split_on_newlines() {
    let block = [
        Stmt::generated(StmtKind::Comment("first\nsecond".into())),
        Stmt::generated(StmtKind::Comment("$AD NOCHECKPOINT".into())),
        Stmt::generated(StmtKind::Comment(String::new())),
        commented(assign(var("X"), var("Y")), "two\nlines"),
    ];
    let text: String = block.iter().map(|s| write_stmt(s, 1)).collect();
    assert_eq!(
        text,
        "  ! first\n  ! second\n  !$AD NOCHECKPOINT\n  !\n  ! two\n  ! lines\n  X = Y\n"
    );
}

// ---------------------------------------------------------------- long lines

fn long_sum(terms: usize) -> Expr {
    (1..terms).fold(var("term_0"), |acc, i| {
        bin(
            BinOp::Add,
            acc,
            bin(BinOp::Mul, var(&format!("coefficient_{i}")), var("x")),
        )
    })
}

#[test]
fn long_lines_are_continued() {
    let stmt = assign(var("y"), long_sum(20));
    let text = write_stmt(&stmt, 1);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 2, "{text}");
    for (i, line) in lines.iter().enumerate() {
        assert!(line.len() <= 100, "line too long: {line}");
        if i + 1 < lines.len() {
            assert!(line.ends_with(" &"), "{line}");
        }
        if i > 0 {
            assert!(
                line.starts_with("      ") && !line.starts_with("       "),
                "{line}"
            );
        }
    }
    // Joining the pieces gives back the one-line statement.
    let joined = lines
        .iter()
        .map(|l| l.trim().trim_end_matches('&').trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(joined, format!("y = {}", write_expr(&long_sum(20))));
}

#[test]
fn long_argument_lists_break_after_commas() {
    let args = (0..14)
        .map(|i| Arg::positional(var(&format!("argument_{i}"))))
        .collect();
    let text = write_stmt(&call("a_procedure_with_many_arguments", args), 0);
    let first = text.lines().next().expect("at least one line");
    assert!(first.ends_with(", &"), "{text}");
    assert!(text.lines().all(|l| l.len() <= 100), "{text}");
}

#[test]
fn long_products_without_blanks_break_after_an_operator() {
    // A product printed without blanks (`a*b/c*...`) longer than a line: no space to
    // break at, so the break falls after a `*` or `/` (never inside `**`).
    let product = (1..30).fold(var("factor_0"), |acc, i| {
        let op = if i % 3 == 0 { BinOp::Div } else { BinOp::Mul };
        bin(
            op,
            acc,
            bin(BinOp::Pow, var(&format!("factor_{i}")), var("p")),
        )
    });
    let stmt = assign(var("y"), product.clone());
    let text = write_stmt(&stmt, 1);
    assert!(text.lines().count() > 2, "{text}");
    assert!(text.lines().all(|l| l.len() <= 132), "{text}");
    for line in text.lines().take(text.lines().count() - 1) {
        assert!(
            line.ends_with("* &") || line.ends_with("/ &") || line.ends_with("= &"),
            "{line}"
        );
        assert!(!line.ends_with("** &"), "{line}");
    }
    let joined: String = text
        .lines()
        .map(|l| l.trim().trim_end_matches('&').trim().to_string())
        .collect::<Vec<_>>()
        .join("");
    assert_eq!(
        joined.replace(' ', ""),
        format!("y={}", write_expr(&product)).replace(' ', "")
    );
}

#[test]
fn constants_longer_than_a_line_are_split_inside_the_token() {
    let digits = format!("0.{}_wp", "18343464249564980493".repeat(15));
    let stmt = assign(
        var("x1"),
        Expr::new(ExprKind::Real(crate::il::RealLit {
            value: "0.18343464249564980493".into(),
            kind: 8,
            spelling: Some(digits.clone().into()),
        })),
    );
    let text = write_stmt(&stmt, 1);
    assert!(text.lines().count() > 2, "{text}");
    assert!(text.lines().all(|l| l.len() <= 132), "{text}");
    // Inside the constant, a line ends in `&` right after a digit and the next begins
    // with `&` right before the rest: Fortran joins them with nothing in between.
    let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
    assert_eq!(lines[0], "x1 = &", "{text}");
    assert!(
        lines[1..lines.len() - 1]
            .iter()
            .all(|l| l.ends_with(|c: char| c.is_ascii_digit() || c == '&'))
    );
    let joined: String = lines[1..]
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let l = if i > 0 {
                l.strip_prefix('&').expect("token continuation")
            } else {
                l
            };
            l.strip_suffix('&').unwrap_or(l).to_string()
        })
        .collect();
    assert_eq!(joined, digits);
}

#[test]
fn long_strings_are_split_inside_the_literal() {
    let message = "x".repeat(150) + "'quoted'";
    let stmt = call(
        "report",
        vec![Arg::positional(Expr::new(ExprKind::Str(message.clone())))],
    );
    let text = write_stmt(&stmt, 0);
    assert!(text.lines().all(|l| l.len() <= 132), "{text}");
    // Fortran joins `...&` and `&...` with nothing in between.
    let joined: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let l = if i > 0 {
                l.trim_start()
                    .strip_prefix('&')
                    .expect("string continuation")
            } else {
                l
            };
            l.strip_suffix('&').unwrap_or(l).to_string()
        })
        .collect();
    assert_eq!(
        joined,
        format!("call report('{}')", message.replace('\'', "''"))
    );
}

#[test]
fn long_comments_are_wrapped() {
    let words = vec!["word"; 40].join(" ");
    let stmt = Stmt::generated(StmtKind::Comment(words));
    let text = write_stmt(&stmt, 1);
    assert!(text.lines().count() >= 2);
    assert!(
        text.lines()
            .all(|l| l.starts_with("  ! ") && l.len() <= 100),
        "{text}"
    );
    let long_trailing = commented(assign(var("x"), int(1)), &"note ".repeat(30));
    let text = write_stmt(&long_trailing, 0);
    assert!(text.ends_with("x = 1\n"), "{text}");
    assert!(text.lines().all(|l| l.len() <= 100), "{text}");
}

// ---------------------------------------------------------------- gfortran

/// A small unit using every statement kind, compiled by gfortran with `-Wall -Werror`.
#[test]
fn output_compiles_with_gfortran() {
    if std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("gfortran not found: skipping");
        return;
    }
    let decls = vec![
        decl(DeclKind::Comment(" arguments".into())),
        decl(DeclKind::Implicit(vec![])),
        var_decl(
            TypeSpec::simple(BaseType::Integer),
            vec![Attr::Intent(Intent::In)],
            vec![entity("n", None, None)],
        ),
        var_decl(
            real8(),
            vec![Attr::Intent(Intent::In)],
            vec![entity("x", Some(vec![dim(var("n"))]), None)],
        ),
        var_decl(
            real8(),
            vec![Attr::Intent(Intent::Out)],
            vec![entity("y", None, None)],
        ),
        var_decl(
            TypeSpec::simple(BaseType::Integer),
            vec![],
            vec![entity("i", None, None), entity("k", None, None)],
        ),
        var_decl(
            TypeSpec {
                star: Some(8),
                ..TypeSpec::simple(BaseType::Real)
            },
            vec![Attr::Parameter],
            vec![entity("half", None, Some(Expr::real("0.5", 8)))],
        ),
        var_decl(
            TypeSpec {
                char_len: Some("*".into()),
                ..TypeSpec::simple(BaseType::Character)
            },
            vec![Attr::Intent(Intent::In)],
            vec![entity("label", None, None)],
        ),
        var_decl(
            TypeSpec::simple(BaseType::DoublePrecision),
            vec![
                Attr::Dimension(vec![DimSpec {
                    lower: Some(int(0)),
                    upper: Bound::Expr(int(2)),
                }]),
                Attr::Save,
            ],
            vec![entity("history", None, None)],
        ),
        decl(DeclKind::External(vec!["report".into()])),
    ];
    let xi = index("x", vec![var("i")]);
    let body = vec![
        assign(var("y"), Expr::real("0", 8)),
        Stmt::generated(StmtKind::Do {
            var: "i".into(),
            start: Box::new(int(1)),
            end: Box::new(var("n")),
            step: None,
            body: vec![
                Stmt::generated(StmtKind::If {
                    arms: vec![(
                        bin(BinOp::Lt, xi.clone(), neg(Expr::real("1", 8))),
                        vec![Stmt::generated(StmtKind::Cycle {
                            name: Some("loop".into()),
                        })],
                    )],
                    else_body: None,
                    logical_if: true,
                    name: None,
                }),
                Stmt::generated(StmtKind::If {
                    arms: vec![
                        (
                            bin(BinOp::Gt, xi.clone(), Expr::real("0", 8)),
                            vec![assign(
                                var("y"),
                                bin(
                                    BinOp::Add,
                                    var("y"),
                                    bin(
                                        BinOp::Mul,
                                        var("half"),
                                        bin(BinOp::Pow, xi.clone(), neg(int(2))),
                                    ),
                                ),
                            )],
                        ),
                        (
                            bin(BinOp::Eq, xi.clone(), Expr::real("0", 8)),
                            vec![Stmt::generated(StmtKind::Exit {
                                name: Some("loop".into()),
                            })],
                        ),
                    ],
                    else_body: Some(vec![assign(
                        var("y"),
                        bin(
                            BinOp::Sub,
                            var("y"),
                            neg(Expr::intrinsic(Intrinsic::Sin, vec![xi.clone()])),
                        ),
                    )]),
                    logical_if: false,
                    name: Some("sign_test".into()),
                }),
            ],
            name: Some("loop".into()),
        }),
        assign(var("k"), int(0)),
        Stmt::generated(StmtKind::DoWhile {
            cond: bin(
                BinOp::And,
                bin(BinOp::Lt, var("k"), int(3)),
                Expr::unary(UnOp::Not, bin(BinOp::Gt, var("y"), Expr::real("1e10", 8))),
            ),
            body: vec![
                assign(var("k"), bin(BinOp::Add, var("k"), int(1))),
                commented(
                    assign(var("y"), bin(BinOp::Mul, var("y"), Expr::real("2", 8))),
                    "doubling",
                ),
            ],
            name: None,
        }),
        assign(var("y"), long_sum_of(&xi, 25)),
        assign(index("history", vec![int(0)]), var("y")),
        call(
            "report",
            vec![
                Arg::positional(bin(
                    BinOp::Concat,
                    var("label"),
                    Expr::new(ExprKind::Str(format!(
                        "it's {}",
                        "a long message ".repeat(12)
                    ))),
                )),
                Arg::positional(index("history", vec![int(0)])),
            ],
        ),
        Stmt::generated(StmtKind::Continue),
        Stmt::generated(StmtKind::Return),
    ];
    let mut sub = unit(
        UnitKind::Subroutine,
        "every_statement",
        &["n", "x", "y", "label"],
        decls,
        body,
    );
    sub.leading_comments = vec![" compiled by gfortran in the tests".into()];
    let mut func = unit(
        UnitKind::Function,
        "cube",
        &["t"],
        vec![
            var_decl(
                real8(),
                vec![Attr::Intent(Intent::In)],
                vec![entity("t", None, None)],
            ),
            var_decl(real8(), vec![], vec![entity("r", None, None)]),
        ],
        vec![assign(var("r"), bin(BinOp::Pow, var("t"), int(3)))],
    );
    func.result = Some("r".into());
    func.explicit_result = true;
    let file = crate::il::File {
        file: FileId(0),
        language: crate::il::Language::Fortran,
        path: "every.f90".into(),
        units: vec![sub, func],
        warnings: Vec::new(),
    };
    let text = write_file(&file);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let source = dir.path().join("every.f90");
    std::fs::write(&source, &text).expect("write the Fortran source");
    let output = std::process::Command::new("gfortran")
        .args(["-c", "-Wall", "-Werror"])
        .arg(&source)
        .arg("-o")
        .arg(dir.path().join("every.o"))
        .current_dir(dir.path())
        .output()
        .expect("run gfortran");
    assert!(
        text.contains("&\n"),
        "a long line was meant to be split:\n{text}"
    );
    assert!(text.lines().all(|l| l.len() <= MAX_COLUMNS), "{text}");
    assert!(
        output.status.success(),
        "gfortran rejected:\n{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn long_sum_of(term: &Expr, terms: usize) -> Expr {
    (1..terms).fold(var("y"), |acc, i| {
        bin(
            BinOp::Add,
            acc,
            bin(BinOp::Mul, Expr::real(&format!("{i}.25"), 8), term.clone()),
        )
    })
}
