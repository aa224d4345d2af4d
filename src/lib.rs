//! cnpi: the front end and the exact interpreter of the Combinatory Neural
//! Programmer-Interpreter (Xiao, Liao, Yuan, ICLR 2018).
//!
//! The phases, in order, each handing its result to the next:
//!
//! - [`syntax`]: text to parse tree (logos lexer, layout, lalrpop grammar);
//! - [`check`]: parse tree to the typed, resolved [`program::Program`];
//! - [`combinatorize`]: normal programs to appliers (Algorithm 3);
//! - [`env`]: the environments a program acts on; [`exec`]: the execution
//!   core both engines share (store, state stack, limits, outcomes,
//!   comparison of runs); [`symbolic`]: the exact reference interpreter.
//!
//! [`compile`] strings the phases together and is the usual way in:
//! [`compile::compile`] for a checked program, [`compile::for_the_network`]
//! for what the network runs; [`plan`] runs a program on the engines a
//! run asks for and compares them. [`diagnostic`] carries every error as data
//! (code, message, labelled [`span`]s, help) and renders it; [`stdlib`]
//! reads the combinators and environment signatures from `stdlib/*.cnpi`;
//! [`operators`] is the vocabulary the phases share; [`format`] lays a
//! file out canonically (`cnpic fmt`, the language server); [`files`]
//! writes every output file atomically; [`shard`] splits a batch (`--shard
//! i/n`) and [`threads`] says how many threads a run takes. The library never
//! prints or exits. The network lives in the `cnpi-neural` crate and the
//! command line in `cnpic`; this crate does not depend on either (nor on
//! candle), so editor tooling can use it alone.

pub mod check;
pub mod combinatorize;
pub mod compile;
pub mod diagnostic;
pub mod env;
pub mod exec;
pub mod files;
pub mod format;
pub mod operators;
pub mod plan;
pub mod program;
pub mod read;
pub mod shard;
pub mod span;
pub mod stdlib;
pub mod symbolic;
pub mod syntax;
pub mod threads;
