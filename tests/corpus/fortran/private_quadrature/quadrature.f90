! A quadrature library written as modern libraries are: PRIVATE by default, its real
! kind renamed from ISO_FORTRAN_ENV, tables and machine constants PRIVATE, the public
! drivers calling PRIVATE workers that take the integrand on, a PRIVATE helper
! function, a PRIVATE passive routine (sorting the panels' error estimates). A model of
! another module integrates its own function with it: the specialized copies of the
! workers move into the model's module and need what the library keeps PRIVATE (and
! their local `k` hides the model's active `k` there).
module quad
  use, intrinsic :: iso_fortran_env, only: wp => real64
  implicit none
  private

  real(wp), dimension(3), parameter :: mach = [epsilon(1.0_wp), tiny(1.0_wp), &
                                                huge(1.0_wp)]
  real(wp), parameter :: epmach = mach(1)
  ! Simpson's weights.
  real(wp), parameter :: w(3) = [1.0_wp, 4.0_wp, 1.0_wp]/6.0_wp

  abstract interface
    real(wp) function func(x)
      import :: wp
      real(wp), intent(in) :: x
    end function func
  end interface

  public :: integrate, smooth

contains
  ! Composite Simpson rule over n panels, panels sorted by their error estimates.
  subroutine integrate(f, a, b, n, r, worst)
    procedure(func) :: f
    real(wp), intent(in) :: a, b
    integer, intent(in) :: n
    real(wp), intent(out) :: r
    integer, intent(out) :: worst
    real(wp) :: h, s, e(n)
    integer :: k, order(n)
    h = (b - a)/n
    r = 0.0_wp
    do k = 1, n
      call panel(f, a + (k - 1)*h, h, s, e(k))
      r = r + s
    end do
    call rank(n, e, order)
    worst = order(1)
  end subroutine integrate

  subroutine panel(f, x0, h, s, err)
    interface
      function f(x) result(y)
        import :: wp
        real(wp), intent(in) :: x
        real(wp) :: y
      end function f
    end interface
    real(wp), intent(in) :: x0, h
    real(wp), intent(out) :: s, err
    real(wp) :: f0, f1, f2
    f0 = f(x0)
    f1 = f(x0 + h/2)
    f2 = f(x0 + h)
    s = h*(w(1)*f0 + w(2)*f1 + w(3)*f2)
    err = abs(f0 - 2.0_wp*f1 + f2)*h + epmach
    s = damped(s, err)
  end subroutine panel

  ! A smooth correction of a panel's sum by its error estimate.
  function damped(s, err) result(t)
    real(wp), intent(in) :: s, err
    real(wp) :: t
    t = s*(1.0_wp - 0.01_wp*err/(1.0_wp + err))
  end function damped

  ! The panels by decreasing error estimate (selection sort of an index).
  subroutine rank(n, e, order)
    integer, intent(in) :: n
    real(wp), intent(in) :: e(n)
    integer, intent(out) :: order(n)
    integer :: i, j, k, t
    do i = 1, n
      order(i) = i
    end do
    do i = 1, n - 1
      k = i
      do j = i + 1, n
        if (e(order(j)) > e(order(k))) k = j
      end do
      t = order(i)
      order(i) = order(k)
      order(k) = t
    end do
  end subroutine rank

  real(wp) function smooth(x)
    real(wp), intent(in) :: x
    smooth = x/(1.0_wp + x*x)
  end function smooth
end module quad

module model
  use quad
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: k = 1.0_dp
contains
  function g(x) result(y)
    real(dp), intent(in) :: x
    real(dp) :: y
    y = exp(-k*x*x) + smooth(k*x)
  end function g

  subroutine cost(kk, b, r)
    real(dp), intent(in) :: kk, b
    real(dp), intent(out) :: r
    integer :: worst
    k = kk
    call integrate(g, 0.0_dp, b, 8, r, worst)
    r = r + 0.1_dp*worst
  end subroutine cost
end module model
