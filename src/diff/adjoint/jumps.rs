//! Where a procedure's early exits are (EXIT, CYCLE, RETURN), by the frames they leave:
//! the codes the adjoint's forward sweep pushes for them and the guards of its backward
//! sweep (seeds/000 §4.4).

use std::collections::{BTreeMap, BTreeSet};

use crate::il::{Stmt, StmtId, StmtKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum FrameKey {
    Routine,
    Loop(StmtId),
}

/// A construct that early exits can leave: the procedure, or a loop.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    pub(super) key: FrameKey,
    pub(super) name: Option<String>,
    /// Variable holding the popped exit code, when the frame has early exits.
    pub(super) code_var: Option<String>,
    /// Names of the loop's saved bounds and count, for pushes at early exits.
    pub(super) exit_pushes: Vec<Stmt>,
}

/// Precomputed positions of early exits.
#[derive(Default)]
pub(super) struct Jumps {
    /// Preorder index and subtree end of each statement.
    pub(super) extent: BTreeMap<StmtId, (usize, usize)>,
    /// For each frame, the positions of its jumps in textual order (code = index + 1).
    pub(super) positions: BTreeMap<FrameKey, Vec<usize>>,
    /// Loops that count their iterations (DO WHILE, or left early).
    pub(super) counted: BTreeSet<StmtId>,
}

impl Jumps {
    pub(super) fn of(body: &[Stmt]) -> Jumps {
        let mut j = Jumps::default();
        let mut next = 0;
        let mut loops: Vec<(StmtId, Option<String>)> = Vec::new();
        j.walk(body, &mut next, &mut loops);
        j
    }

    fn walk(
        &mut self,
        block: &[Stmt],
        next: &mut usize,
        loops: &mut Vec<(StmtId, Option<String>)>,
    ) {
        for s in block {
            let start = *next;
            *next += 1;
            match &s.kind {
                StmtKind::Do { body, name, .. } | StmtKind::DoWhile { body, name, .. } => {
                    if matches!(s.kind, StmtKind::DoWhile { .. }) {
                        self.counted.insert(s.id);
                    }
                    loops.push((s.id, name.clone()));
                    self.walk(body, next, loops);
                    loops.pop();
                }
                StmtKind::If {
                    arms, else_body, ..
                } => {
                    for (_, b) in arms {
                        self.walk(b, next, loops);
                    }
                    if let Some(b) = else_body {
                        self.walk(b, next, loops);
                    }
                }
                StmtKind::Exit { name } | StmtKind::Cycle { name } => {
                    let target = match name {
                        None => loops.len().checked_sub(1),
                        Some(n) => loops.iter().rposition(|(_, ln)| {
                            ln.as_deref().is_some_and(|l| l.eq_ignore_ascii_case(n))
                        }),
                    };
                    if let Some(t) = target {
                        let is_exit = matches!(s.kind, StmtKind::Exit { .. });
                        for (i, (id, _)) in loops.iter().enumerate().skip(t) {
                            self.positions
                                .entry(FrameKey::Loop(*id))
                                .or_default()
                                .push(start);
                            if i > t || is_exit {
                                self.counted.insert(*id);
                            }
                        }
                    }
                }
                StmtKind::Return => {
                    for (id, _) in loops.iter() {
                        self.positions
                            .entry(FrameKey::Loop(*id))
                            .or_default()
                            .push(start);
                        self.counted.insert(*id);
                    }
                    self.positions
                        .entry(FrameKey::Routine)
                        .or_default()
                        .push(start);
                }
                _ => {}
            }
            self.extent.insert(s.id, (start, *next));
        }
    }

    pub(super) fn n_codes(&self, frame: FrameKey) -> usize {
        self.positions.get(&frame).map_or(0, Vec::len)
    }

    /// The code of the jump at `pos` in `frame`.
    pub(super) fn code(&self, frame: FrameKey, pos: usize) -> Option<usize> {
        self.positions
            .get(&frame)?
            .iter()
            .position(|&p| p == pos)
            .map(|i| i + 1)
    }

    /// Number of `frame`'s jumps before statement `s`, and inside it.
    pub(super) fn before_inside(&self, frame: FrameKey, s: &Stmt) -> (usize, usize) {
        let Some(&(start, end)) = self.extent.get(&s.id) else {
            return (0, 0);
        };
        let pos = self.positions.get(&frame).map(Vec::as_slice).unwrap_or(&[]);
        let before = pos.iter().filter(|&&p| p < start).count();
        let inside = pos.iter().filter(|&&p| p >= start && p < end).count();
        (before, inside)
    }
}
