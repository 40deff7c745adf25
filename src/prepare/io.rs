//! Input/output statements before differentiation.
//!
//! The parsed program keeps every I/O statement ([`StmtKind::Io`]) so the round trip
//! prints it back. Derivative code drops output (PRINT, WRITE, OPEN, CLOSE, REWIND,
//! FORMAT, ...): it changes no value the derivatives depend on, and repeating it would be
//! wrong in the adjoint, whose forward sweep runs the primal a second time (joint mode
//! re-runs each callee). STOP and ERROR STOP are kept, with the output of the block that
//! ends in them (an error path: it runs once, and its message says why the run stopped);
//! a re-run follows the forward run's path, so it stops only where the primal did.
//!
//! Input (a READ, or any statement that sets a variable, such as `IOSTAT=`) cannot be
//! replayed: the derivative code must run it exactly once, as the primal does. A
//! procedure that holds input is therefore kept as written here, and the analyses decide
//! (`analysis::refusals::rerun_input`, E0513): it is accepted when it runs once, that is
//! a root that no procedure a root reaches calls (its derivative code runs it once: the
//! adjoint's forward sweep once, its backward sweep not at all), or a procedure without
//! derivatives that only such a root's passive calls reach, directly or through other
//! procedures without derivatives (a set-up routine that reads its parameters: the
//! derivative code calls the original, once, and the adjoint's forward sweep keeps the
//! call). The values read are inputs of the derivative code (their derivatives are zero
//! after the READ; their adjoints are zeroed where the backward sweep passes it, after
//! the values it overwrote were restored).
//! Procedures no root reaches keep their I/O untouched.
//! A dropped statement with a label becomes a labelled CONTINUE, so jumps still land.
//! The index of an implied DO in a dropped output list (`WRITE (*,*) (A(J), J = 1, N)`)
//! is not set by the derivative code: a program reading `J` after such a statement
//! before setting it again would see another value (no library we know does).

use std::collections::BTreeSet;

use crate::il::{Program, Stmt, StmtKind, key};
use crate::request::Request;

pub fn strip(program: Program, request: &Request) -> Program {
    let reachable = reachable(&program, request);
    let mut out = program;
    for file in &mut out.files {
        for unit in &mut file.units {
            // Input is judged once the analyses know what runs twice.
            if crate::il::visit::first_input(&unit.body).is_some() {
                continue;
            }
            let reached = reachable.contains(crate::il::key_ref(&unit.name).as_ref());
            strip_block(&mut unit.body, reached);
        }
    }
    out
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

fn strip_block(block: &mut Vec<Stmt>, reached: bool) {
    // A block that stops the program keeps its messages.
    let stopping = block
        .iter()
        .any(|s| matches!(s.kind, StmtKind::Io { stops: true, .. }));
    let mut i = 0;
    while i < block.len() {
        if let StmtKind::Io { stops, text, .. } = &block[i].kind {
            let format = text
                .get(..6)
                .is_some_and(|w| w.eq_ignore_ascii_case("format"));
            // A FORMAT serves only the statements with its label, which are dropped.
            let message = stopping && !format && !uses_format_label(text);
            if reached && (*stops || message) {
                i += 1;
                continue;
            }
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
            strip_block(child, reached);
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
