! A derived type of integer counters passed through a differentiated call: it has
! nothing to differentiate, even with activity analysis off (the corpus runs both).
module tmod
  implicit none
  type :: tlog
    integer :: n = 0
  end type
contains
  subroutine g(x, y, log)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    type(tlog), intent(inout) :: log
    log%n = log%n + 1
    y = 2*x
  end subroutine
end module

subroutine f(x, y)
  use tmod
  implicit none
  real(8) :: x, y
  type(tlog) :: log
  call g(x, y, log)
end subroutine
