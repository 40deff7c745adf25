//! Flow graphs: one node per simple statement or control test, built from the structured
//! IL (seeds/000 §3.1, §5.1). EXIT, CYCLE, RETURN and GOTO become ordinary edges, so the
//! analyses handle unstructured flow the same way as structured flow.

use std::collections::BTreeMap;

use crate::il::{Stmt, StmtId, StmtKind};

pub type NodeId = usize;

#[derive(Copy, Clone, Debug)]
pub enum NodeKind<'p> {
    Entry,
    Exit,
    /// An assignment or a call.
    Simple(&'p Stmt),
    /// The condition of arm `.1` of an IF.
    Cond(&'p Stmt, usize),
    /// A DO loop's start: evaluates the bounds, sets the variable to the start value.
    DoInit(&'p Stmt),
    /// A DO loop's trip test.
    DoHead(&'p Stmt),
    /// A DO loop's increment of its variable.
    DoIncr(&'p Stmt),
    /// A DO WHILE's test.
    WhileHead(&'p Stmt),
}

#[derive(Debug)]
pub struct FlowGraph<'p> {
    pub nodes: Vec<NodeKind<'p>>,
    pub succs: Vec<Vec<NodeId>>,
    pub preds: Vec<Vec<NodeId>>,
    /// The node of each assignment and call.
    pub node_of: BTreeMap<StmtId, NodeId>,
    /// The control nodes (tests, loop starts and increments) of each IF and loop.
    pub control_of: BTreeMap<StmtId, Vec<NodeId>>,
}

pub const ENTRY: NodeId = 0;
pub const EXIT: NodeId = 1;

struct LoopCtx {
    name: Option<String>,
    continue_to: NodeId,
    breaks: Vec<NodeId>,
}

struct Builder<'p> {
    graph: FlowGraph<'p>,
    loops: Vec<LoopCtx>,
    labels: BTreeMap<String, NodeId>,
    gotos: Vec<(NodeId, String)>,
}

impl<'p> FlowGraph<'p> {
    pub fn build(body: &'p [Stmt]) -> FlowGraph<'p> {
        let mut b = Builder {
            graph: FlowGraph {
                nodes: vec![NodeKind::Entry, NodeKind::Exit],
                succs: vec![Vec::new(), Vec::new()],
                preds: vec![Vec::new(), Vec::new()],
                node_of: BTreeMap::new(),
                control_of: BTreeMap::new(),
            },
            loops: Vec::new(),
            labels: BTreeMap::new(),
            gotos: Vec::new(),
        };
        let ends = b.block(body, vec![ENTRY]);
        for e in ends {
            b.edge(e, EXIT);
        }
        for (from, label) in std::mem::take(&mut b.gotos) {
            let to = b.labels.get(&label).copied().unwrap_or(EXIT);
            b.edge(from, to);
        }
        b.graph
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Nodes in reverse post-order from the entry (unreachable nodes appended).
    pub fn reverse_post_order(&self) -> Vec<NodeId> {
        let mut seen = vec![false; self.len()];
        let mut post = Vec::with_capacity(self.len());
        let mut stack: Vec<(NodeId, usize)> = vec![(ENTRY, 0)];
        seen[ENTRY] = true;
        while let Some((node, i)) = stack.pop() {
            if i < self.succs[node].len() {
                stack.push((node, i + 1));
                let next = self.succs[node][i];
                if !seen[next] {
                    seen[next] = true;
                    stack.push((next, 0));
                }
            } else {
                post.push(node);
            }
        }
        post.reverse();
        for (n, s) in seen.iter().enumerate() {
            if !s {
                post.push(n);
            }
        }
        post
    }
}

impl<'p> Builder<'p> {
    fn node(&mut self, kind: NodeKind<'p>) -> NodeId {
        let id = self.graph.nodes.len();
        if let NodeKind::Cond(s, _)
        | NodeKind::DoInit(s)
        | NodeKind::DoHead(s)
        | NodeKind::DoIncr(s)
        | NodeKind::WhileHead(s) = kind
        {
            self.graph.control_of.entry(s.id).or_default().push(id);
        }
        self.graph.nodes.push(kind);
        self.graph.succs.push(Vec::new());
        self.graph.preds.push(Vec::new());
        self.graph.nodes.len() - 1
    }

    fn edge(&mut self, from: NodeId, to: NodeId) {
        if !self.graph.succs[from].contains(&to) {
            self.graph.succs[from].push(to);
            self.graph.preds[to].push(from);
        }
    }

    fn link(&mut self, preds: &[NodeId], to: NodeId) {
        for &p in preds {
            self.edge(p, to);
        }
    }

    /// Adds `stmts` after `preds`; returns the nodes that fall through at the end.
    fn block(&mut self, stmts: &'p [Stmt], mut preds: Vec<NodeId>) -> Vec<NodeId> {
        for stmt in stmts {
            preds = self.stmt(stmt, preds);
        }
        preds
    }

    fn stmt(&mut self, stmt: &'p Stmt, preds: Vec<NodeId>) -> Vec<NodeId> {
        let labelled = |b: &mut Self, n: NodeId| {
            if let Some(l) = &stmt.label {
                b.labels.insert(l.to_string(), n);
            }
        };
        match &stmt.kind {
            // I/O reaches flow graphs only in units no root calls (`prepare::io`).
            // ALLOCATE and DEALLOCATE of arrays kept allocatable (`diff::heap`).
            StmtKind::Assign { .. }
            | StmtKind::Call { .. }
            | StmtKind::Tape(_)
            | StmtKind::Io { .. }
            | StmtKind::Allocate(_)
            | StmtKind::Deallocate(_) => {
                let n = self.node(NodeKind::Simple(stmt));
                labelled(self, n);
                self.graph.node_of.insert(stmt.id, n);
                self.link(&preds, n);
                vec![n]
            }
            StmtKind::Comment(_) => preds,
            // Rewritten into DO loops by `prepare::scalarize` before any flow graph is built.
            StmtKind::Where { .. } | StmtKind::Forall { .. } => preds,
            StmtKind::Continue => {
                if stmt.label.is_some() {
                    let n = self.node(NodeKind::Simple(stmt));
                    labelled(self, n);
                    self.link(&preds, n);
                    vec![n]
                } else {
                    preds
                }
            }
            StmtKind::If {
                arms, else_body, ..
            } => {
                let mut ends = Vec::new();
                let mut test_preds = preds;
                for (i, (_, body)) in arms.iter().enumerate() {
                    let test = self.node(NodeKind::Cond(stmt, i));
                    if i == 0 {
                        labelled(self, test);
                    }
                    self.link(&test_preds, test);
                    ends.extend(self.block(body, vec![test]));
                    test_preds = vec![test];
                }
                match else_body {
                    Some(body) => ends.extend(self.block(body, test_preds)),
                    None => ends.extend(test_preds),
                }
                ends
            }
            StmtKind::Do { body, name, .. } => {
                let init = self.node(NodeKind::DoInit(stmt));
                labelled(self, init);
                self.link(&preds, init);
                let head = self.node(NodeKind::DoHead(stmt));
                self.edge(init, head);
                let incr = self.node(NodeKind::DoIncr(stmt));
                self.loops.push(LoopCtx {
                    name: name.clone(),
                    continue_to: incr,
                    breaks: Vec::new(),
                });
                let ends = self.block(body, vec![head]);
                self.link(&ends, incr);
                self.edge(incr, head);
                let ctx = self.loops.pop().expect("loop context pushed above");
                let mut out = vec![head];
                out.extend(ctx.breaks);
                out
            }
            StmtKind::DoWhile { body, name, .. } => {
                let head = self.node(NodeKind::WhileHead(stmt));
                labelled(self, head);
                self.link(&preds, head);
                self.loops.push(LoopCtx {
                    name: name.clone(),
                    continue_to: head,
                    breaks: Vec::new(),
                });
                let ends = self.block(body, vec![head]);
                self.link(&ends, head);
                let ctx = self.loops.pop().expect("loop context pushed above");
                let mut out = vec![head];
                out.extend(ctx.breaks);
                out
            }
            StmtKind::Exit { name } => {
                if let Some(ctx) = self.target_loop(name.as_deref()) {
                    ctx.breaks.extend(preds);
                }
                Vec::new()
            }
            StmtKind::Cycle { name } => {
                if let Some(i) = self.target_index(name.as_deref()) {
                    let to = self.loops[i].continue_to;
                    self.link(&preds, to);
                }
                Vec::new()
            }
            StmtKind::Return => {
                self.link(&preds, EXIT);
                Vec::new()
            }
            StmtKind::Goto { label } => {
                for p in preds {
                    self.gotos.push((p, label.clone()));
                }
                Vec::new()
            }
            // Restructured into IF and GO TO before differentiation (prepare::restructure);
            // the edges are still right for a graph built on the source's form.
            StmtKind::ComputedGoto { .. } | StmtKind::ArithmeticIf { .. } => {
                let labels: &[String] = match &stmt.kind {
                    StmtKind::ComputedGoto { labels, .. } => labels,
                    StmtKind::ArithmeticIf { labels, .. } => labels,
                    _ => &[],
                };
                for p in &preds {
                    for label in labels.iter() {
                        self.gotos.push((*p, label.clone()));
                    }
                }
                if matches!(stmt.kind, StmtKind::ComputedGoto { .. }) {
                    preds
                } else {
                    Vec::new()
                }
            }
            StmtKind::Select { cases, .. } => {
                let mut ends = Vec::new();
                for case in cases {
                    ends.extend(self.block(&case.body, preds.clone()));
                }
                if !cases.iter().any(|c| c.values.is_empty()) {
                    ends.extend(preds);
                }
                ends
            }
        }
    }

    fn target_index(&self, name: Option<&str>) -> Option<usize> {
        match name {
            None => self.loops.len().checked_sub(1),
            Some(n) => self.loops.iter().rposition(|l| {
                l.name
                    .as_deref()
                    .is_some_and(|ln| ln.eq_ignore_ascii_case(n))
            }),
        }
    }

    fn target_loop(&mut self, name: Option<&str>) -> Option<&mut LoopCtx> {
        let i = self.target_index(name)?;
        self.loops.get_mut(i)
    }
}
