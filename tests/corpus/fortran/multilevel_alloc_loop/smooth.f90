! Multilevel smoothing of a 1-D field: on each level the field is restricted onto a
! coarser grid whose size is computed from the level, smoothed there by a few damped
! Jacobi sweeps with a nonlinear diffusivity, and the correction is prolonged back.
! The coarse grids are ALLOCATABLE work arrays allocated and freed inside the level
! loop; a level whose grid would be too coarse allocates a two-point grid instead.
subroutine multilevel(n, nlev, u, nu, energy)
  implicit none
  integer, intent(in) :: n, nlev, nu
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: energy
  real(8), allocatable :: uc(:), tmp(:), corr(:, :)
  integer :: lev, nc, i, k, stride
  real(8) :: kap

  do lev = 1, nlev
    stride = 2**lev
    nc = (n - 1) / stride + 1
    if (nc < 3) then
      ! too coarse: a two-point average only
      allocate(uc(2))
      uc(1) = u(1)
      uc(2) = u(n)
      u(1) = 0.75d0 * uc(1) + 0.25d0 * uc(2)
      deallocate(uc)
      cycle
    end if
    allocate(uc(0:nc + 1), tmp(nc))
    do i = 1, nc
      uc(i) = u(1 + (i - 1) * stride)
    end do
    uc(0) = uc(1)
    uc(nc + 1) = uc(nc)
    do k = 1, nu
      do i = 1, nc
        kap = 0.2d0 / (1.0d0 + uc(i)**2)
        tmp(i) = uc(i) + kap * (uc(i - 1) - 2.0d0 * uc(i) + uc(i + 1))
      end do
      uc(1:nc) = tmp
      uc(0) = uc(1)
      uc(nc + 1) = uc(nc)
    end do
    ! correction on the fine grid points of this level, and its square
    allocate(corr(2, nc))
    do i = 1, nc
      corr(1, i) = uc(i) - u(1 + (i - 1) * stride)
      corr(2, i) = corr(1, i)**2
    end do
    do i = 1, nc
      u(1 + (i - 1) * stride) = u(1 + (i - 1) * stride) + 0.5d0 * corr(1, i) &
        - 0.1d0 * corr(2, i)
    end do
    deallocate(corr)
    deallocate(tmp)
    deallocate(uc)
  end do
  energy = sum(u**2)
end subroutine multilevel
