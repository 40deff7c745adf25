! Particles on springs written with type-bound procedures, as modern Fortran codes
! are: a subroutine binding to a PRIVATE procedure, a function binding, a NOPASS
! function, a PASS(s) binding whose object is not the first argument, a FINAL
! procedure, CLASS(swarm) passed-object dummies, and calls through the bindings from
! the module itself and from another module that does not see the procedures, on a
! scalar and on the elements of an array of swarms (whose array components the adjoint
! saves whole before the call overwrites them).
module particles
  implicit none
  private
  public :: swarm, dp
  integer, parameter :: dp = kind(1.0d0)
  type :: swarm
    real(dp) :: drag
    real(dp) :: x(6), v(6)
  contains
    procedure :: advance => swarm_advance
    procedure :: kinetic
    procedure, nopass :: force
    procedure, pass(s) :: kick => kick_swarm
    final :: release
  end type swarm
contains
  subroutine swarm_advance(this, dt)
    class(swarm), intent(inout) :: this
    real(dp), intent(in) :: dt
    integer :: i
    do i = 1, 6
      this%v(i) = this%v(i) + dt*(this%force(this%x(i), 2.0_dp) - this%drag*this%v(i))
      this%x(i) = this%x(i) + dt*this%v(i)
    end do
  end subroutine swarm_advance

  real(dp) function kinetic(this)
    class(swarm), intent(in) :: this
    kinetic = 0.5_dp*sum(this%v**2)
  end function kinetic

  real(dp) function force(x, k)
    real(dp), intent(in) :: x, k
    force = -k*x - 0.1_dp*x**3
  end function force

  subroutine kick_swarm(dv, s)
    real(dp), intent(in) :: dv
    class(swarm), intent(inout) :: s
    s%v(1) = s%v(1) + dv*s%x(6)
  end subroutine kick_swarm

  subroutine release(s)
    type(swarm), intent(inout) :: s
    s%drag = 0
  end subroutine release
end module particles

module experiment
  use particles, only: swarm, dp
  implicit none
contains
  subroutine run(nsteps, drag, x0, energy)
    integer, intent(in) :: nsteps
    real(dp), intent(in) :: drag, x0(6)
    real(dp), intent(out) :: energy
    type(swarm) :: s, pair(2)
    integer :: it, k
    s%drag = drag
    s%x = x0
    s%v = 0
    do k = 1, 2
      pair(k)%drag = k*drag
      pair(k)%x = x0(k)
      pair(k)%v = x0(k + 2)*k
    end do
    do it = 1, nsteps
      call s%advance(0.1_dp)
      call s%kick(0.05_dp)
      do k = 1, 2
        call pair(k)%advance(0.05_dp)
      end do
    end do
    energy = s%kinetic() + s%force(s%x(2), 1.0_dp) + pair(2)%kinetic()
  end subroutine run
end module experiment
