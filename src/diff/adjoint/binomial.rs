//! A DO or DO WHILE loop after `$AD BINOMIAL-CKP [nsteps nsnaps [first]]` (INTERFACE.md §6;
//! seeds/000 §4.10, checkpointing): its adjoint keeps one iteration's tape at a time
//! instead of every iteration's, and re-runs iterations from a few snapshots of the
//! state, as Griewank and Walther's binomial schedule says (the runtime's
//! `adgen_binomial_next`, which gives the fewest re-runs for the snapshots allowed).
//!
//! Forward sweep: the state the loop changes is pushed (the snapshot of step 0, under
//! a repeat mark), the loop runs as the original does (its forward sweep without the
//! pushes), then the values it reads and does not change are pushed, then its bounds.
//! Backward sweep: bounds and read values are popped, then each action of the schedule
//! runs: ADVANCE re-runs steps without taping, TAKESHOT pushes a snapshot under a mark,
//! RESTORE pops the newest and puts the mark back, FREE drops it, TURN runs one step's
//! forward sweep and then its backward sweep (the code the loop's adjoint has without
//! the directive). At the end the snapshot of step 0 is popped: the state the loop
//! changed is given back as it was before it, as the plain adjoint gives back what its
//! backward sweep reads.
//!
//! The state is what the loop writes (through its callees too) and a step may read
//! before writing it, the values read are what the loop reads and never writes
//! (`state`): the backward sweep re-runs the steps, so both must be as they were,
//! whatever the code after the loop did to them.
//! `nsnaps` (a literal or a variable) is how many snapshots may be held at once, the
//! first included; without it the runtime takes about log2 of the steps. `nsteps` and
//! `first` are not needed: the backward sweep knows the loop's bounds.
//!
//! Where the loop cannot be reversed this way (one W0401 says why) its adjoint is the
//! plain one: early exits or jumps, labels, ALLOCATE or DEALLOCATE or calls that change
//! an allocation, READ, optional dummies, module variables this unit cannot name, or a
//! variable of the state adgen cannot save.

pub(super) mod state;
mod window;

use super::*;
use crate::il::directive::Directive;

/// The runtime's actions (`adgen_runtime.h`).
const ADVANCE: i64 = 1;
const TAKESHOT: i64 = 2;
const RESTORE: i64 = 3;
const FREE: i64 = 4;
const TURN: i64 = 5;

/// The runtime's repeat marks, which a binomial loop nested in another one's step puts
/// on the tape: not part of the computation.
const REPEAT_MARKS: [&str; 3] = [
    "adgen_start_repeat",
    "adgen_reset_repeat",
    "adgen_end_repeat",
];

/// What the binomial adjoint of one loop is made of.
pub(super) struct Parts<'s> {
    pub loop_stmt: &'s Stmt,
    pub directive: &'s Directive,
    /// The DO variable (none for DO WHILE).
    pub var: Option<&'s str>,
    pub from: Expr,
    pub step: Expr,
    /// The temporaries of the bounds: `to` for a DO loop (its last index), `count` for
    /// DO WHILE (its trip count).
    pub names: &'s LoopNames,
    pub f_body: Vec<Stmt>,
    pub b_body: Vec<Stmt>,
}

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    /// Why the loop `s` after a BINOMIAL-CKP directive cannot be reversed from
    /// snapshots, if it cannot.
    pub(super) fn binomial_refusal(&self, s: &Stmt) -> Option<String> {
        let (StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. }) = &s.kind else {
            return Some("it is not a loop".into());
        };
        if self.jumps.n_codes(FrameKey::Loop(s.id)) > 0 {
            return Some("the loop is left early (EXIT, CYCLE or RETURN)".into());
        }
        self.rerun_refusal(body)
    }

    /// Why code run again from a snapshot (a loop's step, a region) cannot be: it
    /// jumps, has labels (they would be written twice), changes allocations, or reads
    /// input (which cannot be read twice).
    pub(super) fn rerun_refusal(&self, body: &[Stmt]) -> Option<String> {
        let mut why = None;
        visit::walk_stmts(body, &mut |t| {
            if why.is_some() {
                return;
            }
            why = match &t.kind {
                _ if t.label.is_some() => Some("a statement in it has a label".into()),
                StmtKind::Goto { .. }
                | StmtKind::ComputedGoto { .. }
                | StmtKind::ArithmeticIf { .. }
                | StmtKind::Return => Some("it jumps".into()),
                StmtKind::Allocate(_) | StmtKind::Deallocate(_) => {
                    Some("it allocates or frees arrays".into())
                }
                _ if t.is_input() => Some("it reads input".into()),
                _ => None,
            };
            if why.is_none() && call_site(t).is_some() {
                let changes = crate::diff::heap::allocated_by_call(self.ug, t).len()
                    + crate::diff::heap::freed_by_call(self.ug, t).len()
                    + crate::diff::heap::transient_by_call(self.ug, t).len()
                    + crate::diff::heap::reallocated_by_call(self.ug, t).len();
                if changes > 0 {
                    why = Some("a call in it allocates or frees arrays".into());
                }
            }
        });
        why
    }

    /// The binomial adjoint of a loop, or why it cannot be made (nothing is left in the
    /// generator then: the caller writes the plain adjoint).
    pub(super) fn binomial_loop(&mut self, parts: Parts) -> Result<(Vec<Stmt>, Vec<Stmt>), String> {
        let s = parts.loop_stmt;
        let state::State {
            snapshot: state,
            inputs,
            recomputed,
            needed_before,
        } = self.binomial_state(s)?;
        let unit_step = matches!(parts.step.kind, ExprKind::Int(ref t) if t == "1");
        // History arrays: a snapshot holds the slices the next steps read (`window`).
        let body = match &s.kind {
            StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => body.as_slice(),
            _ => &[],
        };
        let mut windows = Vec::new();
        // The snapshot and the values read, saved whole; a variable adgen cannot save
        // gives up on the schedule, not the adjoint.
        let errors = self.ug.errors.len();
        let mut snapshot = Vec::new();
        for name in &state {
            let window = match parts.var {
                Some(v) if unit_step && !needed_before.contains(name) => {
                    self.history_window(body, name, v)
                }
                _ => None,
            };
            match window {
                Some(w) => windows.push((name.clone(), w)),
                None => snapshot.extend(self.save_whole(name, s)),
            }
        }
        let mut held = Vec::new();
        for name in &inputs {
            held.extend(self.save_whole(name, s));
        }
        if self.ug.errors.len() > errors {
            let why = self.ug.errors[errors].message.clone();
            self.ug.errors.truncate(errors);
            return Err(format!("a value it needs cannot be saved ({why})"));
        }
        let snaps = self.binomial_snapshots(parts.directive)?;
        // What each step computes again is left as the last step re-run left it, and so
        // are the slices of a history array the snapshots do not hold.
        for name in recomputed.iter().chain(windows.iter().map(|(n, _)| n)) {
            self.unsaved.insert(key(name));
        }
        // The slices of the history arrays at a step (`at`): pushes, then pops.
        let slices = |adj: &mut Self, at: &Expr| -> Result<(Vec<Stmt>, Vec<Stmt>), String> {
            let mut push = Vec::new();
            let mut pop = Vec::new();
            for (name, w) in &windows {
                let (p, q) = adj
                    .save_window(name, *w, at)
                    .ok_or_else(|| format!("the slices of `{name}` cannot be saved"))?;
                push.extend(p);
                pop.splice(0..0, q);
            }
            Ok((push, pop))
        };
        let first = self.int_temp("ad_first");
        let at_first = if parts.var.is_some() {
            Expr::binary(BinOp::Add, parts.from.clone(), Expr::var(&first))
        } else {
            Expr::int(0)
        };
        let (base_push, base_pop) = slices(self, &parts.from)?;
        let (step_push, step_pop) = slices(self, &at_first)?;
        let names = parts.names;
        let var = parts.var;
        let pushes =
            |list: &[(Stmt, Stmt)]| -> Vec<Stmt> { list.iter().map(|(p, _)| p.clone()).collect() };
        let pops = |list: &[(Stmt, Stmt)]| -> Vec<Stmt> {
            list.iter().rev().map(|(_, p)| p.clone()).collect()
        };
        let runtime = |name: &str| super::super::call(name, Vec::new());
        let primal = primal_only(&parts.f_body);

        // Forward sweep: the snapshot of step 0, the original loop, the values it read.
        let mut fwd = Vec::new();
        if let (Some(t), StmtKind::Do { start, .. }) = (&names.from, &s.kind) {
            fwd.push(assign(Expr::var(t), (**start).clone()));
        }
        if let (Some(t), StmtKind::Do { step: Some(e), .. }) = (&names.step, &s.kind) {
            fwd.push(assign(Expr::var(t), (**e).clone()));
        }
        fwd.push(comment(
            " The state before the loop: the snapshot binomial checkpointing starts from",
        ));
        fwd.extend(pushes(&snapshot));
        fwd.extend(base_push);
        fwd.push(runtime("adgen_start_repeat"));
        // A DO WHILE counts its steps.
        let mut primal_steps = primal.clone();
        if let Some(c) = &names.count {
            fwd.push(assign(Expr::var(c), Expr::int(0)));
            primal_steps.insert(
                0,
                assign(
                    Expr::var(c),
                    Expr::binary(BinOp::Add, Expr::var(c), Expr::int(1)),
                ),
            );
        }
        fwd.push(super::control::forward_loop(
            s,
            names,
            &parts.from,
            &parts.step,
            primal_steps,
        ));
        fwd.extend(pushes(&held));
        fwd.extend(self.exit_pushes(
            names,
            var,
            match &s.kind {
                StmtKind::Do { step, .. } => step.as_deref(),
                _ => None,
            },
        ));

        // Backward sweep.
        let mut bwd = self.pop_bounds(names, var);
        bwd.extend(pops(&held));
        let steps = self.int_temp("ad_steps");
        let action = self.int_temp("ad_action");
        let last = self.int_temp("ad_last");
        let k = self.int_temp("ad_k");
        // ad_steps = (to - from)/step + 1, or the count of a DO WHILE.
        let count = match (&names.count, &names.to) {
            (Some(c), _) => Expr::var(c),
            (None, Some(to)) => {
                let span = Expr::binary(BinOp::Sub, Expr::var(to), paren(&parts.from));
                if unit_step {
                    Expr::binary(BinOp::Add, span, Expr::int(1))
                } else {
                    Expr::binary(
                        BinOp::Add,
                        Expr::binary(BinOp::Div, paren(&span), paren(&parts.step)),
                        Expr::int(1),
                    )
                }
            }
            (None, None) => return Err("its trip count is not saved".into()),
        };
        bwd.push(comment(
            " Binomial checkpointing ($AD BINOMIAL-CKP): the steps run again from snapshots, \
             each taped and reversed alone",
        ));
        // The runtime counts steps in default integers.
        let long = self.bound_tape_type(var) == TapeType::Integer(8);
        let count = if long && names.count.is_none() {
            Expr::intrinsic(crate::il::Intrinsic::Int, vec![count])
        } else {
            count
        };
        bwd.push(assign(Expr::var(&steps), count));
        bwd.push(super::super::call(
            "adgen_binomial_start",
            vec![Expr::var(&steps), snaps],
        ));
        let next = || assign(Expr::var(&action), runtime_fn("adgen_binomial_next"));
        bwd.push(next());
        // The loop's variable at step `k` (0-based); a DO WHILE has none.
        let index_at = |k: Expr| -> Option<Stmt> {
            let offset = if unit_step {
                k
            } else {
                Expr::binary(BinOp::Mul, k, paren(&parts.step))
            };
            var.map(|v| {
                assign(
                    Expr::var(v),
                    Expr::binary(BinOp::Add, parts.from.clone(), offset),
                )
            })
        };
        let mut advance: Vec<Stmt> = index_at(Expr::var(&k)).into_iter().collect();
        advance.extend(primal);
        let mut turn = vec![comment(
            " Step ad_first: its forward sweep, then its backward sweep",
        )];
        turn.extend(index_at(Expr::var(&first)));
        turn.extend(parts.f_body);
        turn.extend(parts.b_body);
        let mut takeshot = vec![comment(" A snapshot of the state before step ad_first")];
        takeshot.extend(pushes(&snapshot));
        takeshot.extend(step_push);
        takeshot.push(runtime("adgen_start_repeat"));
        let mut restore = vec![comment(" Back to the newest snapshot, kept")];
        restore.extend(step_pop.iter().cloned());
        restore.extend(pops(&snapshot));
        restore.push(runtime("adgen_reset_repeat"));
        let mut free = vec![
            comment(" The newest snapshot is no longer needed"),
            runtime("adgen_end_repeat"),
        ];
        free.extend(step_pop);
        free.extend(pops(&snapshot));
        let is = |code: i64| Expr::binary(BinOp::Eq, Expr::var(&action), Expr::int(code));
        let mut driver = vec![
            assign(Expr::var(&first), runtime_fn("adgen_binomial_step")),
            assign(
                Expr::var(&last),
                Expr::binary(
                    BinOp::Sub,
                    runtime_fn("adgen_binomial_end_step"),
                    Expr::int(1),
                ),
            ),
        ];
        driver.push(if_chain(
            vec![
                (
                    is(ADVANCE),
                    vec![
                        comment(" Steps ad_first to ad_last again, without taping"),
                        do_loop(&k, Expr::var(&first), Expr::var(&last), None, advance),
                    ],
                ),
                (is(TAKESHOT), takeshot),
                (is(RESTORE), restore),
                (is(FREE), free),
                (is(TURN), turn),
            ],
            None,
        ));
        driver.push(next());
        bwd.push(Stmt::generated(StmtKind::DoWhile {
            cond: Expr::binary(BinOp::Ne, Expr::var(&action), Expr::int(0)),
            body: driver,
            name: None,
        }));
        bwd.push(comment(" The state before the loop, given back"));
        bwd.push(runtime("adgen_end_repeat"));
        bwd.extend(base_pop);
        bwd.extend(pops(&snapshot));
        Ok((fwd, bwd))
    }

    /// Push and pop of the whole variable `name` as it is at the loop `s`; an array that
    /// may not be allocated (ALLOCATABLE or POINTER) only when it is: the loop changes
    /// no allocation, so the test has the same answer at the push and at the pop.
    pub(super) fn save_whole(&mut self, name: &str, s: &Stmt) -> Vec<(Stmt, Stmt)> {
        let saves = self.save_all(&Expr::var(name), s, None);
        let Some(sym) = self.ug.symbol_or_global(name) else {
            return saves;
        };
        let deferred = sym.dims.iter().any(|d| matches!(d.upper, Bound::Colon));
        let owned = sym.global.is_some()
            || sym.pointer
            || sym.is_local_allocatable()
            || self.ug.unit.declares_allocatable(name)
            || self.ug.unit.symbols.is_kept_allocatable(name);
        if !(sym.is_array() && deferred && owned) {
            return saves;
        }
        let test = crate::diff::heap::primal_allocated(self.ug, name);
        saves
            .into_iter()
            .map(|(push, pop)| {
                (
                    crate::diff::heap::if_then(test.clone(), vec![push]),
                    crate::diff::heap::if_then(test.clone(), vec![pop]),
                )
            })
            .collect()
    }

    /// The snapshots the directive allows (`nsnaps`, its second word): a literal or a
    /// variable; 0 (the runtime chooses) when it says none.
    fn binomial_snapshots(&self, d: &Directive) -> Result<Expr, String> {
        let Some(word) = d.args.get(1) else {
            return Ok(Expr::int(0));
        };
        if let Ok(n) = word.parse::<i64>() {
            return Ok(Expr::int(n));
        }
        let is_name = word.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        match self.ug.symbol_or_global(word) {
            Some(sym) if is_name && matches!(sym.ty, ScalarType::Integer(_)) && !sym.is_array() => {
                Ok(Expr::var(word))
            }
            _ => Err(format!(
                "its number of snapshots `{word}` is neither an integer nor an integer variable"
            )),
        }
    }
}

pub(super) fn comment(text: &str) -> Stmt {
    Stmt::generated(StmtKind::Comment(text.to_string()))
}

/// A runtime function called without arguments: `adgen_binomial_next()`.
fn runtime_fn(name: &str) -> Expr {
    Expr::new(ExprKind::Call(name.to_string(), Vec::new()))
}

/// The forward sweep of a loop's body without its pushes and repeat marks: the original
/// computation, as the backward sweep re-runs it.
pub(super) fn primal_only(stmts: &[Stmt]) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        let bookkeeping = match &s.kind {
            StmtKind::Tape(_) => true,
            StmtKind::Call { name, .. } => REPEAT_MARKS.contains(&name.as_str()),
            _ => false,
        };
        if bookkeeping {
            continue;
        }
        let mut s = s.clone();
        for block in visit::child_blocks_mut(&mut s) {
            *block = primal_only(block);
        }
        out.push(s);
    }
    out
}
