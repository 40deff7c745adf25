! Procedures passed as arguments, as Numerical Recipes' integrators take `derivs`: an
! integrator that passes its right-hand side on to a midpoint stepper, called with two
! models (and one of them twice; the integrator has a local named like one of them), and
! a Simpson quadrature of a function argument.
subroutine pendulum(t, y, dy)
  implicit none
  real(8), intent(in) :: t, y(2)
  real(8), intent(out) :: dy(2)
  dy(1) = y(2)
  dy(2) = -sin(y(1)) + 0.1d0*cos(t)
end subroutine pendulum

subroutine decay(t, y, dy)
  implicit none
  real(8), intent(in) :: t, y(2)
  real(8), intent(out) :: dy(2)
  dy(1) = -0.5d0*y(1)*y(2)
  dy(2) = -0.2d0*y(2) + 0.01d0*t
end subroutine decay

subroutine midpoint(f, n, t, h, y)
  implicit none
  external f
  integer, intent(in) :: n
  real(8), intent(in) :: t, h
  real(8), intent(inout) :: y(n)
  real(8) :: k1(n), ym(n)
  call f(t, y, k1)
  ym = y + 0.5d0*h*k1
  call f(t + 0.5d0*h, ym, k1)
  y = y + h*k1
end subroutine midpoint

subroutine integrate(f, n, h, nsteps, y)
  implicit none
  external f
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: h
  real(8), intent(inout) :: y(n)
  ! A local named like a model passed for f (as jburkardt's rk4 keeps a real `f3`).
  real(8) :: pendulum
  integer :: k
  pendulum = 0d0
  do k = 1, nsteps
    call midpoint(f, n, pendulum, h, y)
    pendulum = pendulum + h
  end do
end subroutine integrate

real(8) function simpson(g, a, b, m)
  implicit none
  real(8), external :: g
  real(8), intent(in) :: a, b
  integer, intent(in) :: m
  real(8) :: h, s
  integer :: i
  h = (b - a)/(2*m)
  s = g(a) + g(b)
  do i = 1, 2*m - 1
    if (mod(i, 2) == 1) then
      s = s + 4*g(a + i*h)
    else
      s = s + 2*g(a + i*h)
    end if
  end do
  simpson = s*h/3
end function simpson

real(8) function weight(x)
  implicit none
  real(8), intent(in) :: x
  weight = exp(-x*x)
end function weight

subroutine run(h, y, z, q)
  implicit none
  real(8), intent(in) :: h
  real(8), intent(inout) :: y(2)
  real(8), intent(out) :: z(2), q
  external pendulum, decay
  real(8), external :: weight, simpson
  call integrate(pendulum, 2, h, 8, y)
  z = y
  call integrate(decay, 2, h, 5, z)
  call integrate(pendulum, 2, h, 3, y)
  q = simpson(weight, 0.1d0*y(2), y(1), 6)
end subroutine run
