! Fortran 90 style: POINTER written where ALLOCATABLE is meant, as code of that time had
! to (no ALLOCATABLE components or dummies before Fortran 2003). A field type holds its
! arrays by POINTER components, a constructor NULLIFYs and allocates them (one through a
! POINTER dummy that allocates), a smoother overwrites a POINTER dummy declared
! INTENT(IN) (the intent of a pointer is that of its association) and works in a local
! POINTER buffer, and a destructor asks ASSOCIATED before it frees.
module fields_mod
  implicit none
  type field
    integer :: n
    double precision, pointer :: u(:) => null()
    double precision, dimension(:), pointer :: flux
  end type field
contains
  subroutine field_new(f, n)
    type(field), intent(inout) :: f
    integer, intent(in) :: n
    nullify(f%flux)
    f%n = n
    call new_vector(f%u, n)
    allocate(f%flux(n + 1))
    f%u = 0.0d0
  end subroutine field_new

  subroutine field_free(f)
    type(field), intent(inout) :: f
    if (associated(f%u)) deallocate(f%u)
    if (associated(f%flux)) deallocate(f%flux)
  end subroutine field_free

  subroutine new_vector(w, n)
    double precision, pointer :: w(:)
    integer, intent(in) :: n
    allocate(w(n))
  end subroutine new_vector

  subroutine smooth(u, n, wl, wr)
    integer, intent(in) :: n
    double precision, pointer, intent(in) :: u(:)
    double precision, intent(in) :: wl, wr
    double precision, pointer :: work(:)
    integer :: i
    work => null()
    call new_vector(work, n)
    work = u
    do i = 2, n - 1
      u(i) = wl*work(i - 1) + (1.0d0 - wl - wr)*work(i) + wr*work(i + 1)
    end do
    deallocate(work)
  end subroutine smooth
end module fields_mod

! Three steps of a nonlinear flux, each followed by a smoothing pass; the energy of each
! cell in a local POINTER array (an automatic array once read as ALLOCATABLE).
subroutine pointer_fields_run(n, u0, k, wl, e)
  use fields_mod
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: u0(n), k, wl
  double precision, intent(out) :: e
  type(field) :: f
  double precision, pointer :: cell_e(:)
  integer :: i, step
  call field_new(f, n)
  f%u = u0
  do step = 1, 3
    do i = 1, n + 1
      f%flux(i) = 0.0d0
    end do
    do i = 2, n
      f%flux(i) = -k*(f%u(i) - f%u(i - 1))*f%u(i)
    end do
    do i = 1, n
      f%u(i) = f%u(i) - (f%flux(i + 1) - f%flux(i))
    end do
    call smooth(f%u, n, wl, 0.5d0*wl)
  end do
  allocate(cell_e(n))
  cell_e = f%u**2
  e = sum(cell_e)
  deallocate(cell_e)
  call field_free(f)
end subroutine pointer_fields_run
