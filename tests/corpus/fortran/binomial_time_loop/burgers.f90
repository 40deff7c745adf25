! Viscous Burgers' equation on a periodic grid, stepped in time by Heun's method: a
! long time loop whose adjoint would store every step's tape. `$AD BINOMIAL-CKP` asks
! for binomial checkpointing instead: the adjoint keeps one step's tape and a few
! snapshots of the state, and re-runs steps from them.
module burgers_params
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: nu = 0.05_dp
  integer :: calls = 0
end module burgers_params

subroutine tendency(n, u, dx, f)
  use burgers_params
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: u(n), dx
  real(dp), intent(out) :: f(n)
  integer :: i, im, ip
  calls = calls + 1
  do i = 1, n
    im = modulo(i - 2, n) + 1
    ip = modulo(i, n) + 1
    f(i) = -u(i) * (u(ip) - u(im)) / (2 * dx) + nu * (u(ip) - 2 * u(i) + u(im)) / dx**2
  end do
end subroutine tendency

subroutine burgers(n, nsteps, u0, visc, dt, u, energy)
  use burgers_params
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(in) :: u0(n), visc, dt
  real(dp), intent(out) :: u(n), energy
  real(dp) :: f1(n), f2(n), ustar(n), dx, peak
  integer :: step, i, nsnap
  dx = 1.0_dp / n
  nu = visc
  u = u0
  peak = 0
  nsnap = 4
  !$AD BINOMIAL-CKP nsteps nsnap 1
  do step = 1, nsteps
    call tendency(n, u, dx, f1)
    do i = 1, n
      ustar(i) = u(i) + dt * f1(i)
    end do
    call tendency(n, ustar, dx, f2)
    u = u + 0.5_dp * dt * (f1 + f2)
    if (maxval(abs(u)) > peak) then
      peak = maxval(abs(u))
    end if
  end do
  ! The code after the loop overwrites what the loop read.
  energy = 0.5_dp * sum(u**2) * dx + peak
  nu = 0
end subroutine burgers

! The same loop without snapshots, two ways: a fixed number of snapshots given as a
! literal, and one the runtime chooses; and a loop of stride 2 counted down.
subroutine burgers_strided(n, nsteps, u0, visc, dt, u, energy)
  use burgers_params
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(in) :: u0(n), visc, dt
  real(dp), intent(out) :: u(n), energy
  real(dp) :: f1(n), dx, scale
  integer :: step
  dx = 1.0_dp / n
  nu = visc
  u = u0
  scale = 1
  !$AD BINOMIAL-CKP
  do step = 2 * nsteps, 1, -2
    ! A checkpointed region inside each step.
    !$AD CHECKPOINT-START
    call tendency(n, u, dx, f1)
    u = u + dt * scale * f1
    !$AD CHECKPOINT-END
    scale = scale * 0.99_dp
  end do
  energy = sum(u**2) * dx
  scale = 0
end subroutine burgers_strided

! A checkpointed region in a procedure that may return early: its adjoint runs again
! from a snapshot of what it writes, guarded as the region's statements are.
subroutine smooth_energy(n, u0, w, total)
  use burgers_params, only: dp
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: u0(n), w
  real(dp), intent(out) :: total
  real(dp) :: tmp(n)
  integer :: i
  total = 0
  if (n < 3) return
  tmp = u0
  !$AD CHECKPOINT-START
  do i = 2, n - 1
    tmp(i) = (u0(i - 1) + w * u0(i) + u0(i + 1)) / (2 + w)
  end do
  do i = 1, n
    total = total + tmp(i)**2 * sin(tmp(i))
  end do
  !$AD CHECKPOINT-END
  total = total * w
end subroutine smooth_energy

! The whole trajectory kept in an array, one column per step: a snapshot holds the
! column the next step reads, not the trajectory. The step is linear in the
! trajectory, so its adjoint reads none of it (nothing else saves it), and the code
! after the loop overwrites the column the first step reads.
subroutine trajectory(n, nsteps, u0, dt, traj, final)
  use burgers_params, only: dp
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(in) :: u0(n), dt
  real(dp), intent(out) :: traj(n, 0:nsteps), final
  real(dp) :: w
  integer :: t, i
  do i = 1, n
    traj(i, 0) = u0(i)
  end do
  final = 0
  !$AD BINOMIAL-CKP nsteps 3
  do t = 1, nsteps
    do i = 1, n
      traj(i, t) = traj(i, t - 1) + dt * u0(modulo(i, n) + 1)
    end do
    do i = 1, n
      w = traj(i, t - 1) + 1
      final = final + w * w
    end do
  end do
  do i = 1, n
    traj(i, 0) = 0.5_dp * traj(i, 0)
  end do
  w = traj(1, 0) + 2
  final = final + w * w
end subroutine trajectory
