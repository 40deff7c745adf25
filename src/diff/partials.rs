//! Linearization of an expression (seeds/000 §4.3): the list of its active leaves with the
//! partial derivative of the expression with respect to each, so that
//! `ė = Σ ± coeff·leaḟ` (tangent) and `leaf̄ += ± coeff·ē` (adjoint). This is the one
//! intrinsic derivative table of adgen; it is written on the IL and is language-neutral.
//!
//! COMPLEX values (Tapenade's model, seeds/000 §4.3 over ℂ seen as ℝ²): a holomorphic
//! operation keeps the real rule (`d(z·w) = ż·w + z·ẇ`), and its adjoint multiplies by the
//! conjugate partial (`z̄ += conjg(w)·ū`, the adjoint for the real inner product
//! `Re(conjg(u)·v)`). The operations that are only real-linear, `real`, `aimag`, `conjg`
//! and `abs` of a complex, make a term's contribution `outer·P(coeff·K(leaḟ))`, P a
//! projection on the real or imaginary part, K a conjugation or nothing
//! ([`ComplexPath`]); its adjoint is `K(conjg(coeff)·P*(Re(conjg(outer)·ū)))`, with
//! `Re* r = r` and `Im* r = i·r`. Real code never makes one.

use crate::il::{BinOp, Expr, ExprKind, Intrinsic, UnOp};

/// One active leaf (a variable or array element) and its partial derivative.
#[derive(Clone, Debug)]
pub struct Term {
    pub leaf: Expr,
    /// `None` stands for 1.
    pub coeff: Option<Expr>,
    pub negative: bool,
    /// How a complex computation reaches the leaf, when it is not a plain product.
    pub complex: Option<Box<ComplexPath>>,
}

/// The real-linear (not complex-linear) part of a term's path: its tangent contribution
/// is `outer·P(coeff·K(leaḟ))`.
#[derive(Clone, Debug, Default)]
pub struct ComplexPath {
    /// K: the leaf's derivative enters conjugated.
    pub conj: bool,
    /// P: the real (`real`) or imaginary (`aimag`) part of `coeff·K(leaḟ)`.
    pub part: Option<Part>,
    /// The factor applied after P; `None` stands for 1.
    pub outer: Option<Expr>,
}

/// A part of a complex number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Re,
    Im,
}

/// What linearization needs to know about the expression's context.
pub trait LeafInfo {
    /// The leaf (a `Var` or `Index`) has a non-trivial derivative here.
    fn is_active(&self, leaf: &Expr) -> bool;
    /// The real kind (4 or 8) of an expression, for the constants partials introduce.
    fn kind_of(&self, expr: &Expr) -> u8;
    /// The expression is of an integer type (a divisor that would make `1/n` an integer
    /// division).
    fn is_integer(&self, expr: &Expr) -> bool;
    /// The expression is COMPLEX.
    fn is_complex(&self, _expr: &Expr) -> bool {
        false
    }
}

/// The terms of `expr`'s derivative, leaves that appear several times merged.
pub fn linearize(expr: &Expr, info: &dyn LeafInfo) -> Vec<Term> {
    let mut terms = Vec::new();
    walk(expr, None, false, info, &mut terms);
    merge_same_leaves(terms)
}

/// True when `expr` may have an active leaf in a differentiable position: whenever
/// [`linearize`] gives a term (a superset: an intrinsic counts every argument it may
/// differentiate). One visit of each node, building nothing, so that [`walk`] may ask it
/// at every product without its cost growing with the depth of the expression.
pub fn is_active(expr: &Expr, info: &dyn LeafInfo) -> bool {
    match &expr.kind {
        ExprKind::Var(_) | ExprKind::Index(..) => info.is_active(expr),
        ExprKind::Paren(e) | ExprKind::Unary(UnOp::Neg | UnOp::Plus, e) => is_active(e, info),
        ExprKind::Binary(op, a, b) if op.is_arithmetic() => {
            is_active(a, info) || is_active(b, info)
        }
        ExprKind::Intrinsic { op, args, .. } => {
            let differentiated = match op {
                _ if op.is_passive() => 0,
                Intrinsic::Sign | Intrinsic::Real => 1,
                Intrinsic::Merge => 2,
                _ => args.len(),
            };
            args.iter()
                .take(differentiated)
                .any(|a| is_active(&a.value, info))
        }
        _ => false,
    }
}

fn mul(coeff: Option<Expr>, factor: Expr) -> Option<Expr> {
    Some(match coeff {
        None => factor,
        Some(c) => Expr::binary(BinOp::Mul, c, factor),
    })
}

fn div(coeff: Option<Expr>, divisor: Expr) -> Option<Expr> {
    Some(Expr::binary(
        BinOp::Div,
        coeff.unwrap_or_else(|| Expr::int(1)),
        divisor,
    ))
}

fn paren(e: &Expr) -> Expr {
    match e.kind {
        ExprKind::Var(_)
        | ExprKind::Index(..)
        | ExprKind::Int(_)
        | ExprKind::Real(_)
        | ExprKind::Intrinsic { .. }
        | ExprKind::Call(..)
        | ExprKind::Paren(_) => e.clone(),
        _ => Expr::new(ExprKind::Paren(Box::new(e.clone()))),
    }
}

fn call(op: Intrinsic, args: Vec<Expr>) -> Expr {
    Expr::intrinsic(op, args)
}

fn real(value: &str, kind: u8) -> Expr {
    Expr::real(value, kind)
}

fn pow2(e: &Expr) -> Expr {
    Expr::binary(BinOp::Pow, paren(e), Expr::int(2))
}

fn walk(
    expr: &Expr,
    coeff: Option<Expr>,
    negative: bool,
    info: &dyn LeafInfo,
    out: &mut Vec<Term>,
) {
    match &expr.kind {
        ExprKind::Var(_) | ExprKind::Index(..) if info.is_active(expr) => {
            out.push(Term {
                leaf: expr.clone(),
                coeff,
                negative,
                complex: None,
            });
        }
        ExprKind::Paren(e) => walk(e, coeff, negative, info, out),
        ExprKind::Unary(UnOp::Neg, e) => walk(e, coeff, !negative, info, out),
        ExprKind::Unary(UnOp::Plus, e) => walk(e, coeff, negative, info, out),
        ExprKind::Binary(op, a, b) => {
            // Sums need no activity test: each side gives its own terms.
            let needs_test = matches!(op, BinOp::Mul | BinOp::Div | BinOp::Pow);
            let (a_act, b_act) = if needs_test {
                (is_active(a, info), is_active(b, info))
            } else {
                (false, false)
            };
            match op {
                BinOp::Add => {
                    walk(a, coeff.clone(), negative, info, out);
                    walk(b, coeff, negative, info, out);
                }
                BinOp::Sub => {
                    walk(a, coeff.clone(), negative, info, out);
                    walk(b, coeff, !negative, info, out);
                }
                BinOp::Mul => {
                    if a_act {
                        walk(a, mul(coeff.clone(), paren(b)), negative, info, out);
                    }
                    if b_act {
                        walk(b, mul(coeff, paren(a)), negative, info, out);
                    }
                }
                BinOp::Div => {
                    if a_act {
                        // d(a/b)/da = 1/b, where an integer b must be made real: `1/n`
                        // would be an integer division (0 for n > 1). So must a b of a
                        // lower kind than a's: `a/3.0` divides in a's kind, but `1/3.0`
                        // would divide in single precision (a relative error of 3e-8 in
                        // every derivative of a double precision `x/3.0`).
                        let lower_kind = !info.is_complex(a)
                            && !info.is_complex(b)
                            && info.kind_of(b) < info.kind_of(a);
                        let divisor = if info.is_integer(b) || lower_kind {
                            let k = info.kind_of(a);
                            Expr::intrinsic(
                                Intrinsic::Real,
                                vec![(**b).clone(), Expr::int(k as i64)],
                            )
                        } else {
                            paren(b)
                        };
                        walk(a, div(coeff.clone(), divisor), negative, info, out);
                    }
                    if b_act {
                        // d(a/b)/db = -a/b**2, written a/b/b: the square of a large or
                        // small b would overflow or underflow where a/b does not (MINPACK's
                        // scaled norms divide by values near 1e±160 on purpose).
                        let partial = Expr::binary(
                            BinOp::Div,
                            Expr::binary(BinOp::Div, paren(a), paren(b)),
                            paren(b),
                        );
                        walk(b, mul(coeff, partial), !negative, info, out);
                    }
                }
                BinOp::Pow => {
                    if a_act {
                        walk(
                            a,
                            mul(coeff.clone(), power_partial(a, b)),
                            negative,
                            info,
                            out,
                        );
                    }
                    if b_act {
                        // d(a**b)/db = a**b * log(a)
                        let partial = Expr::binary(
                            BinOp::Mul,
                            Expr::binary(BinOp::Pow, paren(a), paren(b)),
                            call(Intrinsic::Log, vec![(**a).clone()]),
                        );
                        walk(b, mul(coeff, partial), negative, info, out);
                    }
                }
                _ => {}
            }
        }
        ExprKind::Intrinsic { op, args, .. } => intrinsic(*op, args, coeff, negative, info, out),
        _ => {}
    }
}

/// d(a**b)/da = b*a**(b-1), simplified for integer and real literal exponents.
fn power_partial(a: &Expr, b: &Expr) -> Expr {
    let inner = match &b.kind {
        ExprKind::Paren(e) => e,
        _ => b,
    };
    match &inner.kind {
        ExprKind::Int(text) if text.parse::<i64>().is_ok() => {
            let n: i64 = text.parse().expect("checked above");
            match n {
                1 => Expr::int(1),
                2 => Expr::binary(BinOp::Mul, Expr::int(2), paren(a)),
                _ => Expr::binary(
                    BinOp::Mul,
                    Expr::int(n),
                    Expr::binary(BinOp::Pow, paren(a), Expr::int(n - 1)),
                ),
            }
        }
        ExprKind::Real(lit) if lit.value.parse::<f64>().is_ok() => {
            let v: f64 = lit.value.parse().expect("checked above");
            let exponent = Expr::new(ExprKind::Real(crate::il::RealLit {
                value: format_real(v - 1.0),
                kind: lit.kind,
                spelling: None,
            }));
            Expr::binary(
                BinOp::Mul,
                paren(b),
                Expr::binary(BinOp::Pow, paren(a), paren(&exponent)),
            )
        }
        _ => Expr::binary(
            BinOp::Mul,
            paren(b),
            Expr::binary(
                BinOp::Pow,
                paren(a),
                Expr::new(ExprKind::Paren(Box::new(Expr::binary(
                    BinOp::Sub,
                    b.clone(),
                    Expr::int(1),
                )))),
            ),
        ),
    }
}

/// A finite real value in the IL's plain form (`"-0.5"`, `"2.0"`, `"1e-07"`).
pub fn format_real(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

fn intrinsic(
    op: Intrinsic,
    args: &[crate::il::Arg],
    coeff: Option<Expr>,
    negative: bool,
    info: &dyn LeafInfo,
    out: &mut Vec<Term>,
) {
    let Some(a) = args.first().map(|a| &a.value) else {
        return;
    };
    let k = info.kind_of(a);
    let one = || real("1.0", k);
    let a_act = is_active(a, info);
    let single = |partial: Expr, neg: bool, out: &mut Vec<Term>| {
        if a_act {
            walk(a, mul(coeff.clone(), partial), negative ^ neg, info, out);
        }
    };
    match op {
        Intrinsic::Sin => single(call(Intrinsic::Cos, vec![a.clone()]), false, out),
        Intrinsic::Cos => single(call(Intrinsic::Sin, vec![a.clone()]), true, out),
        Intrinsic::Tan => single(
            Expr::binary(
                BinOp::Add,
                one(),
                pow2(&call(Intrinsic::Tan, vec![a.clone()])),
            ),
            false,
            out,
        ),
        Intrinsic::Asin | Intrinsic::Acos => single(
            Expr::binary(
                BinOp::Div,
                one(),
                call(
                    Intrinsic::Sqrt,
                    vec![Expr::binary(BinOp::Sub, one(), pow2(a))],
                ),
            ),
            op == Intrinsic::Acos,
            out,
        ),
        Intrinsic::Atan if args.len() == 1 => single(
            Expr::binary(BinOp::Div, one(), Expr::binary(BinOp::Add, one(), pow2(a))),
            false,
            out,
        ),
        Intrinsic::Atan | Intrinsic::Atan2 => {
            // atan2(a, b): d/da = b/(a²+b²), d/db = -a/(a²+b²)
            let Some(b) = args.get(1).map(|x| &x.value) else {
                return;
            };
            let denom = Expr::binary(BinOp::Add, pow2(a), pow2(b));
            if a_act {
                walk(
                    a,
                    mul(
                        coeff.clone(),
                        Expr::binary(BinOp::Div, paren(b), paren(&denom)),
                    ),
                    negative,
                    info,
                    out,
                );
            }
            if is_active(b, info) {
                walk(
                    b,
                    mul(coeff, Expr::binary(BinOp::Div, paren(a), paren(&denom))),
                    !negative,
                    info,
                    out,
                );
            }
        }
        Intrinsic::Sinh => single(call(Intrinsic::Cosh, vec![a.clone()]), false, out),
        Intrinsic::Cosh => single(call(Intrinsic::Sinh, vec![a.clone()]), false, out),
        Intrinsic::Tanh => single(
            Expr::binary(
                BinOp::Sub,
                one(),
                pow2(&call(Intrinsic::Tanh, vec![a.clone()])),
            ),
            false,
            out,
        ),
        Intrinsic::Exp => single(call(Intrinsic::Exp, vec![a.clone()]), false, out),
        Intrinsic::Asinh | Intrinsic::Acosh => {
            // 1/sqrt(a² + 1), 1/sqrt(a² - 1)
            let op = if op == Intrinsic::Asinh {
                BinOp::Add
            } else {
                BinOp::Sub
            };
            single(
                Expr::binary(
                    BinOp::Div,
                    one(),
                    call(Intrinsic::Sqrt, vec![Expr::binary(op, pow2(a), one())]),
                ),
                false,
                out,
            )
        }
        Intrinsic::Atanh => single(
            Expr::binary(
                BinOp::Div,
                one(),
                paren(&Expr::binary(BinOp::Sub, one(), pow2(a))),
            ),
            false,
            out,
        ),
        Intrinsic::Exp2 => single(
            Expr::binary(
                BinOp::Mul,
                call(Intrinsic::Exp2, vec![a.clone()]),
                call(Intrinsic::Log, vec![real("2.0", k)]),
            ),
            false,
            out,
        ),
        Intrinsic::Cbrt => single(
            // 1/(3 cbrt(a)²)
            Expr::binary(
                BinOp::Div,
                one(),
                Expr::binary(
                    BinOp::Mul,
                    Expr::int(3),
                    pow2(&call(Intrinsic::Cbrt, vec![a.clone()])),
                ),
            ),
            false,
            out,
        ),
        Intrinsic::Expm1 => single(call(Intrinsic::Exp, vec![a.clone()]), false, out),
        Intrinsic::Log1p => single(
            Expr::binary(
                BinOp::Div,
                one(),
                paren(&Expr::binary(BinOp::Add, one(), a.clone())),
            ),
            false,
            out,
        ),
        Intrinsic::Hypot => {
            // d/da = a/hypot(a, b), d/db = b/hypot(a, b)
            let Some(b) = args.get(1).map(|x| &x.value) else {
                return;
            };
            let h = call(Intrinsic::Hypot, vec![a.clone(), b.clone()]);
            if a_act {
                walk(
                    a,
                    mul(coeff.clone(), Expr::binary(BinOp::Div, paren(a), h.clone())),
                    negative,
                    info,
                    out,
                );
            }
            if is_active(b, info) {
                walk(
                    b,
                    mul(coeff, Expr::binary(BinOp::Div, paren(b), h)),
                    negative,
                    info,
                    out,
                );
            }
        }
        Intrinsic::Erf | Intrinsic::Erfc => single(
            // ±2/sqrt(pi) exp(-a²)
            Expr::binary(
                BinOp::Mul,
                real(&format_real(std::f64::consts::FRAC_2_SQRT_PI), k),
                call(Intrinsic::Exp, vec![Expr::unary(UnOp::Neg, pow2(a))]),
            ),
            op == Intrinsic::Erfc,
            out,
        ),
        Intrinsic::Gamma => single(
            // Γ(a) ψ(a)
            Expr::binary(
                BinOp::Mul,
                call(Intrinsic::Gamma, vec![a.clone()]),
                call(Intrinsic::Digamma, vec![a.clone()]),
            ),
            false,
            out,
        ),
        Intrinsic::LogGamma => single(call(Intrinsic::Digamma, vec![a.clone()]), false, out),
        Intrinsic::Log => single(Expr::binary(BinOp::Div, one(), paren(a)), false, out),
        Intrinsic::Log10 | Intrinsic::Log2 => {
            // 1/(a log(base))
            let base = if op == Intrinsic::Log10 {
                "10.0"
            } else {
                "2.0"
            };
            single(
                Expr::binary(
                    BinOp::Div,
                    one(),
                    Expr::binary(
                        BinOp::Mul,
                        paren(a),
                        call(Intrinsic::Log, vec![real(base, k)]),
                    ),
                ),
                false,
                out,
            )
        }
        Intrinsic::Sqrt => single(
            Expr::binary(
                BinOp::Div,
                one(),
                Expr::binary(
                    BinOp::Mul,
                    Expr::int(2),
                    call(Intrinsic::Sqrt, vec![a.clone()]),
                ),
            ),
            false,
            out,
        ),
        Intrinsic::Abs if info.is_complex(a) => {
            // |z|' = Re(conjg(z)·ż)/|z|
            let mut inner = Vec::new();
            walk(a, Some(conjg(a)), false, info, &mut inner);
            let outer = div(coeff, call(Intrinsic::Abs, vec![a.clone()]));
            through(inner, outer, negative, out, |t| project(t, Part::Re, info));
        }
        Intrinsic::Abs => single(call(Intrinsic::Sign, vec![one(), a.clone()]), false, out),
        Intrinsic::Sign => {
            // sign(a, b) = |a|·sgn(b): d/da = sign(1, a)·sign(1, b)
            let Some(b) = args.get(1).map(|x| &x.value) else {
                return;
            };
            let kb = info.kind_of(b);
            single(
                Expr::binary(
                    BinOp::Mul,
                    call(Intrinsic::Sign, vec![one(), a.clone()]),
                    call(Intrinsic::Sign, vec![real("1.0", kb), b.clone()]),
                ),
                false,
                out,
            );
        }
        Intrinsic::Max | Intrinsic::Min => {
            // Pairwise: the derivative follows the argument that wins.
            let cmp = if op == Intrinsic::Max {
                BinOp::Ge
            } else {
                BinOp::Le
            };
            let mut best = a.clone();
            let mut leaves: Vec<(Expr, Vec<Expr>)> = vec![(a.clone(), Vec::new())];
            for arg in &args[1..] {
                let b = &arg.value;
                let wins_old = Expr::binary(cmp, best.clone(), b.clone());
                for (_, conds) in leaves.iter_mut() {
                    conds.push(wins_old.clone());
                }
                let wins_new =
                    Expr::unary(UnOp::Not, Expr::new(ExprKind::Paren(Box::new(wins_old))));
                leaves.push((b.clone(), vec![wins_new]));
                best = Expr::intrinsic(op, vec![best, b.clone()]);
            }
            for (arg, conds) in leaves {
                if !is_active(&arg, info) {
                    continue;
                }
                let ka = info.kind_of(&arg);
                let mask = conds
                    .into_iter()
                    .reduce(|x, y| Expr::binary(BinOp::And, x, y))
                    .expect("every argument has at least one comparison");
                let partial = call(
                    Intrinsic::Merge,
                    vec![real("1.0", ka), real("0.0", ka), mask],
                );
                walk(&arg, mul(coeff.clone(), partial), negative, info, out);
            }
        }
        Intrinsic::Mod => {
            // mod(a, p) = a - int(a/p)*p
            single(Expr::int(1), false, out);
            if let Some(p) = args.get(1).map(|x| &x.value) {
                if is_active(p, info) {
                    let q = Expr::binary(
                        BinOp::Div,
                        Expr::new(ExprKind::Paren(Box::new(Expr::binary(
                            BinOp::Sub,
                            a.clone(),
                            call(Intrinsic::Mod, vec![a.clone(), p.clone()]),
                        )))),
                        paren(p),
                    );
                    walk(p, mul(coeff, q), !negative, info, out);
                }
            }
        }
        Intrinsic::Modulo => {
            // modulo(a, p) = a - floor(a/p)*p
            single(Expr::int(1), false, out);
            if let Some(p) = args.get(1).map(|x| &x.value) {
                if is_active(p, info) {
                    let q = Expr::binary(
                        BinOp::Div,
                        Expr::new(ExprKind::Paren(Box::new(Expr::binary(
                            BinOp::Sub,
                            a.clone(),
                            call(Intrinsic::Modulo, vec![a.clone(), p.clone()]),
                        )))),
                        paren(p),
                    );
                    walk(p, mul(coeff, q), !negative, info, out);
                }
            }
        }
        Intrinsic::Dble | Intrinsic::Real if info.is_complex(a) => {
            through(sub_terms(a, info), coeff, negative, out, |t| {
                project(t, Part::Re, info)
            })
        }
        Intrinsic::Aimag => through(sub_terms(a, info), coeff, negative, out, |t| {
            project(t, Part::Im, info)
        }),
        Intrinsic::Conjg => through(sub_terms(a, info), coeff, negative, out, |t| {
            Some(conjugate(t, info))
        }),
        Intrinsic::Cmplx | Intrinsic::ComplexPair => {
            // cmplx(x, y)' = ẋ + i·ẏ; cmplx(z) of a complex z only changes its kind.
            single(Expr::int(1), false, out);
            let y = args
                .get(1)
                .filter(|y| {
                    y.keyword
                        .as_deref()
                        .is_none_or(|k| k.eq_ignore_ascii_case("y"))
                })
                .map(|y| &y.value);
            if let Some(y) = y.filter(|y| is_active(y, info)) {
                walk(
                    y,
                    mul(coeff, imaginary_unit(info.kind_of(y))),
                    negative,
                    info,
                    out,
                );
            }
        }
        Intrinsic::Dble | Intrinsic::Real => single(Expr::int(1), false, out),
        Intrinsic::Merge => {
            if let (Some(b), Some(mask)) = (args.get(1), args.get(2)) {
                let ka = info.kind_of(a);
                if a_act {
                    let p = call(
                        Intrinsic::Merge,
                        vec![real("1.0", ka), real("0.0", ka), mask.value.clone()],
                    );
                    walk(a, mul(coeff.clone(), p), negative, info, out);
                }
                if is_active(&b.value, info) {
                    let p = call(
                        Intrinsic::Merge,
                        vec![real("0.0", ka), real("1.0", ka), mask.value.clone()],
                    );
                    walk(&b.value, mul(coeff, p), negative, info, out);
                }
            }
        }
        Intrinsic::Int | Intrinsic::Nint | Intrinsic::Floor => {}
        // Integer inquiries and locations: passive.
        Intrinsic::Maxloc
        | Intrinsic::Minloc
        | Intrinsic::Size
        | Intrinsic::Lbound
        | Intrinsic::Ubound
        | Intrinsic::Shape
        | Intrinsic::Present
        | Intrinsic::Passive(_) => {}
        // Made only in derivatives (of GAMMA, LOG_GAMMA), which adgen does not differentiate
        // again.
        Intrinsic::Digamma => {}
        // Reductions and array-valued intrinsics never reach here: `prepare::scalarize`
        // rewrites them into loops, and refuses (E0408) what it cannot rewrite.
        Intrinsic::Sum
        | Intrinsic::Product
        | Intrinsic::Maxval
        | Intrinsic::Minval
        | Intrinsic::DotProduct
        | Intrinsic::Matmul
        | Intrinsic::Transpose
        | Intrinsic::Spread
        | Intrinsic::Reshape
        | Intrinsic::Cshift
        | Intrinsic::Eoshift
        | Intrinsic::Pack => {}
    }
}

/// `i` of kind `k`: `(0.0_k, 1.0_k)`.
pub fn imaginary_unit(k: u8) -> Expr {
    Expr::intrinsic(Intrinsic::ComplexPair, vec![real("0.0", k), real("1.0", k)])
}

/// `conjg(e)`, and `x` for `conjg(conjg(x))`.
fn conjg(e: &Expr) -> Expr {
    match &e.kind {
        ExprKind::Intrinsic {
            op: Intrinsic::Conjg,
            args,
            ..
        } if args.len() == 1 => args[0].value.clone(),
        _ => call(Intrinsic::Conjg, vec![e.clone()]),
    }
}

/// The terms of `e` alone, to be seen through a real-linear operation.
fn sub_terms(e: &Expr, info: &dyn LeafInfo) -> Vec<Term> {
    let mut terms = Vec::new();
    walk(e, None, false, info, &mut terms);
    terms
}

/// The terms of an operand seen through `f` (a projection or a conjugation), then scaled
/// by the coefficient of the operation's result.
fn through(
    inner: Vec<Term>,
    coeff: Option<Expr>,
    negative: bool,
    out: &mut Vec<Term>,
    f: impl Fn(Term) -> Option<Term>,
) {
    for t in inner {
        let Some(mut t) = f(t) else { continue };
        t.negative ^= negative;
        match t.complex.as_mut().filter(|c| c.part.is_some()) {
            Some(c) => c.outer = times(coeff.clone(), c.outer.take()),
            None => t.coeff = times(coeff.clone(), t.coeff.take()),
        }
        out.push(t);
    }
}

/// `a·b`, either standing for 1 when absent.
fn times(a: Option<Expr>, b: Option<Expr>) -> Option<Expr> {
    match (a, b) {
        (None, b) => b,
        (a, None) => a,
        (a, Some(b)) => mul(a, paren(&b)),
    }
}

/// The part `p` of a term's contribution; `None` when it is zero (the imaginary part of
/// a real value).
fn project(mut t: Term, p: Part, info: &dyn LeafInfo) -> Option<Term> {
    let path = t.complex.get_or_insert_with(Box::default);
    if path.part.is_none() {
        path.part = Some(p);
        return Some(t);
    }
    // Already real after its projection: `P(outer·r) = P(outer)·r`.
    let outer = path.outer.take();
    path.outer = match (outer, p) {
        (Some(o), Part::Re) if info.is_complex(&o) => Some(call(Intrinsic::Real, vec![o])),
        (Some(o), Part::Im) if info.is_complex(&o) => Some(call(Intrinsic::Aimag, vec![o])),
        (o, Part::Re) => o,
        (_, Part::Im) => return None,
    };
    Some(t)
}

/// The conjugate of a term's contribution.
fn conjugate(mut t: Term, info: &dyn LeafInfo) -> Term {
    match t.complex.as_mut().filter(|c| c.part.is_some()) {
        // `conjg(outer·r) = conjg(outer)·r`, r real.
        Some(c) => {
            if let Some(o) = c.outer.take() {
                c.outer = Some(if info.is_complex(&o) { conjg(&o) } else { o });
            }
        }
        None => {
            if let Some(c) = t.coeff.take() {
                t.coeff = Some(if info.is_complex(&c) { conjg(&c) } else { c });
            }
            if info.is_complex(&t.leaf) {
                let path = t.complex.get_or_insert_with(Box::default);
                path.conj = !path.conj;
            }
        }
    }
    t
}

/// A term's tangent contribution, without its sign: `outer·P(coeff·K(d))` for the leaf's
/// derivative `d`.
pub fn tangent_contribution(t: &Term, d: Expr) -> Expr {
    let path = t.complex.as_deref();
    let d = if path.is_some_and(|c| c.conj) {
        conjg(&d)
    } else {
        d
    };
    let inner = match &t.coeff {
        Some(c) => Expr::binary(BinOp::Mul, c.clone(), d),
        None => d,
    };
    let Some(part) = path.and_then(|c| c.part) else {
        return inner;
    };
    let projected = call(
        if part == Part::Re {
            Intrinsic::Real
        } else {
            Intrinsic::Aimag
        },
        vec![inner],
    );
    match path.and_then(|c| c.outer.clone()) {
        Some(o) => Expr::binary(BinOp::Mul, o, projected),
        None => projected,
    }
}

/// A term's adjoint contribution to its leaf, without its sign, for the adjoint `v` of
/// the expression (`weight_complex`: `v` is COMPLEX): `coeff·v` on real code,
/// `K(conjg(coeff)·P*(Re(conjg(outer)·v)))` on complex code.
pub fn adjoint_contribution(t: &Term, v: Expr, weight_complex: bool, info: &dyn LeafInfo) -> Expr {
    let path = t.complex.as_deref();
    let mut v = v;
    if let Some(part) = path.and_then(|c| c.part) {
        let outer = path.and_then(|c| c.outer.clone());
        let outer_complex = outer.as_ref().is_some_and(|o| info.is_complex(o));
        v = match outer {
            Some(o) if outer_complex => Expr::binary(BinOp::Mul, conjg(&o), v),
            Some(o) => Expr::binary(BinOp::Mul, o, v),
            None => v,
        };
        if outer_complex || weight_complex {
            v = call(Intrinsic::Real, vec![v]);
        }
        if part == Part::Im {
            v = Expr::binary(BinOp::Mul, imaginary_unit(info.kind_of(&t.leaf)), v);
        }
    }
    let coeff_complex = t.coeff.as_ref().is_some_and(|c| info.is_complex(c));
    let v = match &t.coeff {
        Some(c) if coeff_complex => Expr::binary(BinOp::Mul, conjg(c), v),
        Some(c) => Expr::binary(BinOp::Mul, c.clone(), v),
        None => v,
    };
    let v = if path.is_some_and(|c| c.conj) {
        conjg(&v)
    } else {
        v
    };
    let complex_value = match path.and_then(|c| c.part) {
        Some(Part::Re) => coeff_complex,
        Some(Part::Im) => true,
        None => weight_complex || coeff_complex,
    };
    if complex_value && !info.is_complex(&t.leaf) {
        // A real leaf's adjoint is the real part (its component along ℝ).
        call(Intrinsic::Real, vec![v])
    } else {
        v
    }
}

pub use crate::il::visit::expr_key;

/// Terms on the same leaf become one, their coefficients added.
/// Terms of the same leaf become one, in the order of first appearance, whose
/// coefficient is the sum of theirs: `(c1 + c2 - c3)`. Linear in the number of terms.
fn merge_same_leaves(terms: Vec<Term>) -> Vec<Term> {
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut groups: Vec<Vec<Term>> = Vec::new();
    for t in terms {
        if t.complex.is_some() {
            // A real-linear path does not add to another term's coefficient.
            groups.push(vec![t]);
            continue;
        }
        let k = expr_key(&t.leaf);
        match index.get(&k) {
            Some(&i) => groups[i].push(t),
            None => {
                index.insert(k, groups.len());
                groups.push(vec![t]);
            }
        }
    }
    groups
        .into_iter()
        .map(|group| {
            let mut terms = group.into_iter();
            let first = terms.next().expect("a group has a term");
            let mut rest = terms.peekable();
            if rest.peek().is_none() {
                return first;
            }
            let mut sum = signed(first.coeff, first.negative);
            for t in rest {
                let c = t.coeff.unwrap_or_else(|| Expr::int(1));
                let op = if t.negative { BinOp::Sub } else { BinOp::Add };
                sum = Expr::binary(op, sum, c);
            }
            Term {
                leaf: first.leaf,
                coeff: Some(Expr::new(ExprKind::Paren(Box::new(sum)))),
                negative: false,
                complex: None,
            }
        })
        .collect()
}

fn signed(c: Option<Expr>, negative: bool) -> Expr {
    let c = c.unwrap_or_else(|| Expr::int(1));
    if negative {
        Expr::unary(UnOp::Neg, c)
    } else {
        c
    }
}
