! A model whose coefficients are read at run time, as codes that take their parameters
! from a namelist or a text line do: the values read are inputs, so their derivatives
! are zero, even for a variable that held an active value before it is read again.
subroutine response(n, x, y)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: x(n)
  double precision, intent(out) :: y
  character(len=40) :: line
  double precision :: c, w(2)
  integer :: i, ios
  line = '1.5  -0.25  0.75'
  ! Active first, then overwritten by the value read.
  c = x(1)**2
  y = c * x(2)
  read(line, *, iostat=ios) c, w
  if (ios /= 0) stop 'bad coefficients'
  do i = 1, n
    y = y + c * x(i)**2 + w(1) * x(i) + w(2) * sin(x(i))
  end do
end subroutine response
