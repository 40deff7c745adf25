//! The call graph of the program's units (seeds/000 §3.1), with strongly connected
//! components for recursion.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

/// Nodes are unit indices (program order); an edge `a → b` means `a` calls `b`.
#[derive(Debug, Default)]
pub struct CallGraph {
    pub graph: DiGraph<usize, ()>,
}

impl CallGraph {
    pub fn new(n_units: usize, calls: &[(usize, usize)]) -> CallGraph {
        let mut graph = DiGraph::new();
        for u in 0..n_units {
            graph.add_node(u);
        }
        for &(a, b) in calls {
            let (a, b) = (NodeIndex::new(a), NodeIndex::new(b));
            if graph.find_edge(a, b).is_none() {
                graph.add_edge(a, b, ());
            }
        }
        CallGraph { graph }
    }

    /// Strongly connected components, callees before callers.
    pub fn bottom_up(&self) -> Vec<Vec<usize>> {
        tarjan_scc(&self.graph)
            .into_iter()
            .map(|scc| {
                let mut units: Vec<usize> = scc.into_iter().map(|n| self.graph[n]).collect();
                units.sort();
                units
            })
            .collect()
    }

    /// Units, callers before callees (recursive cycles in some order).
    pub fn top_down(&self) -> Vec<usize> {
        self.bottom_up().into_iter().rev().flatten().collect()
    }

    pub fn callees(&self, unit: usize) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .graph
            .neighbors(NodeIndex::new(unit))
            .map(|n| self.graph[n])
            .collect();
        v.sort();
        v
    }

    /// The units that call `unit`.
    pub fn callers(&self, unit: usize) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .graph
            .neighbors_directed(NodeIndex::new(unit), petgraph::Direction::Incoming)
            .map(|n| self.graph[n])
            .collect();
        v.sort();
        v
    }
}
