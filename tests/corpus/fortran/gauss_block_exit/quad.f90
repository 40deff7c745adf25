! An adaptive Gauss rule written as modern QUADPACK writes its drivers: the refinement
! inside a named BLOCK left by `exit main` once converged (in place of GO TOs), from
! inside a DO loop; the two-point rule a module function given the integrand, a
! PROCEDURE(func) dummy, as its argument.
module quad_mod
  implicit none
  integer, parameter :: wp = kind(1.0d0)
  abstract interface
    real(wp) function func(x)
      import :: wp
      real(wp), intent(in) :: x
    end function func
  end interface
contains
  subroutine gauss_adapt(f, a, b, tol, total, npanels)
    procedure(func) :: f
    real(wp), intent(in) :: a, b, tol
    real(wp), intent(out) :: total
    integer, intent(out) :: npanels
    real(wp) :: h, coarse, fine
    integer :: i, k, n
    n = 2
    coarse = g(f, a, b - a)
    fine = coarse
    main: block
      do k = 1, 8
        h = (b - a)/n
        fine = 0
        do i = 0, n - 1
          fine = fine + g(f, a + i*h, h)
        end do
        if (abs(fine - coarse) < tol*abs(fine)) exit main
        coarse = fine
        n = 2*n
      end do
      ! not converged: the finest estimate
      fine = 0.5_wp*(fine + coarse)
    end block main
    total = fine
    npanels = n
  end subroutine gauss_adapt

  real(wp) function g(fun, x, h)
    procedure(func) :: fun
    real(wp), intent(in) :: x, h
    real(wp), parameter :: c = 0.5773502691896257_wp
    g = 0.5_wp*h*(fun(x + 0.5_wp*h*(1 - c)) + fun(x + 0.5_wp*h*(1 + c)))
  end function g
end module quad_mod

module response_mod
  use quad_mod, only: wp, gauss_adapt
  implicit none
  real(wp) :: decay, freq
contains
  real(wp) function pulse(x)
    real(wp), intent(in) :: x
    pulse = exp(-decay*x)*sin(freq*x)**2
  end function pulse

  subroutine response(rate, omega, upper, total)
    real(wp), intent(in) :: rate, omega, upper
    real(wp), intent(out) :: total
    integer :: npanels
    decay = rate
    freq = omega
    call gauss_adapt(pulse, 0.0_wp, upper, 1.0e-6_wp, total, npanels)
  end subroutine response
end module response_mod
