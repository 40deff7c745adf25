//! Active SAVE state (issue 13): the SAVE and DATA locals of a procedure that keep a
//! value depending on the independents between its calls (RKF45's step size `h`), or
//! that a checkpointed call changes (its flags), become the variables of a module of
//! their own, so that everything adgen does for module variables applies to them:
//! derivative module variables that carry their derivatives from one call to the next
//! (`hd` in `r8_rkf45_saved_d`, `hb` in `r8_rkf45_saved_b`), and the snapshot a
//! caller's adjoint takes before a call its adjoint runs again (seeds/004, AD06: "do
//! something similar for SAVE variables").
//!
//! The user's procedure keeps its SAVE locals, which derivative code cannot reach. So
//! derivative code runs the primal of such a procedure, and of every procedure that
//! calls it, as a copy of its own that keeps its state in the module: `p_nodiff`, as
//! Tapenade names the copies of primal units that differentiated code needs
//! (seeds/003, "takeCopyUnitDecisions"). The modules and the copies are written once,
//! to `adgen_saved.f90`, which every mode's derivative code shares: derivative code
//! starts from the variables' initial values and sees what derivative code left there,
//! as the original sees what the original left.
//!
//! Not rewritten, so that the refusals stay (E0514, E0515): an internal procedure's
//! SAVE locals, a SAVEd variable in an EQUIVALENCE, and a procedure whose copy would
//! need a PRIVATE name of its module (`copies`).

use std::collections::{BTreeMap, BTreeSet};

mod copies;
pub use copies::{Copies, call_copies, saved_file};

use crate::il::{
    Attr, Decl, DeclKind, Entity, Expr, ExprKind, GlobalRef, Program, Unit, key, visit,
};

/// The path of the generated file that holds the modules of SAVE state and the primal
/// copies (printed as the output's `adgen_saved.f90`).
pub const SAVED_FILE: &str = "adgen_saved.f90";

/// The suffix of a primal copy that keeps its state in a module.
const COPY_SUFFIX: &str = "_nodiff";

/// `program` with the SAVE and DATA locals of the procedures named in `units` (IL names:
/// a specialized copy stands for its original, and all copies of it share one module)
/// moved into modules of their own; `None` when one of them cannot be (an internal
/// procedure, a C function, a SAVEd variable in an EQUIVALENCE, or a primal copy that
/// could not be made: `copies`), and the refusals stand.
pub fn relocate(program: &Program, units: &BTreeSet<String>) -> Option<Program> {
    if units.is_empty() || program.files.iter().any(|f| f.path == SAVED_FILE) {
        return None;
    }
    let language = |u: &Unit| {
        program
            .files
            .iter()
            .find(|f| f.units.iter().any(|x| std::ptr::eq(x, u)))
            .map(|f| f.language)
    };
    let original_of = |u: &Unit| {
        key(u
            .specialization
            .as_ref()
            .map_or(u.name.as_str(), |s| s.original.as_str()))
    };
    // The holders' language, which has modules apart from files (Fortran, not C).
    let mut lang = None;
    let mut holders = BTreeSet::new();
    for name in units {
        let u = program.unit(name)?;
        let l = language(u)?;
        if u.internal_of.is_some() || l.file_is_module() {
            return None;
        }
        if *lang.get_or_insert(l) != l {
            return None;
        }
        holders.insert(original_of(u));
    }
    let lang = lang?;
    let mut taken: BTreeSet<String> = program.units().map(|u| key(&u.name)).collect();
    for u in program.units() {
        taken.extend(u.symbols.iter().map(|s| key(&s.name)));
    }
    let mut out = program.clone();
    let mut modules = Vec::new();
    for holder in &holders {
        let copies: Vec<usize> = out
            .files
            .iter()
            .flat_map(|f| f.units.iter())
            .enumerate()
            .filter(|(_, u)| u.is_procedure() && original_of(u) == *holder)
            .map(|(i, _)| i)
            .collect();
        let first = unit_at(&out, copies[0]);
        let moved = moved_variables(first)?;
        if moved.is_empty() {
            return None;
        }
        let module = fresh(&format!("{holder}_saved"), &mut taken);
        modules.push(state_module(first, &module, &moved));
        for i in copies {
            move_out(unit_at_mut(&mut out, i), &module, &moved);
        }
    }
    let file = out.files.first()?.file;
    out.files.insert(
        0,
        crate::il::File {
            file,
            path: SAVED_FILE.to_string(),
            language: lang,
            units: modules,
            warnings: Vec::new(),
        },
    );
    // The primal copies must be possible: Fortran, under names of their own (a
    // binding name would be the original's), a module procedure's with what it takes
    // from its module public.
    let copies = copies::Copies::of(&out);
    if !copies.possible(&out, lang) {
        return None;
    }
    Some(out)
}

fn unit_at(program: &Program, i: usize) -> &Unit {
    program.units().nth(i).expect("index of a unit")
}

fn unit_at_mut(program: &mut Program, i: usize) -> &mut Unit {
    program
        .files
        .iter_mut()
        .flat_map(|f| f.units.iter_mut())
        .nth(i)
        .expect("index of a unit")
}

/// `base`, or `base` with a number appended, unused in the program.
fn fresh(base: &str, taken: &mut BTreeSet<String>) -> String {
    let mut name = base.to_string();
    let mut n = 0;
    while taken.contains(&key(&name)) {
        name = format!("{base}{n}");
        n += 1;
    }
    taken.insert(key(&name));
    name
}

/// The SAVE and DATA locals of `unit` that go to its module (names as declared);
/// `None` when one is EQUIVALENCEd (its storage is another variable's too).
fn moved_variables(unit: &Unit) -> Option<Vec<String>> {
    let saved = crate::il::storage::saved_locals(unit);
    let mut names = Vec::new();
    for s in unit.symbols.iter() {
        if !saved.contains(&key(&s.name))
            || !s.is_variable()
            || s.arg_index.is_some()
            || s.is_result
            || s.global.is_some()
            || s.name.contains('%')
            || key(&s.name) == key(&unit.name)
        {
            continue;
        }
        names.push(s.name.clone());
    }
    let equivalenced = unit.decls.iter().any(|d| match &d.kind {
        DeclKind::Equivalence(sets) => sets.iter().flatten().any(|e| {
            e.base_name()
                .is_some_and(|b| names.iter().any(|n| key(n) == key(b)))
        }),
        _ => false,
    });
    (!equivalenced).then_some(names)
}

/// The module holding `moved`, the SAVE locals of `unit`: each declared with its type,
/// shape and initial value, its DATA statements, and what those need (the unit's named
/// constants, copied; names of other modules, used).
fn state_module(unit: &Unit, name: &str, moved: &[String]) -> Unit {
    let is_moved = |n: &str| moved.iter().any(|m| key(m) == key(n));
    let mut decls = Vec::new();
    let mut needed: BTreeSet<String> = BTreeSet::new();
    let mut vars = Vec::new();
    for m in moved {
        let sym = unit.symbols.get(m).expect("a moved symbol");
        let (attrs, init) = declared(unit, m);
        let entity = Entity {
            name: sym.name.clone(),
            dims: (!sym.dims.is_empty()).then(|| sym.dims.clone()),
            init,
            span: sym.span,
        };
        names_of_entity(&sym.type_spec, &entity, &mut needed);
        vars.push(Decl {
            kind: DeclKind::Var {
                spec: sym.type_spec.clone(),
                attrs,
                entities: vec![entity],
            },
            span: sym.span,
        });
    }
    let mut data = Vec::new();
    for d in &unit.decls {
        if let DeclKind::Data(sets) = &d.kind {
            for s in sets.iter().filter(|s| s.names.iter().any(|n| is_moved(n))) {
                needed.extend(text_names(&s.objects));
                needed.extend(text_names(&s.values));
                data.push(s.clone());
            }
        }
    }
    // The constants the declarations name, with those their values name.
    let mut constants: Vec<Decl> = Vec::new();
    let mut uses: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    let mut done = BTreeSet::new();
    let mut symbols = crate::il::SymbolTable::default();
    while let Some(n) = needed.pop_first() {
        if !done.insert(n.clone()) || is_moved(&n) {
            continue;
        }
        let Some(sym) = unit.symbols.get(&n) else {
            continue;
        };
        if let Some(g) = &sym.global {
            if !g.module.starts_with(['/', '#']) {
                uses.entry(g.module.clone())
                    .or_default()
                    .insert((sym.name.clone(), g.name.clone()));
                symbols.insert(sym.clone());
            }
            continue;
        }
        if sym.kind != crate::il::SymbolKind::Constant {
            continue;
        }
        let Some(value) = unit.initial_value(&n).cloned() else {
            continue;
        };
        let entity = Entity {
            name: sym.name.clone(),
            dims: (!sym.dims.is_empty()).then(|| sym.dims.clone()),
            init: Some(value),
            span: sym.span,
        };
        names_of_entity(&sym.type_spec, &entity, &mut needed);
        constants.push(Decl {
            kind: DeclKind::Var {
                spec: sym.type_spec.clone(),
                attrs: vec![Attr::Parameter],
                entities: vec![entity],
            },
            span: sym.span,
        });
        symbols.insert(sym.clone());
    }
    for (module, names) in uses {
        let (mut only, mut renames) = (Vec::new(), Vec::new());
        for (local, remote) in names {
            if key(&local) != key(&remote) {
                renames.push((local.clone(), remote));
            }
            only.push(local);
        }
        decls.push(Decl {
            kind: DeclKind::Use {
                module,
                only: Some(only),
                renames,
            },
            span: unit.span,
        });
    }
    decls.push(Decl {
        kind: DeclKind::Implicit(Vec::new()),
        span: unit.span,
    });
    decls.extend(constants.into_iter().rev());
    decls.extend(vars);
    if !data.is_empty() {
        decls.push(Decl {
            kind: DeclKind::Data(data),
            span: unit.span,
        });
    }
    for m in moved {
        let mut s = unit.symbols.get(m).expect("a moved symbol").clone();
        s.implicit = false;
        symbols.insert(s);
    }
    // (A module: a declaration's fields, no arguments, no result.)
    let mut module = Unit {
        kind: crate::il::UnitKind::Module,
        external: false,
        ..Unit::declaration(name, Vec::new(), None, decls, symbols, unit.span)
    };
    module.leading_comments = vec![format!(
        " The SAVE variables of `{}`, for derivative code (adgen).",
        unit.specialization
            .as_ref()
            .map_or(unit.name.as_str(), |s| s.original.as_str())
    )];
    module
}

/// The attributes (other than SAVE, DIMENSION and PARAMETER) and the initial value of
/// variable `name` where `unit` declares it.
fn declared(unit: &Unit, name: &str) -> (Vec<Attr>, Option<Expr>) {
    for d in &unit.decls {
        if let DeclKind::Var {
            attrs, entities, ..
        } = &d.kind
            && let Some(e) = entities.iter().find(|e| key(&e.name) == key(name))
        {
            let attrs = attrs
                .iter()
                .filter(|a| matches!(a, Attr::Allocatable | Attr::Pointer | Attr::Target))
                .cloned()
                .collect();
            return (attrs, e.init.clone());
        }
    }
    (Vec::new(), None)
}

/// The names (keys) a declaration of `entity` with type `spec` refers to.
fn names_of_entity(spec: &crate::il::TypeSpec, entity: &Entity, out: &mut BTreeSet<String>) {
    let mut add = |e: &Expr| {
        visit::walk_expr(e, &mut |x| {
            if let ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) = &x.kind {
                out.insert(key(n));
            }
        })
    };
    if let Some(k) = &spec.kind {
        add(k);
    }
    for d in entity.dims.iter().flatten() {
        if let Some(l) = &d.lower {
            add(l);
        }
        if let crate::il::Bound::Expr(u) = &d.upper {
            add(u);
        }
    }
    if let Some(i) = &entity.init {
        add(i);
    }
    if let Some(t) = &spec.type_name {
        out.insert(key(t));
    }
    if let Some(l) = &spec.char_len {
        out.extend(text_names(l));
    }
}

/// The identifiers (keys) of Fortran text kept as written (DATA, a CHARACTER length).
fn text_names(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut word = String::new();
    let mut quoted: Option<char> = None;
    for c in text.chars().chain(std::iter::once(' ')) {
        if let Some(q) = quoted {
            if c == q {
                quoted = None;
            }
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if word.starts_with(|w: char| w.is_ascii_alphabetic()) {
            out.insert(key(&word));
        }
        word.clear();
        if c == '\'' || c == '"' {
            quoted = Some(c);
        }
    }
    out
}

/// `unit` without its declarations of `moved`, which it now uses from `module`.
fn move_out(unit: &mut Unit, module: &str, moved: &[String]) {
    let is_moved = |n: &str| moved.iter().any(|m| key(m) == key(n));
    let mut decls = Vec::new();
    for mut d in std::mem::take(&mut unit.decls) {
        let keep = match &mut d.kind {
            DeclKind::Var { entities, .. } | DeclKind::Dimension(entities) => {
                entities.retain(|e| !is_moved(&e.name));
                !entities.is_empty()
            }
            DeclKind::Save(names) if names.is_empty() => false,
            DeclKind::Save(names) => {
                names.retain(|n| !is_moved(n));
                !names.is_empty()
            }
            DeclKind::Data(sets) => {
                sets.retain(|s| !s.names.iter().any(|n| is_moved(n)));
                !sets.is_empty()
            }
            _ => true,
        };
        if keep {
            decls.push(d);
        }
    }
    // USE statements come first.
    let at = decls
        .iter()
        .position(|d| !matches!(d.kind, DeclKind::Use { .. } | DeclKind::Comment(_)))
        .unwrap_or(decls.len());
    decls.insert(
        at,
        Decl {
            kind: DeclKind::Use {
                module: module.to_string(),
                only: Some(moved.to_vec()),
                renames: Vec::new(),
            },
            span: unit.span,
        },
    );
    unit.decls = decls;
    let mut symbols = unit.symbols.clone();
    for m in moved {
        if let Some(s) = unit.symbols.get(m) {
            let mut s = s.clone();
            s.global = Some(GlobalRef {
                module: module.to_string(),
                name: s.name.clone(),
            });
            symbols.insert(s);
        }
    }
    unit.symbols = symbols;
}
