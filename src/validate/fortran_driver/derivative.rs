//! The derivative driver of a Fortran root: the tangent against central differences,
//! the adjoint against the tangent by the dot-product test.

use super::*;

/// The modules to use for the structs' types and, for each suffix in `suffixes`, their
/// derivative types (those that exist in `types`).
pub(super) fn type_uses(
    structs: &[StructArg],
    types: &Types,
    suffixes: &[(&str, &Types)],
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for st in structs {
        let info = types
            .get(&key(&st.tname))
            .ok_or_else(|| format!("the driver finds no definition of the type `{}`", st.tname))?;
        if let Some(m) = &info.module {
            out.push((m.clone(), info.name.clone()));
        }
        for (suffix, dtypes) in suffixes {
            if let Some(d) = dtypes.get(&format!("{}_{suffix}", key(&st.tname))) {
                if let Some(m) = &d.module {
                    out.push((m.clone(), d.name.clone()));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// What the derivative driver checks, for [`super::checks::evaluate`].
pub struct DerivativeChecks {
    pub tangent: bool,
    pub adjoint: bool,
    /// Contract mode: the adjoints of output-only dependents must be zero after `f_b`.
    pub adjoint_cleared: bool,
}

/// The argument list of a derivative call, mapped to driver variables.
fn sig_args(sig: &Signature, slots: &[Slot], structs: &[StructArg]) -> Result<Vec<String>, String> {
    let result = slots.iter().find(|s| s.is_result);
    let mut args = Vec::new();
    for a in &sig.args {
        if let Some(st) = a
            .original
            .as_ref()
            .and_then(|o| structs.iter().find(|st| st.key == key(o)))
        {
            args.push(if a.is_derivative {
                format!("adg_{}_{}", sig.mode.var_suffix(), st.var)
            } else {
                st.var.clone()
            });
            continue;
        }
        let slot = match &a.original {
            // The result may be named by its own name or the function's.
            Some(o) => slots
                .iter()
                .find(|s| s.key == key(o) || (s.is_result && key(o) == key(&sig.root)))
                .ok_or_else(|| format!("{}: argument `{}` is no dummy of the root", sig.unit, o))?,
            None => result.ok_or_else(|| {
                format!(
                    "{}: a result argument, but the root is no function",
                    sig.unit
                )
            })?,
        };
        args.push(if a.is_derivative {
            slot.dvar_of(sig.mode.var_suffix().chars().next().unwrap_or('d'))
        } else {
            slot.var.clone()
        });
    }
    Ok(args)
}

/// Slots whose derivative the signature passes.
fn differentiated(sig: &Signature, slots: &[Slot]) -> BTreeSet<String> {
    let mut set: BTreeSet<String> = sig
        .args
        .iter()
        .filter(|a| a.is_derivative)
        .filter_map(|a| a.original.as_ref().map(|o| key(o)))
        .collect();
    if sig.is_function {
        if let Some(r) = slots.iter().find(|s| s.is_result) {
            set.insert(r.key.clone());
        }
    }
    set
}

/// The driver checking the tangent (against central differences) and the adjoint
/// (dot-product test against the tangent, or against the differences when the root has
/// no tangent).
#[allow(clippy::too_many_arguments)]
pub fn derivative_driver(
    unit: &Unit,
    spec: &RootSpec,
    tangent: Option<&Signature>,
    adjoint: Option<&Signature>,
    check: &CheckConfig,
    print: Printer,
    types: &Types,
    dtypes: &Types,
) -> Result<(String, DerivativeChecks), String> {
    let mut slots = slots(unit, spec, types)?;
    let structs = struct_args(unit);
    if !structs.is_empty() && needs_interface(&slots) {
        return Err(
            "the driver cannot pass derived-type arguments next to assumed-shape ones".into(),
        );
    }
    for s in slots.iter_mut() {
        let Some(p) = s.parent.clone() else { continue };
        let st = structs
            .iter()
            .find(|st| st.var == p)
            .expect("struct of a component");
        let path: Vec<&str> = s.var.split('%').skip(1).collect();
        s.in_d = tangent.is_some() && has_component(dtypes, &st.tname, "d", &path, key);
        s.in_b = adjoint.is_some() && has_component(dtypes, &st.tname, "b", &path, key);
    }
    let root = key(&unit.name);
    let sigs: Vec<&Signature> = tangent.iter().chain(adjoint.iter()).copied().collect();
    // An independent or dependent that adgen finds inactive has no derivative argument
    // (and a W0201 warning): its derivative variables stay zero in the driver, so the
    // finite differences must agree with zero there.
    for sig in &sigs {
        if sig.is_function != unit.is_function() {
            return Err(format!("{}: is_function does not match the root", sig.unit));
        }
    }
    let setup = setup(unit, &slots, &structs, check, print)?;
    let mut d = setup.decls.clone();
    for st in &structs {
        for (m, present) in [("d", tangent.is_some()), ("b", adjoint.is_some())] {
            if let Some(info) = dtypes.get(&format!("{}_{m}", key(&st.tname))) {
                if present {
                    writeln!(d, "  type({}) :: adg_{m}_{}", info.name, st.var).unwrap();
                }
            }
        }
    }
    let mut b = setup.body.clone();
    let real_slots: Vec<&Slot> = slots.iter().filter(|s| s.is_real()).collect();
    let indeps: Vec<&Slot> = slots.iter().filter(|s| s.independent).collect();
    let deps: Vec<&Slot> = slots.iter().filter(|s| s.dependent).collect();
    let cleared: Vec<&Slot> = deps
        .iter()
        .copied()
        .filter(|s| s.intent == Some(Intent::Out) && !s.independent && !s.is_result)
        // A member the adjoint structure lacks has only the driver's placeholder.
        .filter(|s| !s.dvar_of('b').starts_with("adg_z_"))
        .collect();
    for s in &real_slots {
        let t = type_name(s.ty)?;
        if s.module.is_some() {
            // Its derivatives are module variables too.
        } else if s.parent.is_none() {
            d.push_str(&s.declare(&t, &s.helper("d")));
        } else if s.placeholder() {
            d.push_str(&s.declare("real(8)", &s.helper("z")));
        }
    }
    for s in &indeps {
        d.push_str(&s.declare("real(8)", &s.helper("dir")));
    }
    for s in &deps {
        for p in ["w", "td", "t0", "p0", "yp", "ym", "fd"] {
            d.push_str(&s.declare("real(8)", &s.helper(p)));
        }
    }
    writeln!(
        d,
        "  real(8) :: adg_h, adg_num, adg_den, adg_tn, adg_lhs, adg_rhs"
    )
    .unwrap();
    let mut ext_names = vec![unit.name.clone()];
    ext_names.extend(tangent.map(|s| s.unit.clone()));
    if needs_interface(&slots) && unit.host.is_none() {
        let mut procs = vec![(
            unit.name.clone(),
            slots
                .iter()
                .filter(|s| !s.is_result && s.module.is_none())
                .map(|s| (s.var.clone(), s))
                .collect::<Vec<_>>(),
        )];
        for sig in &sigs {
            let mut args = Vec::new();
            for a in &sig.args {
                let slot = a
                    .original
                    .as_ref()
                    .and_then(|o| slots.iter().find(|s| s.key == key(o)))
                    .ok_or_else(|| format!("{}: argument `{}` is no dummy", sig.unit, a.name))?;
                args.push((a.name.clone(), slot));
            }
            procs.push((sig.unit.clone(), args));
        }
        d.push_str(&interface_block(unit, &procs, print)?);
    } else {
        d.push_str(&externals(unit, &slots, &ext_names)?);
    }

    // Allocate derivatives and helpers; draw directions and weights.
    for s in &real_slots {
        if s.rank() > 0 && s.module.is_none() {
            if s.parent.is_none() {
                writeln!(b, "  allocate({}({}))", s.helper("d"), s.same_bounds()).unwrap();
            } else if s.placeholder() {
                writeln!(b, "  allocate({}({}))", s.helper("z"), s.same_bounds()).unwrap();
            }
        }
    }
    let helpers_of = |s: &Slot| -> Vec<&'static str> {
        let mut v = Vec::new();
        if s.independent {
            v.push("dir");
        }
        if s.dependent {
            v.extend(["w", "td", "t0", "p0", "yp", "ym", "fd"]);
        }
        v
    };
    for s in &slots {
        if s.rank() == 0 {
            continue;
        }
        for p in helpers_of(s) {
            writeln!(b, "  allocate({}({}))", s.helper(p), s.same_bounds()).unwrap();
        }
    }
    for s in slots.iter().filter(|s| s.independent || s.dependent) {
        for p in ["dir", "w"] {
            if (p == "dir" && !s.independent) || (p == "w" && !s.dependent) {
                continue;
            }
            let h = s.helper(p);
            if s.rank() == 0 {
                writeln!(b, "  {h} = adg_rand(-1.0d0, 1.0d0)").unwrap();
            } else {
                writeln!(b, "  allocate(adg_tmp(size({h})))").unwrap();
                writeln!(b, "  call adg_fill(adg_tmp, -1.0d0, 1.0d0)").unwrap();
                writeln!(b, "  {h} = reshape(adg_tmp, shape({h}))").unwrap();
                writeln!(b, "  deallocate(adg_tmp)").unwrap();
            }
            if p == "dir" {
                // Relative perturbations: each direction component is scaled by the
                // magnitude of its input, so that h means the same for every input.
                let saved = s.helper("s");
                writeln!(
                    b,
                    "  {h} = {h} * merge(abs(real({saved}, 8)), 1.0d0, {saved} /= 0)"
                )
                .unwrap();
            }
        }
    }
    let dep_copy = |b: &mut String, prefix: &str| {
        for s in &deps {
            writeln!(b, "  {} = {}", s.helper(prefix), s.var).unwrap();
        }
    };
    let zero_derivatives = |b: &mut String, mode: char| {
        for s in &real_slots {
            writeln!(b, "  {} = 0", s.dvar_of(mode)).unwrap();
        }
    };

    // Reference primal run.
    b.push_str("  ! primal reference\n");
    b.push_str(&restore(&slots));
    b.push_str(&primal_call(unit, &slots));
    dep_copy(&mut b, "p0");

    // Central differences.
    b.push_str("  ! central finite differences\n");
    writeln!(b, "  adg_h = {}", real8(check.fd_step)).unwrap();
    for (sign, prefix) in [("+", "yp"), ("-", "ym")] {
        b.push_str(&restore(&slots));
        for s in &indeps {
            writeln!(
                b,
                "  {v} = real({} {sign} adg_h * {}, kind({v}))",
                s.helper("s"),
                s.helper("dir"),
                v = s.var
            )
            .unwrap();
        }
        b.push_str(&primal_call(unit, &slots));
        dep_copy(&mut b, prefix);
    }
    for s in &deps {
        writeln!(
            b,
            "  {} = ({} - {}) / (2.0d0 * adg_h)",
            s.helper("fd"),
            s.helper("yp"),
            s.helper("ym")
        )
        .unwrap();
    }
    // The same with a ten times larger step: if the two disagree, the function is not
    // smooth enough at this point for differences to judge derivatives (a corpus bug).
    for (sign, prefix) in [("+", "yp"), ("-", "ym")] {
        b.push_str(&restore(&slots));
        for s in &indeps {
            writeln!(
                b,
                "  {v} = real({} {sign} 10.0d0 * adg_h * {}, kind({v}))",
                s.helper("s"),
                s.helper("dir"),
                v = s.var
            )
            .unwrap();
        }
        b.push_str(&primal_call(unit, &slots));
        dep_copy(&mut b, prefix);
    }
    b.push_str("  adg_num = 0.0d0\n  adg_den = 0.0d0\n");
    for s in &deps {
        let diff = format!(
            "({} - ({} - {}) / (20.0d0 * adg_h))**2",
            s.helper("fd"),
            s.helper("yp"),
            s.helper("ym")
        );
        writeln!(b, "  adg_num = adg_num + {}", s.total(&diff)).unwrap();
        let f2 = format!("{}**2", s.helper("fd"));
        writeln!(b, "  adg_den = adg_den + {}", s.total(&f2)).unwrap();
    }
    writeln!(
        b,
        "  write(*,'(a,es25.16e3,a,es25.16e3)') 'CHECK fd-consistency {root} relerr=', \
         sqrt(adg_num) / max(sqrt(adg_den), tiny(1.0d0)), ' fdnorm=', sqrt(adg_den)"
    )
    .unwrap();

    if let Some(sig) = tangent {
        b.push_str("  ! tangent\n");
        b.push_str(&restore(&slots));
        zero_derivatives(&mut b, 'd');
        if check.contract {
            // INTERFACE.md §4: derivatives of non-independents are taken as zero,
            // whatever they hold.
            for s in real_slots
                .iter()
                .filter(|s| !s.independent && !s.is_result)
                .filter(|s| !s.dvar_of('d').starts_with("adg_z_"))
            {
                writeln!(b, "  {} = 7.0", s.dvar_of('d')).unwrap();
            }
        }
        for s in &indeps {
            writeln!(
                b,
                "  {d} = real({}, kind({d}))",
                s.helper("dir"),
                d = s.dvar_of('d')
            )
            .unwrap();
        }
        let args = sig_args(sig, &slots, &structs)?.join(", ");
        if sig.is_function {
            let r = slots
                .iter()
                .find(|s| s.is_result)
                .expect("function result slot");
            writeln!(b, "  {} = {}({args})", r.dvar_of('d'), sig.unit).unwrap();
        } else {
            writeln!(b, "  call {}({args})", sig.unit).unwrap();
        }
        for s in &deps {
            writeln!(b, "  {} = {}", s.helper("td"), s.dvar_of('d')).unwrap();
        }
        dep_copy(&mut b, "t0");
        // The tangent's primal outputs are those of the original.
        b.push_str("  adg_num = 0.0d0\n  adg_den = 0.0d0\n");
        for s in &deps {
            let diff = format!("({} - {})**2", s.helper("t0"), s.helper("p0"));
            writeln!(b, "  adg_num = adg_num + {}", s.total(&diff)).unwrap();
            let p2 = format!("{}**2", s.helper("p0"));
            writeln!(b, "  adg_den = adg_den + {}", s.total(&p2)).unwrap();
        }
        writeln!(
            b,
            "  write(*,'(a,es25.16e3)') 'CHECK tangent-primal {root} relerr=', \
             sqrt(adg_num) / max(sqrt(adg_den), tiny(1.0d0))"
        )
        .unwrap();
        // Tangent against differences.
        b.push_str("  adg_num = 0.0d0\n  adg_den = 0.0d0\n  adg_tn = 0.0d0\n");
        for s in &deps {
            let diff = format!("({} - {})**2", s.helper("td"), s.helper("fd"));
            writeln!(b, "  adg_num = adg_num + {}", s.total(&diff)).unwrap();
            let f2 = format!("{}**2", s.helper("fd"));
            writeln!(b, "  adg_den = adg_den + {}", s.total(&f2)).unwrap();
            let t2 = format!("{}**2", s.helper("td"));
            writeln!(b, "  adg_tn = adg_tn + {}", s.total(&t2)).unwrap();
        }
        writeln!(
            b,
            "  write(*,'(a,es25.16e3,a,es25.16e3,a,es25.16e3)') 'CHECK tangent {root} relerr=', \
             sqrt(adg_num) / max(sqrt(adg_den), sqrt(adg_tn), tiny(1.0d0)), \
             ' fdnorm=', sqrt(adg_den), ' tnorm=', sqrt(adg_tn)"
        )
        .unwrap();
    }

    if let Some(sig) = adjoint {
        b.push_str("  ! adjoint\n");
        b.push_str(&restore(&slots));
        zero_derivatives(&mut b, 'b');
        if check.contract {
            // INTERFACE.md §4: the adjoints of input-only independents are overwritten,
            // not accumulated; those of what is not a dependent (a variable, or the
            // components of a structure a path does not name) weigh nothing, whatever
            // they hold.
            // An inactive independent has no adjoint argument: its driver variable keeps
            // the zero it was given, which is its gradient. (adgen adds to the adjoint
            // of an assumed-size array, W0501: `horner_poly` and `tridiag_thomas` fail
            // this check, as the warning says.)
            let passed = differentiated(sig, &slots);
            for s in real_slots
                .iter()
                .filter(|s| !s.dependent && !s.is_result)
                .filter(|s| !s.dvar_of('b').starts_with("adg_z_"))
                .filter(|s| {
                    passed.contains(&s.key)
                        || s.parent
                            .as_deref()
                            .is_some_and(|p| passed.contains(&key(p)))
                })
            {
                writeln!(b, "  {} = 7.0", s.dvar_of('b')).unwrap();
            }
        }
        for s in &deps {
            writeln!(
                b,
                "  {d} = real({}, kind({d}))",
                s.helper("w"),
                d = s.dvar_of('b')
            )
            .unwrap();
        }
        let args = sig_args(sig, &slots, &structs)?.join(", ");
        writeln!(b, "  call {}({args})", sig.unit).unwrap();
        b.push_str("  adg_lhs = 0.0d0\n  adg_rhs = 0.0d0\n");
        for s in &indeps {
            let p = format!("{} * {}", s.helper("dir"), s.dvar_of('b'));
            writeln!(b, "  adg_lhs = adg_lhs + {}", s.total(&p)).unwrap();
        }
        let reference = if tangent.is_some() { "td" } else { "fd" };
        for s in &deps {
            let p = format!("{} * {}", s.helper(reference), s.helper("w"));
            writeln!(b, "  adg_rhs = adg_rhs + {}", s.total(&p)).unwrap();
        }
        let kind = if tangent.is_some() {
            "adjoint"
        } else {
            "adjoint-fd"
        };
        writeln!(
            b,
            "  write(*,'(a,es25.16e3,a,es25.16e3,a,es25.16e3)') 'CHECK {kind} {root} relerr=', \
             abs(adg_lhs - adg_rhs) / max(abs(adg_lhs), abs(adg_rhs), tiny(1.0d0)), \
             ' lhs=', adg_lhs, ' rhs=', adg_rhs"
        )
        .unwrap();
        if check.contract && !cleared.is_empty() {
            // INTERFACE.md §4: the adjoints of output-only dependents are zero on exit.
            b.push_str("  adg_num = 0.0d0\n");
            for s in &cleared {
                let m = if s.rank() == 0 {
                    format!("abs({})", s.dvar_of('b'))
                } else {
                    format!("maxval(abs({}))", s.dvar_of('b'))
                };
                writeln!(b, "  adg_num = max(adg_num, real({m}, 8))").unwrap();
            }
            writeln!(
                b,
                "  write(*,'(a,es25.16e3)') 'CHECK adjoint-cleared {root} relerr=', adg_num"
            )
            .unwrap();
        }
    }

    let mut out = String::new();
    out.push_str("program adgen_derivative_driver\n");
    let mut suffixes = Vec::new();
    if tangent.is_some() {
        suffixes.push(("d", dtypes));
    }
    if adjoint.is_some() {
        suffixes.push(("b", dtypes));
    }
    out.push_str(&module_uses_with(
        unit,
        &sigs,
        &type_uses(&structs, types, &suffixes)?,
    ));
    out.push_str(&global_uses(
        unit,
        &slots,
        tangent.is_some(),
        adjoint.is_some(),
    ));
    out.push_str("  implicit none\n");
    out.push_str(&d);
    out.push_str(&b);
    out.push_str(CONTAINS);
    out.push_str("end program adgen_derivative_driver\n");
    Ok((
        out,
        DerivativeChecks {
            tangent: tangent.is_some(),
            adjoint: adjoint.is_some(),
            adjoint_cleared: adjoint.is_some() && check.contract && !cleared.is_empty(),
        },
    ))
}
