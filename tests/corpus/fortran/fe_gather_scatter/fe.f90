! 1-D finite elements with vector subscripts: each element gathers its nodal values
! through its connectivity row, computes a local residual, and scatters it back.
module fe_mesh
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  ! Local residual of a two-node element: a nonlinear spring between the nodes.
  subroutine element_residual(ue, k, re)
    real(dp), intent(in) :: ue(2), k
    real(dp), intent(out) :: re(2)
    real(dp) :: s
    s = k*(ue(2) - ue(1)) + 0.1_dp*(ue(2) - ue(1))**3
    re = [-s, s]
  end subroutine element_residual

  subroutine assemble(nn, ne, conn, perm, u, k, r, energy)
    integer, intent(in) :: nn, ne, conn(2, ne), perm(nn)
    real(dp), intent(in) :: u(nn), k(ne)
    real(dp), intent(out) :: r(nn), energy
    real(dp) :: re(2), up(nn)
    integer :: e
    r = 0
    do e = 1, ne
      ! Gathered actual argument (a temporary), then a scatter-add.
      call element_residual(u(conn(:, e)), k(e), re)
      r(conn(:, e)) = r(conn(:, e)) + re
    end do
    ! A permuted copy, read back through the inverse order.
    up = u(perm)
    energy = 0.5_dp*dot_product(r, u) + sum(up(nn:1:-1)*u(perm(nn:1:-1)))
    r(perm) = r(perm) + 0.01_dp*up**2
  end subroutine assemble
end module fe_mesh
