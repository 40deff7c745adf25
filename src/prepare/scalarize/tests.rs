//! Unit tests of scalarization: the loops it writes and the statements it refuses.

use crate::diag::{Location, SourceFile, SourceMap};

/// The first unit after scalarization, printed; or the (code, line, col) of the
/// refusals.
fn run(text: &str) -> Result<String, Vec<(&'static str, usize, usize)>> {
    let mut sources = SourceMap::default();
    let inputs = [crate::SourceInput::new("t.f90", text)];
    let program = crate::parse_sources(&inputs, &mut sources).expect("the test source parses");
    match super::scalarize(program) {
        Ok(p) => Ok(crate::back::fortran::write_unit(&p.files[0].units[0])),
        Err(diags) => {
            let file = SourceFile::new("t.f90", text);
            Err(diags
                .iter()
                .map(|d| match &d.location {
                    Some(Location::Span(s)) => {
                        let (l, c) = file.line_col(s.lo);
                        (d.code, l, c)
                    }
                    _ => (d.code, 0, 0),
                })
                .collect())
        }
    }
}

#[test]
fn sections_loop_over_the_assigned_range() {
    let out = run("subroutine s(n, u, v)\n  integer n\n  real(8) u(0:n+1), v(n)\n  v = 0.5d0*(u(0:n-1) + u(2:n+1))\nend\n").unwrap();
    assert!(
        out.contains("do i = 1, n\n    v(i) = 0.5d0*(u(i - 1) + u(i + 1))\n  end do"),
        "{out}"
    );
}

#[test]
fn reading_lower_elements_runs_backwards() {
    let out =
        run("subroutine s(n, u)\n  integer n\n  real(8) u(n)\n  u(2:n) = u(1:n-1)\nend\n").unwrap();
    assert!(
        out.contains("do i = n, 2, -1\n    u(i) = u(i - 1)"),
        "{out}"
    );
    let out =
        run("subroutine s(n, u)\n  integer n\n  real(8) u(n)\n  u(1:n-1) = u(2:n)\nend\n").unwrap();
    assert!(
        out.contains("do i = 1, n - 1\n    u(i) = u(i + 1)"),
        "{out}"
    );
}

#[test]
fn unorderable_alias_goes_through_a_temporary() {
    let out = run("subroutine s(n, a)\n  integer n\n  real(8) a(n, n)\n  a = transpose(a)\nend\n")
        .unwrap();
    assert!(out.contains("a_tmp(i, j) = a(j, i)"), "{out}");
    assert!(out.contains("a(i, j) = a_tmp(i, j)"), "{out}");
    assert!(out.contains("real(8) :: a_tmp(n, n)"), "{out}");
}

#[test]
fn alias_with_computed_extents_goes_through_an_allocatable_temporary() {
    // `m` is computed, so no automatic array can hold the right-hand side: an
    // ALLOCATABLE one, allocated just before it is filled and freed after the copy.
    let text = "subroutine s(n, a)\n  integer n, m\n  real(8) a(n, n)\n  m = n\n  a(1:m, 1:m) = transpose(a(1:m, 1:m))\nend\n";
    let out = run(text).unwrap();
    assert!(out.contains("real(8), allocatable :: a_tmp(:, :)"), "{out}");
    let (alloc, fill, copy, free) = (
        out.find("allocate(a_tmp(m, m))").expect(&out),
        out.find("a_tmp(i, j) = a(j, i)").expect(&out),
        out.find("a(i, j) = a_tmp(i, j)").expect(&out),
        out.find("deallocate(a_tmp)").expect(&out),
    );
    assert!(alloc < fill && fill < copy && copy < free, "{out}");
}

#[test]
fn reductions_accumulate_in_place_or_before_the_statement() {
    let out = run("subroutine s(n, x, y, t)\n  integer n\n  real(8) x(n), y(n), t\n  t = sum(x*y)\n  y = x/maxval(x)\nend\n").unwrap();
    assert!(
        out.contains("t = 0.0d0\n  do i = 1, n\n    t = t + x(i)*y(i)"),
        "{out}"
    );
    assert!(
        out.contains("vmax = x(1)\n  do i = 1, n\n    vmax = max(vmax, x(i))"),
        "{out}"
    );
    assert!(out.contains("y(i) = x(i)/vmax"), "{out}");
}

#[test]
fn vector_subscripts_run_over_their_index_vector() {
    let out = run("subroutine s(n, m, k, x, y)\n  integer n, m, k(m)\n  real(8) x(n), y(m)\n  y = x(k)\n  x(k(m:1:-1)) = 2*y\nend\n").unwrap();
    assert!(out.contains("y(i) = x(k(i))"), "{out}");
    // The loop runs over the section of the index vector, backwards.
    assert!(out.contains("do i = m, 1, -1\n    x(k("), "{out}");
}

#[test]
fn refusals_are_located() {
    // Rank mismatch, a subscript of rank two, CSHIFT by an array, an expression
    // argument whose temporary would be sized by a computed variable.
    let text = "\
subroutine s(n, x, y, k, t)
  integer n, k(n), m, j(n, n)
  real(8) x(n), y(n, n), t, f
  external f
  t = x
  y(:, 1) = x(j)
  x = cshift(x, k)
  m = n - 1
  t = f(2*x(1:m))
end
";
    assert_eq!(
        run(text).unwrap_err(),
        vec![
            ("E0414", 5, 7),
            ("E0414", 6, 15),
            ("E0414", 7, 17),
            ("E0414", 9, 9)
        ]
    );
}

#[test]
fn expression_arguments_go_through_temporaries() {
    let out = run("subroutine s(n, u, dt, k)\n  integer n\n  real(8) u(n), dt, k(n)\n  call rhs(n, u + dt*k, k)\nend\nsubroutine rhs(n, u, k)\n  integer, intent(in) :: n\n  real(8), intent(in) :: u(n)\n  real(8), intent(out) :: k(n)\n  k = -u\nend\n").unwrap();
    assert!(out.contains("real(8) :: tmp(n)"), "{out}");
    assert!(out.contains("tmp(i) = u(i) + dt*k(i)"), "{out}");
    assert!(out.contains("call rhs(n, tmp, k)"), "{out}");
}

#[test]
fn where_fuses_and_forall_keeps_simple_indices() {
    let out = run("subroutine s(n, u, v)\n  integer n, i\n  real(8) u(n), v(n)\n  where (u > 1d0)\n    u = 1d0\n  elsewhere\n    u = u*v\n  end where\n  forall (i = 1:n) v(i) = u(i)**2\nend\n").unwrap();
    assert!(
        out.contains(
            "if (u(i0) > 1d0) then\n      u(i0) = 1d0\n    else\n      u(i0) = u(i0)*v(i0)"
        ),
        "{out}"
    );
    assert!(out.contains("do i = 1, n\n    v(i) = u(i)**2"), "{out}");
}

#[test]
fn allocatables_become_automatic_arrays_or_are_refused() {
    let out = run("subroutine s(n, x)\n  integer n\n  real(8) x(n)\n  real(8), allocatable :: w(:)\n  allocate(w(0:n))\n  w(0:n-1) = x\n  w(n) = 1d0\n  x = w(1:n)\n  deallocate(w)\nend\n").unwrap();
    assert!(out.contains("real(8) :: w(0:n)"), "{out}");
    assert!(!out.contains("allocate"), "{out}");
    // Allocated in a loop: kept allocatable, the whole-array assignment scalarized.
    let text = "subroutine s(n, x)\n  integer n, i\n  real(8) x(n)\n  real(8), allocatable :: w(:)\n  do i = 1, 2\n    allocate(w(n))\n    w = x\n    x = 2d0*w\n    deallocate(w)\n  end do\nend\n";
    let out = run(text).unwrap();
    assert!(out.contains("allocate(w(n))"), "{out}");
    assert!(out.contains("deallocate(w)"), "{out}");
    // Used after it is freed.
    let text = "subroutine s(n, x)\n  integer n\n  real(8) x(n)\n  real(8), allocatable :: w(:)\n  allocate(w(n))\n  w = x\n  deallocate(w)\n  x = w\nend\n";
    assert_eq!(run(text).unwrap_err(), vec![("E0545", 8, 3)]);
}

#[test]
fn array_syntax_in_a_do_while_condition_is_refused() {
    let text = "subroutine s(n, x)\n  integer n\n  real(8) x(n)\n  do while (sum(x) > 1d0)\n    x = 0.5d0*x\n  end do\nend\n";
    assert_eq!(run(text).unwrap_err(), vec![("E0414", 4, 13)]);
}

#[test]
fn pack_appends_in_array_element_order_and_is_refused_inside_expressions() {
    let out = run(
        "subroutine s(n, x, y, z)\n  integer n\n  real(8) x(n, 2), y(2*n), z(2*n)\n  \
                   y = pack(2*x, x > 0, z)\nend\n",
    )
    .unwrap();
    assert!(
        out.contains("do j = 1, 2\n    do i = 1, n\n      if (x(i, j) > 0) then\n        npack = npack + 1\n        y(npack) = 2*x(i, j)"),
        "{out}"
    );
    assert!(
        out.contains("do k = npack, 2*n - 1\n    y(k + 1) = z(k + 1)"),
        "{out}"
    );
    let text =
        "subroutine s(n, x, t)\n  integer n\n  real(8) x(n), t\n  t = sum(pack(x, x > 0))\nend\n";
    assert_eq!(run(text).unwrap_err(), vec![("E0414", 4, 11)]);
    let text = "subroutine s(n, x)\n  integer n\n  real(8) x(n)\n  x = pack(x, x > 0)\nend\n";
    assert_eq!(run(text).unwrap_err(), vec![("E0414", 4, 3)]);
}

#[test]
fn allocatable_dummies_keep_the_callers_bounds_unless_allocated_here() {
    // Read and written only: the loop runs over the caller's bounds.
    let out =
        run("subroutine s(u)\n  real(8), allocatable, intent(inout) :: u(:)\n  u = 2*u\nend\n")
            .unwrap();
    assert!(
        out.contains("allocatable, intent(inout) :: u(:)")
            && out.contains("do i = lbound(u, 1), ubound(u, 1)"),
        "{out}"
    );
    // Resized (freed if allocated, allocated again): the caller passes it allocated, so
    // the guard holds.
    let text = "subroutine s(n, u)\n  integer n\n  real(8), allocatable :: u(:)\n  if (allocated(u)) deallocate(u)\n  allocate(u(n))\n  u = 1\nend\n";
    let out = run(text).unwrap();
    assert!(out.contains("  deallocate(u)\n  allocate(u(n))\n"), "{out}");
    // Freed in a branch only: one refusal, where it happens.
    let text = "subroutine s(n, u)\n  integer n\n  real(8), allocatable :: u(:)\n  u = 1\n  if (n > 1) deallocate(u)\n  allocate(u(n))\nend\n";
    assert_eq!(run(text).unwrap_err(), vec![("E0414", 5, 14)]);
    // Allocated once for the caller: kept as written, with its own bounds.
    let text = "subroutine s(n, u)\n  integer n\n  real(8), allocatable, intent(out) :: u(:)\n  allocate(u(0:n))\n  u = 1\nend\n";
    let out = run(text).unwrap();
    assert!(
        out.contains("allocate(u(0:n))\n  do i = lbound(u, 1), ubound(u, 1)"),
        "{out}"
    );
    // INTENT(OUT) and never allocated: freed on entry, the caller gets it unallocated.
    let text = "subroutine s(n, u)\n  integer n\n  real(8), allocatable, intent(out) :: u(:)\n  n = 1\nend\n";
    assert_eq!(run(text).unwrap_err(), vec![("E0414", 3, 40)]);
}

#[test]
fn rows_of_one_matrix_with_unknown_distance_are_read_in_the_iteration_that_writes() {
    // Elimination: row i updated from row k, the same columns.
    let out = run("subroutine s(n, i, k, g, p)\n  integer n, i, k\n  real(8) g(n, n), p\n  g(i, k:n) = g(i, k:n) - p*g(k, k:n)\nend\n").unwrap();
    assert!(out.contains("g(i, i0) = g(i, i0) - p*g(k, i0)"), "{out}");
    // Shifted columns as well: if i == k, an element would be read after it was
    // written in another iteration, so the right side goes through a temporary.
    let out = run("subroutine s(n, i, k, g)\n  integer n, i, k\n  real(8) g(n, n)\n  g(i, 1:n-1) = g(k, 2:n)\nend\n").unwrap();
    assert!(out.contains("g_tmp(i0) = g(k, i0 + 1)"), "{out}");
    // A fixed subscript of the target read as a loop subscript: a temporary too.
    let out = run(
        "subroutine s(n, i, g)\n  integer n, i\n  real(8) g(n, n)\n  g(i, 1:n) = g(1:n, i)\nend\n",
    )
    .unwrap();
    assert!(out.contains("g_tmp(i0) = g(i0, i)"), "{out}");
}

#[test]
fn reduction_in_an_if_condition_is_computed_before_the_if() {
    for body in ["return", "y = 2*y"] {
        let text = format!(
            "subroutine s(n, x, y)\n  integer n\n  real(8) x(n), y\n  y = x(1)\n  if (sum(x) < 1d0) {body}\n  y = y + 1\nend\n"
        );
        let out = run(&text).unwrap();
        let acc = out
            .find("total = total + x(")
            .unwrap_or_else(|| panic!("{out}"));
        let test = out
            .find("if (total < 1d0)")
            .unwrap_or_else(|| panic!("{out}"));
        assert!(acc < test, "{out}");
    }
}

#[test]
fn shape_lbound_and_ubound_without_dim_are_arrays_of_one_element_per_dimension() {
    let out = run("subroutine s(a, m, k, lo)\n  real(8) a(:, :)\n  integer m(2), k(2), lo(2)\n  k = min(shape(a), m)\n  lo = lbound(a) + ubound(a)\nend\n").unwrap();
    assert!(out.contains("k(i) = min(size(a, i), m(i))"), "{out}");
    assert!(out.contains("lo(i) = lbound(a, i) + ubound(a, i)"), "{out}");
}
