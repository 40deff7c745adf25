! Stiff ODE y' = -lambda (y - cos t) - y**3 integrated by implicit Euler; each step
! solves its nonlinear equation by Newton's method, leaving the loop on convergence
! or after a maximum number of iterations.
! Features: time stepping (120 steps) calling a subroutine that contains a
! DO WHILE (.true.) with two EXITs, a passive integer output (Newton iterations),
! the trajectory stored in an output array.
subroutine stiff_ode(nsteps, dt, lambda, y0, ys, newton_its)
  implicit none
  integer, intent(in) :: nsteps
  real(8), intent(in) :: dt, lambda, y0
  real(8), intent(out) :: ys(nsteps)
  integer, intent(out) :: newton_its
  real(8) :: y, t
  integer :: n, its
  y = y0
  t = 0.0d0
  newton_its = 0
  do n = 1, nsteps
    t = t + dt
    call implicit_step(y, t, dt, lambda, its)
    ys(n) = y
    newton_its = newton_its + its
  end do
end subroutine stiff_ode

subroutine implicit_step(y, t, dt, lambda, its)
  implicit none
  real(8), intent(inout) :: y
  real(8), intent(in) :: t, dt, lambda
  integer, intent(out) :: its
  real(8) :: ynew, g, gp, delta
  ynew = y
  its = 0
  do while (.true.)
    g = ynew - y - dt * (-lambda * (ynew - cos(t)) - ynew**3)
    gp = 1.0d0 + dt * (lambda + 3.0d0 * ynew**2)
    delta = g / gp
    ynew = ynew - delta
    its = its + 1
    if (abs(delta) < 1.0d-14 * (1.0d0 + abs(ynew))) exit
    if (its >= 30) exit
  end do
  y = ynew
end subroutine implicit_step
