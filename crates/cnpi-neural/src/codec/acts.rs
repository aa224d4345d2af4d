//! The ACT rows: every ACT some environment declares, `_push` and the
//! frame stack's, numbered once, so that an ACT's row (its key) and its
//! arguments' code agree wherever a memory is built or read.

use std::sync::OnceLock;

use cnpi::env;
use cnpi::program::{Act, ActDecl, FrameAct, ParamType};

use super::tags::position_of;

/// The ACTs, one program-memory row each: every ACT some environment
/// declares (`env::all_acts`, `NOP` first), then `_push`, then the frame
/// stack's (`FrameAct::ALL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActKind(usize);

/// The declared ACTs, in row order.
fn declared() -> &'static [&'static ActDecl] {
    static ACTS: OnceLock<Vec<&'static ActDecl>> = OnceLock::new();
    ACTS.get_or_init(env::all_acts)
}

impl ActKind {
    /// The row of `NOP`, the first declared ACT.
    pub const NOP: ActKind = ActKind(0);

    /// Every ACT row, in order.
    pub fn all() -> impl Iterator<Item = ActKind> {
        (0..Self::count()).map(ActKind)
    }

    /// The number of ACT rows.
    pub fn count() -> usize {
        declared().len() + 1 + FrameAct::ALL.len()
    }

    /// The `index`-th ACT row.
    pub fn from_index(index: usize) -> Option<ActKind> {
        (index < Self::count()).then_some(ActKind(index))
    }

    /// Its place among the ACT rows.
    pub fn index(self) -> usize {
        self.0
    }

    /// The ACT's declaration; `None` for `_push` and the frame stack's,
    /// which take a number of positions.
    pub fn decl(self) -> Option<&'static ActDecl> {
        declared().get(self.0).copied()
    }

    /// The frame stack's ACT of this row, if it is one.
    pub(super) fn frame(self) -> Option<FrameAct> {
        let first = declared().len() + 1;
        (self.0.checked_sub(first)).and_then(|i| FrameAct::ALL.get(i).copied())
    }

    /// The row of `act`; `None` for an ACT no environment declares.
    pub fn of(act: &Act) -> Option<ActKind> {
        match act {
            Act::Push(_) => return Some(ActKind(declared().len())),
            Act::Frame(op, _) => {
                let at = position_of(&FrameAct::ALL, op) as usize;
                return Some(ActKind(declared().len() + 1 + at));
            }
            _ => {}
        }
        let (name, args) = (act.name(), act.args());
        declared()
            .iter()
            .position(|d| d.name == name && d.fits(&args))
            .map(ActKind)
    }

    /// The name of its row: the ACT as written, with its literal words
    /// (`OUT(OK)` apart from `OUT`).
    pub fn name(self) -> String {
        let Some(decl) = self.decl() else {
            return self.frame().map_or("_push", FrameAct::name).into();
        };
        if !decl.params.contains(&ParamType::Ok) {
            return decl.name.into();
        }
        decl.display()
    }
}
