! Periodic linear advection with a MUSCL scheme and minmod-limited slopes, for nsteps
! forward-Euler steps; the output is the final profile and its total variation.
! Features: time stepping (100+ steps) calling a subroutine, periodic indices with
! MOD, MIN/MAX/ABS/SIGN on active values, local work arrays bounded by a PARAMETER.
subroutine advect(n, nsteps, c, u, tv)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: c
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: tv
  integer :: step, i
  do step = 1, nsteps
    call muscl_step(n, c, u)
  end do
  tv = 0.0d0
  do i = 1, n
    tv = tv + abs(u(mod(i, n) + 1) - u(i))
  end do
end subroutine advect

subroutine muscl_step(n, c, u)
  implicit none
  integer, parameter :: nmax = 128
  integer, intent(in) :: n
  real(8), intent(in) :: c
  real(8), intent(inout) :: u(n)
  real(8) :: slope(nmax), flux(nmax), dl, dr
  integer :: i, im, ip
  do i = 1, n
    im = mod(i + n - 2, n) + 1
    ip = mod(i, n) + 1
    dl = u(i) - u(im)
    dr = u(ip) - u(i)
    slope(i) = 0.5d0 * (sign(1.0d0, dl) + sign(1.0d0, dr)) * min(abs(dl), abs(dr))
  end do
  do i = 1, n
    flux(i) = c * (u(i) + 0.5d0 * (1.0d0 - c) * max(-abs(slope(i)), min(slope(i), abs(slope(i)))))
  end do
  do i = 1, n
    im = mod(i + n - 2, n) + 1
    u(i) = u(i) - (flux(i) - flux(im))
  end do
end subroutine muscl_step
