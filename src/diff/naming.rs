//! Names of derivative procedures (INTERFACE.md §3): `f_d`, `f_b`, or as the request's
//! naming patterns say, made fresh against every name of the program, except the user's
//! derivatives of black boxes, which keep the names the manifest gives them; and the
//! paths of derivative files, named like the procedures.

use std::collections::BTreeMap;

use crate::analysis::Analyses;
use crate::il::key;
use crate::il::names::Namer;
use crate::ir::Ir;
use crate::request::{Mode, Naming, OutputLayout, Request};

/// The derivative procedure of each differentiated unit (by key of the original): the
/// user's derivatives of black boxes keep the names the manifest gives them (or `f_d`,
/// `f_b`), and the generated names avoid them. Also the names of the roots' own
/// derivatives where they differ ([`called_root`]).
pub(super) fn derivative_unit_names(
    ir: &Ir,
    analyses: &Analyses,
    request: &Request,
    mode: Mode,
    taken: &mut Namer,
) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let mut unit_names = BTreeMap::new();
    for b in &request.black_boxes {
        let name = match mode {
            Mode::Tangent => b.tangent.clone(),
            Mode::Adjoint => b.adjoint.clone(),
        }
        .unwrap_or_else(|| request.naming.procedure(mode, &b.name));
        taken.reserve(&name);
        if let Some(i) = ir.index_of(&b.name) {
            if analyses.units[i].is_differentiated() {
                unit_names.insert(key(&b.name), name);
            }
        }
    }
    let mut root_names = BTreeMap::new();
    for (i, uir) in ir.units.iter().enumerate() {
        if analyses.units[i].is_differentiated()
            && !unit_names.contains_key(crate::il::key_ref(&uir.unit.name).as_ref())
        {
            let name = taken.fresh(&request.naming.procedure(mode, &uir.unit.name));
            if called_root(ir, analyses, request, mode, i) {
                // The root's own derivative keeps the name the contract gives it; the
                // derivative other derivatives call is another procedure.
                root_names.insert(key(&uir.unit.name), name);
                let callee = taken.fresh(&request.naming.procedure(mode, &uir.unit.name));
                unit_names.insert(key(&uir.unit.name), callee);
            } else {
                unit_names.insert(key(&uir.unit.name), name);
            }
        }
    }
    (unit_names, root_names)
}

/// Whether unit `i` is a root asking for `mode` that a differentiated unit (itself, if
/// recursive) calls. (A root not asking for the mode has only the callers' derivative.)
/// A root's derivatives keep INTERFACE.md §4's contract: derivatives of what is not an
/// independent taken as zero on entry, adjoints of independents overwritten, of the
/// others zeroed on exit. A caller's derivative needs the opposite: its own derivatives
/// passed through and accumulated. Such a root gets two derivatives: the root's, for
/// the user, and the callee's, which the callers' derivatives call.
pub(super) fn called_root(
    ir: &Ir,
    analyses: &Analyses,
    request: &Request,
    mode: Mode,
    i: usize,
) -> bool {
    request
        .root(&ir.units[i].unit.name)
        .is_some_and(|r| r.modes.contains(&mode))
        && analyses.units[i].is_differentiated()
        && (0..ir.units.len())
            .any(|c| analyses.units[c].is_differentiated() && ir.call_graph.callees(c).contains(&i))
}

/// The output path, without extension, of the derivative of source `path` in `mode`:
/// named like the derivative procedures (`heat_d`), as Tapenade names its files, and
/// placed as the layout says.
pub(super) fn derivative_file_stem(
    layout: &OutputLayout,
    naming: &Naming,
    mode: Mode,
    path: &str,
) -> String {
    let stem = output_stem(path);
    let (dir, base) = stem.rsplit_once('/').unwrap_or(("", &stem));
    match layout {
        OutputLayout::PerSource if !dir.is_empty() => {
            format!("{dir}/{}", naming.procedure(mode, base))
        }
        OutputLayout::PerSource | OutputLayout::Flat => naming.procedure(mode, base),
        OutputLayout::Single(name) => naming.procedure(mode, name),
    }
}

/// Where the derivative files of the source at `path` go, relative to the output
/// directory, without extension: the source's own path, with each `..` spelled
/// `_parent` and a leading `/` (an absolute path) `_root`, so that sources outside the
/// manifest's folder (`../src/model.f90`) still write inside the output directory,
/// at a place that depends only on the path as the manifest gives it.
pub fn output_stem(path: &str) -> String {
    let path = path.replace('\\', "/");
    // The extension is the last file name's.
    let name_start = path.rfind('/').map_or(0, |i| i + 1);
    let stem = match path[name_start..].rfind('.') {
        Some(dot) if dot > 0 => &path[..name_start + dot],
        _ => path.as_str(),
    };
    let mut parts = Vec::new();
    for (i, part) in stem.split('/').enumerate() {
        match part {
            "" if i == 0 => parts.push("_root".to_string()),
            "" | "." => {}
            ".." => parts.push("_parent".to_string()),
            p => parts.push(p.replace(':', "_")),
        }
    }
    parts.join("/")
}

impl super::Signature {
    /// Its names as the user spelled them (`il::names::spelled`).
    pub fn spelled(mut self) -> super::Signature {
        let sp = |s: &mut String| *s = crate::il::names::spelled(s).into_owned();
        sp(&mut self.root);
        sp(&mut self.unit);
        for a in &mut self.args {
            sp(&mut a.name);
            a.original.as_mut().map(sp);
        }
        self.module.as_mut().map(sp);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::output_stem;

    #[test]
    fn stems_stay_inside_the_output_directory() {
        assert_eq!(output_stem("src/model.f90"), "src/model");
        assert_eq!(output_stem("../src/model.f90"), "_parent/src/model");
        assert_eq!(output_stem("../../a/./b.c"), "_parent/_parent/a/b");
        assert_eq!(output_stem("/abs/dir/m.f"), "_root/abs/dir/m");
        assert_eq!(output_stem("C:/work/m.f90"), "C_/work/m");
        assert_eq!(output_stem("../noext"), "_parent/noext");
    }
}
