! An explicit diffusion step from `u` into `un`, and a run of `nt` steps whose
! energy is returned; the pointers come from another file's module. `restart`
! associates them through the module's own procedure.
subroutine diffuse(c)
  use levels, only: n, u, un
  implicit none
  real(8), intent(in) :: c
  integer :: i
  do i = 2, n - 1
    un(i) = u(i) + c * (u(i+1) - 2.0d0*u(i) + u(i-1)) - 0.1d0 * u(i)**2
  end do
  un(1) = u(1)
  un(n) = u(n)
end subroutine diffuse

function energy() result(e)
  use levels
  implicit none
  real(8) :: e
  e = 0.0d0
  if (associated(u)) e = sum(u**2)
  if (associated(u, u_2)) e = e + 0.5d0 * u(1)
end function energy

subroutine run(m, u0, c, nt, e)
  use levels
  implicit none
  integer, intent(in) :: m, nt
  real(8), intent(in) :: u0(m), c
  real(8), intent(out) :: e
  real(8), external :: energy
  integer :: it
  ! Associated here, then exchanged by the calls.
  u => u_2
  un => u_1
  call swap_levels()
  u = u0(1:n)
  un = 0.0d0
  do it = 1, nt
    call diffuse(c)
    call swap_levels()
  end do
  e = energy() + sum(un)
end subroutine run

subroutine restart(m, u0, c, e)
  use levels
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: u0(m), c
  real(8), intent(out) :: e
  call init_levels()
  u = u0(1:n)
  call diffuse(c)
  e = sum(un * u)
end subroutine restart
