//! The cached machine's loop on scripts, for a run nobody watches.
//!
//! Each activation runs its script ([`crate::runtime::script`]): at its
//! first step its first bit picks the script (or it is known), and every
//! step reads the next entry of the script and does its action. The checks
//! are the general loop's ([`Machine::step`]), in its order: the first
//! bit's detection, the core's decision, the step budget, the change a
//! loop must make, the stack's room, then the action. The budget is held
//! in a local count and recorded in the store when the run ends.

use super::super::script::{Action, First, Scripts};
use super::{Diagnostic, MAX_TASKS, Machine, RowId};

/// Where an activation that has not yet taken its first step stands in
/// its script: its first bit is still to be detected.
const DETECT: u32 = u32::MAX;

/// An activation on the scripts' stack.
#[derive(Clone, Copy)]
struct Running {
    entry: u32,
    /// Its next step in the scripts, or [`DETECT`].
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
        let mut tasks = Vec::new();
        self.push_scripted(&mut tasks, scripts, entry)?;
        while let Some(top) = tasks.last_mut() {
            let running = *top;
            let e = scripts.entry(running.entry);
            let at = match (running.at, e.first) {
                (DETECT, First::Detect(starts)) => {
                    starts[usize::from(self.detect(e.detector, None)?)]
                }
                (at, _) => at,
            };
            top.at = at + 1;
            let step = scripts.step(at);
            if let Action::NoDecision = step.action {
                return Err(self.no_decision(e.combinator));
            }
            if *left == 0 {
                let owner = e.owner;
                return Err((self.store).out_of_steps(self.name(owner), self.span(owner)));
            }
            *left -= 1;
            if let Action::Restart { same: true, .. } = step.action
                && self.store.version() == running.version
            {
                return Err(self.loops(e.combinator, e.owner));
            }
            if step.ret {
                tasks.pop();
            }
            match step.action {
                Action::Start(next) | Action::Restart { entry: next, .. } => {
                    self.push_scripted(&mut tasks, scripts, next)?
                }
                Action::Applier(row) => {
                    let row = row as RowId;
                    self.run_applier(row, plan.op(row), 0)?
                }
                Action::Builtin(builtin) => self.builtin(builtin, e.owner)?,
                // `NoDecision` returned above.
                Action::Nop | Action::NoDecision => {}
                Action::Invalid { slot, row } => {
                    return Err(self.unrunnable(slot, e.owner, row as RowId));
                }
            }
        }
        Ok(())
    }

    /// Starts the activation `entry` on `tasks`, as [`Machine::start`]
    /// starts one.
    #[inline(always)]
    fn push_scripted(
        &mut self,
        tasks: &mut Vec<Running>,
        scripts: &Scripts,
        entry: u32,
    ) -> Result<(), Diagnostic> {
        let e = scripts.entry(entry);
        if tasks.len() >= MAX_TASKS {
            return Err(self.too_deep(e.owner));
        }
        self.require(e.combinator)?;
        tasks.push(Running {
            entry,
            at: match e.first {
                First::Known(at) => at,
                First::Detect(_) => DETECT,
            },
            version: self.store.version(),
        });
        Ok(())
    }
}
