//! The trace viewer: `cnpic run --html OUT.html` records a run of the
//! network step by step and writes it as one self-contained page.
//!
//! A [`Recorder`] is handed to the runtime, which tells it of every core
//! step ([`Step`]: the activation, the condition bit and its detector, the
//! slot, the program bound to it, the return flag) with the world as the
//! core sees it then. It keeps the steps as columns of small integers, the
//! world as snapshots every [`world::CHUNK`] steps with the changes between
//! them ([`world`]), and, once the run ends, the core's own numbers (slot
//! scores and return probability) replayed on the plain network for each
//! distinct combinator and bit prefix the run met: the core's outputs
//! depend on nothing else, so these are its numbers at every such step.
//! [`page`] writes the page: the data compressed and inlined, the viewer's
//! script and style inlined, nothing fetched.
//!
//! Only the steps of a [`Window`] are recorded, at most [`Window::LIMIT`]
//! of them, and only until the world's log is full ([`world::MAX_BYTES`]);
//! a world of more than [`world::MAX_CELLS`] cells is drawn without its
//! panels. Memory and page stay bounded whatever the run, and the page says
//! which steps it holds and what it left out.

pub mod page;
pub mod world;

use std::collections::HashMap;

use cnpi::diagnostic::Diagnostic;
use cnpi::exec::Store;
use cnpi::program::{CombinatorKind, Slot};

use crate::core::Numbers;
use crate::core::embedding::Extended;
use crate::memory::{DetectorId, RowId};
use world::WorldLog;

/// Which steps to record: `first..=last` (counted from 1), at most
/// [`Window::LIMIT`] of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub first: u64,
    pub last: u64,
}

impl Window {
    /// The most steps a page holds: one of this many still opens in a few
    /// seconds.
    pub const LIMIT: u64 = 2_000_000;

    /// Every step, up to [`Window::LIMIT`] of them.
    pub fn all() -> Window {
        Window {
            first: 1,
            last: u64::MAX,
        }
    }

    /// `A..B` (both counted from 1, B included), `A..` or `..B`; `None`
    /// when it is not of that form or empty.
    pub fn parse(text: &str) -> Option<Window> {
        let (a, b) = text.split_once("..")?;
        let first = if a.is_empty() { 1 } else { a.parse().ok()? };
        let last = if b.is_empty() {
            u64::MAX
        } else {
            b.parse().ok()?
        };
        (first >= 1 && first <= last).then_some(Window { first, last })
    }
}

/// One core step, as the runtime reports it.
pub struct Step<'a> {
    /// The applier whose frame the activation runs in.
    pub owner: RowId,
    pub kind: CombinatorKind,
    pub kind_name: &'a str,
    /// The bits the activation has seen, this step's included (bit `i` is
    /// the `i`-th) and how many; `None` past the decision table's depth.
    pub prefix: Option<(u16, u8)>,
    pub c: bool,
    pub detector: DetectorId,
    pub slot: Slot,
    /// The row bound to the slot.
    pub target: RowId,
    pub ret: bool,
    pub depth: u32,
}

/// One recorded step read back (the Python package's trace records it).
pub struct Recorded<'a> {
    /// The applier whose frame the activation runs in.
    pub owner: RowId,
    /// The combinator's name.
    pub combinator: &'a str,
    pub c: bool,
    /// The detector of the condition bit (`None` past `u16::MAX` of them).
    pub detector: Option<DetectorId>,
    pub slot: Slot,
    /// The row bound to the slot.
    pub target: RowId,
    pub ret: bool,
    pub depth: u32,
}

/// The steps recorded, as columns (one entry per step).
#[derive(Default)]
struct Columns {
    owner: Vec<u32>,
    target: Vec<u32>,
    depth: Vec<u32>,
    detector: Vec<u16>,
    /// Index into the numbers table, `u16::MAX` for none.
    numbers: Vec<u16>,
    kind: Vec<u8>,
    slot: Vec<u8>,
    /// Bit 0: the condition bit; bit 1: the return flag.
    flags: Vec<u8>,
}

/// A run being recorded.
pub struct Recorder {
    window: Window,
    /// Steps seen so far, recorded or not.
    seen: u64,
    columns: Columns,
    /// The combinators met, in order of first use, with their names.
    kinds: Vec<(CombinatorKind, String)>,
    /// The distinct (combinator, bits, length) prefixes met, in order.
    prefixes: Vec<(CombinatorKind, u16, u8)>,
    prefix_index: HashMap<(CombinatorKind, u16, u8), u16>,
    world: WorldLog,
    /// Filled when the run ends.
    numbers: Vec<Numbers>,
    ended: Option<String>,
}

impl Recorder {
    pub fn new(window: Window) -> Recorder {
        Recorder {
            window,
            seen: 0,
            columns: Columns::default(),
            kinds: Vec::new(),
            prefixes: Vec::new(),
            prefix_index: HashMap::new(),
            world: WorldLog::default(),
            numbers: Vec::new(),
            ended: None,
        }
    }

    /// How many steps are recorded.
    pub fn recorded(&self) -> usize {
        self.columns.owner.len()
    }

    /// The number of the first step recorded (counted from 1).
    pub fn first(&self) -> u64 {
        self.window.first
    }

    /// How many steps the run took (as far as it got).
    pub fn steps(&self) -> u64 {
        self.seen
    }

    /// What the page leaves out besides the steps outside its window, in
    /// sentences.
    pub fn left_out(&self) -> Vec<String> {
        let mut left = self.world.left_out().to_vec();
        if self.world.full() {
            left.push(format!(
                "Recording stopped after step {}: a page holds at most {} MiB of the world's changes.",
                self.window.first + self.recorded() as u64 - 1,
                world::MAX_BYTES >> 20
            ));
        }
        left
    }

    /// Recorded step `i` (counted from 0 in the window).
    pub fn recorded_step(&self, i: usize) -> Option<Recorded<'_>> {
        let c = &self.columns;
        Some(Recorded {
            owner: *c.owner.get(i)? as RowId,
            combinator: (self.kinds.get(usize::from(c.kind[i]))).map_or("?", |(_, name)| name),
            c: c.flags[i] & 1 == 1,
            detector: (c.detector[i] != u16::MAX).then_some(DetectorId::from(c.detector[i])),
            slot: Slot::ALL[usize::from(c.slot[i])],
            target: c.target[i] as RowId,
            ret: c.flags[i] & 2 == 2,
            depth: c.depth[i],
        })
    }

    fn recording(&self) -> bool {
        let step = self.seen;
        step >= self.window.first
            && step <= self.window.last
            && (self.recorded() as u64) < Window::LIMIT
            && !self.world.full()
    }

    /// Records one step with the world `store` holds as the core sees it;
    /// E0708 once what is recorded and what the run holds pass the run's
    /// memory limit (`--max-memory`).
    pub fn step(&mut self, step: Step, store: &Store) -> Result<(), Diagnostic> {
        self.seen += 1;
        if !self.recording() {
            // The world the last recorded step left, once.
            if self.recorded() > 0 && !self.world.ended() {
                self.world.end(store);
            }
            return Ok(());
        }
        let kind = match self.kinds.iter().position(|(k, _)| *k == step.kind) {
            Some(i) => i,
            None => {
                self.kinds.push((step.kind, step.kind_name.to_string()));
                self.kinds.len() - 1
            }
        };
        let numbers = step.prefix.map_or(u16::MAX, |(bits, len)| {
            let key = (step.kind, bits, len);
            let next = self.prefixes.len();
            match self.prefix_index.get(&key) {
                Some(&i) => i,
                None if next < usize::from(u16::MAX) => {
                    self.prefixes.push(key);
                    self.prefix_index.insert(key, next as u16);
                    next as u16
                }
                None => u16::MAX,
            }
        });
        let c = &mut self.columns;
        c.owner.push(step.owner as u32);
        c.target.push(step.target as u32);
        c.depth.push(step.depth);
        c.detector
            .push(u16::try_from(step.detector).unwrap_or(u16::MAX));
        c.numbers.push(numbers);
        c.kind.push(u8::try_from(kind).unwrap_or(u8::MAX));
        c.slot.push(slot_index(step.slot));
        c.flags.push(u8::from(step.c) | u8::from(step.ret) << 1);
        self.world.step(store);
        store.within_memory(self.bytes())
    }

    /// The bytes the recording holds: its columns and the world's log.
    fn bytes(&self) -> usize {
        let c = &self.columns;
        let words = c.owner.capacity() + c.target.capacity() + c.depth.capacity();
        let halves = c.detector.capacity() + c.numbers.capacity();
        let bytes = c.kind.capacity() + c.slot.capacity() + c.flags.capacity();
        (words * 4 + halves * 2 + bytes).saturating_add(self.world.bytes())
    }

    /// The run ended (with the error `ended`, if any) in the world `store`
    /// holds; replays the core on every prefix met for its numbers.
    pub fn finish(&mut self, core: &Extended, store: &Store, ended: Option<&Diagnostic>) {
        if self.recorded() > 0 && !self.world.ended() {
            self.world.end(store);
        }
        self.ended = ended.map(|d| format!("{}: {}", d.code, d.message));
        self.numbers = (self.prefixes.iter())
            .map(|&(kind, bits, len)| {
                let mut state = core.start(kind);
                for i in 0..len {
                    core.step(&mut state, bits >> i & 1 == 1);
                }
                core.network().numbers(&state.h)
            })
            .collect();
    }
}

fn slot_index(slot: Slot) -> u8 {
    Slot::ALL.iter().position(|&s| s == slot).unwrap_or(0) as u8
}

#[cfg(test)]
mod tests {
    use super::Window;

    #[test]
    fn windows_read_as_ranges_of_steps() {
        let window = |first, last| Some(Window { first, last });
        assert_eq!(Window::parse("50..80"), window(50, 80));
        assert_eq!(Window::parse("7..7"), window(7, 7));
        assert_eq!(Window::parse("..80"), window(1, 80));
        assert_eq!(Window::parse("50.."), window(50, u64::MAX));
        for bad in ["80..50", "0..5", "5", "a..b", "1...5", ""] {
            assert_eq!(Window::parse(bad), None, "{bad}");
        }
    }
}
