//! Procedures: leading comments, header, declarations (interface bodies are procedures
//! again), body, `end` line.

use super::decl::{decl_text, write_type_spec};
use super::stmt::write_block;
use super::writer::Writer;
use crate::il::{Decl, DeclKind, Unit, UnitKind};

/// Writes one unit at the writer's indentation.
pub(crate) fn write_unit(w: &mut Writer, unit: &Unit) {
    write_host(w, unit, &[]);
}

/// The units after `units[0]` that are its internal procedures (they follow it).
pub(crate) fn internal_count(units: &[Unit]) -> usize {
    let Some((host, rest)) = units.split_first() else {
        return 0;
    };
    rest.iter()
        .take_while(|u| {
            u.internal_of
                .as_deref()
                .is_some_and(|h| crate::il::key(h) == crate::il::key(&host.name))
        })
        .count()
}

/// Writes a unit with its internal procedures after its CONTAINS.
pub(crate) fn write_host(w: &mut Writer, unit: &Unit, internal: &[Unit]) {
    let renamed;
    let unit = if unit.source_calls.is_empty() {
        unit
    } else {
        renamed = with_source_names(unit);
        &renamed
    };
    let _arrays = super::ranks::Scope::enter(unit);
    for comment in &unit.leading_comments {
        w.comment(comment);
    }
    let keyword = match unit.kind {
        UnitKind::Subroutine => "subroutine",
        UnitKind::Function => "function",
        UnitKind::Module => {
            write_module(w, unit, &[]);
            return;
        }
    };
    let mut header = String::new();
    if unit.recursive {
        header.push_str("recursive ");
    }
    if unit.elemental {
        header.push_str("elemental ");
    }
    if unit.kind == UnitKind::Function {
        if let Some(spec) = &unit.prefix_type {
            header.push_str(&write_type_spec(spec));
            header.push(' ');
        }
    }
    header.push_str(&format!(
        "{keyword} {}({})",
        unit.name,
        unit.args.join(", ")
    ));
    if unit.kind == UnitKind::Function && unit.explicit_result {
        if let Some(result) = &unit.result {
            header.push_str(&format!(" result({result})"));
        }
    }
    match unit.bind.as_ref().map(|b| &b.name) {
        Some(Some(name)) => header.push_str(&format!(" bind(C, name=\"{name}\")")),
        Some(None) => header.push_str(" bind(C)"),
        None => {}
    }
    w.line(None, &header, None);
    w.push();
    for decl in &unit.decls {
        write_decl(w, decl);
    }
    if !unit.decls.is_empty() && !unit.body.is_empty() {
        w.blank_line();
    }
    write_block(w, &unit.body);
    w.pop();
    if !internal.is_empty() {
        w.line(None, "contains", None);
        w.push();
        for (i, p) in internal.iter().enumerate() {
            if i > 0 {
                w.blank_line();
            }
            write_unit(w, p);
        }
        w.pop();
    }
    w.line(None, &format!("end {keyword} {}", unit.name), None);
}

/// Writes a module: its declarations, then `contains` and its procedures.
pub(crate) fn write_module(w: &mut Writer, module: &Unit, procedures: &[Unit]) {
    let _arrays = super::ranks::Scope::enter(module);
    for comment in &module.leading_comments {
        w.comment(comment);
    }
    w.line(None, &format!("module {}", module.name), None);
    w.push();
    for decl in &module.decls {
        write_decl(w, decl);
    }
    w.pop();
    if !procedures.is_empty() {
        w.blank_line();
        w.line(None, "contains", None);
        w.push();
        let mut i = 0;
        while i < procedures.len() {
            if i > 0 {
                w.blank_line();
            }
            let n = internal_count(&procedures[i..]);
            write_host(w, &procedures[i], &procedures[i + 1..=i + n]);
            i += 1 + n;
        }
        w.pop();
    }
    w.line(None, &format!("end module {}", module.name), None);
}

/// Writes one declaration at the writer's indentation.
pub(crate) fn write_decl(w: &mut Writer, decl: &Decl) {
    match &decl.kind {
        DeclKind::Comment(text) => w.comment(text),
        DeclKind::TypeDef {
            name,
            components,
            bindings,
            ..
        } => {
            w.line(None, &format!("type {name}"), None);
            w.push();
            for c in components {
                write_decl(w, c);
            }
            if !bindings.is_empty() {
                w.pop();
                w.line(None, "contains", None);
                w.push();
                for b in bindings {
                    w.line(None, &b.text, None);
                }
            }
            w.pop();
            w.line(None, &format!("end type {name}"), None);
        }
        DeclKind::Interface(bodies) => {
            w.line(None, "interface", None);
            w.push();
            for body in bodies {
                write_unit(w, body);
            }
            w.pop();
            w.line(None, "end interface", None);
        }
        DeclKind::AbstractInterface(bodies) => {
            w.line(None, "abstract interface", None);
            w.push();
            for body in bodies {
                write_unit(w, body);
            }
            w.pop();
            w.line(None, "end interface", None);
        }
        DeclKind::Generic {
            name,
            procedures,
            bodies,
        } => {
            w.line(None, &format!("interface {name}"), None);
            w.push();
            if !procedures.is_empty() {
                w.line(
                    None,
                    &format!("module procedure {}", procedures.join(", ")),
                    None,
                );
            }
            for body in bodies {
                write_unit(w, body);
            }
            w.pop();
            w.line(None, &format!("end interface {name}"), None);
        }
        kind => {
            let text = decl_text(kind).expect("only comment declarations have no text");
            w.line(None, &text, None);
        }
    }
}

/// `unit` with its calls of specifics that the source wrote through a generic name or
/// a type-bound procedure (`il::Unit::source_calls`) written so again.
fn with_source_names(unit: &Unit) -> Unit {
    use crate::il::SourceCall;
    let mut unit = unit.clone();
    let map = std::mem::take(&mut unit.source_calls);
    let respell = |name: &mut String, args: &mut Vec<crate::il::Arg>| match map
        .get(crate::il::key_ref(name).as_ref())
    {
        Some(SourceCall::Generic(g)) => *name = g.clone(),
        Some(SourceCall::Bound {
            binding,
            pass,
            object,
        }) => {
            let object = match (pass, object) {
                (Some(k), _) if *k < args.len() => args.remove(*k).value,
                (None, Some(o)) => o.clone(),
                _ => return,
            };
            *name = format!("{}%{binding}", super::expr::write_expr(&object));
        }
        None => {}
    };
    crate::il::visit::walk_stmts_mut(&mut unit.body, &mut |s| {
        if let crate::il::StmtKind::Call { name, args } = &mut s.kind {
            respell(name, args);
        }
        for e in crate::il::visit::stmt_exprs_mut(s) {
            crate::il::visit::walk_expr_mut_post(e, &mut |e| {
                if let crate::il::ExprKind::Call(name, args) = &mut e.kind {
                    respell(name, args);
                }
            });
        }
    });
    unit
}
