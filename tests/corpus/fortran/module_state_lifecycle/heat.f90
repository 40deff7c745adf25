! A 1-D heat model laid out as model codes are: module state allocated by an
! initialisation routine (one array under an `if (.not. allocated(...))` guard),
! advanced by a time step that allocates and frees its own module work array (a
! POINTER that owns its memory, as Fortran 90 code writes it), refined
! half way by a regrid that frees the state and allocates it again twice as fine, and
! released by a finalisation routine that reads the state one last time; two of the
! ALLOCATE and DEALLOCATE statements ask for a STAT= and test it. The root runs them
! all.
module heat_state
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer :: ncell
  real(dp), allocatable :: temp(:), cond(:)
  real(dp), pointer :: flux(:) => null()
end module heat_state

module heat_model
  use heat_state
  implicit none
contains
  subroutine heat_init(n, amp)
    integer, intent(in) :: n
    real(dp), intent(in) :: amp
    integer :: i
    ncell = n
    allocate(temp(0:n + 1))
    if (.not. allocated(cond)) allocate(cond(n + 1))
    do i = 0, n + 1
      temp(i) = 1.0_dp + amp*sin(0.4_dp*i)
    end do
    do i = 1, n + 1
      cond(i) = 0.5_dp + 0.1_dp*cos(0.3_dp*i)
    end do
  end subroutine heat_init

  subroutine heat_step(kappa)
    real(dp), intent(in) :: kappa
    integer :: i, ierr
    allocate(flux(ncell + 1), stat=ierr)
    if (ierr /= 0) stop 'heat_step: no memory for the fluxes'
    do i = 1, ncell + 1
      flux(i) = kappa*cond(i)*(temp(i) - temp(i - 1))*temp(i)
    end do
    do i = 1, ncell
      temp(i) = temp(i) + 0.1_dp*(flux(i + 1) - flux(i))
    end do
    deallocate(flux)
  end subroutine heat_step

  ! Twice as many cells: the state is interpolated from a copy, the conductivity set
  ! again.
  subroutine heat_regrid()
    real(dp), allocatable :: old(:)
    integer :: j
    allocate(old(0:ncell + 1))
    old = temp
    deallocate(temp, cond)
    ncell = 2*ncell
    allocate(temp(0:ncell + 1), cond(ncell + 1))
    do j = 0, ncell + 1
      temp(j) = 0.5_dp*(old(j/2 + mod(j, 2)) + old(j/2))
    end do
    do j = 1, ncell + 1
      cond(j) = 0.5_dp + 0.1_dp*cos(0.15_dp*j)
    end do
    deallocate(old)
  end subroutine heat_regrid

  subroutine heat_finish(energy)
    real(dp), intent(out) :: energy
    integer :: i
    energy = sum(temp(1:ncell)**2) + cond(1)*temp(ncell)
    deallocate(temp, cond, stat=i)
    if (i /= 0) stop 'heat_finish: not allocated'
  end subroutine heat_finish

  subroutine simulate(n, nsteps, amp, kappa, energy)
    integer, intent(in) :: n, nsteps
    real(dp), intent(in) :: amp, kappa
    real(dp), intent(out) :: energy
    integer :: it
    call heat_init(n, amp)
    do it = 1, nsteps
      call heat_step(kappa)
      if (it == nsteps/2) call heat_regrid()
    end do
    call heat_finish(energy)
  end subroutine simulate
end module heat_model

! Callers that see none of the model's arrays: `twice` calls a run that allocates and
! frees them all (its adjoint saves none of them around the call); `phases` calls the
! phases one by one, and its adjoint restores the arrays' allocation around each.
module heat_outer
  implicit none
contains
  subroutine phases(n, nsteps, amp, kappa, e)
    use heat_model, only: heat_init, heat_step, heat_finish
    integer, intent(in) :: n, nsteps
    real(8), intent(in) :: amp, kappa
    real(8), intent(out) :: e
    integer :: it
    call heat_init(n, amp)
    do it = 1, nsteps
      call heat_step(kappa)
    end do
    call heat_finish(e)
  end subroutine phases

  subroutine twice(n, nsteps, amp, kappa, e)
    use heat_model, only: simulate
    integer, intent(in) :: n, nsteps
    real(8), intent(in) :: amp, kappa
    real(8), intent(out) :: e
    call simulate(n, nsteps, amp, kappa, e)
    e = 2*e
  end subroutine twice
end module heat_outer
