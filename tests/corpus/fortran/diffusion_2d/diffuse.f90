! Two-dimensional reaction-diffusion u_t = d lap(u) - k u**3 on a grid with ghost
! cells u(0:nx+1, 0:ny+1); zero-flux boundaries are imposed by copying edge values
! into the ghost cells before every explicit step.
! Features: 2-D arrays with lower bound 0, time stepping (100 steps) calling two
! subroutines, a local 2-D work array bounded by PARAMETERs, nested loops, REAL(8).
subroutine diffuse2d(nx, ny, nsteps, d, k, u, total)
  implicit none
  integer, intent(in) :: nx, ny, nsteps
  real(8), intent(in) :: d, k
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1)
  real(8), intent(out) :: total
  integer :: step, i, j
  do step = 1, nsteps
    call ghost_fill(nx, ny, u)
    call reaction_diffusion_step(nx, ny, d, k, u)
  end do
  total = 0.0d0
  do j = 1, ny
    do i = 1, nx
      total = total + u(i, j)**2
    end do
  end do
end subroutine diffuse2d

subroutine ghost_fill(nx, ny, u)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1)
  integer :: i, j
  do j = 1, ny
    u(0, j) = u(1, j)
    u(nx + 1, j) = u(nx, j)
  end do
  do i = 0, nx + 1
    u(i, 0) = u(i, 1)
    u(i, ny + 1) = u(i, ny)
  end do
end subroutine ghost_fill

subroutine reaction_diffusion_step(nx, ny, d, k, u)
  implicit none
  integer, parameter :: mx = 64, my = 64
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: d, k
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1)
  real(8), parameter :: dt = 0.2d0
  real(8) :: lap(mx, my)
  integer :: i, j
  do j = 1, ny
    do i = 1, nx
      lap(i, j) = u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - 4.0d0 * u(i, j)
    end do
  end do
  do j = 1, ny
    do i = 1, nx
      u(i, j) = u(i, j) + dt * (d * lap(i, j) - k * u(i, j)**3)
    end do
  end do
end subroutine reaction_diffusion_step
