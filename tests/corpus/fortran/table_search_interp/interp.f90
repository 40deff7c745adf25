! Table lookup as library code writes it: a loop whose only work is to find an index
! (`do m = ...; if (...) exit; end do`), used after the loop. The adjoint's forward
! sweep must keep the search even though nothing inside it has a derivative.
subroutine lookup(n, xs, ys, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: xs(n), ys(n), x
  real(8), intent(out) :: y
  integer :: m
  do m = 1, n - 2
    if (xs(m + 1) >= x) exit
  end do
  y = ys(m) + (ys(m + 1) - ys(m))*(x - xs(m))/(xs(m + 1) - xs(m))
end subroutine lookup

subroutine table_cost(n, ys, x, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: ys(n), x
  real(8), intent(out) :: c
  real(8) :: xs(n), y
  integer :: i
  do i = 1, n
    xs(i) = real(i - 1, 8)/real(n - 1, 8)
  end do
  call lookup(n, xs, ys, x, y)
  c = y**2 + ys(1)*y
end subroutine table_cost
