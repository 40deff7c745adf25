//! The analyses pinned on the seed's own examples (seeds/000 Figures 8, 11 and 12, and the
//! implicit-zero tactic of §4.6). The programs live in the corpus
//! (`tests/corpus/fortran/seed_fig*`), where they are also compiled, run and checked;
//! here the generated text is checked for what each figure shows. Figure 18, named in issue 4, does not exist in seeds/000.

use std::path::Path;

/// The generated file `file` for the corpus program `dir`.
fn generated(dir: &str, file: &str) -> String {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/fortran")
        .join(dir)
        .join("ad.toml");
    let loaded = adgen::manifest::load(&manifest).expect("the corpus manifest loads");
    let out = adgen::differentiate(&loaded.sources, &loaded.request)
        .expect("the corpus program differentiates");
    out.files
        .into_iter()
        .find(|f| f.path == file)
        .unwrap_or_else(|| panic!("no {file}"))
        .contents
}

/// The body lines of `unit` in `text`, trimmed.
fn body(text: &str, unit: &str) -> Vec<String> {
    let start = text
        .find(&format!("subroutine {unit}("))
        .unwrap_or_else(|| panic!("no {unit}"));
    text[start..]
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("end subroutine"))
        .map(String::from)
        .collect()
}

fn position(lines: &[String], line: &str) -> usize {
    lines
        .iter()
        .position(|l| l == line)
        .unwrap_or_else(|| panic!("`{line}` not in\n{}", lines.join("\n")))
}

/// Figure 8: x is not useful, so `x = a*b` gets no derivative; after `a = 5.0`, a is
/// not varied, so `d = a*c` has the derivative `a*cd` only; e is not useful before
/// FLOOR, so `e = a/x` gets none. a and b end up inactive.
#[test]
fn figure_8_activity_simplifies_the_tangent() {
    let text = generated("seed_fig8", "fig8_d.f90");
    let lines = body(&text, "fig8_d");
    assert!(
        lines[0].starts_with("subroutine fig8_d(a, b, c, cd, d, dd, e, ed, x)"),
        "{text}"
    );
    assert!(
        !text.contains("xd") && !text.contains("ad ") && !text.contains("bd"),
        "{text}"
    );
    let d = position(&lines, "d = a*c");
    assert_eq!(lines[d - 1], "dd = a*cd");
    let e = position(&lines, "e = a/x");
    assert!(!lines[e - 1].starts_with("ed"), "{text}");
}

/// Figure 11: after diff-liveness and TBR, the forward sweep saves only a(n) before
/// `a(n) = a(n)*a(n+1)` and n before each of its last two assignments.
#[test]
fn figure_11_tbr_keeps_three_saves() {
    let text = generated("seed_fig11", "fig11_b.f90");
    let lines = body(&text, "fig11_b");
    let pushes: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("call push"))
        .collect();
    assert_eq!(
        pushes,
        [
            "call pushreal8(a(n))",
            "call pushinteger4(n)",
            "call pushinteger4(n)"
        ],
        "{text}"
    );
    let a = position(&lines, "a(n) = a(n)*a(n + 1)");
    assert_eq!(lines[a - 1], "call pushreal8(a(n))");
    let n2 = position(&lines, "n = ind2(i)");
    assert_eq!(lines[n2 - 1], "call pushinteger4(n)");
    let n3 = position(&lines, "n = ind2(i + 1)");
    assert_eq!(lines[n3 - 1], "call pushinteger4(n)");
    let pops = lines.iter().filter(|l| l.starts_with("call pop")).count();
    assert_eq!(pops, 3, "{text}");
}

/// Figure 12: the checkpointed call saves what foo overwrites (a and x) before calling
/// plain foo, and restores it before foo_b, which re-runs foo then its adjoint.
#[test]
fn figure_12_snapshot_of_a_checkpointed_call() {
    let text = generated("seed_fig12", "fig12_b.f90");
    let lines = body(&text, "fig12_b");
    let call = position(&lines, "y = foo(a, x, 2.5d0)");
    assert_eq!(
        &lines[call - 2..call],
        ["call pushreal8(a)", "call pushreal8(x)"]
    );
    let adjoint = lines
        .iter()
        .position(|l| l.starts_with("call foo_b(a, ab, x, xb, 2.5d0,"))
        .expect("foo_b called");
    let pop_x = position(&lines, "call popreal8(x)");
    let pop_a = position(&lines, "call popreal8(a)");
    assert!(call < pop_x && pop_x < pop_a && pop_a < adjoint, "{text}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("call push")).count(),
        2,
        "{text}"
    );
    // Adjoint-out (§5.2): foo_b gives a and x back (it pops what foo overwrote), so the
    // caller needs no copies around it; fig12_b leaves only its output y changed.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fortran/seed_fig12");
    let loaded = adgen::manifest::load(&dir.join("ad.toml")).unwrap();
    let explained = adgen::explain(&loaded.sources, &loaded.request).expect("explain runs");
    let adj_out = |unit: &str| -> String {
        let at = explained
            .find(&format!("{unit}:\n"))
            .expect("unit explained");
        let line = explained[at..]
            .lines()
            .find(|l| l.contains("adjoint-out"))
            .expect("adjoint-out line");
        line.rsplit(": ").next().unwrap().to_string()
    };
    assert_eq!(adj_out("foo"), "-", "{explained}");
    assert_eq!(adj_out("fig12"), "y", "{explained}");
}

/// `explain` shows, per statement, why a value is saved and what the forward sweep drops.
#[test]
fn explain_annotates_figure_11() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fortran/seed_fig11");
    let loaded = adgen::manifest::load(&dir.join("ad.toml")).unwrap();
    let text = adgen::explain(&loaded.sources, &loaded.request).expect("explain runs");
    let after = |stmt: &str| -> String {
        let i = text
            .find(stmt)
            .unwrap_or_else(|| panic!("`{stmt}` not in\n{text}"));
        text[i..].lines().take(3).collect::<Vec<_>>().join("\n")
    };
    assert!(
        after("a(n) = a(n)*a(n + 1)").contains("adjoint saves: a;"),
        "{text}"
    );
    assert!(
        after("b(n) = (a(n) + b(n))*0.5d0").contains("adjoint saves: -;"),
        "{text}"
    );
    // t is an output nothing else in the adjoint refers to: its assignment stays, so
    // that the compiler sees the dummy used (the figure, a body alone, drops it).
    assert!(
        after("t(n) = t(n) - c").contains("forward sweep: kept"),
        "{text}"
    );
    assert!(
        after("n = ind2(i)").contains("to be recorded before: a, b, n"),
        "{text}"
    );
}

/// `explain` says when the adjoint's forward sweep drops a statement: in Figure 12's
/// caller, `y = y + a*x` computes nothing the derivatives need.
#[test]
fn explain_shows_sliced_statements() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fortran/seed_fig12");
    let loaded = adgen::manifest::load(&dir.join("ad.toml")).unwrap();
    let text = adgen::explain(&loaded.sources, &loaded.request).expect("explain runs");
    let i = text.find("y = y + a*x").expect("the statement is listed");
    let notes: String = text[i..].lines().take(3).collect::<Vec<_>>().join("\n");
    assert!(notes.contains("forward sweep: removed"), "{text}");
}

/// §4.6, implicit-zero: a reset that nothing reads is dropped. In the tangent, the entry
/// zeroing of `sd` (overwritten by the reset that `s = 0` brings) and the reset of `td`
/// after its last use go, while the reset before the loop, which `sd = sd + ...` reads
/// where the flow merges, stays. In the adjoint, the resets after the adjoints of the
/// first assignments of `s` and `t` and after `y`'s go, and a reset followed by an
/// increment becomes an assignment (`sb = 0; sb = sb + yb` is `sb = yb`).
/// `disable = ["implicit-zero"]` keeps every reset.
#[test]
fn implicit_zero_drops_the_resets_nothing_reads() {
    let source = "subroutine f(n, x, y)\n  implicit none\n  integer, intent(in) :: n\n  \
                  real(8), intent(in) :: x(n)\n  real(8), intent(out) :: y\n  real(8) :: s, t\n  \
                  integer :: i\n  t = x(1)**2\n  y = t\n  t = 1.0d0\n  s = 0.0d0\n  do i = 1, n\n    \
                  s = s + x(i)*t\n  end do\n  y = y + s\nend subroutine f\n";
    let generate = |mode: adgen::Mode, disabled: &[&str]| -> Vec<String> {
        let request = adgen::Request {
            roots: vec![adgen::RootRequest {
                name: "f".into(),
                independents: vec!["x".into()],
                dependents: vec!["y".into()],
                modes: [mode].into(),
                origin: None,
                entry_origins: Vec::new(),
            }],
            sizes: Vec::new(),
            black_boxes: Vec::new(),
            checkpoint_calls: true,
            naming: Default::default(),
            layout: Default::default(),
            option_warnings: Vec::new(),
            disabled: disabled.iter().map(|s| s.to_string()).collect(),
        };
        let out = adgen::differentiate(&[adgen::SourceInput::new("f.f90", source)], &request)
            .expect("differentiates");
        let (file, unit) = match mode {
            adgen::Mode::Tangent => ("f_d.f90", "f_d"),
            _ => ("f_b.f90", "f_b"),
        };
        let text = &out
            .files
            .iter()
            .find(|f| f.path == file)
            .expect("derivative file")
            .contents;
        body(text, unit)
    };
    let resets = |lines: &[String], d: &str| {
        lines
            .iter()
            .filter(|l| *l == &format!("{d} = 0.0d0"))
            .count()
    };
    let on = generate(adgen::Mode::Tangent, &[]);
    assert_eq!(resets(&on, "sd"), 1, "{}", on.join("\n"));
    assert_eq!(resets(&on, "td"), 0, "{}", on.join("\n"));
    let s = position(&on, "s = 0.0d0");
    assert_eq!(on[s - 1], "sd = 0.0d0");
    let off = generate(adgen::Mode::Tangent, &["implicit-zero"]);
    assert_eq!(resets(&off, "sd"), 2, "{}", off.join("\n"));
    assert_eq!(resets(&off, "td"), 2, "{}", off.join("\n"));

    let on = generate(adgen::Mode::Adjoint, &[]);
    let counts = |l: &[String]| [resets(l, "sb"), resets(l, "tb"), resets(l, "yb")];
    assert_eq!(counts(&on), [0, 0, 1], "{}", on.join("\n"));
    // The resets at the start of the backward sweep merge with the first increments.
    position(&on, "sb = yb");
    position(&on, "tb = yb");
    let off = generate(adgen::Mode::Adjoint, &["implicit-zero"]);
    assert_eq!(counts(&off), [2, 3, 2], "{}", off.join("\n"));
}
