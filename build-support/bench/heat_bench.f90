! Times the original, tangent and adjoint of the heat_explicit corpus program
! (tests/corpus/fortran/heat_explicit) and reports the cost ratios and the tape peak.
! Calling sequences follow INTERFACE.md section 3:
!   call heat_d(n, nsteps, kappa, kappad, u, ud, cost, costd)
!   call heat_b(n, nsteps, kappa, kappab, u, ub, cost, costb)
! Usage: heat_bench N NSTEPS SAMPLES [MODE]
! With MODE (0 nothing, 1 original, 2 tangent, 3 adjoint) it makes that one call and
! stops: run.sh --instructions counts each under callgrind.
program heat_bench
  use iso_c_binding, only: c_size_t
  implicit none
  interface
    function adgen_tape_peak_bytes() bind(C, name='adgen_tape_peak_bytes')
      import :: c_size_t
      integer(c_size_t) :: adgen_tape_peak_bytes
    end function adgen_tape_peak_bytes
    function adgen_tape_traffic_bytes() bind(C, name='adgen_tape_traffic_bytes')
      import :: c_size_t
      integer(c_size_t) :: adgen_tape_traffic_bytes
    end function adgen_tape_traffic_bytes
  end interface
  integer :: n, nsteps, samples, i, mode
  character(len=32) :: arg
  real(8), allocatable :: kappa(:), u0(:), u(:), kappad(:), ud(:), kappab(:), ub(:)
  real(8) :: cost, costd, costb, t_orig, t_tan, t_adj, checksum
  integer(c_size_t) :: traffic0, traffic1

  n = 100
  nsteps = 1000
  samples = 7
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) nsteps
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg)
    read (arg, *) samples
  end if
  allocate(kappa(n), kappad(n), kappab(n))
  allocate(u0(0:n+1), u(0:n+1), ud(0:n+1), ub(0:n+1))
  do i = 1, n
    kappa(i) = 1.0d0 + 0.4d0 * sin(0.3d0 * i)
    kappad(i) = cos(0.7d0 * i)
  end do
  do i = 0, n + 1
    u0(i) = exp(-20.0d0 * (dble(i) / dble(n + 1) - 0.5d0)**2)
  end do
  checksum = 0.0d0

  if (command_argument_count() >= 4) then
    call get_command_argument(4, arg)
    read (arg, *) mode
    if (mode > 0) call one_call(mode)
    write (*, '(a,es12.4)') 'checksum = ', checksum
    stop
  end if

  t_orig = median_seconds(1)
  t_tan = median_seconds(2)
  t_adj = median_seconds(3)
  traffic0 = adgen_tape_traffic_bytes()
  call one_call(3)
  traffic1 = adgen_tape_traffic_bytes()

  write (*, '(a,i0,a,i0)') 'heat_explicit: n=', n, ' nsteps=', nsteps
  write (*, '(a,es12.4,a)') 'T_original = ', t_orig, ' s'
  write (*, '(a,es12.4,a)') 'T_tangent  = ', t_tan, ' s'
  write (*, '(a,es12.4,a)') 'T_adjoint  = ', t_adj, ' s'
  write (*, '(a,f8.3)') 'R_t = ', t_tan / t_orig
  write (*, '(a,f8.3)') 'R_a = ', t_adj / t_orig
  write (*, '(a,i0)') 'tape_peak_bytes = ', adgen_tape_peak_bytes()
  write (*, '(a,i0)') 'tape_traffic_bytes_per_adjoint = ', traffic1 - traffic0
  write (*, '(a,es12.4)') 'checksum = ', checksum

contains

  ! One call of the measured code; inputs are reset so that every call does the same.
  subroutine one_call(mode)
    integer, intent(in) :: mode
    u = u0
    if (mode == 1) then
      call heat(n, nsteps, kappa, u, cost)
      checksum = checksum + cost
    else if (mode == 2) then
      ud = 0.0d0
      call heat_d(n, nsteps, kappa, kappad, u, ud, cost, costd)
      checksum = checksum + costd
    else
      kappab = 0.0d0
      ub = 0.0d0
      costb = 1.0d0
      call heat_b(n, nsteps, kappa, kappab, u, ub, cost, costb)
      checksum = checksum + kappab(1)
    end if
  end subroutine one_call

  ! Seconds per call: the median over `samples` timings, each of enough repeated calls
  ! to last at least 0.2 s.
  real(8) function median_seconds(mode)
    integer, intent(in) :: mode
    integer(8) :: t0, t1, rate
    integer :: reps, k, s
    real(8) :: times(samples), swap
    call system_clock(count_rate=rate)
    reps = 1
    do
      call system_clock(t0)
      do k = 1, reps
        call one_call(mode)
      end do
      call system_clock(t1)
      if (dble(t1 - t0) / dble(rate) >= 0.2d0 .or. reps >= 2**26) exit
      reps = reps * 2
    end do
    do s = 1, samples
      call system_clock(t0)
      do k = 1, reps
        call one_call(mode)
      end do
      call system_clock(t1)
      times(s) = dble(t1 - t0) / dble(rate) / dble(reps)
    end do
    do s = 2, samples
      do k = s, 2, -1
        if (times(k) < times(k - 1)) then
          swap = times(k)
          times(k) = times(k - 1)
          times(k - 1) = swap
        end if
      end do
    end do
    median_seconds = times((samples + 1) / 2)
  end function median_seconds

end program heat_bench
