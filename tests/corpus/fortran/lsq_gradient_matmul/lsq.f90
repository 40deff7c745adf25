! Ridge least squares by a few steps of gradient descent, in matrix notation:
!   r = A x - b,  g = A^T r + lambda x,  x <- x - alpha g,
! then the cost 1/2 |A x - b|^2 + lambda/2 |x|^2 at the final iterate.
! Features: MATMUL of a matrix and a vector, TRANSPOSE inside MATMUL, DOT_PRODUCT,
! whole-array updates with scalar broadcast, SUM of squares, 2-D dummy a(m, n).
subroutine lsq_gradient(m, n, niter, a, b, x0, lambda, cost)
  implicit none
  integer, intent(in) :: m, n, niter
  real(8), intent(in) :: a(m, n), b(m), x0(n), lambda
  real(8), intent(out) :: cost
  real(8) :: x(n), r(m), g(n)
  real(8) :: alpha
  integer :: it

  ! A safe step from the Frobenius norm (an upper bound of the spectral norm squared).
  alpha = 1.0d0 / (sum(a**2) + lambda)
  x = x0
  do it = 1, niter
    r = matmul(a, x) - b
    g = matmul(transpose(a), r) + lambda * x
    x = x - alpha * g
  end do
  r = matmul(a, x) - b
  cost = 0.5d0 * dot_product(r, r) + 0.5d0 * lambda * sum(x * x)
end subroutine lsq_gradient
