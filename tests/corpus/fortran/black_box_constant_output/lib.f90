! A library routine adgen is not given: it overwrites its argument with reference
! values that depend on nothing the caller differentiates.
subroutine load_reference(n, r)
  integer, intent(in) :: n
  real(8), intent(out) :: r(n)
  integer :: i
  do i = 1, n
    r(i) = 0.5d0 + 0.1d0*i
  end do
end subroutine load_reference

subroutine load_scale(s)
  real(8), intent(inout) :: s
  s = 1.25d0
end subroutine load_scale
