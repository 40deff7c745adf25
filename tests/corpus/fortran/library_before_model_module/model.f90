! The model: a decay rate in a module, read by the integrand.
module model_par
  implicit none
  real(8) :: k
end module model_par

function g(x)
  use model_par
  implicit none
  real(8) :: g, x
  g = exp(-k*x*x)*cos(x)
end function g

subroutine cost(kk, b, r)
  use model_par
  implicit none
  real(8), intent(in) :: kk, b
  real(8), intent(out) :: r
  real(8), external :: g
  k = kk
  call trapz(g, 0d0, b, 20, r)
end subroutine cost
