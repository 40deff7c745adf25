module dyn
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine integrate(n, nsteps, dt, k, u)
    integer, intent(in) :: n, nsteps
    real(dp), intent(in) :: dt, k
    real(dp), intent(inout) :: u(n)
    real(dp) :: f(n), energy
    integer :: s
    real(dp), parameter :: half = 0.5_dp
    energy = 0
    do s = 1, nsteps
      call rhs(u)
      u = u + dt * f
      energy = energy + total()
    end do
    u(1) = u(1) + half * energy
  contains
    ! The right-hand side: reads k and n from the host, writes f.
    subroutine rhs(v)
      real(dp), intent(in) :: v(n)
      integer :: i
      do i = 1, n
        f(i) = -k * v(i) * abs(v(i)) + half * v(mod(i, n) + 1)
      end do
    end subroutine rhs
    real(dp) function total()
      total = sum(u**2) * dt
    end function total
  end subroutine integrate
end module dyn
