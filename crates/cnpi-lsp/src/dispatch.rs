//! Requests routed by their type, as rust-analyzer's `RequestDispatcher`
//! does: `.on::<HoverRequest>(handlers::hover)` decodes the parameters of a
//! request with that method, runs the handler on a worker thread with a
//! snapshot of the open documents, and encodes its result or failure; the
//! glue is written once, here. A request no `.on` takes gets "method not
//! found" from [`RequestDispatcher::finish`].
//!
//! Handlers only read, so a slow one holds up its worker and nothing else:
//! the main loop goes on reading messages and the other workers go on
//! answering. A handler that panics on some text gets an internal-error
//! response.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::Sender;
use lsp_server::{ErrorCode, Request, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::document::Snapshot;
use crate::transport::{Outbox, encode};

/// A failed request: an LSP error code and a message.
pub type Failure = (ErrorCode, String);

/// What a handler returns.
pub type Answer<T> = Result<T, Failure>;

type Job = Box<dyn FnOnce() + Send>;

/// How many requests are answered at once.
const WORKERS: usize = 4;

/// The threads that answer requests, fed through a bounded queue.
pub struct Workers {
    jobs: Sender<Job>,
    threads: Vec<JoinHandle<()>>,
}

impl Workers {
    pub fn new() -> Workers {
        let (jobs, queue) = crossbeam_channel::bounded::<Job>(64);
        let threads = (0..WORKERS)
            .map(|_| {
                let queue = queue.clone();
                std::thread::spawn(move || queue.into_iter().for_each(|job| job()))
            })
            .collect();
        Workers { jobs, threads }
    }

    /// Waits for the requests under way.
    pub fn finish(self) {
        drop(self.jobs);
        for thread in self.threads {
            // A job's panic is caught inside it; a worker cannot panic.
            let _ = thread.join();
        }
    }
}

/// Routes one request (see the module documentation).
pub struct RequestDispatcher<'a> {
    request: Option<Request>,
    snapshot: &'a Snapshot,
    workers: &'a Workers,
    outbox: &'a Outbox,
}

impl<'a> RequestDispatcher<'a> {
    pub fn new(
        request: Request,
        snapshot: &'a Snapshot,
        workers: &'a Workers,
        outbox: &'a Outbox,
    ) -> Self {
        RequestDispatcher {
            request: Some(request),
            snapshot,
            workers,
            outbox,
        }
    }

    /// Answers the request with `handler` if its method is `R`'s.
    pub fn on<R>(&mut self, handler: fn(&Snapshot, R::Params) -> Answer<R::Result>) -> &mut Self
    where
        R: lsp_types::request::Request,
        R::Params: DeserializeOwned + Send + 'static,
        R::Result: Serialize,
    {
        let Some(request) = self.request.take_if(|r| r.method == R::METHOD) else {
            return self;
        };
        let id = request.id;
        let params = match serde_json::from_value::<R::Params>(request.params) {
            Ok(params) => params,
            Err(problem) => {
                let message = format!("invalid parameters: {problem}");
                let response = Response::new_err(id, ErrorCode::InvalidParams as i32, message);
                let _ = self.outbox.send(encode(response));
                return self;
            }
        };
        let snapshot = Arc::clone(self.snapshot);
        let outbox = self.outbox.clone();
        let job = move || {
            let answer = catch_unwind(AssertUnwindSafe(|| handler(&snapshot, params)))
                .unwrap_or_else(|_| {
                    Err((
                        ErrorCode::InternalError,
                        format!(
                            "internal error in cnpic lsp while answering `{}`",
                            R::METHOD
                        ),
                    ))
                })
                .and_then(|result| {
                    serde_json::to_value(result)
                        .map_err(|problem| (ErrorCode::InternalError, problem.to_string()))
                });
            let response = match answer {
                Ok(value) => Response::new_ok(id, value),
                Err((code, message)) => Response::new_err(id, code as i32, message),
            };
            // The writer is gone only when the server is ending.
            let _ = outbox.send(encode(response));
        };
        // The queue is closed only when the server is ending.
        let _ = self.workers.jobs.send(Box::new(job));
        self
    }

    /// Answers a request no `.on` took.
    pub fn finish(&mut self) {
        if let Some(request) = self.request.take() {
            let message = format!("cnpic lsp does not serve `{}`", request.method);
            let response = Response::new_err(request.id, ErrorCode::MethodNotFound as i32, message);
            let _ = self.outbox.send(encode(response));
        }
    }
}
