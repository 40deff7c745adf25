! Sizes of a small two-layer perceptron.
module nn_sizes
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nin = 3, nhid = 4, nout = 2
  real(dp), parameter :: leak = 0.1_dp
end module nn_sizes
