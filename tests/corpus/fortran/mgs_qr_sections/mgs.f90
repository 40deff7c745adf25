! Modified Gram-Schmidt QR of a tall matrix, the columns handed to BLAS-1 style
! kernels as sections: a function dot(m, x, y) called with columns q(:, k), a
! subroutine axpy updating the column section q(:, j) in place, a scaling of the
! column by whole-section arithmetic. The cost weighs the entries of R and the
! orthogonality residual of the last two columns.
! Features: column sections as actual arguments (explicit-shape dummies), a
! function of sections inside an expression, a section copied into a work vector,
! whole-array initialization, SUM of a weighted 2-D expression.
subroutine mgs_qr(m, n, a, w, cost)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(m, n), w(n, n)
  real(8), intent(out) :: cost
  real(8) :: q(m, n), r(n, n), v(m)
  real(8), external :: dot
  integer :: j, k

  q = a
  r = 0.0d0
  do j = 1, n
    do k = 1, j - 1
      r(k, j) = dot(m, q(:, k), q(:, j))
      v = q(:, k)
      call axpy(m, -r(k, j), v, q(:, j))
    end do
    r(j, j) = sqrt(dot(m, q(:, j), q(:, j)))
    q(:, j) = q(:, j) / r(j, j)
  end do
  cost = sum(w * r**2) + dot(m, q(:, n-1), q(:, n))**2
end subroutine mgs_qr

real(8) function dot(m, x, y)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: x(m), y(m)
  integer :: i
  dot = 0.0d0
  do i = 1, m
    dot = dot + x(i) * y(i)
  end do
end function dot

subroutine axpy(m, alpha, x, y)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: alpha, x(m)
  real(8), intent(inout) :: y(m)
  y = y + alpha * x
end subroutine axpy
