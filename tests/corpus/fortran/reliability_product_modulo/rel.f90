! Reliability of a ring of n components, each failing with probability p(i): a series
! system survives with PRODUCT(1 - p); the ring tolerates one failure between
! neighbours, so pairs (i, i+1 mod n) use MODULO for the periodic neighbour. The
! bottleneck is the weakest pair (MINVAL) and the mean log-survival is taken only
! over the components marked critical (SUM with MASK).
! Features: PRODUCT of an expression, MODULO in subscripts, MINVAL, SUM with MASK and
! a logical array argument, array constructor in an expression, broadcast.
subroutine ring_reliability(n, p, critical, score)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: p(n)
  logical, intent(in) :: critical(n)
  real(8), intent(out) :: score
  real(8) :: pair(n), series, weakest, crit_log
  real(8) :: coef(3)
  integer :: i

  series = product(1.0d0 - p)
  do i = 1, n
    pair(i) = 1.0d0 - p(i) * p(modulo(i, n) + 1)
  end do
  weakest = minval(pair)
  crit_log = sum(log(1.0d0 - p), mask=critical)
  coef = [1.0d0, 0.5d0, 0.25d0]
  score = sum(coef * [series, weakest, crit_log])
end subroutine ring_reliability
