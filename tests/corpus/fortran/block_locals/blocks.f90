! BLOCK constructs (Fortran 2008): locals declared where they are used, one of them
! beside the procedure's own of the same name, an array sized by a dummy, a named
! block, a block nested in another inside a loop.
module block_model
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine smooth(n, x, k, y, s)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n), k
    real(dp), intent(out) :: y(n), s
    real(dp) :: t
    integer :: i
    t = 0.5_dp*k
    do i = 1, n
      block
        ! A `t` of the block's own, beside the procedure's.
        real(dp) :: t, left, right
        left = x(max(i - 1, 1))
        right = x(min(i + 1, n))
        t = left + right
        y(i) = x(i) + k*(t - 2.0_dp*x(i))
        if (i > 1) then
          block
            real(dp) :: d
            d = y(i) - y(i - 1)
            y(i) = y(i) - 0.1_dp*d*d
          end block
        end if
      end block
    end do
    sums: block
      real(dp) :: work(n)
      integer :: j
      do j = 1, n
        work(j) = y(j)*t
      end do
      s = sum(work)
    end block sums
    s = s + t*y(1)
  end subroutine smooth
end module block_model
