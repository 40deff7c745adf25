! A spring network whose node type is a SEQUENCE type (as codes that share it with
! COMMON-era code write it), with typed array constructors: a table of names padded
! by the compiler, integer and real items converted to the constructor's type.
module springs
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type node
    sequence
    real(dp) :: x, y
  end type node
  character(len=12), parameter :: labels(3) = [character(len=12) :: 'anchor', 'mid', 'free end']
  real(dp), parameter :: rest(2) = [real(dp) :: 1, 1.5]
contains
  subroutine energy(x, k, e)
    real(dp), intent(in) :: x(6), k
    real(dp), intent(out) :: e
    type(node) :: nodes(3)
    real(dp) :: w(3), len
    integer :: i
    do i = 1, 3
      nodes(i) = node(x(2*i - 1), x(2*i))
    end do
    ! Weights: an integer, a real of another kind and a variable, all made real(dp).
    w = [real(dp) :: 2, 0.5, k]
    e = 0.0_dp
    do i = 1, 2
      len = sqrt((nodes(i + 1)%x - nodes(i)%x)**2 + (nodes(i + 1)%y - nodes(i)%y)**2)
      e = e + w(i) * (len - rest(i))**2
    end do
    if (labels(3)(1:4) == 'free') e = e + w(3) * nodes(3)%y**2
  end subroutine energy
end module springs
