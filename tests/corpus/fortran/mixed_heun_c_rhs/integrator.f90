! Heun's method (explicit trapezoid) for dy/dt = f(k, y), with the right-hand side
! written in C and called through a BIND(C) interface.
subroutine heun_integrate(n, nsteps, dt, k, y0, y, energy)
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: dt, k(n), y0(n)
  real(8), intent(out) :: y(n), energy
  interface
    subroutine chain_rhs(n, k, y, f) bind(C, name="chain_rhs")
      use, intrinsic :: iso_c_binding, only: c_int, c_double
      integer(c_int), value :: n
      real(c_double), intent(in) :: k(n), y(n)
      real(c_double), intent(out) :: f(n)
    end subroutine chain_rhs
    function chain_energy(n, y) bind(C)
      use, intrinsic :: iso_c_binding, only: c_int, c_double
      integer(c_int), value :: n
      real(c_double), intent(in) :: y(n)
      real(c_double) :: chain_energy
    end function chain_energy
  end interface
  real(8) :: f1(n), f2(n), ytmp(n)
  integer :: step, i

  y = y0
  do step = 1, nsteps
    call chain_rhs(n, k, y, f1)
    do i = 1, n
      ytmp(i) = y(i) + dt * f1(i)
    end do
    call chain_rhs(n, k, ytmp, f2)
    do i = 1, n
      y(i) = y(i) + 0.5d0 * dt * (f1(i) + f2(i))
    end do
  end do
  energy = chain_energy(n, y)
end subroutine heun_integrate
