//! Scripts: every activation's steps fixed in advance, for the cached
//! machine when nobody watches the run.
//!
//! With the exact caches, a combinator whose decisions its first bit
//! settles ([`DecisionTable::first_bit_decides`]) makes, from that bit on,
//! a fixed sequence of decisions `(slot, ret)`; and an applier's frame and
//! detector are fixed by its parse. So an activation (an applier's
//! combinator, or a combinator a frame slot restarts with the same frame)
//! runs one of two fixed scripts, chosen by its first bit, and each step of
//! a script says what it runs: start another activation, apply an ACT,
//! restart, a built-in, NOP, or an error. [`Scripts`] holds every script
//! of a program flat, made once when the program is put on the network,
//! so that a step reads one entry of an array and does its action. Each
//! step is the one the machine's general loop takes (the same decision
//! from the same table), in the same order of checks, so answers, steps
//! and errors are unchanged. A program with a combinator its first bit
//! does not settle, or parsed only when it runs, has no scripts.
//!
//! Where the rest of a script, up to the step that returns, only applies
//! ACTs, built-ins and NOPs (a `cond` that took its NOP, a `seq` of
//! ACTs), nothing in it depends on a detector bit or on the stack: that
//! run is fused into one **block**, a flat array of its actions
//! ([`Simple`]), which the machine runs as one super-step, its steps
//! counted at once.

use std::collections::HashMap;

use super::row::{Op, Probe, bound};
use crate::core::DecisionTable;
use crate::detector::FastDetector;
use crate::memory::{Builtin, DetectorId, RowId, STACK_TOP};
use cnpi::program::Slot;

/// The most condition bits an activation may see (the decision table's
/// depth is far below).
pub(super) const MAX_BITS: usize = 16;

/// `_mapself`'s row in the decision table.
pub(super) const MAPSELF: u32 = 4;

/// One activation the scripts run: who starts it and how its script is
/// chosen.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    /// The applier whose parse made the frame: names and spans.
    pub(super) owner: u32,
    /// The combinator's row in the decision table.
    pub(super) combinator: u32,
    /// The detector of its first bit.
    pub(super) detector: DetectorId,
    pub(super) first: First,
}

/// Where an activation's script starts.
#[derive(Clone, Copy, Debug)]
pub(super) enum First {
    /// The first bit is known without looking (the blind detector): the
    /// script of that bit.
    Known(u32),
    /// The first bit is read from fast detector `.0` of the scripts
    /// ([`Scripts::fast`]); then the script of bit 0 or of bit 1.
    Fast(u32, [u32; 2]),
    /// The first bit is detected; then the script of bit 0 or of bit 1.
    Detect([u32; 2]),
}

/// One step of a script.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    /// The core's return flag: the activation is popped before the action
    /// (for a restart, after the check that it changed something).
    pub(super) ret: bool,
    pub(super) action: Action,
    /// The block of the rest of the script from this step, if it is
    /// simple up to the step that returns.
    pub(super) block: Block,
}

/// A run of [`Simple`] steps that ends with the activation's return:
/// `len` actions from `from` in [`Scripts::block`] (none when `len` is 0).
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    pub(super) from: u32,
    pub(super) len: u32,
}

/// What a step of a block runs: an action that neither starts an
/// activation nor can fail before it acts.
#[derive(Clone, Copy, Debug)]
pub(super) enum Simple {
    /// The ACT of applier row `.0` (parsed in the plan).
    Act(u32),
    Builtin(Builtin),
    Nop,
}

/// What a step runs (its frame slot's row).
#[derive(Clone, Copy, Debug)]
pub(super) enum Action {
    /// Starts the activation of an applier's combinator (an entry).
    Start(u32),
    /// Applies the ACT applier row `.0` parses to (in the plan).
    Act(u32),
    /// Runs applier row `.0`, which starts no combinator nor parses to an
    /// ACT: the error of a row that does not parse.
    Applier(u32),
    /// Restarts with the same frame as the activation of an entry; `same`
    /// when it is the same combinator (a loop, which must have changed
    /// something).
    Restart {
        entry: u32,
        same: bool,
    },
    Builtin(Builtin),
    Nop,
    /// The core made no decision (the activation ran past its depth).
    NoDecision,
    /// The slot is bound to row `row`, which no slot can run.
    Invalid {
        slot: Slot,
        row: u32,
    },
}

/// Every script of a program (see the module documentation).
pub(super) struct Scripts {
    entries: Vec<Entry>,
    steps: Vec<Step>,
    /// The actions of every block.
    pub(super) blocks: Vec<Simple>,
    /// The fast detectors [`First::Fast`] reads.
    fast: Vec<FastDetector>,
    /// Per row, the entry of the applier's combinator (if it starts one).
    by_row: Vec<Option<u32>>,
}

impl Scripts {
    /// The scripts of the program whose rows do `ops`, on a core deciding
    /// as `table` says (`settled[k]`: combinator `k`'s first bit settles its
    /// decisions), reading the detectors as `probes` say; `None` if some
    /// activation has no script.
    pub(super) fn new(
        ops: &[Op],
        probes: &[Probe],
        table: &DecisionTable,
        settled: &[bool],
    ) -> Option<Scripts> {
        let mut builder = Builder {
            ops,
            probes,
            table,
            settled,
            scripts: Scripts {
                entries: Vec::new(),
                steps: Vec::new(),
                blocks: Vec::new(),
                fast: Vec::new(),
                by_row: Vec::with_capacity(ops.len()),
            },
            index: HashMap::new(),
            todo: Vec::new(),
        };
        for (row, op) in ops.iter().enumerate() {
            let entry = match *op {
                Op::Start { combinator, .. } => Some(builder.entry(row as u32, combinator)?),
                _ => None,
            };
            builder.scripts.by_row.push(entry);
        }
        while let Some(entry) = builder.todo.pop() {
            builder.fill(entry)?;
        }
        Some(builder.scripts)
    }

    /// The entry of applier `row`'s combinator, if it starts one.
    pub(super) fn of_row(&self, row: RowId) -> Option<u32> {
        self.by_row.get(row).copied().flatten()
    }

    /// How many entries there are.
    pub(super) fn entries(&self) -> u32 {
        self.entries.len() as u32
    }

    /// How many script positions there are.
    pub(super) fn positions(&self) -> usize {
        self.steps.len()
    }

    #[inline(always)]
    pub(super) fn entry(&self, entry: u32) -> &Entry {
        &self.entries[entry as usize]
    }

    #[inline(always)]
    pub(super) fn step(&self, at: u32) -> Step {
        self.steps[at as usize]
    }

    /// The actions of `block`.
    #[inline(always)]
    pub(super) fn block(&self, block: Block) -> &[Simple] {
        let from = block.from as usize;
        self.blocks
            .get(from..from + block.len as usize)
            .unwrap_or_default()
    }

    /// Fast detector `at` ([`First::Fast`]).
    #[inline(always)]
    pub(super) fn fast(&self, at: u32) -> &FastDetector {
        &self.fast[at as usize]
    }

    /// Fast detector `at`, if there is one.
    #[inline(always)]
    pub(super) fn fast_at(&self, at: u32) -> Option<&FastDetector> {
        self.fast.get(at as usize)
    }
}

/// What [`Scripts::new`] works with.
struct Builder<'a> {
    ops: &'a [Op],
    probes: &'a [Probe],
    table: &'a DecisionTable,
    settled: &'a [bool],
    scripts: Scripts,
    /// The entry of each (owner, combinator) made so far.
    index: HashMap<(u32, u32), u32>,
    /// Entries whose scripts are still to be written.
    todo: Vec<u32>,
}

impl Builder<'_> {
    /// The entry of `combinator` in the frame of applier `owner` (made if
    /// new); `None` for a combinator its first bit does not settle.
    fn entry(&mut self, owner: u32, combinator: u32) -> Option<u32> {
        if let Some(&entry) = self.index.get(&(owner, combinator)) {
            return Some(entry);
        }
        if !self.settled.get(combinator as usize).is_some_and(|&s| s) {
            return None;
        }
        let Some(&Op::Start { detector, .. }) = self.ops.get(owner as usize) else {
            return None;
        };
        let detector = if combinator == MAPSELF {
            STACK_TOP
        } else {
            detector as DetectorId
        };
        let entry = self.scripts.entries.len() as u32;
        self.scripts.entries.push(Entry {
            owner,
            combinator,
            detector,
            first: First::Known(0),
        });
        self.index.insert((owner, combinator), entry);
        self.todo.push(entry);
        Some(entry)
    }

    /// Writes the scripts of `entry`.
    fn fill(&mut self, entry: u32) -> Option<()> {
        let Entry {
            owner,
            combinator,
            detector,
            ..
        } = self.scripts.entries[entry as usize];
        let probe = self.probes.get(detector);
        if let Some(&Probe::Constant(bit)) = probe {
            let first = First::Known(self.script(owner, combinator, bit)?);
            self.scripts.entries[entry as usize].first = first;
            return Some(());
        }
        let starts = [
            self.script(owner, combinator, false)?,
            self.script(owner, combinator, true)?,
        ];
        let first = match probe {
            Some(Probe::Fast(fast)) => {
                let at = u32::try_from(self.scripts.fast.len()).ok()?;
                self.scripts.fast.push(FastDetector::clone(fast));
                First::Fast(at, starts)
            }
            _ => First::Detect(starts),
        };
        self.scripts.entries[entry as usize].first = first;
        Some(())
    }

    /// Writes the script of `combinator` in the frame of `owner` after the
    /// first bit `bit`; where it starts.
    fn script(&mut self, owner: u32, combinator: u32, bit: bool) -> Option<u32> {
        let Some(&Op::Start { frame, .. }) = self.ops.get(owner as usize) else {
            return None;
        };
        let start = self.scripts.steps.len() as u32;
        let row = self.table.row(combinator as usize);
        for n in 0..MAX_BITS {
            // Every bit the first: the decision after `n + 1` of them.
            let code = if bit { (2 << n) - 1 } else { 0 };
            let Some(decision) = row.get((2 << n) - 2 + code) else {
                break;
            };
            let target = bound(frame, decision.slot);
            let action = match self.ops.get(target as usize).unwrap_or(&Op::Invalid) {
                &Op::Restart(next) => Action::Restart {
                    entry: self.entry(owner, next)?,
                    same: next == combinator,
                },
                &Op::Start { combinator, .. } => Action::Start(self.entry(target, combinator)?),
                Op::Act(_) => Action::Act(target),
                Op::Unparsed(_) => Action::Applier(target),
                Op::Parse => return None,
                &Op::Builtin(builtin) => Action::Builtin(builtin),
                Op::Nop => Action::Nop,
                Op::Invalid => Action::Invalid {
                    slot: decision.slot,
                    row: target,
                },
            };
            self.scripts.steps.push(Step {
                ret: decision.ret,
                action,
                block: Block { from: 0, len: 0 },
            });
            if decision.ret {
                self.blocks(start);
                return Some(start);
            }
        }
        self.scripts.steps.push(Step {
            ret: false,
            action: Action::NoDecision,
            block: Block { from: 0, len: 0 },
        });
        Some(start)
    }

    /// Gives each step of the script from `start` (just written, ending
    /// with its return) the block of the rest, where that is simple.
    fn blocks(&mut self, start: u32) {
        let steps = &mut self.scripts.steps[start as usize..];
        // The simple steps at the end: a block's actions are a suffix of
        // theirs.
        let simple: Vec<Simple> = (steps.iter().rev())
            .map_while(|step| match step.action {
                Action::Act(row) => Some(Simple::Act(row)),
                Action::Builtin(builtin) => Some(Simple::Builtin(builtin)),
                Action::Nop => Some(Simple::Nop),
                _ => None,
            })
            .collect();
        let (Ok(from), Ok(len)) = (
            u32::try_from(self.scripts.blocks.len()),
            u32::try_from(simple.len()),
        ) else {
            return;
        };
        let first = steps.len() - simple.len();
        for (k, step) in steps[first..].iter_mut().enumerate() {
            let k = k as u32;
            step.block = Block {
                from: from + k,
                len: len - k,
            };
        }
        self.scripts.blocks.extend(simple.into_iter().rev());
    }
}
