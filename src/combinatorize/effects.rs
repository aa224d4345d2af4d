//! What statements and definitions read and write.
//!
//! The conversion moves code around (statements between state calls run
//! before the calls; `treerec` undoes pointer changes made while pushing
//! states), so it needs to know, for every statement, which pointers it
//! may read and write, which it surely writes, which it reads before
//! writing (its *exposed* reads), and whether it reads or changes the
//! environment. [`Effects::new`] computes these summaries for every
//! definition at once, iterating over recursion until they are stable, and
//! which pointers may be read after each definition returns (in `ram`,
//! the registers the entry leaves are part of the output).

use std::cell::RefCell;
use std::collections::HashMap;

use super::flow::{Effect, Flow, Reads, act_flow, condition_reads, positions_reads};
use super::set::Pointers;
use super::walk::calls;
use super::work::Work;
use crate::env::Ability;
use crate::program::{Applier, Body, BoolExpr, Callee, DefId, Program, Stmt};

/// Flows by statement address and the program whose state calls count
/// only their arguments (see [`Effects::block`]).
type FlowCache = HashMap<(usize, Option<DefId>), Flow>;

/// The summaries of every definition, and the pointers live when each
/// returns.
pub struct Effects<'p> {
    program: &'p Program,
    work: &'p Work,
    summaries: Vec<Flow>,
    /// The state pointers.
    state: Pointers,
    /// Live pointers when each definition returns.
    live_at_end: Vec<Pointers>,
    /// What a definition id outside the program answers (none exists).
    nothing: (Flow, Pointers),
    /// The flows of compound statements, once the summaries are final:
    /// deeply nested code would otherwise be summarized once per level.
    flows: RefCell<Option<FlowCache>>,
}

impl<'p> Effects<'p> {
    pub fn new(program: &'p Program, work: &'p Work) -> Effects<'p> {
        let all = Pointers::all(program.pointers.len());
        let summaries = (0..program.defs.len())
            .map(|id| Flow {
                must: if work.body(id).is_some() {
                    all.clone()
                } else {
                    Pointers::default()
                },
                ..Flow::default()
            })
            .collect();
        let mut effects = Effects {
            program,
            work,
            summaries,
            state: program.state.iter().flatten().copied().collect(),
            live_at_end: vec![Pointers::default(); program.defs.len()],
            nothing: Default::default(),
            flows: RefCell::new(None),
        };
        effects.summarize();
        effects.flows.replace(Some(HashMap::new()));
        effects.liveness(&all);
        effects
    }

    /// Summaries grow (reads, writes, exposed) or shrink (must) until
    /// nothing changes; the order (callees first) makes one round enough
    /// without recursion.
    fn summarize(&mut self) {
        loop {
            let mut changed = false;
            for &id in &self.work.callees_first {
                let flow = match self.work.body(id) {
                    Some(body) => self.block(body, None),
                    None => self.applier_flow(id),
                };
                if let Some(old) = self.summaries.get_mut(id)
                    && *old != flow
                {
                    *old = flow;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// An applier may read and write every pointer it names, directly or
    /// through what it calls; it surely writes nothing.
    fn applier_flow(&self, id: DefId) -> Flow {
        let Some(Body::Applier(applier)) = self.program.defs.get(id).map(|d| &d.body) else {
            return Flow::default();
        };
        let mut effect = Effect::default();
        match applier {
            Applier::Act(app) => effect.add(&act_flow(&app.act).effect),
            Applier::Combinator { detector, args, .. } => {
                for arg in args {
                    match arg {
                        Callee::Act(app) => effect.add(&act_flow(&app.act).effect),
                        Callee::Def(target, _) => effect.add(&self.summary(*target).effect),
                    }
                }
                if let Some(detector) = detector {
                    effect.add(&self.condition(detector).effect);
                }
            }
        }
        Flow {
            exposed: effect.reads.clone(),
            must: Pointers::default(),
            effect,
        }
    }

    pub fn summary(&self, id: DefId) -> &Flow {
        self.summaries.get(id).unwrap_or(&self.nothing.0)
    }

    /// The flow of a block. A state call to `local` (the program being
    /// turned into a `treerec`) counts only its arguments: what the child
    /// reads is a matter between the children, not of the caller's code.
    pub fn block(&self, stmts: &[Stmt], local: Option<DefId>) -> Flow {
        stmts
            .iter()
            .fold(Flow::default(), |flow, s| flow.then(&self.stmt(s, local)))
    }

    pub fn stmt(&self, stmt: &Stmt, local: Option<DefId>) -> Flow {
        if !matches!(stmt, Stmt::If { .. } | Stmt::While { .. }) {
            return self.stmt_flow(stmt, local);
        }
        let key = (address(stmt), local);
        if let Some(flow) = self.flows.borrow().as_ref().and_then(|f| f.get(&key)) {
            return flow.clone();
        }
        let flow = self.stmt_flow(stmt, local);
        if let Some(flows) = self.flows.borrow_mut().as_mut() {
            flows.insert(key, flow.clone());
        }
        flow
    }

    fn stmt_flow(&self, stmt: &Stmt, local: Option<DefId>) -> Flow {
        match stmt {
            Stmt::Act(app) => act_flow(&app.act),
            Stmt::Call(id, _) => self.summary(*id).clone(),
            Stmt::StateCall(id, args, _) => {
                let arguments = positions_reads(args);
                let mut reads = arguments.pointers;
                let mut flow = if local == Some(*id) {
                    Flow::default()
                } else {
                    self.summary(*id).clone()
                };
                reads.union_with(&flow.exposed.minus(&self.state));
                flow.effect.reads.union_with(&reads);
                flow.effect.env_read |= arguments.env;
                flow.effect.data_reads.extend(arguments.data);
                Flow {
                    effect: Effect {
                        writes: Pointers::default(),
                        ..flow.effect
                    },
                    must: Pointers::default(),
                    exposed: reads,
                }
            }
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                let (then, otherwise) = (self.block(then, local), self.block(otherwise, local));
                let mut flow = self.condition(condition);
                flow.effect.add(&then.effect);
                flow.effect.add(&otherwise.effect);
                flow.exposed.union_with(&then.exposed);
                flow.exposed.union_with(&otherwise.exposed);
                flow.must = then.must.intersection(&otherwise.must);
                flow
            }
            Stmt::While {
                condition, body, ..
            } => {
                let body = self.block(body, local);
                let mut flow = self.condition(condition);
                flow.effect.add(&body.effect);
                flow.exposed.union_with(&body.exposed);
                flow
            }
            // `combinatorize` refuses these before converting.
            Stmt::Pass(_) | Stmt::Hole(..) | Stmt::ParamCall(_) | Stmt::Return { .. } => {
                Flow::default()
            }
        }
    }

    pub fn condition(&self, condition: &BoolExpr) -> Flow {
        let mut reads = Reads::default();
        condition_reads(condition, &mut reads);
        Flow::reading(reads)
    }

    /// The state pointers, as a set.
    pub fn state(&self) -> &Pointers {
        &self.state
    }

    /// Pointers that may be read after definition `id` returns.
    pub fn live_at_end(&self, id: DefId) -> &Pointers {
        self.live_at_end.get(id).unwrap_or(&self.nothing.1)
    }

    /// Live pointers when each definition returns, across definitions:
    /// what is live after a plain call `G()` is live when G returns. A
    /// program an applier refers to may be followed by anything, and in an
    /// environment that prints its registers (`ram`), the entry's are read.
    fn liveness(&mut self, all: &Pointers) {
        let printed = crate::env::environment(self.program.env)
            .has(Ability::Registers)
            .then_some(self.program.entry);
        let referenced = self.work.referenced_by_appliers.iter().copied();
        for id in referenced.chain(printed) {
            if let Some(live) = self.live_at_end.get_mut(id) {
                *live = all.clone();
            }
        }
        loop {
            let mut sites = HashMap::new();
            for &id in self.work.callees_first.iter().rev() {
                if let Some(body) = self.work.body(id) {
                    let end = self.live_at_end(id).clone();
                    self.record(body, end, &mut sites);
                }
            }
            let mut changed = false;
            for &id in self.work.callees_first.iter().rev() {
                for stmt in self.work.body(id).into_iter().flat_map(|b| calls(b)) {
                    if let (Stmt::Call(target, _), Some(live)) = (stmt, sites.get(&address(stmt)))
                        && let Some(end) = self.live_at_end.get_mut(*target)
                    {
                        changed |= end.union_with(live);
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Walks `stmts` backwards from `live` (the pointers live after it),
    /// recording what is live after each call.
    fn record(&self, stmts: &[Stmt], mut live: Pointers, sites: &mut HashMap<usize, Pointers>) {
        for stmt in stmts.iter().rev() {
            let flow = self.stmt(stmt, None);
            match stmt {
                Stmt::Call(..) | Stmt::StateCall(..) => {
                    sites.insert(address(stmt), live.clone());
                }
                Stmt::If {
                    then, otherwise, ..
                } => {
                    self.record(then, live.clone(), sites);
                    self.record(otherwise, live.clone(), sites);
                }
                // At the end of the body, the loop tests its condition again.
                Stmt::While { body, .. } => self.record(body, flow.live_before(&live), sites),
                Stmt::Act(_)
                | Stmt::Pass(_)
                | Stmt::Hole(..)
                | Stmt::ParamCall(_)
                | Stmt::Return { .. } => {}
            }
            live = flow.live_before(&live);
        }
    }
}

/// Identifies a statement of the working program, which never moves.
fn address(stmt: &Stmt) -> usize {
    std::ptr::from_ref(stmt) as usize
}
