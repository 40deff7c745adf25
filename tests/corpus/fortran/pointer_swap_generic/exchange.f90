! A library's generic `exchange`, extended by two INTERFACE blocks as libraries write
! it: for pointers of rank 1 and 2 it exchanges their associations (each specific
! declares its kind as a named constant), for scalars it exchanges their values.
module exchanges
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  private
  public :: exchange
  interface exchange
    module procedure exchange_1d, exchange_2d
  end interface
  interface exchange
    module procedure exchange_values
  end interface
contains
  subroutine exchange_1d(p, q)
    integer, parameter :: wp = real64
    real(wp), dimension(:), pointer, intent(inout) :: p, q
    real(wp), dimension(:), pointer :: keep
    keep => p
    p => q
    q => keep
  end subroutine exchange_1d

  subroutine exchange_2d(p, q)
    integer, parameter :: wp = real64
    real(wp), dimension(:, :), pointer, intent(inout) :: p, q
    real(wp), dimension(:, :), pointer :: keep
    keep => p
    p => q
    q => keep
  end subroutine exchange_2d

  subroutine exchange_values(a, b)
    real(real64), intent(inout) :: a, b
    real(real64) :: t
    t = a
    a = b
    b = t
  end subroutine exchange_values
end module exchanges
