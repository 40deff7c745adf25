! Element stiffness, assembly, and the solution of the reduced system.
! Features: a function of a derived type (bar length), a subroutine filling a
! local 4x4 element matrix, scatter by an integer array component (s%k(b%dofs(i),
! b%dofs(j))), Gaussian elimination on a local copy, INTENT(OUT)/(INOUT) types,
! a passive counter.
module truss_fem
  use truss_types
  implicit none
  integer :: elements_assembled = 0

contains

  function bar_length(b) result(l)
    type(bar), intent(in) :: b
    real(dp) :: l
    l = sqrt((b%xb(1) - b%xa(1))**2 + (b%xb(2) - b%xa(2))**2)
  end function bar_length

  subroutine bar_stiffness(b, ke)
    type(bar), intent(in) :: b
    real(dp), intent(out) :: ke(4, 4)
    real(dp) :: l, c, s, t(4), ea_l
    integer :: i, j
    l = bar_length(b)
    c = (b%xb(1) - b%xa(1)) / l
    s = (b%xb(2) - b%xa(2)) / l
    t(1) = -c
    t(2) = -s
    t(3) = c
    t(4) = s
    ea_l = b%young * b%area / l
    do j = 1, 4
      do i = 1, 4
        ke(i, j) = ea_l * t(i) * t(j)
      end do
    end do
  end subroutine bar_stiffness

  subroutine assemble(b, st)
    type(bar), intent(in) :: b
    type(structure), intent(inout) :: st
    real(dp) :: ke(4, 4)
    integer :: i, j
    call bar_stiffness(b, ke)
    do j = 1, 4
      do i = 1, 4
        st%k(b%dofs(i), b%dofs(j)) = st%k(b%dofs(i), b%dofs(j)) + ke(i, j)
      end do
    end do
    elements_assembled = elements_assembled + 1
  end subroutine assemble

  ! Solve K_ff u_f = f_f by elimination without pivoting (K_ff is SPD).
  subroutine solve_free(st)
    type(structure), intent(inout) :: st
    real(dp) :: a(nfree, nfree), rhs(nfree), m
    integer :: i, j, p
    do j = 1, nfree
      do i = 1, nfree
        a(i, j) = st%k(free_dofs(i), free_dofs(j))
      end do
      rhs(j) = st%load(free_dofs(j))
    end do
    do p = 1, nfree - 1
      do i = p + 1, nfree
        m = a(i, p) / a(p, p)
        do j = p + 1, nfree
          a(i, j) = a(i, j) - m * a(p, j)
        end do
        rhs(i) = rhs(i) - m * rhs(p)
      end do
    end do
    do i = nfree, 1, -1
      do j = i + 1, nfree
        rhs(i) = rhs(i) - a(i, j) * rhs(j)
      end do
      rhs(i) = rhs(i) / a(i, i)
    end do
    st%disp = 0.0_dp
    do i = 1, nfree
      st%disp(free_dofs(i)) = rhs(i)
    end do
  end subroutine solve_free

  function compliance(st) result(c)
    type(structure), intent(in) :: st
    real(dp) :: c
    c = dot_product(st%load, st%disp)
  end function compliance
end module truss_fem
