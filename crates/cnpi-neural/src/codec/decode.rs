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

/// Reads a code written by [`Code`].
pub struct Decoder<'a> {
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
}

impl<'a> Decoder<'a> {
    pub fn new(
        values: &'a [f32],
        spans: &'a [Span],
        pointers: usize,
        data: &'a [Data],
    ) -> Decoder<'a> {
        Decoder {
            values,
            at: 0,
            spans,
            span_at: 0,
            pointers,
            data,
            depth: 0,
        }
    }

    /// Reads one nested node with `read`, refusing nesting deeper than the
    /// front end accepts.
    pub(super) fn nested<T>(
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

    /// The data the program declares.
    pub(super) fn data(&self) -> &'a [Data] {
        self.data
    }

    /// The next number, which must be a whole number in `0..limit`.
    pub(super) fn index(&mut self, limit: u32, what: &str) -> Result<u32, CodeError> {
        let value = *self
            .values
            .get(self.at)
            .ok_or_else(|| CodeError(format!("the code ends where {what} should be")))?;
        self.at += 1;
        if value >= 0.0 && value < limit as f32 && value.fract() == 0.0 {
            Ok(value as u32)
        } else {
            Err(CodeError(format!("{value} is not a valid {what}")))
        }
    }

    pub(super) fn span(&mut self) -> Result<Span, CodeError> {
        let span = self
            .spans
            .get(self.span_at)
            .copied()
            .ok_or_else(|| CodeError("fewer source spans than expression nodes".into()))?;
        self.span_at += 1;
        Ok(span)
    }

    /// An observation of `kind`, by its place among those of its kind.
    pub(super) fn observation(
        &mut self,
        kind: ObservationKind,
    ) -> Result<&'static Observation, CodeError> {
        let list = observations(kind);
        let limit = u32::try_from(list.len()).unwrap_or(u32::MAX);
        Ok(list[self.index(limit, "observation")? as usize])
    }

    pub(super) fn pointer(&mut self) -> Result<PointerId, CodeError> {
        let limit = u32::try_from(self.pointers).unwrap_or(u32::MAX);
        Ok(self.index(limit, "pointer")? as PointerId)
    }

    /// The next number as a tag of the prefix code (`what` says where).
    pub(super) fn tag(&mut self, what: &str) -> Result<Tag, CodeError> {
        let number = self.index(u32::MAX, what)?;
        Tag::from_number(number).ok_or_else(|| CodeError(format!("{number} is not a {what}")))
    }

    /// An integer after its tag (`Int` or `BigInt`).
    pub(super) fn int(&mut self, tag: Tag) -> Result<i64, CodeError> {
        if tag == Tag::Int {
            let value = *self
                .values
                .get(self.at)
                .ok_or_else(|| CodeError("the code ends inside an integer".into()))?;
            self.at += 1;
            if value.fract() != 0.0 || value.abs() >= SMALL as f32 {
                return Err(CodeError(format!("{value} is not a small integer")));
            }
            return Ok(value as i64);
        }
        let mut bits = 0u64;
        for limb in 0..4 {
            bits |= u64::from(self.index(1 << 16, "integer limb")?) << (16 * limb);
        }
        Ok(bits as i64)
    }

    pub fn position(&mut self) -> Result<PosExpr, CodeError> {
        self.nested(Decoder::position_node)
    }

    fn position_node(&mut self) -> Result<PosExpr, CodeError> {
        let span = self.span()?;
        let tag = self.tag("position tag")?;
        let kind = match tag {
            Tag::Int | Tag::BigInt => PosKind::Int(self.int(tag)?),
            Tag::Pointer => PosKind::Pointer(self.pointer()?),
            Tag::Last => PosKind::Last,
            Tag::Resume => PosKind::Resume,
            Tag::End => PosKind::End,
            Tag::ObservePosition => {
                let observation = self.observation(ObservationKind::Position)?;
                PosKind::Observe(observation, Box::new(self.position()?))
            }
            Tag::Neg => PosKind::Neg(Box::new(self.position()?)),
            Tag::Read => PosKind::Read(Box::new(self.cell(span)?)),
            _ => match tag.arith_op() {
                Some(op) => {
                    let lhs = self.position()?;
                    PosKind::Arith(op, Box::new(lhs), Box::new(self.position()?))
                }
                None => return Err(CodeError(format!("{tag:?} is not a position tag"))),
            },
        };
        Ok(PosExpr { kind, span })
    }

    /// A cell of declared data written at `span`, after its tag: the
    /// data's number, which must be the program's, and as many indices as
    /// its shape has.
    fn cell(&mut self, span: Span) -> Result<Cell, CodeError> {
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
        let name = data.name.clone();
        let at = (0..count)
            .map(|_| self.position())
            .collect::<Result<_, _>>()?;
        Ok(Cell {
            data: id,
            name,
            at,
            span,
        })
    }

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

    /// The arguments of an ACT of kind `kind`, applied at `span`, each
    /// read by its declared parameter type.
    pub fn act(&mut self, kind: ActKind, span: Span) -> Result<ActApp, CodeError> {
        let act = match kind.decl() {
            None => {
                let count = self.index(u32::MAX, "argument count")?;
                let exprs = (0..count)
                    .map(|_| self.position())
                    .collect::<Result<_, _>>()?;
                match kind.frame() {
                    Some(op) => Act::Frame(op, exprs),
                    None => Act::Push(exprs),
                }
            }
            Some(decl) => {
                let args = decl
                    .params
                    .iter()
                    .map(|param| self.act_argument(*param))
                    .collect::<Result<Vec<_>, _>>()?;
                Act::build(decl, args).ok_or_else(|| {
                    CodeError(format!("the arguments do not fit {}", decl.display()))
                })?
            }
        };
        Ok(ActApp { act, span })
    }

    /// One ACT argument of type `param`.
    fn act_argument(&mut self, param: ParamType) -> Result<ActArg, CodeError> {
        Ok(match param {
            ParamType::Pointer => ActArg::Pointer(self.pointer()?),
            ParamType::Position => ActArg::Position(self.position()?),
            ParamType::Direction => {
                ActArg::Direction(DIRECTIONS[self.index(2, "direction")? as usize])
            }
            ParamType::Color => ActArg::Color(COLORS[self.index(3, "colour")? as usize]),
            ParamType::Ok => ActArg::Ok,
            ParamType::Place => {
                let span = self.span()?;
                ActArg::Place(self.cell(span)?)
            }
        })
    }
}
