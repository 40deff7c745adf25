! A `real` function of double precision arguments, assigned to a double precision
! variable; a relaxation step that stops through `fatal` on an unknown mode.
module kernels
  use params
  implicit none
contains
  real function dot2(a, b)
    double precision, intent(in) :: a(2), b(2)
    dot2 = real(a(1)*b(1) + a(2)*b(2))
  end function dot2

  subroutine relax(u, mode)
    double precision, intent(inout) :: u(2)
    integer, intent(in) :: mode
    double precision :: s
    select case (mode)
    case (1)
      s = dot2(u, u)
      u = u - visc * s * u
    case default
      call fatal('relax', 'unknown mode')
    end select
  end subroutine relax
end module kernels

subroutine run(x, mode, y)
  use params
  use kernels
  implicit none
  double precision, intent(in) :: x(2)
  integer, intent(in) :: mode
  double precision, intent(out) :: y
  double precision :: u(2)
  integer :: it
  u = x
  do it = 1, nsteps
    call relax(u, mode)
  end do
  y = gain * (u(1) + u(2))
end subroutine run
