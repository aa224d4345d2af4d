//! How many worker threads a command starts: what `--threads` asks for
//! (0: one per core), but never more than there is work for, nor more
//! than [`PER_CORE`] per core, so `--threads 100000` on one trial starts
//! one thread.

/// The most threads per core a command starts, however many are asked
/// for: the work is computation, which more threads than cores do not
/// speed up.
pub const PER_CORE: usize = 8;

/// The threads to run `work` independent items on when `requested` are
/// asked for (0: one per core); at least one.
pub fn usable(requested: usize, work: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let wanted = if requested == 0 { cores } else { requested };
    wanted.min(work).min(cores * PER_CORE).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_capped_by_the_work_and_the_cores() {
        assert_eq!(usable(100_000, 1), 1);
        assert_eq!(usable(3, 10), 3);
        assert_eq!(usable(5, 0), 1);
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(usable(0, 1_000_000), cores);
        assert_eq!(usable(100_000, 1_000_000), cores * PER_CORE);
    }
}
