! A 1-D diffusion-reaction model whose state lives in allocatable arrays with a halo
! (indices 0 .. n+1): the procedures that step it take the arrays as ALLOCATABLE dummies,
! so that they see the caller's bounds, and ask ALLOCATED before using an optional
! source term.
module halo_model
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  ! Fills the halo cells from their periodic images.
  subroutine fill_halo(u)
    real(dp), allocatable, intent(inout) :: u(:)
    integer :: lo, hi
    lo = lbound(u, 1)
    hi = ubound(u, 1)
    u(lo) = u(hi - 1)
    u(hi) = u(lo + 1)
  end subroutine fill_halo

  ! One explicit step of u_t = k u_xx - r u^2 + s on the interior cells.
  subroutine step(u, k, r, s, dt)
    real(dp), allocatable, intent(inout) :: u(:)
    real(dp), intent(in) :: k, r, dt
    real(dp), allocatable, intent(in) :: s(:)
    real(dp), allocatable :: flux(:)
    integer :: i
    call fill_halo(u)
    allocate(flux(lbound(u, 1):ubound(u, 1) - 1))
    do i = lbound(u, 1), ubound(u, 1) - 1
      flux(i) = k*(u(i + 1) - u(i))
    end do
    do i = lbound(u, 1) + 1, ubound(u, 1) - 1
      u(i) = u(i) + dt*(flux(i) - flux(i - 1) - r*u(i)**2)
    end do
    if (allocated(s)) u = u + dt*s
    deallocate(flux)
  end subroutine step

  ! The mean of the interior cells, whatever the halo width.
  real(dp) function interior_mean(u, halo)
    real(dp), allocatable, intent(in) :: u(:)
    integer, intent(in) :: halo
    interior_mean = sum(u(lbound(u, 1) + halo:ubound(u, 1) - halo)) &
      / real(size(u) - 2*halo, dp)
  end function interior_mean

  subroutine simulate(n, nsteps, u0, k, r, umean, uend)
    integer, intent(in) :: n, nsteps
    real(dp), intent(in) :: u0(n), k, r
    real(dp), intent(out) :: umean, uend(n)
    real(dp), allocatable :: u(:), s(:)
    real(dp) :: dt
    integer :: it
    allocate(u(0:n + 1))
    allocate(s(0:n + 1))
    u(1:n) = u0
    s = 0.01_dp
    dt = 0.2_dp
    umean = 0.0_dp
    do it = 1, nsteps
      call step(u, k, r, s, dt)
      umean = umean + interior_mean(u, 1)/nsteps
    end do
    uend = u(1:n)
    deallocate(u, s)
  end subroutine simulate
end module halo_model
