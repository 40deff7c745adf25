! Truncated Gaussian-kernel smoother: masked rows are skipped, the inner scan stops
! when a weight becomes negligible, and both loops end once a budget of terms is
! spent. Returns the accumulated sum and the number of terms used.
! Features: named nested loops, CYCLE (named and unnamed), EXIT from the inner and
! from the outer loop, logical IF, MOD in a condition, both relational spellings.
subroutine kernel_sum(n, x, y, sigma, budget, s, used)
  implicit none
  integer, intent(in) :: n, budget
  real(8), intent(in) :: x(n), y(n), sigma
  real(8), intent(out) :: s
  integer, intent(out) :: used
  real(8) :: w
  integer :: i, j
  used = 0
  s = 0.0d0
  outer: do i = 1, n
    if (mod(i, 3) == 0) cycle outer
    inner: do j = 1, n
      if (j .eq. i) cycle
      w = exp(-((x(i) - x(j)) / sigma)**2)
      if (w < 1.0d-3) exit inner
      s = s + w * y(j)
      used = used + 1
      if (used .ge. budget) exit outer
    end do inner
  end do outer
end subroutine kernel_sum
