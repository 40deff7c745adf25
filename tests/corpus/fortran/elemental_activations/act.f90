! A small network layer written with ELEMENTAL and PURE procedures, as modern codes
! write activations: an elemental function applied to whole arrays and sections, an
! elemental subroutine clipping an array in place, a pure function of fixed-size
! vectors, and an elemental function with two arguments, one of them a scalar.
module activations
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  elemental function softplus(z) result(s)
    real(dp), intent(in) :: z
    real(dp) :: s
    s = log(1.0_dp + exp(z))
  end function softplus

  elemental real(dp) function leaky(z, slope)
    real(dp), intent(in) :: z, slope
    if (z > 0.0_dp) then
      leaky = z
    else
      leaky = slope * z
    end if
  end function leaky

  pure elemental subroutine clip(v, lo)
    real(dp), intent(inout) :: v
    real(dp), intent(in) :: lo
    v = max(v, lo)
  end subroutine clip

  pure function dot3(a, b) result(d)
    real(dp), intent(in) :: a(3), b(3)
    real(dp) :: d
    d = sum(a * b)
  end function dot3

  subroutine layer(n, w, x, y, e)
    integer, intent(in) :: n
    real(dp), intent(in) :: w(n, n), x(n)
    real(dp), intent(out) :: y(n), e
    real(dp) :: z(n)
    z = matmul(w, x)
    y = softplus(2.0_dp * z) + softplus(x(1))
    y(2:n) = y(2:n) + leaky(z(1:n-1), 0.1_dp)
    call clip(y, 0.6_dp)
    e = dot3(y(1:3), x(1:3)) + sum(leaky(x, slope=0.2_dp))
  end subroutine layer
end module activations
