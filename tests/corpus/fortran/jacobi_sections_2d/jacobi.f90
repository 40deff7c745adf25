! Jacobi sweeps for the Poisson problem -lap(u) = f on a square grid with zero
! boundary values, written with 2-D sections: the interior update reads the four
! shifted interior blocks of u. A weighted (damped) Jacobi: u = (1-om) u + om unew.
! The cost compares the solution with a target on the interior and adds the
! largest residual magnitude (MAXVAL of ABS of a section expression).
! Features: 2-D sections with offsets in both dimensions, whole 2-D arrays, a
! column-sum reduction SUM(..., DIM=1), MAXVAL, scalar broadcast on 2-D sections.
subroutine jacobi_poisson(n, nsweep, f, target, omega, cost)
  implicit none
  integer, intent(in) :: n, nsweep
  real(8), intent(in) :: f(n, n), target(n, n), omega
  real(8), intent(out) :: cost
  real(8) :: u(n, n), unew(n, n), colsum(n)
  real(8) :: h2
  integer :: sweep

  h2 = 1.0d0 / dble(n - 1)**2
  u = 0.0d0
  unew = 0.0d0
  do sweep = 1, nsweep
    unew(2:n-1, 2:n-1) = 0.25d0 * (u(1:n-2, 2:n-1) + u(3:n, 2:n-1) &
                                 + u(2:n-1, 1:n-2) + u(2:n-1, 3:n) + h2 * f(2:n-1, 2:n-1))
    u(2:n-1, 2:n-1) = (1.0d0 - omega) * u(2:n-1, 2:n-1) + omega * unew(2:n-1, 2:n-1)
  end do
  colsum = sum((u - target)**2, dim=1)
  cost = sum(colsum) / dble(n * n) &
       + maxval(abs(4.0d0 * u(2:n-1, 2:n-1) - u(1:n-2, 2:n-1) - u(3:n, 2:n-1) &
                    - u(2:n-1, 1:n-2) - u(2:n-1, 3:n) - h2 * f(2:n-1, 2:n-1)))
end subroutine jacobi_poisson
