! A radioactive decay chain integrated with classical RK4, written the way modern
! codes declare kinds: through ISO_FORTRAN_ENV, renamed on import.
module precision
  use, intrinsic :: iso_fortran_env, only: wp => real64, ip => int32, error_unit
  implicit none
  private
  public :: wp, ip, error_unit
end module precision

module decay_chain
  use precision
  implicit none
  integer(ip), parameter :: nspecies = 4
contains
  subroutine rates(lambda, y, dydt)
    real(wp), intent(in) :: lambda(nspecies), y(nspecies)
    real(wp), intent(out) :: dydt(nspecies)
    integer(ip) :: k
    dydt(1) = -lambda(1)*y(1)
    do k = 2, nspecies
      dydt(k) = lambda(k - 1)*y(k - 1) - lambda(k)*y(k)
    end do
  end subroutine rates

  subroutine evolve(n, nsteps, dt, lambda, y)
    use, intrinsic :: iso_fortran_env, only: int64
    integer(ip), intent(in) :: n, nsteps
    real(wp), intent(in) :: dt, lambda(n)
    real(wp), intent(inout) :: y(n)
    real(wp) :: k1(nspecies), k2(nspecies), k3(nspecies), k4(nspecies)
    integer(int64) :: step
    if (n /= nspecies) write (error_unit, *) 'evolve: the chain has', nspecies, 'species'
    do step = 1_int64, int(nsteps, int64)
      call rates(lambda, y, k1)
      call rates(lambda, y + 0.5_wp*dt*k1, k2)
      call rates(lambda, y + 0.5_wp*dt*k2, k3)
      call rates(lambda, y + dt*k3, k4)
      y = y + dt/6.0_wp*(k1 + 2.0_wp*k2 + 2.0_wp*k3 + k4)
    end do
  end subroutine evolve
end module decay_chain
