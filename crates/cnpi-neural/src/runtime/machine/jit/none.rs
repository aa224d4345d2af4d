//! No machine code on targets other than x86-64: the interpreter runs
//! every edge.

use super::super::super::automaton::Automaton;
use super::CodeAct;
use super::{Helpers, State};
use crate::detector::FastDetector;

/// The generated function (never made here).
pub(super) type Entry = unsafe extern "C" fn(*mut State, u32) -> u64;

/// The code of an automaton: none is made on this target.
pub(in crate::runtime) struct Code {
    pub(super) entry: Entry,
    pub(super) pointers: usize,
    pub(super) regions: Vec<u32>,
}

impl Code {
    /// Whether the code runs edge `e`: none here.
    pub(in crate::runtime) fn holds(&self, _: u32) -> bool {
        false
    }

    /// The edges the code runs: none.
    pub(super) fn chosen(&self) -> Vec<u32> {
        Vec::new()
    }
}

/// No code on this target.
pub(super) fn compile(
    _: &Automaton,
    _: &[u32],
    _: &Helpers,
    _: &dyn Fn(u32) -> Option<CodeAct>,
    _: &dyn Fn(u32) -> Option<&FastDetector>,
) -> Option<Code> {
    None
}
