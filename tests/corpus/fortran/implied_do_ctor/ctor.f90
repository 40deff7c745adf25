! Array constructors with implied DO loops, as modern Fortran writes them: a table made
! at compile time, whole-array assignments, reductions over constructed vectors, a
! constructor that mixes items and loops, and nested loops building a matrix.
module weights
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer :: k
  ! Powers of two, built by the compiler.
  integer, parameter :: pows(4) = [(2**k, k = 0, 3)]
contains
  subroutine moments(n, x, y, w, s)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: y(n), w(2*n), s
    real(dp) :: a(n, n)
    integer :: i, j
    ! Element by element: y(i) = x(i)**2 times a weight.
    y = [(x(i)**2 * pows(mod(i, 4) + 1), i = 1, n)]
    ! Two items per trip: filled into a temporary first.
    w = [(x(i), sin(x(i)), i = 1, n)]
    ! A stride, inside a reduction.
    s = sum([(x(i) * x(n + 1 - i), i = 1, n, 2)])
    s = s + sum(w) + dot_product([(real(j, dp), j = 1, n)], x)
    ! Nested: the inner loop runs fastest, as in a(:, j).
    a = reshape([((x(i) * x(j), i = 1, n), j = 1, n)], [n, n])
    s = s + sum(a) / n
    ! A scalar item before a loop.
    y(1:3) = y(1:3) + [s, (x(i) * y(i), i = 2, 3)]
  end subroutine moments
end module weights
