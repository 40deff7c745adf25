module filter_kinds
  implicit none
  integer, parameter :: dp = kind(1.0d0)
end module filter_kinds

! A running filter that remembers its last inputs between calls: initializers
! imply SAVE, the history's extent is a local constant, its kind a module's, and
! a CHARACTER state says whether it has seen an input yet. The filtered value
! depends on the earlier calls' inputs, so its derivative does too.
real(kind=8) function filtered(x, reset)
  use filter_kinds, only: dp
  implicit none
  real(dp), intent(in) :: x
  logical, intent(in) :: reset
  integer, parameter :: nh = 3
  real(dp), save :: hist(nh)
  integer :: count = 0
  character(len=8) :: mode = 'empty'
  real(dp), parameter :: w(nh) = [0.5_dp, 0.3_dp, 0.2_dp]
  integer :: j
  if (reset) then
    hist = 0.0_dp
    count = 0
    mode = 'empty'
  end if
  do j = nh, 2, -1
    hist(j) = hist(j - 1)
  end do
  hist(1) = x
  count = count + 1
  if (mode == 'empty') then
    filtered = x
    mode = 'running'
  else
    filtered = sum(w*hist) + 0.01_dp*count*x
  end if
end function filtered

subroutine track(n, xs, total)
  use filter_kinds, only: dp
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: xs(n)
  real(dp), intent(out) :: total
  real(dp), external :: filtered
  integer :: i
  total = filtered(xs(1), .true.)**2
  do i = 2, n
    total = total + sin(filtered(xs(i), .false.))*xs(i)
  end do
end subroutine track
