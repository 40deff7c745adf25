//! C statements: assignments (whole arrays as loops), calls, IF chains, DO and DO WHILE as
//! for/while loops with the labels that named EXIT and CYCLE need, jumps, the runtime's tape
//! calls, and frees of the heap arrays before every return.

use super::*;

impl Cx<'_> {
    pub(super) fn block(&self, out: &mut String, body: &[Stmt], depth: usize) {
        for s in body {
            self.stmt(out, s, depth);
        }
    }

    pub(super) fn stmt(&self, out: &mut String, s: &Stmt, depth: usize) {
        let ind = indent(depth);
        if let Some(label) = &s.label {
            if self.goto_targets.contains(&**label) {
                writeln!(out, "{}L{label}:;", indent(depth.saturating_sub(1))).unwrap();
            }
        }
        let trailing = s
            .trailing_comment
            .as_ref()
            .map(|c| format!(" /*{} */", c.replace("*/", "* /")))
            .unwrap_or_default();
        match &s.kind {
            StmtKind::Assign { lhs, rhs } if self.whole_array(lhs).is_some() => {
                self.array_assign(out, lhs, rhs, depth, &trailing);
            }
            StmtKind::Assign { lhs, rhs } => {
                let l = match &lhs.kind {
                    ExprKind::Var(n) => self.var_value(n),
                    ExprKind::Index(n, subs) => self.element(n, subs),
                    _ => self.expr(lhs),
                };
                writeln!(out, "{ind}{l} = {};{trailing}", self.expr(rhs)).unwrap();
            }
            StmtKind::If {
                arms, else_body, ..
            } => {
                for (i, (c, b)) in arms.iter().enumerate() {
                    if i == 0 {
                        writeln!(out, "{ind}if ({}) {{{trailing}", self.expr(c)).unwrap();
                    } else {
                        writeln!(out, "{ind}}} else if ({}) {{", self.expr(c)).unwrap();
                    }
                    self.block(out, b, depth + 1);
                }
                if let Some(b) = else_body {
                    if arms.is_empty() {
                        self.block(out, b, depth);
                        return;
                    }
                    writeln!(out, "{ind}}} else {{").unwrap();
                    self.block(out, b, depth + 1);
                }
                if !arms.is_empty() {
                    writeln!(out, "{ind}}}").unwrap();
                }
            }
            StmtKind::Do {
                var,
                start,
                end,
                step,
                body,
                name,
            } => self.do_loop(out, s, var, start, end, step.as_deref(), body, name, depth),
            StmtKind::DoWhile { cond, body, name } => {
                writeln!(out, "{ind}while ({}) {{{trailing}", self.expr(cond)).unwrap();
                self.loop_body(out, body, name, depth);
                writeln!(out, "{ind}}}").unwrap();
                self.after_loop(out, depth);
            }
            StmtKind::Exit { name } => {
                let text = self.jump(name.as_deref(), true);
                writeln!(out, "{ind}{text}{trailing}").unwrap();
            }
            StmtKind::Cycle { name } => {
                let text = self.jump(name.as_deref(), false);
                writeln!(out, "{ind}{text}{trailing}").unwrap();
            }
            StmtKind::Call { name, args } => {
                writeln!(
                    out,
                    "{ind}{name}({});{trailing}",
                    self.call_args(name, args).join(", ")
                )
                .unwrap();
            }
            // The default lowering: a call of the bundled runtime.
            StmtKind::Tape(t) => {
                let cname = runtime_routine(t);
                if let Some(text) = cname.strip_suffix("_array").and_then(|scalar| {
                    let pop = t.op == TapeOp::Pop;
                    self.view_push_pop(scalar, pop, &t.value, depth, &trailing)
                }) {
                    out.push_str(&text);
                    return;
                }
                let value = &t.value;
                // Rows of their own memory: a block per row, popped last row first.
                let rows = match (&value.kind, &t.count) {
                    (ExprKind::Var(n), Some(_)) => self.var(n).filter(|v| scope::row_pointers(v)),
                    _ => None,
                };
                if let Some(v) = rows {
                    let (cols, rows) = (self.extent(&v.dims[0]), self.extent(&v.dims[1]));
                    let name = self.c_name(value.base_name().unwrap_or_default());
                    let r = "adgen_row";
                    let range = if t.op == TapeOp::Pop {
                        format!("int {r} = ({rows}) - 1; {r} >= 0; {r}--")
                    } else {
                        format!("int {r} = 0; {r} < {rows}; {r}++")
                    };
                    writeln!(out, "{ind}for ({range}){trailing}").unwrap();
                    writeln!(out, "{ind}  {cname}({name}[{r}], {cols});").unwrap();
                    return;
                }
                let a: Vec<String> = if let Some(count) = &t.count {
                    vec![self.address(value, self.type_of(value)), self.expr(count)]
                } else if t.op == TapeOp::Push && t.ty.pushed_by_value() {
                    vec![self.expr(value)]
                } else {
                    vec![self.address(value, self.type_of(value))]
                };
                writeln!(out, "{ind}{cname}({});{trailing}", a.join(", ")).unwrap();
            }
            StmtKind::Return => {
                let text = match (&self.unit.kind, &self.unit.result) {
                    (UnitKind::Function, Some(r)) => format!("return {};", self.var_value(r)),
                    _ => "return;".to_string(),
                };
                out.push_str(&self.free_heap(depth));
                writeln!(out, "{ind}{text}{trailing}").unwrap();
            }
            StmtKind::Continue => {
                if !trailing.is_empty() {
                    writeln!(out, "{ind};{trailing}").unwrap();
                }
            }
            StmtKind::Goto { label } => {
                writeln!(out, "{ind}goto L{label};{trailing}").unwrap();
            }
            // The C front-end makes none of these; print their IF form should one come.
            StmtKind::ComputedGoto { .. }
            | StmtKind::ArithmeticIf { .. }
            | StmtKind::Select { .. } => {
                if let Some(kind) = crate::il::structured::lowered(&s.kind) {
                    let lowered = Stmt { kind, ..s.clone() };
                    self.stmt(out, &lowered, depth);
                }
            }
            StmtKind::Comment(text) => {
                writeln!(out, "{ind}/*{} */", text.replace("*/", "* /")).unwrap();
            }
            // Output and `exit` of a C source are kept as written (their text ends with
            // its `;`); a Fortran statement printed as C is a comment.
            StmtKind::Io { text, .. } if text.ends_with(';') => {
                writeln!(out, "{ind}{text}{trailing}").unwrap();
            }
            StmtKind::Io { text, .. } => {
                writeln!(out, "{ind}/* {} */", text.replace("*/", "* /")).unwrap();
            }
            // `w = malloc(...)` of a C source (printed for the round trip; differentiation
            // turns such arrays into heap arrays of the whole procedure first).
            StmtKind::Allocate(items) => {
                for item in items {
                    let text = match &item.kind {
                        ExprKind::Index(name, subs) => {
                            let extents: Vec<String> = subs
                                .iter()
                                .map(|s| {
                                    let dim = match &s.kind {
                                        ExprKind::Range {
                                            lower,
                                            upper: Some(upper),
                                            stride: None,
                                        } => DimSpec {
                                            lower: lower.as_deref().cloned(),
                                            upper: Bound::Expr((**upper).clone()),
                                        },
                                        _ => DimSpec {
                                            lower: None,
                                            upper: Bound::Expr(s.clone()),
                                        },
                                    };
                                    format!("({})", self.extent(&dim))
                                })
                                .collect();
                            let ty = self.var(name).map(|v| v.ty).unwrap_or(ScalarType::Real(8));
                            format!(
                                "{name} = malloc(sizeof({}) * {});",
                                c_type(ty),
                                extents.join(" * ")
                            )
                        }
                        _ => "/* unsupported allocation */".to_string(),
                    };
                    writeln!(out, "{ind}{text}{trailing}").unwrap();
                }
            }
            StmtKind::Deallocate(items) => {
                for item in items {
                    writeln!(out, "{ind}free({});{trailing}", self.expr(item)).unwrap();
                }
            }
            // Fortran array constructs never reach the C back-end (scalarized first).
            StmtKind::Where { .. } | StmtKind::Forall { .. } => {
                writeln!(out, "{ind}/* array construct */").unwrap();
            }
        }
    }

    /// The dimensions of `e` when it names a whole array.
    pub(super) fn whole_array(&self, e: &Expr) -> Option<&[DimSpec]> {
        match &e.kind {
            ExprKind::Var(n) => self
                .var(n)
                .filter(|v| !v.dims.is_empty())
                .map(|v| v.dims.as_slice()),
            ExprKind::Paren(x) => self.whole_array(x),
            _ => None,
        }
    }

    /// `e` with every whole array of the given rank replaced by its element `subs`.
    pub(super) fn elementwise(&self, e: &Expr, subs: &[Expr]) -> Expr {
        let mut e = e.clone();
        self.elementwise_in(&mut e, subs);
        e
    }

    pub(super) fn elementwise_in(&self, e: &mut Expr, subs: &[Expr]) {
        match &mut e.kind {
            ExprKind::Var(n) if self.whole_array(&Expr::var(n.clone())).is_some() => {
                e.kind = ExprKind::Index(n.clone(), subs.to_vec());
            }
            ExprKind::Var(_) | ExprKind::Index(..) => {}
            ExprKind::Call(_, args) | ExprKind::Intrinsic { args, .. } => {
                for a in args {
                    self.elementwise_in(&mut a.value, subs);
                }
            }
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => self.elementwise_in(x, subs),
            ExprKind::Binary(_, a, b) => {
                self.elementwise_in(a, subs);
                self.elementwise_in(b, subs);
            }
            _ => {}
        }
    }

    /// Opens a block `{ int adgen_iN_0, ...;` and one `for` per dimension over all the
    /// elements, the last dimension outermost (the first subscript runs fastest, as in
    /// memory); `down` runs every loop from its upper bound down. Returns the loop
    /// variables and the depth of the innermost body; the caller closes the block.
    pub(super) fn open_loop_nest(
        &self,
        out: &mut String,
        dims: &[DimSpec],
        depth: usize,
        trailing: &str,
        down: bool,
    ) -> (Vec<String>, usize) {
        let ind = indent(depth);
        let n = {
            let mut f = self.fresh.borrow_mut();
            *f += 1;
            *f
        };
        let names: Vec<String> = (0..dims.len()).map(|k| format!("adgen_i{n}_{k}")).collect();
        writeln!(out, "{ind}{{{trailing}").unwrap();
        writeln!(out, "{ind}  int {};", names.join(", ")).unwrap();
        let mut d = depth + 1;
        for (k, dim) in dims.iter().enumerate().rev() {
            let lower = dim
                .lower
                .as_ref()
                .map(|l| self.expr(l))
                .unwrap_or_else(|| "1".into());
            let upper = match &dim.upper {
                Bound::Expr(u) => self.expr_at(u, Level::Add),
                Bound::Star | Bound::Colon => "0 /* assumed size */".into(),
            };
            let i = &names[k];
            let head = if down {
                format!("for ({i} = {upper}; {i} >= {lower}; {i}--)")
            } else {
                format!("for ({i} = {lower}; {i} <= {upper}; {i}++)")
            };
            writeln!(out, "{}{head}", indent(d)).unwrap();
            d += 1;
        }
        (names, d)
    }

    /// A whole-array assignment `a = e` as loops over the elements.
    pub(super) fn array_assign(
        &self,
        out: &mut String,
        lhs: &Expr,
        rhs: &Expr,
        depth: usize,
        trailing: &str,
    ) {
        let dims = self.whole_array(lhs).expect("a whole array").to_vec();
        let ind = indent(depth);
        let (names, d) = self.open_loop_nest(out, &dims, depth, trailing, false);
        let subs: Vec<Expr> = names.iter().map(|x| Expr::var(x.clone())).collect();
        let name = lhs.base_name().unwrap_or_default().to_string();
        let rhs = self.elementwise(rhs, &subs);
        writeln!(
            out,
            "{}{} = {};",
            indent(d),
            self.element(&name, &subs),
            self.expr(&rhs)
        )
        .unwrap();
        writeln!(out, "{ind}}}").unwrap();
    }

    /// `break`/`continue`, or a `goto` to a label after / at the end of an outer loop.
    pub(super) fn jump(&self, name: Option<&str>, exit: bool) -> String {
        let mut loops = self.loops.borrow_mut();
        let plain = if exit { "break;" } else { "continue;" };
        let Some(name) = name else {
            return plain.to_string();
        };
        let n = loops.len();
        let Some(i) = loops
            .iter()
            .rposition(|l| l.name.as_deref().is_some_and(|x| key(x) == key(name)))
        else {
            return plain.to_string();
        };
        if i + 1 == n {
            return plain.to_string();
        }
        if exit {
            loops[i].exit_label = true;
            format!("goto adgen_exit_{name};")
        } else {
            loops[i].cycle_label = true;
            format!("goto adgen_cycle_{name};")
        }
    }

    pub(super) fn loop_body(
        &self,
        out: &mut String,
        body: &[Stmt],
        name: &Option<String>,
        depth: usize,
    ) {
        self.loops.borrow_mut().push(LoopState {
            name: name.clone(),
            exit_label: false,
            cycle_label: false,
        });
        self.block(out, body, depth + 1);
        let state = self.loops.borrow_mut().pop().expect("pushed");
        if state.cycle_label {
            writeln!(
                out,
                "{}adgen_cycle_{}:;",
                indent(depth + 1),
                state.name.as_deref().unwrap_or("")
            )
            .unwrap();
        }
        if state.exit_label {
            self.pending_exit(state.name.unwrap_or_default());
        }
    }

    pub(super) fn pending_exit(&self, name: String) {
        // Written by `after_loop` once the loop's closing brace is out.
        self.loops.borrow_mut().push(LoopState {
            name: Some(format!("\u{0}{name}")),
            exit_label: true,
            cycle_label: false,
        });
    }

    pub(super) fn after_loop(&self, out: &mut String, depth: usize) {
        let mut loops = self.loops.borrow_mut();
        if let Some(last) = loops.last() {
            if let Some(n) = last.name.as_deref().and_then(|n| n.strip_prefix('\u{0}')) {
                writeln!(out, "{}adgen_exit_{n}:;", indent(depth)).unwrap();
                loops.pop();
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn do_loop(
        &self,
        out: &mut String,
        s: &Stmt,
        var: &str,
        start: &Expr,
        end: &Expr,
        step: Option<&Expr>,
        body: &[Stmt],
        name: &Option<String>,
        depth: usize,
    ) {
        let ind = indent(depth);
        let trailing = s
            .trailing_comment
            .as_ref()
            .map(|c| format!(" /*{} */", c.replace("*/", "* /")))
            .unwrap_or_default();
        let v = self.var_value(var);
        let step_value = match step {
            None => Some(1),
            Some(e) => int_value(e),
        };
        // The bound is evaluated once, as in Fortran: hoist it when the body may change it.
        let changed = assigned(body);
        let end_reads: Vec<String> = il::visit::names_read(end).into_iter().map(key).collect();
        let mut has_call = false;
        il::visit::walk_expr(end, &mut |x| {
            has_call |= matches!(x.kind, ExprKind::Call(..))
        });
        let hoist = has_call
            || end_reads
                .iter()
                .any(|n| changed.contains(n) || *n == key(var));
        let mut depth_in = depth;
        let mut open_block = false;
        let n = {
            let mut f = self.fresh.borrow_mut();
            *f += 1;
            *f
        };
        let ity = c_type(
            self.var(var)
                .map(|x| x.ty)
                .unwrap_or(ScalarType::Integer(4)),
        );
        let end_text = if hoist || step_value.is_none() {
            writeln!(out, "{ind}{{").unwrap();
            open_block = true;
            depth_in += 1;
            let i2 = indent(depth_in);
            writeln!(out, "{i2}{ity} adgen_end{n} = {};", self.expr(end)).unwrap();
            format!("adgen_end{n}")
        } else {
            self.expr_at(end, Level::Add)
        };
        let i2 = indent(depth_in);
        match step_value {
            Some(k) => {
                let (cmp, inc) = if k > 0 {
                    (
                        "<=",
                        if k == 1 {
                            format!("{v}++")
                        } else {
                            format!("{v} += {k}")
                        },
                    )
                } else {
                    (
                        ">=",
                        if k == -1 {
                            format!("{v}--")
                        } else {
                            format!("{v} -= {}", -k)
                        },
                    )
                };
                writeln!(
                    out,
                    "{i2}for ({v} = {}; {v} {cmp} {end_text}; {inc}) {{{trailing}",
                    self.expr(start)
                )
                .unwrap();
            }
            None => {
                let st = step.expect("a variable step");
                writeln!(out, "{i2}{ity} adgen_step{n} = {};", self.expr(st)).unwrap();
                writeln!(out, "{i2}{ity} adgen_start{n} = {};", self.expr(start)).unwrap();
                writeln!(
                    out,
                    "{i2}{ity} adgen_trips{n} = (adgen_end{n} - adgen_start{n} + adgen_step{n}) / adgen_step{n};"
                )
                .unwrap();
                writeln!(
                    out,
                    "{i2}for ({v} = adgen_start{n}; adgen_trips{n} > 0; adgen_trips{n}--, {v} += adgen_step{n}) {{{trailing}"
                )
                .unwrap();
            }
        }
        self.loop_body(out, body, name, depth_in);
        writeln!(out, "{i2}}}").unwrap();
        self.after_loop(out, depth_in);
        if open_block {
            writeln!(out, "{ind}}}").unwrap();
        }
    }
}
