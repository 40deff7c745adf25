! In-place three-point smoothing followed by normalisation to unit length: the input
! vector is overwritten by the result.
! Features: INTENT(INOUT) argument that is both independent and dependent, SQRT,
! a scalar carrying the overwritten neighbour.
subroutine smooth_normalize(n, v, alpha)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: v(n)
  real(8), intent(in) :: alpha
  real(8) :: prev, cur, s
  integer :: i
  prev = v(1)
  do i = 2, n - 1
    cur = v(i)
    v(i) = (1.0d0 - alpha) * cur + 0.5d0 * alpha * (prev + v(i + 1))
    prev = cur
  end do
  s = 0.0d0
  do i = 1, n
    s = s + v(i) * v(i)
  end do
  s = sqrt(s)
  do i = 1, n
    v(i) = v(i) / s
  end do
end subroutine smooth_normalize
