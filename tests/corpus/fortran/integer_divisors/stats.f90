! Sample mean, variance and a scaled residual, dividing by integer counts the way real
! code does: the partial derivative of x/n is 1/n, which must not become an integer
! division in the generated code.
! Features: integer divisors in active expressions, n*(x/m) forms, DBLE-free mixing.
subroutine sample_stats(n, m, x, mean, var, scaled)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: mean, var, scaled
  integer :: i
  mean = 0.0d0
  do i = 1, n
    mean = mean + x(i)/n
  end do
  var = 0.0d0
  do i = 1, n
    var = var + (x(i) - mean)**2
  end do
  var = var/(n - 1)
  scaled = m*(x(1)/n) + (x(n)*m)/n
end subroutine sample_stats
