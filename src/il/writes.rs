//! What statements may overwrite, by name, without the analyses: the syntactic
//! approximation refusals, the first-call patterns and `ir::aliasing` share (an actual
//! argument counts as written, whatever the callee does with it).

use super::{Expr, Stmt, StmtKind, Unit, visit};

/// Variables `unit` may overwrite: assigned, used as a DO variable, passed as an actual
/// argument (conservatively), or read into.
pub fn names_written(unit: &Unit) -> Vec<&str> {
    names_written_in(&unit.body)
}

/// The variables the statements of `body` (at any depth) may overwrite, as
/// [`names_written`] counts them.
pub fn names_written_in(body: &[Stmt]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    visit::walk_stmts(body, &mut |s| {
        names.extend(written_directly(s));
        visit::stmt_calls(s, &mut |_, args| {
            names.extend(args.iter().filter_map(|a| a.value.base_name()));
        });
    });
    names
}

/// The variables statement `s` itself overwrites (not through a call): an assignment's
/// left side, a DO variable, a READ's list, what it allocates or frees.
pub fn written_directly(s: &Stmt) -> Vec<&str> {
    let mut names = stmt_written_names(s);
    match &s.kind {
        StmtKind::Assign { lhs, .. } => names.extend(lhs.base_name()),
        StmtKind::Do { var, .. } => names.push(var),
        _ => {}
    }
    names
}

/// Variables a statement overwrites besides an assignment's left side (a READ's list).
fn stmt_written_names(s: &Stmt) -> Vec<&str> {
    match &s.kind {
        StmtKind::Io { writes, .. } => writes.iter().filter_map(Expr::base_name).collect(),
        StmtKind::Allocate(items) | StmtKind::Deallocate(items) => {
            items.iter().filter_map(Expr::base_name).collect()
        }
        _ => Vec::new(),
    }
}
