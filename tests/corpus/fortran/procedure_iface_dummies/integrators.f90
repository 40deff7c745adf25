! Procedure arguments declared with PROCEDURE(iface), as modern integrators write them:
! abstract interfaces in a module of their own (a function typed through IMPORT of a kind
! parameter, and a subroutine); an integrator of module `integ` called with a model of
! module `model` (which uses `integ`), and one called with a model of its own module; a
! dummy declared with another procedure's interface; the models passed by name.
module kinds
  implicit none
  integer, parameter :: dp = kind(1.0d0)
end module kinds

module ode_iface
  use kinds
  implicit none
  abstract interface
    function rhs(t, y) result(dy)
      import :: dp
      real(dp), intent(in) :: t, y
      real(dp) :: dy
    end function rhs
    subroutine vec_rhs(n, y, dy)
      import :: dp
      integer, intent(in) :: n
      real(dp), intent(in) :: y(n)
      real(dp), intent(out) :: dy(n)
    end subroutine vec_rhs
  end interface
end module ode_iface

module integ
  use kinds
  use ode_iface
  implicit none
  real(dp) :: heun_weight = 0.5_dp
contains
  ! Heun's method for y' = f(t, y).
  subroutine heun(f, h, nsteps, y)
    procedure(rhs) :: f
    real(dp), intent(in) :: h
    integer, intent(in) :: nsteps
    real(dp), intent(inout) :: y
    real(dp) :: k1, k2, t
    integer :: i
    t = 0.0_dp
    do i = 1, nsteps
      k1 = f(t, y)
      k2 = f(t + h, y + h*k1)
      y = y + heun_weight*h*(k1 + k2)
      t = t + h
    end do
  end subroutine heun

  ! One explicit Euler step of a system.
  subroutine euler_vec(g, n, h, y)
    procedure(vec_rhs) :: g
    integer, intent(in) :: n
    real(dp), intent(in) :: h
    real(dp), intent(inout) :: y(n)
    real(dp) :: dy(n)
    call g(n, y, dy)
    y = y + h*dy
  end subroutine euler_vec

  ! Passes its model on, declared with the model's own interface.
  subroutine twice(g, n, h, y)
    procedure(oscillator) :: g
    integer, intent(in) :: n
    real(dp), intent(in) :: h
    real(dp), intent(inout) :: y(n)
    call euler_vec(g, n, h, y)
    call euler_vec(g, n, h, y)
  end subroutine twice

  subroutine oscillator(n, y, dy)
    integer, intent(in) :: n
    real(dp), intent(in) :: y(n)
    real(dp), intent(out) :: dy(n)
    dy(1) = y(2)
    dy(n) = -y(1) - 0.1_dp*y(2)**3
  end subroutine oscillator
end module integ

module model
  use kinds
  use integ
  implicit none
  real(dp) :: rate = 0.7_dp
contains
  function decay(t, y) result(dy)
    real(dp), intent(in) :: t, y
    real(dp) :: dy
    dy = -rate*y*(1.0_dp + 0.1_dp*sin(t))
  end function decay

  subroutine run(h, y0, z, yend)
    real(dp), intent(in) :: h, y0
    real(dp), intent(inout) :: z(2)
    real(dp), intent(out) :: yend
    integer :: k
    yend = y0
    call heun(decay, h, 20, yend)
    do k = 1, 5
      call twice(oscillator, 2, h, z)
    end do
  end subroutine run
end module model
