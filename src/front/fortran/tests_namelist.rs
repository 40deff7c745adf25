//! NAMELIST groups: declared, printed back, and read or written by `NML=`.

use super::tests::{where_, with_deferred};
use crate::diag::{FileId, SourceFile};
use crate::il::{DeclKind, StmtKind};

fn lower(text: &str) -> Result<crate::il::File, Vec<crate::diag::Diagnostic>> {
    let source = SourceFile::new("t.f90", text);
    let mut next = 0;
    with_deferred(super::lower_file(FileId(0), &source, "t.f90", &mut next))
}

const PARS: &str = "module pars
  implicit none
  real(8) :: visc = 0.1d0, gain
  integer :: steps
  namelist /run/ visc, gain /size/ steps
contains
  subroutine load(unit)
    integer, intent(in) :: unit
    read(unit, nml=run)
  end subroutine load
  subroutine show()
    write(*, nml=size)
  end subroutine show
end module pars
";

/// A READ with `NML=` sets the group's variables, a WRITE reads them; the declaration
/// is printed back as written.
#[test]
fn a_namelist_group_is_its_variables() {
    let file = lower(PARS).expect("accepted");
    let module = &file.units[0];
    let groups = module
        .decls
        .iter()
        .find_map(|d| match &d.kind {
            DeclKind::Namelist(g) => Some(g.clone()),
            _ => None,
        })
        .expect("a NAMELIST declaration");
    assert_eq!(
        groups,
        vec![
            (
                "run".to_string(),
                vec!["visc".to_string(), "gain".to_string()]
            ),
            ("size".to_string(), vec!["steps".to_string()]),
        ]
    );
    let io = |u: usize| match &file.units[u].body[0].kind {
        StmtKind::Io { reads, writes, .. } => (
            reads
                .iter()
                .filter_map(|e| e.base_name().map(str::to_string))
                .collect::<Vec<_>>(),
            writes
                .iter()
                .filter_map(|e| e.base_name().map(str::to_string))
                .collect::<Vec<_>>(),
        ),
        k => panic!("{k:?}"),
    };
    assert_eq!(io(1).1, vec!["visc", "gain"]);
    assert_eq!(io(2).0, vec!["steps"]);
    let printed = crate::back::fortran::write_file(&file);
    assert!(
        printed.contains("  namelist /run/ visc, gain, /size/ steps\n"),
        "{printed}"
    );
}

/// A group the file does not declare is one located refusal of the procedure that
/// reads it, not a variable that is not declared.
#[test]
fn a_group_of_another_file_is_one_refusal() {
    let text = "subroutine load(unit)\n  integer, intent(in) :: unit\n  read(unit, nml=run)\nend subroutine load\n";
    let d = lower(text).expect_err("refused");
    assert_eq!(where_(text, &d), vec![("E0405", 3, 18)]);
    assert!(
        d[0].message
            .contains("the NAMELIST group `run` is not declared in this file")
    );
}
