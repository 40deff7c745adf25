use std::ffi::OsString;
use std::path::PathBuf;

use super::*;

fn parse(args: &[&str]) -> Result<Args, Diagnostic> {
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    super::parse(&args)
}

#[test]
fn tapenade_form() {
    let Ok(Args::Run(run)) = parse(&[
        "-b",
        "-d",
        "-head",
        "cost(j)/(u0 k)",
        "-O",
        "out",
        "a.f90",
        "b.f90",
    ]) else {
        panic!("not parsed")
    };
    assert_eq!(
        run.modes,
        [Mode::Tangent, Mode::Adjoint].into_iter().collect()
    );
    assert_eq!(run.heads[0].name, "cost");
    assert_eq!(run.heads[0].independents, ["u0", "k"]);
    assert_eq!(run.out_dir, PathBuf::from("out"));
    assert_eq!(run.files, [PathBuf::from("a.f90"), PathBuf::from("b.f90")]);

    let Ok(Args::Run(run)) = parse(&["-head", "f(y)/(x)", "a.f90"]) else {
        panic!("not parsed")
    };
    assert_eq!(run.modes, [Mode::Tangent].into_iter().collect());
    assert_eq!(run.out_dir, PathBuf::from("."));
    assert_eq!(parse(&["-help"]).unwrap(), Args::Help);

    let Ok(Args::Run(run)) = parse(&[
        "-b",
        "-head",
        "f(y)/(x) g(z)/(w)",
        "-nooptim",
        "diffliveness",
        "-nooptim",
        "tbr",
        "a.f90",
    ]) else {
        panic!("not parsed")
    };
    assert_eq!(run.heads.len(), 2);
    assert_eq!(
        run.disabled.iter().collect::<Vec<_>>(),
        ["diff-liveness", "tbr"]
    );
}

#[test]
fn tapenade_errors() {
    let code = |args: &[&str]| parse(args).unwrap_err().code;
    assert_eq!(
        code(&["-b", "-vector", "-head", "f(y)/(x)", "a.f90"]),
        "E0115"
    );
    assert_eq!(code(&["-b", "a.f90"]), E_ARGS);
    assert_eq!(code(&["-b", "-head", "f(y)/(x)"]), E_ARGS);
    assert_eq!(code(&["-b", "-head"]), E_ARGS);
    assert_eq!(code(&["-b", "-head", "f", "a.f90"]), E_ARGS);
    assert_eq!(
        code(&["-b", "-head", "f(y)/(x)", "-nooptim", "x", "a.f90"]),
        E_ARGS
    );
    let d = parse(&["-haed", "f(y)/(x)", "a.f90"]).unwrap_err();
    assert_eq!(d.help.as_deref(), Some("did you mean `-head`?"));
}

#[test]
fn layout_and_naming_options() {
    let Ok(Args::Run(run)) = parse(&["-b", "-head", "f(y)/(x)", "src/a.f90", "b.c"]) else {
        panic!("not parsed")
    };
    assert_eq!(run.layout, OutputLayout::Flat);
    assert_eq!(run.naming, Naming::default());

    let Ok(Args::Run(run)) = parse(&[
        "-d",
        "-b",
        "-head",
        "f(y)/(x)",
        "-o",
        "all",
        "-tgtmodulename",
        "%_diff",
        "-adjmodulename",
        "%_adj",
        "-difffuncname",
        "_back",
        "-diffvarname",
        "_back",
        "-tgtfuncname",
        "%_tgt",
        "a.f90",
    ]) else {
        panic!("not parsed")
    };
    assert_eq!(run.layout, OutputLayout::Single("all".into()));
    assert_eq!(run.naming.procedure(Mode::Tangent, "f"), "f_tgt");
    assert_eq!(run.naming.procedure(Mode::Adjoint, "f"), "f_back");
    assert_eq!(run.naming.variable(Mode::Tangent, "x"), "x_back");
    assert_eq!(run.naming.module(Mode::Tangent, "m"), "m_diff");
    assert_eq!(run.naming.module(Mode::Adjoint, "m"), "m_adj");
    let request = run.request();
    assert_eq!(request.naming, run.naming);
    assert_eq!(request.roots[0].modes.len(), 2);
}

#[test]
fn layout_and_naming_errors() {
    let code = |args: &[&str]| parse(args).unwrap_err();
    // Two modes, one module name: Tapenade's one `m_diff` module, which adgen splits.
    let d = code(&[
        "-d",
        "-b",
        "-head",
        "f(y)/(x)",
        "-modulename",
        "%_diff",
        "a.f90",
    ]);
    assert_eq!(d.code, E_ARGS);
    assert!(d.message.contains("modules"), "{}", d.message);
    let d = code(&[
        "-d",
        "-b",
        "-head",
        "f(y)/(x)",
        "-difffuncname",
        "_x",
        "a.f90",
    ]);
    assert!(d.message.contains("procedures"), "{}", d.message);
    // One mode may use any pattern.
    assert!(parse(&["-b", "-head", "f(y)/(x)", "-modulename", "%_diff", "a.f90"]).is_ok());
    // Patterns that do not make names.
    for bad in ["%", "%-d", "1%", "%_%", ""] {
        let d = code(&["-b", "-head", "f(y)/(x)", "-tgtvarname", bad, "a.f90"]);
        assert_eq!(d.code, E_ARGS, "{bad}");
    }
    assert!(parse(&["-b", "-head", "f(y)/(x)", "-tgtvarname", "d_%", "a.f90"]).is_ok());
    // Flat layout: one derivative file per stem and language.
    let d = code(&["-b", "-head", "f(y)/(x)", "a/model.f90", "b/model.f90"]);
    assert!(d.help.as_deref().is_some_and(|h| h.contains("-o NAME")));
    assert!(code(&["-b", "-head", "f(y)/(x)", "model.f", "model.f90"]).code == E_ARGS);
    assert!(parse(&["-b", "-head", "f(y)/(x)", "model.f90", "model.c"]).is_ok());
    assert!(parse(&["-b", "-head", "f(y)/(x)", "-o", "all", "a/m.f90", "b/m.f90"]).is_ok());
    // -o: a file name, and one C source at most.
    assert_eq!(
        code(&["-b", "-head", "f(y)/(x)", "-o", "d/x", "a.f90"]).code,
        E_ARGS
    );
    let d = code(&["-b", "-head", "f(y)/(x)", "-o", "all", "a.c", "b.c"]);
    assert!(d.message.contains("C sources"), "{}", d.message);
    let d = code(&["-b", "-head", "f(y)/(x)", "-tgtmodulenam", "%_d", "a.f90"]);
    assert_eq!(d.help.as_deref(), Some("did you mean `-tgtmodulename`?"));
}
