! A relaxation model whose set-up reads its parameters at run time, as csc's heat
! equation reads its command line and a namelist-driven code its input file: the set-up
! computes no derivative (nothing it writes depends on the sources yet), so the
! derivative code calls it as written, once, and the adjoint never runs it again.
module relax_setup
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  ! Parameters from a text line; defaults when it cannot be read.
  subroutine read_parameters(text, nsteps, coef)
    character(len=*), intent(in) :: text
    integer, intent(out) :: nsteps
    real(dp), intent(out) :: coef(3)
    integer :: ios
    nsteps = 3
    coef = [0.5_dp, 0.25_dp, 0.1_dp]
    read(text, *, iostat=ios) nsteps, coef
    if (ios /= 0) then
      write(*, '(a)') 'relax: bad parameters, using the defaults'
      nsteps = 3
    end if
  end subroutine read_parameters

  ! The forcing of one step, read from a table held as text.
  subroutine read_forcing(it, g)
    integer, intent(in) :: it
    real(dp), intent(out) :: g
    character(len=40) :: table
    real(dp) :: row(4)
    table = '0.9 1.1 0.7 1.3'
    read(table, *) row
    g = row(mod(it - 1, 4) + 1)
  end subroutine read_forcing

  ! Set-up: parameters, then the initial state and the flux accumulator.
  subroutine set_up(n, nsteps, coef, u, flux)
    integer, intent(in) :: n
    integer, intent(out) :: nsteps
    real(dp), intent(out) :: coef(3), u(n), flux(n)
    integer :: i
    call read_parameters('5  0.4 0.2 0.05', nsteps, coef)
    do i = 1, n
      u(i) = sin(3.0_dp * i / n)
    end do
    flux = 0.0_dp
  end subroutine set_up

  subroutine step(n, coef, g, src, u, flux)
    integer, intent(in) :: n
    real(dp), intent(in) :: coef(3), g, src(n)
    real(dp), intent(inout) :: u(n), flux(n)
    real(dp) :: old(n)
    integer :: i
    old = u
    do i = 2, n - 1
      u(i) = old(i) + coef(1) * (old(i-1) - 2.0_dp * old(i) + old(i+1)) &
             + coef(2) * g * src(i) - coef(3) * old(i)**2
    end do
    flux = flux + u * src
  end subroutine step
end module relax_setup

! Root: the sources are the independents; the flux (set by the set-up, then
! accumulated) and the energy are the dependents.
subroutine relax(n, src, flux, energy)
  use relax_setup
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: src(n)
  real(dp), intent(out) :: flux(n), energy
  real(dp) :: u(n), coef(3), g
  integer :: nsteps, it
  call set_up(n, nsteps, coef, u, flux)
  do it = 1, nsteps
    call read_forcing(it, g)
    call step(n, coef, g, src, u, flux)
  end do
  energy = sum(u**2)
end subroutine relax
