! A work array grown inside the loop that fills it, the way Fortran codes without
! MOVE_ALLOC collect a sequence of unknown length: when it is full, its values go to a
! temporary, it is deallocated and allocated again twice as long, and they come back.
! Each new term reads the previous one, so the adjoint needs the values of every array
! the loop replaced.
subroutine grow(n, x, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  real(8), allocatable :: w(:), tmp(:)
  integer :: i, k, m, cap

  cap = 1
  allocate(w(cap))
  w(1) = 1.0d0
  m = 1
  do i = 1, n
    if (m == cap) then
      allocate(tmp(cap))
      tmp = w
      deallocate(w)
      cap = 2 * cap
      allocate(w(cap))
      w(1:m) = tmp
      deallocate(tmp)
    end if
    w(m + 1) = w(m) * sin(x(i)) + x(i)
    m = m + 1
  end do
  s = 0.0d0
  do k = 1, m
    s = s + w(k) * w(m + 1 - k)
  end do
  deallocate(w)
end subroutine grow

! The same with ALLOCATEs written differently (a size known on entry, then a literal):
! every ALLOCATE of `w` then shares copies of its bounds, which the adjoint reads to
! allocate again the array each DEALLOCATE freed.
subroutine regrow(n, x, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  real(8), allocatable :: w(:)
  integer :: i

  allocate(w(n))
  w = x
  s = 0.0d0
  do i = 1, 3
    s = s + sum(w * w)
    deallocate(w)
    allocate(w(4))
    w = x(i) * s
  end do
  s = s + w(2) * w(3)
  deallocate(w)
end subroutine regrow
