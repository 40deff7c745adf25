//! Reading what a driver printed: `CHECK <kind> <root> key=value ...` lines, judged
//! against tolerances, and the `PRIMAL` block compared between two programs.

use std::collections::BTreeMap;

/// One `CHECK` line.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckLine {
    pub kind: String,
    pub root: String,
    pub values: BTreeMap<String, f64>,
}

impl CheckLine {
    /// The size of what the check compares against: the differences' norm for a
    /// tangent, the larger side of a dot-product test; `None` for checks without one.
    pub fn reference(&self) -> Option<f64> {
        match self.kind.as_str() {
            "tangent" | "fd-consistency" => self.values.get("fdnorm").copied(),
            "adjoint" | "adjoint-fd" => {
                let lhs = self.values.get("lhs").copied().unwrap_or(f64::NAN);
                let rhs = self.values.get("rhs").copied().unwrap_or(f64::NAN);
                Some(lhs.abs().max(rhs.abs()))
            }
            _ => None,
        }
    }

    /// A check against a zero (or not finite) reference proves nothing.
    pub fn vacuous(&self) -> bool {
        self.reference()
            .is_some_and(|r| !(r > 0.0 && r.is_finite()))
    }
}

/// A check the harness expects the driver to print, and its bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    pub kind: &'static str,
    pub root: String,
    pub tolerance: f64,
}

/// Parses every `CHECK` line. Values follow `key=` after optional blanks (Fortran's
/// `es25.16e3` pads numbers on the left).
pub fn parse_checks(output: &str) -> Vec<CheckLine> {
    let mut lines = Vec::new();
    for line in output.lines() {
        let Some(rest) = line.trim_start().strip_prefix("CHECK ") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let (Some(kind), Some(root)) = (words.next(), words.next()) else {
            continue;
        };
        let tail: Vec<&str> = words.collect();
        let mut values = BTreeMap::new();
        let mut i = 0;
        while i < tail.len() {
            let word = tail[i];
            if let Some((key, val)) = word.split_once('=') {
                let (val, used) = if val.is_empty() && i + 1 < tail.len() {
                    (tail[i + 1], 2)
                } else {
                    (val, 1)
                };
                let parsed = val.parse::<f64>().unwrap_or(f64::NAN);
                values.insert(key.to_string(), parsed);
                i += used;
            } else {
                i += 1;
            }
        }
        lines.push(CheckLine {
            kind: kind.to_string(),
            root: root.to_ascii_lowercase(),
            values,
        });
    }
    lines
}

/// Judges a driver's output; returns one message per problem (empty: all passed).
///
/// A check passes when its line is present, `relerr` is a finite number below the
/// tolerance, and the check was not vacuous: a tangent whose finite differences are all
/// zero, or a dot-product test whose both sides are zero, proves nothing and fails.
pub fn evaluate(output: &str, expected: &[Expected]) -> Vec<String> {
    let lines = parse_checks(output);
    let mut problems = Vec::new();
    for exp in expected {
        let root = exp.root.to_ascii_lowercase();
        let Some(line) = lines.iter().find(|l| l.kind == exp.kind && l.root == root) else {
            problems.push(format!(
                "{} {}: the driver printed no CHECK line",
                exp.kind, exp.root
            ));
            continue;
        };
        let relerr = line.values.get("relerr").copied().unwrap_or(f64::NAN);
        // NaN fails too.
        if relerr.is_nan() || relerr >= exp.tolerance {
            problems.push(format!(
                "{} {}: relative error {relerr:e} is not below {:e} ({:?})",
                exp.kind, exp.root, exp.tolerance, line.values
            ));
        }
        if line.vacuous() {
            problems.push(format!(
                "{} {}: vacuous check, the reference derivative is zero or not finite ({:?})",
                exp.kind, exp.root, line.values
            ));
        }
    }
    problems
}

/// Compares two primal outputs line by line; returns a description of the first
/// differences, or `None` when they are identical.
pub fn compare_primal(reference: &str, other: &str) -> Option<String> {
    let a: Vec<&str> = reference.lines().collect();
    let b: Vec<&str> = other.lines().collect();
    if a == b {
        return None;
    }
    let mut diffs = Vec::new();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied(), b.get(i).copied());
        if x != y {
            diffs.push(format!(
                "line {}: expected {:?}, got {:?}",
                i + 1,
                x.unwrap_or("<none>"),
                y.unwrap_or("<none>")
            ));
            if diffs.len() == 5 {
                break;
            }
        }
    }
    Some(format!(
        "outputs differ ({} vs {} lines):\n{}",
        a.len(),
        b.len(),
        diffs.join("\n")
    ))
}

/// Whether a primal output holds a value that is not a finite number.
pub fn has_non_finite(output: &str) -> bool {
    output.lines().any(|l| {
        let t = l.trim();
        t.contains("NaN") || t.contains("Infinity") || t.contains("*****")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp(kind: &'static str, tol: f64) -> Expected {
        Expected {
            kind,
            root: "heat".into(),
            tolerance: tol,
        }
    }

    const GOOD: &str = "\
 CHECK tangent-primal heat relerr=   0.0000000000000000E+000
 CHECK tangent heat relerr=   1.2345678901234567E-009 fdnorm=   3.5000000000000000E+000
 CHECK adjoint heat relerr=   2.0000000000000000E-015 lhs=   1.0000000000000000E+000 rhs=   1.0000000000000000E+000
";

    #[test]
    fn parses_padded_values() {
        let lines = parse_checks(GOOD);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1].kind, "tangent");
        assert_eq!(lines[1].root, "heat");
        assert_eq!(lines[1].values["relerr"], 1.2345678901234567e-9);
        assert_eq!(lines[1].values["fdnorm"], 3.5);
        assert_eq!(lines[2].values["rhs"], 1.0);
    }

    #[test]
    fn correct_numbers_pass() {
        let expected = [
            exp("tangent-primal", 1e-10),
            exp("tangent", 1e-6),
            exp("adjoint", 1e-10),
        ];
        assert_eq!(evaluate(GOOD, &expected), Vec::<String>::new());
    }

    /// The checker must be able to fail: wrong derivatives, NaN, missing lines and
    /// vacuous checks are all reported.
    #[test]
    fn wrong_numbers_fail() {
        let wrong_tangent =
            " CHECK tangent heat relerr=   3.0000000000000000E-001 fdnorm=   1.0E+000\n";
        assert_eq!(evaluate(wrong_tangent, &[exp("tangent", 1e-6)]).len(), 1);
        let nan = " CHECK tangent heat relerr=                       NaN fdnorm=   1.0E+000\n";
        assert_eq!(evaluate(nan, &[exp("tangent", 1e-6)]).len(), 1);
        let stars = " CHECK tangent heat relerr=*************************\n";
        assert!(!evaluate(stars, &[exp("tangent", 1e-6)]).is_empty());
        let vacuous = " CHECK tangent heat relerr=   0.0E+000 fdnorm=   0.0E+000\n";
        assert_eq!(evaluate(vacuous, &[exp("tangent", 1e-6)]).len(), 1);
        let bad_dot = " CHECK adjoint heat relerr=   1.0E-003 lhs=   1.0E+000 rhs=   1.001E+000\n";
        assert_eq!(evaluate(bad_dot, &[exp("adjoint", 1e-10)]).len(), 1);
        let zero_dot = " CHECK adjoint heat relerr=   0.0E+000 lhs=   0.0E+000 rhs=   0.0E+000\n";
        assert_eq!(evaluate(zero_dot, &[exp("adjoint", 1e-10)]).len(), 1);
        assert_eq!(evaluate("", &[exp("adjoint", 1e-10)]).len(), 1);
        // A line for another root does not count.
        let other = GOOD.replace("heat", "cool");
        assert_eq!(evaluate(&other, &[exp("tangent", 1e-6)]).len(), 1);
    }

    #[test]
    fn primal_comparison() {
        assert_eq!(compare_primal("a\nb\n", "a\nb\n"), None);
        let d = compare_primal(
            "PRIMAL y\n 1.0E+000\n",
            "PRIMAL y\n 1.0000000000000002E+000\n",
        );
        assert!(d.unwrap().contains("line 2"));
        assert!(compare_primal("a\n", "a\nb\n").is_some());
        assert!(has_non_finite("PRIMAL y\n NaN\n"));
        assert!(!has_non_finite("PRIMAL y\n 1.0E+000\n"));
    }
}
