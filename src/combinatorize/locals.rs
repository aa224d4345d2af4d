//! Locals on the network (language.md §5.2).
//!
//! A local is a register of its program ([`crate::program::Pointer::owner`]).
//! In combinatory form it is one more register of the `env` line, under a
//! hidden name (`_` and its number before its own name, so two programs'
//! `i` stay apart and no run reports either); calls that must keep their
//! caller's locals ([`crate::program::locals::Keeps`]) run on frames
//! (`apart`), which put the caller's registers back.

use crate::program::Program;

/// `program` with each local renamed to its hidden name; `None` when it
/// has no local.
pub fn named(program: &Program) -> Option<Program> {
    if program.pointers.iter().all(|p| p.owner.is_none()) {
        return None;
    }
    let mut out = program.clone();
    for (id, pointer) in out.pointers.iter_mut().enumerate() {
        if pointer.owner.is_some() {
            pointer.name = format!("_{id}{}", pointer.name.trim_start_matches('_'));
        }
    }
    Some(out)
}

/// Whether some call without arguments must keep its caller's locals:
/// then the programs run on frames.
pub fn kept(program: &Program) -> bool {
    !super::apart::keeping_locals(program).is_empty()
}
