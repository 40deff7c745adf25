! A gas cell relaxed in place; its fluxes returned in a second cell.
! Features: derived-type root dummies (INTENT(INOUT) independent and dependent,
! INTENT(OUT) dependent), a nested type component, an array component, an integer
! component (passive, read from check.toml), real components that carry no derivative
! (fluxes%count, set from an integer: the varied-fields analysis drops it).
module gas_cell
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nw = 3

  type :: params
    real(dp) :: gamma
    real(dp) :: scale
  end type params

  type :: cell
    real(dp) :: rho, u
    real(dp) :: w(nw)
    integer :: nsub
    real(dp) :: age
    type(params) :: par
  end type cell

  type :: fluxes
    real(dp) :: rho, u
    real(dp) :: w(nw)
    real(dp) :: count
    real(dp) :: gamma
  end type fluxes

contains

  subroutine relax(c, flux, dt)
    type(cell), intent(inout) :: c
    type(fluxes), intent(out) :: flux
    real(dp), intent(in) :: dt
    integer :: i, k
    do k = 1, c%nsub
      c%rho = c%rho + dt * (c%u * c%w(1) - 0.1_dp * c%rho**2)
      do i = 1, nw
        c%w(i) = c%w(i) * exp(-dt * c%par%gamma * c%u) + dt * c%rho / i
      end do
      c%u = c%u - dt * sin(c%rho) * c%par%gamma
    end do
    flux%rho = c%rho * c%u
    flux%u = c%rho * c%u**2 + c%par%gamma * c%rho
    flux%w = c%w * c%u
    flux%gamma = c%par%gamma * c%par%scale
    flux%count = real(c%nsub, dp)
    c%age = real(k, dp)
  end subroutine relax
end module gas_cell
