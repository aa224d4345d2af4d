//! Ctrl-C during a run (issue 47): a run outside the GIL asks its
//! [`Watch`] every few thousand steps whether to stop
//! (`cnpi::exec::Limits::interrupt`); on the thread that called into the
//! package, the watch takes the GIL for a moment and runs Python's signal
//! handlers (`Python::check_signals`). An exception one raises (a
//! `KeyboardInterrupt`) stops the run on every thread, and the call raises
//! it instead of returning. A run writes nothing, so nothing is left
//! half-written.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::ThreadId;

use cnpi::exec::limits::Interrupt;
use pyo3::prelude::*;

/// The signal check of one call.
pub struct Watch {
    stop: AtomicBool,
    /// The thread that called into the package: Python runs signal
    /// handlers on its main thread only, which is where a call from the
    /// main thread waits.
    caller: ThreadId,
    raised: Mutex<Option<PyErr>>,
}

impl Watch {
    /// The watch of a call made on this thread.
    pub fn new() -> Watch {
        Watch {
            stop: AtomicBool::new(false),
            caller: std::thread::current().id(),
            raised: Mutex::new(None),
        }
    }

    /// The exception a signal handler raised during the run, if any: the
    /// call raises it instead of returning the run's result.
    pub fn raised(self) -> Option<PyErr> {
        self.raised.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl Interrupt for Watch {
    fn interrupted(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if std::thread::current().id() != self.caller {
            return false;
        }
        let Err(error) = Python::attach(|py| py.check_signals()) else {
            return false;
        };
        *self.raised.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
        self.stop.store(true, Ordering::Relaxed);
        true
    }
}
