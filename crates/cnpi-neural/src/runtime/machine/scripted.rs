//! The cached machine's loop on scripts, for a run nobody watches.
//!
//! Each activation runs its script ([`crate::runtime::script`]): when it
//! starts, its first bit picks the script (or it is known), and every
//! step reads the next entry of the script and does its action. The checks
//! are the general loop's ([`Machine::step`]), in its order: the first
//! bit's detection, the core's decision, the step budget, the change a
//! loop must make, the stack's room, then the action. The activation on
//! top is held in locals, apart from those below it. Where the rest of a
//! script is a block (simple steps up to its return) and the budget holds
//! all of it, the block runs as one super-step: its steps are counted at
//! once, and an activation whose whole script is a block is not pushed at
//! all; with less budget left, the steps run one by one, so the budget
//! runs out at the same step with the same error. The budget is held in a
//! local count and recorded in the store when the run ends.

use super::super::automaton::{Automaton, CONTEXT, End, LEAF, Move, NONE, starts};
use super::super::script::{Action, Block, First, Scripts, Simple};
use super::jit::{self, Exit, Flow, Running, Stack, State};
use super::{Diagnostic, Machine, RowId};
use crate::runtime::row::Op;
use cnpi::env::internal;
use cnpi::exec::limits::POLL_EVERY;

/// How often (in edges the interpreter runs) the loop asks whether the
/// generated code is due, or to be entered again: at the multiples of it
/// that are [`sampled`], one in 8 on average.
const CODE_CHECKS: u32 = 1 << 10;

/// Whether the interpreter's `run`-th edge is counted: one in 8, spread
/// by a multiplicative hash so that no loop's period meets the same edge
/// each time (counting every edge cost 5 % of a run below the threshold).
#[inline(always)]
fn sampled(run: u32) -> bool {
    run.wrapping_mul(0x9e37_79b9) >> 29 == 0
}

/// Holds `running` at `depth` of a context.
#[inline(always)]
fn hold(held: &mut [Running; CONTEXT], depth: u32, running: Running) {
    if let Some(slot) = held.get_mut(depth as usize) {
        *slot = running;
    }
}

impl<'m> Machine<'m, '_, '_> {
    /// Runs the activation `entry` of `scripts` (an applier's) to its end.
    pub(super) fn run_scripted(
        &mut self,
        scripts: &'m Scripts,
        automaton: &'m Automaton,
        entry: u32,
    ) -> Result<(), Diagnostic> {
        let budget = self.store.steps_left();
        let mut left = budget;
        if self.jit.counts() {
            self.counts = vec![0; automaton.len()];
        }
        let ran = self.scripted(scripts, automaton, entry, &mut left);
        self.store.spend(budget - left);
        self.jit.ran(self.edges_run);
        ran
    }

    /// [`Self::run_scripted`] with `left` steps in the budget, counted
    /// down.
    #[inline(always)]
    fn scripted(
        &mut self,
        scripts: &'m Scripts,
        automaton: &'m Automaton,
        entry: u32,
        left: &mut u64,
    ) -> Result<(), Diagnostic> {
        let plan = self.plan;
        let mut poll_at = left.saturating_sub(POLL_EVERY);
        // What the generated code reads, the activations the edges hold
        // apart from the stack among it.
        let mut state = State::new(Running {
            entry,
            at: NONE,
            version: 0,
        });
        let mut stack = Stack {
            top: self.started(0, scripts, entry)?,
            below: Vec::new(),
        };
        loop {
            if let Some(edge) = automaton.index_at(stack.top.at)
                && self.edges(
                    scripts,
                    automaton,
                    edge,
                    &mut stack,
                    &mut state,
                    left,
                    &mut poll_at,
                )?
            {
                return Ok(());
            }
            // Where no edge runs: one step.
            let step = scripts.step(stack.top.at);
            if step.block.len > 0 && *left >= u64::from(step.block.len) {
                self.block(scripts, step.block, stack.top.entry, left)?;
                match stack.below.pop() {
                    Some(next) => stack.top = next,
                    None => return Ok(()),
                }
                continue;
            }
            stack.top.at += 1;
            let stepping = stack.top.entry;
            if let Action::NoDecision = step.action {
                return Err(self.no_decision(scripts.entry(stepping).combinator));
            }
            if *left == 0 {
                let owner = scripts.entry(stepping).owner;
                return Err((self.store).out_of_steps(self.name(owner), self.span(owner)));
            }
            *left -= 1;
            if *left <= poll_at {
                // An interrupt (Ctrl-C in Python) is seen here too, as on
                // the other paths, once at least every `POLL_EVERY` steps
                // (blocks count several at once).
                self.store.poll()?;
                poll_at = left.saturating_sub(POLL_EVERY);
            }
            match step.action {
                Action::Start(next) | Action::Restart { entry: next, .. } => {
                    if let Action::Restart { same: true, .. } = step.action
                        && self.store.version() == stack.top.version
                    {
                        let e = scripts.entry(stepping);
                        return Err(self.loops(e.combinator, e.owner));
                    }
                    // The stepping activation stays stack.below unless it returns.
                    let held = stack.below.len() + usize::from(!step.ret);
                    let started = self.started(held, scripts, next)?;
                    let block = scripts.step(started.at).block;
                    if block.len > 0 && *left >= u64::from(block.len) {
                        // A script that is one block: run in place.
                        self.block(scripts, block, next, left)?;
                    } else {
                        if !step.ret {
                            stack.below.push(stack.top);
                        }
                        stack.top = started;
                        continue;
                    }
                }
                Action::Act(row) => self.act(row as RowId)?,
                Action::Applier(row) => {
                    let row = row as RowId;
                    self.run_applier(row, plan.op(row), 0)?
                }
                Action::Builtin(builtin) => self.builtin(builtin, scripts.entry(stepping).owner)?,
                // `NoDecision` returned above.
                Action::Nop | Action::NoDecision => {}
                Action::Invalid { slot, row } => {
                    let owner = scripts.entry(stepping).owner;
                    return Err(self.unrunnable(slot, owner, row as RowId));
                }
            }
            if step.ret {
                match stack.below.pop() {
                    Some(next) => stack.top = next,
                    None => return Ok(()),
                }
            }
        }
    }

    /// Runs edges from `edge` on, from `stack`, their steps counted down
    /// from `left`, until one cannot run: true when the run's first
    /// activation returned (the run's end), else false with the activations
    /// held apart put on the stack and `stack.top.at` where that edge
    /// starts. The budget and the next poll are locals meanwhile.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn edges(
        &mut self,
        scripts: &'m Scripts,
        automaton: &'m Automaton,
        edge: u32,
        stack: &mut Stack,
        state: &mut State,
        left: &mut u64,
        poll_at: &mut u64,
    ) -> Result<bool, Diagnostic> {
        let (mut steps_left, mut poll) = (*left, *poll_at);
        let ran = self.edges_from(
            scripts,
            automaton,
            edge,
            stack,
            state,
            &mut steps_left,
            &mut poll,
        );
        (*left, *poll_at) = (steps_left, poll);
        ran
    }

    /// [`Self::edges`] on the locals `left` and `poll_at`: the edges run
    /// by the generated code where there is some ([`super::jit`]), else
    /// (and where it stops) by the interpreter.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn edges_from(
        &mut self,
        scripts: &'m Scripts,
        automaton: &'m Automaton,
        mut e: u32,
        stack: &mut Stack,
        state: &mut State,
        left: &mut u64,
        poll_at: &mut u64,
    ) -> Result<bool, Diagnostic> {
        let max_depth = self.store.limits().max_depth;
        let mut code = self.code(automaton);
        loop {
            // The code entered at an edge it runs (or runs on: the edge of
            // the empty context where `e` starts), not to stop at once.
            let entry = code.and_then(|jitted| match jitted.holds(e) {
                true => Some((jitted, e)),
                false => jit::onto_code(jitted, automaton, e, stack, &state.held)
                    .map(|empty| (jitted, empty)),
            });
            if let Some((jitted, entry)) = entry {
                let exit = self.jitted(
                    jitted, scripts, automaton, entry, stack, state, left, poll_at,
                )?;
                match exit {
                    Exit::Stop(stopped) => {
                        let held = &state.held;
                        match jit::onto_code(jitted, automaton, stopped, stack, held) {
                            Some(empty) => {
                                e = empty;
                                continue;
                            }
                            None => e = stopped,
                        }
                    }
                    Exit::End(ended) => {
                        match self.end(scripts, automaton, ended, stack)? {
                            Flow::Edge(next) => e = next,
                            Flow::Out(done) => return Ok(done),
                        }
                        continue;
                    }
                    // Errors, returned by `jitted`.
                    Exit::Fail(..) | Exit::Loops(..) => {}
                }
                if !self.still_worth() {
                    code = None;
                }
            }
            let Some(edge) = automaton.edge(e) else {
                return Err(internal("an edge leads to no edge"));
            };
            self.edges_run = self.edges_run.saturating_add(1);
            if sampled(self.edges_run) {
                if let Some(count) = self.counts.get_mut(e as usize) {
                    *count = count.wrapping_add(1);
                }
                let counting = !self.counts.is_empty();
                if (code.is_none() || counting) && self.edges_run.is_multiple_of(CODE_CHECKS) {
                    code = self.code(automaton);
                }
            }
            let held = &mut state.held;
            let steps = u64::from(edge.steps);
            if *left < steps
                || u64::from(self.required) & edge.requires != edge.requires
                || stack.below.len() + edge.room as usize >= max_depth
            {
                stack.flush(held, automaton.context(edge.context));
                stack.top.at = edge.start;
                return Ok(false);
            }
            *left -= steps;
            for moved in automaton.moves(edge) {
                if let Err(error) = self.take(scripts, automaton, moved.what, stack, held) {
                    // The steps after the one that failed are not taken.
                    *left += steps - u64::from(moved.done);
                    return Err(error);
                }
            }
            if *left <= *poll_at {
                self.store.poll()?;
                *poll_at = left.saturating_sub(POLL_EVERY);
            }
            match self.end(scripts, automaton, e, stack)? {
                Flow::Edge(next) => e = next,
                Flow::Out(done) => return Ok(done),
            }
        }
    }

    /// Where the edges go after edge `e`, whose moves are done: its end
    /// read (the generated code asks this of the bits it does not read).
    #[inline(always)]
    pub(super) fn end(
        &mut self,
        scripts: &'m Scripts,
        automaton: &'m Automaton,
        e: u32,
        stack: &mut Stack,
    ) -> Result<Flow, Diagnostic> {
        let Some(edge) = automaton.edge(e) else {
            return Err(internal("an edge leads to no edge"));
        };
        let next = match edge.end {
            End::Bit { entry, fast, next } => {
                let bit = match scripts.fast_at(fast).and_then(|f| self.fast_bit(f)) {
                    Some(bit) => bit,
                    // Not compiled, or a feature failed: as the scripts read it.
                    None => self.bit(scripts, entry)?,
                };
                next[usize::from(bit)]
            }
            End::Walk { root, resume } => self.walk(automaton, root, resume)?,
            End::Next(next) => next,
            End::Return => {
                return Ok(match stack.below.pop() {
                    Some(next) => {
                        stack.top = next;
                        match automaton.index_at(next.at) {
                            Some(next) => Flow::Edge(next),
                            None => Flow::Out(false),
                        }
                    }
                    None => Flow::Out(true),
                });
            }
        };
        Ok(Flow::Edge(next))
    }

    /// The next edge of an [`End::Walk`] from hop `root` (`_resume` read
    /// where `resume`): each hop's feature read from the store, its state
    /// leading to the next hop or to the edge.
    #[inline(always)]
    fn walk(&self, automaton: &'m Automaton, root: u32, resume: bool) -> Result<u32, Diagnostic> {
        let cells = self.store.cells();
        let cells = match resume {
            true => cells.with_resume(self.store.frames().resume()),
            false => cells,
        };
        let mut at = root;
        loop {
            let Some(hop) = automaton.hop(at) else {
                return Err(internal("a diagram's hop leads to no hop"));
            };
            let to = hop.to.get(hop.feature.plain_state(cells)).copied();
            match to {
                Some(to) if to & LEAF != 0 => return Ok(to & !LEAF),
                Some(to) => at = to,
                None => return Err(internal("a feature's state past its relations")),
            }
        }
    }

    /// One move of an edge, by `stack`'s top, `held` the activations the
    /// edge holds apart from the stack.
    #[inline(always)]
    pub(super) fn take(
        &mut self,
        scripts: &'m Scripts,
        automaton: &'m Automaton,
        what: Move,
        stack: &mut Stack,
        held: &mut [Running; CONTEXT],
    ) -> Result<(), Diagnostic> {
        let top = &mut stack.top;
        match what {
            Move::Set { p, q, k, row } => {
                let q = (q != NONE).then_some(q as usize);
                if !self.set_affine(p as usize, q, k) {
                    self.act(row as RowId)?;
                }
            }
            Move::Act(row) => self.act(row as RowId)?,
            Move::Builtin(builtin) => self.builtin(builtin, scripts.entry(top.entry).owner)?,
            Move::Call { next, depth } => {
                hold(held, depth, *top);
                *top = self.begun(next);
            }
            Move::Tail { next } => *top = self.begun(next),
            Move::Restart { next, same, depth } => {
                if same && self.store.version() == top.version {
                    let e = scripts.entry(top.entry);
                    return Err(self.loops(e.combinator, e.owner));
                }
                if depth != NONE {
                    hold(held, depth, *top);
                }
                *top = self.begun(next);
            }
            Move::Pop { depth } => {
                if let Some(back) = held.get(depth as usize) {
                    *top = *back;
                }
            }
            Move::Flush(context) => stack.flush(held, automaton.context(context)),
        }
        Ok(())
    }

    /// Runs `block` of an activation of `entry` as one super-step: its
    /// steps counted from `left` at once (which holds them), and given
    /// back past an action that fails.
    #[inline(always)]
    fn block(
        &mut self,
        scripts: &'m Scripts,
        block: Block,
        entry: u32,
        left: &mut u64,
    ) -> Result<(), Diagnostic> {
        let actions = scripts.block(block);
        *left -= actions.len() as u64;
        for (done, &action) in actions.iter().enumerate() {
            let ran = match action {
                Simple::Act(row) => self.act(row as RowId),
                Simple::Builtin(builtin) => self.builtin(builtin, scripts.entry(entry).owner),
                Simple::Nop => Ok(()),
            };
            if let Err(error) = ran {
                *left += (actions.len() - done - 1) as u64;
                return Err(error);
            }
        }
        Ok(())
    }

    /// Applies the ACT of applier `row` (parsed in the plan).
    #[inline(always)]
    fn act(&mut self, row: RowId) -> Result<(), Diagnostic> {
        let plan = self.plan;
        match plan.op(row) {
            Op::Act(act) => self.apply(act),
            op => self.run_applier(row, op, 0),
        }
    }

    /// The activation `entry` started above `held` others, as
    /// [`Machine::start`] starts one, with its first bit read: where its
    /// script starts.
    #[inline(always)]
    fn started(
        &mut self,
        held: usize,
        scripts: &'m Scripts,
        entry: u32,
    ) -> Result<Running, Diagnostic> {
        let begun = self.begin(held, scripts, entry)?;
        let at = self.first(scripts, entry)?;
        Ok(Running { at, ..begun })
    }

    /// The activation `entry` started above `held` others, as
    /// [`Machine::start`] starts one, before its first bit is read (its
    /// position is then to be set).
    #[inline(always)]
    fn begin(
        &mut self,
        held: usize,
        scripts: &'m Scripts,
        entry: u32,
    ) -> Result<Running, Diagnostic> {
        let e = scripts.entry(entry);
        if held >= self.store.limits().max_depth {
            return Err(self.too_deep(e.owner));
        }
        self.require(e.combinator)?;
        Ok(self.begun(entry))
    }

    /// The activation `entry` begun now (its depth and combinator checked
    /// by the caller), its position to be set.
    #[inline(always)]
    fn begun(&self, entry: u32) -> Running {
        Running {
            entry,
            at: NONE,
            version: self.store.version(),
        }
    }

    /// Where the script of an activation of `entry`, just begun, starts:
    /// its first bit read (or known).
    #[inline(always)]
    fn first(&self, scripts: &'m Scripts, entry: u32) -> Result<u32, Diagnostic> {
        let bit = self.bit(scripts, entry)?;
        Ok(starts(scripts, entry)[usize::from(bit)])
    }

    /// The first bit of an activation of `entry`, just begun (false where
    /// it is known, whose script is the same for both).
    #[inline(always)]
    fn bit(&self, scripts: &'m Scripts, entry: u32) -> Result<bool, Diagnostic> {
        let e = scripts.entry(entry);
        match e.first {
            First::Known(_) => Ok(false),
            First::Fast(fast, _) => match self.fast_bit(scripts.fast(fast)) {
                Some(bit) => Ok(bit),
                None => self.encode(e.detector, None),
            },
            First::Detect(_) => self.detect(e.detector, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{JitMode, OnTheNetwork};
    use super::super::jit;
    use crate::core::Core;
    use crate::detector::Cache;
    use crate::memory::{Entry, Memory};
    use crate::runtime::automaton::Move;
    use crate::runtime::row::Probe;
    use cnpi::exec::Options;
    use cnpi::exec::limits::Limits;
    use cnpi::plan::NetworkEngine;
    use cnpi::program::Program;

    /// `text` compiled and put on the network (with the caches).
    fn on_the_network(text: &str) -> (Program, OnTheNetwork) {
        let core = Core::shipped().expect("the shipped core loads");
        let program = cnpi::compile::compile("block.cnpi", text, None).program;
        let program = program.expect("compiles");
        let memory =
            Memory::with_program(&program, "block.cnpi", text, 11, &Cache::none()).expect("builds");
        let entry = Entry::of_unit(&memory, 0).expect("one program");
        let network = OnTheNetwork::new(core, memory, entry, true).expect("verified");
        (program, network)
    }

    /// How many of `network`'s detectors are compiled fast detectors.
    fn compiled_detectors(network: &OnTheNetwork) -> usize {
        (0..network.memory.detectors.len())
            .filter(|&id| matches!(network.plan.probe(id), Probe::Fast(_)))
            .count()
    }

    /// Runs `program` on `network` and on the reference interpreter on
    /// `input` with every step budget up to 39: the runs end alike (the
    /// same state and steps, or the same error at the same step). How
    /// many ended without an error.
    fn ends_alike(program: &Program, network: &mut OnTheNetwork, input: &str) -> usize {
        ends_alike_within(program, network, input, 0..40, Default::default())
    }

    /// [`ends_alike`] with the step budgets `budgets` and the limits
    /// `limits`, the edges run by the interpreter alone, by the generated
    /// code (made at the first edge, if an edge runs), and by code of the
    /// edges of the empty context alone (where the others run on them,
    /// their held activations pushed on the stack).
    fn ends_alike_within(
        program: &Program,
        network: &mut OnTheNetwork,
        input: &str,
        budgets: std::ops::Range<u64>,
        limits: Limits,
    ) -> usize {
        let mut ends = 0;
        let (_, automaton) = network.plan.scripts().expect("scripts");
        let edges = (0..automaton.len() as u32).filter_map(|e| automaton.edge(e));
        let empty = edges.filter(|edge| edge.context == 0).count();
        for (mode, most) in [
            (JitMode::Off, None),
            (JitMode::Eager, None),
            (JitMode::Eager, Some(empty)),
        ] {
            match most {
                Some(most) => network.set_jit_of(mode, most),
                None => network.set_jit(mode),
            }
            ends = 0;
            for max_steps in budgets.clone() {
                let run = |symbolic: bool| {
                    let layout = cnpi::env::Declarations::of(program);
                    let state = cnpi::env::read_input(&layout, input).expect("valid");
                    let options = Options {
                        max_steps,
                        trace: None,
                        limits,
                    };
                    match symbolic {
                        true => cnpi::symbolic::run(program, state, options),
                        false => network.run(state, options, None),
                    }
                };
                let expected = run(true);
                ends += usize::from(expected.is_ok());
                assert_eq!(
                    run(false),
                    expected,
                    "{input} in {max_steps} steps, {mode:?}, {most:?} edges"
                );
            }
            assert!(mode == JitMode::Eager || !network.jit.made());
        }
        ends
    }

    /// Every step budget, on programs whose loop body is one block (three
    /// simple steps run in place): the run ends as the reference
    /// interpreter's, with its error where the budget runs out in the
    /// middle of a block, and where an ACT of a block fails (a `SWAP` out
    /// of the array; a `SET` from the pointers whose sum overflows, its
    /// three shapes `P[q] + k`, `P[q]` and `k`).
    #[test]
    fn a_budget_that_runs_out_inside_a_block_stops_at_the_same_step() {
        let texts = [
            "env array(i = 0, j = 0)\ndef BODY: seq(; MOVE(i, RIGHT), MOVE(j, RIGHT), NOP)\n\
             def LOOP: linrec(A[i] != END?; BODY, NOP, NOP)\n",
            "env array(i = 0, j = 5)\ndef BODY: seq(; MOVE(i, RIGHT), SWAP(i, j), NOP)\n\
             def LOOP: linrec(A[i] != END?; BODY, NOP, NOP)\n",
            "env array(i = 0, j = 0)\n\
             def BODY: seq(; SET(j, i + 4611686018427387904), SET(i, j), SET(j, 7))\n\
             def LOOP: linrec(i >= 0?; BODY, NOP, NOP)\n",
        ];
        for text in texts {
            let (program, mut network) = on_the_network(text);
            let (scripts, _) = network
                .plan
                .scripts()
                .expect("every activation has a script");
            assert!(scripts.blocks.len() >= 3, "BODY's script is a block");
            let ends = ends_alike(&program, &mut network, "[5, 6, 7, 8]");
            assert_eq!(
                ends > 0,
                text.contains("MOVE(j"),
                "{text}: some budget is enough"
            );
        }
    }

    /// `WRITE` and `SWAP` of array cells, done in the generated code: a
    /// loop whose only change is a store goes on (the change counter
    /// moved on), one whose store writes the value already there never
    /// finishes (not moved on), and a store outside the array, or whose
    /// index or value overflows, fails; at every budget the run ends as
    /// the reference interpreter's (the same cells and steps, or the same
    /// error at the same step).
    #[test]
    fn array_stores_in_the_code_end_as_the_reference() {
        let cases = [
            (
                "env ram()\ninput A[n]\n\
                 def BODY: seq(; SWAP(A[0], A[1]), SWAP(A[1], A[2]), NOP)\n\
                 def LOOP: linrec(A[0] != 9?; BODY, NOP, NOP)\n",
                r#"{"A": [1, 5, 9]}"#,
                true,
            ),
            (
                "env ram(i = 0, j = 2)\ninput A[n]\n\
                 def BODY: seq(; WRITE(A[i], j + 3), SET(j, j - 1), SET(i, i + 1))\n\
                 def LOOP: linrec(i < n?; BODY, NOP, NOP)\n",
                r#"{"A": [4, 1, 8, 2]}"#,
                true,
            ),
            (
                "env ram(i = 1)\ninput A[n]\n\
                 def BODY: seq(; WRITE(A[i], 7), NOP, NOP)\n\
                 def LOOP: linrec(A[i] == 7?; BODY, NOP, NOP)\n",
                r#"{"A": [1, 7, 9]}"#,
                false,
            ),
            (
                "env ram(i = 0, j = 2)\ninput A[n]\n\
                 def BODY: seq(; WRITE(A[i], j + 3), SWAP(A[i], A[i + 1]), SET(i, i + 1))\n\
                 def LOOP: linrec(i < n?; BODY, NOP, NOP)\n",
                r#"{"A": [4, 1, 8, 2]}"#,
                false,
            ),
            (
                "env ram(i = 3, j = 9223372036854775806)\ninput A[n]\n\
                 def BODY: seq(; WRITE(A[i - 1], i), SET(i, i - 1), WRITE(A[i], j + i))\n\
                 def LOOP: linrec(i >= 0?; BODY, NOP, NOP)\n",
                r#"{"A": [4, 1, 8, 2]}"#,
                false,
            ),
            // A matrix: cells at pointers plus constants, values read from
            // cells, summed with a number or a cell (the walk along the
            // row leaves the matrix at its end, the sum overflows at the
            // last cell, a store writes what is there).
            (
                "env ram(i = 1, j = 1)\ninput M[n][n]\n\
                 def BODY: seq(; WRITE(M[i][j], M[i - 1][j - 1] + 1), SET(j, j + 1), NOP)\n\
                 def LOOP: linrec(j < n?; BODY, NOP, NOP)\n",
                r#"{"M": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]}"#,
                true,
            ),
            (
                "env ram(i = 1, j = 0)\ninput M[n][n]\n\
                 def BODY: seq(; WRITE(M[i][j], M[i - 1][j] + M[i][j + 1]), SET(j, j + 1), NOP)\n\
                 def LOOP: linrec(j <= n?; BODY, NOP, NOP)\n",
                r#"{"M": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]}"#,
                false,
            ),
            (
                "env ram(i = 0, j = 0)\ninput M[n][n]\n\
                 def BODY: seq(; WRITE(M[i + 1][j], M[i][j] + M[i][j]), SET(j, j + 1), NOP)\n\
                 def LOOP: linrec(j < n?; BODY, NOP, NOP)\n",
                r#"{"M": [[1, 4611686018427387904, 3], [4, 5, 6], [7, 8, 9]]}"#,
                false,
            ),
            (
                "env ram(i = 1, j = 2)\ninput M[n][n]\n\
                 def BODY: seq(; WRITE(M[i][0], M[0][j]), SWAP(M[i][j], M[j][i]), NOP)\n\
                 def LOOP: linrec(M[i][0] != 0?; BODY, NOP, NOP)\n",
                r#"{"M": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]}"#,
                false,
            ),
            // `SET`s of values read from cells: to the end of the array
            // (then END), past a sum that overflows, a loop whose only
            // change is the `SET`, and one that sets what is there (a
            // loop that never finishes).
            (
                "env ram(i = 0, x = 0)\ninput A[n]\n\
                 def BODY: seq(; SET(x, A[i] + x), SET(i, i + 1), NOP)\n\
                 def LOOP: linrec(i < n?; BODY, NOP, NOP)\n",
                r#"{"A": [4, 1, 8, 2]}"#,
                true,
            ),
            (
                "env ram(i = 0, x = 0)\ninput A[n]\n\
                 def BODY: seq(; SET(x, A[i] + x), SET(i, i + 1), SET(x, A[i + 1]))\n\
                 def LOOP: linrec(i <= n?; BODY, NOP, NOP)\n",
                r#"{"A": [4, 9223372036854775806, 8, 2]}"#,
                false,
            ),
            (
                "env ram(i = 0, x = 0)\ninput A[n]\n\
                 def BODY: seq(; SET(x, A[i] + x), NOP, NOP)\n\
                 def LOOP: linrec(x < 5?; BODY, NOP, NOP)\n",
                r#"{"A": [1, 1, 8, 2]}"#,
                true,
            ),
            (
                "env ram(i = 0, x = 0)\ninput A[n]\n\
                 def BODY: seq(; SET(x, A[i] + x), NOP, NOP)\n\
                 def LOOP: linrec(x < 5?; BODY, NOP, NOP)\n",
                r#"{"A": [0, 1, 8, 2]}"#,
                false,
            ),
        ];
        for (text, input, finishes) in cases {
            let (program, mut network) = on_the_network(text);
            let (_, automaton) = network.plan.scripts().expect("scripts");
            let edges = (0..automaton.len() as u32).filter_map(|e| automaton.edge(e));
            let stores = (edges.flat_map(|edge| automaton.moves(edge)))
                .filter(|moved| match moved.what {
                    Move::Act(row) => jit::code_act(&network.plan, row).is_some(),
                    _ => false,
                })
                .count();
            assert!(stores > 0, "{text}: an edge stores array cells");
            let ends = ends_alike_within(&program, &mut network, input, 0..60, Limits::default());
            assert_eq!(ends > 0, finishes, "{text}");
        }
    }

    /// A detector with a sum (`A[i] + A[j]`), compiled, the sum computed
    /// first: where it reads END (`j` past the end) or overflows, the run
    /// fails as the reference interpreter's, at the same step with the
    /// same error, at every budget; where the condition's evaluation does
    /// not reach the sum (`i > 5` false), the run goes on as the
    /// reference's does.
    #[test]
    fn a_sum_that_fails_in_a_compiled_detector_fails_at_the_same_step() {
        let texts = [
            "env ram(i = 0, j = 1)\ninput A[n]\n\
             def BODY: seq(; SET(i, i + 1), SET(j, j + 1), NOP)\n\
             def LOOP: linrec(A[i] + A[j] < 100?; BODY, NOP, NOP)\n",
            "env ram(i = 0, j = 1)\ninput A[n]\n\
             def BODY: seq(; SET(i, i + 1), SET(j, j + 1), NOP)\n\
             def LOOP: linrec(i > 5 and A[i] + A[j] < 100 or j < n?; BODY, NOP, NOP)\n",
        ];
        let inputs = [
            r#"{"A": [1, 2, 3, 4]}"#,
            r#"{"A": [4611686018427387904, 4611686018427387904, 1, 2]}"#,
        ];
        for text in texts {
            let (program, mut network) = on_the_network(text);
            let compiled = compiled_detectors(&network);
            assert_eq!(compiled, 1, "{text}: the sum's detector is compiled");
            for input in inputs {
                let ends = ends_alike(&program, &mut network, input);
                assert_eq!(ends > 0, text.contains("j < n"), "{text} on {input}");
            }
        }
    }

    /// A detector reading an array at a pointer plus a constant
    /// (`A[j - 1]`), compiled: below the array it reads END as the
    /// reference does, and where the index overflows the run fails as the
    /// reference interpreter's, at the same step with the same error, at
    /// every budget.
    #[test]
    fn an_offset_index_that_overflows_in_a_compiled_detector_fails_at_the_same_step() {
        let cases = [
            (
                "env ram(j = 0)\ninput A[n]\n\
                 def BODY: seq(; SET(j, j + 1), NOP, NOP)\n\
                 def LOOP: linrec(A[j] < A[j - 1] or j < n?; BODY, NOP, NOP)\n",
                true,
            ),
            (
                "env ram(j = 0)\ninput A[n]\n\
                 def BODY: seq(; SET(j, j - 4611686018427387904), NOP, NOP)\n\
                 def LOOP: linrec(A[j - 1] < 100 or j < 1?; BODY, NOP, NOP)\n",
                false,
            ),
            (
                "env ram(i = 1, j = 0)\ninput A[n]\ninput M[n][n]\n\
                 def BODY: seq(; SET(j, j + 1), NOP, NOP)\n\
                 def LOOP: linrec(M[i][j] < M[i - 1][j - 1] or j < n?; BODY, NOP, NOP)\n",
                true,
            ),
            (
                "env ram(i = 0, j = 0)\ninput A[n]\ninput M[n][n]\n\
                 def BODY: seq(; SET(j, j - 4611686018427387904), NOP, NOP)\n\
                 def LOOP: linrec(M[i][j - 1] < 100 or j < 1?; BODY, NOP, NOP)\n",
                false,
            ),
        ];
        for (text, finishes) in cases {
            let (program, mut network) = on_the_network(text);
            let compiled = compiled_detectors(&network);
            assert_eq!(compiled, 1, "{text}: the offset's detector is compiled");
            let input = match text.contains("M[n][n]") {
                true => {
                    r#"{"A": [3, 1, 4, 1], "M": [[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8], [9, 7, 9, 3]]}"#
                }
                false => r#"{"A": [3, 1, 4, 1]}"#,
            };
            let ends = ends_alike(&program, &mut network, input);
            assert_eq!(ends > 0, finishes, "{text}");
        }
    }

    /// The automaton's edges on nested loops whose `if` bodies are calls
    /// (held in an edge's context, returned to without the stack), and on
    /// a chain of calls deeper than a context holds (put on the stack
    /// mid-edge): at every step budget, and with a depth limit that the
    /// chain reaches, the run ends as the reference interpreter's (the
    /// same state and steps, or the same error at the same step).
    #[test]
    fn edges_end_as_the_reference_at_every_budget_and_depth() {
        let nested = "env ram(i = 0, j = 0, s = 0)\ninput A[n]\n\
             def ADD: seq(; SET(s, s + 1), NOP, NOP)\n\
             def IF: cond(A[j] > A[i]?; ADD, NOP, NOP)\n\
             def INNER: linrec(j < n?; IF, SET(j, j + 1), NOP)\n\
             def BODY: seq(; SET(j, 0), INNER, SET(i, i + 1))\n\
             def OUTER: linrec(i < n?; BODY, NOP, NOP)\n";
        let mut chain = String::from("env ram(i = 0)\ninput A[n]\n");
        for k in 0..11 {
            chain.push_str(&format!("def C{k}: seq(; C{}, NOP, NOP)\n", k + 1));
        }
        chain.push_str("def C11: seq(; SET(i, i + 1), NOP, NOP)\n");
        chain.push_str("def LOOP: linrec(i < n?; C0, NOP, NOP)\n");
        let input = r#"{"A": [3, 1, 4, 1, 5]}"#;
        for text in [nested, chain.as_str()] {
            let (program, mut network) = on_the_network(text);
            let (_, automaton) = network.plan.scripts().expect("scripts");
            assert!(automaton.contexts() > 1, "some edge holds activations");
            let ends = ends_alike_within(&program, &mut network, input, 0..400, Limits::default());
            assert!(ends > 0, "{text}: some budget is enough");
            assert_eq!(network.jit.made(), cfg!(target_arch = "x86_64"));
            for max_depth in 0..16 {
                let limits = Limits {
                    max_depth,
                    ..Limits::default()
                };
                ends_alike_within(&program, &mut network, input, 395..400, limits);
            }
        }
    }

    /// A recursive depth-first search, run on frames in its combinatory
    /// form, whose returns dispatch on `_resume` read from laid-out
    /// diagrams at the edges' ends: at every step budget, and with every
    /// depth limit from 0 to 15, the run ends as the reference
    /// interpreter's (the same state and steps, or the same error at the
    /// same step).
    #[test]
    fn a_program_on_frames_ends_as_the_reference_at_every_budget_and_depth() {
        let source = "env ram()\ninput A[n][n]\nvar seen[n] = 0\nvar t = 0\n\n\
            def MAIN(A):\n  for u = 0 to n - 1:\n    if seen[u] == 0:\n      VISIT(A, u)\n\n\
            def VISIT(A, u):\n  t += 1\n  seen[u] = t\n  for v = 0 to n - 1:\n    \
            if A[u][v] != 0 and seen[v] == 0:\n      VISIT(A, v)\n";
        let program = cnpi::compile::compile("dfs.cnpi", source, None).program;
        let program = program.expect("compiles");
        let text = (cnpi::combinatorize::combinatorize(&program, source, "dfs.cnpi"))
            .expect("combinatorizes")
            .text;
        assert!(text.contains("_resume"), "the program runs on frames");
        let (program, mut network) = on_the_network(&text);
        let (_, automaton) = network.plan.scripts().expect("scripts");
        assert!(
            automaton.walks_reading_resume() > 0,
            "a diagram reads _resume"
        );
        let input = r#"{"A": [[0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 0, 0], [0, 1, 1, 0]]}"#;
        let steps = ends_alike_within(&program, &mut network, input, 0..2000, Limits::default());
        assert!(steps > 0, "some budget is enough");
        assert_eq!(network.jit.made(), cfg!(target_arch = "x86_64"));
        for max_depth in 0..16 {
            let limits = Limits {
                max_depth,
                ..Limits::default()
            };
            ends_alike_within(&program, &mut network, input, 1990..2000, limits);
        }
    }
}
