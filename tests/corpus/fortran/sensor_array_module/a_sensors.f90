! A bank of sensors kept as a module array of a derived type: each sensor holds a
! two-component reading and a gain. One routine calibrates the bank from raw inputs,
! another fuses the readings into a weighted estimate; both reach the module array
! `bank(i)%reading(k)` by use association, and a whole sensor is copied to a spare.
module sensors
  implicit none
  integer, parameter :: nsens = 4

  type sensor
    real(8) :: reading(2)
    real(8) :: gain
    integer :: channel
  end type sensor

  type(sensor) :: bank(nsens)
  type(sensor) :: spare
end module sensors

subroutine calibrate(raw, offset)
  use sensors
  implicit none
  real(8), intent(in) :: raw(2, 4), offset
  integer :: i
  do i = 1, nsens
    bank(i)%channel = i
    bank(i)%reading(1) = raw(1, i) - offset
    bank(i)%reading(2) = raw(2, i) * raw(1, i)
    bank(i)%gain = 1.0d0 / (1.0d0 + raw(2, i)**2)
  end do
  spare = bank(nsens)
end subroutine calibrate

subroutine fuse(raw, offset, estimate, spread)
  use sensors
  implicit none
  real(8), intent(in) :: raw(2, 4), offset
  real(8), intent(out) :: estimate, spread
  real(8) :: wsum
  integer :: i
  call calibrate(raw, offset)
  estimate = 0.0d0
  wsum = 0.0d0
  do i = 1, nsens
    estimate = estimate + bank(i)%gain * (bank(i)%reading(1) + 0.5d0 * bank(i)%reading(2))
    wsum = wsum + bank(i)%gain
  end do
  estimate = estimate / wsum
  spread = sum(bank%gain * bank%gain) + spare%reading(2) * spare%gain
end subroutine fuse
