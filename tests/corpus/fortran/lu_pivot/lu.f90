! Solves A x = b by Gaussian elimination with partial pivoting on a local copy of A;
! returns the row permutation as a passive integer array.
! Features: 2-D arrays, row swaps chosen by ABS comparisons, IF with /= and >, an
! integer array output of the root, negative-step back substitution, nested loops.
subroutine lu_solve(n, a, b, x, piv)
  implicit none
  integer, parameter :: nmax = 20
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), b(n)
  real(8), intent(out) :: x(n)
  integer, intent(out) :: piv(n)
  real(8) :: lu(nmax, nmax), big, factor, tmp
  integer :: i, j, k, p, itmp
  do j = 1, n
    do i = 1, n
      lu(i, j) = a(i, j)
    end do
    piv(j) = j
    x(j) = b(j)
  end do
  do k = 1, n - 1
    p = k
    big = abs(lu(k, k))
    do i = k + 1, n
      if (abs(lu(i, k)) > big) then
        big = abs(lu(i, k))
        p = i
      end if
    end do
    if (p /= k) then
      do j = 1, n
        tmp = lu(k, j)
        lu(k, j) = lu(p, j)
        lu(p, j) = tmp
      end do
      tmp = x(k)
      x(k) = x(p)
      x(p) = tmp
      itmp = piv(k)
      piv(k) = piv(p)
      piv(p) = itmp
    end if
    do i = k + 1, n
      factor = lu(i, k) / lu(k, k)
      lu(i, k) = factor
      do j = k + 1, n
        lu(i, j) = lu(i, j) - factor * lu(k, j)
      end do
      x(i) = x(i) - factor * x(k)
    end do
  end do
  do i = n, 1, -1
    tmp = x(i)
    do j = i + 1, n
      tmp = tmp - lu(i, j) * x(j)
    end do
    x(i) = tmp / lu(i, i)
  end do
end subroutine lu_solve
