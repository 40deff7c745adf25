//! The manifest's names in the IL's spelling. A case-sensitive language marks the
//! capitals of its names in the IL (`il::names::cased`), so the manifest's `X` must
//! become the IL's marked `X` before anything looks it up; a name written in the
//! manifest exactly as in the source finds its procedure and its argument, and one
//! that differs only by case still finds them when nothing else matches (as before).
//! A component path written with C's dot (`s.u`) becomes the IL's `s%u`.

use std::borrow::Cow;

use crate::il::names::{cased, spelled};
use crate::il::{Language, Program, Unit};
use crate::request::{Request, SizeExpr};

/// `request` with its roots, their independents and dependents, the size hints and the
/// black boxes named as the IL names them; borrowed unchanged when no name needs it.
pub fn spell_request<'r>(request: &'r Request, program: &Program) -> Cow<'r, Request> {
    let marked: Vec<&Unit> = program
        .procedures()
        .filter(|u| has_mark(&u.name) || u.symbols.iter().any(|s| has_mark(&s.name)))
        .collect();
    // A black box of a C program is named as C spells it (its capitals marked).
    let all_c =
        !program.files.is_empty() && program.files.iter().all(|f| f.language == Language::C);
    let cased_boxes = all_c && !request.black_boxes.is_empty();
    // A component path may be written as C writes it (`s.u`); the IL's is `s%u`.
    let dotted = request.roots.iter().any(|r| {
        r.independents
            .iter()
            .chain(&r.dependents)
            .any(|n| n.contains('.'))
    });
    if marked.is_empty() && !cased_boxes && !dotted {
        return Cow::Borrowed(request);
    }
    let unit_of = |name: &str| marked.iter().copied().find(|u| spelled(&u.name) == name);
    let mut out = request.clone();
    for root in &mut out.roots {
        for name in root
            .independents
            .iter_mut()
            .chain(root.dependents.iter_mut())
            .chain(root.entry_origins.iter_mut().map(|(_, n, _)| n))
        {
            *name = name.replace('.', "%");
        }
        let Some(u) = unit_of(&root.name) else {
            continue;
        };
        root.name = u.name.clone();
        for name in root
            .independents
            .iter_mut()
            .chain(root.dependents.iter_mut())
        {
            *name = in_unit(u, name);
        }
        for (_, name, _) in &mut root.entry_origins {
            *name = in_unit(u, name);
        }
    }
    for hint in &mut out.sizes {
        let Some(u) = unit_of(&hint.procedure) else {
            continue;
        };
        hint.procedure = u.name.clone();
        hint.argument = in_unit(u, &hint.argument);
        spell_size(u, &mut hint.size);
        if let Some(row) = &mut hint.row_length {
            spell_size(u, row);
        }
    }
    if cased_boxes {
        // Its result is named by its name, and its arguments are the stub's names.
        for b in &mut out.black_boxes {
            b.name = cased(&b.name);
            for a in &mut b.arguments {
                *a = cased(a);
            }
            for (output, inputs) in &mut b.depends {
                *output = cased(output);
                for i in inputs {
                    *i = cased(i);
                }
            }
        }
    }
    Cow::Owned(out)
}

fn has_mark(name: &str) -> bool {
    name.contains(crate::il::names::CASE_MARK)
}

/// The IL name of the variable `name` of `u`, when it is spelled exactly so there.
fn in_unit(u: &Unit, name: &str) -> String {
    u.symbols
        .iter()
        .find(|s| has_mark(&s.name) && spelled(&s.name) == name)
        .map_or_else(|| name.to_string(), |s| s.name.clone())
}

fn spell_size(u: &Unit, e: &mut SizeExpr) {
    match e {
        SizeExpr::Int(_) => {}
        SizeExpr::Name(n) => *n = in_unit(u, n),
        SizeExpr::Binary(_, a, b) => {
            spell_size(u, a);
            spell_size(u, b);
        }
        SizeExpr::Element(n, i) => {
            *n = in_unit(u, n);
            spell_size(u, i);
        }
    }
}
