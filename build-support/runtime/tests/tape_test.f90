! Exercises every routine of the adgen_runtime module: LIFO order across all types,
! look, statistics, growth. Prints one line per check; tests/runtime.rs compares them.
program tape_test
  use adgen_runtime
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_associated
  implicit none
  real(8) :: x, s8
  real(8), target :: xs(5)
  type(c_ptr) :: address, restored
  real(4) :: s, ss(3)
  integer :: i, k, ks(4), n_wrong
  integer(8) :: big, bigs(2)
  logical :: l, flags(3)
  character(len=6) :: task, names(2)

  call adgen_reset_stats()
  call pushreal8(1.5d0)
  call pushreal4(2.5)
  call pushinteger4(-7)
  big = 2_8**40
  call pushinteger8(big)
  call pushboolean(.true.)
  call pushboolean(.false.)
  call pushcontrol(3)
  call pushcontrol(255)
  xs = [(dble(i)/4, i = 1, 5)]
  call pushreal8array(xs, 5)
  ss = [-1.0, 0.0, 1.0]
  call pushreal4array(ss, 3)
  ks = [10, 20, 30, 40]
  call pushinteger4array(ks, 4)
  print '(a, i0)', 'size after pushes: ', adgen_size_bytes()

  call lookinteger4(k)
  print '(a, i0, a, i0)', 'look integer4 (array top): ', k, ', size ', adgen_size_bytes()
  ks = 0
  call popinteger4array(ks, 4)
  print '(a, 4(1x, i0))', 'integer4 array:', ks
  ss = 9.0
  call popreal4array(ss, 3)
  print '(a, 3(1x, f4.1))', 'real4 array:', ss
  xs = 0.0d0
  call popreal8array(xs, 5)
  print '(a, 5(1x, f5.2))', 'real8 array:', xs
  call lookcontrol(k)
  print '(a, i0)', 'look control: ', k
  call popcontrol(k)
  print '(a, i0)', 'control: ', k
  call popcontrol(k)
  print '(a, i0)', 'control: ', k
  call lookboolean(l)
  print '(a, l1)', 'look boolean: ', l
  call popboolean(l)
  print '(a, l1)', 'boolean: ', l
  call popboolean(l)
  print '(a, l1)', 'boolean: ', l
  big = 0
  call lookinteger8(big)
  call popinteger8(big)
  print '(a, i0)', 'integer8: ', big
  call popinteger4(k)
  print '(a, i0)', 'integer4: ', k
  call lookreal4(s)
  call popreal4(s)
  print '(a, f4.1)', 'real4: ', s
  call lookreal8(x)
  print '(a, f4.2)', 'look real8: ', x
  call popreal8(x)
  print '(a, f4.2)', 'real8: ', x
  print '(a, i0, a, i0, a, i0)', 'size ', adgen_size_bytes(), ', peak ', adgen_peak_bytes(), &
      ', traffic ', adgen_traffic_bytes()

  ! Pointers: an address comes back unchanged.
  address = c_loc(xs(2))
  call pushpointer(address)
  call lookpointer(restored)
  call poppointer(restored)
  print '(a, l1, a, i0)', 'pointer: ', c_associated(address, restored), ', size ', &
      adgen_size_bytes()

  ! Characters (a scalar, a substring, an array) and 8-byte integer arrays; array looks.
  task = 'FG_LN'
  names = ['alpha ', 'beta  ']
  bigs = [2_8**33, -5_8]
  call pushcharacter(task)
  call pushcharacter(task(1:2))
  call pushcharacterarray(names, 2)
  call pushinteger8array(bigs, 2)
  call pushreal8array(xs, 5)
  xs = 0.0d0
  call lookreal8array(xs, 5)
  call popreal8array(xs, 5)
  bigs = 0
  call lookinteger8array(bigs, 2)
  call popinteger8array(bigs, 2)
  names = 'x'
  call lookcharacterarray(names, 2)
  names = 'y'
  call popcharacterarray(names, 2)
  task = 'NEW_X'
  call lookcharacter(task(5:6))
  call popcharacter(task(3:4))
  call popcharacter(task)
  print '(a, a, 1x, a, a, a, 2(1x, i0), 1x, f4.2, a, i0)', 'characters: ', task, &
      names(1), '|', names(2), bigs, xs(5), ', size ', adgen_size_bytes()

  ! Logical arrays (L-BFGS-B's lsave).
  flags = [.true., .false., .true.]
  call pushbooleanarray(flags, 3)
  flags = .false.
  call lookbooleanarray(flags, 3)
  flags(1) = .false.
  call popbooleanarray(flags, 3)
  print '(a, 3l1, a, i0)', 'boolean array: ', flags, ', size ', adgen_size_bytes()

  ! Repeated access: the same two values popped three times, then for good.
  call pushreal8(7.0d0)
  call pushreal8(8.0d0)
  call pushcontrol(1)
  call startrepeat()
  do i = 1, 3
    call popcontrol(k)
    call popreal8(x)
    call popreal8(s8)
    print '(a, i0, a, 2(1x, f3.1), a, i0)', 'repeat ', i, ':', x, s8, ', size ', &
        adgen_size_bytes()
    call resetrepeat()
  end do
  call endrepeat()
  call popcontrol(k)
  call popreal8(x)
  call popreal8(s8)
  print '(a, i0, 2(1x, f3.1), a, i0)', 'after repeat: ', k, x, s8, ', size ', adgen_size_bytes()

  ! Growth far beyond the first buffer: 10^6 values, popped back in reverse.
  call adgen_reset_stats()
  do i = 1, 1000000
    call pushreal8(dble(i))
    if (mod(i, 1000) == 0) call pushcontrol(mod(i/1000, 256))
  end do
  n_wrong = 0
  do i = 1000000, 1, -1
    if (mod(i, 1000) == 0) then
      call popcontrol(k)
      if (k /= mod(i/1000, 256)) n_wrong = n_wrong + 1
    end if
    call popreal8(x)
    if (nint(x) /= i) n_wrong = n_wrong + 1
  end do
  print '(a, i0, a, i0, a, i0)', 'growth: wrong ', n_wrong, ', peak ', adgen_peak_bytes(), &
      ', size ', adgen_size_bytes()
  call adgen_release_tape()
end program tape_test
