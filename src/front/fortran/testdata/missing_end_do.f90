! expect E0205 at 5:3
subroutine s(a, n)
  real a
  integer n, i
  do i = 1, n
    a = a + 1
end subroutine s
