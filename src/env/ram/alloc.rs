//! `ALLOC` and `ALLOC2`: the arrays a program makes while it runs.
//!
//! `var L[e]` inside a procedure (language.md §5.2) is an array of the
//! activation, sized when the statement runs. The checker gives each such
//! array a hidden name of its own and writes the statement as
//! `ALLOC(L[0], e, init)` (`ALLOC2(M[0][0], rows, cols, init)` for a
//! matrix): the ACT replaces the array's memory with a new one of that
//! size, every element `init` (the cell's indices are not read; it only
//! names the array). Returning from the procedure allocates it again with
//! no elements, which frees it. A negative size is E0710 at the
//! statement; the bytes all such arrays hold together count against the
//! run's memory limit (`--max-memory`, E0708), checked before allocating.
//!
//! A program with a local array that may run again while it runs (through
//! recursion) keeps each activation's array apart: on entry, `STASH(L[0])`
//! puts the caller's array away on a stack and leaves `L` empty; every
//! return frees `L` and takes the caller's back with `UNSTASH(L[0])`. A
//! stashed array still counts against the memory limit, and so does each
//! entry of the stack ([`STASH_ENTRY`] bytes), so deep recursion with
//! local arrays ends in E0708, not in an exhausted machine.

use super::Region;
use crate::diagnostic::{Diagnostic, codes};
use crate::env::ActContext;
use crate::program::Cell;
use crate::program::hidden::written;

/// The new memory of `cell`'s array: `lengths` (one or two) elements,
/// every one `init`, or E0710 for a negative length. The size is checked
/// against the room the run has left before anything is allocated.
pub(super) fn region(
    cell: &Cell,
    lengths: &[i64],
    init: i64,
    ctx: &ActContext,
) -> Result<Region, Diagnostic> {
    let mut sizes = [0usize; 2];
    for (size, &length) in sizes.iter_mut().zip(lengths) {
        *size = usize::try_from(length).map_err(|_| negative(cell, length, ctx))?;
    }
    let count = match lengths.len() {
        1 => Some(sizes[0]),
        _ => sizes[0].checked_mul(sizes[1]),
    };
    let bytes = count.and_then(|c| c.checked_mul(size_of::<i64>()));
    match bytes {
        Some(bytes) if bytes <= ctx.room => {}
        _ => return Err(too_large(cell, lengths, ctx)),
    }
    Ok(match lengths.len() {
        1 => Region::Array(vec![init; sizes[0]]),
        _ => Region::Matrix {
            rows: sizes[0],
            cols: sizes[1],
            values: vec![init; sizes[0] * sizes[1]],
        },
    })
}

/// The bytes each array put away by `STASH` costs beside its elements.
const STASH_ENTRY: usize = 64;

/// `region` with no elements, of the same kind (what `STASH` leaves, and
/// what `UNSTASH` gives back when nothing was put away).
pub(super) fn emptied(region: &Region) -> Region {
    match region {
        Region::Scalar(_) => Region::Scalar(0),
        Region::Array(_) => Region::Array(Vec::new()),
        Region::Matrix { .. } => Region::Matrix {
            rows: 0,
            cols: 0,
            values: Vec::new(),
        },
    }
}

/// The bytes held once `STASH` puts `cell`'s array away, when they were
/// `allocated` before: the array's elements stay counted, and the stack
/// entry is added, or E0708 when the run has no room for it.
pub(super) fn stash(allocated: usize, cell: &Cell, ctx: &ActContext) -> Result<usize, Diagnostic> {
    if STASH_ENTRY > ctx.room {
        return Err(too_deep(cell, ctx));
    }
    Ok(allocated + STASH_ENTRY)
}

/// The bytes held once `UNSTASH` frees `current` (and, when `popped`,
/// takes an entry off the stack), when they were `allocated` before.
pub(super) fn unstash(allocated: usize, current: &Region, popped: bool) -> usize {
    let entry = if popped { STASH_ENTRY } else { 0 };
    allocated.saturating_sub(bytes(current) + entry)
}

/// The bytes the allocated arrays hold once `new` replaces `old`, when
/// they held `allocated` before.
pub(super) fn account(allocated: usize, old: &Region, new: &Region) -> usize {
    allocated.saturating_sub(bytes(old)) + bytes(new)
}

/// The bytes a region's elements take.
fn bytes(region: &Region) -> usize {
    let elements = match region {
        Region::Scalar(_) => 1,
        Region::Array(values) | Region::Matrix { values, .. } => values.len(),
    };
    elements * size_of::<i64>()
}

/// E0710: a local array of negative size.
fn negative(cell: &Cell, length: i64, ctx: &ActContext) -> Diagnostic {
    Diagnostic::error(
        codes::E0710,
        format!(
            "the local array `{}` would have length {length}",
            written(&cell.name)
        ),
    )
    .with_label(ctx.span(), "sized here")
    .with_help("an array's lengths are at least 0; check the expression")
}

/// E0708: the callers' local arrays, put away, fill the run's memory.
fn too_deep(cell: &Cell, ctx: &ActContext) -> Diagnostic {
    Diagnostic::error(
        codes::E0708,
        format!(
            "the local array `{}` of every activation, kept while the calls go deeper, would take the run past its memory limit",
            written(&cell.name)
        ),
    )
    .with_label(ctx.span(), "put away here, on entry")
    .with_help("if the recursion truly goes this deep, raise `--max-memory`")
}

/// E0708: the array would take more memory than the run has left.
fn too_large(cell: &Cell, lengths: &[i64], ctx: &ActContext) -> Diagnostic {
    let shape: Vec<String> = lengths.iter().map(i64::to_string).collect();
    Diagnostic::error(
        codes::E0708,
        format!(
            "the local array `{}` ({}) would take the run past its memory limit",
            written(&cell.name),
            shape.join(" × ")
        ),
    )
    .with_label(ctx.span(), "allocated here")
    .with_help("if the run truly needs more, raise `--max-memory`")
}
