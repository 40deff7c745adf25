! Total drag on a cloud of spherical particles, with the drag coefficient given by
! three regimes (Stokes, Schiller-Naumann, Newton) chosen per particle.
! Features: REAL(KIND=dp) with dp = kind(1.0d0), PARAMETER, loop with a three-way IF,
! logical IF, both relational spellings, real exponent.
subroutine drag_total(n, re, d, cd, ftot)
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(kind=dp), parameter :: stokes = 24.0_dp, newton = 0.44_dp
  integer, intent(in) :: n
  real(kind=dp), intent(in) :: re(n), d(n)
  real(kind=dp), intent(out) :: cd(n)
  real(kind=dp), intent(out) :: ftot
  integer :: i
  ftot = 0.0_dp
  do i = 1, n
    if (re(i) .lt. 1.0_dp) then
      cd(i) = stokes / re(i)
    else if (re(i) <= 1000.0_dp) then
      cd(i) = stokes / re(i) * (1.0_dp + 0.15_dp * re(i)**0.687_dp)
    else
      cd(i) = newton
    end if
    if (d(i) > 0.0_dp) ftot = ftot + cd(i) * d(i)**2 / real(n, dp)
    if (d(i) .le. 0.0_dp) ftot = ftot - cd(i)
  end do
end subroutine drag_total
