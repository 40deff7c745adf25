! COMPLEX values through calls and control: a subroutine filling a complex array
! (intent(out)), a complex function, a real power and sqrt of complex values, a WHERE on
! their real parts, a branch on aimag that conjugates the accumulator in a loop.
module cm
  implicit none
contains
  subroutine fill(n, x, z)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    complex(8), intent(out) :: z(n)
    integer :: i
    do i = 1, n
      z(i) = cmplx(x(i), x(i)**2, kind=8)**1.5d0 + sqrt(cmplx(1d0, x(i), kind=8))
    end do
  end subroutine fill
  complex(8) function g(z)
    complex(8), intent(in) :: z
    g = z/(1d0 + z*z) - log(z)*(2d0, -1d0)
  end function g
  subroutine root(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    complex(8) :: z(n), acc
    integer :: i
    call fill(n, x, z)
    where (real(z) > 1d0)
      z = z*(0.5d0, 0.5d0)
    end where
    acc = (0d0, 0d0)
    do i = 1, n
      acc = acc + g(z(i))**2
      if (aimag(acc) > 0) acc = conjg(acc)
    end do
    y = real(acc)**2 - aimag(acc) + abs(acc - z(1))
  end subroutine root
end module cm
