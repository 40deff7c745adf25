//! The effect of the optimizations (issue 4): for every corpus program, the static count
//! of saves (`call push...`) and of executable statements in the generated derivatives,
//! with every optimization on and with all of them off. Optimizations must never add
//! work; the table is printed with `cargo test --test optimizations -- --nocapture`.

use std::path::Path;

const ALL_OFF: [&str; 5] = [
    "activity",
    "diff-liveness",
    "tbr",
    "snapshot",
    "implicit-zero",
];

struct Counts {
    pushes: usize,
    statements: usize,
}

fn counts(dir: &Path, disable: &[&str]) -> Counts {
    let mut loaded = adgen::manifest::load(&dir.join("ad.toml")).expect("corpus manifest loads");
    loaded.request.disabled = disable.iter().map(|s| s.to_string()).collect();
    let out =
        adgen::differentiate(&loaded.sources, &loaded.request).expect("corpus differentiates");
    let mut c = Counts {
        pushes: 0,
        statements: 0,
    };
    for f in out
        .files
        .iter()
        .filter(|f| f.path.ends_with("_d.f90") || f.path.ends_with("_b.f90"))
    {
        let mut in_body = false;
        for line in f.contents.lines().map(str::trim) {
            if line.starts_with("subroutine ")
                || line.starts_with("function ")
                || line.contains(" function ")
            {
                in_body = false;
                continue;
            }
            if line.is_empty() {
                in_body = true;
                continue;
            }
            if !in_body || line.starts_with('!') || line.starts_with("end ") {
                continue;
            }
            c.statements += 1;
            if line.starts_with("call push") {
                c.pushes += 1;
            }
        }
    }
    c
}

#[test]
fn optimizations_never_add_work() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fortran");
    let mut dirs: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    println!(
        "{:<22} {:>10} {:>10} {:>12} {:>12}",
        "program", "pushes on", "pushes off", "stmts on", "stmts off"
    );
    let (mut total_on, mut total_off) = (0, 0);
    let mut worse = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let on = counts(dir, &[]);
        let off = counts(dir, &ALL_OFF);
        println!(
            "{name:<22} {:>10} {:>10} {:>12} {:>12}",
            on.pushes, off.pushes, on.statements, off.statements
        );
        total_on += on.pushes;
        total_off += off.pushes;
        if on.pushes > off.pushes || on.statements > off.statements {
            worse.push(name);
        }
    }
    println!("{:<22} {:>10} {:>10}", "total", total_on, total_off);
    assert!(worse.is_empty(), "optimizations added work in: {worse:?}");
    assert!(total_on < total_off, "optimizations saved nothing");
}

/// One array passed to two dummies of a call that overwrites both (`call step(s(i),
/// s(i + n), ...)`, as ADBench's LSTM passes its hidden and cell states): the snapshot
/// before the call saves it once, not once per dummy.
#[test]
fn an_array_passed_to_two_dummies_is_saved_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ad.toml"),
        "sources = [\"m.f90\"]\n[[root]]\nname = \"run\"\nindependents = [\"w\"]\n\
         dependents = [\"y\"]\nmodes = [\"adjoint\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("m.f90"),
        "subroutine step(n, w, h, c)\n  integer, intent(in) :: n\n  real(8), intent(in) :: w\n  \
         real(8), intent(inout) :: h(n), c(n)\n  integer :: i\n  do i = 1, n\n    \
         c(i) = sin(c(i) * w + h(i))\n    h(i) = tanh(c(i))\n  end do\nend subroutine\n\
         subroutine run(n, w, s, y)\n  integer, intent(in) :: n\n  real(8), intent(in) :: w\n  \
         real(8), intent(inout) :: s(4 * n)\n  real(8), intent(out) :: y\n  integer :: k\n  \
         do k = 1, 3\n    call step(n, w, s(1), s(n + 1))\n    \
         call step(n, w, s(2 * n + 1), s(3 * n + 1))\n  end do\n  y = sum(s)\nend subroutine\n",
    )
    .unwrap();
    let loaded = adgen::manifest::load(&dir.path().join("ad.toml")).expect("manifest loads");
    let out = adgen::differentiate(&loaded.sources, &loaded.request).expect("differentiates");
    let b = out
        .files
        .iter()
        .find(|f| f.path.ends_with("m_b.f90"))
        .expect("the adjoint file");
    let pushes = b.contents.matches("call pushreal8array(s,").count();
    // One snapshot per call site, each of the whole array once.
    assert_eq!(pushes, 2, "{}", b.contents);
}
