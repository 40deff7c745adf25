! An external procedure with internal ones, as Fortran 90 codes without modules write
! them: the host's arrays and scalars are used by host association, one internal
! function calls another, and one internal subroutine takes keyword arguments.
subroutine smooth_cost(n, x, w, cost)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: x(n), w
  double precision, intent(out) :: cost
  double precision :: g(n), scale
  integer :: i
  scale = 2.0d0
  call gradient(first=1, last=n)
  cost = 0.0d0
  do i = 1, n
    cost = cost + penalty(g(i))
  end do
contains
  subroutine gradient(first, last)
    integer, intent(in) :: first, last
    integer :: j
    do j = first, last
      g(j) = (x(min(j + 1, n)) - x(max(j - 1, 1))) / scale
    end do
  end subroutine gradient
  double precision function penalty(t)
    double precision, intent(in) :: t
    penalty = w * square(t) + x(1) * t
  end function penalty
  double precision function square(t)
    double precision, intent(in) :: t
    square = t * t * scale
  end function square
end subroutine smooth_cost
