//! cnpi-neural: the neural machine of the Combinatory Neural
//! Programmer-Interpreter.
//!
//! Programs run on a network as in section 3.2 and Algorithm 1 of the paper
//! (Xiao, Liao, Yuan, ICLR 2018). The [`core`] is a small LSTM that, given
//! only the binary condition of a detector at each step, decides which frame
//! slot of a combinator to run next and when the combinator returns; it is
//! trained once on the abstract traces of the combinators in
//! `stdlib/core.cnpi`, verified exhaustively, and shipped as
//! `stdlib/core.safetensors`. Everything task-specific is built on top of
//! the core without ever changing it: the program [`memory`] (keys and
//! applier embeddings, written by the compiler), the [`detector`] memory
//! (one trained, verified classifier per condition), and the [`runtime`]
//! that binds slots to programs. [`cnpim`] stores a memory as a file, in
//! the checked safetensors format of [`tensors`]; `codec` writes ACT
//! arguments and conditions as numbers for both memories. [`load`] is a
//! program as the commands name it (a source or a memory file), ready to
//! run;
//! [`viewer`] records a run and writes it as a page to step through.
//! [`maths`] holds the small functions (σ, dot products, the LSTM cell)
//! every network here is built from, written once.
//!
//! The crate takes checked programs from the `cnpi` front end
//! (`cnpi::compile::for_the_network`) and acts on the world through
//! `cnpi::exec`, the execution core it shares with the reference
//! interpreter; it never calls the reference interpreter itself.

pub mod cnpim;
pub(crate) mod codec;
pub mod core;
pub mod detector;
pub mod load;
pub mod maths;
pub mod memory;
pub mod runtime;
pub mod tensors;
pub mod viewer;

/// What a file that is not what a command expected looks like, in words:
/// "a program memory", "a core file", ... (`None` for none of cnpi's). It
/// lives at the top because it knows every kind of file the crate writes.
pub fn describe(bytes: &[u8]) -> Option<String> {
    let format = tensors::format_of(bytes)?;
    Some(match format.as_str() {
        cnpim::FORMAT => "a program memory (`.cnpim`)".to_string(),
        core::FORMAT => "a core file (safetensors)".to_string(),
        detector::CACHE_FORMAT => "a cached detector".to_string(),
        core::embedding::FORMAT => "a cached combinator embedding".to_string(),
        other => format!("a safetensors file of format `{other}`"),
    })
}
