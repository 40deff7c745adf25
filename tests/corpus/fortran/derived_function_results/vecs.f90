! Vector algebra in functions returning a derived type, their results assigned whole,
! also to a variable that is one of the arguments (`c = add(c, a)`): the adjoint saves
! the overwritten variable component by component.
module vecs
  implicit none
  type vec
    real(8) :: x, y
  end type vec
contains
  function add(a, b) result(c)
    type(vec), intent(in) :: a, b
    type(vec) :: c
    c%x = a%x + b%x*b%y
    c%y = a%y*b%x
  end function add

  type(vec) function twist(a, t)
    type(vec), intent(in) :: a
    real(8), intent(in) :: t
    twist%x = cos(t)*a%x - sin(t)*a%y
    twist%y = sin(t)*a%x + cos(t)*a%y
  end function twist

  subroutine run(a, b, t, s)
    type(vec), intent(in) :: a, b
    real(8), intent(in) :: t
    real(8), intent(out) :: s
    type(vec) :: c
    integer :: k
    c = add(a, b)
    do k = 1, 3
      c = add(c, a)
      c = twist(c, t)
    end do
    s = c%x*c%y
  end subroutine run
end module vecs
