! expect ok
double precision function f(x, n) result(acc)
  integer, intent(in) :: n
  double precision, intent(in) :: x(n)
  integer :: i, j
  acc = 0
  scan: do i = 1, n
    if (x(i) < 0) cycle scan
    if (x(i) > 1d3) then
      exit scan
    else if (x(i) == 0) then
      continue
    else
      do j = i, 1, -1
        acc = acc + x(j)*x(i)
      end do
    end if
  end do scan
  do while (acc > 1d0)
    acc = acc / 2
  end do
end function f
