! Power means and a few power laws of a positive sample.
! Features: ** with integer constant, negative integer, integer variable, real
! constant and real variable exponents, and a real base raised to an active power.
subroutine power_means(n, x, p, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), p
  real(8), intent(out) :: r(5)
  real(8) :: s2, s3, sinv, sp, sroot
  integer :: i, e
  s2 = 0.0d0
  s3 = 0.0d0
  sinv = 0.0d0
  sp = 0.0d0
  sroot = 0.0d0
  do i = 1, n
    e = mod(i, 3) + 1
    s2 = s2 + x(i)**2
    s3 = s3 + x(i)**3 + x(i)**e
    sinv = sinv + x(i)**(-2)
    sp = sp + x(i)**p
    sroot = sroot + (1.0d0 + x(i))**1.5d0 + 2.0d0**x(i)
  end do
  r(1) = (s2 / dble(n))**0.5d0
  r(2) = (s3 / dble(n))**(1.0d0 / 3.0d0)
  r(3) = (sinv / dble(n))**(-0.5d0)
  r(4) = (sp / dble(n))**(1.0d0 / p)
  r(5) = sroot**2
end subroutine power_means
