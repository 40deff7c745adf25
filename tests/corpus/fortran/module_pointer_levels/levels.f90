! Two time levels of a 1-D field, exchanged by pointers each step instead of copied
! (as PALM's swap_timelevel does): `u` is the level now, `un` the next one.
module levels
  implicit none
  integer, parameter :: n = 12
  real(8), target :: u_1(n), u_2(n)
  real(8), pointer :: u(:) => null(), un(:) => null()
contains
  subroutine init_levels()
    u => u_1
    un => u_2
  end subroutine init_levels

  subroutine swap_levels()
    real(8), pointer :: tmp(:)
    tmp => u
    u => un
    un => tmp
  end subroutine swap_levels
end module levels
