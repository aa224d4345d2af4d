//! The decoder checking a code against an ACT it is expected to give,
//! without building anything: every number and span is read as
//! [`Decoder::act`] reads it, in the same order, and compared with the
//! expected tree as it comes. `true` means `Decoder::act` would give an
//! ACT equal to the expected one and stop where this stops; `false` means
//! it would give another ACT or an error (the caller then decodes).

use cnpi::program::declared::{MOVE, NOP, SET};
use cnpi::program::{Act, ActApp, ActArg, Cell, ObservationKind, ParamType, PosExpr, PosKind};
use cnpi::span::Span;

use super::acts::ActKind;
use super::decode::Decoder;
use super::tags::{COLORS, DIRECTIONS, Tag};

impl Decoder<'_> {
    /// Whether [`Decoder::act`] of `kind` at `span` gives `expected`.
    pub fn act_is(&mut self, kind: ActKind, span: Span, expected: &ActApp) -> bool {
        if span != expected.span {
            return false;
        }
        let Some(decl) = kind.decl() else {
            let exprs = match (&expected.act, kind.frame()) {
                (Act::Frame(op, exprs), Some(frame)) if *op == frame => exprs,
                (Act::Push(exprs), None) => exprs,
                _ => return false,
            };
            let count = self.index(u32::MAX, "argument count");
            return count.is_ok_and(|n| n as usize == exprs.len())
                && exprs.iter().all(|e| self.position_is(e));
        };
        // `Act::build`'s cases, in its order.
        match (&expected.act, decl.params) {
            (Act::Nop, []) => *decl == NOP,
            _ if *decl == NOP => false,
            (Act::Move(p, d), [ParamType::Pointer, ParamType::Direction]) if *decl == MOVE => {
                self.pointer() == Ok(*p)
                    && self.argument_is(ParamType::Direction, &ActArg::Direction(*d))
            }
            (Act::Set(p, e), [ParamType::Pointer, ParamType::Position]) if *decl == SET => {
                self.pointer() == Ok(*p) && self.position_is(e)
            }
            _ if *decl == MOVE || *decl == SET => false,
            (Act::Env(act), params) => {
                *act.decl == *decl
                    && act.args.len() == params.len()
                    && (params.iter().zip(&act.args))
                        .all(|(&param, arg)| self.argument_is(param, arg))
            }
            _ => false,
        }
    }

    /// Whether [`Decoder::act_argument`] of type `param` gives `expected`.
    fn argument_is(&mut self, param: ParamType, expected: &ActArg) -> bool {
        match (param, expected) {
            (ParamType::Pointer, ActArg::Pointer(p)) => self.pointer() == Ok(*p),
            (ParamType::Position, ActArg::Position(e)) => self.position_is(e),
            (ParamType::Direction, ActArg::Direction(d)) => {
                (self.index(2, "direction")).is_ok_and(|i| DIRECTIONS[i as usize] == *d)
            }
            (ParamType::Color, ActArg::Color(c)) => {
                (self.index(3, "colour")).is_ok_and(|i| COLORS[i as usize] == *c)
            }
            (ParamType::Ok, ActArg::Ok) => true,
            (ParamType::Place, ActArg::Place(cell)) => {
                self.span() == Ok(cell.span) && self.cell_is(cell)
            }
            _ => false,
        }
    }

    /// Whether [`Decoder::position`] gives `expected` (nested no deeper
    /// than it reads).
    fn position_is(&mut self, expected: &PosExpr) -> bool {
        self.nested(|d| Ok(d.position_node_is(expected)))
            .is_ok_and(|same| same)
    }

    fn position_node_is(&mut self, expected: &PosExpr) -> bool {
        if self.span() != Ok(expected.span) {
            return false;
        }
        let Ok(tag) = self.tag("position tag") else {
            return false;
        };
        match (tag, &expected.kind) {
            (Tag::Int | Tag::BigInt, PosKind::Int(value)) => self.int(tag) == Ok(*value),
            (Tag::Pointer, PosKind::Pointer(p)) => self.pointer() == Ok(*p),
            (Tag::Last, PosKind::Last)
            | (Tag::Resume, PosKind::Resume)
            | (Tag::End, PosKind::End) => true,
            (Tag::ObservePosition, PosKind::Observe(observation, at)) => {
                (self.observation(ObservationKind::Position)).is_ok_and(|o| o == *observation)
                    && self.position_is(at)
            }
            (Tag::Neg, PosKind::Neg(e)) => self.position_is(e),
            (Tag::Read, PosKind::Read(cell)) => cell.span == expected.span && self.cell_is(cell),
            (tag, PosKind::Arith(op, lhs, rhs)) => {
                tag.arith_op() == Some(*op) && self.position_is(lhs) && self.position_is(rhs)
            }
            _ => false,
        }
    }

    /// Whether [`Decoder::cell`] gives `expected` (its span already
    /// compared).
    fn cell_is(&mut self, expected: &Cell) -> bool {
        let limit = u32::try_from(self.data().len()).unwrap_or(u32::MAX);
        let Ok(id) = self.index(limit, "data number") else {
            return false;
        };
        let data = &self.data()[id as usize];
        let same = id as usize == expected.data
            && data.name == expected.name
            && expected.at.len() == data.dims.len();
        same && (self.index(3, "index count")).is_ok_and(|n| n as usize == expected.at.len())
            && expected.at.iter().all(|e| self.position_is(e))
    }
}
