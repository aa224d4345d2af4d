//! An ACT row's code as the decoder reads it, kept: every datum (span,
//! tag, number, integer) in the order [`Decoder::act`] reads it. The plan
//! keeps the readout of each ACT row, and the plain parser, which must
//! read the row's arguments at every step, reads them again against it
//! with the same decoder, building nothing and allocating nothing: the
//! row reads to the ACT the plan compiled exactly when it reads the same
//! data, since the tree is a function of the data and the data of the
//! tree.

use cnpi::program::ActApp;
use cnpi::span::Span;

use super::acts::ActKind;
use super::decode::{CodeError, Datum, Decoder, Reading};

/// The data of reading one ACT's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Readout(Vec<Datum>);

/// A reading that builds nothing and hands each datum to its function.
struct Skim<F>(F);

impl<F: FnMut(Datum) -> Result<(), CodeError>> Reading for Skim<F> {
    type Node<T> = ();

    fn datum(&mut self, datum: Datum) -> Result<(), CodeError> {
        (self.0)(datum)
    }

    fn node<T>(_: impl FnOnce() -> T) {}

    fn map<A, B>((): (), _: impl FnOnce(A) -> B) {}

    fn both<A, B>((): (), (): ()) {}

    fn try_map<A, B>((): (), _: impl FnOnce(A) -> Result<B, CodeError>) -> Result<(), CodeError> {
        Ok(())
    }
}

impl Readout {
    /// The ACT of kind `kind` at `span` that `decoder` reads from the
    /// start of its code, with nothing left over, and its readout; `None`
    /// if the code reads to no ACT.
    pub fn of(mut decoder: Decoder<'_>, kind: ActKind, span: Span) -> Option<(ActApp, Readout)> {
        let app = decoder
            .act(kind, span)
            .ok()
            .filter(|_| decoder.finished())?;
        let mut data = Vec::new();
        decoder
            .reading(Skim(|datum| {
                data.push(datum);
                Ok(())
            }))
            .act(kind, span)
            .ok()?;
        Some((app, Readout(data)))
    }

    /// Whether the code of `decoder` (from its start) reads as this
    /// readout with nothing left over: exactly when [`Decoder::act`] of
    /// `kind` at `span` gives the ACT this readout was made with.
    pub fn reads(&self, decoder: Decoder<'_>, kind: ActKind, span: Span) -> bool {
        let mut expected = self.0.iter();
        let same = {
            let mut decoder = decoder.reading(Skim(|datum| match expected.next() {
                Some(&next) if next == datum => Ok(()),
                _ => Err(CodeError(String::new())),
            }));
            decoder.act(kind, span).is_ok() && decoder.finished()
        };
        same && expected.next().is_none()
    }
}
