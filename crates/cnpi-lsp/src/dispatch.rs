//! Messages routed by their type, as rust-analyzer's dispatchers do:
//! `.on::<HoverRequest>(handlers::hover)` decodes the parameters of a
//! request with that method, runs the handler on a worker thread with a
//! snapshot of the open documents, and encodes its result or failure; the
//! glue is written once, here. A request no `.on` takes gets "method not
//! found" from [`RequestDispatcher::finish`]. The life-cycle requests
//! (`.on_sync`) and the notifications ([`NotificationDispatcher`]) are
//! handled the same way, by type, but at once on the main loop, since they
//! change the server's state.
//!
//! Handlers only read, so a slow one holds up its worker and nothing else:
//! the main loop goes on reading messages and the other workers go on
//! answering. A handler that panics on some text gets an internal-error
//! response.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::Sender;
use lsp_server::{ErrorCode, Notification, Request, RequestId, Response};
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
    /// The workers, each on the front end's large stack
    /// ([`cnpi::operators::STACK_BYTES`]): a request walks a document's
    /// tree as deep as the compiler does.
    pub fn new() -> Result<Workers, String> {
        let (jobs, queue) = crossbeam_channel::bounded::<Job>(64);
        let threads = (0..WORKERS)
            .map(|_| {
                let queue = queue.clone();
                crate::spawn_on_large_stack(move || queue.into_iter().for_each(|job| job()))
            })
            .collect::<Result<_, _>>()?;
        Ok(Workers { jobs, threads })
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

    /// Answers the request with `handler` on a worker thread if its method
    /// is `R`'s.
    pub fn on<R>(&mut self, handler: fn(&Snapshot, R::Params) -> Answer<R::Result>) -> &mut Self
    where
        R: lsp_types::request::Request,
        R::Params: DeserializeOwned + Send + 'static,
        R::Result: Serialize,
    {
        let Some((id, params)) = self.take::<R>() else {
            return self;
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
                });
            // The writer is gone only when the server is ending.
            let _ = outbox.send(response(id, answer));
        };
        // The queue is closed only when the server is ending.
        let _ = self.workers.jobs.send(Box::new(job));
        self
    }

    /// Answers the request with `handler` at once, on the main loop, if
    /// its method is `R`'s: for the life-cycle requests (`initialize`,
    /// `shutdown`), which change the server's `state`.
    pub fn on_sync<R, S>(
        &mut self,
        state: &mut S,
        handler: fn(&mut S, R::Params) -> Answer<R::Result>,
    ) -> &mut Self
    where
        R: lsp_types::request::Request,
        R::Params: DeserializeOwned,
        R::Result: Serialize,
    {
        if let Some((id, params)) = self.take::<R>() {
            let _ = self.outbox.send(response(id, handler(state, params)));
        }
        self
    }

    /// Answers the request no `.on` took yet with `failure`.
    pub fn refuse(&mut self, (code, message): Failure) -> &mut Self {
        if let Some(request) = self.request.take() {
            let response = Response::new_err(request.id, code as i32, message);
            let _ = self.outbox.send(encode(response));
        }
        self
    }

    /// Answers a request no `.on` took.
    pub fn finish(&mut self) {
        let method = self.request.as_ref().map(|r| r.method.clone());
        if let Some(method) = method {
            let message = format!("cnpic lsp does not serve `{method}`");
            self.refuse((ErrorCode::MethodNotFound, message));
        }
    }

    /// The request's id and parameters if its method is `R`'s; parameters
    /// that do not decode are answered "invalid parameters" here.
    fn take<R>(&mut self) -> Option<(RequestId, R::Params)>
    where
        R: lsp_types::request::Request,
        R::Params: DeserializeOwned,
    {
        let request = self.request.take_if(|r| r.method == R::METHOD)?;
        match serde_json::from_value::<R::Params>(request.params) {
            Ok(params) => Some((request.id, params)),
            Err(problem) => {
                let message = format!("invalid parameters: {problem}");
                let response =
                    Response::new_err(request.id, ErrorCode::InvalidParams as i32, message);
                let _ = self.outbox.send(encode(response));
                None
            }
        }
    }
}

/// The response to request `id` that carries `answer`, as JSON-RPC text.
/// A result is written straight into the text, with no JSON tree in
/// between: an answer costs its text, not the several times more a tree
/// of it would.
fn response<T: Serialize>(id: RequestId, answer: Answer<T>) -> String {
    #[derive(Serialize)]
    struct Reply<'a, T> {
        jsonrpc: &'static str,
        id: &'a RequestId,
        result: &'a T,
    }
    let problem = match answer {
        Ok(result) => {
            let reply = Reply {
                jsonrpc: "2.0",
                id: &id,
                result: &result,
            };
            match serde_json::to_string(&reply) {
                Ok(text) => return text,
                Err(problem) => (ErrorCode::InternalError, problem.to_string()),
            }
        }
        Err(failure) => failure,
    };
    let (code, message) = problem;
    encode(Response::new_err(id, code as i32, message))
}

/// Routes one notification, as [`RequestDispatcher`] does a request, to a
/// handler run at once on the main loop with the server's `state`:
/// notifications are handled in the order they come. Parameters that do
/// not decode, and notifications no `.on` takes, are dropped (a
/// notification has no answer).
pub struct NotificationDispatcher<'a, S> {
    notification: Option<Notification>,
    state: &'a mut S,
}

impl<'a, S> NotificationDispatcher<'a, S> {
    pub fn new(notification: Notification, state: &'a mut S) -> Self {
        NotificationDispatcher {
            notification: Some(notification),
            state,
        }
    }

    /// Hands the notification to `handler` if its method is `N`'s.
    pub fn on<N>(&mut self, handler: fn(&mut S, N::Params)) -> &mut Self
    where
        N: lsp_types::notification::Notification,
        N::Params: DeserializeOwned,
    {
        let taken = self.notification.take_if(|n| n.method == N::METHOD);
        if let Some(Ok(params)) = taken.map(|n| serde_json::from_value(n.params)) {
            handler(self.state, params);
        }
        self
    }
}
