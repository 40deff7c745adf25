! The cells of a field above a threshold, selected with PACK and reduced; a PACK with
! VECTOR that fills the rest of the result from another array.
subroutine hot_energy(n, m, u, thr, e, v)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: u(n, m), thr
  real(8), intent(out) :: e, v(n)
  real(8) :: sel(n*m), w(n)
  integer :: k
  k = count(u > thr)
  sel(1:k) = pack(u**2 + sin(u), u > thr)
  e = sum(sel(1:k)**2)/max(k, 1)
  w = 0.5d0*u(:, 1)
  v = pack(u(:, 2)*w, mask=u(:, 2) > u(:, 1), vector=w)
end subroutine hot_energy
