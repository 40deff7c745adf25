! Straight-line "material response" model that uses every intrinsic adgen knows:
! the differentiable ones on active values, INT/NINT/FLOOR/AINT/ANINT/MOD/SIGN as
! switches (AINT and ANINT keep the argument's type, with no derivative).
! Features: DOUBLE PRECISION, INTENT, straight-line code, every intrinsic.
subroutine response(a, b, c, w, v)
  implicit none
  double precision, intent(in) :: a, b
  double precision, intent(in) :: c(3)
  double precision, intent(out) :: w
  double precision, intent(out) :: v(4)
  double precision :: t1, t2, t3, t4, t5, t6, t7
  integer :: k, m, l
  t1 = sin(a) * cos(b) + tan(0.5d0 * c(1))
  t2 = asin(0.5d0 * a) + acos(0.4d0 * b) - atan(c(2))
  t3 = atan2(c(1), c(3)) + sinh(0.3d0 * a) * cosh(0.2d0 * b)
  t4 = tanh(c(2) - c(3)) + exp(-a * b)
  t5 = log(1.0d0 + c(1)) + log10(2.0d0 + c(2)) + sqrt(a * a + b * b)
  t6 = abs(a - b) + max(a, b, c(1)) - min(c(2), c(3))
  t7 = sign(c(3), a - 2.0d0) + mod(a + 3.0d0, 0.7d0)
  k = int(10.0d0 * a)
  m = nint(7.0d0 * b)
  l = floor(5.0d0 * c(3))
  w = t1 * t2 + t3 / t5 + t4 * t6 - t7 + dble(k + m + l) * 1.0d-2 * a
  v(1) = real(m, 8) * t1 + dble(a) * t3
  v(2) = t2 * t4 - real(l, 8) * b + real(c(2) * c(3), 8)
  v(3) = t5 * t6 + mod(k, 3) * t7
  v(4) = w * real(k, 8) + sign(1.0d0, t4) * t2
  v(4) = v(4) + aint(3.0d0 * a) * t1 + anint(2.0d0 * b) * 1.0d-1 * c(1)
end subroutine response
