! A legacy helper clips its argument in place, and a newer caller passes elements of an
! INTENT(IN) array to it (W0305): the adjoint restores them from the tape, so its copy
! of the array is INTENT(INOUT), and the derivatives stay right.
subroutine soft_clip(v, vmax)
  real(8) :: v, vmax
  v = vmax*tanh(v/vmax)
end subroutine soft_clip

subroutine clipped_energy(n, x, vmax, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), vmax
  real(8), intent(out) :: e
  integer :: k
  e = 0.0d0
  do k = 1, n
    call soft_clip(x(k), vmax)
    e = e + x(k)**2*sin(x(k))
  end do
end subroutine clipped_energy
