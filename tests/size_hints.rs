//! Size hints (`[sizes.PROCEDURE]`, README): elements of integer vector arguments in a
//! size (`ia(n + 1) - 1`, the nonzeros of a compressed-row matrix; the corpus programs
//! `csr_sized_by_row_pointers` check the derivatives), what is refused, and the
//! procedure an error asks to size.

use adgen::validate::toolchain;

#[allow(dead_code)]
#[path = "support/hand_driver.rs"]
mod hand_driver;

fn hint(procedure: &str, argument: &str, size: &str) -> adgen::SizeHint {
    adgen::SizeHint {
        procedure: procedure.to_string(),
        argument: argument.to_string(),
        size: adgen::SizeExpr::parse(size).expect("a size"),
        row_length: None,
        origin: None,
    }
}

const CSR_C: &str = "static void rows(int n, const int *rowptr, double *val) {\n\
    for (int i = 0; i < n; i++)\n        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)\n\
            val[k] = val[k] * val[k];\n}\n\
void relax(int n, const int *rowptr, double *val) {\n    rows(n, rowptr, val);\n    rows(n, rowptr, val);\n}\n";

/// The element read in the count of a pop keeps its array `const` in the signature
/// (a caller's `const int *` must still convert).
#[test]
fn an_element_sized_array_is_saved_with_the_element_and_its_array_stays_const() {
    let mut request = hand_driver::request("relax", &["val"], &["val"]);
    request.sizes = vec![
        hint("relax", "val", "rowptr[n]"),
        hint("relax", "rowptr", "n + 1"),
    ];
    let g = adgen::differentiate(&[adgen::SourceInput::new("csr.c", CSR_C)], &request)
        .unwrap_or_else(|f| panic!("{f}"));
    let adjoint = g
        .files
        .iter()
        .find(|f| f.path.ends_with("_b.c"))
        .expect("adjoint");
    assert!(
        adjoint
            .contents
            .contains("adgen_push_real8_array(val, rowptr[n]);"),
        "{}",
        adjoint.contents
    );
    assert!(
        adjoint
            .contents
            .contains("void relax_b(int n, const int *rowptr, double *val, double *valb)"),
        "{}",
        adjoint.contents
    );
}

/// An element of what is not an integer vector argument: E0119, one per name.
#[test]
fn an_element_of_anything_but_an_integer_vector_argument_is_refused() {
    let text = "      SUBROUTINE RELAX(N, IA, A, W)\n      INTEGER N, IA(*)\n      \
                DOUBLE PRECISION A(*), W(*)\n      A(1) = A(1)*W(1)\n      END\n";
    for (size, culprit) in [("w(n)", "W"), ("n(1)", "N"), ("jb(n) - 1", "jb")] {
        let mut request = hand_driver::request("relax", &["a"], &["a"]);
        request.sizes = vec![hint("relax", "a", size)];
        let e = adgen::differentiate(&[adgen::SourceInput::new("r.f", text)], &request)
            .expect_err("refused")
            .rendered;
        assert!(e.contains("error[E0119]"), "{size}: {e}");
        assert!(
            e.to_lowercase().contains(&format!(
                "takes an element of `{}`, which is not an integer vector argument",
                culprit.to_lowercase()
            )),
            "{size}: {e}"
        );
        assert_eq!(e.matches("error[").count(), 1, "{size}: {e}");
    }
}

/// A procedure copied for its procedure argument (`DSTODE` as `DSTODE_FRB_JRB`): the
/// error asks for the size under the name the sources give it, which the manifest
/// accepts; the size is then written with the procedure's own spelling.
#[test]
fn the_size_asked_for_is_of_the_procedure_as_written() {
    let text = "      SUBROUTINE STEP(F, N, W)\n      EXTERNAL F\n      INTEGER N\n      \
                DOUBLE PRECISION W(*)\n      CALL F(N, W)\n      CALL F(N, W)\n      END\n\n      \
                SUBROUTINE SQ(N, W)\n      INTEGER N, I\n      DOUBLE PRECISION W(N)\n      \
                DO 10 I = 1, N\n         W(I) = W(I)**2\n   10 CONTINUE\n      END\n\n      \
                SUBROUTINE TOP(X)\n      DOUBLE PRECISION X(3)\n      EXTERNAL SQ\n      \
                CALL STEP(SQ, 3, X)\n      CALL STEP(SQ, 2, X(2))\n      END\n";
    let request = hand_driver::request("top", &["x"], &["x"]);
    let e = match adgen::differentiate(&[adgen::SourceInput::new("s.f", text)], &request) {
        Ok(g) => panic!("differentiated without a size: {}", g.warnings),
        Err(f) => f.rendered,
    };
    assert!(e.contains("error[E0507]"), "{e}");
    assert!(e.contains("`[sizes.STEP]` then `W = \"n\"`"), "{e}");
    let mut request = hand_driver::request("top", &["x"], &["x"]);
    request.sizes = vec![hint("step", "w", "n")];
    let g = adgen::differentiate(&[adgen::SourceInput::new("s.f", text)], &request)
        .unwrap_or_else(|f| panic!("{f}"));
    // The size reads as the procedure spells its names.
    let adjoint = g
        .files
        .iter()
        .find(|f| f.path.ends_with("_b.f90"))
        .expect("adjoint");
    assert!(
        adjoint.contents.contains("call pushreal8array(W, N)"),
        "{}",
        adjoint.contents
    );
}

/// A whole array of unknown size overwritten by a call that reads no active value: its
/// tangent must be zeroed after the call, which needs the size (one E0504, at the call,
/// naming the hint to give; the adjoint asks the same to save it, E0507); with it, the
/// corpus program `passive_reset_assumed_size` checks the derivatives.
#[test]
fn an_unsized_array_a_passive_call_overwrites_asks_for_its_size() {
    let text = std::fs::read_to_string("tests/corpus/fortran/passive_reset_assumed_size/solve.f90")
        .expect("the corpus program");
    let mut request = hand_driver::request("solve", &["y"], &["r"]);
    request.roots[0].modes = [adgen::Mode::Tangent].into_iter().collect();
    let failure = adgen::differentiate(&[adgen::SourceInput::new("solve.f90", text)], &request)
        .expect_err("the size of q is unknown");
    let errors: Vec<_> = failure
        .diagnostics
        .iter()
        .filter(|d| d.code == "E0504")
        .collect();
    assert_eq!(errors.len(), 1, "{}", failure.rendered);
    assert!(
        failure.rendered.contains(
            "`band` overwrites the assumed-size array `q` with values that depend on no active \
             input"
        ) && failure.rendered.contains("`[sizes.fill]`"),
        "{}",
        failure.rendered
    );
}
