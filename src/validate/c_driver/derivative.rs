//! The derivative driver of a C root: the tangent against central differences, the
//! adjoint against the tangent by the dot-product test.

use super::*;

/// Which parameters of `unit` are pointers, from the generated headers.
fn header_pointers(
    unit: &str,
    headers: &[(String, String)],
) -> Result<(String, Vec<bool>), String> {
    for (path, text) in headers {
        for line in text.lines() {
            let Some(open) = line.find(&format!(" {unit}(")) else {
                continue;
            };
            let params = &line[open + unit.len() + 2..];
            let params = params.trim_end_matches(';').trim_end_matches(')');
            let ptrs = if params.trim() == "void" {
                Vec::new()
            } else {
                params.split(',').map(|p| p.contains('*')).collect()
            };
            return Ok((path.clone(), ptrs));
        }
    }
    Err(format!("no generated header declares `{unit}`"))
}

fn sig_call(
    sig: &Signature,
    slots: &[Slot],
    structs: &[StructArg],
    ptrs: &[bool],
) -> Result<Vec<String>, String> {
    if ptrs.len() != sig.args.len() {
        return Err(format!(
            "{}: the header has {} parameters, the signature {}",
            sig.unit,
            ptrs.len(),
            sig.args.len()
        ));
    }
    let result = slots.iter().find(|s| s.is_result);
    let mut out = Vec::new();
    for (a, &p) in sig.args.iter().zip(ptrs) {
        if let Some(st) = a
            .original
            .as_ref()
            .and_then(|o| structs.iter().find(|st| st.key == key(o)))
        {
            let name = if a.is_derivative {
                format!("adg_{}_{}", sig.mode.var_suffix(), st.var)
            } else {
                st.var.clone()
            };
            out.push(pass(&name, p));
            continue;
        }
        let slot = match &a.original {
            Some(o) => slots
                .iter()
                .find(|s| s.key == key(o) || (s.is_result && key(o) == key(&sig.root)))
                .ok_or_else(|| format!("{}: `{o}` is no dummy of the root", sig.unit))?,
            None => result.ok_or_else(|| format!("{}: a result argument", sig.unit))?,
        };
        let name = if a.is_derivative {
            slot.helper("d")
        } else {
            slot.var.clone()
        };
        out.push(slot.passed(&name, p));
    }
    Ok(out)
}

/// The derivative driver: same checks and CHECK lines as the Fortran one.
pub fn derivative_driver(
    unit: &Unit,
    spec: &RootSpec,
    tangent: Option<&Signature>,
    adjoint: Option<&Signature>,
    check: &CheckConfig,
    headers: &[(String, String)],
    types: &Types,
) -> Result<(String, DerivativeChecks), String> {
    let mut slots = slots(unit, spec, check, types)?;
    let structs = struct_args(unit);
    let dtypes = header_structs(headers);
    for s in slots.iter_mut() {
        let Some(p) = s.parent.clone() else { continue };
        let st = structs
            .iter()
            .find(|st| st.var == p)
            .expect("struct of a member");
        let path: Vec<&str> = s.path.split('.').skip(1).collect();
        s.in_d = tangent.is_some() && has_component(&dtypes, &st.tname, "d", &path, key);
        s.in_b = adjoint.is_some() && has_component(&dtypes, &st.tname, "b", &path, key);
    }
    let root = key(&unit.name);
    let (d0, b0) = setup(unit, &slots, &structs, check)?;
    let mut d = d0;
    let mut b = b0;
    for st in &structs {
        for (m, present) in [("d", tangent.is_some()), ("b", adjoint.is_some())] {
            let dt = format!("{}_{m}", st.tname);
            if present && dtypes.contains_key(&key(&dt)) {
                writeln!(d, "  {dt} adg_{m}_{}[1];", st.var).unwrap();
            }
        }
    }
    let reals: Vec<&Slot> = slots.iter().filter(|s| s.is_real()).collect();
    let indeps: Vec<&Slot> = slots.iter().filter(|s| s.independent).collect();
    let deps: Vec<&Slot> = slots.iter().filter(|s| s.dependent).collect();
    for s in &reals {
        if s.parent.is_none() {
            writeln!(d, "  {} {}[{}];", s.c(), s.helper("d"), s.len).unwrap();
            d.push_str(&s.rows_of(&s.helper("d")));
        } else if s.placeholder() {
            writeln!(d, "  double {}[{}];", s.helper("z"), s.len).unwrap();
        }
    }
    for s in &indeps {
        writeln!(d, "  double {}[{}];", s.helper("dir"), s.len).unwrap();
    }
    for s in &deps {
        for p in ["w", "td", "t0", "p0", "yp", "ym", "fd"] {
            writeln!(d, "  double {}[{}];", s.helper(p), s.len).unwrap();
        }
    }
    d.push_str("  double adg_h, adg_num, adg_den, adg_tn, adg_lhs, adg_rhs;\n");
    d.push_str("  const double adg_tiny = 2.2250738585072014e-308;\n");
    let mut includes = BTreeSet::new();
    let mut sig_ptrs = Vec::new();
    for sig in tangent.iter().chain(adjoint.iter()) {
        let (h, p) = header_pointers(&sig.unit, headers)?;
        includes.insert(h);
        sig_ptrs.push(p);
    }
    for s in &indeps {
        let h = s.helper("dir");
        let sv = s.sv();
        writeln!(
            b,
            "  {}{h}[adg_k] = adg_rand(-1.0, 1.0) * ({sv} != 0 ? fabs((double){sv}) : 1.0);",
            s.each()
        )
        .unwrap();
    }
    for s in &deps {
        writeln!(
            b,
            "  {}{}[adg_k] = adg_rand(-1.0, 1.0);",
            s.each(),
            s.helper("w")
        )
        .unwrap();
    }
    let copy = |b: &mut String, prefix: &str| {
        for s in &deps {
            writeln!(b, "  {}{}[adg_k] = {};", s.each(), s.helper(prefix), s.v()).unwrap();
        }
    };
    let zero = |b: &mut String, mode: char| {
        for s in &reals {
            writeln!(b, "  {}{} = 0;", s.each(), s.dv(mode)).unwrap();
        }
    };
    let sum = |b: &mut String, acc: &str, s: &Slot, term: String| {
        writeln!(b, "  {}{acc} += {term};", s.each()).unwrap();
    };
    b.push_str("  /* primal reference */\n");
    b.push_str(&restore(&slots));
    b.push_str(&primal_call(unit, &slots));
    copy(&mut b, "p0");
    b.push_str("  /* central finite differences */\n");
    writeln!(b, "  adg_h = {};", real_c(check.fd_step)).unwrap();
    for (mult, names) in [("", ("yp", "ym")), ("10.0 * ", ("yp", "ym"))] {
        for (sign, prefix) in [("+", names.0), ("-", names.1)] {
            b.push_str(&restore(&slots));
            for s in &indeps {
                writeln!(
                    b,
                    "  {}{v} = ({})({} {sign} {mult}adg_h * {}[adg_k]);",
                    s.each(),
                    s.c(),
                    s.sv(),
                    s.helper("dir"),
                    v = s.v()
                )
                .unwrap();
            }
            b.push_str(&primal_call(unit, &slots));
            copy(&mut b, prefix);
        }
        if mult.is_empty() {
            for s in &deps {
                writeln!(
                    b,
                    "  {}{}[adg_k] = ({}[adg_k] - {}[adg_k]) / (2.0 * adg_h);",
                    s.each(),
                    s.helper("fd"),
                    s.helper("yp"),
                    s.helper("ym")
                )
                .unwrap();
            }
        }
    }
    b.push_str("  adg_num = 0.0;\n  adg_den = 0.0;\n");
    for s in &deps {
        let (fd, yp, ym) = (s.helper("fd"), s.helper("yp"), s.helper("ym"));
        sum(
            &mut b,
            "adg_num",
            s,
            format!("pow({fd}[adg_k] - ({yp}[adg_k] - {ym}[adg_k]) / (20.0 * adg_h), 2)"),
        );
        sum(&mut b, "adg_den", s, format!("{fd}[adg_k] * {fd}[adg_k]"));
    }
    writeln!(
        b,
        "  printf(\"CHECK fd-consistency {root} relerr=%25.16e fdnorm=%25.16e\\n\", \
         sqrt(adg_num) / fmax(sqrt(adg_den), adg_tiny), sqrt(adg_den));"
    )
    .unwrap();

    let mut ptrs = sig_ptrs.into_iter();
    if let Some(sig) = tangent {
        let p = ptrs.next().expect("one per signature");
        b.push_str("  /* tangent */\n");
        b.push_str(&restore(&slots));
        zero(&mut b, 'd');
        if check.contract {
            for s in reals
                .iter()
                .filter(|s| !s.independent && !s.is_result && (s.parent.is_none() || s.in_d))
            {
                writeln!(b, "  {}{} = 7.0;", s.each(), s.dv('d')).unwrap();
            }
        }
        for s in &indeps {
            writeln!(
                b,
                "  {}{} = ({}){}[adg_k];",
                s.each(),
                s.dv('d'),
                s.c(),
                s.helper("dir")
            )
            .unwrap();
        }
        let args = sig_call(sig, &slots, &structs, &p)?.join(", ");
        if sig.is_function {
            let r = slots.iter().find(|s| s.is_result).expect("result slot");
            writeln!(b, "  {}[0] = {}({args});", r.helper("d"), sig.unit).unwrap();
        } else {
            writeln!(b, "  {}({args});", sig.unit).unwrap();
        }
        for s in &deps {
            writeln!(
                b,
                "  {}{}[adg_k] = {};",
                s.each(),
                s.helper("td"),
                s.dv('d')
            )
            .unwrap();
        }
        copy(&mut b, "t0");
        b.push_str("  adg_num = 0.0;\n  adg_den = 0.0;\n");
        for s in &deps {
            let (t0, p0) = (s.helper("t0"), s.helper("p0"));
            sum(
                &mut b,
                "adg_num",
                s,
                format!("pow({t0}[adg_k] - {p0}[adg_k], 2)"),
            );
            sum(&mut b, "adg_den", s, format!("{p0}[adg_k] * {p0}[adg_k]"));
        }
        writeln!(
            b,
            "  printf(\"CHECK tangent-primal {root} relerr=%25.16e\\n\", \
             sqrt(adg_num) / fmax(sqrt(adg_den), adg_tiny));"
        )
        .unwrap();
        b.push_str("  adg_num = 0.0;\n  adg_den = 0.0;\n  adg_tn = 0.0;\n");
        for s in &deps {
            let (td, fd) = (s.helper("td"), s.helper("fd"));
            sum(
                &mut b,
                "adg_num",
                s,
                format!("pow({td}[adg_k] - {fd}[adg_k], 2)"),
            );
            sum(&mut b, "adg_den", s, format!("{fd}[adg_k] * {fd}[adg_k]"));
            sum(&mut b, "adg_tn", s, format!("{td}[adg_k] * {td}[adg_k]"));
        }
        writeln!(
            b,
            "  printf(\"CHECK tangent {root} relerr=%25.16e fdnorm=%25.16e tnorm=%25.16e\\n\", \
             sqrt(adg_num) / fmax(fmax(sqrt(adg_den), sqrt(adg_tn)), adg_tiny), sqrt(adg_den), sqrt(adg_tn));"
        )
        .unwrap();
    }
    if let Some(sig) = adjoint {
        let p = ptrs.next().expect("one per signature");
        b.push_str("  /* adjoint */\n");
        b.push_str(&restore(&slots));
        zero(&mut b, 'b');
        if check.contract {
            // INTERFACE.md §4: the adjoints of input-only independents passed by value
            // are overwritten; those of the members of a struct that are not
            // dependents (the struct is not, or a path names other members) weigh
            // nothing, whatever they hold. (The adjoint of an array behind a pointer of
            // unknown size is added to: W0501.)
            for s in reals.iter().filter(|s| {
                !s.dependent
                    && !s.is_result
                    && ((s.pass == Pass::Value && s.independent && s.parent.is_none())
                        || (s.parent.is_some() && s.in_b))
            }) {
                writeln!(b, "  {}{} = 7.0;", s.each(), s.dv('b')).unwrap();
            }
        }
        for s in &deps {
            writeln!(
                b,
                "  {}{} = ({}){}[adg_k];",
                s.each(),
                s.dv('b'),
                s.c(),
                s.helper("w")
            )
            .unwrap();
        }
        let args = sig_call(sig, &slots, &structs, &p)?.join(", ");
        writeln!(b, "  {}({args});", sig.unit).unwrap();
        b.push_str("  adg_lhs = 0.0;\n  adg_rhs = 0.0;\n");
        for s in &indeps {
            sum(
                &mut b,
                "adg_lhs",
                s,
                format!("{}[adg_k] * {}", s.helper("dir"), s.dv('b')),
            );
        }
        let reference = if tangent.is_some() { "td" } else { "fd" };
        for s in &deps {
            sum(
                &mut b,
                "adg_rhs",
                s,
                format!("{}[adg_k] * {}[adg_k]", s.helper(reference), s.helper("w")),
            );
        }
        let kind = if tangent.is_some() {
            "adjoint"
        } else {
            "adjoint-fd"
        };
        writeln!(
            b,
            "  printf(\"CHECK {kind} {root} relerr=%25.16e lhs=%25.16e rhs=%25.16e\\n\", \
             fabs(adg_lhs - adg_rhs) / fmax(fmax(fabs(adg_lhs), fabs(adg_rhs)), adg_tiny), adg_lhs, adg_rhs);"
        )
        .unwrap();
    }
    let mut out = String::from(PRELUDE);
    let definitions = struct_definitions(&structs, types, check)?;
    out.push_str(&definitions);
    out.push_str(&prototype_line(unit, &definitions));
    for h in &includes {
        writeln!(out, "#include \"{h}\"").unwrap();
    }
    out.push_str("\nint main(void) {\n");
    out.push_str(&d);
    out.push_str(&b);
    out.push_str("  return 0;\n}\n");
    Ok((
        out,
        DerivativeChecks {
            tangent: tangent.is_some(),
            adjoint: adjoint.is_some(),
            adjoint_cleared: false,
        },
    ))
}
