//! A module's POINTER variables that procedures associate with `=>` among the module's
//! TARGET variables (time levels exchanged without copying): the derivatives follow
//! the association the original program makes, and print it as the pointer itself.
//! The corpus program `module_pointer_levels` checks the derivatives' values; these
//! tests check what is written and what is refused.

use std::collections::BTreeSet;

#[allow(dead_code)]
#[path = "support/hand_driver.rs"]
mod hand_driver;
use adgen::validate::toolchain;

use hand_driver::request;

const LEVELS: &str = "module levels
  implicit none
  real(8), target :: a(4), b(4)
  real(8), pointer :: now(:) => null(), next(:) => null()
contains
  subroutine start()
    now => a
    next => b
  end subroutine start
  subroutine swap()
    real(8), pointer :: t(:)
    t => now
    now => next
    next => t
  end subroutine swap
end module levels

subroutine advance(c, e)
  use levels, only: now, next
  implicit none
  real(8), intent(in) :: c
  real(8), intent(out) :: e
  integer :: i
  call start()
  now = c
  do i = 1, 3
    call double()
    call swap()
  end do
  e = sum(now)
end subroutine advance

subroutine double()
  use levels, only: now, next
  implicit none
  next = 2*now
end subroutine double
";

fn generate(source: &str, modes: &[adgen::Mode]) -> Result<String, String> {
    let input = adgen::SourceInput::new("w.f90", source);
    let mut req = request("advance", &["c"], &["e"]);
    req.roots[0].modes = modes.iter().copied().collect::<BTreeSet<_>>();
    match adgen::differentiate(&[input], &req) {
        Ok(out) => Ok(out
            .files
            .iter()
            .filter(|f| f.path.starts_with("w_"))
            .map(|f| f.contents.clone())
            .collect::<Vec<_>>()
            .join("\n")),
        Err(e) => Err(e.rendered),
    }
}

/// The derivative code reads and sets the user's pointers, as the original does: no
/// integer stands for them in what is printed (but the value the adjoint pops, which
/// it then associates the pointer by), and the ONLY list names the pointers.
#[test]
fn the_derivatives_print_the_pointers_themselves() {
    let text = generate(LEVELS, &[adgen::Mode::Tangent, adgen::Mode::Adjoint]).unwrap();
    for set_or_read in ["_target =", "_target <", "(now_target)\n      now =>"] {
        assert!(!text.contains(set_or_read), "{set_or_read}: {text}");
    }
    assert!(
        text.contains("call popinteger4(now_target)\n    select case (now_target)"),
        "{text}"
    );
    assert!(text.contains("associated(now, a)"), "{text}");
    assert!(text.contains("use levels, only: now, a, b, next"), "{text}");
    // The adjoint saves which array `now` was before `swap` changes it, and puts the
    // association back for the backward sweep.
    assert!(
        text.contains(
            "call pushinteger4(merge(1, merge(2, 0, associated(now, b)), associated(now, a)))"
        ),
        "{text}"
    );
    assert!(text.contains("    case (2)\n      now => b\n"), "{text}");
    assert!(text.contains("      nullify(now)\n"), "{text}");
}

/// An association with anything but the module's TARGET arrays of the pointer's type
/// and rank, anywhere in the sources, is refused where it is written, for every root
/// that uses the pointer (once), and not for the others.
#[test]
fn other_associations_refuse_the_pointer_wherever_it_is_used() {
    let text = LEVELS.replace(
        "end module levels",
        "  subroutine halves()\n    now => a(1:2)\n  end subroutine halves\nend module levels",
    );
    let e = generate(&text, &[adgen::Mode::Tangent]).unwrap_err();
    assert!(
        e.contains("w.f90:17:5: error[E0401]: adgen follows the module's pointer `now` among its module's TARGET variables of its type and rank (`a`, `b`), and here it is associated with something else"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // ALLOCATE gives it memory no selector stands for.
    let text = LEVELS.replace("    now => a\n", "    allocate(now(4))\n");
    let e = generate(&text, &[adgen::Mode::Tangent]).unwrap_err();
    assert!(
        e.contains("w.f90:7:5: error[E0401]: adgen follows the module's pointer `now`")
            && e.contains("here it is given or freed memory of its own (ALLOCATE, DEALLOCATE)"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
    // A root that does not use the pointer is not refused.
    let text = LEVELS.replace("    now => a\n", "    allocate(now(4))\n")
        + "subroutine plain(c, e)\n  real(8), intent(in) :: c\n  real(8), intent(out) :: e\n  e = 2*c\nend subroutine plain\n";
    let input = adgen::SourceInput::new("w.f90", &text);
    adgen::differentiate(&[input], &request("plain", &["c"], &["e"])).expect("accepted");
}

/// A statement whose pointers may have too many combinations of targets is refused
/// once, saying which pointers.
#[test]
fn too_many_combinations_are_refused() {
    let text = "module lv
  implicit none
  real(8), target :: a(4), b(4), c(4)
  real(8), pointer :: p(:), q(:)
end module lv

subroutine mix(x, y)
  use lv
  implicit none
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  p => a
  q => b
  call nothing()
  y = x*sum(p*q)
end subroutine mix

subroutine nothing()
end subroutine nothing
";
    let input = adgen::SourceInput::new("w.f90", text);
    let e = adgen::differentiate(&[input], &request("mix", &["x"], &["y"]))
        .expect_err("refused")
        .rendered;
    assert!(
        e.contains("w.f90:15:3: error[E0401]: the targets of the pointers `p`, `q` depend on the path, and this statement would be written 9 times"),
        "{e}"
    );
    assert_eq!(e.matches("error[").count(), 1, "{e}");
}
