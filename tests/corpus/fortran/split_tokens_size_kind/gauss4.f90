! Constants written with more digits than a line holds, the token split across lines
! (`&` ending one line, `&` starting the next, as bspline-fortran writes its Gauss
! abscissae), a name split the same way, SIZE with a KIND argument and SPACING (which has
! no derivative). The derivative code prints a local constant longer than a line split
! the same way, and keeps the local its value inquires about (`radix(z)`).
module gauss4
  use, intrinsic :: iso_fortran_env, only: wp => real64, ip => int64
  implicit none
  real(wp), parameter :: x1 = &
      &0.3399810435848562648026657591032446872005758697942277&
      &3603647837_wp
  real(wp), parameter :: x2 = 0.8611363115940525752239464888928095050957253796297176&
      &376157219_wp
  real(wp), parameter :: w1 = 0.6521451548625461426269360507780005927646513041661064595074706&
      &8_wp, w2 = 0.34785484513745385737306394922199940723534869583389354049&
      &25293_wp
contains
  subroutine integrate(c, a, b, r)
    real(wp), intent(in) :: c(:), a, b
    real(wp), intent(out) :: r
    integer(ip) :: n
    real(wp) :: h, m, z
    real(wp), parameter :: log2 = log10(real(radix(z), wp))
    real(wp), parameter :: third = 0.33333333333333333333333333333333333333333333333333&
        &33333333333333333333333333333333333333333333333333333333333333333333333333333333&
        &33333333333333333333333333333333333333333333333333333333333333333333333333333333_wp
    n = size(c, 1, kind=ip)
    h = (b - a)/2
    m = (a + b)/2
    r = h*(w1*(poly(m - x1*h) + poly(m + x1*h)) + w2*(poly(m - x2*h) + po&
        &ly(m + x2*h)))
    ! Nudged off the upper bound, as bspline-fortran does before extrapolating.
    r = r + (b - 2*spacing(b))*0.01_wp + third*log2*a
  contains
    real(wp) function poly(x)
      real(wp), intent(in) :: x
      integer(ip) :: k
      poly = 0
      do k = size(c, kind=ip), 1_ip, -1_ip
        poly = poly*x + c(k)
      end do
    end function poly
  end subroutine integrate
end module gauss4
