! Functions returning a derived type, nested in one another inside a loop
! (`vnorm(vneg(t))`, `vadd(v, vscale(0.1d0, vsub(t, vscale(k, r))))`): each inner
! result goes to a temporary of the derived type, whose adjoint must be zeroed after
! each use and whose value must be saved for the backward sweep. The adjoint was silently
! wrong (the temporaries had no component symbols), while the tangent was right.
module vec_algebra
  implicit none
  type vec3
    real(8) :: x, y, z
  end type vec3
contains
  function vadd(a, b) result(c)
    type(vec3), intent(in) :: a, b
    type(vec3) :: c
    c%x = a%x + b%x
    c%y = a%y + b%y
    c%z = a%z + b%z
  end function vadd
  function vsub(a, b) result(c)
    type(vec3), intent(in) :: a, b
    type(vec3) :: c
    c%x = a%x - b%x
    c%y = a%y - b%y
    c%z = a%z - b%z
  end function vsub
  function vneg(a) result(c)
    type(vec3), intent(in) :: a
    type(vec3) :: c
    c%x = -a%x
    c%y = -a%y
    c%z = -a%z
  end function vneg
  function vscale(s, a) result(c)
    real(8), intent(in) :: s
    type(vec3), intent(in) :: a
    type(vec3) :: c
    c%x = s*a%x
    c%y = s*a%y
    c%z = s*a%z
  end function vscale
  function vdot(a, b) result(d)
    type(vec3), intent(in) :: a, b
    real(8) :: d
    d = a%x*b%x + a%y*b%y + a%z*b%z
  end function vdot
  function vcross(a, b) result(c)
    type(vec3), intent(in) :: a, b
    type(vec3) :: c
    c%x = a%y*b%z - a%z*b%y
    c%y = a%z*b%x - a%x*b%z
    c%z = a%x*b%y - a%y*b%x
  end function vcross
  function vnorm(a) result(n)
    type(vec3), intent(in) :: a
    real(8) :: n
    n = sqrt(a%x**2 + a%y**2 + a%z**2)
  end function vnorm
end module vec_algebra

module rigid_body
  use vec_algebra
  implicit none
contains
  ! Torque and energy of a point mass on a spring, stepped a few times.
  subroutine spin(px, py, pz, f, k, e)
    real(8), intent(in) :: px, py, pz, f, k
    real(8), intent(out) :: e
    type(vec3) :: r, force, t, v
    integer :: i
    r = vec3(px, py, pz)
    force = vec3(f, 2*f, -f)
    v = vec3(0d0, 0d0, 0d0)
    e = 0d0
    do i = 1, 4
      t = vcross(r, force)
      v = vadd(v, vscale(0.1d0, vsub(t, vscale(k, r))))
      r = vadd(r, vscale(0.1d0, v))
      e = e + 0.5d0*vdot(v, v) + vnorm(vneg(t)) + k*vnorm(r)**2
    end do
  end subroutine spin
end module rigid_body
