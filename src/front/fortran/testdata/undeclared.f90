! expect E0301 at 6:7
! expect E0302 at 7:7
subroutine s(a)
  implicit none
  real a
  a = b + b
  a = g(a)
end subroutine
