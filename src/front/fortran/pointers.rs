//! Local POINTER variables used as aliases: each reference to the pointer becomes a
//! reference to its target, and the `p => target` statements and the pointer's
//! declaration go, before semantic analysis. What follows never sees a pointer.
//!
//! This is what scientists mostly write pointers for in numerical code: a short name for
//! a component or a section (`h => state%h`, `col => a(:, j)`), or two buffers exchanged
//! between phases (`tmp => old; old => new; new => tmp`). Tapenade differentiates
//! pointers with derivative pointers that follow the primal ones (seeds/000 §7, dynamic
//! memory, pointers); an alias replaced by its target needs no such machinery, and its
//! derivative is that of the target.
//!
//! The replacement is exact when the target a reference sees is known where it is
//! written, so it is made under these rules (each refusal one E0401, where it is):
//! - an association holds from its statement to the end of its block (and in the
//!   blocks inside it): a column alias made at the top of a loop body (`col => a(:, j)`)
//!   serves that iteration. A pointer associated in a loop body cannot be used in that
//!   body before its association (another iteration's would be in force), nor after the
//!   loop; one associated in a branch cannot be used after the IF (the target would
//!   depend on the path). Buffers swapped across the iterations of a loop are refused;
//! - the target is a variable, an array element, a section with unit stride (`a(2:n)`,
//!   `a(:, j)`), a component (`s%h`), or another pointer (its target at that point);
//! - the variables the target's subscripts read are not changed while it is associated
//!   (the section `a(1:n)` must stay the one first meant when `n` changes);
//! - the pointer is not used before its first association (or after `=> null()`);
//!   ASSOCIATED of it where it is associated is true.
//!
//! A local pointer that only ever gets its memory from ALLOCATE (never `=>`) is an
//! ALLOCATABLE array written the Fortran 90 way: it is declared ALLOCATABLE instead
//! (ASSOCIATED of it becomes ALLOCATED).
//!
//! A pointer to a section has lower bound 1: `p(i)` of `p => a(lo:hi)` is
//! `a(lo + i - 1)`; a pointer to a whole array keeps the array's bounds. POINTER
//! dummies, module variables and components stay refused (E0405, by `sema`).

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{Diagnostic, Span};
use crate::il::{Attr, BinOp, DeclKind, Expr, ExprKind, Stmt, StmtKind, Unit, key, visit};

const CODE: &str = "E0401";

/// The association of one pointer: its target, and the names the target's subscripts
/// read.
#[derive(Clone)]
struct Association {
    target: Expr,
    reads: BTreeSet<String>,
}

/// Replaces the local pointers of every procedure of `units`; `marked` holds the spans
/// of the pointers on the left of `=>` statements (`stmt::StmtParser`).
pub fn replace(units: &mut [Unit], marked: &BTreeSet<Span>, diags: &mut Vec<Diagnostic>) {
    // Most files declare no pointer: nothing to walk then.
    let hosts: BTreeSet<String> = units
        .iter()
        .filter(|u| u.is_procedure() && !local_pointers(u).is_empty())
        .map(|u| key(&u.name))
        .collect();
    if hosts.is_empty() {
        return;
    }
    // What internal procedures refer to, by host: a host's pointer they use by host
    // association cannot be replaced in the host alone.
    let mut by_host: BTreeMap<String, Vec<(BTreeSet<String>, Span)>> = BTreeMap::new();
    for u in units.iter() {
        if let Some(host) = u.internal_of.as_ref().filter(|h| hosts.contains(&key(h))) {
            // Its own names (dummies, locals) hide the host's.
            let mut names = visit::referenced_names(&u.body);
            for a in &u.args {
                names.remove(&key(a));
            }
            for d in &u.decls {
                if let DeclKind::Var { entities, .. } = &d.kind {
                    for e in entities {
                        names.remove(&key(&e.name));
                    }
                }
            }
            by_host.entry(key(host)).or_default().push((names, u.span));
        }
    }
    for unit in units.iter_mut().filter(|u| u.is_procedure()) {
        let mut pointers = local_pointers(unit);
        let shared = by_host.get(&key(&unit.name)).and_then(|internals| {
            internals.iter().find_map(|(names, span)| {
                pointers
                    .iter()
                    .find(|p| names.contains(*p))
                    .map(|p| (p.clone(), *span))
            })
        });
        if let Some((p, span)) = shared {
            diags.push(
                Diagnostic::error(
                    CODE,
                    format!("the host's pointer `{p}` is used in this internal procedure: adgen replaces a pointer by its target only in the procedure that declares it"),
                )
                .at(span)
                .with_help("pass the target to the internal procedure as an argument"),
            );
            keep_declared(unit);
            continue;
        }
        let allocated = allocated_pointers(unit, &pointers, marked);
        if !allocated.is_empty() {
            make_allocatable(unit, &allocated);
            pointers.retain(|p| !allocated.contains(p));
        }
        if pointers.is_empty() {
            continue;
        }
        let is_association = |s: &Stmt| {
            matches!(&s.kind, StmtKind::Assign { lhs, .. }
                if marked.contains(&lhs.span)
                    && matches!(&lhs.kind, ExprKind::Var(n) if pointers.contains(&key(n))))
        };
        let mut rewriter = Rewriter {
            lower_bounds: declared_lower_bounds(unit),
            pointers: &pointers,
            current: BTreeMap::new(),
            unknown: BTreeMap::new(),
            error: None,
        };
        let body = std::mem::take(&mut unit.body);
        unit.body = rewriter.block(body, false, &is_association);
        if let Some(d) = rewriter.error {
            // One refusal.
            diags.push(d);
            keep_declared(unit);
            continue;
        }
        drop_declarations(unit, &pointers);
    }
}

/// The local pointers that get their memory from ALLOCATE and are never associated
/// with `=>` (keys): pointers written where ALLOCATABLE is meant, as Fortran 90 code
/// often does.
fn allocated_pointers(
    unit: &Unit,
    pointers: &BTreeSet<String>,
    marked: &BTreeSet<Span>,
) -> BTreeSet<String> {
    let name_of = |e: &Expr| match &e.kind {
        ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) => Some(key(n)),
        _ => None,
    };
    let mut allocated = BTreeSet::new();
    let mut associated = BTreeSet::new();
    visit::walk_stmts(&unit.body, &mut |s| match &s.kind {
        StmtKind::Allocate(items) => {
            allocated.extend(items.iter().filter_map(name_of));
        }
        StmtKind::Assign { lhs, .. } if marked.contains(&lhs.span) => {
            associated.extend(name_of(lhs));
        }
        _ => {}
    });
    allocated
        .into_iter()
        .filter(|n| pointers.contains(n) && !associated.contains(n))
        .collect()
}

/// Declares `names` ALLOCATABLE instead of POINTER (a declaration that also declares
/// other pointers is split), and asks ALLOCATED where the body asks ASSOCIATED of them.
fn make_allocatable(unit: &mut Unit, names: &BTreeSet<String>) {
    let mut decls = Vec::with_capacity(unit.decls.len());
    for d in std::mem::take(&mut unit.decls) {
        let DeclKind::Var {
            spec,
            attrs,
            entities,
        } = &d.kind
        else {
            decls.push(d);
            continue;
        };
        if !attrs.iter().any(|a| matches!(a, Attr::Pointer)) {
            decls.push(d);
            continue;
        }
        let (moved, kept): (Vec<_>, Vec<_>) = entities
            .iter()
            .cloned()
            .partition(|e| names.contains(&key(&e.name)));
        if !kept.is_empty() {
            decls.push(crate::il::Decl {
                kind: DeclKind::Var {
                    spec: spec.clone(),
                    attrs: attrs.clone(),
                    entities: kept,
                },
                span: d.span,
            });
        }
        if !moved.is_empty() {
            let attrs = attrs
                .iter()
                .map(|a| match a {
                    Attr::Pointer => Attr::Allocatable,
                    other => other.clone(),
                })
                .collect();
            decls.push(crate::il::Decl {
                kind: DeclKind::Var {
                    spec: spec.clone(),
                    attrs,
                    entities: moved,
                },
                span: d.span,
            });
        }
    }
    unit.decls = decls;
    visit::walk_stmts_mut(&mut unit.body, &mut |s| {
        for e in visit::stmt_exprs_mut(s) {
            visit::walk_expr_mut_post(e, &mut |x| {
                if let ExprKind::Call(f, args) = &mut x.kind
                    && f.eq_ignore_ascii_case("associated")
                    && args.len() == 1
                    && matches!(&args[0].value.kind, ExprKind::Var(n) if names.contains(&key(n)))
                {
                    *f = "allocated".to_string();
                }
            });
        }
    });
}

/// The pointers a procedure declares as its own variables (keys).
fn local_pointers(unit: &Unit) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for d in &unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
            && attrs.iter().any(|a| matches!(a, Attr::Pointer))
        {
            for e in entities {
                let dummy = unit.args.iter().any(|a| key(a) == key(&e.name));
                let result = unit.result.as_ref().is_some_and(|r| key(r) == key(&e.name))
                    || (unit.result.is_none()
                        && unit.is_function()
                        && key(&unit.name) == key(&e.name));
                if !dummy && !result {
                    out.insert(key(&e.name));
                }
            }
        }
    }
    out
}

/// The lower bound of each dimension of the arrays the unit declares with their shape
/// (explicit or assumed: 1 unless written), not ALLOCATABLE or POINTER, when every one
/// is a literal.
fn declared_lower_bounds(unit: &Unit) -> BTreeMap<String, Vec<Expr>> {
    let mut out = BTreeMap::new();
    for d in &unit.decls {
        let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
        else {
            continue;
        };
        if attrs
            .iter()
            .any(|a| matches!(a, Attr::Allocatable | Attr::Pointer))
        {
            continue;
        }
        let attr_dims = attrs.iter().find_map(|a| match a {
            Attr::Dimension(d) => Some(d),
            _ => None,
        });
        for e in entities {
            if let Some(dims) = e.dims.as_ref().or(attr_dims) {
                // A bound that reads variables may not hold any longer: LBOUND then.
                let lows: Option<Vec<Expr>> = dims
                    .iter()
                    .map(|d| match &d.lower {
                        None => Some(Expr::int(1)),
                        Some(l) if matches!(l.kind, ExprKind::Int(_)) => Some(l.clone()),
                        Some(_) => None,
                    })
                    .collect();
                if let Some(lows) = lows {
                    out.insert(key(&e.name), lows);
                }
            }
        }
    }
    out
}

/// After a refusal: the pointers stay declared, as plain variables (their uses raise
/// no false "not declared"), without the POINTER attribute (not refused again).
fn keep_declared(unit: &mut Unit) {
    for d in &mut unit.decls {
        if let DeclKind::Var { attrs, .. } = &mut d.kind {
            attrs.retain(|a| !matches!(a, Attr::Pointer));
        }
    }
}

/// The pointers' declarations go (a declaration left empty goes too).
fn drop_declarations(unit: &mut Unit, pointers: &BTreeSet<String>) {
    unit.decls.retain_mut(|d| match &mut d.kind {
        DeclKind::Var { entities, .. } => {
            entities.retain(|e| !pointers.contains(&key(&e.name)));
            !entities.is_empty()
        }
        _ => true,
    });
}

struct Rewriter<'p> {
    /// The declared lower bounds of the unit's arrays that are not ALLOCATABLE (keys).
    lower_bounds: BTreeMap<String, Vec<Expr>>,
    pointers: &'p BTreeSet<String>,
    current: BTreeMap<String, Association>,
    /// Why a pointer has no association known here, when it had one (keys).
    unknown: BTreeMap<String, &'static str>,
    /// The first refusal: the rest of the procedure is left as it is.
    error: Option<Diagnostic>,
}

impl Rewriter<'_> {
    fn fail(&mut self, span: Span, message: String, help: &str) {
        self.error
            .get_or_insert_with(|| Diagnostic::error(CODE, message).at(span).with_help(help));
    }

    /// `name => target`: the target resolved through the pointers it names.
    fn associate(&mut self, name: &str, mut target: Expr, span: Span) {
        // `p => null()`: disassociated, as before its first association.
        if let ExprKind::Call(f, args) = &target.kind
            && f.eq_ignore_ascii_case("null")
            && args.is_empty()
        {
            self.current.remove(&key(name));
            self.unknown.remove(&key(name));
            return;
        }
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
            self.fail(
                span,
                format!("the pointer `{name}` is associated with something adgen cannot replace it by"),
                "associate it with a variable, an element, a component or a section with stride 1 (`a(lo:hi)`, `a(:, j)`)",
            );
            return;
        }
        let mut reads = BTreeSet::new();
        if let ExprKind::Index(_, subs) = &target.kind {
            for s in subs {
                reads.extend(visit::names_read(s).iter().map(|n| key(n)));
            }
        }
        self.unknown.remove(&key(name));
        self.current
            .insert(key(name), Association { target, reads });
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
    fn block(
        &mut self,
        stmts: Vec<Stmt>,
        loop_body: bool,
        is_association: &dyn Fn(&Stmt) -> bool,
    ) -> Vec<Stmt> {
        if loop_body {
            for p in associated_in(&stmts, is_association) {
                self.current.remove(&p);
                self.unknown.insert(
                    p,
                    "it is associated again later in this loop, so its target here depends on the iteration",
                );
            }
        }
        let mut out = Vec::with_capacity(stmts.len());
        for mut s in stmts {
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
                {
                    self.associate(&name, rhs, s.span);
                }
                continue;
            }
            // A DO WHILE condition is evaluated again after each pass of the body: the
            // pointers its body associates are unknown there too.
            let (saved, saved_unknown) = (self.current.clone(), self.unknown.clone());
            if let StmtKind::DoWhile { body, .. } = &s.kind {
                for p in associated_in(body, is_association) {
                    self.current.remove(&p);
                    self.unknown.insert(
                        p,
                        "it is associated again later in this loop, so its target here depends on the iteration",
                    );
                }
            }
            for e in visit::stmt_exprs_mut(&mut s) {
                self.expr(e);
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
                    self.unknown.insert(
                        p,
                        "it is associated inside a loop or a branch above, so its target here depends on the path",
                    );
                }
            }
            out.push(s);
        }
        out
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
                && self.current.contains_key(&key(p))
            {
                x.kind = ExprKind::Logical(true);
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

/// The pointers (keys) associated by the statements of `stmts`, at any depth.
fn associated_in(stmts: &[Stmt], is_association: &dyn Fn(&Stmt) -> bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    visit::walk_stmts(stmts, &mut |x| {
        if is_association(x)
            && let StmtKind::Assign { lhs, .. } = &x.kind
            && let ExprKind::Var(n) = &lhs.kind
        {
            out.insert(key(n));
        }
    });
    out
}

fn pointer_base(pointers: &BTreeSet<String>, name: &str) -> bool {
    pointers.contains(&key(name.split('%').next().unwrap_or(name)))
}

/// `lo + i - 1`: the element of a section starting at `lo` at the pointer's index `i`.
fn shifted(lo: &Expr, i: Expr) -> Expr {
    match &lo.kind {
        ExprKind::Int(t) if t.parse::<i64>() == Ok(1) => i,
        ExprKind::Int(t) => match t.parse::<i64>() {
            Ok(v) if v > 1 => Expr::binary(BinOp::Add, i, Expr::int(v - 1)),
            Ok(v) => Expr::binary(BinOp::Sub, i, Expr::int(1 - v)),
            Err(_) => Expr::binary(
                BinOp::Sub,
                Expr::binary(BinOp::Add, lo.clone(), i),
                Expr::int(1),
            ),
        },
        _ => Expr::binary(
            BinOp::Sub,
            Expr::binary(BinOp::Add, lo.clone(), i),
            Expr::int(1),
        ),
    }
}
