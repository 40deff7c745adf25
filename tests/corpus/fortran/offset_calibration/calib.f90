! Sensor calibration: each reading is shifted by a fixed instrument offset (a callee
! whose derivative passes through unchanged: its adjoint only gives the weight back),
! then scaled and squared into a misfit against a reference profile.
subroutine add_offset(v, off)
  implicit none
  real(8), intent(inout) :: v
  real(8), intent(in) :: off
  v = v + off
end subroutine add_offset

subroutine misfit(n, raw, gain, j)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: raw(n), gain
  real(8), intent(out) :: j
  real(8) :: t
  integer :: i
  j = 0.0d0
  do i = 1, n
    t = gain*raw(i)
    call add_offset(t, 0.25d0)
    j = j + (t - sin(0.1d0*i))**2
  end do
end subroutine misfit
