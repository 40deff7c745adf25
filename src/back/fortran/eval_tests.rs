//! Differential test of expression printing: random expression trees are printed by the
//! back-end, evaluated by a gfortran-compiled program, and compared with the same trees
//! evaluated here. A missing parenthesis changes the value; this catches it where an
//! exact-text test would only restate the printer's rules.

use super::write_expr;
use crate::il::{BinOp, Expr, ExprKind, UnOp};

/// A small deterministic generator (64-bit LCG), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const REALS: [(&str, f64); 4] = [("a", 1.75), ("b", -0.625), ("c", 3.5), ("d", 0.3125)];
const LOGICALS: [(&str, bool); 3] = [("p", true), ("q", false), ("r", true)];

fn real_tree(rng: &mut Rng, depth: u32) -> Expr {
    if depth == 0 || rng.below(5) == 0 {
        return match rng.below(6) {
            0 => Expr::real("-1.5", 8),
            1 => Expr::real("2", 8),
            _ => Expr::var(REALS[rng.below(4) as usize].0),
        };
    }
    let sub = |rng: &mut Rng| real_tree(rng, depth - 1);
    match rng.below(9) {
        0 => Expr::binary(BinOp::Add, sub(rng), sub(rng)),
        1 => Expr::binary(BinOp::Sub, sub(rng), sub(rng)),
        2 => Expr::binary(BinOp::Mul, sub(rng), sub(rng)),
        3 => Expr::binary(BinOp::Div, sub(rng), sub(rng)),
        4 => {
            let exponent = match rng.below(3) {
                0 => Expr::int(2),
                1 => Expr::int(3),
                _ => Expr::unary(UnOp::Neg, Expr::int(1)),
            };
            Expr::binary(BinOp::Pow, sub(rng), exponent)
        }
        5 => Expr::unary(UnOp::Neg, sub(rng)),
        6 => Expr::unary(UnOp::Plus, sub(rng)),
        7 => Expr::new(ExprKind::Paren(Box::new(sub(rng)))),
        _ => Expr::binary(BinOp::Sub, sub(rng), Expr::unary(UnOp::Neg, sub(rng))),
    }
}

fn eval_real(expr: &Expr) -> f64 {
    match &expr.kind {
        ExprKind::Var(name) => {
            REALS
                .iter()
                .find(|(n, _)| n == name)
                .expect("generated trees use known names")
                .1
        }
        ExprKind::Real(lit) => lit.value.parse().expect("generated literals parse"),
        ExprKind::Int(text) => text.parse().expect("generated literals parse"),
        ExprKind::Paren(inner) | ExprKind::Unary(UnOp::Plus, inner) => eval_real(inner),
        ExprKind::Unary(UnOp::Neg, inner) => -eval_real(inner),
        ExprKind::Binary(op, lhs, rhs) => {
            let a = eval_real(lhs);
            match op {
                BinOp::Add => a + eval_real(rhs),
                BinOp::Sub => a - eval_real(rhs),
                BinOp::Mul => a * eval_real(rhs),
                BinOp::Div => a / eval_real(rhs),
                BinOp::Pow => a.powi(int_exponent(rhs)),
                _ => unreachable!("real trees use arithmetic operators only"),
            }
        }
        _ => unreachable!("real trees use no other node"),
    }
}

fn int_exponent(expr: &Expr) -> i32 {
    match &expr.kind {
        ExprKind::Int(text) => text.parse().expect("integer exponent"),
        ExprKind::Unary(UnOp::Neg, inner) => -int_exponent(inner),
        _ => unreachable!("exponents are integer literals"),
    }
}

fn logical_tree(rng: &mut Rng, depth: u32) -> Expr {
    if depth == 0 || rng.below(4) == 0 {
        return match rng.below(4) {
            0 => {
                let op = [BinOp::Lt, BinOp::Ge, BinOp::Eq, BinOp::Ne][rng.below(4) as usize];
                let lhs = real_tree(rng, 1);
                let rhs = real_tree(rng, 1);
                Expr::binary(op, lhs, rhs)
            }
            _ => Expr::var(LOGICALS[rng.below(3) as usize].0),
        };
    }
    let sub = |rng: &mut Rng| logical_tree(rng, depth - 1);
    match rng.below(6) {
        0 => Expr::binary(BinOp::And, sub(rng), sub(rng)),
        1 => Expr::binary(BinOp::Or, sub(rng), sub(rng)),
        2 => Expr::binary(BinOp::Eqv, sub(rng), sub(rng)),
        3 => Expr::binary(BinOp::Neqv, sub(rng), sub(rng)),
        4 => Expr::unary(UnOp::Not, sub(rng)),
        _ => Expr::new(ExprKind::Paren(Box::new(sub(rng)))),
    }
}

fn eval_logical(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Var(name) => {
            LOGICALS
                .iter()
                .find(|(n, _)| n == name)
                .expect("generated trees use known names")
                .1
        }
        ExprKind::Paren(inner) => eval_logical(inner),
        ExprKind::Unary(UnOp::Not, inner) => !eval_logical(inner),
        ExprKind::Binary(op, lhs, rhs) => match op {
            BinOp::And => eval_logical(lhs) && eval_logical(rhs),
            BinOp::Or => eval_logical(lhs) || eval_logical(rhs),
            BinOp::Eqv => eval_logical(lhs) == eval_logical(rhs),
            BinOp::Neqv => eval_logical(lhs) != eval_logical(rhs),
            BinOp::Lt => eval_real(lhs) < eval_real(rhs),
            BinOp::Ge => eval_real(lhs) >= eval_real(rhs),
            BinOp::Eq => eval_real(lhs) == eval_real(rhs),
            BinOp::Ne => eval_real(lhs) != eval_real(rhs),
            _ => unreachable!("logical trees use logical and relational operators only"),
        },
        _ => unreachable!("logical trees use no other node"),
    }
}

#[test]
fn printed_expressions_evaluate_like_their_trees() {
    if std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("gfortran not found: skipping");
        return;
    }
    let mut rng = Rng(20261121);
    let reals: Vec<Expr> = (0..300).map(|_| real_tree(&mut rng, 4)).collect();
    let logicals: Vec<Expr> = (0..300).map(|_| logical_tree(&mut rng, 4)).collect();

    let mut program = String::from("program eval\n  implicit none\n");
    program.push_str("  real(8) :: a, b, c, d\n  logical :: p, q, r\n");
    for (name, value) in REALS {
        program.push_str(&format!("  {name} = {value:?}d0\n"));
    }
    for (name, value) in LOGICALS {
        program.push_str(&format!("  {name} = .{value}.\n"));
    }
    for expr in &reals {
        program.push_str(&format!("  print '(es25.16e3)', {}\n", write_expr(expr)));
    }
    for expr in &logicals {
        program.push_str(&format!("  print '(l1)', {}\n", write_expr(expr)));
    }
    program.push_str("end program eval\n");

    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("eval.f90"), &program).expect("write the program");
    let compile = std::process::Command::new("gfortran")
        .args(["-O0", "-ffree-line-length-none", "eval.f90", "-o", "eval"])
        .current_dir(dir.path())
        .output()
        .expect("run gfortran");
    assert!(
        compile.status.success(),
        "gfortran rejected the printed expressions:\n{}",
        String::from_utf8_lossy(&compile.stderr)
    );
    let run = std::process::Command::new(dir.path().join("eval"))
        .output()
        .expect("run the program");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), reals.len() + logicals.len());

    for (expr, line) in reals.iter().zip(&lines) {
        let expected = eval_real(expr);
        let got: f64 = line.trim().parse().unwrap_or(f64::NAN);
        if !expected.is_finite() || expected.abs() > 1e200 {
            continue;
        }
        let scale = expected.abs().max(1.0);
        assert!(
            (got - expected).abs() <= 1e-9 * scale,
            "{} printed as `{}`: gfortran gives {got}, the tree {expected}",
            "a real expression",
            write_expr(expr)
        );
    }
    for (expr, line) in logicals.iter().zip(&lines[reals.len()..]) {
        let expected = if eval_logical(expr) { "T" } else { "F" };
        assert_eq!(
            line.trim(),
            expected,
            "logical expression printed as `{}`",
            write_expr(expr)
        );
    }
}
