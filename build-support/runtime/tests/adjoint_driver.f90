! Calls the hand-built adjoint `prodabs_b` (written by adgen's Fortran back-end in
! tests/runtime.rs) and prints the gradient of prod(abs(x)) and the tape statistics.
program adjoint_driver
  use adgen_runtime
  implicit none
  real(8) :: x(4), xb(4)
  x = [1.5d0, 2.0d0, -0.5d0, 3.0d0]
  call adgen_reset_stats()
  call prodabs_b(4, x, xb, 1.0d0)
  print '(a, 4(1x, f6.2))', 'gradient:', xb
  print '(a, i0, a, i0, a, i0)', 'size ', adgen_size_bytes(), ', peak ', adgen_peak_bytes(), &
      ', traffic ', adgen_traffic_bytes()
end program adjoint_driver
