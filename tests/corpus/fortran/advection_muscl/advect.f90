! Periodic linear advection with a MUSCL scheme and van Albada-type slopes (smooth, so
! that finite differences are meaningful), for nsteps forward-Euler steps; the
! output is the final profile and its total variation.
! Features: time stepping (100+ steps) calling a subroutine, periodic indices with
! MOD, ABS, local work arrays bounded by a PARAMETER.
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
    slope(i) = dl * dr * (dl + dr) / (dl * dl + dr * dr + 1.0d-12)
  end do
  do i = 1, n
    flux(i) = c * (u(i) + 0.5d0 * (1.0d0 - c) * slope(i))
  end do
  do i = 1, n
    im = mod(i + n - 2, n) + 1
    u(i) = u(i) - (flux(i) - flux(im))
  end do
end subroutine muscl_step
