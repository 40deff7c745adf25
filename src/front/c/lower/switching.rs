//! Pointers that switch arrays: a local pointer made to point into one array in one place
//! and into another elsewhere (`double *xp = x2; ... xp = &s[i];`, as ADBench's LSTM
//! steps its layers). Besides its offset ([`PtrVar`]) such a pointer gets a selector
//! `p_sel`: the position (from 1) of the array it points into, in the list its function
//! body shows. A statement that uses it is lowered once per array, each copy under
//! `if (p_sel == k)`: every copy names its array, so the analyses and the
//! differentiation see plain array accesses, and the adjoint replays the branch the
//! forward run took. Only statements (expression statements, `return`, initializers)
//! dispatch; a switching pointer in a condition or a loop header is refused (E0605).

use std::collections::{BTreeMap, BTreeSet};

use lang_c::ast::*;
use lang_c::span::{Node, Span as CSpan};
use lang_c::visit::Visit;

use super::*;
use crate::il::{BinOp, Expr, Stmt, StmtKind, key};

/// Most copies of one statement that its switching pointers may ask for.
const MAX_COPIES: usize = 8;

/// What a switching pointer may point into.
#[derive(Clone, Debug)]
pub(super) struct Switch {
    /// The pointer's C name (as the statements spell it).
    pub(super) name: String,
    /// The IL integer variable holding the position of the array pointed into.
    pub(super) sel: String,
    /// The arrays (C names) in order of first appearance in the body.
    pub(super) bases: Vec<String>,
}

/// For each local pointer of a function body, the names it is set to point into (C
/// names, in order of appearance), pointers resolved to what they point into. Whether a
/// name is an array is for the caller to tell: `p = k + a` gives both `k` and `a`.
pub(super) fn pointer_targets(body: &Statement) -> BTreeMap<String, Vec<String>> {
    #[derive(Default)]
    struct Scan {
        declared: BTreeSet<String>,
        targets: Vec<(String, String)>,
    }
    impl Scan {
        fn target(&mut self, pointer: &str, e: &Expression) {
            let mut names = Vec::new();
            named_arrays(e, &mut names);
            for n in names {
                self.targets.push((pointer.to_string(), n));
            }
        }
    }
    impl<'ast> Visit<'ast> for Scan {
        fn visit_init_declarator(&mut self, d: &'ast InitDeclarator, span: &'ast CSpan) {
            let decl = &d.declarator.node;
            if let (
                Some(name),
                [
                    Node {
                        node: DerivedDeclarator::Pointer(_),
                        ..
                    },
                ],
            ) = (declarator_name(decl), decl.derived.as_slice())
            {
                self.declared.insert(name.node.il());
                if let Some(Node {
                    node: Initializer::Expression(e),
                    ..
                }) = &d.initializer
                {
                    self.target(&name.node.il(), &e.node);
                }
            }
            lang_c::visit::visit_init_declarator(self, d, span);
        }
        fn visit_binary_operator_expression(
            &mut self,
            b: &'ast BinaryOperatorExpression,
            span: &'ast CSpan,
        ) {
            if b.operator.node == BinaryOperator::Assign {
                if let Expression::Identifier(id) = &b.lhs.node {
                    self.target(&id.node.il(), &b.rhs.node);
                }
            }
            lang_c::visit::visit_binary_operator_expression(self, b, span);
        }
    }
    let mut scan = Scan::default();
    scan.visit_statement(body, &CSpan::none());
    let mut direct: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (p, t) in &scan.targets {
        if scan.declared.contains(p) {
            direct.entry(p.as_str()).or_default().push(t.as_str());
        }
    }
    // Resolve pointers to what they point into, with an explicit stack (a chain of
    // pointers as long as the input must not overflow the native stack).
    let mut out = BTreeMap::new();
    for &p in direct.keys() {
        let mut found: Vec<String> = Vec::new();
        let mut seen: BTreeSet<&str> = BTreeSet::from([p]);
        let mut stack: Vec<&str> = direct[p].iter().rev().copied().collect();
        while let Some(n) = stack.pop() {
            if scan.declared.contains(n) {
                if seen.insert(n) {
                    if let Some(next) = direct.get(n) {
                        stack.extend(next.iter().rev().copied());
                    }
                }
            } else if !found.iter().any(|f| f == n) {
                found.push(n.to_string());
            }
        }
        out.insert(p.to_string(), found);
    }
    out
}

/// The names a pointer expression may point into: `a`, `&a[i]`, `a + k` (both names:
/// which is the array is for the caller to tell).
fn named_arrays(e: &Expression, out: &mut Vec<String>) {
    match e {
        Expression::Identifier(id) => out.push(id.node.il()),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            if let Expression::BinaryOperator(b) = &u.node.operand.node {
                if b.node.operator.node == BinaryOperator::Index {
                    if let Expression::Identifier(id) = &b.node.lhs.node {
                        out.push(id.node.il());
                    }
                }
            }
        }
        Expression::BinaryOperator(b) => match b.node.operator.node {
            BinaryOperator::Plus => {
                named_arrays(&b.node.lhs.node, out);
                named_arrays(&b.node.rhs.node, out);
            }
            BinaryOperator::Minus => named_arrays(&b.node.lhs.node, out),
            _ => {}
        },
        _ => {}
    }
}

impl FnCx<'_, '_> {
    /// The switch of the local pointer `name` being declared, when the function body makes
    /// it point into more than one array.
    pub(super) fn switch_of(&mut self, name: &str, at: CSpan) -> Option<Switch> {
        let targets = self.targets.get(name)?.clone();
        // Names declared so far that are not arrays (an integer `k` of `p = k + a`) go;
        // names not declared yet are arrays declared later in the body.
        let bases: Vec<String> = targets
            .into_iter()
            .filter(|t| match self.vars.get(crate::il::key_ref(t).as_ref()) {
                Some(v) => matches!(
                    v.kind,
                    VarKind::ArrayParam
                        | VarKind::LocalArray(_)
                        | VarKind::Heap(_)
                        | VarKind::RowsParam(_)
                        | VarKind::RowPtrs
                ),
                None => true,
            })
            .collect();
        if bases.len() < 2 {
            return None;
        }
        let sel = self.int_var(&format!("{name}_sel"), at);
        Some(Switch {
            name: name.to_string(),
            sel,
            bases,
        })
    }

    /// The array a switching pointer points into in the copy of the statement being
    /// lowered.
    pub(super) fn switched_base(&mut self, sw: &Switch, at: CSpan) -> R<Base> {
        let Some(&k) = self.pick.get(&key(&sw.name)) else {
            let e = self.unsupported(
                "E0605",
                &format!(
                    "using `{}`, a pointer into `{}` or `{}` depending on the run, in a \
                     condition or a loop header",
                    sw.name,
                    sw.bases[0],
                    sw.bases[1..].join("` or `")
                ),
                at,
            );
            self.diags
                .last_mut()
                .expect("a diagnostic was just pushed")
                .help = Some("read the value into a local variable in a statement before".into());
            return Err(e);
        };
        let cname = sw.bases[k].clone();
        let v = self.var(&cname, at)?;
        match v.kind {
            VarKind::ArrayParam | VarKind::Heap(None) => Ok(Base::array(v.name)),
            VarKind::LocalArray(ext) if ext.len() == 1 => Ok(Base::array(v.name)),
            _ => Err(self.unsupported(
                "E0605",
                &format!(
                    "the pointer `{}` pointing into `{cname}` and into another array: only \
                     1-D arrays can be switched between",
                    sw.name
                ),
                at,
            )),
        }
    }

    /// The position (from 0) of the IL array `base` in a switch.
    pub(super) fn switch_position(&mut self, sw: &Switch, base: &str) -> Option<usize> {
        (0..sw.bases.len()).find(|&k| {
            self.vars
                .get(crate::il::key_ref(&sw.bases[k]).as_ref())
                .is_some_and(|v| v.name == base)
        })
    }

    /// `p = <pointer expression>` for a switching pointer: its selector and its offset.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn point_switch(
        &mut self,
        sw: &Switch,
        name: &str,
        base: String,
        row: Option<Expr>,
        off: Option<Expr>,
        value: CSpan,
        at: CSpan,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let position = self.switch_position(sw, &base).filter(|_| row.is_none());
        let Some(k) = position else {
            return Err(self.unsupported(
                "E0605",
                &format!(
                    "making `{name}` point here: adgen follows a pointer that switches arrays \
                     only between 1-D arrays named where it is set"
                ),
                value,
            ));
        };
        let sel = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&sw.sel),
                rhs: int_lit(k as i64 + 1),
            },
            at,
        );
        out.push(sel);
        let off_var = self.pointers[&key(name)].off.clone();
        let st = self.stmt(
            StmtKind::Assign {
                lhs: Expr::var(&off_var),
                rhs: off.unwrap_or_else(|| int_lit(0)),
            },
            at,
        );
        out.push(st);
        Ok(())
    }

    /// The switching pointers a statement uses (not counting the pointer it sets).
    fn switches_used(&self, source: &Node<Expression>) -> Vec<Switch> {
        // Every statement comes here: most functions have no switching pointer.
        if self.pointers.values().all(|p| p.switch.is_none()) {
            return Vec::new();
        }
        let target = self.moving_target(source);
        self.pointers
            .values()
            .filter_map(|p| p.switch.as_ref())
            .filter(|sw| {
                let own = usize::from(target.as_deref() == Some(sw.name.as_str()));
                count_identifier(&source.node, &sw.name) > own
            })
            .cloned()
            .collect()
    }

    /// Lowers a statement once per combination of the arrays its switching pointers point
    /// into, each copy under `if (p_sel == k)`; a statement that uses none, once.
    pub(super) fn dispatched(
        &mut self,
        out: &mut Vec<Stmt>,
        source: &Node<Expression>,
        mut f: impl FnMut(&mut Self, &mut Vec<Stmt>) -> R<()>,
    ) -> R<()> {
        let used = if self.pick.is_empty() {
            self.switches_used(source)
        } else {
            Vec::new()
        };
        if used.is_empty() {
            return f(self, out);
        }
        let copies = used
            .iter()
            .try_fold(1usize, |n, sw| n.checked_mul(sw.bases.len()))
            .filter(|&n| n <= MAX_COPIES);
        let Some(copies) = copies else {
            let names: Vec<&str> = used.iter().map(|s| s.name.as_str()).collect();
            return Err(self.unsupported(
                "E0605",
                &format!(
                    "a statement using the pointers `{}`, which switch between too many \
                     arrays (more than {MAX_COPIES} combinations)",
                    names.join("`, `")
                ),
                source.span,
            ));
        };
        let mut arms = Vec::new();
        for combo in 0..copies {
            let mut rest = combo;
            let mut cond: Option<Expr> = None;
            for sw in &used {
                let k = rest % sw.bases.len();
                rest /= sw.bases.len();
                self.pick.insert(key(&sw.name), k);
                let test = Expr::binary(BinOp::Eq, Expr::var(&sw.sel), int_lit(k as i64 + 1));
                cond = Some(match cond {
                    None => test,
                    Some(c) => Expr::binary(BinOp::And, c, test),
                });
            }
            let mut body = Vec::new();
            let r = f(self, &mut body);
            self.pick.clear();
            r?;
            arms.push((cond.expect("at least one switching pointer"), body));
        }
        let (_, last) = arms.pop().expect("at least two copies");
        let st = self.stmt(
            StmtKind::If {
                arms,
                else_body: Some(last),
                logical_if: false,
                name: None,
            },
            source.span,
        );
        out.push(st);
        Ok(())
    }
}
