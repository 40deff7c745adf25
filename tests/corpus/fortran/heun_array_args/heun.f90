! Heun's method (explicit trapezoidal RK2) for a chain of coupled nonlinear
! oscillators, written as one does with array syntax: the stage right-hand side is
! called with the array expression u + dt*k1 as its state argument, the damping
! functional is called with an expression too, and the update combines whole arrays.
! Features: array expressions as actual arguments of a SUBROUTINE and of a FUNCTION
! (evaluated into temporaries), sections with offsets in the right-hand side,
! array constructor for the boundary coupling, SUM, whole-array updates.
subroutine heun_chain(n, nsteps, dt, stiff, u0, v0, energy)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: dt, stiff(n), u0(n), v0(n)
  real(8), intent(out) :: energy
  real(8) :: u(n), v(n), ku1(n), kv1(n), ku2(n), kv2(n)
  real(8), external :: damping
  integer :: step

  u = u0
  v = v0
  do step = 1, nsteps
    call chain_rhs(n, stiff, u, v, ku1, kv1)
    call chain_rhs(n, stiff, u + dt * ku1, v + dt * kv1, ku2, kv2)
    u = u + 0.5d0 * dt * (ku1 + ku2)
    v = v + 0.5d0 * dt * (kv1 + kv2) - dt * damping(n, v + 0.5d0 * dt * kv1) * v
  end do
  energy = 0.5d0 * sum(v**2) + 0.5d0 * sum(stiff * u**2)
end subroutine heun_chain

! du/dt = v, dv/dt = -k u + coupling to the neighbours - cubic stiffening.
subroutine chain_rhs(n, stiff, u, v, du, dv)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: stiff(n), u(n), v(n)
  real(8), intent(out) :: du(n), dv(n)
  real(8) :: ends(2)
  du = v
  dv = -stiff * u - 0.1d0 * u**3
  dv(2:n-1) = dv(2:n-1) + 0.5d0 * (u(1:n-2) - 2.0d0 * u(2:n-1) + u(3:n))
  ends = [u(2) - u(1), u(n-1) - u(n)]
  dv(1) = dv(1) + 0.5d0 * ends(1)
  dv(n) = dv(n) + 0.5d0 * ends(2)
end subroutine chain_rhs

! A mean-square velocity damping coefficient.
real(8) function damping(n, w)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: w(n)
  damping = 0.01d0 * sum(w**2) / dble(n)
end function damping
