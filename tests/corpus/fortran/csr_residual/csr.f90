! Residual r = b - A x and its norm for a sparse matrix in compressed sparse row
! (CSR) storage: the row pointers and column indices are integer input arrays.
! Features: indirect addressing x(colidx(p)) and vals(p), loop bounds read from an
! integer array, integer array inputs given by check.toml, SQRT.
subroutine csr_residual(n, nnz, rowptr, colidx, vals, x, b, r, rnorm)
  implicit none
  integer, intent(in) :: n, nnz
  integer, intent(in) :: rowptr(n + 1), colidx(nnz)
  real(8), intent(in) :: vals(nnz), x(n), b(n)
  real(8), intent(out) :: r(n), rnorm
  real(8) :: s
  integer :: i, p
  do i = 1, n
    s = 0.0d0
    do p = rowptr(i), rowptr(i + 1) - 1
      s = s + vals(p) * x(colidx(p))
    end do
    r(i) = b(i) - s
  end do
  rnorm = 0.0d0
  do i = 1, n
    rnorm = rnorm + r(i)**2
  end do
  rnorm = sqrt(rnorm)
end subroutine csr_residual
