//! BLOCK constructs (Fortran 2008): a block's declarations are hoisted into the
//! procedure and its statements put in its place, so that the rest of adgen sees
//! ordinary variables. A name the block declares that the procedure also uses (the
//! usual reason for a BLOCK: a local `z` beside the procedure's own `z`) is renamed
//! `z_1` (the first free number) inside the block. What the block's scope would change
//! is refused (E0401), each where it is: an initialized variable (saved between entries),
//! an ALLOCATABLE one (freed at END BLOCK), and a declaration other than a type
//! declaration. Input/output statements, printed back as the source wrote them, are
//! renamed in their text.

use std::collections::{BTreeMap, BTreeSet};

use super::constructs::push;
use super::{FileParser, Frame, FrameKind};
use crate::diag::Diagnostic;
use crate::front::fortran::lexer::RawStmt;
use crate::front::fortran::pointers::rename_in_text;
use crate::il::{Attr, DeclKind, Expr, ExprKind, StmtKind, Unit, key, visit};

impl FileParser<'_> {
    /// `END BLOCK`: the innermost frame must be a BLOCK.
    pub(super) fn close_block(
        &mut self,
        frames: &mut Vec<Frame>,
        unit: &mut Unit,
        name: Option<String>,
        raw: &RawStmt,
    ) {
        if !matches!(
            frames.last().map(|f| &f.kind),
            Some(FrameKind::Block { .. })
        ) {
            self.diags.push(
                Diagnostic::error("E0206", "END BLOCK without an open BLOCK construct")
                    .at(raw.span),
            );
            return;
        }
        let Some(frame) = frames.pop() else { return };
        if let (Some(n), m) = (&name, &frame.name)
            && m.as_ref().is_none_or(|m| !m.eq_ignore_ascii_case(n))
        {
            self.diags.push(
                Diagnostic::error(
                    "E0206",
                    format!("END BLOCK names `{n}`, which is not this block's name"),
                )
                .at(raw.span),
            );
        }
        let FrameKind::Block { mut decls } = frame.kind else {
            return;
        };
        let mut body = frame.body;
        // What the procedure names outside this block: the block's names that are
        // among them are renamed.
        let mut taken: BTreeSet<String> = visit::decls_names(&unit.decls)
            .iter()
            .map(|n| key(n))
            .collect();
        // (Its declared names too: a variable it uses only after the block.)
        for d in &unit.decls {
            if let DeclKind::Var { entities, .. } | DeclKind::Dimension(entities) = &d.kind {
                taken.extend(entities.iter().map(|e| key(&e.name)));
            }
        }
        taken.extend(unit.args.iter().map(|a| key(a)));
        taken.insert(key(&unit.name));
        taken.extend(visit::referenced_names(&unit.body));
        for f in frames.iter() {
            taken.extend(visit::referenced_names(&f.body));
            if let FrameKind::Block { decls } = &f.kind {
                taken.extend(visit::decls_names(decls).iter().map(|n| key(n)));
                for d in decls {
                    if let DeclKind::Var { entities, .. } = &d.kind {
                        taken.extend(entities.iter().map(|e| key(&e.name)));
                    }
                }
            }
        }
        let own: BTreeSet<String> = visit::decls_names(&decls).iter().map(|n| key(n)).collect();
        let mut renames: BTreeMap<String, String> = BTreeMap::new();
        for d in &decls {
            let refusal = match &d.kind {
                DeclKind::Comment(_) => None,
                DeclKind::Var {
                    attrs, entities, ..
                } => {
                    if entities.iter().any(|e| e.init.is_some())
                        && !attrs.iter().any(|a| matches!(a, Attr::Parameter))
                    {
                        Some(
                            "an initialized variable in a BLOCK is saved between its entries, which adgen does not follow yet",
                        )
                    } else if attrs
                        .iter()
                        .any(|a| matches!(a, Attr::Allocatable | Attr::Pointer | Attr::Save))
                    {
                        Some(
                            "an ALLOCATABLE, POINTER or SAVE variable in a BLOCK is not supported yet",
                        )
                    } else {
                        for e in entities {
                            let k = key(&e.name);
                            if taken.contains(&k) {
                                let fresh = (1..)
                                    .map(|n| format!("{}_{n}", e.name))
                                    .find(|c| !taken.contains(&key(c)) && !own.contains(&key(c)))
                                    .unwrap_or_default();
                                taken.insert(key(&fresh));
                                renames.insert(k, fresh);
                            }
                        }
                        None
                    }
                }
                _ => Some("only type declarations are supported in a BLOCK construct"),
            };
            if let Some(why) = refusal {
                self.diags.push(
                    Diagnostic::error("E0401", why.to_string())
                        .at(d.span)
                        .with_help("declare it in the procedure instead"),
                );
                return;
            }
        }
        if !renames.is_empty() {
            for d in &mut decls {
                if let DeclKind::Var { entities, .. } = &mut d.kind {
                    for e in entities {
                        if let Some(to) = renames.get(&key(&e.name)) {
                            e.name = to.clone();
                        }
                        for dim in e.dims.iter_mut().flatten() {
                            dim.lower.iter_mut().for_each(|x| rename(x, &renames));
                            if let crate::il::Bound::Expr(x) = &mut dim.upper {
                                rename(x, &renames);
                            }
                        }
                    }
                }
            }
            visit::walk_stmts_mut(&mut body, &mut |s| {
                if let StmtKind::Do { var, .. } = &mut s.kind
                    && let Some(to) = renames.get(&key(var))
                {
                    *var = to.clone();
                }
                for e in visit::stmt_exprs_mut(s) {
                    rename(e, &renames);
                }
                if let StmtKind::Allocate(items) | StmtKind::Deallocate(items) = &mut s.kind {
                    items.iter_mut().for_each(|e| rename(e, &renames));
                }
                // An I/O statement is printed back as the source wrote it: renamed there.
                if let StmtKind::Io { text, .. } = &mut s.kind {
                    for (from, to) in &renames {
                        *text = rename_in_text(text, from, to);
                    }
                }
            });
        }
        // A block that EXIT leaves by name runs once as a loop of that name, which the
        // EXIT leaves the same way: `main: do ... exit main ... exit main; end do main`.
        if let Some(block_name) = frame.name.clone().filter(|n| exits(&body, n)) {
            if let Some(span) = unnamed_jump(&body) {
                self.diags.push(
                    Diagnostic::error(
                        "E0401",
                        format!("an EXIT or CYCLE without a name, of a loop around the BLOCK `{block_name}` that is itself left by EXIT, is not supported yet"),
                    )
                    .at(span)
                    .with_help("name the loop and write its name after EXIT or CYCLE"),
                );
                return;
            }
            let mut leave = self.simple(
                StmtKind::Exit {
                    name: Some(block_name.clone()),
                },
                raw.span,
                None,
                None,
            );
            leave.trailing_comment = Some(format!("end block {block_name}").into());
            body.push(leave);
            let mut once = self.simple(
                StmtKind::DoWhile {
                    cond: Expr {
                        kind: ExprKind::Logical(true),
                        span: frame.span,
                    },
                    body,
                    name: Some(block_name.clone()),
                },
                frame.span,
                frame.label.clone(),
                None,
            );
            once.trailing_comment = Some(format!("block {block_name}, run once").into());
            body = vec![once];
        }
        unit.decls.extend(decls);
        // The BLOCK and END BLOCK lines' comments stay where they were.
        if let Some(text) = frame.comment {
            let stmt = self.simple(StmtKind::Comment(text), frame.span, None, None);
            push(frames, &mut unit.body, stmt);
        }
        for s in body {
            push(frames, &mut unit.body, s);
        }
        if let Some(text) = raw.comment.clone() {
            let stmt = self.simple(StmtKind::Comment(text), raw.span, None, None);
            push(frames, &mut unit.body, stmt);
        }
    }
}

/// The name a reference is made through (`z`, `z(i)`, `s%x`), renamed.
fn rename(e: &mut Expr, renames: &BTreeMap<String, String>) {
    visit::walk_expr_mut_post(e, &mut |x| {
        if let ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) = &mut x.kind {
            let (base, rest) = n.split_at(n.find('%').unwrap_or(n.len()));
            if let Some(to) = renames.get(&key(base)) {
                *n = format!("{to}{rest}");
            }
        }
    });
}

/// Does an EXIT in `body` name `block`?
fn exits(body: &[crate::il::Stmt], block: &str) -> bool {
    let mut found = false;
    visit::walk_stmts(body, &mut |s| {
        if let StmtKind::Exit { name: Some(n) } = &s.kind {
            found |= n.eq_ignore_ascii_case(block);
        }
    });
    found
}

/// An EXIT or CYCLE without a name in `body` outside any loop of it (one of a loop
/// around the block): where it is.
fn unnamed_jump(body: &[crate::il::Stmt]) -> Option<crate::diag::Span> {
    for s in body {
        match &s.kind {
            StmtKind::Exit { name: None } | StmtKind::Cycle { name: None } => return Some(s.span),
            StmtKind::Do { .. } | StmtKind::DoWhile { .. } | StmtKind::Forall { .. } => {}
            _ => {
                for b in visit::child_blocks(s) {
                    if let Some(span) = unnamed_jump(b) {
                        return Some(span);
                    }
                }
            }
        }
    }
    None
}
