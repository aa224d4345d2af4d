//! The neural machine: the Combinatory Neural Programmer-Interpreter.
//!
//! Programs run on a network as in section 3.2 and Algorithm 1 of the paper
//! (Xiao, Liao, Yuan, ICLR 2018). The [`core`] is a small LSTM that, given
//! only the binary condition of a detector at each step, decides which frame
//! slot of a combinator to run next and when the combinator returns; it is
//! trained once on the abstract traces of the combinators in
//! `stdlib/core.cnpi`, verified exhaustively, and shipped as
//! `stdlib/core.safetensors`. Everything task-specific (program memory,
//! detectors, the runtime that binds slots to programs) is built on top of
//! the core without ever changing it.

pub mod cnpim;
pub mod core;
pub mod detector;
pub mod memory;
pub mod runtime;
pub mod tensors;
