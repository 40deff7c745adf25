! expect E0401 at 6:3
subroutine s(a, k)
  real a
  integer k
  ! the whole construct is one report
  select case (k)
  case (1)
    a = 1
  case default
    a = 2
  end select
end
