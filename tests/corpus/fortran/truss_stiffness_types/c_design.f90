! Compliance of the truss as a function of the bar areas, the node heights and the
! load: what a sizing optimization differentiates.
! Features: a root in a module, a type(bar) local refilled for every element from
! PARAMETER connectivity, a nested loop over elements calling module procedures.
module truss_design
  use truss_types
  use truss_fem, only: assemble, solve_free, compliance
  implicit none
contains
  subroutine truss_compliance(areas, heights, load, young, comp, tip)
    real(dp), intent(in) :: areas(5), heights(2), load(2), young
    real(dp), intent(out) :: comp, tip
    type(bar) :: b
    type(structure) :: st
    real(dp) :: xy(2, nnode)
    integer :: e, na, nb
    xy(1, 1) = 0.0_dp
    xy(2, 1) = 0.0_dp
    xy(1, 2) = 0.0_dp
    xy(2, 2) = 1.0_dp
    xy(1, 3) = 1.5_dp
    xy(2, 3) = heights(1)
    xy(1, 4) = 1.6_dp
    xy(2, 4) = 1.0_dp + heights(2)
    st%k = 0.0_dp
    st%load = 0.0_dp
    st%load(5) = 0.3_dp * load(1)
    st%load(6) = -load(1)
    st%load(8) = -load(2)
    do e = 1, nbar
      na = end_a(e)
      nb = end_b(e)
      b%young = young
      b%area = areas(e)
      b%xa(1) = xy(1, na)
      b%xa(2) = xy(2, na)
      b%xb(1) = xy(1, nb)
      b%xb(2) = xy(2, nb)
      b%dofs(1) = 2 * na - 1
      b%dofs(2) = 2 * na
      b%dofs(3) = 2 * nb - 1
      b%dofs(4) = 2 * nb
      call assemble(b, st)
    end do
    call solve_free(st)
    comp = compliance(st)
    tip = st%disp(8)
  end subroutine truss_compliance
end module truss_design
