//! cnpi: a compiler and runtime for the Combinatory Neural
//! Programmer-Interpreter.
//!
//! The phases, in order: [`syntax`] (text to parse tree), [`check`] (parse
//! tree to the typed [`program::Program`]), [`combinatorize`] (normal
//! programs to appliers), [`env`] (the environments), and [`symbolic`] (the
//! exact reference interpreter). The network lives in the `cnpi-neural`
//! crate and the command line in `cnpic`.
//! [`diagnostic`] carries every error as data and renders it.

pub mod check;
pub mod combinatorize;
pub mod compile;
pub mod diagnostic;
pub mod env;
pub mod exec;
pub mod operators;
pub mod program;
pub mod span;
pub mod stdlib;
pub mod symbolic;
pub mod syntax;
