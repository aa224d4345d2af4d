//! The compiler's large stack, switched to on the main thread.
//!
//! Syntax trees up to ~10^5 levels deep are walked recursively, which needs
//! far more than the 8 MiB the main thread starts with. The stack is one
//! anonymous mapping (only touched pages are ever allocated) with a page
//! that cannot be accessed below it, so that an overflow stops the process
//! instead of writing over other memory; `psm` switches to it. (`stacker`,
//! which did this before, also reads `/proc/self/maps` to learn the main
//! thread's own stack bounds, which nothing here needs: 4 % of a small
//! run's instructions.) Where no stack can be switched to, the work runs on
//! a thread of that size instead; where neither can be had (an
//! address-space limit, `ulimit -v`, below the stack's size), the caller
//! is told so ([`Outcome::NoStack`]), and reports it as a clear error
//! rather than running a compiler that a deep file could overflow.

use std::panic::{self, AssertUnwindSafe};

/// How the work on the large stack went.
pub enum Outcome<R> {
    Done(R),
    /// It panicked.
    Crashed,
    /// No stack of that size could be mapped, nor a thread of that size
    /// started (why, as the system said); the work did not run.
    NoStack(std::io::Error),
}

/// Runs `work` on a stack of `bytes` bytes (a multiple of the page size),
/// catching its panic.
pub fn run_on_large_stack<R: Send + 'static>(
    bytes: usize,
    work: impl FnOnce() -> R + Send + 'static,
) -> Outcome<R> {
    let work = AssertUnwindSafe(work);
    #[cfg(all(unix, not(miri)))]
    if let Some(stack) = Mapping::new(bytes) {
        // SAFETY: `stack` is `bytes` bytes of readable and writable memory
        // (above its guard page), page-aligned, kept until `on_stack`
        // returns; the callback cannot unwind (the panic is caught).
        let result =
            unsafe { psm::on_stack(stack.base, stack.size, move || panic::catch_unwind(work)) };
        return result.map_or(Outcome::Crashed, Outcome::Done);
    }
    let thread = std::thread::Builder::new().stack_size(bytes);
    match thread.spawn(move || panic::catch_unwind(work)) {
        Ok(handle) => match handle.join() {
            Ok(Ok(result)) => Outcome::Done(result),
            Ok(Err(_)) | Err(_) => Outcome::Crashed,
        },
        Err(error) => Outcome::NoStack(error),
    }
}

/// An anonymous mapping: a guard page, then `size` bytes of stack.
#[cfg(all(unix, not(miri)))]
struct Mapping {
    start: *mut libc::c_void,
    len: usize,
    /// The lowest byte of the stack.
    base: *mut u8,
    size: usize,
}

#[cfg(all(unix, not(miri)))]
impl Mapping {
    fn new(size: usize) -> Option<Mapping> {
        // SAFETY: sysconf has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
        let len = size.checked_add(page)?;
        // SAFETY: a fresh private anonymous mapping aliases nothing.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return None;
        }
        let mapping = Mapping {
            start,
            len,
            base: start.cast::<u8>().wrapping_add(page),
            size,
        };
        // SAFETY: the first page of the mapping made above.
        let guarded = unsafe { libc::mprotect(start, page, libc::PROT_NONE) } == 0;
        guarded.then_some(mapping)
    }
}

#[cfg(all(unix, not(miri)))]
impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, no longer used.
        unsafe { libc::munmap(self.start, self.len) };
    }
}
