//! Typed expressions and their exact evaluation.
//!
//! The checker sorts every expression of the source into one of four types:
//! positions ([`PosExpr`], signed integers), values ([`ValExpr`], an i64 or
//! END), symbols ([`SymExpr`], a colour or END) and conditions
//! ([`BoolExpr`]). Evaluation reads the environment through the [`World`]
//! trait and implements the END rules of the language: a position outside
//! `0..n-1` equals END, and every ordering comparison with END is false.
//! A [`Cell`] of a `ram` program's memory is read as a position; its
//! indices are positions too, so the two types stand together here.

use super::{Color, DataId, DefId, Observation, PointerId};
use crate::operators::{ArithOp, CompareOp};

use crate::span::Span;

/// What an expression may read from a running environment: its size, the
/// pointers, and its observations at a position, by their kind.
#[allow(clippy::len_without_is_empty)] // n is a size to compute with, not a container's.
pub trait World {
    /// n: the length of the array, the number of vertices or columns.
    fn len(&self) -> i64;
    fn pointer(&self, pointer: PointerId) -> i64;
    /// A value observation at a position; `None` reads as END.
    fn value(&self, observation: &Observation, at: i64) -> Option<i64>;
    /// A symbol observation at a position; `None` reads as END.
    fn symbol(&self, observation: &Observation, at: i64) -> Option<Color>;
    /// A test observation at a position.
    fn test(&self, observation: &Observation, at: i64) -> bool;
    /// A position observation at a position; n (END) where there is none.
    fn position(&self, observation: &Observation, at: i64) -> i64;
    /// A cell of a `ram` program's memory (`at` holds one index per
    /// dimension); `None` reads as END: outside its array, or in an
    /// environment without data.
    fn cell(&self, _data: DataId, _at: &[i64]) -> Option<i64> {
        None
    }
    /// Pointer `pointer`, or 0 for `u32::MAX`, which no world has (a
    /// fast side's missing pointer, see [`super::flat`]).
    #[inline(always)]
    fn pointer_or_zero(&self, pointer: PointerId) -> i64 {
        match pointer {
            0xffff_ffff => 0,
            p => self.pointer(p),
        }
    }
    /// [`Self::cell`] at the first `dims` of `i, j` (at most two; the
    /// others 0).
    #[inline(always)]
    fn cell_ij(&self, data: DataId, dims: u8, i: i64, j: i64) -> Option<i64> {
        self.cell(data, &[i, j][..usize::from(dims).min(2)])
    }
    /// `_resume`: the top frame's resume point; 0 without frames.
    fn resume(&self) -> i64 {
        0
    }
    /// The value `call` returns for its evaluated arguments `args`. Only
    /// an engine that runs calls can say (the reference interpreter); any
    /// other world answers [`EvalError::Call`].
    fn call(&self, call: &CallExpr, _args: &[i64]) -> Result<i64, EvalError> {
        Err(EvalError::Call(call.span))
    }
}

/// Why an expression could not be evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalError {
    DivisionByZero(Span),
    Overflow(Span),
    /// Arithmetic on a read outside its array (`A[-1] + 1`), which is END.
    EndInArithmetic(Span),
    /// A call inside an expression, whose value this world cannot compute
    /// (see [`World::call`]).
    Call(Span),
    /// A hole `?`, which has no value until `cnpic learn` fills it.
    Hole(Span),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PosExpr {
    pub kind: PosKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PosKind {
    Int(i64),
    Pointer(PointerId),
    /// n − 1
    Last,
    /// n, in arithmetic and in `SET`
    End,
    /// A position observation (`child(v)`).
    Observe(&'static Observation, Box<PosExpr>),
    Neg(Box<PosExpr>),
    Arith(ArithOp, Box<PosExpr>, Box<PosExpr>),
    /// A cell of a `ram` program's memory (`t`, `A[i]`, `D[i][j]`). As a
    /// side of a comparison it may read as END; in arithmetic, END is an
    /// error.
    Read(Box<Cell>),
    /// `_resume`: the resume point of the top frame of the frame stack, or
    /// 0 when it is empty.
    Resume,
    /// A call of a normal program for its value: `FIB(k - 1)` (`ram`).
    Call(Box<CallExpr>),
    /// A hole `?` where an integer expression goes, for `cnpic learn`:
    /// the index of its [`super::Blank`] in [`super::Program::blanks`].
    /// No engine evaluates it ([`EvalError::Hole`]).
    Hole(usize),
}

/// `F(e1, ..., ek)`: a call of the normal program `def` with one argument
/// per parameter (none when it has none, and then it shares the
/// registers, as `F()` does). As a statement its value, if any, is
/// dropped; in an expression it is the value of the `return` that ended
/// the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallExpr {
    pub def: DefId,
    /// The callee's name, for printing.
    pub name: String,
    pub args: Vec<PosExpr>,
    /// The whole call, from the name to the closing parenthesis.
    pub span: Span,
}

/// One place of a `ram` program's memory: a scalar (`t`, `n`, `x`) or an
/// element (`A[i]`, `D[i][j]`), with the name it was written with (for
/// printing) and its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub data: DataId,
    pub name: String,
    /// The indices: as many as the data's dimensions.
    pub at: Vec<PosExpr>,
    pub span: Span,
}

impl Cell {
    /// The value in the cell; `None` (END) for an index outside its array.
    #[inline]
    pub fn read<W: World + ?Sized>(&self, world: &W) -> Result<Option<i64>, EvalError> {
        Ok(world.cell(self.data, &self.indices(world)?))
    }

    /// The indices, evaluated, without allocating (data has at most two
    /// dimensions: the checker refuses more, and any further index is not
    /// evaluated).
    #[inline]
    pub fn indices<W: World + ?Sized>(&self, world: &W) -> Result<Indices, EvalError> {
        let mut at = Indices {
            values: [0; 2],
            len: self.at.len().min(2),
        };
        for (slot, e) in at.values.iter_mut().zip(&self.at) {
            *slot = e.eval(world)?;
        }
        Ok(at)
    }
}

/// The evaluated indices of a [`Cell`]: a slice of at most two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indices {
    values: [i64; 2],
    len: usize,
}

impl std::ops::Deref for Indices {
    type Target = [i64];
    fn deref(&self) -> &[i64] {
        &self.values[..self.len]
    }
}

/// A value observation at a position (`A[e]`, `sum(i)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValExpr {
    pub observation: &'static Observation,
    pub at: PosExpr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymExpr {
    Literal(Color, Span),
    /// A symbol observation (`color(v)`).
    Observe(&'static Observation, PosExpr, Span),
}

/// One side of a comparison. Integer literals (after constant folding) and
/// `END` compare with positions and values alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Int(i64),
    End,
    Pos(PosExpr),
    Val(ValExpr),
    Sym(SymExpr),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoolExpr {
    Compare(CompareOp, Operand, Operand),
    /// A test observation (`has_child(v)`).
    Test(&'static Observation, PosExpr),
    And(Box<BoolExpr>, Box<BoolExpr>),
    Or(Box<BoolExpr>, Box<BoolExpr>),
    Not(Box<BoolExpr>),
    /// A hole `?` where a condition goes, for `cnpic learn`: the index of
    /// its [`super::Blank`] in [`super::Program::blanks`], and the `?`.
    /// No engine evaluates it ([`Leaf::Hole`]).
    Hole(usize, Span),
}

impl PosExpr {
    /// The integer `k`, written at `span`.
    pub fn int(k: i64, span: Span) -> PosExpr {
        PosExpr {
            kind: PosKind::Int(k),
            span,
        }
    }

    /// The register (pointer) `p`, read at `span`.
    pub fn pointer(p: PointerId, span: Span) -> PosExpr {
        PosExpr {
            kind: PosKind::Pointer(p),
            span,
        }
    }

    pub fn eval<W: World + ?Sized>(&self, world: &W) -> Result<i64, EvalError> {
        let overflow = || EvalError::Overflow(self.span);
        Ok(match &self.kind {
            PosKind::Int(k) => *k,
            PosKind::Pointer(p) => world.pointer(*p),
            PosKind::Last => world.len() - 1,
            PosKind::End => world.len(),
            PosKind::Observe(o, at) => world.position(o, at.eval(world)?),
            PosKind::Neg(e) => e.eval(world)?.checked_neg().ok_or_else(overflow)?,
            PosKind::Resume => world.resume(),
            PosKind::Hole(_) => return Err(EvalError::Hole(self.span)),
            PosKind::Read(cell) => cell
                .read(world)?
                .ok_or(EvalError::EndInArithmetic(self.span))?,
            PosKind::Call(call) => {
                let args = call
                    .args
                    .iter()
                    .map(|arg| arg.eval(world))
                    .collect::<Result<Vec<_>, _>>()?;
                world.call(call, &args)?
            }
            PosKind::Arith(op, lhs, rhs) => {
                let (a, b) = (lhs.eval(world)?, rhs.eval(world)?);
                let result = match op {
                    ArithOp::Add => a.checked_add(b),
                    ArithOp::Sub => a.checked_sub(b),
                    ArithOp::Mul => a.checked_mul(b),
                    ArithOp::Div | ArithOp::Rem if b == 0 => {
                        return Err(EvalError::DivisionByZero(self.span));
                    }
                    ArithOp::Div => a.checked_div(b),
                    ArithOp::Rem => a.checked_rem(b),
                };
                result.ok_or_else(overflow)?
            }
        })
    }
}

/// A comparison operand after evaluation.
pub(super) enum Evaluated {
    /// A position or an integer literal; equals END when outside `0..n-1`.
    Position(i64),
    /// The literal `END`.
    End,
    /// A value; `None` reads as END.
    Value(Option<i64>),
    /// A symbol; `None` (the colour of a non-vertex) reads as END.
    Symbol(Option<Color>),
}

impl Operand {
    #[inline]
    fn eval<W: World + ?Sized>(&self, world: &W) -> Result<Evaluated, EvalError> {
        Ok(match self {
            Operand::Int(k) => Evaluated::Position(*k),
            Operand::End => Evaluated::End,
            Operand::Pos(PosExpr {
                kind: PosKind::Read(cell),
                ..
            }) => Evaluated::Value(cell.read(world)?),
            Operand::Pos(e) => Evaluated::Position(e.eval(world)?),
            Operand::Val(v) => Evaluated::Value(world.value(v.observation, v.at.eval(world)?)),
            Operand::Sym(SymExpr::Literal(c, _)) => Evaluated::Symbol(Some(*c)),
            Operand::Sym(SymExpr::Observe(o, at, _)) => {
                Evaluated::Symbol(world.symbol(o, at.eval(world)?))
            }
        })
    }
}

/// How the two sides of a comparison relate, which is all a comparison
/// operator needs: two numbers (positions, integers, values that are not
/// END) are ordered; any other pair is only equal or not, by the END rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    Less,
    Equal,
    Greater,
    /// Not both numbers, and equal (`A[9] == END` off the array, `WHITE == WHITE`).
    Same,
    /// Not both numbers, and not equal.
    Different,
}

/// Two numbers relate by their order.
impl From<std::cmp::Ordering> for Relation {
    #[inline]
    fn from(order: std::cmp::Ordering) -> Relation {
        match order {
            std::cmp::Ordering::Less => Relation::Less,
            std::cmp::Ordering::Equal => Relation::Equal,
            std::cmp::Ordering::Greater => Relation::Greater,
        }
    }
}

impl Relation {
    /// Whether `lhs op rhs` holds when the sides relate as `self`. Any
    /// ordering comparison of sides that are not both numbers is false.
    pub fn holds(self, op: CompareOp) -> bool {
        use Relation::*;
        matches!(
            (self, op),
            (Less, CompareOp::Lt | CompareOp::Le | CompareOp::Ne)
                | (Equal, CompareOp::Eq | CompareOp::Le | CompareOp::Ge)
                | (Greater, CompareOp::Gt | CompareOp::Ge | CompareOp::Ne)
                | (Same, CompareOp::Eq)
                | (Different, CompareOp::Ne)
        )
    }
}

/// The relation of two evaluated operands, by the END rules: END equals
/// exactly the things that read as END, and is never ordered. `n` is asked
/// only when a position meets END.
#[inline]
pub(super) fn relate(lhs: Evaluated, rhs: Evaluated, n: impl Fn() -> i64) -> Relation {
    use Evaluated::*;
    let reads_as_end = |e: &Evaluated| match e {
        End | Value(None) | Symbol(None) => true,
        Position(p) => *p < 0 || *p >= n(),
        Value(Some(_)) | Symbol(Some(_)) => false,
    };
    let equal = match (&lhs, &rhs) {
        (End, other) | (other, End) => reads_as_end(other),
        (Value(None), Value(None)) => true,
        (Value(None), _) | (_, Value(None)) => false,
        (Symbol(a), Symbol(b)) => a == b,
        (Position(a) | Value(Some(a)), Position(b) | Value(Some(b))) => return a.cmp(b).into(),
        // Symbols against numbers: the checker rejects these.
        _ => false,
    };
    if equal {
        Relation::Same
    } else {
        Relation::Different
    }
}

impl Operand {
    /// True for the operands that may be numbers (integers, positions and
    /// values): only two of these can relate as less, equal or greater.
    pub fn may_be_number(&self) -> bool {
        matches!(self, Operand::Int(_) | Operand::Pos(_) | Operand::Val(_))
    }
}

/// How `lhs` and `rhs` relate in `world`.
#[inline]
pub fn relation<W: World + ?Sized>(
    lhs: &Operand,
    rhs: &Operand,
    world: &W,
) -> Result<Relation, EvalError> {
    Ok(relate(lhs.eval(world)?, rhs.eval(world)?, || world.len()))
}

/// A condition's leaf: what `and`, `or` and `not` combine.
#[derive(Clone, Copy, Debug)]
pub enum Leaf<'a> {
    Compare(CompareOp, &'a Operand, &'a Operand),
    Test(&'static Observation, &'a PosExpr),
    /// A hole `?` ([`BoolExpr::Hole`]), which has no value.
    Hole(Span),
}

impl BoolExpr {
    pub fn eval<W: World + ?Sized>(&self, world: &W) -> Result<bool, EvalError> {
        self.eval_with(&mut |leaf| match leaf {
            Leaf::Compare(op, lhs, rhs) => Ok(relation(lhs, rhs, world)?.holds(op)),
            Leaf::Test(o, at) => Ok(world.test(o, at.eval(world)?)),
            Leaf::Hole(span) => Err(EvalError::Hole(span)),
        })
    }

    /// Evaluates `and`, `or` and `not` left to right with short circuit,
    /// asking `leaf` for the value of each leaf it reaches.
    pub fn eval_with<E>(
        &self,
        leaf: &mut impl FnMut(Leaf<'_>) -> Result<bool, E>,
    ) -> Result<bool, E> {
        Ok(match self {
            BoolExpr::Compare(op, lhs, rhs) => leaf(Leaf::Compare(*op, lhs, rhs))?,
            BoolExpr::Test(o, at) => leaf(Leaf::Test(o, at))?,
            BoolExpr::And(a, b) => a.eval_with(leaf)? && b.eval_with(leaf)?,
            BoolExpr::Or(a, b) => a.eval_with(leaf)? || b.eval_with(leaf)?,
            BoolExpr::Not(a) => !a.eval_with(leaf)?,
            BoolExpr::Hole(_, span) => leaf(Leaf::Hole(*span))?,
        })
    }
}
