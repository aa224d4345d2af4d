//! The vocabulary of the prefix code: the tags the encoder writes and the
//! decoder reads, and the lists (observations, colours, directions) whose
//! places stand for their members.

use std::sync::OnceLock;

use cnpi::env;
use cnpi::operators::{ArithOp, CompareOp};
use cnpi::program::{Color, Direction, Observation, ObservationKind};

/// Every observation of a kind, in registry order: an observation is
/// written as its place in this list.
pub(super) fn observations(kind: ObservationKind) -> &'static [&'static Observation] {
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
pub(super) enum Tag {
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
    pub(super) fn from_number(number: u32) -> Option<Tag> {
        Tag::ALL.into_iter().find(|tag| *tag as u32 == number)
    }

    pub(super) fn arith(op: ArithOp) -> Tag {
        match op {
            ArithOp::Add => Tag::Add,
            ArithOp::Sub => Tag::Sub,
            ArithOp::Mul => Tag::Mul,
            ArithOp::Div => Tag::Div,
            ArithOp::Rem => Tag::Rem,
        }
    }

    pub(super) fn arith_op(self) -> Option<ArithOp> {
        Some(match self {
            Tag::Add => ArithOp::Add,
            Tag::Sub => ArithOp::Sub,
            Tag::Mul => ArithOp::Mul,
            Tag::Div => ArithOp::Div,
            Tag::Rem => ArithOp::Rem,
            _ => return None,
        })
    }

    pub(super) fn compare(op: CompareOp) -> Tag {
        match op {
            CompareOp::Eq => Tag::Eq,
            CompareOp::Ne => Tag::Ne,
            CompareOp::Lt => Tag::Lt,
            CompareOp::Le => Tag::Le,
            CompareOp::Gt => Tag::Gt,
            CompareOp::Ge => Tag::Ge,
        }
    }

    pub(super) fn compare_op(self) -> Option<CompareOp> {
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

pub(super) const COLORS: [Color; 3] = [Color::White, Color::Grey, Color::Black];
pub(super) const DIRECTIONS: [Direction; 2] = [Direction::Left, Direction::Right];

/// Integers whose magnitude is below this are one exact `f32`.
pub(super) const SMALL: i64 = 1 << 24;

/// The index of `item` in `list` (every enum value is listed).
pub(super) fn position_of<T: PartialEq>(list: &[T], item: &T) -> u32 {
    list.iter().position(|x| x == item).unwrap_or_default() as u32
}
