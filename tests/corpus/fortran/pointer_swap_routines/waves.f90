module waves
  use levels, only: swap, rotate, retire
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  ! Explicit diffusion on an n x n grid, the two levels exchanged by `swap` (called
  ! with keywords in reverse order every other step).
  subroutine diffuse2d(n, nt, kappa, u0, energy)
    integer, intent(in) :: n, nt
    real(dp), intent(in) :: kappa, u0(n, n)
    real(dp), intent(out) :: energy
    real(dp), target :: b1(n, n), b2(n, n)
    real(dp), pointer :: u(:, :), un(:, :)
    integer :: i, j, t
    b1 = u0
    b2 = u0
    u => b1
    un => b2
    do t = 1, nt
      do j = 2, n - 1
        do i = 2, n - 1
          un(i, j) = u(i, j) + kappa*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1) &
                     + u(i, j + 1) - 4.0_dp*u(i, j))*(1.0_dp + 0.1_dp*u(i, j)**2)
        end do
      end do
      if (modulo(t, 2) == 0) then
        call swap(u, un)
      else
        call swap(fn=u, f=un)   ! the same exchange, by keyword
      end if
    end do
    energy = sum(u**2) + 0.5_dp*sum(un(2:n - 1, 2:n - 1))
  end subroutine diffuse2d

  ! A leapfrog wave equation on three rotating levels; the last level is retired
  ! before the energy is taken.
  subroutine leapfrog(n, nt, c, u0, v0, energy)
    integer, intent(in) :: n, nt
    real(dp), intent(in) :: c, u0(n), v0(n)
    real(dp), intent(out) :: energy
    real(dp), target :: l1(n), l2(n), l3(n)
    real(dp), pointer :: um(:), u(:), up(:), last(:)
    integer :: i, t
    l1 = u0
    l2 = u0 + 0.1_dp*v0
    l3 = 0.0_dp
    um => l1
    u => l2
    up => l3
    do t = 1, nt
      up(1) = 0.0_dp
      up(n) = 0.0_dp
      do i = 2, n - 1
        up(i) = 2.0_dp*u(i) - um(i) + c**2*(u(i - 1) - 2.0_dp*u(i) + u(i + 1)) &
                - 0.01_dp*sin(u(i))
      end do
      call rotate(um, u, up)
    end do
    call retire(gone=u, keep=last)   ! by keyword, in another order
    energy = sum(last**2) + sum(um*last)
  end subroutine leapfrog

  ! The two levels are memory ALLOCATE gives the pointers (no TARGET variable), swapped
  ! every step and freed together at the end, as 3-D diffusion benchmarks write it.
  subroutine diffuse_owned(n, nt, kappa, f0, err)
    integer, intent(in) :: n, nt
    real(dp), intent(in) :: kappa, f0(n, n)
    real(dp), intent(out) :: err
    real(dp), pointer, dimension(:, :) :: f, fn
    integer :: i, j, icnt
    allocate(f(n, n), fn(n, n))
    f = f0
    fn = 0.0_dp
    do icnt = 1, nt
      do j = 2, n - 1
        do i = 2, n - 1
          fn(i, j) = f(i, j) + kappa*(f(i - 1, j) + f(i + 1, j) + f(i, j - 1) &
                     + f(i, j + 1) - 4.0_dp*f(i, j)) - 0.05_dp*f(i, j)**3
        end do
      end do
      call swap(f, fn)
    end do
    err = sum(f(2:n - 1, 2:n - 1)**2) + sum(fn)
    deallocate(f, fn)
  end subroutine diffuse_owned
end module waves
