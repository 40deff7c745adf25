! Two roots, one calling the other with derivatives the called root's own contract
! would drop: `weighted` is a root for x alone, but `model` passes it weights that
! depend on p, and accumulates into what it passes.
subroutine weighted(n, x, w, s)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w(n)
  real(8), intent(out) :: s
  integer :: i
  s = 0.0d0
  do i = 1, n
    s = s + w(i)*x(i)**2
  end do
end subroutine weighted

! A root asking for the tangent only: in the adjoint, its derivative is a callee's.
subroutine scaled(n, x, w, s)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), w(n)
  real(8), intent(out) :: s
  s = sum(w*sin(x))
end subroutine scaled

subroutine model(n, p, s)
  integer, intent(in) :: n
  real(8), intent(inout) :: p(n)
  real(8), intent(out) :: s
  real(8) :: x(n), w(n), t
  integer :: i
  do i = 1, n
    x(i) = sin(p(i))
    w(i) = p(i)**2
  end do
  call weighted(n, x, w, t)
  call weighted(n, p, x, s)
  s = s + t*p(1)
  call scaled(n, x, p, t)
  s = s + t
  p(n) = p(n)*t
end subroutine model
