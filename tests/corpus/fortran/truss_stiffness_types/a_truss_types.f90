! A plane truss of four nodes and five bars: nodes 1 and 2 are pinned, nodes 3
! and 4 carry the load. Features: integer PARAMETER arrays (connectivity), a bar
! type with array and integer components, a structure type with a 2-D stiffness
! component, a read-only module table initialized in its declaration.
module truss_types
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nnode = 4, nbar = 5, ndof = 2 * nnode, nfree = 4
  integer, parameter :: end_a(nbar) = (/ 1, 2, 1, 3, 2 /)
  integer, parameter :: end_b(nbar) = (/ 3, 4, 4, 4, 3 /)
  ! Free degrees of freedom, in the order of the reduced system.
  integer :: free_dofs(nfree) = (/ 5, 6, 7, 8 /)

  type :: bar
    real(dp) :: young, area
    real(dp) :: xa(2), xb(2)
    integer :: dofs(4)
  end type bar

  type :: structure
    real(dp) :: k(ndof, ndof)
    real(dp) :: load(ndof)
    real(dp) :: disp(ndof)
  end type structure
end module truss_types
