! Time loops that keep two buffers and exchange them with MOVE_ALLOC instead of
! copying: in a subroutine that swaps two ALLOCATABLE dummies through a local (as
! csc's heat solver swaps its fields), in one that swaps the components of two
! structures, and inline in the loop body of the root. The buffers have halos, so
! their bounds do not start at 1; two of them have different bounds, which the swap
! exchanges, and which subroutines then resize (from the old values, and to constants).
module buffers
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type :: state
    real(dp), allocatable :: u(:)
  end type state
contains
  subroutine swap(a, b)
    real(dp), allocatable, intent(inout) :: a(:), b(:)
    real(dp), allocatable :: t(:)
    call move_alloc(a, t)
    call move_alloc(b, a)
    call move_alloc(t, b)
  end subroutine swap

  subroutine swap_states(p, q)
    type(state), intent(inout) :: p, q
    real(dp), allocatable :: t(:)
    call move_alloc(from=p%u, to=t)
    call move_alloc(q%u, p%u)
    call move_alloc(t, q%u)
  end subroutine swap_states

  ! A finer grid: the values moved away, the array allocated again larger, and filled
  ! from the old values.
  subroutine regrid(u, m)
    real(dp), allocatable, intent(inout) :: u(:)
    integer, intent(in) :: m
    real(dp), allocatable :: old(:)
    integer :: i, k
    call move_alloc(u, old)
    allocate(u(m))
    do i = 1, m
      k = lbound(old, 1) + mod(i - 1, size(old))
      u(i) = 0.5_dp*old(k)**2 + 0.1_dp*i
    end do
  end subroutine regrid

  ! Grown keeping its values, as resize routines do: a new array filled from the old
  ! one, then moved into it (MOVE_ALLOC frees the old allocation first).
  subroutine grow(u, m)
    real(dp), allocatable, intent(inout) :: u(:)
    integer, intent(in) :: m
    real(dp), allocatable :: bigger(:)
    integer :: keep(1)
    keep = min(shape(u), [m])
    allocate(bigger(m))
    bigger = 0.0_dp
    bigger(:keep(1)) = u(lbound(u, 1):lbound(u, 1) + keep(1) - 1)
    call move_alloc(bigger, u)
  end subroutine grow

  ! A resize that resets: freed if allocated, allocated again smaller, constant.
  subroutine reset(v, m)
    real(dp), allocatable, intent(inout) :: v(:)
    integer, intent(in) :: m
    if (allocated(v)) deallocate(v)
    allocate(v(0:m))
    v = 1.0_dp
  end subroutine reset

  ! One explicit step with a nonlinear reaction: new from old.
  subroutine step(old, new, n, c)
    integer, intent(in) :: n
    real(dp), intent(in) :: old(0:n + 1), c
    real(dp), intent(inout) :: new(0:n + 1)
    integer :: i
    do i = 1, n
      new(i) = old(i) + c*(old(i - 1) - 2.0_dp*old(i) + old(i + 1)) - 0.1_dp*old(i)**2
    end do
    new(0) = new(1)
    new(n + 1) = new(n)
  end subroutine step
end module buffers

subroutine pingpong(n, nsteps, x, c, y, last)
  use buffers
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(in) :: x(n), c
  real(dp), intent(out) :: y, last
  real(dp), allocatable :: cur(:), nxt(:), tmp(:), wide(:), narrow(:), extra(:)
  real(dp), allocatable :: hist(:)
  type(state) :: s1, s2
  integer :: it, m
  allocate(cur(0:n + 1), nxt(0:n + 1))
  cur(1:n) = x
  cur(0) = x(1)
  cur(n + 1) = x(n)
  nxt = 0.0_dp
  do it = 1, nsteps
    call step(cur, nxt, n, c)
    call swap(cur, nxt)
  end do
  allocate(s1%u(0:n + 1), s2%u(0:n + 1))
  s1%u = cur
  s2%u = 0.0_dp
  do it = 1, nsteps
    call step(s1%u, s2%u, n, c)
    call swap_states(s1, s2)
    ! Inline: the last step's result kept in tmp, and cur taken over from it.
    call move_alloc(cur, tmp)
    allocate(cur(0:n + 1))
    cur = tmp*s1%u
    deallocate(tmp)
  end do
  y = sum(s1%u(1:n)**2) + sum(cur(1:n))
  last = s1%u(n)*nxt(1)
  ! Buffers of different bounds exchanged: each takes the other's.
  allocate(wide(0:n + 1), narrow(n))
  wide = cur
  narrow = x*c
  call swap(wide, narrow)
  last = last + sum(wide*narrow(1:n)**2)
  ! Resized by subroutines: one from its old values, one reset to constants.
  call regrid(wide, 2*n)
  call reset(narrow, n - 1)
  narrow(0) = narrow(0)*c
  last = last + sum(wide) + narrow(0)*narrow(n - 1)
  ! Resized by a call that carries no derivative: the caller reshapes the derivative.
  allocate(extra(3))
  extra = 2.0_dp
  call reset(extra, n + 1)
  extra(n) = extra(n)*c
  last = last + extra(0)*extra(n)
  ! A history grown whenever it is full.
  allocate(hist(2))
  hist = 0.0_dp
  m = 0
  do it = 1, n
    if (m == size(hist)) call grow(hist, 2*m)
    m = m + 1
    hist(m) = x(it)*cur(1) + 0.1_dp*sum(hist(1:m - 1))
  end do
  y = y + sum(hist(1:m)**2)
  deallocate(hist)
  deallocate(cur, nxt)
end subroutine pingpong
