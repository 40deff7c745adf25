! Reductions in IF conditions: a positive-definite scheme that returns early when the
! field is empty (as MPDATA codes do), and ELSE IF arms that test a MAXVAL and a
! DOT_PRODUCT.
subroutine limit_field(n, q, gain, score)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: q(n)
  real(8), intent(in) :: gain
  real(8), intent(out) :: score
  real(8) :: qmin
  score = 0.0d0
  qmin = minval(q)
  q = q - qmin
  if (sum(q) < 1.0d-12) return
  if (maxval(q) > 3.0d0*gain) then
    q = q/maxval(q)
    score = sum(q**2)
  else if (dot_product(q, q) > gain) then
    score = gain*sum(q)
  else
    score = product(1.0d0 + 0.1d0*q)
  end if
  q = q + qmin
end subroutine limit_field
