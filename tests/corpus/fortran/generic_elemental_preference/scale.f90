! A generic with an ELEMENTAL scalar specific and an array specific: an array argument
! takes the array one (Fortran prefers the non-elemental specific), a scalar the
! elemental one.
module sc
  implicit none
  interface scale
    module procedure scale_one, scale_vec
  end interface
contains
  elemental real(8) function scale_one(x)
    real(8), intent(in) :: x
    scale_one = 2*x*x
  end function scale_one
  function scale_vec(x) result(y)
    real(8), intent(in) :: x(:)
    real(8) :: y(4)
    y = 3*x
  end function scale_vec
  subroutine root(n, x, s)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: s
    real(8) :: w(n)
    w = scale(x)
    s = sum(w) + scale(x(1))
  end subroutine root
end module sc
