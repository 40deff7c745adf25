! An explicit finite-difference model of the 1-D heat equation
!
!     du/dt = k d2u/dx2  on  0 < x < 1,   u(0) = u(1) = 0,   u(x, 0) = u0(x),
!
! on n interior points, with a misfit cost j between the final state and a target.
! adgen differentiates `heat` with respect to u0 and k (see ../ad.toml).

! Runs nsteps explicit Euler steps from u0 with diffusivity k and returns
! j = sum over interior points of (u - target)**2.
subroutine heat(n, nsteps, u0, k, target, j)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: u0(n), k, target(n)
  real(8), intent(out) :: j
  real(8) :: u(0:n+1), unew(0:n+1)
  real(8) :: dx, dt, r
  integer :: i, step

  dx = 1.0d0 / real(n + 1, 8)
  ! Stable while k * dt / dx**2 <= 1/2, that is for k <= 1.25.
  dt = 0.4d0 * dx * dx
  r = dt / (dx * dx)

  u(0) = 0.0d0
  u(n + 1) = 0.0d0
  do i = 1, n
    u(i) = u0(i)
  end do
  unew(0) = 0.0d0
  unew(n + 1) = 0.0d0

  do step = 1, nsteps
    call heat_step(n, u, unew, k, r)
  end do

  j = 0.0d0
  do i = 1, n
    j = j + (u(i) - target(i))**2
  end do
end subroutine heat

! One explicit Euler step of the heat equation, in place on u; unew is work space.
subroutine heat_step(n, u, unew, k, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: u(0:n+1), unew(0:n+1)
  real(8), intent(in) :: k, r
  integer :: i

  do i = 1, n
    unew(i) = u(i) + k * r * (u(i - 1) - 2.0d0 * u(i) + u(i + 1))
  end do
  do i = 1, n
    u(i) = unew(i)
  end do
end subroutine heat_step
