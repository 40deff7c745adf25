! adgen runtime: the Fortran interface to the tape of adgen-generated adjoint code.
!
! Generated code does `use adgen_runtime` and calls, e.g., `call pushreal8(x)` in the
! forward sweep and `call popreal8(x)` in the backward sweep. Every routine binds to the C
! runtime (adgen_runtime.c) by its C name, so nothing depends on compiler name mangling.
! One LIFO stack per thread; it grows without limit; popping more than was pushed aborts.
module adgen_runtime
  use, intrinsic :: iso_c_binding, only: c_double, c_float, c_int, c_int32_t, c_int64_t, &
      c_size_t, c_ptr, c_char, c_double_complex, c_float_complex
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  implicit none
  private

  public :: pushreal8, popreal8, lookreal8
  public :: pushreal4, popreal4, lookreal4
  public :: pushinteger4, popinteger4, lookinteger4
  public :: pushinteger8, popinteger8, lookinteger8
  public :: pushpointer, poppointer, lookpointer
  public :: pushboolean, popboolean, lookboolean
  public :: pushbooleanarray, popbooleanarray, lookbooleanarray
  public :: pushcontrol, popcontrol, lookcontrol
  public :: pushcontrol4, popcontrol4, lookcontrol4
  public :: pushcomplex16, popcomplex16, lookcomplex16
  public :: pushcomplex8, popcomplex8, lookcomplex8
  public :: pushcomplex16array, popcomplex16array, lookcomplex16array
  public :: pushcomplex8array, popcomplex8array, lookcomplex8array
  public :: pushreal8array, popreal8array, lookreal8array
  public :: pushreal4array, popreal4array, lookreal4array
  public :: pushinteger4array, popinteger4array, lookinteger4array
  public :: pushinteger8array, popinteger8array, lookinteger8array
  public :: pushcharacter, popcharacter, lookcharacter
  public :: pushcharacterarray, popcharacterarray, lookcharacterarray
  public :: startrepeat, resetrepeat, endrepeat
  public :: adgen_start_repeat, adgen_reset_repeat, adgen_end_repeat
  public :: adgen_binomial_start, adgen_binomial_next, adgen_binomial_step, &
      adgen_binomial_end_step
  public :: adgen_peak_bytes, adgen_traffic_bytes, adgen_size_bytes
  public :: adgen_reset_stats, adgen_release_tape
  public :: adgen_digamma

  ! psi(x) = Gamma'(x)/Gamma(x), for the derivatives of GAMMA and LOG_GAMMA.
  interface adgen_digamma
    module procedure adgen_digamma8, adgen_digamma4
  end interface adgen_digamma

  interface
    ! real(8) scalars
    subroutine pushreal8(x) bind(C, name="adgen_push_real8")
      import :: c_double
      real(c_double), intent(in) :: x
    end subroutine pushreal8
    subroutine popreal8(x) bind(C, name="adgen_pop_real8")
      import :: c_double
      real(c_double), intent(out) :: x
    end subroutine popreal8
    subroutine lookreal8(x) bind(C, name="adgen_look_real8")
      import :: c_double
      real(c_double), intent(out) :: x
    end subroutine lookreal8

    ! real(4) scalars
    subroutine pushreal4(x) bind(C, name="adgen_push_real4")
      import :: c_float
      real(c_float), intent(in) :: x
    end subroutine pushreal4
    subroutine popreal4(x) bind(C, name="adgen_pop_real4")
      import :: c_float
      real(c_float), intent(out) :: x
    end subroutine popreal4
    subroutine lookreal4(x) bind(C, name="adgen_look_real4")
      import :: c_float
      real(c_float), intent(out) :: x
    end subroutine lookreal4

    ! integer(4) scalars
    subroutine pushinteger4(k) bind(C, name="adgen_push_integer4")
      import :: c_int32_t
      integer(c_int32_t), intent(in) :: k
    end subroutine pushinteger4
    subroutine popinteger4(k) bind(C, name="adgen_pop_integer4")
      import :: c_int32_t
      integer(c_int32_t), intent(out) :: k
    end subroutine popinteger4
    subroutine lookinteger4(k) bind(C, name="adgen_look_integer4")
      import :: c_int32_t
      integer(c_int32_t), intent(out) :: k
    end subroutine lookinteger4

    ! integer(8) scalars
    subroutine pushinteger8(k) bind(C, name="adgen_push_integer8")
      import :: c_int64_t
      integer(c_int64_t), intent(in) :: k
    end subroutine pushinteger8
    subroutine popinteger8(k) bind(C, name="adgen_pop_integer8")
      import :: c_int64_t
      integer(c_int64_t), intent(out) :: k
    end subroutine popinteger8
    subroutine lookinteger8(k) bind(C, name="adgen_look_integer8")
      import :: c_int64_t
      integer(c_int64_t), intent(out) :: k
    end subroutine lookinteger8

    ! C addresses (type(c_ptr), e.g. from c_loc).
    subroutine pushpointer(p) bind(C, name="adgen_push_pointer")
      import :: c_ptr
      type(c_ptr), intent(in) :: p
    end subroutine pushpointer
    subroutine poppointer(p) bind(C, name="adgen_pop_pointer")
      import :: c_ptr
      type(c_ptr), intent(out) :: p
    end subroutine poppointer
    subroutine lookpointer(p) bind(C, name="adgen_look_pointer")
      import :: c_ptr
      type(c_ptr), intent(out) :: p
    end subroutine lookpointer

    ! Control flow: a branch number in 0..255, stored in one byte.
    subroutine pushcontrol(k) bind(C, name="adgen_push_control")
      import :: c_int
      integer(c_int), value, intent(in) :: k
    end subroutine pushcontrol
    subroutine popcontrol(k) bind(C, name="adgen_pop_control")
      import :: c_int
      integer(c_int), intent(out) :: k
    end subroutine popcontrol
    subroutine lookcontrol(k) bind(C, name="adgen_look_control")
      import :: c_int
      integer(c_int), intent(out) :: k
    end subroutine lookcontrol
    ! A branch number beyond 255 (hundreds of ways out of one construct): 4 bytes.
    subroutine pushcontrol4(k) bind(C, name="adgen_push_control4")
      import :: c_int
      integer(c_int), value, intent(in) :: k
    end subroutine pushcontrol4
    subroutine popcontrol4(k) bind(C, name="adgen_pop_control4")
      import :: c_int
      integer(c_int), intent(out) :: k
    end subroutine popcontrol4
    subroutine lookcontrol4(k) bind(C, name="adgen_look_control4")
      import :: c_int
      integer(c_int), intent(out) :: k
    end subroutine lookcontrol4

    ! complex(8) and complex(4) scalars and whole arrays
    subroutine pushcomplex16(z) bind(C, name="adgen_push_complex16")
      import :: c_double_complex
      complex(c_double_complex), intent(in) :: z
    end subroutine pushcomplex16
    subroutine popcomplex16(z) bind(C, name="adgen_pop_complex16")
      import :: c_double_complex
      complex(c_double_complex), intent(out) :: z
    end subroutine popcomplex16
    subroutine lookcomplex16(z) bind(C, name="adgen_look_complex16")
      import :: c_double_complex
      complex(c_double_complex), intent(out) :: z
    end subroutine lookcomplex16
    subroutine pushcomplex16array(a, n) bind(C, name="adgen_push_complex16_array")
      import :: c_double_complex, c_int
      complex(c_double_complex), intent(in) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine pushcomplex16array
    subroutine popcomplex16array(a, n) bind(C, name="adgen_pop_complex16_array")
      import :: c_double_complex, c_int
      complex(c_double_complex), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine popcomplex16array
    subroutine lookcomplex16array(a, n) bind(C, name="adgen_look_complex16_array")
      import :: c_double_complex, c_int
      complex(c_double_complex), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine lookcomplex16array
    subroutine pushcomplex8(z) bind(C, name="adgen_push_complex8")
      import :: c_float_complex
      complex(c_float_complex), intent(in) :: z
    end subroutine pushcomplex8
    subroutine popcomplex8(z) bind(C, name="adgen_pop_complex8")
      import :: c_float_complex
      complex(c_float_complex), intent(out) :: z
    end subroutine popcomplex8
    subroutine lookcomplex8(z) bind(C, name="adgen_look_complex8")
      import :: c_float_complex
      complex(c_float_complex), intent(out) :: z
    end subroutine lookcomplex8
    subroutine pushcomplex8array(a, n) bind(C, name="adgen_push_complex8_array")
      import :: c_float_complex, c_int
      complex(c_float_complex), intent(in) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine pushcomplex8array
    subroutine popcomplex8array(a, n) bind(C, name="adgen_pop_complex8_array")
      import :: c_float_complex, c_int
      complex(c_float_complex), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine popcomplex8array
    subroutine lookcomplex8array(a, n) bind(C, name="adgen_look_complex8_array")
      import :: c_float_complex, c_int
      complex(c_float_complex), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine lookcomplex8array

    ! Whole arrays: n contiguous elements starting at a.
    subroutine pushreal8array(a, n) bind(C, name="adgen_push_real8_array")
      import :: c_double, c_int
      real(c_double), intent(in) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine pushreal8array
    subroutine popreal8array(a, n) bind(C, name="adgen_pop_real8_array")
      import :: c_double, c_int
      real(c_double), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine popreal8array
    subroutine lookreal8array(a, n) bind(C, name="adgen_look_real8_array")
      import :: c_double, c_int
      real(c_double), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine lookreal8array
    subroutine pushreal4array(a, n) bind(C, name="adgen_push_real4_array")
      import :: c_float, c_int
      real(c_float), intent(in) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine pushreal4array
    subroutine popreal4array(a, n) bind(C, name="adgen_pop_real4_array")
      import :: c_float, c_int
      real(c_float), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine popreal4array
    subroutine lookreal4array(a, n) bind(C, name="adgen_look_real4_array")
      import :: c_float, c_int
      real(c_float), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine lookreal4array
    subroutine pushinteger4array(a, n) bind(C, name="adgen_push_integer4_array")
      import :: c_int32_t, c_int
      integer(c_int32_t), intent(in) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine pushinteger4array
    subroutine popinteger4array(a, n) bind(C, name="adgen_pop_integer4_array")
      import :: c_int32_t, c_int
      integer(c_int32_t), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine popinteger4array
    subroutine lookinteger4array(a, n) bind(C, name="adgen_look_integer4_array")
      import :: c_int32_t, c_int
      integer(c_int32_t), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine lookinteger4array
    subroutine pushinteger8array(a, n) bind(C, name="adgen_push_integer8_array")
      import :: c_int64_t, c_int
      integer(c_int64_t), intent(in) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine pushinteger8array
    subroutine popinteger8array(a, n) bind(C, name="adgen_pop_integer8_array")
      import :: c_int64_t, c_int
      integer(c_int64_t), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine popinteger8array
    subroutine lookinteger8array(a, n) bind(C, name="adgen_look_integer8_array")
      import :: c_int64_t, c_int
      integer(c_int64_t), intent(out) :: a(*)
      integer(c_int), value, intent(in) :: n
    end subroutine lookinteger8array

    ! Repeated access (binomial checkpointing): startrepeat marks the top; resetrepeat
    ! puts back every entry popped since; endrepeat forgets the innermost mark.
    subroutine startrepeat() bind(C, name="adgen_start_repeat")
    end subroutine startrepeat
    subroutine resetrepeat() bind(C, name="adgen_reset_repeat")
    end subroutine resetrepeat
    subroutine endrepeat() bind(C, name="adgen_end_repeat")
    end subroutine endrepeat

    ! Binomial checkpointing of a loop (`$AD BINOMIAL-CKP`): the schedule's actions, one
    ! at a time (adgen_runtime.c says which).
    subroutine adgen_binomial_start(steps, snapshots) bind(C, name="adgen_binomial_start")
      import :: c_int
      integer(c_int), value :: steps, snapshots
    end subroutine adgen_binomial_start
    function adgen_binomial_next() bind(C, name="adgen_binomial_next") result(action)
      import :: c_int
      integer(c_int) :: action
    end function adgen_binomial_next
    function adgen_binomial_step() bind(C, name="adgen_binomial_step") result(step)
      import :: c_int
      integer(c_int) :: step
    end function adgen_binomial_step
    function adgen_binomial_end_step() bind(C, name="adgen_binomial_end_step") result(step)
      import :: c_int
      integer(c_int) :: step
    end function adgen_binomial_end_step

    ! Statistics of the calling thread's tape, in bytes.
    function adgen_peak_bytes() bind(C, name="adgen_tape_peak_bytes") result(bytes)
      import :: c_size_t
      integer(c_size_t) :: bytes
    end function adgen_peak_bytes
    function adgen_traffic_bytes() bind(C, name="adgen_tape_traffic_bytes") result(bytes)
      import :: c_size_t
      integer(c_size_t) :: bytes
    end function adgen_traffic_bytes
    function adgen_size_bytes() bind(C, name="adgen_tape_size_bytes") result(bytes)
      import :: c_size_t
      integer(c_size_t) :: bytes
    end function adgen_size_bytes
    subroutine adgen_reset_stats() bind(C, name="adgen_tape_reset_stats")
    end subroutine adgen_reset_stats
    subroutine adgen_release_tape() bind(C, name="adgen_tape_release")
    end subroutine adgen_release_tape

    ! The C side of the logical wrappers below.
    subroutine c_push_boolean(b) bind(C, name="adgen_push_boolean")
      import :: c_int
      integer(c_int), value, intent(in) :: b
    end subroutine c_push_boolean
    subroutine c_pop_boolean(b) bind(C, name="adgen_pop_boolean")
      import :: c_int
      integer(c_int), intent(out) :: b
    end subroutine c_pop_boolean
    subroutine c_push_logical_array(a, n, size) bind(C, name="adgen_push_logical_array")
      import :: c_int
      type(*), intent(in) :: a(*)
      integer(c_int), value, intent(in) :: n, size
    end subroutine c_push_logical_array
    subroutine c_pop_logical_array(a, n, size) bind(C, name="adgen_pop_logical_array")
      import :: c_int
      type(*), intent(inout) :: a(*)
      integer(c_int), value, intent(in) :: n, size
    end subroutine c_pop_logical_array
    subroutine c_look_logical_array(a, n, size) bind(C, name="adgen_look_logical_array")
      import :: c_int
      type(*), intent(inout) :: a(*)
      integer(c_int), value, intent(in) :: n, size
    end subroutine c_look_logical_array
    subroutine c_look_boolean(b) bind(C, name="adgen_look_boolean")
      import :: c_int
      integer(c_int), intent(out) :: b
    end subroutine c_look_boolean

    ! The C side of the character wrappers below: n bytes (sequence association).
    subroutine c_push_characters(s, n) bind(C, name="adgen_push_characters")
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: s(*)
      integer(c_int), value, intent(in) :: n
    end subroutine c_push_characters
    subroutine c_pop_characters(s, n) bind(C, name="adgen_pop_characters")
      import :: c_char, c_int
      character(kind=c_char), intent(inout) :: s(*)
      integer(c_int), value, intent(in) :: n
    end subroutine c_pop_characters
    subroutine c_look_characters(s, n) bind(C, name="adgen_look_characters")
      import :: c_char, c_int
      character(kind=c_char), intent(inout) :: s(*)
      integer(c_int), value, intent(in) :: n
    end subroutine c_look_characters
  end interface

contains

  ! Default logicals: stored as one byte through the C integer interface.
  subroutine pushboolean(l)
    logical, intent(in) :: l
    if (l) then
      call c_push_boolean(1_c_int)
    else
      call c_push_boolean(0_c_int)
    end if
  end subroutine pushboolean

  subroutine popboolean(l)
    logical, intent(out) :: l
    integer(c_int) :: b
    call c_pop_boolean(b)
    l = b /= 0
  end subroutine popboolean

  subroutine lookboolean(l)
    logical, intent(out) :: l
    integer(c_int) :: b
    call c_look_boolean(b)
    l = b /= 0
  end subroutine lookboolean

  ! Arrays of logicals (L-BFGS-B's lsave), of any kind: one byte per element.
  subroutine pushbooleanarray(l, n)
    logical, intent(in) :: l(*)
    integer, intent(in) :: n
    call c_push_logical_array(l, int(n, c_int), int(storage_size(l(1)) / 8, c_int))
  end subroutine pushbooleanarray

  subroutine popbooleanarray(l, n)
    logical, intent(inout) :: l(*)
    integer, intent(in) :: n
    call c_pop_logical_array(l, int(n, c_int), int(storage_size(l(1)) / 8, c_int))
  end subroutine popbooleanarray

  subroutine lookbooleanarray(l, n)
    logical, intent(inout) :: l(*)
    integer, intent(in) :: n
    call c_look_logical_array(l, int(n, c_int), int(storage_size(l(1)) / 8, c_int))
  end subroutine lookbooleanarray

  ! Character variables of any length: a scalar (or one element, or a substring), and
  ! an array of n elements.
  subroutine pushcharacter(s)
    character(len=*), intent(in) :: s
    call c_push_characters(s, len(s))
  end subroutine pushcharacter

  subroutine popcharacter(s)
    character(len=*), intent(inout) :: s
    call c_pop_characters(s, len(s))
  end subroutine popcharacter

  subroutine lookcharacter(s)
    character(len=*), intent(inout) :: s
    call c_look_characters(s, len(s))
  end subroutine lookcharacter

  subroutine pushcharacterarray(s, n)
    character(len=*), intent(in) :: s(*)
    integer, intent(in) :: n
    call c_push_characters(s, len(s) * n)
  end subroutine pushcharacterarray

  subroutine popcharacterarray(s, n)
    character(len=*), intent(inout) :: s(*)
    integer, intent(in) :: n
    call c_pop_characters(s, len(s) * n)
  end subroutine popcharacterarray

  subroutine lookcharacterarray(s, n)
    character(len=*), intent(inout) :: s(*)
    integer, intent(in) :: n
    call c_look_characters(s, len(s) * n)
  end subroutine lookcharacterarray

  ! The same series as adgen_digamma in adgen_runtime.c: reflection below 0, recurrence
  ! up to 10, then the asymptotic expansion (about 1e-14 relative).
  elemental recursive function adgen_digamma8(x) result(psi)
    real(c_double), intent(in) :: x
    real(c_double) :: psi, y, f
    real(c_double), parameter :: pi = 3.14159265358979323846_c_double
    if (x <= 0 .and. abs(x - aint(x)) <= 0) then
      psi = ieee_value(x, ieee_quiet_nan)
      return
    end if
    if (x < 0) then
      psi = adgen_digamma8(1 - x) - pi / tan(pi * x)
      return
    end if
    psi = 0
    y = x
    do while (y < 10)
      psi = psi - 1 / y
      y = y + 1
    end do
    f = 1 / (y * y)
    psi = psi + log(y) - 0.5_c_double / y &
        - f * (1.0_c_double / 12 - f * (1.0_c_double / 120 - f * (1.0_c_double / 252 &
        - f * (1.0_c_double / 240 - f * (1.0_c_double / 132)))))
  end function adgen_digamma8

  ! Repeated access under the C runtime's names, which generated code calls in every
  ! language.
  subroutine adgen_start_repeat()
    call startrepeat()
  end subroutine adgen_start_repeat

  subroutine adgen_reset_repeat()
    call resetrepeat()
  end subroutine adgen_reset_repeat

  subroutine adgen_end_repeat()
    call endrepeat()
  end subroutine adgen_end_repeat

  elemental function adgen_digamma4(x) result(psi)
    real(c_float), intent(in) :: x
    real(c_float) :: psi
    psi = real(adgen_digamma8(real(x, c_double)), c_float)
  end function adgen_digamma4

end module adgen_runtime
