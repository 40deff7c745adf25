//! Tests of fixed-form files through the whole front-end: the IL of FORTRAN 77 habits,
//! diagnostics located in the original text, and that no fixed-form input panics.

use super::{SourceForm, lower_file_in_form};
use crate::diag::{Diagnostic, FileId, Location, SourceFile};
use crate::il::{File, ScalarType, Stmt, StmtKind};

fn lower(text: &str) -> Result<File, Vec<Diagnostic>> {
    let source = SourceFile::new("t.f", text);
    let mut next = 0;
    super::tests::with_deferred(lower_file_in_form(
        FileId(0),
        &source,
        "t.f",
        SourceForm::Fixed(72),
        &mut next,
        &mut Default::default(),
    ))
}

fn ok(text: &str) -> File {
    match lower(text) {
        Ok(f) => f,
        Err(d) => panic!("unexpected diagnostics: {d:#?}"),
    }
}

/// (code, line, col) of every diagnostic, in the original text.
fn where_(text: &str, diags: &[Diagnostic]) -> Vec<(&'static str, usize, usize)> {
    let source = SourceFile::new("t.f", text);
    diags
        .iter()
        .map(|d| match &d.location {
            Some(Location::Span(s)) => {
                let (l, c) = source.line_col(s.lo);
                (d.code, l, c)
            }
            _ => (d.code, 0, 0),
        })
        .collect()
}

/// A LINPACK-style unit: every habit of the reader and the F77 statements at once.
const DAXPY_STYLE: &str = "C     CONSTANT TIMES A VECTOR PLUS A VECTOR, UNROLLED BY 4.
C     JACK DONGARRA, LINPACK, 3/11/78 (STYLE).
      SUBROUTINE DAXPYX(N,DA,DX,INCX,DY,INCY)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      INTEGER*4 N,INCX,INCY
      DIMENSION DX(*),DY(*)
      PARAMETER (ZERO=0.0D0, NB=4)
      IF (N.LE.0) RETURN
      IF (DA .EQ. ZERO) RETURN
      IF (INCX.EQ.1.AND.INCY.EQ.1) THEN
         M = MOD(N,NB)
         IF (M .NE. 0) THEN
            DO 30 I = 1,M
               DY(I) = DY(I) + DA*DX(I)
   30       CONTINUE
         END IF
         IF (N .LT. NB) RETURN
         MP1 = M + 1
         DO 50 I = MP1,N,NB
            DY(I) = DY(I) + DA*DX(I)
            DY(I + 1) = DY(I + 1) + DA*DX(I + 1)
            DY(I + 2) = DY(I + 2) + DA*DX(I + 2)
   50    DY(I + 3) = DY(I + 3) + DA*DX(I + 3)
      ELSE
         IX = 1
         IY = 1
         IF (INCX.LT.0) IX = (-N+1)*INCX + 1
         IF (INCY.LT.0) IY = (-N+1)*INCY + 1
         DO 10 I = 1,N
          DY(IY) = DY(IY) +
     *             DA*DX(IX)
C           A COMMENT BETWEEN THE LINES OF A STATEMENT IS ALLOWED.
     *             + 0.0D0
          IX = IX + INCX
          IY = IY + INCY
   10    CONTINUE
      ENDIF
      RETURN
      END
";

#[test]
fn linpack_style_unit() {
    let file = ok(DAXPY_STYLE);
    let unit = &file.units[0];
    assert_eq!(unit.name, "DAXPYX");
    assert_eq!(unit.args.len(), 6);
    assert_eq!(
        unit.symbols.get("da").map(|s| s.ty),
        Some(ScalarType::Real(8))
    );
    assert_eq!(
        unit.symbols.get("m").map(|s| s.ty),
        Some(ScalarType::Integer(4))
    );
    // The labelled DO ending on an assignment keeps it as its last statement.
    let mut loops = Vec::new();
    crate::il::visit::walk_stmts(&unit.body, &mut |s: &Stmt| {
        if let StmtKind::Do { body, .. } = &s.kind {
            loops.push(body.len());
        }
    });
    assert_eq!(loops, vec![1, 4, 3]);
    // Spans are offsets into the original text.
    let text = DAXPY_STYLE;
    let at = text.find("DA*DX(IX)").unwrap() as u32;
    let mut found = false;
    crate::il::visit::walk_stmts(&unit.body, &mut |s: &Stmt| {
        if matches!(s.kind, StmtKind::Assign { .. }) && s.span.lo < at && s.span.hi > at {
            found = true;
            assert!(text[s.span.lo as usize..s.span.hi as usize].ends_with("+ 0.0D0"));
        }
    });
    assert!(found);
}

#[test]
fn shared_terminator_nests_loops() {
    let text = "      SUBROUTINE MATVEC(A,X,Y,N,M)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      DIMENSION A(N,M),X(M),Y(N)
      DO 10 I=1,N
      Y(I)=0.0D0
      DO 10 J=1,M
      Y(I)=Y(I)+A(I,J)*X(J)
   10 CONTINUE
      END
";
    let unit = &ok(text).units[0];
    assert_eq!(unit.body.len(), 1);
    let StmtKind::Do { body, .. } = &unit.body[0].kind else {
        panic!("a DO")
    };
    assert_eq!(body.len(), 2);
    let StmtKind::Do { body: inner, .. } = &body[1].kind else {
        panic!("an inner DO")
    };
    assert_eq!(inner.len(), 1);
}

#[test]
fn spellings_with_and_without_blanks() {
    let text = "      DOUBLEPRECISION FUNCTION F(X)
      DOUBLE PRECISION X
      REAL*8 Y
      Y = DMAX1(X, 0.0D0) + DMIN1(X, 1.0D0) + DSQRT(DABS(X) + 1.0D0)
      IF (X .GT. 1.0D0) THEN
         Y = Y + DEXP(X) + DLOG(X) + DSIN(X) + DCOS(X)
      ELSEIF (X .GT. 0.5D0) THEN
         Y = Y + DBLE(IABS(MAX0(1, 2)) + MIN0(3, 4)) + DFLOAT(2)
      ELSE IF (X .GT. 0.25D0) THEN
         Y = Y + DBLE(FLOAT(1)) + DBLE(SNGL(X)) + DBLE(AMAX1(1.0, 2.0))
      ENDIF
      DO 10 I = 1, 3
         Y = Y + X
   10 CONTINUE
      DO I = 1, 2
         Y = Y * X
      ENDDO
      DO WHILE (Y .GT. 10.0D0)
         Y = Y / 2.0D0
      END DO
      F = Y
      END
";
    let unit = &ok(text).units[0];
    assert_eq!(unit.name, "F");
}

#[test]
fn diagnostics_point_into_the_original() {
    // A syntax error on a continuation line, after a comment line and a tab line.
    let text = "C     HEADER
      SUBROUTINE S(A)
\tDOUBLE PRECISION A
      A = A +
     &    * 2.0D0
      END
";
    let d = lower(text).unwrap_err();
    assert_eq!(where_(text, &d), vec![("E0202", 5, 11)]);
    // Undeclared name under IMPLICIT NONE, on the second line of a statement.
    let text = "      SUBROUTINE S(A)
      IMPLICIT NONE
      DOUBLE PRECISION A
      A = 1.0D0 +
     1    B
      END
";
    let d = lower(text).unwrap_err();
    assert_eq!(where_(text, &d), vec![("E0301", 5, 11)]);
    // Column errors.
    let text = "      SUBROUTINE S(A)\nX     A = 1.0\n      END\n";
    let d = lower(text).unwrap_err();
    assert_eq!(where_(text, &d)[0], ("E0210", 2, 1));
}

#[test]
fn sequence_numbers_in_columns_73_to_80_are_ignored() {
    let lines = [
        "      SUBROUTINE S(A)",
        "      DOUBLE PRECISION A",
        "      A = A * 2.0D0",
        "      END",
    ];
    let text: String = lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{l:<72}SEQ{:05}\n", i + 1))
        .collect();
    let unit = &ok(&text).units[0];
    assert_eq!(unit.body.len(), 1);
}

#[test]
fn include_without_a_directory_is_refused_clearly() {
    let text = "      SUBROUTINE S(A)\n      INCLUDE 'params.inc'\n      A = 1.0\n      END\n";
    let d = lower(text).unwrap_err();
    assert_eq!(where_(text, &d), vec![("E0412", 2, 7)]);
    assert!(d[0].message.contains("cannot include 'params.inc'"));
}

/// A tiny deterministic generator, so the test needs no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn never_panics_on_damaged_fixed_form() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let pieces = [
        "\n",
        "\n     &",
        "\n     1",
        "\n\t1",
        "\t",
        "\nC ",
        "\n*",
        "!",
        "'",
        "\"",
        "&",
        "(",
        ")",
        "10",
        "\n   10 CONTINUE\n",
        "\n      DO 10 I=1,N\n",
        "#",
        "\u{e9}",
        "\r\n",
        " ",
        "\n      END\n",
        "\n     0",
        "\x0c",
    ];
    let bytes = DAXPY_STYLE.as_bytes();
    for cut in 0..=bytes.len() {
        let _ = lower(&String::from_utf8_lossy(&bytes[..cut]));
    }
    // `ADGEN_FUZZ_ITERS=100000` for a longer run.
    let iterations = std::env::var("ADGEN_FUZZ_ITERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    for _ in 0..iterations {
        let mut text = bytes.to_vec();
        for _ in 0..1 + rng.below(5) {
            let at = rng.below(text.len() + 1);
            match rng.below(3) {
                0 if at < text.len() => {
                    let len = 1 + rng.below(8);
                    text.drain(at..(at + len).min(text.len()));
                }
                1 => {
                    let piece = pieces[rng.below(pieces.len())];
                    text.splice(at..at, piece.bytes());
                }
                _ => {
                    let other = rng.below(text.len() + 1);
                    if at < text.len() && other < text.len() {
                        text.swap(at, other);
                    }
                }
            }
        }
        let text = String::from_utf8_lossy(&text);
        let mut diags = Vec::new();
        let free = super::fixed::to_free_form(FileId(0), &text, 72, &mut diags);
        assert_eq!(free.len(), text.len());
        let _ = lower(&text);
    }
    for _ in 0..500 {
        let len = rng.below(300);
        let bytes: Vec<u8> = (0..len)
            .map(|_| b" \t\n\r0123456789C*!&'\"xX=()+-,"[rng.below(28)])
            .collect();
        let _ = lower(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn more_f77_spellings() {
    let text = "      REAL*8 FUNCTION G(X, N)
      IMPLICIT REAL*8 (A-H,O-Z)
      IMPLICIT INTEGER (I-N)
      DIMENSION X(N)
      G=0.0D0
      IF(N.LE.0)RETURN
      DO 10, I = 1, N
        DO 10 J = 1, N
   10 IF (X(J) .GT. G) G = X(J)
      DO 20 I = 1, N
   20 G = G + X(I)
      DOWHILE (G .GT. 1.0D3)
        G = G / 2.0D0
      ENDDO
      END
";
    let unit = &ok(text).units[0];
    assert_eq!(
        unit.symbols.get("g").map(|s| s.ty),
        Some(ScalarType::Real(8))
    );
    assert_eq!(
        unit.symbols.get("j").map(|s| s.ty),
        Some(ScalarType::Integer(4))
    );
    // G = 0, IF .. RETURN, DO (DO (IF)), DO (G = ..), DO WHILE.
    assert_eq!(unit.body.len(), 5);
    let StmtKind::Do { body, .. } = &unit.body[2].kind else {
        panic!("a DO")
    };
    let StmtKind::Do { body: inner, .. } = &body[0].kind else {
        panic!("a nested DO")
    };
    assert!(matches!(inner[0].kind, StmtKind::If { .. }));
    assert!(matches!(unit.body[4].kind, StmtKind::DoWhile { .. }));
}

/// Every fixed-form corpus program lowers cleanly and keeps the IL's promises (spans
/// nest, names resolve), with spans inside the original text.
#[test]
fn fixed_form_corpus_programs_keep_the_il_invariants() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fortran");
    let mut seen = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("the corpus directory exists")
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            let fixed = [".f", ".for", ".F"].iter().any(|e| name.ends_with(e));
            if !fixed {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a readable source");
            let source = SourceFile::new(name.clone(), text.clone());
            let mut next = 0;
            // INCLUDE files sit next to the program's sources.
            let mut context = crate::front::Context {
                include_search: vec![dir.clone()],
                first_include_id: 1,
                ..Default::default()
            };
            let file =
                crate::front::lower_source_in(&mut context, FileId(0), &source, &name, &mut next)
                    .unwrap_or_else(|d| panic!("{name}: {d:#?}"));
            super::tests::check_invariants(&file);
            for unit in &file.units {
                assert!(unit.span.hi as usize <= text.len(), "{name}");
            }
            seen += 1;
        }
    }
    assert!(seen >= 8, "only {seen} fixed-form corpus sources");
}

/// GO TO, computed GO TO, arithmetic IF and SELECT CASE are kept as written; a DO's
/// CONTINUE that a GO TO in the loop jumps to keeps its label.
#[test]
fn jumps_and_select_case_are_kept() {
    let text = "\
C     JUMPS OF ALL KINDS
      SUBROUTINE JUMPS(X, K, Y)
      DOUBLE PRECISION X, Y
      INTEGER K, I
      IF (X) 10, 20, 30
   10 Y = -X
      GO TO 40
   20 Y = 0.0D0
      GO TO 40
   30 Y = X
   40 GO TO (50, 60), K
   50 Y = 2.0D0*Y
   60 DO 70 I = 1, 3
         IF (Y .GT. 10.0D0) GO TO 70
         Y = Y*Y
   70 CONTINUE
      SELECT CASE (K)
      CASE (1, 3:5)
         Y = Y + 1.0D0
      CASE (:0)
      CASE DEFAULT
         Y = Y - 1.0D0
      END SELECT
      END
";
    let file = ok(text);
    let body = &file.units[0].body;
    assert!(
        matches!(&body[0].kind, StmtKind::ArithmeticIf { labels, .. } if labels == &["10".to_string(), "20".to_string(), "30".to_string()])
    );
    assert!(matches!(&body[2].kind, StmtKind::Goto { label } if label == "40"));
    assert!(matches!(&body[6].kind, StmtKind::ComputedGoto { labels, .. } if labels.len() == 2));
    let StmtKind::Do {
        body: loop_body, ..
    } = &body[8].kind
    else {
        panic!("{:?}", body[8].kind);
    };
    assert_eq!(
        loop_body.last().and_then(|s| s.label.as_deref()),
        Some("70")
    );
    let StmtKind::Select { cases, .. } = &body[9].kind else {
        panic!("{:?}", body[9].kind);
    };
    assert_eq!(cases.len(), 3);
    assert_eq!(cases[0].values.len(), 2);
    assert!(cases[1].body.is_empty());
    assert!(cases[2].values.is_empty());
}

/// A jump to a label no statement carries, and a label defined twice.
#[test]
fn bad_labels_are_located() {
    let text = "      SUBROUTINE S(X)\n      DOUBLE PRECISION X\n      GO TO 99\n   10 X = 1.0D0\n   10 X = 2.0D0\n      END\n";
    let d = lower(text).unwrap_err();
    assert_eq!(where_(text, &d), vec![("E0213", 3, 7), ("E0213", 5, 4)]);
    let assigned = "      SUBROUTINE S(X)\n      DOUBLE PRECISION X\n      INTEGER L\n      GO TO L\n      END\n";
    let d = lower(assigned).unwrap_err();
    assert_eq!(where_(assigned, &d), vec![("E0401", 4, 7)]);
}

/// `F(X) = ...` among the declarations is a statement function, kept as a declaration;
/// an array element assignment there is not.
#[test]
fn statement_functions_are_declarations() {
    let text = "\
C     A STATEMENT FUNCTION
      SUBROUTINE S(X, Y)
      DOUBLE PRECISION X, Y, F, T, A(3)
      F(T) = T*T + 1.0D0
      A(1) = F(X)
      Y = A(1)
      END
";
    let file = ok(text);
    let u = &file.units[0];
    assert!(u.decls.iter().any(|d| matches!(&d.kind, crate::il::DeclKind::StmtFunction { name, args, .. } if name == "F" && args == &["T".to_string()])));
    assert_eq!(u.body.len(), 2);
}

#[test]
fn main_programs_without_a_program_statement() {
    // RECFAST ends its file with a second END: gfortran reads an empty main program.
    let text = "      SUBROUTINE S(X)\n      X = 1.0\n      END\n      END\n";
    let file = ok(text);
    assert_eq!(file.units.len(), 1);
    // Statements before a bare END are a main program without its PROGRAM statement
    // (a unit that cannot be a root, E0402, which blocks nothing).
    let text = "      SUBROUTINE S(X)\n      X = 1.0\n      END\n      Y = 2.0\n      CALL S(Y)\n      END\n";
    let d = lower(text).expect_err("a main program is never differentiated");
    assert_eq!(where_(text, &d), vec![("E0402", 4, 7)]);
    // Statements that no END closes are one error.
    let text = "      SUBROUTINE S(X)\n      X = 1.0\n      END\n      Y = 2.0\n";
    let d = lower(text).expect_err("stray statement");
    assert_eq!(where_(text, &d), vec![("E0208", 4, 7)]);
}

/// ASSIGN stores a label's number in its integer variable; the assigned GO TO is an IF
/// chain over the labels it lists; without the list it is one E0401 at the GO TO.
#[test]
fn assign_and_assigned_goto() {
    let text = "      SUBROUTINE S(X)\n      DOUBLE PRECISION X\n      INTEGER K\n      \
                ASSIGN 20 TO K\n      ASSIGN 30 TO K\n      GO TO K, (20, 30)\n   20 X = X*2\n   \
                30 X = X + 1\n      END\n";
    let f = ok(text);
    let body = &f.units[0].body;
    let StmtKind::Assign { lhs, rhs } = &body[0].kind else {
        panic!("{:?}", body[0].kind)
    };
    assert_eq!(
        format!("{:?}", (&lhs.kind, &rhs.kind)),
        "(Var(\"K\"), Int(\"20\"))"
    );
    let StmtKind::Assign { lhs, rhs } = &body[1].kind else {
        panic!("{:?}", body[1].kind)
    };
    assert_eq!(
        format!("{:?}", (&lhs.kind, &rhs.kind)),
        "(Var(\"K\"), Int(\"30\"))"
    );
    let StmtKind::If {
        arms, else_body, ..
    } = &body[2].kind
    else {
        panic!("{:?}", body[2].kind)
    };
    assert!(else_body.is_none());
    let targets: Vec<String> = arms
        .iter()
        .map(|(_, b)| match &b[0].kind {
            StmtKind::Goto { label } => label.clone(),
            k => panic!("{k:?}"),
        })
        .collect();
    assert_eq!(targets, ["20", "30"]);
    let unlisted = text.replace("GO TO K, (20, 30)", "GO TO K");
    let d = lower(&unlisted).unwrap_err();
    assert_eq!(where_(&unlisted, &d), vec![("E0401", 6, 7)], "{d:#?}");
    // A refused statement keeps its label: the jumps to it are not refused too.
    let paused = text.replace("   30 X = X + 1\n", "   30 PAUSE\n");
    let d = lower(&paused).unwrap_err();
    assert_eq!(where_(&paused, &d), vec![("E0401", 8, 7)], "{d:#?}");
}
