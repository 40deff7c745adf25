! Integrators whose internal procedures call the integrand, a procedure argument of their
! host, by host association (as QUADPACK's dgauss8, dsimpson and dlobatto do): a Gauss
! rule evaluated by an internal function (the integrand given by an interface body), an
! adaptive Simpson rule whose recursive internal subroutine also counts its calls in a
! host variable, and an external trapezoid rule with an F77-declared integrand, given a
! module procedure and an external function. The model (model.f90) names its integrand
! `g`, as the Gauss rule names its internal function.
module quad
  implicit none
  integer, parameter, private :: wp = kind(1.0d0)

  abstract interface
    real(wp) function func(x)
      import :: wp
      real(wp), intent(in) :: x
    end function func
  end interface

contains
  subroutine gauss(f, a, b, n, ans)
    interface
      function f(x) result(y)
        import :: wp
        real(wp), intent(in) :: x
        real(wp) :: y
      end function f
    end interface
    real(wp), intent(in) :: a, b
    integer, intent(in) :: n
    real(wp), intent(out) :: ans
    real(wp) :: h
    integer :: i
    h = (b - a)/n
    ans = 0.0_wp
    do i = 1, n
      ans = ans + g(a + (i - 0.5_wp)*h, h/2)
    end do
  contains
    ! The two-point Gauss rule on [x - h, x + h].
    function g(x, h)
      real(wp), intent(in) :: x, h
      real(wp) :: g
      real(wp), parameter :: x1 = 0.57735026918962576451_wp
      g = h*(f(x - x1*h) + f(x + x1*h))
    end function g
  end subroutine gauss

  recursive subroutine simpson(f, a, b, tol, ans, ierr)
    procedure(func) :: f
    real(wp), intent(in) :: a, b, tol
    real(wp), intent(out) :: ans
    integer, intent(out) :: ierr
    real(wp) :: fa, fm, fb
    integer :: k
    integer, parameter :: kmax = 200
    k = 0
    ierr = 1
    fa = f(a)
    fm = f((a + b)/2)
    fb = f(b)
    call step(a, b, fa, fm, fb, ans)
  contains
    recursive subroutine step(a, b, fa, fm, fb, ans)
      real(wp), intent(in) :: a, b, fa, fm, fb
      real(wp), intent(out) :: ans
      real(wp) :: m, fl, fr, s1, s2, q1, q2
      k = k + 1
      m = (a + b)/2
      fl = f((a + m)/2)
      fr = f((m + b)/2)
      s1 = (b - a)/6*(fa + 4*fm + fb)
      s2 = (b - a)/12*(fa + 4*fl + 2*fm + 4*fr + fb)
      if (abs(s2 - s1) < 15*tol .or. k > kmax) then
        if (k > kmax) ierr = 2
        ans = s2 + (s2 - s1)/15
      else
        call step(a, m, fa, fl, fm, q1)
        call step(m, b, fm, fr, fb, q2)
        ans = q1 + q2
      end if
    end subroutine step
  end subroutine simpson
end module quad

! An external integrator, its integrand declared as F77 does.
subroutine trap(f, a, b, n, s)
  implicit none
  external f
  double precision f
  double precision, intent(in) :: a, b
  integer, intent(in) :: n
  double precision, intent(out) :: s
  integer :: i
  s = 0
  do i = 0, n
    s = s + weight(i)*at(i)
  end do
contains
  double precision function at(i)
    integer, intent(in) :: i
    at = f(a + i*(b - a)/n)
  end function at

  ! A sibling that needs no integrand: the copies of `trap` take a copy of it along.
  double precision function weight(i)
    integer, intent(in) :: i
    weight = (b - a)/n
    if (i == 0 .or. i == n) weight = weight/2
  end function weight
end subroutine trap

double precision function wave(x)
  implicit none
  double precision, intent(in) :: x
  wave = x*sin(3*x)
end function wave
