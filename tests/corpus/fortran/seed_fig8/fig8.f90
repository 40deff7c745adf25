! seeds/000 Figure 8: activity analysis on a small code. Independents a, b, c;
! dependents d, e. After `a = 5.0` a is no longer varied; e is not useful before it
! is truncated by FLOOR.
subroutine fig8(a, b, c, d, e, x)
  implicit none
  real(8), intent(inout) :: a
  real(8), intent(in) :: b, c
  real(8), intent(out) :: d, e, x
  x = a*b
  a = 5.0d0
  d = a*c
  e = a/x
  e = floor(e)
end subroutine fig8
