//! The one data-flow solver every analysis uses (seeds/000 §5.2; the shape of rustc's
//! dataflow framework): forward or backward, a join that reports change, a worklist seeded
//! in reverse post-order, iteration to the fixed point.

use std::collections::VecDeque;

use crate::ir::flow::{ENTRY, EXIT, FlowGraph, NodeId};

/// A data-flow problem over one flow graph.
pub trait Problem {
    type State: Clone + PartialEq;
    /// Forward problems propagate from entry to exit, backward ones the other way.
    fn forward(&self) -> bool;
    /// The lattice's bottom: the state of a node not reached yet.
    fn bottom(&self) -> Self::State;
    /// The state at the entry (forward) or exit (backward) of the procedure.
    fn boundary(&self) -> Self::State;
    /// `into ⊔= from`; true when `into` changed.
    fn join(&self, into: &mut Self::State, from: &Self::State) -> bool;
    /// The state after the node (forward) or before it (backward).
    fn transfer(&self, node: NodeId, input: &Self::State) -> Self::State;
}

/// The fixed point, as states before and after each node in program order (whatever the
/// problem's direction).
#[derive(Clone, Debug)]
pub struct Solution<S> {
    pub before: Vec<S>,
    pub after: Vec<S>,
}

pub fn solve<P: Problem>(flow: &FlowGraph, problem: &P) -> Solution<P::State> {
    let n = flow.len();
    let forward = problem.forward();
    // `input[n]` is the state on the side the problem comes from.
    let mut input = vec![problem.bottom(); n];
    let mut output = vec![problem.bottom(); n];
    let start = if forward { ENTRY } else { EXIT };
    input[start] = problem.boundary();
    let mut order = flow.reverse_post_order();
    if !forward {
        order.reverse();
    }
    let mut queued = vec![true; n];
    let mut work: VecDeque<NodeId> = order.into_iter().collect();
    while let Some(node) = work.pop_front() {
        queued[node] = false;
        let out = problem.transfer(node, &input[node]);
        if out == output[node] && node != start {
            continue;
        }
        output[node] = out;
        let nexts = if forward {
            &flow.succs[node]
        } else {
            &flow.preds[node]
        };
        for &next in nexts {
            let changed = problem.join(&mut input[next], &output[node]);
            if changed && !queued[next] {
                queued[next] = true;
                work.push_back(next);
            }
        }
    }
    if forward {
        Solution {
            before: input,
            after: output,
        }
    } else {
        Solution {
            before: output,
            after: input,
        }
    }
}

/// The join of the "may" problems on zone sets (activity, diff-liveness, TBR, in-out):
/// union, reporting whether `into` grew.
pub fn union_into(into: &mut crate::ir::ZoneSet, from: &crate::ir::ZoneSet) -> bool {
    let before = into.count_ones();
    *into |= from;
    into.count_ones() != before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::il::{Expr, Stmt, StmtKind};

    /// Counts the longest path length to each node, capped: checks loops reach a fixed
    /// point and that joins see every predecessor.
    struct Reach;
    impl Problem for Reach {
        type State = bool;
        fn forward(&self) -> bool {
            true
        }
        fn bottom(&self) -> bool {
            false
        }
        fn boundary(&self) -> bool {
            true
        }
        fn join(&self, into: &mut bool, from: &bool) -> bool {
            let old = *into;
            *into |= *from;
            old != *into
        }
        fn transfer(&self, _: NodeId, input: &bool) -> bool {
            *input
        }
    }

    #[test]
    fn every_node_of_a_loop_is_reached() {
        let body = vec![Stmt::generated(StmtKind::DoWhile {
            cond: Expr::new(crate::il::ExprKind::Logical(true)),
            body: vec![Stmt::generated(StmtKind::Assign {
                lhs: Expr::var("x"),
                rhs: Expr::int(1),
            })],
            name: None,
        })];
        let flow = FlowGraph::build(&body);
        let sol = solve(&flow, &Reach);
        assert!(sol.after.iter().all(|&r| r));
    }
}
