! Layer normalization of a batch of feature columns followed by a squared error, the
! way a modern code takes its arrays: assumed-shape dummies whose extents come from
! SIZE, an automatic work array sized by SIZE, and column sections x(:, s).
! Features: assumed-shape dummies x(:, :) and gamma(:), SIZE with DIM, an automatic
! array xhat(size(x, 1)), reductions over sections, SQRT broadcast, LBOUND/UBOUND in
! loop bounds, a scalar result accumulated over columns.
subroutine layernorm_loss(x, gamma, beta, target, eps, loss)
  implicit none
  real(8), intent(in) :: x(:, :), gamma(:), beta(:), target(:, :)
  real(8), intent(in) :: eps
  real(8), intent(out) :: loss
  real(8) :: xhat(size(x, 1))
  real(8) :: mu, var
  integer :: s, nf

  nf = size(x, 1)
  loss = 0.0d0
  do s = lbound(x, 2), ubound(x, 2)
    mu = sum(x(:, s)) / dble(nf)
    var = sum((x(:, s) - mu)**2) / dble(nf)
    xhat = (x(:, s) - mu) / sqrt(var + eps)
    loss = loss + sum((gamma * xhat + beta - target(:, s))**2)
  end do
  loss = loss / dble(size(x, 2))
end subroutine layernorm_loss
