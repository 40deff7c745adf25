! Predict / correct steps of a Kalman filter with a scalar measurement.
! Features: type dummies INTENT(IN) and INOUT, nested component paths m%noise%q(i,j),
! local 2-D work arrays, a module function of derived types, a passive counter.
module kf_ops
  use kf_types
  implicit none
  integer :: corrections = 0

contains

  subroutine build_model(dt, qscale, rvar, m)
    real(rk), intent(in) :: dt, qscale, rvar
    type(model_t), intent(out) :: m
    m%f(1, 1) = 1.0_rk
    m%f(1, 2) = dt
    m%f(2, 1) = 0.0_rk
    m%f(2, 2) = 1.0_rk
    m%h(1) = 1.0_rk
    m%h(2) = 0.0_rk
    m%noise%q(1, 1) = qscale * dt**3 / 3.0_rk
    m%noise%q(1, 2) = qscale * dt**2 / 2.0_rk
    m%noise%q(2, 1) = m%noise%q(1, 2)
    m%noise%q(2, 2) = qscale * dt
    m%noise%r = rvar
  end subroutine build_model

  subroutine predict(m, g)
    type(model_t), intent(in) :: m
    type(gaussian), intent(inout) :: g
    real(rk) :: x(ns), fp(ns, ns)
    integer :: i, j, k
    x = g%mean
    do i = 1, ns
      g%mean(i) = 0.0_rk
      do k = 1, ns
        g%mean(i) = g%mean(i) + m%f(i, k) * x(k)
      end do
    end do
    do i = 1, ns
      do j = 1, ns
        fp(i, j) = 0.0_rk
        do k = 1, ns
          fp(i, j) = fp(i, j) + m%f(i, k) * g%cov(k, j)
        end do
      end do
    end do
    do i = 1, ns
      do j = 1, ns
        g%cov(i, j) = m%noise%q(i, j)
        do k = 1, ns
          g%cov(i, j) = g%cov(i, j) + fp(i, k) * m%f(j, k)
        end do
      end do
    end do
  end subroutine predict

  ! Innovation variance h' P h + r.
  function innovation_var(m, g) result(s)
    type(model_t), intent(in) :: m
    type(gaussian), intent(in) :: g
    real(rk) :: s
    integer :: i, j
    s = m%noise%r
    do i = 1, ns
      do j = 1, ns
        s = s + m%h(i) * g%cov(i, j) * m%h(j)
      end do
    end do
  end function innovation_var

  ! Measurement update; returns the negative log-likelihood of z.
  subroutine correct(m, z, g, nll)
    type(model_t), intent(in) :: m
    real(rk), intent(in) :: z
    type(gaussian), intent(inout) :: g
    real(rk), intent(out) :: nll
    real(rk) :: s, innov, gain(ns), ph(ns), p(ns, ns)
    integer :: i, j
    corrections = corrections + 1
    s = innovation_var(m, g)
    innov = z - dot_product(m%h, g%mean)
    do i = 1, ns
      ph(i) = 0.0_rk
      do j = 1, ns
        ph(i) = ph(i) + g%cov(i, j) * m%h(j)
      end do
      gain(i) = ph(i) / s
    end do
    do i = 1, ns
      g%mean(i) = g%mean(i) + gain(i) * innov
    end do
    p = g%cov
    do i = 1, ns
      do j = 1, ns
        g%cov(i, j) = p(i, j) - gain(i) * ph(j)
      end do
    end do
    nll = 0.5_rk * (log(two_pi * s) + innov**2 / s)
  end subroutine correct
end module kf_ops
