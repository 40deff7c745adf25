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

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::effects::{CallSite, call_site};
use crate::diag::Diagnostic;
use crate::il::bind_actuals;
use crate::il::{
    BinOp, Bound, DeclKind, Expr, ExprKind, Intrinsic, ScalarType, Stmt, StmtId, StmtKind, Tape,
    TapeOp, TapeType, TypeSpec, UnOp, Unit, UnitKind, key, visit,
};
use crate::runtime::RUNTIME_MODULE;

use super::partials::{Term, linearize};
use super::plan::{self, Plan};
use super::tangent::{convert, touches_active, unknown_procedure};
use super::{UnitGen, assign, tape};

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
/// writes the same `vd = vd`).
fn pass_through(ug: &UnitGen, body: &mut Vec<Stmt>) {
    let referenced = crate::il::visit::referenced_names(body);
    let mut kept = Vec::new();
    for a in &ug.unit.args {
        let Some(d) = ug.deriv_name(a) else {
            continue;
        };
        let scalar = ug
            .unit
            .symbols
            .get(a)
            .is_some_and(|s| !s.is_array() && s.ty != ScalarType::Derived);
        if scalar && !ug.unit.is_optional(a) && !referenced.contains(&key(d)) {
            kept.push(super::assign(Expr::var(d), Expr::var(d)));
        }
    }
    body.splice(0..0, kept);
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
    pass_through(ug, &mut body);
    let mut decls = ug.declarations(&[], &body);
    if ug.uses_runtime {
        decls.insert(
            0,
            crate::il::Decl {
                kind: DeclKind::Use {
                    module: RUNTIME_MODULE.to_string(),
                    only: None,
                    renames: Vec::new(),
                },
                span: Default::default(),
            },
        );
    }
    Unit {
        kind: UnitKind::Subroutine,
        name: ug
            .ctx
            .derivative_of(&unit.name)
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
    }
}

/// The plan the adjoint is generated with, its body, and the variables the forward
/// sweep overwrites without saving. A dummy that slicing would remove from the adjoint
/// altogether (an unused argument for the compiler) is made diff-live at the exit and
/// everything regenerated.
pub(crate) fn settle(ug: &mut UnitGen) -> (Plan, Vec<Stmt>, BTreeSet<String>) {
    let unit = ug.unit;
    let saved = (
        ug.namer.clone(),
        ug.temps.clone(),
        ug.errors.len(),
        ug.warnings.len(),
        ug.called_functions.clone(),
    );
    let mut live_at_exit = ug.uir.zones.empty_set();
    // Module variables the unit overwrites keep their final values: the rest of the
    // program sees them, as it sees the originals'.
    for (g, &z) in ug.uir.zones.globals.iter().enumerate() {
        let slot = crate::analysis::summary::global_slot(ug.uir, g);
        if ug.ua.summary.writes[slot] {
            live_at_exit.set(z, true);
        }
    }
    loop {
        let plan = make_plan(ug, &live_at_exit);
        ug.uses_runtime = false;
        let mut adj = Adj::new(ug, plan.clone());
        let body = adj.unit_body();
        let unsaved = std::mem::take(&mut adj.unsaved);
        let referenced = crate::il::visit::referenced_names(&body);
        let mut grew = false;
        let mut accesses = None;
        for a in &unit.args {
            if let Some(z) = ug.uir.zones.get(a) {
                // A derived-type dummy is referenced through its components (`s%x`).
                let prefix = format!("{}%", key(a));
                if referenced.contains(&key(a)) || referenced.iter().any(|r| r.starts_with(&prefix))
                {
                    continue;
                }
                if !live_at_exit[z] {
                    live_at_exit.set(z, true);
                    grew = true;
                    continue;
                }
                // An input the adjoint never needs, as in a linear function `e = x(j) - c`:
                // what is computed from it is kept too, so that the forward sweep reads it.
                let accesses =
                    accesses.get_or_insert_with(|| super::plan::accesses(ug.ctx, ug.uir));
                for access in accesses.iter().filter(|acc| acc.reads[z]) {
                    for &(d, _) in &access.defs {
                        if !live_at_exit[d] {
                            live_at_exit.set(d, true);
                            grew = true;
                        }
                    }
                }
            }
        }
        if !grew {
            return (plan, body, unsaved);
        }
        ug.namer = saved.0.clone();
        ug.temps = saved.1.clone();
        ug.errors.truncate(saved.2);
        ug.warnings.truncate(saved.3);
        ug.called_functions = saved.4.clone();
    }
}

/// Writes each statement's derivative instruction alone to learn `use(I')`, then runs
/// diff-liveness and TBR (seeds/000 §5.2) to decide what the forward sweep keeps and saves.
fn make_plan(ug: &mut UnitGen, live_at_exit: &crate::ir::ZoneSet) -> Plan {
    let saved = (
        ug.namer.clone(),
        ug.temps.clone(),
        ug.errors.len(),
        ug.warnings.len(),
        ug.called_functions.clone(),
    );
    let n = ug.uir.flow.len();
    let n_zones = ug.uir.zones.len();
    let mut adjoints = plan::NodeAdjoints {
        uses: vec![crate::ir::ZoneSet::repeat(false, n_zones); n],
        has_adjoint: vec![false; n],
    };
    {
        let keep_all = Plan {
            present: vec![true; n],
            live_constructs: BTreeSet::new(),
            save: vec![crate::ir::ZoneSet::repeat(true, n_zones); n],
            tbr_before: vec![crate::ir::ZoneSet::repeat(true, n_zones); n],
            save_index: BTreeSet::new(),
            keep_all: true,
            diff_live_after: Vec::new(),
        };
        let mut adj = Adj::new(ug, keep_all);
        for (node, kind) in adj.ug.uir.flow.nodes.iter().enumerate() {
            let crate::ir::NodeKind::Simple(stmt) = kind else {
                continue;
            };
            let (has, reads) = adj.node_adjoint(stmt);
            adjoints.has_adjoint[node] = has;
            let mut set = crate::ir::ZoneSet::repeat(false, n_zones);
            for name in reads {
                if let Some(z) = adj.ug.uir.zones.get(&name) {
                    set.set(z, true);
                }
            }
            // A callee's adjoint re-runs its forward sweep: it reads the globals (module
            // and COMMON variables, seen here or not) as the call did; their summaries do
            // not say which.
            let reruns = call_site(stmt)
                .is_some_and(|site| has || adj.ug.ctx.derivative_of(site.callee).is_some());
            if reruns {
                for (z, zone) in adj.ug.uir.zones.zones.iter().enumerate() {
                    if zone.global {
                        set.set(z, true);
                    }
                }
            }
            adjoints.uses[node] = set;
        }
    }
    ug.namer = saved.0;
    ug.temps = saved.1;
    ug.errors.truncate(saved.2);
    ug.warnings.truncate(saved.3);
    ug.called_functions = saved.4;
    let disabled = &ug.ctx.request.disabled;
    let switches = plan::Switches {
        diff_liveness: !disabled.contains("diff-liveness"),
        tbr: !disabled.contains("tbr"),
        snapshot: !disabled.contains("snapshot"),
    };
    plan::plan(
        ug.uir,
        plan::accesses(ug.ctx, ug.uir),
        &adjoints,
        &switches,
        live_at_exit,
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum FrameKey {
    Routine,
    Loop(StmtId),
}

/// A construct that early exits can leave: the procedure, or a loop.
#[derive(Clone, Debug)]
struct Frame {
    key: FrameKey,
    name: Option<String>,
    /// Variable holding the popped exit code, when the frame has early exits.
    code_var: Option<String>,
    /// Names of the loop's saved bounds and count, for pushes at early exits.
    exit_pushes: Vec<Stmt>,
}

/// Precomputed positions of early exits.
#[derive(Default)]
struct Jumps {
    /// Preorder index and subtree end of each statement.
    extent: BTreeMap<StmtId, (usize, usize)>,
    /// For each frame, the positions of its jumps in textual order (code = index + 1).
    positions: BTreeMap<FrameKey, Vec<usize>>,
    /// Loops that count their iterations (DO WHILE, or left early).
    counted: BTreeSet<StmtId>,
}

impl Jumps {
    fn of(body: &[Stmt]) -> Jumps {
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

    fn n_codes(&self, frame: FrameKey) -> usize {
        self.positions.get(&frame).map_or(0, Vec::len)
    }

    /// The code of the jump at `pos` in `frame`.
    fn code(&self, frame: FrameKey, pos: usize) -> Option<usize> {
        self.positions
            .get(&frame)?
            .iter()
            .position(|&p| p == pos)
            .map(|i| i + 1)
    }

    /// Number of `frame`'s jumps before statement `s`, and inside it.
    fn before_inside(&self, frame: FrameKey, s: &Stmt) -> (usize, usize) {
        let Some(&(start, end)) = self.extent.get(&s.id) else {
            return (0, 0);
        };
        let pos = self.positions.get(&frame).map(Vec::as_slice).unwrap_or(&[]);
        let before = pos.iter().filter(|&&p| p < start).count();
        let inside = pos.iter().filter(|&&p| p >= start && p < end).count();
        (before, inside)
    }
}

struct Adj<'x, 'c, 'a> {
    ug: &'x mut UnitGen<'c, 'a>,
    plan: Plan,
    /// Variables (keys) the forward sweep overwrites without saving them.
    unsaved: BTreeSet<String>,
    jumps: Jumps,
    frames: Vec<Frame>,
    return_label: Option<String>,
    branch_var: Option<String>,
    temp_b: BTreeMap<u8, String>,
}

impl<'x, 'c, 'a> Adj<'x, 'c, 'a> {
    fn new(ug: &'x mut UnitGen<'c, 'a>, plan: Plan) -> Self {
        let jumps = Jumps::of(&ug.unit.body);
        Adj {
            ug,
            plan,
            unsaved: BTreeSet::new(),
            jumps,
            frames: Vec::new(),
            return_label: None,
            branch_var: None,
            temp_b: BTreeMap::new(),
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
                    used.insert(l.clone());
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
        let (mut fwd, bwd) = self.block(&unit.body);
        self.frames.pop();
        if has_codes {
            fwd.push(self.push_control(0));
            let mut target = Stmt::generated(StmtKind::Continue);
            target.label = self.return_label.clone();
            fwd.push(target);
        }
        let mut body = fwd;
        body.extend(self.backward_start_zeroing());
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
        if let Some(t) = self.temp_b.get(&kind) {
            return t.clone();
        }
        let t = self.ug.temp("tempb", TypeSpec::of(ScalarType::Real(kind)));
        self.temp_b.insert(kind, t.clone());
        t
    }

    fn push_control(&mut self, k: usize) -> Stmt {
        self.ug.uses_runtime = true;
        tape(Tape::new(
            TapeOp::Push,
            TapeType::Control,
            Expr::int(k as i64),
        ))
    }

    fn pop_control(&mut self, var: &str) -> Stmt {
        self.ug.uses_runtime = true;
        tape(Tape::new(TapeOp::Pop, TapeType::Control, Expr::var(var)))
    }

    /// The plan's decision: save zone `name` before `stmt` overwrites it. Records
    /// overwrites without a save (the unit then does not give that variable back).
    fn saves(&mut self, stmt: &Stmt, name: &str) -> bool {
        let Some(sym) = self.ug.symbol_or_global(name) else {
            return false;
        };
        if !sym.is_variable() || sym.ty == ScalarType::Character {
            return false;
        }
        let decided = match (self.ug.node(stmt), self.ug.uir.zones.get(name)) {
            (Some(node), Some(z)) => self.plan.save[node][z],
            _ => true,
        };
        if !decided {
            self.unsaved.insert(key(name));
        }
        decided
    }

    /// The statement runs in the forward sweep.
    fn present(&self, stmt: &Stmt) -> bool {
        self.ug.node(stmt).is_none_or(|n| self.plan.present[n])
    }

    /// The IF or loop is kept in the forward sweep.
    fn live(&self, stmt: &Stmt) -> bool {
        self.plan.keep_all || self.plan.live_constructs.contains(&stmt.id)
    }

    /// The value of `name` before `stmt` is read again by the backward sweep (TBR⁻).
    fn needed_before(&self, stmt: &Stmt, name: &str) -> bool {
        match (self.ug.node(stmt), self.ug.uir.zones.get(name)) {
            (Some(node), Some(z)) => self.plan.tbr_before[node][z],
            _ => true,
        }
    }

    /// A statement's derivative instruction alone: whether it has one, and the variables
    /// (keys) it reads, including the subscripts of what the statement overwrites.
    fn node_adjoint(&mut self, s: &Stmt) -> (bool, BTreeSet<String>) {
        let mut reads = BTreeSet::new();
        let bwd = match call_site(s) {
            Some(site)
                if self.ug.ctx.program.unit(site.callee).is_some()
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
        (has, reads)
    }

    /// Push and pop of a variable; a whole derived-type variable is saved component by
    /// component: those under `parts` (paths relative to it, `""` for all), when given.
    fn save_all(
        &mut self,
        target: &Expr,
        s: &Stmt,
        parts: Option<&BTreeSet<String>>,
    ) -> Vec<(Stmt, Stmt)> {
        let whole_derived = match &target.kind {
            ExprKind::Var(n) => self
                .ug
                .unit
                .symbols
                .get(n)
                .is_some_and(|sym| sym.ty == ScalarType::Derived)
                .then(|| n.clone()),
            _ => None,
        };
        let Some(name) = whole_derived else {
            return self.save(target, s).into_iter().collect();
        };
        let leaves: Vec<String> = self
            .ug
            .unit
            .symbols
            .components_of(&name)
            .filter(|l| l.ty != ScalarType::Derived)
            .map(|l| l.name.clone())
            .filter(|l| {
                let path = key(l.get(name.len()..).unwrap_or_default());
                parts.is_none_or(|parts| {
                    parts
                        .iter()
                        .any(|p| p.is_empty() || path == *p || path.starts_with(&format!("{p}%")))
                })
            })
            .collect();
        leaves
            .iter()
            .filter_map(|l| self.save(&Expr::var(l), s))
            .collect()
    }

    /// Push and pop of a scalar or an array element.
    fn save(&mut self, target: &Expr, s: &Stmt) -> Option<(Stmt, Stmt)> {
        let name = target.base_name()?;
        let sym = self.ug.symbol_or_global(name)?;
        let ty = match sym.ty {
            ScalarType::Real(k) => TapeType::Real(k),
            ScalarType::Integer(k) => TapeType::Integer(k),
            ScalarType::Logical => TapeType::Boolean,
            ScalarType::Character => {
                self.ug.error(
                    Diagnostic::error(
                        "E0506",
                        format!(
                            "character variable `{name}` would have to be saved for the adjoint"
                        ),
                    )
                    .at(s.span),
                );
                return None;
            }
            ScalarType::Derived => {
                self.ug.error(
                    Diagnostic::error(
                        "E0506",
                        format!(
                            "derived-type variable `{name}` would have to be saved whole for the adjoint; adgen saves only its components yet"
                        ),
                    )
                    .at(s.span)
                    .with_help("assign the components one by one instead of passing the whole variable to a procedure that overwrites it"),
                );
                return None;
            }
        };
        let whole_array = sym.is_array() && matches!(target.kind, ExprKind::Var(_));
        self.ug.uses_runtime = true;
        if whole_array {
            let size = self.array_size(name, s)?;
            return Some((
                tape(Tape::array(TapeOp::Push, ty, target.clone(), size.clone())),
                tape(Tape::array(TapeOp::Pop, ty, target.clone(), size)),
            ));
        }
        Some((
            tape(Tape::new(TapeOp::Push, ty, target.clone())),
            tape(Tape::new(TapeOp::Pop, ty, target.clone())),
        ))
    }

    /// The number of elements of array `name`, from its declaration.
    fn array_size(&mut self, name: &str, s: &Stmt) -> Option<Expr> {
        let sym = self.ug.symbol_or_global(name)?;
        // An array kept allocatable: the bounds of the ALLOCATE in force here.
        if super::heap::is_kept_allocatable(sym) && self.ug.unit.symbols.get(name).is_some() {
            let item = super::heap::allocation_at(&self.ug.unit.body, s.id, name);
            return Some(super::heap::size_of(
                &item.and_then(|i| super::heap::item_bounds(&i))?,
            ));
        }
        // Assumed or deferred shape, or a module's array whose bounds may use names this
        // unit does not see: the array knows its size.
        if sym.dims.iter().any(|d| matches!(d.upper, Bound::Colon))
            || sym.global.is_some()
            || self.ug.unit.symbols.get(name).is_none()
        {
            return Some(Expr::intrinsic(
                crate::il::Intrinsic::Size,
                vec![Expr::var(name)],
            ));
        }
        let mut size: Option<Expr> = None;
        for d in &sym.dims {
            let Bound::Expr(upper) = &d.upper else {
                self.ug.error(
                    Diagnostic::error(
                        "E0507",
                        format!("adgen must save array `{name}` here, but it is assumed-size"),
                    )
                    .at(s.span)
                    .with_help(format!(
                        "declare `{name}` with an explicit shape such as `{name}(n)`"
                    )),
                );
                return None;
            };
            let literal = |e: &Expr| match &e.kind {
                ExprKind::Int(t) => t.parse::<i64>().ok(),
                _ => None,
            };
            let extent = match &d.lower {
                None => upper.clone(),
                Some(lower) if literal(lower) == Some(1) => upper.clone(),
                Some(lower) if literal(lower) == Some(0) => {
                    Expr::binary(BinOp::Add, upper.clone(), Expr::int(1))
                }
                Some(lower) => Expr::binary(
                    BinOp::Add,
                    Expr::binary(BinOp::Sub, paren(upper), paren(lower)),
                    Expr::int(1),
                ),
            };
            size = Some(match size {
                None => extent,
                Some(acc) => Expr::binary(BinOp::Mul, acc, paren(&extent)),
            });
        }
        size
    }

    // ----- blocks and statements -----

    /// The current frame with early exits, if the innermost frame has any.
    fn coded_frame(&self) -> Option<(FrameKey, String)> {
        let f = self.frames.last()?;
        Some((f.key, f.code_var.clone()?))
    }

    fn block(&mut self, stmts: &[Stmt]) -> (Vec<Stmt>, Vec<Stmt>) {
        let mut fwd = Vec::new();
        let mut parts = Vec::new();
        for s in stmts {
            let (f, b) = self.stmt(s);
            fwd.extend(f);
            parts.push((s, b));
        }
        let coded = self.coded_frame();
        let mut bwd = Vec::new();
        let mut group: Vec<Stmt> = Vec::new();
        let mut group_before = 0;
        for (s, b) in parts.into_iter().rev() {
            if b.is_empty() {
                continue;
            }
            let before = match &coded {
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
        (fwd, bwd)
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
            if self.ug.ctx.program.unit(site.callee).is_some()
                || matches!(s.kind, StmtKind::Call { .. })
            {
                return self.call(s, &site);
            }
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
                bwd.extend(self.assignment_adjoint(s, lhs, rhs));
                (fwd, bwd)
            }
            StmtKind::If { .. } => self.if_stmt(s),
            StmtKind::Do { .. } | StmtKind::DoWhile { .. } => self.loop_stmt(s),
            StmtKind::Exit { .. } | StmtKind::Cycle { .. } | StmtKind::Return => {
                (self.jump(s), Vec::new())
            }
            StmtKind::Allocate(_) | StmtKind::Deallocate(_) => self.heap_stmt(s),
            _ => (vec![s.clone()], Vec::new()),
        }
    }

    /// ALLOCATE and DEALLOCATE of arrays kept allocatable (`diff::heap`): the forward
    /// sweep allocates and frees the primal where it was, pushing its values before the
    /// DEALLOCATE when the backward sweep reads them; the backward sweep allocates the
    /// adjoint buffer (zeroed) at the DEALLOCATE, with the primal popped when it was
    /// pushed, and frees them at the ALLOCATE.
    fn heap_stmt(&mut self, s: &Stmt) -> (Vec<Stmt>, Vec<Stmt>) {
        let unit = self.ug.unit;
        let kept = |name: &str| {
            unit.symbols
                .get(name)
                .is_some_and(super::heap::is_kept_allocatable)
        };
        let mut fwd = Vec::new();
        let mut bwd = Vec::new();
        match &s.kind {
            StmtKind::Allocate(items) => {
                fwd.push(s.clone());
                let mut freed = Vec::new();
                for item in items {
                    let Some(name) = item.base_name().filter(|n| kept(n)) else {
                        continue;
                    };
                    if let Some(d) = self.ug.deriv_name(name) {
                        freed.push(Expr::var(d));
                    }
                    let recreated = super::heap::matching_deallocate(&unit.body, s.id, name)
                        .is_some_and(|dealloc| self.saved_at(dealloc, name));
                    if recreated {
                        freed.push(Expr::var(name));
                    }
                }
                if !freed.is_empty() {
                    bwd.push(Stmt::generated(StmtKind::Deallocate(freed)));
                }
            }
            StmtKind::Deallocate(items) => {
                for item in items {
                    let Some(name) = item.base_name().filter(|n| kept(n)) else {
                        continue;
                    };
                    let alloc = super::heap::matching_allocate(&unit.body, s.id, name);
                    let Some((alloc, bounds)) =
                        alloc.and_then(|a| super::heap::item_bounds(&a).map(|b| (a, b)))
                    else {
                        // `prepare::scalarize::alloc` pairs every DEALLOCATE of a kept array.
                        self.ug.error(
                            Diagnostic::error(
                                "E0547",
                                format!("adgen cannot find the ALLOCATE of `{name}` this DEALLOCATE frees, or its bounds"),
                            )
                            .at(s.span)
                            .with_help("allocate the array with explicit bounds in the same block as this DEALLOCATE"),
                        );
                        continue;
                    };
                    if self.saves(s, name) {
                        let ty = unit.symbols.get(name).map(|sym| sym.ty);
                        let tape_ty = ty.and_then(super::heap::array_tape_type);
                        if tape_ty.is_none() {
                            self.ug.error(
                                Diagnostic::error(
                                    "E0547",
                                    format!("the adjoint must save the values of `{name}` before it is freed, but adgen saves whole arrays of real(4), real(8) and integer(4) elements only"),
                                )
                                .at(s.span)
                                .with_help("use an array of one of those types, or allocate it where its values are not needed after it is freed"),
                            );
                        }
                        if let Some(ty) = tape_ty {
                            self.ug.uses_runtime = true;
                            let size = super::heap::size_of(&bounds);
                            fwd.push(tape(Tape::array(
                                TapeOp::Push,
                                ty,
                                Expr::var(name),
                                size.clone(),
                            )));
                            bwd.push(Stmt::generated(StmtKind::Allocate(vec![alloc.clone()])));
                            bwd.push(tape(Tape::array(TapeOp::Pop, ty, Expr::var(name), size)));
                        }
                    }
                    if let Some((d, bounds, zero)) =
                        super::heap::derivative_of_item(self.ug, &alloc)
                    {
                        bwd.push(Stmt::generated(StmtKind::Allocate(vec![
                            super::heap::renamed(&alloc, &d),
                        ])));
                        bwd.extend(super::heap::zero_loops(self.ug, &d, &bounds, zero));
                    }
                }
                fwd.push(s.clone());
            }
            _ => fwd.push(s.clone()),
        }
        (fwd, bwd)
    }

    /// The plan saves `name` before the statement `s` (without recording it unsaved).
    fn saved_at(&self, s: &Stmt, name: &str) -> bool {
        let has_push = self
            .ug
            .unit
            .symbols
            .get(name)
            .and_then(|sym| super::heap::array_tape_type(sym.ty))
            .is_some();
        has_push
            && match (self.ug.node(s), self.ug.uir.zones.get(name)) {
                (Some(node), Some(z)) => self.plan.save[node][z],
                _ => true,
            }
    }

    /// The adjoint of `lhs = rhs`: `leafb += ∂rhs/∂leaf · lhsb` for each active leaf, then
    /// `lhsb = 0` (the old value of `lhs` does not influence anything).
    fn assignment_adjoint(&mut self, s: &Stmt, lhs: &Expr, rhs: &Expr) -> Vec<Stmt> {
        let Some(name) = lhs.base_name() else {
            return Vec::new();
        };
        if let Some(pairs) = self.ug.structure_copy(lhs, rhs) {
            // `r = s` of a derived type: field by field (`sb%u = sb%u + rb%u; rb%u = 0`).
            return pairs
                .iter()
                .flat_map(|(l, r)| self.assignment_adjoint(s, l, r))
                .collect();
        }
        let Some(lhs_b) = self.ug.dref(lhs) else {
            return Vec::new();
        };
        if !self.ug.useful_after(s, name) {
            return Vec::new();
        }
        let terms = linearize(rhs, &self.ug.leaf_info(s));
        let zero = self.ug.zero_of(name);
        if terms.is_empty() {
            return vec![assign(lhs_b, zero)];
        }
        let mut out = Vec::new();
        let lhs_key = super::partials::expr_key(lhs);
        let same_base: Vec<&Term> = terms
            .iter()
            .filter(|t| t.leaf.base_name().is_some_and(|n| key(n) == key(name)))
            .collect();
        if same_base.len() == 1 && super::partials::expr_key(&same_base[0].leaf) == lhs_key {
            // `x = c*x + f(y)`: increment the others with xb, then scale xb in place.
            let own = same_base[0].clone();
            for t in terms
                .iter()
                .filter(|t| super::partials::expr_key(&t.leaf) != lhs_key)
            {
                out.push(self.increment(t, &lhs_b));
            }
            let scaled = match (own.coeff, own.negative) {
                (None, false) => None,
                (None, true) => Some(Expr::unary(crate::il::UnOp::Neg, lhs_b.clone())),
                (Some(c), false) => Some(Expr::binary(BinOp::Mul, c, lhs_b.clone())),
                (Some(c), true) => Some(Expr::unary(
                    crate::il::UnOp::Neg,
                    Expr::binary(BinOp::Mul, c, lhs_b.clone()),
                )),
            };
            if let Some(v) = scaled {
                let v = convert(self.ug, v, self.ug.ty(lhs));
                out.push(assign(lhs_b, v));
            }
            return out;
        }
        let self_ref = !same_base.is_empty();
        let weight = if self_ref {
            let t = self.tempb(self.ug.ty(lhs));
            out.push(assign(Expr::var(&t), lhs_b.clone()));
            out.push(assign(lhs_b.clone(), zero.clone()));
            Expr::var(t)
        } else {
            lhs_b.clone()
        };
        for t in &terms {
            out.push(self.increment(t, &weight));
        }
        if !self_ref {
            out.push(assign(lhs_b, zero));
        }
        out
    }

    /// `leafb = leafb ± coeff·weight`.
    fn increment(&self, t: &Term, weight: &Expr) -> Stmt {
        let leaf_b = self
            .ug
            .dref(&t.leaf)
            .expect("active leaves have derivative storage");
        let product = match &t.coeff {
            Some(c) => Expr::binary(BinOp::Mul, c.clone(), weight.clone()),
            None => weight.clone(),
        };
        let product = convert(self.ug, product, self.ug.ty(&t.leaf));
        let op = if t.negative { BinOp::Sub } else { BinOp::Add };
        assign(leaf_b.clone(), Expr::binary(op, leaf_b, product))
    }

    fn if_stmt(&mut self, s: &Stmt) -> (Vec<Stmt>, Vec<Stmt>) {
        if !self.live(s) {
            return (Vec::new(), Vec::new());
        }
        let StmtKind::If {
            arms,
            else_body,
            name,
            ..
        } = &s.kind
        else {
            unreachable!("if_stmt on an IF")
        };
        // Per branch: forward, backward, falls through at its end, its source.
        type Branch<'s> = (Vec<Stmt>, Vec<Stmt>, bool, &'s [Stmt]);
        let mut branches: Vec<Branch> = Vec::new();
        for (_, body) in arms {
            let (f, b) = self.block(body);
            branches.push((f, b, completes(body), body));
        }
        let else_src: &[Stmt] = else_body.as_deref().unwrap_or(&[]);
        let (f, b) = self.block(else_src);
        branches.push((f, b, completes(else_src), else_src));
        let n_complete = branches.iter().filter(|b| b.2).count();
        let any_bwd = branches.iter().any(|b| !b.1.is_empty());
        // Tests that give the same answer anywhere in the procedure (which optional
        // arguments are present) are asked again in the backward sweep instead of saved,
        // when no early exit leaves a branch.
        let retest = arms.iter().all(|(cond, _)| invariant_test(cond))
            && n_complete == branches.len()
            && self
                .coded_frame()
                .is_none_or(|(frame, _)| self.jumps.before_inside(frame, s).1 == 0);
        let needs_control = any_bwd && n_complete >= 2 && !retest;
        // Forward: the original test, each completing branch pushing its number.
        let mut fwd_arms = Vec::new();
        for (i, (cond, _)) in arms.iter().enumerate() {
            let mut f = branches[i].0.clone();
            if needs_control && branches[i].2 {
                f.push(self.push_control(i));
            }
            fwd_arms.push((cond.clone(), f));
        }
        let last = arms.len();
        let mut fwd_else = branches[last].0.clone();
        if needs_control && branches[last].2 {
            fwd_else.push(self.push_control(last));
        }
        let fwd_else = if else_body.is_some() || !fwd_else.is_empty() {
            Some(fwd_else)
        } else {
            None
        };
        let single = fwd_arms.len() == 1 && fwd_else.is_none() && fwd_arms[0].1.len() == 1;
        let fwd = Stmt {
            kind: StmtKind::If {
                arms: fwd_arms,
                else_body: fwd_else,
                logical_if: single
                    && matches!(
                        s.kind,
                        StmtKind::If {
                            logical_if: true,
                            ..
                        }
                    ),
                name: name.clone(),
            },
            ..s.clone()
        };
        if !any_bwd {
            return (vec![fwd], Vec::new());
        }
        if retest {
            let mut bwd_arms = Vec::new();
            let mut bwd = branches.into_iter().map(|b| b.1);
            for (cond, _) in arms {
                bwd_arms.push((cond.clone(), bwd.next().unwrap_or_default()));
            }
            let else_bwd = bwd.next().filter(|b| !b.is_empty());
            return (vec![fwd], vec![if_chain(bwd_arms, else_bwd)]);
        }
        // Backward: which branch ran, from the popped control or from the exit code.
        let mut bwd = Vec::new();
        let branch = self.branch();
        let full_select = if needs_control {
            self.pop_control(&branch)
        } else {
            let only = branches.iter().position(|b| b.2).unwrap_or(0);
            assign(Expr::var(&branch), Expr::int(only as i64))
        };
        let coded = self.coded_frame();
        let (before, inside) = match &coded {
            Some((frame, _)) => self.jumps.before_inside(*frame, s),
            None => (0, 0),
        };
        if let (Some((frame, var)), true) = (&coded, inside > 0) {
            let mut chain = vec![(ran_past(var, before + inside), vec![full_select])];
            let mut offset = before;
            for (i, (_, _, _, src)) in branches.iter().enumerate() {
                let n: usize = src
                    .iter()
                    .map(|x| self.jumps.before_inside(*frame, x).1)
                    .sum();
                if n > 0 {
                    let cond =
                        Expr::binary(BinOp::Le, Expr::var(var), Expr::int((offset + n) as i64));
                    chain.push((cond, vec![assign(Expr::var(&branch), Expr::int(i as i64))]));
                }
                offset += n;
            }
            bwd.push(if_chain(chain, None));
        } else {
            bwd.push(full_select);
        }
        let mut chain = Vec::new();
        for (i, (_, b, _, _)) in branches.into_iter().enumerate() {
            if !b.is_empty() {
                chain.push((
                    Expr::binary(BinOp::Eq, Expr::var(&branch), Expr::int(i as i64)),
                    b,
                ));
            }
        }
        bwd.push(if_chain(chain, None));
        (vec![fwd], bwd)
    }

    fn loop_stmt(&mut self, s: &Stmt) -> (Vec<Stmt>, Vec<Stmt>) {
        if !self.live(s) {
            return (Vec::new(), Vec::new());
        }
        let frame = FrameKey::Loop(s.id);
        let has_codes = self.jumps.n_codes(frame) > 0;
        let counted = self.jumps.counted.contains(&s.id);
        let (loop_var, start, step, name) = match &s.kind {
            StmtKind::Do {
                var,
                start,
                step,
                name,
                ..
            } => (Some(var.clone()), Some(start), step.as_ref(), name.clone()),
            StmtKind::DoWhile { name, .. } => (None, None, None, name.clone()),
            _ => unreachable!("loop_stmt on a loop"),
        };
        let var_spec = loop_var
            .as_deref()
            .and_then(|v| self.ug.unit.symbols.get(v))
            .map(|sym| sym.type_spec.clone())
            .unwrap_or_else(|| TypeSpec::of(ScalarType::Integer(4)));
        // Temporaries for the bounds, needed before the body when early exits push them.
        let mut names = LoopNames::default();
        if has_codes {
            self.loop_names(&mut names, start, step, counted, &var_spec);
            names.code = Some(self.int_temp("ad_jump"));
        }
        let exit_pushes = self.exit_pushes(&names, loop_var.as_deref(), step);
        self.frames.push(Frame {
            key: frame,
            name: name.clone(),
            code_var: names.code.clone(),
            exit_pushes,
        });
        let body = match &s.kind {
            StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => body,
            _ => unreachable!(),
        };
        let (f_body, b_body) = self.block(body);
        self.frames.pop();

        let mut fwd = Vec::new();
        let mut bwd_after = Vec::new();
        if let Some(v) = &loop_var {
            let saved = self.plan.keep_all || self.plan.save_index.contains(&s.id);
            if !saved {
                self.unsaved.insert(key(v));
            }
            if saved {
                if let Some((push, pop)) = self.save(&Expr::var(v), s) {
                    fwd.push(push);
                    bwd_after.push(pop);
                }
            }
        }
        if b_body.is_empty() && !has_codes {
            let mut plain = s.clone();
            set_loop_body(&mut plain, f_body);
            fwd.push(plain);
            return (fwd, bwd_after);
        }
        if !has_codes {
            self.loop_names(&mut names, start, step, counted, &var_spec);
        }
        let step_expr = match (&names.step, step) {
            (Some(t), _) => Expr::var(t),
            (None, Some(e)) => e.clone(),
            (None, None) => Expr::int(1),
        };
        let from_expr = match (&names.from, start) {
            (Some(t), _) => Expr::var(t),
            (None, Some(e)) => e.clone(),
            (None, None) => Expr::int(1),
        };
        // Forward sweep.
        if let (Some(t), Some(e)) = (&names.from, start) {
            fwd.push(assign(Expr::var(t), e.clone()));
        }
        if let (Some(t), Some(e)) = (&names.step, step) {
            fwd.push(assign(Expr::var(t), e.clone()));
        }
        if let Some(c) = &names.count {
            fwd.push(assign(Expr::var(c), Expr::int(0)));
        }
        let mut f_loop_body = Vec::new();
        if let Some(c) = &names.count {
            f_loop_body.push(assign(
                Expr::var(c),
                Expr::binary(BinOp::Add, Expr::var(c), Expr::int(1)),
            ));
        }
        f_loop_body.extend(f_body);
        if has_codes {
            f_loop_body.push(self.push_control(0));
        }
        let mut f_loop = s.clone();
        if let StmtKind::Do { start, step, .. } = &mut f_loop.kind {
            if names.from.is_some() {
                *start = from_expr.clone();
            }
            if names.step.is_some() {
                *step = Some(step_expr.clone());
            }
        }
        set_loop_body(&mut f_loop, f_loop_body);
        fwd.push(f_loop);
        fwd.extend(self.exit_pushes(&names, loop_var.as_deref(), step));
        // Backward sweep.
        let mut bwd = Vec::new();
        let mut b_loop_body = Vec::new();
        if let Some(code) = &names.code {
            b_loop_body.push(self.pop_control(code));
        }
        if let Some(c) = &names.count {
            bwd.push(self.pop_int(c));
        } else if let Some(t) = &names.to {
            bwd.push(self.pop_int(t));
        }
        if let Some(t) = &names.step {
            bwd.push(self.pop_int(t));
        }
        if let Some(t) = &names.from {
            bwd.push(self.pop_int(t));
        }
        let b_loop = if let Some(c) = &names.count {
            let index = self.int_temp("ad_i");
            if let Some(v) = &loop_var {
                // i = from + (ad_i - 1)*step
                let offset = Expr::binary(
                    BinOp::Mul,
                    paren(&Expr::binary(BinOp::Sub, Expr::var(&index), Expr::int(1))),
                    paren(&step_expr),
                );
                b_loop_body.insert(
                    0,
                    assign(
                        Expr::var(v),
                        Expr::binary(BinOp::Add, from_expr.clone(), offset),
                    ),
                );
            }
            b_loop_body.extend(b_body);
            do_loop(
                &index,
                Expr::var(c),
                Expr::int(1),
                Some(Expr::int(-1)),
                b_loop_body,
            )
        } else {
            b_loop_body.extend(b_body);
            let v = loop_var.clone().expect("uncounted loops are DO loops");
            let to = names
                .to
                .clone()
                .expect("uncounted loops save their last index");
            do_loop(
                &v,
                Expr::var(to),
                from_expr,
                Some(negate(&step_expr)),
                b_loop_body,
            )
        };
        bwd.push(b_loop);
        bwd.extend(bwd_after);
        (fwd, bwd)
    }

    fn loop_names(
        &mut self,
        names: &mut LoopNames,
        start: Option<&Expr>,
        step: Option<&Expr>,
        counted: bool,
        spec: &TypeSpec,
    ) {
        if names.from.is_some() || names.count.is_some() || names.to.is_some() {
            return;
        }
        let is_literal = |e: &Expr| {
            matches!(e.kind, ExprKind::Int(_))
                || matches!(&e.kind, ExprKind::Unary(_, x) if matches!(x.kind, ExprKind::Int(_)))
        };
        if start.is_some_and(|e| !is_literal(e)) {
            names.from = Some(self.ug.temp("ad_from", spec.clone()));
        }
        if step.is_some_and(|e| !is_literal(e)) {
            names.step = Some(self.ug.temp("ad_step", spec.clone()));
        }
        if counted {
            names.count = Some(self.int_temp("ad_count"));
        } else {
            names.to = Some(self.ug.temp("ad_to", spec.clone()));
        }
    }

    /// What a loop pushes when it is left: saved bounds, then its trip information.
    fn exit_pushes(
        &mut self,
        names: &LoopNames,
        var: Option<&str>,
        step: Option<&Expr>,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        if names.from.is_none() && names.count.is_none() && names.to.is_none() {
            return out;
        }
        self.ug.uses_runtime = true;
        if let Some(t) = &names.from {
            out.push(push_int(Expr::var(t)));
        }
        if let Some(t) = &names.step {
            out.push(push_int(Expr::var(t)));
        }
        if let Some(c) = &names.count {
            out.push(push_int(Expr::var(c)));
        } else if let Some(v) = var {
            let step = match (&names.step, step) {
                (Some(t), _) => Expr::var(t),
                (None, Some(e)) => e.clone(),
                (None, None) => Expr::int(1),
            };
            out.push(push_int(Expr::binary(
                BinOp::Sub,
                Expr::var(v),
                paren(&step),
            )));
        }
        out
    }

    fn pop_int(&mut self, var: &str) -> Stmt {
        self.ug.uses_runtime = true;
        tape(Tape::new(TapeOp::Pop, TapeType::Integer(4), Expr::var(var)))
    }

    /// EXIT, CYCLE, RETURN in the forward sweep: push the codes of every frame left, and
    /// the trip information of every loop left early; RETURN jumps to the backward sweep.
    fn jump(&mut self, s: &Stmt) -> Vec<Stmt> {
        let pos = self.jumps.extent.get(&s.id).map(|e| e.0).unwrap_or(0);
        let target = match &s.kind {
            StmtKind::Exit { name } | StmtKind::Cycle { name } => {
                let loops: Vec<usize> = (0..self.frames.len())
                    .filter(|&i| matches!(self.frames[i].key, FrameKey::Loop(_)))
                    .collect();
                match name {
                    None => loops.last().copied(),
                    Some(n) => loops.into_iter().rev().find(|&i| {
                        self.frames[i]
                            .name
                            .as_deref()
                            .is_some_and(|l| l.eq_ignore_ascii_case(n))
                    }),
                }
            }
            _ => Some(0),
        };
        let Some(target) = target else {
            return vec![s.clone()];
        };
        let mut out = Vec::new();
        for i in (target..self.frames.len()).rev() {
            let frame = self.frames[i].clone();
            if let Some(code) = self.jumps.code(frame.key, pos) {
                out.push(self.push_control(code));
            }
            if i > target {
                out.extend(frame.exit_pushes.clone());
            }
        }
        if matches!(s.kind, StmtKind::Return) {
            let label = self
                .return_label
                .clone()
                .expect("units with RETURN have a label");
            out.push(Stmt {
                kind: StmtKind::Goto { label },
                ..s.clone()
            });
        } else {
            out.push(s.clone());
        }
        out
    }

    // ----- calls -----

    fn call(&mut self, s: &Stmt, site: &CallSite) -> (Vec<Stmt>, Vec<Stmt>) {
        let callee_ir = self.ug.ctx.unit_analysis(site.callee);
        let differentiated = self
            .ug
            .ctx
            .derivative_of(site.callee)
            .filter(|_| !self.ug.call_is_passive(s, site))
            .map(str::to_string);
        if callee_ir.is_none() && touches_active(self.ug, s, site) {
            self.ug.error(unknown_procedure(site.callee, s));
        }
        // What the callee may overwrite: the actual (a whole array when the dummy is an
        // array), the dummy's name, and which components of a derived-type actual.
        let mut written: Vec<Written> = Vec::new();
        match callee_ir {
            Some((cu, ca)) => {
                for (k, actual) in bind_actuals(cu.unit, site.args).iter().enumerate() {
                    let Some(actual) = actual else { continue };
                    let Some(name) = actual.base_name() else {
                        continue;
                    };
                    if !ca.summary.writes[k] {
                        continue;
                    }
                    let formal = &cu.unit.args[k];
                    let formal_is_array = cu.unit.symbols.get(formal).is_some_and(|f| f.is_array());
                    let target = if formal_is_array {
                        Expr::var(name)
                    } else {
                        (*actual).clone()
                    };
                    let parts = ca.summary.written_parts.get(k).filter(|p| !p.is_empty());
                    written.push((target, Some(formal.clone()), parts));
                }
                // Module variables the callee overwrites (seen here or not).
                let first = cu.unit.args.len() + 1;
                for (g, &z) in self.ug.uir.zones.globals.iter().enumerate() {
                    if ca.summary.writes.get(first + g).is_some_and(|b| *b) {
                        written.push((Expr::var(&self.ug.uir.zones.zones[z].name), None, None));
                    }
                }
            }
            None => {
                for a in site.args {
                    if let Some(n) = a.value.base_name() {
                        written.push((Expr::var(n), None, None));
                    }
                }
            }
        }
        // Forward: copies of what the callee's adjoint overwrites without giving back, the
        // snapshot of everything the callee overwrites, [result variable], the call.
        // Backward: [result variable], the snapshot (the state before the call), the
        // callee's adjoint (which re-runs the callee), the copies.
        // The snapshot is SNP = out(C) ∩ (TBR⁻(C) ∪ use(C')) (seeds/000 §5.4); the copies
        // are what the callee's adjoint overwrites, does not give back, and the rest of
        // the backward sweep reads (TBR⁻(C)).
        let present = self.present(s);
        let mut lhs_save = None;
        if let Some(lhs) = site.result_lhs {
            if present && lhs.base_name().is_some_and(|n| self.saves(s, n)) {
                lhs_save = self.save(lhs, s);
            }
        }
        let mut snapshot = Vec::new();
        let mut clobbered = Vec::new();
        for &(ref w, ref formal, parts) in &written {
            let Some(name) = w.base_name().map(str::to_string) else {
                continue;
            };
            let restored = formal
                .as_deref()
                .is_some_and(|f| self.callee_restores(site.callee, f));
            if differentiated.is_some() && !restored {
                if self.needed_before(s, &name) {
                    clobbered.extend(self.save_all(w, s, parts));
                } else {
                    self.unsaved.insert(key(&name));
                }
            }
            if present && self.saves(s, &name) {
                snapshot.extend(self.save_all(w, s, parts));
            }
        }
        // The result variable is saved last and restored first: the callee's adjoint
        // reads it when it is also an argument (`r = f(r, x)`).
        let mut fwd = Vec::new();
        let mut bwd = Vec::new();
        fwd.extend(clobbered.iter().map(|(push, _)| push.clone()));
        fwd.extend(snapshot.iter().map(|(push, _)| push.clone()));
        fwd.extend(lhs_save.iter().map(|(push, _)| push.clone()));
        if present {
            fwd.push(s.clone());
        }
        bwd.extend(lhs_save.iter().map(|(_, pop)| pop.clone()));
        bwd.extend(snapshot.iter().rev().map(|(_, pop)| pop.clone()));
        match differentiated {
            Some(dname) => bwd.extend(self.derivative_call(s, site, &dname)),
            None => {
                if let Some(lhs) = site.result_lhs {
                    let n = lhs.base_name().unwrap_or_default().to_string();
                    if let Some(d) = self.ug.dref(lhs) {
                        if self.ug.useful_after(s, &n) {
                            bwd.push(assign(d, self.ug.zero_of(&n)));
                        }
                    }
                }
            }
        }
        bwd.extend(clobbered.iter().rev().map(|(_, pop)| pop.clone()));
        (fwd, bwd)
    }

    /// The adjoint of `callee` gives dummy `formal` back with its value on entry.
    fn callee_restores(&self, callee: &str, formal: &str) -> bool {
        let Some(index) = self.ug.ctx.ir.index_of(callee) else {
            return false;
        };
        self.ug
            .ctx
            .restored
            .borrow()
            .get(&index)
            .is_some_and(|set| set.contains(&key(formal)))
    }

    /// `call f_b(...)`, with temporaries for expression arguments and the result weight.
    fn derivative_call(&mut self, s: &Stmt, site: &CallSite, dname: &str) -> Vec<Stmt> {
        let (cu, ca) = self
            .ug
            .ctx
            .unit_analysis(site.callee)
            .expect("differentiated units are known");
        let callee = cu.unit;
        let actuals = bind_actuals(callee, site.args);
        // One variable bound to two dummies the callee's adjoint updates: its adjoint
        // would assume they are distinct, and the gradient would be wrong.
        for (i, a) in actuals.iter().enumerate() {
            for (j, b) in actuals.iter().enumerate().skip(i + 1) {
                let (Some(a), Some(b)) = (a, b) else { continue };
                let (Some(na), Some(nb)) = (a.base_name(), b.base_name()) else {
                    continue;
                };
                let whole =
                    matches!(a.kind, ExprKind::Var(_)) || matches!(b.kind, ExprKind::Var(_));
                let same = na.eq_ignore_ascii_case(nb)
                    && (whole || visit::expr_key(a) == visit::expr_key(b));
                let writes = ca.summary.writes[i] || ca.summary.writes[j];
                if same
                    && writes
                    && ca.deriv_args[i]
                    && ca.deriv_args[j]
                    && self.ug.deriv_ref_name(na).is_some()
                {
                    self.ug.error(
                        Diagnostic::error(
                            "E0508",
                            format!(
                                "`{na}` is passed both as `{}` and as `{}` of `{}`, which overwrites one \
                                 of them: its adjoint would be wrong",
                                callee.args[i], callee.args[j], callee.name
                            ),
                        )
                        .at(s.span)
                        .with_help("pass a copy of the variable as one of the two arguments"),
                    );
                    return Vec::new();
                }
            }
        }
        let mut before = Vec::new();
        let mut after = Vec::new();
        let mut args = Vec::new();
        let suffix = self.ug.mode().var_suffix();
        // After an absent OPTIONAL argument (and its absent adjoint), arguments go by
        // keyword.
        let mut keywords: Vec<Option<String>> = Vec::new();
        let mut by_keyword = false;
        for (k, actual) in actuals.iter().enumerate() {
            let Some(actual) = actual else {
                if callee.is_optional(&callee.args[k]) {
                    by_keyword = true;
                    continue;
                }
                self.ug.error(super::missing_argument(callee, k, s.span));
                return Vec::new();
            };
            if by_keyword {
                keywords.resize(args.len(), None);
                keywords.push(Some(callee.args[k].clone()));
                if ca.deriv_args[k] {
                    keywords.push(super::callee_deriv_name(
                        self.ug.ctx,
                        site.callee,
                        &callee.args[k],
                    ));
                }
            }
            args.push((*actual).clone());
            if !ca.deriv_args[k] {
                continue;
            }
            let formal = callee.symbols.get(&callee.args[k]);
            let formal_ty = formal.map(|f| f.ty).unwrap_or(ScalarType::Real(8));
            if let Some(d) = self.ug.dref(actual) {
                args.push(d);
                continue;
            }
            if formal.is_some_and(|f| f.is_array()) {
                self.ug
                    .error(super::array_expression_argument(callee, k, actual.span));
                return Vec::new();
            }
            let temp = self
                .ug
                .temp(&format!("arg{}{suffix}", k + 1), TypeSpec::of(formal_ty));
            before.push(assign(Expr::var(&temp), self.ug.zero(formal_ty)));
            args.push(Expr::var(&temp));
            let terms = linearize(actual, &self.ug.leaf_info(s));
            for t in &terms {
                after.push(self.increment(t, &Expr::var(&temp)));
            }
        }
        keywords.resize(args.len(), None);
        if let Some(lhs) = site.result_lhs {
            let n = lhs.base_name().unwrap_or_default().to_string();
            let live = self.ug.dref(lhs).filter(|_| self.ug.useful_after(s, &n));
            if ca.result_active {
                let rty = callee
                    .result
                    .as_deref()
                    .and_then(|r| callee.symbols.get(r))
                    .map(|r| r.ty)
                    .unwrap_or(ScalarType::Real(8));
                let weight = self.ug.temp(&format!("result{suffix}"), TypeSpec::of(rty));
                match live {
                    Some(d) => {
                        before.push(assign(Expr::var(&weight), convert(self.ug, d.clone(), rty)));
                        before.push(assign(d, self.ug.zero_of(&n)));
                    }
                    None => before.push(assign(Expr::var(&weight), self.ug.zero(rty))),
                }
                args.push(Expr::var(weight));
            } else if let Some(d) = live {
                before.extend(self.ug.zero_into(d, &n));
            }
        }
        let mut out = before;
        out.push(Stmt {
            kind: StmtKind::Call {
                name: dname.to_string(),
                args: super::keyword_args(
                    args,
                    &keywords,
                    by_keyword,
                    callee
                        .result
                        .as_deref()
                        .and_then(|r| super::callee_deriv_name(self.ug.ctx, site.callee, r)),
                ),
            },
            ..Stmt::generated(StmtKind::Continue)
        });
        out.extend(after);
        out
    }

    // ----- zeroing -----

    fn is_result(&self, name: &str) -> bool {
        self.ug
            .unit
            .result
            .as_deref()
            .is_some_and(|r| key(r) == key(name))
    }

    fn is_root_dependent(&self, name: &str) -> bool {
        self.ug.is_dependent(name)
            || (self.is_result(name) && self.ug.is_dependent(&self.ug.unit.name))
    }

    /// Adjoints start at zero, except the weights: the adjoint arguments of non-roots, and
    /// the dependents of a root.
    fn backward_start_zeroing(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        let unit = self.ug.unit;
        // Module variables: their adjoint is the caller's weight when the calling context
        // needs them after the call, else zero.
        for (name, d, _, useful_out) in self.ug.active_globals() {
            if !useful_out {
                out.extend(super::tangent::global_zeroing(self.ug, &name, &d));
            }
        }
        for symbol in unit.symbols.iter() {
            if symbol.is_module_variable() {
                continue;
            }
            let Some(d) = self.ug.deriv_name(&symbol.name).map(str::to_string) else {
                continue;
            };
            let is_weight_arg =
                symbol.is_dummy() || (self.is_result(&symbol.name) && self.ug.ua.result_active);
            if is_weight_arg && (self.ug.root.is_none() || self.is_root_dependent(&symbol.name)) {
                continue;
            }
            // Allocated (and zeroed) where the forward sweep freed its primal.
            if super::heap::is_kept_allocatable(symbol) {
                continue;
            }
            if symbol.dims.iter().any(|d| matches!(d.upper, Bound::Star)) {
                let b = self
                    .ug
                    .deriv_name(&symbol.name)
                    .unwrap_or_default()
                    .to_string();
                self.ug.warnings.push(
                    Diagnostic::warning(
                        "W0501",
                        format!(
                            "the adjoint `{b}` of assumed-size array `{}` is added to, not \
                             overwritten: its size is unknown",
                            symbol.name
                        ),
                    )
                    .at(symbol.span)
                    .with_help(format!("set `{b}` to zero before calling the adjoint, or declare `{}` with an explicit shape", symbol.name)),
                );
                continue;
            }
            out.extend(self.ug.zero_into(Expr::var(d), &symbol.name));
        }
        out
    }

    /// On exit of a root's adjoint, only the independents' adjoints mean something: the
    /// others are set to zero (INTERFACE.md §4).
    fn exit_zeroing(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        if self.ug.root.is_none() {
            return out;
        }
        let unit = self.ug.unit;
        for symbol in unit.symbols.iter() {
            let Some(d) = self.ug.deriv_name(&symbol.name).map(str::to_string) else {
                continue;
            };
            let is_arg =
                symbol.is_dummy() || (self.is_result(&symbol.name) && self.ug.ua.result_active);
            if !is_arg || self.ug.is_independent(&symbol.name) {
                continue;
            }
            if symbol.dims.iter().any(|d| matches!(d.upper, Bound::Star)) {
                continue;
            }
            out.extend(self.ug.zero_into(Expr::var(d), &symbol.name));
        }
        out
    }
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
                v.extend(t.count.iter());
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
        start,
        end,
        step,
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

/// A push of an integer(4) (loop bounds and trip counts).
fn push_int(value: Expr) -> Stmt {
    tape(Tape::new(TapeOp::Push, TapeType::Integer(4), value))
}
