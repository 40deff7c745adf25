! A periodic upwind step written with CSHIFT, a wall-bounded one with EOSHIFT, and a
! diagnostic built from masked extrema and the position of the largest value.
module periodic
  implicit none
  integer, parameter :: wp = selected_real_kind(15)
contains
  subroutine step(n, m, c, u, v, w, peak)
    integer, intent(in) :: n, m
    real(wp), intent(in) :: c
    real(wp), intent(in) :: u(n)
    real(wp), intent(inout) :: v(n, m)
    real(wp), intent(out) :: w(n), peak
    integer :: at(2), ipos
    ! Periodic first-order upwind: u(i) - u(i-1), wrapping at 1.
    w = u - c * (u - cshift(u, -1))
    ! Along the second dimension, a shift of two, with the keyword DIM.
    v = 0.5_wp * (v + cshift(v, shift=2, dim=2))
    ! Walls: zero beyond the last point, and a given value before the first.
    w = w + 0.25_wp * (eoshift(u, 1) + eoshift(u, -1, boundary=u(n)))
    ! Masked extrema and positions.
    at = maxloc(v)
    ipos = minloc(u, dim=1, mask=u > 0.0_wp)
    peak = v(at(1), at(2)) + maxval(u, mask=u < 0.5_wp) + minval(w, u > -0.5_wp)
    if (ipos > 0) peak = peak + u(ipos)**2
    peak = peak + sum(merge(u, 2.0_wp * u, u > 0.0_wp))
    call roll(v)
    call band_shift(n, m, v)
  end subroutine step

  ! An array of assumed shape rolled in place: the shifted copy goes through a
  ! temporary sized by SIZE of the dummy.
  subroutine roll(a)
    real(wp), intent(inout) :: a(:, :)
    a = cshift(a, 1, 2)
    a(:, 1) = a(:, 1) * a(:, 2)
  end subroutine roll

  ! The rows of a band matrix shifted left by an amount computed row by row (as LINPACK-
  ! style band solvers store their first rows): a section assigned from an overlapping
  ! section of the same row, in an order no loop direction is known to keep, goes
  ! through an ALLOCATABLE temporary sized by the extent the procedure computes.
  subroutine band_shift(n, m, a)
    integer, intent(in) :: n, m
    real(wp), intent(inout) :: a(n, m)
    integer :: i, je, js
    do i = 1, min(n, m - 1)
      je = m - i
      js = mod(i, 2)
      a(i, 1:je) = a(i, 1 + js:js + je) * (1.0_wp + 0.1_wp * a(i, 1:je))
    end do
  end subroutine band_shift
end module periodic
