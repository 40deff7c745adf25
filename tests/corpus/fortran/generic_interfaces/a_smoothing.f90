! External procedures with assumed-shape dummies: callers need their explicit
! interfaces, given by INTERFACE blocks (no module).
subroutine smooth3(u, w)
  implicit none
  real(8), intent(in) :: u(:)
  real(8), intent(out) :: w(:)
  integer :: i, n
  n = size(u)
  w(1) = u(1)
  w(n) = u(n)
  do i = 2, n - 1
    w(i) = 0.25d0*u(i-1) + 0.5d0*u(i) + 0.25d0*u(i+1)
  end do
end subroutine smooth3

subroutine scale_rows(a, s)
  implicit none
  real(8), intent(inout) :: a(:, :)
  real(8), intent(in) :: s(:)
  integer :: i
  do i = 1, size(a, 1)
    a(i, :) = s(i)*a(i, :)
  end do
end subroutine scale_rows

! An external procedure that declares the one it calls by an unnamed INTERFACE block.
subroutine total_variation(n, x, tv)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: tv
  interface
    subroutine smooth3(u, w)
      real(8), intent(in) :: u(:)
      real(8), intent(out) :: w(:)
    end subroutine smooth3
  end interface
  real(8) :: xs(n)
  integer :: i
  call smooth3(x, xs)
  tv = 0d0
  do i = 2, n
    tv = tv + sqrt((xs(i) - xs(i-1))**2 + 1d-2)
  end do
end subroutine total_variation
