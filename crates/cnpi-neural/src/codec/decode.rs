//! The decoder: a code written by [`super::Code`] read back into ACT
//! arguments and conditions, with their spans; a bad code is an error,
//! never a panic.

use cnpi::operators::MAX_DEPTH;
use cnpi::program::{
    Act, ActApp, ActArg, BoolExpr, Cell, Data, DataId, Observation, ObservationKind, Operand,
    ParamType, PointerId, PosExpr, PosKind, SymExpr, ValExpr,
};
use cnpi::span::Span;

use super::acts::ActKind;
use super::tags::{COLORS, DIRECTIONS, SMALL, Tag, observations};

/// Why a code could not be read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeError(pub String);

/// Reads a code written by [`Code`](super::Code), doing with what it
/// reads what its [`Reading`] does: build the tree ([`Tree`]) or only
/// read every number and span ([`Readout`](super::Readout)).
pub struct Decoder<'a, R: Reading = Tree> {
    values: &'a [f32],
    at: usize,
    spans: &'a [Span],
    span_at: usize,
    /// The number of pointers of the program: every pointer id is below.
    pointers: usize,
    /// The data the program declares: every cell names one of them.
    data: &'a [Data],
    /// How deeply the node being read is nested.
    depth: usize,
    reading: R,
}

/// One thing the decoder read, as it means it: a span, a tag (the two
/// tags of an integer as one: they read to the same tree), a whole number
/// (an index, a count, a pointer, an observation, a data number) or an
/// integer. The tree a code reads to is a function of these, and they of
/// the tree, so two codes read to equal trees exactly when they read
/// equal data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Datum {
    Span(Span),
    /// A tag's number.
    Tag(u32),
    Number(u32),
    Int(i64),
}

/// What a [`Decoder`] does with what it reads: the one walk of the code
/// calls these at each datum and each node.
pub trait Reading {
    /// What reading a node of type `T` gives.
    type Node<T>;
    /// Takes in each datum as it is read (and found well formed); an
    /// error stops the reading.
    fn datum(&mut self, datum: Datum) -> Result<(), CodeError>;
    /// A node with no children.
    fn node<T>(make: impl FnOnce() -> T) -> Self::Node<T>;
    /// A node made from one child.
    fn map<A, B>(child: Self::Node<A>, make: impl FnOnce(A) -> B) -> Self::Node<B>;
    /// Two children as one.
    fn both<A, B>(a: Self::Node<A>, b: Self::Node<B>) -> Self::Node<(A, B)>;
    /// A node made from one child, which may refuse it.
    fn try_map<A, B>(
        child: Self::Node<A>,
        make: impl FnOnce(A) -> Result<B, CodeError>,
    ) -> Result<Self::Node<B>, CodeError>;
}

/// The reading that builds the tree.
pub struct Tree;

impl Reading for Tree {
    type Node<T> = T;

    fn datum(&mut self, _: Datum) -> Result<(), CodeError> {
        Ok(())
    }

    fn node<T>(make: impl FnOnce() -> T) -> T {
        make()
    }

    fn map<A, B>(child: A, make: impl FnOnce(A) -> B) -> B {
        make(child)
    }

    fn both<A, B>(a: A, b: B) -> (A, B) {
        (a, b)
    }

    fn try_map<A, B>(
        child: A,
        make: impl FnOnce(A) -> Result<B, CodeError>,
    ) -> Result<B, CodeError> {
        make(child)
    }
}

impl<'a> Decoder<'a> {
    pub fn new(
        values: &'a [f32],
        spans: &'a [Span],
        pointers: usize,
        data: &'a [Data],
    ) -> Decoder<'a> {
        Decoder::with(values, spans, pointers, data, Tree)
    }

    /// The same code, from its start, read with `reading`.
    pub(super) fn reading<S: Reading>(self, reading: S) -> Decoder<'a, S> {
        Decoder::with(self.values, self.spans, self.pointers, self.data, reading)
    }
}

impl<'a, R: Reading> Decoder<'a, R> {
    fn with(
        values: &'a [f32],
        spans: &'a [Span],
        pointers: usize,
        data: &'a [Data],
        reading: R,
    ) -> Decoder<'a, R> {
        Decoder {
            values,
            at: 0,
            spans,
            span_at: 0,
            pointers,
            data,
            depth: 0,
            reading,
        }
    }

    /// Reads one nested node with `read`, refusing nesting deeper than the
    /// front end accepts.
    fn nested<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, CodeError>,
    ) -> Result<T, CodeError> {
        if self.depth >= MAX_DEPTH {
            return Err(CodeError(format!("nodes nested deeper than {MAX_DEPTH}")));
        }
        self.depth += 1;
        let node = read(self);
        self.depth -= 1;
        node
    }

    /// True when every span was used and only zeros are left (every value
    /// looked at, so that the loop runs as vectors).
    pub fn finished(&self) -> bool {
        let rest = self.values.get(self.at..).unwrap_or_default();
        self.span_at == self.spans.len() && rest.iter().fold(true, |zero, &v| zero & (v == 0.0))
    }

    /// The next number, which must be a whole number in `0..limit`.
    fn number(&mut self, limit: u32, what: &str) -> Result<u32, CodeError> {
        let value = *self
            .values
            .get(self.at)
            .ok_or_else(|| CodeError(format!("the code ends where {what} should be")))?;
        self.at += 1;
        // `value as u32` truncates, so the round trip says whether `value`
        // is whole (as `fract() == 0.0` does, without a call to `truncf`).
        if value >= 0.0 && value < limit as f32 && (value as u32) as f32 == value {
            Ok(value as u32)
        } else {
            Err(CodeError(format!("{value} is not a valid {what}")))
        }
    }

    /// [`Decoder::number`], taken in as a datum.
    fn index(&mut self, limit: u32, what: &str) -> Result<u32, CodeError> {
        let number = self.number(limit, what)?;
        self.reading.datum(Datum::Number(number))?;
        Ok(number)
    }

    fn span(&mut self) -> Result<Span, CodeError> {
        let span = self
            .spans
            .get(self.span_at)
            .copied()
            .ok_or_else(|| CodeError("fewer source spans than expression nodes".into()))?;
        self.span_at += 1;
        self.reading.datum(Datum::Span(span))?;
        Ok(span)
    }

    /// An observation of `kind`, by its place among those of its kind.
    fn observation(&mut self, kind: ObservationKind) -> Result<&'static Observation, CodeError> {
        let list = observations(kind);
        let limit = u32::try_from(list.len()).unwrap_or(u32::MAX);
        Ok(list[self.index(limit, "observation")? as usize])
    }

    fn pointer(&mut self) -> Result<PointerId, CodeError> {
        let limit = u32::try_from(self.pointers).unwrap_or(u32::MAX);
        Ok(self.index(limit, "pointer")? as PointerId)
    }

    /// The next number as a tag of the prefix code (`what` says where).
    fn tag(&mut self, what: &str) -> Result<Tag, CodeError> {
        let number = self.number(u32::MAX, what)?;
        let tag = Tag::from_number(number)
            .ok_or_else(|| CodeError(format!("{number} is not a {what}")))?;
        let read = if tag == Tag::BigInt { Tag::Int } else { tag };
        self.reading.datum(Datum::Tag(read as u32))?;
        Ok(tag)
    }

    /// An integer after its tag (`Int` or `BigInt`).
    fn int(&mut self, tag: Tag) -> Result<i64, CodeError> {
        let value = if tag == Tag::Int {
            let value = *self
                .values
                .get(self.at)
                .ok_or_else(|| CodeError("the code ends inside an integer".into()))?;
            self.at += 1;
            // NaN fails the first test; below 2^24 `as i32` truncates.
            let small = value.abs() < SMALL as f32 && (value as i32) as f32 == value;
            if !small {
                return Err(CodeError(format!("{value} is not a small integer")));
            }
            value as i64
        } else {
            let mut bits = 0u64;
            for limb in 0..4 {
                bits |= u64::from(self.number(1 << 16, "integer limb")?) << (16 * limb);
            }
            bits as i64
        };
        self.reading.datum(Datum::Int(value))?;
        Ok(value)
    }

    pub fn position(&mut self) -> Result<R::Node<PosExpr>, CodeError> {
        self.nested(Decoder::position_node)
    }

    fn position_node(&mut self) -> Result<R::Node<PosExpr>, CodeError> {
        let span = self.span()?;
        let tag = self.tag("position tag")?;
        let kind = match tag {
            Tag::Int | Tag::BigInt => {
                let value = self.int(tag)?;
                R::node(|| PosKind::Int(value))
            }
            Tag::Pointer => {
                let pointer = self.pointer()?;
                R::node(|| PosKind::Pointer(pointer))
            }
            Tag::Last => R::node(|| PosKind::Last),
            Tag::Resume => R::node(|| PosKind::Resume),
            Tag::End => R::node(|| PosKind::End),
            Tag::ObservePosition => {
                let observation = self.observation(ObservationKind::Position)?;
                R::map(self.position()?, |at| {
                    PosKind::Observe(observation, Box::new(at))
                })
            }
            Tag::Neg => R::map(self.position()?, |e| PosKind::Neg(Box::new(e))),
            Tag::Read => R::map(self.cell(span)?, |cell| PosKind::Read(Box::new(cell))),
            _ => match tag.arith_op() {
                Some(op) => {
                    let lhs = self.position()?;
                    R::map(R::both(lhs, self.position()?), |(lhs, rhs)| {
                        PosKind::Arith(op, Box::new(lhs), Box::new(rhs))
                    })
                }
                None => return Err(CodeError(format!("{tag:?} is not a position tag"))),
            },
        };
        Ok(R::map(kind, |kind| PosExpr { kind, span }))
    }

    /// `count` items read by `read`, as a list.
    fn list<T>(
        &mut self,
        count: usize,
        mut read: impl FnMut(&mut Self, usize) -> Result<R::Node<T>, CodeError>,
    ) -> Result<R::Node<Vec<T>>, CodeError> {
        let mut list = R::node(Vec::new);
        for i in 0..count {
            let item = read(self, i)?;
            list = R::map(R::both(list, item), |(mut list, item)| {
                list.push(item);
                list
            });
        }
        Ok(list)
    }

    /// A cell of declared data written at `span`, after its tag: the
    /// data's number, which must be the program's, and as many indices as
    /// its shape has.
    fn cell(&mut self, span: Span) -> Result<R::Node<Cell>, CodeError> {
        let limit = u32::try_from(self.data.len()).unwrap_or(u32::MAX);
        let id = self.index(limit, "data number")? as DataId;
        let data = &self.data[id];
        let count = self.index(3, "index count")? as usize;
        if count != data.dims.len() {
            return Err(CodeError(format!(
                "`{}` has {} dimensions, but the code gives {count} indices",
                data.name,
                data.dims.len()
            )));
        }
        let at = self.list(count, |d, _| d.position())?;
        Ok(R::map(at, |at| Cell {
            data: id,
            name: data.name.clone(),
            at,
            span,
        }))
    }

    /// The arguments of an ACT of kind `kind`, applied at `span`, each
    /// read by its declared parameter type.
    pub fn act(&mut self, kind: ActKind, span: Span) -> Result<R::Node<ActApp>, CodeError> {
        self.reading.datum(Datum::Span(span))?;
        let act = match kind.decl() {
            None => {
                let count = self.index(u32::MAX, "argument count")?;
                let exprs = self.list(count as usize, |d, _| d.position())?;
                R::map(exprs, |exprs| match kind.frame() {
                    Some(op) => Act::Frame(op, exprs),
                    None => Act::Push(exprs),
                })
            }
            Some(decl) => {
                let params = decl.params;
                let args = self.list(params.len(), |d, i| d.act_argument(params[i]))?;
                R::try_map(args, |args| {
                    Act::build(decl, args).ok_or_else(|| {
                        CodeError(format!("the arguments do not fit {}", decl.display()))
                    })
                })?
            }
        };
        Ok(R::map(act, |act| ActApp { act, span }))
    }

    /// One ACT argument of type `param`.
    fn act_argument(&mut self, param: ParamType) -> Result<R::Node<ActArg>, CodeError> {
        Ok(match param {
            ParamType::Pointer => {
                let pointer = self.pointer()?;
                R::node(|| ActArg::Pointer(pointer))
            }
            ParamType::Position => R::map(self.position()?, ActArg::Position),
            ParamType::Direction => {
                let direction = DIRECTIONS[self.index(2, "direction")? as usize];
                R::node(|| ActArg::Direction(direction))
            }
            ParamType::Color => {
                let color = COLORS[self.index(3, "colour")? as usize];
                R::node(|| ActArg::Color(color))
            }
            ParamType::Ok => R::node(|| ActArg::Ok),
            ParamType::Place => {
                let span = self.span()?;
                R::map(self.cell(span)?, ActArg::Place)
            }
        })
    }
}

/// Conditions are read only into trees (the detectors' codes).
impl Decoder<'_> {
    fn operand(&mut self) -> Result<Operand, CodeError> {
        let tag = self.tag("operand tag")?;
        Ok(match tag {
            Tag::OperandInt => {
                let tag = self.tag("integer tag")?;
                if tag != Tag::Int && tag != Tag::BigInt {
                    return Err(CodeError(format!("{tag:?} is not an integer tag")));
                }
                Operand::Int(self.int(tag)?)
            }
            Tag::OperandEnd => Operand::End,
            Tag::OperandPos => Operand::Pos(self.position()?),
            Tag::OperandValue => {
                let span = self.span()?;
                let observation = self.observation(ObservationKind::Value)?;
                let at = self.position()?;
                Operand::Val(ValExpr {
                    observation,
                    at,
                    span,
                })
            }
            Tag::OperandColor => {
                let span = self.span()?;
                Operand::Sym(SymExpr::Literal(
                    COLORS[self.index(3, "colour")? as usize],
                    span,
                ))
            }
            Tag::OperandObserve => {
                let span = self.span()?;
                let observation = self.observation(ObservationKind::Symbol)?;
                Operand::Sym(SymExpr::Observe(observation, self.position()?, span))
            }
            _ => return Err(CodeError(format!("{tag:?} is not an operand tag"))),
        })
    }

    pub fn condition(&mut self) -> Result<BoolExpr, CodeError> {
        self.nested(Decoder::condition_node)
    }

    fn condition_node(&mut self) -> Result<BoolExpr, CodeError> {
        let tag = self.tag("condition tag")?;
        Ok(match tag {
            Tag::Test => {
                let observation = self.observation(ObservationKind::Test)?;
                BoolExpr::Test(observation, self.position()?)
            }
            Tag::And | Tag::Or => {
                let a = Box::new(self.condition()?);
                let b = Box::new(self.condition()?);
                if tag == Tag::And {
                    BoolExpr::And(a, b)
                } else {
                    BoolExpr::Or(a, b)
                }
            }
            Tag::Not => BoolExpr::Not(Box::new(self.condition()?)),
            _ => match tag.compare_op() {
                Some(op) => {
                    let lhs = self.operand()?;
                    BoolExpr::Compare(op, lhs, self.operand()?)
                }
                None => return Err(CodeError(format!("{tag:?} is not a condition tag"))),
            },
        })
    }
}
