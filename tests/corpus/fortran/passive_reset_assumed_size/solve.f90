! A work array that arrives without a size, declared with a DIMENSION(*) attribute as
! bspline-fortran's dbintk declares its `q`: set up by a routine that reads no active
! value (a band of coefficients from the order alone, so `band` has no derivative), then
! given active values and read with the data. Its derivative must be zero after `band`,
! which needs its size: `[sizes.fill] q` in ad.toml (E0504 without it).
subroutine solve(n, y, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: y(n)
  real(8), intent(out) :: r
  real(8) :: w(2*n)
  call fill(n, y, w, r)
  r = r + w(1)*w(2*n)
end subroutine solve

subroutine fill(n, y, q, r)
  implicit none
  integer, intent(in) :: n
  real(8), dimension(n), intent(in) :: y
  real(8), dimension(*) :: q
  real(8), intent(out) :: r
  integer :: i
  call band(n, q)
  do i = 1, n
    q(n + i) = q(n + i)*sin(y(i))
  end do
  r = 0d0
  do i = 1, n
    r = r + q(i)*y(i)**2 + q(n + i)*y(i)
  end do
end subroutine fill

! Sets q(1:2n) from n alone.
subroutine band(n, q)
  implicit none
  integer, intent(in) :: n
  real(8), dimension(*), intent(out) :: q
  integer :: i
  do i = 1, n
    q(i) = 1d0 + real(i, 8)
    q(n + i) = 1d0/real(i, 8)
  end do
end subroutine band
