! The library the model links: two kernels and the derivatives a user writes for the
! three black boxes of ad.toml.

subroutine sqaxpy(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  do i = 1, n
    y(i) = y(i) + a*x(i)**2
  end do
end subroutine sqaxpy

subroutine sqaxpy_d(n, a, ad, x, xd, y, yd)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, ad, x(n), xd(n)
  real(8), intent(inout) :: y(n), yd(n)
  integer :: i
  do i = 1, n
    yd(i) = yd(i) + ad*x(i)**2 + 2d0*a*x(i)*xd(i)
    y(i) = y(i) + a*x(i)**2
  end do
end subroutine sqaxpy_d

! Called with the inputs as they were before the call; takes the adjoints after the
! call and leaves those before it.
subroutine sqaxpy_b(n, a, ab, x, xb, y, yb)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n), y(n)
  real(8), intent(inout) :: ab, xb(n), yb(n)
  integer :: i
  do i = 1, n
    ab = ab + x(i)**2*yb(i)
    xb(i) = xb(i) + 2d0*a*x(i)*yb(i)
  end do
end subroutine sqaxpy_b

real(8) function wnorm(n, x)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  wnorm = sqrt(1d0 + sum(x**2))
end function wnorm

! Named in ad.toml: returns the derivative, stores the value in its last argument.
real(8) function wnorm_tangent(n, x, xd, w)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), xd(n)
  real(8), intent(out) :: w
  w = sqrt(1d0 + sum(x**2))
  wnorm_tangent = sum(x*xd)/w
end function wnorm_tangent

subroutine wnorm_gradient(n, x, xb, wb)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), wb
  real(8), intent(inout) :: xb(n)
  xb = xb + x/sqrt(1d0 + sum(x**2))*wb
end subroutine wnorm_gradient

subroutine smooth_d(n, y, yd)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: y(n), yd(n)
  call smooth(n, y)
  call smooth(n, yd)
end subroutine smooth_d

subroutine smooth_b(n, y, yb)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: y(n), yb(n)
  call smooth(n, yb)
end subroutine smooth_b

! The module procedure kernels::damp, differentiated by hand as external procedures.
subroutine damp_d(n, c, cd, y, yd)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: c, cd
  real(8), intent(inout) :: y(n), yd(n)
  yd = (yd - cd*y)*exp(-c)
  y = y*exp(-c)
end subroutine damp_d

subroutine damp_b(n, c, cb, y, yb)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: c, y(n)
  real(8), intent(inout) :: cb, yb(n)
  cb = cb - sum(yb*y)*exp(-c)
  yb = yb*exp(-c)
end subroutine damp_b
