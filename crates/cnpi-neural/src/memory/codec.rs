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

use std::sync::OnceLock;

use cnpi::env;
use cnpi::operators::MAX_DEPTH;
use cnpi::operators::{ArithOp, CompareOp};
use cnpi::program::{
    Act, ActApp, ActArg, ActDecl, BoolExpr, Cell, Color, Data, DataId, Direction, FrameAct,
    Observation, ObservationKind, Operand, ParamType, PointerId, PosExpr, PosKind, SymExpr,
    ValExpr,
};
use cnpi::span::Span;

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
    fn frame(self) -> Option<FrameAct> {
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

/// Every observation of a kind, in registry order: an observation is
/// written as its place in this list.
fn observations(kind: ObservationKind) -> &'static [&'static Observation] {
    static ALL: OnceLock<Vec<Vec<&'static Observation>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let all = env::all_observations();
        OBSERVATION_KINDS
            .iter()
            .map(|k| all.iter().copied().filter(|o| o.kind == *k).collect())
            .collect()
    });
    &all[position_of(&OBSERVATION_KINDS, &kind) as usize]
}

const OBSERVATION_KINDS: [ObservationKind; 4] = [
    ObservationKind::Value,
    ObservationKind::Symbol,
    ObservationKind::Test,
    ObservationKind::Position,
];

/// The tags of the prefix code: the one list the encoder writes and the
/// decoder reads. Each tag is its own number in the code, so a tag's number
/// never changes once files hold it; new tags take new numbers.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    // Positions (and integers).
    Int = 1,
    BigInt = 2,
    Pointer = 3,
    Last = 4,
    End = 5,
    /// A position observation (`child(v)`).
    ObservePosition = 6,
    Neg = 7,
    Add = 8,
    Sub = 9,
    Mul = 10,
    Div = 11,
    Rem = 12,
    /// A cell of declared data (`ram`): `t`, `A[i]`, `D[i][j]`.
    Read = 13,
    /// `_resume`, the top frame's resume point.
    Resume = 14,
    // Comparison operands.
    OperandInt = 20,
    OperandEnd = 21,
    OperandPos = 22,
    OperandValue = 23,
    OperandColor = 24,
    /// A symbol observation (`color(v)`).
    OperandObserve = 25,
    // Conditions.
    Eq = 30,
    Ne = 31,
    Lt = 32,
    Le = 33,
    Gt = 34,
    Ge = 35,
    /// A test observation (`has_child(v)`).
    Test = 40,
    And = 41,
    Or = 42,
    Not = 43,
}

impl Tag {
    const ALL: [Tag; 30] = [
        Tag::Int,
        Tag::BigInt,
        Tag::Pointer,
        Tag::Last,
        Tag::End,
        Tag::ObservePosition,
        Tag::Neg,
        Tag::Add,
        Tag::Sub,
        Tag::Mul,
        Tag::Div,
        Tag::Rem,
        Tag::Read,
        Tag::Resume,
        Tag::OperandInt,
        Tag::OperandEnd,
        Tag::OperandPos,
        Tag::OperandValue,
        Tag::OperandColor,
        Tag::OperandObserve,
        Tag::Eq,
        Tag::Ne,
        Tag::Lt,
        Tag::Le,
        Tag::Gt,
        Tag::Ge,
        Tag::Test,
        Tag::And,
        Tag::Or,
        Tag::Not,
    ];

    /// The tag numbered `number`, if any.
    fn from_number(number: u32) -> Option<Tag> {
        Tag::ALL.into_iter().find(|tag| *tag as u32 == number)
    }

    fn arith(op: ArithOp) -> Tag {
        match op {
            ArithOp::Add => Tag::Add,
            ArithOp::Sub => Tag::Sub,
            ArithOp::Mul => Tag::Mul,
            ArithOp::Div => Tag::Div,
            ArithOp::Rem => Tag::Rem,
        }
    }

    fn arith_op(self) -> Option<ArithOp> {
        Some(match self {
            Tag::Add => ArithOp::Add,
            Tag::Sub => ArithOp::Sub,
            Tag::Mul => ArithOp::Mul,
            Tag::Div => ArithOp::Div,
            Tag::Rem => ArithOp::Rem,
            _ => return None,
        })
    }

    fn compare(op: CompareOp) -> Tag {
        match op {
            CompareOp::Eq => Tag::Eq,
            CompareOp::Ne => Tag::Ne,
            CompareOp::Lt => Tag::Lt,
            CompareOp::Le => Tag::Le,
            CompareOp::Gt => Tag::Gt,
            CompareOp::Ge => Tag::Ge,
        }
    }

    fn compare_op(self) -> Option<CompareOp> {
        Some(match self {
            Tag::Eq => CompareOp::Eq,
            Tag::Ne => CompareOp::Ne,
            Tag::Lt => CompareOp::Lt,
            Tag::Le => CompareOp::Le,
            Tag::Gt => CompareOp::Gt,
            Tag::Ge => CompareOp::Ge,
            _ => return None,
        })
    }
}

const COLORS: [Color; 3] = [Color::White, Color::Grey, Color::Black];
const DIRECTIONS: [Direction; 2] = [Direction::Left, Direction::Right];

/// Integers whose magnitude is below this are one exact `f32`.
const SMALL: i64 = 1 << 24;

/// The index of `item` in `list` (every enum value is listed).
fn position_of<T: PartialEq>(list: &[T], item: &T) -> u32 {
    list.iter().position(|x| x == item).unwrap_or_default() as u32
}

/// A code under construction, with the span of each expression node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Code {
    pub values: Vec<f32>,
    pub spans: Vec<Span>,
}

impl Code {
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
            // Refused before conversion (E0807); no tag, so it never decodes.
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

    /// True when every span was used and only zeros are left.
    pub fn finished(&self) -> bool {
        self.span_at == self.spans.len() && self.values[self.at..].iter().all(|&v| v == 0.0)
    }

    /// The next number, which must be a whole number in `0..limit`.
    fn index(&mut self, limit: u32, what: &str) -> Result<u32, CodeError> {
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

    fn span(&mut self) -> Result<Span, CodeError> {
        let span = self
            .spans
            .get(self.span_at)
            .copied()
            .ok_or_else(|| CodeError("fewer source spans than expression nodes".into()))?;
        self.span_at += 1;
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
        let number = self.index(u32::MAX, what)?;
        Tag::from_number(number).ok_or_else(|| CodeError(format!("{number} is not a {what}")))
    }

    /// An integer after its tag (`Int` or `BigInt`).
    fn int(&mut self, tag: Tag) -> Result<i64, CodeError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use cnpi::program::EnvKind;
    use cnpi::span::SourceId;

    /// The registered observation called `name`.
    fn observe(name: &str) -> &'static Observation {
        let all = env::all_observations();
        all.into_iter().find(|o| o.name == name).expect(name)
    }

    fn span(start: usize) -> Span {
        Span::new(SourceId::USER, start, start + 1)
    }

    fn e(kind: PosKind, at: usize) -> PosExpr {
        PosExpr {
            kind,
            span: span(at),
        }
    }

    #[test]
    fn positions_round_trip_with_any_i64_and_their_spans() {
        for k in [0, 1, -1, (1 << 24) - 1, 1 << 24, i64::MIN, i64::MAX, -77] {
            let expr = e(
                PosKind::Arith(
                    ArithOp::Sub,
                    Box::new(e(PosKind::Pointer(2), 1)),
                    Box::new(e(PosKind::Neg(Box::new(e(PosKind::Int(k), 3))), 2)),
                ),
                0,
            );
            let mut code = Code::default();
            code.position(&expr);
            let mut decoder = Decoder::new(&code.values, &code.spans, 3, &[]);
            assert_eq!(decoder.position(), Ok(expr), "{k}");
            assert!(decoder.finished());
        }
    }

    #[test]
    fn conditions_and_acts_round_trip() {
        let at = |p| e(PosKind::Pointer(p), p);
        let condition = BoolExpr::Or(
            Box::new(BoolExpr::Not(Box::new(BoolExpr::Test(
                observe("has_child"),
                at(0),
            )))),
            Box::new(BoolExpr::Compare(
                CompareOp::Le,
                Operand::Val(ValExpr {
                    observation: observe("sum"),
                    at: at(1),
                    span: span(9),
                }),
                Operand::Int(-5),
            )),
        );
        let mut code = Code::default();
        code.condition(&condition);
        let mut decoder = Decoder::new(&code.values, &code.spans, 2, &[]);
        assert_eq!(decoder.condition(), Ok(condition));

        let child = PosKind::Observe(observe("child"), Box::new(at(0)));
        let push = Act::Push(vec![at(1), e(child, 7)]);
        let graph = EnvKind::from_name("graph").expect("registered");
        let color = vec![ActArg::Pointer(1), ActArg::Color(Color::Black)];
        for act in [
            push,
            env::build_act(graph, "COLOR", color).expect("an ACT of graph"),
            Act::Move(0, Direction::Right),
        ] {
            let mut code = Code::default();
            code.act_arguments(&act);
            let mut decoder = Decoder::new(&code.values, &code.spans, 2, &[]);
            let kind = ActKind::of(&act).expect("a row");
            let decoded = decoder.act(kind, span(4)).expect("decodes");
            assert_eq!(decoded.act, act);
        }
        assert_eq!(ActKind::NOP.name(), "NOP");
        assert!(ActKind::all().any(|kind| kind.name() == "OUT(OK)"));
    }

    #[test]
    fn bad_codes_are_errors_not_panics() {
        let spans = [span(0); 4];
        for values in [&[99.0][..], &[3.0, 5.0], &[1.0, 0.5], &[8.0, 3.0], &[]] {
            assert!(
                Decoder::new(values, &spans, 2, &[]).position().is_err(),
                "{values:?}"
            );
        }
        assert!(Decoder::new(&[3.0, 1.0], &[], 2, &[]).position().is_err());
        assert!(
            Decoder::new(&[f32::NAN], &spans, 2, &[])
                .condition()
                .is_err()
        );
    }
}
