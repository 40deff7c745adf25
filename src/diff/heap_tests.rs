//! What the derivative code of kept ALLOCATABLE arrays looks like, and the refusals.

use std::collections::BTreeSet;

use crate::{Mode, Request, RootRequest, SourceInput, differentiate};

fn request(root: &str, ind: &[&str], dep: &[&str], mode: Mode, disabled: &[&str]) -> Request {
    Request {
        roots: vec![RootRequest {
            name: root.to_string(),
            independents: ind.iter().map(|s| s.to_string()).collect(),
            dependents: dep.iter().map(|s| s.to_string()).collect(),
            modes: BTreeSet::from([mode]),
            origin: None,
            entry_origins: Vec::new(),
        }],
        sizes: Vec::new(),
        black_boxes: Vec::new(),
        checkpoint_calls: true,
        naming: Default::default(),
        layout: Default::default(),
        option_warnings: Vec::new(),
        disabled: disabled.iter().map(|s| s.to_string()).collect(),
    }
}

/// The text of the generated derivative sources.
fn derivative(path: &str, text: &str, mode: Mode, disabled: &[&str]) -> String {
    let inputs = [SourceInput::new(path, text)];
    let out = differentiate(&inputs, &request("s", &["x"], &["y"], mode, disabled))
        .unwrap_or_else(|f| panic!("{f}"));
    out.files
        .iter()
        .filter(|f| !f.path.contains("adgen_runtime") && !f.path.ends_with(".h"))
        .filter(|f| f.path.ends_with(".f90") || f.path.ends_with(".c"))
        .map(|f| f.contents.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rendered errors of a refused program.
fn errors(path: &str, text: &str) -> String {
    let inputs = [SourceInput::new(path, text)];
    differentiate(&inputs, &request("s", &["x"], &["y"], Mode::Adjoint, &[]))
        .expect_err("refused")
        .rendered
}

/// Positions of the needles in the text, in order; panics when one is missing or out of
/// order.
fn in_order(text: &str, needles: &[&str]) {
    let mut from = 0;
    for n in needles {
        match text[from..].find(n) {
            Some(i) => from += i + n.len(),
            None => panic!("`{n}` missing (or out of order) in:\n{text}"),
        }
    }
}

const LOOP: &str = "subroutine s(n, x, y)
  integer n, k, i, m
  real(8) x(n), y
  real(8), allocatable :: w(:)
  y = 0d0
  do k = 1, 3
    m = n + k
    allocate(w(m))
    do i = 1, m
      w(i) = x(1 + mod(i, n)) * k
    end do
    do i = 1, m
      y = y + w(i)**2
    end do
    deallocate(w)
  end do
end
";

#[test]
fn tangent_allocates_the_derivative_beside_the_primal() {
    let t = derivative("t.f90", LOOP, Mode::Tangent, &[]);
    in_order(
        &t,
        &[
            "w_hi1 = m",
            "allocate(w(w_hi1))",
            "allocate(wd(w_hi1))",
            "wd(ii) = 0.0d0",
            "deallocate(wd)",
            "deallocate(w)",
        ],
    );
}

#[test]
fn adjoint_pushes_a_freed_array_and_recreates_it_in_the_backward_sweep() {
    let b = derivative("t.f90", LOOP, Mode::Adjoint, &[]);
    // Forward sweep: the bound copy is saved when the next iteration overwrites it,
    // the array pushed whole before its DEALLOCATE (its values are read by `2*w(i)`).
    in_order(
        &b,
        &[
            "call pushinteger4(w_hi1)",
            "w_hi1 = m",
            "allocate(w(w_hi1))",
            "call pushreal8array(w, w_hi1)",
            "deallocate(w)",
        ],
    );
    // Backward sweep: at the DEALLOCATE, primal and adjoint re-created; at the
    // ALLOCATE, both freed, then the bound restored.
    in_order(
        &b,
        &[
            "do k = ad_to",
            "allocate(w(w_hi1))",
            "call popreal8array(w, w_hi1)",
            "allocate(wb(w_hi1))",
            "wb(ii) = 0.0d0",
            "wb(i) = wb(i) + 2*w(i)*yb",
            "deallocate(wb, w)",
            "call popinteger4(w_hi1)",
        ],
    );
}

#[test]
fn a_freed_array_whose_values_are_not_read_is_not_pushed() {
    let linear = LOOP.replace("y = y + w(i)**2", "y = y + 3d0*w(i)");
    let b = derivative("t.f90", &linear, Mode::Adjoint, &[]);
    assert!(!b.contains("pushreal8array(w"), "{b}");
    in_order(&b, &["allocate(wb(w_hi1))", "deallocate(wb)"]);
    // All optimizations off: pushed anyway.
    let off = [
        "activity",
        "diff-liveness",
        "tbr",
        "snapshot",
        "implicit-zero",
    ];
    let b = derivative("t.f90", &linear, Mode::Adjoint, &off);
    in_order(&b, &["call pushreal8array(w, w_hi1)", "deallocate(w)"]);
}

#[test]
fn a_top_level_allocation_with_a_computed_size_is_freed_at_the_end() {
    let text = "subroutine s(n, x, y)
  integer n, m, i
  real(8) x(n), y
  real(8), allocatable :: w(:)
  m = 2*n
  allocate(w(0:m))
  do i = 0, m
    w(i) = x(1 + mod(i, n))**2
  end do
  y = w(m) * w(0)
end
";
    let t = derivative("t.f90", text, Mode::Tangent, &[]);
    in_order(
        &t,
        &[
            "allocate(w(0:w_hi1))",
            "allocate(wd(0:w_hi1))",
            "deallocate(wd)",
            "deallocate(w)",
        ],
    );
}

#[test]
fn c_malloc_in_a_loop_gets_its_adjoint_buffer_in_the_backward_sweep() {
    let text = "#include <stdlib.h>
void s(int n, double *x, double *y)
{
    *y = 0.0;
    for (int k = 1; k <= 3; k++) {
        int m = n + k;
        double *w = malloc(m * sizeof *w);
        for (int i = 0; i < m; i++)
            w[i] = x[i % n] * k;
        for (int i = 0; i < m; i++)
            *y += w[i] * w[i];
        free(w);
    }
}
";
    let b = derivative("t.c", text, Mode::Adjoint, &[]);
    in_order(
        &b,
        &[
            "w = malloc(sizeof(double) * (w_hi1 + 1));",
            "adgen_push_real8_array(w, w_hi1 + 1);",
            "free(w);",
            "w = malloc(sizeof(double) * (w_hi1 + 1));",
            "adgen_pop_real8_array(w, w_hi1 + 1);",
            "wb = malloc(sizeof(double) * (w_hi1 + 1));",
            "free(wb);",
            "free(w);",
        ],
    );
}

#[test]
fn misuses_of_a_kept_array_are_refused_with_their_location() {
    let head = "subroutine s(n, x, y)\n  integer n, k\n  real(8) x(n), y\n  real(8), allocatable :: w(:)\n";
    // Used after its DEALLOCATE.
    let e = errors(
        "t.f90",
        &format!(
            "{head}  do k = 1, 2\n    allocate(w(n))\n    w(1) = x(1)\n    deallocate(w)\n    y = w(1)\n  end do\nend\n"
        ),
    );
    assert!(e.contains("t.f90:9:5: error[E0545]"), "{e}");
    // Freed twice.
    let e = errors(
        "t.f90",
        &format!(
            "{head}  allocate(w(n))\n  w(1) = x(1)\n  y = w(1)\n  deallocate(w)\n  deallocate(w)\nend\n"
        ),
    );
    assert!(e.contains("t.f90:9:3: error[E0545]"), "{e}");
    // Freed in a loop, allocated outside it.
    let e = errors(
        "t.f90",
        &format!(
            "{head}  allocate(w(n))\n  w(1) = x(1)\n  y = w(1)\n  do k = 1, 2\n    deallocate(w)\n  end do\nend\n"
        ),
    );
    assert!(e.contains("t.f90:9:5: error[E0545]"), "{e}");
    // Allocated in a branch, not freed in it.
    let e = errors(
        "t.f90",
        &format!(
            "{head}  if (n > 2) then\n    allocate(w(n))\n  end if\n  w(1) = x(1)\n  y = w(1)\nend\n"
        ),
    );
    assert!(e.contains("t.f90:5:3: error[E0545]"), "{e}");
    // EXIT out of the iteration that allocated it.
    let e = errors(
        "t.f90",
        &format!(
            "{head}  do k = 1, 2\n    allocate(w(n))\n    w(1) = x(1)\n    if (w(1) > 1d0) exit\n    y = w(1)\n    deallocate(w)\n  end do\nend\n"
        ),
    );
    assert!(e.contains("t.f90:8:21: error[E0546]"), "{e}");
    // RETURN while allocated.
    let e = errors(
        "t.f90",
        &format!(
            "{head}  allocate(w(n + k))\n  w(1) = x(1)\n  y = w(1)\n  if (y > 1d0) return\n  deallocate(w)\nend\n"
        ),
    );
    assert!(e.contains("t.f90:8:16: error[E0546]"), "{e}");
    // Reallocated in a loop, but used, or left by EXIT, between its DEALLOCATE and its
    // new ALLOCATE.
    let e = errors(
        "t.f90",
        &format!(
            "{head}  allocate(w(n))\n  w(1) = x(1)\n  do k = 1, 2\n    deallocate(w)\n    y = w(1)\n    allocate(w(n + k))\n  end do\n  y = w(1)\nend\n"
        ),
    );
    assert!(e.contains("t.f90:9:5: error[E0545]"), "{e}");
    let e = errors(
        "t.f90",
        &format!(
            "{head}  allocate(w(n))\n  w(1) = x(1)\n  do k = 1, 2\n    deallocate(w)\n    if (k > n) exit\n    allocate(w(n + k))\n  end do\n  y = w(1)\nend\n"
        ),
    );
    assert!(e.contains("t.f90:9:16: error[E0546]"), "{e}");
}

#[test]
fn an_array_reallocated_in_a_loop_is_recreated_from_the_bounds_its_allocates_share() {
    // The first ALLOCATE reads a dummy, the one in the loop a local: both copy their
    // bounds into the one `w_hi1`, which the backward sweep restores before it
    // re-creates the array each DEALLOCATE freed.
    let src = "subroutine s(n, x, y)
  integer n, k, m
  real(8) x(n), y
  real(8), allocatable :: w(:)
  allocate(w(n))
  w = x
  y = 0d0
  do k = 1, 3
    y = y + sum(w * w)
    m = n + k
    deallocate(w)
    allocate(w(m))
    w = x(1) * y
  end do
  deallocate(w)
end
";
    let b = derivative("t.f90", src, Mode::Adjoint, &[]);
    in_order(
        &b,
        &[
            "w_hi1 = n",
            "allocate(w(w_hi1))",
            "call pushreal8array(w, w_hi1)",
            "deallocate(w)",
            "call pushinteger4(w_hi1)",
            "w_hi1 = m",
            "allocate(w(w_hi1))",
        ],
    );
    in_order(
        &b,
        &[
            "do k = ad_to",
            "deallocate(wb, w)",
            "call popinteger4(w_hi1)",
            "allocate(w(w_hi1))",
            "call popreal8array(w, w_hi1)",
            "allocate(wb(w_hi1))",
        ],
    );
}
