//! What the output holds: the definitions the entry reaches, and the
//! bodies of normal programs after mutual recursion is inlined.
//!
//! A cycle of normal programs that call each other (`A` calls `B`, `B`
//! calls `A`) becomes one recursive program by inlining: every member of
//! the cycle other than the one being converted (the *head*) is replaced
//! by its body at each plain call, which works when every cycle passes
//! through the head. Each program the output needs is converted with
//! itself as the head, so a member called from outside the cycle gets its
//! own copy. What cannot be inlined is refused with E0802.

use std::collections::{HashMap, HashSet};

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use super::errors;
use super::walk::{calls, target};
use crate::diagnostic::Diagnostic;
use crate::program::{Applier, Body, Callee, DefId, Program, Stmt, reach};
use crate::span::Span;

/// How large an inlined body may grow, in statements, before the
/// conversion gives up (inlining can double a body at every level).
pub const MAX_INLINED: usize = 200_000;

/// The definitions of the output and the bodies to convert.
pub struct Work {
    /// The body of each normal program the output holds, after inlining.
    bodies: Vec<Option<Vec<Stmt>>>,
    /// The definitions the output holds, in source order.
    pub emitted: Vec<DefId>,
    /// The same definitions, callees before callers (recursion aside).
    pub callees_first: Vec<DefId>,
    /// The normal programs of the output that appliers refer to.
    pub referenced_by_appliers: Vec<DefId>,
}

impl Work {
    pub fn body(&self, id: DefId) -> Option<&[Stmt]> {
        self.bodies.get(id).and_then(|b| b.as_deref())
    }
}

/// A reference from one definition to another.
#[derive(Clone, Copy)]
struct Edge {
    to: DefId,
    span: Span,
    /// A state call `F(e1, ..., ek)` rather than a plain call or an
    /// applier's argument.
    state: bool,
}

/// Plans the output for `program`, reporting E0802 where a recursion
/// cycle cannot be inlined.
pub fn plan(program: &Program, diagnostics: &mut Vec<Diagnostic>) -> Work {
    let edges: Vec<Vec<Edge>> = program.defs.iter().map(|d| edges(&d.body)).collect();
    let mut graph: DiGraph<(), (), usize> = DiGraph::default();
    for _ in &program.defs {
        graph.add_node(());
    }
    for (from, list) in edges.iter().enumerate() {
        for edge in list {
            graph.add_edge(NodeIndex::new(from), NodeIndex::new(edge.to), ());
        }
    }
    let components = tarjan_scc(&graph);
    let mut component = vec![0; program.defs.len()];
    for (i, members) in components.iter().enumerate() {
        for node in members {
            if let Some(c) = component.get_mut(node.index()) {
                *c = i;
            }
        }
    }
    let inliner = Inliner {
        program,
        edges: &edges,
        component: &component,
        components: &components,
    };
    let mut bodies: Vec<Option<Vec<Stmt>>> = vec![None; program.defs.len()];
    let mut referenced_by_appliers = Vec::new();
    let reached = reach::reached(program.defs.len(), [program.entry], |id| {
        match program.defs.get(id).map(|d| &d.body) {
            Some(Body::Normal(body)) => {
                let Some(inlined) = inliner.inline(id, body, diagnostics) else {
                    return Vec::new();
                };
                let next = calls(&inlined).into_iter().filter_map(target).collect();
                if let Some(slot) = bodies.get_mut(id) {
                    *slot = Some(inlined);
                }
                next
            }
            Some(Body::Applier(_) | Body::Hole(_)) => {
                let to: Vec<DefId> = edges.get(id).into_iter().flatten().map(|e| e.to).collect();
                let normal = |to: &DefId| {
                    matches!(
                        program.defs.get(*to).map(|d| &d.body),
                        Some(Body::Normal(_))
                    )
                };
                referenced_by_appliers.extend(to.iter().copied().filter(normal));
                to
            }
            None => Vec::new(),
        }
    });
    let is_reached = |id: &DefId| reached.get(*id) == Some(&true);
    referenced_by_appliers.sort_unstable();
    referenced_by_appliers.dedup();
    Work {
        bodies,
        emitted: (0..program.defs.len()).filter(is_reached).collect(),
        callees_first: components
            .iter()
            .flatten()
            .map(|node| node.index())
            .filter(is_reached)
            .collect(),
        referenced_by_appliers,
    }
}

/// The references a definition's body makes.
fn edges(body: &Body) -> Vec<Edge> {
    match body {
        Body::Normal(stmts) => calls(stmts)
            .into_iter()
            .filter_map(|stmt| match stmt {
                Stmt::Call(to, span) => Some(Edge {
                    to: *to,
                    span: *span,
                    state: false,
                }),
                Stmt::StateCall(to, _, span) => Some(Edge {
                    to: *to,
                    span: *span,
                    state: true,
                }),
                _ => None,
            })
            .collect(),
        Body::Applier(Applier::Combinator { args, .. }) => args
            .iter()
            .filter_map(|arg| match arg {
                Callee::Def(to, span) => Some(Edge {
                    to: *to,
                    span: *span,
                    state: false,
                }),
                Callee::Act(_) => None,
            })
            .collect(),
        Body::Applier(Applier::Act(_)) | Body::Hole(_) => Vec::new(),
    }
}

struct Inliner<'a> {
    program: &'a Program,
    edges: &'a [Vec<Edge>],
    component: &'a [usize],
    components: &'a [Vec<NodeIndex<usize>>],
}

impl Inliner<'_> {
    fn name(&self, id: DefId) -> &str {
        self.program.defs.get(id).map_or("?", |d| d.name.as_str())
    }

    fn normal_body(&self, id: DefId) -> Option<&[Stmt]> {
        match self.program.defs.get(id).map(|d| &d.body) {
            Some(Body::Normal(stmts)) => Some(stmts),
            _ => None,
        }
    }

    /// The body of `head` with the other members of its recursion cycle
    /// inlined; `None` after reporting why that is impossible.
    fn inline(
        &self,
        head: DefId,
        body: &[Stmt],
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Vec<Stmt>> {
        let members = self
            .component
            .get(head)
            .and_then(|c| self.components.get(*c))
            .map_or(&[][..], Vec::as_slice);
        if members.len() <= 1 {
            return Some(body.to_vec());
        }
        let mut sorted: Vec<DefId> = members.iter().map(|n| n.index()).collect();
        sorted.sort_unstable();
        let member: HashSet<DefId> = sorted.iter().copied().collect();
        let head_name = self.name(head);
        let mut order = Vec::new();
        for &id in &sorted {
            let inside = self.edges.get(id).into_iter().flatten();
            for edge in inside.filter(|e| member.contains(&e.to)) {
                if self.normal_body(id).is_none() {
                    let applier = self.name(id);
                    diagnostics.push(errors::through_applier(head_name, applier, edge.span));
                    return None;
                }
                if edge.state && edge.to != head {
                    let callee = self.name(edge.to);
                    diagnostics.push(errors::state_call_in_cycle(head_name, callee, edge.span));
                    return None;
                }
            }
            if id != head {
                order.push(id);
            }
        }
        let order = self.callees_first(head, &order, &member, diagnostics)?;
        // Sizes first, so that a body too large to build is never built.
        let mut sizes: HashMap<DefId, usize> = HashMap::new();
        for &id in order.iter().chain([&head]) {
            let body = if id == head {
                body
            } else {
                self.normal_body(id).unwrap_or_default()
            };
            let grown = expanded_size(body, &sizes, head);
            if grown > MAX_INLINED {
                let span = self
                    .program
                    .defs
                    .get(head)
                    .map_or(Span::default(), |d| d.span);
                diagnostics.push(errors::inlining_too_large(
                    head_name,
                    grown,
                    MAX_INLINED,
                    span,
                ));
                return None;
            }
            sizes.insert(id, grown);
        }
        let mut inlined: HashMap<DefId, Vec<Stmt>> = HashMap::new();
        for id in order {
            let body = self.normal_body(id).unwrap_or_default();
            let expanded = splice(body, &inlined, head);
            inlined.insert(id, expanded);
        }
        Some(splice(body, &inlined, head))
    }

    /// The members other than the head, each after those it calls; E0802
    /// when they call each other in a cycle that avoids the head.
    fn callees_first(
        &self,
        head: DefId,
        others: &[DefId],
        member: &HashSet<DefId>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Vec<DefId>> {
        let mut sorted = others.to_vec();
        sorted.sort_unstable();
        let index: HashMap<DefId, usize> =
            sorted.iter().enumerate().map(|(i, d)| (*d, i)).collect();
        let mut graph: DiGraph<(), Span, usize> = DiGraph::default();
        for _ in &sorted {
            graph.add_node(());
        }
        for (i, &id) in sorted.iter().enumerate() {
            for edge in self.edges.get(id).into_iter().flatten() {
                if let (true, Some(&j)) = (member.contains(&edge.to), index.get(&edge.to)) {
                    graph.add_edge(NodeIndex::new(i), NodeIndex::new(j), edge.span);
                }
            }
        }
        let mut order = Vec::new();
        for component in tarjan_scc(&graph) {
            let first = component.iter().min().copied();
            let looping = first.and_then(|node| {
                graph
                    .edges(node)
                    .find(|edge| component.contains(&edge.target()))
            });
            if let (Some(node), Some(edge)) = (first, looping) {
                let caller = sorted.get(node.index()).map_or("?", |id| self.name(*id));
                let span = *edge.weight();
                diagnostics.push(errors::cycle_avoids_head(self.name(head), caller, span));
                return None;
            }
            order.extend(component.iter().filter_map(|n| sorted.get(n.index())));
        }
        Some(order)
    }
}

/// `stmts` with every plain call to an inlined program replaced by its
/// (already expanded) body.
fn splice(stmts: &[Stmt], inlined: &HashMap<DefId, Vec<Stmt>>, head: DefId) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    for stmt in stmts {
        match stmt {
            Stmt::Call(id, _) if *id != head && inlined.contains_key(id) => {
                out.extend(inlined.get(id).into_iter().flatten().cloned());
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                span,
            } => out.push(Stmt::If {
                condition: condition.clone(),
                then: splice(then, inlined, head),
                otherwise: splice(otherwise, inlined, head),
                span: *span,
            }),
            Stmt::While {
                condition,
                body,
                span,
            } => out.push(Stmt::While {
                condition: condition.clone(),
                body: splice(body, inlined, head),
                span: *span,
            }),
            other => out.push(other.clone()),
        }
    }
    out
}

/// The number of statements of `stmts` once the programs of `sizes` (their
/// expanded sizes) are inlined, nested statements included.
fn expanded_size(stmts: &[Stmt], sizes: &HashMap<DefId, usize>, head: DefId) -> usize {
    stmts.iter().fold(0usize, |total, stmt| {
        let own = match stmt {
            Stmt::Call(id, _) if *id != head => sizes.get(id).copied().unwrap_or(1),
            Stmt::If {
                then, otherwise, ..
            } => expanded_size(then, sizes, head)
                .saturating_add(expanded_size(otherwise, sizes, head))
                .saturating_add(1),
            Stmt::While { body, .. } => expanded_size(body, sizes, head).saturating_add(1),
            _ => 1,
        };
        total.saturating_add(own)
    })
}
