//! The encoder: ACT arguments and conditions written as a prefix code, with
//! the span of each expression node beside it.

use cnpi::program::{Act, ActArg, BoolExpr, Cell, Observation, Operand, PosExpr, PosKind, SymExpr};
use cnpi::span::Span;

use super::tags::{COLORS, DIRECTIONS, SMALL, Tag, observations, position_of};

/// A code under construction, with the span of each expression node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Code {
    pub values: Vec<f32>,
    pub spans: Vec<Span>,
}

impl Code {
    /// An empty code with room for a condition's or an ACT's: grown from
    /// empty, a code was reallocated three or four times on the way, 160
    /// reallocations in a one-element run's start.
    pub fn new() -> Code {
        Code {
            values: Vec::with_capacity(32),
            spans: Vec::with_capacity(16),
        }
    }

    fn tag(&mut self, tag: Tag) {
        self.values.push(tag as u32 as f32);
    }

    /// An observation: its place among those of its kind.
    pub fn observation(&mut self, observation: &Observation) {
        let list = observations(observation.kind);
        let index = list.iter().position(|o| *o == observation);
        self.values.push(index.unwrap_or_default() as f32);
    }

    fn int(&mut self, k: i64) {
        if (1 - SMALL..SMALL).contains(&k) {
            self.tag(Tag::Int);
            self.values.push(k as f32);
        } else {
            self.tag(Tag::BigInt);
            let bits = k as u64;
            for limb in 0..4 {
                self.values.push(((bits >> (16 * limb)) & 0xFFFF) as f32);
            }
        }
    }

    pub fn position(&mut self, e: &PosExpr) {
        self.spans.push(e.span);
        match &e.kind {
            PosKind::Int(k) => self.int(*k),
            PosKind::Pointer(p) => {
                self.tag(Tag::Pointer);
                self.values.push(*p as f32);
            }
            PosKind::Last => self.tag(Tag::Last),
            PosKind::Resume => self.tag(Tag::Resume),
            PosKind::End => self.tag(Tag::End),
            // No program with a hole reaches the network
            // (`cnpi::compile::runnable`): a hole has no code.
            PosKind::Hole(_) => {}
            PosKind::Observe(o, at) => {
                self.tag(Tag::ObservePosition);
                self.observation(o);
                self.position(at);
            }
            PosKind::Neg(v) => {
                self.tag(Tag::Neg);
                self.position(v);
            }
            PosKind::Arith(op, lhs, rhs) => {
                self.tag(Tag::arith(*op));
                self.position(lhs);
                self.position(rhs);
            }
            PosKind::Read(cell) => {
                self.tag(Tag::Read);
                self.cell(cell);
            }
            // Lowered away before conversion; no tag, so it never decodes.
            PosKind::Call(_) => self.values.push(-1.0),
        }
    }

    /// A cell of declared data: its data's number, then one position per
    /// index (the data's shape says how many).
    fn cell(&mut self, cell: &Cell) {
        self.values.push(cell.data as f32);
        self.values.push(cell.at.len() as f32);
        for index in &cell.at {
            self.position(index);
        }
    }

    pub fn operand(&mut self, operand: &Operand) {
        match operand {
            Operand::Int(k) => {
                self.tag(Tag::OperandInt);
                self.int(*k);
            }
            Operand::End => self.tag(Tag::OperandEnd),
            Operand::Pos(e) => {
                self.tag(Tag::OperandPos);
                self.position(e);
            }
            Operand::Val(v) => {
                self.tag(Tag::OperandValue);
                self.spans.push(v.span);
                self.observation(v.observation);
                self.position(&v.at);
            }
            Operand::Sym(SymExpr::Literal(color, span)) => {
                self.tag(Tag::OperandColor);
                self.spans.push(*span);
                self.values.push(position_of(&COLORS, color) as f32);
            }
            Operand::Sym(SymExpr::Observe(o, at, span)) => {
                self.tag(Tag::OperandObserve);
                self.spans.push(*span);
                self.observation(o);
                self.position(at);
            }
        }
    }

    pub fn condition(&mut self, condition: &BoolExpr) {
        match condition {
            BoolExpr::Compare(op, lhs, rhs) => {
                self.tag(Tag::compare(*op));
                self.operand(lhs);
                self.operand(rhs);
            }
            BoolExpr::Test(o, at) => {
                self.tag(Tag::Test);
                self.observation(o);
                self.position(at);
            }
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                self.tag(if matches!(condition, BoolExpr::And(..)) {
                    Tag::And
                } else {
                    Tag::Or
                });
                self.condition(a);
                self.condition(b);
            }
            BoolExpr::Not(a) => {
                self.tag(Tag::Not);
                self.condition(a);
            }
            // As a position's hole: never on the network.
            BoolExpr::Hole(..) => {}
        }
    }

    /// The arguments of an ACT (its kind is the key of its row), each
    /// written by its parameter type; `_push` and the frame stack's first
    /// say how many positions follow.
    pub fn act_arguments(&mut self, act: &Act) {
        if let Act::Push(exprs) | Act::Frame(_, exprs) = act {
            self.values.push(exprs.len() as f32);
        }
        for arg in &act.args() {
            self.act_argument(arg);
        }
    }

    /// One ACT argument: a pointer by its index, a position by its code, a
    /// direction or colour by its place in its list, `OK` by nothing.
    fn act_argument(&mut self, arg: &ActArg) {
        match arg {
            ActArg::Pointer(p) => self.values.push(*p as f32),
            ActArg::Position(e) => self.position(e),
            ActArg::Direction(d) => self.values.push(position_of(&DIRECTIONS, d) as f32),
            ActArg::Color(c) => self.values.push(position_of(&COLORS, c) as f32),
            ActArg::Ok => {}
            ActArg::Place(cell) => {
                self.spans.push(cell.span);
                self.cell(cell);
            }
        }
    }
}
