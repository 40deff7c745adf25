! Dense layers with weights and biases in derived types, nested in a network type.
! Features: 2-D and 1-D array components, a type nesting two other types, a nested
! component passed as a derived-type actual argument (net%hidden), an activation
! chosen by a logical argument, a loss function of a derived type, a read-only
! module table initialized in its declaration.
module nn_layers
  use nn_sizes
  implicit none

  type :: hidden_layer
    real(dp) :: w(nhid, nin)
    real(dp) :: b(nhid)
  end type hidden_layer

  type :: output_layer
    real(dp) :: w(nout, nhid)
    real(dp) :: b(nout)
  end type output_layer

  type :: network
    type(hidden_layer) :: hidden
    type(output_layer) :: output
    real(dp) :: decay            ! weight-decay coefficient
  end type network

  ! Per-output weights of the loss: read only.
  real(dp) :: output_weight(nout) = (/ 1.0_dp, 0.5_dp /)

contains

  function softplus(x) result(y)
    implicit none ! repeats the module's, as many codes do
    real(dp), intent(in) :: x
    real(dp) :: y
    y = log(1.0_dp + exp(x))
  end function softplus

  subroutine hidden_forward(layer, x, h, smooth)
    type(hidden_layer), intent(in) :: layer
    real(dp), intent(in) :: x(nin)
    real(dp), intent(out) :: h(nhid)
    logical, intent(in) :: smooth
    integer :: i, j
    real(dp) :: a
    do i = 1, nhid
      a = layer%b(i)
      do j = 1, nin
        a = a + layer%w(i, j) * x(j)
      end do
      if (smooth) then
        h(i) = softplus(a)
      else
        h(i) = tanh(a) + leak * a
      end if
    end do
  end subroutine hidden_forward

  subroutine output_forward(layer, h, y)
    type(output_layer), intent(in) :: layer
    real(dp), intent(in) :: h(nhid)
    real(dp), intent(out) :: y(nout)
    integer :: i, j
    do i = 1, nout
      y(i) = layer%b(i)
      do j = 1, nhid
        y(i) = y(i) + layer%w(i, j) * h(j)
      end do
    end do
  end subroutine output_forward

  subroutine predict(net, x, y, smooth)
    type(network), intent(in) :: net
    real(dp), intent(in) :: x(nin)
    real(dp), intent(out) :: y(nout)
    logical, intent(in) :: smooth
    real(dp) :: h(nhid)
    call hidden_forward(net%hidden, x, h, smooth)
    call output_forward(net%output, h, y)
  end subroutine predict

  ! Sum of squared weights of both layers.
  function weight_norm(net) result(s)
    type(network), intent(in) :: net
    real(dp) :: s
    s = sum(net%hidden%w**2) + sum(net%output%w**2)
  end function weight_norm
end module nn_layers
