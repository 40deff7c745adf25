! An Arakawa Jacobian in double precision written, as much model code is, with default
! (single precision) literals: `(j1 + j2 + j3)/3.0`, `x/0.1`. The original divides in
! double precision (the literal is converted); the derivative's `1/3.0` must too, or
! every derivative is off by a relative 3e-8, which the tolerance below catches.
subroutine arakawa(nx, ny, dx, psi, q, jac, total)
  implicit none
  integer, intent(in) :: nx, ny
  real*8, intent(in) :: dx
  real*8, intent(in) :: psi(0:nx+1, 0:ny+1), q(0:nx+1, 0:ny+1)
  real*8, intent(out) :: jac(nx, ny), total
  real*8 :: j1, j2, j3, c
  integer :: i, j
  c = 1.0/(12.0*dx*dx)
  do j = 1, ny
    do i = 1, nx
      j1 = (psi(i+1,j) - psi(i-1,j))*(q(i,j+1) - q(i,j-1)) &
         - (psi(i,j+1) - psi(i,j-1))*(q(i+1,j) - q(i-1,j))
      j2 = psi(i+1,j)*(q(i+1,j+1) - q(i+1,j-1)) - psi(i-1,j)*(q(i-1,j+1) - q(i-1,j-1)) &
         - psi(i,j+1)*(q(i+1,j+1) - q(i-1,j+1)) + psi(i,j-1)*(q(i+1,j-1) - q(i-1,j-1))
      j3 = q(i,j+1)*(psi(i+1,j+1) - psi(i-1,j+1)) - q(i,j-1)*(psi(i+1,j-1) - psi(i-1,j-1)) &
         - q(i+1,j)*(psi(i+1,j+1) - psi(i+1,j-1)) + q(i-1,j)*(psi(i-1,j+1) - psi(i-1,j-1))
      jac(i,j) = c*(j1 + j2 + j3)/3.0
    end do
  end do
  total = sum(jac)/0.1 + sum(q(1:nx, 1:ny)**2)/7.0
end subroutine arakawa
