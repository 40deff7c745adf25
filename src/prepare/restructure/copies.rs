//! Copies of statements the restructurer puts in several places (the statements a
//! forward GO TO skips go into every arm that falls through to them): fresh statement
//! ids, and fresh construct names, which Fortran wants unique in a procedure (DLSODES's
//! `DPREP` gave two loops `jumps:`, which gfortran rejects). EXIT and CYCLE inside the
//! copy follow their construct's new name; those naming a construct outside keep theirs.

use std::collections::BTreeMap;

use crate::il::{Stmt, StmtKind, key};

use super::{Restructurer, walk_mut};

impl Restructurer<'_> {
    /// A copy of `stmts` with fresh statement ids and construct names.
    pub(super) fn copy(&mut self, stmts: &[Stmt]) -> Vec<Stmt> {
        let mut out = stmts.to_vec();
        self.renumber(&mut out);
        let mut renamed: BTreeMap<String, String> = BTreeMap::new();
        walk_mut(&mut out, &mut |s| {
            if let Some(name) = construct_name_mut(s).and_then(|n| n.as_mut()) {
                let fresh = self.namer.fresh(name);
                renamed.insert(key(name), fresh.clone());
                *name = fresh;
            }
        });
        if !renamed.is_empty() {
            walk_mut(&mut out, &mut |s| {
                if let StmtKind::Exit { name: Some(n) } | StmtKind::Cycle { name: Some(n) } =
                    &mut s.kind
                    && let Some(fresh) = renamed.get(crate::il::key_ref(n).as_ref())
                {
                    *n = fresh.clone();
                }
            });
        }
        out
    }

    pub(super) fn renumber(&mut self, stmts: &mut [Stmt]) {
        for s in stmts {
            s.id = self.fresh_id();
            for block in crate::il::visit::child_blocks_mut(s) {
                self.renumber(block);
            }
        }
    }
}

/// The name field of a construct that may have one (IF, DO, DO WHILE, SELECT, FORALL).
pub(super) fn construct_name_mut(s: &mut Stmt) -> Option<&mut Option<String>> {
    match &mut s.kind {
        StmtKind::If { name, .. }
        | StmtKind::Do { name, .. }
        | StmtKind::DoWhile { name, .. }
        | StmtKind::Select { name, .. }
        | StmtKind::Forall { name, .. } => Some(name),
        _ => None,
    }
}
