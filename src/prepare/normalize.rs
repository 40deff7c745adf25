//! Preparation of the IL for differentiation: every call of a real-valued function that
//! sits inside a larger expression of an assignment or of a call's arguments is hoisted
//! into its own assignment to a temporary (seeds/000 §4.5: a differentiated call cannot be
//! interleaved inside an expression). `y = f(x)` alone is left as it is.

use crate::diag::Span;
use crate::il::{
    Decl, DeclKind, Entity, Expr, ExprKind, Program, Stmt, StmtId, StmtKind, Symbol, SymbolKind,
    Unit, UnitIndex,
};

use crate::il::names::Namer;

/// Returns the program with calls hoisted; statement ids of new statements continue after
/// the largest id in `program`.
pub fn normalize(program: Program) -> Program {
    let mut next_id = max_stmt_id(&program) + 1;
    // The units that call functions are changed in copies, while the program is read
    // for the functions' result types; the others are left as they are.
    let mut changed = Vec::new();
    {
        let index = program.index();
        for (f, file) in program.files.iter().enumerate() {
            for (u, unit) in file.units.iter().enumerate() {
                if !calls_functions(unit) {
                    continue;
                }
                let mut unit = unit.clone();
                normalize_unit(&mut unit, &index, &mut next_id);
                changed.push((f, u, unit));
            }
        }
    }
    let mut out = program;
    for (f, u, unit) in changed {
        out.files[f].units[u] = unit;
    }
    out
}

/// Whether any expression of `unit` calls a function (not an intrinsic).
fn calls_functions(unit: &Unit) -> bool {
    let mut found = false;
    crate::il::visit::walk_stmts(&unit.body, &mut |s| {
        for e in crate::il::visit::stmt_exprs(s) {
            crate::il::visit::walk_expr(e, &mut |x| {
                found |= matches!(x.kind, ExprKind::Call(..));
            });
        }
    });
    found
}

fn max_stmt_id(program: &Program) -> u32 {
    let mut max = 0;
    for unit in program.units() {
        crate::il::visit::walk_stmts(&unit.body, &mut |s| {
            if s.id != StmtId::GENERATED {
                max = max.max(s.id.0);
            }
        });
    }
    max
}

struct Hoister<'a> {
    program: &'a UnitIndex<'a>,
    namer: Namer,
    next_id: &'a mut u32,
    new_symbols: Vec<Symbol>,
    /// The components of derived-type temporaries (`result%x`).
    new_components: Vec<Symbol>,
}

fn normalize_unit(unit: &mut Unit, program: &UnitIndex, next_id: &mut u32) {
    let namer = Namer::with_shared(
        program.names(),
        unit.symbols.iter().map(|s| s.name.as_str()),
    );
    let mut h = Hoister {
        program,
        namer,
        next_id,
        new_symbols: Vec::new(),
        new_components: Vec::new(),
    };
    let body = std::mem::take(&mut unit.body);
    unit.body = h.block(body, unit);
    // Components of temporaries are declared with them, by their types.
    for symbol in h.new_components {
        unit.symbols.insert(symbol);
    }
    for symbol in h.new_symbols {
        unit.decls.push(Decl {
            kind: DeclKind::Var {
                spec: symbol.type_spec.clone(),
                attrs: Vec::new(),
                entities: vec![Entity {
                    name: symbol.name.clone(),
                    dims: None,
                    init: None,
                    span: Span::default(),
                }],
            },
            span: Span::default(),
        });
        unit.symbols.insert(symbol);
    }
}

impl Hoister<'_> {
    fn block(&mut self, stmts: Vec<Stmt>, unit: &Unit) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(stmts.len());
        for stmt in stmts {
            self.stmt(stmt, unit, &mut out);
        }
        out
    }

    fn stmt(&mut self, mut stmt: Stmt, unit: &Unit, out: &mut Vec<Stmt>) {
        let mut hoisted = Vec::new();
        match &mut stmt.kind {
            StmtKind::Assign { rhs, .. } => {
                if let ExprKind::Call(_, args) = &mut rhs.kind {
                    for a in args.iter_mut() {
                        self.expr(&mut a.value, unit, &mut hoisted);
                    }
                } else {
                    self.expr(rhs, unit, &mut hoisted);
                }
            }
            StmtKind::Call { args, .. } => {
                for a in args.iter_mut() {
                    self.expr(&mut a.value, unit, &mut hoisted);
                }
            }
            StmtKind::If {
                arms,
                else_body,
                logical_if,
                ..
            } => {
                for (_, body) in arms.iter_mut() {
                    let n = body.len();
                    *body = self.block(std::mem::take(body), unit);
                    if body.len() != n {
                        *logical_if = false;
                    }
                }
                if let Some(b) = else_body {
                    *b = self.block(std::mem::take(b), unit);
                }
            }
            StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => {
                *body = self.block(std::mem::take(body), unit);
            }
            _ => {}
        }
        out.extend(hoisted);
        out.push(stmt);
    }

    /// Replaces real-valued calls inside `expr` (not in subscripts) by temporaries.
    fn expr(&mut self, expr: &mut Expr, unit: &Unit, hoisted: &mut Vec<Stmt>) {
        match &mut expr.kind {
            ExprKind::Call(name, args) => {
                for a in args.iter_mut() {
                    self.expr(&mut a.value, unit, hoisted);
                }
                let Some(result) = self.result_symbol(name, unit) else {
                    return;
                };
                let temp = self.namer.fresh("result");
                let symbol = Symbol {
                    name: temp.clone(),
                    kind: SymbolKind::Variable,
                    dims: Vec::new(),
                    intent: None,
                    arg_index: None,
                    is_result: false,
                    implicit: false,
                    span: Span::default(),
                    global: None,
                    ..result
                };
                // A derived-type result's components, named from the temporary
                // (`result%x`), as the analyses and the derivative's zeroing see them.
                if symbol.ty == crate::il::ScalarType::Derived {
                    let components = self.result_components(name, &temp);
                    self.new_components.extend(components);
                }
                self.new_symbols.push(symbol);
                let call = std::mem::replace(
                    expr,
                    Expr {
                        kind: ExprKind::Var(temp.clone()),
                        span: expr.span,
                    },
                );
                let id = StmtId(*self.next_id);
                *self.next_id += 1;
                hoisted.push(Stmt {
                    id,
                    kind: StmtKind::Assign {
                        lhs: Expr::var(temp),
                        rhs: call,
                    },
                    span: expr.span,
                    label: None,
                    trailing_comment: None,
                });
            }
            ExprKind::Intrinsic { args, .. } => {
                for a in args.iter_mut() {
                    self.expr(&mut a.value, unit, hoisted);
                }
            }
            ExprKind::Unary(_, e) | ExprKind::Paren(e) => self.expr(e, unit, hoisted),
            ExprKind::Binary(op, a, b) if op.is_arithmetic() => {
                self.expr(a, unit, hoisted);
                self.expr(b, unit, hoisted);
            }
            _ => {}
        }
    }

    /// The component symbols of function `name`'s derived-type result, renamed to be
    /// those of `temp` (`c%x` → `result%x`).
    fn result_components(&self, name: &str, temp: &str) -> Vec<Symbol> {
        let Some(callee) = self.program.unit(name) else {
            return Vec::new();
        };
        let Some(r) = callee.result.as_deref() else {
            return Vec::new();
        };
        callee
            .symbols
            .components_of(r)
            .map(|c| {
                let path = c.name.get(r.len()..).unwrap_or_default();
                Symbol {
                    name: format!("{temp}{path}"),
                    intent: None,
                    arg_index: None,
                    is_result: false,
                    global: None,
                    span: Span::default(),
                    ..c.clone()
                }
            })
            .collect()
    }

    /// The symbol describing the result of function `name`, when it is real.
    fn result_symbol(&self, name: &str, unit: &Unit) -> Option<Symbol> {
        // The caller's own declaration spells the type in the caller's terms (its kind
        // parameters); otherwise the callee's result type with a literal kind.
        let symbol = match unit.symbols.get(name) {
            Some(s) => s.clone(),
            None => {
                let callee = self.program.unit(name)?;
                let mut s = callee
                    .result
                    .as_deref()
                    .and_then(|r| callee.symbols.get(r))?
                    .clone();
                s.type_spec = crate::il::TypeSpec::of(s.ty);
                s
            }
        };
        symbol.ty.is_differentiable().then_some(symbol)
    }
}
