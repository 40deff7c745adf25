//! Linearization of an expression (seeds/000 §4.3): the list of its active leaves with the
//! partial derivative of the expression with respect to each, so that
//! `ė = Σ ± coeff·leaḟ` (tangent) and `leaf̄ += ± coeff·ē` (adjoint). This is the one
//! intrinsic derivative table of adgen; it is written on the IL and is language-neutral.

use crate::il::{BinOp, Expr, ExprKind, Intrinsic, UnOp};

/// One active leaf (a variable or array element) and its partial derivative.
#[derive(Clone, Debug)]
pub struct Term {
    pub leaf: Expr,
    /// `None` stands for 1.
    pub coeff: Option<Expr>,
    pub negative: bool,
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
                        // would be an integer division (0 for n > 1).
                        let divisor = if info.is_integer(b) {
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

pub use crate::il::visit::expr_key;

/// Terms on the same leaf become one, their coefficients added.
/// Terms of the same leaf become one, in the order of first appearance, whose
/// coefficient is the sum of theirs: `(c1 + c2 - c3)`. Linear in the number of terms.
fn merge_same_leaves(terms: Vec<Term>) -> Vec<Term> {
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut groups: Vec<Vec<Term>> = Vec::new();
    for t in terms {
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
