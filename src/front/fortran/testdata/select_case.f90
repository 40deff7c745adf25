! expect ok
subroutine s(a, k)
  real a
  integer k
  ! an integer selector with a value and DEFAULT
  select case (k)
  case (1)
    a = 1
  case default
    a = 2
  end select
end
