! A defined assignment (INTERFACE ASSIGNMENT(=)) between two derived types: `c = p`
! converts polar to Cartesian coordinates through its subroutine, while `d = c` (no
! specific takes two carts) stays the intrinsic assignment.
module polar
  implicit none
  type cart
    real(8) :: x, y
  end type cart
  type pol
    real(8) :: r, phi
  end type pol
  interface assignment(=)
    module procedure pol_to_cart
  end interface
contains
  subroutine pol_to_cart(c, p)
    type(cart), intent(out) :: c
    type(pol), intent(in) :: p
    c%x = p%r*cos(p%phi)
    c%y = p%r*sin(p%phi)
  end subroutine pol_to_cart
  subroutine f(r, phi, y)
    real(8), intent(in) :: r, phi
    real(8), intent(out) :: y
    type(pol) :: p
    type(cart) :: c, d
    integer :: i
    y = 0
    do i = 1, 3
      p%r = r*i
      p%phi = phi/i
      c = p
      d = c
      y = y + d%x*c%y
    end do
  end subroutine f
end module polar
