! A stencil whose arrays are sized by the build's -D macros (N, M), as small codes take
! their sizes from the makefile: the file has no directive of its own, and the manifest
! asks for the preprocessor with the same defines.
subroutine relax(u0, kappa, nsteps, total)
  implicit none
  real(8), intent(in) :: u0(N, M), kappa
  integer, intent(in) :: nsteps
  real(8), intent(out) :: total
  real(8) :: u(N, M), w(N, M)
  integer :: i, j, k
  u = u0
  do k = 1, nsteps
    w = u
    do j = 2, M - 1
      do i = 2, N - 1
        u(i, j) = w(i, j) + kappa*(w(i+1, j) + w(i-1, j) + w(i, j+1) + w(i, j-1) &
            - 4*w(i, j)) - 0.05d0*w(i, j)**3
      end do
    end do
  end do
  total = sum(u**2)
end subroutine relax
