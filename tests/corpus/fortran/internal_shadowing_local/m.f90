! An accumulation through an internal function that reads the host's running sum `s`
! (host association) and declares its own `t`, a local that hides the host's `t`.
! Features: an internal procedure capturing an active host variable, a local of the
! internal procedure with the name of a host variable (the host's `t` must stay the
! host's: it scales the result), a function result assigned from both.
subroutine accumulate(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y
  real(8) :: s, t
  integer :: i
  s = 0.1d0
  t = 2.0d0
  do i = 1, n
    s = s + inner(x(i))
  end do
  y = s * t
contains
  real(8) function inner(v)
    real(8), intent(in) :: v
    real(8) :: t
    t = v * v
    inner = t + sin(v) * s
  end function inner
end subroutine accumulate
