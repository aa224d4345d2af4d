//! A learned CNPI-4 core as a core file the rest of cnpi reads.
//!
//! The policy scores only the four slots a basic combinator calls (`self,
//! a1, a2, a3`); a core file scores all nine frame slots of
//! `cnpi::program::Slot::ALL`. [`core_weights`] writes the four learned
//! rows of `f_prog` and, for the five built-in slots the learned core does
//! not have, a row of zeros with bias [`ABSENT`], so that argmax never
//! picks them. The file embeds only the combinators learned (`seq, cond,
//! linrec`): a partial core, which `cnpic verify-core` verifies for those
//! and `cnpic run` refuses for a program that needs another.

use cnpi_neural::core::{Metadata, SLOTS, Weights, write};

use crate::policy::Policy;
use crate::tasks::LEARNED;

/// The score bias of a slot the learned core does not have.
pub const ABSENT: f32 = -1.0e4;

/// The policy's parameters in the layout of a core file.
pub fn core_weights(policy: &Policy) -> Weights {
    let mut weights = policy.weights();
    let cells = weights.cells();
    let learned = weights.b_prog.len();
    weights.w_prog.resize(SLOTS * cells, 0.0);
    weights.b_prog.resize(SLOTS, ABSENT);
    debug_assert!(learned <= SLOTS);
    weights
}

/// The bytes of a core file for a learned core.
pub fn core_file(
    weights: &Weights,
    seed: u64,
    episodes: usize,
    command: &str,
    verification: &str,
) -> Vec<u8> {
    let metadata = Metadata {
        combinators: LEARNED.iter().map(|&(_, name)| name.to_string()).collect(),
        seed,
        epochs: episodes,
        command: command.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        verification: verification.to_string(),
    };
    write(weights, &metadata)
}
