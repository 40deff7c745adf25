! Negative log-likelihood of logistic regression with L2 regularisation, written as a
! DOUBLE PRECISION FUNCTION whose result is its own name.
! Features: function root without RESULT clause, 2-D explicit-shape array, numerically
! stable log(1+exp(z)) through MAX/ABS/LOG/EXP, logical IF, intrinsic DBLE.
double precision function nll(m, nf, x, label, w, lambda)
  implicit none
  integer, intent(in) :: m, nf
  double precision, intent(in) :: x(m, nf), label(m), w(nf), lambda
  double precision :: z, reg
  integer :: i, j
  nll = 0.0d0
  do i = 1, m
    z = 0.0d0
    do j = 1, nf
      z = z + x(i, j) * w(j)
    end do
    nll = nll + max(z, 0.0d0) + log(1.0d0 + exp(-abs(z))) - label(i) * z
  end do
  reg = 0.0d0
  do j = 1, nf
    reg = reg + w(j)**2
  end do
  if (lambda > 0.0d0) nll = nll + 0.5d0 * lambda * reg
  nll = nll / dble(m)
end function nll
