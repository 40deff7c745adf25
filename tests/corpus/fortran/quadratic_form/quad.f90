! Residual y = A x - r of a rectangular system, its squared norm and a Tikhonov term.
! Features: 2-D arrays, DIMENSION statement, INTENT statement, nested loops over
! both indices, DOUBLE PRECISION.
subroutine quad_form(m, n, a, x, r, y, q)
  implicit none
  integer m, n
  double precision a, x, r, y, q
  dimension a(m, n), x(n), r(m), y(m)
  intent(in) :: m, n, a, x, r
  intent(out) :: y, q
  double precision reg
  integer i, j
  do i = 1, m
    y(i) = -r(i)
  end do
  do j = 1, n
    do i = 1, m
      y(i) = y(i) + a(i, j) * x(j)
    end do
  end do
  q = 0.0d0
  do i = 1, m
    q = q + y(i) * y(i)
  end do
  reg = 0.0d0
  do j = 1, n
    do i = 1, m
      reg = reg + (a(i, j) * x(j))**2
    end do
  end do
  q = 0.5d0 * q + 1.0d-2 * reg
end subroutine quad_form
