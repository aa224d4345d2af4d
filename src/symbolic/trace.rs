//! Readable lines for `--trace`: what a slot of a frame is bound to.
//!
//! The machine writes one line per core step (one per statement for normal
//! programs), indented by call depth: `BSTEP linrec c=1 → a1 COMPSWAP`.
//! `c` is the condition as the core sees it at that step; the branch (the
//! slot sequence) was chosen by the first step's `c`, so a `linrec` may show
//! `c=0 → self` after its `a2` moved the pointer off the array. Loops
//! (`self` and `_mapself` as the last slot) stay at their depth instead of
//! nesting. The program's text comes from [`crate::program::print`].

use crate::program::print::act;
use crate::program::{Callee, Program, Slot};

/// What a slot of the frame of definition `def` is bound to: `a1 COMPSWAP`,
/// `a2 MOVE(P1, RIGHT)`, `self BSTEP`, `_push_sentinel`.
pub(super) fn slot(program: &Program, def: &str, args: &[Callee; 3], slot: Slot) -> String {
    let callee = |name: &str, callee: &Callee| match callee {
        Callee::Def(id, _) => {
            let target = program.defs.get(*id).map_or("?", |d| d.name.as_str());
            format!("{name} {target}")
        }
        Callee::Act(app) => format!("{name} {}", act(&app.act, &program.pointers)),
    };
    match slot {
        Slot::SelfSlot => format!("self {def}"),
        Slot::A1 => callee("a1", &args[0]),
        Slot::A2 => callee("a2", &args[1]),
        Slot::A3 => callee("a3", &args[2]),
        Slot::PushSentinel => "_push_sentinel".into(),
        Slot::MapSelf => "_mapself".into(),
        Slot::Pop => "_pop".into(),
        Slot::LoadState => "_load_state".into(),
        Slot::Nop => "NOP".into(),
    }
}
