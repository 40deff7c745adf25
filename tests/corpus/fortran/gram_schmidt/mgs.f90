! Modified Gram-Schmidt QR factorisation of an m-by-n matrix written BLAS style: the
! columns are handed to vector kernels as their first element, q(1, k), and the
! kernels see them as vectors x(m) (sequence association).
! Features: array elements as actual arguments for array dummies, a function calling
! a function with the same array twice (vnorm -> vdot(m, x, x)), subroutines updating
! one column from another, 2-D arrays, SQRT.
subroutine mgs_qr(m, n, a, q, r)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: q(m, n), r(n, n)
  real(8) :: vdot, vnorm
  integer :: i, j, k
  do j = 1, n
    do i = 1, m
      q(i, j) = a(i, j)
    end do
    do i = 1, n
      r(i, j) = 0.0d0
    end do
  end do
  do k = 1, n
    r(k, k) = vnorm(m, q(1, k))
    call vscale(m, 1.0d0 / r(k, k), q(1, k))
    do j = k + 1, n
      r(k, j) = vdot(m, q(1, k), q(1, j))
      call vaxpy(m, -r(k, j), q(1, k), q(1, j))
    end do
  end do
end subroutine mgs_qr

real(8) function vdot(m, x, y)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: x(m), y(m)
  integer :: i
  vdot = 0.0d0
  do i = 1, m
    vdot = vdot + x(i) * y(i)
  end do
end function vdot

real(8) function vnorm(m, x)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: x(m)
  real(8) :: vdot
  vnorm = sqrt(vdot(m, x, x))
end function vnorm

subroutine vscale(m, s, x)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: s
  real(8), intent(inout) :: x(m)
  integer :: i
  do i = 1, m
    x(i) = s * x(i)
  end do
end subroutine vscale

subroutine vaxpy(m, alpha, x, y)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: alpha, x(m)
  real(8), intent(inout) :: y(m)
  integer :: i
  do i = 1, m
    y(i) = y(i) + alpha * x(i)
  end do
end subroutine vaxpy
