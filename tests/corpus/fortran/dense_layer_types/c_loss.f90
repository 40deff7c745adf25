! Regularized mean squared error of the network over a batch.
! Features: root outside modules building a nested type from plain arrays,
! array assignment to nested array components, a module function in the cost.
subroutine batch_loss(nsamp, w1, b1, w2, b2, xs, ys, smooth, loss)
  use nn_sizes, only: dp, nout
  use nn_layers, only: network, predict, weight_norm, output_weight
  implicit none
  integer, intent(in) :: nsamp
  real(dp), intent(in) :: w1(4, 3), b1(4), w2(2, 4), b2(2)
  real(dp), intent(in) :: xs(3, nsamp), ys(2, nsamp)
  logical, intent(in) :: smooth
  real(dp), intent(out) :: loss
  type(network) :: net
  real(dp) :: y(nout)
  integer :: s, k
  net%hidden%w = w1
  net%hidden%b = b1
  net%output%w = w2
  net%output%b = b2
  net%decay = 1.0e-2_dp
  loss = 0.0_dp
  do s = 1, nsamp
    call predict(net, xs(:, s), y, smooth)
    do k = 1, nout
      loss = loss + output_weight(k) * (y(k) - ys(k, s))**2
    end do
  end do
  loss = loss / nsamp + net%decay * weight_norm(net)
end subroutine batch_loss
