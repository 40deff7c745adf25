! Natural cubic spline through (x(i), y(i)), with knots x(i) = i + xi(i) moved by
! small perturbations xi, evaluated at the midpoints of the data
! intervals; the cost is the bending energy estimate plus a fit to targets there.
! The tridiagonal system for the second derivatives uses ALLOCATABLE work arrays,
! allocated once with the data size and freed at the end, as library code does.
! Features: ALLOCATABLE locals with ALLOCATE (with a lower bound) and DEALLOCATE,
! sections with offsets for the differences h and slopes, a Thomas solve with a
! backward loop, SUM of a section expression, whole-array operations on allocatables.
subroutine spline_midpoints(n, xi, y, target, cost)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: xi(n), y(n), target(n-1)
  real(8), intent(out) :: cost
  real(8), allocatable :: x(:), h(:), slope(:), diag(:), rhs(:), m(:), ymid(:)
  integer :: i

  allocate(x(n), h(n-1), slope(n-1), ymid(n-1))
  do i = 1, n
    x(i) = dble(i) + xi(i)
  end do
  allocate(diag(2:n-1), rhs(2:n-1), m(n))
  h = x(2:n) - x(1:n-1)
  slope = (y(2:n) - y(1:n-1)) / h
  ! Natural spline: m(1) = m(n) = 0; rows 2..n-1 of the tridiagonal system.
  diag = 2.0d0 * (h(1:n-2) + h(2:n-1))
  rhs = 6.0d0 * (slope(2:n-1) - slope(1:n-2))
  do i = 3, n - 1
    diag(i) = diag(i) - h(i-1)**2 / diag(i-1)
    rhs(i) = rhs(i) - h(i-1) / diag(i-1) * rhs(i-1)
  end do
  m = 0.0d0
  m(n-1) = rhs(n-1) / diag(n-1)
  do i = n - 2, 2, -1
    m(i) = (rhs(i) - h(i) * m(i+1)) / diag(i)
  end do
  ! Value at the midpoint of each interval.
  ymid = 0.5d0 * (y(1:n-1) + y(2:n)) - h**2 / 16.0d0 * (m(1:n-1) + m(2:n))
  cost = sum((ymid - target)**2) + 1.0d-2 * sum(h * (m(1:n-1)**2 + m(1:n-1) * m(2:n) + m(2:n)**2))
  deallocate(h, slope, diag, rhs)
  deallocate(m, ymid, x)
end subroutine spline_midpoints
