! Functions that return arrays, as modern ODE codes write them: the right-hand side of
! a damped oscillator returns its vector, a Runge-Kutta increment is an internal
! function of the integrator, and both are called inside array expressions, as actual
! arguments and with keywords. A damping of any vector sizes its result by its argument
! (`w(size(v))`), called with a variable and with an expression.
module oscillator
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  function rhs(t, y, m, omega) result(dydt)
    integer, intent(in) :: m
    real(dp), intent(in) :: t, y(m), omega
    real(dp) :: dydt(m)
    dydt(1) = y(2)
    dydt(2) = -omega**2 * y(1) - 0.1_dp * y(2) + 0.01_dp * sin(t)
  end function rhs

  function damped(v) result(w)
    real(dp), intent(in) :: v(:)
    real(dp) :: w(size(v))
    w = v/(1.0_dp + v**2)
  end function damped

  function norm2_of(v) result(s)
    real(dp), intent(in) :: v(:)
    real(dp) :: s
    s = sqrt(sum(v**2))
  end function norm2_of

  subroutine integrate(m, nsteps, h, omega, y, energy)
    integer, intent(in) :: m, nsteps
    real(dp), intent(in) :: h, omega
    real(dp), intent(inout) :: y(m)
    real(dp), intent(out) :: energy
    real(dp) :: t
    integer :: s
    t = 0.0_dp
    energy = 0.0_dp
    do s = 1, nsteps
      y = y + increment(t, y)
      t = t + h
      energy = energy + h * norm2_of(rhs(t, y, m, omega=omega))
      energy = energy + 0.1_dp * h * sum(damped(y)) + h * norm2_of(damped(0.5_dp * y))
    end do
  contains
    function increment(t0, y0) result(dy)
      real(dp), intent(in) :: t0, y0(m)
      real(dp) :: dy(m), k(m, 4)
      k(:, 1) = h * rhs(t0, y0, m, omega)
      k(:, 2) = h * rhs(t0 + 0.5_dp * h, y0 + 0.5_dp * k(:, 1), m, omega)
      k(:, 3) = h * rhs(t0 + 0.5_dp * h, y0 + 0.5_dp * k(:, 2), m, omega)
      k(:, 4) = h * rhs(t0 + h, y0 + k(:, 3), m, omega)
      dy = (k(:, 1) + 2.0_dp * k(:, 2) + 2.0_dp * k(:, 3) + k(:, 4)) / 6.0_dp
    end function increment
  end subroutine integrate
end module oscillator
