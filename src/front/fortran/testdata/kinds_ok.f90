! expect ok
! Kinds through parameters, inquiry functions and literals.
subroutine s(x, y, z, n)
  implicit none
  integer, parameter :: sp = kind(1.0), dp = kind(1.0d0)
  integer, parameter :: wp = selected_real_kind(p=15, r=307)
  integer, parameter :: ik = selected_int_kind(9)
  integer(ik), intent(in) :: n
  real(sp), intent(inout) :: x(n)
  real(kind=wp), intent(out) :: y
  real*8 :: z
  integer(kind=ik) :: i
  y = 0.0_wp
  do i = 1, n
    y = y + real(x(i), kind=dp)**2 / 2._dp
  end do
  z = y * 1.0e0_dp
end subroutine s
