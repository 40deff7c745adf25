! Damped waves on a string, three time levels given memory by ALLOCATE and rotated by
! the generic `exchange` (the pointer specific of rank 1), and two scalar weights
! exchanged by value through the same generic name.
module wave_mod
  use, intrinsic :: iso_fortran_env, only: real64
  use exchanges, only: exchange
  implicit none
contains
  subroutine wave(n, nsteps, c, damp, u0, energy)
    integer, intent(in) :: n, nsteps
    real(real64), intent(in) :: c, damp, u0(n)
    real(real64), intent(out) :: energy
    real(real64), dimension(:), pointer :: prev, cur, next
    real(real64) :: wa, wb
    integer :: i, k
    allocate(prev(n), cur(n), next(n))
    prev = u0
    cur = u0
    next = 0
    wa = 1.0_real64
    wb = 0.5_real64*damp
    do k = 1, nsteps
      do i = 2, n - 1
        next(i) = 2*cur(i) - prev(i) + c**2*(cur(i+1) - 2*cur(i) + cur(i-1)) &
            - wb*(cur(i) - prev(i))
      end do
      next(1) = 0
      next(n) = 0
      ! prev <- cur <- next: two exchanges of associations
      call exchange(prev, cur)
      call exchange(cur, next)
      call exchange(wa, wb)
    end do
    energy = wa*sum(cur**2) + wb*sum((cur - prev)**2)
    deallocate(prev, cur, next)
  end subroutine wave
end module wave_mod
