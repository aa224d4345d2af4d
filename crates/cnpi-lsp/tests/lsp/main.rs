//! The language server, one file per feature (as gleam's
//! `language_server/tests/`), each test a short exchange with the server
//! over a fixture of `tests/fixtures/`: `support` is the client.

mod bounds;
mod code_actions;
mod completion;
mod definition;
mod depth;
mod diagnostics;
mod formatting;
mod holes;
mod hover;
mod locals;
mod protocol;
mod ram;
mod references;
mod support;
mod symbols;
