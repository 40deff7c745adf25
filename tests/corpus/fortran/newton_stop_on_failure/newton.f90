! Newton's method for x**3 + x = a, with an iteration limit: on failure the routine
! writes why and stops, as library code does. The derivatives keep the message and
! the STOP (they stop where the primal does), and drop the progress output.
subroutine newton_root(a, x, maxit)
  implicit none
  real(8), intent(in) :: a
  real(8), intent(out) :: x
  integer, intent(in) :: maxit
  integer :: it
  real(8) :: f
  x = a/2
  it = 0
  do
    f = x**3 + x - a
    if (abs(f) < 1d-15*(1 + abs(a))) exit
    it = it + 1
    if (it > maxit) then
      write (*, '(a, i4, a)') 'newton_root: no convergence after ', maxit, ' iterations'
      write (*, *) 'last residual', f
      error stop 1
    end if
    x = x - f/(3*x**2 + 1)
  end do
end subroutine newton_root

! The root: a smooth function of the solution.
subroutine cubic_energy(a, b, e, maxit)
  implicit none
  real(8), intent(in) :: a, b
  real(8), intent(out) :: e
  integer, intent(in) :: maxit
  real(8) :: x, ab(2)
  ab(1) = a
  ab(2) = b
  if (maxit < 1) then
    ! An array section in the message (kept as written).
    write (*, '(a, 2g14.6)') 'cubic_energy: no iterations allowed for ', ab(1:2)
    stop
  end if
  call newton_root(ab(1)*ab(2), x, maxit)
  if (x < 0) stop 'cubic_energy: negative root'
  print *, 'root', x
  e = x**2 + sin(b*x)
end subroutine cubic_energy
