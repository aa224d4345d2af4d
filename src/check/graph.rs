//! Cycles between definitions (language.md §3 and §5).
//!
//! The applier reference graph must be acyclic: nodes are definitions,
//! edges the references from one applier to another applier (normal
//! programs may recurse, and calls between normal programs and appliers do
//! not count). Normal programs may recurse, but not endlessly: in the graph
//! of the calls a normal program makes on every path (outside `while`, and
//! in both branches of an `if`), a cycle never stops. Every strongly
//! connected component with a cycle (petgraph's `tarjan_scc`) becomes one
//! E0501 (appliers) or E0505 (endless calls) that names a whole cycle
//! through it, `A → B → C → A`, with a label on each reference. A cycle
//! of more than [`SHOWN`] definitions is named by its first and last
//! ones, with a count of those between (`A → B → C → … 99994 more … → Y →
//! Z → A`), and only the references shown are labelled: one diagnostic
//! stays a few lines long however long the cycle.

use std::collections::{HashMap, VecDeque};

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::diagnostic::{Code, Diagnostic, codes};
use crate::program::{Body, DefId, Stmt, calls};
use crate::span::Span;

use super::Checker;

impl<'a> Checker<'a> {
    pub(super) fn check_cycles(&mut self) {
        let edges = (self.refs.iter())
            .filter(|r| self.is_applier(r.from) && self.is_applier(r.to))
            .map(|r| (r.from, r.to, r.span));
        for cycle in cycles(self.defs.len(), edges) {
            let diagnostic = self.cycle_diagnostic(&cycle, &APPLIERS);
            self.report(diagnostic);
        }
    }

    /// E0505 for every cycle of normal programs that call each other on
    /// every path: such a recursion never stops.
    pub(super) fn check_endless(&mut self, bodies: &[Option<Body>]) {
        let mut edges = Vec::new();
        for (from, body) in bodies.iter().enumerate() {
            if let Some(Body::Normal(block)) = body {
                for (to, span) in always_called(block) {
                    if !self.is_applier(to) {
                        edges.push((from, to, span));
                    }
                }
            }
        }
        for cycle in cycles(self.defs.len(), edges) {
            let diagnostic = self.cycle_diagnostic(&cycle, &ENDLESS);
            self.report(diagnostic);
        }
    }

    /// The diagnostic for a cycle given as (definition, its reference to
    /// the next).
    fn cycle_diagnostic(&self, cycle: &[(DefId, Span)], kind: &CycleKind) -> Diagnostic {
        let names: Vec<&str> = cycle.iter().map(|(id, _)| self.def_name(*id)).collect();
        let first = names.first().copied().unwrap_or("?");
        // The members shown: all, or the first and last few.
        let (head, tail) = if names.len() > SHOWN {
            (SHOWN / 2, names.len() - (SHOWN - SHOWN / 2))
        } else {
            (names.len(), names.len())
        };
        let message = if let [name] = names.as_slice() {
            (kind.itself)(name)
        } else if head < tail {
            let path = format!(
                "{} → … {} more … → {} → {first}",
                names[..head].join(" → "),
                tail - head,
                names[tail..].join(" → ")
            );
            (kind.cycle)(&path)
        } else {
            (kind.cycle)(&format!("{} → {first}", names.join(" → ")))
        };
        let mut diagnostic = Diagnostic::error(kind.code, message);
        for (i, (id, span)) in cycle.iter().enumerate() {
            if (head..tail).contains(&i) {
                continue;
            }
            let next = cycle
                .get(i + 1)
                .map_or(first, |(next, _)| self.def_name(*next));
            let from = self.def_name(*id);
            diagnostic =
                diagnostic.with_label(*span, format!("`{from}` {} `{next}` here", kind.verb));
        }
        diagnostic.with_help(kind.help)
    }
}

/// The most definitions of a cycle a diagnostic names.
pub(super) const SHOWN: usize = 6;

/// How one kind of forbidden cycle is reported.
struct CycleKind {
    code: Code,
    itself: fn(&str) -> String,
    cycle: fn(&str) -> String,
    verb: &'static str,
    help: &'static str,
}

const APPLIERS: CycleKind = CycleKind {
    code: codes::E0501,
    itself: |name| format!("the applier `{name}` refers to itself"),
    cycle: |path| format!("cycle between appliers: `{path}`"),
    verb: "refers to",
    help: "appliers are built bottom-up; recursion happens only through a combinator's `self`: use `linrec` (or `treerec`)",
};

const ENDLESS: CycleKind = CycleKind {
    code: codes::E0505,
    itself: |name| format!("`{name}` calls itself on every path, so it never finishes"),
    cycle: |path| format!("`{path}` call each other on every path, so they never finish"),
    verb: "always calls",
    help: "put one of the calls under an `if` whose condition can become false, so that the recursion can stop",
};

/// Every cycle of the graph on `nodes` definitions with `edges` (from, to,
/// span of the reference), one per strongly connected component, in the
/// order of their first definitions.
fn cycles(
    nodes: usize,
    edges: impl IntoIterator<Item = (DefId, DefId, Span)>,
) -> Vec<Vec<(DefId, Span)>> {
    let mut graph: DiGraph<(), Span, usize> = DiGraph::default();
    for _ in 0..nodes {
        graph.add_node(());
    }
    for (from, to, span) in edges {
        graph.add_edge(NodeIndex::new(from), NodeIndex::new(to), span);
    }
    let mut cycles: Vec<Vec<(DefId, Span)>> = tarjan_scc(&graph)
        .into_iter()
        .filter_map(|component| cycle_in(&graph, &component))
        .collect();
    cycles.sort_by_key(|cycle| cycle.first().map(|(id, _)| *id));
    cycles
}

/// The definitions `block` calls whenever it runs, with where: its own
/// calls, state calls and calls inside expressions (not those a
/// short-circuit may skip), and the calls both branches of an `if` make,
/// up to the first statement that may `return`. A `while` body may not run
/// at all.
fn always_called(block: &[Stmt]) -> Vec<(DefId, Span)> {
    always_called_until_return(block).0
}

/// [`always_called`], and whether the block may end with a `return`.
fn always_called_until_return(block: &[Stmt]) -> (Vec<(DefId, Span)>, bool) {
    let mut called = Vec::new();
    for stmt in block {
        let mut calls = Vec::new();
        calls::calls_in_statement(stmt, true, &mut calls);
        called.extend(calls.iter().map(|call| (call.def, call.span)));
        match stmt {
            Stmt::Call(id, span) | Stmt::StateCall(id, _, span) => called.push((*id, *span)),
            Stmt::ParamCall(call) => called.push((call.def, call.span)),
            Stmt::If {
                then, otherwise, ..
            } => {
                let (then, then_returns) = always_called_until_return(then);
                let (other, other_returns) = always_called_until_return(otherwise);
                called.extend(
                    then.into_iter()
                        .filter(|(id, _)| other.iter().any(|(o, _)| o == id)),
                );
                if then_returns || other_returns {
                    return (called, true);
                }
            }
            Stmt::Return { .. } => return (called, true),
            Stmt::While { body, .. } => {
                if always_called_until_return(body).1 {
                    return (called, true);
                }
            }
            Stmt::Act(_) | Stmt::Pass(_) | Stmt::Hole(..) => {}
        }
    }
    (called, false)
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
