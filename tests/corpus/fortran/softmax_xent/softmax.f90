! A linear classifier's softmax cross-entropy over a small batch, with the usual
! max-shift for stability: z = W x + c, p = exp(z - max(z)) / sum(exp(z - max(z))),
! loss = -sum(y log p) averaged over the batch, plus an L2 penalty on W.
! The predicted class of each sample (MAXLOC) is a passive integer output.
! Features: MATMUL of a matrix and a column section x(:, s), MAXVAL, SUM, EXP/LOG
! elementwise, array divided by a reduction, MAXLOC with DIM, sections of 2-D arrays.
subroutine softmax_xent(nclass, nfeat, nbatch, w, c, x, y, loss, pred)
  implicit none
  integer, intent(in) :: nclass, nfeat, nbatch
  real(8), intent(in) :: w(nclass, nfeat), c(nclass)
  real(8), intent(in) :: x(nfeat, nbatch), y(nclass, nbatch)
  real(8), intent(out) :: loss
  integer, intent(out) :: pred(nbatch)
  real(8) :: z(nclass), p(nclass)
  real(8) :: zmax
  integer :: s

  loss = 0.0d0
  do s = 1, nbatch
    z = matmul(w, x(:, s)) + c
    zmax = maxval(z)
    p = exp(z - zmax)
    p = p / sum(p)
    loss = loss - sum(y(:, s) * log(p))
    pred(s) = maxloc(p, dim=1)
  end do
  loss = loss / dble(nbatch) + 1.0d-3 * sum(w**2)
end subroutine softmax_xent
