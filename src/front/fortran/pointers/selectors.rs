//! Pointers whose target depends on the path: buffers exchanged across the iterations
//! of a time loop (`tmp => old; old => new; new => tmp`), or chosen in a branch
//! (MPDATA's `if (modulo(it, 2) == 1) then; wt => w_store1; ... else; wt => w_store2`).
//! No single target replaces such a pointer, so an integer selector takes its place: it
//! holds which of its family's targets it has (0: none), every `=>` sets it, and a
//! statement that uses the pointer where its target is not known is written once per
//! target under `SELECT CASE` of the selector (seeds/000 §7 follows derivative pointers
//! the same way Tapenade does, by the primal's; here each copy is a plain reference to
//! a target, whose derivative is the target's). The differentiated code chooses the
//! copy as the primal did, and the adjoint replays the choices in reverse like any
//! other branch.
//!
//! A family is the pointers associated with one another (`old => new`), and its targets
//! are the whole variables any of them is associated with, in the order they are first
//! written. A pointer of a family that is ever associated with part of a variable (a
//! section, an element) is refused where that association is.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{Diagnostic, Span};
use crate::il::{Attr, DeclKind, Entity, Expr, ExprKind, Stmt, StmtId, StmtKind, Unit, key, visit};
use crate::il::{BaseType, TypeSpec};

/// The selector of one pointer: the integer variable that takes its place, and the
/// targets its values stand for (1, 2, ...: whole variables, as written).
#[derive(Clone, Debug)]
pub struct Selector {
    pub var: String,
    pub candidates: Vec<String>,
    /// The pointer keeps its association between calls (SAVE, or initialized in its
    /// declaration): on entry, its target is the last call's, which no selector knows.
    pub saved: bool,
    /// A module's pointer (`module`): `var` is the module's, and on entry, and after a
    /// call, the pointer may have any of its targets, or none.
    pub global: bool,
    /// The module's pointer (as declared) whose targets these are: itself, or one a
    /// local pointer is associated with. An association with anything else is refused
    /// wherever the module's pointer is used (`module::refusal`).
    pub follows: Option<String>,
}

/// The value of a saved pointer's selector on entry in `reachable`'s states: the target
/// of an earlier call, unknown here.
pub const EARLIER: u8 = u8::MAX;

impl Selector {
    /// `var = value`.
    pub fn assign(&self, value: Expr) -> StmtKind {
        StmtKind::Assign {
            lhs: Expr::var(&self.var),
            rhs: value,
        }
    }

    /// The position of target `name` among the candidates.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.candidates.iter().position(|c| key(c) == key(name))
    }
}

/// What the associations of a unit say of each family of pointers.
pub struct Families {
    /// The family of each pointer (key → the family's first pointer, key).
    family: BTreeMap<String, String>,
    /// By family: its whole targets, as written, in order.
    targets: BTreeMap<String, Vec<String>>,
    /// By family: the first association with part of a variable.
    partial: BTreeMap<String, Span>,
}

impl Families {
    /// The families of the unit's pointers, from its `=>` statements.
    pub fn of(
        unit: &Unit,
        pointers: &BTreeSet<String>,
        is_association: &dyn Fn(&Stmt) -> bool,
    ) -> Families {
        let mut associations = Vec::new();
        visit::walk_stmts(&unit.body, &mut |s| {
            if is_association(s)
                && let StmtKind::Assign { lhs, rhs } = &s.kind
                && let ExprKind::Var(p) = &lhs.kind
            {
                associations.push((key(p), rhs, s.span));
            }
        });
        // Union of the pointers associated with one another.
        let mut family: BTreeMap<String, String> =
            pointers.iter().map(|p| (p.clone(), p.clone())).collect();
        fn root(family: &BTreeMap<String, String>, p: &str) -> String {
            let mut at = p.to_string();
            while let Some(up) = family.get(&at).filter(|up| **up != at) {
                at = up.clone();
            }
            at
        }
        for (p, rhs, _) in &associations {
            if let ExprKind::Var(q) = &rhs.kind
                && pointers.contains(&key(q))
            {
                let (a, b) = (root(&family, p), root(&family, &key(q)));
                if a != b {
                    family.insert(b, a);
                }
            }
        }
        let family: BTreeMap<String, String> = pointers
            .iter()
            .map(|p| (p.clone(), root(&family, p)))
            .collect();
        let mut targets: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut partial = BTreeMap::new();
        for (p, rhs, span) in associations {
            let f = family[&p].clone();
            match &rhs.kind {
                ExprKind::Var(q) if pointers.contains(&key(q)) => {}
                ExprKind::Call(n, args) if n.eq_ignore_ascii_case("null") && args.is_empty() => {}
                ExprKind::Var(t) => {
                    let list = targets.entry(f).or_default();
                    if !list.iter().any(|c| key(c) == key(t)) {
                        list.push(t.clone());
                    }
                }
                _ => {
                    partial.entry(f).or_insert(span);
                }
            }
        }
        Families {
            family,
            targets,
            partial,
        }
    }

    /// The pointers of `p`'s family (keys), `p` among them.
    pub fn members(&self, p: &str) -> Vec<String> {
        let f = &self.family[p];
        self.family
            .iter()
            .filter(|(_, g)| *g == f)
            .map(|(q, _)| q.clone())
            .collect()
    }

    /// Is `p` (key) in a family with other pointers (associated with one, or one with it)?
    pub fn joined(&self, p: &str) -> bool {
        let f = &self.family[p];
        self.family.values().filter(|g| *g == f).count() > 1
    }

    /// The selector for pointer `p` (key), named `var`, or why none can follow it.
    pub fn selector(&self, p: &str, var: String, saved: bool) -> Result<Selector, Diagnostic> {
        let f = &self.family[p];
        if let Some(span) = self.partial.get(f) {
            return Err(Diagnostic::error(
                super::CODE,
                format!("the target of the pointer `{p}` depends on the path, and adgen follows such a pointer only among whole variables, but here it is associated with part of one"),
            )
            .at(*span)
            .with_help("associate the pointers of this family with whole arrays only, or use the target itself"));
        }
        Ok(Selector {
            var,
            candidates: self.targets.get(f).cloned().unwrap_or_default(),
            saved,
            global: false,
            follows: None,
        })
    }
}

/// The name of the selector of pointer `p`: `p_target`, numbered when taken.
pub fn selector_name(p: &str, taken: &mut BTreeSet<String>) -> String {
    numbered(&format!("{p}_target"), taken)
}

/// `base` if free, else `base2`, `base3`, ...; the name is then taken (keys in `taken`).
/// The names every pointer pass writes (selectors, inlined locals, memory variables).
pub fn numbered(base: &str, taken: &mut BTreeSet<String>) -> String {
    let mut name = base.to_string();
    let mut k = 2;
    while taken.contains(&key(&name)) {
        name = format!("{base}{k}");
        k += 1;
    }
    taken.insert(key(&name));
    name
}

/// Every name of `units` (keys): what a selector's name must not be.
pub fn names_of(units: &[Unit]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for u in units {
        out.insert(key(&u.name));
        out.extend(u.args.iter().map(|a| key(a)));
        out.extend(visit::decls_names(&u.decls).iter().map(|n| key(n)));
        out.extend(visit::referenced_names(&u.body).iter().map(|n| key(n)));
    }
    out
}

/// Each selected pointer's declaration becomes its selector's (`integer :: p_target`),
/// in the same place, and the body starts with no target (`p_target = 0`).
pub fn declare(unit: &mut Unit, selected: &BTreeMap<String, Selector>, next_id: &mut u32) {
    let selected: BTreeMap<String, Selector> = selected
        .iter()
        .filter(|(_, s)| !s.global)
        .map(|(p, s)| (p.clone(), s.clone()))
        .collect();
    let names: BTreeSet<String> = selected.keys().cloned().collect();
    super::split_pointer_decls(unit, &names, true, &|_, _, moved| DeclKind::Var {
        spec: TypeSpec::simple(BaseType::Integer),
        attrs: Vec::new(),
        entities: moved
            .iter()
            .map(|e| Entity {
                name: selected[&key(&e.name)].var.clone(),
                dims: None,
                init: None,
                span: e.span,
            })
            .collect(),
    });
    let mut start: Vec<Stmt> = selected
        .values()
        .map(|sel| {
            let mut s = Stmt::generated(sel.assign(Expr::int(0)));
            s.id = StmtId(*next_id);
            *next_id = next_id.saturating_add(1);
            s
        })
        .collect();
    start.append(&mut unit.body);
    unit.body = start;
}

/// The pointers `s` uses (keys), in it and in its blocks: not the pointer an
/// association sets, nor one ASSOCIATED asks of (the selector answers), nor NULLIFY's.
/// With `deep` unset, only in its own expressions (an IF's conditions, a DO's bounds).
pub fn uses(
    s: &Stmt,
    pointers: &BTreeSet<String>,
    is_association: &dyn Fn(&Stmt) -> bool,
    deep: bool,
) -> BTreeSet<String> {
    let mut count: BTreeMap<String, i64> = BTreeMap::new();
    let mut count_in = |x: &Stmt| {
        let exprs: Vec<&Expr> = match &x.kind {
            StmtKind::Assign { rhs, .. } if is_association(x) => vec![rhs],
            // The written variable too (what the rewriter replaces).
            StmtKind::Assign { lhs, rhs } => vec![lhs, rhs],
            StmtKind::Call { name, .. } if name.eq_ignore_ascii_case("nullify") => Vec::new(),
            // DEALLOCATE of a pointer frees its target (`owned`).
            StmtKind::Deallocate(items) => items.iter().collect(),
            _ => visit::stmt_exprs(x),
        };
        for e in exprs {
            visit::walk_expr(e, &mut |y| match &y.kind {
                ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) => {
                    let base = key(n.split('%').next().unwrap_or(n));
                    if pointers.contains(&base) {
                        *count.entry(base).or_default() += 1;
                    }
                    if let ExprKind::Call(f, args) = &y.kind
                        && f.eq_ignore_ascii_case("associated")
                        && let [arg] = args.as_slice()
                        && let ExprKind::Var(p) = &arg.value.kind
                    {
                        *count.entry(key(p)).or_default() -= 1;
                    }
                }
                _ => {}
            });
        }
    };
    if deep {
        visit::walk_stmts(std::slice::from_ref(s), &mut count_in);
    } else {
        count_in(s);
    }
    count
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(p, _)| p)
        .collect()
}

/// Joint values of the selectors of `order` (indices into each one's candidates, 0 for
/// no target).
type States = BTreeSet<Vec<u8>>;

/// The targets the selected pointers can have when each statement of `body` starts
/// (by statement id): every association, in every branch and every iteration, is
/// followed from the start, where none has a target. A loop's head gets the states at
/// the end of its body and at its CYCLEs, and what follows it those of its head and
/// its EXITs, so the sets never miss a combination that happens. A jump (GO TO) would
/// leave this structure: the pointers are refused then (the span of the jump).
pub fn reachable(
    body: &[Stmt],
    order: &[String],
    selected: &BTreeMap<String, Selector>,
    is_association: &dyn Fn(&Stmt) -> bool,
    may_call: &dyn Fn(&Stmt) -> bool,
) -> Result<BTreeMap<StmtId, States>, Span> {
    let mut jump = None;
    visit::walk_stmts(body, &mut |s| {
        if matches!(
            s.kind,
            StmtKind::Goto { .. } | StmtKind::ComputedGoto { .. } | StmtKind::ArithmeticIf { .. }
        ) {
            jump.get_or_insert(s.span);
        }
    });
    if let Some(span) = jump {
        return Err(span);
    }
    let mut flow = Flow {
        order,
        selected,
        is_association,
        may_call,
        at: BTreeMap::new(),
        loops: Vec::new(),
    };
    // A pointer that keeps its association between calls starts with the last call's;
    // a module's, with any target.
    let start: States = [order
        .iter()
        .map(|p| if selected[p].saved { EARLIER } else { 0 })
        .collect()]
    .into_iter()
    .collect();
    let start = flow.widen(start);
    flow.block(body, start);
    Ok(flow.at)
}

/// A loop being followed: its construct name, and the states its CYCLEs and EXITs
/// leave with.
struct Frame {
    name: Option<String>,
    cycles: States,
    exits: States,
}

struct Flow<'a> {
    order: &'a [String],
    selected: &'a BTreeMap<String, Selector>,
    is_association: &'a dyn Fn(&Stmt) -> bool,
    /// A statement that may call a procedure that associates the module pointers.
    may_call: &'a dyn Fn(&Stmt) -> bool,
    at: BTreeMap<StmtId, States>,
    loops: Vec<Frame>,
}

impl Flow<'_> {
    /// The states after `block`, from `states` before it.
    fn block(&mut self, block: &[Stmt], mut states: States) -> States {
        for s in block {
            self.at
                .entry(s.id)
                .or_default()
                .extend(states.iter().cloned());
            states = self.stmt(s, states);
        }
        states
    }

    /// The loop an EXIT or CYCLE named `name` (or none: the innermost) leaves.
    fn frame(&mut self, name: &Option<String>) -> Option<&mut Frame> {
        self.loops.iter_mut().rev().find(|f| match name {
            None => true,
            Some(n) => f.name.as_deref().is_some_and(|m| key(m) == key(n)),
        })
    }

    /// `states` with the module pointers' values any of theirs (after a call).
    fn widen(&self, states: States) -> States {
        let mut out = states;
        for (k, p) in self.order.iter().enumerate() {
            let selector = &self.selected[p];
            if !selector.global {
                continue;
            }
            out = out
                .into_iter()
                .flat_map(|state| {
                    (0..=selector.candidates.len() as u8).map(move |v| {
                        let mut s = state.clone();
                        s[k] = v;
                        s
                    })
                })
                .collect();
        }
        out
    }

    fn stmt(&mut self, s: &Stmt, states: States) -> States {
        if (self.is_association)(s)
            && let StmtKind::Assign { lhs, rhs } = &s.kind
            && let ExprKind::Var(p) = &lhs.kind
        {
            return self.associate(&key(p), rhs, states);
        }
        // A call in the statement's own expressions: before its blocks (an IF's
        // condition) and after it.
        if (self.may_call)(s) {
            let states = if visit::child_blocks(s).is_empty() {
                states
            } else {
                self.widen(states)
            };
            let after = self.follow(s, states);
            return self.widen(after);
        }
        self.follow(s, states)
    }

    fn follow(&mut self, s: &Stmt, states: States) -> States {
        match &s.kind {
            StmtKind::Call { name, args } if name.eq_ignore_ascii_case("nullify") => {
                let null = Expr::new(ExprKind::Call("null".into(), Vec::new()));
                args.iter().fold(states, |st, a| match &a.value.kind {
                    ExprKind::Var(p) => self.associate(&key(p), &null, st),
                    _ => st,
                })
            }
            StmtKind::Exit { name } | StmtKind::Cycle { name } => {
                let exit = matches!(s.kind, StmtKind::Exit { .. });
                match self.frame(name) {
                    Some(f) if exit => f.exits.extend(states),
                    Some(f) => f.cycles.extend(states),
                    // Not in a loop: invalid, and nothing follows.
                    None => {}
                }
                States::new()
            }
            StmtKind::Return => States::new(),
            StmtKind::Do { body, name, .. }
            | StmtKind::DoWhile { body, name, .. }
            | StmtKind::Forall { body, name, .. } => {
                let mut head = states;
                loop {
                    self.loops.push(Frame {
                        name: name.clone(),
                        cycles: States::new(),
                        exits: States::new(),
                    });
                    let end = self.block(body, head.clone());
                    let frame = self.loops.pop().expect("the loop's frame");
                    let before = head.len();
                    head.extend(end);
                    head.extend(frame.cycles);
                    if head.len() == before {
                        head.extend(frame.exits);
                        break head;
                    }
                }
            }
            _ => {
                let blocks = visit::child_blocks(s);
                if blocks.is_empty() {
                    return states;
                }
                // Branches: the states after any one of them, or after none when no
                // branch need run (no ELSE, no CASE DEFAULT).
                let every = match &s.kind {
                    StmtKind::If { else_body, .. } => else_body.is_some(),
                    StmtKind::Select { cases, .. } => cases.iter().any(|c| c.values.is_empty()),
                    _ => false,
                };
                let mut out = if every { States::new() } else { states.clone() };
                for b in blocks {
                    out.extend(self.block(b, states.clone()));
                }
                out
            }
        }
    }

    /// The states after `p => rhs`.
    fn associate(&self, p: &str, rhs: &Expr, states: States) -> States {
        let Some(k) = self.order.iter().position(|q| q == p) else {
            return states;
        };
        let value = |state: &Vec<u8>| -> u8 {
            match &rhs.kind {
                ExprKind::Var(t) => match self.order.iter().position(|q| *q == key(t)) {
                    Some(j) => state[j],
                    None => self.selected[p].index_of(t).map_or(0, |i| i as u8 + 1),
                },
                _ => 0,
            }
        };
        states
            .into_iter()
            .map(|mut state| {
                state[k] = value(&state);
                state
            })
            .collect()
    }
}

/// The local pointers of `unit` (keys) that keep their association between calls: SAVE
/// (as an attribute, in a SAVE statement, or for the whole procedure) or an
/// initialization in the declaration (`=> null()`), which implies it.
pub fn saved_pointers(unit: &Unit, pointers: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for d in &unit.decls {
        match &d.kind {
            DeclKind::Var {
                attrs, entities, ..
            } => {
                let save = attrs.iter().any(|a| matches!(a, Attr::Save));
                out.extend(
                    entities
                        .iter()
                        .filter(|e| save || e.init.is_some())
                        .map(|e| key(&e.name)),
                );
            }
            DeclKind::Save(names) if names.is_empty() => out.extend(pointers.iter().cloned()),
            DeclKind::Save(names) => out.extend(names.iter().map(|n| key(n))),
            _ => {}
        }
    }
    out.retain(|p| pointers.contains(p));
    out
}

/// The first statement (span) whose own expressions use or ask ASSOCIATED of a saved
/// selected pointer (`order`) where it may still have an earlier call's target, and
/// that pointer's name.
pub fn earlier_target_used(
    body: &[Stmt],
    order: &[String],
    states: &BTreeMap<StmtId, States>,
    pointers: &BTreeSet<String>,
    is_association: &dyn Fn(&Stmt) -> bool,
) -> Option<(Span, String)> {
    let mut found = None;
    visit::walk_stmts(body, &mut |s| {
        if found.is_some() {
            return;
        }
        let mut named = uses(s, pointers, is_association, false);
        // ASSOCIATED(p) too.
        for e in visit::stmt_exprs(s) {
            visit::walk_expr(e, &mut |x| {
                if let ExprKind::Call(f, args) = &x.kind
                    && f.eq_ignore_ascii_case("associated")
                    && let Some(ExprKind::Var(p)) = args.first().map(|a| &a.value.kind)
                {
                    named.insert(key(p));
                }
            });
        }
        for (k, p) in order.iter().enumerate() {
            let earlier = states
                .get(&s.id)
                .is_some_and(|set| set.iter().any(|state| state[k] == EARLIER));
            if earlier && named.contains(p) {
                found = Some((s.span, p.clone()));
                return;
            }
        }
    });
    found
}
