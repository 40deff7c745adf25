//! Lowering of declarations inside a function body.

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};

use super::*;
use crate::il::{Bound, DimSpec, Expr, ExprKind, RealLit, Stmt, StmtKind};

impl FnCx<'_, '_> {
    pub(super) fn declaration(&mut self, d: &Node<Declaration>, out: &mut Vec<Stmt>) -> R<()> {
        for s in &d.node.specifiers {
            match &s.node {
                // A `static` table the function only reads (`static double a[8] = {...};`)
                // holds the same values at every call: a local with its initializer.
                DeclarationSpecifier::StorageClass(sc)
                    if sc.node == StorageClassSpecifier::Static && self.read_only_static(d) => {}
                DeclarationSpecifier::StorageClass(sc) => {
                    let what = if sc.node == StorageClassSpecifier::Static {
                        "a `static` local without an initializer, or one that the function \
                         changes or passes to a function that may change it (it keeps its value \
                         between calls)"
                    } else {
                        "a storage class (`extern`, `typedef`) on a local declaration"
                    };
                    self.refuse_names(d);
                    return Err(self.unsupported("E0603", what, sc.span));
                }
                DeclarationSpecifier::Function(_) | DeclarationSpecifier::Alignment(_) => {
                    return Err(self.unsupported("E0603", "this declaration", d.span));
                }
                _ => {}
            }
        }
        let ty = match decl_type(&d.node.specifiers, self.typedefs) {
            Ok(Ty::Void) | Ok(Ty::Bool) => {
                self.refuse_names(d);
                return Err(self.unsupported("E0603", "a `void` variable", d.span));
            }
            Ok(t) => t,
            Err(w) => {
                self.refuse_names(d);
                return Err(self.unsupported("E0603", &format!("a variable of {w}"), d.span));
            }
        };
        for init in &d.node.declarators {
            let decl = &init.node.declarator;
            // `double (*t)[N] = malloc(ny * sizeof *t);`: a 2-D work array on the heap.
            if let Some(name) = func::rows_pointer_name(&decl.node) {
                if !self.heap.names.contains(&name) {
                    return Err(self.unsupported(
                        "E0603",
                        "a pointer to arrays that is not given memory by `malloc`",
                        decl.span,
                    ));
                }
                let Some(DerivedDeclarator::Array(a)) = decl.node.derived.first().map(|d| &d.node)
                else {
                    unreachable!("rows_pointer_name found one array");
                };
                let n = match &a.node.size {
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        const_int_in(&e.node, self.enums)
                    }
                    _ => None,
                };
                let Some(n) = n.filter(|&n| n > 0) else {
                    return Err(self.unsupported(
                        "E0603",
                        "a row length that is not a positive integer constant",
                        a.span,
                    ));
                };
                self.heap_decl(&name, ty, Some(n), init, out)?;
                continue;
            }
            let Some(name) = declarator_name(&decl.node) else {
                return Err(self.unsupported("E0603", "this declarator", decl.span));
            };
            let name = name.node.il();
            let mut extents = Vec::new();
            let typedef_ext = typedef_extents(&d.node.specifiers, self.typedefs);
            let mut continue_outer = false;
            for dd in &decl.node.derived {
                match &dd.node {
                    DerivedDeclarator::Array(a) => match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                            match const_int_in(&e.node, self.enums) {
                                Some(n) if n > 0 => extents.push(n),
                                _ => {
                                    return Err(self.unsupported(
                                        "E0603",
                                        "an array whose size is not a positive integer constant",
                                        e.span,
                                    ));
                                }
                            }
                        }
                        _ => {
                            return Err(self.unsupported(
                                "E0603",
                                "a local array without a size",
                                dd.span,
                            ));
                        }
                    },
                    // `struct planet *b = &bodies[i];`: an element of an array of structs.
                    DerivedDeclarator::Pointer(_)
                        if matches!(ty, Ty::Struct(_)) && decl.node.derived.len() == 1 =>
                    {
                        self.pointer_decl(&name, ty, init, out)?;
                        continue_outer = true;
                        break;
                    }
                    DerivedDeclarator::Pointer(_) if matches!(ty, Ty::Struct(_)) => {
                        return Err(self.unsupported(
                            "E0612",
                            "a pointer to a pointer to a struct",
                            dd.span,
                        ));
                    }
                    // `row_t *t = malloc(m * sizeof *t);` with `typedef double row_t[N]`:
                    // rows on the heap, like `double (*t)[N]`.
                    DerivedDeclarator::Pointer(_)
                        if decl.node.derived.len() == 1
                            && typedef_ext.len() <= 1
                            && self.heap.names.contains(&name) =>
                    {
                        self.heap_decl(&name, ty, typedef_ext.first().copied(), init, out)?;
                        continue_outer = true;
                        break;
                    }
                    DerivedDeclarator::Pointer(_)
                        if decl.node.derived.len() == 1 && typedef_ext.is_empty() =>
                    {
                        // `const double *mu = x, *sig = x + k;`: on to the next declarator.
                        self.pointer_decl(&name, ty, init, out)?;
                        continue_outer = true;
                        break;
                    }
                    _ => {
                        self.refused_locals.insert(key(&name));
                        return Err(self.unsupported(
                            "E0603",
                            "this local declarator (a pointer to a pointer or to an array, or \
                             a function)",
                            dd.span,
                        ));
                    }
                }
            }
            if continue_outer {
                continue;
            }
            extents.extend(typedef_ext);
            if matches!(ty, Ty::Struct(_)) && !extents.is_empty() && init.node.initializer.is_some()
            {
                return Err(self.unsupported(
                    "E0612",
                    &format!("the initializer of `{name}`, an array of structs,"),
                    decl.span,
                ));
            }
            if extents.len() > 2 {
                return Err(self.unsupported(
                    "E0603",
                    "an array of more than 2 dimensions",
                    decl.span,
                ));
            }
            let kind = if extents.is_empty() {
                VarKind::Local
            } else {
                VarKind::LocalArray(extents.clone())
            };
            if self.declare(&name, ty, kind, init.span)? {
                let dims = (!extents.is_empty()).then(|| {
                    extents
                        .iter()
                        .rev()
                        .map(|n| DimSpec {
                            lower: Some(int_lit(0)),
                            upper: Bound::Expr(int_lit(n - 1)),
                        })
                        .collect()
                });
                self.push_decl(&name, ty, Vec::new(), dims, None, None, false, init.span);
            }
            if let (Some(i), Ty::Struct(_)) = (&init.node.initializer, ty) {
                self.struct_init(&name, ty, i, out)?;
                continue;
            }
            if let Some(i) = &init.node.initializer {
                match &i.node {
                    Initializer::Expression(e) if extents.is_empty() => {
                        self.with_effects(out, e, |cx, out| {
                            let (rhs, rty) = cx.value(e)?;
                            cx.check_assignable(ty, rty, e.span)?;
                            cx.note_initialized(&name, ty, &rhs);
                            let s = cx.stmt(
                                StmtKind::Assign {
                                    lhs: Expr::var(&name),
                                    rhs,
                                },
                                init.span,
                            );
                            out.push(s);
                            Ok(())
                        })?;
                    }
                    Initializer::List(items) if extents.len() == 1 => {
                        if items.len() as i64 > extents[0] {
                            return Err(self.err(
                                "E0605",
                                "more initializers than array elements",
                                i.span,
                            ));
                        }
                        for (k, item) in items.iter().enumerate() {
                            let Initializer::Expression(e) = &item.node.initializer.node else {
                                return Err(self.unsupported(
                                    "E0605",
                                    "a nested initializer",
                                    item.span,
                                ));
                            };
                            if !item.node.designation.is_empty() {
                                return Err(self.unsupported(
                                    "E0605",
                                    "a designated initializer",
                                    item.span,
                                ));
                            }
                            let (rhs, rty) = self.value(e)?;
                            self.check_assignable(ty, rty, e.span)?;
                            let s = self.stmt(
                                StmtKind::Assign {
                                    lhs: Expr::new(ExprKind::Index(
                                        name.clone(),
                                        vec![int_lit(k as i64)],
                                    )),
                                    rhs,
                                },
                                item.span,
                            );
                            out.push(s);
                        }
                        // C zero-fills the rest.
                        for k in items.len() as i64..extents[0] {
                            let zero = self.zero(ty);
                            let s = self.stmt(
                                StmtKind::Assign {
                                    lhs: Expr::new(ExprKind::Index(name.clone(), vec![int_lit(k)])),
                                    rhs: zero,
                                },
                                i.span,
                            );
                            out.push(s);
                        }
                    }
                    _ => {
                        return Err(self.unsupported("E0605", "this initializer", i.span));
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn zero(&self, ty: Ty) -> Expr {
        match ty {
            Ty::Real(k) => Expr::new(ExprKind::Real(RealLit {
                value: "0.0".into(),
                kind: k,
                spelling: None,
            })),
            _ => int_lit(0),
        }
    }

    pub(super) fn check_assignable(&mut self, to: Ty, from: Ty, at: CSpan) -> R<()> {
        if to.is_numeric() && from.is_numeric() {
            Ok(())
        } else {
            Err(self.unsupported(
                "E0605",
                "using the value of a comparison or logical operator as a number",
                at,
            ))
        }
    }
}

impl FnCx<'_, '_> {
    /// The names of a refused declaration: their uses say nothing more.
    fn refuse_names(&mut self, d: &Node<Declaration>) {
        for init in &d.node.declarators {
            if let Some(n) = declarator_name(&init.node.declarator.node) {
                self.refused_locals.insert(key(&n.node.il()));
            }
        }
    }

    /// Does every name `d` declares have an initializer, and does the function never
    /// assign it nor pass it to a function that may write it (`scan::written_params`;
    /// a function without a body here may), whole or as a pointer into it (`a + 2`)?
    fn read_only_static(&self, d: &Node<Declaration>) -> bool {
        d.node.declarators.iter().all(|init| {
            let Some(name) = declarator_name(&init.node.declarator.node).map(|n| n.node.il())
            else {
                return false;
            };
            init.node.initializer.is_some()
                && !self.heap.assigned.contains(&name)
                && !self.in_arguments.contains(&name)
                && self
                    .passes
                    .iter()
                    .filter(|(n, _, _)| *n == name)
                    .all(|(_, callee, k)| {
                        self.written_params
                            .get(callee)
                            .is_some_and(|w| !w.contains(k))
                    })
        })
    }
}
