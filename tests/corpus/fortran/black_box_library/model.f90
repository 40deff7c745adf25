! Relaxation of a state y towards a forcing x, with two library kernels whose sources
! adgen is not given (`sqaxpy`, `wnorm`: their code and the hand-written derivatives are
! in lib.f90, which only the linker sees) and one whose source it is given but whose
! derivatives are written by hand (`smooth`, linear and symmetric: its tangent and its
! adjoint are itself), and a module procedure written by hand too (`damp`).
module kernels
  implicit none
contains
  ! y <- y*exp(-c): its derivatives are the user's external damp_d and damp_b.
  subroutine damp(n, c, y)
    integer, intent(in) :: n
    real(8), intent(in) :: c
    real(8), intent(inout) :: y(n)
    y = y*exp(-c)
  end subroutine damp
end module kernels

subroutine relax(n, nsteps, alpha, x, y, cost)
  use kernels, only: damp
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: alpha, x(n)
  real(8), intent(inout) :: y(n)
  real(8), intent(out) :: cost
  real(8) :: r(n)
  real(8), external :: wnorm
  integer :: i, k
  do k = 1, nsteps
    do i = 1, n
      r(i) = sin(y(i)) - x(i)
    end do
    ! y <- y - alpha*r**2, in the library
    call sqaxpy(n, -alpha, r, y)
    call smooth(n, y)
    call damp(n, 0.1d0*alpha, y)
  end do
  cost = wnorm(n, y) + 0.5d0*alpha*y(1)
end subroutine relax

! Jacobi smoothing with zero ends: a symmetric linear map.
subroutine smooth(n, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: y(n)
  real(8) :: t(0:n+1)
  integer :: i
  t(0) = 0d0
  t(n+1) = 0d0
  t(1:n) = y
  do i = 1, n
    y(i) = 0.5d0*t(i) + 0.25d0*(t(i-1) + t(i+1))
  end do
end subroutine smooth
