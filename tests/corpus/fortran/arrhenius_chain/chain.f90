! A small reaction network: species decay at Arrhenius rates that depend on a
! temperature profile. The root calls rates, which calls rate_constant, which calls
! arrhenius: a CALL chain three deep below the root.
! Features: CALL chains, PARAMETER as attribute and as statement, REAL(8), a loop
! over species inside a loop over temperatures.
subroutine decay(nt, temp, conc0, conc)
  implicit none
  integer nspec
  parameter (nspec = 4)
  integer, intent(in) :: nt
  real(8), intent(in) :: temp(nt), conc0(nspec)
  real(8), intent(out) :: conc(nspec)
  real(8) :: k(nspec)
  integer :: it, s
  do s = 1, nspec
    conc(s) = conc0(s)
  end do
  do it = 1, nt
    call rates(nspec, temp(it), k)
    do s = 1, nspec
      conc(s) = conc(s) * exp(-0.1d0 * k(s))
    end do
  end do
end subroutine decay

subroutine rates(ns, t, k)
  implicit none
  integer, intent(in) :: ns
  real(8), intent(in) :: t
  real(8), intent(out) :: k(ns)
  integer :: s
  do s = 1, ns
    call rate_constant(s, t, k(s))
  end do
end subroutine rates

subroutine rate_constant(s, t, k)
  implicit none
  integer, intent(in) :: s
  real(8), intent(in) :: t
  real(8), intent(out) :: k
  real(8), parameter :: prefactor = 2.0d0, activation = 1.5d0
  call arrhenius(prefactor * dble(s), activation / dble(s), t, k)
end subroutine rate_constant

subroutine arrhenius(a, ea, t, k)
  implicit none
  real(8), intent(in) :: a, ea, t
  real(8), intent(out) :: k
  k = a * exp(-ea / t)
end subroutine arrhenius
