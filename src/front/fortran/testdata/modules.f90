module m
  implicit none
contains
  subroutine inner(x)
    real x
    x = 1
  end subroutine
end module m
subroutine outer(y)
  interface
    subroutine ext(z)
    end subroutine
  end interface
  contains
end subroutine outer
