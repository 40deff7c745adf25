! A weighted least-squares misfit whose weights and gradient are OPTIONAL: the misfit
! fills its gradient only when asked (PRESENT), passes the optional gradient on to the
! regularization term, and scales by the weights when given. The driver takes one
! gradient step, calling the misfit once with keyword arguments and the weights
! omitted, once with the gradient omitted.
module misfit_mod
  implicit none
contains
  subroutine roughness(n, x, alpha, f, grad)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), alpha
    real(8), intent(inout) :: f
    real(8), intent(inout), optional :: grad(n)
    integer :: i
    real(8) :: d
    do i = 1, n - 1
      d = x(i + 1) - x(i)
      f = f + alpha * d * d
      if (present(grad)) then
        grad(i) = grad(i) - 2.0d0 * alpha * d
        grad(i + 1) = grad(i + 1) + 2.0d0 * alpha * d
      end if
    end do
  end subroutine roughness

  subroutine misfit(n, x, obs, f, w, grad)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), obs(n)
    real(8), intent(out) :: f
    real(8), intent(in), optional :: w(n)
    real(8), intent(out), optional :: grad(n)
    integer :: i
    real(8) :: r, wi
    f = 0.0d0
    if (present(grad)) grad = 0.0d0
    do i = 1, n
      wi = 1.0d0
      if (present(w)) wi = w(i)
      r = sin(x(i)) - obs(i)
      f = f + 0.5d0 * wi * r * r
      if (present(grad)) then
        grad(i) = wi * r * cos(x(i))
      end if
    end do
    call roughness(n, x, 0.05d0, f, grad)
  end subroutine misfit
end module misfit_mod

subroutine gradient_step(n, x, obs, w, step, xnew, fnew)
  use misfit_mod
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), obs(n), w(n), step
  real(8), intent(out) :: xnew(n), fnew
  real(8) :: g(n), f0
  call misfit(n, x, obs, f=f0, grad=g)
  xnew = x - step * g
  call misfit(n, xnew, obs, fnew, w)
  fnew = fnew + 0.01d0 * f0
end subroutine gradient_step
