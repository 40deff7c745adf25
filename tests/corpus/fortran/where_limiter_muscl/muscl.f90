! MUSCL reconstruction with a minmod slope limiter for linear advection, limited
! with WHERE masks instead of IFs, followed by a positivity fix-up in a WHERE
! construct with ELSEWHERE branches. Upwind fluxes at the faces, periodic ghosts.
! Features: WHERE statement, WHERE / ELSEWHERE (mask) / ELSEWHERE / END WHERE,
! MERGE-free minmod via masks, SIGN/MIN/ABS elementwise on sections, logical masks
! combining two relations, SUM with MASK in the cost, MAXVAL.
subroutine muscl_advect(n, nsteps, c, u0, uref, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: c, u0(n), uref(n)
  real(8), intent(out) :: cost
  real(8) :: u(-1:n+2), slope(0:n+1), dl(0:n+1), dr(0:n+1), face(0:n)
  integer :: step

  u(1:n) = u0
  do step = 1, nsteps
    ! Periodic ghost cells, two on each side.
    u(-1:0) = u(n-1:n)
    u(n+1:n+2) = u(1:2)
    dl = u(0:n+1) - u(-1:n)
    dr = u(1:n+2) - u(0:n+1)
    slope = 0.0d0
    where (dl * dr > 0.0d0) slope = sign(min(abs(dl), abs(dr)), dl)
    ! Upwind (c > 0) reconstruction at the right face of each cell.
    face = u(0:n) + 0.5d0 * (1.0d0 - c) * slope(0:n)
    u(1:n) = u(1:n) - c * (face(1:n) - face(0:n-1))
    ! Keep the solution in a band: clip small values, damp large ones.
    where (u(1:n) < 0.05d0)
      u(1:n) = 0.05d0
    elsewhere (u(1:n) > 1.45d0)
      u(1:n) = 1.45d0 + 0.5d0 * (u(1:n) - 1.45d0)
    elsewhere
      u(1:n) = u(1:n)
    end where
  end do
  cost = sum((u(1:n) - uref)**2, mask=uref > 0.7d0) + 0.1d0 * maxval(u(1:n))
end subroutine muscl_advect
