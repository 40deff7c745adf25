//! The declarations of a generated unit, built from what its body refers to: the original
//! declarations it keeps (in their order, comments included), the derivatives beside their
//! primals, temporaries; and the signature that bindings and drivers read.

use super::*;

impl<'c, 'a> UnitGen<'c, 'a> {
    /// Declarations of the derivative unit: the original ones, each followed by the
    /// declaration of its variables' derivatives, then what the original declared
    /// another way (implicitly, by DIMENSION), then temporaries.
    pub fn declarations(&mut self, zeroed_args: &[String], body: &[Stmt]) -> Vec<Decl> {
        let referenced = il::visit::referenced_names(body);
        self.declarations_referring(zeroed_args, body, referenced)
    }

    /// [`Self::declarations`], given the names (keys) the body refers to.
    pub fn declarations_referring(
        &mut self,
        zeroed_args: &[String],
        body: &[Stmt],
        referenced: std::collections::BTreeSet<String>,
    ) -> Vec<Decl> {
        let mode = self.mode();
        let mut decls = Vec::new();
        // Variables the tape restores (pops and looks write them).
        let mut restored = std::collections::BTreeSet::new();
        il::visit::walk_stmts(body, &mut |s| {
            if let StmtKind::Tape(t) = &s.kind
                && t.op.writes()
                && let Some(n) = t.value.base_name()
            {
                restored.insert(key(n));
            }
        });
        let mut declared: Vec<String> = Vec::new();
        let deriv_intent = |primal: &str, intent: Option<Intent>| -> Option<Intent> {
            let is_dummy = self.unit.args.iter().any(|a| key(a) == key(primal));
            if !is_dummy {
                return None;
            }
            match mode {
                Mode::Adjoint => Some(Intent::InOut),
                Mode::Tangent if zeroed_args.iter().any(|z| key(z) == key(primal)) => {
                    Some(Intent::InOut)
                }
                Mode::Tangent => intent,
            }
        };
        // A function the derivative no longer calls (its derivative is called instead), or
        // a local the adjoint's forward sweep no longer computes, would be an unused name.
        // COMMON variables stay declared (the block's layout), and so do the variables of
        // a DATA set one of whose variables is still referenced.
        // The COMMON declarations need what the body itself refers to.
        let body_refers = (!self.ctx.ir.commons.is_empty()).then(|| referenced.clone());
        let mut referenced = referenced;
        for d in &self.unit.decls {
            if let DeclKind::Data(sets) = &d.kind {
                for set in sets {
                    if set
                        .names
                        .iter()
                        .any(|n| referenced.contains(crate::il::key_ref(n).as_ref()))
                    {
                        referenced.extend(set.names.iter().map(|n| key(n)));
                    }
                }
            }
        }
        // What kept declarations read (a constant's value, `radix(x)` of a local `x`; a
        // kept array's bounds) is kept too.
        loop {
            let kept: Vec<Decl> = self
                .unit
                .decls
                .iter()
                .filter_map(|d| {
                    d.restricted(
                        |e| match self.unit.symbols.get(&e.name) {
                            Some(s) if s.kind == il::SymbolKind::Constant => true,
                            _ => referenced.contains(crate::il::key_ref(&e.name).as_ref()),
                        },
                        d.span,
                    )
                })
                .collect();
            let before = referenced.len();
            referenced.extend(il::visit::decls_names(&kept));
            if referenced.len() == before {
                break;
            }
        }
        // EQUIVALENCEd variables stay declared: the EQUIVALENCE names them.
        let keeps = |name: &str| match self.unit.symbols.get(name) {
            Some(s) if s.kind == il::SymbolKind::Procedure => {
                referenced.contains(crate::il::key_ref(name).as_ref())
            }
            Some(s) if s.kind == il::SymbolKind::Variable && !s.is_dummy() => {
                referenced.contains(crate::il::key_ref(name).as_ref())
                    || s.global.is_some()
                    || self.uir.zones.is_shared(name)
            }
            _ => true,
        };
        // The derivative of a local that the generated body never names is not declared
        // (L-BFGS-B's `time2d`: -Wall's unused variable); dummies, globals, results and
        // EQUIVALENCEd variables keep theirs.
        let derivative_used = |primal: &str, d: &str| match self.unit.symbols.get(primal) {
            Some(s)
                if s.kind == il::SymbolKind::Variable
                    && !s.is_dummy()
                    && !s.is_result
                    && s.global.is_none()
                    && !self.uir.zones.is_shared(primal) =>
            {
                referenced.contains(crate::il::key_ref(d).as_ref())
            }
            _ => true,
        };
        for original in &self.unit.decls {
            let mut decl = original.clone();
            match &mut decl.kind {
                DeclKind::Var { entities, .. } | DeclKind::Dimension(entities) => {
                    entities.retain(|e| keeps(&e.name));
                }
                DeclKind::Data(sets) => {
                    sets.retain(|set| set.names.iter().any(|n| keeps(n)));
                }
                DeclKind::Save(names) if !names.is_empty() => {
                    names.retain(|n| n.starts_with('/') || keeps(n));
                }
                _ => {}
            }
            let emptied = matches!(&decl.kind,
                DeclKind::Var { entities, .. } | DeclKind::Dimension(entities) if entities.is_empty())
                || matches!(&decl.kind, DeclKind::Data(sets) if sets.is_empty())
                || matches!((&decl.kind, &original.kind),
                    (DeclKind::Save(names), DeclKind::Save(was)) if names.is_empty() && !was.is_empty());
            // The primal outputs of an adjoint are unspecified (INTERFACE.md §4): its
            // forward sweep may not set them, so they lose INTENT(OUT). An INTENT(IN)
            // dummy that a called procedure overwrites anyway (warning W0305) is restored
            // from the tape, so it becomes INTENT(INOUT) too.
            if mode == Mode::Adjoint {
                match &mut decl.kind {
                    DeclKind::Var {
                        attrs, entities, ..
                    } => {
                        let restored = entities
                            .iter()
                            .any(|e| restored.contains(crate::il::key_ref(&e.name).as_ref()));
                        for a in attrs.iter_mut() {
                            if matches!(a, Attr::Intent(Intent::Out))
                                || (restored && matches!(a, Attr::Intent(Intent::In)))
                            {
                                *a = Attr::Intent(Intent::InOut);
                            }
                        }
                    }
                    DeclKind::Intent(i, names)
                        if *i == Intent::Out
                            || (*i == Intent::In
                                && names.iter().any(|n| {
                                    restored.contains(crate::il::key_ref(n).as_ref())
                                })) =>
                    {
                        *i = Intent::InOut;
                    }
                    _ => {}
                }
            }
            if !emptied {
                decls.push(decl);
            }
            let decl = original;
            let DeclKind::Var {
                spec,
                attrs,
                entities,
            } = &decl.kind
            else {
                continue;
            };
            if attrs
                .iter()
                .any(|a| matches!(a, Attr::Parameter | Attr::External | Attr::Intrinsic))
            {
                continue;
            }
            for e in entities {
                declared.push(key(&e.name));
            }
            // A derived-type variable's derivative has the derivative type.
            let spec = &self.ctx.derivative_spec(spec);
            let derived: Vec<Entity> = entities
                .iter()
                .filter_map(|e| {
                    let d = self.deriv_name(&e.name)?;
                    if !derivative_used(&e.name, d) {
                        return None;
                    }
                    // Dimensions given by a DIMENSION statement apply to the derivative too.
                    let has_dim_attr = attrs.iter().any(|a| matches!(a, Attr::Dimension(_)));
                    let dims = e.dims.clone().or_else(|| {
                        let sym = self.unit.symbols.get(&e.name)?;
                        (!has_dim_attr && sym.is_array()).then(|| sym.dims.clone())
                    });
                    Some(Entity {
                        name: d.to_string(),
                        dims,
                        init: None,
                        span: Span::default(),
                    })
                })
                .collect();
            if derived.is_empty() {
                continue;
            }
            let with_derivative = |e: &&Entity| {
                self.deriv_name(&e.name)
                    .is_some_and(|d| derivative_used(&e.name, d))
            };
            let primal = &entities
                .iter()
                .find(with_derivative)
                .expect("non-empty")
                .name;
            let old_intent = attrs.iter().find_map(|a| match a {
                Attr::Intent(i) => Some(*i),
                _ => None,
            });
            // A derivative keeps its primal's shape; it is passed by value like its primal
            // in tangent mode, by reference in adjoint mode (it is an output there).
            let mut new_attrs: Vec<Attr> = attrs
                .iter()
                .filter(|a| {
                    matches!(
                        a,
                        Attr::Dimension(_) | Attr::Allocatable | Attr::Optional | Attr::RowPointers
                    ) || (matches!(a, Attr::Value) && mode == Mode::Tangent)
                })
                .cloned()
                .collect();
            if let Some(i) = deriv_intent(primal, old_intent) {
                new_attrs.insert(0, Attr::Intent(i));
            }
            // Entities of one declaration share intent: split when they differ.
            let mut same: Vec<Entity> = Vec::new();
            for (e, d) in entities.iter().filter(with_derivative).zip(derived) {
                if deriv_intent(&e.name, old_intent) == deriv_intent(primal, old_intent) {
                    same.push(d);
                } else {
                    let mut attrs2: Vec<Attr> = new_attrs
                        .iter()
                        .filter(|a| !matches!(a, Attr::Intent(_)))
                        .cloned()
                        .collect();
                    if let Some(i) = deriv_intent(&e.name, old_intent) {
                        attrs2.insert(0, Attr::Intent(i));
                    }
                    decls.push(Decl {
                        kind: DeclKind::Var {
                            spec: spec.clone(),
                            attrs: attrs2,
                            entities: vec![d],
                        },
                        span: Span::default(),
                    });
                }
            }
            if !same.is_empty() {
                decls.push(Decl {
                    kind: DeclKind::Var {
                        spec: spec.clone(),
                        attrs: new_attrs,
                        entities: same,
                    },
                    span: Span::default(),
                });
            }
        }
        // A function result typed only in the function statement is now a variable.
        if let Some(r) = &self.unit.result {
            if !declared.contains(&crate::il::key(r))
                && referenced.contains(crate::il::key_ref(r).as_ref())
            {
                if let Some(s) = self.unit.symbols.get(r) {
                    decls.push(var_decl(s.type_spec.clone(), Vec::new(), r, &s.dims));
                }
            }
        }
        // Variables declared implicitly or by DIMENSION statements (module variables'
        // derivatives are in the derivative module).
        for symbol in self.unit.symbols.iter() {
            if symbol.name.contains('%') || symbol.is_module_variable() {
                continue;
            }
            let Some(d) = self.deriv_name(&symbol.name) else {
                continue;
            };
            if declared.contains(&crate::il::key(&symbol.name)) || !derivative_used(&symbol.name, d)
            {
                continue;
            }
            let mut attrs = Vec::new();
            if let Some(i) = deriv_intent(&symbol.name, symbol.intent) {
                attrs.push(Attr::Intent(i));
            }
            // A derived type's derivative has the derivative type (`type(vec) function
            // twist(a)`: `twistd` is a `type(vec_d)`).
            let spec = if symbol.ty == ScalarType::Derived {
                self.ctx.derivative_spec(&symbol.type_spec)
            } else {
                symbol.type_spec.clone()
            };
            decls.push(var_decl(spec, attrs, d, &symbol.dims));
        }
        // The derivatives of EQUIVALENCEd variables share storage as their primals do.
        for original in &self.unit.decls {
            let DeclKind::Equivalence(sets) = &original.kind else {
                continue;
            };
            let sets: Vec<Vec<Expr>> = sets
                .iter()
                .map(|set| set.iter().filter_map(|e| self.dref(e)).collect::<Vec<_>>())
                .filter(|set| set.len() > 1)
                .collect();
            if !sets.is_empty() {
                decls.push(Decl {
                    kind: DeclKind::Equivalence(sets),
                    span: Span::default(),
                });
            }
        }
        for (name, spec) in &self.called_functions {
            decls.push(Decl {
                kind: DeclKind::Var {
                    spec: spec.clone(),
                    attrs: vec![Attr::External],
                    entities: vec![Entity {
                        name: name.clone(),
                        dims: None,
                        init: None,
                        span: Span::default(),
                    }],
                },
                span: Span::default(),
            });
        }
        for t in &self.temps {
            decls.push(var_decl(t.spec.clone(), Vec::new(), &t.name, &t.dims));
        }
        if let Some(body_refers) = &body_refers {
            self.add_common_declarations(&mut decls, body_refers);
        }
        decls
    }

    /// The signature of the generated unit, when this unit is a root.
    pub fn signature(&self, generated: &Unit) -> Signature {
        let root = self.root.expect("signature asked for a root");
        let originals: BTreeMap<String, String> = self
            .unit
            .args
            .iter()
            .map(|a| (key(a), a.clone()))
            .chain(self.deriv_names.iter().filter_map(|(p, d)| {
                let orig = self.unit.args.iter().find(|a| key(a) == *p)?;
                Some((key(d), orig.clone()))
            }))
            .collect();
        let args = generated
            .args
            .iter()
            .map(|a| {
                let original = originals.get(crate::il::key_ref(a).as_ref()).cloned();
                let is_derivative = match &original {
                    Some(o) => key(o) != key(a),
                    None => self.mode() == Mode::Adjoint,
                };
                SigArg {
                    name: a.clone(),
                    original,
                    is_derivative,
                }
            })
            .collect();
        Signature {
            root: root.name.clone(),
            mode: self.mode(),
            unit: generated.name.clone(),
            args,
            is_function: self.unit.is_function(),
            module: self.ctx.derivative_host(self.unit),
        }
    }
}

/// `spec, attrs :: name(dims)`.
pub fn var_decl(spec: TypeSpec, attrs: Vec<Attr>, name: &str, dims: &[il::DimSpec]) -> Decl {
    Decl {
        kind: DeclKind::Var {
            spec,
            attrs,
            entities: vec![Entity {
                name: name.to_string(),
                dims: (!dims.is_empty()).then(|| dims.to_vec()),
                init: None,
                span: Span::default(),
            }],
        },
        span: Span::default(),
    }
}
