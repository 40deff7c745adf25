! A library routine that takes its integrand as an argument, as QUADPACK's qags does,
! listed in ad.toml before the model. adgen copies it for the model's integrand, and
! that copy reads the model's module variable, so the library's derivative file uses
! the model's derivative module and must be compiled after it.
subroutine trapz(f, a, b, n, r)
  implicit none
  real(8), external :: f
  real(8), intent(in) :: a, b
  integer, intent(in) :: n
  real(8), intent(out) :: r
  integer :: i
  real(8) :: h
  h = (b - a)/n
  r = 0.5d0*(f(a) + f(b))
  do i = 1, n - 1
    r = r + f(a + i*h)
  end do
  r = r*h
end subroutine trapz
