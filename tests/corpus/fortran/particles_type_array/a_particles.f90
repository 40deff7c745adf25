! Particles held as an array of a derived type defined in a module: each particle has
! an array component (position, velocity), a scalar mass, and a passive integer tag.
! The kernels take the array of particles as an explicit-shape dummy and reach the
! components of its elements, `p(i)%x(k)`; a whole element is copied by assignment.
module particles_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)

  type particle
    real(dp) :: x(2)
    real(dp) :: v(2)
    real(dp) :: m
    integer :: tag
  end type particle

contains

  subroutine accelerate(n, p, k, dt)
    integer, intent(in) :: n
    type(particle), intent(inout) :: p(n)
    real(dp), intent(in) :: k, dt
    integer :: i, j, d
    real(dp) :: r2, f
    do i = 1, n
      do j = 1, n
        if (i /= j) then
          r2 = 0.1_dp + (p(j)%x(1) - p(i)%x(1))**2 + (p(j)%x(2) - p(i)%x(2))**2
          do d = 1, 2
            f = k * p(j)%m * (p(j)%x(d) - p(i)%x(d)) / (r2 * sqrt(r2))
            p(i)%v(d) = p(i)%v(d) + dt * f
          end do
        end if
      end do
    end do
  end subroutine accelerate

  subroutine drift(n, p, dt)
    integer, intent(in) :: n
    type(particle), intent(inout) :: p(n)
    real(dp), intent(in) :: dt
    integer :: i
    do i = 1, n
      p(i)%x = p(i)%x + dt * p(i)%v
      p(i)%m = p(i)%m * (1.0_dp - 0.01_dp * dt * p(i)%tag)
    end do
  end subroutine drift

end module particles_mod

subroutine evolve(n, x0, v0, mass, k, dt, nsteps, xout, ekin)
  use particles_mod
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(in) :: x0(2, n), v0(2, n), mass(n), k, dt
  real(dp), intent(out) :: xout(2, n), ekin
  type(particle) :: p(n), first
  integer :: i, s
  do i = 1, n
    p(i)%x(:) = x0(:, i)
    p(i)%v = v0(:, i)
    p(i)%m = mass(i)
    p(i)%tag = mod(i, 3)
  end do
  first = p(1)
  do s = 1, nsteps
    call accelerate(n, p, k, dt)
    call drift(n, p, dt)
  end do
  ekin = 0.0_dp
  do i = 1, n
    xout(:, i) = p(i)%x
    ekin = ekin + 0.5_dp * p(i)%m * (p(i)%v(1)**2 + p(i)%v(2)**2)
  end do
  ekin = ekin + sum(p%m) * first%x(1)
end subroutine evolve
