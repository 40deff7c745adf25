! Frequency response of a rational filter, H(s) = sum_k r_k / (s - p_k), at s = i*w:
! COMPLEX arithmetic, constants, intrinsics and arguments, with real independents.
module filter_response
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  complex(dp), parameter :: iu = (0.0_dp, 1.0_dp)
contains
  ! The poles from damping and frequency: p = -zeta*w0 + i*w0*sqrt(1 - zeta**2).
  subroutine poles(n, zeta, w0, p)
    integer, intent(in) :: n
    real(dp), intent(in) :: zeta(n), w0(n)
    complex(dp), intent(out) :: p(n)
    integer :: k
    do k = 1, n
      p(k) = cmplx(-zeta(k)*w0(k), w0(k)*sqrt(1.0_dp - zeta(k)**2), kind=dp)
    end do
  end subroutine poles

  ! One term r/(s - p), and its conjugate pole's term, so that H is real on the real axis.
  complex(dp) function pair(r, s, p)
    complex(dp), intent(in) :: r, s, p
    pair = r/(s - p) + conjg(r)/(s - conjg(p))
  end function pair

  subroutine response(n, m, zeta, w0, gain, freq, mag2, phase, loss)
    integer, intent(in) :: n, m
    real(dp), intent(in) :: zeta(n), w0(n), gain(n), freq(m)
    real(dp), intent(out) :: mag2(m), phase(m), loss
    complex(dp) :: p(n), h, s, r
    double complex :: acc
    complex*16 :: z2
    real(dp) :: re
    integer :: j, k
    call poles(n, zeta, w0, p)
    loss = 0.0_dp
    do j = 1, m
      s = iu*freq(j)
      h = (0.0_dp, 0.0_dp)
      do k = 1, n
        r = dcmplx(gain(k), 0.1d0*gain(k)**2)
        h = h + pair(r, s, p(k))
      end do
      acc = h*conjg(h)
      mag2(j) = real(acc)
      phase(j) = atan2(aimag(h), real(h))
      z2 = exp(-s*0.01_dp)*sqrt(h + 2.0_dp) + log(h*h + 3.0_dp)/(1.0_dp + s)
      re = real(z2, dp)
      loss = loss + abs(h - 1.0_dp)**2 + re*aimag(z2)
    end do
  end subroutine response
end module filter_response
