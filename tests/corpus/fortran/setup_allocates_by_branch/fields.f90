! Fields whose data a set-up routine allocates through the procedures it calls, in
! both branches of an IF, as csc's heat equation `initialize` does (read from a file,
! or generated, then copied): a passive set-up that reads its field from text, and an
! active one whose field is scaled by an independent. The time loop exchanges the
! fields' data with MOVE_ALLOC, and a clean-up routine frees them.
module fields
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type :: field
    integer :: n
    real(dp), allocatable :: data(:)
  end type field
contains
  subroutine set_dims(f, n)
    type(field), intent(out) :: f
    integer, intent(in) :: n
    f%n = n
  end subroutine set_dims

  ! A smooth initial field with a halo cell at each end: constants only.
  subroutine generate(f)
    type(field), intent(inout) :: f
    integer :: i
    allocate(f%data(0:f%n + 1))
    do i = 0, f%n + 1
      f%data(i) = 1.0_dp + 0.5_dp*cos(0.7_dp*i)
    end do
  end subroutine generate

  ! A field read from text: its size, then its interior values.
  subroutine load(f, text)
    type(field), intent(out) :: f
    character(len=*), intent(in) :: text
    integer :: n, i
    read(text, *) n
    call set_dims(f, n)
    allocate(f%data(0:n + 1))
    read(text, *) n, (f%data(i), i = 1, n)
    f%data(0) = f%data(1)
    f%data(n + 1) = f%data(n)
  end subroutine load

  ! An active field: the generated one, scaled.
  subroutine make_scaled(f, n, amp)
    type(field), intent(out) :: f
    integer, intent(in) :: n
    real(dp), intent(in) :: amp
    call set_dims(f, n)
    call generate(f)
    f%data = amp*f%data
  end subroutine make_scaled

  subroutine copy_field(from, to)
    type(field), intent(in) :: from
    type(field), intent(out) :: to
    if (.not. allocated(to%data)) then
      allocate(to%data(lbound(from%data, 1):ubound(from%data, 1)))
    else if (size(to%data) /= size(from%data)) then
      stop 'copy_field: sizes differ'
    end if
    to%data = from%data
    to%n = from%n
  end subroutine copy_field

  ! Passive set-up: from text when there is some, else generated; both branches
  ! allocate `prev` through a call, then `curr` is its copy.
  subroutine initialize(prev, curr, n, text)
    type(field), intent(out) :: prev, curr
    integer, intent(in) :: n
    character(len=*), intent(in) :: text
    if (len_trim(text) > 0) then
      call load(prev, text)
      call copy_field(prev, curr)
    else
      call set_dims(prev, n)
      call generate(prev)
      call copy_field(prev, curr)
    end if
  end subroutine initialize

  ! Active set-up: both branches allocate `prev`, one directly.
  subroutine initialize_scaled(prev, curr, n, amp)
    type(field), intent(out) :: prev, curr
    integer, intent(in) :: n
    real(dp), intent(in) :: amp
    integer :: i
    if (n > 6) then
      call make_scaled(prev, n, amp)
    else
      prev%n = n
      allocate(prev%data(0:n + 1))
      do i = 0, n + 1
        prev%data(i) = amp*i
      end do
    end if
    call copy_field(prev, curr)
  end subroutine initialize_scaled

  subroutine step(curr, prev, k)
    type(field), intent(inout) :: curr
    type(field), intent(in) :: prev
    real(dp), intent(in) :: k
    integer :: i
    do i = 1, curr%n
      curr%data(i) = prev%data(i) + k*(prev%data(i-1) - 2*prev%data(i) + prev%data(i+1)) &
                     - 0.05_dp*prev%data(i)**2
    end do
  end subroutine step

  subroutine swap(curr, prev)
    type(field), intent(inout) :: curr, prev
    real(dp), allocatable :: tmp(:)
    call move_alloc(curr%data, tmp)
    call move_alloc(prev%data, curr%data)
    call move_alloc(tmp, prev%data)
  end subroutine swap

  subroutine finalize(a, b)
    type(field), intent(inout) :: a, b
    deallocate(a%data)
    deallocate(b%data)
  end subroutine finalize
end module fields

subroutine evolve(n, nsteps, amp, k, energy)
  use fields
  implicit none
  integer, intent(in) :: n, nsteps
  real(dp), intent(in) :: amp, k
  real(dp), intent(out) :: energy
  type(field) :: p1, c1, p2, c2, p3, c3
  integer :: it
  call initialize(p1, c1, n, '5  1.0 1.5 0.5 2.0 1.25')
  ! Each branch of the active set-up.
  call initialize_scaled(p2, c2, n, amp)
  call initialize_scaled(p3, c3, n - 4, amp)
  do it = 1, nsteps
    call step(c1, p1, k)
    call swap(c1, p1)
    call step(c2, p2, k*amp)
    call swap(c2, p2)
    call step(c3, p3, k)
    call swap(c3, p3)
  end do
  energy = sum(p1%data(1:p1%n)**2) + sum(p2%data(1:p2%n)**3) + sum(sin(p3%data))
  call finalize(c1, p1)
  call finalize(c2, p2)
  call finalize(c3, p3)
end subroutine evolve
