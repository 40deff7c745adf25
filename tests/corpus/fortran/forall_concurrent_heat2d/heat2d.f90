! Anisotropic 2-D heat conduction with a conductivity field: face conductivities by
! FORALL (harmonic means), the explicit update by DO CONCURRENT over interior
! points, boundary rows copied with FORALL on sections, and a source term applied
! where a disc mask holds (FORALL with a mask). The cost is the heat content
! weighted by a sensor pattern.
! Features: FORALL statement with two indices, FORALL construct with a mask,
! DO CONCURRENT with two indices, a FORALL index named like a DO variable used
! elsewhere (i), 2-D sections in FORALL bodies, DOT_PRODUCT of columns.
subroutine heat2d(n, nsteps, kcond, src, sensor, cost)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: kcond(n, n), src(n, n), sensor(n, n)
  real(8), intent(out) :: cost
  real(8) :: t(n, n), tnew(n, n), kx(n-1, n), ky(n, n-1)
  real(8) :: dt, r2
  integer :: i, j, step

  dt = 0.1d0
  forall (i = 1:n-1, j = 1:n) kx(i, j) = 2.0d0 * kcond(i, j) * kcond(i+1, j) / (kcond(i, j) + kcond(i+1, j))
  forall (i = 1:n, j = 1:n-1) ky(i, j) = 2.0d0 * kcond(i, j) * kcond(i, j+1) / (kcond(i, j) + kcond(i, j+1))
  t = 0.0d0
  do step = 1, nsteps
    do concurrent (j = 2:n-1, i = 2:n-1)
      tnew(i, j) = t(i, j) + dt * (kx(i, j) * (t(i+1, j) - t(i, j)) - kx(i-1, j) * (t(i, j) - t(i-1, j)) &
                                 + ky(i, j) * (t(i, j+1) - t(i, j)) - ky(i, j-1) * (t(i, j) - t(i, j-1)))
    end do
    forall (j = 2:n-1)
      t(2:n-1, j) = tnew(2:n-1, j)
    end forall
    ! Insulated top and bottom rows.
    forall (j = 1:n) t(1, j) = t(2, j)
    forall (j = 1:n) t(n, j) = t(n-1, j)
    forall (i = 2:n-1, j = 2:n-1, (i - n/2)**2 + (j - n/2)**2 <= (n/3)**2)
      t(i, j) = t(i, j) + dt * src(i, j)
    end forall
  end do
  cost = 0.0d0
  do i = 1, n
    r2 = dot_product(sensor(:, i), t(:, i))
    cost = cost + r2
  end do
end subroutine heat2d
