! Composite Simpson quadrature by recursive bisection to a fixed depth, of a damped
! oscillation whose decay and frequency are the parameters; and a recursive subroutine
! that refines a polygon length by midpoint bisection.
! Features: RECURSIVE FUNCTION with RESULT calling itself twice in one expression,
! RECURSIVE SUBROUTINE accumulating into an INTENT(INOUT) argument, recursion depth as
! a passive integer argument.
module recursion_kernels
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  function f(p, x) result(y)
    real(dp), intent(in) :: p(2), x
    real(dp) :: y
    y = exp(-p(1) * x) * cos(p(2) * x)
  end function f

  recursive function simpson(p, a, b, depth) result(s)
    real(dp), intent(in) :: p(2), a, b
    integer, intent(in) :: depth
    real(dp) :: s, m
    m = 0.5_dp * (a + b)
    if (depth == 0) then
      s = (b - a) / 6.0_dp * (f(p, a) + 4.0_dp * f(p, m) + f(p, b))
    else
      s = simpson(p, a, m, depth - 1) + simpson(p, m, b, depth - 1)
    end if
  end function simpson

  recursive subroutine arc_length(p, a, b, depth, total)
    real(dp), intent(in) :: p(2), a, b
    integer, intent(in) :: depth
    real(dp), intent(inout) :: total
    real(dp) :: m
    m = 0.5_dp * (a + b)
    if (depth == 0) then
      total = total + sqrt((b - a)**2 + (f(p, b) - f(p, a))**2)
    else
      call arc_length(p, a, m, depth - 1, total)
      call arc_length(p, m, b, depth - 1, total)
    end if
  end subroutine arc_length

  subroutine integrate(p, upper, depth, area, length)
    real(dp), intent(in) :: p(2), upper
    integer, intent(in) :: depth
    real(dp), intent(out) :: area, length
    area = simpson(p, 0.0_dp, upper, depth)
    length = 0.0_dp
    call arc_length(p, 0.0_dp, upper, depth, length)
  end subroutine integrate
end module recursion_kernels
