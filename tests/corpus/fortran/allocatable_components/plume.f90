! A tracer plume on a 2-D grid kept in a derived type whose arrays are ALLOCATABLE
! components, sized at run time: the driver allocates them, the procedures that step
! the plume take the structure and read and write its components.
module plume_types
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type :: plume
    integer :: nx, ny
    real(dp) :: decay
    real(dp), allocatable :: conc(:, :)
    real(dp), allocatable :: wind(:)
  end type plume
end module plume_types

module plume_steps
  use plume_types
  implicit none
contains
  ! Sets the sizes of a plume, which is then to be allocated (INTENT(OUT): its arrays
  ! are freed on entry).
  subroutine set_sizes(p, nx, ny)
    type(plume), intent(out) :: p
    integer, intent(in) :: nx, ny
    p%nx = nx
    p%ny = ny
  end subroutine set_sizes

  ! Upwind transport along x with a wind that varies with y, then first-order decay.
  subroutine transport(p, dt)
    type(plume), intent(inout) :: p
    real(dp), intent(in) :: dt
    integer :: i, j
    do j = 1, p%ny
      do i = p%nx, 2, -1
        p%conc(i, j) = p%conc(i, j) - dt*p%wind(j)*(p%conc(i, j) - p%conc(i - 1, j))
      end do
    end do
    p%conc = p%conc*exp(-p%decay*dt)
  end subroutine transport

  ! Mixing between neighbouring rows of one column.
  subroutine mix_column(c, k)
    real(dp), intent(inout) :: c(:)
    real(dp), intent(in) :: k
    integer :: j
    do j = 2, size(c)
      c(j) = c(j) + k*(c(j - 1) - c(j))*c(j - 1)
    end do
  end subroutine mix_column

  real(dp) function total_mass(p)
    type(plume), intent(in) :: p
    total_mass = sum(p%conc(:, 1:p%ny))
  end function total_mass
end module plume_steps

subroutine plume_run(nx, ny, nsteps, source, wind, decay, mass, outflow)
  use plume_types
  use plume_steps
  implicit none
  integer, intent(in) :: nx, ny, nsteps
  real(dp), intent(in) :: source(ny), wind(ny), decay
  real(dp), intent(out) :: mass, outflow(ny)
  type(plume) :: p
  integer :: it, i
  call set_sizes(p, nx, ny)
  p%decay = decay
  allocate(p%conc(nx, ny), p%wind(ny))
  p%wind = wind
  p%conc = 0.0_dp
  mass = 0.0_dp
  do it = 1, nsteps
    p%conc(1, :) = source
    call transport(p, 0.1_dp)
    do i = 1, nx, 3
      call mix_column(p%conc(i, :), 0.05_dp)
    end do
    mass = mass + total_mass(p)
  end do
  outflow = p%conc(nx, :)
  deallocate(p%conc, p%wind)
end subroutine plume_run
