! Student-t and gamma log-likelihood terms with the special functions of Fortran 2008
! (LOG_GAMMA, GAMMA, ERF, ERFC, HYPOT, ASINH, ACOSH, ATANH) and gfortran's specific
! names (DERF, DLGAMA), in double and single precision.
subroutine loglik(n, x, nu, alpha, total)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), nu, alpha
  real(8), intent(out) :: total
  integer :: i
  real(8) :: z, g
  real :: s
  total = 0
  do i = 1, n
    z = x(i)
    g = abs(z) + 1
    ! Student t with nu degrees of freedom
    total = total + log_gamma(0.5d0*(nu + 1)) - dlgama(0.5d0*nu) &
        - 0.5d0*(nu + 1)*log(1 + z*z/nu)
    ! gamma density of |z| + 1, and a normal CDF
    total = total + (alpha - 1)*log(g) - log(gamma(alpha)) + log(0.5d0*erfc(-z/sqrt(2d0)))
    total = total + derf(0.3d0*z) + hypot(z, nu) + asinh(z) + acosh(g + 1) &
        + atanh(0.5d0*tanh(z))
    ! single precision: ERF of a default real
    s = erf(real(z))
    total = total + 1d-6*s
  end do
end subroutine loglik
