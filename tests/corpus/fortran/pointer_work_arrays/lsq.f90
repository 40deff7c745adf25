! Work arrays declared POINTER and given memory by ALLOCATE, the Fortran 90 way of
! writing allocatable arrays: a Gram matrix and a right-hand side for a small
! least-squares fit, a residual buffer sized in a loop, all freed before returning.
subroutine poly_fit(m, t, y, deg, coef, misfit)
  implicit none
  integer, intent(in) :: m, deg
  double precision, intent(in) :: t(m), y(m)
  double precision, intent(out) :: coef(deg + 1), misfit
  double precision, pointer :: g(:, :), rhs(:), r(:)
  double precision :: piv, s
  integer :: i, j, k, pass, n
  n = deg + 1
  allocate(g(n, n), rhs(n))
  do j = 1, n
    rhs(j) = sum(y*t**(j - 1))
    do i = 1, n
      g(i, j) = sum(t**(i + j - 2))
    end do
  end do
  ! Gaussian elimination without pivoting (the Gram matrix is positive definite).
  do k = 1, n - 1
    do i = k + 1, n
      piv = g(i, k)/g(k, k)
      g(i, k:n) = g(i, k:n) - piv*g(k, k:n)
      rhs(i) = rhs(i) - piv*rhs(k)
    end do
  end do
  do i = n, 1, -1
    s = rhs(i)
    do j = i + 1, n
      s = s - g(i, j)*coef(j)
    end do
    coef(i) = s/g(i, i)
  end do
  deallocate(g, rhs)
  ! The misfit over the first half, then the whole: a buffer allocated per pass.
  misfit = 0.0d0
  do pass = 1, 2
    allocate(r(pass*m/2))
    do i = 1, pass*m/2
      r(i) = y(i) - coef(1)
      do j = 2, n
        r(i) = r(i) - coef(j)*t(i)**(j - 1)
      end do
    end do
    misfit = misfit + sum(r**2)
    deallocate(r)
  end do
end subroutine poly_fit
