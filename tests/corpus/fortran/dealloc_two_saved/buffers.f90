! Two work arrays allocated together in a loop, with sizes the loop computes, and freed
! by one DEALLOCATE while the backward sweep still needs the values of both: their
! values are saved in the order of the list and must come back in the reverse order.
subroutine weighted_energy(n, x, w, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w
  real(8), intent(out) :: e
  real(8), allocatable :: a(:), b(:)
  integer :: pass, m, i
  e = 0.0d0
  do pass = 1, 3
    m = n - pass + 1
    allocate(a(m), b(m))
    do i = 1, m
      a(i) = x(i)*w + pass
      b(i) = sin(x(i + pass - 1)) + 2.0d0*pass
    end do
    do i = 1, m
      e = e + a(i)*a(i)*b(i) / (1.0d0 + b(i)*b(i))
    end do
    deallocate(a, b)
  end do
end subroutine weighted_energy
