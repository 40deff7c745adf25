! Velocity-Verlet integration of the chain and its energies.
! Features: module procedures with INTENT(IN) params and INTENT(INOUT)/(OUT) state,
! a local work array, energy functions of two derived-type dummies, a private helper.
module chain_dynamics
  use chain_types
  implicit none
  private
  public :: forces, verlet_step, kinetic, potential, rest_state

contains

  ! Extension of spring j (walls do not move).
  function stretch(s, j) result(e)
    type(chain_state), intent(in) :: s
    integer, intent(in) :: j
    real(dp) :: e
    real(dp) :: left, right
    left = 0.0_dp
    right = 0.0_dp
    if (j > 1) left = s%x(j - 1)
    if (j <= nmass) right = s%x(j)
    e = right - left
  end function stretch

  subroutine forces(p, s, f)
    type(chain_params), intent(in) :: p
    type(chain_state), intent(in) :: s
    real(dp), intent(out) :: f(nmass)
    integer :: i
    do i = 1, nmass
      f(i) = p%k(i + 1) * stretch(s, i + 1) - p%k(i) * stretch(s, i) - p%damping * s%v(i)
    end do
  end subroutine forces

  subroutine rest_state(s)
    type(chain_state), intent(out) :: s
    s%x = 0.0_dp
    s%v = 0.0_dp
    s%time = 0.0_dp
  end subroutine rest_state

  subroutine verlet_step(p, s, dt)
    type(chain_params), intent(in) :: p
    type(chain_state), intent(inout) :: s
    real(dp), intent(in) :: dt
    real(dp) :: f(nmass)
    integer :: i
    call forces(p, s, f)
    do i = 1, nmass
      s%v(i) = s%v(i) + 0.5_dp * dt * f(i) / p%m(i)
      s%x(i) = s%x(i) + dt * s%v(i)
    end do
    call forces(p, s, f)
    do i = 1, nmass
      s%v(i) = s%v(i) + 0.5_dp * dt * f(i) / p%m(i)
    end do
    s%time = s%time + dt
  end subroutine verlet_step

  function kinetic(p, s) result(ek)
    type(chain_params), intent(in) :: p
    type(chain_state), intent(in) :: s
    real(dp) :: ek
    ek = 0.5_dp * sum(p%m * s%v**2)
  end function kinetic

  function potential(p, s) result(ep)
    type(chain_params), intent(in) :: p
    type(chain_state), intent(in) :: s
    real(dp) :: ep
    integer :: j
    ep = 0.0_dp
    do j = 1, nspring
      ep = ep + 0.5_dp * p%k(j) * stretch(s, j)**2
    end do
  end function potential
end module chain_dynamics
