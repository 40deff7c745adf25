//! `adgen explain`: each statement of each differentiated procedure, annotated with what
//! the analyses found (seeds/000 §5.2), so a user can see why a variable is active, why
//! a value is saved, why a statement leaves the adjoint's forward sweep.
//!
//! Per assignment or call: the variables active before and after it (varied ∩ useful),
//! diff-live after it, to-be-recorded before it, the values the adjoint saves there,
//! whether the adjoint's forward sweep keeps it, and the variables written on every path
//! from the entry to just after it (in-out's must-written set). Per test or loop: whether
//! it is kept. Per procedure: the variables with derivatives, and its adjoint-out set (the
//! arguments its adjoint leaves changed, which a caller must save around a checkpointed
//! call). Last, per derived type: the fields its derivative type keeps and those it drops
//! (`analysis::fields`).

use std::fmt::Write as _;

use crate::diff::{self, Ctx, UnitGen, adjoint};
use crate::il::{Stmt, StmtKind};
use crate::ir::{UnitIr, ZoneSet};
use crate::{Diagnostics, Failure, Mode, Request, SourceInput, SourceMap, analysis, back};

/// The annotated listing of every differentiated unit reached from the request's roots.
pub fn explain(inputs: &[SourceInput], request: &Request) -> Result<String, Failure> {
    let mut sources = SourceMap::default();
    let fail = |sources: &SourceMap, diagnostics: Vec<crate::Diagnostic>| Failure {
        rendered: Diagnostics(diagnostics.clone()).render(sources),
        diagnostics,
    };
    let program = crate::parse_sources(inputs, &mut sources).map_err(|d| fail(&sources, d))?;
    let request = &*crate::prepare::spelling::spell_request(request, &program);
    let program = crate::prepare::prepare(program, request).map_err(|d| fail(&sources, d))?;
    // (SAVE state given modules of its own, as `adgen diff` gives it.)
    let mut relocated = None;
    let (program, ir, analyses) =
        crate::analyzed(&program, &mut relocated, request).map_err(|d| fail(&sources, d))?;
    if !analyses.errors.is_empty() {
        return Err(fail(&sources, analyses.errors.clone()));
    }
    let mut unit_names = std::collections::BTreeMap::new();
    for (i, u) in ir.units.iter().enumerate() {
        if analyses.units[i].is_differentiated() {
            unit_names.insert(crate::il::key(&u.unit.name), format!("{}_b", u.unit.name));
        }
    }
    let reserved_names = crate::il::names::Namer::shared_keys(
        program
            .units()
            .map(|u| u.name.as_str())
            .chain(unit_names.values().map(String::as_str)),
    );
    let ctx = Ctx {
        reserved_names,
        procedures: program.index(),
        program,
        ir: &ir,
        analyses: &analyses,
        request,
        mode: Mode::Adjoint,
        unit_names,
        root_names: Default::default(),
        restored: Default::default(),
        module_names: Default::default(),
        type_names: Default::default(),
        global_names: vec![None; ir.globals.len()],
        common_blocks: Default::default(),
    };
    // Callees first, as the adjoint is generated (a caller's saves depend on what its
    // callees' adjoints give back); printed callers first.
    let mut texts = Vec::new();
    for i in ir.call_graph.bottom_up().into_iter().flatten() {
        if !analyses.units[i].is_differentiated() {
            continue;
        }
        let mut out = String::new();
        let mut ug = UnitGen::new(&ctx, i);
        let (plan, _, unsaved) = adjoint::settle(&mut ug);
        let restored = adjoint::record_restored(&ug, &unsaved);
        let uir = &ir.units[i];
        let ua = &analyses.units[i];
        let _ = writeln!(out, "{}:", uir.unit.name);
        let derivs: Vec<&str> = ua
            .deriv_zones
            .iter_ones()
            .map(|z| uir.zones.zones[z].name.as_str())
            .collect();
        let _ = writeln!(out, "  variables with derivatives: {}", list(&derivs));
        let adj_out: Vec<&str> = uir
            .unit
            .args
            .iter()
            .enumerate()
            .filter(|(k, a)| {
                ua.summary.writes[*k] && !restored.contains(crate::il::key_ref(a).as_ref())
            })
            .map(|(_, a)| a.as_str())
            .collect();
        let _ = writeln!(
            out,
            "  adjoint-out (arguments its adjoint leaves changed): {}",
            list(&adj_out)
        );
        let notes = Notes {
            uir,
            ua,
            plan: &plan,
        };
        notes.block(&uir.unit.body, 1, &mut out);
        out.push('\n');
        texts.push(out);
    }
    let mut listing: String = texts.into_iter().rev().collect();
    listing.push_str(&derivative_fields(program, &analyses));
    Ok(crate::il::names::spelled(&listing).into_owned())
}

/// Per derived type: the fields its derivative type keeps, and the differentiable ones
/// it drops because they never carry a derivative (`analysis::fields`).
fn derivative_fields(program: &crate::il::Program, analyses: &analysis::Analyses) -> String {
    use crate::il::{BaseType, DeclKind};
    let mut out = String::new();
    let mut seen = std::collections::BTreeSet::new();
    for unit in program.units() {
        for d in &unit.decls {
            let DeclKind::TypeDef {
                name, components, ..
            } = &d.kind
            else {
                continue;
            };
            if !seen.insert(crate::il::key(name)) {
                continue;
            }
            let (mut kept, mut dropped) = (Vec::new(), Vec::new());
            for c in components {
                let DeclKind::Var { spec, entities, .. } = &c.kind else {
                    continue;
                };
                if !matches!(
                    spec.base,
                    BaseType::Real
                        | BaseType::DoublePrecision
                        | BaseType::Complex
                        | BaseType::DoubleComplex
                        | BaseType::Derived
                ) {
                    continue;
                }
                for e in entities {
                    if analyses.fields.is_filler(name, &e.name) {
                        kept.push(format!(
                            "{} (never active: kept so the type is not empty)",
                            e.name
                        ));
                    } else if analyses.fields.keeps(name, &e.name) {
                        kept.push(e.name.clone());
                    } else {
                        dropped.push(e.name.as_str());
                    }
                }
            }
            let kept: Vec<&str> = kept.iter().map(String::as_str).collect();
            let _ = writeln!(
                out,
                "type {name}: derivative fields: {}; without derivative: {}",
                list(&kept),
                list(&dropped)
            );
        }
    }
    out
}

struct Notes<'a> {
    uir: &'a UnitIr<'a>,
    ua: &'a analysis::UnitAnalysis,
    plan: &'a diff::plan::Plan,
}

fn list(names: &[&str]) -> String {
    if names.is_empty() {
        "-".to_string()
    } else {
        names.join(", ")
    }
}

impl Notes<'_> {
    fn names(&self, set: &ZoneSet) -> String {
        list(&self.uir.zones.names(set))
    }

    fn block(&self, stmts: &[Stmt], depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { .. }
                | StmtKind::Call { .. }
                | StmtKind::Allocate(_)
                | StmtKind::Deallocate(_) => {
                    let text = back::fortran::write_stmt(s, 0);
                    let _ = writeln!(out, "{pad}{}", text.trim_end());
                    if let Some(&node) = self.uir.flow.node_of.get(&s.id) {
                        self.node(node, &pad, out);
                    }
                }
                StmtKind::If {
                    arms, else_body, ..
                } => {
                    for (i, (cond, body)) in arms.iter().enumerate() {
                        let kw = if i == 0 { "if" } else { "else if" };
                        let _ = writeln!(
                            out,
                            "{pad}{kw} ({}) then{}",
                            back::fortran::write_expr(cond),
                            self.kept(s)
                        );
                        self.block(body, depth + 1, out);
                    }
                    if let Some(body) = else_body {
                        let _ = writeln!(out, "{pad}else");
                        self.block(body, depth + 1, out);
                    }
                    let _ = writeln!(out, "{pad}end if");
                }
                StmtKind::Do {
                    var,
                    start,
                    end,
                    step,
                    body,
                    ..
                } => {
                    let step = step
                        .as_ref()
                        .map(|e| format!(", {}", back::fortran::write_expr(e)))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "{pad}do {var} = {}, {}{step}{}",
                        back::fortran::write_expr(start),
                        back::fortran::write_expr(end),
                        self.kept(s)
                    );
                    self.block(body, depth + 1, out);
                    let _ = writeln!(out, "{pad}end do");
                }
                StmtKind::DoWhile { cond, body, .. } => {
                    let _ = writeln!(
                        out,
                        "{pad}do while ({}){}",
                        back::fortran::write_expr(cond),
                        self.kept(s)
                    );
                    self.block(body, depth + 1, out);
                    let _ = writeln!(out, "{pad}end do");
                }
                StmtKind::Comment(_) => {}
                _ => {
                    let _ = writeln!(out, "{pad}{}", back::fortran::write_stmt(s, 0).trim_end());
                }
            }
        }
    }

    fn kept(&self, s: &Stmt) -> &'static str {
        if self.plan.keep_all || self.plan.live_constructs.contains(&s.id) {
            "      ! kept in the adjoint's forward sweep"
        } else {
            "      ! not needed by the adjoint"
        }
    }

    fn node(&self, node: usize, pad: &str, out: &mut String) {
        let (Some(v), Some(u)) = (&self.ua.varied, &self.ua.useful) else {
            return;
        };
        let active_before = v.before[node].clone() & u.before[node].clone();
        let active_after = v.after[node].clone() & u.after[node].clone();
        let _ = writeln!(
            out,
            "{pad}  ! active before: {}; active after: {}",
            self.names(&active_before),
            self.names(&active_after)
        );
        let dl = self
            .plan
            .diff_live_after
            .get(node)
            .map(|s| self.names(s))
            .unwrap_or_else(|| "all".into());
        let _ = writeln!(
            out,
            "{pad}  ! diff-live after: {dl}; to be recorded before: {}; adjoint saves: {}; forward sweep: {}",
            self.names(&self.plan.tbr_before[node]),
            self.names(&self.plan.save[node]),
            if self.plan.present[node] {
                "kept"
            } else {
                "removed"
            }
        );
        // In-out analysis: what is certainly set here, the ground of the W0301/W0303
        // warnings about variables used before they are set.
        let _ = writeln!(
            out,
            "{pad}  ! written on every path from the entry to after it: {}",
            self.names(&self.ua.inout.must_written.after[node])
        );
    }
}
