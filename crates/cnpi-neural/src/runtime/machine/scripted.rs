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

use super::super::script::{Action, Block, First, Scripts, Simple};
use super::{Diagnostic, Machine, RowId};
use crate::runtime::row::Op;
use cnpi::exec::limits::POLL_EVERY;

/// An activation on the scripts' stack.
#[derive(Clone, Copy)]
struct Running {
    entry: u32,
    /// Its next step in the scripts.
    at: u32,
    /// The change counter when it started.
    version: u64,
}

impl<'m> Machine<'m, '_, '_> {
    /// Runs the activation `entry` of `scripts` (an applier's) to its end.
    pub(super) fn run_scripted(
        &mut self,
        scripts: &'m Scripts,
        entry: u32,
    ) -> Result<(), Diagnostic> {
        let budget = self.store.steps_left();
        let mut left = budget;
        let ran = self.scripted(scripts, entry, &mut left);
        self.store.spend(budget - left);
        ran
    }

    /// [`Self::run_scripted`] with `left` steps in the budget, counted
    /// down.
    #[inline(always)]
    fn scripted(
        &mut self,
        scripts: &'m Scripts,
        entry: u32,
        left: &mut u64,
    ) -> Result<(), Diagnostic> {
        let plan = self.plan;
        let mut poll_at = left.saturating_sub(POLL_EVERY);
        let mut below: Vec<Running> = Vec::new();
        let mut top = self.started(0, scripts, entry)?;
        loop {
            let step = scripts.step(top.at);
            if step.block.len > 0 && *left >= u64::from(step.block.len) {
                self.block(scripts, step.block, top.entry, left)?;
                match below.pop() {
                    Some(next) => top = next,
                    None => return Ok(()),
                }
                continue;
            }
            top.at += 1;
            let stepping = top.entry;
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
                        && self.store.version() == top.version
                    {
                        let e = scripts.entry(stepping);
                        return Err(self.loops(e.combinator, e.owner));
                    }
                    // The stepping activation stays below unless it returns.
                    let held = below.len() + usize::from(!step.ret);
                    let started = self.started(held, scripts, next)?;
                    let block = scripts.step(started.at).block;
                    if block.len > 0 && *left >= u64::from(block.len) {
                        // A script that is one block: run in place.
                        self.block(scripts, block, next, left)?;
                    } else {
                        if !step.ret {
                            below.push(top);
                        }
                        top = started;
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
                match below.pop() {
                    Some(next) => top = next,
                    None => return Ok(()),
                }
            }
        }
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
        let e = scripts.entry(entry);
        if held >= self.store.limits().max_depth {
            return Err(self.too_deep(e.owner));
        }
        self.require(e.combinator)?;
        let version = self.store.version();
        let at = match e.first {
            First::Known(at) => at,
            First::Fast(fast, starts) => {
                let bit = match scripts.fast(fast).bit(self.store.cells()) {
                    Some(bit) => bit,
                    None => self.encode(e.detector, None)?,
                };
                starts[usize::from(bit)]
            }
            First::Detect(starts) => starts[usize::from(self.detect(e.detector, None)?)],
        };
        Ok(Running { entry, at, version })
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::OnTheNetwork;
    use crate::core::Core;
    use crate::detector::Cache;
    use crate::memory::{Entry, Memory};
    use crate::runtime::row::Probe;
    use cnpi::exec::Options;
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
    fn ends_alike(program: &Program, network: &OnTheNetwork, input: &str) -> usize {
        let mut ends = 0;
        for max_steps in 0..40 {
            let run = |symbolic: bool| {
                let layout = cnpi::env::Declarations::of(program);
                let state = cnpi::env::read_input(&layout, input).expect("valid");
                let options = Options {
                    max_steps,
                    trace: None,
                    limits: Default::default(),
                };
                match symbolic {
                    true => cnpi::symbolic::run(program, state, options),
                    false => network.run(state, options, None),
                }
            };
            let expected = run(true);
            ends += usize::from(expected.is_ok());
            assert_eq!(run(false), expected, "{input} in {max_steps} steps");
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
            let (program, network) = on_the_network(text);
            let scripts = network
                .plan
                .scripts()
                .expect("every activation has a script");
            assert!(scripts.blocks.len() >= 3, "BODY's script is a block");
            let ends = ends_alike(&program, &network, "[5, 6, 7, 8]");
            assert_eq!(
                ends > 0,
                text.contains("MOVE(j"),
                "{text}: some budget is enough"
            );
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
            let (program, network) = on_the_network(text);
            let compiled = compiled_detectors(&network);
            assert_eq!(compiled, 1, "{text}: the sum's detector is compiled");
            for input in inputs {
                let ends = ends_alike(&program, &network, input);
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
        ];
        for (text, finishes) in cases {
            let (program, network) = on_the_network(text);
            let compiled = compiled_detectors(&network);
            assert_eq!(compiled, 1, "{text}: the offset's detector is compiled");
            let ends = ends_alike(&program, &network, r#"{"A": [3, 1, 4, 1]}"#);
            assert_eq!(ends > 0, finishes, "{text}");
        }
    }
}
