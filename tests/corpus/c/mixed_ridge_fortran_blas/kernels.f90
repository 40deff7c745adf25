! BLAS-like kernels callable from C by their plain names.

! y = y + alpha * A tanh(x), A stored by columns (m x n).
subroutine gemv_tanh_acc(m, n, alpha, a, x, y) bind(C)
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  integer(c_int), value :: m, n
  real(c_double), value :: alpha
  real(c_double), intent(in) :: a(m, n), x(n)
  real(c_double), intent(inout) :: y(m)
  real(c_double) :: t
  integer :: i, j
  do j = 1, n
    t = alpha * tanh(x(j))
    do i = 1, m
      y(i) = y(i) + t * a(i, j)
    end do
  end do
end subroutine gemv_tanh_acc

function dot(n, x, y) bind(C, name="dot")
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n), y(n)
  real(c_double) :: dot
  integer :: i
  dot = 0.0d0
  do i = 1, n
    dot = dot + x(i) * y(i)
  end do
end function dot

subroutine scale(n, alpha, x) bind(C)
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  integer(c_int), value :: n
  real(c_double), value :: alpha
  real(c_double), intent(inout) :: x(n)
  x = alpha * x
end subroutine scale
