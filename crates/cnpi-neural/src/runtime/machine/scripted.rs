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
//! runs out at the same step with the same error. A pair of blocks under
//! a fast detector's bit ([`super::super::script::Pair`]) runs in place
//! the same way when the budget holds its longer side, its differing ACTs
//! applied under the bit. The budget is held in a
//! local count and recorded in the store when the run ends.

use super::super::script::{Action, Block, First, Scripts, Simple};
use super::{Diagnostic, MAX_TASKS, Machine, RowId};
use crate::runtime::plan::Op;

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
                    if let Some(pair) = scripts.entry(next).pair
                        && *left >= u64::from(scripts.pair(pair).most)
                    {
                        // Two scripts that are blocks, under a bit: in place.
                        self.pair(scripts, pair, next, held, left)?;
                    } else {
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

    /// Runs pair `at` ([`super::super::script::Pair`]) of an activation of `entry` started
    /// above `held` others, in place, as [`Self::started`] then
    /// [`Self::block`] would run the script its bit chose: the ACTs where
    /// the sides differ applied under the bit, then the common end; the
    /// side's steps counted from `left` (which holds the longer side), and
    /// given back past an ACT that fails.
    #[inline(always)]
    fn pair(
        &mut self,
        scripts: &'m Scripts,
        at: u32,
        entry: u32,
        held: usize,
        left: &mut u64,
    ) -> Result<(), Diagnostic> {
        let e = scripts.entry(entry);
        if held >= MAX_TASKS {
            return Err(self.too_deep(e.owner));
        }
        self.require(e.combinator)?;
        let pair = scripts.pair(at);
        let bit = match scripts.fast(pair.fast).bit(&self.store.view()) {
            Some(bit) => bit,
            None => self.encode(e.detector, None)?,
        };
        // The side's steps before the common end.
        let before = pair.steps[usize::from(bit)] - pair.end.len;
        *left -= u64::from(before);
        for guarded in scripts.guarded(pair) {
            if !self.act_if(guarded.row, guarded.side == bit)
                && let Err(error) = self.act(guarded.row as RowId)
            {
                *left += u64::from(before - guarded.at - 1);
                return Err(error);
            }
        }
        self.block(scripts, pair.end, entry, left)
    }

    /// Applies the ACT of applier `row` (a flat `SET` or a compiled ACT)
    /// if `run`, else nothing, with no branch on `run`: false only where
    /// `run` holds and the ACT must be applied as written (for its error).
    #[inline(always)]
    fn act_if(&mut self, row: u32, run: bool) -> bool {
        let Op::Act(act) = self.plan.op(row as RowId) else {
            return !run;
        };
        if let Some((p, value)) = &act.set {
            let store = &self.store;
            return match value.eval(&store.state().view(store.pointers())) {
                Ok(value) => self.store.set_pointer_if(*p, value, run),
                Err(_) => !run,
            };
        }
        match &act.compiled {
            Some(compiled) => self.store.apply_compiled_if(compiled, run),
            None => !run,
        }
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
        if held >= MAX_TASKS {
            return Err(self.too_deep(e.owner));
        }
        self.require(e.combinator)?;
        let version = self.store.version();
        let at = match e.first {
            First::Known(at) => at,
            First::Fast(fast, starts) => {
                let bit = match scripts.fast(fast).bit(&self.store.view()) {
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
    use super::super::super::script::{First, Scripts};
    use crate::core::Core;
    use crate::detector::Cache;
    use crate::memory::{Entry, Memory};
    use cnpi::exec::Options;
    use cnpi::plan::Network;
    use cnpi::program::Program;

    /// `text` compiled and put on the network (with the exact caches).
    fn on_the_network(text: &str) -> (Program, OnTheNetwork) {
        let core = Core::shipped().expect("the shipped core loads");
        let program = cnpi::compile::compile("t.cnpi", text, None).program;
        let program = program.expect("compiles");
        let memory =
            Memory::with_program(&program, "t.cnpi", text, 11, &Cache::none()).expect("builds");
        let entry = Entry::of_unit(&memory, 0).expect("one program");
        let network = OnTheNetwork::new(core, memory, entry, true).expect("verified");
        (program, network)
    }

    /// The scripts `network` runs.
    fn scripts(network: &OnTheNetwork) -> &Scripts {
        (network.plan.scripts()).expect("every activation has a script")
    }

    /// The run of `program` on `input` in `max_steps` steps, on `network`
    /// or by the reference interpreter.
    fn run(
        program: &Program,
        network: Option<&OnTheNetwork>,
        input: &str,
        max_steps: u64,
    ) -> cnpi::exec::compare::Run {
        let layout = cnpi::env::Declarations::of(program);
        let state = cnpi::env::read_input(program.env, &layout, input).expect("valid");
        let options = Options {
            max_steps,
            trace: None,
        };
        match network {
            None => cnpi::symbolic::run(program, state, options),
            Some(network) => network.run(state, options, None),
        }
    }

    /// Every step budget, on programs whose loop body is one block (three
    /// simple steps run in place): the run ends as the reference
    /// interpreter's, with its error where the budget runs out in the
    /// middle of a block, and where an ACT of a block fails.
    #[test]
    fn a_budget_that_runs_out_inside_a_block_stops_at_the_same_step() {
        let texts = [
            "env array(i = 0, j = 0)\ndef BODY: seq(; MOVE(i, RIGHT), MOVE(j, RIGHT), NOP)\n\
             def LOOP: linrec(A[i] != END?; BODY, NOP, NOP)\n",
            "env array(i = 0, j = 5)\ndef BODY: seq(; MOVE(i, RIGHT), SWAP(i, j), NOP)\n\
             def LOOP: linrec(A[i] != END?; BODY, NOP, NOP)\n",
        ];
        for text in texts {
            let (program, network) = on_the_network(text);
            assert!(
                scripts(&network).blocks.len() >= 3,
                "BODY's script is a block"
            );
            let input = "[5, 6, 7, 8]";
            let mut ends = 0;
            for max_steps in 0..40 {
                let expected = run(&program, None, input, max_steps);
                ends += usize::from(expected.is_ok());
                let got = run(&program, Some(&network), input, max_steps);
                assert_eq!(got, expected, "{text} in {max_steps} steps");
            }
            assert!(
                ends > 0 || text.contains("SWAP"),
                "{text}: some budget is enough"
            );
        }
    }

    /// Every step budget, on loops whose body is a pair (a compare-swap,
    /// and a `WRITE` that divides by zero on the side of bit 1): the run
    /// ends as the reference interpreter's, with its error where the
    /// budget runs out inside either side, and where the ACT fails.
    #[test]
    fn a_budget_that_runs_out_inside_a_pair_stops_at_the_same_step() {
        let texts = [
            "env ram(i = 0)\ninput A[n]\n\
             def STEP: cond(A[i] > A[i + 1]?; SWAP(A[i], A[i + 1]), SET(i, i + 1), SET(i, i + 1))\n\
             def LOOP: linrec(i < n - 1?; STEP, NOP, NOP)\n",
            "env ram(i = 0)\ninput A[n]\nvar B[n] = 0\n\
             def STEP: cond(A[i] > A[i + 1]?; WRITE(B[i], 12 / A[i + 1]), SET(i, i + 1), \
             SET(i, i + 1))\n\
             def LOOP: linrec(i < n - 1?; STEP, NOP, NOP)\n",
        ];
        for text in texts {
            let (program, network) = on_the_network(text);
            assert_eq!(scripts(&network).pairs.len(), 1, "STEP's scripts are a pair");
            for input in [r#"{"A": [4, 3, 5, 1, 2]}"#, r#"{"A": [3, 1, 2, 0, 5]}"#] {
                let mut ends = 0;
                for max_steps in 0..40 {
                    let expected = run(&program, None, input, max_steps);
                    ends += usize::from(expected.is_ok());
                    let got = run(&program, Some(&network), input, max_steps);
                    assert_eq!(got, expected, "{text} on {input} in {max_steps} steps");
                }
                let fails = text.contains("12 /") && input.contains('0');
                assert_eq!(ends > 0, !fails, "{text} on {input}");
            }
        }
    }

    /// A loop whose condition has a side that can fail (`A[i] + x`): its
    /// fast detector leaves the bit to the encoder where the side fails,
    /// which fails only where the condition reaches it (an overflow), not
    /// where `i < n` is false first (END in the sum).
    #[test]
    fn a_feature_that_fails_in_a_fast_detector_fails_as_the_encoder_says() {
        let text = "env ram(i = 0)\ninput A[n]\ninput x\n\
                    def MAIN: linrec(i < n and A[i] + x > 0?; SET(i, i + 1), NOP, NOP)\n";
        let (program, network) = on_the_network(text);
        let first = scripts(&network).entry(0).first;
        assert!(matches!(first, First::Fast(..)), "{first:?}");
        let inputs = [
            (r#"{"A": [1, 2, 3], "x": 5}"#, true),
            (r#"{"A": [1, 2, -9], "x": 5}"#, true),
            (r#"{"A": [1, 9223372036854775807, 3], "x": 1}"#, false),
            (r#"{"A": [5, -9223372036854775807], "x": -2}"#, false),
        ];
        for (input, ends) in inputs {
            let expected = run(&program, None, input, 1000);
            assert_eq!(expected.is_ok(), ends, "{input}: {expected:?}");
            assert_eq!(
                run(&program, Some(&network), input, 1000),
                expected,
                "{input}"
            );
        }
    }
}
