! The model: a module variable read by the integrand, which the integrators' internal
! procedures call.
module model
  use quad
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: k = 1.0_dp
contains
  function g(x) result(y)
    real(dp), intent(in) :: x
    real(dp) :: y
    y = exp(-k*x*x)*cos(x)
  end function g

  subroutine cost(kk, b, r)
    real(dp), intent(in) :: kk, b
    real(dp), intent(out) :: r
    real(dp) :: r1, r2, r3, r4
    integer :: ierr
    external trap
    real(dp), external :: wave
    k = kk
    call gauss(g, 0.0_dp, b, 6, r1)
    call simpson(g, 0.0_dp, b, 1.0e-6_dp, r2, ierr)
    call trap(g, 0.0_dp, b, 10, r3)
    call trap(wave, 0.5_dp, b, 8, r4)
    r = r1 + 2*r2 + 3*r3 + r4*r4 + 0.01_dp*ierr
  end subroutine cost
end module model
