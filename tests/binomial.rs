//! `$AD BINOMIAL-CKP` (INTERFACE.md §6, `diff::adjoint::binomial`): the adjoint of a
//! time loop reversed from binomial snapshots gives the gradient the plain adjoint
//! gives, for every number of steps (none, one, two, many) and of snapshots (one, two,
//! as many as the runtime chooses), with a schedule nested in a step (a callee's own
//! binomial DO WHILE loop), a loop counted down by two in an `integer(8)` variable, and code
//! after the loop that overwrites what the loop read; and its tape is smaller. A
//! `CHECKPOINT-START` / `CHECKPOINT-END` region inside the step is checkpointed too.

use adgen::validate::toolchain;

#[allow(dead_code)]
#[path = "support/hand_driver.rs"]
mod hand_driver;

/// The same model twice: `evolve` with the directives, `evolve_plain` without.
fn model() -> String {
    let with = "\
module wave
  implicit none
  real(8) :: damping = 0.9d0
contains
  ! Relaxation sweeps in place until the change is small or three have run: a DO
  ! WHILE loop of its own, checkpointed too.
  subroutine relax(n, u, c)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(n)
    real(8), intent(in) :: c
    integer :: sweep, i, snaps
    real(8) :: left, centre, change
    sweep = 0
    change = 1
    snaps = 2
    !$AD BINOMIAL-CKP 3 snaps
    do while (sweep < 3 .and. change > 1d-12)
      sweep = sweep + 1
      change = 0
      left = u(1)
      do i = 2, n - 1
        centre = u(i)
        u(i) = centre + c*(left - 2*centre + u(i + 1))
        change = max(change, abs(u(i) - centre))
        left = centre
      end do
    end do
  end subroutine relax

  subroutine evolve(n, nsteps, nsnap, u0, c, u, e)
    integer, intent(in) :: n, nsteps, nsnap
    real(8), intent(in) :: u0(n), c
    real(8), intent(out) :: u(n), e
    real(8) :: growth
    integer(8) :: t
    integer :: i
    u = u0
    e = 0
    ! (The number of snapshots means nothing to the original.)
    growth = 1 + 0*nsnap
    !$AD BINOMIAL-CKP nsteps nsnap
    do t = 2*nsteps, 1, -2
      call relax(n, u, c)
      !$AD CHECKPOINT-START
      do i = 1, n
        u(i) = u(i) + 0.1d0*sin(u(i))*c*growth
      end do
      !$AD CHECKPOINT-END
      growth = growth*damping
      e = e + sum(u**2)/n
    end do
    ! After the loop: what the loop read is overwritten.
    e = e + growth
    growth = 0
    damping = damping + 0
  end subroutine evolve
end module wave
";
    let plain = with
        .replace("module wave", "module wave_plain")
        .replace("subroutine relax", "subroutine relax_plain")
        .replace("call relax(", "call relax_plain(")
        .replace("subroutine evolve", "subroutine evolve_plain")
        .replace("damping = 0.9d0", "damping_plain = 0.9d0")
        .replace("growth*damping", "growth*damping_plain")
        .replace("damping = damping", "damping_plain = damping_plain")
        .lines()
        .filter(|l| !l.contains("$AD"))
        .collect::<Vec<_>>()
        .join("\n");
    format!("{with}\n{plain}\n")
}

const DRIVER: &str = "\
program driver
  use adgen_runtime, only: adgen_reset_stats, adgen_peak_bytes
  use wave, only: evolve
  use wave_b, only: evolve_b
  use wave_plain_b, only: evolve_plain_b
  use wave_d, only: evolve_d
  implicit none
  integer, parameter :: n = 10
  real(8) :: u0(n), du(n), w(n), u(n), ub(n), u0b(n), u0b_plain(n), up(n), um(n), ud(n)
  real(8) :: c, cb, cb_plain, e, eb, ep, em, ed, eps
  integer :: i, k, s, nsteps
  integer :: steps(5) = [0, 1, 2, 7, 40], snaps(3) = [1, 2, 0]
  integer(8) :: peak, peak_plain
  do i = 1, n
    u0(i) = 1 + 0.3d0*sin(0.9d0*i)
    du(i) = cos(1.7d0*i)
    w(i) = sin(2.3d0*i + 0.5d0)
  end do
  c = 0.2d0
  eps = 1d-6
  ! The tangent against central differences, once.
  call evolve(n, 7, 2, u0 + eps*du, c + eps*0.5d0, up, ep)
  call evolve(n, 7, 2, u0 - eps*du, c - eps*0.5d0, um, em)
  ud = 0
  ed = 0
  call evolve_d(n, 7, 2, u0, du, c, 0.5d0, u, ud, e, ed)
  print '(a,4es24.16)', 'fd', sum(w*ud), ed, sum(w*(up - um))/(2*eps), (ep - em)/(2*eps)
  do k = 1, size(steps)
    do s = 1, size(snaps)
      nsteps = steps(k)
      call evolve(n, nsteps, snaps(s), u0, c, u, e)
      ub = w
      eb = 0.7d0
      u0b = 0
      cb = 0
      call adgen_reset_stats()
      call evolve_b(n, nsteps, snaps(s), u0, u0b, c, cb, u, ub, e, eb)
      peak = adgen_peak_bytes()
      ub = w
      eb = 0.7d0
      u0b_plain = 0
      cb_plain = 0
      call adgen_reset_stats()
      call evolve_plain_b(n, nsteps, snaps(s), u0, u0b_plain, c, cb_plain, u, ub, e, eb)
      peak_plain = adgen_peak_bytes()
      ! The gradients agree (a `dot` line: to 1e-12).
      print '(a,i0,a,i0,22es24.16)', 'dot_', nsteps, '_', snaps(s), u0b, cb, u0b_plain, cb_plain
      if (nsteps == 40 .and. 4*peak > peak_plain) then
        print *, 'tape peak', peak, 'against', peak_plain
        stop 'the binomial tape is not smaller'
      end if
    end do
  end do
end program driver
";

#[test]
fn binomial_checkpointing_gives_the_plain_gradient_on_a_smaller_tape() {
    let mut request = hand_driver::request("evolve", &["u0", "c"], &["u", "e"]);
    let mut plain = hand_driver::request("evolve_plain", &["u0", "c"], &["u", "e"]);
    request.roots.append(&mut plain.roots);
    let generated = hand_driver::check_with(&model(), DRIVER, &request, 16, &[]);
    let adjoint = generated
        .files
        .iter()
        .find(|f| f.path == "model_b.f90")
        .expect("the adjoint of the module with the directives");
    // Both loops, the callee's and the root's, are reversed from snapshots.
    assert_eq!(
        adjoint
            .contents
            .matches("call adgen_binomial_start(")
            .count(),
        2,
        "{}",
        adjoint.contents
    );
    // And the region in the root's step (CHECKPOINT-START / CHECKPOINT-END) is run
    // again from its snapshot.
    assert!(
        adjoint
            .contents
            .contains("The region ($AD CHECKPOINT-START), run again taping"),
        "{}",
        adjoint.contents
    );
    assert!(
        !generated.warnings.contains("W0401"),
        "{}",
        generated.warnings
    );
}
