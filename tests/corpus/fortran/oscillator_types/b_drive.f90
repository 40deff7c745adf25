! The driven response: the oscillator starts at rest-ish, is forced by a sine for
! nsteps steps; the outputs are the final energy and the mean of the recorded history.
module response
  use oscillator_types
  implicit none
contains
  subroutine drive(nsteps, dt, coef, amp, omega, e_final, x_mean)
    integer, intent(in) :: nsteps
    real(dp), intent(in) :: dt, coef(3), amp, omega
    real(dp), intent(out) :: e_final, x_mean
    type(state) :: s
    integer :: i
    s%par%k = coef(1)
    s%par%c = coef(2)
    s%par%m = coef(3)
    s%x = 0.1_dp
    s%v = 0.0_dp
    s%steps = 0
    do i = 1, nhist
      s%hist(i) = 0.0_dp
    end do
    do i = 1, nsteps
      call advance(s, amp * sin(omega * i * dt), dt)
    end do
    e_final = energy(s)
    x_mean = 0.0_dp
    do i = 1, nhist
      x_mean = x_mean + s%hist(i) / nhist
    end do
  end subroutine drive
end module response
