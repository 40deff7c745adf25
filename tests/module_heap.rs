//! Module arrays allocated and freed by the differentiated code (issue 13: real code,
//! the init / step / finalize layout), at the roots' boundary, where the corpus driver
//! cannot reach: a root that allocates the module's state and leaves it allocated, with
//! that state as a dependent, and a root that frees the state it takes as an independent.
//! What the derivatives promise there (`diff::heap`): the tangent allocates the
//! derivative with the array and frees it with it; the adjoint's backward sweep takes a
//! dependent's weights from the adjoint buffer the caller allocated with the array's
//! final bounds (zero when the caller allocated none), and leaves the array and its
//! adjoint as they were before the root: freed when the root allocated them, allocated,
//! holding the gradient, when the root freed an independent.

use adgen::validate::toolchain;

#[allow(dead_code)]
#[path = "support/hand_driver.rs"]
mod hand_driver;

const MODEL: &str = "\
! Shallow layer heights in a module, set up from an initial profile, stepped, and
! released after a last diagnostic.
module layer
  implicit none
  integer :: ncell
  real(8), allocatable :: h(:)
contains
  subroutine layer_init(m, h0)
    integer, intent(in) :: m
    real(8), intent(in) :: h0(m)
    ncell = m
    if (.not. allocated(h)) allocate(h(ncell))
    h = h0
  end subroutine layer_init

  subroutine layer_step(k)
    real(8), intent(in) :: k
    real(8) :: hn(ncell)
    integer :: i
    hn = h
    do i = 2, ncell - 1
      h(i) = hn(i) + k*(hn(i - 1) - 2*hn(i) + hn(i + 1))*hn(i)
    end do
  end subroutine layer_step

  subroutine spin_up(m, nsteps, h0, k)
    integer, intent(in) :: m, nsteps
    real(8), intent(in) :: h0(m), k
    integer :: it
    call layer_init(m, h0)
    do it = 1, nsteps
      call layer_step(k)
    end do
  end subroutine spin_up

  subroutine spin_mass(m, nsteps, h0, k, mass)
    integer, intent(in) :: m, nsteps
    real(8), intent(in) :: h0(m), k
    real(8), intent(out) :: mass
    call spin_up(m, nsteps, h0, k)
    mass = sum(h**2)
  end subroutine spin_mass

  subroutine wind_down(nsteps, k, cost)
    integer, intent(in) :: nsteps
    real(8), intent(in) :: k
    real(8), intent(out) :: cost
    integer :: it
    do it = 1, nsteps
      call layer_step(k)
    end do
    cost = sum(h**3)
    deallocate(h)
  end subroutine wind_down
end module layer
";

const DRIVER: &str = "\
program driver
  use layer
  use layer_d, only: hd, spin_up_d, spin_mass_d, wind_down_d
  use layer_b, only: hb, spin_up_b, spin_mass_b, wind_down_b
  implicit none
  integer, parameter :: m = 12, ns = 4
  real(8) :: h0(m), dh(m), w(m), h0d(m), h0b(m), hp(m), hm(m)
  real(8) :: k, kd, kb, eps, c, cd, cb, cp, cm
  integer :: i
  do i = 1, m
    h0(i) = 1 + 0.2d0*sin(0.7d0*i)
    dh(i) = cos(1.3d0*i)
    w(i) = sin(2.1d0*i + 1)
  end do
  k = 0.05d0
  kd = 0.7d0
  eps = 1d-6
  ! spin_up: h0, k -> h (allocated by the root, left allocated).
  call spin_up(m, ns, h0 + eps*dh, k + eps*kd)
  hp = h
  deallocate(h)
  call spin_up(m, ns, h0 - eps*dh, k - eps*kd)
  hm = h
  deallocate(h)
  h0d = dh
  call spin_up_d(m, ns, h0, h0d, k, kd)
  if (.not. allocated(hd)) stop 'spin_up_d left no hd'
  print '(a,2es24.16)', 'spin_up', sum(w*hd), sum(w*(hp - hm))/(2*eps)
  cd = sum(w*hd)
  deallocate(h, hd)
  allocate(hb(m))
  hb = w
  h0b = 0
  kb = 0
  call spin_up_b(m, ns, h0, h0b, k, kb)
  if (allocated(h) .or. allocated(hb)) stop 'spin_up_b left the state allocated'
  print '(a,2es24.16)', 'dot_spin_up', sum(h0b*dh) + kb*kd, cd
  ! spin_mass: h0, k -> mass (h allocated by the root, not a dependent: its adjoint
  ! buffer is the root's to make).
  call spin_mass(m, ns, h0 + eps*dh, k + eps*kd, cp)
  deallocate(h)
  call spin_mass(m, ns, h0 - eps*dh, k - eps*kd, cm)
  deallocate(h)
  call spin_mass_d(m, ns, h0, h0d, k, kd, c, cd)
  deallocate(h, hd)
  print '(a,2es24.16)', 'spin_mass', cd, (cp - cm)/(2*eps)
  h0b = 0
  kb = 0
  cb = 0.3d0
  call spin_mass_b(m, ns, h0, h0b, k, kb, c, cb)
  if (allocated(h) .or. allocated(hb)) stop 'spin_mass_b left the state allocated'
  print '(a,2es24.16)', 'dot_spin_mass', sum(h0b*dh) + kb*kd, 0.3d0*cd
  ! wind_down: h, k -> cost (frees h).
  allocate(h(m))
  h = h0 + eps*dh
  call wind_down(ns, k + eps*kd, cp)
  allocate(h(m))
  h = h0 - eps*dh
  call wind_down(ns, k - eps*kd, cm)
  allocate(h(m), hd(m))
  h = h0
  hd = dh
  call wind_down_d(ns, k, kd, c, cd)
  if (allocated(h) .or. allocated(hd)) stop 'wind_down_d left the state allocated'
  print '(a,2es24.16)', 'wind_down', cd, (cp - cm)/(2*eps)
  allocate(h(m))
  h = h0
  cb = 0.3d0
  kb = 0
  call wind_down_b(ns, k, kb, c, cb)
  if (.not. allocated(hb)) stop 'wind_down_b gave no gradient'
  print '(a,2es24.16)', 'dot_wind_down', sum(hb*dh) + kb*kd, 0.3d0*cd
end program driver
";

#[test]
fn module_state_allocated_or_freed_by_a_root() {
    let mut request = hand_driver::request("spin_up", &["h0", "k"], &["h"]);
    let mut second = hand_driver::request("wind_down", &["h", "k"], &["cost"]);
    let mut third = hand_driver::request("spin_mass", &["h0", "k"], &["mass"]);
    request.roots.append(&mut second.roots);
    request.roots.append(&mut third.roots);
    hand_driver::check(MODEL, DRIVER, &request, 6);
}
