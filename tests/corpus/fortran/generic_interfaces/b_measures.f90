! Generic names over module procedures, resolved by the rank, the type and the
! keywords of the arguments, and a generic over external procedures.
module measures
  implicit none
  private
  public :: sqnorm, weight, apply_smoothing, spring_energy

  interface sqnorm
    module procedure sqnorm_vec, sqnorm_mat
  end interface sqnorm

  ! weight(x) of a real, weight(k) of an integer index
  interface weight
    module procedure weight_real
    procedure :: weight_index
  end interface

  interface apply_smoothing
    subroutine smooth3(u, w)
      real(8), intent(in) :: u(:)
      real(8), intent(out) :: w(:)
    end subroutine smooth3
    subroutine scale_rows(a, s)
      real(8), intent(inout) :: a(:, :)
      real(8), intent(in) :: s(:)
    end subroutine scale_rows
  end interface apply_smoothing

contains

  function sqnorm_vec(v, w) result(s)
    real(8), intent(in) :: v(:)
    real(8), intent(in), optional :: w(:)
    real(8) :: s
    if (present(w)) then
      s = sum(w*v*v)
    else
      s = sum(v*v)
    end if
  end function sqnorm_vec

  function sqnorm_mat(a) result(s)
    real(8), intent(in) :: a(:, :)
    real(8) :: s
    integer :: j
    s = 0d0
    do j = 1, size(a, 2)
      s = s + sqnorm(a(:, j))
    end do
  end function sqnorm_mat

  real(8) function weight_real(x)
    real(8), intent(in) :: x
    weight_real = 1d0/(1d0 + x*x)
  end function weight_real

  real(8) function weight_index(k)
    integer, intent(in) :: k
    weight_index = 1d0/real(k, 8)
  end function weight_index

  subroutine spring_energy(n, x, k, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), k(n, 3)
    real(8), intent(out) :: e
    real(8) :: xs(n), ks(n, 3), wts(n)
    integer :: i
    call apply_smoothing(x, xs)
    ks = k
    do i = 1, n
      wts(i) = weight(i) + weight(xs(i))
    end do
    call apply_smoothing(ks, wts)
    e = 0.5d0*sqnorm(xs, w=wts) + sqnorm(ks) + sqnorm(v=x(2:n))
  end subroutine spring_energy

end module measures
