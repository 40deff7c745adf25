! Subroutines that only exchange their POINTER dummies are written into their callers
! (they stay refused themselves, E0405, for a root that would reach them); a pointer
! left disassociated by one is refused where it is used next, also where selectors
! follow the pointers (their targets depend on the iteration).
! expect E0405 at 13:5
! expect E0405 at 18:5
! expect E0401 at 36:3
! expect E0401 at 57:3
module levels
  implicit none
contains
  subroutine retire(keep, gone)
    real(8), pointer :: keep(:), gone(:)
    keep => gone
    nullify(gone)
  end subroutine retire
  subroutine swap(f, g)
    real(8), pointer, intent(inout) :: f(:), g(:)
    real(8), pointer :: t(:)
    t => f
    f => g
    g => t
  end subroutine swap
end module levels

subroutine last_energy(n, u0, e)
  use levels
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u0(n)
  real(8), intent(out) :: e
  real(8), target :: a(n)
  real(8), pointer :: u(:), last(:)
  a = u0
  u => a
  call retire(u, last)
  e = sum(u**2)
end subroutine last_energy

subroutine swapped_energy(n, u0, e)
  use levels
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u0(n)
  real(8), intent(out) :: e
  real(8), target :: a(n), b(n)
  real(8), pointer :: u(:), v(:)
  integer :: t
  a = u0
  b = 2*u0
  u => a
  v => b
  do t = 1, n
    call swap(u, v)
  end do
  call retire(u, v)
  e = sum(v**2)
end subroutine swapped_energy
