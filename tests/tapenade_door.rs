//! Tapenade's front door (issue 15): a Makefile written for Tapenade's output builds with
//! only the command changed. Real `make` runs adgen with Tapenade's options, gfortran
//! `-Wall` compiles the derivative files under the names Tapenade gives them (one per
//! source in `-O DIR`, or one per mode with `-o NAME`) and the modules and procedures the
//! naming options ask for, and the driver checks the adjoint against central differences.

use std::path::Path;
use std::process::Command;

const PHYSICS: &str = "module physics
  implicit none
  real(8), parameter :: g = 9.81d0
  real(8) :: drag = 0.3d0
contains
  function force(v) result(f)
    real(8), intent(in) :: v
    real(8) :: f
    f = -g - drag*v*abs(v)
  end function force
end module physics
";

const MODEL: &str = "module model_m
  use physics
  implicit none
contains
  subroutine model(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(3)
    real(8), intent(out) :: y(2)
    real(8) :: v, h, dt
    integer :: i
    v = x(1)
    h = x(2)
    dt = x(3)/n
    do i = 1, n
      v = v + dt*force(v)
      h = h + dt*v
    end do
    y(1) = h
    y(2) = v*v
  end subroutine model
end module model_m
";

/// A driver written against the derivative's module and procedure names.
fn driver(module: &str, procedure: &str) -> String {
    format!(
        "program driver
  use model_m
  use {module}
  implicit none
  integer, parameter :: n = 50
  real(8) :: x(3), xb(3), y(2), yb(2), v(3), yp(2), ym(2), h, fd, ad
  x = [2.0d0, 10.0d0, 1.5d0]
  v = [0.3d0, -0.7d0, 0.2d0]
  yb = [1.0d0, 0.5d0]
  xb = 0
  call {procedure}(n, x, xb, y, yb)
  h = 1d-6
  call model(n, x + h*v, yp)
  call model(n, x - h*v, ym)
  fd = dot_product([1.0d0, 0.5d0], (yp - ym)/(2*h))
  ad = dot_product(xb, v)
  print '(a, es24.16, a, es24.16)', 'fd ', fd, ' ad ', ad
  if (abs(fd - ad) > 1d-7*abs(fd)) stop 1
end program driver
"
    )
}

/// The Makefile of a Tapenade user, its tapenade command replaced by adgen's: the
/// derivative files are named as Tapenade names them, and the runtime files replace
/// Tapenade's ADFirstAidKit (adStack.c, adBuffer.f).
const MAKEFILE: &str = "FC = gfortran
FFLAGS = -Wall -Werror=implicit-interface
SRC = src/physics.f90 src/model.f90
RUNTIME = adgen_runtime.f90 adgen_runtime.c

tap/physics_back.f90 tap/model_back.f90: $(SRC)
\t$(ADGEN) -b -head \"model(y)/(x)\" -adjmodulename %_diff -adjfuncname %_back -O tap $(SRC)

driver: tap/physics_back.f90 tap/model_back.f90 driver.f90
\t$(FC) $(FFLAGS) -Jbuild -o $@ $(SRC) $(addprefix tap/,$(RUNTIME)) tap/physics_back.f90 tap/model_back.f90 driver.f90

one/all_b.f90: $(SRC)
\t$(ADGEN) -reverse -head \"model(y)/(x)\" -o all -O one $(SRC)

driver_one: one/all_b.f90 driver_one.f90
\t$(FC) $(FFLAGS) -Jbuild_one -o $@ $(SRC) $(addprefix one/,$(RUNTIME)) one/all_b.f90 driver_one.f90
";

fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "{program} {args:?} failed:\n{text}"
    );
    text
}

#[test]
fn a_tapenade_makefile_builds_with_only_the_command_changed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(root.join("build")).unwrap();
    std::fs::create_dir_all(root.join("build_one")).unwrap();
    std::fs::write(root.join("src/physics.f90"), PHYSICS).unwrap();
    std::fs::write(root.join("src/model.f90"), MODEL).unwrap();
    std::fs::write(root.join("Makefile"), MAKEFILE).unwrap();
    std::fs::write(
        root.join("driver.f90"),
        driver("model_m_diff", "model_back"),
    )
    .unwrap();
    std::fs::write(root.join("driver_one.f90"), driver("model_m_b", "model_b")).unwrap();
    let adgen = format!("ADGEN={}", env!("CARGO_BIN_EXE_adgen"));

    // One file per source in -O, named and moduled as the options say.
    let made = run(root, "make", &[&adgen, "driver"]);
    assert!(
        made.contains("compile adgen_runtime.c adgen_runtime.f90 physics_back.f90 model_back.f90"),
        "the files to compile are printed:\n{made}"
    );
    let out = run(root, "./driver", &[]);
    assert!(out.starts_with("fd "), "{out}");
    let list = std::fs::read_to_string(root.join("tap/adgen-outputs.txt")).unwrap();
    assert_eq!(
        list,
        "adgen_runtime.c\nadgen_runtime.f90\nphysics_back.f90\nmodel_back.f90\n"
    );

    // -o: one file per mode, modules first.
    run(root, "make", &[&adgen, "driver_one"]);
    run(root, "./driver_one", &[]);
    let one = std::fs::read_to_string(root.join("one/all_b.f90")).unwrap();
    let physics = one.find("module physics_b").unwrap();
    let model = one.find("module model_m_b").unwrap();
    assert!(physics < model, "{one}");
    assert!(
        one.starts_with("! @generated by adgen from src/physics.f90, src/model.f90."),
        "{one}"
    );
    let entries: Vec<_> = std::fs::read_dir(root.join("one"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(entries.len(), 5, "{entries:?}");
}
