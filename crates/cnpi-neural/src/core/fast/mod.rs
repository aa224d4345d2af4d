//! The fast trainer: the core's LSTM trained by hand-written forward and
//! backward passes, for the experiments of section 4.1 of the paper.
//!
//! `core::train` trains the shipped core in candle, which at batch 1 spends
//! most of an update on graph bookkeeping. The experiments train hundreds of
//! cores (Figure 3 sweeps 3 variants × 16 sizes × 5 seeds), so they use
//! this trainer: the same loss, the same initial draw and the same loop
//! (`core::schedule`), with the updates computed in plain loops over the
//! functions of [`crate::maths`]. candle stays the reference:
//! `reference.rs` tests that both give the same gradients on the same
//! weights.
//!
//! - `model`: the core's [`Weights`](crate::core::Weights) (its LSTM
//!   layer is [`crate::core::lstm`], forward and backward) and the three
//!   ways to feed it a combinator ([`Variant`]), with parameter groups for
//!   freezing;
//! - `train`: SGD over the abstract traces; [`learn_embeddings`] learns new
//!   combinators on a frozen core.
//!
//! A trained state0 model holds exactly the weights the shipped inference
//! path runs and verifies ([`Model::as_weights`]).

mod model;
#[cfg(test)]
mod reference;
mod train;

pub use model::{Group, Model, VOCABULARY, Variant, tokens};
pub use train::{FastOptions, Fitted, fit, learn_embeddings, train, verify};
