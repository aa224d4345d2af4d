//! The applier reference graph must be acyclic (language.md §3).
//!
//! Nodes are definitions, edges the references from one applier to another
//! applier (normal programs may recurse, and calls between normal programs
//! and appliers do not count). Every strongly connected component with a
//! cycle (petgraph's `tarjan_scc`) becomes one E0501 that names a whole
//! cycle through it, `A → B → C → A`, with a label on each reference.

use std::collections::{HashMap, VecDeque};

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::diagnostic::{Diagnostic, codes};
use crate::program::DefId;
use crate::span::Span;

use super::Checker;

impl<'a> Checker<'a> {
    pub(super) fn check_cycles(&mut self) {
        let mut graph: DiGraph<(), Span, usize> = DiGraph::default();
        for _ in &self.defs {
            graph.add_node(());
        }
        for reference in &self.refs {
            if self.is_applier(reference.from) && self.is_applier(reference.to) {
                let (from, to) = (NodeIndex::new(reference.from), NodeIndex::new(reference.to));
                graph.add_edge(from, to, reference.span);
            }
        }
        let mut cycles: Vec<Vec<(DefId, Span)>> = tarjan_scc(&graph)
            .into_iter()
            .filter_map(|component| cycle_in(&graph, &component))
            .collect();
        cycles.sort_by_key(|cycle| cycle.first().map(|(id, _)| *id));
        for cycle in cycles {
            let diagnostic = self.cycle_diagnostic(&cycle);
            self.report(diagnostic);
        }
    }

    /// E0501 for a cycle given as (definition, its reference to the next).
    fn cycle_diagnostic(&self, cycle: &[(DefId, Span)]) -> Diagnostic {
        let names: Vec<&str> = cycle.iter().map(|(id, _)| self.def_name(*id)).collect();
        let first = names.first().copied().unwrap_or("?");
        let message = if let [name] = names.as_slice() {
            format!("the applier `{name}` refers to itself")
        } else {
            format!("cycle between appliers: `{} → {first}`", names.join(" → "))
        };
        let mut diagnostic = Diagnostic::error(codes::E0501, message);
        for (i, (id, span)) in cycle.iter().enumerate() {
            let next = cycle
                .get(i + 1)
                .map_or(first, |(next, _)| self.def_name(*next));
            let from = self.def_name(*id);
            diagnostic = diagnostic.with_label(*span, format!("`{from}` refers to `{next}` here"));
        }
        diagnostic.with_help(
            "appliers are built bottom-up; recursion happens only through a combinator's `self`: use `linrec` (or `treerec`)",
        )
    }
}

/// A cycle through the component, if it has one: a shortest path from its
/// first-defined node back to itself, found breadth-first inside the
/// component. Each step is (node, span of its reference to the next node).
fn cycle_in(
    graph: &DiGraph<(), Span, usize>,
    component: &[NodeIndex<usize>],
) -> Option<Vec<(DefId, Span)>> {
    let start = *component.iter().min()?;
    let self_loop = graph.edges(start).find(|e| e.target() == start);
    if component.len() == 1 {
        return self_loop.map(|e| vec![(start.index(), *e.weight())]);
    }
    let inside: std::collections::HashSet<NodeIndex<usize>> = component.iter().copied().collect();
    // For each reached node: the node it was reached from, by which reference.
    let mut parent: HashMap<NodeIndex<usize>, (NodeIndex<usize>, Span)> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for edge in graph.edges(node) {
            let target = edge.target();
            if target == start {
                return Some(unwind(&parent, start, node, *edge.weight()));
            }
            if inside.contains(&target) && !parent.contains_key(&target) {
                parent.insert(target, (node, *edge.weight()));
                queue.push_back(target);
            }
        }
    }
    None
}

/// The path start → ... → last, followed by the reference last → start.
fn unwind(
    parent: &HashMap<NodeIndex<usize>, (NodeIndex<usize>, Span)>,
    start: NodeIndex<usize>,
    last: NodeIndex<usize>,
    closing: Span,
) -> Vec<(DefId, Span)> {
    let mut steps = vec![(last.index(), closing)];
    let mut node = last;
    while node != start {
        let Some(&(previous, span)) = parent.get(&node) else {
            break;
        };
        steps.push((previous.index(), span));
        node = previous;
    }
    steps.reverse();
    steps
}
