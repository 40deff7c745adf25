//! The general form of a block whose jumps have no structured form (a loop entered in
//! its middle, as DVERK's interrupt re-entries `GO TO 1111` into its main loop): the
//! block becomes a dispatcher, an endless DO WHILE over its segments, each starting at
//! one of the jumped-to labels and guarded by `IF (state <= k)`, so that falling off a
//! segment runs the next one. A jump to the label of segment k sets the state to k and
//! CYCLEs the dispatcher; falling off the last segment EXITs it. Every Fortran jump goes
//! to a statement of its own block or of an enclosing one, so this form exists for
//! every procedure; the restructurer uses it only for the labels its other rewrites
//! leave (seeds/000 §4.4: the adjoint reverses structured code).

use super::*;

impl Restructurer<'_> {
    /// Turns every block of `body` holding a statement labelled in `labels` into a
    /// dispatcher; every GO TO to those labels goes.
    pub(super) fn dispatch(&mut self, body: &mut Vec<Stmt>, labels: &[String]) {
        name_loose_jumps_around(self, body, labels);
        self.dispatch_block(body, labels);
    }

    fn dispatch_block(&mut self, block: &mut Vec<Stmt>, labels: &[String]) {
        let heads: Vec<usize> = (0..block.len())
            .filter(|&i| {
                label_of(&block[i]).is_some_and(|l| labels.iter().any(|d| same_label(d, l)))
            })
            .collect();
        if heads.is_empty() {
            for s in block.iter_mut() {
                for child in crate::il::visit::child_blocks_mut(s) {
                    self.dispatch_block(child, labels);
                }
            }
            return;
        }
        let span = block[heads[0]].span;
        let state = self.namer.fresh("next_segment");
        self.states.push(state.clone());
        let name = self.namer.fresh("jumps");
        // Segment bounds: the statements before the first head (when there are any),
        // then one segment per head.
        let mut starts = heads.clone();
        if heads[0] > 0 {
            starts.insert(0, 0);
        }
        let first = usize::from(heads[0] > 0);
        let mut all = std::mem::take(block);
        let mut segments = Vec::with_capacity(starts.len());
        for (k, &start) in starts.iter().enumerate().rev() {
            let segment: Vec<Stmt> = all.drain(start..).collect();
            segments.push((k, segment));
        }
        segments.reverse();
        for k in first..segments.len() {
            let label = label_of(&segments[k].1[0]).unwrap_or_default().to_string();
            let (state, name) = (state.clone(), name.clone());
            for (_, segment) in segments.iter_mut() {
                self.replace_in_block(segment, &label, &mut |r: &mut Self, s: &Stmt| {
                    vec![
                        r.new_stmt(
                            StmtKind::Assign {
                                lhs: Expr::var(state.clone()),
                                rhs: Expr::int(k as i64),
                            },
                            s.span,
                        ),
                        r.new_stmt(
                            StmtKind::Cycle {
                                name: Some(name.clone()),
                            },
                            s.span,
                        ),
                    ]
                });
            }
        }
        // A segment's own nested blocks may hold further labels.
        for (_, segment) in segments.iter_mut() {
            for s in segment.iter_mut() {
                for child in crate::il::visit::child_blocks_mut(s) {
                    self.dispatch_block(child, labels);
                }
            }
        }
        // Comments before a head belong to its segment.
        for k in 1..segments.len() {
            let (before, after) = segments.split_at_mut(k);
            let prev = &mut before[k - 1].1;
            let lead = prev
                .iter()
                .rev()
                .take_while(|s| matches!(s.kind, StmtKind::Comment(_)) && s.label.is_none())
                .count();
            let moved: Vec<Stmt> = prev.drain(prev.len() - lead..).collect();
            after[0].1.splice(0..0, moved);
        }
        // The statements before the first head run once, on entry: outside the
        // dispatcher when none of them jumps to a head, so that what they set is set on
        // every path into it (the analyses do not follow the state: `J = 0` before
        // `100 J = J + 1` would look unset on the first pass, W0301).
        if first == 1 && !cycles(&segments[0].1, &name) {
            block.extend(std::mem::take(&mut segments[0].1));
        }
        let mut loop_body = Vec::with_capacity(segments.len() + 1);
        for (k, segment) in segments.into_iter().filter(|(_, s)| !s.is_empty()) {
            let guard = Expr::new(ExprKind::Binary(
                BinOp::Le,
                Box::new(Expr::var(state.clone())),
                Box::new(Expr::int(k as i64)),
            ));
            loop_body.push(self.new_stmt(
                StmtKind::If {
                    arms: vec![(guard, segment)],
                    else_body: None,
                    logical_if: false,
                    name: None,
                },
                span,
            ));
        }
        loop_body.push(self.new_stmt(
            StmtKind::Exit {
                name: Some(name.clone()),
            },
            span,
        ));
        block.push(self.new_stmt(
            StmtKind::Assign {
                lhs: Expr::var(state),
                rhs: Expr::int(0),
            },
            span,
        ));
        block.push(self.new_stmt(
            StmtKind::DoWhile {
                cond: Expr::new(ExprKind::Logical(true)),
                body: loop_body,
                name: Some(name),
            },
            span,
        ));
    }
}

/// Names each loop whose body holds one of `labels` (a dispatcher may be made inside
/// it) and its unnamed EXITs and CYCLEs, which would otherwise leave the dispatcher.
fn name_loose_jumps_around(r: &mut Restructurer, block: &mut [Stmt], labels: &[String]) {
    for s in block.iter_mut() {
        let is_loop = matches!(s.kind, StmtKind::Do { .. } | StmtKind::DoWhile { .. });
        let holds = labels_in(std::slice::from_ref(s))
            .iter()
            .any(|l| labels.iter().any(|d| same_label(d, l)) && label_of(s) != Some(l));
        if is_loop && holds {
            let name = r.loop_name(s);
            for child in crate::il::visit::child_blocks_mut(s) {
                name_own_jumps(child, &name);
            }
        }
        for child in crate::il::visit::child_blocks_mut(s) {
            name_loose_jumps_around(r, child, labels);
        }
    }
}

/// Gives `name` to the unnamed EXITs and CYCLEs of `block` outside its nested loops.
fn name_own_jumps(block: &mut [Stmt], name: &str) {
    for s in block.iter_mut() {
        match &mut s.kind {
            StmtKind::Exit { name: n } | StmtKind::Cycle { name: n } if n.is_none() => {
                *n = Some(name.to_string());
            }
            StmtKind::Do { .. } | StmtKind::DoWhile { .. } => {}
            _ => {
                for child in crate::il::visit::child_blocks_mut(s) {
                    name_own_jumps(child, name);
                }
            }
        }
    }
}

/// Whether `block` CYCLEs the loop named `name` (a jump to a dispatcher's segment).
fn cycles(block: &[Stmt], name: &str) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(block, &mut |s| {
        if let StmtKind::Cycle { name: Some(n) } = &s.kind {
            found |= n.eq_ignore_ascii_case(name);
        }
    });
    found
}
