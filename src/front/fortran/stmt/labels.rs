//! Statement labels: their normal form, the labels a statement jumps to, and the check that
//! every jump of a unit lands on a label it defines.

use super::*;

/// A label as the IL keeps it: without leading zeros (`010` and `10` are one label).
pub fn normalize_label(text: &str) -> String {
    let t = text.trim_start_matches('0');
    if t.is_empty() { "0" } else { t }.to_string()
}

/// The labels a jump statement may go to, in order.
pub fn jump_targets(kind: &StmtKind) -> Vec<&str> {
    match kind {
        StmtKind::Goto { label } => vec![label.as_str()],
        StmtKind::ComputedGoto { labels, .. } => labels.iter().map(String::as_str).collect(),
        StmtKind::ArithmeticIf { labels, .. } => labels.iter().map(String::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Every jump of a unit's body must name a label of that body, and no label may be
/// defined twice.
pub fn check_labels(body: &[Stmt], diags: &mut Vec<Diagnostic>) {
    let mut defined: std::collections::BTreeMap<String, Span> = Default::default();
    crate::il::visit::walk_stmts(body, &mut |s| {
        if let Some(label) = &s.label {
            let label = normalize_label(label);
            if let Some(first) = defined.get(&label) {
                let _ = first;
                diags.push(
                    Diagnostic::error("E0213", format!("label {label} is defined twice"))
                        .at(s.span)
                        .with_help("give each statement its own label"),
                );
            } else {
                defined.insert(label, s.span);
            }
        }
    });
    crate::il::visit::walk_stmts(body, &mut |s| {
        for target in jump_targets(&s.kind) {
            if !defined.contains_key(target) {
                diags.push(
                    Diagnostic::error(
                        "E0213",
                        format!("this jump goes to label {target}, which no statement of the procedure carries"),
                    )
                    .at(s.span)
                    .with_help(format!("label the target statement `{target}`, or fix the label")),
                );
            }
        }
    });
}
