//! Adjoint mode (seeds/000 §4.4, §4.5, §4.10, §5.4): store-all with save-on-kill, joint
//! mode (each call checkpointed: the forward sweep calls the original procedure, the
//! backward sweep restores its inputs and calls its adjoint).
//!
//! The adjoint unit is `forward sweep; backward sweep`. The forward sweep is the original
//! code with, before each statement that overwrites a value the backward sweep reads, a
//! push of that value; and at the end of each branch of a test, a push of the branch taken
//! (control saved where flow merges, §4.4). The backward sweep walks the statements in
//! reverse, popping what was pushed and running the adjoint of each statement.
//!
//! Loops: a DO loop without early exit saves its start, step and last index and is run
//! backwards; a DO WHILE, or a loop left by EXIT or RETURN, counts its iterations. A
//! statement that leaves its loop or the procedure early (EXIT, CYCLE, RETURN) pushes a
//! code naming itself; each iteration (and the procedure) pushes code 0 when it completes
//! normally. The backward sweep pops that code first and only reverses the statements that
//! ran. RETURN in the forward sweep jumps to the start of the backward sweep.
//!
//! Which values to save: a variable is saved when overwritten if the backward sweep reads
//! it (in a partial derivative, a subscript, or as an input of a callee's adjoint). That
//! set is found by generating the backward sweep with every variable saved, collecting
//! what it reads, and regenerating until the set is stable: a flow-insensitive TBR (§5.2).
//!
//! Calls: the forward sweep saves what the callee overwrites (twice: once restored before
//! the callee's adjoint, which re-runs the callee, and once after it), then calls it.

mod alloc;
mod assign;
mod binomial;
mod call;
mod control;
mod region;
mod save;
mod settle;
mod zeroing;

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::effects::{CallSite, call_site};
use crate::diag::Diagnostic;
use crate::il::bind_actuals;
use crate::il::{
    BinOp, Bound, Expr, ExprKind, Intrinsic, ScalarType, Stmt, StmtId, StmtKind, Tape, TapeOp,
    TapeType, TypeSpec, UnOp, Unit, UnitKind, key, visit,
};

use super::partials::{Term, linearize};
use super::plan::{self, Plan};
use super::tangent::{convert, refuse_unknown_callee, touches_active, unknown_procedure};
use super::{UnitGen, assign, tape};
pub(crate) use settle::settle;

/// What a call may overwrite: the variable or element, the dummy it is bound to (none for
/// a module variable), and the components a derived-type dummy may have written.
type Written<'a> = (Expr, Option<String>, Option<&'a BTreeSet<String>>);

/// Records which dummies the unit's adjoint gives back with their values on entry: every
/// one but those it overwrites without restoring (`unsaved`, from [`settle`]). The
/// dummies it does not give back are its adjoint-out set `Adj-out⁻` at entry
/// (seeds/000 §5.2): the variables `P→; P←` may modify. Callers read this set (callees
/// are generated first) to know what a checkpointed call leaves changed. Returns the
/// dummies given back, by key.
pub fn record_restored(ug: &UnitGen, unsaved: &BTreeSet<String>) -> BTreeSet<String> {
    let restored: BTreeSet<String> = ug
        .unit
        .args
        .iter()
        .map(|a| key(a))
        // A derived-type dummy is overwritten through its components (`b%x`).
        .filter(|a| {
            let prefix = format!("{a}%");
            !unsaved.contains(a) && !unsaved.iter().any(|u| u.starts_with(&prefix))
        })
        .collect();
    if let Some(index) = ug.ctx.ir.index_of(&ug.unit.name) {
        ug.ctx.restored.borrow_mut().insert(index, restored.clone());
    }
    restored
}

/// The adjoint of a scalar argument whose derivative passes through the procedure
/// unchanged (`v = v + 1`) is given back as it came, and nothing would reference it:
/// `vb = vb` says so, and keeps compilers from calling the argument unused (the tangent
/// writes the same `vd = vd`). So does `if (allocated(wb)) wb = wb` for an ALLOCATABLE
/// array whose only use is to be allocated here for the caller (its values flow nowhere).
fn pass_through(ug: &UnitGen, body: &mut Vec<Stmt>, referenced: &mut BTreeSet<String>) {
    let mut kept = Vec::new();
    for a in &ug.unit.args {
        let Some(d) = ug.deriv_name(a) else {
            continue;
        };
        if ug.unit.is_optional(a) || referenced.contains(crate::il::key_ref(d).as_ref()) {
            continue;
        }
        let Some(sym) = ug.unit.symbols.get(a) else {
            continue;
        };
        if !sym.is_array() && sym.ty != ScalarType::Derived {
            kept.push(super::assign(Expr::var(d), Expr::var(d)));
            referenced.insert(key(d));
        } else if sym.is_array() && ug.unit.declares_allocatable(a) {
            kept.push(super::heap::if_then(
                super::heap::allocated(d),
                vec![super::assign(Expr::var(d), Expr::var(d))],
            ));
            referenced.insert(key(d));
        }
    }
    if !kept.is_empty() {
        body.splice(0..0, kept);
    }
}

pub fn adjoint_unit(ug: &mut UnitGen) -> Unit {
    let unit = ug.unit;
    let (_, mut body, unsaved) = settle(ug);
    record_restored(ug, &unsaved);
    let mut args = ug.derivative_args();
    if let Some(r) = &unit.result {
        if ug.ua.result_active {
            args.push(
                ug.deriv_name(r)
                    .expect("active result has a derivative")
                    .to_string(),
            );
        }
    }
    if !ug.ctx.request.disabled.contains("implicit-zero") {
        super::implicit_zero::apply(ug, &mut body, &args, None);
    }
    let reset = ug.reset_unreferenced_out_structures(&body);
    body.extend(reset);
    // One walk of the body finds what it refers to, for both (a large body is slow to
    // walk: issue 16).
    let mut referenced = crate::il::visit::referenced_names(&body);
    pass_through(ug, &mut body, &mut referenced);
    let mut decls = ug.declarations_referring(&[], &body, referenced);
    if ug.uses_runtime {
        super::use_runtime_module(&mut decls);
    }
    Unit {
        kind: UnitKind::Subroutine,
        name: ug
            .own_name()
            .expect("differentiated unit has a name")
            .to_string(),
        args,
        result: None,
        explicit_result: false,
        prefix_type: None,
        leading_comments: unit.leading_comments.clone(),
        decls,
        body,
        symbols: unit.symbols.clone(),
        span: unit.span,
        host: ug.ctx.derivative_host(unit),
        bind: ug.derivative_bind(),
        recursive: unit.recursive,
        source_calls: unit.source_calls.clone(),
        deferred: Vec::new(),
        deferred_entities: Vec::new(),
        followed_pointers: Vec::new(),
        internal_of: None,
        elemental: false,
        specialization: None,
        external: false,
    }
}

mod jumps;
use jumps::{Frame, FrameKey, Jumps};

struct Adj<'x, 'c, 'a> {
    ug: &'x mut UnitGen<'c, 'a>,
    plan: Plan,
    /// Variables (keys) the forward sweep overwrites without saving them.
    unsaved: BTreeSet<String>,
    jumps: Jumps,
    frames: Vec<Frame>,
    return_label: Option<String>,
    branch_var: Option<String>,
    temp_b: BTreeMap<ScalarType, String>,
    /// By node: an assignment's adjoint written ahead (`node_adjoints`), taken once.
    kept: Vec<Option<Vec<Stmt>>>,
    /// The loops a `$AD BINOMIAL-CKP` directive stands before (`binomial`).
    binomial: BTreeMap<StmtId, crate::il::directive::Directive>,
    /// What each flow node reads and writes, found once when a checkpointed loop or
    /// region first asks (`binomial::state`).
    accesses: std::cell::OnceCell<Vec<crate::analysis::access::Access>>,
    /// The stack of branch numbers: one byte each, or four in a procedure where one
    /// construct has more than 256 ways out (DLSODES's `DPREP`, whose error exits the
    /// restructurer copies into every arm, has 270 RETURNs).
    control: TapeType,
}

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    fn new(ug: &'x mut UnitGen<'c, 'a>, plan: Plan) -> Self {
        let jumps = Jumps::of(&ug.unit.body);
        let binomial = crate::il::directive::targets(&ug.unit.body, "BINOMIAL-CKP");
        let mut ways = jumps
            .positions
            .values()
            .map(|p| p.len() + 1)
            .max()
            .unwrap_or(0);
        crate::il::visit::walk_stmts(&ug.unit.body, &mut |s| {
            if let StmtKind::If { arms, .. } = &s.kind {
                ways = ways.max(arms.len() + 1);
            }
        });
        let control = if ways > 256 {
            TapeType::Control4
        } else {
            TapeType::Control
        };
        Adj {
            control,
            binomial,
            accesses: std::cell::OnceCell::new(),
            ug,
            plan,
            unsaved: BTreeSet::new(),
            jumps,
            frames: Vec::new(),
            return_label: None,
            branch_var: None,
            temp_b: BTreeMap::new(),
            kept: Vec::new(),
        }
    }

    fn unit_body(&mut self) -> Vec<Stmt> {
        let unit = self.ug.unit;
        let has_codes = self.jumps.n_codes(FrameKey::Routine) > 0;
        let code_var = has_codes.then(|| self.int_temp("ad_jump"));
        if has_codes {
            let mut used: BTreeSet<String> = BTreeSet::new();
            visit::walk_stmts(&unit.body, &mut |s| {
                if let Some(l) = &s.label {
                    used.insert(l.to_string());
                }
            });
            let mut n = 100;
            while used.contains(&n.to_string()) {
                n += 1;
            }
            self.return_label = Some(n.to_string());
        }
        self.frames.push(Frame {
            key: FrameKey::Routine,
            name: None,
            code_var: code_var.clone(),
            exit_pushes: Vec::new(),
        });
        // The whole body goes into the forward sweep's vector: room for both sweeps
        // (about two statements each per statement) from the start, so that appending
        // the backward sweep copies it once, not the forward sweep as well (room not
        // written to is not resident).
        let n = unit.body.len();
        let (mut fwd, bwd) = self.block_with_room(&unit.body, 4 * n + 16, 2 * n + 16);
        self.frames.pop();
        if has_codes {
            fwd.push(self.push_control(0));
            let mut target = Stmt::generated(StmtKind::Continue);
            target.label = self.return_label.as_deref().map(Into::into);
            fwd.push(target);
        }
        let mut body = fwd;
        let zeroing = self.backward_start_zeroing();
        body.reserve(zeroing.len() + 1 + bwd.len());
        body.extend(zeroing);
        if let Some(c) = &code_var {
            body.push(self.pop_control(c));
        }
        body.extend(bwd);
        body.extend(self.exit_zeroing());
        body
    }

    // ----- names and small builders -----

    fn int_temp(&mut self, base: &str) -> String {
        self.ug.temp(base, TypeSpec::of(ScalarType::Integer(4)))
    }

    fn branch(&mut self) -> String {
        if self.branch_var.is_none() {
            self.branch_var = Some(self.int_temp("branch"));
        }
        self.branch_var.clone().expect("set above")
    }

    fn tempb(&mut self, ty: ScalarType) -> String {
        let kind = super::types::real_kind(ty);
        let ty = if ty.is_complex() {
            ScalarType::Complex(kind)
        } else {
            ScalarType::Real(kind)
        };
        if let Some(t) = self.temp_b.get(&ty) {
            return t.clone();
        }
        let t = self.ug.temp("tempb", TypeSpec::of(ty));
        self.temp_b.insert(ty, t.clone());
        t
    }

    fn push_control(&mut self, k: usize) -> Stmt {
        self.ug.uses_runtime = true;
        tape(Tape::new(TapeOp::Push, self.control, Expr::int(k as i64)))
    }

    fn pop_control(&mut self, var: &str) -> Stmt {
        self.ug.uses_runtime = true;
        tape(Tape::new(TapeOp::Pop, self.control, Expr::var(var)))
    }

    /// A statement's derivative instruction alone: whether it has one, and the variables
    /// (keys) it reads, including the subscripts of what the statement overwrites.
    fn node_adjoint(&mut self, s: &Stmt) -> (bool, BTreeSet<String>, Vec<Stmt>) {
        let mut reads = BTreeSet::new();
        let bwd = match call_site(s) {
            Some(site)
                if self.ug.ctx.procedures.unit(site.callee).is_some()
                    || matches!(s.kind, StmtKind::Call { .. }) =>
            {
                let dname = self
                    .ug
                    .ctx
                    .derivative_of(site.callee)
                    .filter(|_| !self.ug.call_is_passive(s, &site))
                    .map(str::to_string);
                for a in site.args {
                    if let ExprKind::Index(_, subs) = &a.value.kind {
                        subs.iter().for_each(|e| {
                            visit::names_read(e).into_iter().for_each(|n| {
                                reads.insert(key(n));
                            })
                        });
                    }
                }
                match dname {
                    Some(d) => self.derivative_call(s, &site, &d),
                    None => {
                        let (_, b) = self.call(s, &site);
                        b
                    }
                }
            }
            _ => match &s.kind {
                StmtKind::Assign { lhs, rhs } => self.assignment_adjoint(s, lhs, rhs),
                // The forward sweep's ALLOCATE reads its bounds, as the backward sweep's
                // re-allocation at the DEALLOCATE does.
                StmtKind::Allocate(_) | StmtKind::Deallocate(_) => {
                    let (fwd, mut bwd) = self.heap_stmt(s);
                    bwd.extend(fwd.into_iter().filter(|f| !is_runtime_call(f)));
                    bwd
                }
                StmtKind::Io { writes, .. } => self.input_adjoint(s, writes),
                _ => Vec::new(),
            },
        };
        let has = bwd.iter().any(|b| !is_runtime_call(b));
        if let StmtKind::Assign { lhs, .. } = &s.kind {
            if let ExprKind::Index(_, subs) = &lhs.kind {
                subs.iter().for_each(|e| {
                    visit::names_read(e).into_iter().for_each(|n| {
                        reads.insert(key(n));
                    })
                });
            }
        }
        reads_of(&bwd, &mut reads);
        (has, reads, bwd)
    }

    // ----- blocks and statements -----

    /// The current frame with early exits, if the innermost frame has any.
    fn coded_frame(&self) -> Option<(FrameKey, String)> {
        let f = self.frames.last()?;
        Some((f.key, f.code_var.clone()?))
    }

    fn block(&mut self, stmts: &[Stmt]) -> (Vec<Stmt>, Vec<Stmt>) {
        self.block_with_room(stmts, stmts.len(), 0)
    }

    /// `block`, with room for `room` statements in the forward sweep's vector and
    /// `back_room` in the backward sweep's.
    fn block_with_room(
        &mut self,
        stmts: &[Stmt],
        room: usize,
        back_room: usize,
    ) -> (Vec<Stmt>, Vec<Stmt>) {
        let coded = self.coded_frame();
        let mut fwd = Vec::with_capacity(room);
        // CHECKPOINT-START / CHECKPOINT-END regions: one part each (`region`).
        let regions = crate::il::directive::regions(stmts);
        if !regions.is_empty() {
            return self.block_with_regions(stmts, &regions, coded);
        }
        if coded.is_none() {
            // The backward parts go into one vector in statement order, which is then
            // reversed in place, part by part: in a unit of 10^5 statements these are
            // its largest allocations (issue 16), and one small vector kept per
            // statement would double them.
            let mut bwd: Vec<Stmt> = Vec::with_capacity(back_room);
            let mut starts = Vec::with_capacity(stmts.len());
            for s in stmts {
                let (f, b) = self.stmt(s);
                fwd.extend(f);
                starts.push(bwd.len());
                bwd.extend(b);
            }
            let total = bwd.len();
            bwd.reverse();
            let mut end = total;
            for start in starts.into_iter().rev() {
                bwd[total - end..total - start].reverse();
                end = start;
            }
            return (fwd, bwd);
        }
        let mut parts = Vec::with_capacity(stmts.len());
        for s in stmts {
            let (f, b) = self.stmt(s);
            fwd.extend(f);
            parts.push((s, b));
        }
        let bwd = self.guarded_backward(parts, coded.as_ref());
        (fwd, bwd)
    }

    /// The backward parts of a block's statements, in reverse order, each group of them
    /// that ran after the same number of the frame's early exits guarded by that number.
    fn guarded_backward(
        &mut self,
        parts: Vec<(&Stmt, Vec<Stmt>)>,
        coded: Option<&(FrameKey, String)>,
    ) -> Vec<Stmt> {
        let mut bwd = Vec::new();
        let mut group: Vec<Stmt> = Vec::new();
        let mut group_before = 0;
        for (s, b) in parts.into_iter().rev() {
            if b.is_empty() {
                continue;
            }
            let before = match coded {
                Some((frame, _)) => self.jumps.before_inside(*frame, s).0,
                None => 0,
            };
            if before != group_before && !group.is_empty() {
                bwd.extend(self.guard(group_before, std::mem::take(&mut group)));
            }
            group_before = before;
            group.extend(b);
        }
        if !group.is_empty() {
            bwd.extend(self.guard(group_before, group));
        }
        bwd
    }

    /// Wraps statements that ran only when no early exit happened before them.
    fn guard(&mut self, before: usize, stmts: Vec<Stmt>) -> Vec<Stmt> {
        if before == 0 {
            return stmts;
        }
        let (_, var) = self
            .coded_frame()
            .expect("guards exist only in coded frames");
        vec![if_then(ran_past(&var, before), stmts)]
    }

    fn stmt(&mut self, s: &Stmt) -> (Vec<Stmt>, Vec<Stmt>) {
        if let Some(site) = call_site(s) {
            if self.ug.ctx.procedures.unit(site.callee).is_some()
                || matches!(s.kind, StmtKind::Call { .. })
            {
                let (mut fwd, bwd) = self.call(s, &site);
                let bwd = self.reshape_reallocated(s, &mut fwd, bwd);
                return (fwd, self.free_call_allocations(s, bwd));
            }
            // A function adgen has no source for: as in the tangent, never a zero
            // derivative.
            refuse_unknown_callee(self.ug, s, &site);
        }
        match &s.kind {
            StmtKind::Assign { lhs, rhs } => {
                let mut fwd = Vec::new();
                let mut bwd = Vec::new();
                if self.present(s) {
                    if lhs.base_name().is_some_and(|n| self.saves(s, n)) {
                        // A whole derived-type variable is saved component by component.
                        let saves = self.save_all(lhs, s, None);
                        fwd.extend(saves.iter().map(|(push, _)| push.clone()));
                        bwd.extend(saves.into_iter().rev().map(|(_, pop)| pop));
                    }
                    fwd.push(s.clone());
                }
                let kept = self
                    .ug
                    .node(s)
                    .and_then(|n| self.kept.get_mut(n))
                    .and_then(Option::take);
                match kept {
                    Some(b) => bwd.extend(b),
                    None => bwd.extend(self.assignment_adjoint(s, lhs, rhs)),
                }
                (fwd, bwd)
            }
            StmtKind::If { .. } => self.if_stmt(s),
            StmtKind::Do { .. } | StmtKind::DoWhile { .. } => self.loop_stmt(s),
            StmtKind::Exit { .. } | StmtKind::Cycle { .. } | StmtKind::Return => {
                (self.jump(s), Vec::new())
            }
            StmtKind::Allocate(_) | StmtKind::Deallocate(_) => self.heap_stmt(s),
            StmtKind::Io { writes, .. } if !writes.is_empty() => self.input(s, writes),
            _ => (vec![s.clone()], Vec::new()),
        }
    }

    /// A READ (kept only in a root that no other procedure calls, `prepare::io`): the
    /// forward sweep reads once, as the primal does, after saving what the backward sweep
    /// needs of the variables it overwrites; the values read are inputs, so the backward
    /// sweep zeroes their adjoints (and reads nothing again).
    fn input(&mut self, s: &Stmt, writes: &[Expr]) -> (Vec<Stmt>, Vec<Stmt>) {
        let mut saves = Vec::new();
        for w in writes {
            if w.base_name().is_some_and(|n| self.saves(s, n)) {
                saves.extend(self.save_all(w, s, None));
            }
        }
        let mut fwd: Vec<Stmt> = saves.iter().map(|(push, _)| push.clone()).collect();
        // Popped in the reverse order of the pushes, across the items.
        let mut bwd: Vec<Stmt> = saves.into_iter().rev().map(|(_, pop)| pop).collect();
        fwd.push(s.clone());
        bwd.extend(self.input_adjoint(s, writes));
        (fwd, bwd)
    }

    /// The adjoint of reading into `writes`: their adjoints are zero before the READ.
    fn input_adjoint(&mut self, s: &Stmt, writes: &[Expr]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for w in writes {
            let Some(name) = w.base_name() else { continue };
            if let Some(d) = self.ug.dref(w) {
                if super::tangent::read_in_implied_do(self.ug, s, w, writes) {
                    continue;
                }
                out.extend(self.ug.zero_into(d, name));
            }
        }
        out
    }

    // ----- calls -----

    // ----- zeroing -----
}

#[derive(Default)]
struct LoopNames {
    from: Option<String>,
    step: Option<String>,
    count: Option<String>,
    to: Option<String>,
    code: Option<String>,
}

/// Variables (keys) a list of backward statements reads.
pub fn reads_of(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    visit::walk_stmts(stmts, &mut |s| {
        let exprs: Vec<&Expr> = match &s.kind {
            // A pop or look writes its operand: it reads only the subscripts and count.
            StmtKind::Tape(t) if t.op.writes() => {
                let mut v: Vec<&Expr> = Vec::new();
                if let ExprKind::Index(_, subs) = &t.value.kind {
                    v.extend(subs.iter());
                }
                v.extend(t.count.as_deref());
                v
            }
            StmtKind::Assign { lhs, rhs } => {
                let mut v = vec![rhs];
                if let ExprKind::Index(_, subs) = &lhs.kind {
                    v.extend(subs.iter());
                }
                v
            }
            // The bounds, not the array allocated.
            StmtKind::Allocate(items) => items
                .iter()
                .flat_map(|e| match &e.kind {
                    ExprKind::Index(_, subs) => subs.iter().collect(),
                    _ => Vec::new(),
                })
                .collect(),
            StmtKind::Deallocate(_) => Vec::new(),
            _ => visit::stmt_exprs(s),
        };
        for e in exprs {
            for n in visit::names_read(e) {
                out.insert(key(n));
            }
        }
    });
}

/// A block falls through at its end (its last statement is not an unconditional jump).
fn completes(block: &[Stmt]) -> bool {
    let Some(last) = block
        .iter()
        .rev()
        .find(|s| !matches!(s.kind, StmtKind::Comment(_)))
    else {
        return true;
    };
    match &last.kind {
        StmtKind::Exit { .. }
        | StmtKind::Cycle { .. }
        | StmtKind::Return
        | StmtKind::Goto { .. } => false,
        StmtKind::If {
            arms,
            else_body: Some(e),
            ..
        } => arms.iter().any(|(_, b)| completes(b)) || completes(e),
        _ => true,
    }
}

/// `code == 0 .or. code > n`: execution went past the first `n` early exits.
fn ran_past(var: &str, n: usize) -> Expr {
    Expr::binary(
        BinOp::Or,
        Expr::binary(BinOp::Eq, Expr::var(var), Expr::int(0)),
        Expr::binary(BinOp::Gt, Expr::var(var), Expr::int(n as i64)),
    )
}

fn if_then(cond: Expr, body: Vec<Stmt>) -> Stmt {
    if_chain(vec![(cond, body)], None)
}

/// A test whose answer cannot change while the procedure runs: made of `PRESENT`,
/// logical constants and logical operators.
fn invariant_test(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Intrinsic {
            op: Intrinsic::Present,
            ..
        }
        | ExprKind::Logical(_) => true,
        ExprKind::Unary(UnOp::Not, x) | ExprKind::Paren(x) => invariant_test(x),
        ExprKind::Binary(BinOp::And | BinOp::Or | BinOp::Eqv | BinOp::Neqv, a, b) => {
            invariant_test(a) && invariant_test(b)
        }
        _ => false,
    }
}

fn if_chain(arms: Vec<(Expr, Vec<Stmt>)>, else_body: Option<Vec<Stmt>>) -> Stmt {
    Stmt::generated(StmtKind::If {
        arms,
        else_body,
        logical_if: false,
        name: None,
    })
}

fn do_loop(var: &str, start: Expr, end: Expr, step: Option<Expr>, body: Vec<Stmt>) -> Stmt {
    Stmt::generated(StmtKind::Do {
        var: var.to_string(),
        start: Box::new(start),
        end: Box::new(end),
        step: step.map(Box::new),
        body,
        name: None,
    })
}

fn set_loop_body(s: &mut Stmt, new_body: Vec<Stmt>) {
    match &mut s.kind {
        StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => *body = new_body,
        _ => {}
    }
}

fn paren(e: &Expr) -> Expr {
    match e.kind {
        ExprKind::Var(_) | ExprKind::Index(..) | ExprKind::Int(_) | ExprKind::Paren(_) => e.clone(),
        _ => Expr::new(ExprKind::Paren(Box::new(e.clone()))),
    }
}

/// `-e`, folding literals.
fn negate(e: &Expr) -> Expr {
    match &e.kind {
        ExprKind::Int(t) if t.parse::<i64>().is_ok() => {
            Expr::int(-t.parse::<i64>().expect("checked"))
        }
        ExprKind::Unary(crate::il::UnOp::Neg, inner) => (**inner).clone(),
        _ => Expr::unary(crate::il::UnOp::Neg, paren(e)),
    }
}

/// A push, pop or look: bookkeeping, not a derivative instruction.
fn is_runtime_call(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Tape(_))
}

/// A push of an integer (loop bounds and trip counts) on the stack of its kind.
fn push_int(value: Expr, ty: TapeType) -> Stmt {
    tape(Tape::new(TapeOp::Push, ty, value))
}
