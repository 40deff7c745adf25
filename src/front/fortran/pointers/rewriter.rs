//! The walk that replaces each reference to a local pointer by one to its target, block
//! by block, following the associations in force (see the parent module for the rules).

use std::collections::{BTreeMap, BTreeSet};

use super::selectors::{Selector, uses};
use super::{Association, CODE, associated_in, pointer_base, shifted};
use crate::diag::{Diagnostic, Span};
use crate::il::{BinOp, Expr, ExprKind, Stmt, StmtId, StmtKind, key, visit};

/// Why a pointer's target is not known at the top of a loop body that associates it.
const ITERATION: &str =
    "it is associated again later in this loop, so its target here depends on the iteration";
/// Why a pointer's target is not known after a loop or a branch that associates it.
const PATH: &str =
    "it is associated inside a loop or a branch above, so its target here depends on the path";
/// The most copies of one statement the pointers' selectors may ask for.
const MAX_COPIES: usize = 8;

pub(super) struct Rewriter<'p> {
    /// The declared lower bounds of the unit's arrays that are not ALLOCATABLE (keys).
    pub lower_bounds: BTreeMap<String, Vec<Expr>>,
    pub pointers: &'p BTreeSet<String>,
    /// The pointers followed at run time by a selector (keys): their target depends on
    /// the path.
    pub selected: &'p BTreeMap<String, Selector>,
    /// The selected pointers in the order of `states`' tuples (keys).
    pub order: &'p [String],
    /// The targets the selected pointers can have when each statement starts, as
    /// tuples of selector values in `order` (`selectors::reachable`).
    pub states: &'p BTreeMap<StmtId, BTreeSet<Vec<u8>>>,
    pub next_id: &'p mut u32,
    /// The unit's INTENT(IN) dummies (keys): a copy that would write one through a
    /// pointer is for targets the pointer never has there (`select`).
    pub intent_in: BTreeSet<String>,
    pub current: BTreeMap<String, Association>,
    /// The pointers whose target in `current` a copy of a statement assumes (`select`):
    /// ASSOCIATED of them asks their selector.
    pub assumed: BTreeSet<String>,
    /// Why a pointer has no association known here, when it had one (keys).
    pub unknown: BTreeMap<String, &'static str>,
    /// The procedures of the file (keys) that allocate, free or NULLIFY a POINTER
    /// dummy, with its positions: a pointer replaced by its target cannot be passed
    /// there (the callee would change the target's allocation, not the pointer's).
    pub reassociating: &'p BTreeMap<String, BTreeSet<usize>>,
    /// The first refusal: the rest of the procedure is left as it is.
    pub error: Option<Diagnostic>,
    /// The pointer of that refusal when it was refused because its target depends on
    /// the path (key): a selector can follow it.
    pub path_dependent: Option<String>,
    /// The modules' pointers the unit uses (keys, `module`): a call may associate them.
    pub globals: BTreeSet<String>,
    /// Whether a statement's own expressions (or the statement, a CALL) may call a
    /// procedure that associates them.
    pub may_call: &'p dyn Fn(&Stmt) -> bool,
}

impl Rewriter<'_> {
    pub(super) fn fail(&mut self, span: Span, message: String, help: &str) {
        self.error
            .get_or_insert_with(|| Diagnostic::error(CODE, message).at(span).with_help(help));
    }

    /// `name => target`: the target resolved through the pointers it names. For a
    /// pointer a selector follows, the assignment of the selector that takes its place
    /// (and what it stands for).
    fn associate(
        &mut self,
        name: &str,
        mut target: Expr,
        span: Span,
    ) -> Option<(StmtKind, String)> {
        let selector = self.selected.get(&key(name));
        // `p => null()`: disassociated, as before its first association.
        if let ExprKind::Call(f, args) = &target.kind
            && f.eq_ignore_ascii_case("null")
            && args.is_empty()
        {
            self.current.remove(&key(name));
            self.unknown.remove(&key(name));
            self.assumed.remove(&key(name));
            return selector.map(|sel| (sel.assign(Expr::int(0)), format!("{name} => null()")));
        }
        // `p => q` of two pointers a selector follows, where `q`'s target is not known
        // (or only assumed): `p` gets `q`'s selector (both have the targets of their
        // family), and the same target as `q`, if assumed.
        if let (Some(sel), ExprKind::Var(q)) = (selector, &target.kind)
            && let Some(other) = self.selected.get(&key(q))
            && (!self.current.contains_key(&key(q)) || self.assumed.contains(&key(q)))
        {
            match self.current.get(&key(q)).cloned() {
                Some(assumed) => {
                    self.current.insert(key(name), assumed);
                    self.unknown.remove(&key(name));
                    self.assumed.insert(key(name));
                }
                None => {
                    self.current.remove(&key(name));
                    self.unknown.insert(key(name), PATH);
                }
            }
            return Some((sel.assign(Expr::var(&other.var)), format!("{name} => {q}")));
        }
        self.assumed.remove(&key(name));
        self.expr(&mut target);
        if let ExprKind::Call(n, args) = &target.kind
            && args.iter().all(|a| a.keyword.is_none())
        {
            let subs = args.iter().map(|a| a.value.clone()).collect();
            target.kind = ExprKind::Index(n.clone(), subs);
        }
        let designator = match &target.kind {
            ExprKind::Var(_) => true,
            ExprKind::Index(_, subs) => subs.iter().all(|s| match &s.kind {
                ExprKind::Range { stride, .. } => stride.is_none(),
                _ => true,
            }),
            _ => false,
        };
        if !designator {
            self.fail_association(
                selector,
                span,
                format!("the pointer `{name}` is associated with something adgen cannot replace it by"),
                "associate it with a variable, an element, a component or a section with stride 1 (`a(lo:hi)`, `a(:, j)`)",
            );
            return None;
        }
        let mut reads = BTreeSet::new();
        if let ExprKind::Index(_, subs) = &target.kind {
            for s in subs {
                reads.extend(visit::names_read(s).iter().map(|n| key(n)));
            }
        }
        self.unknown.remove(&key(name));
        let assignment = match (selector, &target.kind) {
            (None, _) => None,
            (Some(sel), ExprKind::Var(t)) => match sel.index_of(t) {
                Some(k) => Some((
                    sel.assign(Expr::int(k as i64 + 1)),
                    format!("{name} => {t}"),
                )),
                None => {
                    self.fail_association(selector, span, format!("the pointer `{name}` is associated here with `{t}`, which is not one of its family's targets"), "associate it with the target itself");
                    None
                }
            },
            (Some(_), _) => {
                self.fail_association(
                    selector,
                    span,
                    format!("the target of the pointer `{name}` depends on the path, and adgen follows such a pointer only among whole variables, but here it is associated with part of one"),
                    "associate it with whole arrays only, or use the target itself",
                );
                None
            }
        };
        self.current
            .insert(key(name), Association { target, reads });
        assignment
    }

    /// Refuses an association adgen cannot follow: for a pointer that has a module
    /// pointer's targets, as that module pointer's refusal (`module::refusal`), which
    /// blocks every procedure that uses it.
    fn fail_association(
        &mut self,
        selector: Option<&Selector>,
        span: Span,
        message: String,
        help: &str,
    ) {
        match selector.and_then(|s| s.follows.as_ref().map(|p| (p, s))) {
            Some((p, s)) if self.error.is_none() => {
                self.error = Some(super::module::refusal(
                    p,
                    &s.candidates,
                    span,
                    "it is associated with something else",
                ));
            }
            _ => self.fail(span, message, help),
        }
    }

    /// Refuses passing a pointer of this unit, whole, to a POINTER dummy whose
    /// allocation the callee changes (`reassociating`).
    fn check_reassociated(&mut self, s: &Stmt) {
        let StmtKind::Call { name, args } = &s.kind else {
            return;
        };
        let Some(positions) = self.reassociating.get(&key(name)) else {
            return;
        };
        for (k, a) in args.iter().enumerate() {
            if let (None, ExprKind::Var(p)) = (&a.keyword, &a.value.kind)
                && positions.contains(&k)
                && self.pointers.contains(&key(p))
            {
                self.fail(
                    s.span,
                    format!("the pointer `{p}` is passed to `{name}`, which allocates or frees its POINTER dummy: that would change `{p}`'s association, and adgen replaces `{p}` by its target"),
                    "pass the target itself, or a POINTER that owns its memory (given by ALLOCATE, never associated with `=>`)",
                );
                return;
            }
        }
    }

    /// Refuses a statement that changes what a target's subscripts read.
    fn check_writes(&mut self, s: &Stmt) {
        // The statement's own writes: those of the statements inside it are checked
        // where they are, against the associations in force there.
        let written: Vec<String> = match &s.kind {
            StmtKind::Assign { lhs, .. } => lhs.base_name().map(key).into_iter().collect(),
            StmtKind::Do { var, .. } => vec![key(var)],
            StmtKind::Call { args, .. } => args
                .iter()
                .filter_map(|a| a.value.base_name().map(key))
                .collect(),
            StmtKind::Io { writes, .. } => writes
                .iter()
                .filter_map(|w| w.base_name().map(key))
                .collect(),
            _ => Vec::new(),
        };
        let clash = self.current.iter().find_map(|(p, a)| {
            written
                .iter()
                .find(|w| a.reads.contains(*w))
                .map(|w| (p.clone(), w.clone()))
        });
        if let Some((p, w)) = clash {
            self.fail(
                s.span,
                format!("`{w}` changes here while the pointer `{p}` is associated with a target whose subscripts read it"),
                "associate the pointer again after the change, or use the target itself",
            );
        }
    }

    /// Rewrites a block: an association holds from its statement to the end of the
    /// block (and in the blocks inside it), or to the next association of the same
    /// pointer. A pointer associated inside a loop body is not associated at the top of
    /// that body (another iteration's association would be in force there), and one
    /// associated inside a loop or a branch is not associated after it.
    pub(super) fn block(
        &mut self,
        stmts: Vec<Stmt>,
        loop_body: bool,
        is_association: &dyn Fn(&Stmt) -> bool,
    ) -> Vec<Stmt> {
        if loop_body {
            for p in associated_in(&stmts, is_association) {
                self.current.remove(&p);
                self.unknown.insert(p, ITERATION);
            }
        }
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            if self.error.is_some() {
                out.push(s);
                continue;
            }
            if is_association(&s) {
                if let StmtKind::Assign {
                    lhs:
                        Expr {
                            kind: ExprKind::Var(name),
                            ..
                        },
                    rhs,
                } = s.kind
                    && let Some((kind, meaning)) = self.associate(&name, rhs, s.span)
                {
                    out.push(Stmt {
                        id: s.id,
                        kind,
                        span: s.span,
                        label: s.label,
                        trailing_comment: s.trailing_comment.or(Some(meaning.into())),
                    });
                }
                continue;
            }
            // `NULLIFY(p, q)`: each one `=> null()`.
            if let Some(names) = nullified(&s, self.pointers) {
                let null = Expr::new(ExprKind::Call("null".into(), Vec::new()));
                for name in names {
                    if let Some((kind, meaning)) = self.associate(&name, null.clone(), s.span) {
                        out.push(Stmt {
                            id: self.fresh_id(),
                            kind,
                            span: s.span,
                            label: None,
                            trailing_comment: Some(meaning.into()),
                        });
                    }
                }
                continue;
            }
            // A call may associate the modules' pointers: their targets are not known
            // after it, nor inside a construct that has one.
            let calls = self.calls(&s);
            if calls && !visit::child_blocks(&s).is_empty() {
                self.forget_globals();
            }
            let pending = self.pending(&s, calls, is_association);
            if pending.is_empty() {
                out.push(self.statement(s, is_association));
            } else {
                out.push(self.select(s, &pending, is_association));
            }
            if calls {
                self.forget_globals();
            }
        }
        out
    }

    /// Whether `s` or a statement inside it may call a procedure that associates the
    /// modules' pointers.
    fn calls(&self, s: &Stmt) -> bool {
        if self.globals.is_empty() {
            return false;
        }
        let mut found = false;
        visit::walk_stmts(std::slice::from_ref(s), &mut |x| {
            found |= (self.may_call)(x)
        });
        found
    }

    fn forget_globals(&mut self) {
        for p in &self.globals {
            self.current.remove(p);
            self.assumed.remove(p);
        }
    }

    /// One statement that is not an association, its blocks included.
    fn statement(&mut self, mut s: Stmt, is_association: &dyn Fn(&Stmt) -> bool) -> Stmt {
        // A DO WHILE condition is evaluated again after each pass of the body: the
        // pointers its body associates are unknown there too.
        let (saved, saved_unknown) = (self.current.clone(), self.unknown.clone());
        // Before the pointers are replaced: the actual arguments still name them.
        self.check_reassociated(&s);
        if let StmtKind::DoWhile { body, .. } = &s.kind {
            for p in associated_in(body, is_association) {
                self.current.remove(&p);
                self.unknown.insert(p, ITERATION);
            }
        }
        self.io_text(&mut s);
        for e in visit::stmt_exprs_mut(&mut s) {
            self.expr(e);
        }
        // DEALLOCATE of a pointer frees the memory variable it has (`owned`).
        if let StmtKind::Deallocate(items) = &mut s.kind {
            for e in items.iter_mut() {
                if matches!(&e.kind, ExprKind::Var(p) if self.pointers.contains(&key(p))) {
                    self.expr(e);
                }
            }
        }
        if matches!(s.kind, StmtKind::DoWhile { .. }) {
            self.current = saved;
            self.unknown = saved_unknown;
        }
        if let StmtKind::Do { var, .. } = &s.kind
            && self.pointers.contains(&key(var))
        {
            self.fail(
                s.span,
                format!("the pointer `{var}` is a DO variable"),
                "use an integer variable",
            );
        }
        // Writes are checked once the pointers in the statement are replaced: a
        // scalar pointer to a subscript variable writes that variable.
        self.check_writes(&s);
        let loops = matches!(
            s.kind,
            StmtKind::Do { .. } | StmtKind::DoWhile { .. } | StmtKind::Forall { .. }
        );
        for child in visit::child_blocks_mut(&mut s) {
            let inner = std::mem::take(child);
            let inside = associated_in(&inner, is_association);
            let (saved, saved_unknown) = (self.current.clone(), self.unknown.clone());
            *child = self.block(inner, loops, is_association);
            self.current = saved;
            self.unknown = saved_unknown;
            for p in inside {
                self.current.remove(&p);
                self.unknown.insert(p, PATH);
            }
        }
        s
    }

    fn fresh_id(&mut self) -> StmtId {
        let id = StmtId(*self.next_id);
        *self.next_id = self.next_id.saturating_add(1);
        id
    }

    /// The pointers followed by a selector that `s` uses where their target is not
    /// known (keys): `s` is written once for each combination of their targets. A
    /// statement that associates such pointers itself is not copied whole (the copies
    /// would multiply): the statements inside it are, and it is only for the pointers
    /// its own expressions use (an IF's condition, a DO's bounds); nor is one with a
    /// call inside (`calls`, from `calls`), for the modules' pointers.
    fn pending(
        &self,
        s: &Stmt,
        calls: bool,
        is_association: &dyn Fn(&Stmt) -> bool,
    ) -> Vec<String> {
        if self.selected.is_empty() {
            return Vec::new();
        }
        let mut inside: BTreeSet<String> = associated_in(std::slice::from_ref(s), is_association)
            .into_iter()
            .filter(|p| self.selected.contains_key(p))
            .collect();
        // A construct with a call inside is not copied whole either: the call may
        // change the modules' pointers' targets between its statements.
        if calls && !visit::child_blocks(s).is_empty() {
            inside.extend(self.globals.iter().cloned());
        }
        uses(s, self.pointers, is_association, inside.is_empty())
            .into_iter()
            .filter(|p| {
                self.selected.contains_key(p)
                    && !self.current.contains_key(p)
                    && !inside.contains(p)
            })
            .collect()
    }

    /// `s` once for each combination of targets the pending pointers can have when it
    /// runs (`states`), each copy with those targets known, chosen by their selectors:
    /// `if (old_target == 1 .and. new_target == 2) then ... else if ... else ... end if`.
    /// One combination needs no choice. A pointer with no target there (its selector
    /// 0) takes its first: the copy then never uses it, or the program is invalid.
    fn select(
        &mut self,
        s: Stmt,
        pending: &[String],
        is_association: &dyn Fn(&Stmt) -> bool,
    ) -> Stmt {
        let at: Vec<usize> = pending
            .iter()
            .map(|p| {
                self.order
                    .iter()
                    .position(|q| q == p)
                    .expect("a selected pointer")
            })
            .collect();
        let mut combos: Vec<Vec<u8>> = Vec::new();
        let mut null: BTreeSet<usize> = BTreeSet::new();
        for state in self.states.get(&s.id).into_iter().flatten() {
            let combo: Vec<u8> = at.iter().map(|&k| state[k].max(1)).collect();
            for (n, &k) in at.iter().enumerate() {
                if state[k] == 0 {
                    null.insert(n);
                }
            }
            if !combos.contains(&combo) {
                combos.push(combo);
            }
        }
        // A statement of no block that uses a pointer with no target in every state
        // that reaches it (it may still be guarded by ASSOCIATED when it has blocks).
        let states = self.states.get(&s.id).filter(|set| !set.is_empty());
        if visit::child_blocks(&s).is_empty()
            && let Some(states) = states
            && let Some(p) = at
                .iter()
                .zip(pending)
                .find(|(k, _)| states.iter().all(|state| state[**k] == 0))
                .map(|(_, p)| p)
        {
            self.fail(
                s.span,
                format!("the pointer `{p}` is used where it is not associated (before its first `=>`, or after `=> null()`)"),
                "associate it with `=>` before this use, or use the target itself",
            );
            return s;
        }
        // An earlier call's target (a saved pointer) is refused before the walk.
        if combos.iter().any(|c| {
            c.iter()
                .zip(pending)
                .any(|(&v, p)| v as usize > self.selected[p].candidates.len())
        }) {
            self.fail(
                s.span,
                "a pointer used here may still have an earlier call's target".to_string(),
                "associate it before this use in every call",
            );
            return s;
        }
        if combos.is_empty() {
            // Never reached: any targets will do.
            combos.push(vec![1; pending.len()]);
        }
        if combos.len() > MAX_COPIES {
            self.fail(
                s.span,
                format!("the targets of the pointers {} depend on the path, and this statement would be written {} times, once for each combination of their targets", pending.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "), combos.len()),
                "use the targets themselves in this statement, or fewer pointers",
            );
            return s;
        }
        if combos.len() > 1
            && let Some(why) = not_copyable(&s)
        {
            self.fail(
                s.span,
                format!("the targets of the pointers {} depend on the path, and adgen writes this statement once for each of their combinations, but {why}", pending.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")),
                "remove the label or the construct name, or use the targets themselves",
            );
            return s;
        }
        let (before, before_unknown) = (self.current.clone(), self.unknown.clone());
        let written_before = written(&s);
        let mut arms = Vec::with_capacity(combos.len());
        for (c, combo) in combos.iter().enumerate() {
            self.current = before.clone();
            self.unknown = before_unknown.clone();
            for (p, &v) in pending.iter().zip(combo) {
                let target = self.selected[p].candidates[v as usize - 1].clone();
                self.current.insert(
                    p.clone(),
                    Association {
                        target: Expr::var(target),
                        reads: BTreeSet::new(),
                    },
                );
                self.unknown.remove(p);
            }
            let assumed = self.assumed.clone();
            self.assumed.extend(pending.iter().cloned());
            let mut copy = s.clone();
            if combos.len() > 1 {
                copy.label = None;
            }
            let mut copy = self.statement(copy, is_association);
            self.assumed = assumed;
            // Writing an INTENT(IN) dummy through the pointer is not valid Fortran, so
            // the pointer never has that target here: no copy for it (the compiler would
            // refuse the copy).
            if combos.len() > 1
                && written(&copy)
                    .iter()
                    .any(|w| self.intent_in.contains(w) && !written_before.contains(w))
            {
                continue;
            }
            if c > 0 {
                visit::renumber(std::slice::from_mut(&mut copy), self.next_id);
            }
            // Only the pointers whose target differs between the copies are tested.
            let cond = pending
                .iter()
                .enumerate()
                .filter(|(n, _)| combos.iter().any(|other| other[*n] != combo[*n]))
                .map(|(n, p)| {
                    let var = Expr::var(&self.selected[p].var);
                    let v = combo[n] as i64;
                    if v == 1 && null.contains(&n) {
                        Expr::binary(BinOp::Le, var, Expr::int(1))
                    } else {
                        Expr::binary(BinOp::Eq, var, Expr::int(v))
                    }
                })
                .reduce(|a, b| Expr::binary(BinOp::And, a, b));
            arms.push((cond, copy));
        }
        // After it, the pointers' targets are as unknown as before.
        for p in pending {
            self.current.remove(p);
            match before_unknown.get(p) {
                Some(why) => self.unknown.insert(p.clone(), why),
                None => self.unknown.remove(p),
            };
        }
        if arms.len() == 1 {
            return arms.pop().expect("one copy").1;
        }
        let Some((_, last)) = arms.pop() else {
            // Every copy writes an INTENT(IN) dummy: the program is invalid there.
            self.fail(
                s.span,
                "this statement writes through a pointer only ever associated with INTENT(IN) dummy arguments here".to_string(),
                "associate the pointer with a variable that may be changed",
            );
            return s;
        };
        Stmt {
            id: self.fresh_id(),
            kind: StmtKind::If {
                arms: arms
                    .into_iter()
                    .map(|(cond, copy)| (cond.expect("copies differ"), vec![copy]))
                    .collect(),
                else_body: Some(vec![last]),
                logical_if: false,
                name: None,
            },
            span: s.span,
            label: s.label,
            trailing_comment: None,
        }
    }

    /// Replaces every reference to a pointer in `e` by one to its target (subscripts
    /// first: `p(q(i))`).
    fn expr(&mut self, e: &mut Expr) {
        // `associated(p)` of a pointer associated here is true (before `p` itself is
        // replaced).
        visit::walk_expr_mut_post(e, &mut |x| {
            if let ExprKind::Call(f, args) = &x.kind
                && f.eq_ignore_ascii_case("associated")
                && let [arg] = args.as_slice()
                && let ExprKind::Var(p) = &arg.value.kind
            {
                // Where the target is not known, or only assumed for a copy that may
                // run without one (`select`), the selector says whether there is one.
                // (`associated(p, t)` of a followed pointer: below.)
                if self.current.contains_key(&key(p)) && !self.assumed.contains(&key(p)) {
                    x.kind = ExprKind::Logical(true);
                } else if let Some(sel) = self.selected.get(&key(p)).filter(|_| {
                    self.assumed.contains(&key(p)) || !self.current.contains_key(&key(p))
                }) {
                    x.kind = Expr::binary(BinOp::Ne, Expr::var(&sel.var), Expr::int(0)).kind;
                }
            }
            // `associated(p, t)` of a pointer a selector follows, `t` one of its
            // targets: whether the selector stands for `t`.
            if let ExprKind::Call(f, args) = &x.kind
                && f.eq_ignore_ascii_case("associated")
                && let [arg, target] = args.as_slice()
                && let (ExprKind::Var(p), ExprKind::Var(t)) = (&arg.value.kind, &target.value.kind)
                && let Some(sel) = self.selected.get(&key(p))
                && let Some(k) = sel.index_of(t)
            {
                x.kind = Expr::binary(BinOp::Eq, Expr::var(&sel.var), Expr::int(k as i64 + 1)).kind;
            }
        });
        visit::walk_expr_mut_post(e, &mut |x| {
            // `q(i)%x` of a pointer to a whole array of structures: the parser's form of
            // a component of an element (a call whose first argument is marked `%N`)
            // names the target's component instead.
            if let ExprKind::Call(n, args) = &mut x.kind
                && pointer_base(self.pointers, n)
                && args
                    .first()
                    .is_some_and(|a| a.keyword.as_deref().is_some_and(|k| k.starts_with('%')))
            {
                let base_len = n.split('%').next().unwrap_or(n).len();
                let (base, rest) = n.split_at(base_len);
                let whole = self
                    .current
                    .get(&key(base))
                    .and_then(|a| match &a.target.kind {
                        ExprKind::Var(t) => Some(format!("{t}{rest}")),
                        _ => None,
                    });
                match whole {
                    Some(name) => *n = name,
                    None => {
                        let base = base.to_string();
                        self.fail(
                            x.span,
                            format!("the pointer `{base}` is used by element and component, but it is not associated with a whole array of structures"),
                            "associate it with the whole array, or use the target itself",
                        );
                    }
                }
                return;
            }
            // Before semantic analysis, `p(i)` may still read as a call.
            let (name, subs) = match &mut x.kind {
                ExprKind::Var(n) => (n.clone(), Vec::new()),
                ExprKind::Index(n, subs) => (n.clone(), std::mem::take(subs)),
                ExprKind::Call(n, args)
                    if pointer_base(self.pointers, n)
                        && args.iter().all(|a| a.keyword.is_none()) =>
                {
                    (n.clone(), args.drain(..).map(|a| a.value).collect())
                }
                _ => return,
            };
            let base_len = name.split('%').next().unwrap_or(&name).len();
            let (base, rest) = name.split_at(base_len);
            if !self.pointers.contains(&key(base)) {
                if !subs.is_empty() {
                    x.kind = ExprKind::Index(name.clone(), subs);
                }
                return;
            }
            match self.reference(base, rest, subs.clone(), x.span) {
                Some(kind) => x.kind = kind,
                None if subs.is_empty() => {}
                None => x.kind = ExprKind::Index(name.clone(), subs),
            }
        });
    }

    /// The reference `base rest (subs)` (`p(i)`, `q%x`) through the target of `base`.
    fn reference(
        &mut self,
        base: &str,
        rest: &str,
        subs: Vec<Expr>,
        span: Span,
    ) -> Option<ExprKind> {
        let Some(a) = self.current.get(&key(base)) else {
            let message = match self.unknown.get(&key(base)) {
                Some(why) => {
                    if self.error.is_none() {
                        self.path_dependent = Some(key(base));
                    }
                    format!("adgen cannot tell which target the pointer `{base}` has here: {why}")
                }
                None => format!(
                    "the pointer `{base}` is used where it is not associated (before its first `=>`, or after `=> null()`)"
                ),
            };
            self.fail(
                span,
                message,
                "associate it with `=>` in the same block before this use, or use the target itself",
            );
            return None;
        };
        let (tname, tsubs) = match &a.target.kind {
            ExprKind::Var(t) => (t.clone(), Vec::new()),
            ExprKind::Index(t, s) => (t.clone(), s.clone()),
            _ => return None,
        };
        let name = format!("{tname}{rest}");
        let ranges = tsubs
            .iter()
            .filter(|s| matches!(s.kind, ExprKind::Range { .. }))
            .count();
        // A whole variable, or a component of an element of an array of structures
        // (`q => parts(i)`, `q%x(j)` is `parts%x(i, j)`).
        if ranges == 0 {
            let mut all = tsubs;
            all.extend(subs);
            return Some(if all.is_empty() {
                ExprKind::Var(name)
            } else {
                ExprKind::Index(name, all)
            });
        }
        if !rest.is_empty() {
            self.fail(
                span,
                format!("the pointer `{base}` to a section of structures is used by component"),
                "use the target itself",
            );
            return None;
        }
        // A section: the whole section, or its elements at the pointer's subscripts.
        if subs.is_empty() {
            return Some(ExprKind::Index(name, tsubs));
        }
        if subs.len() != ranges {
            self.fail(
                span,
                format!(
                    "the pointer `{base}` has rank {ranges}, but {} subscripts here",
                    subs.len()
                ),
                "give one subscript per dimension of the section",
            );
            return None;
        }
        let mut given = subs.into_iter();
        let mut out = Vec::with_capacity(tsubs.len());
        for (k, t) in tsubs.into_iter().enumerate() {
            let ExprKind::Range { lower, upper, .. } = t.kind else {
                out.push(t);
                continue;
            };
            let bound = |op: crate::il::Intrinsic| {
                Expr::intrinsic(op, vec![Expr::var(&tname), Expr::int(k as i64 + 1)])
            };
            let declared = self
                .lower_bounds
                .get(&key(&tname))
                .and_then(|l| l.get(k))
                .cloned();
            let lo = lower.map_or_else(
                || declared.unwrap_or_else(|| bound(crate::il::Intrinsic::Lbound)),
                |b| *b,
            );
            let hi = upper.map_or_else(|| bound(crate::il::Intrinsic::Ubound), |b| *b);
            let s = given.next().expect("one subscript per range");
            out.push(match s.kind {
                ExprKind::Range {
                    lower: l,
                    upper: u,
                    stride,
                } => Expr::new(ExprKind::Range {
                    lower: Some(Box::new(l.map_or_else(|| lo.clone(), |l| shifted(&lo, *l)))),
                    upper: Some(Box::new(u.map_or(hi, |u| shifted(&lo, *u)))),
                    stride,
                }),
                _ => shifted(&lo, s),
            });
        }
        Some(ExprKind::Index(name, out))
    }
}

/// The variables `s` assigns, at any depth (keys).
fn written(s: &Stmt) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    visit::walk_stmts(std::slice::from_ref(s), &mut |x| {
        if let StmtKind::Assign { lhs, .. } = &x.kind
            && let Some(name) = lhs.base_name()
        {
            out.insert(key(name.split('%').next().unwrap_or(name)));
        }
    });
    out
}

/// The pointers of `NULLIFY(p, q)` when all are the unit's pointers (as written).
fn nullified(s: &Stmt, pointers: &BTreeSet<String>) -> Option<Vec<String>> {
    let StmtKind::Call { name, args } = &s.kind else {
        return None;
    };
    if !name.eq_ignore_ascii_case("nullify") {
        return None;
    }
    args.iter()
        .map(|a| match &a.value.kind {
            ExprKind::Var(n) if a.keyword.is_none() && pointers.contains(&key(n)) => {
                Some(n.clone())
            }
            _ => None,
        })
        .collect()
}

/// Why `s` cannot be written twice in one procedure: a statement label or a construct
/// name inside it would then be defined twice.
fn not_copyable(s: &Stmt) -> Option<&'static str> {
    let mut why = None;
    visit::walk_stmts(std::slice::from_ref(s), &mut |x| {
        let named = match &x.kind {
            StmtKind::If { name, .. }
            | StmtKind::Do { name, .. }
            | StmtKind::DoWhile { name, .. }
            | StmtKind::Select { name, .. }
            | StmtKind::Forall { name, .. } => name.is_some(),
            _ => false,
        };
        if why.is_none() && x.label.is_some() && !std::ptr::eq(x, s) {
            why = Some("a statement label inside it would be defined twice");
        } else if why.is_none() && named {
            why = Some("a construct name inside it would be defined twice");
        }
    });
    why
}
