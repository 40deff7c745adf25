module integ_kinds
  implicit none
  integer, parameter :: wp = kind(1.0d0)
end module integ_kinds

! The integrator of saved_step_control_f77 as module procedures: the step size
! and the call count are SAVE locals of `advance`, which a PRIVATE constant and a
! PRIVATE default reach; derivative code runs primal copies of `advance` and of
! `stage`, which calls it.
module controller
  use integ_kinds, only: wp
  implicit none
  private
  public :: advance, stage, step_log
  real(wp), parameter :: grow = 0.1_wp
  type :: step_log
    integer :: calls = 0
    real(wp) :: spent = 0.0_wp
  end type step_log
contains
  subroutine advance(y, k, start, log)
    real(wp), intent(inout) :: y(:)
    real(wp), intent(in) :: k
    logical, intent(in) :: start
    type(step_log), intent(inout) :: log
    real(wp), save :: h
    integer, save :: ncall = 0
    integer :: i, j
    real(wp) :: fac
    if (start) then
      h = 0.1_wp/(1.0_wp + k)
      ncall = 0
    end if
    ncall = ncall + 1
    log%calls = log%calls + 1
    log%spent = log%spent + h
    fac = 1.0_wp
    if (ncall == 1) fac = 0.5_wp
    do j = 1, 3
      do i = 1, size(y)
        y(i) = y(i) - fac*h*k*y(i)**2
      end do
      h = h*(1.0_wp + grow*y(1))
    end do
  end subroutine advance

  subroutine stage(y, k, start, log)
    real(wp), intent(inout) :: y(:)
    real(wp), intent(in) :: k
    logical, intent(in) :: start
    type(step_log), intent(inout) :: log
    call advance(y, k, start, log)
    y(size(y)) = y(size(y)) + 0.01_wp*y(1)
  end subroutine stage
end module controller

subroutine solve(n, y, k, nout, f)
  use integ_kinds, only: wp
  use controller
  implicit none
  integer, intent(in) :: n, nout
  real(wp), intent(inout) :: y(n)
  real(wp), intent(in) :: k
  real(wp), intent(out) :: f
  type(step_log) :: log
  integer :: l
  call stage(y, k, .true., log)
  do l = 2, nout
    call stage(y, k, .false., log)
  end do
  f = sum(y**2) + 0.1_wp*log%spent + 0.0_wp*log%calls
end subroutine solve
