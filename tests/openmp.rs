//! OpenMP in the sources (issue 13: real code): `use omp_lib` for timing and thread
//! counts, `!$omp` directives on the loops, `!$` lines compiled only with OpenMP. adgen
//! reads the directives and the `!$` lines as comments, as a compiler without OpenMP
//! does, says so (W0403, W0404), and leaves them out of the derivatives, which run
//! serially: kept, the adjoint's forward sweep would put a push between a parallel loop
//! and its `!$omp end parallel do` (gfortran -fopenmp refuses it) and read the loop's
//! index after the loop, where OpenMP leaves it undefined. The original, its tangent
//! and adjoint are compiled with `-fopenmp` and run on two threads: tangent against
//! central differences, adjoint against tangent.

use adgen::validate::toolchain;

#[allow(dead_code)]
#[path = "support/hand_driver.rs"]
mod hand_driver;

const HEAT: &str = "\
! Explicit heat steps on OpenMP threads, timed with omp_get_wtime.
subroutine heat(n, nsteps, k, u, energy)
  use omp_lib
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: k
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: energy
  real(8) :: un(n), t0, elapsed
  integer :: i, it, nthreads
  t0 = omp_get_wtime()
  nthreads = 1
!$ nthreads = omp_get_max_threads()
  do it = 1, nsteps
    un = u
!$omp parallel do private(i)
    do i = 2, n - 1
      u(i) = un(i) + k*(un(i-1) - 2*un(i) + un(i+1))*(1 + 0.1d0*un(i)**2)
    end do
!$omp end parallel do
  end do
  energy = sum(u**2)
  elapsed = omp_get_wtime() - t0
  if (nthreads < 1 .or. elapsed < 0) energy = -1
end subroutine heat
";

const DRIVER: &str = "\
program driver
  implicit none
  integer, parameter :: n = 40, ns = 6
  real(8) :: u0(n), du(n), w(n), u(n), ud(n), ub(n), up(n), um(n)
  real(8) :: k, kd, kb, e, ed, eb, ep, em, h
  integer :: i
  external heat, heat_d, heat_b
  do i = 1, n
    u0(i) = sin(0.7d0*i)
    du(i) = cos(1.3d0*i)
    w(i) = sin(2.1d0*i + 1)
  end do
  k = 0.2d0
  kd = 0.7d0
  h = 1d-6
  u = u0 + h*du
  call heat(n, ns, k + h*kd, u, ep)
  up = u
  u = u0 - h*du
  call heat(n, ns, k - h*kd, u, em)
  um = u
  u = u0
  ud = du
  call heat_d(n, ns, k, kd, u, ud, e, ed)
  print '(a,2es24.16)', 'energy', ed, (ep - em)/(2*h)
  print '(a,2es24.16)', 'state', sum(w*ud), sum(w*(up - um))/(2*h)
  u = u0
  ub = w
  eb = 0.3d0
  kb = 0
  call heat_b(n, ns, k, kb, u, ub, e, eb)
  print '(a,2es24.16)', 'dot', sum(ub*du) + kb*kd, sum(w*ud) + 0.3d0*ed
end program driver
";

#[test]
fn openmp_sources_differentiate_and_their_derivatives_run_on_threads() {
    let request = hand_driver::request("heat", &["k", "u"], &["u", "energy"]);
    let g = hand_driver::check_with(HEAT, DRIVER, &request, 3, &["-fopenmp"]);
    assert!(g.warnings.contains("warning[W0403]"), "{}", g.warnings);
    assert!(
        g.warnings.contains("model.f90:13:1: warning[W0404]"),
        "{}",
        g.warnings
    );
    assert_eq!(g.warnings.matches("W0403").count(), 1, "{}", g.warnings);
    for f in g
        .files
        .iter()
        .filter(|f| !f.path.starts_with("adgen_runtime"))
    {
        assert!(
            !f.contents.to_ascii_lowercase().contains("$omp"),
            "{}",
            f.contents
        );
    }
}

/// A C loop under `#pragma omp parallel for`: the pragma is said (W0403), once.
#[test]
fn openmp_pragmas_in_c_are_said() {
    let text = "void f(int n, const double *x, double *y)\n{\n    int i;\n\
                #pragma omp parallel for\n    for (i = 0; i < n; i++)\n        y[i] = x[i] * x[i];\n\
                #pragma omp parallel for\n    for (i = 0; i < n; i++)\n        y[i] += x[i];\n}\n";
    let mut request = hand_driver::request("f", &["x"], &["y"]);
    request.sizes = vec![
        adgen::SizeHint {
            procedure: "f".to_string(),
            argument: "x".to_string(),
            size: adgen::SizeExpr::Name("n".to_string()),
            row_length: None,
            origin: None,
        },
        adgen::SizeHint {
            procedure: "f".to_string(),
            argument: "y".to_string(),
            size: adgen::SizeExpr::Name("n".to_string()),
            row_length: None,
            origin: None,
        },
    ];
    let g = adgen::differentiate(&[adgen::SourceInput::new("f.c", text)], &request)
        .unwrap_or_else(|f| panic!("{f}"));
    assert!(
        g.warnings.contains("f.c:4:1: warning[W0403]"),
        "{}",
        g.warnings
    );
    assert_eq!(g.warnings.matches("W0403").count(), 1, "{}", g.warnings);
}
