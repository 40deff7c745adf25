//! Fits the initial state `u0` and the diffusivity `k` of a Fortran heat-equation model
//! (`src/heat.f90`) to a target state by gradient descent, with the gradient computed by
//! the adjoint `heat_b` that adgen generates at build time (see `build.rs`, `ad.toml`).

use std::f64::consts::PI;

// The safe bindings that `build.rs` asked for with `.bindings(true)`: a module
// `derivatives` with `heat` (the original), `heat_d` (tangent) and `heat_b` (adjoint),
// taking slices whose lengths they check against `n`. Each differentiated argument is
// followed by its derivative: `u0, u0b`, `k, kb`, `j, jb` in the adjoint.
// (With adgen as a normal dependency too, `adgen::include_derivatives!();` does the same.)
include!(concat!(env!("OUT_DIR"), "/adgen/adgen_bindings.rs"));

/// Number of explicit Euler steps of every run.
const NSTEPS: i32 = 200;

/// The number of points, as the Fortran model takes it.
fn points(u0: &[f64]) -> i32 {
    i32::try_from(u0.len()).expect("fewer than 2^31 points")
}

/// The cost: misfit between the final state from `u0`, `k` and `target`.
fn cost(u0: &[f64], k: f64, target: &[f64]) -> f64 {
    let mut j = 0.0;
    derivatives::heat(points(u0), NSTEPS, u0, k, target, &mut j)
        .expect("u0 and target have one value per point");
    j
}

/// The gradient of the cost with respect to `u0` and `k`, by the adjoint.
fn gradient(u0: &[f64], k: f64, target: &[f64]) -> (Vec<f64>, f64) {
    let mut j = 0.0;
    let mut u0b = vec![0.0; u0.len()];
    let mut kb = 0.0;
    let mut jb = 1.0; // weight of j: the gradient of 1 * j
    derivatives::heat_b(
        points(u0),
        NSTEPS,
        u0,
        &mut u0b,
        k,
        &mut kb,
        target,
        &mut j,
        &mut jb,
    )
    .expect("u0 and target have one value per point");
    (u0b, kb)
}

/// The derivative of the cost in the direction (`u0d`, `kd`), by the tangent.
fn directional_derivative(u0: &[f64], k: f64, target: &[f64], u0d: &[f64], kd: f64) -> f64 {
    let (mut j, mut jd) = (0.0, 0.0);
    derivatives::heat_d(points(u0), NSTEPS, u0, u0d, k, kd, target, &mut j, &mut jd)
        .expect("u0, u0d and target have one value per point");
    jd
}

/// Central finite-difference estimate of the gradient, for comparison.
fn finite_differences(u0: &[f64], k: f64, target: &[f64], h: f64) -> (Vec<f64>, f64) {
    let mut du0 = Vec::with_capacity(u0.len());
    let mut x = u0.to_vec();
    for i in 0..u0.len() {
        x[i] = u0[i] + h;
        let plus = cost(&x, k, target);
        x[i] = u0[i] - h;
        let minus = cost(&x, k, target);
        x[i] = u0[i];
        du0.push((plus - minus) / (2.0 * h));
    }
    let dk = (cost(u0, k + h, target) - cost(u0, k - h, target)) / (2.0 * h);
    (du0, dk)
}

/// Time the model runs: `NSTEPS` steps of `dt = 0.4 dx^2` (as in `heat.f90`).
fn final_time(n: usize) -> f64 {
    let dx = 1.0 / (n + 1) as f64;
    f64::from(NSTEPS) * 0.4 * dx * dx
}

/// The exact solution at the model's final time from
/// `u0 = sin(pi x) + 0.5 sin(2 pi x)` with diffusivity `k`, on the interior points.
fn exact_solution(n: usize, k: f64) -> Vec<f64> {
    let t = final_time(n);
    (1..=n)
        .map(|i| {
            let x = i as f64 / (n + 1) as f64;
            (-PI * PI * k * t).exp() * (PI * x).sin()
                + 0.5 * (-4.0 * PI * PI * k * t).exp() * (2.0 * PI * x).sin()
        })
        .collect()
}

/// The fitting problem: the target is the exact solution for `k = 0.5`; the first guess
/// is `u0 = sin(pi x)`, `k = 0.8`.
fn problem(n: usize) -> (Vec<f64>, f64, Vec<f64>) {
    let guess_u0 = (1..=n)
        .map(|i| (PI * i as f64 / (n + 1) as f64).sin())
        .collect();
    (guess_u0, 0.8, exact_solution(n, 0.5))
}

fn main() {
    let n = 20;
    let (mut u0, mut k, target) = problem(n);

    let (grad_u0, grad_k) = gradient(&u0, k, &target);
    let (fd_u0, fd_k) = finite_differences(&u0, k, &target, 1e-6);
    println!("gradient at the first guess (adjoint vs central finite differences):");
    println!("  dj/dk      {grad_k:+.10e}  {fd_k:+.10e}");
    for i in [0, n / 4, n / 2, 3 * n / 4, n - 1] {
        println!("  dj/du0[{i:2}] {:+.10e}  {:+.10e}", grad_u0[i], fd_u0[i]);
    }

    let direction: Vec<f64> = (0..n)
        .map(|i| if i % 2 == 0 { 1.0 } else { -0.5 })
        .collect();
    let tangent = directional_derivative(&u0, k, &target, &direction, 1.0);
    let adjoint: f64 = grad_u0
        .iter()
        .zip(&direction)
        .map(|(g, d)| g * d)
        .sum::<f64>()
        + grad_k;
    println!("derivative in one direction: tangent {tangent:+.12e}, adjoint {adjoint:+.12e}");

    println!("gradient descent:");
    let mut j = cost(&u0, k, &target);
    let mut step = 1.0;
    for iteration in 0..20 {
        let (grad_u0, grad_k) = gradient(&u0, k, &target);
        // Backtracking: halve the step until the cost decreases.
        loop {
            let trial_u0: Vec<f64> = u0.iter().zip(&grad_u0).map(|(u, g)| u - step * g).collect();
            let trial_k = (k - step * grad_k).clamp(0.01, 1.2);
            let trial_j = cost(&trial_u0, trial_k, &target);
            if trial_j < j || step < 1e-12 {
                u0 = trial_u0;
                k = trial_k;
                j = trial_j;
                break;
            }
            step /= 2.0;
        }
        println!("  iteration {iteration:2}: j = {j:.6e}, k = {k:.6}");
        step *= 2.0;
    }
    println!("fitted k = {k:.4} (the target was made with k = 0.5)");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The adjoint gradient agrees with central finite differences to 1e-5, relative.
    #[test]
    fn adjoint_matches_finite_differences() {
        let (u0, k, target) = problem(12);
        let (grad_u0, grad_k) = gradient(&u0, k, &target);
        let (fd_u0, fd_k) = finite_differences(&u0, k, &target, 1e-6);
        let scale = fd_u0.iter().fold(fd_k.abs(), |m, g| m.max(g.abs()));
        assert!(scale > 1e-8, "the test problem has a non-zero gradient");
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-5 * b.abs().max(1e-3 * scale);
        assert!(
            close(grad_k, fd_k),
            "dj/dk: adjoint {grad_k}, finite differences {fd_k}"
        );
        for (i, (a, b)) in grad_u0.iter().zip(&fd_u0).enumerate() {
            assert!(
                close(*a, *b),
                "dj/du0[{i}]: adjoint {a}, finite differences {b}"
            );
        }
    }

    /// Tangent and adjoint agree (the dot-product test): for a direction `d`, the tangent's
    /// `jd` equals the adjoint gradient times `d`; and `jd` matches finite differences.
    #[test]
    fn tangent_matches_adjoint_and_finite_differences() {
        let (u0, k, target) = problem(12);
        let u0d: Vec<f64> = (0..u0.len())
            .map(|i| ((i * 7 % 5) as f64 - 2.0) / 3.0)
            .collect();
        let kd = 0.7;
        let jd = directional_derivative(&u0, k, &target, &u0d, kd);
        let (grad_u0, grad_k) = gradient(&u0, k, &target);
        let dot = grad_u0.iter().zip(&u0d).map(|(g, d)| g * d).sum::<f64>() + grad_k * kd;
        assert!(
            (jd - dot).abs() <= 1e-10 * jd.abs().max(dot.abs()),
            "tangent {jd}, adjoint {dot}"
        );

        let h = 1e-6;
        let shifted =
            |s: f64| -> Vec<f64> { u0.iter().zip(&u0d).map(|(u, d)| u + s * d).collect() };
        let fd = (cost(&shifted(h), k + h * kd, &target) - cost(&shifted(-h), k - h * kd, &target))
            / (2.0 * h);
        assert!(
            (jd - fd).abs() <= 1e-5 * fd.abs(),
            "tangent {jd}, finite differences {fd}"
        );
    }

    /// The safe bindings refuse slices of the wrong length instead of reading past them.
    #[test]
    fn bindings_check_lengths() {
        let (u0, k, target) = problem(8);
        let mut j = 0.0;
        let err = derivatives::heat(8, NSTEPS, &u0, k, &target[..7], &mut j).unwrap_err();
        assert_eq!((err.argument, err.expected, err.actual), ("target", 8, 7));
        assert!(
            err.to_string()
                .contains("`target` has 7 elements, expected 8")
        );
    }

    /// The model is close to the exact solution it is fitted to.
    #[test]
    fn model_matches_exact_solution() {
        let n = 40;
        let x = |i: usize| (i + 1) as f64 / (n + 1) as f64;
        let true_u0: Vec<f64> = (0..n)
            .map(|i| (PI * x(i)).sin() + 0.5 * (2.0 * PI * x(i)).sin())
            .collect();
        let target = exact_solution(n, 0.5);
        let (guess_u0, guess_k, _) = problem(n);
        let at_truth = cost(&true_u0, 0.5, &target);
        let at_guess = cost(&guess_u0, guess_k, &target);
        assert!(at_truth < 1e-3 * at_guess, "{at_truth} vs {at_guess}");
    }
}
