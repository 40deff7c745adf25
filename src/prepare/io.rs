//! Input/output statements before differentiation.
//!
//! The parsed program keeps every I/O statement ([`StmtKind::Io`]) so the round trip
//! prints it back. Derivative code drops them: output (PRINT, WRITE, OPEN, CLOSE, REWIND,
//! FORMAT, ...) changes no value the derivatives depend on, and repeating it would be
//! wrong in the adjoint, whose forward sweep runs the primal a second time (joint mode
//! re-runs each callee). For the same reason input cannot be replayed: a READ (or any
//! statement that sets a variable, such as `IOSTAT=`) in a procedure a root calls is
//! refused (E0513) — the derivative would read different data. STOP and ERROR STOP are
//! kept, with the output of the block that ends in them (an error path: it runs once,
//! and its message says why the run stopped); a re-run follows the forward run's path,
//! so it stops only where the primal did. Procedures no root reaches keep their I/O
//! untouched, and so does a root that no procedure a root reaches calls (its derivative
//! code runs it once, never again: the adjoint's forward sweep once, its backward sweep
//! not at all). Its input, such as coefficients read from a file, is read once, as in
//! the primal; the values read are inputs of the derivative code (their derivatives are
//! zero after the READ; their adjoints are zeroed where the backward sweep passes it,
//! after the values it overwrote were restored).
//! A dropped statement with a label becomes a labelled CONTINUE, so jumps still land.
//! The index of an implied DO in a dropped output list (`WRITE (*,*) (A(J), J = 1, N)`)
//! is not set by the derivative code: a program reading `J` after such a statement
//! before setting it again would see another value (no library we know does).

use std::collections::BTreeSet;

use crate::diag::Diagnostic;
use crate::il::{Program, Stmt, StmtKind, key};
use crate::request::Request;

pub fn strip(program: Program, request: &Request) -> Result<Program, Vec<Diagnostic>> {
    let reachable = reachable(&program, request);
    // What a reached procedure calls may be re-run by the adjoint.
    let called: BTreeSet<String> = program
        .units()
        .filter(|u| reachable.contains(crate::il::key_ref(&u.name).as_ref()))
        .flat_map(crate::il::visit::called_names)
        .map(|n| key(&n))
        .collect();
    let mut out = program;
    let mut errors = Vec::new();
    for file in &mut out.files {
        for unit in &mut file.units {
            let runs_once = !called.contains(crate::il::key_ref(&unit.name).as_ref())
                && request
                    .roots
                    .iter()
                    .any(|r| key(&r.name) == key(&unit.name))
                && has_input(&unit.body);
            if runs_once {
                continue;
            }
            let reached = reachable.contains(crate::il::key_ref(&unit.name).as_ref());
            strip_block(&mut unit.body, reached, &unit.name, &mut errors);
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The procedures the roots call, directly or not (roots included), by key.
fn reachable(program: &Program, request: &Request) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = request.roots.iter().map(|r| key(&r.name)).collect();
    let index = program.index();
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(unit) = index.unit(&name) {
            stack.extend(crate::il::visit::called_names(unit).iter().map(|n| key(n)));
        }
    }
    seen
}

fn strip_block(block: &mut Vec<Stmt>, reached: bool, unit: &str, errors: &mut Vec<Diagnostic>) {
    // A block that stops the program keeps its messages.
    let stopping = block
        .iter()
        .any(|s| matches!(s.kind, StmtKind::Io { stops: true, .. }));
    let mut i = 0;
    while i < block.len() {
        if let StmtKind::Io {
            writes,
            stops,
            text,
            ..
        } = &block[i].kind
        {
            let message = stopping && !is_input(text, writes) && !uses_format_label(text);
            if reached && (*stops || message) {
                i += 1;
                continue;
            }
            if reached && is_input(text, writes) {
                let what = "input (a statement setting variables)";
                errors.push(
                    Diagnostic::error(
                        "E0513",
                        format!(
                            "{what} in `{unit}`, which a root calls, cannot be differentiated: `{text}`"
                        ),
                    )
                    .at(block[i].span)
                    .with_help(
                        "the adjoint re-runs the primal code, so it would read again; move it out of the code to differentiate, into the caller (a root that no other procedure calls may read its input)",
                    ),
                );
                i += 1;
                continue;
            }
            let format = text
                .get(..6)
                .is_some_and(|w| w.eq_ignore_ascii_case("format"));
            match block[i].label.clone() {
                Some(label) if !format => {
                    block[i].kind = StmtKind::Continue;
                    block[i].label = Some(label);
                    i += 1;
                }
                _ => {
                    block.remove(i);
                }
            }
            continue;
        }
        for child in crate::il::visit::child_blocks_mut(&mut block[i]) {
            strip_block(child, reached, unit, errors);
        }
        // A logical IF whose statement was dropped keeps an empty-effect CONTINUE.
        if let StmtKind::If { arms, .. } = &mut block[i].kind {
            for (_, body) in arms.iter_mut() {
                if body.is_empty() {
                    body.push(Stmt::generated(StmtKind::Continue));
                }
            }
        }
        i += 1;
    }
}

/// Does `body` hold an input statement?
fn has_input(body: &[Stmt]) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(body, &mut |s| {
        if let StmtKind::Io { writes, text, .. } = &s.kind {
            found |= is_input(text, writes);
        }
    });
    found
}

/// An output statement that names a FORMAT by its label (`WRITE (6, 100) X`,
/// `PRINT 100, X`): the FORMAT statements are dropped, so such a statement cannot stay.
fn uses_format_label(text: &str) -> bool {
    let lower = text.trim_start().to_ascii_lowercase();
    let is_label = |s: &str| {
        let s = s.trim().trim_start_matches("fmt").trim_start();
        let s = s.strip_prefix('=').unwrap_or(s).trim();
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
    };
    if let Some(rest) = lower.strip_prefix("print") {
        return is_label(rest.split(',').next().unwrap_or(""));
    }
    // The control list of WRITE (...): its second item, or a FMT= item.
    let Some(open) = lower.find('(') else {
        return false;
    };
    let close = lower[open..].find(')').map_or(lower.len(), |c| open + c);
    let items: Vec<&str> = lower[open + 1..close].split(',').collect();
    items
        .iter()
        .any(|i| i.trim_start().starts_with("fmt") && is_label(i))
        || items.get(1).is_some_and(|i| is_label(i))
}

/// A statement that sets variables other than implied-DO indices: READ, INQUIRE, or a
/// specifier such as IOSTAT=.
fn is_input(text: &str, writes: &[crate::il::Expr]) -> bool {
    if writes.is_empty() {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    let word: String = lower
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    matches!(word.as_str(), "read" | "inquire")
        || ["iostat", "iomsg", "size"].iter().any(|k| {
            lower
                .match_indices(k)
                .any(|(i, _)| lower[i + k.len()..].trim_start().starts_with('='))
        })
}
