! seeds/000 Figure 11 (section 4.9): diff-liveness and TBR on a piece of code that is
! the whole body of the differentiated procedure. Only three values must be saved:
! a(n) before a(n) = a(n)*a(n+1), and n before each of its two last assignments.
subroutine fig11(i, m, ind1, ind2, a, b, x, z, t)
  implicit none
  integer, intent(in) :: i, m
  integer, intent(in) :: ind1(m), ind2(m)
  real(8), intent(inout) :: a(m), b(m), z(m), t(m)
  real(8), intent(in) :: x
  integer :: n
  real(8) :: c
  n = ind1(i)
  b(n) = (a(n) + b(n))*0.5d0
  a(n) = a(n) + x
  c = a(n)*b(n)
  a(n) = a(n)*a(n + 1)
  n = ind2(i)
  z(n) = z(n) + c
  n = ind2(i + 1)
  c = a(n)/b(n)
  t(n) = t(n) - c
end subroutine fig11
