//! Subroutines that exchange their POINTER dummies' associations, reached through a
//! generic name spread over several INTERFACE blocks and declaring their kinds as named
//! constants (`pointers::shuffle`).

const TEXT: &str = "\
module exchanges
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  interface exchange
    module procedure exchange_1d
  end interface
  interface exchange
    module procedure exchange_values
  end interface
contains
  subroutine exchange_1d(p, q)
    integer, parameter :: wp = real64
    real(wp), dimension(:), pointer, intent(inout) :: p, q
    real(wp), dimension(:), pointer :: keep
    keep => p
    p => q
    q => keep
  end subroutine exchange_1d
  subroutine exchange_values(a, b)
    real(real64), intent(inout) :: a, b
    real(real64) :: t
    t = a
    a = b
    b = t
  end subroutine exchange_values
end module exchanges

subroutine run(n, a, b, y)
  use, intrinsic :: iso_fortran_env, only: real64
  use exchanges, only: exchange
  implicit none
  integer, intent(in) :: n
  real(real64), target, intent(inout) :: a(n), b(n)
  real(real64), intent(out) :: y
  real(real64), dimension(:), pointer :: u, v
  real(real64) :: s, t
  integer :: k
  u => a
  v => b
  s = 1
  t = 2
  do k = 1, 3
    v = 0.5d0*u
    call exchange(u, v)
    call exchange(s, t)
  end do
  y = sum(u) + s
end subroutine run
";

fn parse(text: &str) -> crate::il::Program {
    let mut map = crate::diag::SourceMap::default();
    crate::parse_sources(&[crate::SourceInput::new("x.f90", text)], &mut map).expect("parses")
}

#[test]
fn a_generic_of_shufflers_is_inlined_for_pointers_and_called_for_values() {
    let program = parse(TEXT);
    let unit = program.unit("run").expect("unit");
    assert!(unit.deferred.is_empty(), "{:?}", unit.deferred);
    // The pointers' exchange is written into `run`; the values' is a call.
    assert_eq!(crate::il::visit::called_names(unit), ["exchange_values"]);
    let out = crate::back::fortran::write_unit(unit);
    assert!(
        out.contains("! call exchange(u, v): its pointer associations, inlined"),
        "{out}"
    );
}

#[test]
fn a_call_the_shufflers_of_the_generic_may_not_be_for_keeps_its_call() {
    // Rank 2: no shuffler of that rank; the call stays and is resolved by type (no
    // specific takes it: E0429, for the roots that reach `run`).
    let text = TEXT
        .replace(
            "real(real64), dimension(:), pointer :: u, v",
            "real(real64), pointer :: u(:, :), v(:, :)",
        )
        .replace("a(n), b(n)", "a(n, 2), b(n, 2)");
    let program = parse(&text);
    let unit = program.unit("run").expect("unit");
    let codes: Vec<&str> = unit.deferred.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"E0429"), "{:?}", unit.deferred);
    assert!(crate::il::visit::called_names(unit).contains(&"exchange".to_string()));
    // Rank 1, but another specific of the generic takes rank-1 arrays (and would
    // exchange their values): which one runs is the compiler's choice by type, not
    // adgen's to guess here.
    let text = TEXT
        .replace(
            "    module procedure exchange_values\n",
            "    module procedure exchange_values, exchange_arrays\n",
        )
        .replace(
            "end module exchanges",
            "  subroutine exchange_arrays(a, b)\n    real(8), intent(inout) :: a(:), b(:)\n    a = b\n  end subroutine exchange_arrays\nend module exchanges",
        );
    let program = parse(&text);
    let unit = program.unit("run").expect("unit");
    assert!(crate::il::visit::called_names(unit).contains(&"exchange".to_string()));
}

#[test]
fn a_generic_extended_by_several_interface_blocks_has_all_their_specifics() {
    let text = "\
module mags
  implicit none
  interface mag
    module procedure mag_r
  end interface mag
  interface mag
    module procedure mag_v
  end interface mag
contains
  real(8) function mag_r(x)
    real(8), intent(in) :: x
    mag_r = abs(x)
  end function mag_r
  real(8) function mag_v(x)
    real(8), intent(in) :: x(:)
    mag_v = sum(abs(x))
  end function mag_v
  subroutine use_it(x, v, y)
    real(8), intent(in) :: x, v(3)
    real(8), intent(out) :: y
    y = mag(x) + mag(v)
  end subroutine use_it
end module mags
";
    let program = parse(text);
    let unit = program.unit("use_it").expect("unit");
    assert!(unit.deferred.is_empty(), "{:?}", unit.deferred);
    assert_eq!(crate::il::visit::called_names(unit), ["mag_r", "mag_v"]);
}
