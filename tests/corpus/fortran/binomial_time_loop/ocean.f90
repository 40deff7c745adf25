! A module's state stepped by its own procedures: the root allocates it (outside the
! loop) and never names it; the loop's snapshots save it under the module's name, when
! it is allocated.
module ocean
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp), allocatable :: temp(:)
  real(dp) :: mixing = 0.1_dp
contains
  subroutine ocean_init(n, t0)
    integer, intent(in) :: n
    real(dp), intent(in) :: t0(n)
    if (.not. allocated(temp)) allocate(temp(n))
    temp = t0
  end subroutine ocean_init

  subroutine ocean_step(n, k)
    integer, intent(in) :: n
    real(dp), intent(in) :: k
    real(dp) :: old(n)
    integer :: i
    old = temp
    do i = 1, n
      temp(i) = old(i) + k*(old(modulo(i - 2, n) + 1) - 2*old(i) + old(modulo(i, n) + 1)) &
          + mixing*sin(old(i))
    end do
  end subroutine ocean_step

  subroutine ocean_heat(n, h)
    integer, intent(in) :: n
    real(dp), intent(out) :: h
    h = sum(temp(1:n)**2)
  end subroutine ocean_heat
end module ocean

subroutine warm(n, nsteps, t0, k, heat)
  use ocean, only: dp, ocean_init, ocean_step, ocean_heat
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(in) :: t0(n), k
  real(dp), intent(out) :: heat
  integer :: step
  call ocean_init(n, t0)
  !$AD BINOMIAL-CKP nsteps 3
  do step = 1, nsteps
    call ocean_step(n, k)
  end do
  call ocean_heat(n, heat)
end subroutine warm
