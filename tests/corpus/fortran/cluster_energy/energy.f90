! Potential energy of a 2-D cluster of particles: Lennard-Jones pairs plus harmonic
! tethers to anchor points. The root is a FUNCTION with a RESULT clause.
! Features: FUNCTION with RESULT as root, DIMENSION attribute on 2-D arrays, pair
! loops (j from i+1), SQRT, integer and real exponents, a called function.
function cluster_energy(n, pos, anchor, k0) result(e)
  implicit none
  integer, intent(in) :: n
  real(8), dimension(2, n), intent(in) :: pos, anchor
  real(8), intent(in) :: k0
  real(8) :: e
  real(8) :: r, lj
  integer :: i, j
  e = 0.0d0
  do i = 1, n - 1
    do j = i + 1, n
      r = sqrt((pos(1, i) - pos(1, j))**2 + (pos(2, i) - pos(2, j))**2)
      e = e + lj(r)
    end do
  end do
  do i = 1, n
    e = e + 0.5d0 * k0 * ((pos(1, i) - anchor(1, i))**2 + (pos(2, i) - anchor(2, i))**2)
  end do
end function cluster_energy

function lj(r) result(v)
  implicit none
  real(8), intent(in) :: r
  real(8) :: v
  real(8), parameter :: sigma = 0.9d0, eps = 0.25d0
  v = 4.0d0 * eps * ((sigma / r)**12 - (sigma / r)**6)
end function lj
