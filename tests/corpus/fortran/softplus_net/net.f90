! One hidden layer with softplus activations and a softplus-weighted read-out.
! Features: a FUNCTION with RESULT called from an active context (the hidden layer)
! and from passive ones (constant and integer-derived arguments); 2-D arrays; nested
! loops; PARAMETER bounding a local array.
function softplus(x) result(y)
  implicit none
  real(8), intent(in) :: x
  real(8) :: y
  if (x > 30.0d0) then
    y = x
  else
    y = log(1.0d0 + exp(x))
  end if
end function softplus

subroutine network(n, w, b, x, out)
  implicit none
  integer, parameter :: nmax = 64
  integer, intent(in) :: n
  real(8), intent(in) :: w(n, n), b(n), x(n)
  real(8), intent(out) :: out
  real(8) :: h(nmax)
  real(8) :: softplus
  real(8) :: z, c, damping
  integer :: i, j
  c = softplus(0.5d0)
  damping = softplus(-dble(n))
  do i = 1, n
    z = b(i)
    do j = 1, n
      z = z + w(i, j) * x(j)
    end do
    h(i) = softplus(z - dble(n))
  end do
  out = 0.0d0
  do i = 1, n
    out = out + c * h(i) / (1.0d0 + damping * dble(i))
  end do
end subroutine network
