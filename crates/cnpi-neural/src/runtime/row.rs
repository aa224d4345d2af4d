//! What running one row of a memory does ([`Op`]), how the cached
//! machine reads a detector's bit ([`Probe`]), and which row a frame's
//! slot runs ([`bound`]): the vocabulary the compiled memory
//! (`compiled.rs`), its scripts (`script.rs`) and the machine share.

use crate::detector::FastDetector;
use crate::memory::{Builtin, Memory};
use cnpi::env::CompiledAct;
use cnpi::program::flat::Flat;
use cnpi::program::{ActApp, PointerId, Slot};

/// What running one row does.
#[derive(Debug)]
pub(super) enum Op {
    /// An applier whose parse starts the combinator at decision-table
    /// row `combinator` with `detector` and a new frame `[self, a1, a2, a3]`.
    Start {
        combinator: u32,
        detector: u32,
        frame: [u32; 4],
    },
    /// An applier whose parse is an ACT.
    Act(Box<Act>),
    /// An applier parsed when it runs (the plain parser, no cache).
    Parse,
    /// An applier that does not parse, and why (a damaged memory: an error
    /// when a run reaches it).
    Unparsed(String),
    /// A combinator row (`self`, `_mapself`): a new activation of the
    /// combinator at decision-table row `.0` with the same frame.
    Restart(u32),
    Builtin(Builtin),
    Nop,
    /// A row no frame slot can run (an ACT's fixed row, or none).
    Invalid,
}

/// An ACT as the machine applies it: a `SET` whose value has a flat form
/// is done by the machine (one whose value is `P[q] + k`, `P[q]` or an
/// integer straight from the pointers), and a `WRITE` or `SWAP` of cells compiled
/// ([`CompiledAct`]) by the store without the expression tree (each as
/// written only where that cannot give the result, for the error); any
/// other by the store.
#[derive(Debug)]
pub(super) struct Act {
    pub(super) app: ActApp,
    pub(super) set: Option<(PointerId, Flat)>,
    /// A `SET(p, P[q] + k)` as `(p, Some(q), k)` ([`Flat::affine`]).
    pub(super) affine: Option<(PointerId, Option<PointerId>, i64)>,
    pub(super) compiled: Option<CompiledAct>,
}

impl Act {
    pub(super) fn new(app: ActApp) -> Act {
        let (set, compiled) = match &app.act {
            cnpi::program::Act::Set(p, value) => (Flat::new(value).map(|flat| (*p, flat)), None),
            cnpi::program::Act::Env(act) => (None, CompiledAct::new(act)),
            _ => (None, None),
        };
        let affine = (set.as_ref()).and_then(|(p, flat)| flat.affine().map(|(q, k)| (*p, q, k)));
        Act {
            app,
            set,
            affine,
            compiled,
        }
    }
}

/// How the cached machine reads a detector's bit.
#[derive(Clone, Debug)]
pub(super) enum Probe {
    /// A detector without features (the blind one): its table's one bit.
    Constant(bool),
    /// `_mapself`'s: its table's bit at the point `top_is_state`.
    StackTop([bool; 2]),
    /// One whose features all relate sides read with no failure: its
    /// table as a diagram ([`FastDetector`]).
    Fast(Box<FastDetector>),
    /// Any other: encode the environment, then read the table.
    Encode,
}

/// The row `slot` of `frame` (the rows bound to `self, a1, a2, a3`) is
/// bound to; the built-in slots to the fixed rows of
/// [`Memory::builtin_slot`].
#[inline]
pub(super) fn bound(frame: [u32; 4], slot: Slot) -> u32 {
    match slot {
        Slot::SelfSlot => frame[0],
        Slot::A1 => frame[1],
        Slot::A2 => frame[2],
        Slot::A3 => frame[3],
        builtin => Memory::builtin_slot(builtin).unwrap_or_default() as u32,
    }
}
