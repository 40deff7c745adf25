! Run the filter over a series of position measurements; the total negative
! log-likelihood is what a noise-parameter fit would minimize.
! Features: an external root, USE whole and with ONLY, INTENT(OUT) construction of a
! nested-type model, array output from a type component.
subroutine filter_nll(nobs, dt, z, qscale, rvar, x0, nll, xlast)
  use kf_types, only: rk, gaussian, model_t
  use kf_ops
  implicit none
  integer, intent(in) :: nobs
  real(rk), intent(in) :: dt, z(nobs), qscale, rvar, x0(2)
  real(rk), intent(out) :: nll, xlast(2)
  type(model_t) :: m
  type(gaussian) :: g
  real(rk) :: term
  integer :: t
  call build_model(dt, qscale, rvar, m)
  g%mean = x0
  g%cov(1, 1) = 1.0_rk
  g%cov(1, 2) = 0.0_rk
  g%cov(2, 1) = 0.0_rk
  g%cov(2, 2) = 1.0_rk
  nll = 0.0_rk
  do t = 1, nobs
    call predict(m, g)
    call correct(m, z(t) * t * dt, g, term)
    nll = nll + term
  end do
  xlast = g%mean
end subroutine filter_nll
