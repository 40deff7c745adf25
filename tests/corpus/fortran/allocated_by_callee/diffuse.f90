! A 1-D diffusion whose arrays are allocated by the subroutines that set them up, as
! model codes do: an INTENT(OUT) ALLOCATABLE dummy filled from an active input, an
! ALLOCATABLE component of a structure allocated by an initialiser that only writes
! constants (its derivative is then allocated by the caller), and a work array
! allocated by a subroutine inside the time loop and freed there, and a copy routine
! that allocates its INTENT(OUT) result under an `if (.not. allocated(...))` guard;
! clean-up routines free a component and an array for good; ALLOCATE with SOURCE=
! and MOLD= of an array a subroutine allocated, and with SOURCE= of an expression.
module diffuse_setup
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type :: rod
    integer :: n
    real(dp), allocatable :: temp(:)
  end type rod
contains
  ! A conductivity profile, with a halo cell at each end.
  subroutine make_profile(w, n, a)
    real(dp), allocatable, intent(out) :: w(:)
    integer, intent(in) :: n
    real(dp), intent(in) :: a
    integer :: i
    allocate(w(0:n + 1))
    do i = 0, n + 1
      w(i) = a*(1.0_dp + 0.1_dp*sin(0.3_dp*i))
    end do
  end subroutine make_profile

  ! The initial temperature: constants only.
  subroutine generate(r)
    type(rod), intent(inout) :: r
    integer :: i
    allocate(r%temp(0:r%n + 1))
    do i = 0, r%n + 1
      r%temp(i) = 1.0_dp + 0.5_dp*cos(0.7_dp*i)
    end do
  end subroutine generate

  ! Fluxes between neighbouring cells, in a work array the caller frees.
  subroutine fluxes(q, r, w, kappa)
    real(dp), allocatable, intent(inout) :: q(:)
    type(rod), intent(in) :: r
    real(dp), intent(in) :: w(0:), kappa
    integer :: i
    allocate(q(r%n + 1))
    do i = 1, r%n + 1
      q(i) = kappa*w(i)*(r%temp(i) - r%temp(i - 1))*r%temp(i)
    end do
  end subroutine fluxes
  ! A copy into a structure its caller passes unallocated (INTENT(OUT): freed on entry),
  ! allocated under a guard, as copy routines do.
  subroutine copy_rod(from, to)
    type(rod), intent(in) :: from
    type(rod), intent(out) :: to
    if (.not. allocated(to%temp)) then
      allocate(to%temp(lbound(from%temp, 1):ubound(from%temp, 1)))
    else if (size(to%temp) /= size(from%temp)) then
      stop 'copy_rod: sizes differ'
    end if
    to%temp = from%temp
    to%n = from%n
  end subroutine copy_rod

  ! Clean-up routines: the caller's arrays freed for good (one computes with the
  ! values it frees first).
  subroutine release(r, ends)
    type(rod), intent(inout) :: r
    real(dp), intent(out) :: ends
    ends = r%temp(1)*r%temp(r%n)
    deallocate(r%temp)
  end subroutine release

  subroutine drop(w)
    real(dp), allocatable, intent(inout) :: w(:)
    deallocate(w)
  end subroutine drop
end module diffuse_setup

subroutine diffuse_run(n, nsteps, a, kappa, total, probe)
  use diffuse_setup
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(in) :: a, kappa
  real(dp), intent(out) :: total, probe
  type(rod) :: r, half
  real(dp), allocatable :: w(:), q(:)
  real(dp), allocatable :: wcopy(:), wgrad(:), wmix(:)
  real(dp) :: ends
  integer :: it, i
  r%n = n
  call generate(r)
  call make_profile(w, n, a)
  do it = 1, nsteps
    call fluxes(q, r, w, kappa)
    do i = 1, n
      r%temp(i) = r%temp(i) + q(i + 1) - q(i)
    end do
    deallocate(q)
  end do
  call copy_rod(r, half)
  total = 0.0_dp
  do i = 1, n
    total = total + r%temp(i)**2
  end do
  probe = w(n)*r%temp(n/2) + half%temp(1)*half%temp(n)
  call release(r, ends)
  probe = probe + ends
  ! A copy (SOURCE=) and an array of the same bounds (MOLD=) of the profile.
  allocate(wcopy, source=w)
  allocate(wgrad, mold=w)
  wgrad(lbound(w, 1)) = 0.0_dp
  do i = lbound(w, 1) + 1, ubound(w, 1)
    wgrad(i) = wcopy(i)*(wcopy(i) - wcopy(i - 1))
  end do
  probe = probe + wgrad(n)*wcopy(0)
  ! SOURCE= of an expression: bounds from 1, its values.
  allocate(wmix, source=0.5_dp*wcopy*wgrad + w)
  probe = probe + wmix(1)*wmix(n + 2)
  deallocate(wcopy, wgrad, wmix)
  call drop(w)
end subroutine diffuse_run
