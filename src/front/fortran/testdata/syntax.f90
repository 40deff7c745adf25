! expect E0202 at 5:11
! expect E0202 at 6:11
subroutine s(a)
  real a
  a = (a +
  a = a * * 2
  a = 1
end
