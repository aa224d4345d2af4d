//! Numbers for what is not a key: ACT arguments and conditions as `f32`s.
//!
//! The paper stores an ACT applier's argument values "in place of the key
//! embeddings" (footnote to equation 1). Here every argument, and every
//! condition a detector encodes, is written as a prefix code of small
//! integers held exactly in `f32`: a tag, then the tag's fields. Integer
//! literals below 2^24 take one number, larger ones four 16-bit limbs, so
//! any i64 round-trips. Source spans are not numbers the machine computes
//! with: the encoder lists them beside the code (one per expression node,
//! in code order) and the decoder hands them back, so that runtime errors
//! point at the same text as the reference interpreter's.
//!
//! [`ActKind`] numbers the ACT rows (`acts`), `tags` holds the code's
//! vocabulary, [`Code`] writes a code (`encode`) and [`Decoder`] reads one
//! back (`decode`): into a tree, or only into its data, which a
//! [`Readout`] keeps to read a row against later without building
//! anything (`readout`). The module sits below both the program memory
//! and the detectors, which both write codes.

mod acts;
mod decode;
mod encode;
mod readout;
mod tags;

pub use acts::ActKind;
pub use decode::{CodeError, Decoder};
pub use encode::Code;
pub use readout::Readout;

#[cfg(test)]
mod tests;
