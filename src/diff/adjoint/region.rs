//! A region between `$AD CHECKPOINT-START` and `$AD CHECKPOINT-END` comments of one
//! block (INTERFACE.md §6; seeds/000 §4.10, checkpointing): its adjoint is made as a
//! checkpointed call's is. The forward sweep saves a snapshot of what the region writes
//! and runs the region as the original does, taping nothing; what the region reads and
//! other code of the procedure may overwrite is saved after it. The backward sweep puts
//! both back, runs the region's forward sweep (taping it), then its backward sweep. The
//! region's tape lives only while its own backward sweep runs, instead of from the
//! region to the end of the procedure.
//!
//! The region is re-run, so it must be able to run twice: the refusals of a binomial
//! loop's steps apply (jumps out of it, labels, allocation, READ), each one W0401 at the
//! CHECKPOINT-START comment, and the region keeps the plain adjoint.

use super::binomial::{comment, primal_only};
use super::*;

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    /// `block` of statements some of which form checkpointed regions (`region`): each
    /// region is one part, reversed as a whole, guarded as its CHECKPOINT-START comment
    /// would be.
    pub(super) fn block_with_regions(
        &mut self,
        stmts: &[Stmt],
        regions: &[(usize, usize)],
        coded: Option<(FrameKey, String)>,
    ) -> (Vec<Stmt>, Vec<Stmt>) {
        let mut fwd = Vec::with_capacity(stmts.len());
        let mut parts: Vec<(&Stmt, Vec<Stmt>)> = Vec::with_capacity(stmts.len());
        let mut i = 0;
        while i < stmts.len() {
            let (f, b, next) = match regions.iter().find(|(start, _)| *start == i) {
                Some(&(start, end)) => {
                    let (f, b) = self.region(&stmts[start], &stmts[start + 1..end], &stmts[end]);
                    (f, b, end + 1)
                }
                None => {
                    let (f, b) = self.stmt(&stmts[i]);
                    (f, b, i + 1)
                }
            };
            fwd.extend(f);
            parts.push((&stmts[i], b));
            i = next;
        }
        let bwd = self.guarded_backward(parts, coded.as_ref());
        (fwd, bwd)
    }

    /// The adjoint of the statements `region` between the comments `start` and `end`
    /// (which stay in the forward sweep): checkpointed, or plain with a warning.
    pub(super) fn region(
        &mut self,
        start: &Stmt,
        region: &[Stmt],
        end: &Stmt,
    ) -> (Vec<Stmt>, Vec<Stmt>) {
        let (f, b) = self.block(region);
        let mut fwd = vec![start.clone()];
        let made = if b.is_empty() {
            // No adjoint: nothing to checkpoint.
            Ok((f.clone(), b.clone()))
        } else {
            match self.region_refusal(region) {
                Some(why) => Err(why),
                None => self.checkpointed(start, region, &f, &b),
            }
        };
        let bwd = match made {
            Ok((cf, cb)) => {
                fwd.extend(cf);
                cb
            }
            Err(why) => {
                self.ug.warnings.push(
                    Diagnostic::warning(
                        "W0401",
                        format!(
                            "the directive `$AD CHECKPOINT-START` is not honoured on this region: {why}; its adjoint keeps the region's tape"
                        ),
                    )
                    .at(start.span)
                    .with_help("the derivatives are right without it; only the memory the adjoint takes differs"),
                );
                fwd.extend(f);
                b
            }
        };
        fwd.push(end.clone());
        (fwd, bwd)
    }

    /// Why the region cannot be run again from a snapshot: what a loop's step cannot
    /// do, and EXIT or CYCLE of a loop around it.
    fn region_refusal(&self, region: &[Stmt]) -> Option<String> {
        fn leaves(block: &[Stmt]) -> bool {
            block.iter().any(|s| match &s.kind {
                StmtKind::Exit { .. } | StmtKind::Cycle { .. } => true,
                // An unnamed EXIT or CYCLE inside a loop of the region stays in it.
                StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => {
                    let mut named = false;
                    visit::walk_stmts(body, &mut |t| {
                        named |= matches!(
                            &t.kind,
                            StmtKind::Exit { name: Some(_) } | StmtKind::Cycle { name: Some(_) }
                        );
                    });
                    named
                }
                _ => visit::child_blocks(s).into_iter().any(leaves),
            })
        }
        if leaves(region) {
            return Some("it leaves a loop around it (EXIT or CYCLE)".into());
        }
        self.rerun_refusal(region)
    }

    /// The checkpointed adjoint of the region, given its plain forward and backward
    /// sweeps.
    fn checkpointed(
        &mut self,
        start: &Stmt,
        region: &[Stmt],
        f: &[Stmt],
        b: &[Stmt],
    ) -> Result<(Vec<Stmt>, Vec<Stmt>), String> {
        let state = self.checkpoint_state(region, None, None)?;
        let at = region.first().unwrap_or(start);
        let errors = self.ug.errors.len();
        let mut snapshot = Vec::new();
        for name in &state.snapshot {
            snapshot.extend(self.save_whole(name, at));
        }
        let mut held = Vec::new();
        for name in &state.inputs {
            held.extend(self.save_whole(name, at));
        }
        if self.ug.errors.len() > errors {
            let why = self.ug.errors[errors].message.clone();
            self.ug.errors.truncate(errors);
            return Err(format!("a value it needs cannot be saved ({why})"));
        }
        let mut fwd = vec![comment(
            " The state before the region: its snapshot, for the backward sweep to run it again",
        )];
        fwd.extend(snapshot.iter().map(|(push, _)| push.clone()));
        fwd.extend(primal_only(f));
        fwd.extend(held.iter().map(|(push, _)| push.clone()));
        let mut bwd: Vec<Stmt> = held.iter().rev().map(|(_, pop)| pop.clone()).collect();
        bwd.extend(snapshot.iter().rev().map(|(_, pop)| pop.clone()));
        bwd.push(comment(
            " The region ($AD CHECKPOINT-START), run again taping, then its backward sweep",
        ));
        bwd.extend(f.iter().cloned());
        bwd.extend(b.iter().cloned());
        Ok((fwd, bwd))
    }
}
