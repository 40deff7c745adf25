! Whole-array logical reductions as modern code uses them: input checks with ANY and
! ALL, a COUNT that scales the result, and ANY choosing a branch inside a loop; an
! IEEE_ARITHMETIC check of the result; ANY, ALL and COUNT along one dimension of a
! table of flags, which decide which rows count; COUNT with KIND=.
module guards
  use, intrinsic :: ieee_arithmetic, only: ieee_is_finite, ieee_is_nan
  implicit none
contains
  subroutine clipped_energy(n, x, w, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: e
    real(8) :: y(n), t(n, 3)
    integer :: k, npos, per_row(n)
    integer(8) :: nbig, per_row8(n)
    logical :: hot(n), cold(3)
    if (any(w < 0)) error stop 'clipped_energy: negative weight'
    y = x
    do k = 1, 3
      if (any(abs(y) > 1.5d0)) then
        y = y/(1 + 0.1d0*y**2)
      else
        y = y + 0.05d0*sin(y)
      end if
    end do
    npos = count(y > 0)
    e = sum(w*y**2)/real(max(npos, 1), 8)
    if (all(y < 0.5d0)) e = e + sum(y)
    t = spread(y, 2, 3) + spread([0.1d0, -0.2d0, 0.3d0], 1, n)
    hot = any(t > 0.8d0, dim=2)
    cold = all(t < 0.5d0, 1)
    per_row = count(mask=t > 0, dim=2)
    e = e + sum(y*per_row, mask=hot) + count(cold)*sum(y)
    ! COUNT with KIND=, with and without DIM
    nbig = count(y > 0.2d0, kind=8)
    per_row8 = count(t < 0.6d0, 2, kind=8)
    e = e + real(nbig, 8)*0.01d0*sum(y*real(per_row8, 8))
    if (ieee_is_nan(e) .or. .not. ieee_is_finite(e)) error stop 'clipped_energy: not finite'
  end subroutine clipped_energy
end module guards
