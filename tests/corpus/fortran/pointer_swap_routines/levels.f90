! Time-level pointers exchanged by subroutines, as time-stepping codes write them to
! avoid copying a field every step: `swap` exchanges two 2-D levels (through a local
! pointer), `rotate` moves three levels of a leapfrog scheme on by one, `retire` drops
! a level (NULLIFY) after moving it. These subroutines only re-associate their POINTER
! dummies; adgen writes their associations into the caller.
module levels
  implicit none
  private
  public :: swap, rotate, retire
contains
  subroutine swap(f, fn)
    real(8), pointer, dimension(:, :), intent(inout) :: f, fn
    real(8), pointer, dimension(:, :) :: ftmp

    ftmp => f
    f => fn
    fn => ftmp
  end subroutine swap

  ! old <- now <- new <- old: the oldest level is written next.
  subroutine rotate(old, now, new)
    real(8), pointer :: old(:), now(:), new(:)
    real(8), pointer :: spare(:)
    spare => old
    old => now
    now => new
    new => spare
  end subroutine rotate

  subroutine retire(keep, gone)
    real(8), pointer :: keep(:), gone(:)
    keep => gone
    nullify(gone)
  end subroutine retire
end module levels
