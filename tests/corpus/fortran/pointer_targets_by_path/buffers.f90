! Local pointers whose target depends on the path, as time-stepping codes use them:
! two buffers exchanged through a third pointer at the end of every step
! (`tmp => old; old => new; new => tmp`), a pair of work arrays chosen by the parity of
! the pass (MPDATA's anti-diffusive velocities: the first pass reads the wind given,
! later ones the one the previous pass wrote), a copy made in a branch only when
! needed, a pointer passed to a subroutine, ASSOCIATED and NULLIFY. A write through a
! pointer that may be associated with the INTENT(IN) wind, for all adgen can tell, but
! never is where it writes.
module buffer_model
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  ! One upwind step of `q` with the velocities `vel` (a dummy that is not a pointer).
  subroutine upwind(n, dt, vel, q)
    integer, intent(in) :: n
    real(dp), intent(in) :: dt
    real(dp), intent(in) :: vel(0:n + 1)
    real(dp), intent(inout) :: q(0:n + 1)
    real(dp) :: flux(0:n)
    integer :: i
    do i = 0, n
      flux(i) = max(vel(i), 0.0_dp)*q(i) + min(vel(i), 0.0_dp)*q(i + 1)
    end do
    do i = 1, n
      q(i) = q(i) - dt*(flux(i) - flux(i - 1))
    end do
    q(0) = q(n)
    q(n + 1) = q(1)
  end subroutine upwind

  subroutine advect(n, nsteps, npass, dt, w, u, total)
    integer, intent(in) :: n, nsteps, npass
    real(dp), intent(in) :: dt
    real(dp), target, intent(in) :: w(0:n + 1)
    real(dp), target, intent(inout) :: u(0:n + 1)
    real(dp), intent(out) :: total
    real(dp), target :: work(0:n + 1), store1(0:n + 1), store2(0:n + 1), copy(0:n + 1)
    real(dp), pointer :: old(:), new(:), tmp(:)
    real(dp), pointer :: wt(:), wt_sav(:), first(:)
    integer :: i, step, pass
    nullify(first)
    store1 = 0.0_dp
    store2 = 0.0_dp
    work = u
    old => u
    new => work
    do step = 1, nsteps
      ! Diffusion from the old buffer into the new one.
      do i = 1, n
        new(i) = old(i) + 0.2_dp*(old(i - 1) - 2.0_dp*old(i) + old(i + 1))
      end do
      new(0) = new(n)
      new(n + 1) = new(1)
      ! Passes of advection, each with the velocities the pass before corrected.
      wt => w
      wt_sav => store1
      do pass = 1, npass
        if (pass > 1) then
          do i = 0, n
            wt_sav(i) = wt(i)*(1.0_dp - 0.1_dp*wt(i))*(new(i + 1) - new(i)) &
                        /(abs(new(i + 1)) + abs(new(i)) + 1.0_dp)
          end do
          wt_sav(n + 1) = wt_sav(1)
          if (modulo(pass, 2) == 0) then
            wt => store1
            wt_sav => store2
          else
            wt => store2
            wt_sav => store1
          end if
        end if
        ! Periodic halo of the corrected velocities (never of the wind given).
        if (pass > 1) wt(0) = wt(n)
        call upwind(n, dt, wt, new)
      end do
      ! A copy of the first buffer, made on the first step only.
      if (step == 1) then
        copy = new
        first => copy
      end if
      tmp => old
      old => new
      new => tmp
    end do
    total = sum(old(1:n)**2)
    if (associated(first)) total = total + 0.5_dp*sum(first(1:n))
    u = old
    if (associated(wt)) nullify(wt)
    nullify(old, new, wt_sav)
  end subroutine advect
end module buffer_model
