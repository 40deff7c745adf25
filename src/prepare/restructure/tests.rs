//! The restructurer on small programs: what each rewrite prints, and what it refuses.

use crate::{SourceInput, parse_sources};

fn restructured(text: &str) -> Result<String, Vec<&'static str>> {
    let mut map = crate::diag::SourceMap::default();
    let inputs = [SourceInput::new("t.f", text)];
    let program = parse_sources(&inputs, &mut map).expect("parses");
    match super::restructure(program.clone()) {
        Ok(p) => Ok(crate::back::fortran::write_file(&p.files[0])),
        Err(d) => Err(d.iter().map(|d| d.code).collect()),
    }
}

#[test]
fn forward_backward_and_loop_exits_become_structured() {
    let text = "\
C     ALL THREE KINDS
      SUBROUTINE S(X, N, Y)
      DOUBLE PRECISION X(N), Y
      INTEGER N, I
      Y = 0.0D0
      I = 0
   10 I = I + 1
      IF (X(I) .LT. 0.0D0) GO TO 20
      Y = Y + X(I)
   20 IF (I .LT. N) GO TO 10
      DO 30 I = 1, N
         IF (X(I) .GT. 5.0D0) GO TO 40
   30 CONTINUE
      Y = -Y
   40 RETURN
      END
";
    let out = restructured(text).expect("restructured");
    assert!(!out.to_ascii_lowercase().contains("go to"), "{out}");
    assert!(out.contains("do while (.true.)"), "{out}");
    assert!(out.contains("if (I >= N) exit"), "{out}");
    assert!(out.contains("return"), "{out}");
}

/// Statements copied into several arms are distinct statements: the analyses and the
/// adjoint's jump codes key on statement ids (MINPACK's `hybrd`, whose copied inner
/// loops shared ids, got a backward sweep out of step with its forward sweep).
#[test]
fn copies_into_nested_arms_get_their_own_ids() {
    // The corpus program's STEP: a forward jump out of a nested IF over a loop with an
    // exit.
    let text = include_str!("../../../tests/corpus/fortran/distributed_copies_f77/newton.f");
    let mut map = crate::diag::SourceMap::default();
    let inputs = [SourceInput::new("t.f", text)];
    let program = parse_sources(&inputs, &mut map).expect("parses");
    let out = super::restructure(program).expect("restructured");
    let mut seen = std::collections::BTreeSet::new();
    let mut copies = 0;
    crate::il::visit::walk_stmts(&out.files[0].units[0].body, &mut |s| {
        if matches!(s.kind, crate::il::StmtKind::Do { .. }) {
            copies += 1;
        }
        if s.id != crate::il::StmtId::GENERATED {
            assert!(
                seen.insert(s.id),
                "statement id {:?} twice: {:?}",
                s.id,
                s.kind
            );
        }
    });
    assert_eq!(
        copies,
        2,
        "the loop is in both arms: {}",
        crate::back::fortran::write_file(&out.files[0])
    );
}

#[test]
fn a_jump_into_a_block_is_refused() {
    let text = "\
C     A JUMP INTO AN IF BLOCK
      SUBROUTINE S(X, Y)
      DOUBLE PRECISION X, Y
      IF (X .GT. 0.0D0) GO TO 10
      IF (Y .GT. 0.0D0) THEN
         Y = 1.0D0
   10    Y = Y + X
      END IF
      END
";
    assert_eq!(restructured(text).unwrap_err(), vec!["E0410"]);
}

#[test]
fn a_loop_entered_in_its_middle_becomes_a_dispatcher() {
    let text = "\
C     RE-ENTRY INTO A LOOP, INSIDE A LOOP WITH ITS OWN CYCLE
      SUBROUTINE S(IND, X, Y)
      INTEGER IND, IT
      DOUBLE PRECISION X, Y
      DO 50 IT = 1, 3
         IF (X .GT. 9.0D0) CYCLE
         IF (IND .EQ. 2) GO TO 20
C        THE LOOP
   10    Y = Y*X
   20    Y = Y + 1.0D0
         IF (Y .LT. 5.0D0) GO TO 10
   50 CONTINUE
      END
";
    let out = restructured(text).expect("restructured");
    assert!(!out.to_ascii_lowercase().contains("go to"), "{out}");
    for line in [
        "jumps: do IT = 1, 3",
        "cycle jumps",
        "next_segment = 0",
        "jumps0: do while (.true.)",
        "if (next_segment <= 0) then",
        "next_segment = 2",
        "cycle jumps0",
        "if (next_segment <= 1) then\n        !        THE LOOP\n        Y = Y*X",
        "next_segment = 1",
        "exit jumps0",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
}

#[test]
fn select_case_and_statement_functions_are_lowered() {
    let text = "\
C     SELECT CASE AND A STATEMENT FUNCTION
      SUBROUTINE S(K, X, Y)
      INTEGER K
      DOUBLE PRECISION X, Y, SQ, T
      SQ(T) = T*T
      SELECT CASE (K)
      CASE (1, 3:5)
         Y = SQ(X + 1.0D0)
      CASE DEFAULT
         Y = X
      END SELECT
      END
";
    let out = restructured(text).expect("restructured");
    assert!(
        out.contains("if ((K == 1) .or. (K >= 3 .and. K <= 5)) then"),
        "{out}"
    );
    assert!(out.contains("Y = ((X + 1.0D0)*(X + 1.0D0))"), "{out}");
    assert!(!out.contains("SQ(T)"), "{out}");
}
