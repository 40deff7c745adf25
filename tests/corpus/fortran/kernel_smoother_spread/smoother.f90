! Nadaraya-Watson kernel smoothing of samples y(t) on their own abscissae, then a
! 2-D view of the smoothed values (RESHAPE into a m-by-m grid) that is symmetrized
! with TRANSPOSE. The Gaussian kernel matrix K(i,j) = exp(-(t(i)-t(j))^2/ell^2) is
! built from two SPREADs of t, normalized by its row sums SUM(K, DIM=2).
! Features: SPREAD along both dimensions, SUM with DIM=2, MATMUL matrix-vector,
! RESHAPE with a constructor shape, TRANSPOSE, array constructor of weights.
subroutine kernel_smoother(m, t, y, ell, cost)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: t(m*m), y(m*m), ell
  real(8), intent(out) :: cost
  real(8) :: k(m*m, m*m), ys(m*m), rowsum(m*m), grid(m, m), sym(m, m)
  real(8) :: wts(3)
  integer :: n

  n = m * m
  k = exp(-(spread(t, 2, n) - spread(t, 1, n))**2 / ell**2)
  rowsum = sum(k, dim=2)
  ys = matmul(k, y) / rowsum
  grid = reshape(ys, [m, m])
  sym = 0.5d0 * (grid + transpose(grid))
  wts = [0.5d0, 0.3d0, 0.2d0 * ell]
  cost = wts(1) * sum(sym**2) + wts(2) * sum(ys * y) + wts(3) * sum(grid(1, :))
end subroutine kernel_smoother
