! COMPLEX arrays in whole-array expressions, a COMPLEX component of a derived type, and
! the reductions SUM, PRODUCT and DOT_PRODUCT of complex vectors (DOT_PRODUCT conjugates
! its first argument) and MAXVAL of their moduli.
module cwave
  implicit none
  integer, parameter :: dp = kind(1d0)
  type field
    complex(dp) :: amp
    real(dp) :: k
  end type field
contains
  subroutine propagate(n, x, y)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: y
    complex(dp) :: z(n), w(n), s
    type(field) :: f
    integer :: i
    z = cmplx(x, 0.5_dp*x, kind=dp)
    w = z*z + conjg(z)
    s = sum(w*z)
    f%amp = s
    f%k = x(1)
    do i = 1, n
      z(i) = z(i)*f%amp + exp((0.0_dp, 1.0_dp)*f%k*x(i))
    end do
    s = dot_product(z, w) + product(z(1:2))
    y = abs(s) + real(f%amp*conjg(z(n)), dp) + maxval(abs(z))
  end subroutine propagate
end module cwave
