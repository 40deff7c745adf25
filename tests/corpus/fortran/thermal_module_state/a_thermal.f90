! A rod's temperature kept as module state: set up from the inputs, advanced by
! explicit steps, read by a cost function.
! Features: active module variables (a scalar and an array) written by one module
! procedure and read by others, a passive module counter, module PARAMETERs; the root,
! in another module, sees none of the state (USE ONLY of the procedures): the state's
! derivatives live in the derivative module and cross the root's calls.
module thermal
  implicit none
  integer, parameter :: n = 24
  real(8) :: conductivity
  real(8) :: temp(0:n + 1)
  integer :: steps_done = 0

contains

  subroutine setup(k, t_left, t_right, bump)
    real(8), intent(in) :: k, t_left, t_right, bump
    integer :: i
    conductivity = k
    do i = 0, n + 1
      temp(i) = t_left + (t_right - t_left) * i / (n + 1.0d0)
      temp(i) = temp(i) + bump * sin(3.14159265358979d0 * i / (n + 1.0d0))
    end do
    steps_done = 0
  end subroutine setup

  subroutine step(dt)
    real(8), intent(in) :: dt
    real(8) :: left, centre
    integer :: i
    left = temp(0)
    do i = 1, n
      centre = temp(i)
      temp(i) = centre + dt * conductivity * (left - 2.0d0 * centre + temp(i + 1))
      left = centre
    end do
    steps_done = steps_done + 1
  end subroutine step

  ! Mean squared deviation from a target profile.
  function misfit(target) result(j)
    real(8), intent(in) :: target
    real(8) :: j
    integer :: i
    j = 0.0d0
    do i = 1, n
      j = j + (temp(i) - target)**2 / n
    end do
  end function misfit
end module thermal
