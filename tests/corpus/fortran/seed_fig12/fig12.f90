! seeds/000 Figure 12: a checkpointed call. foo overwrites a and x, whose values the
! caller's adjoint reads after the call's adjoint: the forward sweep saves them
! before calling foo and restores them before calling foo_b.
real(8) function foo(a, x, s)
  implicit none
  real(8), intent(inout) :: a, x
  real(8), intent(in) :: s
  foo = a*x*s
  a = a*a
  x = sin(x)
end function foo

subroutine fig12(a, x, y)
  implicit none
  real(8), intent(inout) :: a, x
  real(8), intent(out) :: y
  real(8), external :: foo
  y = foo(a, x, 2.5d0)
  y = y + a*x
end subroutine fig12
