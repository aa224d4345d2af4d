//! The process entry on Linux, in place of std's.
//!
//! std's `main` prepares the runtime before it calls the program's: it
//! opens `/dev/null` on standard streams that are closed, ignores SIGPIPE
//! (so that a closed pipe is a write error, which `cli::output` reports),
//! and looks up the main thread's stack bounds for its overflow message,
//! which glibc finds by reading and scanning `/proc/self/maps` (0.1 M
//! instructions and a dozen system calls: a tenth of a millisecond of
//! every run). cnpic runs on a stack of its own (`stack`), so its entry
//! (`#![no_main]`, the C `main` in `main.rs`) does the first two and skips
//! the third. glibc hands std the arguments as it does for any program.

use std::ffi::c_int;
use std::process::ExitCode;

/// What std's start-up does that cnpic needs: the standard streams open,
/// SIGPIPE ignored.
pub fn prepare() {
    let mut streams = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: `streams` is an array of three pollfd; a zero timeout
    // returns at once.
    if unsafe { libc::poll(streams.as_mut_ptr(), 3, 0) } > 0 {
        for stream in streams {
            if stream.revents & libc::POLLNVAL != 0 {
                // SAFETY: a NUL-terminated path; the lowest free
                // descriptor is the closed stream's.
                unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
            }
        }
    }
    // SAFETY: setting a signal's disposition to "ignore" has no
    // preconditions.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
}

/// The exit status `code` stands for (an `ExitCode` is one byte on Unix).
pub fn status(code: ExitCode) -> c_int {
    (0..=u8::MAX)
        .find(|&byte| ExitCode::from(byte) == code)
        .map_or(1, c_int::from)
}
