//! The structs of a C root's arguments: their members as the driver fills them, and
//! the derivative structs as the generated headers define them.

use super::*;

/// The members of the struct argument `parent` (type `tname`) below `path`, as slots.
#[allow(clippy::too_many_arguments)]
pub(super) fn expand(
    out: &mut Vec<Slot>,
    types: &Types,
    check: &CheckConfig,
    parent: &str,
    path: &str,
    tname: &str,
    roles: (&BTreeSet<String>, &BTreeSet<String>),
    depth: usize,
) -> Result<(), String> {
    let info = types
        .get(&key(tname))
        .ok_or_else(|| format!("the driver finds no definition of `{tname}`"))?;
    if depth > 8 {
        return Err(format!("`{tname}` nests too deeply"));
    }
    for c in &info.components {
        let p = format!("{path}.{}", c.name);
        let mut len = 1;
        for d in &c.dims {
            let Bound::Expr(e) = &d.upper else {
                return Err(format!("`{parent}{p}`: a member of unknown size"));
            };
            let upper =
                eval(e, check).ok_or_else(|| format!("`{parent}{p}`: cannot evaluate its size"))?;
            let lower = d.lower.as_ref().map(|l| eval(l, check)).unwrap_or(Some(1));
            len *= upper
                - lower.ok_or_else(|| format!("`{parent}{p}`: cannot evaluate its bound"))?
                + 1;
        }
        if c.ty == ScalarType::Derived {
            if !c.dims.is_empty() {
                return Err(format!(
                    "the driver cannot fill the struct array member `{parent}{p}`"
                ));
            }
            let t = c.type_name.clone().unwrap_or_default();
            expand(out, types, check, parent, &p, &t, roles, depth + 1)?;
            continue;
        }
        let real = matches!(c.ty, ScalarType::Real(_));
        out.push(Slot {
            var: format!("{parent}{p}"),
            key: key(&format!("{parent}{p}")),
            ty: c.ty,
            len,
            pass: Pass::Ref,
            is_result: false,
            independent: covers(roles.0, &format!("{parent}{p}")) && real,
            dependent: covers(roles.1, &format!("{parent}{p}")) && real,
            parent: Some(parent.to_string()),
            path: p,
            arr: !c.dims.is_empty(),
            in_d: true,
            in_b: true,
            row_len: None,
        });
    }
    Ok(())
}

/// C definitions of the struct types of the arguments (members first), from the IL.
pub(super) fn struct_definitions(
    structs: &[StructArg],
    types: &Types,
    check: &CheckConfig,
) -> Result<String, String> {
    fn visit(
        t: &str,
        types: &Types,
        check: &CheckConfig,
        done: &mut BTreeSet<String>,
        out: &mut String,
    ) -> Result<(), String> {
        if !done.insert(key(t)) {
            return Ok(());
        }
        let info = types
            .get(&key(t))
            .ok_or_else(|| format!("the driver finds no definition of `{t}`"))?;
        // A struct of a user header: the driver includes the header, as a user's does.
        if let Some(h) = &info.header {
            let line = format!("#include \"{h}\"\n");
            if !out.contains(&line) {
                out.insert_str(0, &line);
            }
            return Ok(());
        }
        if !info.name.starts_with("struct ") {
            return Err(format!("the driver cannot define the typedef `{t}`"));
        }
        for c in info
            .components
            .iter()
            .filter(|c| c.ty == ScalarType::Derived)
        {
            visit(
                c.type_name.as_deref().unwrap_or(""),
                types,
                check,
                done,
                out,
            )?;
        }
        writeln!(out, "{} {{", info.name).unwrap();
        for c in &info.components {
            let ty = if c.ty == ScalarType::Derived {
                c.type_name.clone().unwrap_or_default()
            } else {
                c_type(c.ty).to_string()
            };
            let mut ext = String::new();
            for d in c.dims.iter().rev() {
                let Bound::Expr(e) = &d.upper else {
                    return Err(format!("`{}`: a member of unknown size", c.name));
                };
                let upper = eval(e, check)
                    .ok_or_else(|| format!("`{}`: cannot evaluate its size", c.name))?;
                let lower = d
                    .lower
                    .as_ref()
                    .map(|l| eval(l, check))
                    .unwrap_or(Some(1))
                    .unwrap_or(1);
                write!(ext, "[{}]", upper - lower + 1).unwrap();
            }
            writeln!(out, "  {ty} {}{ext};", c.name).unwrap();
        }
        out.push_str("};\n");
        Ok(())
    }
    let mut done = BTreeSet::new();
    let mut out = String::new();
    for st in structs {
        visit(&st.tname, types, check, &mut done, &mut out)?;
    }
    Ok(out)
}

/// The derivative structs (`struct cell_d { ... };`) of the generated headers.
pub(super) fn header_structs(headers: &[(String, String)]) -> Types {
    let mut out = Types::new();
    for (_, text) in headers {
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let l = line.trim();
            // `struct cell_d {`, or `typedef struct {` named at its end (`} state_t_d;`).
            let mut name = l
                .strip_prefix("struct ")
                .and_then(|r| r.strip_suffix(" {"))
                .map(|n| format!("struct {n}"));
            if name.is_none() && l != "typedef struct {" {
                continue;
            }
            let mut comps = Vec::new();
            for m in lines.by_ref() {
                let m = m.trim();
                if let Some(end) = m.strip_prefix('}') {
                    if name.is_none() {
                        name = Some(end.trim().trim_end_matches(';').trim().to_string());
                    }
                    break;
                }
                let m = m.trim_end_matches(';');
                let base = m.split('[').next().unwrap_or(m);
                let Some((ty, field)) = base.rsplit_once(' ') else {
                    continue;
                };
                let nested = ty.strip_prefix("struct ");
                comps.push(Component {
                    name: field.trim().to_string(),
                    ty: if nested.is_some() {
                        ScalarType::Derived
                    } else {
                        ScalarType::Real(8)
                    },
                    type_name: nested.map(|n| format!("struct {}", n.trim())),
                    dims: Vec::new(),
                });
            }
            let Some(name) = name else { continue };
            out.insert(
                key(&name),
                crate::validate::fortran_driver::TypeInfo {
                    name,
                    module: None,
                    components: comps,
                    header: None,
                },
            );
        }
    }
    out
}
