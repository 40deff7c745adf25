! A root that switches the scheme of a stepping routine between calls: the scheme is
! passive (a character argument, a module string and a module integer) and overwritten
! after each call, so the adjoint must restore it before re-running each step.
module stepping_config
  implicit none
  character(len=8) :: limiter = 'none'
  integer :: substeps = 1
end module stepping_config

subroutine step(method, n, dt, u)
  use stepping_config
  implicit none
  character(len=*), intent(in) :: method
  integer, intent(in) :: n
  real(8), intent(in) :: dt
  real(8), intent(inout) :: u(n)
  real(8) :: k1(n), k2(n)
  integer :: i, s
  do s = 1, substeps
    k1 = -u**2
    if (method == 'heun') then
      k2 = -(u + dt*k1)**2
      u = u + 0.5d0*dt*(k1 + k2)
    else if (method == 'euler') then
      u = u + dt*k1
    else
      u = u*(1.0d0 - dt)
    end if
    if (limiter == 'clip') then
      do i = 1, n
        u(i) = min(u(i), 2.0d0)
      end do
    end if
  end do
end subroutine step

subroutine integrate(n, dt, u0, u)
  use stepping_config
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: dt, u0(n)
  real(8), intent(out) :: u(n)
  character(len=5) :: method
  u = u0
  method = 'euler'
  substeps = 2
  limiter = 'clip'
  call step(method, n, dt, u)
  method = 'heun'
  substeps = 3
  limiter = 'none'
  call step(method, n, dt, u)
  method = 'other'
  substeps = 1
  call step(method, n, dt, u)
  method = 'done'
  substeps = 0
  limiter = 'unset'
end subroutine integrate
