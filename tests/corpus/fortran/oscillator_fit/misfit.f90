! Weighted least-squares misfit of a damped-oscillator model against observations.
! Features: CALLs whose actual arguments are constants, array elements and
! expressions; REAL(8); a callee that rescales its argument in place.
subroutine misfit(n, t, obs, p, j)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: t(n), obs(n), p(3)
  real(8), intent(out) :: j
  real(8) :: m, r
  integer :: i
  j = 0.0d0
  do i = 1, n
    call model(t(i), p(1), p(2) * 0.5d0, 2.0d0 + p(3), 0.3d0, m)
    call residual(m, obs(i), 1.0d0 + 0.1d0 * dble(i), r)
    j = j + r
  end do
  call scale_by(j, 1.0d0 / dble(n))
end subroutine misfit

subroutine model(t, a, damp, omega, phase, m)
  implicit none
  real(8), intent(in) :: t, a, damp, omega, phase
  real(8), intent(out) :: m
  m = a * exp(-damp * t) * cos(omega * t + phase)
end subroutine model

subroutine residual(m, o, w, r)
  implicit none
  real(8), intent(in) :: m, o, w
  real(8), intent(out) :: r
  r = w * (m - o)**2
end subroutine residual

subroutine scale_by(x, s)
  implicit none
  real(8), intent(inout) :: x
  real(8), intent(in) :: s
  x = x * s
end subroutine scale_by
