! A periodic 1-D finite-volume grid and a cell-average field on it, with a Rusanov
! (local Lax-Friedrichs) flux for u_t + (a u + u^2/2)_x = 0.
! Features: derived types with array components (one with a 0-based bound), a type
! INTENT(OUT) dummy filled by a constructor routine, INTENT(IN)/INOUT type dummies,
! a passive module counter written by a module procedure, module functions of
! derived types, whole-component array assignment.
module fv_grid
  use fv_kinds
  implicit none

  type :: grid_t
    integer :: n
    real(wp) :: dx
    real(wp) :: xc(ncell)
  end type grid_t

  type :: field_t
    real(wp) :: u(ncell)
    real(wp) :: flux(0:ncell)
  end type field_t

  integer :: flux_evaluations = 0

contains

  subroutine make_grid(length, g)
    real(wp), intent(in) :: length
    type(grid_t), intent(out) :: g
    integer :: i
    g%n = ncell
    g%dx = length / ncell
    do i = 1, ncell
      g%xc(i) = (i - half) * g%dx
    end do
  end subroutine make_grid

  function physical_flux(u, a) result(fl)
    real(wp), intent(in) :: u, a
    real(wp) :: fl
    fl = a * u + half * u**2
  end function physical_flux

  subroutine rusanov_fluxes(g, f, a)
    type(grid_t), intent(in) :: g
    type(field_t), intent(inout) :: f
    real(wp), intent(in) :: a
    integer :: i, il, ir
    real(wp) :: ul, ur, smax
    flux_evaluations = flux_evaluations + 1
    do i = 0, g%n
      il = i
      ir = i + 1
      if (il < 1) il = g%n
      if (ir > g%n) ir = 1
      ul = f%u(il)
      ur = f%u(ir)
      smax = max(abs(a + ul), abs(a + ur))
      f%flux(i) = half * (physical_flux(ul, a) + physical_flux(ur, a)) &
                - half * smax * (ur - ul)
    end do
  end subroutine rusanov_fluxes

  subroutine update(g, f, dt)
    type(grid_t), intent(in) :: g
    type(field_t), intent(inout) :: f
    real(wp), intent(in) :: dt
    integer :: i
    do i = 1, g%n
      f%u(i) = f%u(i) - dt / g%dx * (f%flux(i) - f%flux(i - 1))
    end do
  end subroutine update

  function total_mass(g, f) result(m)
    type(grid_t), intent(in) :: g
    type(field_t), intent(in) :: f
    real(wp) :: m
    m = g%dx * sum(f%u)
  end function total_mass

  ! First moment of the field: where the mass sits.
  function centroid(g, f) result(xm)
    type(grid_t), intent(in) :: g
    type(field_t), intent(in) :: f
    real(wp) :: xm
    integer :: i
    xm = 0.0_wp
    do i = 1, g%n
      xm = xm + g%xc(i) * f%u(i)
    end do
    xm = xm * g%dx / total_mass(g, f)
  end function centroid
end module fv_grid
