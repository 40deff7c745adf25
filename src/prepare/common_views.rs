//! COMMON blocks that procedures declare with different variables: storage association
//! by position, the FORTRAN 77 habit of ODEPACK's `/DLS001/`, which `DLSODE` declares
//! as `ROWNS(209), CCMAX, ...` and `DSTODE` as `CONIT, CRATE, EL(13), ELCO(13,12), HOLD,
//! RMAX, TESCO(3,12), CCMAX, ...`.
//!
//! seeds/000 §3 makes the fragments of a COMMON block memory zones of their own. adgen
//! gets there by making every declaration of such a block list the same variables, so
//! that its variables are program globals like those of any block (`ir::commons`): the
//! block is cut into the smallest pieces that no declaration's variable straddles (byte
//! offsets, gfortran's sizes: the kind in bytes, 4 for default INTEGER, REAL and
//! LOGICAL, twice the kind for COMPLEX); each piece is one variable of the block in
//! every unit, named and shaped as a declaration that has it whole has it (`ROWNS(209)`);
//! and a unit's own variables inside a piece become variables EQUIVALENCEd onto it
//! (`EQUIVALENCE (EL, ROWNS(3))`). Their references stay as written; the analyses see a
//! piece and what is EQUIVALENCEd onto it as one zone (a write to a part never kills it),
//! the derivatives are EQUIVALENCEd as their primals are.
//!
//! A block with a variable of unknown size (a dimension that is not constant, a
//! derived type, a CHARACTER of unknown length), or one piece of which holds values of
//! different types, is left as written: it stays passive-only (E0511 when an active
//! value lands in it).

use std::collections::BTreeMap;

use crate::diag::Span;
use crate::il::storage::{constant_bounds, element_bytes};
use crate::il::{
    self, Bound, Decl, DeclKind, DimSpec, Entity, Expr, ExprKind, GlobalRef, Program, ScalarType,
    Symbol, TypeSpec, Unit, key,
};

/// One variable of one declaration of a block.
#[derive(Clone, Debug)]
struct Member {
    name: String,
    /// Byte offset in the block, and size in bytes.
    offset: u64,
    bytes: u64,
    /// The type of its elements and their size.
    ty: ScalarType,
    elem: u64,
    /// Constant bounds of each dimension.
    dims: Vec<(i64, i64)>,
}

/// A block as one unit declares it.
struct View {
    /// Position of the unit: file, unit.
    at: (usize, usize),
    members: Vec<Member>,
}

/// The variable of the block that holds one piece in every unit.
#[derive(Clone, Debug)]
struct Piece {
    start: u64,
    end: u64,
    name: String,
    ty: ScalarType,
    spec: TypeSpec,
    elem: u64,
    dims: Vec<(i64, i64)>,
}

/// Makes every unit declare each COMMON block with the same variables (see the module
/// documentation). Blocks declared alike everywhere are left as they are.
pub fn unify(mut program: Program) -> Program {
    let mut rewrites = Vec::new();
    for (module, name, views) in views(&program) {
        if views
            .windows(2)
            .all(|w| alike(&w[0].members, &w[1].members))
        {
            continue;
        }
        if let Some(pieces) = pieces(&program, &views, &module) {
            rewrites.push((module, name, pieces, views));
        }
    }
    for (module, name, pieces, views) in rewrites {
        for view in views {
            let unit = &mut program.files[view.at.0].units[view.at.1];
            rewrite_unit(unit, &module, name.as_deref(), &pieces, &view.members);
        }
    }
    program
}

/// Each block (global module `/name/`, name as spelled) and its declarations, in
/// program order; a block one of whose declarations has a size adgen does not know is
/// left out (left as written).
fn views(program: &Program) -> Vec<(String, Option<String>, Vec<View>)> {
    let mut out: Vec<(String, Option<String>, Vec<View>)> = Vec::new();
    let mut unknown: std::collections::BTreeSet<String> = Default::default();
    for (f, file) in program.files.iter().enumerate() {
        for (u, unit) in file.units.iter().enumerate() {
            for (module, name, variables) in crate::il::storage::common_lists(unit) {
                let members = members(program, unit, &variables);
                let i = match out.iter().position(|(m, _, _)| *m == module) {
                    Some(i) => i,
                    None => {
                        out.push((module.clone(), name, Vec::new()));
                        out.len() - 1
                    }
                };
                match members {
                    Some(members) => out[i].2.push(View {
                        at: (f, u),
                        members,
                    }),
                    None => {
                        unknown.insert(module);
                    }
                }
            }
        }
    }
    out.retain(|(m, _, _)| !unknown.contains(m));
    out
}

/// The variables of one declaration with their offsets, if every size is known.
fn members(program: &Program, unit: &Unit, variables: &[String]) -> Option<Vec<Member>> {
    let mut offset = 0;
    let mut out = Vec::new();
    for v in variables {
        let s = unit.symbols.get(v)?;
        let elem = element_bytes(s)?;
        let dims = constant_bounds(Some(program), unit, s)?;
        let mut count: u64 = 1;
        for (l, u) in &dims {
            count = count.checked_mul(u64::try_from(u - l + 1).ok()?)?;
        }
        let bytes = elem.checked_mul(count)?;
        out.push(Member {
            name: v.clone(),
            offset,
            bytes,
            ty: s.ty,
            elem,
            dims,
        });
        offset = offset.checked_add(bytes)?;
    }
    Some(out)
}

/// Two declarations list the same variables: names, types and shapes.
fn alike(a: &[Member], b: &[Member]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            key(&x.name) == key(&y.name) && x.ty == y.ty && x.elem == y.elem && x.dims == y.dims
        })
}

/// The pieces of a block: the smallest byte ranges no variable of any declaration
/// straddles, each of one element type, with the variable that holds it everywhere.
/// `None` when a piece mixes types.
fn pieces(program: &Program, views: &[View], module: &str) -> Option<Vec<Piece>> {
    let mut ranges: Vec<(u64, u64)> = views
        .iter()
        .flat_map(|v| v.members.iter().map(|m| (m.offset, m.offset + m.bytes)))
        .collect();
    ranges.sort();
    let mut merged: Vec<(u64, u64)> = Vec::new();
    for (s, e) in ranges {
        match merged.last_mut() {
            Some(last) if s < last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    let unit = |v: &View| &program.files[v.at.0].units[v.at.1];
    let mut out = Vec::new();
    for (k, &(start, end)) in merged.iter().enumerate() {
        let inside: Vec<(&View, &Member)> = views
            .iter()
            .flat_map(|v| v.members.iter().map(move |m| (v, m)))
            .filter(|(_, m)| m.offset >= start && m.offset + m.bytes <= end)
            .collect();
        let (_, first) = inside.first()?;
        if inside
            .iter()
            .any(|(_, m)| m.ty != first.ty || m.elem != first.elem)
            || (end - start) % first.elem != 0
        {
            return None;
        }
        // Named as a declaration that has the piece whole names it, if every unit can
        // take that name (it has no other variable of that name).
        let free = |name: &str, dims: &[(i64, i64)]| {
            views.iter().all(|v| {
                unit(v).symbols.get(name).is_none()
                    || v.members.iter().any(|m| {
                        key(&m.name) == key(name)
                            && m.offset == start
                            && m.bytes == end - start
                            && m.dims == dims
                    })
            })
        };
        let whole = inside
            .iter()
            .find(|(_, m)| m.offset == start && m.bytes == end - start && free(&m.name, &m.dims));
        let piece = match whole {
            Some((v, m)) => {
                let spec = &unit(v).symbols.get(&m.name)?.type_spec;
                let literal_kind = spec
                    .kind
                    .as_ref()
                    .is_none_or(|e| matches!(e.kind, ExprKind::Int(_)));
                Piece {
                    start,
                    end,
                    name: m.name.clone(),
                    ty: m.ty,
                    spec: if literal_kind {
                        spec.clone()
                    } else {
                        TypeSpec::of(m.ty)
                    },
                    elem: m.elem,
                    dims: m.dims.clone(),
                }
            }
            None => {
                let base = format!("{}_{}", module.trim_matches('/'), k + 1);
                let base = if base.starts_with('_') {
                    format!("blank{base}")
                } else {
                    base
                };
                let mut name = base.clone();
                let mut n = 0;
                while !free(&name, &[]) {
                    name = format!("{base}_{n}");
                    n += 1;
                }
                let (v, m) = inside[0];
                let spec = &unit(v).symbols.get(&m.name)?.type_spec;
                let count = (end - start) / m.elem;
                Piece {
                    start,
                    end,
                    name,
                    ty: m.ty,
                    spec: if m.ty == ScalarType::Character {
                        spec.clone()
                    } else {
                        TypeSpec::of(m.ty)
                    },
                    elem: m.elem,
                    dims: vec![(1, count as i64)],
                }
            }
        };
        out.push(piece);
    }
    Some(out)
}

fn constant_dims(dims: &[(i64, i64)]) -> Option<Vec<DimSpec>> {
    (!dims.is_empty()).then(|| {
        dims.iter()
            .map(|&(l, u)| DimSpec {
                lower: (l != 1).then(|| Expr::int(l)),
                upper: Bound::Expr(Expr::int(u)),
            })
            .collect()
    })
}

/// The element of `piece` at byte offset `at`: `ROWNS(3)`, `A(2, 1)`, or the scalar.
fn element(piece: &Piece, at: u64) -> Expr {
    if piece.dims.is_empty() {
        return Expr::var(&piece.name);
    }
    let mut linear = ((at - piece.start) / piece.elem) as i64;
    let mut subs = Vec::new();
    for &(l, u) in &piece.dims {
        let extent = u - l + 1;
        subs.push(Expr::int(l + linear % extent));
        linear /= extent;
    }
    Expr::new(ExprKind::Index(piece.name.clone(), subs))
}

/// Declares the block in `unit` as `pieces`: its own variables that are not a piece
/// whole leave the COMMON statement for an EQUIVALENCE onto the piece that holds them.
fn rewrite_unit(
    unit: &mut Unit,
    module: &str,
    name: Option<&str>,
    pieces: &[Piece],
    members: &[Member],
) {
    let is_piece = |m: &Member, p: &Piece| {
        key(&m.name) == key(&p.name) && m.offset == p.start && m.bytes == p.end - p.start
    };
    // The dimensions the COMMON statement gave each member, as written.
    let mut written: BTreeMap<String, Option<Vec<DimSpec>>> = BTreeMap::new();
    for d in &unit.decls {
        if let DeclKind::Common(parts) = &d.kind {
            for (n, entities) in parts {
                if il::common_global_module(n.as_deref()) == module {
                    for e in entities {
                        written.insert(key(&e.name), e.dims.clone());
                    }
                }
            }
        }
    }
    let mut entities = Vec::new();
    let mut added = Vec::new();
    let mut dimensions = Vec::new();
    let mut sets = Vec::new();
    for p in pieces {
        let own = members.iter().find(|m| is_piece(m, p));
        match own {
            Some(m) => entities.push(Entity {
                name: m.name.clone(),
                dims: written.get(&key(&m.name)).cloned().flatten(),
                init: None,
                span: Span::default(),
            }),
            None => {
                entities.push(bare(&p.name));
                added.push(Decl {
                    kind: DeclKind::Var {
                        spec: p.spec.clone(),
                        attrs: Vec::new(),
                        entities: vec![Entity {
                            dims: constant_dims(&p.dims),
                            ..bare(&p.name)
                        }],
                    },
                    span: Span::default(),
                });
                let dims = constant_dims(&p.dims).unwrap_or_default();
                let mut symbol = Symbol::local(&p.name, p.ty, p.spec.clone(), dims);
                symbol.global = Some(GlobalRef {
                    module: module.to_string(),
                    name: p.name.clone(),
                });
                unit.symbols.insert(symbol);
            }
        }
        for m in members {
            if m.offset < p.start || m.offset >= p.end || own.is_some_and(|o| o.name == m.name) {
                continue;
            }
            if let Some(Some(dims)) = written.get(&key(&m.name)) {
                dimensions.push(Entity {
                    dims: Some(dims.clone()),
                    ..bare(&m.name)
                });
            }
            if let Some(s) = unit.symbols.get_mut(&m.name) {
                s.global = None;
            }
            sets.push(vec![Expr::var(&m.name), element(p, m.offset)]);
        }
    }
    // The first COMMON statement of the block lists the pieces; the others lose it.
    let mut first = None;
    for (i, d) in unit.decls.iter_mut().enumerate() {
        let DeclKind::Common(parts) = &mut d.kind else {
            continue;
        };
        for part in parts.iter_mut() {
            if il::common_global_module(part.0.as_deref()) != module {
                continue;
            }
            if first.is_none() {
                first = Some(i);
                part.0 = name.map(str::to_string);
                part.1 = std::mem::take(&mut entities);
            } else {
                part.1.clear();
            }
        }
        parts.retain(|(_, es)| !es.is_empty());
    }
    unit.decls
        .retain(|d| !matches!(&d.kind, DeclKind::Common(parts) if parts.is_empty()));
    let Some(at) = first else { return };
    // The pieces' types before the COMMON statement, the members' dimensions and
    // EQUIVALENCE after it.
    let common = unit.decls.remove(at);
    let mut new = added;
    new.push(common);
    if !dimensions.is_empty() {
        new.push(Decl {
            kind: DeclKind::Dimension(dimensions),
            span: Span::default(),
        });
    }
    if !sets.is_empty() {
        new.push(Decl {
            kind: DeclKind::Equivalence(sets),
            span: Span::default(),
        });
    }
    unit.decls.splice(at..at, new);
}

fn bare(name: &str) -> Entity {
    Entity {
        name: name.to_string(),
        dims: None,
        init: None,
        span: Span::default(),
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::SourceMap;

    /// Every unit of `text` (fixed form) after [`super::unify`], printed.
    fn unified(text: &str) -> Vec<String> {
        let mut sources = SourceMap::default();
        let inputs = [crate::SourceInput::new("t.f", text)];
        let program = crate::parse_sources(&inputs, &mut sources).expect("the test source parses");
        let program = super::unify(program);
        program
            .units()
            .map(crate::back::fortran::write_unit)
            .collect()
    }

    #[test]
    fn a_piece_no_declaration_has_whole_gets_a_name_of_its_own() {
        // A(2), B in one unit, C, D(2) in the other: the piece of three reals is
        // neither's, so it is /blk/'s first, declared in both with the others onto it.
        // The integer is K in both (the first name), L EQUIVALENCEd onto it. The block
        // continued by a second COMMON statement is one list.
        let text = "      SUBROUTINE F\n      DOUBLE PRECISION A(2), B\n      INTEGER K\n      \
                    COMMON /BLK/ A\n      COMMON /BLK/ B, K\n      END\n\n      SUBROUTINE G\n      \
                    DOUBLE PRECISION C, D\n      INTEGER L\n      COMMON /BLK/ C, D(2), L\n      END\n";
        let units = unified(text);
        for (u, own) in units.iter().zip([
            "equivalence (A, blk_1(1)), (B, blk_1(3))",
            "equivalence (C, blk_1(1)), (D, blk_1(2)), (L, K)",
        ]) {
            assert!(u.contains("real(8) :: blk_1(3)"), "{u}");
            assert!(u.contains(own), "{u}");
            assert_eq!(u.matches("common /BLK/").count(), 1, "{u}");
        }
        assert!(units[0].contains("common /BLK/ blk_1, K"), "{}", units[0]);
        assert!(units[1].contains("dimension D(2)"), "{}", units[1]);
        assert!(units[1].contains("common /BLK/ blk_1, K"), "{}", units[1]);
    }

    #[test]
    fn sizes_that_overflow_leave_the_block_as_written() {
        let text = "      SUBROUTINE F\n      DOUBLE PRECISION A(9223372036854775807), B\n      \
                    COMMON /BLK/ A, B\n      END\n\n      SUBROUTINE G\n      \
                    DOUBLE PRECISION C(-9223372036854775807:9223372036854775807)\n      \
                    COMMON /BLK/ C\n      END\n";
        let units = unified(text);
        assert!(units[0].contains("common /BLK/ A, B\n"), "{}", units[0]);
        assert!(units[1].contains("common /BLK/ C\n"), "{}", units[1]);
    }

    #[test]
    fn a_piece_holding_two_types_leaves_the_block_as_written() {
        let text = "      SUBROUTINE F\n      DOUBLE PRECISION A\n      COMMON /BLK/ A\n      END\n\n      \
                    SUBROUTINE G\n      INTEGER I, J\n      COMMON /BLK/ I, J\n      END\n";
        let units = unified(text);
        assert!(units[0].contains("common /BLK/ A\n"), "{}", units[0]);
        assert!(units[1].contains("common /BLK/ I, J\n"), "{}", units[1]);
        assert!(!units.iter().any(|u| u.contains("equivalence")));
    }
}
