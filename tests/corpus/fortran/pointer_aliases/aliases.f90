! Local POINTER variables used as short names: for components of a state, for a
! section with a halo offset, for a column of a matrix, for an element of an array of
! structures (and to the whole array), and two work buffers exchanged between two
! phases.
module lake_model
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nmax = 40
  type lake
    real(dp) :: depth(0:nmax + 1)
    real(dp) :: temp(0:nmax + 1)
    real(dp) :: kdiff
  end type lake
  type inflow
    real(dp) :: rate, temp
  end type inflow
contains
  subroutine relax(n, lk, src, mix, buf_a, buf_b, heat)
    integer, intent(in) :: n
    type(lake), target, intent(inout) :: lk
    type(inflow), target, intent(in) :: src(3)
    real(dp), target, intent(inout) :: mix(n, 2)
    real(dp), target, intent(inout) :: buf_a(n), buf_b(n)
    real(dp), intent(out) :: heat
    real(dp), pointer :: t(:), d(:), inner(:), col(:), old(:), new(:), swap(:), column(:)
    type(inflow), pointer :: river, all(:)
    real(dp), pointer :: k
    integer :: i, j
    t => lk%temp
    d => lk%depth
    k => lk%kdiff
    inner => lk%temp(1:n)
    river => src(2)
    all => src
    ! Diffusion on the interior through the whole-array alias (bounds 0:n+1).
    do i = 1, n
      t(i) = t(i) + k*(t(i - 1) - 2.0_dp*t(i) + t(i + 1))/d(i)**2
    end do
    ! The section alias starts at 1: inner(i) is temp(i).
    inner(1) = inner(1) + river%rate*(river%temp - inner(1))
    ! A column of a matrix.
    col => mix(:, 2)
    col = col*inner + 0.1_dp*col**2
    ! A column alias made at the top of each iteration.
    do j = 1, 2
      column => mix(:, j)
      column(1) = column(1) + 0.01_dp*column(n)*inner(j)
    end do
    ! Two buffers, exchanged between the phases.
    old => buf_a
    new => buf_b
    do i = 2, n
      new(i) = old(i) + 0.5_dp*(old(i - 1) - old(i))*t(i)
    end do
    swap => old
    old => new
    new => swap
    do i = 2, n
      new(i) = old(i)*old(i - 1) + col(i)
    end do
    heat = sum(inner*d(1:n)) + sum(new)
    ! A pointer to the whole array of structures, by element and component.
    do i = 1, 3
      heat = heat + all(i)%rate*all(i)%temp*t(i)
    end do
    if (associated(k)) heat = heat + k*heat
  end subroutine relax

  ! The driver's entry: builds the structures from plain arrays, relaxes twice.
  subroutine lake_run(n, temp, depth, kdiff, rates, mix, buf_a, buf_b, heat)
    integer, intent(in) :: n
    real(dp), intent(inout) :: temp(n), mix(n, 2), buf_a(n), buf_b(n)
    real(dp), intent(in) :: depth(n), kdiff, rates(3)
    real(dp), intent(out) :: heat
    type(lake) :: lk
    type(inflow) :: src(3)
    real(dp) :: h2
    integer :: j
    lk%temp = 0.0_dp
    lk%depth = 1.0_dp
    lk%temp(1:n) = temp
    lk%depth(1:n) = depth
    lk%kdiff = kdiff
    do j = 1, 3
      src(j)%rate = rates(j)
      src(j)%temp = 10.0_dp*j
    end do
    call relax(n, lk, src, mix, buf_a, buf_b, heat)
    call relax(n, lk, src, mix, buf_a, buf_b, h2)
    heat = heat + h2
    temp = lk%temp(1:n)
  end subroutine lake_run
end module lake_model
