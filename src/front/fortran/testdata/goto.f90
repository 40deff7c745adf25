! expect E0401 at 6:3
subroutine s(a)
  real a
  a = 1
  goto 10
  pause
10 continue
end
