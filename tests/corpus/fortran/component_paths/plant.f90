! A well-mixed tank: a state of concentrations, energy and time, and parameters with
! nested reaction coefficients. The roots name components, not whole structures, as
! independents and dependents (`p%c%rate`, `st%x`, `st%energy`).
module plant
  implicit none
  type coeffs
    real(8) :: rate(3)
    real(8) :: gain
  end type coeffs
  type params
    type(coeffs) :: c
    real(8) :: temp
    real(8) :: scale
    integer :: nsub
  end type params
  type state
    real(8) :: x(4)
    real(8) :: energy
    real(8) :: t
  end type state
contains
  ! Explicit steps of a small reaction network; the energy and the clock follow.
  subroutine advance(p, st, dt, loss)
    type(params), intent(in) :: p
    type(state), intent(inout) :: st
    real(8), intent(in) :: dt
    real(8), intent(out) :: loss
    real(8) :: r(3), h
    integer :: k
    h = dt/p%nsub
    do k = 1, p%nsub
      r(1) = p%c%rate(1)*st%x(1)*exp(-p%temp/(300d0 + st%energy))
      r(2) = p%c%rate(2)*st%x(2)*st%x(1)
      r(3) = p%c%rate(3)*st%x(3)**2
      st%x(1) = st%x(1) - h*(r(1) + r(2))
      st%x(2) = st%x(2) + h*(r(1) - r(2))
      st%x(3) = st%x(3) + h*(r(2) - 2d0*r(3))
      st%x(4) = st%x(4) + h*r(3)
      st%energy = st%energy + h*p%c%gain*(r(1) + 0.5d0*r(3)) - h*0.1d0*st%energy
      st%t = st%t + h*(1d0 + 0.01d0*st%energy)
    end do
    loss = p%scale*sum((st%x - 0.5d0)**2) + 0.01d0*st%t
  end subroutine advance

  ! The whole parameter set is independent here: its derivative type keeps every
  ! real component, which `advance` must then take as zero but for `c%rate`.
  subroutine calibrate(p, y)
    type(params), intent(in) :: p
    real(8), intent(out) :: y
    y = p%c%gain*p%temp + p%scale*sum(p%c%rate**2)
  end subroutine calibrate
end module plant
