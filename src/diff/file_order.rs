//! The derivative files of one mode in an order that compiles: INTERFACE.md §2's
//! `adgen-outputs.txt` lists Fortran modules before their users. The sources' order is
//! not enough: a derivative may use a derivative module that a later source's derivative
//! defines (a library's procedure, copied for the procedure argument a model passes it,
//! reads the model's module variable through it: `quadpack_b.f90` then uses `qk_par_b`
//! of `root_b.f90`).

use super::*;
use std::collections::BTreeSet;

/// Reorders `files` so that each comes after the files defining the modules it uses,
/// otherwise keeping their order (a cycle, which no compiler could build either, keeps
/// the sources' order).
pub(super) fn modules_first(files: &mut Vec<(String, il::File)>) {
    let defines: Vec<BTreeSet<String>> = files
        .iter()
        .map(|(_, f)| {
            f.units
                .iter()
                .filter(|u| u.is_module())
                .map(|u| key(&u.name))
                .collect()
        })
        .collect();
    let uses: Vec<BTreeSet<String>> = files
        .iter()
        .map(|(_, f)| {
            f.units
                .iter()
                .flat_map(|u| &u.decls)
                .filter_map(|d| match &d.kind {
                    DeclKind::Use { module, .. } => Some(key(module)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let n = files.len();
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let ready = |i: usize| {
            uses[i]
                .iter()
                .all(|m| (0..n).all(|j| j == i || placed[j] || !defines[j].contains(m)))
        };
        let next = (0..n)
            .find(|&i| !placed[i] && ready(i))
            .or_else(|| (0..n).find(|&i| !placed[i]))
            .expect("a file is left to place");
        placed[next] = true;
        order.push(next);
    }
    let mut taken: Vec<Option<(String, il::File)>> =
        std::mem::take(files).into_iter().map(Some).collect();
    files.extend(order.into_iter().filter_map(|i| taken[i].take()));
}
