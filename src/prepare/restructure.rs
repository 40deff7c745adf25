//! Restructuring before differentiation: the adjoint reverses structured code (IF, DO,
//! DO WHILE, EXIT, CYCLE, RETURN), not arbitrary jumps. This pass rewrites, per unit:
//!
//! - SELECT CASE into an IF / ELSE IF chain on the selector;
//! - an arithmetic IF and a computed GO TO into an IF chain of plain GO TOs;
//! - a GO TO to the end of the procedure (`GO TO 99` with `99 CONTINUE` / `RETURN`
//!   before END) into RETURN;
//! - a forward GO TO into an IF block: the statements it skips move into the arms of
//!   its IF that fall through (`IF (c) GO TO 10; A; 10 ...` → `IF (.NOT. c) A`);
//! - a GO TO leaving a DO loop into EXIT (with a logical flag and a GO TO after the loop
//!   when the target is not the statement right after the loop);
//! - a backward GO TO into an endless DO WHILE whose body starts at the target: the
//!   jumps back become CYCLE, falling off the end becomes EXIT.
//!
//! Statement functions are inlined first (their references become the formula with
//! the actual arguments in place of the dummies).
//!
//! Each rewrite keeps the meaning. The labels whose jumps none of them removes (a loop
//! entered in its middle, jumps crossing each other's targets) get a dispatcher
//! (`dispatch`), and the rewrites run again on the rest; only a jump into a block,
//! which Fortran forbids, is refused (E0410 at the jump). The source's own form stays in
//! the program the round trip prints; this pass works on a copy.

mod copies;
mod dispatch;
mod loops;
mod stmt_functions;
use stmt_functions::inline_statement_functions;

use crate::diag::{Diagnostic, Span};
use crate::il::{
    BinOp, Decl, DeclKind, Entity, Expr, ExprKind, Program, ScalarType, Stmt, StmtId, StmtKind,
    Symbol, SymbolKind, TypeSpec, UnOp, Unit,
};

use crate::il::names::Namer;

/// Upper bound on the rewrites of one unit (each removes or moves one jump).
const MAX_REWRITES: usize = 10_000;

/// Returns the program with every unit restructured, or the jumps that could not be.
pub fn restructure(program: Program) -> Result<Program, Vec<Diagnostic>> {
    let mut next_id = 0u32;
    for unit in program.units() {
        crate::il::visit::walk_stmts(&unit.body, &mut |s| {
            if s.id != StmtId::GENERATED {
                next_id = next_id.max(s.id.0.saturating_add(1));
            }
        });
    }
    let mut out = program;
    let mut errors = Vec::new();
    for file in &mut out.files {
        for unit in &mut file.units {
            inline_statement_functions(unit, &mut errors);
            if needs_restructuring(&unit.body) {
                restructure_unit(unit, &mut next_id, &mut errors);
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn needs_restructuring(body: &[Stmt]) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(body, &mut |s| {
        found |= matches!(
            s.kind,
            StmtKind::Goto { .. }
                | StmtKind::ComputedGoto { .. }
                | StmtKind::ArithmeticIf { .. }
                | StmtKind::Select { .. }
        );
    });
    found
}

/// Labels compare as numbers: `010` is label 10.
fn same_label(a: &str, b: &str) -> bool {
    a.trim_start_matches('0') == b.trim_start_matches('0')
}

fn label_of(s: &Stmt) -> Option<&str> {
    s.label.as_deref()
}

struct Restructurer<'a> {
    next_id: &'a mut u32,
    namer: Namer,
    /// Logical flags created for jumps out of loops.
    flags: Vec<String>,
    /// Integer states of dispatchers (`dispatch`).
    states: Vec<String>,
}

impl Restructurer<'_> {
    fn fresh_id(&mut self) -> StmtId {
        let id = StmtId(*self.next_id);
        *self.next_id = self.next_id.saturating_add(1);
        id
    }

    fn new_stmt(&mut self, kind: StmtKind, span: Span) -> Stmt {
        Stmt {
            id: self.fresh_id(),
            kind,
            span,
            label: None,
            trailing_comment: None,
        }
    }
}

fn walk_mut(block: &mut [Stmt], f: &mut dyn FnMut(&mut Stmt)) {
    for s in block {
        f(s);
        for child in crate::il::visit::child_blocks_mut(s) {
            walk_mut(child, f);
        }
    }
}

/// Number of GO TOs to `label` in `block`, at any depth.
fn refs_to(block: &[Stmt], label: &str) -> usize {
    let mut n = 0;
    crate::il::visit::walk_stmts(block, &mut |s| {
        if let StmtKind::Goto { label: l } = &s.kind
            && same_label(l, label)
        {
            n += 1;
        }
    });
    n
}

/// The number of GO TOs to each label of a body, at any depth, counted in one walk (a
/// rewrite asks for many labels; walking the body for each was quadratic in long
/// GO TO-heavy routines, ODEPACK's).
struct Refs(std::collections::BTreeMap<String, usize>);

impl Refs {
    fn of(block: &[Stmt]) -> Refs {
        let mut counts = std::collections::BTreeMap::new();
        crate::il::visit::walk_stmts(block, &mut |s| {
            if let StmtKind::Goto { label } = &s.kind {
                *counts
                    .entry(label.trim_start_matches('0').to_string())
                    .or_insert(0) += 1;
            }
        });
        Refs(counts)
    }

    /// The GO TOs to `label`.
    fn to(&self, label: &str) -> usize {
        self.0
            .get(label.trim_start_matches('0'))
            .copied()
            .unwrap_or(0)
    }
}

/// Labels carried by statements of `block`, at any depth.
fn labels_in(block: &[Stmt]) -> Vec<String> {
    let mut out = Vec::new();
    crate::il::visit::walk_stmts(block, &mut |s| {
        if let Some(l) = &s.label {
            out.push(l.to_string());
        }
    });
    out
}

/// Whether moving or copying `part` out of `whole` keeps every jump into `part` inside
/// `part` (no label of `part` is the target of a jump from elsewhere).
fn self_contained(part: &[Stmt], whole: &Refs) -> bool {
    let labels = labels_in(part);
    if labels.is_empty() {
        return true;
    }
    let inside = Refs::of(part);
    labels.iter().all(|l| inside.to(l) == whole.to(l))
}

/// The labels a statement jumps to on its way out through the tails of IF arms.
fn tail_gotos(s: &Stmt) -> Vec<String> {
    match &s.kind {
        StmtKind::Goto { label } => vec![label.clone()],
        StmtKind::If {
            arms, else_body, ..
        } => {
            let mut out = Vec::new();
            for body in arms.iter().map(|(_, b)| b).chain(else_body.iter()) {
                if let Some(last) = body.last() {
                    for l in tail_gotos(last) {
                        if !out.iter().any(|o: &String| same_label(o, &l)) {
                            out.push(l);
                        }
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Control never falls through `s` to the next statement.
fn is_jump(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::Goto { .. } | StmtKind::Return | StmtKind::Exit { .. } | StmtKind::Cycle { .. }
    )
}

/// How many arms of IF `s` fall through without jumping to `label` (the copies of the
/// skipped statements `distribute` would make).
fn fallthrough_arms(s: &Stmt, label: &str) -> usize {
    match &s.kind {
        StmtKind::Goto { label: l } if same_label(l, label) => 0,
        StmtKind::If {
            arms, else_body, ..
        } => {
            let mut n = 0;
            for body in arms.iter().map(|(_, b)| b).chain(else_body.iter()) {
                n += match body.last() {
                    Some(last) if tail_gotos(last).iter().any(|l| same_label(l, label)) => {
                        fallthrough_arms(last, label)
                    }
                    Some(last) if is_jump(last) => 0,
                    _ => 1,
                };
            }
            if else_body.is_none() {
                n += 1;
            }
            n
        }
        _ => 1,
    }
}

impl Restructurer<'_> {
    /// In IF `s`, appends `skipped` to the arms that fall through; `land` when the
    /// target follows `s` (after `skipped`), so the tail GO TOs to `label` go too.
    fn distribute(&mut self, s: &mut Stmt, label: &str, skipped: &[Stmt], land: bool) {
        let mut copies_made = 0;
        self.distribute_into(s, label, skipped, land, &mut copies_made);
    }

    /// [`Self::distribute`], counting the copies made in `s` and the IFs nested in its
    /// arms: the first keeps the statements' ids, every other gets fresh ones (two
    /// statements of one id would be one to the analyses and the adjoint's jump codes).
    fn distribute_into(
        &mut self,
        s: &mut Stmt,
        label: &str,
        skipped: &[Stmt],
        land: bool,
        copies_made: &mut usize,
    ) {
        let StmtKind::If {
            arms,
            else_body,
            logical_if,
            ..
        } = &mut s.kind
        else {
            return;
        };
        *logical_if = false;
        if else_body.is_none() && !skipped.is_empty() {
            *else_body = Some(Vec::new());
        }
        let bodies: Vec<&mut Vec<Stmt>> = arms
            .iter_mut()
            .map(|(_, b)| b)
            .chain(else_body.iter_mut())
            .collect();
        for body in bodies {
            let to_label = body
                .last()
                .is_some_and(|last| tail_gotos(last).iter().any(|l| same_label(l, label)));
            if to_label {
                let last = body.len() - 1;
                if matches!(&body[last].kind, StmtKind::Goto { .. }) {
                    if land {
                        body.pop();
                    }
                } else {
                    self.distribute_into(&mut body[last], label, skipped, land, copies_made);
                }
            } else if body.last().is_some_and(is_jump) {
            } else {
                let copy = if *copies_made == 0 {
                    skipped.to_vec()
                } else {
                    self.copy(skipped)
                };
                *copies_made += 1;
                body.extend(copy);
            }
        }
    }

    /// One rewrite somewhere in `block` (`unit` is the whole body, for counting
    /// references). True when something changed.
    fn pass(&mut self, block: &mut Vec<Stmt>, whole: &Refs) -> bool {
        if self.loop_exit(block, whole) {
            return true;
        }
        for stmt in block.iter_mut() {
            for child in crate::il::visit::child_blocks_mut(stmt) {
                if self.pass(child, whole) {
                    return true;
                }
            }
        }
        self.forward(block, whole) || self.backward(block, whole)
    }

    /// Forward GO TO (or a tail GO TO with statements after it, the target outside the
    /// block): the statements between move into the arms that fall through.
    fn forward(&mut self, block: &mut Vec<Stmt>, whole: &Refs) -> bool {
        let position = |label: &str| {
            block
                .iter()
                .position(|s| label_of(s).is_some_and(|l| same_label(l, label)))
        };
        // The labels at any depth of the block, gathered once (when first asked).
        let nested: std::cell::OnceCell<std::collections::BTreeSet<String>> = Default::default();
        let inside = |label: &str| {
            nested
                .get_or_init(|| {
                    labels_in(block)
                        .iter()
                        .map(|l| l.trim_start_matches('0').to_string())
                        .collect()
                })
                .contains(label.trim_start_matches('0'))
        };
        // (target index, goto index, label)
        let mut candidates = Vec::new();
        for (i, s) in block.iter().enumerate() {
            for label in tail_gotos(s) {
                match position(&label) {
                    Some(j) if j > i => candidates.push((j, i, label)),
                    Some(_) => {}
                    None if inside(&label) => {}
                    None if i + 1 < block.len() => candidates.push((block.len(), i, label)),
                    None => {}
                }
            }
        }
        candidates.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        for (j, i, label) in candidates {
            let skipped: Vec<Stmt> = block[i + 1..j].to_vec();
            if !self_contained(&skipped, whole) {
                continue;
            }
            let plain = matches!(block[i].kind, StmtKind::Goto { .. });
            if plain {
                // The skipped statements are dead; a jump to the next statement goes.
                let target_here = j < block.len();
                block.drain(i + 1..j);
                if target_here {
                    block.remove(i);
                }
                return true;
            }
            let jumped_into = labels_in(&skipped).iter().any(|l| whole.to(l) > 0);
            if fallthrough_arms(&block[i], &label) > 1 && jumped_into {
                continue;
            }
            let land = j < block.len();
            block.drain(i + 1..j);
            self.distribute(&mut block[i], &label, &skipped, land);
            return true;
        }
        false
    }
}

fn loop_name_of(s: &Stmt) -> Option<String> {
    match &s.kind {
        StmtKind::Do { name, .. } | StmtKind::DoWhile { name, .. } => name.clone(),
        _ => None,
    }
}

/// Some GO TO `label` inside `s` sits in a loop nested in `s`.
fn goto_in_nested_loop(s: &Stmt, label: &str) -> bool {
    fn go(block: &[Stmt], label: &str, in_loop: bool) -> bool {
        block.iter().any(|s| {
            if let StmtKind::Goto { label: l } = &s.kind
                && same_label(l, label)
                && in_loop
            {
                return true;
            }
            let nested =
                in_loop || matches!(s.kind, StmtKind::Do { .. } | StmtKind::DoWhile { .. });
            crate::il::visit::child_blocks(s)
                .iter()
                .any(|b| go(b, label, nested))
        })
    }
    crate::il::visit::child_blocks(s)
        .iter()
        .any(|b| go(b, label, false))
}

/// An unnamed EXIT or CYCLE of `block` outside any loop of `block`.
fn has_loose_loop_jump(block: &[Stmt]) -> bool {
    block.iter().any(|s| match &s.kind {
        StmtKind::Exit { name: None } | StmtKind::Cycle { name: None } => true,
        StmtKind::Do { .. } | StmtKind::DoWhile { .. } => false,
        _ => crate::il::visit::child_blocks(s)
            .iter()
            .any(|b| has_loose_loop_jump(b)),
    })
}

/// `.NOT. c`, written as the opposite comparison when `c` is one.
pub fn negate(c: Expr) -> Expr {
    let span = c.span;
    match c.kind {
        ExprKind::Binary(op, a, b)
            if matches!(
                op,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
            ) =>
        {
            let op = match op {
                BinOp::Lt => BinOp::Ge,
                BinOp::Le => BinOp::Gt,
                BinOp::Gt => BinOp::Le,
                BinOp::Ge => BinOp::Lt,
                BinOp::Eq => BinOp::Ne,
                _ => BinOp::Eq,
            };
            Expr {
                kind: ExprKind::Binary(op, a, b),
                span,
            }
        }
        ExprKind::Unary(UnOp::Not, inner) => match inner.kind {
            ExprKind::Paren(x) => *x,
            _ => *inner,
        },
        ExprKind::Paren(_) | ExprKind::Var(_) | ExprKind::Logical(_) => Expr {
            kind: ExprKind::Unary(UnOp::Not, Box::new(c)),
            span,
        },
        kind => Expr {
            kind: ExprKind::Unary(
                UnOp::Not,
                Box::new(Expr::new(ExprKind::Paren(Box::new(Expr { kind, span })))),
            ),
            span,
        },
    }
}

fn restructure_unit(unit: &mut Unit, next_id: &mut u32, errors: &mut Vec<Diagnostic>) {
    let mut namer = Namer::new(unit.symbols.iter().map(|s| s.name.as_str()));
    // The source's construct names, which fresh ones must not take.
    walk_mut(&mut unit.body, &mut |s| {
        if let Some(Some(n)) = copies::construct_name_mut(s) {
            namer.reserve(n);
        }
    });
    let mut r = Restructurer {
        next_id,
        namer,
        flags: Vec::new(),
        states: Vec::new(),
    };
    let mut original = std::mem::take(&mut unit.body);
    lower_select_and_jumps(&mut original, &mut r);
    gotos_to_end_become_returns(&mut original);
    let names = r.namer.clone();
    let mut body = original.clone();
    let mut left = r.structure(&mut body);
    // Labels whose jumps the rewrites leave get a dispatcher, and the rewrites run again
    // on the rest, until no jump is left or no new label comes.
    let mut dispatched: Vec<String> = Vec::new();
    while !left.is_empty() {
        let before = dispatched.len();
        for (_, label) in &left {
            if !dispatched.iter().any(|d| same_label(d, label)) {
                dispatched.push(label.clone());
            }
        }
        if dispatched.len() == before {
            break;
        }
        r.flags.clear();
        r.states.clear();
        r.namer = names.clone();
        body = original.clone();
        r.dispatch(&mut body, &dispatched);
        left = r.structure(&mut body);
    }
    if let Some((span, label)) = left.first() {
        errors.push(
            Diagnostic::error(
                "E0410",
                format!(
                    "this GO TO {label} in `{}` cannot be turned into IF, DO WHILE, EXIT or CYCLE, which differentiation needs",
                    unit.name
                ),
            )
            .at(*span)
            .with_help(
                "a GO TO may only go to a statement of its own block or of a block around it: rewrite this jump",
            ),
        );
    }
    tidy(&mut body);
    unit.body = body;
    let flags = std::mem::take(&mut r.flags).into_iter();
    let flags = flags.map(|f| (f, ScalarType::Logical));
    let states = std::mem::take(&mut r.states).into_iter();
    for (flag, ty) in flags.chain(states.map(|s| (s, ScalarType::Integer(4)))) {
        let spec = TypeSpec::of(ty);
        unit.decls.push(Decl {
            kind: DeclKind::Var {
                spec: spec.clone(),
                attrs: Vec::new(),
                entities: vec![Entity {
                    name: flag.clone(),
                    dims: None,
                    init: None,
                    span: Span::default(),
                }],
            },
            span: Span::default(),
        });
        unit.symbols.insert(Symbol {
            name: flag,
            kind: SymbolKind::Variable,
            ty,
            type_spec: spec,
            dims: Vec::new(),
            intent: None,
            arg_index: None,
            is_result: false,
            implicit: false,
            span: Span::default(),
            global: None,
            pointer: false,
        });
    }
}

impl Restructurer<'_> {
    /// Rewrites the jumps of `body` until none of the rewrites applies; returns the
    /// GO TOs left.
    fn structure(&mut self, body: &mut Vec<Stmt>) -> Vec<(Span, String)> {
        let mut rewrites = 0;
        loop {
            let whole = Refs::of(body);
            if rewrites >= MAX_REWRITES || !self.pass(body, &whole) {
                break;
            }
            rewrites += 1;
        }
        let mut left = Vec::new();
        crate::il::visit::walk_stmts(body, &mut |s| {
            if let StmtKind::Goto { label } = &s.kind {
                left.push((s.span, label.clone()));
            }
        });
        left
    }
}

/// SELECT CASE, arithmetic IF, computed GO TO → IF chains; the statements made get
/// fresh ids, the case bodies keep theirs.
fn lower_select_and_jumps(block: &mut [Stmt], r: &mut Restructurer) {
    for s in block.iter_mut() {
        if let Some(kind) = crate::il::structured::lowered(&s.kind) {
            s.kind = kind;
            let span = s.span;
            for b in crate::il::visit::child_blocks_mut(s) {
                for x in b.iter_mut() {
                    if x.id == StmtId::GENERATED {
                        x.id = r.fresh_id();
                        x.span = span;
                    }
                }
            }
        }
        for b in crate::il::visit::child_blocks_mut(s) {
            lower_select_and_jumps(b, r);
        }
    }
}

/// `GO TO 99` where only CONTINUE, RETURN and comments follow label 99 to the END.
fn gotos_to_end_become_returns(body: &mut [Stmt]) {
    let mut end_labels = Vec::new();
    for s in body.iter().rev() {
        match s.kind {
            StmtKind::Continue | StmtKind::Return | StmtKind::Comment(_) => {
                if let Some(l) = &s.label {
                    end_labels.push(l.clone());
                }
            }
            _ => break,
        }
    }
    if end_labels.is_empty() {
        return;
    }
    walk_mut(body, &mut |s| {
        if let StmtKind::Goto { label } = &s.kind
            && end_labels.iter().any(|l| same_label(l, label))
        {
            s.kind = StmtKind::Return;
        }
    });
}

/// After restructuring: labels nothing jumps to go, CONTINUEs that only carried them
/// too, and IFs whose first arm became empty are turned around.
fn tidy(block: &mut Vec<Stmt>) {
    let whole = Refs::of(block);
    tidy_block(block, &whole);
}

fn tidy_block(block: &mut Vec<Stmt>, whole: &Refs) {
    for s in block.iter_mut() {
        if let Some(l) = &s.label
            && whole.to(l) == 0
        {
            s.label = None;
        }
        for b in crate::il::visit::child_blocks_mut(s) {
            tidy_block(b, whole);
        }
        if let StmtKind::If {
            arms,
            else_body,
            logical_if,
            ..
        } = &mut s.kind
        {
            if arms.len() == 1 && arms[0].1.is_empty() {
                if let Some(e) = else_body.take() {
                    arms[0].0 = negate(arms[0].0.clone());
                    arms[0].1 = e;
                }
            }
            if else_body.as_ref().is_some_and(|e| e.is_empty()) {
                *else_body = None;
            }
            let one_simple = arms.len() == 1
                && else_body.is_none()
                && arms[0].1.len() == 1
                && !matches!(
                    arms[0].1[0].kind,
                    StmtKind::If { .. }
                        | StmtKind::Do { .. }
                        | StmtKind::DoWhile { .. }
                        | StmtKind::Comment(_)
                );
            if !one_simple {
                *logical_if = false;
            }
        }
    }
    block.retain(|s| {
        let bare_continue = matches!(s.kind, StmtKind::Continue)
            && s.label.is_none()
            && s.trailing_comment.is_none();
        !bare_continue && !is_empty_if(s)
    });
}

/// An IF with nothing in any arm and conditions without calls.
fn is_empty_if(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::If {
            arms, else_body, ..
        } => {
            s.label.is_none()
                && arms.iter().all(|(c, b)| b.is_empty() && !has_call(c))
                && else_body.as_ref().is_none_or(|e| e.is_empty())
        }
        _ => false,
    }
}

fn has_call(e: &Expr) -> bool {
    let mut found = false;
    crate::il::visit::walk_expr(e, &mut |x| {
        found |= matches!(x.kind, ExprKind::Call(..));
    });
    found
}

/// A statement function's definition: name, dummies, value (already inlined).
type StmtFunction = (String, Vec<String>, Expr);

#[cfg(test)]
mod tests;
