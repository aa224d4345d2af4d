//! The limits every run obeys, on every engine: how many calls may nest,
//! how much memory the stores that grow with a run may hold, and a flag
//! that stops a run from outside (Ctrl-C in Python, a search abandoning a
//! candidate).
//!
//! Memory is counted by allocation: each growing store (the reference
//! interpreter's task stack, saved registers and pending statements, the
//! network's activations and LSTM states, the state stack and the frame
//! stack of [`super::Store`]) grows only through [`make_room`], which
//! checks the bytes the run would then hold against
//! [`Limits::max_memory`] *before* allocating, and asks the allocator
//! without aborting. A run that would pass it stops with E0708; one that
//! nests more than [`Limits::max_depth`] calls stops with E0704.

use std::sync::atomic::{AtomicBool, Ordering};

/// The default nesting limit: the most calls (or state-stack entries) a
/// run may hold unfinished, on every engine.
pub const MAX_DEPTH: usize = 10_000_000;

/// The default memory limit of a run's growing stores (`--max-memory`):
/// 2 GiB.
pub const MAX_MEMORY: usize = 2 << 30;

/// How often, in steps or ACTs, an engine looks at [`Limits::interrupt`]:
/// a few hundred microseconds of the slowest engine.
pub const POLL_EVERY: u64 = 1 << 12;

/// What a run asks, every [`POLL_EVERY`] steps or ACTs, whether it should
/// stop: a flag set from outside, or a check of its own (the Python
/// package looks for Ctrl-C there).
pub trait Interrupt: Sync {
    fn interrupted(&self) -> bool;
}

impl Interrupt for AtomicBool {
    fn interrupted(&self) -> bool {
        self.load(Ordering::Relaxed)
    }
}

/// The limits of one run (besides its step budget).
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// The most bytes the run's growing stores may hold together (E0708).
    pub max_memory: usize,
    /// The most calls that may be nested, unfinished (E0704).
    pub max_depth: usize,
    /// Asked whether to stop the run (E0709), at every poll.
    pub interrupt: Option<&'a dyn Interrupt>,
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            max_memory: MAX_MEMORY,
            max_depth: MAX_DEPTH,
            interrupt: None,
        }
    }
}

impl Limits<'_> {
    /// True once the run was asked to stop.
    #[inline]
    pub fn interrupted(&self) -> bool {
        self.interrupt.is_some_and(Interrupt::interrupted)
    }
}

/// A memory size as `--max-memory` takes it: bytes, or with a suffix `K`,
/// `M`, `G` or `T` (powers of 1024; `KiB`, `MB` and the like read the
/// same), such as `512M`.
pub fn parse_bytes(text: &str) -> Result<usize, String> {
    let invalid = || {
        format!(
            "`{text}` is not a memory size: write bytes, or a number with K, M, G or T, such as `512M`"
        )
    };
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let number: usize = number.parse().map_err(|_| invalid())?;
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit.trim_end_matches('B').trim_end_matches('I');
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(invalid()),
    };
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is more memory than this machine can address"))
}

/// The bytes `v`'s allocation holds.
#[inline]
pub fn bytes<T>(v: &Vec<T>) -> usize {
    v.capacity().saturating_mul(std::mem::size_of::<T>())
}

/// Makes room in `v` for `extra` more elements, such that the run, which
/// holds `others` bytes besides `v`, stays within `max` bytes: doubling as
/// a `Vec` does where that fits, else exactly what is needed. `Err` with
/// the bytes the run would have held, when that passes `max` or the
/// allocator refuses.
#[inline]
pub fn make_room<T>(v: &mut Vec<T>, extra: usize, others: usize, max: usize) -> Result<(), usize> {
    let need = v.len().saturating_add(extra);
    if need <= v.capacity() {
        return Ok(());
    }
    grow(v, need, others, max)
}

#[cold]
fn grow<T>(v: &mut Vec<T>, need: usize, others: usize, max: usize) -> Result<(), usize> {
    let size = std::mem::size_of::<T>();
    let total = |cap: usize| others.saturating_add(cap.saturating_mul(size));
    let doubled = need.max(v.capacity().saturating_mul(2)).max(4);
    let cap = if total(doubled) <= max { doubled } else { need };
    if total(cap) > max {
        return Err(total(cap));
    }
    v.try_reserve_exact(cap - v.len()).map_err(|_| total(cap))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_is_made_within_the_limit_and_refused_past_it() {
        let mut v: Vec<u64> = Vec::new();
        assert_eq!(make_room(&mut v, 1, 0, 1024), Ok(()));
        assert_eq!(v.capacity(), 4);
        v.extend([1, 2, 3, 4]);
        // Doubling to 8 values passes the limit (40 + 64 = 104 > 80), so
        // exactly five are asked for (40 + 40 = 80).
        assert_eq!(make_room(&mut v, 1, 40, 80), Ok(()));
        assert_eq!(v.capacity(), 5);
        v.push(5);
        assert_eq!(make_room(&mut v, 1, 40, 80), Err(88));
        assert_eq!(v.capacity(), 5, "nothing allocated past the limit");
        assert_eq!(
            make_room(&mut v, usize::MAX, 0, usize::MAX),
            Err(usize::MAX)
        );
    }

    #[test]
    fn memory_sizes_read_with_their_units() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("3 kb"), Ok(3 << 10));
        for bad in ["", "M", "-1", "1.5G", "1X", "99999999999999999999"] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
        assert!(parse_bytes("99999999T").unwrap_err().contains("address"));
    }

    #[test]
    fn an_interrupt_is_seen() {
        let flag = AtomicBool::new(false);
        let limits = Limits {
            interrupt: Some(&flag),
            ..Limits::default()
        };
        assert!(!limits.interrupted() && !Limits::default().interrupted());
        flag.store(true, Ordering::Relaxed);
        assert!(limits.interrupted());
    }
}
