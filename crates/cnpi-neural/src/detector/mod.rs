//! Detectors: the condition bit of every combinator step, from a network.
//!
//! Each condition gets an [`Encoder`] (the environment to a point of a
//! finite domain) and a [`Classifier`] trained on that whole domain and
//! verified on every point of it before it is used. A verified detector
//! also keeps its classifier's bit at every point: an exact cache, since
//! the bit depends on nothing but the point. Trained classifiers are kept
//! on disk by condition text ([`Cache`]), so a program's second build does
//! not train. The detector memory (`W_key`, `W_weight`) holds one detector
//! per condition of the source, after the two built-in ones: the blind
//! detector of `seq` and ACT appliers, and `_mapself`'s `_top != SENTINEL`.

mod cache;
pub mod classifier;
mod encoder;
mod fast;

pub use cache::{Cache, FORMAT as CACHE_FORMAT, read_classifier, write_classifier};
pub use classifier::{BETA, Classifier};
pub use encoder::{Condition, Encoder, MAX_DOMAIN, TooLarge};
pub use fast::FastDetector;
pub(crate) use fast::{Feature, Node as DiagramNode, Term as DetectorTerm};

use cnpi::program::{EvalError, World};
use smallvec::SmallVec;

/// The positions of a one-hot input's ones, on the stack for up to 16
/// features (a domain of at most [`MAX_DOMAIN`] points has no more
/// features of two states or more).
type Active = SmallVec<[usize; 16]>;

/// A trained, verified detector.
#[derive(Clone, Debug)]
pub struct Detector {
    encoder: Encoder,
    classifier: Classifier,
    /// The classifier's bit at every point of the domain.
    table: Vec<bool>,
}

/// Why a detector could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The encoder's domain would exceed [`MAX_DOMAIN`].
    TooLarge(u128),
    /// No classifier separated the domain.
    Untrainable(usize),
    /// The classifier differs from the condition at a point of the domain.
    Refuted(usize),
}

impl Detector {
    /// Trains a detector for `condition` (whose canonical text is `text`)
    /// from `seed`, or takes a classifier from `cache`, and verifies it. A
    /// cached classifier that fails verification is retrained.
    pub fn train(
        condition: Condition,
        text: &str,
        seed: u64,
        cache: &Cache,
    ) -> Result<Detector, Failure> {
        let encoder = Encoder::new(condition).map_err(|e| Failure::TooLarge(e.domain))?;
        if let Some(classifier) = cache.load(text, seed)
            && let Ok(detector) = Detector::verified(encoder.clone(), classifier)
        {
            return Ok(detector);
        }
        let classifier =
            classifier::train(&encoder, seed).ok_or(Failure::Untrainable(encoder.domain()))?;
        let detector = Detector::verified(encoder, classifier)?;
        cache.store(text, seed, &detector.classifier);
        Ok(detector)
    }

    /// A detector from a stored classifier, if it passes verification.
    pub fn verified(encoder: Encoder, classifier: Classifier) -> Result<Detector, Failure> {
        let table = classifier::verify(&encoder, &classifier).map_err(Failure::Refuted)?;
        Ok(Detector {
            encoder,
            classifier,
            table,
        })
    }

    pub fn condition(&self) -> &Condition {
        self.encoder.condition()
    }

    pub fn classifier(&self) -> &Classifier {
        &self.classifier
    }

    /// The verified table: the classifier's bit at every point of the
    /// domain.
    pub fn table(&self) -> &[bool] {
        &self.table
    }

    /// Its verified table read with no failure, where every feature has a
    /// fast form ([`FastDetector`]).
    pub fn fast(&self) -> Option<FastDetector> {
        FastDetector::new(self.encoder.fast_features()?, &self.table)
    }

    /// The number of points verification checked.
    pub fn domain(&self) -> usize {
        self.encoder.domain()
    }

    /// The condition bit in `world` (with `stack_top` for `_mapself`): the
    /// classifier's output, from the verified table when `cached`.
    #[inline]
    pub fn detect<W: World + ?Sized>(
        &self,
        world: &W,
        stack_top: bool,
        cached: bool,
    ) -> Result<bool, EvalError> {
        let point = self.encoder.encode(world, stack_top)?;
        Ok(if cached {
            self.table.get(point).copied().unwrap_or(false)
        } else {
            self.classifier
                .fires(&self.encoder.actives(point).collect::<Active>())
        })
    }
}
