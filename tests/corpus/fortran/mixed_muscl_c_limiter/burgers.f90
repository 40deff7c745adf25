! MUSCL finite volumes for viscous Burgers on a periodic grid: the slope limiter and the
! numerical flux are C functions taking their states by value (BIND(C) with VALUE); the
! flux comes back through a pointer.
subroutine burgers_muscl(n, nsteps, dt, dx, visc, u, energy)
  use, intrinsic :: iso_c_binding, only: c_double
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: dt, dx, visc
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: energy
  interface
    function van_albada(a, b) bind(C, name="van_albada")
      use, intrinsic :: iso_c_binding, only: c_double
      real(c_double), value :: a, b
      real(c_double) :: van_albada
    end function van_albada
    subroutine rusanov_flux(ul, ur, f) bind(C, name="rusanov_flux")
      use, intrinsic :: iso_c_binding, only: c_double
      real(c_double), value :: ul, ur
      real(c_double), intent(out) :: f
    end subroutine rusanov_flux
  end interface
  real(8) :: slope(n), flux(0:n)
  integer :: step, i, im, ip

  do step = 1, nsteps
    do i = 1, n
      im = modulo(i - 2, n) + 1
      ip = modulo(i, n) + 1
      slope(i) = van_albada(u(i) - u(im), u(ip) - u(i))
    end do
    do i = 1, n
      ip = modulo(i, n) + 1
      call rusanov_flux(u(i) + 0.5d0 * slope(i), u(ip) - 0.5d0 * slope(ip), flux(i))
      flux(i) = flux(i) - visc * (u(ip) - u(i)) / dx
    end do
    flux(0) = flux(n)
    do i = 1, n
      u(i) = u(i) - dt / dx * (flux(i) - flux(i - 1))
    end do
  end do
  energy = 0.0d0
  do i = 1, n
    energy = energy + 0.5d0 * dx * u(i)**2
  end do
end subroutine burgers_muscl
