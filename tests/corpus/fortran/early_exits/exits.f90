! Adjoint control-flow stress (with this budget every loop completes normally): a search that leaves two nested loops by a named EXIT,
! skips work with CYCLE, returns early from inside a loop, and a function applied
! in place (x = damp(x)).
! Features: named DO constructs, EXIT/CYCLE across loops, RETURN inside nested loops,
! logical IF, function result assigned to its own argument.
real(8) function damp(v) result(w)
  implicit none
  real(8), intent(in) :: v
  w = v / (1.0d0 + 0.1d0 * v * v)
end function damp

subroutine relax(n, m, x, a, budget, s)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: x(n)
  real(8), intent(in) :: a(n, m)
  real(8), intent(in) :: budget
  real(8), intent(out) :: s
  real(8), external :: damp
  integer :: i, j
  real(8) :: t
  s = 0.0d0
  outer: do j = 1, m
    inner: do i = 1, n
      if (mod(i + j, 3) == 0) cycle inner
      t = a(i, j) * x(i)
      s = s + sin(t) + 0.5d0 * t
      if (s > budget) exit outer
      if (i == n .and. j > 1) cycle outer
      x(i) = damp(x(i)) + 0.1d0 * s
    end do inner
  end do outer
  do j = 1, m
    do i = 1, n
      s = s + 0.5d0 * x(i) * a(i, j)
      if (s > 4.0d0 * budget) return
    end do
  end do
  x(1) = x(1) * s
end subroutine relax
