//! Locals on the network (language.md §5.2).
//!
//! A local is a register of its program ([`crate::program::Pointer::owner`]).
//! In combinatory form it is one more register of the `env` line, under a
//! hidden name (`_`, its program's number and `_` before its own name:
//! `_1_m`, so two programs' `i` stay apart and no run reports either); calls that must keep their
//! caller's locals ([`crate::program::locals::Keeps`]) run on frames
//! (`apart`), which put the caller's registers back.

use crate::program::Program;
use crate::program::hidden::Local;

/// `program` with each local renamed to its hidden name; `None` when it
/// has no local.
pub fn named(program: &Program) -> Option<Program> {
    if program.pointers.iter().all(|p| p.owner.is_none()) {
        return None;
    }
    let mut out = program.clone();
    for pointer in &mut out.pointers {
        if let Some(def) = pointer.owner {
            pointer.name = Local::new(def, "", &pointer.name).to_string();
        }
    }
    Some(out)
}

/// Whether some call without arguments must keep its caller's locals:
/// then the programs run on frames.
pub fn kept(program: &Program) -> bool {
    !super::apart::keeping_locals(program).is_empty()
}
