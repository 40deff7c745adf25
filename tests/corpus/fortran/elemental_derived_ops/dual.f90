! ELEMENTAL functions behind defined operators applied to whole arrays of a derived
! type: q = p + 0.5d0*p. The adjoint of q(i) = padd(...) resets that element's adjoint
! only; with every optimization off, the element is saved component by component.
module dual_ops
  implicit none
  type pt
    real(8) :: x, y
  end type pt
  interface operator(+)
    module procedure padd
  end interface
  interface operator(*)
    module procedure pscale
  end interface
contains
  elemental function padd(a, b) result(c)
    type(pt), intent(in) :: a, b
    type(pt) :: c
    c%x = a%x + b%x
    c%y = a%y + b%y
  end function padd
  elemental function pscale(s, a) result(c)
    real(8), intent(in) :: s
    type(pt), intent(in) :: a
    type(pt) :: c
    c%x = s*a%x
    c%y = s*a%y*a%x
  end function pscale
  subroutine root(n, u, y)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    real(8), intent(out) :: y
    type(pt) :: p(n), q(n)
    integer :: i
    do i = 1, n
      p(i)%x = u(i)
      p(i)%y = u(i)**2
    end do
    q = p + 0.5d0*p
    y = 0
    do i = 1, n
      y = y + q(i)%x*q(i)%y
    end do
  end subroutine root
end module dual_ops
