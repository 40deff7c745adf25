//! Procedures: leading comments, header, declarations, body, `end` line.

use super::decl::{write_decl, write_type_spec};
use super::stmt::write_block;
use super::writer::Writer;
use crate::il::{Unit, UnitKind};

/// Writes one unit at the writer's indentation.
pub(crate) fn write_unit(w: &mut Writer, unit: &Unit) {
    for comment in &unit.leading_comments {
        w.comment(comment);
    }
    let keyword = match unit.kind {
        UnitKind::Subroutine => "subroutine",
        UnitKind::Function => "function",
    };
    let mut header = String::new();
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
    w.line(None, &format!("end {keyword} {}", unit.name), None);
}
