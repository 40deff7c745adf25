! Cells exchanging mass, as in c/cells_passive_fields, with Fortran derived types:
! `cell_t` mixes components that carry derivatives (rho, mom, a nested probe's value)
! with real components that never do (a cell centre computed from the integer index, a
! real update counter, a capacity set from a constant, a nested probe's weight) and an
! integer; the module variable `par` of type `params_t` holds one active coefficient
! and two constants; `tag_t` (nested) has no active component at all. The derivative
! types hold only the active components (tests/active_fields.rs checks the text).
module cell_types
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nc = 3

  type :: params_t
    real(dp) :: visc
    real(dp) :: cfl, gamma
  end type params_t

  type :: probe_t
    real(dp) :: val
    real(dp) :: weight
  end type probe_t

  type :: tag_t
    real(dp) :: stamp
    integer :: owner
  end type tag_t

  type :: cell_t
    real(dp) :: rho, mom
    real(dp) :: xc, nupd, cap
    integer :: id
    type(probe_t) :: pr
    type(tag_t) :: tag
  end type cell_t

  type(params_t) :: par

contains

  subroutine set_params(visc)
    real(dp), intent(in) :: visc
    par%visc = visc
    par%cfl = 0.4_dp
    par%gamma = 1.4_dp
  end subroutine set_params

  subroutine init_cell(c, i, rho0, u0)
    type(cell_t), intent(out) :: c
    integer, intent(in) :: i
    real(dp), intent(in) :: rho0, u0
    c%id = i
    c%xc = (i + 0.5_dp) / nc
    c%rho = rho0 * (1.0_dp + 0.1_dp * sin(6.0_dp * c%xc))
    c%mom = c%rho * u0
    c%nupd = 0.0_dp
    c%cap = 2.0_dp + c%xc
    c%pr%val = 0.0_dp
    c%pr%weight = 0.5_dp
    c%tag%stamp = 0.0_dp
    c%tag%owner = i
  end subroutine init_cell

  function pressure(c) result(p)
    type(cell_t), intent(in) :: c
    real(dp) :: p
    real(dp) :: u
    u = c%mom / c%rho
    p = (par%gamma - 1.0_dp) * c%rho * (1.0_dp + 0.5_dp * u * u) / c%cap
  end function pressure

  subroutine bump(counter)
    real(dp), intent(inout) :: counter
    counter = 0.5_dp * counter + 1.0_dp
  end subroutine bump

  subroutine relax(a, b, dt)
    type(cell_t), intent(inout) :: a, b
    real(dp), intent(in) :: dt
    real(dp) :: pa, pb, flux
    pa = pressure(a)
    pb = pressure(b)
    flux = par%visc * (b%rho - a%rho) + par%cfl * (pb - pa)
    a%rho = a%rho + dt * flux
    b%rho = b%rho - dt * flux
    a%mom = a%mom * (1.0_dp - dt * par%visc * a%xc)
    a%pr%val = a%pr%val + a%pr%weight * flux
    call bump(a%nupd)
    b%nupd = b%nupd + 1.0_dp
    b%tag%stamp = b%tag%stamp + dt
  end subroutine relax
end module cell_types
